"""Rewrites one integer attribute list of an executable (.pcx).

usage: patch_ints.py IN.pcx OUT.pcx OLD NEW

OLD and NEW are comma-separated int64 lists of the same length, such as an
instruction's `ints` (group size, mesh axes, then the op's own integers).
The FlatBuffer stores such a vector as its uint32 length followed by the
little-endian values; exactly one copy of OLD must occur. The result is a
well-formed file whose instruction is malformed, for tests of the runtime's
checks.
"""

import struct
import sys


def encode(values):
    ints = [int(v) for v in values.split(",")]
    return ints, struct.pack("<I", len(ints)) + b"".join(
        struct.pack("<q", v) for v in ints)


def main(argv):
    src, dst, old, new = argv[1:5]
    old_ints, old_bytes = encode(old)
    new_ints, new_bytes = encode(new)
    if len(old_ints) != len(new_ints):
        sys.exit("patch_ints.py: OLD and NEW differ in length")
    data = open(src, "rb").read()
    count = data.count(old_bytes)
    if count != 1:
        sys.exit("patch_ints.py: [%s] occurs %d times in %s, expected once"
                 % (old, count, src))
    with open(dst, "wb") as f:
        f.write(data.replace(old_bytes, new_bytes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
