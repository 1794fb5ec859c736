# Estimator: the session config reaches GE only through RunConfig(session_config=...).
import tensorflow as tf
from npu_bridge.npu_init import *


def model_fn(features, labels, mode):
    return tf.estimator.EstimatorSpec(mode, loss=tf.constant(0.0), train_op=tf.no_op())


session_config = tf.ConfigProto()
custom_op = session_config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'

run_config = tf.estimator.RunConfig(model_dir="/tmp/model", save_checkpoints_steps=100)  # NPP007: 14
estimator = tf.estimator.Estimator(model_fn=model_fn, config=npu_run_config_init(run_config=run_config))
