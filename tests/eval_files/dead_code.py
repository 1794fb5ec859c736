# Nothing here can run: strings, docstrings, comments and `if False:` blocks are not code.
import tensorflow as tf
from npu_bridge.npu_init import *

EXAMPLE = '''
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"L2":"on"}')
'''


def documented():
    """Example:

        custom_op.parameter_map["profiling_mode"].b = "True"
        custom_op.parameter_map["profiling_options"].s = "training_trace:task_trace"
    """


# custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"x","L2":"on"}')
# os.environ["PROFILING_MODE"] = "True"

if False:
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_options"].s = b'{"L2":"on"}'

if 0:
    import os
    os.environ["PROFILING_MODE"] = "True"
