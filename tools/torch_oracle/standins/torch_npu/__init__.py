"""Stand-in for the torch_npu package root (our code, not torch_npu's).

The real root loads the NPU extension and patches torch; the profiler's
configuration code needs none of that. Only the names it reads are here.
"""
__version__ = "oracle"
