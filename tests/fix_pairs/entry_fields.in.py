# FIX: --unsafe-fixes
# The NpuOptimizer entry: name, AttrValue fields, str options, missing switch or options.
import os
import tensorflow as tf
from npu_bridge.npu_init import *

OPTIONS = '{"output":"./prof","task_trace":"on"}'


def misnamed_and_typed():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "npu_optimizer"
    custom_op.parameter_map["profiling_mode"].b = "True"
    custom_op.parameter_map["profiling_options"].s = OPTIONS
    return config


def wrong_fields():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].s = b"true"  # 采集开关
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(OPTIONS)
    return config


def precision_mixup():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map['precision_mode'].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(OPTIONS)
    return config


def switch_off_in_branch(flags):
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if flags.profiling:
        custom_op.parameter_map["profiling_mode"].b = False
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(OPTIONS)
    return config


def switch_missing():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(OPTIONS)
    return config


def options_missing():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    return config


def environment():
    os.environ["PROFILING_MODE"] = "True"
    os.environ["PROFILING_OPTIONS"] = OPTIONS
