#!/bin/bash
# Why 3: a script name with a typo
cd "$(dirname "$0")"
python3 trian.py
