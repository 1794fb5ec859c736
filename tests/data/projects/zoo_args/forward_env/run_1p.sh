#!/bin/bash
# run_1p.sh: takes --profiling=True/False and switches GE's profiling through the environment
profiling=False
for para in $*
do
    case $para in
        --profiling=*)
            profiling=${para#*=}
            ;;
        --epochs=*)
            epochs=${para#*=}
            ;;
    esac
done
if [ "$profiling" = "True" ]; then
    export PROFILING_MODE=true
    export PROFILING_OPTIONS='{"output":"/tmp/profiling","task_trace":"on"}'
fi
cd "$(dirname "$0")"
python3 train.py
