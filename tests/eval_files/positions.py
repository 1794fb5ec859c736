# -*- coding: utf-8 -*-
# Columns are characters, inside the literal piece that holds the offending key or value.
import tensorflow as tf
from npu_bridge.npu_init import *

配置 = tf.ConfigProto()  # 中文变量名
op = 配置.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/性能","L2":"on"}')  # NPP101: 83


def concatenated():
    cfg = tf.ConfigProto()
    o = cfg.graph_options.rewrite_options.custom_optimizers.add()
    o.name = "NpuOptimizer"
    o.parameter_map["profiling_mode"].b = True
    o.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"/tmp/p",'  # 输出目录
        '"task_trace":"on",'
        '"aicpu":"ON"}')  # NPP102: 18
    return cfg


def continued():
    cfg = tf.ConfigProto()
    o = cfg.graph_options.rewrite_options.custom_optimizers.add()
    o.name = "NpuOptimizer"
    o.parameter_map["profiling_mode"].b = True
    o.parameter_map["profiling_options"].s = \
        b'{"output":"/tmp/p","task_trace":"on",' \
        b'"hccl":"yes"}'  # NPP102: 18
    return cfg


def escaped():
    cfg = tf.ConfigProto()
    o = cfg.graph_options.rewrite_options.custom_optimizers.add()
    o.name = "NpuOptimizer"
    o.parameter_map["profiling_mode"].b = True
    o.parameter_map["profiling_options"].s = "{\"output\":\"/tmp/p\",\"task_trace\":\"on\",\"l2\":\"On\"}".encode()  # NPP102: 99
    return cfg


def raw_and_fstring():
    cfg = tf.ConfigProto()
    o = cfg.graph_options.rewrite_options.custom_optimizers.add()
    o.name = "NpuOptimizer"
    o.parameter_map["profiling_mode"].b = True
    o.parameter_map["profiling_options"].s = (r'{"output":"/tmp/p",' f'"task_trace":"on","msproftx":"1"}}').encode()  # NPP102: 101
    return cfg


def triple_quoted():
    cfg = tf.ConfigProto()
    o = cfg.graph_options.rewrite_options.custom_optimizers.add()
    o.name = "NpuOptimizer"
    o.parameter_map["profiling_mode"].b = True
    o.parameter_map["profiling_options"].s = tf.compat.as_bytes("""{
        "output": "/tmp/p",
        "task_trace": "on",
        "runtime_api": "true"
    }""")
    # expect: 62:24 NPP102
    return cfg

sess = tf.Session(config=npu_config_proto(config_proto=配置))
