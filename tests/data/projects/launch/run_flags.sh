#!/bin/bash
cur_path=$(cd "$(dirname "$0")"; pwd)
cd ${cur_path}
OPTS='{"output": "/tmp/prof_flags", "task_trace": "of"}'
for i in $(seq 0 7); do
  export DEVICE_ID=$i
  RANK_ID=$i nohup python3 -u train.py --profiling=True --profiling_options="$OPTS" > train_$i.log 2>&1 &
done
wait
