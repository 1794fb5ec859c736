"""The MindSpore oracle's case set: generated from the tables below.

Same shape as tools/torch_oracle/cases.py. ``call`` is run with
``ProfilerLevel``, ``ProfilerActivity``, ``AicoreMetrics``, ``ExportType``,
``HostSystem``, ``schedule``, ``_ExperimentalConfig`` and ``Profiler``
imported, where ``Profiler(**kwargs)`` runs what ``mindspore.Profiler``
validates its keywords with: ``ProfilerParameters(**kwargs)`` (its
``ProfilerContext.set_params``). For ``dynamic_json`` the call is the JSON
text of ``profiler_config.json``; for ``env`` it is the value of
``MS_PROFILER_OPTIONS``; for ``lifecycle`` it is a JSON object: a ``schedule`` call and
the ``steps`` a training loop runs, each followed by ``prof.step()``, between the
profiler's start and stop. For ``profiler`` it is a script run with the wheel's own
``Profiler``, ``profile`` and ``tensorboard_trace_handler`` (profiler.py) and ``mark(text)``,
which puts the script's own steps among the calls; it ends with ``del prof``, what
the program's end does to the profiler (its ``__del__``).
"""
from __future__ import annotations

import json

APIS = ("ProfilerParameters", "schedule", "_ExperimentalConfig", "dynamic_json", "env", "path", "lifecycle",
        "profiler")

PARAM_VALUES = {
    "profiler_level": [
        ("enum_level1", "ProfilerLevel.Level1"), ("enum_level2", "ProfilerLevel.Level2"),
        ("enum_level_none", "ProfilerLevel.LevelNone"), ("str_Level1", '"Level1"'),
        ("lower_level1", '"level1"'), ("int_1", "1"), ("none", "None"),
    ],
    "aic_metrics": [
        ("enum_pipe", "AicoreMetrics.PipeUtilization"), ("enum_none", "AicoreMetrics.AiCoreNone"),
        ("str_PipeUtilization", '"PipeUtilization"'), ("str_acl_pipe", '"ACL_AICORE_PIPE_UTILIZATION"'),
        ("int_1", "1"),
    ],
    "activities": [
        ("enum_npu", "[ProfilerActivity.NPU]"), ("enum_cpu", "[ProfilerActivity.CPU]"),
        ("str_list_npu", '["NPU"]'), ("bare_str", '"NPU"'), ("bare_enum", "ProfilerActivity.NPU"),
        ("empty", "[]"),
    ],
    "export_type": [
        ("enum_list_db", "[ExportType.Db]"), ("enum_db", "ExportType.Db"), ("str_db", '"db"'),
        ("str_list_db", '["db"]'), ("cap_Db", '"Db"'), ("str_json", '"json"'),
    ],
    "host_sys": [
        ("enum_list", "[HostSystem.CPU]"), ("str_list", '["cpu"]'), ("str", '"cpu"'),
    ],
    "output_path": [("str", '"./prof"'), ("int", "123")],
    "schedule": [("ok", "schedule(wait=1, active=1)"), ("dict", '{"wait": 1, "active": 1}')],
    "on_trace_ready": [("str", '"./prof"')],
}
BOOL_PARAMS = ("l2_cache", "with_stack", "profile_memory", "data_simplification", "record_shapes", "mstx",
               "sys_io", "start_profile")
BOOL_VALUES = [("true", "True"), ("int_1", "1"), ("str_True", '"True"')]
for _p in BOOL_PARAMS:
    PARAM_VALUES[_p] = list(BOOL_VALUES)

PARAM_COMBOS = [
    ("default", ""),
    ("level0_pipe", "profiler_level=ProfilerLevel.Level0, aic_metrics=AicoreMetrics.PipeUtilization"),
    ("level1_none", "profiler_level=ProfilerLevel.Level1, aic_metrics=AicoreMetrics.AiCoreNone"),
    ("level1_default", "profiler_level=ProfilerLevel.Level1"),
    ("level_none_no_mstx", "profiler_level=ProfilerLevel.LevelNone"),
    ("level_none_mstx", "profiler_level=ProfilerLevel.LevelNone, mstx=True"),
    ("record_shapes_npu_only", "activities=[ProfilerActivity.NPU], record_shapes=True"),
    ("mstx_domain_without_mstx", 'mstx_domain_include=["d1"]'),
    ("mstx_domain_both", 'mstx=True, mstx_domain_include=["d1"], mstx_domain_exclude=["d2"]'),
    ("schedule_data_process", "schedule=schedule(wait=1, active=1), data_process=True"),
    ("unknown_aicore_metrics", "aicore_metrics=AicoreMetrics.PipeUtilization"),
    ("unknown_level", "level=ProfilerLevel.Level1"),
    ("deprecated_profile_communication", "profile_communication=True"),
    ("deprecated_op_time", "op_time=True"),
    ("deprecated_timeline_limit", "timeline_limit=500"),
    ("pcie_true", "pcie=True"),
    ("hbm_ddr_true", "hbm_ddr=True"),
    # whole keyword sets as scripts write them (older MindFormers style, the current guide's)
    ("script_legacy_kwargs", 'start_profile=False, output_path="./prof", profile_communication=True, '
                             "profile_memory=True, op_time=True"),
    ("script_level1_stack", 'start_profile=False, output_path="./prof", profiler_level=ProfilerLevel.Level1, '
                            "with_stack=True, data_simplification=False"),
    ("script_enums", "profiler_level=ProfilerLevel.Level2, aic_metrics=AicoreMetrics.ArithmeticUtilization, "
                     "activities=[ProfilerActivity.CPU, ProfilerActivity.NPU], export_type=[ExportType.Text, "
                     "ExportType.Db], l2_cache=True"),
]

SCHEDULE_PARAMS = ("wait", "active", "warmup", "repeat", "skip_first")
SCHEDULE_VALUES = [("int_2", "2"), ("float_2_0", "2.0"), ("str_2", '"2"'), ("negative", "-1"),
                   ("zero", "0"), ("none", "None"), ("bool_true", "True")]
SCHEDULE_EXTRA = [
    ("minimal", "schedule(wait=1, active=1)"),
    ("positional_2", "schedule(1, 2)"),
    ("positional_3", "schedule(1, 2, 3)"),
    ("missing_wait", "schedule(active=1)"),
    ("skip_first_wait", "schedule(wait=1, active=1, skip_first_wait=1)"),
]

# a profiler started, stepped `steps` times and stopped (mindspore.profiler.profile's start/step/stop): the state
# each schedule ends in (wait, warmup, in the record window, after the last repeat) and a trace saved on the way
LIFECYCLE = [
    ("ends_in_wait", "schedule(wait=5, active=2, repeat=1)", 3),
    ("ends_in_warmup", "schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=2)", 3),
    ("ends_in_record", "schedule(wait=1, active=3, repeat=1)", 2),
    ("ends_at_record_start", "schedule(wait=3, active=2, repeat=1)", 3),
    ("saves_then_ends_in_none", "schedule(wait=1, active=2, repeat=1)", 6),
    ("saves_then_ends_in_warmup", "schedule(wait=0, warmup=1, active=1, repeat=2)", 3),
    ("never_stepped_wait", "schedule(wait=1, active=1)", 0),
    ("never_stepped_warmup", "schedule(wait=0, warmup=1, active=1)", 0),
    ("never_stepped_record", "schedule(wait=0, active=2)", 0),
]


def _run(ctor, steps=0, form="stop", before=""):
    """A script that builds `ctor` as prof, steps it `steps` times and stops it (form "stop": prof.stop(); "with":
    the with block's exit), then drops it as the program's end does."""
    body = ("for _ in range(%d):\n    mark('prof.step()')\n    prof.step()\n" % steps) if steps else "mark('train')\n"
    if form == "with":
        text = "with %s as prof:\n%s" % (ctor, "".join("    " + line + "\n" for line in body.splitlines()))
    else:
        text = "prof = %s\n%smark('prof.stop()')\nprof.stop()\n" % (ctor, body)
    return before + text + "mark('del prof')\ndel prof\n"


_TB = "on_trace_ready=tensorboard_trace_handler('./tb')"
# mindspore.Profiler and mindspore.profiler.profile run as scripts use them: stop() of a schedule never stepped
# (Profiler returns at once), a trace saved at stop() after the last step, and a folder that cannot be made
PROFILER_RUNS = [
    ("Profiler_no_step_record_stop", _run("Profiler(schedule=schedule(wait=0, active=2), %s)" % _TB)),
    ("Profiler_no_step_record_with", _run("Profiler(schedule=schedule(wait=0, active=2), %s)" % _TB, form="with")),
    ("Profiler_no_step_save_stop", _run("Profiler(schedule=schedule(wait=0, active=1), %s)" % _TB)),
    ("Profiler_no_step_warmup_stop", _run("Profiler(schedule=schedule(wait=0, warmup=1, active=1), %s)" % _TB)),
    ("Profiler_no_step_wait_stop", _run("Profiler(schedule=schedule(wait=1, active=1), %s)" % _TB)),
    ("Profiler_no_schedule_stop", _run("Profiler(%s)" % _TB)),
    ("profile_no_step_record_stop", _run("profile(schedule=schedule(wait=0, active=2), %s)" % _TB)),
    ("profile_no_step_record_with", _run("profile(schedule=schedule(wait=0, active=2), %s)" % _TB, form="with")),
    ("profile_no_step_save_stop", _run("profile(schedule=schedule(wait=0, active=1), %s)" % _TB)),
    ("Profiler_stepped_ends_in_record", _run("Profiler(schedule=schedule(wait=1, active=3, repeat=1), %s)" % _TB,
                                             steps=2)),
    ("Profiler_stepped_ends_at_record_start", _run("Profiler(schedule=schedule(wait=3, active=2, repeat=1), %s)"
                                                   % _TB, steps=3)),
    ("Profiler_stepped_ends_at_save", _run("Profiler(schedule=schedule(wait=2, active=1, repeat=1), %s)" % _TB,
                                           steps=2)),
    ("profile_stepped_ends_at_record_start", _run("profile(schedule=schedule(wait=3, active=2, repeat=1), %s)"
                                                  % _TB, steps=3)),
    ("profile_stepped_ends_at_save", _run("profile(schedule=schedule(wait=2, active=1, repeat=1), %s)" % _TB,
                                          steps=2)),
    ("profile_stepped_ends_at_save_with", _run("profile(schedule=schedule(wait=2, active=1, repeat=1), %s)" % _TB,
                                               steps=2, form="with")),
    ("Profiler_output_ok", _run("Profiler(output_path='./out')")),
    ("Profiler_output_proc", _run("Profiler(output_path='/proc')")),
    ("Profiler_output_under_proc", _run("Profiler(output_path='/proc/x')")),
    ("Profiler_output_under_sys", _run("Profiler(output_path='/sys/x')")),
    ("Profiler_output_file", _run("Profiler(output_path='f')", before="open('f', 'w').close()\n")),
    ("Profiler_output_under_file", _run("Profiler(output_path='f/sub')", before="open('f', 'w').close()\n")),
    ("Profiler_output_under_proc_scheduled", _run("Profiler(output_path='/proc/x', schedule=schedule(wait=1, "
                                                  "active=1, repeat=1))", steps=2)),
    ("profile_handler_under_proc", _run("profile(on_trace_ready=tensorboard_trace_handler('/proc/x'))")),
    ("profile_handler_file", _run("profile(on_trace_ready=tensorboard_trace_handler('f'))",
                                  before="open('f', 'w').close()\n")),
    ("profile_handler_under_file", _run("profile(on_trace_ready=tensorboard_trace_handler('f/sub'))",
                                        before="open('f', 'w').close()\n")),
]

EXP_CALLS = [
    ("default", "_ExperimentalConfig()"),
    ("str_level1", '_ExperimentalConfig(profiler_level="Level1")'),
    ("enum_level1", "_ExperimentalConfig(profiler_level=ProfilerLevel.Level1)"),
    ("str_metric", '_ExperimentalConfig(aic_metrics="PipeUtilization")'),
    ("export_str", '_ExperimentalConfig(export_type="db")'),
    ("unknown_keyword", "_ExperimentalConfig(aicore_metrics=AicoreMetrics.PipeUtilization)"),
    ("torch_only_keyword", "_ExperimentalConfig(op_attr=True)"),
]

DYNAMIC_BASE = {"start_step": 2, "stop_step": 5, "aic_metrics": "AiCoreNone", "profiler_level": "Level0",
                "analyse_mode": -1, "activities": ["CPU", "NPU"], "export_type": ["text"],
                "profile_memory": False, "mstx": False, "parallel_strategy": False, "with_stack": False,
                "data_simplification": True, "l2_cache": False, "analyse": True, "record_shapes": False,
                "prof_path": "./"}
_ABSENT = object()
DYNAMIC_VARIANTS = [
    ("base", {}),
    ("start_step.str_5", {"start_step": "5"}),
    ("start_step.zero", {"start_step": 0}),
    ("start_step.absent", {"start_step": _ABSENT}),
    ("stop_step.str", {"stop_step": "9"}),
    ("profiler_level.Level1", {"profiler_level": "Level1"}),
    ("profiler_level.lower", {"profiler_level": "level1"}),
    ("profiler_level.int_1", {"profiler_level": 1}),
    ("aic_metrics.name", {"profiler_level": "Level1", "aic_metrics": "PipeUtilization"}),
    ("aic_metrics.acl", {"profiler_level": "Level1", "aic_metrics": "ACL_AICORE_PIPE_UTILIZATION"}),
    ("aic_metrics.int", {"profiler_level": "Level1", "aic_metrics": 1}),
    ("activities.lower", {"activities": ["cpu"]}),
    ("activities.str", {"activities": "CPU"}),
    ("activities.npu_only", {"activities": ["NPU"]}),
    ("activities.int", {"activities": 1}),
    ("export_type.Text", {"export_type": ["Text"]}),
    ("export_type.db", {"export_type": ["db"]}),
    ("export_type.str_db", {"export_type": "db"}),
    ("analyse_mode.str", {"analyse_mode": "0"}),
    ("with_stack.str", {"with_stack": "true"}),
    ("unknown_key", {"foo": 1}),
]

ENV_OPTIONS = [
    ("start_level1", {"start": True, "profiler_level": "Level1"}),
    ("start_level1_lower", {"start": True, "profiler_level": "level1"}),
    ("start_metric_name", {"start": True, "profiler_level": "Level1", "aic_metrics": "PipeUtilization"}),
    ("start_metric_acl", {"start": True, "profiler_level": "Level1", "aic_metrics": "ACL_AICORE_PIPE_UTILIZATION"}),
    ("start_activities_npu", {"start": True, "activities": ["NPU"]}),
    ("start_activities_lower", {"start": True, "activities": ["npu"]}),
    ("start_export_db", {"start": True, "export_type": ["db"]}),
    ("no_start", {"profiler_level": "Level1"}),
    ("start_false", {"start": False, "profiler_level": "Level1"}),
    ("start_str_true", {"start": "true", "profiler_level": "Level1"}),
    ("empty", {}),
]
ENV_TEXTS = [("invalid_json", "{start: true}"), ("not_object", '["start"]')]


def _json(variant, base):
    data = dict(base)
    for key, value in variant.items():
        if value is _ABSENT:
            data.pop(key, None)
        else:
            data[key] = value
    return json.dumps(data, sort_keys=True)


# Where the data goes: the folder the profiler's path code names when it starts (ProfilerInterface.init calls
# set_ascend_ms_dir), from what tensorboard_trace_handler hands ProfilerPathManager().init (profiler.py) and what
# Profiler/profile hand ProfilerContext().set_params; `ctx` and `paths` are those two singletons.
_START = "ctx.set_params(%s)\npaths.set_ascend_ms_dir()\n"
PATH_CALLS = [
    ("default", _START % ""),
    ("output_path", _START % "output_path='./out'"),
    ("output_path_absolute", _START % "output_path='/opt/npu_prof'"),
    ("handler_dir", "paths.init(None, './tb')\n" + _START % ""),
    ("handler_worker", "paths.init('w0', None)\n" + _START % ""),
    ("handler_dir_and_output_path", "paths.init('w0', './tb')\n" + _START % "output_path='./out'"),
    ("handler_worker_too_long", "paths.init('w' * 226, None)\n" + _START % ""),
    ("rank_id_env", "os.environ['RANK_ID'] = '3'\nctx._init_rank_id()\n" + _START % ""),
    ("rank_id_env_not_a_number", "os.environ['RANK_ID'] = 'x1'\nctx._init_rank_id()\n" + _START % ""),
    ("ascend_work_path", "os.environ['ASCEND_WORK_PATH'] = '/tmp'\n" + _START % ""),
]


def all_cases():
    out = []
    for param, values in PARAM_VALUES.items():
        for vid, text in values:
            out.append({"case": "params.%s.%s" % (param, vid), "api": "ProfilerParameters",
                        "call": "Profiler(%s=%s)" % (param, text)})
    for cid, text in PARAM_COMBOS:
        out.append({"case": "params.combo.%s" % cid, "api": "ProfilerParameters", "call": "Profiler(%s)" % text})
    for param in SCHEDULE_PARAMS:
        for vid, text in SCHEDULE_VALUES:
            kwargs = {"wait": "1", "active": "1"}
            kwargs[param] = text
            out.append({"case": "schedule.%s.%s" % (param, vid), "api": "schedule",
                        "call": "schedule(%s)" % ", ".join("%s=%s" % kv for kv in kwargs.items())})
    for cid, call in SCHEDULE_EXTRA:
        out.append({"case": "schedule.%s" % cid, "api": "schedule", "call": call})
    for cid, call in EXP_CALLS:
        out.append({"case": "exp.%s" % cid, "api": "_ExperimentalConfig", "call": call})
    for cid, variant in DYNAMIC_VARIANTS:
        out.append({"case": "dynamic.%s" % cid, "api": "dynamic_json", "call": _json(variant, DYNAMIC_BASE)})
    for cid, options in ENV_OPTIONS:
        out.append({"case": "env.%s" % cid, "api": "env", "call": json.dumps(options, sort_keys=True)})
    for cid, text in ENV_TEXTS:
        out.append({"case": "env.%s" % cid, "api": "env", "call": text})
    for cid, call, steps in LIFECYCLE:
        out.append({"case": "lifecycle.%s" % cid, "api": "lifecycle",
                    "call": json.dumps({"schedule": call, "steps": steps}, sort_keys=True)})
    for cid, call in PROFILER_RUNS:
        out.append({"case": "profiler.%s" % cid, "api": "profiler", "call": call})
    for cid, call in PATH_CALLS:
        out.append({"case": "path.%s" % cid, "api": "path", "call": call})
    ids = [c["case"] for c in out]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate case ids")
    return sorted(out, key=lambda c: c["case"])
