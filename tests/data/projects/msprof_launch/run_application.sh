#!/bin/bash
cd "$(dirname "$0")"
export ASCEND_WORK_PATH=/tmp/msprof_work
msprof --application="python3 train.py --epochs=3" --task-time=l1
