"""profiling_mode on without profiling_options: the adapter substitutes its default options."""
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
sess = tf.Session(config=npu_config_proto(config_proto=config))
