#!/bin/bash
cd "$(dirname "$0")"
python3 train.py --epochs 3
