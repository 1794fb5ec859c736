import tensorflow as tf
from npu_bridge.npu_init import *
from .settings import OPTIONS
from . import settings


def build():
    a = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS))
    b = NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=settings.OPTIONS))
    return a, b
