#!/usr/bin/env bash
# The CPU cost model per op under the load of a pipeline: runs RANKS
# (default 8) copies of each one-rank training step that
# bench/prepare-pipeline-cpu.sh wrote (*_one, or those matching the glob $1)
# at once, one core each (OPENBLAS_NUM_THREADS=1), each with
# `--profile STEPS` (default 2) and --profile-json, then prints
# bench/cost_model_summary.py's predicted-vs-measured table of each copy.
# The copies share the host's memory bandwidth as a pipeline's ranks do.
# Run from the repository root on the many-core machine (carry
# .devrun/pipeline); the JSON and the summary go to $OUT (default out/).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source bench/pipeline-cpu-env.sh
ranks=${RANKS:-8}
steps=${STEPS:-2}
echo "$(nproc --all) cores, $ranks copies at once"
for pcx in "$dir"/${1:-*_one}.pcx; do
  name=$(basename "$pcx" .pcx)
  pids=()
  for r in $(seq 0 $((ranks - 1))); do
    run "$pcx" --device cpu --profile "$steps" \
      --profile-json "$res/$name.copy$r.json" >"$res/$name.copy$r.log" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  python3 "$dir/cost_model_summary.py" "$res/$name".copy*.json | tee -a "$OUT/summary.txt"
  cp "$res/$name".copy*.json "$OUT/"
done
