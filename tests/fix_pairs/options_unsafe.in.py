# FIX: --unsafe-fixes
# Unsafe fixes inside the options JSON: they change what is collected or guess the intent.
import tensorflow as tf
from npu_bridge.npu_init import *


def session_config():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        "{\"output\":\"/tmp/p\",\"result_path\":\"x\",\"hccl\":\"true\",\"aicpu\":true,"
        "\"storage_limit\":\"100MB\",\"fp_point\":\"conv1/Conv2D\",\"task_trace\":\"on\"}")
    return config


def legacy():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b"training_trace:task_trace"
    return config


def storage_number():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"./p","task_trace":"on","storage_limit":2048}'
    return config


def points_without_trace():
    # NPP105 (unsafe): the point GE ignores is dropped; beside a fatal finding (result_path above)
    # it is held back, since GE never gets that far
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"./p","fp_point":"conv1/Conv2D","task_trace":"on"}'
    return config
