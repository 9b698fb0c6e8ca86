#!/usr/bin/env bash
# Prepares .devrun/exports/ for `bash bench/run-gpu.sh exports`: real
# transformers decoders exported by torch.onnx (scripts/exports/decoders.py
# --bench: the 386M Llama of the real-exports issue and Llama-3.2-1B's
# shape; random weights, nothing downloaded), compiled here for one GPU
# (bf16, AdamW lr 1e-4 for the training steps), next to what the peer
# (bench/peers/hf_decoder_torch.py) builds the same models from.
#
# Run from the repository root after scripts/setup.sh. Needs a Python with
# torch, transformers and onnxscript: EXPORT_PYTHON (default python3).
# EXPORT_RUNS="NAME:MODE:BATCH:SEQ ..." picks the runs (MODE train or fwd).
# EXPORT_VARIANTS="SUFFIX:FLAGS ..." compiles each training run once more
# per variant with FLAGS (commas for spaces) as NAME-SUFFIX_train_..., an
# A/B in one call (EXPORT_VARIANTS=nocopies:--no-weight-copies); run-gpu.sh
# exports runs them with the rest (NO_PEER=1 and EXPORT_RUNS spare their
# peers).
set -euo pipefail
source "$(dirname "$0")/prepare-env.sh"
py=${EXPORT_PYTHON:-python3}
runs=${EXPORT_RUNS:-"llama-386m:train:8:1024 llama-386m:train:2:4096 llama-386m:fwd:8:1024 llama-3.2-1b:train:8:1024 llama-3.2-1b:train:2:4096 llama-3.2-1b:fwd:8:1024"}
out="$dev/exports"
# Exports are kept (they take minutes) in EXPORT_CACHE, keyed by the run.
src=${EXPORT_CACHE:-$HOME/.cache/paracc-exports}
rm -rf "$out" && mkdir -p "$out" "$dev/common/peers" "$src"
[ -f "$dev/common/bin.tar.xz" ] || bash bench/build-gpu-runtime.sh
# The GPU against PyTorch on real exports first: two of the test exports'
# 30 AdamW steps (f32; the Mistral one with its sliding window), for
# run-gpu.sh to compare with their reference.json.
for c in llama-sdpa mistral-window; do
  e=test/e2e/Inputs/exports/$c
  "$paracc" train "$e/loss.onnx" --batch 2 --seq 16 --betas 0.9,0.95 --eps 1e-8 \
    --weight-decay 0.1 --device gpu -o "$out/check_$c.pcx" >/dev/null
  cp "$e/tokens.u16" "$out/check_$c.tokens.u16"
  cp "$e/reference.json" "$out/check_$c.reference.json"
done
cp test/e2e/Inputs/compare_training.py "$out/"
for run in $runs; do
  IFS=: read -r name mode batch seq <<<"$run"
  tag="${name}_${mode}_b${batch}_s${seq}"
  loss=()
  [ "$mode" = train ] && loss=(--loss)
  if [ ! -f "$src/$tag/peer.json" ]; then
    "$py" scripts/exports/decoders.py "$src/$tag" --bench "$name" --batch "$batch" \
      --seq "$seq" "${loss[@]}" 2>&1 | grep -v '^\[torch\|^W1'
  fi
  cp "$src/$tag/peer.json" "$out/$name.peer.json"
  if [ "$mode" = train ]; then
    "$paracc" train "$src/$tag/loss.onnx" --random-weights --batch "$batch" --seq "$seq" \
      --precision bf16 --lr 1e-4 --device gpu -o "$out/$tag.pcx" \
      --explain-json "$out/$tag.explain.json" >/dev/null
    for variant in ${EXPORT_VARIANTS:-}; do
      IFS=: read -r suffix flags <<<"$variant"
      vtag="${name}-${suffix}_${mode}_b${batch}_s${seq}"
      "$paracc" train "$src/$tag/loss.onnx" --random-weights --batch "$batch" --seq "$seq" \
        --precision bf16 --lr 1e-4 --device gpu ${flags//,/ } -o "$out/$vtag.pcx" \
        --explain-json "$out/$vtag.explain.json" >/dev/null
      xz -T2 -6 -f "$out/$vtag.pcx"
      cp "$src/$tag/peer.json" "$out/$name-$suffix.peer.json"
      echo "compiled $out/$vtag.pcx.xz"
    done
  else
    "$paracc" "$src/$tag/model.onnx" --random-weights --precision bf16 --device gpu \
      -o "$out/$tag.pcx" --explain-json "$out/$tag.explain.json" >/dev/null
  fi
  # Mostly zeros (splat constants materialized): xz keeps the call under
  # the device tool's 64 MiB.
  xz -T2 -6 -f "$out/$tag.pcx"
  echo "compiled $out/$tag.pcx.xz"
done
cp bench/peers/hf_decoder_torch.py "$dev/common/peers/"
du -sh "$dev"/*
