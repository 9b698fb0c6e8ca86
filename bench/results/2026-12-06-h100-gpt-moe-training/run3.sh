#!/usr/bin/env bash
# GPT-MoE (8 experts, top-2, hidden 1024, 8 layers, seq 1024, batch 8, bf16)
# training: paracc's executable, then the transformers peer (grouped_mm
# experts, eager and torch.compile; the eager experts loop too).
set -u
out=${OUT:-/tmp/out}
d=.devrun/moebench
mkdir -p /tmp/pb "$out"
tar -C /tmp/pb -xJf .devrun/mini3/bin.tar.xz
export LD_LIBRARY_PATH=/tmp/pb/bin/lib:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
B=/tmp/pb/bin
nvidia-smi --query-gpu=name --format=csv,noheader
python3 -c "import numpy as np; np.random.default_rng(1).integers(0, 50304, 8 * 1024 * 32).astype(np.uint16).tofile('/tmp/tokens.u16')"
$B/paracc-run $d/gpt-moe_train_b8_s1024.pcx --device gpu --data /tmp/tokens.u16 --steps 25 --lr 1e-4 --log-json "$out/paracc.jsonl" > "$out/paracc.log" 2>&1
echo "paracc exit $?"; grep -E "error|fallback|memory" "$out/paracc.log" | head -4
python3 - "$out/paracc.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ms = statistics.median(r["ms"] for r in rows[5:])
print(f"RESULT paracc train [8,1024]: {ms:.2f} ms/step, {8192 / ms * 1e3:,.0f} tok/s; losses {[round(r['loss'], 3) for r in rows[:5]]}")
PY
for run in "compile grouped_mm --bf16-params"; do
  set -- $run
  timeout 300 python3 $d/hf_decoder_torch.py $d/gpt-moe.peer.json --mode $1 --experts $2 ${3:-} --batch 8 --seq 1024 > "$out/peer-$1-$2${3:-}.log" 2>&1
  echo "peer $1 $2 ${3:-} exit $?"; grep RESULT "$out/peer-$1-$2${3:-}.log" || tail -3 "$out/peer-$1-$2${3:-}.log"
done
