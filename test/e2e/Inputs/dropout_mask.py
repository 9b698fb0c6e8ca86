"""Checks training-mode Dropout's mask as paracc draws it.

usage: dropout_mask.py PARACC OUT_DIR

Builds a model of one Dropout(ratio 0.25, training_mode=True) on an
[8, 16, 64] input, runs it with paracc at one rank, dp2 and dp2,tp2, and
checks: the dropped fraction is within 5 standard deviations of 0.25, every
kept element is x / 0.75, and the outputs of the meshes are the one-rank
output exactly (the mask is keyed by global coordinates). Exits 1 otherwise.
"""

import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RATIO = 0.25
SHAPE = [8, 16, 64]


def main() -> int:
    paracc, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, SHAPE)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, SHAPE)
    inits = [numpy_helper.from_array(np.array(RATIO, np.float32), "ratio"),
             numpy_helper.from_array(np.array(True), "mode")]
    node = helper.make_node("Dropout", ["x", "ratio", "mode"], ["y"])
    graph = helper.make_graph([node], "dropout", [x], [y], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path = os.path.join(out, "dropout.onnx")
    onnx.save(model, path)
    data = np.random.default_rng(0).standard_normal(SHAPE).astype(np.float32)
    data_path = os.path.join(out, "x.pb")
    with open(data_path, "wb") as f:
        f.write(numpy_helper.from_array(data, "x").SerializeToString())

    results = {}
    for mesh in ["", "dp2", "dp2,tp2"]:
        save = os.path.join(out, mesh or "one")
        cmd = [paracc, path, "--input", f"x={data_path}", "--save-outputs", save]
        if mesh:
            cmd += ["--mesh", mesh]
        done = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        if done.returncode != 0:
            print(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
            return 1
        results[mesh or "1 rank"] = numpy_helper.to_array(
            onnx.load_tensor(os.path.join(save, "output_0.pb")))

    y1 = results["1 rank"]
    kept = y1 != 0
    n = y1.size
    dropped = n - int(kept.sum())
    sd = (n * RATIO * (1 - RATIO)) ** 0.5
    scaled = bool(np.array_equal(y1[kept], (data[kept] * np.float32(1 / (1 - RATIO)))))
    same = {m: bool(np.array_equal(v, y1)) for m, v in results.items()}
    print(f"dropped {dropped} of {n} ({dropped / n:.4f}, expected {RATIO}); "
          f"kept ones scaled by 1/(1-ratio): {scaled}; same on {same}")
    ok = abs(dropped - n * RATIO) <= 5 * sd and scaled and all(same.values())
    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
