#!/usr/bin/env bash
# Runs paracc's GPU checks and benchmarks on a GPU machine, next to the
# PyTorch peer, in one call. Run from the repository root:
#
#   bash bench/run-gpu.sh STAGE...
#
# The compiler is not needed there: bench/prepare-gpu.sh (run on a machine
# with the compiler) writes the executables, test data and peer scripts to
# .devrun/, which travels with the call. Stages:
#   build     build runtime/ with CUDA (skipped when .devrun/bin works)
#   kernels   the CUDA kernel tests (paracc_rt_gpu_tests, attention tests)
#   check1    one-GPU results against onnxruntime and the CPU run
#   check2    two-GPU plans (dp2, tp2, tp2+SP) against onnxruntime
#   bench1    GPT-406M forward on one GPU: paracc vs PyTorch eager/compile
#   bench2    the same on two GPUs: dp2, tp2, tp2+SP vs DDP/DTensor
#   overlap   tp2 with and without micro-batches, communication, SM margins
#   profile   milliseconds per instruction kind and shape (--profile)
#   costmodel GPT-406M's forward and training steps profiled next to the
#             cost model's per-op prediction (bench/prepare-gpu-costmodel.sh)
#   check8    8-GPU plans against the CPU backend (bench/prepare-gpu8.sh)
#   bench8    GPT-406M on 8 GPUs per mesh, with the predicted communication
#   train1    training on one GPU (bench/prepare-gpu-train.sh): gpt2_tiny's
#             30 steps against PyTorch's reference runs and the CPU backend,
#             then GPT-406M's training step (bf16, f32/TF32) next to the
#             peer's eager and torch.compile training
#   gpt406train  only the GPT-406M part of train1
#   f32       f32 with TF32 allowed (bench/prepare-gpu-train.sh): the TF32
#             attention kernels' test cases, their bench rows next to
#             PyTorch's f32 SDPA (bench/peers/attention_f32_torch.py),
#             gpt2_tiny's 30 steps under --tf32 against PyTorch's f32 run,
#             GPT-406M's f32 step next to the peer's f32 eager and compile
#   recompute GPT-406M training under --recompute none/full/selective/auto
#             at seq 1024 and 4096 (bench/prepare-gpu-recompute.sh): step
#             time, predicted vs measured peak memory, the peer with and
#             without per-block checkpointing
#   exports   real transformers decoders exported by torch.onnx (the 386M
#             Llama, Llama-3.2-1B's shape; bench/prepare-gpu-exports.sh):
#             paracc's bf16 training step and forward next to the same
#             transformers model under PyTorch eager and torch.compile
#   moe       the GPT-MoE (8 experts, top-2, hidden 1024, 8 layers;
#             bench/prepare-gpu-moe.sh): paracc's bf16 training step next
#             to the transformers peer (grouped_mm experts compiled and
#             eager, the eager experts loop)
#   vision    convolutions on cuDNN and pooling (bench/prepare-gpu-vision.sh):
#             the kernel tests' convolution and pool groups, the vision
#             exports against onnxruntime, the ResNet and ViT loss graphs'
#             30 AdamW steps against PyTorch's (f32) and the CPU backend's
#             (bf16)
#   visionbench  ResNet-50 and ViT-B/16 training steps (bf16, batch 128 of
#             224x224; bench/prepare-gpu-vision.sh) next to the peer's eager
#             and torch.compile runs of the same transformers models
#             (channels-last and not; VISION_PEERS="eager eager-cl
#             compile-cl" picks them)
#   attnpeer  the peer's attention (PyTorch SDPA: cuDNN, FlashAttention-2)
#             at the shapes of the attention bench's context-parallel
#             chunks: one sequence of 16 heads of 128, seq 8192 and 32768
#   gemm      paracc's matmul vs cuBLASLt alone vs torch.matmul
#   nccl      collective bandwidth: paracc's NCCL path vs torch
# Results go to $OUT (or /tmp/paracc-out), a summary table to stdout and
# the one-GPU bench rows to $OUT/summary.json (bench/summary_json.py).
set -uo pipefail
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
root="$(cd "$(dirname "$0")/.." && pwd)"
dev="$root/.devrun"
out="${OUT:-/tmp/paracc-out}"
mkdir -p "$out"
summary="$out/summary.txt"
note() { echo "$*" | tee -a "$summary"; }

# NCCL and cuBLASLt: the toolkit's, else the ones PyTorch's wheels carry.
site="$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null)"
for d in "$site"/nvidia/*/lib /usr/local/cuda/lib64; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done

# The runtime built on the compiler machine (bench/prepare-gpu.sh).
mkdir -p /tmp/paracc-bin
tar -C /tmp/paracc-bin -xJf "$dev/common/bin.tar.xz" 2>/dev/null
runbin=/tmp/paracc-bin/bin/paracc-run
testbin=/tmp/paracc-bin/bin
export LD_LIBRARY_PATH="/tmp/paracc-bin/bin/lib:${LD_LIBRARY_PATH:-}"

stage_build() {
  if "$runbin" --help >/dev/null 2>&1; then
    note "build: using the runtime built on the compiler machine"
    return
  fi
  note "build: carried runtime does not start ($("$runbin" --help 2>&1 | head -1)); building here"
  local nccl_inc nccl_lib
  nccl_inc=$(dirname "$(ls /usr/include/nccl.h "$site"/nvidia/nccl/include/nccl.h 2>/dev/null | head -1)")
  nccl_lib=$(ls /usr/lib/x86_64-linux-gnu/libnccl.so* "$site"/nvidia/nccl/lib/libnccl.so* 2>/dev/null | head -1)
  cmake -S "$root/runtime" -B "$root/build-gpu" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DPARACC_ENABLE_CUDA=ON -DPARACC_CPU_BLAS=OFF \
    -DPARACC_GLOO=OFF -DPARACC_RUNTIME_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DPARACC_NCCL_INCLUDE="$nccl_inc" -DPARACC_NCCL_LIBRARY="$nccl_lib" \
    >"$out/cmake.log" 2>&1 || { tail -30 "$out/cmake.log"; exit 2; }
  ninja -C "$root/build-gpu" >"$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -30; exit 2; }
  runbin="$root/build-gpu/bin/paracc-run"
  testbin="$root/build-gpu/unittests/cuda"
  note "build: done"
}

stage_kernels() {
  # The attention cases twice: cuDNN's fused attention where it takes the
  # shape (the default when libcudnn.so.9 loads), then paracc's kernels.
  local t log
  # (cuDNN takes the context-parallel blocks whose start lies within their
  # keys through its padding mask; PARACC_CUDNN_PADDED_START=0 would not.)
  # KERNEL_TESTS="BINARY[:paracc] ..." picks the test runs (and
  # PARACC_GPU_TEST_GROUPS the kernel test's groups); NO_KERNEL_BENCH=1
  # leaves out the attention benches.
  for t in ${KERNEL_TESTS:-paracc_rt_gpu_tests paracc_rt_gpu_attention_test paracc_rt_gpu_attention_test:paracc paracc_rt_gpu_moe_test}; do
    log="$out/${t/:/-}.log"
    [ -x "$testbin/${t%%:*}" ] || { note "kernels: $t missing"; continue; }
    if [ "$t" != "${t%%:*}" ]; then
      PARACC_ATTENTION_KERNEL=paracc "$testbin/${t%%:*}" >"$log" 2>&1
    else
      PARACC_CUDNN_LOG=1 "$testbin/$t" >"$log" 2>&1
    fi
    note "kernels: $t exit $? ($(grep -cE '^\[?PASS' "$log") PASS, $(grep -cE '^\[?FAIL' "$log") FAIL)"
    grep -E '^\[?FAIL' "$log" | head -20
  done
  grep -m1 "cuDNN" "$out/paracc_rt_gpu_attention_test.log" 2>/dev/null | tee -a "$summary"
  if [ -z "${NO_KERNEL_BENCH:-}" ] && [ -x "$testbin/paracc_rt_gpu_attention_bench" ]; then
    "$testbin/paracc_rt_gpu_attention_bench" >"$out/attention-bench.log" 2>&1
    note "attention bench (cuDNN where it runs): exit $?"
    head -12 "$out/attention-bench.log" | tee -a "$summary"
    PARACC_ATTENTION_KERNEL=paracc "$testbin/paracc_rt_gpu_attention_bench" >"$out/attention-bench-paracc.log" 2>&1
    note "attention bench (paracc's kernels): exit $?"
    head -12 "$out/attention-bench-paracc.log" | tee -a "$summary"
    # Context parallelism's blocks (chunks on cuDNN's padding mask, ring on
    # paracc's key-block kernels) beside the whole attention.
    PARACC_CUDNN_LOG=1 "$testbin/paracc_rt_gpu_attention_bench" Sk=8192 >"$out/attention-bench-cp.log" 2>&1
    note "attention bench, context-parallel blocks: exit $?"
    grep -E "chunks|ring|causal +fwd" "$out/attention-bench-cp.log" | tee -a "$summary"
    "$testbin/paracc_rt_gpu_attention_bench" Sk=32768 >>"$out/attention-bench-cp.log" 2>&1
    grep -E "Sk=32768.*(chunks|ring)" "$out/attention-bench-cp.log" | tee -a "$summary"
  fi
  if [ -x "$testbin/paracc_moebench" ]; then
    "$testbin/paracc_moebench" >"$out/moe-bench.log" 2>&1
    note "experts bench: exit $?"
    grep -E "grouped|moe_experts" "$out/moe-bench.log" | tee -a "$summary"
  fi
}

# check NAME PCX TESTDATA [paracc-run args...]
check() {
  local name=$1 pcx=$2 data=$3
  shift 3
  [ -f "$dev/$pcx" ] || { note "check $name: $pcx not carried, skipped"; return; }
  "$runbin" "$dev/$pcx" --test-data "$dev/common/$data" --device gpu "$@" >"$out/check-$name.log" 2>&1
  local rc=$?
  note "check $name: exit $rc; $(grep -E 'max abs|mismatch|error' "$out/check-$name.log" | head -2 | tr '\n' ' ')"
}

stage_check1() {
  check gpt2-f32 one/gpt2_tiny.pcx gpt2_tiny_data
  check gpt2-opt-f32 one/gpt2_tiny_opt.pcx gpt2_tiny_data
  check gpt2-f32-eager one/gpt2_tiny.pcx gpt2_tiny_data --no-cuda-graph
  check gpt2-tf32 one/gpt2_tiny.pcx gpt2_tiny_data --tf32 --rtol 1e-2 --atol 1e-2
  check gpt2-bf16 one/gpt2_tiny_bf16.pcx gpt2_tiny_data --rtol 5e-2 --atol 1e-1
  check gpt2-f16 one/gpt2_tiny_f16.pcx gpt2_tiny_data --rtol 2e-2 --atol 2e-2
  check example-gpt2 one/example_gpt2.pcx example_gpt2_data
  check example-llama one/example_llama.pcx example_llama_data
  check loss one/loss.pcx loss_data
}

stage_check2() {
  for p in dp2 tp2 tp2sp dp2bf16 tp2bf16 tp2mb2 tp2spmb2; do
    local tol=()
    [[ $p == *bf16 ]] && tol=(--rtol 5e-2 --atol 1e-1)
    check "gpt2-$p" "two/gpt2_tiny_$p.pcx" gpt2_tiny_data "${tol[@]}"
  done
  for p in tp2 dp2 tp2sp tp2bf16; do
    local tol=()
    [[ $p == *bf16 ]] && tol=(--rtol 5e-2 --atol 1e-1)
    check "llama-$p" "two/example_llama_$p.pcx" example_llama_data "${tol[@]}"
  done
  check point-to-point two/point_to_point.pcx p2p_data
}

# bench NAME PCX: paracc's forward step on GPT-406M.
bench() {
  local name=$1 pcx=$2
  "$runbin" "$dev/$pcx" --device gpu --benchmark 20 --warmup 5 --rtol 1e9 --atol 1e9 \
    >"$out/bench-$name.log" 2>&1
  note "bench $name: exit $?; $(grep -E 'benchmark:|arena|error' "$out/bench-$name.log" | tr '\n' ' ')"
  local explain="$dev/${pcx%.pcx}.explain.json"
  [ -f "$explain" ] && note "  $(python3 "$root/bench/predicted_step.py" "$explain")"
  return 0
}

peer() {
  local name=$1
  shift
  "$@" >"$out/peer-$name.log" 2>&1
  note "peer $name: exit $?; $(grep -E 'RESULT|Error' "$out/peer-$name.log" | tail -1)"
}

stage_bench1() {
  bench gpt406-bf16-1gpu one/gpt406_bf16.pcx
  peer eager-fwd python3 "$dev/common/peers/bench_torch.py" --mode eager --fwd
  peer compile-fwd python3 "$dev/common/peers/bench_torch.py" --mode compile --fwd
}

stage_bench2() {
  bench gpt406-bf16-dp2 two/gpt406_bf16_dp2.pcx
  bench gpt406-bf16-tp2 two/gpt406_bf16_tp2.pcx
  bench gpt406-bf16-tp2sp two/gpt406_bf16_tp2sp.pcx
  for mb in 2 4; do
    bench gpt406-bf16-tp2-mb$mb two/gpt406_bf16_tp2_mb$mb.pcx
    bench gpt406-bf16-tp2sp-mb$mb two/gpt406_bf16_tp2sp_mb$mb.pcx
  done
  for m in ddp tp tpsp; do
    peer "$m-fwd" torchrun --nproc_per_node=2 "$dev/common/peers/bench_torch.py" --mode $m --fwd
  done
}

# Where tp2's time goes: the step without communication, and products that
# leave multiprocessors to the collectives.
stage_overlap() {
  for pcx in gpt406_bf16_tp2 gpt406_bf16_tp2_mb2 gpt406_bf16_tp2_mb4; do
    bench "$pcx" "two/$pcx.pcx"
    PARACC_DEBUG_SKIP_COLLECTIVES=1 bench "$pcx-nocomm" "two/$pcx.pcx"
    for margin in 8 16 32; do
      PARACC_GEMM_SM_MARGIN=$margin bench "$pcx-margin$margin" "two/$pcx.pcx"
    done
  done
}

# Where the time goes, instruction by instruction (serialized eager steps):
# PROFILE lists executables as DIR/NAME (default: the 1-GPU and tp2 ones).
stage_profile() {
  for pcx in ${PROFILE:-one/gpt406_bf16 two/gpt406_bf16_tp2 two/gpt406_bf16_tp2_mb2}; do
    [ -f "$dev/$pcx.pcx" ] || { note "profile $pcx: not carried, skipped"; continue; }
    local name=${pcx#*/}
    "$runbin" "$dev/$pcx.pcx" --device gpu --profile 3 --rtol 1e9 --atol 1e9 \
      >"$out/profile-$name.log" 2>&1
    note "profile $name: exit $?; $(grep -E '^profile|error' "$out/profile-$name.log" | head -2 | tr '\n' ' ')"
    grep -A16 '^profile' "$out/profile-$name.log" | tail -n +2 >>"$summary"
  done
}

stage_costmodel() {
  local c="$dev/costmodel"
  for pcx in "$c"/gpt406_*.pcx; do
    [ -f "$pcx" ] || { note "costmodel: nothing carried (.devrun/costmodel)"; return; }
    local name
    name=$(basename "$pcx" .pcx)
    # (A training step without --data is profiled on seeded random tokens.)
    "$runbin" "$pcx" --device gpu --profile 3 --profile-json "$out/costmodel-$name.json" \
      --rtol 1e9 --atol 1e9 >"$out/costmodel-$name.log" 2>&1
    note "costmodel $name: exit $?; $(grep -E '^profile|error' "$out/costmodel-$name.log" | head -2 | tr '\n' ' ')"
    python3 "$c/cost_model_summary.py" "$out/costmodel-$name.json" 2>&1 | tee -a "$summary"
  done
}

stage_attnpeer() {
  python3 "$dev/common/peers/attention_bench.py" --seqs 8192,32768 --dims 128 \
    --tokens 8192 >"$out/peer-attention.log" 2>&1
  note "peer attention: exit $?"
  grep RESULT "$out/peer-attention.log" | tee -a "$summary"
}

stage_gemm() {
  "$testbin/paracc_gemmbench" >"$out/gemm.log" 2>&1
  note "gemm: exit $?"
  tee -a "$summary" <"$out/gemm.log"
  peer gemm-torch python3 "$dev/common/peers/gemm_torch.py"
  grep TORCH "$out/peer-gemm-torch.log" | tee -a "$summary"
}

stage_nccl() {
  "$testbin/paracc_collectivebench" >"$out/nccl-paracc.log" 2>&1
  note "nccl paracc: exit $?"
  grep -E "PARACC|error|failed" "$out/nccl-paracc.log" | tee -a "$summary"
  peer nccl-torch torchrun --nproc_per_node=2 "$dev/common/peers/nccl_bw.py"
  grep NCCL "$out/peer-nccl-torch.log" | tee -a "$summary"
}

# Eight GPUs (bench/prepare-gpu8.sh): every plan against the one-rank CPU
# backend's outputs, then GPT-406M's step per mesh next to the explain
# report's prediction.
stage_check8() {
  for pcx in "$dev"/eight/{gpt2,llama}_*.pcx; do
    [ -f "$pcx" ] || { note "check8: nothing carried (.devrun/eight)"; return; }
    local name m
    name=$(basename "$pcx" .pcx)
    m=${name%%_*}
    "$runbin" "$pcx" --device gpu --test-data "$dev/eight/${m}_cpu" >"$out/check8-$name.log" 2>&1
    note "check8 $name: exit $?; $(grep -E 'ran |max abs|error' "$out/check8-$name.log" | head -2 | tr '\n' ' ')"
  done
}

stage_bench8() {
  nvidia-smi topo -m >"$out/topo.txt" 2>&1
  cat "$out/topo.txt" >>"$summary"
  for pcx in "$dev"/eight/gpt406_*.pcx; do
    [ -f "$pcx" ] || { note "bench8: nothing carried (.devrun/eight)"; return; }
    local name
    name=$(basename "$pcx" .pcx)
    "$runbin" "$pcx" --device gpu --benchmark 20 --warmup 5 --rtol 1e9 --atol 1e9 \
      >"$out/bench8-$name.log" 2>&1
    note "bench8 $name: exit $?; $(grep -E 'benchmark:|error' "$out/bench8-$name.log" | tr '\n' ' ')"
    note "  predicted: $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); c=r["collectives"]; print(len(c), "collectives,", round(sum(x["sent_bytes_per_rank"] for x in c)/2**20, 1), "MiB sent per rank")' "$dev/eight/$name.json")"
    grep -E "groups:" "$dev/eight/$name.explain.txt" >>"$summary"
  done
}

# train NAME PCX STEPS LR [paracc-run args...]: trains on the GPU with a
# JSON log; prints the median step time of the steps after the fifth.
train() {
  local name=$1 pcx=$2 steps=$3 lr=$4
  shift 4
  local t="$dev/train"
  "$runbin" "$t/$pcx" --device gpu --data "$t/${TOKENS:-tokens.u16}" --steps "$steps" \
    --lr "$lr" --log-json "$out/train-$name.jsonl" "$@" >"$out/train-$name.log" 2>&1
  note "train $name: exit $?; $(grep -E 'error|training' "$out/train-$name.log" | head -2 | tr '\n' ' ')"
  python3 - "$out/train-$name.jsonl" <<'PY' | tee -a "$summary"
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if len(rows) > 5:
    ms = statistics.median(r["ms"] for r in rows[5:])
    print(f"  median step {ms:.2f} ms, {8192 / ms * 1e3:,.0f} tok/s if 8192 tokens/step; "
          f"losses {[round(r['loss'], 4) for r in rows[:20]]}")
PY
}

stage_train1() {
  local t="$dev/train"
  train tiny-const tiny_const.pcx 30 1e-3
  python3 "$t/compare_training.py" "$out/train-tiny-const.jsonl" "$t/reference.json" adamw_const | tail -2 | tee -a "$summary"
  train tiny-cosine tiny_cosine.pcx 30 3e-3 --lr-schedule cosine --warmup 5 --min-lr 3e-4
  python3 "$t/compare_training.py" "$out/train-tiny-cosine.jsonl" "$t/reference.json" adamw_clip_cosine | tail -2 | tee -a "$summary"
  # Checkpoints on the GPU: the cosine run again, saved every 10 steps,
  # then resumed from step 10 by a second process; steps 11-30 must be the
  # uninterrupted run's.
  rm -rf "$out/ck"
  train tiny-cosine-ckpt tiny_cosine.pcx 30 3e-3 --lr-schedule cosine --warmup 5 --min-lr 3e-4 \
    --checkpoint-dir "$out/ck" --checkpoint-every 10
  echo step-00000010 >"$out/ck/latest"
  train tiny-cosine-resumed tiny_cosine.pcx 30 3e-3 --lr-schedule cosine --warmup 5 --min-lr 3e-4 \
    --checkpoint-dir "$out/ck" --resume
  python3 - "$out/train-tiny-cosine.jsonl" "$out/train-tiny-cosine-resumed.jsonl" <<'PY' | tee -a "$summary"
import json, sys
full = [json.loads(l) for l in open(sys.argv[1])][10:]
resumed = [json.loads(l) for l in open(sys.argv[2])]
ok = len(resumed) == 20 and all(a["step"] == b["step"] for a, b in zip(full, resumed))
err = max((abs(a["loss"] - b["loss"]) / abs(b["loss"]) for a, b in zip(full, resumed)), default=float("inf"))
print(f"checkpoint resume on the GPU: {len(resumed)} steps after step 10, worst rel loss error {err:.2e}: "
      + ("OK" if ok and err < 1e-5 else "FAILED"))
PY
  train tiny-const-eager tiny_const.pcx 30 1e-3 --no-cuda-graph
  python3 "$t/compare_training.py" "$out/train-tiny-const-eager.jsonl" "$t/reference.json" adamw_const | tail -2 | tee -a "$summary"
  train tiny-const-bf16 tiny_const_bf16.pcx 30 1e-3
  python3 "$t/compare_training.py" "$out/train-tiny-const-bf16.jsonl" "$t/reference.json" adamw_const \
    --against "$t/tiny_const_bf16_cpu.jsonl" --loss-rtol 2e-2 --norm-rtol 5e-2 | tail -2 | tee -a "$summary"
  # GPT-406M on the GPU against the CPU backend's run of the same
  # executable (bench/prepare-gpt406-cpu-reference.sh), at bf16 tolerance.
  if [ -f "$t/gpt406_b1_bf16_cpu.jsonl" ]; then
    train gpt406-b1-bf16 gpt406_b1_bf16.pcx 20 3e-4
    python3 "$t/compare_training.py" "$out/train-gpt406-b1-bf16.jsonl" - - \
      --against "$t/gpt406_b1_bf16_cpu.jsonl" --loss-rtol 2e-2 --norm-rtol 5e-2 | tail -2 | tee -a "$summary"
  fi
  stage_gpt406train
}

# gpt406train (the end of train1, alone when only .devrun/train/gpt406_*
# travels): GPT-406M's training step in bf16 and f32/TF32, a profile of
# the bf16 step, then the peer's eager and torch.compile training
# (GPT406_PEERS picks the modes).
stage_gpt406train() {
  local t="$dev/train" m
  TOKENS=gpt406_tokens.u16 train gpt406-bf16 gpt406_bf16.pcx 25 1e-4
  TOKENS=gpt406_tokens.u16 train gpt406-tf32 gpt406_f32.pcx 25 1e-4 --tf32
  "$runbin" "$t/gpt406_bf16.pcx" --device gpu --profile 2 --rtol 1e9 --atol 1e9 \
    >"$out/profile-gpt406-train.log" 2>&1
  grep -A30 '^profile' "$out/profile-gpt406-train.log" >>"$summary"
  [ -n "${NO_PEER:-}" ] && return
  for m in ${GPT406_PEERS:-eager compile}; do
    peer "$m-train" python3 "$dev/common/peers/bench_torch.py" --mode "$m"
  done
}

stage_f32() {
  local t="$dev/train" m log="$out/attention-test-tf32.log"
  "$testbin/paracc_rt_gpu_attention_test" tf32 >"$log" 2>&1
  note "kernels: attention test, tf32 cases: exit $? ($(grep -cE '^\[?PASS' "$log") PASS, $(grep -cE '^\[?FAIL' "$log") FAIL)"
  grep -E '^\[?FAIL' "$log" | head -20
  "$testbin/paracc_rt_gpu_attention_bench" f32 >"$out/attention-bench-f32.log" 2>&1
  note "attention bench, f32: exit $?"
  cat "$out/attention-bench-f32.log" | tee -a "$summary"
  peer attention-f32 python3 "$dev/common/peers/attention_f32_torch.py"
  grep RESULT "$out/peer-attention-f32.log" | tee -a "$summary"
  train tiny-const-tf32 tiny_const.pcx 30 1e-3 --tf32
  python3 "$t/compare_training.py" "$out/train-tiny-const-tf32.jsonl" "$t/reference.json" adamw_const \
    --loss-rtol 1e-2 --norm-rtol 3e-2 | tail -2 | tee -a "$summary"
  train tiny-const tiny_const.pcx 30 1e-3
  python3 "$t/compare_training.py" "$out/train-tiny-const.jsonl" "$t/reference.json" adamw_const | tail -2 | tee -a "$summary"
  TOKENS=gpt406_tokens.u16 train gpt406-tf32 gpt406_f32.pcx 25 1e-4 --tf32
  "$runbin" "$t/gpt406_f32.pcx" --device gpu --tf32 --profile 2 --rtol 1e9 --atol 1e9 \
    >"$out/profile-gpt406-f32.log" 2>&1
  grep -A30 '^profile' "$out/profile-gpt406-f32.log" >>"$summary"
  [ -n "${NO_PEER:-}" ] && return
  for m in ${GPT406_PEERS:-eager compile}; do
    peer "$m-train-f32" python3 "$dev/common/peers/bench_torch.py" --mode "$m" --precision f32
  done
}

stage_vision() {
  local v="$dev/vision" log="$out/kernel-tests.log" m c p
  PARACC_CUDNN_LOG=1 "$testbin/paracc_rt_gpu_tests" >"$log" 2>&1
  note "kernels: exit $? ($(grep -cE '^\[?PASS' "$log") PASS, $(grep -cE '^\[?FAIL' "$log") FAIL)"
  grep -E '^\[?FAIL|=== (convolutions|pools)' "$log" | head -30 | tee -a "$summary"
  for m in resnet vit convnext whisper-conv unet-block conv-variants; do
    "$runbin" "$v/$m.pcx" --device gpu --test-data "$v/$m-data" >"$out/vision-$m.log" 2>&1
    note "vision $m: exit $?; $(grep -E 'output|fallback|error' "$out/vision-$m.log" | tr '\n' ' ')"
  done
  for c in resnet-legacy vit; do
    for p in f32 bf16; do
      "$runbin" "$v/train-$c-$p.pcx" --device gpu --data-dir "$v/$c-batches" --steps 30 \
        --lr 3e-3 --log-json "$out/train-$c-$p.jsonl" >"$out/train-$c-$p.log" 2>&1
      note "train $c $p: exit $?; $(grep -E 'fallback|error' "$out/train-$c-$p.log" | head -2 | tr '\n' ' ')"
    done
    python3 "$v/compare_training.py" "$out/train-$c-f32.jsonl" "$v/$c-reference.json" adamw |
      tail -2 | tee -a "$summary"
    python3 "$v/compare_training.py" "$out/train-$c-bf16.jsonl" - - --against \
      "$v/train-$c-bf16-cpu.jsonl" --loss-rtol 2e-2 --norm-rtol 5e-2 | tail -2 | tee -a "$summary"
  done
}

# The median step of a --log-json run after 5 warm-up steps, and its
# first losses: median_step LABEL FILE.
median_step() {
  python3 - "$1" "$2" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
if len(rows) > 5:
    ms = statistics.median(r["ms"] for r in rows[5:])
    print(f"  {sys.argv[1]} median step {ms:.2f} ms, {128 / ms * 1e3:,.0f} images/s; "
          f"losses {[round(r['loss'], 3) for r in rows[:6]]}")
PY
}

stage_visionbench() {
  local b="$dev/vision/bench" m mode
  python3 "$b/write_image_batches.py" "$out/images" 2 128 224 224 1000
  for m in ${VISION_MODELS:-resnet-50 vit-b16}; do
    "$runbin" "$b/$m.pcx" --device gpu --data-dir "$out/images" --steps 25 --lr 1e-4 \
      --log-json "$out/vision-$m.jsonl" >"$out/vision-$m.log" 2>&1
    note "vision bench $m: exit $?; $(grep -E 'error|arena|fallback' "$out/vision-$m.log" | head -2 | tr '\n' ' ')"
    median_step paracc "$out/vision-$m.jsonl" | tee -a "$summary"
    if [ -f "$b/$m-unfused.pcx" ]; then
      "$runbin" "$b/$m-unfused.pcx" --device gpu --data-dir "$out/images" --steps 25 --lr 1e-4 \
        --log-json "$out/vision-$m-unfused.jsonl" >"$out/vision-$m-unfused.log" 2>&1
      median_step "paracc --no-fuse-elementwise" "$out/vision-$m-unfused.jsonl" |
        tee -a "$summary"
    fi
    [ -n "${VISION_PROFILE:-}" ] && "$runbin" "$b/$m.pcx" --device gpu --profile 2 \
      --rtol 1e9 --atol 1e9 >"$out/profile-$m.log" 2>&1 && grep -A25 '^profile' "$out/profile-$m.log" >>"$summary"
    # The step's graph alone on the GPU (no upload, no host work): what the
    # measured step adds to it is the input's way to the device.
    [ -n "${VISION_PROFILE:-}" ] && "$runbin" "$b/$m.pcx" --device gpu --benchmark 20 \
      --rtol 1e9 --atol 1e9 2>&1 | grep -E 'ms/step' | sed 's/^/  graph only: /' | tee -a "$summary"
    [ -n "${NO_PEER:-}" ] && continue
    for mode in ${VISION_PEERS:-eager eager-cl compile-cl}; do
      local flags=(--mode "${mode%-cl}")
      [[ $mode == *-cl ]] && flags+=(--channels-last)
      peer "$m-$mode" python3 "$dev/common/peers/vision_torch.py" "$b/$m.peer.json" "${flags[@]}"
    done
  done
}

# exports (bench/prepare-gpu-exports.sh): each training executable for 25
# steps on random tokens (the median step after 5), each forward with
# --benchmark, then the peer's eager and compiled runs of the same model and
# shapes. EXPORT_RUNS="TAG ..." (the .pcx names) and EXPORT_PEERS="eager
# compile" pick what runs; EXPORT_PROFILE=1 adds a --profile 2 of each
# training step.
stage_exports() {
  local e="$dev/exports" x="/tmp/paracc-exports" pcx tag name mode batch seq m
  python3 -c "import numpy as np; np.random.default_rng(1).integers(0, 50000, 8 * 4096 * 32).astype(np.uint32).tofile('$out/tokens.u32')"
  mkdir -p "$x"
  for pcx in "$e"/*.pcx.xz; do
    [ -e "$pcx" ] || continue # only the checks were prepared
    xz -dc "$pcx" >"$x/$(basename "$pcx" .xz)"
    cp "${pcx%.pcx.xz}.explain.json" "$x/"
  done
  # Real exports trained on the GPU against PyTorch (f32, 30 steps).
  for c in llama-sdpa mistral-window; do
    [ -f "$e/check_$c.pcx" ] || continue
    "$runbin" "$e/check_$c.pcx" --device gpu --data "$e/check_$c.tokens.u16" --steps 30 \
      --lr 3e-3 --log-json "$out/exports-check-$c.jsonl" >"$out/exports-check-$c.log" 2>&1
    note "exports check $c (GPU, 30 steps vs PyTorch): exit $?"
    python3 "$e/compare_training.py" "$out/exports-check-$c.jsonl" \
      "$e/check_$c.reference.json" adamw | tail -2 | tee -a "$summary"
  done
  local runs=("$x"/*.pcx)
  [ -n "${EXPORT_RUNS:-}" ] && read -ra runs <<<"$(printf "$x/%s.pcx " $EXPORT_RUNS)"
  for pcx in "${runs[@]}"; do
    [ -e "$pcx" ] || continue
    tag=$(basename "$pcx" .pcx)
    IFS=_ read -r name mode batch seq <<<"$tag"
    batch=${batch#b}
    seq=${seq#s}
    if [ "$mode" = train ]; then
      "$runbin" "$pcx" --device gpu --data "$out/tokens.u32" --data-dtype u32 --steps 25         --lr 1e-4 --log-json "$out/exports-$tag.jsonl" >"$out/exports-$tag.log" 2>&1
      note "exports $tag: exit $?; $(grep -E 'error|arena|peak' "$out/exports-$tag.log" | head -2 | tr '\n' ' ')"
      python3 - "$out/exports-$tag.jsonl" "$batch" "$seq" <<'PY' | tee -a "$summary"
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
tokens = int(sys.argv[2]) * int(sys.argv[3])
if len(rows) > 5:
    ms = statistics.median(r["ms"] for r in rows[5:])
    print(f"  paracc median step {ms:.2f} ms, {tokens / ms * 1e3:,.0f} tok/s; "
          f"losses {[round(r['loss'], 3) for r in rows[:6]]}")
PY
      if [ -n "${EXPORT_PROFILE:-}" ]; then
        "$runbin" "$pcx" --device gpu --profile 2 --rtol 1e9 --atol 1e9 \
          >"$out/exports-$tag-profile.log" 2>&1
        grep -A25 '^profile' "$out/exports-$tag-profile.log" >>"$summary"
      fi
    else
      dev="/tmp" bench "exports-$tag" "paracc-exports/$tag.pcx"
    fi
    [ -n "${NO_PEER:-}" ] && continue
    for m in ${EXPORT_PEERS:-eager compile}; do
      local fwd=()
      [ "$mode" = fwd ] && fwd=(--fwd)
      peer "$tag-$m" python3 "$dev/common/peers/hf_decoder_torch.py" "$e/$name.peer.json" \
        --mode "$m" --batch "$batch" --seq "$seq" "${fwd[@]}"
    done
  done
}

# moe (bench/prepare-gpu-moe.sh): GPT-MoE bf16 training, paracc's step
# against the transformers peer with the same routing: torch's grouped GEMM
# experts (torch.compile and eager) and the eager loop over the experts.
stage_moe() {
  local m="$dev/moebench" run
  python3 -c "import numpy as np; np.random.default_rng(1).integers(0, 50304, 8 * 1024 * 32).astype(np.uint16).tofile('$out/moe-tokens.u16')"
  "$runbin" "$m/gpt-moe_train_b8_s1024.pcx" --device gpu --data "$out/moe-tokens.u16" \
    --steps 25 --lr 1e-4 --log-json "$out/moe-paracc.jsonl" >"$out/moe-paracc.log" 2>&1
  note "moe paracc: exit $?; $(grep -E 'error|fallbacks' "$out/moe-paracc.log" | head -1)"
  python3 - "$out/moe-paracc.jsonl" <<'PY' | tee -a "$summary"
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ms = statistics.median(r["ms"] for r in rows[5:])
print(f"  paracc median step {ms:.2f} ms, {8192 / ms * 1e3:,.0f} tok/s")
PY
  [ -n "${NO_PEER:-}" ] && return 0
  # (bf16: parameters and AdamW state in bf16, which torch's grouped GEMM
  # needs; the others keep f32 master weights, as paracc does.)
  # MOE_PEERS="MODE:EXPERTS[:bf16] ..." picks the peer runs.
  local mode experts bf16
  for run in ${MOE_PEERS:-compile:grouped_mm eager:grouped_mm compile:eager compile:grouped_mm:bf16}; do
    IFS=: read -r mode experts bf16 <<<"$run"
    peer "moe-$mode-$experts${bf16:+-bf16}" python3 "$dev/common/peers/hf_decoder_torch.py" \
      "$m/gpt-moe.peer.json" --mode "$mode" --experts "$experts" ${bf16:+--bf16-params} \
      --batch 8 --seq 1024
  done
}

# recompute (bench/prepare-gpu-recompute.sh): GPT-406M bf16 training at
# seq 1024 and 4096 under each --recompute policy: step time, the peak
# --explain predicted before launch next to what the device reports, and
# the peer with and without per-block checkpointing (eager and compiled).
# RECOMPUTE_RUNS="NAME ..." runs only those executables.
stage_recompute() {
  local r="$dev/recompute" pcx name seq rc mode
  "$runbin" "$r/tiny_full.check" --device gpu --data "$r/tiny_tokens.u16" --steps 30 \
    --lr 1e-3 --log-json "$out/recompute-tiny-full.jsonl" >"$out/recompute-tiny-full.log" 2>&1
  note "recompute tiny-full: exit $?"
  python3 "$r/compare_training.py" "$out/recompute-tiny-full.jsonl" "$r/reference.json" \
    adamw_const | tail -2 | tee -a "$summary"
  "$runbin" "$r/dropout.check" --device gpu --data "$r/dropout_tokens.u16" --steps 10 \
    --lr 1e-3 --log-json "$out/recompute-dropout.jsonl" >"$out/recompute-dropout.log" 2>&1
  note "recompute dropout (GPU vs the CPU backend): exit $?"
  python3 "$r/compare_training.py" "$out/recompute-dropout.jsonl" - - \
    --against "$r/dropout_cpu.jsonl" --loss-rtol 1e-4 --norm-rtol 1e-3 | tail -2 | tee -a "$summary"
  local runs=("$r"/*.pcx)
  [ -n "${RECOMPUTE_RUNS:-}" ] && read -ra runs <<<"$(printf "$r/%s.pcx " $RECOMPUTE_RUNS)"
  for pcx in "${runs[@]}"; do
    name=$(basename "$pcx" .pcx)
    "$runbin" "$pcx" --device gpu --data "$r/tokens.u16" --steps 15 --lr 1e-4 \
      --log-json "$out/recompute-$name.jsonl" >"$out/recompute-$name.log" 2>&1
    note "recompute $name: exit $?; $(grep -E 'error' "$out/recompute-$name.log" | head -2)"
    python3 "$dev/common/recompute_summary.py" "$out/recompute-$name.jsonl" \
      "$r/$name.json" "$out/recompute-$name.log" | tee -a "$summary"
  done
  [ -n "${NO_PEER:-}" ] && return
  for mode in eager compile; do
    for seq in 1024 4096; do
      for rc in none full; do
        peer "$mode-s$seq-$rc" python3 "$dev/common/peers/bench_torch.py" --mode $mode \
          --seq $seq --batch 8 --recompute $rc
      done
    done
  done
}

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpus.txt"
for s in "$@"; do
  "stage_$s"
done
# The one-GPU bench rows (paracc, compile, eager, peaks, commit) as JSON.
python3 "$root/bench/summary_json.py" "$out" "$dev/common/commit" >"$out/summary.json" 2>/dev/null
echo "==== summary"
cat "$summary"
