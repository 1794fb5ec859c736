# A binding in an except handler runs only when its try raised: it does not hide the try body's binding.
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig
from npu_bridge.estimator.npu.npu_estimator import NPUEstimator

try:
    profiling_config = ProfilingConfig(enable_profiling=True,
                                       profiling_options='{"output":"/tmp/p","task_trace":"on"}')
except Exception:
    profiling_config = None
run_config = NPURunConfig(profiling_config=profiling_config)
estimator = NPUEstimator(model_fn=None, config=run_config)
estimator.train(input_fn=None, max_steps=1)

try:
    unused = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"/tmp/q","task_trace":"on"}')  # NPP006: 14
except Exception:
    unused = None
