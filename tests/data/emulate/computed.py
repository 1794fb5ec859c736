"""The task_trace level comes from the environment at run time: nothing to decide statically."""
import json
import os

import tensorflow as tf
from npu_bridge.npu_init import *

level = os.environ.get("TRACE_LEVEL")
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(json.dumps({"output": "/tmp/p", "task_trace": level}))
sess = tf.Session(config=npu_config_proto(config_proto=config))
