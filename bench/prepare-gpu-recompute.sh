#!/usr/bin/env bash
# Prepares .devrun/ for `bash bench/run-gpu.sh recompute` on one GPU: the
# runtime built here with CUDA, GPT-406M's bf16 training step (batch 8) at
# seq 1024 and 4096 under --recompute none, full, selective and auto (at
# half of none's predicted peak, and at 12 GiB for seq 1024), each with its
# --explain-json (the memory predicted before launch), random tokens and
# the peer script. Run from the repository root after scripts/setup.sh
# (needs build/bin/paracc or PARACC=...).
set -euo pipefail
source "$(dirname "$0")/prepare-env.sh"
r=$dev/recompute
rm -rf "$r" && mkdir -p "$r" "$dev/common/peers"
bash bench/build-gpu-runtime.sh

# gpt2_tiny's constant-lr AdamW run with full recompute, against PyTorch's
# reference (train/README.md): the GPU's recomputed backward is checked.
g=$shared/models/gpt2_tiny
cp "$g/train/tokens.u16" "$r/tiny_tokens.u16"
cp "$g/train/reference.json" test/e2e/Inputs/compare_training.py "$r/"
"$paracc" train "$g/loss.onnx" --batch 2 --seq 64 --betas 0.9,0.95 --eps 1e-8 \
  --weight-decay 0.1 --lr 1e-3 --recompute full -o "$r/tiny_full.check" >/dev/null

# A generated GPT-2 with training-mode dropout (0.1), full recompute: its
# GPU run must follow the CPU backend's run of the same executable (the
# masks are the same function of the key and the coordinates on both).
PYTHONPATH=scripts "$py" -m modelgen --arch gpt2 --layers 4 --hidden 64 --heads 4 \
  --vocab 256 --seq 128 --batch 8 --loss --dropout 0.1 --out "$dev/gd" >/dev/null
"$py" -c 'import sys, numpy as np; np.random.default_rng(2).integers(0, 256, 8 * 128 * 12).astype(np.uint16).tofile(sys.argv[1])' \
  "$r/dropout_tokens.u16"
"$paracc" train "$dev/gd/model.onnx" --batch 8 --seq 128 --lr 1e-3 --recompute full \
  -o "$r/dropout.check" >/dev/null
rm -rf "$dev/gd"
cpurun=build-dev/bin/paracc-run
[ -x "$cpurun" ] || cpurun=build/bin/paracc-run
"$cpurun" "$r/dropout.check" --device cpu --data "$r/dropout_tokens.u16" --steps 10 \
  --lr 1e-3 --log-json "$r/dropout_cpu.jsonl" >/dev/null

for seq in 1024 4096; do
  PYTHONPATH=scripts "$py" -m modelgen --preset gpt-406m --loss --shape-only \
    --seq $seq --max-pos $seq --out "$dev/gpt406_$seq" >/dev/null
  step=("$paracc" train "$dev/gpt406_$seq/model.onnx" --random-weights --batch 8
    --seq $seq --lr 1e-4 --precision bf16 --device gpu)
  for policy in none full selective; do
    "${step[@]}" --recompute $policy --explain-json "$r/s${seq}_$policy.json" \
      -o "$r/s${seq}_$policy.pcx" >"$r/s${seq}_$policy.log"
  done
  half=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["memory"]["peak"] // 2)' \
    "$r/s${seq}_none.json")
  budgets=("half:${half}B")
  [ $seq = 1024 ] && budgets+=("12GiB:12GiB")
  for b in "${budgets[@]}"; do
    name=${b%%:*} size=${b#*:}
    # A budget full recompute cannot meet is an error: recorded, not run.
    "${step[@]}" --recompute auto --memory-budget "$size" \
      --explain-json "$r/s${seq}_auto-$name.json" -o "$r/s${seq}_auto-$name.pcx" \
      >"$r/s${seq}_auto-$name.log" 2>&1 || true
  done
  rm -rf "$dev/gpt406_$seq"
done
"$py" - "$r/tokens.u16" <<'PY'
import sys
import numpy as np
np.random.default_rng(1).integers(0, 50304, 8 * 4096 * 16).astype(np.uint16).tofile(sys.argv[1])
PY
cp "$shared/peers/"*.py "$dev/common/peers/"
cp bench/recompute_summary.py "$dev/common/"
grep -h "error\|recompute auto" "$r"/*.log || true
du -sh "$dev"/*
