"""The MindSpore oracle's record holds together (docs/oracle.md, "The MindSpore oracle").

tests/oracle/mindspore/records.jsonl is what MindSpore's own profiler configuration code did with each
case of tools/mindspore_oracle/cases.py. No download here: the record's invariants, and outcomes the
static checks lean on.
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RECORD = HERE / "oracle" / "mindspore" / "records.jsonl"


def _load(name, path):
    """By path, under a name of its own: tools/oracle has modules of the same names."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ms_cases = _load("mindspore_oracle_cases", ROOT / "tools" / "mindspore_oracle" / "cases.py")
recorder = _load("mindspore_oracle_record", ROOT / "tools" / "mindspore_oracle" / "record.py")

KEYS = {"release", "case", "api", "call", "warnings", "raised"}
RELEASES = tuple(recorder.RELEASES)


@lru_cache(maxsize=None)
def lines():
    return RECORD.read_text(encoding="utf-8").splitlines()


@lru_cache(maxsize=None)
def records():
    return [json.loads(line) for line in lines()]


def rec(case, release="2.10.0"):
    found = [r for r in records() if r["release"] == release and r["case"] == case]
    assert len(found) == 1, case
    return found[0]


def test_lines_have_the_fields_known_apis_and_releases():
    for r in records():
        assert KEYS <= set(r) <= KEYS | {"after", "native", "calls"}, r["case"]
        assert r["api"] in ms_cases.APIS and r["release"] in RELEASES


def test_record_holds_exactly_the_case_set_in_order():
    """Each release in RELEASES order, newest first, each with every case of cases.py in order."""
    wanted = [(release, c["case"], c["api"], c["call"]) for release in RELEASES for c in ms_cases.all_cases()]
    assert [(r["release"], r["case"], r["api"], r["call"]) for r in records()] == wanted
    for line, r in zip(lines(), records()):
        assert line == json.dumps(r, sort_keys=True, ensure_ascii=False)
        assert "/tmp/" not in line and "mindspore-oracle-" not in line


def test_a_string_level_is_lost_unlike_torch_npu():
    r = rec("params.profiler_level.str_Level1")
    assert r["after"]["profiler_level"] == "ProfilerLevel.Level0"
    assert ("[WARNING] For Profiler, the type of profiler_level should be <enum 'ProfilerLevel'>, but got "
            "<class 'str'>, reset to ProfilerLevel.Level0.") in r["warnings"]


def test_level1_forces_pipe_utilization():
    r = rec("params.combo.level1_none")
    assert r["after"]["aic_metrics"] == "AicoreMetrics.PipeUtilization"
    assert r["native"]["aicore_metrics"] == "PipeUtilization"


def test_unknown_keywords_are_dropped_silently():
    for case in ("params.combo.unknown_aicore_metrics", "params.combo.unknown_level"):
        r = rec(case)
        assert r["raised"] is None
        assert r["warnings"] == ["[WARNING] Profiler won't be using warmup, this can skew profiler results"]
        assert "aicore_metrics" not in r["after"] and "level" not in r["after"]


def test_schedule_is_keyword_only():
    assert rec("schedule.positional_2")["raised"] == (
        "TypeError: Schedule.__init__() takes 1 positional argument but 3 were given")
    assert "Parameter 'active' should be of type int, but got int. reset to int 1." in " ".join(
        rec("schedule.active.zero")["warnings"])


def test_dynamic_string_start_step_never_collects():
    r = rec("dynamic.start_step.str_5")
    assert r["after"]["start_step"] == -1
    assert r["warnings"] == ["[WARNING] 'start_step' should be int, but got str. will be reset to default value: '-1'."]


def test_dynamic_names_are_case_sensitive():
    assert rec("dynamic.profiler_level.lower")["native"]["profiler_level"] == "ProfilerLevel.Level0"
    assert rec("dynamic.activities.lower")["native"]["activities"] == ["ProfilerActivity.CPU", "ProfilerActivity.NPU"]
    assert rec("dynamic.export_type.Text")["native"]["export_type"] == ["ExportType.Text"]
    assert rec("dynamic.aic_metrics.acl")["native"]["aic_metrics"] == "AicoreMetrics.AiCoreNone"


def test_env_options_start_only_with_start():
    assert rec("env.no_start")["calls"] == []
    calls = rec("env.start_level1")["calls"]
    assert [c["fn"] for c in calls] == ["tensorboard_trace_handler", "Profile", "Profile.start"]
    assert calls[1]["kwargs"]["experimental_config"]["profiler_level"] == "ProfilerLevel.Level1"
    assert rec("env.invalid_json")["warnings"] == ["[ERROR] Failed to load MS_PROFILER_OPTIONS, json decode error."]


# profiler.py's start() and tensorboard_trace_handler catch a ProfilerPathErrorException (no_exception_func) from 2.8.0
# on; 2.7.0's let it stop the script: the profiler cases whose folder cannot be made
RAISED_ON_2_7 = {"profiler.Profiler_output_proc", "profiler.Profiler_output_under_proc",
                 "profiler.Profiler_output_under_sys", "profiler.Profiler_output_under_file",
                 "profiler.Profiler_output_under_proc_scheduled", "profiler.profile_handler_under_proc",
                 "profiler.profile_handler_under_file", "profiler.profile_handler_file"}


def test_the_validation_is_the_same_from_2_7_to_2_10():
    """Their configuration modules are the same code: every case has the same outcome, but for a folder that cannot
    be made, which stops the script on 2.7.0 only."""
    def outcome(r):
        return json.dumps({k: r.get(k) for k in ("warnings", "raised", "after", "native", "calls")}, sort_keys=True)
    newest = {r["case"]: outcome(r) for r in records() if r["release"] == RELEASES[0]}
    for release in RELEASES[1:]:
        got = {r["case"]: outcome(r) for r in records() if r["release"] == release}
        differ = {case for case in newest if got[case] != newest[case]}
        # (and Profiler_output_file, which raises on all four, logs no "Call to __del__ failed" on 2.7.0)
        assert differ == (RAISED_ON_2_7 | {"profiler.Profiler_output_file"} if release == "2.7.0" else set())
        assert set(got) == set(newest)
    for r in records():
        if r["release"] == "2.7.0" and r["case"] in RAISED_ON_2_7:
            assert r["raised"].startswith("ProfilerPathErrorException: ") and "calls" not in r
