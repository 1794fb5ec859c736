# json.dumps(dict) is serialised here, so findings point into the dict literal.
import json
import os
import tensorflow as tf
from npu_bridge.npu_init import *

BASE = {"output": "/tmp/p", "task_trace": "on"}


def new_entry():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    return config, op


def literal_dict():
    config, op = new_entry()
    op.parameter_map["profiling_options"].s = json.dumps(
        {"output": "/tmp/p", "task_trace": "on", "aicpu": True, "l2": "Off"}).encode()  # NPP110: 59, NPP102: 72
    return config


def dict_variable_and_options():
    config, op = new_entry()
    options = {"output": os.environ.get("PROF_DIR", "/tmp"), "training_trace": "on",
               "aic_metrics": "PipeUtilization", "fp_point": "", "bp_point": "", "task_time": "l9"}
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(json.dumps(options, separators=(",", ":")))
    return config


def subscripted_constant():
    config, op = new_entry()
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes(json.dumps(dict_from_elsewhere()))
    return config


def clean():
    config, op = new_entry()
    op.parameter_map["profiling_options"].s = json.dumps(BASE, indent=2).encode("utf-8")
    return config
# expect: 28:96 NPP102  ("l9" is no level anywhere; on 8.5 task_time itself is refused as well)
