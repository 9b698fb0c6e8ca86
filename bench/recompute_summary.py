"""One line per recompute run: step time, predicted and measured memory.

usage: recompute_summary.py RUN.jsonl EXPLAIN.json RUN.log
RUN.jsonl is paracc-run's --log-json, EXPLAIN.json the compile's
--explain-json (the memory predicted before launch), RUN.log the run's
output with its "memory after the last step" line.
"""

import json
import re
import statistics
import sys


def main() -> int:
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    report = json.load(open(sys.argv[2]))
    log = open(sys.argv[3]).read()
    predicted = report["memory"]["peak"] / 2**30
    r = report.get("recompute", {})
    used = re.search(r"memory after the last step: rank 0 allocates ([0-9.]+) GiB.*?"
                     r"in use, ([0-9.]+) GiB more than when the rank began", log)
    line = f"  predicted peak {predicted:.2f} GiB"
    if used:
        allocated, grown = float(used.group(1)), float(used.group(2))
        line += (f", allocated {allocated:.2f} GiB, the device {grown:.2f} GiB "
                 f"more than before the rank ({100 * (grown / predicted - 1):+.1f} % "
                 f"of the prediction)")
    if len(rows) > 5:
        ms = statistics.median(row["ms"] for row in rows[5:])
        tps = statistics.median(row["tokens_per_s"] for row in rows[5:])
        line += f"; median step {ms:.2f} ms, {tps:,.0f} tok/s"
    if r:
        extra = 100 * r["recomputed_flops"] / max(r["step_flops"], 1)
        line += (f"; {r['policy']}: {r['recomputed_ops']} ops recomputed "
                 f"({extra:.1f} % of the step's FLOPs), saved activations "
                 f"{r['kept_bytes'] / 2**30:.2f} of {r['saved_bytes'] / 2**30:.2f} GiB")
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
