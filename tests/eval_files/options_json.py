# Every NPP1xx mistake on the NpuOptimizer route, with the default target (any CANN, any product).
import tensorflow as tf
from tensorflow.python.util import compat
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/p","L2":"on","task_trace":"ON"}')  # NPP101: 89, NPP102: 112


def legacy():
    cfg = tf.ConfigProto()
    op = cfg.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = b"training_trace:task_trace"  # NPP100: 49
    return cfg


def python_quoting():
    cfg = tf.ConfigProto()
    op = cfg.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = compat.as_bytes("{'output': '/tmp/p', 'task_trace': 'on'}")  # NPP100: 65
    return cfg


class Profiled:
    def __init__(self):
        self.config = tf.ConfigProto()
        self.op = self.config.graph_options.rewrite_options.custom_optimizers.add()
        self.op.name = "NpuOptimizer"

    def switch_on(self):
        self.op.parameter_map["profiling_mode"].b = True
        self.op.parameter_map["profiling_options"].s = as_bytes(
            '{"output":"/tmp/p","training_trace":"off","fp_point":"a/b","bp_point":""}')  # NPP103: 50
        # no NPP105 for "fp_point": GE initialisation fails first, so "GE ignores it" is not claimed

    def session(self):
        return tf.Session(config=npu_config_proto(config_proto=self.config))


def trace_points():
    c = tf.ConfigProto()
    o = c.graph_options.rewrite_options.custom_optimizers.add()
    o.name = "NpuOptimizer"
    o.parameter_map["profiling_mode"].b = True
    o.parameter_map["profiling_options"].s = '{"output":"/tmp/p","training_trace":"on","task_trace":"on"}'.encode()  # NPP104: 66
    return c


def values():
    c = tf.ConfigProto()
    o = c.graph_options.rewrite_options.custom_optimizers.add()
    o.name = "NpuOptimizer"
    o.parameter_map["profiling_mode"].b = True
    o.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"/tmp/p","task_trace":"on","aic_metrics":"PipeUtilisation","storage_limit":"2GB",'
        '"aicpu":true,"task_trace":"off","dvpp_freq":0}')  # NPP110: 18, NPP109: 54
    return c


def output_path():
    c = tf.ConfigProto()
    o = c.graph_options.rewrite_options.custom_optimizers.add()
    o.name = "NpuOptimizer"
    o.parameter_map["profiling_mode"].b = True
    # only some CANN 8.0 builds refuse these characters: nothing under the default target (audit C5)
    o.parameter_map["profiling_options"].s = b'{"output":"/tmp/$USER;x","task_trace":"on"}'
    return c


def not_an_object():
    c = tf.ConfigProto()
    o = c.graph_options.rewrite_options.custom_optimizers.add()
    o.name = "NpuOptimizer"
    o.parameter_map["profiling_mode"].b = True
    o.parameter_map["profiling_options"].s = b'["output", "/tmp"]'  # NPP100: 48
    return c

sess = tf.Session(config=npu_config_proto(config_proto=config))
# expect: 62:29 NPP111
# expect: 62:61 NPP106
# expect: 62:95 NPP107
