# OPTIONS: --npuprof-soc=310 --npuprof-cann=8.0
# An aic_metrics value the 310 lacks fails GE initialisation; what the collector would then do
# with the training trace and l2 (drop them, NPP114) never happens, so it is held back.
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
    '"aic_metrics":"L2Cache",'
    '"task_trace":"on"}')
# expect: 15:20 NPP106

sess = tf.Session(config=npu_config_proto(config_proto=config))
