#!/usr/bin/env bash
# Runs what bench/prepare-pipeline-cpu.sh prepared (all of it, or the
# executables matching the glob $1, e.g. 'gpt2head*'), one CPU core per rank
# (OPENBLAS_NUM_THREADS=1), and prints bench/pipeline_summary.py's table:
# tokens/s, measured and predicted bubble, per-stage measured time.
# Keeps the timelines (JSON + SVG) and logs in .devrun/pipeline/out and
# copies the summary and the SVG charts to $OUT (default out/).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source bench/pipeline-cpu-env.sh
nproc --all
steps=${STEPS:-5}
for pcx in "$dir"/${1:-*}.pcx; do
  name=$(basename "$pcx" .pcx)
  echo "== $name"
  run "$pcx" --device cpu --data "$dir/tokens.u16" --steps "$steps" --lr 1e-4 \
    --log-json "$res/$name.jsonl" --timeline "$res/$name.json" | tail -2
  cp "$dir/$name.explain.json" "$res/"
done
python3 "$dir/pipeline_summary.py" "$res" | tee "$OUT/summary.txt"
cp "$res"/*pp*.svg "$OUT/"
