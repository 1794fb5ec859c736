#!/bin/bash
# 8-device launcher copied from an old README (checked by `npuprof check`).
cd "$(dirname "$0")"
export RANK_SIZE=8
export PROFILING_MODE=True
export PROFILING_OPTIONS="training_trace:task_trace"
for i in $(seq 0 7); do
    DEVICE_ID=$i python3 ../clean/sess_run_resnet.py &
done
wait
