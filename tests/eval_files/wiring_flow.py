# Where the profiling config goes: handed to a session or helper (fine), or nowhere.
import tensorflow as tf
from npu_bridge.npu_init import *
from keras import backend as K


def profiling_config():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    return config


def returned_and_used():
    with tf.Session(config=npu_config_proto(config_proto=profiling_config())) as sess:
        sess.run(tf.no_op())


def never_handed_over():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True  # NPP006: 5
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    sess = tf.Session(config=tf.ConfigProto())
    return sess


def positional_and_monitored(hooks):
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    with tf.train.MonitoredTrainingSession(hooks=hooks, config=config) as sess:
        sess.run(tf.no_op())
    K.set_session(tf.Session("", None, config))


class Trainer:
    def __init__(self):
        self.config = tf.ConfigProto()
        op = self.config.graph_options.rewrite_options.custom_optimizers.add()
        op.name = "NpuOptimizer"
        op.parameter_map["profiling_mode"].b = True
        op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'

    def session(self):
        return tf.Session(config=self.config)


def handed_to_unknown_code(launcher):
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    launcher.start(config)


def model_zoo_switch_off(flags):
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if flags.profiling:
        custom_op.parameter_map["profiling_mode"].b = False  # NPP001: 55
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
            '{"output":"/tmp/p","task_trace":"on"}')
    return config


def options_without_switch():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'  # NPP001: 5
    return config


def legacy_points():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    custom_op.parameter_map["fp_point"].s = b"resnet/conv1/Conv2D"  # NPP014: 5
    return config
