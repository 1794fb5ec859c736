# OPTIONS: --npuprof-torch-npu=7.3
# torch_npu 7.3: the model zoo's step-triggered Profile (torch_npu.utils.profiler), written wrong and right.
import os

import torch
import torch_npu
from torch_npu.utils.profiler import Profile

legacy_type = Profile(start_step=5, profile_type="CANN")  # NPP312: 50
slip = Profile(start_step=5, profile_type="Ascend_Profiler")  # NPP312: 43
torch_type = Profile(start_step=5, profile_type="TORCH")  # NPP313: 49
no_type = Profile(start_step=5)  # NPP312: 11
twice = Profile(start_step=5, profile_type=os.getenv("PROFILE_TYPE"), record_shapes=True)  # NPP313: 85
unknown_kw = Profile(start_step=5, profile_type="ASCEND_PROFILER", with_flops=True)  # NPP313: 79
step_zero = Profile(start_step=0, profile_type=os.getenv("PROFILE_TYPE"))  # NPP314: 32
step_text = Profile(start_step="5", profile_type="ASCEND_PROFILER")  # NPP314: 32

short = Profile(start_step=20, profile_type="ASCEND_PROFILER")
for i in range(8):  # NPP314: 10
    short.start()
    short.end()

# the model zoo's own form: off unless PROFILE_TYPE is set, on the step PROFILE_START_STEP names
zoo = Profile(start_step=int(os.getenv("PROFILE_START_STEP", 10)), profile_type=os.getenv("PROFILE_TYPE"),
              record_shape=True, profile_memory=True)
for epoch in range(3):
    for step, batch in enumerate(loader):
        zoo.start()
        zoo.end()
