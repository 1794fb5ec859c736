# OPTIONS: --extend-select=NPP190,NPP200
# Unknown pieces (environment reads, flags without defaults, parameters) are holes: the rest of
# the string is still checked; a hole where a key or the structure should be makes it unknown.
import os
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True


def path_hole(run_dir):
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"' + run_dir + '/prof","task_trace":"on","L2":"on"}')  # NPP200: 9, NPP101: 61


def env_hole():
    out = os.environ.get("PROFILING_DIR", "/tmp/a;b")
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"%s","training_trace":"on","fp_point":"","bp_point":"","task_trace":"On"}' % out)  # NPP200: 9, NPP102: 88


def key_hole(key):
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"/tmp/p","' + key + '":"ON"}')  # NPP200: 9


def structure_hole(extra):
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"/tmp/p","task_trace":' + extra + '}')  # NPP200: 9


def unknown_value():
    op.parameter_map["profiling_options"].s = load_options()  # NPP190: 47


def value_hole_is_never_judged(level):
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"/tmp/p","task_trace":"%s","storage_limit":"%sMB"}' % (level, level))  # NPP200: 9
# expect: 26:47 NPP190
# expect: 31:47 NPP190

sess = tf.Session(config=npu_config_proto(config_proto=config))
