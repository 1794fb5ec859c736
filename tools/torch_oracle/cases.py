"""The torch_npu oracle's case set: generated from the tables below.

Each case is a dict: ``case`` (a stable id), ``api``, ``call`` (the Python a
user writes, evaluated or run with ``torch_npu``, ``torch`` and the
``torch_npu.profiler`` names imported; for ``dynamic_json`` the JSON text of a
``profiler_config.json``) and, where it matters, ``env``. Every release runs
the same cases: a keyword a release lacks shows as its TypeError there.

In lifecycle cases ``trace_ready`` is a function that only records that the
profiler called it (in place of a trace handler that would parse data).
"""
from __future__ import annotations

import json

APIS = ("_ExperimentalConfig", "schedule", "profile", "tensorboard_trace_handler",
        "lifecycle", "dynamic_json", "env", "utils_profile")

# ---------------------------------------------------------------- _ExperimentalConfig
# (id, keyword text) per parameter: good values, bad types, bad values, enum
# names instead of the constants, wrong case.
EXP_VALUES = {
    "profiler_level": [
        ("enum_level0", "ProfilerLevel.Level0"), ("enum_level1", "ProfilerLevel.Level1"),
        ("enum_level2", "ProfilerLevel.Level2"), ("enum_level_none", "ProfilerLevel.Level_none"),
        ("str_Level1", '"Level1"'), ("str_Level2", '"Level2"'), ("str_Level_none", '"Level_none"'),
        ("lower_level1", '"level1"'), ("upper_LEVEL1", '"LEVEL1"'), ("int_1", "1"),
        ("str_Level3", '"Level3"'), ("none", "None"), ("str_LevelNone", '"LevelNone"'),
    ],
    "aic_metrics": [
        ("enum_pipe", "AiCMetrics.PipeUtilization"), ("enum_arith", "AiCMetrics.ArithmeticUtilization"),
        ("enum_memory", "AiCMetrics.Memory"), ("enum_memory_l0", "AiCMetrics.MemoryL0"),
        ("enum_memory_ub", "AiCMetrics.MemoryUB"), ("enum_conflict", "AiCMetrics.ResourceConflictRatio"),
        ("enum_l2cache", "AiCMetrics.L2Cache"), ("enum_memory_access", "AiCMetrics.MemoryAccess"),
        ("enum_none", "AiCMetrics.AiCoreNone"),
        ("str_pipe", '"ACL_AICORE_PIPE_UTILIZATION"'), ("str_none", '"ACL_AICORE_NONE"'),
        ("name_PipeUtilization", '"PipeUtilization"'), ("name_AiCoreNone", '"AiCoreNone"'),
        ("lower_pipe", '"acl_aicore_pipe_utilization"'), ("int_1", "1"),
        ("str_unknown", '"ACL_AICORE_FOO"'), ("none", "None"),
    ],
    "export_type": [
        ("enum_text", "ExportType.Text"), ("enum_db", "ExportType.Db"), ("str_db", '"db"'),
        ("list_db", '["db"]'), ("list_text_db", '["text", "db"]'), ("enum_list_db", "[ExportType.Db]"),
        ("cap_Db", '"Db"'), ("list_cap_Db", '["Db"]'), ("str_json", '"json"'), ("empty_list", "[]"),
        ("int_1", "1"), ("none", "None"),
    ],
    "gc_detect_threshold": [
        ("int_10", "10"), ("zero", "0"), ("float_1_5", "1.5"), ("negative", "-1"), ("str_1", '"1"'),
        ("none", "None"),
    ],
    "host_sys": [
        ("list_cpu", '["cpu"]'), ("list_all5", '["cpu", "mem", "disk", "network", "osrt"]'),
        ("list_numa", '["numa"]'), ("enum_list", "[HostSystem.CPU, HostSystem.MEM]"),
        ("str_cpu", '"cpu"'), ("upper_CPU", '["CPU"]'), ("unknown", '["cpu", "gpu"]'), ("empty", "[]"),
    ],
    "mstx_domain_include": [
        ("list_alone", '["d1"]'), ("str_alone", '"d1"'),
    ],
    "mstx_domain_exclude": [
        ("list_alone", '["d1"]'),
    ],
}
BOOL_PARAMS = ("l2_cache", "msprof_tx", "mstx", "op_attr", "record_op_args", "sys_io",
               "sys_interconnection", "data_simplification")
BOOL_VALUES = [("true", "True"), ("false", "False"), ("int_1", "1"), ("str_True", '"True"'),
               ("none", "None")]
for _p in BOOL_PARAMS:
    EXP_VALUES[_p] = list(BOOL_VALUES)

# Combinations (facts file T1, T2, T5 and the other cross-parameter rules).
EXP_COMBOS = [
    ("default", ""),
    ("T1_level0_pipe", "profiler_level=ProfilerLevel.Level0, aic_metrics=AiCMetrics.PipeUtilization"),
    ("T1_level_none_pipe", "profiler_level=ProfilerLevel.Level_none, aic_metrics=AiCMetrics.PipeUtilization, mstx=True"),
    ("T1_level0_none", "profiler_level=ProfilerLevel.Level0, aic_metrics=AiCMetrics.AiCoreNone"),
    ("T2_level1_none", "profiler_level=ProfilerLevel.Level1, aic_metrics=AiCMetrics.AiCoreNone"),
    ("T2_level2_none", "profiler_level=ProfilerLevel.Level2, aic_metrics=AiCMetrics.AiCoreNone"),
    ("T2_level1_default", "profiler_level=ProfilerLevel.Level1"),
    ("level1_pipe", "profiler_level=ProfilerLevel.Level1, aic_metrics=AiCMetrics.PipeUtilization"),
    ("level1_name_pipe", 'profiler_level=ProfilerLevel.Level1, aic_metrics="PipeUtilization"'),
    ("level1_memory_access", "profiler_level=ProfilerLevel.Level1, aic_metrics=AiCMetrics.MemoryAccess"),
    ("level1_l2cache_metric", "profiler_level=ProfilerLevel.Level1, aic_metrics=AiCMetrics.L2Cache"),
    ("level1_l2_cache", "profiler_level=ProfilerLevel.Level1, l2_cache=True"),
    ("T5_export_json", 'export_type="json"'),
    ("T5_op_attr_text", "op_attr=True"),
    ("T5_op_attr_db", 'op_attr=True, export_type=ExportType.Db'),
    ("T5_op_attr_list_db", 'op_attr=True, export_type=["db"]'),
    ("level_none_no_mstx", "profiler_level=ProfilerLevel.Level_none"),
    ("level_none_mstx", "profiler_level=ProfilerLevel.Level_none, mstx=True"),
    ("level_none_msprof_tx", "profiler_level=ProfilerLevel.Level_none, msprof_tx=True"),
    ("mstx_domain_include_mstx", 'mstx=True, mstx_domain_include=["d1"]'),
    ("mstx_domain_both", 'mstx=True, mstx_domain_include=["d1"], mstx_domain_exclude=["d2"]'),
    ("mstx_domain_include_ints", "mstx=True, mstx_domain_include=[1, 2]"),
    ("mstx_domain_include_str", 'mstx=True, mstx_domain_include="d1"'),
    ("level2_all", 'profiler_level=ProfilerLevel.Level2, aic_metrics=AiCMetrics.PipeUtilization, '
                   'l2_cache=True, data_simplification=False, record_op_args=False'),
    ("unknown_aicore_metrics", 'aicore_metrics=AiCMetrics.PipeUtilization'),
    ("unknown_level", 'level=ProfilerLevel.Level1'),
    ("unknown_export", 'export="db"'),
    ("positional_level", '"Level1"'),
]


# Whole configurations as scripts write them (the user guide's example, LLM-stack styles), qualified
# names included: the checks meet these more often than single keywords.
EXP_REALISTIC = [
    ("guide_example", "torch_npu.profiler._ExperimentalConfig(export_type=torch_npu.profiler.ExportType.Text, "
                      "profiler_level=torch_npu.profiler.ProfilerLevel.Level0, msprof_tx=False, "
                      "aic_metrics=torch_npu.profiler.AiCMetrics.AiCoreNone, l2_cache=False, op_attr=False, "
                      "data_simplification=False, record_op_args=False, gc_detect_threshold=None)"),
    ("level1_full", "torch_npu.profiler._ExperimentalConfig(profiler_level=torch_npu.profiler.ProfilerLevel.Level1, "
                    "aic_metrics=torch_npu.profiler.AiCMetrics.PipeUtilization, l2_cache=False, "
                    "data_simplification=False, export_type=[torch_npu.profiler.ExportType.Text, "
                    "torch_npu.profiler.ExportType.Db])"),
    ("level2_str_values", '_ExperimentalConfig(profiler_level="Level2", aic_metrics="ACL_AICORE_PIPE_UTILIZATION", '
                          'export_type="text", data_simplification=True)'),
    ("level1_msprof_tx", "_ExperimentalConfig(profiler_level=ProfilerLevel.Level1, msprof_tx=True)"),
    ("level1_mstx_domains", '_ExperimentalConfig(profiler_level=ProfilerLevel.Level1, mstx=True, '
                            'mstx_domain_include=["default"])'),
    ("level0_db_op_attr", "_ExperimentalConfig(profiler_level=ProfilerLevel.Level0, export_type=ExportType.Db, "
                          "op_attr=True, aic_metrics=AiCMetrics.AiCoreNone)"),
    ("level1_host_sys", '_ExperimentalConfig(profiler_level=ProfilerLevel.Level1, host_sys=["cpu", "mem"], '
                        "sys_io=True, sys_interconnection=True)"),
    ("level1_memory_metric_str", '_ExperimentalConfig(profiler_level="Level1", aic_metrics="ACL_AICORE_MEMORY_BANDWIDTH")'),
]


def _exp_cases():
    out = []
    for param, values in EXP_VALUES.items():
        for vid, text in values:
            out.append({"case": "exp.%s.%s" % (param, vid), "api": "_ExperimentalConfig",
                        "call": "_ExperimentalConfig(%s=%s)" % (param, text)})
    # The metric values again at Level1, where Level0 does not drop them.
    for vid, text in EXP_VALUES["aic_metrics"]:
        out.append({"case": "exp.aic_metrics_level1.%s" % vid, "api": "_ExperimentalConfig",
                    "call": "_ExperimentalConfig(profiler_level=ProfilerLevel.Level1, aic_metrics=%s)" % text})
    for cid, text in EXP_COMBOS:
        out.append({"case": "exp.combo.%s" % cid, "api": "_ExperimentalConfig",
                    "call": "_ExperimentalConfig(%s)" % text})
    for cid, call in EXP_REALISTIC:
        out.append({"case": "exp.script.%s" % cid, "api": "_ExperimentalConfig", "call": call})
    return out


# ---------------------------------------------------------------- schedule
SCHEDULE_PARAMS = ("wait", "active", "warmup", "repeat", "skip_first", "skip_first_wait")
SCHEDULE_VALUES = [("int_2", "2"), ("float_2_0", "2.0"), ("str_2", '"2"'), ("negative", "-1"),
                   ("zero", "0"), ("none", "None"), ("bool_true", "True")]
SCHEDULE_EXTRA = [
    ("minimal", "schedule(wait=1, active=1)"),
    ("full", "schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)"),
    ("positional_3", "schedule(1, 2, 3)"),
    ("positional_2", "schedule(1, 2)"),
    ("positional_5", "schedule(1, 2, 1, 1, 1)"),
    ("missing_wait", "schedule(active=1)"),
    ("missing_all", "schedule()"),
    ("unknown_keyword", "schedule(wait=1, active=1, skip_last=1)"),
    ("torch_style_keywords", "schedule(wait=0, warmup=0, active=1, repeat=0)"),
    ("torch_order_positional", "schedule(0, 0, 1)"),
]


def _schedule_cases():
    out = []
    for param in SCHEDULE_PARAMS:
        for vid, text in SCHEDULE_VALUES:
            kwargs = {"wait": "1", "active": "1"}
            kwargs[param] = text
            call = "schedule(%s)" % ", ".join("%s=%s" % kv for kv in kwargs.items())
            out.append({"case": "schedule.%s.%s" % (param, vid), "api": "schedule", "call": call})
    for cid, call in SCHEDULE_EXTRA:
        out.append({"case": "schedule.%s" % cid, "api": "schedule", "call": call})
    return out


# ---------------------------------------------------------------- profile(...)
PROFILE_CALLS = [
    ("default", "profile()"),
    ("activities_enum_both", "profile(activities=[ProfilerActivity.CPU, ProfilerActivity.NPU])"),
    ("activities_enum_npu", "profile(activities=[ProfilerActivity.NPU])"),
    ("activities_enum_cpu", "profile(activities=[ProfilerActivity.CPU])"),
    ("activities_str_npu", 'profile(activities=["NPU"])'),
    ("activities_str_both", 'profile(activities=["CPU", "NPU"])'),
    ("activities_bare_str", 'profile(activities="NPU")'),
    ("activities_empty", "profile(activities=[])"),
    ("activities_torch_cuda", "profile(activities=[torch.profiler.ProfilerActivity.CUDA])"),
    ("exp_without_npu", "profile(activities=[ProfilerActivity.CPU], "
                        "experimental_config=_ExperimentalConfig(profiler_level=ProfilerLevel.Level1))"),
    ("exp_with_npu", "profile(activities=[ProfilerActivity.NPU], "
                     "experimental_config=_ExperimentalConfig(profiler_level=ProfilerLevel.Level1))"),
    ("exp_dict", 'profile(experimental_config={"profiler_level": "Level1"})'),
    ("exp_class_not_instance", "profile(experimental_config=_ExperimentalConfig)"),
    ("on_trace_ready_str", 'profile(on_trace_ready="./prof")'),
    ("on_trace_ready_handler", 'profile(on_trace_ready=tensorboard_trace_handler("./prof"))'),
    ("schedule_int", "profile(schedule=5)"),
    ("schedule_dict", 'profile(schedule={"wait": 1, "active": 1})'),
    ("schedule_ok", "profile(schedule=schedule(wait=1, active=1))"),
    ("use_cuda_true", "profile(use_cuda=True)"),
    ("use_cuda_false", "profile(use_cuda=False)"),
    ("record_shapes_str", 'profile(record_shapes="True")'),
    ("profile_memory_int", "profile(profile_memory=1)"),
    ("with_stack_none", "profile(with_stack=None)"),
    ("with_flops_true", "profile(with_flops=True)"),
    ("with_modules_str", 'profile(with_modules="yes")'),
    ("record_shapes_npu_only", "profile(activities=[ProfilerActivity.NPU], record_shapes=True)"),
    ("gc_without_cpu", "profile(activities=[ProfilerActivity.NPU], "
                       "experimental_config=_ExperimentalConfig(gc_detect_threshold=10))"),
    ("positional_activities", "profile([ProfilerActivity.NPU])"),
    ("unknown_keyword", "profile(profiler_level=ProfilerLevel.Level1)"),
    ("custom_trace_id_not_callable", 'profile(custom_trace_id_callback="id")'),
    ("with_stack_npu_only", "profile(activities=[ProfilerActivity.NPU], with_stack=True)"),
    ("with_modules_npu_only", "profile(activities=[ProfilerActivity.NPU], with_modules=True)"),
    ("profile_memory_npu_only", "profile(activities=[ProfilerActivity.NPU], profile_memory=True)"),
    ("script_full", "torch_npu.profiler.profile(activities=[torch_npu.profiler.ProfilerActivity.CPU, "
                    "torch_npu.profiler.ProfilerActivity.NPU], schedule=torch_npu.profiler.schedule(wait=0, "
                    "warmup=0, active=1, repeat=1, skip_first=1), on_trace_ready="
                    'torch_npu.profiler.tensorboard_trace_handler("./prof"), record_shapes=True, '
                    "profile_memory=True, with_stack=True, with_flops=False, with_modules=False, "
                    "experimental_config=torch_npu.profiler._ExperimentalConfig(profiler_level="
                    "torch_npu.profiler.ProfilerLevel.Level1, aic_metrics="
                    "torch_npu.profiler.AiCMetrics.PipeUtilization))"),
    ("script_torch_activities", "profile(activities=[torch.profiler.ProfilerActivity.CPU], "
                                "schedule=torch.profiler.schedule(wait=1, warmup=1, active=2))"),
]


def _profile_cases():
    return [{"case": "profile.%s" % cid, "api": "profile", "call": call} for cid, call in PROFILE_CALLS]


# ---------------------------------------------------------------- tensorboard_trace_handler
HANDLER_CALLS = [
    ("dir_str", 'tensorboard_trace_handler("./prof")'),
    ("dir_none", "tensorboard_trace_handler()"),
    ("dir_int", "tensorboard_trace_handler(123)"),
    ("dir_file", 'tensorboard_trace_handler("./afile")'),
    ("dir_under_file", 'tensorboard_trace_handler("./afile/prof")'),
    ("dir_bytes", 'tensorboard_trace_handler(b"./prof")'),
    ("dir_bad_chars", 'tensorboard_trace_handler("./prof$dir")'),
    ("dir_proc", 'tensorboard_trace_handler("/proc/npuprof_oracle/prof")'),
    ("worker_str", 'tensorboard_trace_handler("./prof", worker_name="w1")'),
    ("worker_int", 'tensorboard_trace_handler("./prof", worker_name=1)'),
    ("worker_long", 'tensorboard_trace_handler("./prof", worker_name="w" * 300)'),
    ("analyse_flag_str", 'tensorboard_trace_handler("./prof", analyse_flag="yes")'),
    ("async_mode_int", 'tensorboard_trace_handler("./prof", async_mode=1)'),
    ("positional_all", 'tensorboard_trace_handler("./prof", "w1", False, False)'),
    ("unknown_keyword", 'tensorboard_trace_handler(dir_name="./prof", use_gzip=True)'),
]


def _handler_cases():
    return [{"case": "handler.%s" % cid, "api": "tensorboard_trace_handler", "call": call}
            for cid, call in HANDLER_CALLS]


# ---------------------------------------------------------------- lifecycle
def _loop(profile_args, steps, step_call=True, use_with=True, after=""):
    body = "    prof.step()\n" if step_call else "    pass\n"
    if use_with:
        text = "with profile(%s) as prof:\n    for i in range(%d):\n    %s" % (profile_args, steps, body)
    else:
        text = ("prof = profile(%s)\nprof.start()\nfor i in range(%d):\n%s"
                "prof.stop()\n" % (profile_args, steps, body))
    return text + after


LIFECYCLE = [
    ("never_active_wait10_steps5", _loop("schedule=schedule(wait=10, active=1), on_trace_ready=trace_ready", 5)),
    ("skip_first10_steps5", _loop("schedule=schedule(wait=0, active=1, skip_first=10), on_trace_ready=trace_ready", 5)),
    ("no_step_wait1", _loop("schedule=schedule(wait=1, active=1), on_trace_ready=trace_ready", 5, step_call=False)),
    ("no_step_wait0_warmup0", _loop("schedule=schedule(wait=0, warmup=0, active=1), on_trace_ready=trace_ready", 5,
                                    step_call=False)),
    ("no_schedule_no_step", _loop("on_trace_ready=trace_ready", 5, step_call=False)),
    ("no_schedule_step", _loop("on_trace_ready=trace_ready", 3)),
    ("good_repeat1_steps5", _loop("schedule=schedule(wait=1, warmup=1, active=2, repeat=1), on_trace_ready=trace_ready", 5)),
    ("good_repeat0_steps10", _loop("schedule=schedule(wait=1, warmup=1, active=1, repeat=0), on_trace_ready=trace_ready", 10)),
    ("exit_in_warmup", _loop("schedule=schedule(wait=1, warmup=3, active=1), on_trace_ready=trace_ready", 2)),
    ("exit_in_record", _loop("schedule=schedule(wait=0, warmup=0, active=5), on_trace_ready=trace_ready", 2)),
    ("start_stop_good", _loop("schedule=schedule(wait=1, warmup=1, active=1, repeat=1), on_trace_ready=trace_ready", 4,
                              use_with=False)),
    ("start_stop_no_step", _loop("schedule=schedule(wait=1, active=1), on_trace_ready=trace_ready", 4,
                                 step_call=False, use_with=False)),
    ("step_after_stop", _loop("schedule=schedule(wait=0, active=1), on_trace_ready=trace_ready", 1,
                              use_with=False, after="prof.step()\n")),
    ("active_zero_steps5", _loop("schedule=schedule(wait=0, active=0), on_trace_ready=trace_ready", 5)),
    ("no_on_trace_ready", _loop("schedule=schedule(wait=0, warmup=1, active=1, repeat=1)", 3)),
] + [
    # the handler's folder cannot be made: under a regular file, under /proc and /sys (the recorder runs as root,
    # which makes folders under a read-only one all the same)
    ("handler_%s" % cid, _loop("schedule=schedule(wait=1, warmup=1, active=1, repeat=1), "
                                'on_trace_ready=tensorboard_trace_handler("%s")' % path, 4))
    for cid, path in (("under_file", "./afile/prof"), ("proc", "/proc/npuprof_oracle/prof"),
                      ("sys", "/sys/npuprof_oracle/prof"))
] + [
    # built and never started (no start(), no `with`): what runs while it lives, and what its __del__ does once
    # it is collected (the profiler and its action controller refer to each other, so only gc frees it)
    ("never_started_%s" % cid, "prof = profile(%son_trace_ready=trace_ready)\nfor i in range(4):\n%s"
     "del prof\nimport gc\ngc.collect()\n" % (sched, body))
    for cid, sched, body in (
        ("schedule", "schedule=schedule(wait=1, warmup=1, active=1, repeat=1), ", "    pass\n"),
        ("default", "", "    pass\n"),
        ("schedule_stepped", "schedule=schedule(wait=1, warmup=1, active=1, repeat=1), ", "    prof.step()\n"),
        ("default_stepped", "", "    prof.step()\n"),
    )
]


def _lifecycle_cases():
    return [{"case": "lifecycle.%s" % cid, "api": "lifecycle", "call": call} for cid, call in LIFECYCLE]


# ---------------------------------------------------------------- env
_GOOD_LOOP = _loop("schedule=schedule(wait=1, warmup=1, active=1, repeat=1), on_trace_ready=trace_ready", 4)
_BAD_LEVEL = 'cfg = _ExperimentalConfig(profiler_level="level1")\n'
ENV_CASES = [
    ("none", {}, _GOOD_LOOP),
    ("PROFILING_MODE_false", {"PROFILING_MODE": "false"}, _GOOD_LOOP),
    ("PROFILING_MODE_true", {"PROFILING_MODE": "true"}, _GOOD_LOOP),
    ("PROFILING_MODE_empty", {"PROFILING_MODE": ""}, _GOOD_LOOP),
    ("PROFILER_SAMPLECONFIG", {"PROFILER_SAMPLECONFIG": "{}"}, _GOOD_LOOP),
    ("RANK_1_bad_level", {"RANK": "1"}, _BAD_LEVEL),
    ("RANK_0_bad_level", {"RANK": "0"}, _BAD_LEVEL),
    ("DISABLED_WARNING_bad_level", {"TORCH_NPU_DISABLED_WARNING": "1"}, _BAD_LEVEL),
    ("WARNING_DISABLE_bad_level", {"TORCH_NPU_WARNING_DISABLE": "1"}, _BAD_LEVEL),
]


def _env_cases():
    return [{"case": "env.%s" % cid, "api": "env", "call": call, "env": env} for cid, env, call in ENV_CASES]


# ---------------------------------------------------------------- dynamic JSON
DYNAMIC_BASE = {
    "activities": ["CPU", "NPU"], "prof_dir": "./", "analyse": False, "record_shapes": False,
    "profile_memory": False, "with_stack": False, "with_flops": False, "with_modules": False,
    "active": 1, "warmup": 0, "start_step": 10, "is_rank": False, "rank_list": [],
}
_EXP_FULL = {"profiler_level": "Level1", "aic_metrics": "PipeUtilization", "l2_cache": False, "op_attr": False,
             "data_simplification": True, "record_op_args": False, "export_type": ["text"], "msprof_tx": False,
             "mstx": False, "gc_detect_threshold": None, "host_sys": [], "sys_io": False,
             "sys_interconnection": False, "mstx_domain_include": [], "mstx_domain_exclude": []}
_ABSENT = object()
DYNAMIC_VARIANTS = [
    ("base", {}),
    ("start_step.int_10", {"start_step": 10}),
    ("start_step.str_10", {"start_step": "10"}),
    ("start_step.zero", {"start_step": 0}),
    ("start_step.minus1", {"start_step": -1}),
    ("start_step.minus2", {"start_step": -2}),
    ("start_step.float", {"start_step": 1.5}),
    ("start_step.absent", {"start_step": _ABSENT}),
    ("active.zero", {"active": 0}),
    ("active.str_2", {"active": "2"}),
    ("warmup.minus1", {"warmup": -1}),
    ("warmup.str_1", {"warmup": "1"}),
    ("activities.str_comma", {"activities": "CPU,NPU"}),
    ("activities.str_npu", {"activities": "NPU"}),
    ("activities.lower", {"activities": ["cpu", "npu"]}),
    ("activities.npu_only", {"activities": ["NPU"]}),
    ("activities.gpu", {"activities": ["GPU"]}),
    ("activities.empty", {"activities": []}),
    ("is_rank.empty_list", {"is_rank": True, "rank_list": []}),
    ("is_rank.rank0", {"is_rank": True, "rank_list": [0]}),
    ("is_rank.rank1", {"is_rank": True, "rank_list": [1]}),
    ("is_rank.list_str", {"is_rank": True, "rank_list": "0"}),
    ("is_rank.str_true", {"is_rank": "true", "rank_list": [0]}),
    ("analyse_false_async", {"analyse": False, "async_mode": True}),
    ("record_shapes.str_true", {"record_shapes": "true"}),
    ("unknown_key", {"foo": 1}),
    ("exp.level1_name_pipe", {"experimental_config": {"profiler_level": "Level1", "aic_metrics": "PipeUtilization"}}),
    ("exp.full", {"experimental_config": _EXP_FULL}),
    ("exp.lower_level1", {"experimental_config": {"profiler_level": "level1"}}),
    ("exp.acl_string_metric", {"experimental_config": {"profiler_level": "Level1",
                                                       "aic_metrics": "ACL_AICORE_PIPE_UTILIZATION"}}),
    ("exp.export_Db", {"experimental_config": {"export_type": "Db"}}),
    ("exp.export_db", {"experimental_config": {"export_type": "db"}}),
    ("exp.export_list_db", {"experimental_config": {"export_type": ["db"]}}),
    ("exp.l2_cache_str", {"experimental_config": {"l2_cache": "true"}}),
    ("exp.level_none", {"experimental_config": {"profiler_level": "Level_none"}}),
    ("exp.sys_io_set", {"experimental_config": {"sys_io": False, "sys_interconnection": False}}),
    ("exp.host_sys_str", {"experimental_config": {"host_sys": "cpu,mem"}}),
    # values no enum of the release has: the reader hands them on as strings (getattr's default)
    ("exp.aic_misspelt_level1", {"experimental_config": {"profiler_level": "Level1",
                                                          "aic_metrics": "PipeUtilisation"}}),
    ("exp.aic_misspelt_level0", {"experimental_config": {"aic_metrics": "PipeUtilisation"}}),
    ("exp.aic_misspelt_level2", {"experimental_config": {"profiler_level": "Level2",
                                                          "aic_metrics": "PipeUtilisation"}}),
    ("exp.aic_lower_level1", {"experimental_config": {"profiler_level": "Level1", "aic_metrics": "pipeutilization"}}),
    ("exp.level_unknown", {"experimental_config": {"profiler_level": "Level3"}}),
    ("exp.export_unknown", {"experimental_config": {"export_type": "csv"}}),
    ("exp.host_sys_unknown", {"experimental_config": {"host_sys": ["gpu"]}}),
    ("exp.host_sys_upper", {"experimental_config": {"host_sys": ["CPU"]}}),
]
# One step further: the step that starts a collection (_DynamicProfile.enable_prof, the release's own) builds the
# profiler from the ConfigContext and starts it; `native` is the experimental config its start hands to C++.
DYNAMIC_START = ("base", "exp.full", "exp.acl_string_metric", "exp.aic_misspelt_level1", "exp.aic_misspelt_level0",
                 "exp.aic_misspelt_level2", "exp.level_unknown", "exp.export_unknown", "exp.host_sys_unknown")
EMPTY_JSON_CASES = [("empty_object", "{}")]


def dynamic_json_text(variant):
    data = dict(DYNAMIC_BASE)
    for key, value in variant.items():
        if value is _ABSENT:
            data.pop(key, None)
        else:
            data[key] = value
    return json.dumps(data, sort_keys=True)


def _dynamic_cases():
    # Dynamic profiling is for launched jobs: the process is rank 0 of one.
    env = {"RANK": "0"}
    out = [{"case": "dynamic.%s" % cid, "api": "dynamic_json", "call": dynamic_json_text(variant), "env": env}
           for cid, variant in DYNAMIC_VARIANTS]
    out += [{"case": "dynamic.%s" % cid, "api": "dynamic_json", "call": text, "env": env}
            for cid, text in EMPTY_JSON_CASES]
    variants = dict(DYNAMIC_VARIANTS)
    out += [{"case": "dynamic.start.%s" % cid, "api": "dynamic_json", "call": dynamic_json_text(variants[cid]),
             "env": env, "start": True} for cid in DYNAMIC_START]
    return out


# ---------------------------------------------------------------- torch_npu.utils.profiler.Profile
# The model zoo's "auto profile": `Profile(start_step=..., profile_type=os.getenv("PROFILE_TYPE"))`, with
# start()/end() around each step. `steps` counts the steps begun, so the record says after which step the
# job ended (end() of the profiled step calls sys.exit()).
def _zoo_loop(args, steps=4, before=""):
    return ("from torch_npu.utils.profiler import Profile\n" + before + "p = Profile(%s)\nsteps = []\n"
            "for i in range(%d):\n    steps.append(i)\n    p.start()\n    p.end()\n" % (args, steps))


ZOO_TYPES = [("none", "None"), ("TORCH", '"TORCH"'), ("ASCEND_PROFILER", '"ASCEND_PROFILER"'), ("CANN", '"CANN"'),
             ("GE", '"GE"'), ("lower_ascend_profiler", '"ascend_profiler"'), ("mixed_Ascend_Profiler", '"Ascend_Profiler"'),
             ("lower_cann", '"cann"'), ("empty", '""'), ("NPU", '"NPU"'), ("True", '"True"'), ("padded", '" ASCEND_PROFILER"')]
ZOO_CASES = [("type.%s" % cid, _zoo_loop("start_step=2, profile_type=%s" % text)) for cid, text in ZOO_TYPES] + [
    ("ascend.kwargs_allowed", _zoo_loop('start_step=2, profile_type="ASCEND_PROFILER", profile_memory=True, '
                                        'with_stack=True, record_shapes=False')),
    ("ascend.kwargs_with_flops", _zoo_loop('start_step=2, profile_type="ASCEND_PROFILER", with_flops=True')),
    ("ascend.kwargs_config", _zoo_loop('start_step=2, profile_type="ASCEND_PROFILER", config=None')),
    ("cann.kwargs_config", _zoo_loop('start_step=2, profile_type="CANN", config=None')),
    ("cann.kwargs_with_stack", _zoo_loop('start_step=2, profile_type="CANN", with_stack=True')),
    ("torch.kwargs_record_shapes", _zoo_loop('start_step=2, profile_type="TORCH", record_shapes=True')),
    ("torch.kwargs_schedule", _zoo_loop('start_step=2, profile_type="TORCH", schedule=None')),
    ("ascend.start_step_past_loop", _zoo_loop('start_step=10, profile_type="ASCEND_PROFILER"', steps=4)),
    ("ascend.start_step_default", _zoo_loop('profile_type="ASCEND_PROFILER"', steps=12)),
    ("ascend.start_step_zero", _zoo_loop('start_step=0, profile_type="ASCEND_PROFILER"')),
    ("ascend.start_step_str", _zoo_loop('start_step="2", profile_type="ASCEND_PROFILER"')),
    ("ascend.start_step_1", _zoo_loop('start_step=1, profile_type="ASCEND_PROFILER"')),
    ("ascend.save_path_under_file", _zoo_loop('start_step=2, profile_type="ASCEND_PROFILER", '
                                              'save_path="afile/prof"')),
    ("ascend.singleton_off_first", _zoo_loop('start_step=2, profile_type="ASCEND_PROFILER"',
                                             before="Profile(start_step=2, profile_type=None)\n")),
    ("ascend.double_start", "from torch_npu.utils.profiler import Profile\n"
                            "p = Profile(start_step=2, profile_type=\"ASCEND_PROFILER\")\nsteps = [0]\n"
                            "p.start()\np.start()\n"),
    ("env.PROFILE_TYPE_CANN", _zoo_loop('start_step=2, profile_type=os.getenv("PROFILE_TYPE")', before="import os\n")),
    ("env.PROFILE_TYPE_ASCEND_PROFILER", _zoo_loop('start_step=2, profile_type=os.getenv("PROFILE_TYPE")',
                                                   before="import os\n")),
]
ZOO_ENV = {"env.PROFILE_TYPE_CANN": {"PROFILE_TYPE": "CANN"},
           "env.PROFILE_TYPE_ASCEND_PROFILER": {"PROFILE_TYPE": "ASCEND_PROFILER"}}


def _zoo_cases():
    out = []
    for cid, call in ZOO_CASES:
        case = {"case": "utils_profile.%s" % cid, "api": "utils_profile", "call": call}
        if cid in ZOO_ENV:
            case["env"] = ZOO_ENV[cid]
        out.append(case)
    return out


def all_cases():
    cases = (_exp_cases() + _schedule_cases() + _profile_cases() + _handler_cases()
             + _lifecycle_cases() + _env_cases() + _dynamic_cases() + _zoo_cases())
    ids = [c["case"] for c in cases]
    if len(ids) != len(set(ids)):
        raise ValueError("duplicate case ids")
    return sorted(cases, key=lambda c: c["case"])
