"""Summarizes bench/run-pipeline-cpu.sh's runs: per executable, tokens/s
(median of the steps after the first), the last step's measured bubble
(from its timeline) next to (p-1)/(m+p-1) and paracc's predicted bubble,
and per stage the measured busy time next to the predicted one (under the
interleaved schedule, per virtual stage its rank's busy time, which all of
the rank's chunks share)."""
import json
import statistics
import sys
from pathlib import Path


def busy_per_rank(trace):
    busy, first, last = {}, None, None
    for e in trace["traceEvents"]:
        if e.get("ph") != "X":
            continue
        start, end = e["ts"], e["ts"] + e["dur"]
        first = start if first is None else min(first, start)
        last = end if last is None else max(last, end)
        if e["cat"] in ("forward", "backward", "weight", "step"):
            busy[e["tid"]] = busy.get(e["tid"], 0.0) + e["dur"]
    return busy, (last - first) if first is not None else 0.0


def main():
    out = Path(sys.argv[1])
    rows = {}
    for log in sorted(out.glob("*.jsonl")):
        name = log.stem
        steps = [json.loads(l) for l in log.read_text().splitlines() if l]
        tps = statistics.median(s["tokens_per_s"] for s in steps[1:])
        trace = json.loads((out / f"{name}.json").read_text())
        busy, makespan = busy_per_rank(trace)
        ranks = len(busy)
        bubble = 1 - sum(busy.values()) / (ranks * makespan) if makespan else 0
        explain = json.loads((out / f"{name}.explain.json").read_text())
        pipe = explain.get("pipeline")
        rows[name] = tps
        print(f"{name}: {tps:.0f} tokens/s, step {makespan / 1e3:.1f} ms, "
              f"measured bubble {bubble:.3f}", end="")
        if pipe:
            print(f", formula {pipe['bubble_formula']:.3f}, predicted "
                  f"{pipe['bubble_predicted']:.3f}")
            for s, st in enumerate(pipe["stages"]):
                name = ", ".join(
                    (["embedding"] if st["prologue"] else [])
                    + ([f"{st['layers'][0]}-{st['layers'][1]}"]
                       if st["layers"][0] >= 0 else [])
                    + (["head"] if st["epilogue"] else []))
                rank = st.get("rank", s)
                shared = "" if rank == s else f" (rank {rank}'s)"
                print(f"  stage {s}: {name}, params "
                      f"{st['params']}, predicted {st['predicted_ms']:.2f} ms,"
                      f" measured busy{shared} {busy.get(rank, 0) / 1e3:.2f} ms")
        else:
            print()
    if "llama8_pp8_m16_zbh1" in rows and "llama8_pp8_m16_1f1b" in rows:
        r = rows["llama8_pp8_m16_zbh1"] / rows["llama8_pp8_m16_1f1b"]
        print(f"p=8, m=16: zb-h1 vs 1f1b throughput {r:.2f}x")
    for m in (4, 8):
        one, il = f"llama8_pp4_m{m}_1f1b", f"llama8_pp4_m{m}_interleaved"
        if one in rows and il in rows:
            print(f"p=4, m={m}: interleaved (v=2) vs 1f1b throughput "
                  f"{rows[il] / rows[one]:.2f}x")
    if "llama8_pp8_m1_1f1b" in rows and "llama8_pp8_m16_1f1b" in rows:
        r = rows["llama8_pp8_m16_1f1b"] / rows["llama8_pp8_m1_1f1b"]
        print(f"p=8: m=16 vs m=1 throughput {r:.2f}x")
    for m in ("gpt2head", "gpt2head32k"):
        if f"{m}_pp4_auto" in rows and f"{m}_pp4_uniform" in rows:
            r = rows[f"{m}_pp4_auto"] / rows[f"{m}_pp4_uniform"]
            print(f"p=4 {m}: paracc's cut vs equal-layer cut {r:.2f}x")


if __name__ == "__main__":
    main()
