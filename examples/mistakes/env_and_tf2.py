"""Environment variables and TF2 global options set the wrong way."""
import os

import npu_device as npu

os.environ["PROFILING_MODE"] = "True"          # GE compares with "true"
os.environ["PROFILING_OPTIONS"] = '{"output":"./profiling","task_trace":"on"}'

npu.open().as_default()
npu.global_options().profiling_config.enable_profiling = True     # too late: read by npu.open()
npu.global_options().profiling_config.profiling_options = '{"output":"./profiling","task_trace":"on"}'
