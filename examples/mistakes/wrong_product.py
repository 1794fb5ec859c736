"""Options written for Atlas A2 (910B) run on an Atlas training card (910): run
`flake8 --npuprof-soc 910` or `npuprof check --soc 910` to see what that chip rejects."""
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"./prof","task_trace":"on","aic_metrics":"MemoryAccess","instr_profiling_freq":1000}')
sess = tf.Session(config=npu_config_proto(config_proto=config))
