"""Why 5: the pre-2021 ProfilingConfig raises TypeError before GE starts, on every path."""
import tensorflow as tf
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig
import helpers

flags = tf.compat.v1.flags
flags.DEFINE_bool("profiling", False, "collect a profile")
FLAGS = flags.FLAGS


def main(_):
    if FLAGS.profiling:
        prof = ProfilingConfig(enable_profiling=True, enable_options=["training_trace", "task_trace"])
        helpers.train(NPURunConfig(model_dir="/tmp/m", profiling_config=prof))


if __name__ == "__main__":
    tf.compat.v1.app.run()
