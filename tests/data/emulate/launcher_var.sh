#!/bin/bash
cur_path=$(pwd)
export RANK_SIZE=8
export JOB_ID=10087
# 开启profiling
export PROFILING_MODE=true
export PROFILING_OPTIONS="{\"output\":\"${cur_path}/output/profiling\",\"training_trace\":\"on\",\"task_trace\":\"on\",\"fp_point\":\"\",\"bp_point\":\"\",\"aic_metrics\":\"PipeUtilization\"}"
for((RANK_ID=0;RANK_ID<RANK_SIZE;RANK_ID++)); do
    export RANK_ID=$RANK_ID
    export ASCEND_DEVICE_ID=$RANK_ID
    python3 train.py --data_path=/data > ${cur_path}/output/train_${RANK_ID}.log 2>&1 &
done
wait
