#!/usr/bin/env bash
# Packs a CPU-only paracc-run (no CUDA: a CUDA build would carry cuDNN and
# cuBLAS along) with its shared libraries and this machine's loader into
# DIR/bin.tar.xz, so that it runs whatever the many-core machine's glibc
# is. Built into build-cpurt unless PARACC_RUN names one. Sourced or run
# from the repository root: bash bench/pack-cpu-runtime.sh DIR
set -euo pipefail
out=$1
if [ -z "${PARACC_RUN:-}" ]; then
  cmake -S runtime -B build-cpurt -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPARACC_ENABLE_CUDA=OFF -DPARACC_RUNTIME_TESTS=OFF \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
  ninja -C build-cpurt paracc-run >/dev/null
fi
run=${PARACC_RUN:-build-cpurt/bin/paracc-run}
mkdir -p "$out/pack/lib"
cp "$run" "$out/pack/paracc-run"
for lib in $(ldd "$run" | awk '/=>/ {print $3}'); do cp -L "$lib" "$out/pack/lib/"; done
cp -L /lib64/ld-linux-x86-64.so.2 "$out/pack/lib/"
strip "$out/pack/paracc-run" "$out/pack/lib/"*.so* 2>/dev/null || true
tar -C "$out/pack" -cf - paracc-run lib | xz -T2 -6 >"$out/bin.tar.xz"
rm -rf "$out/pack"
