"""NPUEstimator with ProfilingConfig, as the TF Adapter 1.x Estimator guide shows it."""
import tensorflow as tf
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig
from npu_bridge.estimator.npu.npu_estimator import NPUEstimator

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("profiling_dir", "./output/profiling", "where PROF_* data goes")
flags.DEFINE_boolean("profiling", False, "collect Ascend profiling data")


def model_fn(features, labels, mode):
    logits = tf.layers.dense(features, 10)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.AdamOptimizer().minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def main(_):
    profiling_config = ProfilingConfig(
        enable_profiling=FLAGS.profiling,
        profiling_options='{"output":"' + FLAGS.profiling_dir + '","task_trace":"on","training_trace":"on",'
                          '"fp_point":"","bp_point":""}')
    run_config = NPURunConfig(model_dir="./model", save_checkpoints_steps=500, profiling_config=profiling_config)
    estimator = NPUEstimator(model_fn=model_fn, config=run_config)
    estimator.train(input_fn=lambda: None, max_steps=1000)


if __name__ == "__main__":
    tf.app.run()
