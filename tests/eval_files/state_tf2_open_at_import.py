# The device is opened at import; the options set later in a function come too late (as emulate says).
import npu_device as npu

npu.open().as_default()


def train():
    npu.global_options().profiling_config.enable_profiling = True  # NPP012: 5
    npu.global_options().profiling_config.profiling_options = '{"output":"/tmp/p","task_trace":"on"}'  # NPP012: 5


train()
