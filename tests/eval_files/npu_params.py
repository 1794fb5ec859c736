# The NpuOptimizer entry itself: name, AttrValue fields, duplicates, switch without options, dump.
import tensorflow as tf
from npu_bridge.npu_init import *


def misnamed():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NPUOptimizer"  # NPP003: 22
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    return config


def unnamed():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()  # NPP003: 17
    custom_op.parameter_map["use_off_line"].b = True
    return config


def other_optimizer():
    config = tf.ConfigProto()
    pruning = config.graph_options.rewrite_options.custom_optimizers.add()
    pruning.name = "pruning"
    pruning.parameter_map["ratio"].f = 0.5
    return config


def tensorrt():
    # TF-TRT's own optimizer takes precision_mode too: not an NPU entry
    config = tf.ConfigProto()
    trt = config.graph_options.rewrite_options.custom_optimizers.add()
    trt.name = "TensorRTOptimizer"
    trt.parameter_map["minimum_segment_size"].i = 3
    trt.parameter_map["is_dynamic_op"].b = True
    trt.parameter_map["precision_mode"].s = b"FP16"
    return config


def shared_name_only_unnamed():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.parameter_map["precision_mode"].s = b"FP16"
    return config


def npu_only_parameter_on_another_name():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "MyOptimizer"  # NPP003: 15
    op.parameter_map["precision_mode"].s = b"allow_mix_precision"
    op.parameter_map["enable_dump"].b = True
    return config


def near_miss_with_a_shared_parameter():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "npu_optimiser"  # NPP003: 15
    op.parameter_map["precision_mode"].s = b"allow_mix_precision"
    return config


def wrong_fields():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].s = b"true"  # NPP004: 5
    custom_op.parameter_map["profiling_options"].b = True  # NPP004: 5
    return config


def precision_instead_of_profiling():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["precision_mode"].b = True  # NPP004: 5
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"/tmp/p","task_trace":"on"}')
    return config


def precision_string_then_bool(profiling):
    # the .b empties the string set before it (one oneof): the adapter refuses precision_mode ''
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["precision_mode"].s = tf.compat.as_bytes("allow_mix_precision")
    if profiling:
        custom_op.parameter_map["precision_mode"].b = True  # NPP004: 9
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
            '{"output":"/tmp/p","task_trace":"on"}')
    return config


def precision_bool_then_string():
    # a later .s replaces the .b: the .b does nothing, and profiling_mode is never set
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["precision_mode"].b = True  # NPP004: 5
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"/tmp/p","task_trace":"on"}')
    custom_op.parameter_map["precision_mode"].s = tf.compat.as_bytes("allow_mix_precision")
    return config


def str_options_and_string_switch():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = "True"  # NPP010: 51
    custom_op.parameter_map["profiling_options"].s = '{"output":"/tmp/p","task_trace":"on"}'  # NPP005: 54
    return config


def no_options():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True  # NPP002: 5
    return config


def empty_options():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = 1  # NPP002: 5
    custom_op.parameter_map["profiling_options"].s = b""
    return config


def two_entries():
    config = tf.ConfigProto()
    first = config.graph_options.rewrite_options.custom_optimizers.add()
    first.name = "NpuOptimizer"
    first.parameter_map["profiling_mode"].b = True
    second = config.graph_options.rewrite_options.custom_optimizers.add()  # NPP009: 14
    second.name = "NpuOptimizer"
    second.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    return config


def entries_in_exclusive_branches(use_dump):
    config = tf.ConfigProto()
    if use_dump:
        op = config.graph_options.rewrite_options.custom_optimizers.add()
        op.name = "NpuOptimizer"
    else:
        op = config.graph_options.rewrite_options.custom_optimizers.add()
        op.name = "NpuOptimizer"
    return config


def dump_and_profiling():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    custom_op.parameter_map["enable_dump"].b = True  # NPP202: 5
    custom_op.parameter_map["dump_path"].s = b"/tmp/dump"
    return config


def dump_behind_its_own_flag(flags):
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    if flags.dump:
        custom_op.parameter_map["enable_dump_debug"].b = True
    return config


def added_with_name():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add(name="NpuOptimizer")
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on","L2":"on"}'  # NPP101: 93
    return config


if False:
    dead = tf.ConfigProto()
    op = dead.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimzer"
    op.parameter_map["profiling_options"].s = "not json"
