"""NPP316: PROF_CONFIG_PATH set where torch_npu never reads it (torch_npu reads it once, when it is imported)."""
import os

os.environ["PROF_CONFIG_PATH"] = ""    # empty: starts nothing on any release, nothing to say
import torch
import torch_npu

os.environ["PROF_CONFIG_PATH"] = "./dp_config"  # NPP316: 1
if os.getenv("RANK") == "0":
    os.environ["PROF_CONFIG_PATH"] = "./dp_rank0"  # NPP316: 5


def later():
    os.environ["PROF_CONFIG_PATH"] = "./dp_later"     # a function's: when it runs is not the module's order
