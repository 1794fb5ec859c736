import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
# output omitted: CANN 8.5+ falls back to ASCEND_WORK_PATH
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"task_trace":"on","aicpu":"on"}')
sess = tf.Session(config=config)
