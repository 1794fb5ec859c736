"""Why 6: a BERT script with the fp_point of the Ascend guide's example model."""
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.compat.v1.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/prof","training_trace":"on",'
    '"fp_point":"resnet_model/conv2d/Conv2Dresnet_model/batch_normalization/FusedBatchNormV3_Reduce",'
    '"bp_point":""}')
with tf.compat.v1.Session(config=config) as sess:
    sess.run(tf.constant(1))
