# Options built with %, .format, f-strings, + and joins: checked through the computation,
# reported inside the literal piece that holds the offending key or value.
import os
import tensorflow as tf
from npu_bridge.npu_init import *

PROFILING_DIR = "/tmp/profiling"
TEMPLATE = '{"output":"%s","task_trace":"on","Aicpu":"on"}'  # NPP101: 46


def new_entry():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    return config, op


def percent_single():
    config, op = new_entry()
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(TEMPLATE % PROFILING_DIR)
    return config


def percent_tuple():
    config, op = new_entry()
    opts = '{"output":"%s","task_trace":"%s","hccl":"%s"}' % (PROFILING_DIR, "on", "On")  # NPP102: 85
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(opts)
    return config


def percent_dict():
    config, op = new_entry()
    opts = '{"output":"%(dir)s","task_trace":"on","storage_limit":"%(limit)s"}' % {"dir": "/tmp/p", "limit": "10GB"}  # NPP107: 111
    op.parameter_map["profiling_options"].s = opts.encode()
    return config


def format_positional_and_keywords():
    config, op = new_entry()
    opts = '{{"output":"{}","task_trace":"{trace}","l2":"{0}"}}'.format("/tmp/p", trace="ON")  # NPP102: 74, NPP102: 90
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(opts)
    return config


def fstring():
    config, op = new_entry()
    level = "l1"
    opts = f'{{"output":"{PROFILING_DIR}","task_trace":"{level}","training_trace":"{"off"}"}}'  # NPP103: 86
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(opts)
    return config


def concatenation():
    config, op = new_entry()
    out = PROFILING_DIR + "/run1"
    opts = '{"output":"' + out + '",' + '"task_trace":"on",' + '"msproftx":"true"}'  # NPP102: 76
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(opts)
    return config


def joined():
    config, op = new_entry()
    parts = ['"output":"' + os.path.join("/tmp", "prof", "run") + '"', '"task_trace":"on"', '"aic_metrics":"memory"']  # NPP106: 108
    opts = "{" + ",".join(parts) + "}"
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(opts)
    return config
