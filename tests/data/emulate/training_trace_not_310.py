# -*- coding: utf-8 -*-
"""LeNet sess.run 训练脚本 (ModelZoo style)."""
import argparse
import os

import tensorflow as tf
from npu_bridge.npu_init import *
from tensorflow.core.protobuf.rewriter_config_pb2 import RewriterConfig

parser = argparse.ArgumentParser()
parser.add_argument("--data_path", type=str, default="./data")
parser.add_argument("--profiling", type=int, default=0, help="1 to enable profiling")
parser.add_argument("--profiling_dump_path", type=str, default="/tmp/profiling")
args = parser.parse_args()

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["use_off_line"].b = True
if args.profiling:
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"' + args.profiling_dump_path + '","training_trace":"on","task_trace":"on",'
        '"aicpu":"on","fp_point":"","bp_point":"","aic_metrics":"PipeUtilization"}')
config.graph_options.rewrite_options.remapping = RewriterConfig.OFF

x = tf.random.uniform([8, 10])
loss = tf.reduce_mean(x)
with tf.Session(config=config) as sess:
    sess.run(loss)
