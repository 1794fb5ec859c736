# The default target (any CANN version, any product) stays quiet about what some target accepts.
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/p",'           # (without it 8.5+ need $ASCEND_WORK_PATH: NPP108 everywhere)
    '"task_time":"l1",'             # 8.5 rejects task_time, other versions take it
    '"dvpp_freq":50,'               # a number for 8.5+, a string for 8.0: fine somewhere
    '"instr_profiling_freq":1000,'  # exclusive with task switches only before 8.5
    '"aic_metrics":"MemoryAccess",'  # only Atlas A2/A3 have it
    '"l2":"on",'                    # not on Ascend 310, fine elsewhere
    '"trainingTrace":""}')          # the protobuf-era collector reads lowerCamelCase names

sess = tf.Session(config=npu_config_proto(config_proto=config))
