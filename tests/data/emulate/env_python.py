"""Profiling switched on through environment variables set from Python before GE starts."""
import os

import tensorflow as tf
from npu_bridge.npu_init import *

os.environ["PROFILING_MODE"] = "true"
os.environ["PROFILING_OPTIONS"] = '{"output":"/tmp/npuprof_env","task_trace":"on","l2":"on"}'
npu_sess, npu_shutdown = init_resource()
