#!/usr/bin/env bash
# Runs the whole test suite of a built tree (scripts/setup.sh builds it):
# the lit tests (dialects, passes, importer, end-to-end models, the ONNX
# backend node-test conformance suite) and the runtime's unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${PARACC_JOBS:-$(nproc)}
cmake --build build -j "$JOBS" --target check-paracc
