"""TF2 npu_device: global options set before npu.open()."""
import npu_device as npu

npu.global_options().profiling_config.enable_profiling = True
npu.global_options().profiling_config.profiling_options = '{"output":"/tmp/npuprof_tf2","task_trace":"on","aic_metrics":"PipeUtilization"}'
npu.open().as_default()
