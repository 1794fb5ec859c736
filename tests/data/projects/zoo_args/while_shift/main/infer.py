from absl import app, flags
import tensorflow as tf
from npu_bridge.npu_init import *

FLAGS = flags.FLAGS
flags.DEFINE_integer("batch", 1, "batch size")
flags.DEFINE_bool("profiling", False, "collect profiling data")


def main(_):
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if FLAGS.profiling:
        custom_op.parameter_map["profiling_mode"].b = True
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
            '{"output":"/tmp/infer_prof","task_trace":"on"}')
    with tf.Session(config=config) as sess:
        sess.run(tf.no_op())


if __name__ == "__main__":
    app.run(main)
