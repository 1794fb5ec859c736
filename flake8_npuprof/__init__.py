"""flake8-npuprof: static checks for Ascend NPU profiling setup in TensorFlow scripts."""

__version__ = "0.1.0"
