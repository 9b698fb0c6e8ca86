"""Training: paracc.train(), Trainer (a training run stepped from Python)
and StepRecord, over the C API's paracc_trainer."""

from __future__ import annotations

import ctypes
import os
import threading
from typing import Any, Iterator, NamedTuple

import numpy as np

from . import _capi
from ._capi import ParaccInvalidArgument, check, lib


class StepRecord(NamedTuple):
    """One training step's figures (``struct paracc_step_record``)."""

    step: int            # the global step, from 0 (continuing after a resume)
    loss: float          # before the update
    grad_norm: float     # the global L2 norm, before clipping
    lr: float            # the learning rate the step used
    tokens_per_s: float
    ms: float            # the step's wall time


# --- option values ------------------------------------------------------------


def _number(key: str, value) -> str:
    """A number option's text: exact for floats (repr round-trips)."""
    if isinstance(value, (bool, np.bool_)):
        raise ParaccInvalidArgument(
            f"paracc: option '{key}' must be a number, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return str(value)  # text: the C API checks it


def _integer(key: str, value) -> str:
    if isinstance(value, (bool, np.bool_)):
        raise ParaccInvalidArgument(
            f"paracc: option '{key}' must be an integer, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)  # the C API reports what is not an integer


def _path(value) -> str:
    return os.fspath(value)


def _betas(value) -> str:
    if isinstance(value, str):
        return value
    return ",".join(_number("betas", b) for b in value)


def _size(value) -> str:
    # "40GiB", "512MiB"; an int is a number of bytes.
    return str(int(value)) + "B" if isinstance(value, (int, np.integer)) \
        and not isinstance(value, bool) else str(value)


# Training compile options: python keyword -> (C key, formatter).
_COMPILE_KEYS = {
    "loss": ("loss", str),
    "batch": ("batch", lambda v: _integer("batch", v)),
    "seq": ("seq", lambda v: _integer("seq", v)),
    "freeze": ("freeze", str),
    "optimizer": ("optimizer", str),
    "betas": ("betas", _betas),
    "eps": ("eps", lambda v: _number("eps", v)),
    "weight_decay": ("weight-decay", lambda v: _number("weight-decay", v)),
    "momentum": ("momentum", lambda v: _number("momentum", v)),
    "clip_grad_norm": ("clip-grad-norm",
                       lambda v: _number("clip-grad-norm", v)),
    "recompute": ("recompute", str),
    "memory_budget": ("memory-budget", _size),
    "bucket_mb": ("bucket-mb", lambda v: _number("bucket-mb", v)),
    "zero": ("zero", lambda v: _integer("zero", v)),
    "dropout_seed": ("dropout-seed", lambda v: _integer("dropout-seed", v)),
}

# Trainer options (paracc_trainer_create).
_TRAINER_KEYS = {
    "data": ("data", _path),
    "data_dir": ("data-dir", _path),
    "data_dtype": ("data-dtype", str),
    "data_seed": ("data-seed", lambda v: _integer("data-seed", v)),
    "steps": ("steps", lambda v: _integer("steps", v)),
    "lr": ("lr", lambda v: _number("lr", v)),
    "lr_schedule": ("lr-schedule", str),
    "warmup": ("warmup", lambda v: _integer("warmup", v)),
    "min_lr": ("min-lr", lambda v: _number("min-lr", v)),
    "log_json": ("log-json", _path),
    "checkpoint_dir": ("checkpoint-dir", _path),
    "checkpoint_every": ("checkpoint-every",
                         lambda v: _integer("checkpoint-every", v)),
    "device": ("device", str),
}
_TRAINER_FLAGS = {"resume": "resume", "progress": "progress", "tf32": "tf32",
                  "no_cuda_graph": "no-cuda-graph"}


def training_pairs(device: str | None = None, **options) -> list[tuple[str, str]]:
    """The training compile's (key, value) options: train=1, the options
    that are not None, and `device` (the cost model's)."""
    pairs = [("train", "1")]
    for key, value in options.items():
        if key not in _COMPILE_KEYS:
            raise TypeError(
                f"paracc.compile: unknown training option {key!r} (known: "
                + ", ".join(_COMPILE_KEYS) + ")")
        if value is None:
            continue
        c_key, text = _COMPILE_KEYS[key]
        pairs.append((c_key, text(value)))
    if device is not None:
        pairs.append(("device", str(device)))
    return pairs


def trainer_pairs(**options) -> list[tuple[str, str]]:
    """paracc_trainer_create's (key, value) options: those that are not
    None, and the flags that are true."""
    pairs = []
    for key, value in options.items():
        if key in _TRAINER_FLAGS:
            if value:
                pairs.append((_TRAINER_FLAGS[key], "1"))
            continue
        if value is None:
            continue
        c_key, text = _TRAINER_KEYS[key]
        pairs.append((c_key, text(value)))
    return pairs


# --- the trainer ------------------------------------------------------------------


class Trainer:
    """A training run of a training step (``paracc_trainer``): made by
    :func:`paracc.train` or :meth:`Model.trainer`.

    Iterating runs the remaining steps, yielding a :class:`StepRecord` per
    step, and after the last one calls :meth:`finish` (the final
    checkpoint); ``list(trainer)`` trains to the end. :meth:`step` runs one
    step. A step whose loss or gradient norm is not finite raises
    :class:`paracc.ParaccMismatch` with the C API's message (the run stops;
    the last checkpoint stays intact). ``state_dict()`` reads the trained
    state at any time. ``close()`` (or a ``with`` block, which first calls
    :meth:`finish` when every step has run) frees it; an object may be used
    from one thread at a time (calls are serialized by a lock).
    """

    def __init__(self, model, pairs, owns_model: bool = False):
        self.handle = None
        self.model = model
        self._owns_model = owns_model
        self._state = list(model._state)
        self._blocks = list(model._blocks)
        self._lock = threading.Lock()
        self._finish_called = False
        self.records: list[StepRecord] = []
        handle = ctypes.c_void_p()
        with _capi.Options(pairs) as opts:
            check(lib().paracc_trainer_create(model._exe(), opts,
                                              ctypes.byref(handle)))
        self.handle = handle.value

    def _trainer(self):
        if not self.handle:
            raise ParaccInvalidArgument("paracc.Trainer: the trainer is closed")
        return self.handle

    # --- where it is --------------------------------------------------------------

    @property
    def next_step(self) -> int:
        """The global step the next :meth:`step` runs (from 0)."""
        return int(lib().paracc_trainer_next_step(self._trainer()))

    @property
    def finished(self) -> bool:
        """Whether the run's steps are all done."""
        return bool(lib().paracc_trainer_finished(self._trainer()))

    # --- stepping -------------------------------------------------------------------

    def step(self) -> StepRecord:
        """Runs one step and returns its record."""
        out = _capi.paracc_step_record()
        with self._lock:
            check(lib().paracc_trainer_step(self._trainer(),
                                            ctypes.byref(out)))
        record = StepRecord(int(out.step), float(out.loss),
                            float(out.grad_norm), float(out.lr),
                            float(out.tokens_per_s), float(out.ms))
        self.records.append(record)
        return record

    def __iter__(self) -> Iterator[StepRecord]:
        while not self.finished:
            yield self.step()
        self.finish()

    def finish(self) -> None:
        """Ends the run: writes the final checkpoint (with checkpoint_dir).
        Called once (by iteration's end, or here); later calls do
        nothing."""
        with self._lock:
            if self._finish_called:
                return
            check(lib().paracc_trainer_finish(self._trainer()))
            self._finish_called = True

    # --- the trained state --------------------------------------------------------

    @property
    def state(self) -> list[tuple[str, Any, tuple[int, ...]]]:
        """(name, numpy dtype, global shape) of each state buffer
        (parameters and optimizer moments)."""
        return self.model.state

    def read_state(self, key: int | str) -> np.ndarray:
        """A state buffer's trained value (whole, gathered from the
        ranks), by index or name."""
        from ._model import _read_state

        trainer = self._trainer()
        with self._lock:
            return _read_state(lib().paracc_trainer_read_state, trainer,
                               self._state, key, "paracc.Trainer.read_state",
                               self._blocks)

    def state_dict(self) -> dict[str, np.ndarray]:
        """{name: new array} of the whole trained state: parameters and
        optimizer moments, in the state table's order, each whole (a
        parameter tensor parallelism holds as blocks is assembled)."""
        return {name: self.read_state(name)
                for name in dict.fromkeys(n for n, _, _ in self._state)}

    def parameter_names(self) -> list[str]:
        """The names of the state's parameters (trained or frozen), once
        each: the buffers paracc_executable_state_block calls parameters."""
        return list(dict.fromkeys(
            name for (name, _, _), (kind, _, _) in zip(self._state,
                                                        self._blocks)
            if kind == _capi.STATE_PARAMETER))

    def parameters(self) -> dict[str, np.ndarray]:
        """{name: new array} of the trained parameters only."""
        return {name: self.read_state(name) for name in self.parameter_names()}

    # --- lifetime -------------------------------------------------------------------

    def _free(self) -> None:
        if self.handle:
            handle, self.handle = self.handle, None
            lib().paracc_trainer_free(handle)

    def close(self) -> None:
        """Frees the trainer (without finishing it); for :func:`paracc.train`
        the model too (idempotent)."""
        self._free()
        if self._owns_model:
            self.model.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None and self.handle and self.finished:
                self.finish()
        finally:
            self.close()

    def __del__(self):
        try:
            self._free()
        except Exception:
            pass

    def __repr__(self):
        if not self.handle:
            return "<paracc.Trainer closed>"
        return (f"<paracc.Trainer next step {self.next_step}, "
                f"{len(self.records)} step(s) run"
                + (", finished" if self.finished else "") + ">")


def train(model, data=None, *, mesh: str | None = None,
          steps: int | None = None, batch: int | None = None,
          seq: int | None = None, lr: float | None = None,
          lr_schedule: str | None = None, warmup: int | None = None,
          min_lr: float | None = None, clip_grad_norm: float | None = None,
          optimizer: str | None = None, betas=None, eps: float | None = None,
          weight_decay: float | None = None, momentum: float | None = None,
          loss: str | None = None, freeze: str | None = None,
          precision: str | None = None, sp: bool = False,
          microbatches: int = 1, stages=None, schedule: str | None = None,
          virtual_stages: int | None = None, recompute: str | None = None, memory_budget=None,
          bucket_mb: float | None = None, dropout_seed: int | None = None,
          zero: int | None = None, data_dir=None, data_dtype: str | None = None,
          data_seed: int | None = None, log_json=None, checkpoint_dir=None,
          checkpoint_every: int | None = None, resume: bool = False,
          progress: bool = False, device: str = "auto",
          random_weights: bool = False, seed: int = 0,
          input_shapes=None, example_inputs=None, tf32: bool = False,
          no_cuda_graph: bool = False, format: str | None = None,
          name: str | None = None, model_data_dir=None,
          torch_export_options=None, embed_weights: bool = False) -> Trainer:
    """Compiles a loss model's training step for a mesh and starts a
    training run of it (what ``paracc train`` does), returning the
    :class:`Trainer`; iterate it to train.

    `model`: what :func:`paracc.compile` takes (a path, bytes, an
    ``onnx.ModelProto``; `model_data_dir` is compile's `data_dir`, the
    external data of an in-memory model). The model returns a scalar loss,
    or logits with `loss` ("next-token-ce", "ce") added.

    Compile: `mesh`, `precision`, `sp`, `microbatches`, `stages`,
    `schedule` (the pipeline's), `virtual_stages`, `input_shapes`, `random_weights`, `seed`,
    `embed_weights` as for :func:`paracc.compile`; `batch` and `seq` (a token model's
    [batch, seq] inputs), `loss`, `freeze` (a regular expression),
    `optimizer` (adamw, sgd), `betas` ((0.9, 0.95) or "0.9,0.95"), `eps`,
    `weight_decay`, `momentum`, `clip_grad_norm`, `recompute` (none, full,
    selective, auto), `memory_budget` ("40GiB"), `bucket_mb`,
    `dropout_seed`, `zero` (1: optimizer state sharded over dp).

    Run: `data` (a token file) or `data_dir` (input_N.pb batch folders),
    `data_dtype` (u16, u32), `data_seed`, `steps` (the total, counting the
    steps before a resume), `lr`, `lr_schedule` (constant, cosine),
    `warmup`, `min_lr`, `log_json` (a JSON line per step), `checkpoint_dir`,
    `checkpoint_every`, `resume`, `progress` (a line per step on standard
    output), `device` (auto, cpu, gpu), `tf32`, `no_cuda_graph`.

    Options left at None are not passed: the C API's defaults (the paracc
    tool's) apply. ``close()`` frees the trainer and the compiled model
    (``.model``).
    """
    from ._model import compile as compile_model

    m = compile_model(
        model, mesh=mesh, precision=precision, sp=sp,
        microbatches=microbatches, stages=stages, schedule=schedule,
        virtual_stages=virtual_stages, input_shapes=input_shapes, random_weights=random_weights, seed=seed,
        example_inputs=example_inputs, device=device, format=format,
        data_dir=model_data_dir, name=name, embed_weights=embed_weights,
        torch_export_options=torch_export_options, train=True, loss=loss,
        batch=batch, seq=seq, freeze=freeze, optimizer=optimizer, betas=betas,
        eps=eps, weight_decay=weight_decay, momentum=momentum,
        clip_grad_norm=clip_grad_norm, recompute=recompute,
        memory_budget=memory_budget, bucket_mb=bucket_mb,
        dropout_seed=dropout_seed, zero=zero)
    try:
        pairs = trainer_pairs(
            data=data, data_dir=data_dir, data_dtype=data_dtype,
            data_seed=data_seed, steps=steps, lr=lr, lr_schedule=lr_schedule,
            warmup=warmup, min_lr=min_lr, log_json=log_json,
            checkpoint_dir=checkpoint_dir, checkpoint_every=checkpoint_every,
            resume=resume, progress=progress, device=device, tf32=tf32,
            no_cuda_graph=no_cuda_graph)
        return Trainer(m, pairs, owns_model=True)
    except BaseException:
        m.close()
        raise
