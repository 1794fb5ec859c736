#!/bin/bash
cd "$(dirname "$0")"
msprof --output=/tmp/msprof_out --timeline=on --aic-metrics=PipeUtilisation python3 train.py --profiling=True
