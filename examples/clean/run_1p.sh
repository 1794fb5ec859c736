#!/bin/bash
# Single-device launcher: profiling through environment variables (checked by `npuprof check`).
cd "$(dirname "$0")"
export RANK_SIZE=1
export PROFILING_MODE=true
export PROFILING_OPTIONS='{"output":"/var/log/npu/profiling","task_trace":"on","aicpu":"on"}'
python3 sess_run_resnet.py --steps 200
