import json
import os

import tensorflow as tf
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig
from npu_bridge.estimator.npu.npu_estimator import NPUEstimator

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_boolean("profiling", False, "profiling")
flags.DEFINE_string("model_dir", "./model", "")
flags.DEFINE_string("profiling_dir", "./prof", "")


def model_fn(features, labels, mode, params):
    return tf.estimator.EstimatorSpec(mode, loss=tf.constant(0.0), train_op=tf.no_op())


def build_profiling_config():
    if not FLAGS.profiling:
        return None
    options = json.dumps({
        "output": os.path.abspath(FLAGS.profiling_dir),
        "training_trace": "on",
        "task_trace": "on",
        "fp_point": "",
        "bp_point": "",
        "aic_metrics": "PipeUtilization",
    })
    return ProfilingConfig(enable_profiling=True, profiling_options=options)


def main(_):
    run_config = NPURunConfig(
        model_dir=FLAGS.model_dir,
        save_checkpoints_steps=1000,
        profiling_config=build_profiling_config(),
        iterations_per_loop=100)
    est = NPUEstimator(model_fn=model_fn, config=run_config)
    est.train(input_fn=lambda: None, max_steps=100)


if __name__ == "__main__":
    tf.app.run()
