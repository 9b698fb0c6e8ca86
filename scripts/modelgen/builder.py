"""A small ONNX graph builder that names tensors the way exporters do.

Weights become initializers (under HF-style parameter names); small values
such as shapes, axes and scalars become ``Constant`` nodes, as in an
unoptimised PyTorch export. Helpers hide the opset-dependent forms of the
few ops whose signature changed between opsets 17 and 21.
"""

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class GraphBuilder:
    """Accumulates nodes, initializers, inputs and outputs of one graph."""

    def __init__(self, opset: int, name: str):
        """Start an empty graph that targets the default domain at ``opset``."""
        self.opset = opset
        self.name = name
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self.inputs: list[onnx.ValueInfoProto] = []
        self.outputs: list[onnx.ValueInfoProto] = []
        self._counter = 0

    def _fresh(self, hint: str) -> str:
        """Return a new unique tensor name derived from ``hint``."""
        self._counter += 1
        return f"{hint}_{self._counter}"

    def input(self, name: str, elem_type: int, shape: list[int]) -> str:
        """Declare a graph input and return its name."""
        self.inputs.append(helper.make_tensor_value_info(name, elem_type, shape))
        return name

    def output(self, name: str, elem_type: int, shape: list[int]) -> None:
        """Declare a graph output; some node must produce it via ``op(..., out=name)``."""
        self.outputs.append(helper.make_tensor_value_info(name, elem_type, shape))

    def param(self, name: str, array: np.ndarray) -> str:
        """Add a weight as an initializer called ``name`` and return the name."""
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def param_shape(self, name: str, dims: list[int]) -> str:
        """Add a float32 initializer with a shape and no data (shape-only models)."""
        tensor = onnx.TensorProto()
        tensor.name = name
        tensor.data_type = onnx.TensorProto.FLOAT
        tensor.dims.extend(dims)
        self.initializers.append(tensor)
        return name

    def const(self, value, dtype=np.int64) -> str:
        """Emit a Constant node holding ``value`` (a scalar or a list)."""
        out = self._fresh("val")
        tensor = numpy_helper.from_array(np.asarray(value, dtype=dtype), out)
        self.nodes.append(helper.make_node("Constant", [], [out], name=f"n_{out}", value=tensor))
        return out

    def op(self, op_type: str, inputs: list[str], num_outputs: int = 1,
           out: str | None = None, **attrs):
        """Emit one node; return its output name, or a list when num_outputs > 1.

        ``out`` names the (single) output explicitly, e.g. a graph output.
        """
        outs = [out] if out else [self._fresh(op_type.lower()) for _ in range(num_outputs)]
        self.nodes.append(
            helper.make_node(op_type, inputs, outs, name=f"n_{outs[0]}", **attrs))
        return outs[0] if num_outputs == 1 else outs

    # --- ops whose signature depends on the opset -------------------------

    def reduce_mean(self, x: str, axes: list[int]) -> str:
        """ReduceMean with keepdims=1: axes attribute below opset 18, input from 18."""
        if self.opset < 18:
            return self.op("ReduceMean", [x], axes=axes, keepdims=1)
        return self.op("ReduceMean", [x, self.const(axes)], keepdims=1)

    def split(self, x: str, sizes: list[int], axis: int) -> list[str]:
        """Split with the sizes given as the ``split`` input (opset >= 13)."""
        return self.op("Split", [x, self.const(sizes)], num_outputs=len(sizes), axis=axis)

    def unsqueeze(self, x: str, axes: list[int]) -> str:
        """Unsqueeze with axes as an input (opset >= 13)."""
        return self.op("Unsqueeze", [x, self.const(axes)])

    def reshape(self, x: str, shape: list[int]) -> str:
        """Reshape to a constant target shape."""
        return self.op("Reshape", [x, self.const(shape)])

    def model(self, doc: str) -> onnx.ModelProto:
        """Assemble the ModelProto with the lowest IR version the opset allows."""
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs,
                                  self.initializers)
        opsets = [helper.make_opsetid("", self.opset)]
        model = helper.make_model(graph, opset_imports=opsets, producer_name="paracc-modelgen",
                                  doc_string=doc)
        model.ir_version = helper.find_min_ir_version_for(opsets)
        return model


FLOAT = TensorProto.FLOAT
INT64 = TensorProto.INT64
