#!/usr/bin/env bash
# Builds the runtime with CUDA here (no LLVM needed) and packs paracc-run
# and the GPU kernel tests into .devrun/common/bin.tar.xz for run-gpu.sh,
# with libzip (checkpoints are .npz archives; the GPU machine has its
# dependencies, zlib, bzip2 and OpenSSL 3, but not libzip itself) in bin/lib.
# Run from the repository root; PARACC_GPU_RUNTIME_BUILD picks the build
# folder (default build-gpurt).
set -euo pipefail
dev=.devrun
rtbuild=${PARACC_GPU_RUNTIME_BUILD:-build-gpurt}
rm -rf "$dev/bin" && mkdir -p "$dev/bin" "$dev/common"
PATH=/usr/local/cuda/bin:$PATH cmake -S runtime -B "$rtbuild" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DPARACC_ENABLE_CUDA=ON -DPARACC_CPU_BLAS=OFF \
  -DPARACC_GLOO=OFF -DPARACC_NPZ=ON -DPARACC_RUNTIME_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache >/dev/null
ninja -C "$rtbuild" -j2
cp "$rtbuild/bin/paracc-run" "$dev/bin/"
for t in "$rtbuild"/unittests/cuda/paracc_rt_* "$rtbuild"/bench/paracc_*bench; do
  [ -x "$t" ] && cp "$t" "$dev/bin/"
done
strip "$dev/bin/"*
mkdir -p "$dev/bin/lib"
cp -L /usr/lib/x86_64-linux-gnu/libzip.so.4 "$dev/bin/lib/"
# The commit the executables were built at (summary.json's rows name it).
echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- runtime || echo '+runtime changes')" \
  >"$dev/common/commit"
# One LZMA window over all the executables: each carries the same GPU
# kernels (tens of MB), so a 192 MiB dictionary packs them in ~9 MB where
# per-file windows gave 43 (the device tool carries at most 64 MiB).
tar -C "$dev" -cf - bin | xz -T1 --lzma2=preset=6,dict=192MiB >"$dev/common/bin.tar.xz"
rm -rf "$dev/bin"
