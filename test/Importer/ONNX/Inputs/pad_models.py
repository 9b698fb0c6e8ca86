"""Writes small models with ONNX Pad (constant pads) and onnxruntime's
outputs for them.

usage: pad_models.py OUT_DIR

Cases (OUT_DIR/NAME/model.onnx + test_data_set_0): `labels` (int64 [2, 7]
padded with -100 at the end of the last axis: transformers' built-in loss),
`constant` (f32, both ends of two axes, a value), `negative` (f32, pads that
cut), `edge` (f32, the border repeated), `axes` (opset 18, pads of one axis
named by `axes`).
"""

import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(out, name, x, pads, value=None, mode="constant", axes=None,
          opset=13):
    inits = [numpy_helper.from_array(np.array(pads, np.int64), "pads")]
    inputs = ["x", "pads"]
    if value is not None or axes is not None:
        inputs.append("value" if value is not None else "")
        if value is not None:
            inits.append(numpy_helper.from_array(np.array(value, x.dtype), "value"))
    if axes is not None:
        inputs.append("axes")
        inits.append(numpy_helper.from_array(np.array(axes, np.int64), "axes"))
    node = helper.make_node("Pad", inputs, ["y"], mode=mode, name="pad")
    elem = helper.np_dtype_to_tensor_dtype(x.dtype)
    graph = helper.make_graph(
        [node], name, [helper.make_tensor_value_info("x", elem, x.shape)],
        [helper.make_tensor_value_info("y", elem, None)], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    (y,) = ort.InferenceSession(m.SerializeToString(),
                                providers=["CPUExecutionProvider"]).run(
                                    None, {"x": x})
    with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    with open(os.path.join(d, "test_data_set_0", "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y, "y").SerializeToString())


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 50, (2, 7)).astype(np.int64)
    model(out, "labels", labels, [0, 0, 0, 1], value=-100)
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    model(out, "constant", x, [1, 0, 2, 0, 3, 1], value=1.5)
    model(out, "negative", x, [0, -1, 1, -1, 0, -2], value=0.0)
    model(out, "edge", x, [0, 2, 1, 1, 0, 3], mode="edge")
    model(out, "axes", x, [2, 1], value=-1.0, axes=[-1], opset=18)


if __name__ == "__main__":
    main()
