# OPTIONS: --npuprof-cann=portable
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/p",'
    '"task_time":"l1",'
    '"dvpp_freq":50,'
    '"aiv_metrics":"PipeUtilization"}')
# expect: 11:6 NPP113
# expect: 12:18 NPP110
# expect: 13:6 NPP113

sess = tf.Session(config=npu_config_proto(config_proto=config))
