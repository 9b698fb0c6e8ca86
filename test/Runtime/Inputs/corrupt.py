"""Writes corrupted copies of an executable and runs paracc-run on each.

usage: corrupt.py PARACC_RUN MODEL.pcx WORKDIR

Variants: truncations at many lengths, single-byte flips spread over the
file, garbage, an empty file, and bytes that are not text (a lone UTF-8
continuation byte, a lead byte without its continuation, control
characters) written into the executable's strings: names of state, inputs,
outputs and instructions, and the path of the model's external data.
Those strings are found by their FlatBuffers layout (a little-endian
32-bit length, the bytes, a NUL), so every kind of string field is hit on
purpose, wherever the checkout lives. Every run must exit 2 (a clean
error) or 0/1 (a change that leaves a valid program, e.g. in weight data),
and print only valid UTF-8; a crash, a signal, a hang, any other exit code
or output that is not UTF-8 fails. Prints one summary line.
"""

import os
import random
import re
import struct
import subprocess
import sys

# What a hostile or damaged file can put in a name: a lone continuation
# byte, a lead byte without its continuation, an invalid byte, ESC, DEL.
NOT_TEXT = [0x80, 0xE5, 0xFF, 0x1B, 0x7F, 0xC0]


def string_fields(data):
    """(offset, length) of each FlatBuffers string of 3+ bytes that are not
    controls (printable ASCII or UTF-8: a checkout's path may be either)."""
    fields = []
    for m in re.finditer(rb"[^\x00-\x1f\x7f]{3,}\x00", data):
        start, length = m.start(), m.end() - m.start() - 1
        # The run may start before the string: find where its length fits.
        for begin in range(start, start + length - 2):
            n = length - (begin - start)
            if begin >= 4 and struct.unpack_from("<I", data, begin - 4)[0] == n:
                fields.append((begin, n))
                break
    return fields


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
    # Bytes that are not text in strings, the paths first (each of them),
    # then a sample of the names.
    fields = string_fields(data)
    paths = [f for f in fields if b"/" in data[f[0]:f[0] + f[1]]]
    names = [f for f in fields if f not in paths]
    if not paths or not names:
        print(f"FAIL: found {len(paths)} paths and {len(names)} names in the "
              "executable's strings; expected both")
        return 1
    for begin, n in paths + rng.sample(names, min(len(names), 40)):
        pos = begin + rng.randrange(n)
        changed = bytearray(data)
        changed[pos] = rng.choice(NOT_TEXT)
        variants[f"string-{pos}"] = bytes(changed)
    counts = {0: 0, 1: 0, 2: 0}
    for name, blob in variants.items():
        path = os.path.join(workdir, name + ".pcx")
        with open(path, "wb") as f:
            f.write(blob)
        try:
            p = subprocess.run([paracc_run, path], capture_output=True,
                               timeout=60)
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: timed out")
            return 1
        try:
            stdout, stderr = p.stdout.decode(), p.stderr.decode()
        except UnicodeDecodeError as e:
            print(f"FAIL {name}: the output is not valid UTF-8 ({e}):\n"
                  f"{(p.stdout + p.stderr)[-2000:]!r}")
            return 1
        if p.returncode not in counts:
            print(f"FAIL {name}: exit {p.returncode}\n{stderr[-2000:]}")
            return 1
        if p.returncode == 2 and "error:" not in stderr:
            print(f"FAIL {name}: exit 2 without an error message")
            return 1
        counts[p.returncode] += 1
    print(f"corrupted executables: {len(variants)} runs ({len(paths)} paths "
          f"and {min(len(names), 40)} names not text), {counts[2]} rejected "
          f"with an error, {counts[0] + counts[1]} still valid, no crash, "
          f"all output UTF-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
