# tf.keras with init_resource (GE initialised by initialize_system): nothing to report.
import tensorflow as tf
from npu_bridge.npu_init import *

npu_init = tf.ConfigProto()
op = npu_init.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = b'{"output":"/var/tmp/p","training_trace":"on","fp_point":"","bp_point":""}'
npu_sess, npu_shutdown = init_resource(config=npu_init)
