"""Profiling configured but never reaching GE: the job runs for hours and collects nothing."""
import tensorflow as tf
from npu_bridge.npu_init import *

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_boolean("profiling", False, "collect Ascend profiling data")


def model_fn(features, labels, mode):
    return tf.estimator.EstimatorSpec(mode, loss=tf.constant(0.0), train_op=tf.no_op())


def estimator():
    session_config = tf.ConfigProto()
    custom_op = session_config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if FLAGS.profiling:
        # copied from a model-zoo template: the switch is off inside the profiling branch
        custom_op.parameter_map["profiling_mode"].b = False
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
            '{"output":"./profiling","task_trace":"on"}')
    run_config = tf.estimator.RunConfig(model_dir="./model", save_checkpoints_steps=1000)
    return tf.estimator.Estimator(model_fn=model_fn, config=npu_run_config_init(run_config=run_config))


def sess_run():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"./profiling","task_trace":"on"}')
    return tf.Session(config=npu_config_proto())
