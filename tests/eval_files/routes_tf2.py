# TF2 npu_device: global options must be set before npu.open().
import npu_device as npu
import tensorflow as tf

OPTIONS = '{"output":"/tmp/p","task_trace":"on","aic_metrics":"PipeUtilization"}'


def one_function():
    npu.global_options().profiling_config.enable_profiling = True
    npu.global_options().profiling_config.profiling_options = '{"output":"/tmp/p","task_trace":"on","L2":"on"}'  # NPP101: 101
    npu.open().as_default()
    npu.global_options().profiling_config.enable_profiling = True  # NPP012: 5


def held_in_a_variable():
    options = npu.global_options()
    options.profiling_config.enable_profiling = "True"  # NPP010: 49
    options.profiling_config.profiling_options = OPTIONS
    npu.open().as_default()


def profiling_config_variable():
    profiling = npu.global_options().profiling_config
    profiling.enable_profiling = True
    profiling.profiling_options = '{"output":"/tmp/p","task_trace":"ON"}'  # NPP102: 68
    npu.open().as_default()
