# OPTIONS: --npuprof-torch-npu=6.0
# torch_npu 6.0: enum members and classes the release does not define stop the job; guarded names do not.
import torch
import torch_npu
from torch_npu.profiler import AiCMetrics, HostSystem, ProfilerActivity, ProfilerLevel  # NPP317: 44
from torch_npu.profiler import _ExperimentalConfig, profile, tensorboard_trace_handler

typo = _ExperimentalConfig(profiler_level=ProfilerLevel.Level1, aic_metrics=AiCMetrics.PipeUtilisation)  # NPP317: 88
newer = _ExperimentalConfig(profiler_level=ProfilerLevel.Level1, aic_metrics=AiCMetrics.MemoryAccess)  # NPP317: 89
by_build = _ExperimentalConfig(profiler_level=ProfilerLevel.Level_none)  # NPP317: 61
level = torch_npu.profiler.ProfilerLevel.Level3  # NPP317: 42
sides = [ProfilerActivity.CPU, torch_npu.profiler.ProfilerActivity.GPU]  # NPP317: 68
usual = _ExperimentalConfig(profiler_level=ProfilerLevel.Level2, aic_metrics=AiCMetrics.AiCoreNone)  # NPP317: 89
system = torch_npu.profiler.HostSystem  # NPP317: 29

methods = ProfilerLevel.mro()
if hasattr(AiCMetrics, "L3Cache"):
    guarded = AiCMetrics.L3Cache
try:
    caught = AiCMetrics.L4Cache
except AttributeError:
    caught = None

with profile(activities=[ProfilerActivity.NPU], experimental_config=typo,
             on_trace_ready=tensorboard_trace_handler("./prof")) as prof:
    for step in range(4):
        prof.step()
