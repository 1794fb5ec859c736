"""A model-zoo style training script: profiling behind an untyped argparse flag."""
import argparse

import tensorflow as tf
from npu_bridge.npu_init import *

parser = argparse.ArgumentParser()
parser.add_argument("--profiling", default=False, help="collect a profile")
parser.add_argument("--profiling_options", default='{"output": "/tmp/prof_default", "task_trace": "on"}')
parser.add_argument("--epochs", type=int, default=1)
args = parser.parse_args()


def main():
    config = tf.compat.v1.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if args.profiling:
        custom_op.parameter_map["profiling_mode"].b = True
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(args.profiling_options)
    with tf.compat.v1.Session(config=config) as sess:
        sess.run(tf.constant(1))


if __name__ == "__main__":
    main()
