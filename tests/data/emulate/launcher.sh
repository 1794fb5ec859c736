#!/bin/bash
# launcher: profiling through the environment
export PROFILING_MODE=true
export PROFILING_OPTIONS='{"output":"/tmp/npuprof_sh","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'
python3 train.py --steps 100
