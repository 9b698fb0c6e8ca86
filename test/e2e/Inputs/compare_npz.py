"""Compares a TensorProto file with an array of an .npz file (allclose).

usage: compare_npz.py OUTPUT.pb REFERENCE.npz KEY [--rtol R] [--atol A]
Exits 1 with the errors when they differ.
"""

import argparse
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("output")
    p.add_argument("reference")
    p.add_argument("key")
    p.add_argument("--rtol", type=float, default=1e-4)
    p.add_argument("--atol", type=float, default=1e-4)
    args = p.parse_args()
    actual = numpy_helper.to_array(onnx.load_tensor(args.output))
    expected = np.load(args.reference)[args.key]
    err = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
    print(f"{args.key}: paracc {actual.ravel()[:4]} reference {expected.ravel()[:4]} "
          f"max abs error {err.max():.3e}")
    if actual.shape != expected.shape or not np.allclose(
            actual, expected, rtol=args.rtol, atol=args.atol):
        print("MISMATCH", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
