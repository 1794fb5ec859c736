"""MindSpore profiler mistakes: the level written as a string, a keyword Profiler(**kwargs) drops without a word,
a positional schedule, and MS_PROFILER_OPTIONS without "start": true (npuprof check)."""
import os

import mindspore
from mindspore.profiler import AicoreMetrics, schedule

os.environ["MS_PROFILER_OPTIONS"] = '{"profiler_level": "Level1", "output_path": "./prof"}'

prof = mindspore.Profiler(
    profiler_level="Level1",
    aicore_metrics=AicoreMetrics.PipeUtilization,
    schedule=schedule(1, 2),
    output_path="./prof")
