# tf.keras with init_resource: GE is initialised by init_resource, so profiling set only on the
# Keras session config is never read.
import tensorflow as tf
from npu_bridge.npu_init import *

keras_config = tf.ConfigProto()
custom_op = keras_config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'

npu_sess, npu_shutdown = init_resource()  # NPP008: 26
keras_sess = set_keras_session_npu_config(config=keras_config)
