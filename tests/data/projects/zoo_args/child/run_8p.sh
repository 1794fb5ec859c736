#!/bin/bash
# run_8p.sh: starts train_1p.sh per device with the device id and the profiling switch
for i in $(seq 0 7); do
    bash train_1p.sh $i True &
done
wait
