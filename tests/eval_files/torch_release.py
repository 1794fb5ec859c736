# OPTIONS: --npuprof-torch-npu=7.0 --npuprof-soc=310 --extend-select=NPP304
# torch_npu 7.0 on an Ascend 310: keywords the release lacks, the legacy API, chip refusals, schedule order.
import os

import torch
import torch_npu
from torch_npu.profiler import AiCMetrics, ProfilerLevel, _ExperimentalConfig, profile, schedule, tensorboard_trace_handler

new_keywords = _ExperimentalConfig(profiler_level="Level1", mstx=True, host_sys=["cpu"])  # NPP303: 61, NPP303: 72
l2 = _ExperimentalConfig(profiler_level=ProfilerLevel.Level1, l2_cache=True)  # NPP309: 63
l2_metric = _ExperimentalConfig(profiler_level="Level1", aic_metrics=AiCMetrics.L2Cache)  # NPP309: 58
level0_l2 = _ExperimentalConfig(aic_metrics=AiCMetrics.L2Cache)  # NPP302: 33
exports = _ExperimentalConfig(export_type=["text", "db"], op_attr=True)
none_metric = _ExperimentalConfig(profiler_level=ProfilerLevel.Level_none, aic_metrics=AiCMetrics.Memory)  # NPP302: 76

ported = schedule(1, 1, 3)  # NPP304: 10
later = schedule(wait=1, active=2, skip_first_wait=1)  # NPP303: 36
odd = schedule(wait=1.0, active=2, repeat=-1)  # NPP300: 21, NPP300: 43

with torch.npu.profile("./legacy"):  # NPP308: 6
    pass
config = torch_npu.npu.profileConfig(ACL_PROF_ACL_API=True)  # NPP308: 10

os.environ["PROFILING_MODE"] = "false"  # 26.1 only: not on 7.0
with profile(experimental_config=exports):  # NPP307: 6
    pass
with profile(schedule=schedule(wait=1, active=1, warmup=1),
             on_trace_ready=tensorboard_trace_handler("./prof"), experimental_config=exports) as prof:
    for step in range(10):
        prof.step()

with profile(schedule=schedule(wait=0, active=1, warmup=5),
             on_trace_ready=tensorboard_trace_handler("./prof")) as prof:
    for step in range(3):  # NPP306: 17
        prof.step()
