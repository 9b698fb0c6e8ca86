"""Writes a copy of a file with one byte of a string in it replaced.

usage: replace_byte.py IN OUT TEXT INDEX BYTE [--check-text FILE]

Finds the first occurrence of TEXT (given as Python bytes escapes, e.g.
'\\x22\\x07Softmax' for an ONNX node's op_type field) in IN and writes OUT
with byte INDEX of that occurrence set to BYTE (e.g. 0xe5): a name or path
that is no longer valid UTF-8, of the same length, so nothing else in the
file moves.

usage: replace_byte.py --check-text FILE
Exits 1 (printing why) unless FILE is valid UTF-8; prints nothing else.
"""

import sys


def main() -> int:
    if sys.argv[1] == "--check-text":
        data = open(sys.argv[2], "rb").read()
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            print(f"{sys.argv[2]} is not valid UTF-8: {e}: {data!r}")
            return 1
        return 0
    src, dst, text, index, byte = sys.argv[1:6]
    data = bytearray(open(src, "rb").read())
    needle = text.encode("ascii").decode("unicode_escape").encode("latin-1")
    at = data.find(needle)
    if at < 0:
        print(f"{text!r} is not in {src}")
        return 1
    data[at + int(index)] = int(byte, 0)
    open(dst, "wb").write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
