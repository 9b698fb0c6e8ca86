"""Writes corrupted copies of an executable and runs paracc-run on each.

usage: corrupt.py PARACC_RUN MODEL.pcx WORKDIR

Variants: truncations at many lengths, single-byte flips spread over the
file, garbage, an empty file. Every run must exit 2 (a clean error) or 0/1
(a flip that leaves a valid program, e.g. in weight data); a crash, a
signal, a hang or any other exit code fails. Prints one summary line.
"""

import os
import random
import subprocess
import sys


def main() -> int:
    paracc_run, model, workdir = sys.argv[1:4]
    data = open(model, "rb").read()
    rng = random.Random(0)
    variants = {"empty": b"", "garbage": bytes(rng.randrange(256) for _ in range(4096))}
    for cut in sorted({1, 7, 8, 15, 16, 17, 64, 100, 1000, len(data) // 3,
                       len(data) // 2, len(data) - 1} & set(range(1, len(data)))):
        variants[f"truncated-{cut}"] = data[:cut]
    # Flips in the header and program (first 64 KiB) matter most.
    span = min(len(data), 65536)
    for i in range(150):
        pos = rng.randrange(span)
        flipped = bytearray(data)
        flipped[pos] ^= 1 << rng.randrange(8)
        variants[f"flip-{pos}"] = bytes(flipped)
    counts = {0: 0, 1: 0, 2: 0}
    for name, blob in variants.items():
        path = os.path.join(workdir, name + ".pcx")
        with open(path, "wb") as f:
            f.write(blob)
        try:
            p = subprocess.run([paracc_run, path], capture_output=True, text=True,
                               timeout=60)
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: timed out")
            return 1
        if p.returncode not in counts:
            print(f"FAIL {name}: exit {p.returncode}\n{p.stderr[-2000:]}")
            return 1
        if p.returncode == 2 and "error:" not in p.stderr:
            print(f"FAIL {name}: exit 2 without an error message")
            return 1
        counts[p.returncode] += 1
    print(f"corrupted executables: {len(variants)} runs, {counts[2]} rejected "
          f"with an error, {counts[0] + counts[1]} still valid, no crash")
    return 0


if __name__ == "__main__":
    sys.exit(main())
