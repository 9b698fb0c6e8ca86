"""The Python keywords of compile(train=True), train() and
Model.trainer() as the C API's (key, value) options."""

from __future__ import annotations

import os

import numpy as np

from ._capi import ParaccInvalidArgument, option_table


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


def _numbers(key: str, value) -> str:
    # "0.9,0.95", or a sequence of numbers.
    if isinstance(value, str):
        return value
    return ",".join(_number(key, v) for v in value)


def _bytes(value) -> str:
    # "40GiB", "512MiB"; an int is a number of bytes.
    return str(int(value)) + "B" if isinstance(value, (int, np.integer)) \
        and not isinstance(value, bool) else str(value)


def _formatter(option: dict):
    """The text of a value of the C API's option `option` (its kind)."""
    key, kind = option["key"], option["kind"]
    if kind == "integer":
        return lambda v: _integer(key, v)
    if kind == "number":
        return lambda v: _number(key, v)
    if kind == "numbers":
        return lambda v: _numbers(key, v)
    if kind == "bytes":
        return _bytes
    if kind == "text":
        return _path  # a str, or a path
    return str


def _keywords(scopes) -> tuple[dict, dict]:
    """The C API's options of `scopes` (paracc_options_describe) by Python
    keyword (the key with '_' for '-'): (keyword -> (key, formatter)) for
    the options with a value and (keyword -> key) for the flags."""
    keys, flags = {}, {}
    for option in option_table().values():
        if option["scope"] not in scopes:
            continue
        keyword = option["key"].replace("-", "_")
        if option["kind"] == "flag":
            flags[keyword] = option["key"]
        else:
            keys[keyword] = (option["key"], _formatter(option))
    return keys, flags


def _compile_keys() -> tuple[dict, dict]:
    """Training compile options: Python keyword -> (C key, formatter), and
    the flags (keyword -> C key); train=1 itself is set by
    compile(train=True)."""
    keys, flags = _keywords({"training-compile"})
    flags.pop("train", None)
    return keys, flags


def _trainer_keys() -> tuple[dict, dict]:
    """paracc_trainer_create's options: those with a value and the flags."""
    return _keywords({"trainer", "run"})


def training_pairs(device: str | None = None, **options) -> list[tuple[str, str]]:
    """The training compile's (key, value) options: train=1, the options
    that are not None, the flags that are true, and `device` (the cost
    model's)."""
    pairs = [("train", "1")]
    compile_keys, compile_flags = _compile_keys()
    for key, value in options.items():
        if key in compile_flags:
            if value:
                pairs.append((compile_flags[key], "1"))
            continue
        if key not in compile_keys:
            raise TypeError(
                f"paracc.compile: unknown training option {key!r} (known: "
                + ", ".join([*compile_keys, *compile_flags]) + ")")
        if value is None:
            continue
        c_key, text = compile_keys[key]
        pairs.append((c_key, text(value)))
    if device is not None:
        pairs.append(("device", str(device)))
    return pairs


def trainer_pairs(**options) -> list[tuple[str, str]]:
    """paracc_trainer_create's (key, value) options: those that are not
    None, and the flags that are true."""
    pairs = []
    trainer_keys, trainer_flags = _trainer_keys()
    for key, value in options.items():
        if key in trainer_flags:
            if value:
                pairs.append((trainer_flags[key], "1"))
            continue
        if value is None:
            continue
        c_key, text = trainer_keys[key]
        pairs.append((c_key, text(value)))
    return pairs


# --- the trainer ------------------------------------------------------------------
