"""Exporting a torch.nn.Module to ONNX for paracc.compile (torch is
imported here only, when such a module is compiled)."""

from __future__ import annotations

import contextlib
import inspect
import io
import os
import warnings
from typing import Mapping

from ._capi import ParaccImportError, ParaccInvalidArgument

_NEEDS_TORCH = "paracc.compile of a torch module needs torch (pip install torch)"


def export(module, example_inputs, folder: str, options=None) -> str:
    """Exports `module` on `example_inputs` to FOLDER/model.onnx (large
    weights as external data next to it) and returns that path.

    `example_inputs`: a tuple (or list) of tensors or arrays, one tensor, or
    a dict name -> tensor (its names become the ONNX inputs' names, in
    forward's parameter order). The exporter is the one torch defaults to,
    dynamo (quietly; its progress lines dropped), and the TorchScript one
    with a RuntimeWarning where dynamo fails or onnxscript is missing.
    `options` are more keyword arguments of torch.onnx.export, over these
    defaults; with "dynamo" in them that exporter is used, no fallback."""
    try:
        import torch
    except ImportError as e:
        raise ParaccImportError(_NEEDS_TORCH) from e
    if example_inputs is None:
        raise ParaccInvalidArgument(
            "paracc.compile of a torch module needs example_inputs (a tuple "
            "of tensors, or a dict name -> tensor)")
    names = None
    if isinstance(example_inputs, Mapping):
        names = [str(k) for k in example_inputs]
        args = tuple(example_inputs.values())
    elif isinstance(example_inputs, (tuple, list)):
        args = tuple(example_inputs)
    else:
        args = (example_inputs,)
    args = tuple(a if isinstance(a, torch.Tensor) else torch.as_tensor(a)
                 for a in args)
    path = os.path.join(folder, "model.onnx")
    kwargs = {}
    if names:
        kwargs["input_names"] = names
    try:
        parameters = inspect.signature(torch.onnx.export).parameters
    except (TypeError, ValueError):  # pragma: no cover
        parameters = {}
    options = dict(options or {})
    if "dynamo" not in parameters or "dynamo" in options:
        # An older torch (TorchScript only), or the caller chose.
        kwargs.update(options)
        with torch.no_grad():
            torch.onnx.export(module, args, path, **kwargs)
        return path
    # The exporter torch itself defaults to (dynamo, which needs onnxscript);
    # where it fails, the TorchScript one, saying why.
    dynamo_error = None
    try:
        import onnxscript  # noqa: F401
    except ImportError:
        dynamo_error = "onnxscript is not installed"
    if dynamo_error is None:
        try:
            quiet = {"verbose": False} if "verbose" in parameters else {}
            with torch.no_grad(), contextlib.redirect_stdout(io.StringIO()):
                torch.onnx.export(module, args, path, dynamo=True,
                                  **{**kwargs, **quiet, **options})
            return path
        except Exception as e:  # the exporter's own failure, reported below
            dynamo_error = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            for leftover in (path, path + ".data"):
                if os.path.exists(leftover):
                    os.remove(leftover)
    warnings.warn(
        "paracc.compile: torch.onnx's dynamo exporter failed on this module ("
        + dynamo_error + "); exporting it with the TorchScript exporter "
        "(dynamo=False) instead. torch_export_options={'dynamo': ...} "
        "chooses one.", RuntimeWarning, stacklevel=3)
    with torch.no_grad():
        torch.onnx.export(module, args, path, dynamo=False,
                          **{**kwargs, **options})
    return path
