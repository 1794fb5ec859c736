#!/bin/bash
cd "$(dirname "$0")"
PROFILING_MODE=true
export PROFILING_OPTIONS='{"output": "/tmp/prof_noexport", "task_trace": "on"}'
python3 train_env.py
