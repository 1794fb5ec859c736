import json

from npu_bridge.npu_init import *
from utils import FLAGS
from utils.flags_def import args
from unknown_module import OPTS


def current():
    options = json.dumps({"output": FLAGS.prof_out, "task_trace": "on", "aic_metrics": "ArithmeticUtilisation"})
    first = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=options))
    second = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=args.options))
    third = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=OPTS))
    return first, second, third
