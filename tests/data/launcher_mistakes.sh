#!/bin/bash
# 单卡训练脚本
export RANK_SIZE=1
export PROFILING_MODE=True
export PROFILING_OPTIONS='{"output":"/home/yz/profiling",
                           "training_trace":"on",
                           "task_trace":"ON",
                           "aicpu":"on"}'
# export PROFILING_OPTIONS='{"L2":"on"}'
echo "PROFILING_OPTIONS={\"L2\":\"on\"}"
PROFILING_MODE=true PROFILING_OPTIONS="{\"output\":\"${OUT_DIR}/prof\",\"task_trace\":\"on\",\"Aicpu\":\"on\"}" python3 train.py --data_path=$DATA
export PROFILING_OPTIONS=training_trace:task_trace
