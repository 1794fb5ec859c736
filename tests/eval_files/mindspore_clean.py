# A realistic MindSpore training script profiled with mindspore.profiler.profile: schedule, trace handler,
# prof.step() in the loop, and a Profiler for the evaluation run. No finding.
import argparse
import os

import mindspore
from mindspore import nn
from mindspore.profiler import AicoreMetrics, ExportType, ProfilerActivity, ProfilerLevel, _ExperimentalConfig

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=20)
parser.add_argument("--prof-dir", default="./ms_profiling")
args = parser.parse_args()

mindspore.set_context(mode=mindspore.GRAPH_MODE, device_target="Ascend")
net = nn.Dense(16, 4)
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.01)

experimental_config = _ExperimentalConfig(
    profiler_level=ProfilerLevel.Level1,
    aic_metrics=AicoreMetrics.PipeUtilization,
    export_type=[ExportType.Text, ExportType.Db],
    l2_cache=False,
    data_simplification=True,
)
WAIT, WARMUP, ACTIVE = 1, 1, 2

with mindspore.profiler.profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.NPU],
        schedule=mindspore.profiler.schedule(wait=WAIT, warmup=WARMUP, active=ACTIVE, repeat=1, skip_first=1),
        on_trace_ready=mindspore.profiler.tensorboard_trace_handler(args.prof_dir),
        profile_memory=True,
        with_stack=False,
        experimental_config=experimental_config) as prof:
    for step in range(args.steps):
        loss = net(mindspore.ops.randn(8, 16)).sum()
        prof.step()

evaluation = mindspore.Profiler(output_path=os.path.join(args.prof_dir, "eval"), start_profile=False,
                                profiler_level=ProfilerLevel.Level0, activities=[ProfilerActivity.NPU],
                                export_type="db", data_simplification=False)
evaluation.start()
net(mindspore.ops.randn(8, 16))
evaluation.stop()
os.environ["MS_PROFILER_OPTIONS"] = '{"start": true, "output_path": "./env_prof", "profiler_level": "Level1", ' \
                                    '"activities": ["CPU", "NPU"]}'
