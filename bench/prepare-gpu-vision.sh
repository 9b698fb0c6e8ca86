#!/usr/bin/env bash
# Prepares .devrun/vision for `bash bench/run-gpu.sh vision` on a GPU machine
# without LLVM: the runtime built here with CUDA (bench/build-gpu-runtime.sh),
# the convolutional exports of test/e2e/Inputs/vision compiled for one rank
# with their onnxruntime outputs, and the ResNet and ViT loss graphs of
# test/e2e/Inputs/vision-training compiled as training steps (f32 and bf16)
# with their batches, PyTorch's 30-step AdamW runs and, for bf16, the CPU
# backend's run of the same executable; for `run-gpu.sh visionbench`, the
# ResNet-50 and ViT-B/16 training steps (scripts/exports/vision_bench.py,
# batch 128 of 224x224 images, bf16, AdamW lr 1e-4) next to what the peer
# (bench/peers/vision_torch.py) builds the same models from, each also
# compiled with --no-fuse-elementwise. Run from the
# repository root after scripts/setup.sh; the exports need a Python with
# torch, transformers and onnxscript (EXPORT_PYTHON, default python3) and
# are kept in EXPORT_CACHE.
set -euo pipefail
source "$(dirname "$0")/prepare-env.sh"
rm -rf "$dev/vision" && mkdir -p "$dev/vision"
[ -n "${PARACC_SKIP_RUNTIME_BUILD:-}" ] || bash bench/build-gpu-runtime.sh
v=$dev/vision
cp test/e2e/Inputs/compare_training.py "$v/"
for m in resnet vit convnext whisper-conv unet-block conv-variants; do
  "$paracc" "test/e2e/Inputs/vision/$m/model.onnx" -o "$v/$m.pcx"
  cp -r "test/e2e/Inputs/vision/$m/test_data_set_0" "$v/$m-data"
done
# The optimizer PyTorch's reference runs used (vision-training.test).
optimizer=(--batch 4 --betas 0.9,0.95 --eps 1e-8 --weight-decay 0.1)
for c in resnet-legacy vit; do
  src=test/e2e/Inputs/vision-training/$c
  cp -r "$src/batches" "$v/$c-batches"
  cp "$src/reference.json" "$v/$c-reference.json"
  for p in f32 bf16; do
    "$paracc" train "$src/loss.onnx" --data-dir "$src/batches" "${optimizer[@]}" --precision $p \
      -o "$v/train-$c-$p.pcx"
  done
  "${PARACC_RUN:-build/bin/paracc-run}" "$v/train-$c-bf16.pcx" --device cpu \
    --data-dir "$v/$c-batches" --steps 30 --lr 3e-3 \
    --log-json "$v/train-$c-bf16-cpu.jsonl" >/dev/null
done
# The benchmark models, compiled against one batch of their shape.
py=${EXPORT_PYTHON:-python3}
src=${EXPORT_CACHE:-$HOME/.cache/paracc-exports}
mkdir -p "$v/bench" "$dev/common/peers"
images=$(mktemp -d)
"$py" bench/write_image_batches.py "$images" 1 128 224 224 1000
for m in resnet-50 vit-b16; do
  [ -f "$src/$m/peer.json" ] ||
    (cd scripts/exports && "$py" vision_bench.py "$src/$m" --model $m --batch 128)
  cp "$src/$m/peer.json" "$v/bench/$m.peer.json"
  "$paracc" train "$src/$m/loss.onnx" --random-weights --batch 128 --data-dir "$images" \
    --precision bf16 --lr 1e-4 --device gpu -o "$v/bench/$m.pcx" \
    --explain-json "$v/bench/$m.explain.json" >/dev/null
  # The same step without elementwise fusion, measured in the same call.
  "$paracc" train "$src/$m/loss.onnx" --random-weights --batch 128 --data-dir "$images" \
    --precision bf16 --lr 1e-4 --device gpu --no-fuse-elementwise \
    -o "$v/bench/$m-unfused.pcx" >/dev/null
done
rm -rf "$images"
cp bench/write_image_batches.py "$v/bench/"
cp bench/peers/vision_torch.py "$dev/common/peers/"
du -sh "$v"
