#!/usr/bin/env bash
# Prepares .devrun/ for `bash bench/run-gpu.sh costmodel`: the runtime built
# here with CUDA, and GPT-406M (the peer's model, shape only, parameters
# seeded random) compiled for the GPU's cost model (--device gpu: each
# instruction records the time the H200 rate table predicts) as the bf16
# forward at batch 8 x 1024 and as the bf16 and f32 training steps at
# batch 8 x 1024. The stage profiles them and prints predicted next to
# measured per op (bench/cost_model_summary.py). Run from the repository
# root after scripts/setup.sh (needs build/bin/paracc or PARACC=...);
# SKIP_RUNTIME=1 keeps an already packed runtime.
set -euo pipefail
source "$(dirname "$0")/prepare-env.sh"
rm -rf "$dev/costmodel" && mkdir -p "$dev/costmodel"
[ "${SKIP_RUNTIME:-0}" = 1 ] && [ -f "$dev/common/bin.tar.xz" ] || bash bench/build-gpu-runtime.sh
c=$dev/costmodel
PYTHONPATH=scripts "$py" -m modelgen --preset gpt-406m --batch 8 --seq 1024 \
  --shape-only --out "$c/fwd" >/dev/null
"$paracc" "$c/fwd/model.onnx" --random-weights --precision bf16 --device gpu \
  -o "$c/gpt406_fwd_bf16.pcx"
PYTHONPATH=scripts "$py" -m modelgen --preset gpt-406m --loss --shape-only \
  --out "$c/loss" >/dev/null
for p in bf16 f32; do
  "$paracc" train "$c/loss/model.onnx" --random-weights --batch 8 --seq 1024 \
    --lr 1e-4 --precision $p --device gpu -o "$c/gpt406_train_$p.pcx"
done
rm -rf "$c/fwd" "$c/loss"
cp bench/cost_model_summary.py "$c/"
du -sh "$dev"/*
