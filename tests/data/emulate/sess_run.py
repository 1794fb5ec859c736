"""sess.run training with profiling through the NpuOptimizer parameter_map."""
import argparse

import tensorflow as tf
from npu_bridge.npu_init import *

parser = argparse.ArgumentParser()
parser.add_argument("--profiling", action="store_true")
args = parser.parse_args()

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
if args.profiling:
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"prof_out","training_trace":"on","task_trace":"on","fp_point":"","bp_point":"",'
        '"aic_metrics":"PipeUtilization","storage_limit":"500MB"}')

with tf.Session(config=npu_config_proto(config_proto=config)) as sess:
    sess.run(tf.no_op())
