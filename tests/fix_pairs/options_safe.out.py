# FIX:
# Safe fixes inside the options JSON: the runtime then does what the text evidently meant.
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/性能",'           # 输出目录
    '"l2":"on","task_trace":"on",'
    '"training_trace":"on","fp_point":"","bp_point":"",'
    '"aic_metrics":"PipeUtilization",'
    '"storage_limit":"2048MB",'
    '"aicpu":"on"}')
sess = tf.Session(config=npu_config_proto(config_proto=config))


def dict_quoting():
    cfg = tf.ConfigProto()
    op = cfg.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = b"{\"output\": \"./prof\", \"task_trace\": \"on\"}"
    return cfg


def trace_off():
    cfg = tf.ConfigProto()
    op = cfg.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = b'{"output":"./prof","task_trace":"on"}'
    return cfg
