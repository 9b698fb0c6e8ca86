"""Writes small models with ONNX Resize and onnxruntime's outputs for them.

usage: resize_models.py OUT_DIR

Each case is OUT_DIR/NAME/model.onnx + test_data_set_0: one Resize node over
a seeded random input, with the mode, coordinate transformation, rounding
and scales or sizes the case names (see CASES), and onnxruntime's output.
"""

import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper

# name: input shape, attributes, scales or sizes (one per resized axis),
# opset.
CASES = {
    "nearest-asymmetric-floor": ((2, 3, 4, 5), dict(
        mode="nearest", coordinate_transformation_mode="asymmetric",
        nearest_mode="floor"), ("scales", [1, 1, 2, 2]), 13),
    "nearest-half-pixel": ((2, 3, 4, 5), dict(mode="nearest"),
                           ("sizes", [2, 3, 7, 9]), 13),
    "nearest-align-corners-ceil": ((2, 3, 4, 5), dict(
        mode="nearest", coordinate_transformation_mode="align_corners",
        nearest_mode="ceil"), ("sizes", [2, 3, 6, 3]), 13),
    "nearest-round-prefer-ceil": ((1, 2, 6, 6), dict(
        mode="nearest", coordinate_transformation_mode="asymmetric",
        nearest_mode="round_prefer_ceil"), ("scales", [1, 1, 1.5, 0.5]), 13),
    "linear-half-pixel": ((2, 3, 4, 6), dict(mode="linear"),
                          ("scales", [1, 1, 2, 0.5]), 13),
    "linear-align-corners": ((2, 3, 4, 5), dict(
        mode="linear", coordinate_transformation_mode="align_corners"),
        ("sizes", [2, 3, 9, 7]), 13),
    "linear-pytorch-half-pixel": ((2, 3, 4, 5), dict(
        mode="linear", coordinate_transformation_mode="pytorch_half_pixel"),
        ("sizes", [2, 3, 1, 8]), 13),
    "linear-half-pixel-symmetric": ((2, 3, 4, 5), dict(
        mode="linear", coordinate_transformation_mode="half_pixel_symmetric"),
        ("scales", [1, 1, 1.7, 2.3]), 19),
    "cubic": ((2, 3, 5, 5), dict(mode="cubic"), ("scales", [1, 1, 2, 1.5]),
              13),
    "cubic-exclude-outside": ((2, 3, 5, 5), dict(
        mode="cubic", coordinate_transformation_mode="asymmetric",
        cubic_coeff_a=-0.5, exclude_outside=1), ("sizes", [2, 3, 8, 3]), 13),
    "axes": ((2, 7, 3), dict(mode="linear", axes=[1]), ("sizes", [11]), 18),
    "linear-1d": ((2, 3, 7), dict(mode="linear"), ("scales", [1, 1, 1.7]),
                  13),
}


def write(out, name, shape, attrs, given, opset, rng):
    kind, values = given
    inits = [numpy_helper.from_array(
        np.array(values, np.float32 if kind == "scales" else np.int64), kind)]
    inputs = ["x", "", kind] if kind == "scales" else ["x", "", "", kind]
    node = helper.make_node("Resize", inputs, ["y"], name="resize", **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)],
        inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    x = rng.standard_normal(shape).astype(np.float32)
    (y,) = ort.InferenceSession(m.SerializeToString(),
                                providers=["CPUExecutionProvider"]).run(
                                    None, {"x": x})
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(x, "x").SerializeToString())
    with open(os.path.join(d, "test_data_set_0", "output_0.pb"), "wb") as f:
        f.write(numpy_helper.from_array(y, "y").SerializeToString())
    print(name, list(y.shape))


def main():
    rng = np.random.default_rng(0)
    for name, (shape, attrs, given, opset) in CASES.items():
        write(sys.argv[1], name, shape, attrs, given, opset, rng)


if __name__ == "__main__":
    main()
