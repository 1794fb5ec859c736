"""A first NPU session without profiling initialises GE: the later profiling config is never read."""
import tensorflow as tf
from npu_bridge.npu_init import *

warmup = tf.ConfigProto()
op = warmup.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["precision_mode"].s = tf.compat.as_bytes("allow_mix_precision")
warm_sess = tf.Session(config=warmup)

config = tf.ConfigProto()
op2 = config.graph_options.rewrite_options.custom_optimizers.add()
op2.name = "NpuOptimizer"
op2.parameter_map["profiling_mode"].b = True
op2.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/npuprof_two","task_trace":"on"}')
sess = tf.Session(config=config)
