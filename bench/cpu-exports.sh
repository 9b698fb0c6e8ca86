#!/usr/bin/env bash
# The CPU backend on a real export, next to onnxruntime on the same cores,
# in one run: a Llama-style transformers model at seq 2048 (4 layers,
# hidden 256, 4 heads, 2 KV heads, vocab 8192; scripts/exports/decoders.py
# --bench llama-cpu, random weights) exported by torch.onnx. paracc's step
# is its --profile total (every instruction timed; one rank on the CPU runs
# them one after the other anyway), onnxruntime's the median of 5 runs;
# both with every core, and paracc's logits are checked against
# onnxruntime's. Run from the repository root after scripts/setup.sh, with
# EXPORT_PYTHON a Python with torch, transformers and onnxscript; results
# go to $OUT (default /tmp/paracc-cpu-exports).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
py=${EXPORT_PYTHON:-python3}
out=${OUT:-/tmp/paracc-cpu-exports}
seq=${SEQ:-2048}
mkdir -p "$out"
"$py" scripts/exports/decoders.py "$out/model" --bench llama-cpu --batch 1 --seq "$seq" \
  --with-weights 2>&1 | grep -v '^\[torch\|^W1'
build/bin/paracc "$out/model/model.onnx" --device cpu -o "$out/model.pcx" >/dev/null
.venv/bin/python bench/peers/ort_time.py "$out/model/model.onnx" "$out/model/input_ids.pb" \
  --save "$out/ort_logits.pb" | tee "$out/ort.txt"
mkdir -p "$out/data" && cp "$out/model/input_ids.pb" "$out/data/input_0.pb" &&
  cp "$out/ort_logits.pb" "$out/data/output_0.pb"
build/bin/paracc-run "$out/model.pcx" --device cpu --test-data "$out/data" --profile 5 \
  >"$out/paracc.txt" 2>&1
grep -E "output 0" "$out/paracc.txt"
grep -m1 "^profile" "$out/paracc.txt"
sed -n '/^profile/,/^$/p' "$out/paracc.txt" | sed -n 2,8p
python3 - "$out/paracc.txt" "$out/ort.txt" <<'PY'
import re, sys
p = float(re.search(r"([0-9.]+) ms/step", open(sys.argv[1]).read()).group(1))
o = float(re.search(r"median ([0-9.]+) ms", open(sys.argv[2]).read()).group(1))
print(f"RESULT paracc {p:.1f} ms/step, onnxruntime {o:.1f} ms: paracc at {o / p:.2f}x onnxruntime")
PY
