"""Stand-in for torch_npu._C: the compiled extension is not loaded."""
from . import _profiler  # noqa: F401
