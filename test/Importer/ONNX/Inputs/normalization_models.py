"""Writes small models with ONNX's GroupNormalization (opset 18: scale and
bias per group; opset 21: per channel, with stash_type) and
InstanceNormalization, and onnxruntime's outputs for them, for paracc to be
compared with.

usage: normalization_models.py OUT_DIR

Cases (OUT_DIR/NAME/model.onnx + test_data_set_0): `group-norm-18`
([2, 6, 5, 3] in 3 groups), `group-norm-21` ([2, 6, 7] in 2 groups),
`instance-norm` ([2, 3, 4, 5]).
"""

import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from ort_reference import write_case


def model(name, op, opset, shape, params, attrs, out_dir, seed):
    rng = np.random.default_rng(seed)
    node = helper.make_node(op, ["x", "scale", "bias"], ["y"], **attrs)
    inits = [numpy_helper.from_array(
        rng.uniform(0.5, 1.5, params).astype(np.float32), "scale"),
        numpy_helper.from_array(
            rng.uniform(-0.5, 0.5, params).astype(np.float32), "bias")]
    graph = helper.make_graph(
        [node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10
    x = rng.normal(1.0, 2.0, shape).astype(np.float32)
    write_case(out_dir, name, m, {"x": x}, "y")


def main():
    out = sys.argv[1]
    model("group-norm-18", "GroupNormalization", 18, [2, 6, 5, 3], [3],
          {"num_groups": 3, "epsilon": 1e-3}, out, 1)
    model("group-norm-21", "GroupNormalization", 21, [2, 6, 7], [6],
          {"num_groups": 2}, out, 2)
    model("instance-norm", "InstanceNormalization", 17, [2, 3, 4, 5], [3],
          {"epsilon": 1e-4}, out, 3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
