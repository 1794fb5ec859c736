"""TF2 npu_device: global options set after npu.open() are ignored."""
import npu_device as npu

npu.open().as_default()
npu.global_options().profiling_config.enable_profiling = True
npu.global_options().profiling_config.profiling_options = '{"output":"/tmp/npuprof_tf2","task_trace":"on"}'
