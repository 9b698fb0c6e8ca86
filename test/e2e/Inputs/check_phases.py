"""Checks one compile's phase boundaries.

check_phases.py PREFIX "TOOL ARGS" "PIPELINE OPTIONS" PHASE...

Runs `TOOL ARGS --compile-to=lowered`, then for each PHASE
`TOOL ARGS --compile-to=PHASE` (kept as PREFIX.PHASE.mlir) and
`paracc-opt PREFIX.PHASE.mlir --paracc-compile="OPTIONS from=PHASE"`, and
fails unless every continuation prints exactly the tool's lowered IR.
"""

import difflib
import shlex
import subprocess
import sys


def run(argv):
    result = subprocess.run(argv, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"{shlex.join(argv)} failed ({result.returncode}):\n"
                 + result.stderr.decode(errors="replace"))
    return result.stdout.decode()


def main():
    prefix, tool, options, *phases = sys.argv[1:]
    tool_argv = shlex.split(tool)
    lowered = run(tool_argv + ["--compile-to=lowered"])
    with open(f"{prefix}.lowered.mlir", "w") as f:
        f.write(lowered)
    for phase in phases:
        path = f"{prefix}.{phase}.mlir"
        with open(path, "w") as f:
            f.write(run(tool_argv + [f"--compile-to={phase}"]))
        continued = run(["paracc-opt", path,
                         f"--paracc-compile={options} from={phase}"])
        if continued != lowered:
            diff = difflib.unified_diff(
                lowered.splitlines(), continued.splitlines(),
                "paracc --compile-to=lowered",
                f"paracc-opt --paracc-compile from={phase}", lineterm="",
                n=2)
            sys.exit(f"phase {phase}: paracc-opt's continuation differs\n"
                     + "\n".join(list(diff)[:40]))
        print(f"{phase}: same")


if __name__ == "__main__":
    main()
