# NPU helpers build a fresh config when they are not given the one that carries profiling.
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'

sess = tf.Session(config=npu_config_proto())  # NPP008: 26
