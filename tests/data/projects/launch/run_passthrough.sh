#!/bin/bash
cd "$(dirname "$0")"
source /usr/local/Ascend/ascend-toolkit/set_env.sh
python3 train.py --epochs 3 "$@"
