from npu_bridge.npu_init import *
from config import *
from utils.args import get_args

args = get_args()
a = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=PROF_OPTS))
b = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=args.prof_opts))
