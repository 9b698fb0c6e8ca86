#!/usr/bin/env python3
"""Compares the running statistics in a paracc checkpoint with a
reference.json's (scripts/exports/vision_training.py).

usage: compare_running_statistics.py CHECKPOINT_STEP_DIR REFERENCE.json
           [--rtol R]

Checks every statistic against ONNX's definition of the update (reference
"onnx") and the running means against PyTorch's buffers too (its variances
differ by design: PyTorch's take the unbiased batch variance). Prints one
line per kind and OK, or exits non-zero.
"""

import argparse
import glob
import json
import os
import sys

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("checkpoint")
    ap.add_argument("reference")
    ap.add_argument("--rtol", type=float, default=1e-5)
    args = ap.parse_args()
    saved = {}
    for path in glob.glob(os.path.join(args.checkpoint, "rank-*.npz")):
        with np.load(path) as z:
            for key in z.keys():
                saved.setdefault(key.split("@")[0], z[key])
    with open(args.reference) as f:
        ref = json.load(f)["running_statistics"]
    ok = True
    for kind, names in (("onnx", ref["onnx"]),
                        ("pytorch", {n: v for n, v in ref["pytorch"].items()
                                     if n.endswith("running_mean")})):
        worst = 0.0
        for name, value in names.items():
            if name not in saved:
                print(f"{name}: not in the checkpoint")
                ok = False
                continue
            want = np.asarray(value, dtype=np.float64)
            err = np.abs(saved[name] - want).max() / max(np.abs(want).max(), 1e-12)
            worst = max(worst, err)
        print(f"{len(names)} statistics vs {kind} after "
              f"{ref['after_steps']} steps: worst rel error {worst:.2e}")
        ok &= worst <= args.rtol
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
