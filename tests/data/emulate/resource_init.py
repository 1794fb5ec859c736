"""GE initialised by npu_resource_init with profiling options."""
from npu_bridge.estimator.npu.npu_plugin import npu_resource_init

npu_resource_init(enable_profiling=True, profiling_options='{"output":"/tmp/npuprof_ri","task_trace":"on","hccl":"on"}')
