"""Stand-in for the torch_npu.utils package root.

The real root patches torch and loads the extension. The profiler imports
only the warning switch from it, which lives in the release's own
``utils/utils.py`` (extracted from the wheel beside this file, where the
release has one): re-exported here unchanged.
"""
import importlib.util as _ilu

if _ilu.find_spec(__name__ + ".utils") is not None:
    from . import utils as _utils

    for _name in ("_should_print_warning", "should_print_warning"):
        if hasattr(_utils, _name):
            globals()[_name] = getattr(_utils, _name)
