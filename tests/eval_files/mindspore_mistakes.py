# MindSpore profiler mistakes (2.7-2.10 react the same way): values reset, settings overridden, keywords
# dropped silently or deprecated, TypeErrors at start-up.
import argparse

import mindspore
import mindspore.profiler as msprof_api
from mindspore import Profiler
from mindspore.profiler import AicoreMetrics, ExportType, ProfilerActivity, ProfilerLevel, _ExperimentalConfig
from mindspore.profiler import schedule as ms_schedule

parser = argparse.ArgumentParser()
parser.add_argument("--level", default="Level2")
args = parser.parse_args()
LEVEL = "Level1"

string_level = Profiler(profiler_level=LEVEL)  # NPP350: 40
flag_level = Profiler(profiler_level=args.level)  # NPP350: 38
int_level = mindspore.Profiler(profiler_level=1)  # NPP350: 47
metric_name = Profiler(profiler_level=ProfilerLevel.Level1, aic_metrics="PipeUtilization")  # NPP350: 73
switch = Profiler(with_stack=1, profile_memory="True")  # NPP350: 30, NPP350: 48
activities = Profiler(activities=["NPU"])  # NPP350: 34
export = Profiler(export_type=["db"])  # NPP350: 31
level0_metric = Profiler(aic_metrics=AicoreMetrics.Memory)  # NPP351: 38
level2_none = Profiler(profiler_level=ProfilerLevel.Level2,
                       aic_metrics=msprof_api.AicoreMetrics.AiCoreNone)  # NPP351: 36
level_none = Profiler(profiler_level=ProfilerLevel.LevelNone)  # NPP351: 38
shapes = Profiler(activities=[ProfilerActivity.NPU], record_shapes=True)  # NPP351: 68
typo = Profiler(profiler_level=ProfilerLevel.Level1, aicore_metrics=AicoreMetrics.Memory)  # NPP352: 54
legacy = Profiler(output_path="./prof", profile_communication=True)  # NPP354: 41
config = _ExperimentalConfig(profiler_level="Level1", export_type=ExportType.Db)  # NPP350: 45
torch_keyword = _ExperimentalConfig(op_attr=True)  # NPP353: 37
positional = ms_schedule(1, 2)  # NPP353: 26
values = ms_schedule(wait=-1, active=0, warmup=2.0)  # NPP350: 27, NPP350: 38, NPP350: 48
torch_schedule = ms_schedule(wait=1, active=1, skip_first_wait=1)  # NPP353: 48
