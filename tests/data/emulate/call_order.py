"""Two profiling configs in functions: main() calls the second one first, so GE reads that one."""
import tensorflow as tf
from npu_bridge.npu_init import *


def evaluate():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/npuprof_eval","aicpu":"on"}')
    return tf.Session(config=config)


def train():
    config = tf.ConfigProto()
    op = config.graph_options.rewrite_options.custom_optimizers.add()
    op.name = "NpuOptimizer"
    op.parameter_map["profiling_mode"].b = True
    op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/npuprof_train","task_trace":"on"}')
    return tf.Session(config=config)


def main():
    train()
    evaluate()


if __name__ == "__main__":
    main()
