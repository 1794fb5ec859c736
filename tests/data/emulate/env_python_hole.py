import json
import os

rank = int(os.getenv("RANK_ID", "0"))
if rank == 0:
    os.environ["PROFILING_MODE"] = "true"
    os.environ["PROFILING_OPTIONS"] = json.dumps({
        "output": "/tmp/profiling/rank_%d" % rank,
        "task_trace": "on",
        "hccl": "on",
        "storage_limit": "1000MB",
    })

import tensorflow as tf
from npu_bridge.npu_init import *

sess = tf.Session(config=npu_config_proto())
