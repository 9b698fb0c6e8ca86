#!/usr/bin/env bash
# Prepares .devrun/moebench/ for `bash bench/run-gpu.sh kernels moe`: the
# issue's GPT-MoE (a Mixtral-style decoder: hidden 1024, 8 layers, 16 heads,
# 8 experts of 2816, top-2; scripts/exports/moe.py --bench gpt-moe, random
# weights, shape-only) exported by torch.onnx with its loss, compiled here
# for one GPU (bf16, AdamW lr 1e-4, batch 8, seq 1024), next to the
# peer.json bench/peers/hf_decoder_torch.py builds the same model from.
#
# Run from the repository root after scripts/setup.sh. Needs a Python with
# torch, transformers and onnxscript: EXPORT_PYTHON (default python3).
set -euo pipefail
source "$(dirname "$0")/prepare-env.sh"
py=${EXPORT_PYTHON:-python3}
m="$dev/moebench" tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$m" && mkdir -p "$m" "$dev/common/peers"
[ -f "$dev/common/bin.tar.xz" ] || bash bench/build-gpu-runtime.sh
(cd scripts/exports && "$py" moe.py "$tmp" --bench gpt-moe --batch 8 --seq 1024 --loss) 2>&1 |
  grep -v '^\[torch\|^W1'
"$paracc" train "$tmp/loss.onnx" --random-weights --batch 8 --seq 1024 --precision bf16 \
  --lr 1e-4 --device gpu -o "$m/gpt-moe_train_b8_s1024.pcx" \
  --explain-json "$m/gpt-moe_train_b8_s1024.explain.json" >/dev/null
cp "$tmp/peer.json" "$m/gpt-moe.peer.json"
cp bench/peers/hf_decoder_torch.py "$dev/common/peers/"
du -sh "$m"
