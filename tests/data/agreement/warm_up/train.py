"""The script the synthetic launchers start: profiling on with its own options."""
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.compat.v1.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/prof","task_trace":"on"}')
with tf.compat.v1.Session(config=config) as sess:
    sess.run(tf.constant(1))
