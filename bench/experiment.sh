# A/B template (run 10): tuning candidates and NCCL knobs. On the GPU
# machine, from the repository root: source bench/experiment.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
bench cand8 one/gpt406_bf16 PARACC_GEMM_CANDIDATES=8
bench cand32 one/gpt406_bf16 PARACC_GEMM_CANDIDATES=32
bench cand64 one/gpt406_bf16 PARACC_GEMM_CANDIDATES=64
bench base two/gpt406_bf16_tp2 X=1
bench ch16 two/gpt406_bf16_tp2 NCCL_MIN_NCHANNELS=16
bench ch32 two/gpt406_bf16_tp2 NCCL_MIN_NCHANNELS=32
bench simple two/gpt406_bf16_tp2 NCCL_PROTO=Simple
bench ll128 two/gpt406_bf16_tp2 NCCL_PROTO=LL128
bench ch32simple two/gpt406_bf16_tp2 NCCL_MIN_NCHANNELS=32 NCCL_PROTO=Simple
bench ch16sp two/gpt406_bf16_tp2sp NCCL_MIN_NCHANNELS=16
bench basesp two/gpt406_bf16_tp2sp X=1
bench cand32dp2 two/gpt406_bf16_dp2 X=1
