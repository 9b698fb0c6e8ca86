#!/usr/bin/env bash
# Prepares .devrun/eight/ for the eight-GPU stages of bench/run-gpu.sh
# (check8, bench8), for when a machine with 8 GPUs is lent. Run from the
# repository root after bench/prepare-gpu.sh (which builds the runtime into
# .devrun/common/). A call then carries .devrun/common and .devrun/eight.
#
#  - GPT-2- and Llama-style models (modelgen, batch 8 so that every mesh
#    divides) compiled for dp2,tp4, tp8, dp8 and dp4,tp2 (with and without
#    --sp), with the one-rank CPU backend's outputs on the same inputs as
#    the test data the GPUs must match;
#  - GPT-406M (bf16, weights generated there) for the same meshes with 8
#    sequences per data-parallel replica, and each plan's explain report
#    (groups, predicted communication) as text and JSON.
set -euo pipefail
source "$(dirname "$0")/prepare-env.sh"
[ -f "$dev/common/bin.tar.xz" ] || { echo "run bench/prepare-gpu.sh first" >&2; exit 2; }
rm -rf "$dev/eight" && mkdir -p "$dev/eight"
gen() { PYTHONPATH=scripts "$py" -m modelgen "$@" >/dev/null; }
meshes="dp2,tp4 tp8 dp8 dp4,tp2"

gen --preset gpt2-small-test --batch 8 --heads 8 --out "$dev/eight/gpt2"
gen --preset llama-small-test --batch 8 --heads 8 --kv-heads 2 --out "$dev/eight/llama"
for m in gpt2 llama; do
  # The CPU backend's outputs (one rank) on onnxruntime's inputs; the CPU
  # run itself is checked against onnxruntime here.
  ref="$dev/eight/${m}_cpu"
  mkdir -p "$ref"
  cp "$dev/eight/$m/test_data_set_0"/input_*.pb "$ref/"
  "$paracc" "$dev/eight/$m/model.onnx" --device cpu \
    --test-data "$dev/eight/$m/test_data_set_0" --save-outputs "$ref" >/dev/null
  for mesh in $meshes; do
    for sp in "" "--sp"; do
      [ "$mesh" = dp8 ] && [ -n "$sp" ] && continue
      name="${m}_${mesh/,/_}${sp:+_sp}"
      "$paracc" "$dev/eight/$m/model.onnx" --embed-weights --mesh "$mesh" $sp \
        -o "$dev/eight/$name.pcx" >/dev/null
    done
  done
  rm -rf "${dev:?}/eight/$m"
done

for pair in tp8:8 dp2,tp4:16 dp4,tp2:32 dp8:64; do
  mesh=${pair%%:*}
  batch=${pair#*:}
  name="gpt406_${mesh/,/_}"
  gen --preset gpt-406m --batch "$batch" --shape-only --out "$dev/g406_b$batch"
  "$paracc" "$dev/g406_b$batch/model.onnx" --random-weights --precision bf16 \
    --mesh "$mesh" --explain --explain-json "$dev/eight/$name.json" \
    -o "$dev/eight/$name.pcx" >"$dev/eight/$name.explain.txt"
  rm -rf "${dev:?}/g406_b$batch"
done
du -sh "$dev/eight"
