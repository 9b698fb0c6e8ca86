"""The planner's candidates, predicted against measured.

usage: plan_quality.py PLAN.json RESULTS_DIR
PLAN.json is `paracc plan --json`; RESULTS_DIR holds NAME_cI.jsonl, the
--log-json of candidate I (1-based) of the search NAME (PLAN.json's stem).
Prints a table (predicted and measured step, their ratio) and whether the
chosen plan (candidate 1) is within 5 % of the best measured.
"""

import json
import os
import statistics
import sys


def measured_ms(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    steady = rows[3:] if len(rows) > 4 else rows
    return statistics.median(r["ms"] for r in steady) if steady else None


def main():
    plan = json.load(open(sys.argv[1]))
    name = os.path.splitext(os.path.basename(sys.argv[1]))[0]
    print(f"== {name}: {plan['cluster']['devices_per_node']}x{plan['cluster']['device']}, "
          f"{plan['cluster']['memory_bytes'] / 2**30:.0f} GiB, global batch {plan['global_batch']}")
    print("| # | plan | predicted ms | measured ms | measured / predicted |")
    print("| --- | --- | --- | --- | --- |")
    results = []
    for i, c in enumerate(plan["candidates"], 1):
        log = os.path.join(sys.argv[2], f"{name}_c{i}.jsonl")
        got = measured_ms(log) if os.path.exists(log) else None
        want = 1e3 * c["predicted"]["step_seconds"]
        results.append((i, got))
        ratio = f"{got / want:.3f}" if got else "-"
        shown = f"{got:.2f}" if got else "failed"
        print(f"| {i} | `{c['flags']}` | {want:.2f} | {shown} | {ratio} |")
    done = [(i, g) for i, g in results if g]
    if done:
        best = min(g for _, g in done)
        chosen = dict(done).get(1)
        if chosen:
            print(f"chosen (1) measured {chosen:.2f} ms, best measured {best:.2f} ms: "
                  f"{100 * (chosen / best - 1):.1f} % slower")


if __name__ == "__main__":
    main()
