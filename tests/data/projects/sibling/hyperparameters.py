"""Flags of the training job (absl)."""
from absl import flags

FLAGS = flags.FLAGS
flags.DEFINE_boolean("profiling", False, "collect a profile")
flags.DEFINE_string("profiling_options",
                    '{"output": "/tmp/prof", "task_trace": "on", "aic_metrics": "PipeUtilisation"}',
                    "profiling options (JSON)")
