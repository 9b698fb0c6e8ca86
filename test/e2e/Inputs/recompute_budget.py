"""Checks --recompute auto under a budget between full's and none's peaks.

usage: recompute_budget.py PARACC OUT_DIR -- TRAIN_ARGS...

Runs `PARACC train TRAIN_ARGS --save-gradients ... --explain-json ...` with
--recompute none and full, then auto with --memory-budget halfway between
their peaks; checks that auto's peak is within the budget and below none's,
that it recomputed something, and that its gradients are none's exactly.
Exits 1 with the reason otherwise.
"""

import json
import os
import subprocess
import sys

import numpy as np


def run(paracc, out, name, args, extra):
    grads = os.path.join(out, f"{name}.npz")
    report = os.path.join(out, f"{name}.json")
    cmd = [paracc, "train", *args, "--save-gradients", grads,
           "--explain-json", report, *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    with open(report) as f:
        return json.load(f), np.load(grads)


def main() -> int:
    paracc, out = sys.argv[1], sys.argv[2]
    args = sys.argv[sys.argv.index("--") + 1:]
    os.makedirs(out, exist_ok=True)
    none, g_none = run(paracc, out, "none", args, ["--recompute", "none"])
    full, _ = run(paracc, out, "full", args, ["--recompute", "full"])
    lo, hi = full["memory"]["peak"], none["memory"]["peak"]
    if not lo < hi:
        print(f"full's peak {lo} is not below none's {hi}")
        return 1
    budget = (lo + hi) // 2
    auto, g_auto = run(paracc, out, "auto", args,
                       ["--recompute", "auto", "--memory-budget", f"{budget}B"])
    peak = auto["memory"]["peak"]
    r = auto["recompute"]
    print(f"peaks: none {hi}, full {lo}; auto {peak} within {budget}: "
          f"{peak <= budget}; recomputed {r['recomputed_ops']} ops, kept "
          f"{r['kept_bytes']} of {r['saved_bytes']} saved bytes")
    if peak > budget or peak >= hi or r["policy"] != "auto" or \
            r["recomputed_ops"] <= 0:
        return 1
    if set(g_none.files) != set(g_auto.files):
        print("different gradients saved")
        return 1
    differ = [k for k in g_none.files
              if not np.array_equal(g_none[k], g_auto[k])]
    print(f"{len(g_none.files)} gradients bit-identical to none's: "
          f"{not differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
