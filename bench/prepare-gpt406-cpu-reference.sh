#!/usr/bin/env bash
# The CPU backend's run that GPT-406M's GPU training is checked against
# (bash bench/run-gpu.sh train1 compares them when .devrun/train has both):
# the peer's model (shape only, parameters seeded random) at batch 1 x seq
# 1024, bf16 with f32 master weights, AdamW lr 3e-4, 20 steps of
# gpt2_tiny's train/tokens.u16 (real text, so the loss falls and the
# comparison means something; uniform random tokens keep it at ln 50304).
# One step is about 2.5 TFLOP: about 50 minutes on a 2-core machine. Run
# from the repository root after scripts/setup.sh; writes
# .devrun/train/gpt406_b1_bf16.pcx and gpt406_b1_bf16_cpu.jsonl.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
shared="${PARACC_SHARED:-$root/../shared}"
t=.devrun/train
mkdir -p "$t"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PYTHONPATH=scripts .venv/bin/python -m modelgen --preset gpt-406m --batch 1 \
  --seq 1024 --loss --shape-only --out "$work/model" >/dev/null
build/bin/paracc train "$work/model/model.onnx" --random-weights --batch 1 \
  --seq 1024 --lr 3e-4 --precision bf16 -o "$t/gpt406_b1_bf16.pcx"
cp "$shared/models/gpt2_tiny/train/tokens.u16" "$t/"
build/bin/paracc-run "$t/gpt406_b1_bf16.pcx" --device cpu --data "$t/tokens.u16" \
  --steps 20 --lr 3e-4 --log-json "$t/gpt406_b1_bf16_cpu.jsonl"
