"""Training runs: Trainer (a training run stepped from Python) and
StepRecord, over the C API's paracc_trainer. paracc.train() is in _run.py,
the options' conversion in _options.py."""

from __future__ import annotations

import ctypes
import threading
from typing import Any, Iterator, NamedTuple

import numpy as np

from . import _capi
from ._capi import Closing, ParaccInvalidArgument, check, lib
from ._state import _read_state


class StepRecord(NamedTuple):
    """One training step's figures (``struct paracc_step_record``)."""

    step: int            # the global step, from 0 (continuing after a resume)
    loss: float          # before the update
    grad_norm: float     # the global L2 norm, before clipping
    lr: float            # the learning rate the step used
    tokens_per_s: float
    ms: float            # the step's wall time


class Trainer(Closing):
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
        trainer = self._trainer()
        with self._lock:
            return _read_state(lib().paracc_trainer_read_state, trainer,
                               self._state, key, "paracc.Trainer.read_state",
                               self._blocks)

    def state_dict(self) -> dict[str, np.ndarray]:
        """{name: new array} of the whole trained state: parameters and
        optimizer moments, in the state table's order, each whole (a
        parameter tensor parallelism holds as blocks is assembled); not
        mixed precision's bf16 weight copies, which are casts of the
        parameters."""
        return {name: self.read_state(name)
                for name in dict.fromkeys(
                    n for (n, _, _), (kind, _, _) in zip(self._state,
                                                         self._blocks)
                    if kind != _capi.STATE_WEIGHT_COPY)}

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

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None and self.handle and self.finished:
                self.finish()
        finally:
            self.close()

    def _release(self) -> None:
        self._free()

    def __repr__(self):
        if not self.handle:
            return "<paracc.Trainer closed>"
        return (f"<paracc.Trainer next step {self.next_step}, "
                f"{len(self.records)} step(s) run"
                + (", finished" if self.finished else "") + ">")
