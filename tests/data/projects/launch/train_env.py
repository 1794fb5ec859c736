"""Profiling only through the environment the launcher sets."""
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.compat.v1.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
with tf.compat.v1.Session(config=config) as sess:
    sess.run(tf.constant(1))
