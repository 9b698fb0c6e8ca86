"""Compares two --save-gradients files (the loss and every gradient).

usage: compare_gradient_files.py A.npz B.npz [--atol A]
Prints whether they are bit-identical or within the tolerance (default 0:
bit-identical); exits 1 when they are not, or hold different names.
"""

import argparse
import sys

import numpy as np


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--atol", type=float, default=0.0)
    args = p.parse_args()
    a, b = np.load(args.a), np.load(args.b)
    if set(a.files) != set(b.files):
        print(f"different names: {sorted(set(a.files) ^ set(b.files))}")
        return 1
    worst, identical = 0.0, True
    for k in a.files:
        if a[k].shape != b[k].shape:
            print(f"{k}: shapes {a[k].shape} and {b[k].shape}")
            return 1
        identical &= bool(np.array_equal(a[k], b[k]))
        worst = max(worst, float(np.max(np.abs(
            a[k].astype(np.float64) - b[k].astype(np.float64)), initial=0)))
    verdict = ("bit-identical" if identical else
               f"within {args.atol:g}" if worst <= args.atol else
               f"NOT within {args.atol:g}")
    print(f"{len(a.files)} gradient(s), max abs difference {worst:.3e}: "
          f"{verdict}")
    return 0 if identical or worst <= args.atol else 1


if __name__ == "__main__":
    sys.exit(main())
