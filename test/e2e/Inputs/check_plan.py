"""Checks `paracc plan` against paracc's own compile of the same plan.

check_plan.py prediction PLAN.json EXPLAIN.json STEP_TOLERANCE
    The planner's prediction for one plan (--mesh) against the --explain
    report of `paracc train` compiling that plan for the whole model: the
    parameters, gradients and optimizer state per rank equal (the planner
    costs a copy cut to one and two layers, so this checks that a layer's
    difference extrapolates to all of them; parameters within 0.5 %), the
    saved activations within 3 %, and the predicted step (compute, collectives, optimizer) within
    STEP_TOLERANCE (relative).

check_plan.py search PLAN.json RANKS GLOBAL_BATCH HEADS [SEQUENCE]
    A search's JSON: every candidate is a valid plan of RANKS ranks for the
    global batch, tp divides the heads, a cp axis (context parallelism) has
    one sequence per micro-batch and cuts SEQUENCE into 2 cp zig-zag chunks
    of at least 512 tokens (none without SEQUENCE), the candidates are sorted by their
    predicted step, the chosen plan is the first, and tp degrees that do
    not divide the heads were refused by the compiler.

check_plan.py report PLAN.json REPORT.html
    The HTML report (--report) of the same search as PLAN.json: one point
    per plan that fits; the Pareto front sorted by memory with the step
    falling, the fastest plan at its end and no candidate beating a front
    plan in both step and memory; each candidate's memory bars summing to
    its peak; the chosen plan's simulated timeline: every pipeline rank's
    actions (forwards, backwards, weight gradients under zb-h1, one per
    micro-batch), a micro-batch's forward on stage s after its forward on
    s - 1 and its backward after the forward, the actions ending at the
    predicted pipeline time and the once-per-step part at the step.
"""

import json
import re
import sys
from html.parser import HTMLParser


def load(path):
    with open(path) as f:
        return json.load(f)


def close(name, got, want, tolerance):
    rel = abs(got - want) / max(abs(want), 1e-30)
    status = "OK" if rel <= tolerance else "FAIL"
    print(f"{name}: planner {got:.6g} compile {want:.6g} ({100 * rel:.2f} %): {status}")
    return rel <= tolerance


def prediction(plan_path, explain_path, tolerance):
    plan = load(plan_path)["predicted"]
    explain = load(explain_path)
    memory = plan["memory"]
    ok = True
    for key in ("gradients", "optimizer_state"):
        ok &= close(key, memory[key], explain["memory"][key], 1e-9)
    # The planner counts the saved values computed from weights alone as
    # parameters (kept once, not per micro-batch), the report as activations.
    # ZeRO-3: the planner's parameters are the shard and the copies gathered
    # at once, estimated from the layers (the compile's peak of them is
    # exact).
    zero = explain.get("zero", {})
    if zero.get("stage") == 3:
        ok &= close("parameters", memory["parameters"],
                    explain["memory"]["parameters"] + zero["gather_peak_bytes"], 0.10)
    else:
        ok &= close("parameters", memory["parameters"], explain["memory"]["parameters"], 0.005)
    ok &= close("activations", memory["activations"],
                explain["memory"]["activations_saved"], 0.03)
    step = explain["predicted_step"]["functions"]
    want = sum(f["compute_ms"] + f["collective_ms"] for f in step) / 1e3
    got = plan["step_seconds"]
    ok &= close("step", got, want, tolerance)
    return ok


def search(plan_path, ranks, global_batch, heads, sequence=None):
    result = load(plan_path)
    candidates = result["candidates"]
    ok = bool(candidates)
    times = [c["predicted"]["step_seconds"] for c in candidates]
    if times != sorted(times):
        print("FAIL: candidates not sorted by step time", times)
        ok = False
    for c in candidates:
        if c["dp"] * c["pp"] * c["cp"] * c["tp"] != ranks:
            print("FAIL: ranks", c["mesh"])
            ok = False
        cp = c["cp"]
        if cp > 1 and (sequence is None or c["micro_batch_size"] != 1 or
                       sequence % (2 * cp) or sequence // (2 * cp) < 512):
            print("FAIL: cp", c["mesh"], c["micro_batch_size"])
            ok = False
        if c["dp"] * c["micro_batch_size"] * c["microbatches"] != global_batch:
            print("FAIL: batch", c["mesh"], c["micro_batch_size"], c["microbatches"])
            ok = False
        if heads % c["tp"] != 0:
            print("FAIL: tp does not divide the heads", c["mesh"])
            ok = False
        if c["predicted"]["peak_memory_bytes"] > result["cluster"]["memory_bytes"]:
            print("FAIL: over memory", c["mesh"])
            ok = False
    if candidates and result["plan"]["flags"] != candidates[0]["flags"]:
        print("FAIL: the chosen plan is not the fastest candidate")
        ok = False
    refused = {r["tp"] for r in result["model"]["refused_tp"]}
    for tp in (2, 4, 8):
        if tp <= ranks and heads % tp != 0 and tp not in refused:
            print(f"FAIL: tp {tp} does not divide {heads} heads but was not refused")
            ok = False
    print(f"search: {len(candidates)} candidates, {result['search']['evaluated']} "
          f"costed of {result['search']['enumerated']}: {'OK' if ok else 'FAIL'}")
    return ok


class ReportParser(HTMLParser):
    """Collects the report's svg elements: circles and rects with their
    attributes, the timeline's rects with their titles."""

    def __init__(self):
        super().__init__()
        self.svg = None
        self.beyond = 0
        self.circles, self.parts, self.actions = [], [], []
        self._rect = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.svg = a.get("class", "timeline")
            if self.svg == "pareto":
                self.beyond = int(a["data-beyond"])
        elif tag == "circle":
            self.circles.append(a)
        elif tag == "rect" and self.svg == "memory":
            self.parts.append(a)
        elif tag == "rect" and self.svg == "timeline":
            self._rect = a

    def handle_data(self, data):
        if self._rect is not None:
            self._rect["title"] = self._rect.get("title", "") + data

    def handle_endtag(self, tag):
        if tag == "rect" and self._rect is not None:
            self.actions.append(self._rect)
            self._rect = None


def report(plan_path, html_path):
    result = load(plan_path)
    parser = ReportParser()
    with open(html_path, encoding="utf-8") as f:
        parser.feed(f.read())
    ok = True

    def fail(*what):
        nonlocal ok
        print("FAIL:", *what)
        ok = False

    dots = [c for c in parser.circles if c.get("class") in ("point", "bound")]
    if len(dots) + parser.beyond != result["search"]["fitting"]:
        fail(f"{len(dots)} points and {parser.beyond} beyond the plot for "
             f"{result['search']['fitting']} plans that fit")
    front = [(float(c["data-step-seconds"]), float(c["data-peak-bytes"]))
             for c in parser.circles if c.get("class") == "front"]
    if not front or [m for _, m in front] != sorted(m for _, m in front) or \
            any(b[0] >= a[0] for a, b in zip(front, front[1:])):
        fail("the front is not sorted by memory with the step falling", front)
    candidates = result["candidates"]
    best = candidates[0]["predicted"]
    if front and abs(front[-1][0] - best["step_seconds"]) > 1e-9 * best["step_seconds"]:
        fail("the fastest plan does not end the front")
    for c in candidates:
        t, m = c["predicted"]["step_seconds"], c["predicted"]["peak_memory_bytes"]
        for ft, fm in front:
            if t < ft * (1 - 1e-9) and m < fm * (1 - 1e-9):
                fail(f"{c['flags']} beats a front plan ({ft}, {fm})")
    sums = {}
    for part in parser.parts:
        i = int(part["data-plan"]) - 1
        sums[i] = sums.get(i, 0.0) + float(part["data-bytes"])
    for i, c in enumerate(candidates):
        want = c["predicted"]["peak_memory_bytes"]
        if abs(sums.get(i, 0.0) - want) > 1e-4 * want:
            fail(f"memory bars of {c['flags']} sum to {sums.get(i)}, peak {want}")

    plan = result["plan"]
    pp, m = plan["pp"], plan["microbatches"]
    v = plan["virtual_stages"]
    spans = {}  # (kind, stage, micro-batch) -> (start, end) microseconds
    steps = []
    for a in parser.actions:
        title = re.fullmatch(r"(\w+?)(\d*)(?:c(\d+))? ([-\d.e+]+)-([-\d.e+]+) us",
                             a["title"].strip())
        if not title:
            fail("timeline title", a["title"])
            continue
        kind, mb, chunk, start, end = title.groups()
        # Virtual stage chunk x pp + rank: what a forward waits on.
        rank = round((float(a["y"]) - 32) / 26)
        stage = int(chunk or 0) * pp + rank
        if kind == "step":
            steps.append(float(end))
        else:
            spans[(kind, stage, int(mb))] = (float(start), float(end))
    kinds = ["F", "B"] + (["W"] if plan["schedule"] == "zb-h1" else [])
    for kind in kinds:
        for s in range(pp * v):
            for i in range(m):
                if (kind, s, i) not in spans:
                    fail(f"no {kind}{i} on virtual stage {s}")
    if len(spans) != len(kinds) * pp * v * m:
        fail(f"{len(spans)} actions, want {len(kinds) * pp * v * m}")
    for (kind, s, i), (start, end) in spans.items():
        if kind == "F" and s > 0 and ("F", s - 1, i) in spans and \
                start < spans[("F", s - 1, i)][1] - 1e-3:
            fail(f"F{i} on stage {s} starts before stage {s - 1}'s ends")
        if kind == "B" and ("F", s, i) in spans and start < spans[("F", s, i)][1] - 1e-3:
            fail(f"B{i} on stage {s} starts before its forward ends")
        if kind == "B" and ("B", s + 1, i) in spans and \
                start < spans[("B", s + 1, i)][1] - 1e-3:
            fail(f"B{i} on stage {s} starts before stage {s + 1}'s ends")
    predicted = result["predicted"]
    end = max(e for _, e in spans.values())
    if abs(end - 1e6 * predicted["pipeline_seconds"]) > 0.1:
        fail(f"actions end at {end} us, pipeline {1e6 * predicted['pipeline_seconds']} us")
    if steps and abs(max(steps) - 1e6 * predicted["step_seconds"]) > 0.1:
        fail(f"the step ends at {max(steps)} us, predicted {1e6 * predicted['step_seconds']}")
    print(f"report: {len(dots)} points, {len(front)} on the front, "
          f"{len(sums)} memory bars, {len(spans)} actions over {pp} pipeline "
          f"rank(s) x {v} chunk(s): {'OK' if ok else 'FAIL'}")
    return ok


if __name__ == "__main__":
    if sys.argv[1] == "prediction":
        ok = prediction(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    elif sys.argv[1] == "report":
        ok = report(sys.argv[2], sys.argv[3])
    else:
        ok = search(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]),
                    int(sys.argv[6]) if len(sys.argv) > 6 else None)
    sys.exit(0 if ok else 1)
