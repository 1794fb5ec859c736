"""The cheap first stage: does this file mention profiling at all?

Three substring scans of the raw text (a few microseconds for a typical file), and nothing
heavy is imported for a file without the markers. "rofiling" covers profiling_mode,
profiling_options, ProfilingConfig, enable_profiling and profiling_config; "PROFILING" the
environment variables; "custom_optimizers" NpuOptimizer entries that carry no profiling
word of their own; "msprof" command lines run from Python.
"""

def might_configure_profiling(text: str) -> bool:
    return "rofiling" in text or "PROFILING" in text or "custom_optimizers" in text or "msprof" in text
