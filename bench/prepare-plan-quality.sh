#!/usr/bin/env bash
# Prepares .devrun/plan/ for `bash bench/run-plan-quality.sh` on the device
# machine: the planner's candidates, each compiled, to be measured against
# its prediction in one run (the planner issue's quality checks).
#   gpu: GPT-406M (bf16 AdamW, batch 8) at seq 1024 and 4096 on one H200
#        with 20 and 40 GiB of memory (--cluster 1x1:h200,memory=...): the
#        top 5 of each search, compiled for the GPU.
#   cpu: an 8-layer Llama-style model (batch 16 x 128) on 8 CPU ranks
#        (--cluster 1x8:cpu), and GPT-2-style with a large head: the top 5,
#        compiled for the CPU backend, run one rank per core.
#   SUITE=two (into .devrun/plan2, for the nvidia-h200-x2 machine):
#        GPT-406M (bf16 AdamW, batch 16, seq 1024) on two H200s
#        (--cluster 1x2:h200): the top 6 of the search, and the planner's
#        prediction for tp2 and tp2 --sp (no search), each compiled.
# Run from the repository root after scripts/setup.sh (or PARACC=...).
set -euo pipefail
SUITE=${SUITE:-one}
source "$(dirname "$0")/prepare-env.sh"
out=.devrun/plan
[ "$SUITE" = two ] && out=.devrun/plan2
rm -rf "$out" && mkdir -p "$out/models" "$out/steps"
bash bench/pack-cpu-runtime.sh "$out"
[ -f .devrun/common/bin.tar.xz ] || bash bench/build-gpu-runtime.sh
cp bench/plan_quality.py "$out/"
gen() { PYTHONPATH=scripts $py -m modelgen --shape-only "$@" >/dev/null; }

# Compiles every candidate of PLAN.json: NAME MODEL DEVICE PLAN.json ARGS...
compile_candidates() {
  local name=$1 model=$2 device=$3 plan=$4; shift 4
  local i=0
  while IFS= read -r flags; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    "$paracc" train "$model" --random-weights --lr 1e-4 --device "$device" "$@" \
      $flags -o "$out/steps/${name}_c$i.pcx" >/dev/null
  done < <($py -c 'import json,sys; [print(c["flags"]) for c in json.load(open(sys.argv[1]))["candidates"]]' "$plan")
}

if [ "$SUITE" = two ]; then
  gen --preset gpt-406m --loss --batch 16 --seq 1024 --max-pos 1024 --out "$out/models/gpt406"
  model="$out/models/gpt406/model.onnx"
  args=(--train --precision bf16 --cluster 1x2:h200 --global-batch 16)
  "$paracc" plan "$model" "${args[@]}" --top 6 --json "$out/gpu2_search.json" \
    --report "$out/gpu2_search.html" >"$out/gpu2_search.txt"
  "$paracc" plan "$model" "${args[@]}" --mesh tp2 --json "$out/gpu2_tp2.json" >"$out/gpu2_tp2.txt"
  "$paracc" plan "$model" "${args[@]}" --mesh tp2 --sp --json "$out/gpu2_tp2sp.json" >"$out/gpu2_tp2sp.txt"
  for name in gpu2_search gpu2_tp2 gpu2_tp2sp; do
    compile_candidates $name "$model" gpu "$out/$name.json" --batch 16 --seq 1024 --precision bf16
  done
fi

# GPU: GPT-406M.
for seq in 1024 4096; do
  [ "$SUITE" = one ] || break
  gen --preset gpt-406m --loss --seq $seq --max-pos $seq --out "$out/models/gpt406_$seq"
  for mem in 20 40; do
    name=gpu_s${seq}_m$mem
    "$paracc" plan "$out/models/gpt406_$seq/model.onnx" --train --precision bf16 \
      --cluster 1x1:h200,memory=$mem --top 5 --json "$out/$name.json" >"$out/$name.txt"
    compile_candidates $name "$out/models/gpt406_$seq/model.onnx" gpu "$out/$name.json" \
      --batch 8 --seq $seq --precision bf16
  done
done

# CPU: 8 ranks.
[ "$SUITE" = one ] && {
gen --preset llama-small-test --layers 8 --hidden 512 --heads 8 --kv-heads 8 \
  --ffn 2048 --vocab 1024 --seq 128 --batch 16 --loss --out "$out/models/llama8"
gen --preset gpt2-small-test --layers 8 --hidden 256 --heads 4 --vocab 11264 \
  --seq 128 --batch 16 --loss --out "$out/models/gpt2head"
for m in llama8 gpt2head; do
  name=cpu_$m
  "$paracc" plan "$out/models/$m/model.onnx" --train --cluster 1x8:cpu --top 5 \
    --json "$out/$name.json" >"$out/$name.txt"
  compile_candidates $name "$out/models/$m/model.onnx" cpu "$out/$name.json" \
    --batch 16 --seq 128
done
}
"$py" -c 'import sys, numpy as np; np.random.default_rng(1).integers(0, 1024, 16 * 4096 * 24).astype(np.uint16).tofile(sys.argv[1])' \
  "$out/tokens.u16"
tar -C "$out/steps" -cf - . | xz -T2 -1 >"$out/steps.tar.xz"
rm -rf "$out/steps" "$out/models"
du -sh "$out"/*
