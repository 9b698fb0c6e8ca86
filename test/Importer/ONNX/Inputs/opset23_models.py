"""Writes small models with ONNX opset 23's RMSNormalization and
RotaryEmbedding, and onnxruntime's outputs for them, for paracc to be
compared with.

usage: opset23_models.py OUT_DIR

Cases (OUT_DIR/NAME/model.onnx + test_data_set_0):
  rms-norm          [2, 5, 8], axis -1, scale [8]
  rms-norm-axis1    [2, 3, 4], axis 1, scale [3, 4], epsilon 1e-3
  rotary            X [2, 4, 6, 8] (B, H, S, D), caches [16, 4] indexed by
                    position_ids [2, 6]
  rotary-packed     X [2, 6, 16] with num_heads 2 and rotary_embedding_dim
                    4 (half of each head rotated), caches [2, 6, 2] given
                    per token (no position_ids)
"""

import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from ort_reference import write_case


def save(name, op, inputs, feeds, inits, attrs, out_dir):
    node = helper.make_node(op, [n for n, _ in inputs] +
                            [i.name for i in inits], ["y"], **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(
            n, TensorProto.FLOAT if feeds[n].dtype == np.float32
            else TensorProto.INT64, s) for n, s in inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)])
    m.ir_version = 10
    write_case(out_dir, name, m, {n: feeds[n] for n, _ in inputs}, "y")


def caches(rng, rows, half):
    angles = rng.uniform(0, 6.28, (rows, half)).astype(np.float32)
    return np.cos(angles), np.sin(angles)


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(23)
    x = rng.normal(0, 2, (2, 5, 8)).astype(np.float32)
    save("rms-norm", "RMSNormalization", [("x", [2, 5, 8])], {"x": x},
         [numpy_helper.from_array(rng.uniform(0.5, 1.5, 8).astype(np.float32),
                                  "scale")], {}, out)
    x = rng.normal(0, 2, (2, 3, 4)).astype(np.float32)
    save("rms-norm-axis1", "RMSNormalization", [("x", [2, 3, 4])], {"x": x},
         [numpy_helper.from_array(
             rng.uniform(0.5, 1.5, (3, 4)).astype(np.float32), "scale")],
         {"axis": 1, "epsilon": 1e-3}, out)
    x = rng.normal(0, 1, (2, 4, 6, 8)).astype(np.float32)
    cos, sin = caches(rng, 16, 4)
    positions = rng.integers(0, 16, (2, 6)).astype(np.int64)
    save("rotary", "RotaryEmbedding",
         [("x", [2, 4, 6, 8]), ("cos", [16, 4]), ("sin", [16, 4]),
          ("position_ids", [2, 6])],
         {"x": x, "cos": cos, "sin": sin, "position_ids": positions}, [], {},
         out)
    x = rng.normal(0, 1, (2, 6, 16)).astype(np.float32)
    cos, sin = caches(rng, 12, 2)
    save("rotary-packed", "RotaryEmbedding",
         [("x", [2, 6, 16]), ("cos", [2, 6, 2]), ("sin", [2, 6, 2])],
         {"x": x, "cos": cos.reshape(2, 6, 2), "sin": sin.reshape(2, 6, 2)},
         [], {"num_heads": 2, "rotary_embedding_dim": 4}, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
