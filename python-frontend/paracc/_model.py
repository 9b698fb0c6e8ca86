"""Models (compiled executables), sessions, compile() and load()."""

from __future__ import annotations

import ctypes
import json
import os
import tempfile
import threading
from typing import Any, Mapping

import numpy as np

from . import _capi
from ._capi import (
    Closing,
    ParaccError,
    ParaccInvalidArgument,
    ParaccUnsupported,
    check,
    decode,
    lib,
)
from ._options import trainer_pairs, training_pairs
from ._state import _read_state, _state_blocks
from ._train import Trainer

_FORMATS = {
    "onnx": _capi.FORMAT_ONNX,
    "onnx_text": _capi.FORMAT_ONNX_TEXT,
    "onnx-text": _capi.FORMAT_ONNX_TEXT,
    "pbtxt": _capi.FORMAT_ONNX_TEXT,
    "mlir": _capi.FORMAT_MLIR,
}


def _format_shape(shape) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _port(describe, exe, index: int):
    """(name, numpy dtype, shape) of input/output `index`."""
    name = ctypes.c_char_p()
    dtype = ctypes.c_int()
    rank = ctypes.c_int32()
    shape = ctypes.POINTER(ctypes.c_int64)()
    check(describe(exe, index, ctypes.byref(name), ctypes.byref(dtype),
                   ctypes.byref(rank), ctypes.byref(shape)))
    dims = tuple(int(shape[i]) for i in range(rank.value))
    return decode(name.value), int(dtype.value), dims


def _public_dtype(code: int):
    """A numpy dtype; 'bfloat16' (a str) when ml_dtypes is missing."""
    try:
        return _capi.numpy_dtype(code)
    except ParaccError:
        return _capi.dtype_name(code)


def _as_input(value, what: str) -> tuple[int, np.ndarray]:
    """(paracc_dtype, buffer) for one input: the caller's own array when it
    is C-contiguous in native byte order, else a C-contiguous copy of the
    same dtype. The dtype is never changed: a wrong one is for the C API to
    reject (with its message)."""
    a = value if isinstance(value, np.ndarray) else np.asarray(value)
    code = _capi.paracc_dtype(a.dtype)
    if code is None:
        raise ParaccInvalidArgument(
            f"paracc.Model.run: {what} has dtype {a.dtype}, which has no "
            f"paracc type (supported: {', '.join(_capi.supported_dtypes())})"
        )
    if not a.flags.c_contiguous or not a.dtype.isnative:
        # Same values, same type: only the layout (or byte order) changes.
        a = np.array(a, dtype=a.dtype.newbyteorder("="), order="C", copy=True)
    return code, a


class Session(Closing):
    """The ranks of a model started on a device ("auto", "cpu" or "gpu"),
    with the model's state (weights). Made by :meth:`Model.session`, which
    caches one per device; it may be used from one thread at a time (calls
    are serialized by a lock)."""

    def __init__(self, model: "Model", device: str = "auto",
                 options: Mapping[str, Any] | None = None):
        self.handle = None
        # The ports, not the model: the C session holds the executable
        # itself, so it outlives a freed Model.
        self._inputs = list(model._inputs)
        self._outputs = list(model._outputs)
        self._state = list(model._state)
        self._blocks = list(model._blocks)
        self._lock = threading.Lock()
        pairs = [("device", device)]
        for key, value in (options or {}).items():
            if isinstance(value, bool):
                value = "1" if value else "0"
            pairs.append((key, value))
        handle = ctypes.c_void_p()
        with _capi.Options(pairs) as opts:
            check(lib().paracc_session_create(model._exe(), opts,
                                              ctypes.byref(handle)))
        self.handle = handle.value
        self.requested_device = device
        self.device = decode(lib().paracc_session_device(self.handle))

    def _session(self):
        if not self.handle:
            raise ParaccInvalidArgument("paracc.Session: the session is closed")
        return self.handle

    def run(self, inputs=None) -> dict[str, np.ndarray]:
        """Runs the model once; see :meth:`Model.run`."""
        given = _normalize_inputs(inputs)
        ins = _capi.Tensors(len(given))
        for i, (name, value) in enumerate(given):
            what = (f"input '{name}'" if name is not None else
                    f"input {i}" + (f" ('{self._inputs[i][0]}')"
                                    if i < len(self._inputs) else ""))
            code, a = _as_input(value, what)
            ins.set(i, name, code, a)
        outs = _capi.Tensors(len(self._outputs))
        results: dict[str, np.ndarray] = {}
        for i, (name, code, shape) in enumerate(self._outputs):
            a = np.empty(shape, dtype=_capi.numpy_dtype(
                code, f"output {i} ('{name}')"))
            outs.set(i, None, code, a)
            results[name] = a
        with self._lock:
            check(lib().paracc_session_run(
                self._session(), ins.pointer, len(given), outs.pointer,
                len(self._outputs)))
        del ins, outs  # the buffers were alive through the call
        return results

    __call__ = run

    # State (parameters; a training step's optimizer moments too), described
    # by the executable (paracc_executable_state), read from the ranks.

    @property
    def state(self) -> list[tuple[str, Any, tuple[int, ...]]]:
        """The state buffers: (name, numpy dtype, global shape) each."""
        return [(n, _public_dtype(c), s) for n, c, s in self._state]

    def read_state(self, key: int | str) -> np.ndarray:
        """A state buffer's whole (global) value, by index or name."""
        session = self._session()
        with self._lock:
            return _read_state(lib().paracc_session_read_state, session,
                               self._state, key, "paracc.Session.read_state",
                               self._blocks)

    def close(self) -> None:
        if self.handle:
            handle, self.handle = self.handle, None
            lib().paracc_session_free(handle)

    def __repr__(self):
        state = self.device if self.handle else "closed"
        return f"<paracc.Session {state}>"


def _normalize_inputs(inputs) -> list[tuple[str | None, Any]]:
    """[(name or None, value)] from a dict, a list/tuple or one array.
    Names are not checked here: the C API reports an unknown one."""
    if inputs is None:
        return []
    if isinstance(inputs, Mapping):
        for name in inputs:
            if not isinstance(name, str):
                raise ParaccInvalidArgument(
                    f"paracc.Model.run: input names must be str, got {name!r}")
        return list(inputs.items())
    if isinstance(inputs, (list, tuple)):
        return [(None, value) for value in inputs]
    return [(None, inputs)]


class Model(Closing):
    """A compiled (or loaded) paracc executable.

    ``run`` starts a session on first use (per device, cached); ``close``
    (or a ``with`` block, or garbage collection) frees the executable and its
    sessions.
    """

    def __init__(self, handle: int, device: str = "auto"):
        self._handle = handle
        self._sessions: dict[tuple, Session] = {}
        self._lock = threading.Lock()
        self.device = device
        L = lib()
        self._inputs = [_port(L.paracc_executable_input, handle, i)
                        for i in range(L.paracc_executable_num_inputs(handle))]
        self._outputs = [_port(L.paracc_executable_output, handle, i)
                         for i in range(L.paracc_executable_num_outputs(handle))]
        self._state = [_port(L.paracc_executable_state, handle, i)
                       for i in range(L.paracc_executable_num_state(handle))]
        self._blocks = _state_blocks(handle, len(self._state))

    def _exe(self):
        if not self._handle:
            raise ParaccInvalidArgument("paracc.Model: the model is closed")
        return self._handle

    # --- what it is -----------------------------------------------------------

    @property
    def inputs(self) -> list[tuple[str, Any, tuple[int, ...]]]:
        """(name, numpy dtype, global shape) of each input, in order."""
        return [(n, _public_dtype(c), s) for n, c, s in self._inputs]

    @property
    def outputs(self) -> list[tuple[str, Any, tuple[int, ...]]]:
        """(name, numpy dtype, global shape) of each output, in order."""
        return [(n, _public_dtype(c), s) for n, c, s in self._outputs]

    @property
    def state(self) -> list[tuple[str, Any, tuple[int, ...]]]:
        """(name, numpy dtype, global shape) of each state buffer: the
        weights; a training step's optimizer moments too."""
        return [(n, _public_dtype(c), s) for n, c, s in self._state]

    @property
    def num_ranks(self) -> int:
        """The number of ranks (the mesh's size)."""
        return int(lib().paracc_executable_num_ranks(self._exe()))

    @property
    def is_training(self) -> bool:
        """True for a training step (its state is trained by each run)."""
        return bool(lib().paracc_executable_is_training(self._exe()))

    def explain(self) -> dict:
        """The compile's --explain report as a dict ({} when loaded)."""
        text = decode(lib().paracc_executable_explain_json(self._exe()))
        return json.loads(text) if text.strip() else {}

    def explain_text(self) -> str:
        """The compile's --explain report as text ("" when loaded)."""
        return decode(lib().paracc_executable_explain_text(self._exe()))

    def plot_memory(self, ax=None):
        """A matplotlib bar chart of the explain report's memory per rank;
        returns the Axes."""
        from ._plot import plot_memory

        return plot_memory(self.explain(), ax=ax, num_ranks=self.num_ranks)

    # --- bytes and files --------------------------------------------------------

    def save(self, path: str | os.PathLike) -> None:
        """Writes the executable (.pcx) to `path`, for paracc.load or
        paracc-run."""
        check(lib().paracc_executable_save(self._exe(),
                                           os.fsencode(os.fspath(path))))

    def to_bytes(self) -> bytes:
        """The executable's bytes (what save writes)."""
        ptr = ctypes.c_void_p()
        size = ctypes.c_size_t()
        lib().paracc_executable_bytes(self._exe(), ctypes.byref(ptr),
                                      ctypes.byref(size))
        return ctypes.string_at(ptr.value, size.value) if size.value else b""

    # --- running ----------------------------------------------------------------

    def session(self, device: str | None = None, **options) -> Session:
        """The session on `device` ("auto", "cpu", "gpu"; default: the
        model's), started on first use and cached. Other keyword options are
        the C API's running keys with '_' for '-' (tf32=True,
        no_cuda_graph=True)."""
        device = self.device if device is None else device
        opts = {k.replace("_", "-"): v for k, v in options.items()}
        key = (device, tuple(sorted(opts.items())))
        with self._lock:
            self._exe()
            s = self._sessions.get(key)
            if s is None or not s.handle:
                s = Session(self, device, opts)
                self._sessions[key] = s
            return s

    def run(self, inputs=None, *, device: str | None = None
            ) -> dict[str, np.ndarray]:
        """Runs the model once and returns {output name: array}.

        `inputs`: a dict name -> array, a list/tuple of arrays (by position)
        or one array; inputs not given are generated by paracc from seed 0.
        Arrays are passed by pointer: one that is C-contiguous is not
        copied, and none is converted to another dtype (a wrong dtype, shape
        or name raises ParaccError with the C API's message). Outputs are
        new arrays that paracc fills in place.
        """
        return self.session(device).run(inputs)

    __call__ = run

    # --- training ---------------------------------------------------------------

    def trainer(self, data=None, *, steps: int | None = None,
                lr: float | None = None, lr_schedule: str | None = None,
                warmup: int | None = None, min_lr: float | None = None,
                data_dir=None, data_dtype: str | None = None,
                data_seed: int | None = None, log_json=None,
                checkpoint_dir=None, checkpoint_every: int | None = None,
                resume: bool = False, progress: bool = False,
                device: str | None = None, tf32: bool = False,
                no_cuda_graph: bool = False) -> "Trainer":
        """Starts a training run of this training step (compiled with
        ``train=True``); see :func:`paracc.train`. Options left at None (or
        False) are not passed: the C API's defaults apply. `device`
        defaults to the model's."""

        if not self.is_training:
            raise ParaccInvalidArgument(
                "paracc.Model.trainer: the model is not a training step "
                "(compile it with train=True)")
        pairs = trainer_pairs(
            data=data, data_dir=data_dir, data_dtype=data_dtype,
            data_seed=data_seed, steps=steps, lr=lr, lr_schedule=lr_schedule,
            warmup=warmup, min_lr=min_lr, log_json=log_json,
            checkpoint_dir=checkpoint_dir, checkpoint_every=checkpoint_every,
            resume=resume, progress=progress,
            device=self.device if device is None else device, tf32=tf32,
            no_cuda_graph=no_cuda_graph)
        return Trainer(self, pairs)

    # --- lifetime -------------------------------------------------------------

    def close(self) -> None:
        """Frees the executable and closes its cached sessions
        (idempotent)."""
        sessions, self._sessions = self._sessions, {}
        for s in sessions.values():
            s.close()
        self._free()

    def _free(self) -> None:
        if self._handle:
            handle, self._handle = self._handle, None
            lib().paracc_executable_free(handle)

    def _release(self) -> None:
        # Collected: the executable is freed; a session still referenced
        # elsewhere stays usable (the C session holds the executable).
        self._sessions = {}
        self._free()

    def __repr__(self):
        if not self._handle:
            return "<paracc.Model closed>"

        def ports(ps):
            return ", ".join(f"{n} {_capi.dtype_name(c)}{_format_shape(s)}"
                             for n, c, s in ps)

        return (f"<paracc.Model {self.num_ranks} rank(s); inputs: "
                f"{ports(self._inputs)}; outputs: {ports(self._outputs)}>")


# --- compile and load ---------------------------------------------------------------


def _shape_text(name: str, shape) -> str:
    if isinstance(shape, str):
        return f"{name}={shape}"
    dims = tuple(int(d) for d in shape)
    return f"{name}=" + ("x".join(str(d) for d in dims) if dims else "scalar")


def _input_shape_pairs(shapes) -> list:
    """The input-shape option pairs of {input name: shape}."""
    return [("input-shape", _shape_text(name, shape))
            for name, shape in shapes.items()]


def _flag(value) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def _stages_text(stages) -> str:
    if isinstance(stages, str):
        return stages
    # [(first, last), ...] layer ranges per stage.
    return ",".join(f"{int(a)}-{int(b)}" for a, b in stages)


def _is_torch_module(obj) -> bool:
    return any(c.__name__ == "Module" and c.__module__ == "torch.nn.modules.module"
               for c in type(obj).__mro__)


def _is_onnx_model(obj) -> bool:
    t = type(obj)
    return t.__name__ == "ModelProto" and t.__module__.split(".")[0] == "onnx" \
        and hasattr(obj, "SerializeToString")


def _compile_file(path: str, opts) -> int:
    out = ctypes.c_void_p()
    check(lib().paracc_compile_file(os.fsencode(path), opts,
                                    ctypes.byref(out)))
    return out.value


def _byte_view(data) -> tuple[np.ndarray, int]:
    """A uint8 view of bytes-like `data` (no copy) and its size; a 1-byte
    dummy for empty data, so that the C API gets a pointer and reports the
    emptiness itself."""
    buf = np.frombuffer(data, dtype=np.uint8)
    return (buf, buf.size) if buf.size else (np.zeros(1, np.uint8), 0)


def _compile_buffer(data, fmt: int, name, data_dir, opts) -> int:
    buf, size = _byte_view(data)
    out = ctypes.c_void_p()
    check(lib().paracc_compile_buffer(
        buf.ctypes.data, size, fmt,
        name.encode("utf-8") if name else None,
        os.fsencode(os.fspath(data_dir)) if data_dir else None,
        opts, ctypes.byref(out)))
    return out.value


def compile(model, mesh: str | None = None, precision: str | None = None,
            sp: bool = False, microbatches: int = 1, stages=None,
            schedule: str | None = None,
            input_shapes: Mapping[str, Any] | None = None,
            random_weights: bool = False, seed: int = 0, example_inputs=None,
            *, device: str = "auto", format: str | None = None,
            data_dir: str | os.PathLike | None = None,
            name: str | None = None, embed_weights: bool = False,
            torch_export_options: Mapping[str, Any] | None = None,
            train: bool = False, virtual_stages: int | None = None,
            cluster: str | None = None, cp_layout: str | None = None,
            cp_attention: str | None = None, **training) -> Model:
    """Compiles a model for a device mesh and returns a :class:`Model`.

    `model`: a path (.onnx, .pbtxt, .mlir), ONNX bytes (`format`:
    "onnx", "onnx_text" or "mlir" for other bytes), an ``onnx.ModelProto``
    or a ``torch.nn.Module`` (exported with ``torch.onnx.export`` on
    `example_inputs`). `mesh` ("dp2,tp2"; default one rank; "auto": the
    planner chooses the plan for `cluster`, "16x8:h100" or "local"), `precision`
    (f32, bf16, f16), `sp`, `microbatches`, `stages` ("auto" or
    "0-2,3-5" or [(0, 2), (3, 5)]), `schedule` (gpipe, 1f1b, zb-h1,
    interleaved), `virtual_stages` (model chunks per rank, interleaved),
    `cp_layout` (zigzag, contiguous) and `cp_attention` (allgather,
    alltoall, ring) for a mesh with a cp axis (context parallelism),
    `input_shapes` ({name: (2, 8)} or {name: "2x8"}), `random_weights`
    (weights whose data is missing are seeded random) and `seed` are the
    paracc tool's flags. `example_inputs` (a dict name -> array; a tuple for
    a torch module) supplies the shapes that `input_shapes` does not.
    `torch_export_options`: more keyword arguments of ``torch.onnx.export``
    (by default its dynamo exporter, torch's own default, and the
    TorchScript one with a RuntimeWarning where dynamo fails; ``{"dynamo":
    False}`` or ``True`` chooses one). `device` is the default of :meth:`Model.run`.
    `data_dir`: where an in-memory ONNX model's external data lives; `name`
    stands for an in-memory model in messages. The executable references
    the model's external-data file (the runtime maps it) unless
    `embed_weights` copies the weights into it; a torch module's weights,
    exported to a temporary folder, are always copied.

    ``train=True`` compiles a training step of a loss model (see
    :func:`paracc.train`) instead, with the training compile's keyword
    options: loss, batch, seq, freeze, optimizer, betas, eps,
    weight_decay, momentum, clip_grad_norm, recompute, memory_budget,
    bucket_mb, dropout_seed, zero, zero_prefetch (None: the C API's
    default). Its
    :meth:`Model.trainer` starts training runs.
    """

    if training and not train:
        raise ParaccInvalidArgument(
            "paracc.compile: " + ", ".join(f"{k}=" for k in training)
            + " only apply to a training step (train=True)")
    train_pairs = training_pairs(device, **training) if train else []
    torch_module = _is_torch_module(model)
    shapes: dict[str, Any] = {}
    if example_inputs is not None and not torch_module:
        if not isinstance(example_inputs, Mapping):
            raise ParaccInvalidArgument(
                "paracc.compile: example_inputs must be a dict name -> array "
                "(a tuple is for a torch module)")
        shapes.update({k: np.shape(v) for k, v in example_inputs.items()})
    shapes.update(input_shapes or {})

    pairs: list[tuple[str, Any]] = []
    if mesh is not None:
        pairs.append(("mesh", mesh))
    if cluster is not None:
        pairs.append(("cluster", cluster))
    pairs.append(("sp", _flag(sp)))
    if microbatches is not None:
        pairs.append(("microbatches", microbatches))
    if stages is not None:
        pairs.append(("stages", _stages_text(stages)))
    if schedule is not None:
        pairs.append(("pipeline-schedule", schedule))
    if virtual_stages is not None:
        pairs.append(("virtual-stages", virtual_stages))
    if cp_layout is not None:
        pairs.append(("cp-layout", cp_layout))
    if cp_attention is not None:
        pairs.append(("cp-attention", cp_attention))
    if precision is not None:
        pairs.append(("precision", precision))
    pairs += _input_shape_pairs(shapes)
    pairs.append(("random-weights", _flag(random_weights)))
    pairs.append(("embed-weights", _flag(embed_weights or torch_module)))
    if seed is not None:
        pairs.append(("seed", seed))
    pairs += train_pairs

    fmt = None
    if format is not None:
        fmt = _FORMATS.get(format)
        if fmt is None:
            raise ParaccInvalidArgument(
                f"paracc.compile: unknown format {format!r} (known: onnx, "
                "onnx_text, mlir)")

    with _capi.Options(pairs) as opts:
        if torch_module:
            from ._torch import export

            with tempfile.TemporaryDirectory(prefix="paracc-torch-") as tmp:
                path = export(model, example_inputs, tmp,
                              torch_export_options)
                handle = _compile_file(path, opts)
        elif isinstance(model, (str, os.PathLike)):
            path = os.fspath(model)
            if fmt is None:
                handle = _compile_file(path, opts)
            else:
                with open(path, "rb") as f:
                    data = f.read()
                handle = _compile_buffer(
                    data, fmt, name or path,
                    data_dir or os.path.dirname(os.path.abspath(path)), opts)
        elif isinstance(model, (bytes, bytearray, memoryview)):
            handle = _compile_buffer(
                model, _capi.FORMAT_ONNX if fmt is None else fmt, name,
                data_dir, opts)
        elif _is_onnx_model(model):
            handle = _compile_buffer(model.SerializeToString(),
                                     _capi.FORMAT_ONNX, name, data_dir, opts)
        else:
            raise TypeError(
                "paracc.compile: model must be a path, bytes, an "
                f"onnx.ModelProto or a torch.nn.Module, got "
                f"{type(model).__name__}")
    try:
        return Model(handle, device)
    except BaseException:
        lib().paracc_executable_free(handle)
        raise


def load(source, *, device: str = "auto") -> Model:
    """Loads an executable saved by :meth:`Model.save` (or ``paracc -o``):
    a path, or its bytes."""
    out = ctypes.c_void_p()
    if isinstance(source, (bytes, bytearray, memoryview)):
        buf, size = _byte_view(source)
        check(lib().paracc_executable_load_buffer(
            buf.ctypes.data, size, ctypes.byref(out)))
    elif isinstance(source, (str, os.PathLike)):
        check(lib().paracc_executable_load_file(
            os.fsencode(os.fspath(source)), ctypes.byref(out)))
    else:
        raise TypeError("paracc.load: source must be a path or bytes, got "
                        f"{type(source).__name__}")
    try:
        return Model(out.value, device)
    except BaseException:
        lib().paracc_executable_free(out.value)
        raise


def load_tensor(path: str | os.PathLike) -> np.ndarray:
    """Reads an ONNX TensorProto file (an ONNX test-data input_N.pb or
    output_N.pb) with paracc's reader, as a new numpy array."""
    L = lib()
    out = ctypes.c_void_p()
    check(L.paracc_host_tensor_load(os.fsencode(os.fspath(path)),
                                    ctypes.byref(out)))
    try:
        view = _capi.paracc_tensor()
        L.paracc_host_tensor_view(out.value, ctypes.byref(view))
        dims = tuple(int(view.shape[i]) for i in range(view.rank))
        dt = _capi.numpy_dtype(view.dtype, f"tensor '{decode(view.name)}'")
        a = np.empty(dims, dtype=dt)
        if view.size_bytes:
            ctypes.memmove(a.ctypes.data, view.data, view.size_bytes)
        return a
    finally:
        L.paracc_host_tensor_free(out.value)
