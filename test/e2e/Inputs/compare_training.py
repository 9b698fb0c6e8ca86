"""Compares a paracc train --log-json log with a PyTorch reference run.

usage: compare_training.py LOG.jsonl REFERENCE.json RUN [--loss-rtol R]
                           [--norm-rtol R] [--against OTHER.jsonl]
                           [--expert-tokens]

Every step's loss must be within --loss-rtol relative of the reference's
(PyTorch's, in reference.json under runs[RUN]), its grad_norm within
--norm-rtol and its lr within 1e-6. With --against, the log is compared
with another paracc log instead (another mesh), at the same tolerances.
With --expert-tokens, every step's expert_tokens (the slots each MoE
layer's router sent to each expert) must equal the reference's exactly, and
so must expert_dropped (the slots each layer's capacity dropped) where the
reference has it.
Prints the worst errors; exits 1 on a mismatch.
"""

import argparse
import json
import sys


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("log")
    p.add_argument("reference")
    p.add_argument("run")
    p.add_argument("--loss-rtol", type=float, default=1e-4)
    p.add_argument("--norm-rtol", type=float, default=1e-3)
    p.add_argument("--against")
    p.add_argument("--expert-tokens", action="store_true")
    args = p.parse_args()
    steps = [json.loads(line) for line in open(args.log) if line.strip()]
    if args.against:
        ref = [json.loads(line) for line in open(args.against) if line.strip()]
        what = args.against
    else:
        ref = json.load(open(args.reference))["runs"][args.run]["steps"]
        what = f"PyTorch run {args.run}"
    if len(steps) != len(ref):
        print(f"MISMATCH: {len(steps)} steps logged, {what} has {len(ref)}")
        return 1
    worst = {"loss": 0.0, "grad_norm": 0.0, "lr": 0.0}
    bad = []
    for s, r in zip(steps, ref):
        if s["step"] != r["step"]:
            bad.append(f"step {s['step']} vs {r['step']}")
        for key, tol in (("loss", args.loss_rtol), ("grad_norm", args.norm_rtol),
                         ("lr", 1e-6)):
            if s[key] is None:
                bad.append(f"step {s['step']}: {key} is not finite")
                continue
            err = abs(s[key] - r[key]) / max(abs(r[key]), 1e-30)
            worst[key] = max(worst[key], err)
            if err > tol:
                bad.append(f"step {s['step']}: {key} {s[key]} vs {r[key]} "
                           f"(rel {err:.2e} > {tol})")
        if args.expert_tokens and s.get("expert_tokens") != r.get(
                "expert_tokens"):
            bad.append(f"step {s['step']}: expert_tokens "
                       f"{s.get('expert_tokens')} vs {r.get('expert_tokens')}")
        if args.expert_tokens and "expert_dropped" in r and s.get(
                "expert_dropped") != r["expert_dropped"]:
            bad.append(f"step {s['step']}: expert_dropped "
                       f"{s.get('expert_dropped')} vs {r['expert_dropped']}")
    print(f"{len(steps)} steps vs {what}: worst rel error loss "
          f"{worst['loss']:.2e}, grad_norm {worst['grad_norm']:.2e}, "
          f"lr {worst['lr']:.2e}"
          + (", expert_tokens compared" if args.expert_tokens else ""))
    if bad:
        print("MISMATCH\n" + "\n".join(bad[:10]))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
