# PROFILING_MODE / PROFILING_OPTIONS set from Python: GE reads them when the script's own
# config does not switch profiling on.
import os
from os import environ

OPTIONS = '{"output":"/tmp/p","task_trace":"on","training_trace":"on","fp_point":"","bp_point":""}'


def capitalised_mode():
    os.environ["PROFILING_MODE"] = "True"  # NPP011: 36
    os.environ["PROFILING_OPTIONS"] = OPTIONS


def one_means_off():
    os.putenv("PROFILING_MODE", "1")  # NPP011: 33
    os.putenv("PROFILING_OPTIONS", OPTIONS)


def update_with_bad_options():
    os.environ.update({"PROFILING_MODE": "true", "PROFILING_OPTIONS": '{"output":"/tmp/p","hccl":"yes"}'})  # NPP102: 98


def setdefault_and_alias():
    environ.setdefault("PROFILING_MODE", "true")
    environ.setdefault("PROFILING_OPTIONS", '{"output":"/tmp/p","training_trace":"off"}')  # NPP103: 82


def switched_off():
    os.environ["PROFILING_MODE"] = "false"
    os.environ["PROFILING_OPTIONS"] = OPTIONS  # NPP001: 5


def empty_options():
    os.environ["PROFILING_MODE"] = "true"
    os.environ["PROFILING_OPTIONS"] = ""  # NPP002: 5


def attach_mode_is_fine():
    os.environ["PROFILING_MODE"] = "dynamic"
