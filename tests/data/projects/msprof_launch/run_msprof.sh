#!/bin/bash
# msprof runs the training script: its flags and msprof's decide what is collected
cur_path=$(cd "$(dirname "$0")"; pwd)
cd ${cur_path}
msprof --output=/tmp/msprof_out --aic-metrics=PipeUtilization --hccl=on python3 train.py --profiling=True --epochs=2
