"""torch_npu training with dynamic profiling: torch_npu reads torch_cfg/profiler_config.json."""
from torch_npu.profiler import dynamic_profile

dynamic_profile.init("./torch_cfg")
