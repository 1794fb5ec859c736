"""Why 1: main() runs and never passes its ProfilingConfig; an uncalled main_ok() holds a correct setup."""
import tensorflow as tf
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig
from npu_bridge.estimator.npu.npu_estimator import NPUEstimator


def main():
    prof = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"/tmp/p","task_trace":"on"}')
    config = NPURunConfig(model_dir="/tmp/m")
    NPUEstimator(model_fn=None, config=config).train(input_fn=None)


def main_ok():
    prof = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"/tmp/p","L2":"on"}')
    config = NPURunConfig(model_dir="/tmp/m", profiling_config=prof)
    NPUEstimator(model_fn=None, config=config).train(input_fn=None)


if __name__ == "__main__":
    main()
