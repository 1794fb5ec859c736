"""tf.keras with init_resource: profiling belongs to the config that initialises GE."""
import tensorflow as tf
from npu_bridge.npu_init import *

npu_init_config = tf.ConfigProto()
custom_op = npu_init_config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = b'{"output":"/var/tmp/profiling","training_trace":"on","fp_point":"","bp_point":""}'
npu_sess, npu_shutdown = init_resource(config=npu_init_config)

model = tf.keras.applications.MobileNetV2(weights=None)
model.compile(optimizer="sgd", loss="categorical_crossentropy")
model.fit(tf.random.uniform([8, 224, 224, 3]), tf.one_hot([1] * 8, 1000), epochs=1)
shutdown_resource(npu_sess, npu_shutdown)
close_session(npu_sess)
