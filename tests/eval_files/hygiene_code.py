# OPTIONS: --extend-select=NPP2
# Hygiene: profiling switched on unconditionally; argparse flags that turn "False" into true.
import argparse
import tensorflow as tf
from npu_bridge.npu_init import *

parser = argparse.ArgumentParser()
parser.add_argument("--profiling", default=False, help="collect profiling data")  # NPP205: 21
parser.add_argument("--dump", type=bool, default=False)
parser.add_argument("--fast", action="store_true")
args = parser.parse_args()

always = tf.ConfigProto()
op = always.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True  # NPP201: 1
op.parameter_map["profiling_options"].s = b'{"output":"prof","task_trace":"on"}'
sess = tf.Session(config=always)


def guarded():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if args.profiling:
        custom_op.parameter_map["profiling_mode"].b = True
        custom_op.parameter_map["profiling_options"].s = b'{"output":"prof","task_trace":"on"}'
    if args.fast:
        custom_op.parameter_map["enable_dump"].b = args.dump
    return config


def enable_profiling(config):
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = b'{"output":"prof","task_trace":"on"}'
