"""Writes a .pcx container whose program says format version 1.

usage: format_v1.py OUT.pcx

The executable of paracc before program model v2 (one instruction list over
read-only weights): the runtime must name the version, not fail the
FlatBuffer verification of the new schema.
"""

import struct
import sys

import flatbuffers


def main() -> int:
    b = flatbuffers.Builder(64)
    b.StartObject(1)
    b.PrependUint32Slot(0, 1, 0)
    root = b.EndObject()
    b.Finish(root, file_identifier=b"PCX1")
    program = bytes(b.Output())
    with open(sys.argv[1], "wb") as f:
        f.write(b"PARACCX1" + struct.pack("<Q", len(program)) + program)
    return 0


if __name__ == "__main__":
    sys.exit(main())
