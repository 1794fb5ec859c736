"""tf.keras training with the NPU session set by set_keras_session_npu_config."""
import tensorflow as tf
from npu_bridge.npu_init import *


class NpuSession:
    def __init__(self, profile_dir):
        self.config = tf.ConfigProto()
        self.custom_op = self.config.graph_options.rewrite_options.custom_optimizers.add()
        self.custom_op.name = "NpuOptimizer"
        self.profile_dir = profile_dir

    def enable_profiling(self):
        self.custom_op.parameter_map["profiling_mode"].b = True
        self.custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
            '{"output":"prof","task_trace":"l1","runtime_api":"on","msproftx":"off"}')

    def open(self):
        return set_keras_session_npu_config(config=self.config)


npu = NpuSession("prof")
npu.enable_profiling()
sess = npu.open()
(x, y), _ = tf.keras.datasets.mnist.load_data()
model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(x / 255.0, y, epochs=1)
close_session(sess)
