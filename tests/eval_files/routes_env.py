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


def switched_off_where_profiling_is_meant(args):
    if args.profiling:
        os.environ["PROFILING_MODE"] = "false"
        os.environ["PROFILING_OPTIONS"] = OPTIONS  # NPP001: 9


def deliberately_off():
    # an explicit off switch beside parked options: not NPP001; their problems are latent
    os.environ["PROFILING_MODE"] = "FALSE"  # true to profile
    os.environ["PROFILING_OPTIONS"] = '{"output":"/tmp/p","training_trace":"off"}'  # NPP103: 76


def reassigned_later():
    os.environ["PROFILING_MODE"] = "True"
    os.environ["PROFILING_OPTIONS"] = OPTIONS
    os.environ["PROFILING_MODE"] = "true"  # the last value is what GE reads


def template_left_for_a_generator():
    os.environ["PROFILING_MODE"] = "{PROFILING_MODE}"
    os.environ["PROFILING_OPTIONS"] = OPTIONS


def empty_options():
    os.environ["PROFILING_MODE"] = "true"
    os.environ["PROFILING_OPTIONS"] = ""  # NPP002: 5


def attach_mode_is_fine():
    os.environ["PROFILING_MODE"] = "dynamic"
