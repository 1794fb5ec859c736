# FIX: --unsafe-fixes --select NPP200
"""JSON assembled by hand becomes json.dumps({...}); the import is added."""
import argparse

import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--profiling_dir", default="./prof")
args = parser.parse_args()


def options(level):
    a = '{"output":"' + args.profiling_dir + '","task_trace":"on"}'
    b = '{"output":"%s/run","task_trace":"%s","aicpu":"on"}' % (args.profiling_dir, level)
    c = f'{{"output":"{args.profiling_dir}","training_trace":"on","fp_point":"","bp_point":""}}'
    return a, b, c


config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = args.profiling_dir != ""
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(options("on")[0])
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"%s","task_trace":"on"}' % args.profiling_dir)
sess = tf.Session(config=config)
