"""ctypes bindings over paracc's C API (include/paracc-c/paracc.h).

This module is the only one that touches ctypes: it finds and loads
libparacc-c.so, declares every function of the header (argtypes and
restype), maps numpy dtypes to paracc_dtype and back, and turns a
paracc_status into a Python exception (freeing the status).

The library is loaded lazily, on the first call that needs it, so that
``import paracc`` always works; when it cannot be found that call raises
:class:`ParaccImportError` (a :class:`ParaccError` and an ``ImportError``)
whose message names ``PARACC_LIBRARY``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import threading
from typing import Any
from pathlib import Path

import numpy as np

# The C API version these bindings are written for (PARACC_C_API_VERSION).
API_VERSION = 1

# --- paracc_code ------------------------------------------------------------

PARACC_OK = 0
PARACC_MISMATCH = 1
PARACC_ERROR = 2
PARACC_UNSUPPORTED = 3
PARACC_INVALID_ARGUMENT = 4

# --- paracc_dtype (ONNX TensorProto.DataType numbers) -----------------------

DTYPE_INVALID = 0
DTYPE_F32 = 1
DTYPE_U8 = 2
DTYPE_I8 = 3
DTYPE_U16 = 4
DTYPE_I16 = 5
DTYPE_I32 = 6
DTYPE_I64 = 7
DTYPE_BOOL = 9
DTYPE_F16 = 10
DTYPE_F64 = 11
DTYPE_U32 = 12
DTYPE_U64 = 13
DTYPE_BF16 = 16

# --- paracc_model_format ------------------------------------------------------

STATE_PARAMETER = 0
STATE_OPTIMIZER = 1
STATE_WEIGHT_COPY = 2
FORMAT_ONNX = 0
FORMAT_ONNX_TEXT = 1
FORMAT_MLIR = 2


# --- errors -------------------------------------------------------------------


class ParaccError(Exception):
    """An error reported by paracc.

    ``code`` is the C API's paracc_code (1 mismatch, 2 error, 3 unsupported,
    4 invalid argument) and ``message`` the exact text of
    paracc_status_message (``str(error)`` is the same text).
    """
    __module__ = "paracc"  # tracebacks say paracc.ParaccError

    default_code = PARACC_ERROR

    def __init__(self, message: str, code: int | None = None):
        super().__init__(message)
        self.message = message
        self.code = int(self.default_code if code is None else code)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):
        return (type(self), (self.message, self.code))


class ParaccMismatch(ParaccError):
    """A check failed (code 1, PARACC_MISMATCH)."""
    __module__ = "paracc"

    default_code = PARACC_MISMATCH


class ParaccUnsupported(ParaccError):
    """The model uses something paracc does not support (code 3)."""
    __module__ = "paracc"

    default_code = PARACC_UNSUPPORTED


class ParaccInvalidArgument(ParaccError):
    """A call's own arguments are wrong (code 4, PARACC_INVALID_ARGUMENT)."""
    __module__ = "paracc"

    default_code = PARACC_INVALID_ARGUMENT


class ParaccImportError(ParaccError, ImportError):
    """Something paracc needs cannot be imported or loaded: libparacc-c.so
    itself, or an optional Python package (torch, matplotlib, ml_dtypes)."""
    __module__ = "paracc"

    default_code = PARACC_ERROR


_ERRORS = {
    PARACC_MISMATCH: ParaccMismatch,
    PARACC_UNSUPPORTED: ParaccUnsupported,
    PARACC_INVALID_ARGUMENT: ParaccInvalidArgument,
}


def error_for(code: int, message: str) -> ParaccError:
    """The exception for a paracc_code and its message."""
    return _ERRORS.get(int(code), ParaccError)(message, int(code))


# --- the tensor struct --------------------------------------------------------


class paracc_tensor(ctypes.Structure):
    """``struct paracc_tensor``: a dense row-major tensor in caller memory."""

    _fields_ = [
        ("name", ctypes.c_char_p),
        ("dtype", ctypes.c_int32),  # a paracc_dtype
        ("rank", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("data", ctypes.c_void_p),
        ("size_bytes", ctypes.c_size_t),
    ]


class paracc_step_record(ctypes.Structure):
    """``struct paracc_step_record``: one training step's figures."""

    _fields_ = [
        ("step", ctypes.c_int64),
        ("loss", ctypes.c_double),
        ("grad_norm", ctypes.c_double),
        ("lr", ctypes.c_double),
        ("tokens_per_s", ctypes.c_double),
        ("ms", ctypes.c_double),
    ]


# Opaque handles (paracc_status*, paracc_options*, ...) are void pointers:
# Python ints, or None for NULL.
_p = ctypes.c_void_p
_pp = ctypes.POINTER(ctypes.c_void_p)
_code = ctypes.c_int
_dtype = ctypes.c_int
_str = ctypes.c_char_p
_size = ctypes.c_size_t
_i32p = ctypes.POINTER(ctypes.c_int32)
_i64pp = ctypes.POINTER(ctypes.POINTER(ctypes.c_int64))
_strp = ctypes.POINTER(ctypes.c_char_p)
_dtypep = ctypes.POINTER(ctypes.c_int)
_tensorp = ctypes.POINTER(paracc_tensor)
_recordp = ctypes.POINTER(paracc_step_record)

# name: (restype, argtypes), in the header's order.
_SIGNATURES = {
    # versions and statuses
    "paracc_api_version": (ctypes.c_int, []),
    "paracc_version": (_str, []),
    "paracc_status_code": (_code, [_p]),
    "paracc_status_message": (_str, [_p]),
    "paracc_status_free": (None, [_p]),
    # options
    "paracc_options_create": (_p, [_pp]),
    "paracc_options_set": (_p, [_p, _str, _str]),
    "paracc_options_free": (None, [_p]),
    "paracc_options_describe": (_str, []),
    # compiling
    "paracc_compile_file": (_p, [_str, _p, _pp]),
    "paracc_compile_buffer": (_p, [_p, _size, ctypes.c_int32, _str, _str, _p, _pp]),
    # planning
    "paracc_plan_file": (_p, [_str, _p, _pp]),
    "paracc_plan_json": (_str, [_p]),
    "paracc_plan_text": (_str, [_p]),
    "paracc_plan_html": (_str, [_p]),
    "paracc_plan_free": (None, [_p]),
    # executables
    "paracc_executable_load_file": (_p, [_str, _pp]),
    "paracc_executable_load_buffer": (_p, [_p, _size, _pp]),
    "paracc_executable_save": (_p, [_p, _str]),
    "paracc_executable_bytes": (None, [_p, _pp, ctypes.POINTER(_size)]),
    "paracc_executable_explain_json": (_str, [_p]),
    "paracc_executable_explain_text": (_str, [_p]),
    "paracc_executable_num_ranks": (ctypes.c_int64, [_p]),
    "paracc_executable_is_training": (ctypes.c_int, [_p]),
    "paracc_executable_num_inputs": (_size, [_p]),
    "paracc_executable_num_outputs": (_size, [_p]),
    "paracc_executable_input": (_p, [_p, _size, _strp, _dtypep, _i32p, _i64pp]),
    "paracc_executable_output": (_p, [_p, _size, _strp, _dtypep, _i32p, _i64pp]),
    "paracc_executable_num_state": (_size, [_p]),
    "paracc_executable_state": (_p, [_p, _size, _strp, _dtypep, _i32p, _i64pp]),
    "paracc_executable_state_block": (_p, [_p, _size, ctypes.POINTER(ctypes.c_int), _i32p, _i64pp, _i64pp]),
    "paracc_executable_free": (None, [_p]),
    # training
    "paracc_trainer_create": (_p, [_p, _p, _pp]),
    "paracc_trainer_next_step": (ctypes.c_int64, [_p]),
    "paracc_trainer_finished": (ctypes.c_int, [_p]),
    "paracc_trainer_step": (_p, [_p, _recordp]),
    "paracc_trainer_finish": (_p, [_p]),
    "paracc_trainer_read_state": (_p, [_p, _size, _tensorp]),
    "paracc_trainer_free": (None, [_p]),
    # tensors owned by paracc
    "paracc_host_tensor_load": (_p, [_str, _pp]),
    "paracc_host_tensor_view": (None, [_p, _tensorp]),
    "paracc_host_tensor_free": (None, [_p]),
    # sessions
    "paracc_session_create": (_p, [_p, _p, _pp]),
    "paracc_session_device": (_str, [_p]),
    "paracc_session_run": (_p, [_p, _tensorp, _size, _tensorp, _size]),
    "paracc_session_read_state": (_p, [_p, _size, _tensorp]),
    "paracc_session_free": (None, [_p]),
}


# --- finding the library --------------------------------------------------------

LIBRARY_ENV = "PARACC_LIBRARY"
BUNDLED_LIBRARY = Path(__file__).resolve().parent / "_lib" / "libparacc-c.so"

_lib: ctypes.CDLL | None = None
_lib_path: str | None = None
_lib_lock = threading.Lock()


def _candidates() -> list[tuple[str, str]]:
    """(where it comes from, path or name) in lookup order."""
    env = os.environ.get(LIBRARY_ENV)
    if env:
        # An explicit choice is not second-guessed: no fallback.
        return [(f"${LIBRARY_ENV}", env)]
    found = []
    if BUNDLED_LIBRARY.exists():
        found.append(("the copy bundled with the package", str(BUNDLED_LIBRARY)))
    name = ctypes.util.find_library("paracc-c")
    if name:
        found.append(('ctypes.util.find_library("paracc-c")', name))
    return found


def _declare(lib: ctypes.CDLL) -> None:
    for name, (restype, argtypes) in _SIGNATURES.items():
        fn = getattr(lib, name)  # AttributeError: an older library
        fn.restype = restype
        fn.argtypes = argtypes


def _load() -> tuple[ctypes.CDLL, str]:
    tried = []
    for origin, path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{origin}: {path}: {e}")
            if origin.startswith("$"):
                break
            continue
        try:
            _declare(lib)
        except AttributeError as e:
            raise ParaccImportError(
                f"paracc: error: {path} ({origin}) is not a compatible "
                f"libparacc-c.so: {e}; set {LIBRARY_ENV} to the path of a "
                f"current build/lib/libparacc-c.so"
            ) from None
        version = lib.paracc_api_version()
        if version != API_VERSION:
            raise ParaccImportError(
                f"paracc: error: {path} ({origin}) implements C API "
                f"{version}, these bindings need C API {API_VERSION}; set "
                f"{LIBRARY_ENV} to a matching libparacc-c.so"
            )
        return lib, str(path)
    detail = "; ".join(tried) if tried else (
        f"${LIBRARY_ENV} is not set, no copy was bundled at "
        f"{BUNDLED_LIBRARY}, and ctypes.util.find_library('paracc-c') "
        f"found nothing"
    )
    raise ParaccImportError(
        "paracc: error: cannot load libparacc-c.so, paracc's C library "
        f"({detail}). Set {LIBRARY_ENV} to its path (e.g. "
        f"{LIBRARY_ENV}=/path/to/paracc/build/lib/libparacc-c.so), or "
        "reinstall this package (pip install ./python-frontend) after "
        "building paracc so that setup.py bundles it."
    )


def lib() -> ctypes.CDLL:
    """The loaded libparacc-c.so (loaded on first use)."""
    global _lib, _lib_path
    if _lib is None:
        with _lib_lock:
            if _lib is None:
                _lib, _lib_path = _load()
    return _lib


def library_path() -> str:
    """The path (or name) the library was loaded from; loads it."""
    lib()
    assert _lib_path is not None
    return _lib_path


# --- statuses -------------------------------------------------------------------


def check(status) -> None:
    """Raises the status's error (after freeing it); nothing for NULL."""
    if not status:
        return
    L = lib()
    try:
        code = L.paracc_status_code(status)
        raw = L.paracc_status_message(status) or b""
        message = raw.decode("utf-8", "replace")
    finally:
        L.paracc_status_free(status)
    raise error_for(code, message)


def decode(raw: bytes | None) -> str:
    return (raw or b"").decode("utf-8", "replace")


# --- tensors -------------------------------------------------------------------


class Tensors:
    """A paracc_tensor array over numpy buffers, keeping every object its
    pointers refer to alive for as long as it lives."""

    def __init__(self, count: int):
        self.array = (paracc_tensor * max(count, 1))()
        self.count = count
        self.keep: list[Any] = []

    def set(self, i: int, name: str | None, code: int, a: np.ndarray):
        t = self.array[i]
        if name is not None:
            encoded = name.encode("utf-8")
            self.keep.append(encoded)
            t.name = encoded
        else:
            t.name = None
        t.dtype = code
        t.rank = a.ndim
        if a.ndim:
            shape = (ctypes.c_int64 * a.ndim)(*a.shape)
            self.keep.append(shape)
            t.shape = shape
        else:
            t.shape = None
        self.keep.append(a)
        t.data = a.ctypes.data
        t.size_bytes = a.nbytes

    @property
    def pointer(self):
        return self.array if self.count else None


# --- options -------------------------------------------------------------------


_OPTION_TABLE = None
# The Python keywords whose C API key is not the keyword with dashes.
_KEYWORD_OF_KEY = {"pipeline-schedule": "schedule"}


def option_table() -> dict:
    """The C API's options (paracc_options_describe) by key: each one's
    kind and, for a choice, its values and its name in messages."""
    global _OPTION_TABLE
    if _OPTION_TABLE is None:
        described = json.loads(decode(lib().paracc_options_describe()))
        _OPTION_TABLE = {o["key"]: o for o in described}
    return _OPTION_TABLE


def check_choices(pairs) -> None:
    """Raises ParaccInvalidArgument, naming the Python keyword, for a value
    outside its option's set (the compiler's table, through the C API)."""
    table = option_table()
    for key, value in pairs:
        option = table.get(key)
        if not option or option["kind"] != "choice":
            continue
        if str(value) not in option["values"]:
            values = option["values"]
            choices = ", ".join(values[:-1]) + " or " + values[-1]
            keyword = _KEYWORD_OF_KEY.get(key, key.replace("-", "_"))
            what = option["what"]
            article = "an" if what[0] in "aeiou" else "a"
            raise ParaccInvalidArgument(
                f"{keyword}={value!r} is not {article} {what} ({choices})")


def _in_keyword_spelling(error, key: str):
    """The C API's refusal of option `key` ("...option 'zero': must be in
    [0, 3], got 4") as the Python keyword's ("zero: must be ...")."""
    text = str(error)
    marker = f"option '{key}': "
    if marker not in text:
        return error
    keyword = _KEYWORD_OF_KEY.get(key, key.replace("-", "_"))
    return ParaccInvalidArgument(f"{keyword}: " + text.split(marker, 1)[1])


class Closing:
    """An owner of a C object: ``close()`` frees it, and so do the end of a
    ``with`` block (entered as the owner itself) and being collected
    (``_release()``, by default ``close()``)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _release(self) -> None:
        self.close()

    def __del__(self):
        try:
            self._release()
        except Exception:
            pass


class Options(Closing):
    """A paracc_options, freed on exit: ``with Options(pairs) as handle``.
    A value outside its option's choices is an error naming the Python
    keyword (check_choices)."""

    def __init__(self, pairs=()):
        self.handle = None
        pairs = list(pairs)
        check_choices(pairs)
        L = lib()
        handle = ctypes.c_void_p()
        check(L.paracc_options_create(ctypes.byref(handle)))
        self.handle = handle.value
        try:
            for key, value in pairs:
                try:
                    check(L.paracc_options_set(self.handle, key.encode(),
                                               str(value).encode()))
                except ParaccInvalidArgument as e:
                    raise _in_keyword_spelling(e, key) from None
        except BaseException:
            self.close()
            raise

    def close(self):
        if self.handle:
            handle, self.handle = self.handle, None
            lib().paracc_options_free(handle)

    def __enter__(self):
        return self.handle


# --- dtypes ----------------------------------------------------------------------

_NUMPY_OF = {
    DTYPE_F32: np.dtype(np.float32),
    DTYPE_F64: np.dtype(np.float64),
    DTYPE_F16: np.dtype(np.float16),
    DTYPE_I8: np.dtype(np.int8),
    DTYPE_I16: np.dtype(np.int16),
    DTYPE_I32: np.dtype(np.int32),
    DTYPE_I64: np.dtype(np.int64),
    DTYPE_U8: np.dtype(np.uint8),
    DTYPE_U16: np.dtype(np.uint16),
    DTYPE_U32: np.dtype(np.uint32),
    DTYPE_U64: np.dtype(np.uint64),
    DTYPE_BOOL: np.dtype(np.bool_),  # one byte, 0 or 1: paracc's bool
}

_NAMES = {
    DTYPE_F32: "float32", DTYPE_F64: "float64", DTYPE_F16: "float16",
    DTYPE_BF16: "bfloat16", DTYPE_I8: "int8", DTYPE_I16: "int16",
    DTYPE_I32: "int32", DTYPE_I64: "int64", DTYPE_U8: "uint8",
    DTYPE_U16: "uint16", DTYPE_U32: "uint32", DTYPE_U64: "uint64",
    DTYPE_BOOL: "bool",
}

try:  # bfloat16 has no numpy dtype of its own: ml_dtypes' when installed.
    import ml_dtypes as _ml_dtypes

    _NUMPY_OF[DTYPE_BF16] = np.dtype(_ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - depends on the environment
    _ml_dtypes = None

_PARACC_OF = {dt: code for code, dt in _NUMPY_OF.items()}


def dtype_name(code: int) -> str:
    return _NAMES.get(int(code), f"paracc_dtype {int(code)}")


def numpy_dtype(code: int, what: str = "a tensor") -> np.dtype:
    """The numpy dtype of a paracc_dtype; ParaccUnsupported for bfloat16
    without ml_dtypes (and for a code these bindings do not know)."""
    dt = _NUMPY_OF.get(int(code))
    if dt is not None:
        return dt
    if int(code) == DTYPE_BF16:
        raise ParaccUnsupported(
            f"paracc: error: {what} is bfloat16, which numpy represents only "
            "through ml_dtypes (pip install ml_dtypes)"
        )
    raise ParaccUnsupported(
        f"paracc: error: {what} has paracc_dtype {int(code)}, which these "
        "bindings do not know"
    )


def paracc_dtype(dt) -> int | None:
    """The paracc_dtype of a numpy dtype (any byte order), or None."""
    dt = np.dtype(dt)
    if dt.byteorder not in ("=", "|"):
        dt = dt.newbyteorder("=")
    return _PARACC_OF.get(dt)


def supported_dtypes() -> list[str]:
    return [str(dt) for dt in _NUMPY_OF.values()]
