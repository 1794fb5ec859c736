"""Recording stand-in for mindspore/profiler/profiler.py (Profile, the handler).

Only the MS_PROFILER_OPTIONS path (envprofiler.py) reaches this module: what
it hands to ``Profile(...)`` and the handler is recorded in CALLS, which is
that path's outcome. The real module drives the C++ profiler.
"""
CALLS = []


def _plain(value):
    if hasattr(value, "value") and type(value).__module__.startswith("mindspore"):
        return "%s.%s" % (type(value).__name__, value.name)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if type(value).__name__ == "_ExperimentalConfig":
        return {k.lstrip("_"): _plain(v) for k, v in sorted(vars(value).items())}
    return "<%s>" % type(value).__name__


class Profile:
    def __init__(self, **kwargs):
        CALLS.append({"fn": "Profile", "kwargs": {k: _plain(v) for k, v in kwargs.items()}})

    def start(self):
        CALLS.append({"fn": "Profile.start"})

    def stop(self):
        CALLS.append({"fn": "Profile.stop"})


def tensorboard_trace_handler(dir_name=None, worker_name=None, analyse_flag=True, async_mode=False):
    CALLS.append({"fn": "tensorboard_trace_handler", "dir_name": _plain(dir_name)})
    return "<handler>"
