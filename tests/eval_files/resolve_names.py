# Names: module constants, locals, if/else branches (only what every branch gets wrong is
# reported), class attributes, parameters agreed on by every call site, small helpers.
import json
import tensorflow as tf
from npu_bridge.npu_init import *
from somewhere import *

OPTIONS = '{"output":"/tmp/p","task_trace":"on","l2":"ON"}'  # NPP102: 54


class HParams:
    profiling_dir = "/tmp/hp"
    profiling_options = '{"output":"/tmp/hp","Task_trace":"on"}'  # NPP101: 46

    def __init__(self):
        self.trace = "on"


def new_entry():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    return config, op


def module_constant():
    config, op = new_entry()
    op.parameter_map["profiling_options"].s = OPTIONS.encode()
    return config


def class_attribute():
    config, op = new_entry()
    hparams = HParams()
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(hparams.profiling_options)
    return config


def branches_that_agree(fast):
    if fast:
        opts = '{"output":"/tmp/a","task_trace":"on","aicpu":"On"}'  # NPP102: 62
    else:
        opts = '{"output":"/tmp/b","task_trace":"l1","aicpu":"On"}'
    config, op = new_entry()
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(opts)
    return config


def branches_that_disagree(fast):
    opts = '{"output":"/tmp/a","task_trace":"on","aicpu":"on"}'
    if fast:
        opts = '{"output":"/tmp/b","task_trace":"on","aicpu":"ON"}'
    config, op = new_entry()
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(opts)
    return config


def with_parameter(config, op, out_dir, level):
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"%s","task_trace":"%s"}' % (out_dir, level))
    return config


cfg_x, op_x = new_entry()
with_parameter(cfg_x, op_x, "/tmp/x", "ON")  # NPP102: 40
cfg_y, op_y = new_entry()
with_parameter(cfg_y, op_y, "/tmp/y", "ON")


def parameter_without_call_sites(op, out_dir):
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"%s","task_trace":"on","hccl":"yes"}' % out_dir)  # NPP102: 50


def build_options(path, trace="on"):
    return json.dumps({"output": path, "task_trace": trace, "storage_limit": 500})  # NPP110: 78


def from_helper():
    config, op = new_entry()
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(build_options("/tmp/h"))
    return config


def self_defined_elsewhere():
    config, op = new_entry()
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(STAR_IMPORTED_OPTIONS)
    return config


def recursive():
    config, op = new_entry()
    opts = '{"output":"/tmp/r"'
    for key in ("task_trace", "aicpu"):
        opts = opts + ',"%s":"on"' % key
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(opts + "}")
    return config


def exec_bound():
    config, op = new_entry()
    exec("generated = '{}'")
    global GLOBAL_OPTS
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(GLOBAL_OPTS)
    return config
