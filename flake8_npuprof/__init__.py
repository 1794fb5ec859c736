"""flake8-npuprof: static checks for Ascend NPU profiling setup in TensorFlow, torch_npu and
MindSpore scripts and their shell launchers."""

__version__ = "0.1.0"
