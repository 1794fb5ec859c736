# tf.keras script (set_keras_session_npu_config): nothing to report.
import tensorflow as tf
from npu_bridge.npu_init import *


class Trainer:
    def __init__(self):
        self.sess_config = tf.ConfigProto()
        self.custom_op = self.sess_config.graph_options.rewrite_options.custom_optimizers.add()
        self.custom_op.name = "NpuOptimizer"

    def enable_profiling(self):
        self.custom_op.parameter_map["profiling_mode"].b = True
        self.custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
            '{"output":"output/prof","task_trace":"l1","hccl":"off","runtime_api":"on"}')

    def session(self):
        return set_keras_session_npu_config(config=self.sess_config)
