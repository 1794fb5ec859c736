#!/bin/bash
# infer.sh --profiler true --batch 4: options read one word at a time
PROFILER=false
BATCH=1
while [ -n "$1" ]
do
    case "$1" in
        --profiler)
            PROFILER=$2
            shift
            ;;
        --batch)
            BATCH=$2
            shift
            ;;
        *)
            echo "unknown option $1"
            exit 1
            ;;
    esac
    shift
done
cur_path=$(dirname $(readlink -f "$0"))
cd $cur_path/../main
if [ "$PROFILER" == "true" ]; then
    python3 infer.py --batch=$BATCH --profiling
else
    python3 infer.py --batch=$BATCH
fi
