#!/usr/bin/env bash
# Prepares .devrun/pipeline/ for `bash bench/run-pipeline-cpu.sh` on a
# machine with many CPU cores and no LLVM (the device machine's 16 cores):
# paracc-run built here with its shared libraries and this machine's loader
# (so it runs whatever the other machine's glibc is), and the pipelined
# training steps (paracc train -o, random weights), one rank per core.
#   1. p = 8, an 8-layer Llama-style model, m = 1 and m = 16 (1F1B, and
#      GPipe and ZB-H1 at m = 16): the bubble against (p-1)/(m+p-1), and
#      the speed-up.
#   2. p = 4, a GPT-2-style model whose head dominates: the equal-layer cut
#      against paracc's cut, predicted and measured stage times.
#   3. p = 4, the Llama model of 1., m = 4 and 8: 1F1B against the
#      interleaved schedule with 2 chunks per rank (8 virtual stages).
#   4. The one-rank steps of 1. and 2. (*_one), which
#      bench/profile-cpu-ranks.sh profiles per op, several at once.
# Run from the repository root after scripts/setup.sh (or PARACC=...).
set -euo pipefail
source "$(dirname "$0")/prepare-env.sh"
out=.devrun/pipeline
rm -rf "$out" && mkdir -p "$out/models"
# paracc-run without CUDA, its libraries and the loader.
bash bench/pack-cpu-runtime.sh "$out"
cp "$shared/models/gpt2_tiny/train/tokens.u16" "$out/"
cp bench/pipeline_summary.py bench/cost_model_summary.py "$out/"

gen() { $py -m scripts.modelgen --shape-only "$@" >/dev/null; }
# 1. Bubble: 8 layers over 8 stages, 16 sequences of 128 tokens per step.
gen --preset llama-small-test --layers 8 --hidden 512 --heads 8 --kv-heads 8 \
  --ffn 2048 --vocab 1024 --seq 128 --batch 16 --loss --out "$out/models/llama8"
# 2. Imbalance: an 11k vocabulary on a narrow model, so that the equal-layer
#    cut's first stage (embedding + 2 layers) holds 2.8x the parameters of
#    a middle one (the source document's 2.76x); and a 32k one (6.3x).
gen --preset gpt2-small-test --layers 8 --hidden 256 --heads 4 --vocab 11264 \
  --seq 128 --batch 16 --loss --out "$out/models/gpt2head"
gen --preset gpt2-small-test --layers 8 --hidden 256 --heads 4 --vocab 32768 \
  --seq 128 --batch 16 --loss --out "$out/models/gpt2head32k"

train() { # NAME MODEL ARGS...
  local name=$1 model=$2; shift 2
  # (--data only gives the shapes' check; -o writes without running.)
  "$paracc" train "$out/models/$model/model.onnx" --random-weights \
    --batch 16 --seq 128 --lr 1e-4 --data "$out/tokens.u16" "$@" \
    -o "$out/$name.pcx" \
    --explain-json "$out/$name.explain.json" >/dev/null
}
train llama8_one llama8
train gpt2head_one gpt2head
for m in 1 16; do
  train "llama8_pp8_m${m}_1f1b" llama8 --mesh pp8 --microbatches $m --pipeline-schedule 1f1b
done
train llama8_pp8_m16_gpipe llama8 --mesh pp8 --microbatches 16 --pipeline-schedule gpipe
train llama8_pp8_m16_zbh1 llama8 --mesh pp8 --microbatches 16 --pipeline-schedule zb-h1
for m in 4 8; do
  train "llama8_pp4_m${m}_1f1b" llama8 --mesh pp4 --microbatches $m --pipeline-schedule 1f1b
  train "llama8_pp4_m${m}_interleaved" llama8 --mesh pp4 --microbatches $m \
    --pipeline-schedule interleaved --virtual-stages 2
done
for m in gpt2head gpt2head32k; do
  train ${m}_pp4_auto $m --mesh pp4 --microbatches 8
  train ${m}_pp4_uniform $m --mesh pp4 --microbatches 8 --stages 0-1,2-3,4-5,6-7
done
# (Splat constants are stored whole: the executables compress well.)
tar -C "$out" -cf - $(cd "$out" && ls *.pcx *.explain.json) | xz -T2 -6 \
  >"$out/steps.tar.xz"
rm -f "$out"/*.pcx "$out"/*.explain.json
rm -rf "$out/models"
du -sh "$out"
