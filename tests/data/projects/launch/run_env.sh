#!/bin/bash
cd "$(dirname "$0")"
source scripts/npu_set_env.sh
python3 train_env.py
