"""ProfilingConfig → NPURunConfig → NPUEstimator, started from main() through tf.app.run()."""
import tensorflow as tf
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig
from npu_bridge.estimator.npu.npu_estimator import NPUEstimator


def model_fn(features, labels, mode):
    return tf.estimator.EstimatorSpec(mode, loss=tf.constant(0.0), train_op=tf.no_op())


def main(_):
    profiling = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"est_prof","task_trace":"on","aicpu":"on"}')
    run_config = NPURunConfig(model_dir="/tmp/model", profiling_config=profiling)
    estimator = NPUEstimator(model_fn=model_fn, config=run_config)
    estimator.train(input_fn=lambda: None, max_steps=10)


if __name__ == "__main__":
    tf.app.run()
