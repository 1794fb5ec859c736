# A module with no entry point that starts nothing itself is imported by the scripts that train: what it
# keeps where they can read it (an instance attribute, a module-level name) may reach GE there. Nothing
# here hands these configs over, and no NPP006 says they are never passed.
from npu_bridge.estimator.npu.npu_config import ProfilingConfig

PROFILING = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"/tmp/p","task_trace":"on"}')


class CreateSession:
    def __init__(self):
        self.profiling_config = ProfilingConfig(enable_profiling=True,
                                                profiling_options='{"output":"/tmp/q","task_trace":"on"}')


def helper():
    local = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"/tmp/r","task_trace":"on"}')  # NPP006: 13
    return None
