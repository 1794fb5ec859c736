"""Stand-in for torch_npu.npu: a machine with one NPU that does nothing.

The profiler asks whether a device is there, synchronises, and records
events and streams around its start and stop; none of that changes which
settings it validates or which profiler calls it makes.
"""
from .mstx import mstx

__all__ = ["mstx"]


def is_available():
    return True


def device_count():
    return 1


def current_device():
    return 0


def synchronize(*args, **kwargs):
    return None


def _lazy_init():
    return None


def set_device(*args, **kwargs):
    return None


class Event:
    def __init__(self, *args, **kwargs):
        pass

    def record(self, *args, **kwargs):
        return None

    def synchronize(self):
        return None

    def wait(self, *args, **kwargs):
        return None

    def query(self):
        return True

    def elapsed_time(self, other):
        return 0.0


class _Stream:
    npu_stream = 0

    def synchronize(self):
        return None


def current_stream(*args, **kwargs):
    return _Stream()
