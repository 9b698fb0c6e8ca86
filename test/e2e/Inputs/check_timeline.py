"""Reads back a --timeline trace and prints what a test checks.

usage: check_timeline.py TIMELINE.json [--stdout FILE] [--pipeline-order]

Checks (an AssertionError and exit 1 when one fails):
  * the file is JSON with a traceEvents list; every rank that has events has
    a thread_name metadata event;
  * every complete ("X") event has a name, a category, ts >= 0 and
    dur >= 0; forward/backward/weight events are named F<k>/B<k>/W<k> with
    args.microbatch k (interleaved: F<k>c<j> with args.chunk j, the rank's
    model chunk); send/recv events have bytes > 0 and a non-zero
    peer_offset;
  * one rank's events do not overlap (a rank runs one instruction at a
    time);
  * the SVG next to it (.json -> .svg) is one <svg> with a bar per event;
  * with --stdout: the bubble the tool printed ("measured bubble X over N
    rank(s)") lies in (0, 1) and is the one recomputed from the trace,
    1 - compute time / (ranks x makespan);
  * with --pipeline-order (rank r is stage r; interleaved, chunk j of rank r
    is virtual stage j x ranks + r): micro-batch k's forward on stage s
    starts after its (first) bar on stage s-1 ended, its backward on stage
    s after its (first) bar on stage s+1.

Prints per rank, labelled with its thread_name: the order of its forward,
backward and weight-gradient events (consecutive repeats collapsed), then
its transfers: counts, peer offsets and sizes.
"""

import argparse
import json
import os
import re
import sys

COMPUTE = {"forward": "F", "backward": "B", "weight": "W"}
# Rounding: the trace prints ts and dur with 3 decimals (microseconds).
EPS_US = 0.005


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("--stdout", help="the tool's output, for the bubble")
    parser.add_argument("--pipeline-order", action="store_true")
    args = parser.parse_args()

    with open(args.trace) as f:
        trace = json.load(f)
    events = trace["traceEvents"]
    assert isinstance(events, list) and events, "no traceEvents"

    labels = {}
    spans = []
    for e in events:
        if e.get("ph") == "M":
            assert e["name"] == "thread_name", e
            labels[e["tid"]] = e["args"]["name"]
            continue
        assert e.get("ph") == "X", e
        name, cat, ts, dur = e["name"], e["cat"], e["ts"], e["dur"]
        assert ts >= 0 and dur >= 0, f"event ends before it starts: {e}"
        if cat in COMPUTE:
            k = e["args"]["microbatch"]
            chunk = e["args"].get("chunk")
            expected = f"{COMPUTE[cat]}{k}" + (f"c{chunk}" if chunk is not None
                                                else "")
            assert name == expected, f"{cat} event named {name}: {e}"
        elif cat in ("send", "recv"):
            assert name == cat, e
            assert e["args"]["bytes"] > 0, f"empty transfer: {e}"
            assert e["args"]["peer_offset"] != 0, f"transfer to itself: {e}"
        else:
            assert cat == "step" and name == "step", e
        spans.append(e)
    ranks = sorted(labels)
    assert ranks == list(range(len(ranks))), f"thread_name tids {ranks}"
    for e in spans:
        assert e["tid"] in labels, f"event of a rank without a name: {e}"

    by_rank = {r: sorted((e for e in spans if e["tid"] == r),
                         key=lambda e: e["ts"]) for r in ranks}
    for r, evs in by_rank.items():
        for a, b in zip(evs, evs[1:]):
            assert b["ts"] >= a["ts"] + a["dur"] - EPS_US, \
                f"rank {r}: {a} overlaps {b}"

    for r in ranks:
        evs = by_rank[r]
        order = []
        for e in evs:
            if e["cat"] in COMPUTE and (not order or order[-1] != e["name"]):
                order.append(e["name"])
        print(f"{labels[r]}: {' '.join(order)}")
        sends = [e for e in evs if e["cat"] == "send"]
        recvs = [e for e in evs if e["cat"] == "recv"]
        to = sorted({e["args"]["peer_offset"] for e in sends})
        frm = sorted({e["args"]["peer_offset"] for e in recvs})
        sizes = sorted({e["args"]["bytes"] for e in sends + recvs})
        print(f"{labels[r]}: {len(sends)} send(s) to {to}, "
              f"{len(recvs)} recv(s) from {frm}, bytes {sizes}")

    if args.pipeline_order:
        # A stage's action starts after the sender's bar of that action (its
        # first, if a transfer cuts the action's instructions into several):
        # what it receives is sent after that.
        p = len(ranks)
        chunks = 1 + max((e["args"].get("chunk", 0) for e in spans
                          if e["cat"] in COMPUTE), default=0)

        def first_end(stage, prefix, k):
            r, chunk = stage % p, stage // p
            name = f"{prefix}{k}" + (f"c{chunk}" if chunks > 1 else "")
            found = [e for e in by_rank[r] if e["name"] == name]
            assert found, f"rank {r} has no {name}"
            return found[0]["ts"] + found[0]["dur"]
        for r in ranks:
            for e in by_rank[r]:
                if e["cat"] not in ("forward", "backward"):
                    continue
                stage = e["args"].get("chunk", 0) * p + r
                k = e["args"]["microbatch"]
                if e["cat"] == "forward" and stage > 0:
                    other = stage - 1
                elif e["cat"] == "backward" and stage + 1 < p * chunks:
                    other = stage + 1
                else:
                    continue
                prefix = COMPUTE[e["cat"]]
                assert e["ts"] >= first_end(other, prefix, k) - EPS_US, \
                    f"rank {r} starts {e['name']} before stage {other} ends it"
        print("pipeline order: OK")

    svg_path = re.sub(r"\.json$", ".svg", args.trace)
    if svg_path == args.trace:
        svg_path += ".svg"
    with open(svg_path) as f:
        svg = f.read()
    assert svg.startswith("<svg"), svg[:80]
    assert svg.rstrip().endswith("</svg>"), svg[-80:]
    bars = svg.count("<rect ")
    assert bars == len(spans), f"{bars} bars for {len(spans)} events"
    print(f"svg: {bars} bars")

    if args.stdout:
        with open(args.stdout) as f:
            m = re.search(r"measured bubble ([0-9.]+) over (\d+) rank",
                          f.read())
        assert m, "no measured bubble in the output"
        printed, n = float(m.group(1)), int(m.group(2))
        assert n == len(ranks), f"{n} ranks printed, {len(ranks)} in the trace"
        first = min(e["ts"] for e in spans)
        last = max(e["ts"] + e["dur"] for e in spans)
        busy = sum(e["dur"] for e in spans
                   if e["cat"] in COMPUTE or e["cat"] == "step")
        bubble = 1 - busy / (n * (last - first))
        assert 0 < printed < 1, f"bubble {printed}"
        assert abs(printed - bubble) <= 0.0015, \
            f"printed bubble {printed}, the trace's {bubble:.4f}"
        print("bubble: in (0, 1), as in the trace")
    return 0


if __name__ == "__main__":
    sys.exit(main())
