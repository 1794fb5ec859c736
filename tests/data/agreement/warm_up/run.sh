#!/bin/bash
# Why 2: a warm-up run, then the profiled run under msprof with a metric set msprof refuses
cd "$(dirname "$0")"
python3 train.py
msprof --output=/tmp/msprof_out --aic-metrics=PipeUtilisation python3 train.py
