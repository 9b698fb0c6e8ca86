#!/usr/bin/env bash
# Measures the planner's candidates (bench/prepare-plan-quality.sh) on the
# device machine: the GPU ones on its GPU (the runtime of
# .devrun/common/bin.tar.xz), the CPU ones as 8 CPU ranks, one core each;
# then bench/plan_quality.py's predicted-vs-measured table per search.
# Run from the repository root (carry .devrun); results go to $OUT.
set -uo pipefail
export NCCL_NVLS_ENABLE=0 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
dir=${PLAN_DIR:-.devrun/plan}
OUT=${OUT:-out}
STEPS=${STEPS:-12}
mkdir -p "$OUT" "$dir/steps" "$dir/cpubin" /tmp/paracc-bin
tar -C "$dir/steps" -xJf "$dir/steps.tar.xz"
tar -C "$dir/cpubin" -xJf "$dir/bin.tar.xz"
tar -C /tmp/paracc-bin -xJf .devrun/common/bin.tar.xz
site="$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null)"
for d in "$site"/nvidia/*/lib /usr/local/cuda/lib64; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done
export LD_LIBRARY_PATH="/tmp/paracc-bin/bin/lib:${LD_LIBRARY_PATH:-}"
cpurun() {
  "$dir/cpubin/lib/ld-linux-x86-64.so.2" --library-path "$dir/cpubin/lib" \
    "$dir/cpubin/paracc-run" "$@"
}
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/gpus.txt"
echo "$(nproc --all) cores" | tee -a "$OUT/gpus.txt"
# What `--cluster local` finds here (the same probe as the compiler's).
/tmp/paracc-bin/bin/paracc-run --devices | tee -a "$OUT/gpus.txt"
for pcx in "$dir"/steps/*.pcx; do
  name=$(basename "$pcx" .pcx)
  case $name in
  gpu*) /tmp/paracc-bin/bin/paracc-run "$pcx" --device gpu --data "$dir/tokens.u16" \
    --steps "$STEPS" --lr 1e-4 --log-json "$OUT/$name.jsonl" >"$OUT/$name.log" 2>&1 ;;
  cpu_*) cpurun "$pcx" --device cpu --data "$dir/tokens.u16" --steps "$STEPS" \
    --lr 1e-4 --log-json "$OUT/$name.jsonl" >"$OUT/$name.log" 2>&1 ;;
  esac
  echo "$name: exit $? $(grep -m1 -i error "$OUT/$name.log")"
done
for plan in "$dir"/*.json; do
  python3 "$dir/plan_quality.py" "$plan" "$OUT" | tee -a "$OUT/summary.txt"
done
cp "$dir"/*.json "$dir"/*.txt "$OUT/"
