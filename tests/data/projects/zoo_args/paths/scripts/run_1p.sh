#!/bin/bash
# the directory idioms of launchers, each leading to ../main
here=$(cd "$(dirname "${BASH_SOURCE[0]}")"; pwd)
top=$(realpath $here/..)
export PROFILING_MODE=true
export PROFILING_OPTIONS='{"output":"/tmp/prof_paths","task_trace":"on"}'
cd $top/main
python3 train.py
