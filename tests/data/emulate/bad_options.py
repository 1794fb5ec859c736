"""Options GE rejects (training_trace off) and the collector rejects (L2)."""
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/npuprof_bad","L2":"on","training_trace":"off","task_trace":"on"}')
sess = tf.Session(config=npu_config_proto(config_proto=config))
