"""BERT fine-tuning with tf.estimator, session config carried by RunConfig."""
import tensorflow as tf
from npu_bridge.npu_init import *

flags = tf.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("output_dir", "./output", "where checkpoints go")
flags.DEFINE_bool("profiling", False, "collect Ascend profiling data")


def model_fn(features, labels, mode, params):
    logits = tf.layers.dense(features["x"], 2)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.AdamOptimizer(2e-5).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def make_run_config():
    session_config = tf.ConfigProto(allow_soft_placement=True)
    custom_op = session_config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["precision_mode"].s = tf.compat.as_bytes("allow_mix_precision")
    if FLAGS.profiling:
        custom_op.parameter_map["profiling_mode"].b = True
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
            '{"output":"profiling","task_trace":"on","aicpu":"on","hccl":"on"}')
    run_config = tf.estimator.RunConfig(model_dir=FLAGS.output_dir, session_config=session_config,
                                        save_checkpoints_steps=1000)
    return npu_run_config_init(run_config=run_config)


def main(_):
    estimator = tf.estimator.Estimator(model_fn=model_fn, config=make_run_config())
    estimator.train(input_fn=lambda: None, max_steps=1000)


if __name__ == "__main__":
    tf.app.run()
