#!/bin/bash
# absl flags defined in hyperparameters.py, passed here
cd "$(dirname "$0")"
python3 train.py --profiling --profiling_options='{"output": "/tmp/sibling", "task_trace": "on", "aic_metrics": "PipeUtilisation"}'
