"""Runs a command and succeeds only if it exits with the given status.

  expect-exit.py CODE COMMAND [ARGS...]
  expect-exit.py CODE --each DIR COMMAND [ARGS...]

The command's output passes through (tests pipe it into FileCheck). A
command killed by a signal (a crash) never matches, so unlike a bare `not`
this tells a clean error exit from a crash and checks the exact status
(paracc: 1 mismatch, 2 error, 3 unsupported).

With --each, the command runs once for every file in DIR, with `{}` in its
arguments replaced by the file's path; its output is shown only for the
files where the status does not match.
"""

import os
import subprocess
import sys


def describe(command, code, expected):
    what = ("was killed by signal %d" % -code) if code < 0 else (
        "exited with %d" % code)
    return "expect-exit.py: error: '%s' %s, expected exit status %d\n" % (
        " ".join(command), what, expected)


def main(argv):
    expected = int(argv[1])
    if argv[2] != "--each":
        sys.stdout.flush()
        code = subprocess.call(argv[2:])
        if code == expected:
            return 0
        sys.stderr.write(describe(argv[2:3], code, expected))
        return 1
    folder, template = argv[3], argv[4:]
    files = sorted(os.listdir(folder))
    if not files:
        sys.stderr.write("expect-exit.py: error: '%s' is empty\n" % folder)
        return 1
    failures = 0
    for name in files:
        path = os.path.join(folder, name)
        command = [arg.replace("{}", path) for arg in template]
        run = subprocess.run(command, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        if run.returncode != expected:
            failures += 1
            sys.stderr.write(run.stdout.decode(errors="replace"))
            sys.stderr.write(describe(command, run.returncode, expected))
    print("expect-exit.py: %d of %d runs exited with %d" %
          (len(files) - failures, len(files), expected))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
