# Paths and switches from absl / tf.app flags and argparse: a flag's default is what runs when
# the flag is not given; a switch driven by a flag can be either value.
import argparse
import tensorflow as tf
from absl import flags as absl_flags
from npu_bridge.npu_init import *

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("profiling_dump_path", "/tmp/prof dir;1", "where profiling data goes")  # only some 8.0 builds refuse
flags.DEFINE_boolean("profiling", False, "collect profiling data")
absl_flags.DEFINE_string("aic_metrics", "PipeUtilisation", "AI Core metric set")  # NPP106: 42

parser = argparse.ArgumentParser()
parser.add_argument("--storage-limit", default="2G")  # NPP107: 49
parser.add_argument("--trace", dest="trace_level", default="on")
parser.add_argument("--dump_dir", required=True)
args, unknown = parser.parse_known_args()


def from_tf_flags():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = FLAGS.profiling
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"' + FLAGS.profiling_dump_path + '","task_trace":"on","aic_metrics":"' + FLAGS.aic_metrics + '"}')
    return config


def from_argparse():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"/tmp/p","task_trace":"%s","storage_limit":"%s"}' % (args.trace_level, args.storage_limit))
    return config


def required_flag_is_a_hole():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"%s","task_trace":"on","hccl":"no"}' % args.dump_dir)  # NPP102: 50
    return config


def main(opt):
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"/tmp/p","task_trace":"' + opt.trace_level + '","runtime_api":"ON"}')  # NPP102: 82
    return config
