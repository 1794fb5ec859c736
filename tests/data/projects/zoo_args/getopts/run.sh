#!/bin/bash
# run.sh -p True -d /data [extra flags for train.py]
PROF=False
DATA=""
while getopts "p:d:" opt; do
    case $opt in
        p) PROF=$OPTARG ;;
        d) DATA=$OPTARG ;;
        *) exit 1 ;;
    esac
done
shift $((OPTIND - 1))
cd $(cd $(dirname $0); pwd)
python3 train.py --data=$DATA --profiling=$PROF "$@"
