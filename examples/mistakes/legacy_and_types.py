"""A script migrated from a 2020 template: old option format and wrong protobuf fields."""
import tensorflow as tf
from npu_bridge.npu_init import *


def session_config(profiling):
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NPUOptimizer"
    custom_op.parameter_map["use_off_line"].b = True
    if profiling:
        custom_op.parameter_map["profiling_mode"].b = "True"
        custom_op.parameter_map["profiling_options"].s = "training_trace:task_trace"
    return config


def dump_and_profile():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["enable_dump"].b = True
    custom_op.parameter_map["dump_path"].s = tf.compat.as_bytes("/tmp/dump")
    return config


sess = tf.Session(config=npu_config_proto(config_proto=session_config(True)))
