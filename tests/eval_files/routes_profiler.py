# The npu_bridge Profiler scope cannot be used while profiling_mode / PROFILING_MODE is on.
import tensorflow as tf
from npu_bridge.npu_init import *
from npu_bridge.profiler.profiler import Profiler

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'

with tf.Session(config=npu_config_proto(config_proto=config)) as sess:
    with Profiler(level="L1", aic_metrics="PipeUtilization", output_path="/tmp/prof"):  # NPP013: 10
        sess.run(tf.no_op())
