# OPTIONS: --npuprof-cann=8.0
# CANN 8.0 (collector 2024-01 .. 2025-12): frequencies are strings, no instr + task mix, output required.
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"task_trace":"on",'
    '"dvpp_freq":50,'
    '"instr_profiling_freq":"1000",'
    '"storage_limit":"100MB",'
    '"instr_profiling":"on"}')
# expect: 11:6 NPP108
# expect: 12:18 NPP110
# expect: 13:6 NPP115
# expect: 14:22 NPP107
# expect: 15:6 NPP113


def nothing_collected():
    cfg = tf.ConfigProto()
    op = cfg.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","storage_limit":"500MB"}'  # NPP116: 49
    return cfg

sess = tf.Session(config=npu_config_proto(config_proto=config))
