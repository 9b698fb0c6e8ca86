"""One line: the cost model's predicted step time from a compile's
--explain-json (its `predicted_step`), for a benchmark's measured step to be
printed next to.

usage: predicted_step.py EXPLAIN.json
"""

import json
import sys


def main() -> int:
    report = json.load(open(sys.argv[1]))
    p = report.get("predicted_step")
    if not p:
        print("predicted: none (compiled without a cost model)")
        return 0
    parts = []
    for f in p["functions"]:
        where = f"stage {f['stage']}: " if f["stage"] >= 0 else ""
        text = (f"{where}compute {f['compute_ms']:.2f} ms + {f['collectives']} "
                f"collective(s) {f['collective_ms']:.2f} ms = {f['serialized_ms']:.2f} ms serialized")
        if f["collectives"]:
            text += f", {max(f['compute_ms'], f['collective_ms']):.2f} ms overlapped"
        parts.append(text)
    print(f"predicted ({p['rates']} rates): " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
