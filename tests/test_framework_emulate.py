"""`npuprof emulate` on torch_npu and MindSpore scripts (emulate/torch_run.py, mindspore_run.py, schedule_run.py):
the schedule held to the execution records, and the reports' exact lines (steps recorded, folder, reason)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.emulate import schedule_run as S

ROOT = Path(__file__).resolve().parents[1]
TORCH_RECORD = ROOT / "tests" / "oracle" / "torch_npu" / "records.jsonl"
MS_RECORD = ROOT / "tests" / "oracle" / "mindspore" / "records.jsonl"


def _records(path: Path):
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


# ---------------------------------------------------------------- the schedule against the records

def _lifecycle(call: str):
    """(schedule, loop steps, stepped, handler) of a recorded lifecycle case's code."""
    m = re.search(r"schedule=schedule\(([^)]*)\)", call)
    sched = None
    if m:
        sched = {"wait": 0, "active": 1}
        for kv in m.group(1).split(","):
            k, v = kv.strip().split("=")
            sched[k] = int(v)
        sched["active"] = max(sched["active"], 1)       # 6.0+ reset active=0 to 1
    steps = int(re.search(r"range\((\d+)\)", call).group(1))
    loop = call.split("range", 1)[1].split("prof.stop()")[0]
    return sched, steps, "prof.step()" in loop, "on_trace_ready=" in call


LIFECYCLE = [r for r in _records(TORCH_RECORD) if r["api"] == "lifecycle" and not r["release"].startswith("5.0")]
# a handler folder that cannot be made: about the folder, not the schedule (the tests of emulate's folder below)
UNMAKEABLE = [r for r in LIFECYCLE if r["case"].startswith("lifecycle.handler_")]
LIFECYCLE = [r for r in LIFECYCLE if r not in UNMAKEABLE]
# never started: not a schedule's replay (test_a_profiler_never_started_is_held_to_the_record), except the one a
# scheduled step() starts, which runs as a started profiler does
NEVER_STARTED = [r for r in LIFECYCLE if r["case"].startswith("lifecycle.never_started_")]
LIFECYCLE = [r for r in LIFECYCLE if r not in NEVER_STARTED or r["case"].endswith("_schedule_stepped")]


@pytest.mark.parametrize("rec", LIFECYCLE, ids=[f"{r['release']}:{r['case']}" for r in LIFECYCLE])
def test_the_replay_saves_as_many_traces_as_the_recorded_build(rec):
    sched, steps, stepped, handler = _lifecycle(rec["call"])
    run = S.replay(sched, steps, stepped)
    calls = rec["calls"]
    if handler:
        assert len(run.traces) == calls.count("on_trace_ready"), run
    else:                               # no handler: each trace still stops once
        assert len(run.traces) == calls.count("_stop_profiler"), run
    # nothing recorded exactly when the build never started collecting (6.0.rc1 starts in warmup: stopped there)
    if not run.traces:
        assert "_start_profiler" not in calls or rec["release"] == "6.0.rc1"


def test_every_lifecycle_case_of_6_0_and_later_is_held():
    assert len(LIFECYCLE) == 16 * 11 and len(NEVER_STARTED) == 4 * 11 and len(UNMAKEABLE) == 3 * 11


MS_SCHEDULES = [r for r in _records(MS_RECORD) if r["api"] == "schedule" and r.get("after") and not r.get("raised")]


@pytest.mark.parametrize("rec", MS_SCHEDULES, ids=[f"{r['release']}:{r['case']}" for r in MS_SCHEDULES])
def test_the_schedule_answers_as_mindspore_s(rec):
    a = rec["after"]
    sched = {k: a[k] for k in ("wait", "active", "warmup", "repeat", "skip_first")}
    assert [S.action(sched, i) for i in range(len(a["actions"]))] == [x.replace("WARM_UP", "WARMUP")
                                                                     for x in a["actions"]]


MS_LIFECYCLES = [r for r in _records(MS_RECORD) if r["api"] == "lifecycle"]


@pytest.mark.parametrize("rec", MS_LIFECYCLES, ids=[f"{r['release']}:{r['case']}" for r in MS_LIFECYCLES])
def test_a_run_ends_as_mindspore_s_action_controller_ends_it(rec):
    # MindSpore's own ProfilerActionController driven through start, the steps and stop: the collector starts only
    # where the replay records or saves, a trace is saved where it saves one, and a run ending in warmup deletes
    case = json.loads(rec["call"])
    sched = {"wait": 0, "warmup": 0, "repeat": 0, "skip_first": 0}
    for kv in re.search(r"schedule\(([^)]*)\)", case["schedule"]).group(1).split(","):
        k, v = kv.strip().split("=")
        sched[k] = int(v)
    run = S.replay(sched, case["steps"], case["steps"] > 0)
    calls = rec["calls"]
    assert calls[0].startswith("start: ") and calls.count("profiler stop") == 1
    assert ("start" in calls) == bool(run.recorded or run.traces or run.exit_state in (S.RECORD, S.SAVE))
    assert calls.count("on_trace_ready") == len(run.traces)
    assert ("delete_dir" in calls) == (run.exit_state == S.WARMUP)
    after = calls[calls.index("profiler stop") + 1:]
    ending = [w for w in rec["warnings"] if "WARNING" in w and "won't be using warmup" not in w]
    if run.exit_state == S.NONE:
        assert after == [] and ending == []             # nothing at all, and no warning at the end
    if run.exit_state == S.WARMUP:
        assert "[WARNING] Incorrect schedule: Stop profiler while current state is WARMUP which will result in empty " \
               "parsed data." in rec["warnings"]


def test_every_mindspore_lifecycle_case_is_held():
    assert len(MS_LIFECYCLES) == 9 * 4 and {r["release"] for r in MS_LIFECYCLES} == {"2.7.0", "2.8.0", "2.9.0",
                                                                                     "2.10.0"}


def test_skip_first_wait_drops_the_first_cycle_s_wait():
    s = {"wait": 2, "active": 1, "warmup": 1, "repeat": 0, "skip_first": 0, "skip_first_wait": 1}
    assert [S.action(s, i) for i in range(6)] == [S.WARMUP, S.SAVE, S.NONE, S.NONE, S.WARMUP, S.SAVE]


def test_spans():
    assert S.spans((2, 3, 6, 7, 10)) == "2-3, 6-7 and 10"
    assert S.spans(tuple(range(0, 40, 4)), 3) == "0, 4 and 8 more runs"


# ---------------------------------------------------------------- torch_npu reports

HEAD = "import torch_npu\nfrom torch_npu.profiler import ProfilerActivity, ProfilerLevel, AiCMetrics, ExportType\n\n"


def _script(tmp_path, body: str, name: str = "train.py") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def _emulate(capsys, *args):
    code = main(["emulate", *map(str, args)])
    return code, capsys.readouterr().out.splitlines()


GOOD = ("cfg = torch_npu.profiler._ExperimentalConfig(profiler_level=ProfilerLevel.Level1,\n"
        "    aic_metrics=AiCMetrics.PipeUtilization, export_type=[ExportType.Text, ExportType.Db])\n"
        "with torch_npu.profiler.profile(\n"
        "        schedule=torch_npu.profiler.schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1),\n"
        "        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(\"./prof\", worker_name=\"w0\"),\n"
        "        experimental_config=cfg) as prof:\n"
        "    for step in range(10):\n"
        "        train_one_step()\n"
        "        prof.step()\n")


def test_a_good_script_says_which_steps_and_where(tmp_path, capsys):
    path = _script(tmp_path, GOOD)
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, path)
    assert code == 0
    assert out == [
        "target: torch_npu 7.3 (--torch-npu); every CANN version (none given or detected) / every product "
        "(none given or detected)" if out[0].startswith("target: torch_npu 7.3 (--torch-npu); every CANN version (none")
        else out[0],
        f"train.py:6 profile: COLLECTS steps 3-4 into {tmp_path}/prof",
        "usable data: yes",
        "train.py:6 profile: collects",
        "  activities: CPU, NPU; profiler_level Level1; aic_metrics PipeUtilization; export_type db and text",
        "  schedule: wait=1, active=2, warmup=1, repeat=1, skip_first=1 (line 7): records from step 3",
        "  steps recorded: 3-4 of 10 (the loop (line 10) runs 10 steps, calling prof.step() once each); 1 trace saved",
        f"  output directory: {tmp_path}/prof (tensorboard_trace_handler, line 8)",
        "    w0_<pid>_<timestamp>_ascend_pt/  one per saved trace",
        "      PROF_<n>_<timestamp>_<id>/  the collector's NPU data",
        "      FRAMEWORK/  torch_npu's own raw data",
        "      profiler_info.json (profiler_info_<rank>.json when RANK is set or torch.distributed is initialised)  "
        "the run's settings",
        "      ASCEND_PROFILER_OUTPUT/trace_view.json and CSV views (kernel_details.csv, operator_details.csv, "
        "step_trace_time.csv, ...: which ones depends on the level and the activities, not predicted)",
        "      ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_<rank>.db (ascend_pytorch_profiler.db without a rank)",
    ]


def test_6_0_names_the_folder_by_the_worker_name_alone(tmp_path, capsys):
    code, out = _emulate(capsys, "--torch-npu", "6.0", "--cwd", tmp_path, _script(tmp_path, GOOD))
    assert code == 0 and "    w0_<timestamp>_ascend_pt/  one per saved trace" in out
    code, out = _emulate(capsys, "--torch-npu", "any", "--cwd", tmp_path, _script(tmp_path, GOOD))
    assert "    w0_<pid>_<timestamp>_ascend_pt/   (torch_npu 7.0+)  one per saved trace" in out
    assert "    w0_<timestamp>_ascend_pt/   (torch_npu 6.0)" in out
    assert out[3] == ("torch_npu 5.0: not replayed (its one recorded build, 5.0.rc3, never called on_trace_ready in "
                      "the execution record); the lines here are torch_npu 6.0 and later's: give --torch-npu for one "
                      "release")


def test_a_loop_without_prof_step_collects_nothing(tmp_path, capsys):
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path,
                         _script(tmp_path, GOOD.replace("        prof.step()\n", "")))
    assert code == 1
    why = ("prof.step() is never called: the profiler stays at step 0, in the schedule's wait steps, and collects "
           "nothing, silently")
    assert out[1] == f"train.py:6 profile: COLLECTS NOTHING: {why}"
    assert out[2] == f"usable data: no (line 6: {why})"
    assert "  steps recorded: none (prof.step() is never called; step 0 is a wait step)" in out


PER_PASS = ("for i in range(10):\n"
            "    with torch_npu.profiler.profile(\n"
            "            on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./e2e_prof')) as prof:\n"
            "        step(i)\n")


def test_a_profiler_built_in_each_pass_of_a_loop_is_one_trace_per_pass(tmp_path, capsys):
    # Retinaface (ModelZoo-PyTorch) builds `with profile(...)` inside its training loop: emulate said "COLLECTS the
    # whole run as one trace", "steps recorded: the whole run, as one trace"; each pass saves its own trace
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, PER_PASS))
    assert out[1] == (f"train.py:5 profile: COLLECTS one trace per pass of the loop at line 4, which builds a profiler "
                      f"in each into {tmp_path}/e2e_prof")
    assert ("  steps recorded: what each pass of the loop (line 4) runs, as its own trace saved when its profiler "
            "stops (prof.step() is never called), with a warning that the data may be incomplete") in out
    # built once, before the loop (or in the loop's `else:`, which runs once): the whole run
    once = "with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p')):\n" \
        "    for i in range(10):\n        step(i)\n"
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, once))
    assert out[1] == f"train.py:4 profile: COLLECTS the whole run as one trace into {tmp_path}/p"
    after = "for i in range(10):\n    step(i)\nelse:\n    with torch_npu.profiler.profile(\n" \
        "            on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p')):\n        step(10)\n"
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, after))
    assert out[1] == f"train.py:7 profile: COLLECTS the whole run as one trace into {tmp_path}/p"


STARTED_IF = ("import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument('--prof', action='store_true')\n"
              "args = parser.parse_args()\n\n\ndef train():\n"
              "    prof = torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p'))\n"
              "    if args.prof:\n        prof.start()\n    for step in range(10):\n        print(step)\n"
              "    prof.stop()\n\n\nif __name__ == '__main__':\n    train()\n")


def test_a_profiler_started_under_an_if_collects_under_it(tmp_path, capsys):
    # MindSpeed-MM's deepseekocr2/finetune_ocr.py builds `prof = profile(...)` always and starts it under
    # `if self.config.profiling:`: `npuprof emulate finetune_ocr.py` gave its steps with no condition
    path = _script(tmp_path, STARTED_IF)
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, path)
    assert out[1:3] == [f"train.py:11 profile: COLLECTS the whole run as one trace into {tmp_path}/p (when args.prof)",
                        "usable data: yes (where its conditions hold)"]
    # a launch decides it (checks/launch_setup: false_in_launch), with no condition left where the flag is given
    (tmp_path / "on.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 train.py --prof\n")
    code, out = _emulate(capsys, "--torch-npu", "7.3", tmp_path / "on.sh")
    assert "usable data: yes" in out


@pytest.mark.parametrize("rec", NEVER_STARTED, ids=[f"{r['release']}:{r['case']}" for r in NEVER_STARTED])
def test_a_profiler_never_started_is_held_to_the_record(tmp_path, capsys, rec):
    """The record's case as a script's function: COLLECTS NOTHING exactly where the build never initialised nor
    started its collector; the scheduled one that step() starts records the schedule's step as a started one."""
    body = "".join("    " + line + "\n" for line in rec["call"].splitlines())
    text = ("from torch_npu.profiler import profile, schedule, tensorboard_trace_handler\n"
            "trace_ready = tensorboard_trace_handler('./prof')\n\n\ndef run():\n" + body +
            "\n\nif __name__ == '__main__':\n    run()\n")
    release = re.match(r"\d+\.\d+", rec["release"]).group(0)
    release = {"2.14": "26.1", "26.2": "26.1"}.get(release, release)   # the newest builds answer as 26.1 does
    code, out = _emulate(capsys, "--torch-npu", release, "--format", "json", "--cwd", tmp_path,
                         _script(tmp_path, text))
    p = json.loads("\n".join(out))["profilers"][0]
    collected = "_start_profiler" in rec["calls"]
    assert (p["verdict"] == "collects_nothing") == (not collected), (rec["release"], rec["calls"], p["why"])
    if collected:
        assert p["verdict"] == "collects" and p["recorded"] == [2], p
    else:
        assert "_init_profiler" not in rec["calls"]
        assert p["why"] == ("prof = profile(...) is never started (no prof.start(), no `with prof:`): torch_npu never "
                            "initialises its collector, so nothing is collected")


def test_a_profiler_never_started_and_its_lookalikes(tmp_path, capsys):
    body = ("def train(loader, hooks, trainer):\n"
            "    quiet = torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('p'))\n"
            "    hooked = torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('p'))\n"
            "    hooks.append(hooked.start)\n"
            "    passed = torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('p'))\n"
            "    trainer.fit(profiler=passed)\n"
            "    unhandled = torch_npu.profiler.profile()\n"
            "    for batch in loader:\n"
            "        quiet.step()\n\n\n"
            "if __name__ == '__main__':\n    train([], [], None)\n")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, body))
    heads = [line for line in out if line.startswith("train.py:") and ": " in line[10:] and line.count(":") > 2]
    elsewhere = ("= profile(...) is not started in this file, and {0} can be reached from outside it (passed on, an "
                 "attribute taken, or a name other modules may import): who starts it is not known here")
    assert heads[:4] == [
        "train.py:5 profile: COLLECTS NOTHING: quiet = profile(...) is never started (no quiet.start(), no `with "
        "quiet:`): torch_npu never initialises its collector, so nothing is collected",
        "train.py:6 profile: UNKNOWN: hooked " + elsewhere.format("hooked"),
        "train.py:8 profile: UNKNOWN: passed " + elsewhere.format("passed"),
        "train.py:10 profile: COLLECTS NOTHING: unhandled = profile(...) is never started (no unhandled.start(), no "
        "`with unhandled:`): torch_npu never initialises its collector, so nothing is collected"], out
    assert code == 1 and out[5].startswith("usable data: no (line 5: quiet = profile(...) is never started"), out[5]


def test_a_profiler_a_function_returns_is_not_said_unstarted_in_the_file(tmp_path, capsys):
    # a torch_npu user's bench script: `def create_profiler(): prof = torch_npu.profiler.profile(...); return prof`,
    # then `with create_profiler() as prof:` under its main guard. It said "prof = profile(...) is not started in this
    # file", which the `with` in the same file does
    body = ("def create_profiler():\n"
            "    prof = torch_npu.profiler.profile(\n"
            "        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./result_dir'))\n"
            "    return prof\n\n\n"
            "if __name__ == '__main__':\n"
            "    with create_profiler() as prof:\n"
            "        for _ in range(2):\n"
            "            prof.step()\n")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, body))
    why = ("prof = profile(...) is returned by create_profiler() (line 7): how its caller starts and steps it is not "
           "followed here")
    assert out[1] == f"train.py:5 profile: UNKNOWN: {why}"
    assert code == 1 and out[2] == f"usable data: unknown (line 5: {why})"


PCP = "import os\n{}import torch\nimport torch_npu\n{}\n\nif __name__ == '__main__':\n    train()\n"
SET_PCP = "os.environ[\"PROF_CONFIG_PATH\"] = \"./dp\"\n"


def _bare(tmp_path, text: str) -> Path:
    path = tmp_path / "train.py"
    path.write_text(text, encoding="utf-8")
    return path


def test_prof_config_path_set_before_torch_is_dynamic_profiling_from_that_folder(tmp_path, capsys):
    (tmp_path / "dp").mkdir()
    (tmp_path / "dp" / "profiler_config.json").write_text('{"start_step": 0}', encoding="utf-8")
    code, out = _emulate(capsys, "--torch-npu", "any", "--cwd", tmp_path, _bare(tmp_path, PCP.format(SET_PCP, "")))
    why = ("dynamic profiling (PROF_CONFIG_PATH): what is collected, and when, is read at run time from "
           f"{tmp_path}/dp/profiler_config.json")
    assert code == 1 and out[1] == f"train.py:2 PROF_CONFIG_PATH: UNKNOWN: {why}"
    assert out[5:8] == [
        "  PROF_CONFIG_PATH set at line 2, read when torch_npu is imported (line 4); torch_npu hooks Optimizer.step to "
        "step it, so only a training loop that calls optimizer.step() is profiled",
        "  read by torch_npu 6.0.rc3 and later (6.0.rc2 and earlier do not read it)",
        f"  {tmp_path}/dp/profiler_config.json as it is now: 1 problem(s), below"]
    assert out[8].startswith("  ! NPP311 profiler_config.json:1:16 start_step 0 never starts a collection")
    code, out = _emulate(capsys, "--torch-npu", "5.0", "--cwd", tmp_path, _bare(tmp_path, PCP.format(SET_PCP, "")))
    assert out[1] == ("train.py:2 PROF_CONFIG_PATH: COLLECTS NOTHING: PROF_CONFIG_PATH is set at line 2, but torch_npu "
                      "5.0 does not read it (from 6.0.rc3 on)")


def test_prof_config_path_set_after_the_import_is_never_read(tmp_path, capsys):
    code, out = _emulate(capsys, "--torch-npu", "any", "--cwd", tmp_path, _bare(tmp_path, PCP.format("", SET_PCP)))
    assert code == 1 and out[1] == (
        "train.py:4 PROF_CONFIG_PATH: COLLECTS NOTHING: PROF_CONFIG_PATH is set at line 4, after torch_npu is "
        "imported (line 3): torch_npu reads it once, when it is imported, so dynamic profiling does not start")
    between = "import os\nimport torch\n" + SET_PCP + "import torch_npu\n"
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _bare(tmp_path, between))
    assert out[1] == (
        "train.py:3 PROF_CONFIG_PATH: UNKNOWN: PROF_CONFIG_PATH is set at line 3, after `import torch` (line 2): a "
        "torch that autoloads its device backends (2.5 and later) imports torch_npu there, which reads it first; "
        "whether torch_npu sees it depends on the torch")


def test_prof_config_path_from_the_environment_and_from_a_launcher(tmp_path, capsys, monkeypatch):
    script = _bare(tmp_path, PCP.format("", ""))
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, script)
    assert "PROF_CONFIG_PATH" not in "\n".join(out)            # without --env the environment is not known
    monkeypatch.setenv("PROF_CONFIG_PATH", "./dp")
    code, out = _emulate(capsys, "--env", "--torch-npu", "7.3", "--cwd", tmp_path, script)
    assert out[1] == ("train.py:3 PROF_CONFIG_PATH: UNKNOWN: dynamic profiling (PROF_CONFIG_PATH): what is collected, "
                      f"and when, is read at run time from {tmp_path}/dp/profiler_config.json")
    assert out[4].startswith("  PROF_CONFIG_PATH set in this environment (--env), read when torch_npu is imported "
                             "(line 3)")
    monkeypatch.delenv("PROF_CONFIG_PATH")
    launcher = tmp_path / "run.sh"
    launcher.write_text("#!/bin/bash\nexport PROF_CONFIG_PATH=./dp\npython3 train.py\n", encoding="utf-8")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, launcher)
    assert out[2] == ("train.py: torch_npu's profiler: unknown: line 3: dynamic profiling (PROF_CONFIG_PATH): what is "
                      f"collected, and when, is read at run time from {tmp_path}/dp/profiler_config.json")


def test_a_schedule_the_loop_never_reaches(tmp_path, capsys):
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path,
                         _script(tmp_path, GOOD.replace("range(10)", "range(2)")))
    assert code == 1
    assert out[2] == ("usable data: no (line 6: the schedule records from step 3, but the loop (line 10) runs 2 "
                      "steps, calling prof.step() once each: it ends in its warmup steps: the data is deleted, "
                      "with a warning)")
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path,
                         _script(tmp_path, GOOD.replace("range(10)", "range(3)")))
    assert code == 1
    assert out[2] == ("usable data: no (line 6: the schedule records from step 3, but the loop (line 10) runs 3 "
                      "steps, calling prof.step() once each: no training step is recorded (the one trace, saved "
                      "when the profiler stops, holds only what runs after the loop))")


def test_repeat_0_saves_a_trace_per_cycle_and_says_the_last_one(tmp_path, capsys):
    body = GOOD.replace("wait=1, warmup=1, active=2, repeat=1, skip_first=1", "wait=0, active=1")
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 0
    assert out[1] == f"train.py:6 profile: COLLECTS steps 0-9 into {tmp_path}/prof"
    assert ("  steps recorded: 0-9 of 10 (the loop (line 10) runs 10 steps, calling prof.step() once each); 11 traces "
            "saved; the last is saved when the profiler stops, with a warning (it covers no training step)") in out


def test_no_trace_handler_deletes_the_data(tmp_path, capsys):
    body = GOOD.replace("        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(\"./prof\", "
                        "worker_name=\"w0\"),\n", "")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 1
    assert out[2] == ("usable data: no (line 6: no on_trace_ready and no export call: the raw data goes to a temporary "
                      "folder (./export_only_prof_dir) and is deleted when the profiler object goes away)")


def test_a_handler_folder_that_is_a_file_keeps_nothing(tmp_path, capsys):
    (tmp_path / "prof").write_text("not a folder")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, GOOD))
    assert code == 1
    assert out[2].startswith(f"usable data: no (line 6: tensorboard_trace_handler, line 8: {tmp_path}/prof is a file "
                             "on this machine: torch_npu prints \"Call tensorboard_trace_handler failed\"")


MADE_NOTHING = ('cannot be made ({why}): when the profiler starts, torch_npu prints "Failed to make directory: '
                '{path}/..."{rc1} and never initialises its C++ profiler, so nothing is saved there')


@pytest.mark.parametrize("folder,why,release", [
    ("/proc/npuprof/prof", "it is under /proc", "7.3"),
    ("/sys/fs/npuprof", "it is under /sys", "26.1"),
])
def test_a_handler_folder_under_proc_or_sys_keeps_nothing(tmp_path, capsys, folder, why, release):
    body = GOOD.replace('"./prof"', f'"{folder}"')
    code, out = _emulate(capsys, "--torch-npu", release, "--cwd", tmp_path, _script(tmp_path, body))
    reason = f"tensorboard_trace_handler, line 8: {folder} " + MADE_NOTHING.format(why=why, path=folder, rc1="")
    assert code == 1
    assert out[1] == f"train.py:6 profile: COLLECTS NOTHING: {reason}"
    assert out[2] == f"usable data: no (line 6: {reason})"


def test_a_handler_folder_under_a_file_keeps_nothing_and_6_0_rc1_stops_there(tmp_path, capsys):
    (tmp_path / "afile").write_text("not a folder")
    body = GOOD.replace('"./prof"', '"./afile/prof"')
    code, out = _emulate(capsys, "--torch-npu", "any", "--cwd", tmp_path, _script(tmp_path, body))
    folder = f"{tmp_path}/afile/prof"
    assert code == 1
    assert out[1] == (f"train.py:6 profile: COLLECTS NOTHING: tensorboard_trace_handler, line 8: {folder} " +
                      MADE_NOTHING.format(why=f"{tmp_path}/afile is a file on this machine", path=folder,
                                          rc1=" (6.0.rc1 raises it, which ends the job)"))


def test_the_unmade_folder_answer_is_the_record_s():
    """What MADE_NOTHING says, on every build emulate replays: the folder is not made, said at start, the C++
    profiler is never initialised (no _init_profiler call); only 6.0.rc1 raises it."""
    for r in UNMAKEABLE:
        said = (r["raised"] or "") + "\n".join(r["warnings"])
        assert "Failed to make directory: " in said and "_init_profiler" not in r["calls"], (r["release"], r["case"])
        assert (r["raised"] is not None) == (r["release"] == "6.0.rc1"), (r["release"], r["case"])


@pytest.mark.parametrize("folder", ["/proc2/prof", "/system/prof", "./prof/proc"])
def test_a_folder_that_only_looks_like_proc_is_collected_into(tmp_path, capsys, folder):
    body = GOOD.replace('"./prof"', f'"{folder}"')
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 0
    assert out[1] == f"train.py:6 profile: COLLECTS steps 3-4 into {os.path.normpath(os.path.join(tmp_path, folder))}"


def test_profiling_mode_makes_26_1_a_no_op_and_not_7_3(tmp_path, capsys):
    body = "import os\nos.environ[\"PROFILING_MODE\"] = \"true\"\n" + GOOD
    path = _script(tmp_path, body)
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path, path)
    assert code == 1 and out[2] == (
        "usable data: no (line 8: PROFILING_MODE is set in a script that profiles with torch_npu.profiler: torch_npu "
        "26.1+ turns every profiler call into a no-op (only a warning that the api is not effective))")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, path)
    assert code == 0 and out[2] == "usable data: yes"
    code, out = _emulate(capsys, "--torch-npu", "any", "--cwd", tmp_path, path)
    assert code == 1 and out[2].startswith("usable data: unknown (line 8: PROFILING_MODE is set") and \
        out[2].endswith("; torch_npu 6.0-26.0 collects (give --torch-npu))")


def test_profiling_mode_from_the_environment_with_env(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PROFILING_MODE", "false")
    path = _script(tmp_path, GOOD)
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--env", "--cwd", tmp_path, path)
    assert code == 1 and out[2] == ("usable data: no (line 6: PROFILING_MODE is set in this environment (--env): "
                                    "torch_npu 26.1+ turns every profiler call into a no-op)")
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path, path)
    assert code == 0                    # without --env the environment is taken as empty


def test_l2_cache_on_a_310_gets_no_npu_data(tmp_path, capsys):
    body = GOOD.replace("export_type=[ExportType.Text, ExportType.Db])", "l2_cache=True)")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cann", "8.5", "--soc", "310", "--cwd", tmp_path,
                         _script(tmp_path, body))
    assert code == 1
    assert out[2] == ("usable data: no (line 6: l2_cache=True on Ascend 310 (no L2 cache data there): aclprofStart "
                      "fails, so no NPU data is collected (only \"Profiling start failed\" in the CANN log); framework "
                      "data only)")


def test_conditions_and_an_unknown_loop(tmp_path, capsys):
    body = ("import sys\nif sys.argv[1:]:\n" + "".join("    " + ln + "\n" for ln in GOOD.splitlines())).replace(
        "range(10)", "range(int(sys.argv[1]))")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 1
    assert out[1] == ("train.py:8 profile: UNKNOWN: the schedule records from step 3; whether the loop runs that long "
                      "is not known here (when sys.argv[1:])")
    assert "  steps recorded: from step 3, if the loop runs more than 3 steps" in out


def test_the_legacy_api_fails_on_6_0_and_later(tmp_path, capsys):
    path = tmp_path / "old.py"
    path.write_text("import torch\nimport torch_npu\nwith torch.npu.profile(\"./prof\"):\n    step()\n")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, path)
    assert code == 1 and out[1] == ("old.py:3 legacy: FAILS: torch.npu.profile() is the legacy profiler API, gone "
                                    "after torch_npu 5.0: AttributeError when it runs")


def test_json(tmp_path, capsys):
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--format", "json", "--cwd", tmp_path, _script(tmp_path, GOOD))
    doc = json.loads("\n".join(out))
    assert code == 0 and doc["framework"] == "torch_npu" and doc["usable"] is True
    assert doc["target"]["torch_npu"] == "7.3" and doc["target"]["origin"]["torch_npu"]["source"] == "flag"
    p = doc["profilers"][0]
    assert (p["line"], p["verdict"], p["recorded"], p["traces"], p["exit_state"]) == (6, "collects", [3, 4], [[3, 4]],
                                                                                       "NONE")
    assert p["schedule"] == {"wait": 1, "active": 2, "warmup": 1, "repeat": 1, "skip_first": 1}
    assert (p["output_dir"], p["export_type"], p["loop_steps"]) == (f"{tmp_path}/prof", ["db", "text"], 10)


# ---------------------------------------------------------------- --torch-npu auto

@pytest.mark.parametrize("version,found", [
    ("2.9.0", ("7.3", "torch-npu 2.9.0 installed (torch_npu 7.3.0, from its package metadata)")),
    ("2.1.0rc1", ("5.0", "torch-npu 2.1.0rc1 installed (torch_npu 5.0.rc3, from its package metadata)")),
    ("2.1.0.post10", ("6.0", "torch-npu 2.1.0.post10 installed (torch_npu 6.0.0, from its package metadata)")),
    ("2.6.0.post6", ("7.3", "torch-npu 2.6.0.post6 installed (torch_npu 7.3.1, from its package metadata)")),
])
def test_auto_maps_the_installed_wheel_to_its_release(monkeypatch, version, found):
    from importlib import metadata
    from flake8_npuprof.knowledge import detect
    monkeypatch.setattr(metadata, "version", lambda name: version if name == "torch-npu" else "0")
    got = detect.detect_torch_npu()
    assert (got.value, got.origin) == found


@pytest.mark.parametrize("version,note", [
    ("2.13.0", "torch-npu 2.13.0 is installed, but no Ascend/pytorch release tag npuprof read names that version; "
               "give the release as --torch-npu 7.3 (or torch-npu = \"7.3\" in the configuration)"),
    ("1.8.1", "torch-npu 1.8.1 is torch_npu 3.0.0, a release npuprof does not check (it knows 5.0 to 26.1)"),
])
def test_auto_says_any_for_a_version_it_cannot_place(monkeypatch, version, note):
    from importlib import metadata
    from flake8_npuprof.knowledge import detect
    monkeypatch.setattr(metadata, "version", lambda name: version)
    got = detect.detect_torch_npu()
    assert (got.value, got.notes) == (None, (note,))


def test_emulate_s_default_is_the_installed_release(tmp_path, capsys, monkeypatch):
    from importlib import metadata
    monkeypatch.setattr(metadata, "version", lambda name: "2.9.0.post6" if name == "torch-npu" else "0")
    code, out = _emulate(capsys, "--cwd", tmp_path, _script(tmp_path, GOOD))
    assert out[0].startswith("target: torch_npu 26.1 (this machine: torch-npu 2.9.0.post6 installed (torch_npu "
                             "26.1.0, from its package metadata)); ")
    monkeypatch.setattr(metadata, "version", lambda name: "2.13.0")
    code, out = _emulate(capsys, "--cwd", tmp_path, _script(tmp_path, GOOD))
    assert out[0].startswith("target: every torch_npu release (torch-npu 2.13.0 is installed, but no Ascend/pytorch "
                             "release tag npuprof read names that version; ")


# ---------------------------------------------------------------- MindSpore reports

MS = ("import mindspore\nfrom mindspore.profiler import ProfilerLevel, schedule, tensorboard_trace_handler\n\n"
      "with mindspore.profiler.profile(schedule=schedule(wait=1, warmup=1, active=2, repeat=1),\n"
      "                                on_trace_ready=tensorboard_trace_handler(\"./ms_prof\")) as prof:\n"
      "    for step in range(10):\n"
      "        prof.step()\n")


def test_a_mindspore_schedule_says_which_steps_and_the_folder(tmp_path, capsys):
    path = tmp_path / "train.py"
    path.write_text(MS, encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 0
    assert out[1:] == [
        f"train.py:4 profile: COLLECTS steps 2-3 into {tmp_path}/ms_prof",
        "usable data: yes",
        "train.py:4 profile: collects",
        "  schedule: wait=1, active=2, warmup=1, repeat=1 (line 4): records from step 2",
        "  steps recorded: 2-3 of 10 (the loop (line 6) runs 10 steps, calling prof.step() once each)",
        f"  output directory: {tmp_path}/ms_prof (tensorboard_trace_handler, line 5)",
        "    <hostname>_<pid>_<timestamp>_ascend_ms/  made when the profiler starts (MindSpore 2.7-2.10; other "
        "releases' layout is not read here)",
        "      PROF_<n>_<timestamp>_<id>/  the collector's NPU data (with NPU among the activities)",
        "      FRAMEWORK/  MindSpore's own raw data",
        "      profiler_info_<rank>.json (the rank: get_rank() once communication is initialised on Ascend, else "
        "RANK_ID, else 0)  the run's settings (with NPU among the activities)",
        "      ASCEND_PROFILER_OUTPUT/  the analysis's output"]


# the record's path cases (tools/mindspore_oracle/cases.py PATH_CALLS) as a script writes them
MS_PATH_SCRIPTS = {
    "default": "",
    "output_path": "output_path='./out', ",
    "output_path_absolute": "output_path='/opt/npu_prof', ",
    "handler_dir": "on_trace_ready=tensorboard_trace_handler('./tb'), ",
    "handler_worker": "on_trace_ready=tensorboard_trace_handler(worker_name='w0'), ",
    "handler_dir_and_output_path": "on_trace_ready=tensorboard_trace_handler('./tb', 'w0'), output_path='./out', ",
    "handler_worker_too_long": "on_trace_ready=tensorboard_trace_handler(worker_name='%s'), " % ("w" * 226),
    "rank_id_env": "", "rank_id_env_not_a_number": "", "ascend_work_path": "",
}
MS_PATHS = [r for r in _records(MS_RECORD) if r["api"] == "path"]


def test_the_record_has_every_path_case_on_every_release():
    assert sorted({r["case"][5:] for r in MS_PATHS}) == sorted(MS_PATH_SCRIPTS) and len(MS_PATHS) == 4 * 10


@pytest.mark.parametrize("rec", MS_PATHS, ids=[f"{r['release']}:{r['case']}" for r in MS_PATHS])
def test_the_mindspore_folder_is_the_one_its_path_code_names(tmp_path, capsys, monkeypatch, rec):
    """emulate's output directory and the folder it names under it, against the wheel's own path code; the rank
    and ASCEND_WORK_PATH do not move the folder (the report names the rank generically)."""
    case = rec["case"][5:]
    path = tmp_path / "train.py"
    path.write_text("import mindspore\nfrom mindspore.profiler import tensorboard_trace_handler\n\n"
                    f"with mindspore.profiler.profile({MS_PATH_SCRIPTS[case]}schedule=None) as prof:\n"
                    "    for step in range(10):\n        prof.step()\n", encoding="utf-8")
    monkeypatch.setenv("ASCEND_WORK_PATH", "/tmp")
    code, out = _emulate(capsys, "--env", "--format", "json", "--cwd", tmp_path, path)
    p = json.loads("\n".join(out))["profilers"][0]
    after = {k: v.replace("<cwd>", str(tmp_path)) for k, v in rec["after"].items()}
    assert p["output_dir"] == after["output_path"], (case, p["why"])
    folder = os.path.relpath(after["ascend_ms_dir"], after["output_path"])
    layout = [row.strip().split("  ")[0] for row in p["layout"]]
    assert layout[0] == folder + "/"
    assert os.path.basename(after["framework_path"]) + "/" in layout
    assert os.path.basename(after["ascend_profiler_output_path"]) + "/" in layout
    assert re.sub(r"\d+", "<rank>", after["info_file"]) in [row.split(" ")[0] for row in layout]


def test_a_mindspore_folder_s_worker_and_default_output_path(tmp_path, capsys):
    path = tmp_path / "train.py"
    path.write_text(MS.replace('tensorboard_trace_handler(\"./ms_prof\")', 'tensorboard_trace_handler(worker_name="w0")'),
                    encoding="utf-8")
    code, out = _emulate(capsys, "--format", "json", "--cwd", tmp_path, path)
    p = json.loads("\n".join(out))["profilers"][0]
    assert p["output_dir"] == f"{tmp_path}/data" and p["layout"][0] == "w0_<pid>_<timestamp>_ascend_ms/  made when " \
        "the profiler starts (MindSpore 2.7-2.10; other releases' layout is not read here)"
    path.write_text(MS.replace('on_trace_ready=tensorboard_trace_handler(\"./ms_prof\")', 'output_path="/tmp/o"'),
                    encoding="utf-8")
    code, out = _emulate(capsys, "--format", "json", "--cwd", tmp_path, path)
    p = json.loads("\n".join(out))["profilers"][0]
    assert p["output_dir"] == "/tmp/o" and p["layout"][0].startswith("<hostname>_<pid>_<timestamp>_ascend_ms/")
    path.write_text(MS.replace('tensorboard_trace_handler(\"./ms_prof\")', "my_handler"), encoding="utf-8")
    code, out = _emulate(capsys, "--format", "json", "--cwd", tmp_path, path)
    assert "layout" not in json.loads("\n".join(out))["profilers"][0]      # the script's own handler: not followed


def test_a_mindspore_schedule_the_loop_reaches_only_at_its_end_collects_nothing(tmp_path, capsys):
    # it said "unknown (...: its schedule records none of them; what MindSpore keeps then was not read here)": the
    # last step() starts the collector, and the trace saved at stop holds no training step (the record's profiler
    # cases *_stepped_ends_at_record_start, tests/test_mindspore_runs.py)
    path = tmp_path / "train.py"
    path.write_text(MS.replace("range(10)", "range(2)"), encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 1
    assert out[2] == ("usable data: no (line 4: the schedule records from step 2, but the loop (line 6) runs 2 steps, "
                      "calling prof.step() once each: no training step is recorded (the last prof.step() enters a "
                      "RECORD step: the one trace, saved when the profiler stops, holds only what runs after the "
                      "loop, with a warning (\"Incorrect schedule: Stop profiler while current state is RECORD which "
                      "may result in incomplete parsed data.\")))")


def test_a_mindspore_run_that_ends_before_recording_collects_nothing(tmp_path, capsys):
    # it said "what MindSpore keeps then was not read here": a run ending in warmup or wait steps never starts the
    # collector (the record's lifecycle cases); in warmup, MindSpore deletes the folder it prepared
    path = tmp_path / "train.py"
    path.write_text(MS.replace("range(10)", "range(1)"), encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 1 and out[2] == (
        "usable data: no (line 4: the schedule records from step 2, but the loop (line 6) runs 1 step, calling "
        "prof.step() once each: it ends in its warmup steps: nothing is recorded, and when the profiler stops "
        "MindSpore deletes what it prepared, with a warning (\"Incorrect schedule: Stop profiler while current state "
        "is WARMUP which will result in empty parsed data.\"))")
    path.write_text(MS.replace("wait=1, warmup=1", "wait=4, warmup=1").replace("range(10)", "range(3)"),
                    encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 1 and out[2] == (
        "usable data: no (line 4: the schedule records from step 5, but the loop (line 6) runs 3 steps, calling "
        "prof.step() once each: it ends in its wait steps: nothing is collected, with no warning at the end)")
    # never stepped, at a wait step: nothing either
    path.write_text(MS.replace("        prof.step()\n", "        pass\n"), encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 1 and out[2] == ("usable data: no (line 4: prof.step() is never called, so the profiler stays at "
                                    "step 0, a wait step, and never starts collecting)")


@pytest.mark.parametrize("given", ["[ProfilerActivity.GPU]", "[]"])
def test_a_mindspore_profiler_without_npu_or_cpu_activity_is_unknown(tmp_path, capsys, given):
    # it said "COLLECTS from its construction until stop()/analyse()": a GPU-only list (or an empty one, which
    # ProfilerParameters keeps) enables neither the framework's data nor the collector's on an Ascend device
    path = tmp_path / "train.py"
    path.write_text("import mindspore\nfrom mindspore.profiler import ProfilerActivity\n"
                    f"p = mindspore.Profiler(output_path='./prof', activities={given})\n", encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 1 and out[2] == (
        f"usable data: unknown (line 3: activities={given} holds neither NPU nor CPU: on an Ascend device MindSpore's "
        "profiler enables the framework's data only for CPU and reads the collector's only for NPU "
        "(platform/npu_profiler.py); what its C++ backend records without either is not read here)")
    path.write_text(path.read_text(encoding="utf-8").replace(given, "[ProfilerActivity.CPU]"), encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 0 and out[2] == "usable data: yes"


def test_a_mindspore_profiler_with_a_string_level_collects_level0(tmp_path, capsys):
    path = tmp_path / "train.py"
    path.write_text("import mindspore\np = mindspore.Profiler(profiler_level=\"Level1\")\n", encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 0
    assert out[1:4] == [
        f"train.py:2 Profiler: COLLECTS from its construction until stop()/analyse() into {tmp_path}/data",
        "  ! NPP350 profiler_level='Level1' is a string, not a ProfilerLevel member (unlike torch_npu, where the "
        "string works): MindSpore resets it to Level0 with a warning in its log; write ProfilerLevel.Level1",
        "usable data: yes; less useful: NPP350 (see above)"]


# torch_npu 5.0's builds for torch 1.8.1-2.0.1 (6.0.rc1-rc2.1's for torch 1.11) put their own profile, which takes
# use_npu, in torch.autograd.profiler (data/sources.json torch_npu.legacy); it said "existed only in the old torch
# 1.5/1.8 NPU forks: TypeError on a torch without use_npu"
OWN = "only torch_npu's own profile (its builds for torch 1.8.1-2.0.1 put it in torch.autograd.profiler) takes use_npu"


def test_autograd_profile_with_use_npu_fails(tmp_path, capsys):
    path = tmp_path / "old.py"
    path.write_text("import torch\nimport torch_npu\nwith torch.autograd.profiler.profile(use_npu=True) as prof:\n"
                    "    step()\n")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, path)
    assert code == 1 and out[1] == ("old.py:3 legacy: FAILS: torch.autograd.profiler.profile(use_npu=...) raises "
                                    f"TypeError on torch_npu 7.3: {OWN}")
    # on 6.0 (and on any release) some builds take it: unknown, not "fails"
    code, out = _emulate(capsys, "--torch-npu", "6.0", "--cwd", tmp_path, path)
    assert out[1] == ("old.py:3 legacy: UNKNOWN: torch.autograd.profiler.profile(use_npu=...) depends on the build on "
                      "torch_npu 6.0 (6.0.rc1-6.0.rc2.1 for torch 1.11.0 take it; its other builds raise TypeError): "
                      f"{OWN}")


def test_autograd_profile_with_use_npu_through_kwargs(tmp_path, capsys):
    # VOLO's prof_demo.py: the keywords built as a dict, use_npu in one branch (checks/torch_npu_kwargs.py)
    path = tmp_path / "prof.py"
    path.write_text("import sys\nimport torch\n\nif sys.argv[1] == 'npu':\n    kw = {'use_npu': True}\nelse:\n"
                    "    kw = {}\nwith torch.autograd.profiler.profile(**kw) as prof:\n    step()\n"
                    "every = dict(use_npu=True)\ntorch.autograd.profiler.profile(**every)\n", encoding="utf-8")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, path)
    assert code == 1 and out[1:4] == [
        "prof.py:8 legacy: FAILS: torch.autograd.profiler.profile(**kw) passes use_npu (line 5), which raises "
        f"TypeError on torch_npu 7.3: {OWN} (when sys.argv[1] == 'npu')",
        "prof.py:11 legacy: FAILS: torch.autograd.profiler.profile(**every) passes use_npu (line 10), which raises "
        f"TypeError on torch_npu 7.3: {OWN}",
        "usable data: no (line 8, when sys.argv[1] == 'npu': torch.autograd.profiler.profile(**kw) passes use_npu "
        f"(line 5), which raises TypeError on torch_npu 7.3: {OWN})"]


def test_a_profiler_that_raises_is_said_under_msprof(tmp_path, capsys):
    # MnasNet (ModelZoo-PyTorch): `msprof --output=./prof python3 train.py --run-prof /data` said "usable data: yes"
    # and nothing of the TypeError its `profile(use_npu=True)` raises at step 5, which ends the run there
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch\nimport torch_npu\n\np = argparse.ArgumentParser()\n"
        "p.add_argument('--run-prof', action='store_true')\nargs = p.parse_args()\n\n\ndef main():\n"
        "    for i in range(100):\n        if args.run_prof and i >= 5:\n"
        "            with torch.autograd.profiler.profile(use_npu=True) as prof:\n                step()\n"
        "            return\n        step()\n\n\nif __name__ == '__main__':\n    main()\n", encoding="utf-8")
    msprof = ["--torch-npu", "7.3", "--cwd", tmp_path, "--", "msprof", "--output=./prof", "python3", "train.py"]
    code, out = _emulate(capsys, *msprof, "--run-prof")
    assert code == 0 and out[3:6] == [
        "  ! under msprof too, train.py stops with this error: line 13, when args.run_prof and i >= 5: "
        f"torch.autograd.profiler.profile(use_npu=...) raises TypeError on torch_npu 7.3: {OWN}: msprof collects the "
        "run until then",
        "<command line>:1 msprof: COLLECTS task_trace, aic_metrics into …/prof", "usable data: yes"]
    # the JSON report carries it among the launch's warnings
    code, out = _emulate(capsys, "--format", "json", *msprof, "--run-prof")
    assert json.loads("\n".join(out))["launch"]["traps"] == [
        "under msprof too, train.py stops with this error: line 13, when args.run_prof and i >= 5: "
        f"torch.autograd.profiler.profile(use_npu=...) raises TypeError on torch_npu 7.3: {OWN}: msprof collects the "
        "run until then"]
    # without --run-prof the profiler never runs: nothing to say
    code, out = _emulate(capsys, *msprof)
    assert code == 0 and not any("stops with this error" in line for line in out)


def test_dynamic_profiling_is_unknown_and_checks_the_config_file_as_it_is(tmp_path, capsys):
    path = tmp_path / "train.py"
    path.write_text("import torch_npu\nfrom torch_npu.profiler import dynamic_profile as dp\n\ndp.init(\"./cfg\")\n"
                    "for step in range(100):\n    dp.step()\n")
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "profiler_config.json").write_text('{"start_step": "10"}')
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path, path)
    config = f"{tmp_path}/cfg/profiler_config.json"
    assert code == 1
    assert out[1:] == [
        f"train.py:4 dynamic_profile: UNKNOWN: dynamic profiling: what is collected, and when, is read at run time "
        f"from {config}",
        f"usable data: unknown (line 4: dynamic profiling: what is collected, and when, is read at run time from "
        f"{config})",
        "train.py:4 dynamic_profile: unknown",
        f"  {config} as it is now: 1 problem(s), below",
        "  ! NPP311 profiler_config.json:1:16 start_step \"10\" is a string: torch_npu 26.1 resets it to 0 and says so "
        "only in its log under <dir>/log/, so no collection ever starts; write a JSON integer: the step to start at"]


def test_a_script_s_own_profiler_under_msprof_26_1_keeps_nothing(tmp_path, capsys):
    # `msprof --output=/tmp/o python3 t.py` of a script with its own torch_npu profiler said only that msprof
    # collects: torch_npu 26.1 turns the script's profiler into a no-op under msprof, and its folder stays empty
    (tmp_path / "t.py").write_text(
        "import torch_npu\n\n\ndef main():\n    with torch_npu.profiler.profile(\n"
        "            on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./tp')) as p:\n"
        "        for i in range(10):\n            p.step()\n\n\nif __name__ == '__main__':\n    main()\n")
    line = ("  ! t.py's own profiler (line 5): msprof sets PROFILER_SAMPLECONFIG, and torch_npu 26.1+ turns every "
            "profiler call into a no-op, so that profiler keeps nothing")
    typed = ["--cwd", tmp_path, "--", "msprof", "--output=/tmp/o", "python3", "t.py"]
    for release, said in (("26.1", True), ("any", True), ("7.3", False)):
        code, out = _emulate(capsys, "--torch-npu", release, *typed)
        assert code == 0 and (line in out) is said and "usable data: yes" in out


def test_a_launch_shows_what_is_wrong_in_the_dynamic_profiling_file(tmp_path, capsys):
    # `env PROF_CONFIG_PATH=cfg python3 train.py` (MnasNet's train.py imports torch_npu): the launch said only
    # "unknown: ... read at run time from cfg/profiler_config.json", where `emulate --env train.py` showed that the
    # file as it is now never starts (a string start_step)
    (tmp_path / "train.py").write_text("import torch_npu\n\n\ndef main():\n    pass\n\n\nmain()\n")
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "profiler_config.json").write_text('{"start_step": "10"}')
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path, "--", "env", "PROF_CONFIG_PATH=cfg",
                         "python3", "train.py")
    assert code == 1 and out[2:4] == [
        "train.py: torch_npu's profiler: unknown: line 1: dynamic profiling (PROF_CONFIG_PATH): what is collected, "
        f"and when, is read at run time from {tmp_path}/cfg/profiler_config.json",
        "  ! NPP311 profiler_config.json:1:16 start_step \"10\" is a string: torch_npu 26.1 resets it to 0 and says so "
        "only in its log under <dir>/log/, so no collection ever starts; write a JSON integer: the step to start at"]


def test_a_script_that_changes_directory_says_its_relative_folders_are_not_known(tmp_path, capsys):
    # os.chdir: the directory relative paths are read from is not known (emulate/replay.run_dir gives None); each
    # of these was an internal error (TypeError from os.path.join) before
    chdir = "the directory the script changes to with os.chdir, not known here"
    dyn = tmp_path / "dyn.py"
    dyn.write_text("import os\nimport torch_npu\nfrom torch_npu.profiler import dynamic_profile as dp\n"
                   "os.chdir(\"/tmp\")\ndp.init(\"./cfg\")\n", encoding="utf-8")
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path, dyn)
    assert code == 1
    assert out[1] == ("dyn.py:5 dynamic_profile: UNKNOWN: dynamic profiling: what is collected, and when, is read at "
                      f"run time from ./cfg/profiler_config.json, relative to {chdir}")
    torch = tmp_path / "torch.py"
    torch.write_text(HEAD + "import os\nos.chdir(\"/tmp\")\n" + GOOD, encoding="utf-8")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, torch)
    assert f"  output directory: ./prof (tensorboard_trace_handler, line 10: ./prof is relative to {chdir})" in out
    ms = tmp_path / "ms.py"
    ms.write_text(MS.replace("\n\nwith", "\nimport os\nos.chdir(\"/tmp\")\nwith", 1), encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, ms)
    assert f"  output directory: ./ms_prof (tensorboard_trace_handler, line 6), relative to {chdir}" in out
    monitor = tmp_path / "monitor.py"
    monitor.write_text("import os\nimport mindspore\nfrom mindspore.profiler import DynamicProfilerMonitor\n"
                       "os.chdir(\"/tmp\")\ndp = DynamicProfilerMonitor(cfg_path=\"./cfg\")\n", encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, monitor)
    assert out[1] == ("monitor.py:5 DynamicProfilerMonitor: UNKNOWN: dynamic profiling: what is collected, and when, "
                      f"is read at run time from ./cfg/profiler_config.json, relative to {chdir}")


def _in_function(body: str) -> str:
    return "def run():\n" + "".join("    " + ln + "\n" for ln in body.splitlines())


def test_a_profiler_the_entry_point_never_reaches_is_off(tmp_path, capsys):
    body = _in_function(GOOD) + "\n\nif __name__ == \"__main__\":\n    print(\"no profiling\")\n"
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 1
    assert out[1:3] == ["train.py:7 profile: OFF: not reached from this file's entry point (line 16 "
                        "if __name__ == \"__main__\":)",
                        "usable data: no (line 7: not reached from this file's entry point (line 16 "
                        "if __name__ == \"__main__\":))"]


def test_a_profiler_in_a_module_without_entry_point_is_unknown(tmp_path, capsys):
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, _in_function(GOOD)))
    assert code == 1
    assert out[2] == (f"usable data: unknown (line 7: steps 3-4 into {tmp_path}/prof; but this file has no entry point "
                      "(no main guard, no top-level call): whether this code runs is not known here)")


def test_the_answer_names_the_conditions_it_holds_under(tmp_path, capsys):
    body = ("import argparse\nargs = argparse.ArgumentParser().parse_args()\n\n\ndef run():\n" +
            "".join("    " + ln + "\n" for ln in GOOD.replace("range(10)", "range(2)").splitlines()) +
            "\n\nif args.profiling:\n    run()\n")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 1
    assert out[2].startswith("usable data: no (line 11, when args.profiling: the schedule records from step 3")


def test_branches_that_disagree_leave_the_answer_to_the_branch(tmp_path, capsys):
    body = ("import sys\nif sys.argv[1] == \"e2e\":\n" + "".join("    " + ln + "\n" for ln in GOOD.splitlines()) +
            "else:\n    with torch.npu.profile(\"./cann_prof\"):\n        step()\n")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, "import torch\n" + body))
    assert code == 1
    assert out[3] == ("usable data: unknown (it depends on which branch runs: line 9 collects, when sys.argv[1] == "
                      "\"e2e\"; line 17, when not (sys.argv[1] == \"e2e\"): torch.npu.profile() is the legacy profiler "
                      "API, gone after torch_npu 5.0: AttributeError when it runs)")


def test_a_keyword_one_release_lacks_fails_only_on_that_release(tmp_path, capsys):
    body = GOOD.replace("export_type=[ExportType.Text, ExportType.Db])", "mstx=True)")
    code, out = _emulate(capsys, "--torch-npu", "7.1", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 1 and out[1].startswith("train.py:6 profile: FAILS: _ExperimentalConfig's keyword mstx is new in "
                                           "torch_npu 7.2: torch_npu 7.1 raises TypeError")
    code, out = _emulate(capsys, "--torch-npu", "7.2", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 0
    code, out = _emulate(capsys, "--torch-npu", "portable", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 1 and out[1].startswith("train.py:6 profile: UNKNOWN: _ExperimentalConfig's keyword mstx")


def test_a_positional_mindspore_schedule_fails(tmp_path, capsys):
    path = tmp_path / "train.py"
    path.write_text("import mindspore\nfrom mindspore.profiler import schedule\n"
                    "p = mindspore.Profiler(schedule=schedule(1, 2), output_path=\"./prof\")\n", encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    why = ("schedule() given a positional argument: MindSpore raises TypeError (its arguments are keyword-only) when "
           "the script starts; name them: schedule(wait=..., active=..., warmup=..., repeat=..., skip_first=...)")
    assert code == 1 and out[1:3] == [f"train.py:3 Profiler: FAILS: {why}", f"usable data: no (line 3: {why})"]


def test_an_export_type_list_is_text_on_6_0(tmp_path, capsys):
    code, out = _emulate(capsys, "--torch-npu", "6.0", "--cwd", tmp_path, _script(tmp_path, GOOD))
    assert "  activities: CPU, NPU; profiler_level Level1; aic_metrics PipeUtilization; export_type text" in out
    assert not any("ascend_pytorch_profiler" in line for line in out)


def test_a_metric_under_a_level_not_known_here_is_not_said(tmp_path, capsys):
    # MindSpeed-LLM's get_profiler() picks the level from --profile-level (level0 by default) and always asks for
    # PipeUtilization; emulate said "aic_metrics PipeUtilization", which torch_npu drops at Level0 and Level_none
    level = ("import sys\nlevel = ProfilerLevel.Level0 if sys.argv[1] == '0' else ProfilerLevel.Level1\n")
    path = _script(tmp_path, level + GOOD.replace("profiler_level=ProfilerLevel.Level1", "profiler_level=level"))
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, path)
    assert "  activities: CPU, NPU; profiler_level <unknown>; export_type db and text" in out


def test_mindspore_2_5_s_handler_is_said_as_mindspore_s(tmp_path, capsys):
    # mindformers' ProfileMonitor, for MindSpore before 2.6, passes mindspore.profiler.tensor_board_trace_handler
    # (2.5's name); emulate called it "the script's own callable"
    path = tmp_path / "train.py"
    path.write_text(MS.replace("schedule, tensorboard_trace_handler", "schedule, tensor_board_trace_handler")
                    .replace('tensorboard_trace_handler("./ms_prof")', 'tensor_board_trace_handler(dir_name="./d")'),
                    encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert "  output directory: on_trace_ready is mindspore.profiler.tensor_board_trace_handler, which MindSpore " \
        "2.7-2.10 do not have: what it does with the data is not followed" in out


@pytest.mark.parametrize("handler, said", [
    ("handler", "a value not known here"), ("lambda p: None", "the script's own callable"),
    ("own", "the script's own callable"), ("make(\"./d\")", "a value not known here")])
def test_a_handler_not_known_here_is_not_called_the_script_s_own(tmp_path, capsys, handler, said):
    # mindnlp's mindtorch profile() unpacks on_trace_ready from a tuple its caller hands over (MindSpore's
    # tensor_board_trace_handler, or a do-nothing function): emulate called it "the script's own callable"
    body = ("import sys\nimport mindspore\nfrom mindspore import Profiler\n\n\ndef own(prof):\n    pass\n\n\n"
            "def run(handler, make):\n"
            f"    prof = Profiler(start_profile=False, output_path='./d', on_trace_ready={handler})\n"
            "    prof.start()\n    prof.stop()\n\n\nrun(sys.argv[1], sys.argv[2])\n")
    path = tmp_path / "train.py"
    path.write_text(body, encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert f"  output directory: on_trace_ready is {said}: what it does with the data is not followed" in out
    # torch_npu's replay says the same
    path.write_text(body.replace("import mindspore\nfrom mindspore import Profiler", "import torch_npu")
                    .replace("Profiler(start_profile=False, output_path='./d', ", "torch_npu.profiler.profile("),
                    encoding="utf-8")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, path)
    assert f"  output directory: <unknown> (on_trace_ready is {said}: what it does with the data is not followed)" in out


@pytest.mark.parametrize("release, said", [("7.3", "aic_metrics PipeUtilization; export_type db and text"),
                                           ("26.1", "aic_metrics AiCoreNone; export_type db and text")])
def test_ai_core_none_at_level1_is_pipe_utilization_before_26_0(tmp_path, capsys, release, said):
    # the model zoo's Torchtitan patches ask for Level1 with AiCMetrics.AiCoreNone; torch_npu 6.0.rc3-7.3 promote it
    # to PipeUtilization silently (the record's exp.combo.T2_level1_none), and emulate said "aic_metrics AiCoreNone"
    path = _script(tmp_path, GOOD.replace("AiCMetrics.PipeUtilization", "AiCMetrics.AiCoreNone"))
    code, out = _emulate(capsys, "--torch-npu", release, "--cwd", tmp_path, path)
    assert f"  activities: CPU, NPU; profiler_level Level1; {said}" in out
    # under every release: AiCoreNone is new in 6.0.rc2, an AttributeError on 6.0.rc1's builds (it said "collects")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 1 and out[1].startswith("train.py:6 profile: UNKNOWN: AiCMetrics.AiCoreNone is new in torch_npu "
                                           "6.0.rc2: ") and "on torch_npu 6.0 it depends on the build" in out[1]


def test_a_no_op_on_some_releases_gives_the_others_the_replay_s_own_answer(tmp_path, capsys):
    # EfficientNetV2-B0 launched with PROFILING_MODE set: "torch_npu 6.0-26.0 collects" was said of a profiler whose
    # loop length is not known (its schedule records from step 10)
    body = "import os\nimport sys\nos.environ[\"PROFILING_MODE\"] = \"true\"\n" + \
        GOOD.replace("range(10)", "range(int(sys.argv[1]))")
    code, out = _emulate(capsys, "--torch-npu", "any", "--cwd", tmp_path, _script(tmp_path, body))
    assert out[2].endswith("turns every profiler call into a no-op (only a warning that the api is not effective); "
                           "on torch_npu 6.0-26.0, unknown: the schedule records from step 3; whether the loop runs "
                           "that long is not known here (give --torch-npu))"), out[2]


def test_a_profiler_without_a_schedule_that_leaves_the_file_hangs_on_its_start_and_stop(tmp_path, capsys):
    # vllm-ascend's TorchNPUProfilerWrapper returns torch_npu.profiler.profile(...) with no schedule; emulate said
    # "prof leaves this file: who calls prof.step() is not known here", of a name the code never uses, and without a
    # schedule step() decides nothing
    path = _bare(tmp_path, "import torch_npu\n\n\ndef make(d):\n    return torch_npu.profiler.profile(\n"
                           "        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(d))\n")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, path)
    assert out[1] == ("train.py:5 profile: UNKNOWN: the profiler leaves this file (returned or passed on): who starts "
                      "and stops it is not known here")


def test_a_function_defined_under_the_main_guard_is_no_condition(tmp_path, capsys):
    # ModelZoo-PyTorch's Conformer_Ti model_prof.py defines run() inside `if __name__ == '__main__':`; launched, that
    # test always holds (before: "collects (when __name__ == '__main__')", "usable data: yes (where its conditions
    # hold)")
    body = ("if __name__ == '__main__':\n    def run():\n"
            "        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("
            "'./prof')):\n            pass\n    run()\n")
    path = _script(tmp_path, body)
    code, lines = _emulate(capsys, "--torch-npu", "7.0", "--", "python3", path)
    assert [ln for ln in lines if ln.startswith(("train.py:", "usable data:"))] == [
        "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def test_under_every_release_a_keyword_some_lack_leaves_the_answer_unknown(tmp_path, capsys):
    # the default target (no torch-npu installed) is every release: mstx is new in 7.2, so 6.0-7.1 stop with
    # TypeError at _ExperimentalConfig (user code: not caught); "usable data: yes" claimed data they never make
    body = GOOD.replace("export_type=[ExportType.Text, ExportType.Db])", "mstx=True)")
    code, out = _emulate(capsys, "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 1 and out[1] == ("train.py:6 profile: UNKNOWN: depends on the torch_npu release: "
                                    "_ExperimentalConfig's keyword mstx is new in torch_npu 7.2: torch_npu 6.0-7.1 "
                                    "raises TypeError when the script starts")
    assert out[2].startswith("usable data: unknown (line 6: depends on the torch_npu release")
    body = GOOD.replace("experimental_config=cfg)", "experimental_config=cfg, custom_trace_id_callback=lambda: 'x')")
    code, out = _emulate(capsys, "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 1 and out[1] == ("train.py:6 profile: UNKNOWN: depends on the torch_npu release: profile's keyword "
                                    "custom_trace_id_callback is new in torch_npu 26.1: torch_npu 6.0-26.0 raises "
                                    "TypeError when the script starts")
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 0


def test_a_keyword_the_first_builds_of_6_0_lack_is_no_failure_of_6_0(tmp_path, capsys):
    # 6.0.rc1's _ExperimentalConfig has no msprof_tx (Ascend/pytorch@v6.0.rc1-pytorch2.1.0:torch_npu/profiler/
    # experimental_config.py#L46-52; the record's exp.msprof_tx.*: TypeError), 6.0.rc2 on take it (v6.0.rc2-pytorch2.1.0
    # #L55-63): under --torch-npu 6.0 emulate said "fails", "usable data: no", of 6.0.0's builds that collect
    body = GOOD.replace("export_type=[ExportType.Text, ExportType.Db])", "msprof_tx=True)")
    path = _script(tmp_path, body)
    code, out = _emulate(capsys, "--torch-npu", "6.0", "--cwd", tmp_path, path)
    assert code == 1 and out[1] == ("train.py:6 profile: UNKNOWN: _ExperimentalConfig's keyword msprof_tx is new in "
                                    "torch_npu 6.0: torch_npu 6.0 depends on the build (6.0.rc1 raises TypeError: "
                                    "_ExperimentalConfig has no msprof_tx before 6.0.rc2); drop it, or target "
                                    "torch_npu 6.0+"), out[1]
    assert out[2].startswith("usable data: unknown (line 6: ")
    # under every release (no torch-npu installed) it said "usable data: yes" (6.0.rc1 stops at _ExperimentalConfig)
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 1 and out[1] == ("train.py:6 profile: UNKNOWN: depends on the torch_npu build: "
                                    "_ExperimentalConfig's keyword msprof_tx is new in torch_npu 6.0.rc2: torch_npu "
                                    "6.0.rc1 raises TypeError when the script starts"), out[1]
    assert out[2].startswith("usable data: unknown (line 6: depends on the torch_npu build")
    code, out = _emulate(capsys, "--torch-npu", "7.0", "--cwd", tmp_path, path)
    assert code == 0


def test_a_keyword_newer_than_the_releases_recorded_is_no_failure_everywhere(tmp_path, capsys):
    # profile(execution_trace_observer=...) is taken by torch_npu 26.2.0-beta.1 (its builds for torch 2.12 and 2.13)
    # and master (Ascend/pytorch@v26.2.0-beta.1-pytorch2.13.0:torch_npu/profiler/profiler.py#L214): "usable data: no"
    # under every release was false for them
    body = GOOD.replace("experimental_config=cfg)", "experimental_config=cfg, execution_trace_observer=et)")
    path = _script(tmp_path, "et = object()\n" + body)
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 1 and out[1] == (
        "train.py:7 profile: UNKNOWN: depends on the torch_npu release: profile's keyword execution_trace_observer is "
        "new in torch_npu 26.2.0-beta.1 (its builds for torch 2.12 and 2.13), after the releases recorded here: "
        "torch_npu 6.0-26.1 raises TypeError when the script starts")
    code, out = _emulate(capsys, "--torch-npu", "26.1", "--cwd", tmp_path, path)
    assert code == 1 and out[1].startswith("train.py:7 profile: FAILS: profile's keyword execution_trace_observer is "
                                           "new in torch_npu 26.2.0-beta.1 (its builds for torch 2.12 and 2.13), "
                                           "after the releases recorded here: torch_npu 26.1 raises TypeError")


def test_a_module_on_a_folder_the_script_adds_to_sys_path_is_not_said_to_profile_nothing(tmp_path, capsys, monkeypatch):
    # python 3.9.18 and 3.13.0 (a stub torch_npu) run lib/inmod.go() and its profiler from `python3 train.py` in
    # tmp_path; emulate said "no profiling setup found: a run collects no profiling data", "usable data: no"
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "inmod.py").write_text(
        "import torch_npu\n\n\ndef go():\n    prof = torch_npu.profiler.profile(\n"
        "        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(\"./prof\"))\n"
        "    prof.start()\n    prof.step()\n    prof.stop()\n")
    (tmp_path / "train.py").write_text('import sys\nsys.path.insert(0, "lib")\nimport inmod\ninmod.go()\n')
    monkeypatch.chdir(tmp_path)
    _, out = _emulate(capsys, "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "train.py")
    said = ("train.py has no profiling setup of its own, but lib/inmod.py, which it may import from a folder it adds "
            "to sys.path, names one (line 5: `prof = torch_npu.profiler.profile(`): a setup in a module it imports is "
            "not emulated here")
    assert out[1:] == [said, f"usable data: unknown ({said})"]
    # (emulate/added_path.py) without the sys.path line python stops at the import (ModuleNotFoundError), and a
    # file that adds to sys.path but imports nothing the lookups miss keeps its answer
    (tmp_path / "train.py").write_text("import inmod\ninmod.go()\n")
    _, out = _emulate(capsys, "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "train.py")
    assert out[-1] == "usable data: no"
    (tmp_path / "train.py").write_text('import sys\nsys.path.append("lib")\nimport json\n')
    _, out = _emulate(capsys, "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "train.py")
    assert out[-1] == "usable data: no"
    for line in ('sys.path.append(os.path.join(os.path.dirname(__file__), "lib"))', 'sys.path += ["lib"]',
                 'sys.path[0:0] = ["lib"]', 'site.addsitedir("lib")'):
        (tmp_path / "train.py").write_text(f"import os, site, sys\n{line}\nimport inmod\ninmod.go()\n")
        _, out = _emulate(capsys, "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "train.py")
        assert out[-1].startswith("usable data: unknown (train.py has no profiling setup of its own, but lib/inmod.py")
    # a root too big to list whole: the module may be past the bound, so never "no"
    from flake8_npuprof.emulate import added_path
    monkeypatch.setattr(added_path, "MAX_ENTRIES", 2)
    for k in range(3):
        (tmp_path / f"a{k}.py").write_text("")
    _, out = _emulate(capsys, "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "train.py")
    assert out[-1] == ("usable data: unknown (train.py has no profiling setup of its own, but it imports more modules "
                       "than are followed here: a setup in a module it imports is not emulated here)")


def test_a_member_no_release_has_stops_the_job(tmp_path, capsys):
    # NPP317 (an AttributeError where `AiCMetrics.PipeUtilisation` is evaluated, as the _ExperimentalConfig is built)
    # was not weighed: emulate said "usable data: yes" of a script check says stops
    body = GOOD.replace("AiCMetrics.PipeUtilization", "AiCMetrics.PipeUtilisation")
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, body))
    why = ("torch_npu's AiCMetrics has no member PipeUtilisation: torch_npu 7.3 raises AttributeError (AiCMetrics has "
           "no attribute 'PipeUtilisation') where AiCMetrics.PipeUtilisation is evaluated, and the job stops; did you "
           "mean AiCMetrics.PipeUtilization?")
    assert code == 1 and out[1:3] == [f"train.py:6 profile: FAILS: {why}", f"usable data: no (line 6: {why})"]


def test_a_member_some_releases_lack_fails_only_there(tmp_path, capsys):
    # AiCMetrics.MemoryAccess is new in torch_npu 7.0: 6.0 stops, 7.0 collects, and under every release it depends
    body = GOOD.replace("AiCMetrics.PipeUtilization", "AiCMetrics.MemoryAccess")
    code, out = _emulate(capsys, "--torch-npu", "6.0", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 1 and out[1].startswith("train.py:6 profile: FAILS: AiCMetrics.MemoryAccess is new in torch_npu "
                                           "7.0: torch_npu 6.0 raises AttributeError")
    code, out = _emulate(capsys, "--torch-npu", "7.0", "--cwd", tmp_path, _script(tmp_path, body))
    assert code == 0 and out[2] == "usable data: yes"
    # under every release the check says only what every release lacks; emulate weighs what some lack
    code, out = _emulate(capsys, "--cwd", tmp_path, _script(tmp_path, body))
    why = ("AiCMetrics.MemoryAccess is new in torch_npu 7.0: torch_npu 5.0-6.0 raises AttributeError (AiCMetrics has no "
           "MemoryAccess before 7.0), and the job stops; torch_npu 7.0+ accepts it; use another member, or target "
           "torch_npu 7.0+ (line 5); torch_npu 7.0+ collects (give --torch-npu)")
    assert code == 1 and out[1:3] == [f"train.py:6 profile: UNKNOWN: {why}", f"usable data: unknown (line 6: {why})"]


def test_a_member_some_releases_lack_and_no_data_on_the_others_is_no_usable_data(tmp_path, capsys):
    # a QA script (s68): ExportType stops torch_npu 5.0, and on 6.0+ the schedule records past the loop's end; emulate
    # said "UNKNOWN" (the member alone) and "usable data: unknown", where no release keeps any data
    body = GOOD.replace("AiCMetrics.PipeUtilization", "AiCMetrics.MemoryAccess").replace("skip_first=1", "skip_first=20")
    code, out = _emulate(capsys, "--cwd", tmp_path, _script(tmp_path, body))
    why = ("AiCMetrics.MemoryAccess is new in torch_npu 7.0: torch_npu 5.0-6.0 raises AttributeError (AiCMetrics has no "
           "MemoryAccess before 7.0), and the job stops; torch_npu 7.0+ accepts it; use another member, or target "
           "torch_npu 7.0+ (line 5); on torch_npu 7.0+, collects nothing: the schedule records from step 22, but the "
           "loop (line 10) runs 10 steps, calling prof.step() once each: it ends in its wait steps: nothing is "
           "collected and nothing is said")
    assert code == 1 and out[1:3] == [f"train.py:6 profile: COLLECTS NOTHING: {why}", f"usable data: no (line 6: {why})"]


STARTED = ("prof = torch_npu.profiler.profile(\n"
           "    schedule=torch_npu.profiler.schedule(wait=0, warmup=0, active=1, repeat=1),\n"
           "    on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(\"./prof\"))\n"
           "prof.start()\n"
           "for step in range(5):\n"
           "    train_one_step()\n")


def test_a_profiler_started_and_never_stopped_saves_its_trace_only_if_freed(tmp_path, capsys):
    # a QA script (s68): prof.start() and no prof.stop(), never stepped: emulate said "COLLECTS the whole run as one
    # trace", "usable data: yes", of a trace saved only when the profiler stops (torch_npu/profiler/profiler.py: its
    # __del__ stops one never stopped, the record's lifecycle.never_started_*: when it is freed)
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, STARTED))
    why = ("prof.start() is never followed by prof.stop() (nor a `with`), and the trace is saved only when the profiler "
           "stops: then only when Python frees prof (profile.__del__ stops a profiler never stopped, on torch_npu "
           "6.0.rc3+), which for a profiler alive when the script ends is not certain")
    assert code == 1 and out[1:3] == [f"train.py:4 profile: UNKNOWN: {why}", f"usable data: unknown (line 4: {why})"]
    # stopped: the trace is saved then
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, STARTED + "prof.stop()\n"))
    assert code == 0 and out[1] == f"train.py:4 profile: COLLECTS the whole run as one trace into {tmp_path}/prof"
    # stepped: each record window's trace is saved at its end, stop() or not
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path,
                         _script(tmp_path, STARTED + "    prof.step()\n"))
    assert code == 0 and out[1] == f"train.py:4 profile: COLLECTS steps 0 into {tmp_path}/prof"
    # handed on: who stops it is not known here, and the answer stays the replay's
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, STARTED + "keep(prof)\n"))
    assert "is never followed by" not in out[1]


def test_a_member_no_release_has_outside_the_call_leaves_it_unknown(tmp_path, capsys):
    # the member named where the call does not build it (a level kept in a name first): the job stops where it is
    # evaluated, which emulate does not place against the profiler; not "yes"
    body = ("level = ProfilerLevel.Level3\n" +
            GOOD.replace("profiler_level=ProfilerLevel.Level1", "profiler_level=level"))
    code, out = _emulate(capsys, "--torch-npu", "7.3", "--cwd", tmp_path, _script(tmp_path, body))
    why = ("torch_npu's ProfilerLevel has no member Level3: torch_npu 7.3 raises AttributeError (ProfilerLevel has no "
           "attribute 'Level3') where ProfilerLevel.Level3 is evaluated, and the job stops; did you mean "
           "ProfilerLevel.Level2? (line 4; whether it is evaluated before this profiler collects is not followed here)")
    assert code == 1 and out[1:3] == [f"train.py:7 profile: UNKNOWN: {why}", f"usable data: unknown (line 7: {why})"]
