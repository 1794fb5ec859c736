#!/bin/bash
# Why 7: a bad PROFILING_OPTIONS for a script that sets its own options (GE then reads the script's)
cd "$(dirname "$0")"
export PROFILING_MODE=true
export PROFILING_OPTIONS='{"output":"/tmp/prof_env","L2":"on"}'
python3 train.py
