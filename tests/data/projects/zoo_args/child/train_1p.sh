#!/bin/bash
# train_1p.sh DEVICE_ID PROFILING
export ASCEND_DEVICE_ID=$1
PROF=${2:-False}
cd $(dirname $0)
python3 train.py --profiling=$PROF
