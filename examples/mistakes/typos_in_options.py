"""Options copied between models and edited by hand: each mistake aborts GE initialisation."""
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/profiling",'
    '"L2":"on",'                          # keys are case-sensitive
    '"task_trace":"ON",'                  # switches are lower-case on/off
    '"training_trace":"off",'             # GE accepts only "on" (or "")
    '"fp_point":"resnet_model/conv2d/Conv2Dresnet_model/batch_normalization/FusedBatchNormV3_Reduce",'
    '"bp_point":"gradients/AddN_70",'
    '"aic_metrics":"PipeUtilisation",'
    '"storage_limit":"2GB"}')

sess = tf.Session(config=npu_config_proto(config_proto=config))
