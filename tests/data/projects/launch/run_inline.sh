#!/bin/bash
cd "$(dirname "$0")"
PROFILING_MODE=True PROFILING_OPTIONS='{"output": "/tmp/prof_inline", "task_trace": "on"}' python3 train_env.py
