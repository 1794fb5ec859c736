"""`npuprof emulate` of MindSpore scripts where the answer hangs on what the wheels' own profiler.py does at stop()
and with its folder: held to the record's `profiler` cases (tools/mindspore_oracle/cases.py PROFILER_RUNS: the
2.7.0-2.10.0 wheels' Profiler, profile and ProfilerInterface run, the platform profilers stood in for), and the
reports' exact lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flake8_npuprof.cli import main

ROOT = Path(__file__).resolve().parents[1]
with open(ROOT / "tests" / "oracle" / "mindspore" / "records.jsonl", encoding="utf-8") as _fh:
    RUNS = [r for r in map(json.loads, _fh) if r["api"] == "profiler"]
RELEASES = ("2.7.0", "2.8.0", "2.9.0", "2.10.0")
SCHEDULE_WARNING = "[WARNING] The profiler has schedule. Please use step() to collect data."
RECORD_WARNING = ("[WARNING] Incorrect schedule: Stop profiler while current state is RECORD which may result in "
                  "incomplete parsed data.")
SAVE_WARNING = ("[WARNING] Stop profiler while current state is RECORD_AND_SAVE, perhaps the scheduling cycle has not "
                "yet completed.")
COLLECTOR = ("Ascend start", "Ascend stop", "Ascend finalize", "Ascend analyse")


def run(release: str, case: str) -> dict:
    found = [r for r in RUNS if r["release"] == release and r["case"] == "profiler." + case]
    assert len(found) == 1, case
    return found[0]


def collector(rec: dict):
    """The collector's calls (the NPU platform profiler's) and the script's marks, in order."""
    return [c for c in rec["calls"] if c in COLLECTOR or not c.startswith(("CPU ", "Ascend "))]


def test_the_record_has_every_profiler_case_on_every_release():
    from importlib.util import module_from_spec, spec_from_file_location
    spec = spec_from_file_location("ms_cases", ROOT / "tools" / "mindspore_oracle" / "cases.py")
    cases = module_from_spec(spec)
    spec.loader.exec_module(cases)
    assert sorted((r["release"], r["case"]) for r in RUNS) == sorted(
        (release, "profiler." + cid) for release in RELEASES for cid, _ in cases.PROFILER_RUNS)


# ---------------------------------------------------------------- stop() of a schedule never stepped

@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("case", ["Profiler_no_step_record_stop", "Profiler_no_step_record_with",
                                  "Profiler_no_step_save_stop"])
def test_a_never_stepped_profiler_s_stop_only_warns(release, case):
    # mindspore.Profiler: the collector started at step 0 is never stopped (stop(), the with block's exit and
    # __del__ return after the warning), and nothing is analysed
    rec = run(release, case)
    assert rec["raised"] is None and collector(rec)[:2] == ["Ascend start", "train"]
    assert not set(rec["calls"]) & {"Ascend stop", "Ascend finalize", "Ascend analyse", "CPU stop"}
    assert rec["warnings"].count(SCHEDULE_WARNING) == 2      # stop() (or __exit__), then __del__


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("case, warning", [("profile_no_step_record_stop", RECORD_WARNING),
                                           ("profile_no_step_record_with", RECORD_WARNING),
                                           ("profile_no_step_save_stop", SAVE_WARNING)])
def test_a_never_stepped_profile_saves_the_whole_run_at_stop(release, case, warning):
    rec = run(release, case)
    assert collector(rec)[:2] == ["Ascend start", "train"]
    assert collector(rec)[-4:] == ["Ascend stop", "Ascend finalize", "Ascend analyse", "del prof"]
    assert warning in rec["warnings"]


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("case, warning", [("Profiler_stepped_ends_at_record_start", RECORD_WARNING),
                                           ("Profiler_stepped_ends_at_save", SAVE_WARNING),
                                           ("profile_stepped_ends_at_record_start", RECORD_WARNING),
                                           ("profile_stepped_ends_at_save", SAVE_WARNING),
                                           ("profile_stepped_ends_at_save_with", SAVE_WARNING)])
def test_a_run_entering_its_record_steps_at_the_last_step_saves_only_what_follows(release, case, warning):
    # the collector starts at the last prof.step() and its one trace is saved at stop (or the with block's end)
    calls = collector(run(release, case))
    last = max(i for i, c in enumerate(calls) if c == "prof.step()")
    assert calls[last + 1] == "Ascend start" and "Ascend start" not in calls[:last]
    assert calls.count("Ascend analyse") == 1 and calls.index("Ascend analyse") > last + 1
    assert warning in run(release, case)["warnings"]


# ---------------------------------------------------------------- a folder that cannot be made

FAILED_START = ("Failed to make directory: {}/<hostname>_<pid>_<timestamp>_ascend_ms")


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("case, folder", [("Profiler_output_proc", "/proc"), ("Profiler_output_under_proc", "/proc/x"),
                                          ("Profiler_output_under_sys", "/sys/x"),
                                          ("Profiler_output_under_file", "<cwd>/f/sub"),
                                          ("Profiler_output_under_proc_scheduled", "/proc/x"),
                                          ("profile_handler_under_proc", "/proc/x"),
                                          ("profile_handler_under_file", "<cwd>/f/sub")])
def test_a_folder_that_cannot_be_made_stops_2_7_and_collects_nothing_on_2_8_on(release, case, folder):
    rec = run(release, case)
    said = FAILED_START.format(folder)
    assert rec.get("after") in (None, {"made": []}, {"made": ["f"]})       # nothing of the profiler's is made
    if release == "2.7.0":
        assert rec["raised"].startswith("ProfilerPathErrorException: ") and said in rec["raised"]
    else:
        assert rec["raised"] is None and not set(rec["calls"]) & set(COLLECTOR)
        errors = [w for w in rec["warnings"] if w.startswith("[ERROR] ")]
        assert len(errors) == 1 and errors[0].startswith(("[ERROR] Call to start failed. Exception: "
                                                          "[ProfilerPathErrorException]", "[ERROR] Call to step "
                                                          "failed. Exception: [ProfilerPathErrorException]"))
        assert said in errors[0]


@pytest.mark.parametrize("release", RELEASES)
def test_an_output_path_that_is_a_file_fails_when_the_profiler_is_built(release):
    rec = run(release, "Profiler_output_file")
    assert "calls" not in rec and rec["raised"] == (
        "ProfilerPathErrorException: [ProfilerPathErrorException] code: 50546081, msg: Path error. Invalid input path "
        "is a file path: <cwd>/f")


def test_a_handler_given_a_file_fails_on_2_7_and_is_dropped_on_2_8_on():
    assert run("2.7.0", "profile_handler_file")["raised"].endswith("Invalid input path is a file path: <cwd>/f")
    for release in RELEASES[1:]:
        rec = run(release, "profile_handler_file")
        assert rec["warnings"][0] == ("[ERROR] Call to tensorboard_trace_handler failed. Exception: "
                                      "[ProfilerPathErrorException] code: 50546081, msg: Path error. Invalid input "
                                      "path is a file path: <cwd>/f")
        assert "data/<hostname>_<pid>_<timestamp>_ascend_ms" in rec["after"]["made"]     # output_path's default
        assert "Ascend stop" in rec["calls"] and "Ascend analyse" not in rec["calls"]      # on_trace_ready: None


def test_a_folder_that_can_be_made_is_made():
    for release in RELEASES:
        rec = run(release, "Profiler_output_ok")
        assert rec["after"]["made"] == ["out", "out/<hostname>_<pid>_<timestamp>_ascend_ms",
                                        "out/<hostname>_<pid>_<timestamp>_ascend_ms/FRAMEWORK"]


# ---------------------------------------------------------------- the reports

def _emulate(capsys, tmp_path, body: str):
    path = tmp_path / "train.py"
    path.write_text("import mindspore\nfrom mindspore.profiler import schedule, tensorboard_trace_handler\n\n\n"
                    "def train():\n    pass\n\n\n" + body, encoding="utf-8")
    code = main(["emulate", "--cwd", str(tmp_path), str(path)])
    return code, capsys.readouterr().out.splitlines()


NEVER_STOPPED = ("prof.step() is never called: MindSpore's Profiler.stop() then only warns (\"The profiler has "
                 "schedule. Please use step() to collect data.\") and returns, as the end of its with block and its "
                 "__del__ do, so the collector it started at step 0 (a {} step) is never stopped and on_trace_ready "
                 "never runs; what the C++ collector leaves at exit is not read here")


@pytest.mark.parametrize("body, state", [
    ("prof = mindspore.Profiler(schedule=schedule(wait=0, active=2))\ntrain()\nprof.stop()\n", "RECORD"),
    ("with mindspore.Profiler(schedule=schedule(wait=0, active=2)) as prof:\n    train()\n", "RECORD"),
    ("prof = mindspore.Profiler(schedule=schedule(wait=0, active=1))\ntrain()\nprof.stop()\n", "RECORD_AND_SAVE")])
def test_a_never_stepped_mindspore_profiler_says_why_it_is_unknown(tmp_path, capsys, body, state):
    # it said "what MindSpore keeps then was not read here"
    code, out = _emulate(capsys, tmp_path, body)
    assert code == 1 and out[1] == "train.py:9 Profiler: UNKNOWN: " + NEVER_STOPPED.format(state)


@pytest.mark.parametrize("body, warning", [
    ("prof = mindspore.profiler.profile(schedule=schedule(wait=0, active=2))\ntrain()\nprof.stop()\n",
     RECORD_WARNING),
    ("with mindspore.profiler.profile(schedule=schedule(wait=0, active=2)) as prof:\n    train()\n", RECORD_WARNING),
    ("prof = mindspore.profiler.profile(schedule=schedule(wait=0, active=1))\ntrain()\nprof.stop()\n",
     SAVE_WARNING)])
def test_a_never_stepped_mindspore_profile_collects_the_whole_run(tmp_path, capsys, body, warning):
    code, out = _emulate(capsys, tmp_path, body)
    assert code == 0 and out[1] == f"train.py:9 profile: COLLECTS the whole run as one trace into {tmp_path}/data"
    assert ("  steps recorded: the whole run, as one trace saved when the profiler stops (prof.step() is never "
            f"called), with a warning (\"{warning[10:]}\")") in out


def test_a_never_stepped_mindspore_profile_nothing_stops_is_unknown(tmp_path, capsys):
    code, out = _emulate(capsys, tmp_path, "prof = mindspore.profiler.profile(schedule=schedule(wait=0, active=2))\n"
                                           "train()\n")
    assert code == 1 and out[1] == (
        "train.py:9 profile: UNKNOWN: prof.step() is never called, so the profiler stays at step 0 (RECORD), and "
        "nothing in this file stops it (no prof.stop(), no with block): whether MindSpore saves the trace is not "
        "followed here")


@pytest.mark.parametrize("ctor", ["mindspore.Profiler", "mindspore.profiler.profile"])
@pytest.mark.parametrize("sched, steps, state, warning", [
    ("wait=3, active=2, repeat=1", 3, "RECORD", RECORD_WARNING),
    ("wait=2, active=1, repeat=1", 2, "RECORD_AND_SAVE", SAVE_WARNING)])
def test_a_mindspore_run_entering_its_record_steps_at_the_end_collects_nothing(
        tmp_path, capsys, ctor, sched, steps, state, warning):
    # it said "its schedule records none of them; what MindSpore keeps then was not read here"
    code, out = _emulate(capsys, tmp_path, f"prof = {ctor}(schedule=schedule({sched}))\nfor i in range({steps}):\n"
                                           "    train()\n    prof.step()\nprof.stop()\n")
    first = sched.split(",")[0].split("=")[1]
    route = ctor.split(".")[-1]
    assert code == 1 and out[1] == (
        f"train.py:9 {route}: COLLECTS NOTHING: the schedule records from step {first}, but the loop (line 10) runs "
        f"{steps} steps, calling prof.step() once each: no training step is recorded (the last prof.step() enters a "
        f"{state} step: the one trace, saved when the profiler stops, holds only what runs after the loop, with a "
        f"warning (\"{warning[10:]}\"))")


UNMADE = ("MindSpore cannot make its folder in {} ({}): making <hostname>_<pid>_<timestamp>_ascend_ms there when "
          "the collector starts raises ProfilerPathErrorException (\"Failed to make directory\"), which stops the job "
          "on MindSpore 2.7.0 and is logged as an error on 2.8-2.10, where the job goes on collecting nothing")


@pytest.mark.parametrize("kw, folder, reason", [
    ("output_path='/proc/x'", "/proc/x", "under /proc"), ("output_path='/proc'", "/proc", "under /proc"),
    ("output_path='/sys/kernel/prof'", "/sys/kernel/prof", "under /sys"),
    ("output_path='f/sub'", "{tmp}/f/sub", "{tmp}/f is a file"),
    ("schedule=schedule(wait=1, active=1), output_path='/proc/x'", "/proc/x", "under /proc")])
def test_a_mindspore_folder_that_cannot_be_made_collects_nothing(tmp_path, capsys, kw, folder, reason):
    # it said "COLLECTS ... into /proc/x"
    (tmp_path / "f").write_text("", encoding="utf-8")
    body = f"prof = mindspore.Profiler({kw})\nfor i in range(4):\n    train()\n    prof.step()\nprof.stop()\n"
    code, out = _emulate(capsys, tmp_path, body if "schedule" in kw else body.replace("    prof.step()\n", ""))
    why = UNMADE.format(folder.format(tmp=tmp_path), reason.format(tmp=tmp_path))
    assert code == 1 and out[1:3] == [f"train.py:9 Profiler: COLLECTS NOTHING: {why}",
                                      f"usable data: no (line 9: {why})"]
    assert not any("ascend_ms/  made when the profiler starts" in line for line in out)


def test_a_mindspore_handler_folder_under_proc_collects_nothing(tmp_path, capsys):
    code, out = _emulate(capsys, tmp_path, "with mindspore.profiler.profile(on_trace_ready=tensorboard_trace_handler("
                                           "'/proc/prof')) as prof:\n    train()\n")
    assert code == 1 and out[1] == "train.py:9 profile: COLLECTS NOTHING: " + UNMADE.format("/proc/prof", "under /proc")


def test_a_mindspore_output_path_that_is_a_file_fails(tmp_path, capsys):
    (tmp_path / "f").write_text("", encoding="utf-8")
    code, out = _emulate(capsys, tmp_path, "prof = mindspore.Profiler(output_path='f')\ntrain()\nprof.stop()\n")
    assert code == 1 and out[1] == (
        f"train.py:9 Profiler: FAILS: output_path {tmp_path}/f is a file: mindspore.Profiler raises "
        f"ProfilerPathErrorException (\"Invalid input path is a file path: {tmp_path}/f\") when it is built")


def test_a_mindspore_handler_given_a_file_is_unknown(tmp_path, capsys):
    (tmp_path / "f").write_text("", encoding="utf-8")
    code, out = _emulate(capsys, tmp_path, "with mindspore.profiler.profile(on_trace_ready=tensorboard_trace_handler("
                                           "'f')) as prof:\n    train()\n")
    assert code == 1 and out[1] == (
        f"train.py:9 profile: UNKNOWN: tensorboard_trace_handler's dir_name {tmp_path}/f is a file: the handler "
        "raises ProfilerPathErrorException (\"Invalid input path is a file path\"), which stops the job on MindSpore "
        "2.7.0; on 2.8-2.10 it is logged as an error and the profiler gets no on_trace_ready, so its data goes to "
        "output_path (./data by default), unanalysed; which release runs is not known here")


def test_a_folder_that_can_be_made_is_not_said_to_fail(tmp_path, capsys):
    (tmp_path / "d").mkdir()
    code, out = _emulate(capsys, tmp_path, "prof = mindspore.Profiler(output_path='d/sub')\ntrain()\nprof.stop()\n")
    assert code == 0 and out[1] == (f"train.py:9 Profiler: COLLECTS from its construction until stop()/analyse() "
                                    f"into {tmp_path}/d/sub")


# ---------------------------------------------------------------- the findings a profiler carries

CONFIG = ("cfg = _ExperimentalConfig(profiler_level=\"Level1\")\nprof = mindspore.Profiler(experimental_config=cfg)\n"
          "prof.stop()\n")
NPP350 = ("  ! NPP350 profiler_level='Level1' is a string, not a ProfilerLevel member (unlike torch_npu, where the "
          "string works): MindSpore resets it to Level0 with a warning in its log; write ProfilerLevel.Level1")


def test_a_profiler_carries_the_findings_of_mindspore_s_group_by_the_catalog():
    # it picked them by code (NPP35x and NPP365): NPP364, a MindSpore rule outside NPP35x, did not count
    from flake8_npuprof.emulate.mindspore_run import _ours
    assert [code for code in ("NPP350", "NPP359", "NPP364", "NPP365") if _ours(code)] == ["NPP350", "NPP359",
                                                                                          "NPP364", "NPP365"]
    assert [code for code in ("NPP311", "NPP901", "NPP000", "NPP999") if _ours(code)] == []


def test_a_finding_of_another_group_in_a_config_made_elsewhere_is_not_the_profiler_s(tmp_path, capsys, monkeypatch):
    from flake8_npuprof.checks import catalog
    code, out = _emulate(capsys, tmp_path, "from mindspore.profiler import _ExperimentalConfig\n" + CONFIG)
    assert out[1:3] == [f"train.py:11 Profiler: COLLECTS from its construction until stop()/analyse() into "
                        f"{tmp_path}/data", NPP350]
    monkeypatch.setitem(catalog.BY_CODE, "NPP350", catalog.BY_CODE["NPP350"]._replace(group="torch_npu"))
    code, out = _emulate(capsys, tmp_path, "from mindspore.profiler import _ExperimentalConfig\n" + CONFIG)
    assert NPP350 not in out and out[2] == "usable data: yes"
