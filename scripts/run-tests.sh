#!/usr/bin/env bash
# Runs the whole test suite of a built tree (scripts/setup.sh builds it):
#  1. the lit tests (dialects, passes, importer, runtime, end-to-end models,
#     the ONNX backend node-test conformance suite) and the runtime's unit
#     tests;
#  2. the runtime again under AddressSanitizer + UndefinedBehaviorSanitizer:
#     its unit tests, corrupted executables and a sharded run.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${PARACC_JOBS:-$(nproc)}
cmake --build build -j "$JOBS" --target check-paracc

echo "== runtime under ASan/UBSan"
if [ ! -f build-asan/build.ninja ]; then
  cmake -S runtime -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPARACC_SANITIZE=ON -DPARACC_ENABLE_CUDA=OFF -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
cmake --build build-asan -j "$JOBS"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
ctest --test-dir build-asan --output-on-failure -j "$JOBS" | tail -n 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build/bin/paracc examples/gpt2/model.onnx --input-shape input_ids=4x16 --mesh dp2,tp2 -o "$work/model.pcx" > /dev/null
build-asan/bin/paracc-run "$work/model.pcx" --test-data examples/gpt2/test_data_set_0
build-asan/bin/paracc-run "$work/model.pcx" --test-data examples/gpt2/test_data_set_0 --ranks-as processes
python3 test/Runtime/Inputs/corrupt.py build-asan/bin/paracc-run "$work/model.pcx" "$work"
echo "== all tests passed"
