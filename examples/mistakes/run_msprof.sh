#!/bin/bash
# Profile a short run with msprof; flags guessed from other profilers (checked by `npuprof check`).
cd "$(dirname "$0")"
export RANK_SIZE=1
msprof --output /tmp/prof --timeline=on --aicore=on \
    --aic_metrics=PipeUtilisation --storage-limit=2GB \
    python3 ../clean/sess_run_resnet.py --steps 20
