"""The torch_npu oracle's record holds together (docs/oracle.md, "The torch_npu oracle").

tests/oracle/torch_npu/records.jsonl is what each torch_npu release's own profiler configuration
code did with every case of tools/torch_oracle/cases.py (tools/torch_oracle/record.py ran it). These
tests need no download: they check the record's own invariants, and that outcomes the static checks
lean on are there, as the runtime gave them. The differential test against the checks is separate.
"""

from __future__ import annotations

import importlib.util
import json
from functools import lru_cache
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RECORD = HERE / "oracle" / "torch_npu" / "records.jsonl"


def _load(name, path):
    """By path, under a name of its own: tools/oracle has modules of the same names."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


case_table = _load("torch_oracle_cases", ROOT / "tools" / "torch_oracle" / "cases.py")
recorder = _load("torch_oracle_record", ROOT / "tools" / "torch_oracle" / "record.py")

KEYS = {"release", "case", "api", "call", "warnings", "raised"}
OPTIONAL = {"after", "native", "calls", "log", "env", "exit"}
CURRENT = ("2.14.0", "26.2.0", "26.1.0", "26.0.0")
BEFORE_26 = ("7.3.0", "7.2.0", "7.1.0", "7.0.0", "6.0.0", "6.0.rc3")


@lru_cache(maxsize=None)
def lines():
    return RECORD.read_text(encoding="utf-8").splitlines()


@lru_cache(maxsize=None)
def records():
    return [json.loads(line) for line in lines()]


def rec(release, case):
    found = [r for r in records() if r["release"] == release and r["case"] == case]
    assert len(found) == 1, (release, case)
    return found[0]


def texts(r):
    """The messages without the time/pid prefix (which 6.0.rc3 formats without brackets)."""
    return [w.split("profiler.py: ", 1)[-1] for w in r["warnings"]]


def test_every_line_has_the_fields_and_a_known_api():
    for r in records():
        assert KEYS <= set(r) and set(r) <= KEYS | OPTIONAL, r["case"]
        assert r["api"] in case_table.APIS, r["case"]
        assert r["raised"] is None or (isinstance(r["raised"], str) and ": " in r["raised"]), r["case"]
        assert all(isinstance(w, str) and w for w in r["warnings"]), r["case"]


def test_releases_are_the_recorded_ones():
    assert {r["release"] for r in records()} == set(recorder.RELEASES)


def test_each_release_holds_exactly_the_case_set():
    """The record was made from the cases cases.py lists now (re-record otherwise)."""
    wanted = {(c["case"], c["api"], c["call"], json.dumps(c.get("env") or None, sort_keys=True))
              for c in case_table.all_cases()}
    for release in recorder.RELEASES:
        got = {(r["case"], r["api"], r["call"], json.dumps(r.get("env"), sort_keys=True))
               for r in records() if r["release"] == release}
        assert got == wanted, release


def test_order_and_bytes_are_deterministic():
    """Newest release first, then by case id; each line as record.py writes it."""
    keys = [(recorder.release_order(r["release"]), r["case"]) for r in records()]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)
    for line, r in zip(lines(), records()):
        assert line == json.dumps(r, sort_keys=True, ensure_ascii=False)
    order = list(dict.fromkeys(r["release"] for r in records()))
    assert order == list(recorder.RELEASES)


def test_nothing_of_the_recording_machine_is_left_in():
    for line in lines():
        assert "/tmp/" not in line and "torch-oracle-" not in line and "site-packages" not in line
        assert "oracle_error" not in line


# -- outcomes the facts file reports, as the runtime gives them --------------------------------

@pytest.mark.parametrize("release", CURRENT + BEFORE_26)
def test_string_activities_reset_to_both(release):
    r = rec(release, "profile.activities_str_npu")
    assert "Invalid activities, only CPU and NPU are supported, reset it to default." in texts(r)
    assert r["after"]["activities"] == ["ProfilerActivity.CPU", "ProfilerActivity.NPU"]


@pytest.mark.parametrize("release", ("26.1.0", "26.0.0", "7.3.0", "7.2.0", "7.1.0", "7.0.0"))
def test_string_start_step_becomes_zero(release):
    r = rec(release, "dynamic.start_step.str_10")
    assert r["after"]["start_step"] == 0
    assert "INFO: Start step is not valid, will be reset to 0." in r["log"]
    assert r["warnings"] == []          # the console says nothing: only the log file


@pytest.mark.parametrize("release", ("26.1.0", "7.3.0", "7.0.0"))
def test_is_rank_with_an_empty_list_collects_on_no_rank(release):
    r = rec(release, "dynamic.is_rank.empty_list")
    assert r["after"]["valid"] is False
    assert "WARNING: Rank 0 not in valid rank_list set()!" in r["log"]
    assert rec(release, "dynamic.is_rank.rank0")["after"]["valid"] is True


@pytest.mark.parametrize("release", CURRENT)
def test_default_config_warns_at_level0_from_26(release):
    r = rec(release, "exp.combo.default")
    assert texts(r) == ["Please use level1 or level2 if you want to collect aic metrics, reset aic metrics to None!"]
    assert r["after"]["aic_metrics"] == "ACL_AICORE_NONE"
    assert r["native"]["metrics"] == "ACL_AICORE_NONE"


@pytest.mark.parametrize("release", ("7.3.0", "7.2.0", "7.1.0", "7.0.0"))
def test_level1_without_metrics_is_promoted_before_26(release):
    r = rec(release, "exp.combo.T2_level1_none")
    assert r["after"]["aic_metrics"] == "ACL_AICORE_PIPE_UTILIZATION"
    assert rec("26.1.0", "exp.combo.T2_level1_none")["after"]["aic_metrics"] == "ACL_AICORE_NONE"


@pytest.mark.parametrize("release", CURRENT + BEFORE_26)
def test_metric_enum_name_is_reset_at_level1(release):
    r = rec(release, "exp.aic_metrics_level1.name_PipeUtilization")
    assert "Invalid parameter aic_metrics, reset it to default." in texts(r)
    assert r["after"]["aic_metrics"] == "ACL_AICORE_PIPE_UTILIZATION"


@pytest.mark.parametrize("release", CURRENT + BEFORE_26)
def test_lowercase_level_is_reset_to_level0(release):
    r = rec(release, "exp.profiler_level.lower_level1")
    assert "Invalid parameter profiler_level, reset it to ProfilerLevel.Level0." in texts(r)
    assert r["after"]["profiler_level"] == "Level0"


@pytest.mark.parametrize("release", list(recorder.RELEASES))
def test_unknown_keyword_is_a_type_error(release):
    r = rec(release, "exp.combo.unknown_aicore_metrics")
    assert r["raised"] == ("TypeError: _ExperimentalConfig.__init__() got an unexpected keyword argument "
                           "'aicore_metrics'")


def test_mstx_keyword_arrives_in_7_2():
    for release in CURRENT + ("7.3.0", "7.2.0"):
        assert rec(release, "exp.mstx.true")["after"]["mstx"] is True
    for release in ("7.1.0", "7.0.0", "6.0.0", "6.0.rc3", "6.0.rc1", "5.0.rc3"):
        assert rec(release, "exp.mstx.true")["raised"].startswith("TypeError: ")


@pytest.mark.parametrize("release", list(recorder.RELEASES))
def test_schedule_that_never_reaches_active_makes_no_call(release):
    r = rec(release, "lifecycle.never_active_wait10_steps5")
    assert r["calls"] == []
    assert not any("[ERROR]" in w for w in r["warnings"])
    assert rec(release, "lifecycle.no_step_wait1")["calls"] == []


@pytest.mark.parametrize("release", CURRENT + BEFORE_26)
def test_good_schedule_starts_stops_and_saves(release):
    calls = rec(release, "lifecycle.good_repeat1_steps5")["calls"]
    assert calls[0] == "_init_profiler" and "_start_profiler" in calls and "_stop_profiler" in calls
    assert calls[-1] == "on_trace_ready"


@pytest.mark.parametrize("release", CURRENT + BEFORE_26)
def test_handler_on_a_file_returns_none_with_an_error_line(release):
    r = rec(release, "handler.dir_file")
    assert r["raised"] is None and r["after"]["returned"] is None
    assert "Call tensorboard_trace_handler failed. Exception: Invalid input path is a file path: {path}" in texts(r)


@pytest.mark.parametrize("release", ("2.14.0", "26.2.0", "26.1.0"))
def test_profiling_mode_makes_the_profiler_a_no_op_from_26_1(release):
    r = rec(release, "env.PROFILING_MODE_false")
    assert r["calls"] == ["on_trace_ready"]          # no profiler call; the handler still fires
    assert texts(r)[0] == ("Environment variable 'PROFILING_MODE' is set. torch_npu profiler api is not "
                           "effective. Please execute 'unset PROFILING_MODE'.")
    assert "_start_profiler" in rec(release, "env.PROFILING_MODE_empty")["calls"]
    for release in ("26.0.0", "7.3.0"):
        assert "_start_profiler" in rec(release, "env.PROFILING_MODE_false")["calls"]


@pytest.mark.parametrize("release", CURRENT + BEFORE_26)
def test_warnings_only_on_rank_0(release):
    assert rec(release, "env.RANK_1_bad_level")["warnings"] == []
    assert "Invalid parameter profiler_level, reset it to ProfilerLevel.Level0." in texts(
        rec(release, "env.RANK_0_bad_level"))


def test_the_new_warning_switch_arrives_in_26_2():
    for release in ("2.14.0", "26.2.0"):
        assert rec(release, "env.WARNING_DISABLE_bad_level")["warnings"] == []
    assert texts(rec("26.1.0", "env.WARNING_DISABLE_bad_level")) == [
        "Invalid parameter profiler_level, reset it to ProfilerLevel.Level0."]
    for release in CURRENT:
        assert rec(release, "env.DISABLED_WARNING_bad_level")["warnings"] == []


def test_dynamic_experimental_config_without_sys_io_warns_in_26_0_and_26_1_only():
    quirk = ["Invalid parameter sys_io, which must be of bool type, reset it to False.",
             "Invalid parameter sys_interconnection, which must be of bool type, reset it to False."]
    for release in ("26.1.0", "26.0.0"):
        assert texts(rec(release, "dynamic.exp.export_db")) == quirk
        assert rec(release, "dynamic.exp.sys_io_set")["warnings"] == []
    for release in ("2.14.0", "26.2.0"):
        assert rec(release, "dynamic.exp.export_db")["warnings"] == []


# -- the dynamic file's experimental_config values, one step further: the profiler its start builds ----------------

@pytest.mark.parametrize("release", CURRENT + BEFORE_26)
def test_a_metric_no_enum_has_is_reset_by_python_on_the_dynamic_path(release):
    """The reader hands a value no AiCMetrics name matches on as a string (getattr's default); the _ExperimentalConfig
    it builds resets it, with a printed warning, to PipeUtilization at Level1/Level2. At Level0 every metric is
    dropped (to AiCoreNone) before it is looked at."""
    for case in ("aic_misspelt_level1", "aic_misspelt_level2", "aic_lower_level1"):
        r = rec(release, "dynamic.exp." + case)
        assert "Invalid parameter aic_metrics, reset it to default." in texts(r), case
        assert r["after"]["experimental_config"]["metrics"] == "ACL_AICORE_PIPE_UTILIZATION", case
        assert r["log"] == rec(release, "dynamic.base")["log"], case       # the console only
    r = rec(release, "dynamic.exp.aic_misspelt_level0")
    assert r["after"]["experimental_config"]["metrics"] == "ACL_AICORE_NONE"
    assert "Invalid parameter aic_metrics, reset it to default." not in texts(r)
    assert "Please use level1 or level2 if you want to collect aic metrics, reset aic metrics to None!" in texts(r)


@pytest.mark.parametrize("release", CURRENT + BEFORE_26)
def test_the_dynamic_start_hands_cpp_what_the_reader_kept(release):
    """_DynamicProfile.enable_prof passes the ConfigContext's _ExperimentalConfig to profile() as it is: the start
    call gets the structure the reader already validated, nothing is checked again and nothing unknown gets through."""
    for cid in case_table.DYNAMIC_START:
        r = rec(release, "dynamic.start." + cid)
        assert r["raised"] is None and r["calls"] == ["_init_profiler", "_start_profiler"], cid
        kept = r["after"]["experimental_config"]
        if kept is None:                    # no experimental_config: profile() builds the default one
            assert r["native"]["trace_level"] == "Level0", cid
        else:
            assert r["native"] == kept, cid
    assert rec(release, "dynamic.start.exp.level_unknown")["native"]["trace_level"] == "Level0"
    assert rec(release, "dynamic.start.exp.aic_misspelt_level1")["native"]["metrics"] == "ACL_AICORE_PIPE_UTILIZATION"


@pytest.mark.parametrize("release", ("2.14.0", "26.2.0", "26.1.0", "26.0.0", "7.3.0", "7.2.0", "7.1.0"))
def test_an_unknown_host_sys_entry_empties_the_list(release):
    for cid in ("host_sys_unknown", "host_sys_upper"):
        r = rec(release, "dynamic.exp." + cid)
        assert "Invalid parameter host_sys, reset it to empty." in texts(r)
        assert r["after"]["experimental_config"]["host_sys"] == []


def test_releases_without_a_config_context_have_no_dynamic_start():
    for release in ("6.0.rc1", "5.0.rc3"):
        assert rec(release, "dynamic.start.base")["raised"] == "absent: no ConfigContext in this release"


# -- a trace handler's folder that cannot be made --------------------------------------------------------------------

UNMAKEABLE = (("proc", "/proc/npuprof_oracle/prof/"), ("sys", "/sys/npuprof_oracle/prof/"),
              ("under_file", "afile/prof/"))


@pytest.mark.parametrize("release", CURRENT + BEFORE_26)
def test_a_handler_folder_that_cannot_be_made_is_an_error_line_at_start(release):
    """The handler takes the path (it is not a file); the profiler's first start fails to make its *_ascend_pt folder:
    an [ERROR] line, the C++ profiler is never initialised (no _init_profiler), and the job goes on."""
    r = rec(release, "handler.dir_proc")
    assert r["raised"] is None and r["after"]["returned"] == "<callable>" and r["warnings"] == []
    for cid, where in UNMAKEABLE:
        r = rec(release, "lifecycle.handler_" + cid)
        assert r["raised"] is None, cid
        assert "_init_profiler" not in r["calls"] and "_start_profiler" in r["calls"], cid
        failed = [t for t in texts(r) if t.startswith("Call step failed. Exception: Failed to make directory: ")]
        assert len(failed) == 1 and where in failed[0] and failed[0].endswith("/<host>_<pid>_<timestamp>_ascend_pt")
        assert "Profiler is not initialized. Skip this metadata." in texts(r)


def test_6_0_rc1_raises_where_a_handler_folder_cannot_be_made():
    for cid, where in UNMAKEABLE:
        raised = rec("6.0.rc1", "lifecycle.handler_" + cid)["raised"]
        assert raised.startswith("RuntimeError: Failed to make directory: ") and where in raised, cid
