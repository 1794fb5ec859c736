import argparse
import ast
import tensorflow as tf
from npu_bridge.npu_init import *

parser = argparse.ArgumentParser()
parser.add_argument("--data_path", default="")
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--profiling", type=ast.literal_eval, default=False)
parser.add_argument("--profiling_dump_path", default="/tmp/prof")
args = parser.parse_args()

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
if args.profiling:
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"%s","task_trace":"on"}' % args.profiling_dump_path)
with tf.Session(config=config) as sess:
    sess.run(tf.no_op())
