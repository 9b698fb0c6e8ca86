"""Splits a test file into the parts that follow `#--- NAME` lines.

  split-file.py INPUT OUTDIR

Like LLVM's split-file (which the lit configuration does not provide): each
part goes to OUTDIR/NAME, without the marker line; text before the first
marker is dropped.
"""

import os
import sys


def main(argv):
    source, outdir = argv[1], argv[2]
    parts, name = {}, None
    with open(source) as f:
        for line in f:
            if line.startswith("#--- "):
                name = line[len("#--- "):].strip()
                if name in parts:
                    sys.exit("split-file.py: part '%s' repeats" % name)
                parts[name] = []
            elif name is not None:
                parts[name].append(line)
    if not parts:
        sys.exit("split-file.py: no '#--- NAME' parts in " + source)
    for name, lines in parts.items():
        path = os.path.join(outdir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.writelines(lines)


if __name__ == "__main__":
    main(sys.argv)
