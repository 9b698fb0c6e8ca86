"""The Python keywords of compile(train=True), train() and
Model.trainer() as the C API's (key, value) options."""

from __future__ import annotations

import os

import numpy as np

from ._capi import ParaccInvalidArgument


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
