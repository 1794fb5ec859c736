"""MindSpore training with dynamic profiling: the monitor polls ms_cfg/profiler_config.json."""
from mindspore.profiler import DynamicProfilerMonitor


def callbacks():
    return [DynamicProfilerMonitor(cfg_path="./ms_cfg", output_path="./dyn_prof")]
