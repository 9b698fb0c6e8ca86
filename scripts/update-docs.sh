#!/usr/bin/env bash
# Regenerates docs/reference/ (op and pass reference) from the .td files.
# test/Docs/reference-up-to-date.test fails when they drift apart.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
cmake --build "$build" --target mlir-doc
mkdir -p "$root/docs/reference/Dialects" "$root/docs/reference/Passes"
for f in Dialects/GraphOps Dialects/DistOps Dialects/DistAttrs Passes/GraphPasses Passes/DistPasses; do
  cp "$build/docs/$f.md" "$root/docs/reference/$f.md"
done
echo "updated $root/docs/reference"
