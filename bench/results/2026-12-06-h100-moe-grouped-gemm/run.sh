#!/usr/bin/env bash
# One GPU call: the experts' kernel tests, their bench, and two MoE programs
# (bf16 forward against onnxruntime, 30 bf16 training steps beside the CPU's).
set -u
out=${OUT:-/tmp/out}
mkdir -p /tmp/pb "$out"
tar -C /tmp/pb -xJf .devrun/common/bin.tar.xz
export LD_LIBRARY_PATH=/tmp/pb/bin/lib:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
B=/tmp/pb/bin
nvidia-smi --query-gpu=name --format=csv,noheader
$B/paracc_rt_gpu_moe_test > "$out/moe-test.log" 2>&1
echo "moe test exit $?: $(grep -c '^PASS' "$out/moe-test.log") PASS, $(grep -c '^FAIL' "$out/moe-test.log") FAIL"
grep -E "^FAIL" "$out/moe-test.log" | head -10 | cut -c1-300
$B/paracc_moebench > "$out/moe-bench.log" 2>&1
echo "moe bench exit $?"; cat "$out/moe-bench.log" | cut -c1-400
$B/paracc-run .devrun/moe/mixtral_fwd_bf16.pcx --test-data .devrun/moe/mixtral_data --device gpu --rtol 5e-2 --atol 1e-1 > "$out/fwd.log" 2>&1
echo "forward exit $?"; grep -E "fallback|max abs|error" "$out/fwd.log" | head -5
$B/paracc-run .devrun/moe/qwen_train_bf16.pcx --data .devrun/moe/tokens.u16 --steps 30 --lr 3e-3 --device gpu --log-json "$out/gpu.jsonl" > "$out/train.log" 2>&1
echo "train exit $?"; grep -E "fallback|error" "$out/train.log" | head -5; tail -2 "$out/train.log"
python3 .devrun/moe/compare_training.py "$out/gpu.jsonl" - - --against .devrun/moe/cpu.jsonl --loss-rtol 2e-2 --norm-rtol 5e-2 2>&1 | tail -3
