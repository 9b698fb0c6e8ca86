"""The cost model's predicted time per op next to the measured one.

usage: cost_model_summary.py PROFILE.json...

Each PROFILE.json is `paracc-run --profile N --profile-json FILE`'s output:
per label (mnemonic and operand shapes) the measured milliseconds per step,
the milliseconds the compiler's cost model predicted for the same
instructions (lib/Planner/CostModel.cpp, the rates named by `cost_rates`),
and the FLOPs and bytes the model counted. Prints, per profile:

- the step: measured against predicted;
- per op family (the mnemonic): measured, predicted, their ratio;
- the rows that take most of the step, each with its ratio;
- the rates the measurements imply (what the rate table would need to say
  for the predictions to match): the FLOP rate of the products (linear,
  matmul, gemm) and of attention, the memory bandwidth of the ops the
  model calls memory-bound, and the fixed cost of the smallest ops.
"""

import json
import math
import statistics
import sys
from collections import defaultdict

PRODUCTS = {"linear", "matmul", "gemm"}
ATTENTION = {"attention", "attention_grad"}


def family(label: str) -> str:
    return label.split(" ", 1)[0]


def weighted_log_error(rows) -> float:
    """exp of the time-weighted mean |log(measured/predicted)|: 1.0 is exact."""
    total = sum(r["measured_ms"] for r in rows if r["predicted_ms"] > 0)
    if total <= 0:
        return float("nan")
    s = sum(r["measured_ms"] * abs(math.log(r["measured_ms"] / r["predicted_ms"]))
            for r in rows if r["predicted_ms"] > 0 and r["measured_ms"] > 0)
    return math.exp(s / total)


def implied_rates(rows) -> list:
    out = []

    def rate(selected, key, unit, scale):
        """Per second, in the unit's T- or G- form, whichever reads better."""
        ms = sum(r["measured_ms"] for r in selected)
        amount = sum(r[key] for r in selected)
        if ms <= 0 or amount <= 0:
            return "-"
        per_second = amount / (ms / 1e3)
        if per_second >= scale:
            return f"{per_second / scale:.1f} {unit}"
        return f"{per_second / 1e9:.2f} G{unit[1:]}"

    products = [r for r in rows if family(r["label"]) in PRODUCTS and r["flops"] > 0]
    big = [r for r in products if r["flops"] / max(r["count"], 1) >= 1e9]
    out.append(("products (>= 1 GFLOP each)", rate(big, "flops", "TFLOP/s", 1e12)))
    out.append(("products (all)", rate(products, "flops", "TFLOP/s", 1e12)))
    for name in sorted(ATTENTION):
        sel = [r for r in rows if family(r["label"]) == name and r["flops"] > 0]
        out.append((name, rate(sel, "flops", "TFLOP/s", 1e12)))
    # Memory-bound: few FLOPs per byte, and large enough that the fixed
    # cost does not dominate (>= 8 MiB per instruction).
    memory = [r for r in rows
              if family(r["label"]) not in PRODUCTS | ATTENTION
              and r["bytes"] > 0 and r["flops"] <= 4 * r["bytes"]
              and r["bytes"] / max(r["count"], 1) >= 8 * 2**20]
    out.append(("memory-bound ops (>= 8 MiB each)", rate(memory, "bytes", "GB/s", 1e9)))
    small = [r["measured_ms"] / r["count"] * 1e3 for r in rows
             if r["count"] > 0 and 0 < r["bytes"] / r["count"] <= 256 * 2**10]
    if small:
        out.append(("fixed cost: median of ops <= 256 KiB",
                    f"{statistics.median(small):.1f} us ({len(small)} rows)"))
    return out


def summarize(path: str) -> None:
    p = json.load(open(path))
    rows = p["rows"]
    measured, predicted = p["measured_ms"], p["predicted_ms"]
    print(f"{path}: rank {p['rank']} on the {p['device']}, {p['steps']} step(s), "
          f"cost model '{p['cost_rates'] or 'none'}'")
    if predicted > 0:
        print(f"  step: measured {measured:.2f} ms, predicted {predicted:.2f} ms "
              f"(measured/predicted {measured / predicted:.2f}); "
              f"time-weighted error per op x{weighted_log_error(rows):.2f}")
    else:
        print(f"  step: measured {measured:.2f} ms, no prediction recorded")
    fams = defaultdict(lambda: [0.0, 0.0, 0])
    for r in rows:
        f = fams[family(r["label"])]
        f[0] += r["measured_ms"]
        f[1] += r["predicted_ms"]
        f[2] += r["count"]
    print("  per op family:     measured ms  predicted ms  measured/pred  count  % of step")
    for name, (m, pr, n) in sorted(fams.items(), key=lambda kv: -kv[1][0]):
        if m < 0.005 * measured:
            continue
        ratio = f"{m / pr:.2f}" if pr > 0 else "-"
        print(f"    {name:<18} {m:11.3f} {pr:13.3f} {ratio:>14} {n:6d} {100 * m / measured:9.1f}")
    print("  largest rows:")
    for r in rows[:12]:
        ratio = f"{r['measured_ms'] / r['predicted_ms']:.2f}" if r["predicted_ms"] > 0 else "-"
        print(f"    {r['measured_ms']:9.3f} ms  pred {r['predicted_ms']:9.3f}  x{ratio:>5}  "
              f"{r['count']:4d}x  {r['label']}")
    print("  rates the measurements imply:")
    for name, value in implied_rates(rows):
        print(f"    {name:<40} {value}")


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 1
    for path in sys.argv[1:]:
        summarize(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
