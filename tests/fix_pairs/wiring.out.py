# FIX: --unsafe-fixes
# Wiring: the profiling config handed to the RunConfig / helper that missed it.
import tensorflow as tf
from npu_bridge.npu_init import *
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig


def model_fn(features, labels, mode):
    return tf.estimator.EstimatorSpec(mode, loss=tf.constant(0.0), train_op=tf.no_op())


def estimator():
    session_config = tf.ConfigProto()
    custom_op = session_config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"./p","task_trace":"on"}'
    run_config = tf.estimator.RunConfig(model_dir="/tmp/m",
                                        save_checkpoints_steps=100, session_config=session_config)
    return tf.estimator.Estimator(model_fn=model_fn, config=npu_run_config_init(run_config=run_config))


def sess_run():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"./p","task_trace":"on"}'
    return tf.Session(config=npu_config_proto(config_proto=config))


def legacy_profiling_config():
    profiling = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"./","training_trace":"on","task_trace":"on","fp_point":"resnet/conv1/Conv2D","bp_point":"gradients/AddN_70"}')
    return NPURunConfig(profiling_config=profiling)


def profiling_config_without_options():
    return NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options='{"output":"./","training_trace":"on","task_trace":"on","hccl":"on","aicpu":"on","aic_metrics":"PipeUtilization","msproftx":"off","fp_point":"","bp_point":""}'))
