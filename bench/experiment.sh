mkdir -p /tmp/paracc-bin && tar -C /tmp/paracc-bin -xJf .devrun/common/bin.tar.xz; site="$(python3 -c "import site; print(site.getsitepackages()[0])" 2>/dev/null)"; for d in "$site"/nvidia/*/lib /usr/local/cuda/lib64; do [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"; done
B=/tmp/paracc-bin/bin/paracc-run
bench() { local tag=$1 p=$2; shift 2; env "$@" $B .devrun/$p.pcx --device gpu --benchmark 20 --warmup 5 --rtol 1e9 --atol 1e9 2>&1 | grep -E "benchmark:|error" | sed "s|^|$tag $p: |"; }
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
