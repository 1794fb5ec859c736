#!/bin/bash
cd ${CODE_DIR}
python3 train.py --profiling=False
