"""Stand-in for the mindspore.profiler package root.

The real root imports the whole profiler (and with it the C++ core); the
oracle imports the configuration modules one by one. Only the name the
environment-variable path imports from the root is here.
"""
from mindspore.profiler.profiler import tensorboard_trace_handler  # noqa: F401
