# OPTIONS: --extend-select=NPP2
# Code that is fine at run time and must stay quiet (found by trying the tool as a new user).
import argparse
import tensorflow as tf
from npu_bridge.npu_init import *
from npu_bridge.profiler.profiler import Profiler

parser = argparse.ArgumentParser()
parser.add_argument("--profiling", default="False", choices=["True", "False"])
parser.add_argument("--prof_mode", type=str, default="none", choices=["none", "global", "local"])
args = parser.parse_args()


def str2bool(v):
    return v.lower() in ("yes", "true", "1")


def add_profiling_options(op):
    op.parameter_map["profiling_options"].s = b'{"output":"./prof","task_trace":"on"}'


def switch_on(op):
    op.parameter_map["profiling_mode"].b = True


def options_set_by_a_helper():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if args.profiling == "True":
        custom_op.parameter_map["profiling_mode"].b = True
        add_profiling_options(custom_op)
    return config


def switch_set_by_a_helper():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if str2bool(args.profiling):
        switch_on(custom_op)
        custom_op.parameter_map["profiling_options"].s = b'{"output":"./prof","task_trace":"on"}'
    return config


class Trainer:
    def __init__(self):
        self.config = tf.ConfigProto()
        op = self.config.graph_options.rewrite_options.custom_optimizers.add()
        op.name = "NpuOptimizer"
        if args.prof_mode == "global":
            op.parameter_map["profiling_mode"].b = True
            op.parameter_map["profiling_options"].s = b'{"output":"./prof","task_trace":"on","fp_point":' \
                b'"mobilenet/conv1/Conv2Dmobilenet/conv1/BatchNorm/FusedBatchNormV3","bp_point":"",' \
                b'"training_trace":"on"}'


trainer = Trainer()
with tf.Session(config=trainer.config) as sess:
    if args.prof_mode == "local":
        with Profiler(level="L1", aic_metrics="PipeUtilization", output_path="./local_prof"):
            sess.run(tf.no_op())
