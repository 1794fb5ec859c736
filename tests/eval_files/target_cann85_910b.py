# OPTIONS: --npuprof-cann=8.5 --npuprof-soc=910B
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/p",'
    '"aic_metrics":"MemoryAccess",'
    '"sys_hardware_mem_freq":500,'
    '"power":"on",'
    '"task_trace":"l2"}')
# expect: 12:30 NPP109
# expect: 13:6 NPP113

sess = tf.Session(config=npu_config_proto(config_proto=config))
