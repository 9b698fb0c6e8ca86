"""Checks a `--profile-json` file against the executable's own arithmetic.

usage: check_profile.py PROFILE.json COST_RATES STEPS [GROUP]

- the header: the rates the compile recorded, the profiled steps, and the
  totals equal to the rows' sums;
- every product row (matmul, linear) carries the FLOPs of its shapes,
  recomputed here from the label: 2 M K N per instruction (ONNX matmul
  broadcasting), plus at most 10 per result element for a linear's epilogue
  (bias, residual, activation);
- every row the model costs has a positive prediction, at least the rates'
  fixed cost per instruction; views have none;
- every all-reduce row (over GROUP ranks) carries its ring traffic,
  2 (n-1)/n x the bytes of its shape, recomputed here;
- every row ran (count > 0) and took measurable time.
"""

import json
import math
import re
import sys

FIXED_COST_MS = {"cpu": 2e-3, "h200": 5e-3}
COLLECTIVES = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
               "broadcast", "send", "recv"}
# Views and rank coordinates: the model gives them no cost (no launch).
UNCOSTED = {"reshape", "axis_index", "local_shard"}
DTYPE_BYTES = {"f32": 4, "bf16": 2, "f16": 2, "f64": 8, "i64": 8, "i32": 4}


def shapes(label):
    return [[int(d) for d in m.split(",") if d] for m in re.findall(r"\[([0-9,]*)\]", label)]


def product_flops(a, b):
    """2 M K N over the broadcast batch, ONNX matmul semantics."""
    if len(a) == 1:
        a = [1] + a
    if len(b) == 1:
        b = b + [1]
    m, k = a[-2], a[-1]
    n = b[-1]
    assert b[-2] == k, (a, b)
    batch_a, batch_b = a[:-2], b[:-2]
    width = max(len(batch_a), len(batch_b))
    batch_a = [1] * (width - len(batch_a)) + batch_a
    batch_b = [1] * (width - len(batch_b)) + batch_b
    batch = math.prod(max(x, y) for x, y in zip(batch_a, batch_b))
    return 2 * batch * m * k * n, batch * m * n


def main():
    path, rates, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    group = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    p = json.load(open(path))
    assert p["cost_rates"] == rates, p["cost_rates"]
    assert p["steps"] == steps, p["steps"]
    rows = p["rows"]
    assert rows, "no rows"
    assert abs(sum(r["measured_ms"] for r in rows) - p["measured_ms"]) <= 1e-6 * max(1, p["measured_ms"])
    assert abs(sum(r["predicted_ms"] for r in rows) - p["predicted_ms"]) <= 1e-6 * max(1, p["predicted_ms"])
    products = reductions = 0
    for r in rows:
        name = r["label"].split(" ", 1)[0]
        assert r["count"] > 0 and r["measured_ms"] > 0, r
        if name in UNCOSTED:
            assert r["predicted_ms"] == 0 and r["flops"] == 0, r
            continue
        assert r["predicted_ms"] >= r["count"] * FIXED_COST_MS[rates] * (1 - 1e-9), r
        if name in COLLECTIVES:
            assert r["flops"] == 0, r
        if name == "all_reduce":
            dtype, dims = re.match(r"all_reduce (\w+)\[([0-9,]*)\]", r["label"]).groups()
            message = DTYPE_BYTES[dtype] * math.prod(int(d) for d in dims.split(",") if d)
            traffic = 2 * (group - 1) / group * message
            assert abs(r["bytes"] / r["count"] - traffic) <= 1, (r, traffic)
            reductions += 1
        if name in ("matmul", "linear"):
            s = shapes(r["label"])
            flops, out = product_flops(s[0], s[1])
            per = r["flops"] / r["count"]
            epilogue = 10 * out if name == "linear" else 0
            assert flops <= per <= flops + epilogue, (r, flops)
            products += 1
    assert products > 0, "no product rows"
    assert (reductions > 0) == (group > 1), (reductions, group)
    print(f"profile OK: {len(rows)} rows, {products} product rows, "
          f"measured {p['measured_ms']:.3f} ms, predicted {p['predicted_ms']:.3f} ms")


if __name__ == "__main__":
    main()
