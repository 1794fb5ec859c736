# OPTIONS: --npuprof-soc=310 --npuprof-cann=8.0
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/p",'
    '"training_trace":"on","fp_point":"","bp_point":"",'
    '"l2":"on",'
    '"task_trace":"on"}')
# expect: 11:6 NPP114
# expect: 12:6 NPP114

sess = tf.Session(config=npu_config_proto(config_proto=config))
