#!/bin/bash
cur_path=`pwd`
export RANK_SIZE=1
data_path=""
profiling=False
if [[ $1 == --help || $1 == -h ]];then
    echo "usage:./train_full_1p.sh <args>"
    echo "    --profiling      if or not profiling for performance debug, default is False"
    exit 1
fi
for para in $*
do
    if [[ $para == --precision_mode* ]];then
        precision_mode=`echo ${para#*=}`
    elif [[ $para == --profiling* ]];then
        profiling=`echo ${para#*=}`
        profiling_dump_path=${cur_path}/output/profiling
        mkdir -p ${profiling_dump_path}
    elif [[ $para == --data_path* ]];then
        data_path=`echo ${para#*=}`
    fi
done
if [[ $data_path == "" ]];then
    echo "[Error] para \"data_path\" must be confing"
    exit 1
fi
mkdir -p ${cur_path}/output
cd $cur_path/../
python3 ./src/train.py --data_path=${data_path} --epochs=1 > ${cur_path}/output/train.log 2>&1
