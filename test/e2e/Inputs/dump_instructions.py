"""Prints the instructions of a .pcx executable whose opcode mnemonics
match a regular expression (in full), one per line:
`MNEMONIC ints [..] floats [..] (NAME)`.

usage: dump_instructions.py EXE.pcx SCHEMA.fbs OPCODES.def REGEX

Opcodes are numbered in OpCodes.def's PARACC_OP order.
The executable is a 16-byte header ("PARACCX1", the flatbuffer's byte
length) and the flatbuffer, which flatc turns into JSON. Standard library
and flatc only.
"""

import json
import os
import re
import struct
import subprocess
import sys
import tempfile


def main():
    exe, schema, opcodes, pattern = sys.argv[1:5]
    mnemonics = re.findall(r'^PARACC_OP\(\w+, "(\w+)"\)',
                           open(opcodes).read(), re.M)
    data = open(exe, "rb").read()
    if data[:8] != b"PARACCX1":
        sys.exit(f"{exe}: not a paracc executable")
    (size,) = struct.unpack("<Q", data[8:16])
    with tempfile.TemporaryDirectory() as tmp:
        fb = os.path.join(tmp, "program.fb")
        with open(fb, "wb") as f:
            f.write(data[16:16 + size])
        subprocess.run(["flatc", "--json", "--strict-json", "--raw-binary",
                        "-o", tmp, schema, "--", fb], check=True)
        program = json.load(open(os.path.join(tmp, "program.json")))
    regex = re.compile(pattern)
    for function in program["functions"]:
        for instr in function.get("instrs", []):
            # (flatc leaves out fields at their default: opcode 0.)
            mnemonic = mnemonics[instr.get("opcode", 0)]
            if regex.fullmatch(mnemonic):
                print(f"{mnemonic} ints {instr.get('ints', [])} "
                      f"floats {instr.get('floats', [])} "
                      f"({instr.get('name', '')})")


if __name__ == "__main__":
    main()
