#!/usr/bin/env bash
# Prepares .devrun/ for bench/run-gpu.sh on a GPU machine that has no LLVM:
# the runtime built with CUDA (no BLAS or Gloo, so that it only needs the
# CUDA libraries there), the compiled executables, their test data and the
# PyTorch peer scripts. Run from the repository root after scripts/setup.sh.
set -euo pipefail
source "$(dirname "$0")/prepare-env.sh"
rm -rf "$dev" && mkdir -p "$dev/common/peers" "$dev/one" "$dev/two"

# The runtime, built here for the GPU machine.
bash bench/build-gpu-runtime.sh

# Executables go to one/ (one GPU) or two/ (two GPUs): one call carries
# common/ and one of them.
compile() { # DIR/NAME MODEL [paracc options]
  local name=$1 model=$2
  shift 2
  # (Weights go with the executable to the GPU machine; --device gpu: the
  # H200 cost table's predictions, per instruction for --profile and per
  # step in the explain report, which bench prints next to the measured.)
  "$paracc" "$model" --embed-weights --device gpu -o "$dev/$name.pcx" \
    --explain-json "$dev/$name.explain.json" "$@" >/dev/null
}
g=$shared/models/gpt2_tiny
compile one/gpt2_tiny "$g/model.onnx"
compile one/gpt2_tiny_opt "$g/model_opt.onnx"
compile one/gpt2_tiny_bf16 "$g/model.onnx" --precision bf16
compile one/gpt2_tiny_f16 "$g/model.onnx" --precision f16
compile two/gpt2_tiny_dp2 "$g/model.onnx" --mesh dp2
compile two/gpt2_tiny_tp2 "$g/model.onnx" --mesh tp2
compile two/gpt2_tiny_tp2sp "$g/model.onnx" --mesh tp2 --sp
compile two/gpt2_tiny_dp2bf16 "$g/model.onnx" --mesh dp2 --precision bf16
compile two/gpt2_tiny_tp2bf16 "$g/model.onnx" --mesh tp2 --precision bf16
cp -r "$g/test_data_set_0" "$dev/common/gpt2_tiny_data"
compile one/loss "$g/loss.onnx"
"$py" - "$g" "$dev/common/loss_data" <<'EOF'
import os, sys
import numpy as np
from onnx import numpy_helper, load_tensor
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
ids = numpy_helper.to_array(load_tensor(f"{src}/test_data_set_0/input_0.pb"))
loss = np.load(f"{src}/grads.npz")["loss"].astype(np.float32).reshape(())
for i, (name, arr) in enumerate([("input_ids", ids), ("labels", ids)]):
    with open(f"{dst}/input_{i}.pb", "wb") as f:
        f.write(numpy_helper.from_array(arr, name).SerializeToString())
with open(f"{dst}/output_0.pb", "wb") as f:
    f.write(numpy_helper.from_array(loss, "loss").SerializeToString())
EOF
for ex in gpt2 llama; do
  compile "one/example_$ex" "examples/$ex/model.onnx"
  cp -r "examples/$ex/test_data_set_0" "$dev/common/example_${ex}_data"
done
compile two/example_llama_tp2 examples/llama/model.onnx --mesh tp2
compile two/example_llama_dp2 examples/llama/model.onnx --mesh dp2
compile two/example_llama_tp2sp examples/llama/model.onnx --mesh tp2 --sp
compile two/example_llama_tp2bf16 examples/llama/model.onnx --mesh tp2 --precision bf16

# GPT-406M, the peer's model, without weights (the runtime fills them).
# Batch 8 per data-parallel rank, as the peer's DDP run: batch 16 for dp2.
for b in 8 16; do
  PYTHONPATH=scripts "$py" -m modelgen --preset gpt-406m --batch $b --shape-only \
    --out "$dev/gpt406_b$b" >/dev/null
done
compile one/gpt406_bf16 "$dev/gpt406_b8/model.onnx" --random-weights --precision bf16
compile two/gpt406_bf16_dp2 "$dev/gpt406_b16/model.onnx" --random-weights --precision bf16 --mesh dp2
compile two/gpt406_bf16_tp2 "$dev/gpt406_b8/model.onnx" --random-weights --precision bf16 --mesh tp2
compile two/gpt406_bf16_tp2sp "$dev/gpt406_b8/model.onnx" --random-weights --precision bf16 --mesh tp2 --sp
for mb in 2 4; do
  compile two/gpt406_bf16_tp2_mb$mb "$dev/gpt406_b8/model.onnx" --random-weights --precision bf16 --mesh tp2 --microbatches $mb
  compile two/gpt406_bf16_tp2sp_mb$mb "$dev/gpt406_b8/model.onnx" --random-weights --precision bf16 --mesh tp2 --sp --microbatches $mb
done
compile two/gpt2_tiny_tp2mb2 "$g/model.onnx" --mesh tp2 --microbatches 2
compile two/gpt2_tiny_tp2spmb2 "$g/model.onnx" --mesh tp2 --sp --microbatches 2
rm -rf "$dev"/gpt406_b*
# Point-to-point and broadcast on two GPUs, expected outputs from numpy.
compile two/point_to_point bench/gpu/point-to-point-pp2.mlir
"$py" - "$dev/common/p2p_data" <<'EOF'
import os, sys
import numpy as np
from onnx import numpy_helper
dst = sys.argv[1]
os.makedirs(dst, exist_ok=True)
x = np.random.default_rng(0).integers(-100, 100, (512, 1024)).astype(np.float32)
y = [x[:256] * 1, x[256:] * 2]
zero = np.zeros_like(y[0])
outs = [("next", np.concatenate([zero, y[0]])), ("prev", np.concatenate([y[1], zero])),
        ("root1", np.concatenate([y[1], y[1]]))]
def save(path, arr, name):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(arr, name).SerializeToString())
save(f"{dst}/input_0.pb", x, "x")
for i, (name, arr) in enumerate(outs):
    save(f"{dst}/output_{i}.pb", arr, name)
EOF
cp "$shared/peers/"*.py bench/peers/*.py "$dev/common/peers/"
du -sh "$dev"/*
