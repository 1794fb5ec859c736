# OPTIONS: --npuprof-torch-npu=26.1
# A PROFILING_MODE left over from TF/GE profiling switches the torch_npu profiler off on 26.1.
import os

import torch_npu

os.environ["PROFILING_MODE"] = "false"  # NPP310: 1
os.environ.setdefault("PROFILER_SAMPLECONFIG", "{}")  # NPP310: 1

with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof")):
    pass
