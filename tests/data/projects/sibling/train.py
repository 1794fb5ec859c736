import tensorflow as tf
from npu_bridge.npu_init import *
from hyperparameters import FLAGS
import config as cfg


def main(_):
    config = tf.compat.v1.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = FLAGS.profiling
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(FLAGS.profiling_options)
    with tf.compat.v1.Session(config=config) as sess:
        sess.run(tf.constant(1))


def evaluate():
    config = tf.compat.v1.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(cfg.PROF_OPTS)
    return tf.compat.v1.Session(config=config)


if __name__ == "__main__":
    tf.compat.v1.app.run()
