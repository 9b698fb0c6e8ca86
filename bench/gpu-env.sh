# Set-up for A/B runs on the GPU machine (source it from the repository
# root): the runtime carried in .devrun/common, the CUDA/NCCL libraries, and
# `bench TAG DIR/NAME [VAR=VALUE...]`, which times .devrun/DIR/NAME.pcx under
# those environment variables and prints one line.
mkdir -p /tmp/paracc-bin && tar -C /tmp/paracc-bin -xJf .devrun/common/bin.tar.xz
site="$(python3 -c "import site; print(site.getsitepackages()[0])" 2>/dev/null)"
for d in "$site"/nvidia/*/lib /usr/local/cuda/lib64; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done
export NCCL_NVLS_ENABLE=0
bench() {
  local tag=$1 p=$2
  shift 2
  env "$@" /tmp/paracc-bin/bin/paracc-run ".devrun/$p.pcx" --device gpu --benchmark 20 \
    --warmup 5 --rtol 1e9 --atol 1e9 2>&1 | grep -E "benchmark:|error" | sed "s|^|$tag $p: |"
}
