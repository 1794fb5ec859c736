#!/bin/bash
# Why 2: eight ranks, then two msprof lines msprof refuses
cd "$(dirname "$0")"
for i in $(seq 0 7); do
    DEVICE_ID=$i python3 train.py &
done
wait
msprof --output=/tmp/msprof_out --aicore=on python3 train.py
msprof --output=/tmp/msprof_out --aic-metrics=Bogus python3 train.py
