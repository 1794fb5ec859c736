"""Stand-in for the mindspore package root (our code, not MindSpore's).

The real root loads the framework's C++ core. The profiler's configuration
code reads only ``mindspore.log`` and ``mindspore.communication`` from it.
"""
