#!/usr/bin/env bash
# Installs what paracc needs on Debian 12 (apt-get, a Python venv for the
# test references) and builds it into build/. Idempotent: run it again after
# pulling. Binaries land in build/bin (paracc, paracc-opt, paracc-translate,
# paracc-run).
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  cmake ninja-build g++ lld ccache git python3 python3-venv
  libprotobuf-dev protobuf-compiler libonnx-dev libonnx-testdata
  libgloo-dev libopenblas-dev libflatbuffers-dev flatbuffers-compiler
  libgtest-dev nlohmann-json3-dev libzip-dev
)

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Independent references: onnx and onnxruntime from PyPI, in a venv.
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c "import onnx, onnxruntime, numpy, pytest" 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -r scripts/requirements.txt
fi

# The cuDNN frontend's headers (header-only; its Python dependencies are not
# needed) for the CUDA runtime's cuDNN attention (runtime/CMakeLists.txt).
if ! ls .venv/lib/python3*/site-packages/include/cudnn_frontend.h >/dev/null 2>&1; then
  .venv/bin/pip install -q --no-deps nvidia-cudnn-frontend==1.32.0
fi
# CUTLASS's headers (the wheel's cutlass_library/source/include) for the
# experts' grouped products on sm_90 (runtime/CMakeLists.txt).
if ! ls .venv/lib/python3*/site-packages/cutlass_library/source/include/cutlass/cutlass.h >/dev/null 2>&1; then
  .venv/bin/pip install -q --no-deps nvidia-cutlass==4.2.0.0
fi

JOBS=${PARACC_JOBS:-$(nproc)}
# ccache keys on paths relative to the checkout, so a clone elsewhere (CI's)
# reuses what an earlier build of the same sources compiled.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
# The CUDA backend is built when the toolkit is there (it runs on GPU
# machines; without a GPU its tests are skipped); otherwise CPU only.
CUDA_ARGS=()
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
if [ -n "$NVCC" ]; then
  CUDA_ARGS=(-DCMAKE_CUDA_COMPILER="$NVCC" -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
else
  echo "setup: no CUDA toolkit (nvcc): building the CPU backend only"
fi
if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja "${CUDA_ARGS[@]}" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
cmake --build build -j "$JOBS"
echo "setup: built paracc into build/bin"
