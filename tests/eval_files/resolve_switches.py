# Switches set from variables and flags: a flag can take either value, so nothing is claimed
# about whether profiling is on; a string where protobuf wants a bool is reported.
import argparse
import tensorflow as tf
from npu_bridge.npu_init import *

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_bool("profiling", False, "collect profiling data")
flags.DEFINE_string("profiling_mode", "true", "on or off")

ENABLE = "True"


def from_bool_flag():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = FLAGS.profiling
    op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p"}'
    return config


def from_string_flag():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = FLAGS.profiling_mode  # NPP010: 44
    op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    return config


def from_constant():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = ENABLE  # NPP010: 44
    op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    return config


def from_local_bool():
    enabled = True
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = enabled  # NPP002: 5
    return config


def from_parameter(profiling):
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = profiling
    return config
