# A realistic torch_npu training script: schedule + tensorboard_trace_handler + prof.step(). No finding.
import argparse

import torch
import torch_npu
from torch_npu.profiler import AiCMetrics, ExportType, ProfilerActivity, ProfilerLevel

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=20)
parser.add_argument("--prof-dir", default="./npu_profiling")
parser.add_argument("--level", default="Level1")
args = parser.parse_args()

model = torch.nn.Linear(16, 4).npu()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

experimental_config = torch_npu.profiler._ExperimentalConfig(
    export_type=[ExportType.Text, ExportType.Db],
    profiler_level=args.level,
    aic_metrics=AiCMetrics.PipeUtilization,
    l2_cache=False,
    op_attr=True,
    data_simplification=True,
)
WAIT, WARMUP, ACTIVE = 1, 1, 3

with torch_npu.profiler.profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.NPU],
        schedule=torch_npu.profiler.schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE, repeat=1, skip_first=1),
        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(args.prof_dir),
        record_shapes=True,
        profile_memory=False,
        with_stack=False,
        experimental_config=experimental_config) as prof:
    for step in range(args.steps):
        loss = model(torch.randn(8, 16).npu()).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        prof.step()

# profiling one block without a schedule, exported by hand
cfg = torch_npu.profiler._ExperimentalConfig(profiler_level=ProfilerLevel.Level0,
                                             aic_metrics=AiCMetrics.AiCoreNone)
prof2 = torch_npu.profiler.profile(activities=[ProfilerActivity.NPU], experimental_config=cfg)
prof2.start()
model(torch.randn(8, 16).npu())
prof2.stop()
prof2.export_chrome_trace("./trace.json")
