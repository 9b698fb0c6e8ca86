"""Reading a compiled step's state (parameters and optimizer moments)
from a session or a trainer, by index or name, its tensor-parallel blocks
reassembled."""

from __future__ import annotations

import ctypes

import numpy as np

from . import _capi
from ._capi import ParaccInvalidArgument, check, lib


def _state_indices(state, key, fn: str) -> list[int]:
    """The indices of state buffer `key` (an index, or a name: several when
    tensor parallelism holds the parameter as blocks)."""
    if isinstance(key, str):
        found = [i for i, (name, _, _) in enumerate(state) if name == key]
        if not found:
            raise ParaccInvalidArgument(f"{fn}: no state named '{key}'")
        return found
    if isinstance(key, (bool, np.bool_)) or not isinstance(
            key, (int, np.integer)):
        raise TypeError(f"{fn}: key must be an index or a name, got "
                        f"{type(key).__name__}")
    return [int(key)]


def _state_blocks(handle, count: int):
    """Per state buffer: (kind, the whole parameter's shape or None,
    the block's offsets) from paracc_executable_state_block."""
    L = lib()
    blocks = []
    for i in range(count):
        kind = ctypes.c_int()
        rank = ctypes.c_int32()
        shape = ctypes.POINTER(ctypes.c_int64)()
        offsets = ctypes.POINTER(ctypes.c_int64)()
        check(L.paracc_executable_state_block(
            handle, i, ctypes.byref(kind), ctypes.byref(rank),
            ctypes.byref(shape), ctypes.byref(offsets)))
        whole = tuple(int(shape[d]) for d in range(rank.value)) or None
        at = tuple(int(offsets[d]) for d in range(rank.value))
        blocks.append((int(kind.value), whole, at))
    return blocks


def _read_one(read, handle, state, index: int) -> np.ndarray:
    if 0 <= index < len(state):
        name, code, shape = state[index]
    else:
        # Out of range: a 1-element buffer, for the C API to report the
        # index (with its message) before looking at it.
        name, code, shape = str(index), _capi.DTYPE_F32, ()
    a = np.empty(shape, dtype=_capi.numpy_dtype(code, f"state '{name}'"))
    out = _capi.Tensors(1)
    out.set(0, None, code, a)
    check(read(handle, index, out.pointer))
    return a


def _read_state(read, handle, state, key, fn: str,
                blocks=None) -> np.ndarray:
    """State buffer `key` read with `read` (the C API's
    paracc_session_read_state or paracc_trainer_read_state) into a new
    array: by index one buffer; by name the whole parameter, its blocks
    (a tensor-parallel mesh splits fused parameters into blocks) put
    where paracc_executable_state_block says they lie."""
    indices = _state_indices(state, key, fn)
    if len(indices) == 1 and (blocks is None or isinstance(key, int)
                              or blocks[indices[0]][1] is None):
        return _read_one(read, handle, state, indices[0])
    whole = blocks[indices[0]][1]
    dtype = _capi.numpy_dtype(state[indices[0]][1], f"state '{key}'")
    result = np.empty(whole, dtype=dtype)
    for i in indices:
        part = _read_one(read, handle, state, i)
        offsets = blocks[i][2]
        result[tuple(slice(o, o + n) for o, n in zip(offsets, part.shape))] = part
    return result
