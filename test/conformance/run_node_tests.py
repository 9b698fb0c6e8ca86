#!/usr/bin/env python3
"""Run the ONNX backend node tests through the paracc driver and classify them.

Each case is DATA_DIR/<name>/model.onnx with test_data_set_*/{input,output}_N.pb.
For every set the runner calls

    PARACC MODEL.onnx --test-data SETDIR [--rtol R] [--atol A]

whose exit status means: 0 all outputs match, 1 an output mismatches,
3 the model uses something paracc does not support (stderr names it),
anything else (2, a signal) an error. A case is

  passed       every set exits 0;
  unsupported  the first set exits 3 (reason: first stderr line with "unsupported");
  failed       anything else: exit 1/2/other, a signal, a timeout, or exit 3
               on a later set after earlier sets passed.

Prints a summary line, the most common unsupported reasons and every failure
with its output; optionally writes everything to a JSON report. Exits 1 if a
case failed or no case ran, 2 on usage errors. Standard library only.

Example:
    test/conformance/run_node_tests.py --paracc build/bin/paracc --jobs 2 \\
        --filter '^test_(add|matmul)' --report node-tests.json
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

DEFAULT_DATA_DIR = Path("/usr/share/libonnx-testdata/data/node")
EXIT_UNSUPPORTED = 3
TAIL_LINES = 20
TOP_REASONS = 25
EXIT_ERROR = 2

# Cases whose test data contradicts their model (ONNX 1.12's data set): the
# model declares input 'like' as float[3,4] but input_1.pb holds a tensor of
# shape [1]. onnxruntime rejects such an input too. For these the runner
# expects paracc to refuse the input with a clear error (exit 2).
INVALID_TEST_DATA = {
    name: "input 'like' is declared [3,4] but test_data_set_0/input_1.pb has shape [1]"
    for name in ("test_castlike_BFLOAT16_to_FLOAT",
                 "test_castlike_BFLOAT16_to_FLOAT_expanded",
                 "test_castlike_FLOAT_to_BFLOAT16",
                 "test_castlike_FLOAT_to_BFLOAT16_expanded")
}


@dataclass(frozen=True)
class Case:
    """One node test: its model and its test data sets, in numeric order."""

    name: str
    model: Path
    sets: list[Path]


@dataclass(frozen=True)
class Run:
    """The outcome of one driver invocation; rc is None when it timed out."""

    rc: int | None
    stdout: str
    stderr: str


@dataclass(frozen=True)
class Result:
    """A classified case, as printed and written to the JSON report."""

    name: str
    status: str  # "passed" | "unsupported" | "failed"
    seconds: float
    reason: str = ""
    exit_code: int | None = None
    test_set: str = ""
    output: str = ""


class Driver:
    """Runs the paracc driver, each call in its own process group.

    Live processes are tracked so that an interrupted run can kill them all
    and start no more.
    """

    def __init__(self, paracc: str, timeout: float, tolerances: list[str]):
        """Remember the binary, the per-run timeout and extra --rtol/--atol flags."""
        self.paracc = paracc
        self.timeout = timeout
        self.tolerances = tolerances
        self._live: set[subprocess.Popen] = set()
        self._lock = threading.Lock()
        self._stopped = False

    def run(self, model: Path, set_dir: Path) -> Run:
        """Run the driver on one test set; on timeout kill its whole process group."""
        cmd = [self.paracc, str(model), "--test-data", str(set_dir), *self.tolerances]
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, errors="replace", start_new_session=True)
        except OSError as err:
            return Run(rc=127, stdout="", stderr=f"cannot start {self.paracc}: {err}")
        with self._lock:
            self._live.add(proc)
            if self._stopped:
                _kill_group(proc)
        try:
            out, err = proc.communicate(timeout=self.timeout)
            return Run(proc.returncode, out, err)
        except subprocess.TimeoutExpired:
            # Not reaped yet, so the group id cannot have been reused.
            _kill_group(proc)
            out, err = proc.communicate()
            return Run(None, out, err)
        finally:
            with self._lock:
                self._live.discard(proc)

    def kill_all(self) -> None:
        """Kill every running driver's process group and refuse new runs (Ctrl-C)."""
        with self._lock:
            self._stopped = True
            for proc in self._live:
                if proc.returncode is None:
                    _kill_group(proc)


def _kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process group led by ``proc``; ignore a group that is gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def discover(data_dir: Path, regex: re.Pattern | None) -> list[Case]:
    """Every subdirectory with a model.onnx whose name matches ``regex``, sorted."""
    cases = []
    for model in sorted(data_dir.glob("*/model.onnx")):
        name = model.parent.name
        if regex and not regex.search(name):
            continue
        sets = sorted((p for p in model.parent.glob("test_data_set_*") if p.is_dir()),
                      key=_set_index)
        cases.append(Case(name, model, sets))
    return cases


def _set_index(path: Path) -> tuple[int, str]:
    """Sort key: test_data_set_2 before test_data_set_10."""
    suffix = path.name.rsplit("_", 1)[-1]
    return (int(suffix) if suffix.isdigit() else sys.maxsize, path.name)


def run_case(driver: Driver, case: Case) -> Result:
    """Run every test set of ``case`` (stopping at the first non-zero exit) and classify."""
    start = time.monotonic()
    if not case.sets:
        return Result(case.name, "failed", 0.0, reason="no test_data_set_* directory")
    for index, set_dir in enumerate(case.sets):
        run = driver.run(case.model, set_dir)
        if run.rc != 0:
            break
    else:
        return Result(case.name, "passed", time.monotonic() - start)
    seconds = time.monotonic() - start
    if case.name in INVALID_TEST_DATA and run.rc == EXIT_ERROR:
        return Result(case.name, "invalid-data", seconds, reason=INVALID_TEST_DATA[case.name],
                      exit_code=run.rc, test_set=set_dir.name)
    if index == 0 and run.rc == EXIT_UNSUPPORTED:
        return Result(case.name, "unsupported", seconds, reason=unsupported_reason(run.stderr),
                      exit_code=run.rc, test_set=set_dir.name)
    return Result(case.name, "failed", seconds, reason=failure_reason(run, index, driver.timeout),
                  exit_code=run.rc, test_set=set_dir.name, output=output_tail(run))


def unsupported_reason(stderr: str) -> str:
    """The first stderr line that mentions "unsupported", stripped."""
    for line in stderr.splitlines():
        if "unsupported" in line.lower():
            return line.strip()
    return "(exit 3 without an 'unsupported' line on stderr)"


def failure_reason(run: Run, set_index: int, timeout: float) -> str:
    """A one-line description of why a run counts as a failure."""
    if run.rc is None:
        return f"timed out after {timeout:g} s"
    if run.rc < 0:
        try:
            return f"killed by {signal.Signals(-run.rc).name}"
        except ValueError:
            return f"killed by signal {-run.rc}"
    if run.rc == 1:
        return "output mismatch (exit 1)"
    if run.rc == EXIT_UNSUPPORTED:
        return f"exit 3 (unsupported) after {set_index} test set(s) passed"
    return f"error (exit {run.rc})"


def output_tail(run: Run) -> str:
    """The last TAIL_LINES lines of stdout and of stderr, labelled."""
    parts = []
    for label, text in (("stdout", run.stdout), ("stderr", run.stderr)):
        lines = text.rstrip("\n").splitlines()[-TAIL_LINES:]
        if lines:
            parts.append(f"--- {label} (last {len(lines)} lines)\n" + "\n".join(lines))
    return "\n".join(parts) or "(no output)"


def reason_key(reason: str) -> str:
    """Group unsupported reasons: by op name for unsupported ops, else the message
    without its node name and the leading "error:"."""
    op = re.search(r"unsupported op '([^']+)'", reason)
    if op:
        return f"op {op.group(1)}"
    reason = re.sub(r"\s*at node '[^']*'", "", reason)
    return re.sub(r"^error:\s*", "", reason)


def summarize(results: list[Result]) -> dict[str, int]:
    """Counts of cases by outcome; "ran" is every case that was not unsupported."""
    counts = collections.Counter(r.status for r in results)
    return {"cases": len(results),
            "ran": counts["passed"] + counts["failed"] + counts["invalid-data"],
            "passed": counts["passed"], "unsupported": counts["unsupported"],
            "invalid": counts["invalid-data"], "failed": counts["failed"]}


def print_report(results: list[Result], summary: dict[str, int],
                 reasons: collections.Counter) -> None:
    """Print the summary line, the reason table and every failure with its output."""
    print("ONNX node tests: {cases} cases, {ran} ran, {passed} passed, "
          "{unsupported} unsupported, {failed} failed".format(**summary))
    invalid = [r for r in results if r.status == "invalid-data"]
    if invalid:
        print(f"({len(invalid)} of those that ran have test data that contradicts the "
              "model and were rejected with exit 2 as they must be:)")
        for r in invalid:
            print(f"  {r.name}: {r.reason}")
    if reasons:
        print(f"\nMost common unsupported reasons ({len(reasons)} distinct):")
        for key, count in reasons.most_common(TOP_REASONS):
            print(f"  {count:5d}  {key}")
        if len(reasons) > TOP_REASONS:
            print(f"  ... {len(reasons) - TOP_REASONS} more (see --report)")
    failures = [r for r in results if r.status == "failed"]
    if failures:
        print(f"\nFailures ({len(failures)}):")
    for r in failures:
        print(f"\nFAIL {r.name} [{r.test_set or '-'}]: {r.reason}")
        if r.output:
            print("\n".join("    " + line for line in r.output.splitlines()))


def _regex(text: str) -> re.Pattern:
    """argparse type for --filter: a compiled regex, or a usage error."""
    try:
        return re.compile(text)
    except re.error as err:
        raise argparse.ArgumentTypeError(f"bad regex {text!r}: {err}") from err


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line flags."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--paracc", required=True, help="the paracc driver binary")
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    p.add_argument("--filter", type=_regex,
                   help="only cases whose name matches this regex (re.search)")
    p.add_argument("--jobs", type=int, default=2, help="cases run in parallel (default 2)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds per driver run before it counts as failed (default 60)")
    p.add_argument("--rtol", help="passed to the driver as --rtol when given")
    p.add_argument("--atol", help="passed to the driver as --atol when given")
    p.add_argument("--report", type=Path, help="write all results to this JSON file")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print one line per case as it finishes (to stderr)")
    return p.parse_args(argv)


def run_all(driver: Driver, cases: list[Case], jobs: int, verbose: bool) -> list[Result]:
    """Run the cases on ``jobs`` threads; return results sorted by name."""
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_case, driver, case) for case in cases]
        try:
            for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
                result = future.result()
                results.append(result)
                if verbose:
                    print(f"[{done}/{len(cases)}] {result.status:11s} {result.name} "
                          f"({result.seconds:.1f} s)", file=sys.stderr)
        except KeyboardInterrupt:
            for future in futures:
                future.cancel()
            driver.kill_all()
            raise
    return sorted(results, key=lambda r: r.name)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    args = parse_args(argv)
    if not (os.path.isfile(args.paracc) and os.access(args.paracc, os.X_OK)):
        print(f"error: --paracc {args.paracc} is not an executable file", file=sys.stderr)
        return 2
    if not args.data_dir.is_dir():
        print(f"error: --data-dir {args.data_dir} is not a directory", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("error: --jobs must be at least 1", file=sys.stderr)
        return 2
    tolerances = [flag for name in ("rtol", "atol") if getattr(args, name) is not None
                  for flag in (f"--{name}", getattr(args, name))]
    driver = Driver(os.path.abspath(args.paracc), args.timeout, tolerances)
    cases = discover(args.data_dir, args.filter)
    try:
        results = run_all(driver, cases, args.jobs, args.verbose)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    summary = summarize(results)
    reasons = collections.Counter(reason_key(r.reason) for r in results
                                  if r.status == "unsupported")
    print_report(results, summary, reasons)
    if args.report:
        args.report.write_text(json.dumps({
            "paracc": args.paracc, "data_dir": str(args.data_dir), "summary": summary,
            "unsupported_reasons": dict(reasons.most_common()),
            "cases": [asdict(r) for r in results]}, indent=2) + "\n")
    return 1 if summary["failed"] or summary["ran"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
