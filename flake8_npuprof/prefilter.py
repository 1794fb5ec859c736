"""The cheap first stage: does this file mention profiling at all?

A handful of substring tests on the raw text; a file without any of the markers costs a few
microseconds and nothing heavy is imported for it.
"""

MARKERS = ("profiling", "PROFILING", "NpuOptimizer", "ProfilingConfig", "Profiler(", "npu_bridge",
           "npu_device", "custom_optimizers")


def might_configure_profiling(text: str) -> bool:
    return any(marker in text for marker in MARKERS)
