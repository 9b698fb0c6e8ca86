"""Puts bytes that are not text into a StableHLO file's names and strings
and checks that paracc answers each with a clean exit and UTF-8 output.

usage: not_text.py PARACC MODEL.mlir WORKDIR

The fields hit on purpose: op names (`stablehlo.add`), symbols (`@main`),
string literals (`jax.result_info = "result"`), attribute names and a
location's file name (`loc("model.py":3:7)`, added to the first op). Each
gets, at a seeded position, one of a lone continuation byte, a lead byte
without its continuation, an invalid byte, ESC or DEL. A run passes when
paracc exits 0, 2 or 3, prints an error on a non-zero exit and prints only
valid UTF-8; a crash, a hang or bytes that are not UTF-8 fail. Prints one
summary line.
"""

import os
import random
import re
import subprocess
import sys

NOT_TEXT = [0x80, 0xE5, 0xFF, 0x1B, 0x7F, 0xC0]
FIELDS = {
    "op name": rb"\bstablehlo\.[a-z_]+",
    "symbol": rb"@[A-Za-z_][A-Za-z0-9_]*",
    "string": rb'"[^"\n]{2,}"',
    "attribute name": rb"\b[a-z_]+(?= = )",
    "location": rb'loc\("[^"]+"',
}


def main() -> int:
    paracc, model, workdir = sys.argv[1:4]
    data = open(model, "rb").read()
    # A location on the first op, so that file names in locations are hit.
    first = re.search(rb"(stablehlo\.[a-z_]+[^\n]*?)(\n)", data)
    data = (data[:first.end(1)] + b' loc("jax_model.py":3:7)' +
            data[first.end(1):])
    rng = random.Random(0)
    runs, codes = 0, {}
    for field, pattern in FIELDS.items():
        matches = list(re.finditer(pattern, data))
        if not matches:
            print(f"FAIL: no {field} in {model}")
            return 1
        for m in rng.sample(matches, min(len(matches), 6)):
            pos = rng.randrange(m.start() + 1, m.end())
            changed = bytearray(data)
            changed[pos] = rng.choice(NOT_TEXT)
            path = os.path.join(workdir, f"not-text-{pos}.mlir")
            open(path, "wb").write(changed)
            try:
                p = subprocess.run([paracc, path, "--emit=compiled"],
                                   capture_output=True, timeout=60)
            except subprocess.TimeoutExpired:
                print(f"FAIL {field} at byte {pos}: timed out")
                return 1
            runs += 1
            codes[p.returncode] = codes.get(p.returncode, 0) + 1
            try:
                err = p.stderr.decode()
                p.stdout.decode()
            except UnicodeDecodeError as e:
                print(f"FAIL {field} at byte {pos}: output is not UTF-8 "
                      f"({e}): {p.stderr[-1000:]!r}")
                return 1
            if p.returncode not in (0, 2, 3) or (p.returncode and
                                                 "error:" not in err):
                print(f"FAIL {field} at byte {pos}: exit {p.returncode}\n"
                      f"{err[-2000:]}")
                return 1
    summary = ", ".join(f"exit {k}: {v}" for k, v in sorted(codes.items()))
    print(f"StableHLO with bytes that are not text: {runs} runs over "
          f"{len(FIELDS)} kinds of field ({summary}), all output UTF-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
