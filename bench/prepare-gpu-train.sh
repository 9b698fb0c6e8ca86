#!/usr/bin/env bash
# Prepares .devrun/ for `bash bench/run-gpu.sh kernels train1` on a GPU
# machine without LLVM: the runtime built here with CUDA (paracc-run and the
# kernel tests), the training executables (paracc train -o), their data, the
# PyTorch reference runs and the peer script. Run from the repository root
# after scripts/setup.sh (needs build/bin/paracc or PARACC=...).
set -euo pipefail
source "$(dirname "$0")/prepare-env.sh"
# Keeps what bench/prepare-gpu.sh wrote (one/, two/), so both can travel.
# (and GPT-406M's CPU reference, bench/prepare-gpt406-cpu-reference.sh: it
# takes most of an hour to make).
keep=$(mktemp -d)
mv "$dev"/train/gpt406_b1_bf16* "$keep/" 2>/dev/null || true
rm -rf "$dev/train" && mkdir -p "$dev/common/peers" "$dev/train"
mv "$keep"/* "$dev/train/" 2>/dev/null || true
rm -rf "$keep"
bash bench/build-gpu-runtime.sh

g=$shared/models/gpt2_tiny
t=$dev/train
cp "$g/train/tokens.u16" "$g/train/reference.json" "$t/"
cp test/e2e/Inputs/compare_training.py "$t/"
# gpt2_tiny: the two PyTorch reference runs (train/README.md), f32 and bf16.
common=(--embed-weights --batch 2 --seq 64 --betas 0.9,0.95 --eps 1e-8 --weight-decay 0.1)
"$paracc" train "$g/loss.onnx" "${common[@]}" --lr 1e-3 -o "$t/tiny_const.pcx"
"$paracc" train "$g/loss.onnx" "${common[@]}" --lr 3e-3 --clip-grad-norm 1.0 \
  -o "$t/tiny_cosine.pcx"
"$paracc" train "$g/loss.onnx" "${common[@]}" --lr 1e-3 --precision bf16 \
  -o "$t/tiny_const_bf16.pcx"
# The CPU backend's bf16 run of the same executable, for the GPU's to match.
build-dev/bin/paracc-run "$t/tiny_const_bf16.pcx" --device cpu \
  --data "$t/tokens.u16" --steps 30 --lr 1e-3 --log-json "$t/tiny_const_bf16_cpu.jsonl" >/dev/null 2>&1 ||
  "$root/build/bin/paracc-run" "$t/tiny_const_bf16.pcx" --device cpu \
    --data "$t/tokens.u16" --steps 30 --lr 1e-3 --log-json "$t/tiny_const_bf16_cpu.jsonl" >/dev/null

# GPT-406M, the peer's model (shape only; parameters seeded random), with
# the peer's optimizer: AdamW lr 1e-4, torch's defaults otherwise; compiled
# for the GPU's cost model (--device gpu: the profiles' predictions).
PYTHONPATH=scripts "$py" -m modelgen --preset gpt-406m --loss --shape-only \
  --out "$dev/gpt406" >/dev/null
for p in bf16 f32; do
  "$paracc" train "$dev/gpt406/model.onnx" --random-weights --batch 8 --seq 1024 \
    --lr 1e-4 --precision $p --device gpu -o "$t/gpt406_$p.pcx"
done
rm -rf "$dev/gpt406"
"$py" - "$t/gpt406_tokens.u16" <<'PY'
import sys
import numpy as np
np.random.default_rng(1).integers(0, 50304, 8 * 1024 * 32).astype(np.uint16).tofile(sys.argv[1])
PY
cp "$shared/peers/"*.py "$dev/common/peers/"
cp bench/peers/attention_f32_torch.py "$dev/common/peers/"
du -sh "$dev"/*
