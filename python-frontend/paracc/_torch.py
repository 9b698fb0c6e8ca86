"""Exporting a torch.nn.Module to ONNX for paracc.compile (torch is
imported here only, when such a module is compiled)."""

from __future__ import annotations

import inspect
import os
from typing import Mapping

from ._capi import ParaccImportError, ParaccInvalidArgument

_NEEDS_TORCH = "paracc.compile of a torch module needs torch (pip install torch)"


def export(module, example_inputs, folder: str, options=None) -> str:
    """Exports `module` on `example_inputs` to FOLDER/model.onnx (large
    weights as external data next to it) and returns that path.

    `example_inputs`: a tuple (or list) of tensors or arrays, one tensor, or
    a dict name -> tensor (its names become the ONNX inputs' names, in
    forward's parameter order). `options` are more keyword arguments of
    torch.onnx.export, over these defaults (e.g. {"dynamo": True})."""
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
    if "dynamo" in parameters:
        # The TorchScript exporter: static shapes, no onnxscript needed.
        kwargs["dynamo"] = False
    kwargs.update(options or {})
    with torch.no_grad():
        torch.onnx.export(module, args, path, **kwargs)
    return path
