"""Writes a TensorProto file scaled by a factor (a wrong reference).

usage: scaled_tensor.py IN.pb OUT.pb FACTOR
"""

import sys

import onnx
from onnx import numpy_helper


def main() -> int:
    src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
    t = onnx.load_tensor(src)
    a = numpy_helper.to_array(t) * factor
    out = numpy_helper.from_array(a.astype(numpy_helper.to_array(t).dtype), t.name)
    onnx.save_tensor(out, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
