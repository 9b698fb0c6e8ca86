"""Writes the one-GPU bench rows of a run-gpu.sh output folder as JSON: a
list of {"case", "paracc_ms", "compile_ms", "eager_ms", "paracc_peak_bytes",
"compile_peak_bytes", "commit"} for the cases whose logs the folder holds
(GPT-406M, batch 8, seq 1024):

  forward_bf16_s1024  bench1: bench-gpt406-bf16-1gpu.log, peer-{eager,compile}-fwd.log
  train_bf16_s1024    train1/gpt406train: train-gpt406-bf16.jsonl, peer-{eager,compile}-train.log
  train_f32_s1024     f32 (or train1): train-gpt406-tf32.jsonl, peer-{eager,compile}-train-f32.log

paracc's training time is the median step after the first 5 of its
--log-json; its peak is what the rank allocates (the executable's plan,
"rank 0 allocates X GiB"); the peers' are their RESULT lines (step_ms,
peak_mem_gib). A value the folder lacks is null.
Usage: python3 summary_json.py OUT_DIR [COMMIT_FILE] > OUT_DIR/summary.json
"""
import json
import os
import re
import statistics
import sys

GIB = 1 << 30


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def peer(out, name):
    """(step_ms, peak bytes) of a peer log's last RESULT line."""
    text = read(os.path.join(out, f"peer-{name}.log"))
    rows = [json.loads(l[len("RESULT "):]) for l in (text or "").splitlines()
            if l.startswith("RESULT ")]
    if not rows:
        return None, None
    r = rows[-1]
    peak = r.get("peak_mem_gib")
    return r.get("step_ms"), int(peak * GIB) if peak is not None else None


def allocated(text):
    m = re.search(r"rank 0 allocates ([0-9.]+) GiB", text or "")
    return int(float(m.group(1)) * GIB) if m else None


def trained(out, name):
    """(median step ms after 5, allocated bytes) of a paracc training run."""
    text = read(os.path.join(out, f"train-{name}.jsonl"))
    rows = [json.loads(l) for l in (text or "").splitlines() if l.strip()]
    ms = statistics.median(r["ms"] for r in rows[5:]) if len(rows) > 5 else None
    return ms, allocated(read(os.path.join(out, f"train-{name}.log")))


def forward(out, name):
    text = read(os.path.join(out, f"bench-{name}.log"))
    m = re.search(r"benchmark: ([0-9.]+) ms/step", text or "")
    arena = re.search(r"arena ([0-9.]+) GiB", text or "")
    return (float(m.group(1)) if m else None,
            int(float(arena.group(1)) * GIB) if arena else None)


def main():
    out = sys.argv[1]
    commit = (read(sys.argv[2]) or "").strip() if len(sys.argv) > 2 else ""
    cases = [
        ("forward_bf16_s1024", forward(out, "gpt406-bf16-1gpu"), "fwd"),
        ("train_bf16_s1024", trained(out, "gpt406-bf16"), "train"),
        ("train_f32_s1024", trained(out, "gpt406-tf32"), "train-f32"),
    ]
    rows = []
    for case, (ms, peak), peer_suffix in cases:
        compile_ms, compile_peak = peer(out, f"compile-{peer_suffix}")
        eager_ms, _ = peer(out, f"eager-{peer_suffix}")
        if ms is None and compile_ms is None and eager_ms is None:
            continue
        rows.append(dict(case=case, paracc_ms=ms, compile_ms=compile_ms, eager_ms=eager_ms,
                         paracc_peak_bytes=peak, compile_peak_bytes=compile_peak,
                         commit=commit or None))
    json.dump(rows, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
