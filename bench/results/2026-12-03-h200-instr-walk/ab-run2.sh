#!/usr/bin/env bash
set -u
D=build-walk/device
W=/tmp/w; mkdir -p $W /tmp/b /tmp/c && tar -C /tmp/b -xJf $D/bins.tar.xz && tar -C /tmp/c -xJf .devrun/common/bin.tar.xz && cp /tmp/c/bin/paracc-run /tmp/b/new/paracc-run
site="$(python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null)"
for d in "$site"/nvidia/*/lib /usr/local/cuda/lib64; do
  [ -d "$d" ] && export LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done
export LD_LIBRARY_PATH=/tmp/b/lib:${LD_LIBRARY_PATH:-} NCCL_NVLS_ENABLE=0
med() { python3 -c "
import json,statistics,sys
r=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(f'{len(r)} steps, median ms (after 5) {statistics.median(x[\"ms\"] for x in r[5:]):.3f}')" $1; }
for v in base new; do
  R=/tmp/b/$v/paracc-run
  $R $D/data/gpt406_bf16.pcx --device gpu --data $D/data/gpt406_tokens.u16 --steps 25 --lr 1e-4 --log-json $W/g-$v.jsonl >$W/g-$v.log 2>&1
  echo "$v gpt406 bf16 exit $?"; med $W/g-$v.jsonl
done
for v in base new base new; do
  /tmp/b/$v/paracc-run $D/data/gpt406_bf16.pcx --device gpu --profile 2 --rtol 1e9 --atol 1e9 >$W/prof-$v.log 2>&1
  echo "$v profile exit $?"; grep -A3 '^profile' $W/prof-$v.log; grep foreach $W/prof-$v.log
done
