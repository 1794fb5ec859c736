# torch_npu profiler mistakes that every release 5.0-26.1 gets wrong (the default target, any).
import os

import torch
import torch_npu
import torch_npu.profiler as tprof
from torch_npu.profiler import AiCMetrics, ProfilerActivity, ProfilerLevel, _ExperimentalConfig
from torch_npu.profiler import schedule as npu_schedule

LEVEL = "level1"
bad_level = _ExperimentalConfig(profiler_level=LEVEL)  # NPP300: 48
bad_int_level = _ExperimentalConfig(profiler_level=1)  # NPP300: 52
metric_name = _ExperimentalConfig(profiler_level=ProfilerLevel.Level1, aic_metrics="PipeUtilization")  # NPP301: 84
metric_typo = _ExperimentalConfig(profiler_level="Level2", aic_metrics="Memroy")  # NPP301: 72
switch = _ExperimentalConfig(profiler_level="Level1", l2_cache="True", record_op_args=1)  # NPP300: 64, NPP300: 87
level0_metric = _ExperimentalConfig(aic_metrics=AiCMetrics.ArithmeticUtilization)  # NPP302: 37
none_metric = _ExperimentalConfig(profiler_level=ProfilerLevel.Level_none, aic_metrics=tprof.AiCMetrics.Memory)  # 6.0+
typo_keyword = _ExperimentalConfig(profiler_level="Level1", aicore_metrics=AiCMetrics.PipeUtilization)  # NPP303: 61
text_only = _ExperimentalConfig(op_attr=True, export_type="text")  # NPP302: 33
export_case = _ExperimentalConfig(export_type="Db")  # NPP300: 47
fine = _ExperimentalConfig(profiler_level="Level1", aic_metrics="ACL_AICORE_PIPE_UTILIZATION", l2_cache=True)

no_active = npu_schedule(wait=1)  # NPP303: 13
zero_active = npu_schedule(wait=1, active=0, warmup=1)  # NPP300: 43
negative = npu_schedule(wait=-1, active=1, warmup=1)  # NPP300: 30
truncated = npu_schedule(wait=1.0, active=1, warmup=1)  # 5.0 reads it as 1: not under any

with tprof.profile(activities=["CPU", "NPU"],  # NPP300: 31
                   schedule=tprof.schedule(wait=1, active=2, warmup=1),
                   on_trace_ready=tprof.tensorboard_trace_handler(0),  # NPP300: 67
                   with_stack="no",  # NPP300: 31
                   experimental_config=fine) as prof:
    for step in range(100):
        prof.step()

with tprof.profile(activities=[ProfilerActivity.CPU],
                   on_trace_ready=tprof.tensorboard_trace_handler("./prof"),
                   experimental_config=fine):  # NPP302: 20
    pass

with tprof.profile(schedule=tprof.schedule(wait=2, active=1, warmup=1)):  # NPP305: 6
    for batch in range(50):
        torch.randn(2).npu()

with tprof.profile(schedule=tprof.schedule(skip_first=10, wait=1, active=1, warmup=1),
                   on_trace_ready=tprof.tensorboard_trace_handler("./prof")) as prof:
    for step in range(8):  # NPP306: 17
        prof.step()

with tprof.profile(schedule=tprof.schedule(wait=0, active=1, warmup=5),
                   on_trace_ready=tprof.tensorboard_trace_handler("./prof")) as prof:
    for step in range(3):  # ends in warmup: what 5.0 did there was not read, so not under any
        prof.step()

with tprof.profile(schedule=tprof.schedule(wait=1, active=1, warmup=1),
                   on_trace_ready=tprof.tensorboard_trace_handler("./prof")) as prof2:
    for epoch in range(2):
        for step in range(2):  # nested: the steps multiply, not judged
            prof2.step()

torch.autograd.profiler.profile(use_npu=True)  # NPP308: 33
torch.npu.profile("./legacy")  # 5.0 still has it: not under any
os.environ["PROFILING_MODE"] = "false"  # 26.1 only: not under any
