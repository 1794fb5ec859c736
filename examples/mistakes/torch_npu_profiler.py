"""torch_npu profiler mistakes: a level torch_npu does not know, an enum name instead of its value, and a
schedule that a loop of 8 steps never reaches (npuprof check --torch-npu 26.1)."""
import torch
import torch_npu
from torch_npu.profiler import AiCMetrics, ProfilerLevel, _ExperimentalConfig, profile, schedule
from torch_npu.profiler import tensorboard_trace_handler

model = torch.nn.Linear(4, 4).npu()

cfg = _ExperimentalConfig(profiler_level="level1")
metrics = _ExperimentalConfig(profiler_level=ProfilerLevel.Level1,
                              aic_metrics="PipeUtilization")


with profile(schedule=schedule(wait=1, warmup=1, active=2),
             on_trace_ready=tensorboard_trace_handler("./prof"),
             experimental_config=cfg) as prof:
    for step in range(100):
        model(torch.randn(2, 4).npu())
        prof.step()

with profile(schedule=schedule(skip_first=10, wait=1, warmup=1, active=1),
             on_trace_ready=tensorboard_trace_handler("./prof")) as prof:
    for step in range(8):
        prof.step()
