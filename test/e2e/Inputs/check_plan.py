"""Checks `paracc plan` against paracc's own compile of the same plan.

check_plan.py prediction PLAN.json EXPLAIN.json STEP_TOLERANCE
    The planner's prediction for one plan (--mesh) against the --explain
    report of `paracc train` compiling that plan for the whole model: the
    parameters, gradients and optimizer state per rank equal (the planner
    costs a copy cut to one and two layers, so this checks that a layer's
    difference extrapolates to all of them; parameters within 0.5 %), the
    saved activations within 3 %, and the predicted step (compute, collectives, optimizer) within
    STEP_TOLERANCE (relative).

check_plan.py search PLAN.json RANKS GLOBAL_BATCH HEADS
    A search's JSON: every candidate is a valid plan of RANKS ranks for the
    global batch, tp divides the heads, the candidates are sorted by their
    predicted step, the chosen plan is the first, and tp degrees that do
    not divide the heads were refused by the compiler.
"""

import json
import sys


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
    ok &= close("parameters", memory["parameters"], explain["memory"]["parameters"], 0.005)
    ok &= close("activations", memory["activations"],
                explain["memory"]["activations_saved"], 0.03)
    step = explain["predicted_step"]["functions"]
    want = sum(f["compute_ms"] + f["collective_ms"] for f in step) / 1e3
    got = plan["step_seconds"]
    ok &= close("step", got, want, tolerance)
    return ok


def search(plan_path, ranks, global_batch, heads):
    result = load(plan_path)
    candidates = result["candidates"]
    ok = bool(candidates)
    times = [c["predicted"]["step_seconds"] for c in candidates]
    if times != sorted(times):
        print("FAIL: candidates not sorted by step time", times)
        ok = False
    for c in candidates:
        if c["dp"] * c["pp"] * c["tp"] != ranks:
            print("FAIL: ranks", c["mesh"])
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


if __name__ == "__main__":
    if sys.argv[1] == "prediction":
        ok = prediction(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        ok = search(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    sys.exit(0 if ok else 1)
