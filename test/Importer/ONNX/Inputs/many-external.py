"""Writes a model whose 64 initializers lie in one 256 MiB external-data file.

  many-external.py DIR

DIR/model.pbtxt computes y = x + w0 + ... + w63 (each f32[4]); DIR/big.bin
is sparse: w_i = [i, i, i, i] at offset i * 4 MiB, zeros elsewhere.
"""

import os
import struct
import sys

COUNT = 64
STRIDE = 4 << 20

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "big.bin"), "wb") as f:
    f.truncate(COUNT * STRIDE)
    for i in range(COUNT):
        f.seek(i * STRIDE)
        f.write(struct.pack("<4f", *[float(i)] * 4))

lines = ["ir_version: 8", "opset_import { version: 17 }", "graph {"]
prev = "x"
for i in range(COUNT):
    lines.append(f'  node {{ op_type: "Add" input: "{prev}" input: "w{i}" '
                 f'output: "s{i}" name: "add{i}" }}')
    prev = f"s{i}"
lines.append(f'  node {{ op_type: "Identity" input: "{prev}" output: "y" '
             'name: "out" }')
for i in range(COUNT):
    lines.append(f'  initializer {{ name: "w{i}" data_type: 1 dims: 4 '
                 'data_location: EXTERNAL')
    lines.append('    external_data { key: "location" value: "big.bin" }')
    lines.append(f'    external_data {{ key: "offset" value: "{i * STRIDE}" }}')
    lines.append('    external_data { key: "length" value: "16" } }')
lines.append('  input { name: "x" type { tensor_type { elem_type: 1 shape { '
             'dim { dim_value: 4 } } } } }')
lines.append('  output { name: "y" }')
lines.append("}")
with open(os.path.join(out, "model.pbtxt"), "w") as f:
    f.write("\n".join(lines) + "\n")
