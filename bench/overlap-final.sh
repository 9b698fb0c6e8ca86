# Exposed communication of the final tp2 / tp2+SP programs (run 13): the
# same step with every collective skipped (results wrong on purpose), next
# to the real one and to one GPU. On the GPU machine, from the repository
# root: source bench/overlap-final.sh
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
bench real one/gpt406_bf16 X=1
bench real two/gpt406_bf16_tp2 X=1
bench nocomm two/gpt406_bf16_tp2 PARACC_DEBUG_SKIP_COLLECTIVES=1
bench real two/gpt406_bf16_tp2sp X=1
bench nocomm two/gpt406_bf16_tp2sp PARACC_DEBUG_SKIP_COLLECTIVES=1
bench real two/gpt406_bf16_tp2_mb2 X=1
bench nocomm two/gpt406_bf16_tp2_mb2 PARACC_DEBUG_SKIP_COLLECTIVES=1
bench minch32 two/gpt406_bf16_tp2 NCCL_MIN_NCHANNELS=32
