# Estimator script (RunConfig + npu_run_config_init): nothing to report.
import tensorflow as tf
from npu_bridge.npu_init import *


def build_run_config(model_dir):
    session_config = tf.ConfigProto(allow_soft_placement=True)
    custom_op = session_config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"./prof","task_trace":"on","aicpu":"on","storage_limit":"1024MB"}')
    run_config = tf.estimator.RunConfig(model_dir=model_dir, session_config=session_config,
                                        save_checkpoints_steps=1000)
    return npu_run_config_init(run_config=run_config)


estimator = tf.estimator.Estimator(model_fn=lambda f, l, m: None, config=build_run_config("/tmp/model"))
