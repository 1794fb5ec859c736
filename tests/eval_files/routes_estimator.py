# ProfilingConfig → NPURunConfig → NPUEstimator, matched through the imports.
import tensorflow as tf
from npu_bridge.estimator.npu import npu_config as nc
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig
from npu_bridge.estimator.npu.npu_estimator import NPUEstimator
from npu_bridge.estimator.npu.npu_plugin import npu_resource_init
from mytrainer.config import ProfilingConfig as TrainerProfilingConfig

OPTIONS = '{"output":"/tmp/p","task_trace":"on","training_trace":"on","fp_point":"","bp_point":""}'


def model_fn(features, labels, mode):
    return tf.estimator.EstimatorSpec(mode, loss=tf.constant(0.0), train_op=tf.no_op())


def good():
    profiling = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    run_config = NPURunConfig(model_dir="/tmp/m", profiling_config=profiling)
    return NPUEstimator(model_fn=model_fn, config=run_config)


def options_json_checked():
    profiling = nc.ProfilingConfig(True, '{"output":"/tmp/p","task_trace":"On"}')  # NPP102: 75
    return NPUEstimator(model_fn=model_fn, config=NPURunConfig(profiling_config=profiling))


def not_passed():
    profiling = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)  # NPP006: 17
    run_config = NPURunConfig(model_dir="/tmp/m")
    return NPUEstimator(model_fn=model_fn, config=run_config)


def disabled_with_options():
    # an explicit, unconditional off switch beside parked options is deliberate: not NPP001
    profiling = ProfilingConfig(enable_profiling=False, profiling_options=OPTIONS)
    return NPURunConfig(profiling_config=profiling)


def disabled_where_profiling_is_meant(flags):
    if flags.profiling:
        profiling = ProfilingConfig(enable_profiling=False, profiling_options=OPTIONS)  # NPP001: 37
        return NPURunConfig(profiling_config=profiling)
    return NPURunConfig()


def passed_only_when_profiling(flags):
    profiling = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    return NPURunConfig(profiling_config=profiling if flags.profiling else None)


def enabled_without_options():
    return NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True))  # NPP002: 58


def string_switch():
    return NPURunConfig(profiling_config=ProfilingConfig(enable_profiling="True", profiling_options=OPTIONS))  # NPP010: 75


def legacy_api():
    profiling = ProfilingConfig(enable_profiling=True, enable_options=["task_trace"])  # NPP014: 56
    return NPURunConfig(profiling_config=profiling)


def someone_elses_profiling_config():
    return TrainerProfilingConfig(enable_profiling="yes", profiling_options="anything")


def resource_init():
    npu_resource_init(enable_profiling=1, profiling_options=OPTIONS)  # NPP010: 40
    npu_resource_init(enable_profiling=True)  # NPP002: 23
    npu_resource_init(enable_profiling=True, profiling_options="")  # NPP002: 46
