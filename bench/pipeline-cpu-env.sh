# Sourced by run-pipeline-cpu.sh and profile-cpu-ranks.sh (from the
# repository root): unpacks what bench/prepare-pipeline-cpu.sh carried in
# .devrun/pipeline (paracc-run with its libraries and loader, the compiled
# steps), defines `run` (paracc-run through the carried loader) and gives
# each rank one core (OPENBLAS_NUM_THREADS=1). Sets dir, res and OUT.
dir=.devrun/pipeline
OUT=${OUT:-out}
res=$dir/out
mkdir -p "$OUT" "$dir/bin" "$res"
tar -C "$dir/bin" -xJf "$dir/bin.tar.xz"
tar -C "$dir" -xJf "$dir/steps.tar.xz"
run() {
  "$dir/bin/lib/ld-linux-x86-64.so.2" --library-path "$dir/bin/lib" \
    "$dir/bin/paracc-run" "$@"
}
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
