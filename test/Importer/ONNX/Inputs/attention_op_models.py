"""Writes small models with ONNX's fused Attention (opset 23) and
onnxruntime's outputs for them, for paracc to be compared with.

usage: attention_op_models.py OUT_DIR

Cases (OUT_DIR/NAME/model.onnx + test_data_set_0): `causal` (4-D,
is_causal, scale given), `gqa-bool-mask` (3-D inputs with q_num_heads 4,
kv_num_heads 2 and a boolean [B, 1, Sq, Sk] mask that hides some keys),
`causal-cross` (is_causal with fewer queries than keys: the frontier starts
at key 0) and `float-mask` (4-D, an additive [Sq, Sk] mask).
"""

import sys

import numpy as np
from onnx import TensorProto, helper

from ort_reference import write_case


def model(name, inputs, attrs, out_shape, out_dir, feeds):
    node = helper.make_node("Attention", [i[0] for i in inputs], ["Y"], **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, out_shape)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)])
    m.ir_version = 10
    write_case(out_dir, name, m, {i[0]: feeds[i[0]] for i in inputs}, "Y")


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(0)
    f = TensorProto.FLOAT
    r = lambda *s: rng.standard_normal(s).astype(np.float32)
    q, k, v = r(2, 3, 8, 16), r(2, 3, 8, 16), r(2, 3, 8, 16)
    model("causal", [("Q", f, [2, 3, 8, 16]), ("K", f, [2, 3, 8, 16]),
                     ("V", f, [2, 3, 8, 16])],
          {"is_causal": 1, "scale": 0.2}, [2, 3, 8, 16], out,
          {"Q": q, "K": k, "V": v})
    q3, k3, v3 = r(2, 6, 32), r(2, 10, 16), r(2, 10, 16)
    mask = rng.random((2, 1, 6, 10)) > 0.3
    mask[:, :, :, 0] = True  # every row keeps a key
    model("gqa-bool-mask", [("Q", f, [2, 6, 32]), ("K", f, [2, 10, 16]),
                            ("V", f, [2, 10, 16]),
                            ("M", TensorProto.BOOL, [2, 1, 6, 10])],
          {"q_num_heads": 4, "kv_num_heads": 2}, [2, 6, 32], out,
          {"Q": q3, "K": k3, "V": v3, "M": mask})
    qc, kc, vc = r(1, 2, 4, 8), r(1, 2, 9, 8), r(1, 2, 9, 8)
    model("causal-cross", [("Q", f, [1, 2, 4, 8]), ("K", f, [1, 2, 9, 8]),
                           ("V", f, [1, 2, 9, 8])],
          {"is_causal": 1}, [1, 2, 4, 8], out, {"Q": qc, "K": kc, "V": vc})
    fm = r(8, 8)
    model("float-mask", [("Q", f, [2, 3, 8, 16]), ("K", f, [2, 3, 8, 16]),
                         ("V", f, [2, 3, 8, 16]), ("M", f, [8, 8])],
          {}, [2, 3, 8, 16], out, {"Q": q, "K": k, "V": v, "M": fm})


if __name__ == "__main__":
    main()
