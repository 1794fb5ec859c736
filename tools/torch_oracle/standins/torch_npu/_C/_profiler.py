"""Recording stand-in for torch_npu._C._profiler (the C++ profiler binding).

Every function the Python profiler calls into C++ is recorded in CALLS, in
order, with its arguments, and does nothing else: which calls the validated
configuration reaches (init, warmup, start, stop, finalize) is the outcome the
oracle records. Names the binding has and this file does not list are made by
the module __getattr__ below, so a release that calls a new function is still
recorded, never refused.
"""
import enum

CALLS = []


class ProfilerActivity(enum.Enum):
    # pybind11 enum in the real binding; members compare by identity as there.
    CPU = 0
    NPU = 1


def _plain(value):
    if isinstance(value, ProfilerActivity):
        return "ProfilerActivity." + value.name
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_plain(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (_ExperimentalConfig, NpuProfilerConfig)):
        return value.record()
    return type(value).__name__


class _Recorded:
    """A C++ struct built from keyword or positional arguments, kept as given."""

    def __init__(self, *args, **kwargs):
        self.args = [_plain(a) for a in args]
        self.kwargs = {k: _plain(v) for k, v in kwargs.items()}

    def record(self):
        out = {"type": type(self).__name__}
        if self.args:
            out["args"] = self.args
        out.update(self.kwargs)
        return out


class _ExperimentalConfig(_Recorded):
    pass


class NpuProfilerConfig(_Recorded):
    pass


def _recorder(name):
    def call(*args, **kwargs):
        entry = {"fn": name}
        if args:
            entry["args"] = [_plain(a) for a in args]
        if kwargs:
            entry["kwargs"] = {k: _plain(v) for k, v in kwargs.items()}
        CALLS.append(entry)
        return _RETURNS.get(name)
    call.__name__ = name
    return call


# What the few value-returning functions answer on a machine with an NPU.
_RETURNS = {
    "_supported_npu_activities": None,
    "_get_syscnt_enable": False,
    "_get_freq": 100,
    "_get_syscnt": 0,
    "_get_monotonic": 0,
    "_get_host_uid": 0,
}


def _supported_npu_activities():
    CALLS.append({"fn": "_supported_npu_activities"})
    return {ProfilerActivity.CPU, ProfilerActivity.NPU}


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    fn = _recorder(name)
    globals()[name] = fn
    return fn
