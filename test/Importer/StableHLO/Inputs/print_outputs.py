"""Prints DIR/output_N.pb as `output_N VALUES` (a list, or a scalar)."""

import os
import sys

from onnx import load_tensor, numpy_helper

directory = sys.argv[1]
i = 0
while os.path.exists(os.path.join(directory, "output_%d.pb" % i)):
    value = numpy_helper.to_array(
        load_tensor(os.path.join(directory, "output_%d.pb" % i)))
    print("output_%d" % i, value.tolist())
    i += 1
