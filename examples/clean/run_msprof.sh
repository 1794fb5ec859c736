#!/bin/bash
# Profile a short run with msprof: its flags decide what is collected (checked by `npuprof check`).
cd "$(dirname "$0")"
export RANK_SIZE=1
msprof --output=/tmp/prof --task-time=on --ai-core=on \
    --aic-metrics=PipeUtilization --storage-limit=2048MB \
    python3 sess_run_resnet.py --steps 20
