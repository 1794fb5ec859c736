"""TF2 with npu_device: global profiling options are set before npu.open()."""
import json
import os

import npu_device as npu
import tensorflow as tf

output_dir = os.path.join(os.getcwd(), "profiling")
npu.global_options().profiling_config.enable_profiling = True
npu.global_options().profiling_config.profiling_options = json.dumps(
    {"output": output_dir, "task_trace": "on", "aic_metrics": "PipeUtilization"})
npu.open().as_default()

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile(optimizer="adam", loss="mse")
model.fit(tf.random.uniform([64, 8]), tf.random.uniform([64, 10]), epochs=1)
