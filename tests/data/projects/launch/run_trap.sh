#!/bin/bash
# meant to train without profiling
cd "$(dirname "$0")"
python3 train.py --profiling=False --epochs 3
