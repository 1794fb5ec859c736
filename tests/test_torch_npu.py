"""torch_npu's profiler setup (checks/torch_npu.py): codes, positions, messages per release target, fixes,
the release axis in flags and configuration, and the prefilter's words."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.cli import main
from flake8_npuprof.engine.fix import apply_edits
from flake8_npuprof.knowledge import torch_npu as K
from flake8_npuprof.knowledge.targets import TORCH_NPU_RELEASES, Target, TargetError, parse_torch_npu
from flake8_npuprof.source.prefilter import might_configure_profiling

HEAD = "import torch_npu\nfrom torch_npu.profiler import AiCMetrics, ProfilerActivity, ProfilerLevel\n"
CLEAN = (Path(__file__).resolve().parent / "eval_files" / "torch_clean.py").read_text(encoding="utf-8")


def found(text, release="any", soc="any", cann="any"):
    settings = Settings(target=Target.parse(cann, soc, release))
    return [(f.line, f.col, f.code, f.message) for f in analyse(text, None, "t.py", settings)]


def codes(text, **kw):
    return [(line, col, code) for line, col, code, _ in found(text, **kw)]


def config(body):
    return HEAD + f"cfg = torch_npu.profiler._ExperimentalConfig({body})\n"


# ---------------------------------------------------------------- the release axis

def test_release_names():
    assert K.data()["releases"] == list(TORCH_NPU_RELEASES)
    assert parse_torch_npu("v7.3.1-pytorch2.9.0") == "7.3"
    assert parse_torch_npu("6.0.rc3") == "6.0"
    assert parse_torch_npu(" 26.1 ") == "26.1"
    assert parse_torch_npu(None) == "any" and parse_torch_npu("Portable") == "portable"
    for bad in ("7.4", "2.1.0", "latest", ""):
        with pytest.raises(TargetError):
            parse_torch_npu(bad)
    assert Target.parse("8.5", "910B", "7.3").describe() == "CANN 8.5, Ascend 910B, torch_npu 7.3"
    assert Target().torch_npu == "any" and Target("8.0", "310").torch_npu == "any"


def test_spans():
    assert K.span(["6.0", "7.0", "7.1", "7.2", "7.3", "26.0", "26.1"]) == "6.0+"
    assert K.span(["5.0"]) == "5.0" and K.span(["5.0", "6.0", "7.0"]) == "5.0-7.0"
    assert K.span(["5.0", "7.1"]) == "5.0, 7.1"


def test_under_any_only_what_every_release_does_wrong():
    legacy = HEAD + "import torch\nwith torch.npu.profile('./p'):\n    pass\n"
    assert codes(legacy) == []                              # 5.0 still has the legacy API
    assert codes(legacy, release="6.0") == [(4, 5, "NPP308")]
    message = found(legacy, release="portable")[0][3]
    assert message.startswith("torch.npu.profile() is torch_npu's legacy profiler API (last in 5.0): torch_npu 6.0+ "
                              "raises AttributeError (the legacy profiler API is gone); torch_npu 5.0 accepts it")


def test_messages_say_per_release_where_they_differ():
    (line, col, code, message), = found(config('export_type="Db"'))
    assert (line, col, code) == (3, 57, "NPP300")
    assert message == ("export_type 'Db' is not \"text\" or \"db\": torch_npu 6.0+ resets it to text with a warning on "
                       "rank 0 only (6.0.rc1: on every rank); on torch_npu 5.0 it raises TypeError (_ExperimentalConfig has no export_type "
                       "before 6.0); did you mean 'db' (ExportType.Db)?")
    (_, _, _, message), = found(config('export_type="Db"'), release="7.3")
    assert message.startswith("export_type 'Db' is not \"text\" or \"db\": torch_npu 7.3 resets it to text with a "
                              "warning on rank 0 only;")


# ---------------------------------------------------------------- _ExperimentalConfig

def test_level_values_followed_through_names_and_argparse_defaults():
    text = HEAD + ("import argparse\np = argparse.ArgumentParser()\np.add_argument('--level', default='level2')\n"
                   "args = p.parse_args()\ncfg = torch_npu.profiler._ExperimentalConfig(profiler_level=args.level)\n")
    (line, col, code, message), = found(text)
    assert (line, col, code) == (7, 60, "NPP300")
    assert message == ("profiler_level 'level2' is not a level torch_npu knows: torch_npu 6.0+ resets it to Level0 "
                       "with a warning on rank 0 only (6.0.rc1: on every rank); on torch_npu 5.0 it depends on the "
                       "build (5.0.rc3 keeps the value as written, without a warning; later 5.0 builds were not "
                       "recorded); write ProfilerLevel.Level2 (\"Level2\") (with the default of --level, "
                       "used when the flag is not given)")


def test_unknown_values_stay_quiet():
    for body in ("profiler_level=level", "aic_metrics=metric", "l2_cache=flag", "export_type=kinds",
                 "aic_metrics='ACL_AICORE_SOMETHING_NEW'", "profiler_level=ProfilerLevel.Level1, **extra"):
        assert codes("def f(level, metric, flag, kinds, extra):\n" + "".join(
            "    " + x + "\n" for x in config(body).splitlines())) == [], body


def test_enum_members_and_their_strings_are_accepted():
    for body in ("profiler_level=ProfilerLevel.Level2, aic_metrics=AiCMetrics.MemoryUB",
                 "profiler_level='Level1', aic_metrics='ACL_AICORE_L0B_AND_WIDTH'",
                 "profiler_level=torch_npu.profiler.ProfilerLevel.Level1, "
                 "aic_metrics=torch_npu.profiler.AiCMetrics.PipeUtilization",
                 "profiler_level=ProfilerLevel.Level0, aic_metrics=AiCMetrics.AiCoreNone",
                 "export_type=[torch_npu.profiler.ExportType.Db], op_attr=True"):
        assert codes(config(body)) == [], body


def test_the_enum_name_fix_is_safe_where_the_reset_gives_the_same_data():
    text = config('profiler_level=ProfilerLevel.Level1, aic_metrics="PipeUtilization"')
    finding, = analyse(text, None, "t.py", Settings())
    assert finding.code == "NPP301" and not finding.fix.safe    # 5.0.rc3 keeps the name as written
    for release in TORCH_NPU_RELEASES[1:]:                      # 6.0+ reset it to what the fix writes
        safe, = analyse(text, None, "t.py", Settings(target=Target.parse("any", "any", release)))
        assert safe.fix.safe, release
    level2, = analyse(text.replace("Level1", "Level2"), None, "t.py", Settings(target=Target.parse("any", "any", "7.3")))
    assert not level2.fix.safe                                  # not recorded at Level2
    assert "torch_npu 6.0+ resets it to PipeUtilization with a warning on rank 0 only (6.0.rc1: on every rank); on " \
        "torch_npu 5.0 it depends on the build (5.0.rc3 keeps the value as written, without a warning;" in finding.message
    fixed = apply_edits(text, finding.fix.edits)
    assert 'aic_metrics="ACL_AICORE_PIPE_UTILIZATION")' in fixed
    assert [f.code for f in analyse(fixed, None, "t.py", Settings())] == []


def test_at_level0_the_enum_name_gets_advice_about_the_level_and_no_fix():
    # no metric is collected at Level0 whatever it is named: writing the value would only trade NPP301 for NPP302
    finding, = analyse(config('profiler_level=ProfilerLevel.Level0, aic_metrics="PipeUtilization"'), None, "t.py",
                       Settings())
    assert finding.code == "NPP301" and finding.fix is None
    assert "torch_npu 6.0+ resets it to AiCoreNone with a warning on rank 0 only (6.0.rc1: on every rank); on " \
        "torch_npu 5.0 it depends on the build (5.0.rc3 keeps the value as written, with a warning that AI Core " \
        "metrics need Level1 or Level2;" in finding.message
    assert "with profiler_level=ProfilerLevel.Level1 (at Level0 no AI Core metric is collected)" in finding.detail


def test_the_enum_name_fix_is_unsafe_where_it_changes_the_data():
    finding, = analyse(config('profiler_level="Level1", aic_metrics="Memory"'), None, "t.py", Settings())
    assert finding.code == "NPP301" and not finding.fix.safe
    assert finding.fix.edits[0].text == '"ACL_AICORE_MEMORY_BANDWIDTH"'


def test_metric_at_level0_and_the_5_0_difference():
    (line, col, code, message), = found(config("aic_metrics=AiCMetrics.Memory"))
    assert code == "NPP302"
    assert message == ("aic_metrics Memory at profiler_level Level0 (the default): torch_npu 6.0+ drops it with a "
                       "warning on rank 0 only (6.0.rc1: on every rank); on torch_npu 5.0 it depends on the build "
                       "(5.0.rc3 keeps the value as written, with a warning that AI Core metrics need Level1 or Level2; "
                       "later 5.0 builds were not recorded); AI Core metrics are collected at Level1 and Level2 only (it becomes AiCoreNone): "
                       "add profiler_level=ProfilerLevel.Level1 to collect it")


def test_keywords_per_release():
    text = config("profiler_level='Level1', mstx=True, sys_io=True")
    assert codes(text) == []
    assert [c for _, _, c in codes(text, release="7.0")] == ["NPP303", "NPP303"]
    assert [c for _, _, c in codes(text, release="7.1")] == ["NPP303"]
    assert codes(text, release="7.2") == []
    (_, _, code, message), = found(config("profiler_level='Level1', aicore_metrics=AiCMetrics.PipeUtilization"))
    assert message.endswith("raises TypeError (unexpected keyword argument 'aicore_metrics') when the script "
                            "starts; did you mean aic_metrics=?")


def test_chips_only_with_a_product_target():
    text = config("profiler_level=ProfilerLevel.Level1, l2_cache=True")
    assert codes(text) == [] and codes(text, soc="910B") == []
    assert codes(text, soc="310") == [(3, 82, "NPP309")]
    assert codes(text, soc="310", cann="8.0") == []        # the older collectors' ACL path was not read
    metric = config("profiler_level=ProfilerLevel.Level2, aic_metrics=AiCMetrics.L2Cache")
    assert [c for _, _, c in codes(metric, soc="910")] == ["NPP309"] and codes(metric, soc="310B") == []
    access = config("profiler_level='Level1', aic_metrics=AiCMetrics.MemoryAccess")
    assert [c for _, _, c in codes(access, soc="310P")] == ["NPP309"] and codes(access, soc="910C") == []


# ---------------------------------------------------------------- schedule, profile, handler

def test_schedule_positional_order_is_off_by_default_and_its_fix_names_the_arguments(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.py").write_text(HEAD + "s = torch_npu.profiler.schedule(1, 1, 3)\n")
    assert main(["check", "--no-cache", "s.py"]) == 0
    assert main(["fix", "--no-cache", "--extend-select", "NPP304", "s.py"]) == 0
    capsys.readouterr()
    assert (tmp_path / "s.py").read_text().endswith("schedule(wait=1, active=1, warmup=3)\n")


def test_schedule_values_reset_on_6_0_and_later():
    text = HEAD + "s = torch_npu.profiler.schedule(wait=2.0, active=1)\n"
    assert codes(text) == []                                  # 5.0.rc3 keeps 2.0, which int() reads as 2
    (_, _, code, message), = found(text, release="6.0")
    assert message.startswith("wait=2.0 is not an int: torch_npu 6.0 resets it to 0 with a warning on rank 0 only "
                              "(6.0.rc1: on every rank)")
    (_, _, code, message), = found(text, release="7.3")
    assert message.startswith("wait=2.0 is not an int: torch_npu 7.3 resets it to 0 with a warning on rank 0 only; ")
    (_, _, code, message), = found(HEAD + "s = torch_npu.profiler.schedule(wait=1, active=-2)\n")
    assert message.startswith("active=-2 is not positive: torch_npu 6.0+ resets it to 1 with a warning on rank 0 "
                              "only (6.0.rc1: on every rank); on torch_npu 5.0 it depends on the build (5.0.rc3 keeps "
                              "the value as written, without a warning; later 5.0 builds were not recorded)")
    (_, _, code, message), = found(HEAD + "s = torch_npu.profiler.schedule(wait=None, active=1)\n")
    assert "on torch_npu 5.0 it depends on the build (5.0.rc3 keeps the value as written" in message


def test_portable_names_what_5_0_does_with_active_zero():
    (_, _, code, message), = found(HEAD + "s = torch_npu.profiler.schedule(wait=0, active=0)\n", release="portable")
    assert message == ("active=0 is not positive: torch_npu 6.0+ resets it to 1 with a warning on rank 0 only "
                       "(6.0.rc1: on every rank); on torch_npu 5.0 it depends on the build (5.0.rc3 keeps active=0 "
                       "without a warning, then raises ZeroDivisionError at prof.step(); later 5.0 builds were not "
                       "recorded); write a whole number of at least 1")


def test_5_0_claims_no_reaction_of_one_build():
    # 5.0.rc3, the one 5.0 build recorded, validates none of these; the final 5.0 was not recorded
    for text in (config('profiler_level="level1"'), config("l2_cache=1"),
                 HEAD + 'h = torch_npu.profiler.tensorboard_trace_handler(b"./prof")\n'):
        (_, _, code, message), = found(text, release="5.0")
        assert code == "NPP300" and "torch_npu 5.0 depends on the build (5.0.rc3 keeps the value as written, " \
            "without a warning; later 5.0 builds were not recorded)" in message, message
        assert "resets" not in message and "raises" not in message


def test_an_invalid_level_leaves_the_metric_unjudged():
    # no record holds an invalid level with a metric's name; "level1" alone keeps the metric at Level0 (6.0+)
    findings = found(config('profiler_level="level1", aic_metrics="PipeUtilization"'))
    assert [f[2] for f in findings] == ["NPP300"]


def test_keywords_added_within_a_line():
    (_, _, code, message), = found(config("msprof_tx=True"), release="6.0")
    assert code == "NPP303" and message.startswith(
        "_ExperimentalConfig's keyword msprof_tx is new in torch_npu 6.0: torch_npu 6.0 depends on the build "
        "(6.0.rc1 raises TypeError: _ExperimentalConfig has no msprof_tx before 6.0.rc2)")
    assert codes(config("msprof_tx=True"), release="7.0") == []
    (_, _, code, message), = found(config('profiler_level="Level_none"'), release="6.0")
    assert message.startswith('profiler_level "Level_none" is new in torch_npu 6.0.rc2: torch_npu 6.0 depends on the '
                              "build (6.0.rc1 resets it to Level0 with a warning on every rank)")


def test_activities_strings_and_experimental_config_without_npu():
    text = HEAD + ("cfg = torch_npu.profiler._ExperimentalConfig(profiler_level='Level1')\n"
                   "p = torch_npu.profiler.profile(activities=['NPU'], on_trace_ready=h)\n"
                   "q = torch_npu.profiler.profile(activities=[ProfilerActivity.CPU], experimental_config=cfg, "
                   "on_trace_ready=h)\n")
    assert codes(text) == [(4, 42, "NPP300"), (5, 66, "NPP302")]


def test_no_trace_handler_unless_exported():
    text = HEAD + "with torch_npu.profiler.profile() as prof:\n    pass\n"
    assert codes(text) == []                                # 5.0 keeps the raw data
    assert codes(text, release="6.0") == [(3, 5, "NPP307")]
    assert codes(text + "prof.export_chrome_trace('t.json')\n", release="6.0") == []


# ---------------------------------------------------------------- the loop

LOOP = HEAD + """\
with torch_npu.profiler.profile(schedule=torch_npu.profiler.schedule(wait=WAIT, active=2, warmup=1),
                                on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./p")) as prof:
    for step in range(STEPS):
        train()
        STEP
"""


def loop(wait=1, steps=10, step="prof.step()"):
    return LOOP.replace("WAIT", str(wait)).replace("STEPS", str(steps)).replace("STEP", step, 1) \
        .replace("        STEP", "        " + step)


def test_loop_without_step():
    text = loop(step="pass")
    (line, col, code, message), = found(text)
    assert (line, col, code) == (3, 5, "NPP305")
    assert message.startswith("profile(schedule=...) whose loop never calls prof.step(): torch_npu collects nothing "
                              "and says nothing")
    assert codes(loop(step="helper(prof)")) == []             # the profiler is passed on: not judged
    assert codes(loop()) == []


def test_schedule_never_reached():
    assert codes(loop(wait=1, steps=3)) == []                 # records from step 2
    (line, col, code, message), = found(loop(wait=12, steps=10))
    assert (line, col, code) == (5, 16, "NPP306")
    assert message.startswith("the schedule records from step 13 (skip_first=0 + wait=12 + warmup=1), but this loop "
                              "calls prof.step() only 10 times: torch_npu collects nothing and says nothing")
    assert codes(loop(wait=9, steps=9)) == []                 # ends in warmup: 5.0's reaction was not read
    (_, _, code, message), = found(loop(wait=9, steps=9), release="7.0")     # 6.0.rc3+ deletes the warmup data
    assert message.startswith("the schedule records from step 10 (skip_first=0 + wait=9 + warmup=1), but this loop "
                              "calls prof.step() only 9 times: torch_npu 7.0 ends in its warmup steps and deletes the "
                              "data, with a warning")
    (_, _, code, message), = found(loop(wait=9, steps=9), release="6.0")     # 6.0.rc1 started collecting at warmup
    assert "torch_npu 6.0 depends on the build (6.0.rc1 starts collecting in the warmup steps and stops at exit " \
        "without calling on_trace_ready, with a warning; 6.0.rc3 and 6.0.0 end in their warmup steps" in message
    assert codes(loop(wait=12, steps="n")) == []              # unknown bound
    (_, _, code, message), = found(loop(wait=9, steps=9), release="portable")
    assert message.endswith("; torch_npu 5.0 starts collecting in the warmup steps and stops at exit, with a Python "
                            "warning (5.0.rc3; later 5.0 builds were not recorded); lower wait/skip_first/warmup or "
                            "run more steps")


# ---------------------------------------------------------------- the environment, the front-ends

def test_profiling_mode_on_26_1_only():
    text = HEAD + "import os\nos.environ['PROFILING_MODE'] = 'false'\nwith torch_npu.profiler.profile(" \
                  "on_trace_ready=h):\n    pass\n"
    assert [c for _, _, c in codes(text)] == []
    assert [c for _, _, c in codes(text, release="26.0")] == []
    assert [c for _, _, c in codes(text, release="26.1")] == ["NPP310"]


def test_clean_script_has_no_finding_on_any_target():
    for release in ("any",) + TORCH_NPU_RELEASES[2:]:     # 5.0 and 6.0 lack its list export_type
        assert found(CLEAN, release=release, soc="910B") == [], release


def test_release_from_flag_and_configuration(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.py").write_text(config("profiler_level='Level1', mstx=True"))
    assert main(["check", "--no-cache", "t.py"]) == 0
    assert main(["check", "--no-cache", "--torch-npu", "7.0", "t.py"]) == 1
    assert "torch_npu 7.0 raises TypeError" in capsys.readouterr().out
    (tmp_path / "pyproject.toml").write_text('[tool.npuprof]\ntorch-npu = "7.1"\n')
    assert main(["check", "--no-cache", "t.py"]) == 1
    assert "torch_npu 7.1 raises TypeError" in capsys.readouterr().out
    assert main(["check", "--no-cache", "--torch-npu", "7.2", "t.py"]) == 0      # the flag wins
    (tmp_path / "pyproject.toml").write_text('[tool.npuprof]\ntorch-npu = "9.9"\n')
    assert main(["check", "--no-cache", "t.py"]) == 2
    assert "torch-npu: unknown torch_npu release '9.9'" in capsys.readouterr().err
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "setup.cfg").write_text("[flake8]\nnpuprof-torch-npu = 7.0\n")
    assert main(["check", "--no-cache", "t.py"]) == 1


def test_flake8_option_and_sarif(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.py").write_text(config("profiler_level='Level1', mstx=True"))
    run = subprocess.run([sys.executable, "-m", "flake8", "--select", "NPP", "--npuprof-torch-npu", "7.0", "t.py"],
                         capture_output=True, text=True)
    assert run.stdout.startswith("t.py:3:71: NPP303 _ExperimentalConfig's keyword mstx is new in torch_npu 7.2: "
                                 "torch_npu 7.0 raises TypeError"), run.stdout + run.stderr
    assert subprocess.run([sys.executable, "-m", "flake8", "--select", "NPP", "t.py"],
                          capture_output=True, text=True).stdout == ""
    assert main(["check", "--no-cache", "--torch-npu", "7.0", "--format", "sarif", "t.py"]) == 1
    sarif = json.loads(capsys.readouterr().out)
    result, = sarif["runs"][0]["results"]
    assert result["ruleId"] == "NPP303" and result["level"] == "error"
    assert main(["explain", "NPP305"]) == 0
    assert "# NPP305 torch-npu-no-step" in capsys.readouterr().out


OWN = "torch_npu's own profile (its builds for torch 1.8.1-2.0.1 put it in torch.autograd.profiler)"
BUILD_LINES = ("on torch_npu 5.0 it depends on the build (its builds for torch 1.8.1, 1.11.0 and 2.0.1 take it; its "
               "other builds raise TypeError)", "on torch_npu 6.0 it depends on the build (6.0.rc1-6.0.rc2.1 for torch "
               "1.11.0 take it; its other builds raise TypeError)")
BUILDS = "; ".join(BUILD_LINES)


def test_use_npu_by_release():
    text = "import torch\ntorch.autograd.profiler.profile(use_npu=True)\n"
    head = f"torch.autograd.profiler.profile(use_npu=...) needs {OWN}: "
    assert found(text) == [(2, 32, "NPP308", f"{head}torch_npu 7.0+ runs on a torch without use_npu, which raises "
                                             f"TypeError; {BUILDS}; use torch_npu.profiler.profile")]
    five = analyse(text, None, "t.py", Settings(target=Target.parse("any", "any", "5.0")))[0]
    assert five.short == ("torch.autograd.profiler.profile(use_npu=...) needs torch_npu's own profile: torch_npu 5.0 "
                          "depends on the build")
    assert five.detail_lines[0] == (f"{head}torch_npu 5.0 depends on the build (its builds for torch 1.8.1, 1.11.0 and "
                                    "2.0.1 take it; its other builds raise TypeError)")


def test_use_npu_through_kwargs():
    # a dict built in the same scope (VOLO's and Conformer_Ti's prof_kwargs): every path, one branch, or not followed
    text = ("import sys\nimport torch\n\nif sys.argv[1] == 'npu':\n    kw = {'use_npu': True}\nelif sys.argv[1] == "
            "'cuda':\n    kw = {'use_cuda': True}\nelse:\n    kw = {}\ntorch.autograd.profiler.profile(**kw)\n"
            "added = {}\nadded['use_npu'] = False\ntorch.autograd.profiler.profile(**added)\n"
            "passed = {'use_npu': True}\nprint(passed)\ntorch.autograd.profiler.profile(**passed)\n")
    # (torch_npu 5.0's builds for torch 1.8.1-2.0.1 and 6.0.rc1-rc2.1's for 1.11 put their own profile, which takes
    # use_npu, in torch.autograd.profiler: it said "which only torch 1.5/1.8 NPU forks had: torch_npu runs on a torch
    # without it: TypeError")
    tail = (f"which needs {OWN}: torch_npu 7.0+ runs on a torch without it: TypeError; {BUILDS}; use "
            "torch_npu.profiler.profile")
    assert found(text) == [
        (10, 32, "NPP308", f"when `sys.argv[1] == 'npu'` (line 5): **kw gives profile() use_npu, {tail}"),
        (13, 32, "NPP308", f"**added gives profile() use_npu (line 12), {tail}")]
    settings = Settings(target=Target.parse("any", "any", "any"))
    branch = analyse(text, None, "t.py", settings)[0]
    assert branch.short == ("on the branch of line 5: **kw gives profile() use_npu, which needs torch_npu's own "
                            "profile: torch_npu 7.0+ runs on a torch without it: TypeError")
    assert branch.detail_lines == ("when `sys.argv[1] == 'npu'` (line 5)", f"**kw gives profile() use_npu, which needs "
                                   f"{OWN}: torch_npu 7.0+ runs on a torch without it: TypeError", *BUILD_LINES,
                                   "use torch_npu.profiler.profile")
    # the same keyword branch by branch: on every path, so no condition; both lines named
    both = ("import sys\nimport torch\nif sys.argv[1]:\n    kw = {'use_npu': True}\nelse:\n"
            "    kw = dict(use_npu=False)\ntorch.autograd.profiler.profile(**kw)\n")
    assert found(both) == [(7, 32, "NPP308", f"**kw gives profile() use_npu (lines 4, 6), {tail}")]
    # inside a loop, a `dict` of the file's own, a computed key: not followed
    for quiet in ("import torch\nkw = {}\nfor x in range(2):\n    torch.autograd.profiler.profile(**kw)\n"
                  "    kw = {'use_npu': True}\n",
                  "import torch\ndef dict(**k):\n    return {}\nkw = dict(use_npu=True)\n"
                  "torch.autograd.profiler.profile(**kw)\n",
                  "import torch\nname = 'use_npu'\nkw = {}\nkw[name] = True\ntorch.autograd.profiler.profile(**kw)\n",
                  "import torch\nkw = {'use_npu': True}\ndef f():\n    global kw\n    kw = {}\n"
                  "torch.autograd.profiler.profile(**kw)\n",
                  # a later binding may replace the one with use_npu: its `if` alone does not decide
                  "import torch, sys\nif sys.argv[1]:\n    kw = {'use_npu': True}\n    kw = {}\n"
                  "torch.autograd.profiler.profile(**kw)\n",
                  "import torch, sys\nif sys.argv[1]:\n    kw = {'use_npu': True}\nif sys.argv[2]:\n    kw = {}\n"
                  "torch.autograd.profiler.profile(**kw)\n"):
        assert codes(quiet) == [], quiet


PREFILTER_PASS = ["import torch_npu\nprof = torch_npu.profiler.profile()\n",
                  "from torch_npu.profiler import _ExperimentalConfig\n",
                  "import torch\nwith torch.npu.profile('./p'):\n    pass\n",
                  "import torch\ntorch.autograd.profiler.profile(use_npu=True)\n"]
PREFILTER_QUIET = ["import torch_npu\nx = input()\n",                          # no profiler
                   "import torch_npu\n# torch_npu.profiler.profile(...) off for now\n",
                   "import cProfile\ncProfile.run('main()')\n"]            # a profiler, not torch_npu's


def test_prefilter_words():
    for text in PREFILTER_PASS:
        assert might_configure_profiling(text), text
    for text in PREFILTER_QUIET:
        assert not might_configure_profiling(text), text


START = HEAD + """\
prof = None
if args.prof:
    prof = torch_npu.profiler.profile(schedule=torch_npu.profiler.schedule(wait=1, warmup=1, active=2, skip_first=28),
                                      on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./p"))
for i, batch in enumerate(loader):
    if prof is not None and i == 30:
        prof.start()
    train(batch)
    if prof is not None and i == 30:
        prof.stop()
"""


def test_start_stop_without_step():
    # as a model-zoo script does it: 6.0+ asks the schedule at start(), which is at step 0, in skip_first
    assert codes(START) == []                               # 5.0's start() ran whatever the schedule said
    (line, col, code, message), = found(START, release="6.0")
    assert (line, col, code) == (5, 11, "NPP305")
    assert message.startswith("profile(schedule=...) whose run never calls prof.step(): torch_npu 6.0 collects "
                              "nothing and says nothing")
    assert codes(START.replace("    train(batch)\n", "    train(batch)\n    prof.step()\n"), release="6.0") == []
    assert codes(START.replace("    train(batch)\n", "    train(batch, prof)\n"), release="6.0") == []


def test_the_server_reads_the_release_from_the_configuration(tmp_path):
    pytest.importorskip("pygls")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from lspclient import LspClient
    (tmp_path / "pyproject.toml").write_text('[tool.npuprof]\ntorch-npu = "7.0"\n')
    client = LspClient(cwd=str(tmp_path))
    try:
        client.initialize(tmp_path)
        uri = client.open(tmp_path / "t.py", config("profiler_level='Level1', mstx=True"))
        [diag] = client.diagnostics(uri, 1)
        assert diag["code"] == "NPP303" and diag["range"]["start"] == {"line": 2, "character": 70}
        assert diag["message"].startswith("_ExperimentalConfig's keyword mstx is new in torch_npu 7.2: torch_npu 7.0 "
                                          "raises TypeError")
    finally:
        client.kill()


def test_profile_keywords_and_positional_arguments():
    text = HEAD + "p = torch_npu.profiler.profile([ProfilerActivity.NPU], custom_trace_id_callback=f, on_trace_ready=h)\n"
    assert codes(text) == []                                # 5.0 takes positional arguments; 26.1 has the callback
    assert [c for _, _, c in codes(text, release="7.3")] == ["NPP303", "NPP303"]
    (_, _, code, message), = found(HEAD + "p = torch_npu.profiler.profile(profiler_level=1, on_trace_ready=h)\n")
    assert message.startswith("profile has no keyword profiler_level: torch_npu raises TypeError (unexpected keyword "
                              "argument 'profiler_level') when the script starts")


def test_an_empty_profiling_mode_does_not_switch_the_profiler_off():
    base = HEAD + "import os\n{}\nwith torch_npu.profiler.profile(on_trace_ready=h):\n    pass\n"
    assert codes(base.format("os.environ['PROFILING_MODE'] = ''"), release="26.1") == []
    assert codes(base.format("os.environ['PROFILING_MODE'] = mode"), release="26.1") == []     # unknown: quiet
    assert [c for _, _, c in codes(base.format("os.environ.setdefault('PROFILER_SAMPLECONFIG', '{}')"),
                                   release="26.1")] == ["NPP310"]
    # torch_npu reads them with os.getenv, from os.environ, which os.putenv leaves as it is
    assert codes(base.format("os.putenv('PROFILER_SAMPLECONFIG', '{}')"), release="26.1") == []


def test_no_trace_handler_is_judged_only_where_the_profiler_stays():
    made = HEAD + "def make():\n    return torch_npu.profiler.profile()\n"
    assert codes(made, release="7.3") == []                 # the caller may export its data
    kept = HEAD + "prof = torch_npu.profiler.profile()\nprof.start()\nprof.stop()\n"
    assert [c for _, _, c in codes(kept, release="7.3")] == ["NPP307"]
    assert codes(kept + "helpers.export(prof)\n", release="7.3") == []


def test_a_profiler_never_started_collects_nothing_and_is_not_said_to_delete_its_data():
    body = "def train(loader):\n    prof = torch_npu.profiler.profile({})\n    for b in loader:\n        b.run()\n{}"
    never = HEAD + body.format("", "")
    want = ("prof = profile(...) is never started (no prof.start(), no `with prof:`): torch_npu {}never initialises "
            "its collector, so nothing is collected; profile with `with torch_npu.profiler.profile(...) as prof:` "
            "around the training loop, or call prof.start() before it and prof.stop() after it")
    assert found(never) == [(4, 11, "NPP315", want.format(""))]
    assert found(never, release="7.3") == [(4, 11, "NPP315", want.format("7.3 "))]      # and no NPP307
    started = HEAD + body.format("", "    prof.start()\n")
    assert codes(started, release="7.3") == [(4, 11, "NPP307")]
    stepped = HEAD + body.format("on_trace_ready=h", "        prof.step()\n")
    (_, _, code, message), = found(stepped)
    assert code == "NPP315" and message.startswith(
        "prof = profile(...) is never started (no prof.start(), no `with prof:`); prof.step() alone does not start a "
        "profiler without a schedule: torch_npu never initialises its collector")
    scheduled = HEAD + body.format("schedule=torch_npu.profiler.schedule(wait=1, active=1), on_trace_ready=h",
                                   "        prof.step()\n")
    assert codes(scheduled) == []                           # a scheduled step() starts it
    assert codes(HEAD + body.format("**kw", "        prof.step()\n")) == []        # its schedule is not known
    module_level = HEAD + "prof = torch_npu.profiler.profile(on_trace_ready=h)\n"
    assert codes(module_level) == []                        # another module may import it and start it
    assert codes(module_level + "if __name__ == '__main__':\n    run()\n") == [(3, 7, "NPP315")]
    assert codes(HEAD + body.format("", "    global prof\n")) == []
    assert codes(HEAD + body.format("", "    prof.__enter__()\n")) == []
    assert codes(HEAD + body.format("", "    callbacks.append(prof.start)\n")) == []
    assert codes(HEAD + body.format("", "    if prof:\n        pass\n")) == [(4, 11, "NPP315")]   # a test only


def test_prof_config_path_where_torch_npu_never_reads_it():
    after = "import os\nimport torch\nimport torch_npu\nos.environ['PROF_CONFIG_PATH'] = './dp'\n"
    (line, col, code, message), = found(after)
    assert (line, col, code) == (4, 0, "NPP316") and message == (
        "PROF_CONFIG_PATH is set after `import torch_npu` (line 3): torch_npu 7.0+ reads it once, when torch_npu is "
        "imported (line 3), before this line sets it, so dynamic profiling does not start; on torch_npu 5.0 it never "
        "reads PROF_CONFIG_PATH (it does from 6.0.rc3 on), so dynamic profiling does not start; on torch_npu 6.0 it "
        "depends on the build (6.0.rc2 and earlier never read it; 6.0.rc3 and later read it once, when torch_npu is "
        "imported, line 3, before this line sets it): dynamic profiling does not start; set it above the script's "
        "first `import torch` and `import torch_npu`, or export it in the launcher")
    before = "import os\nos.environ['PROF_CONFIG_PATH'] = './dp'\nimport torch\nimport torch_npu\n"
    assert codes(before) == [] and codes(before, release="7.3") == []
    assert codes(before, release="5.0") == [(2, 0, "NPP316")]
    assert found(before, release="6.0")[0][3].startswith(
        "PROF_CONFIG_PATH is set to start torch_npu's dynamic profiling: torch_npu 6.0 depends on the build (6.0.rc2 "
        "and earlier never read it; 6.0.rc3 and later do)")
    between = "import os\nimport torch\nos.environ['PROF_CONFIG_PATH'] = './dp'\nimport torch_npu\n"
    assert codes(between, release="7.3") == []              # whether torch imports torch_npu depends on the torch
    assert codes(after.replace("'./dp'", "''")) == []        # empty: nothing starts on any release
    assert codes(after.replace("os.environ['PROF_CONFIG_PATH'] = './dp'", "def f():\n    os.environ["
                               "'PROF_CONFIG_PATH'] = './dp'")) == []      # a function's, not the module's run
    assert codes(after.replace("import torch_npu\n", "")) == []            # no torch_npu imported here


@pytest.mark.parametrize("imports,call", [
    ("import torch_npu", "torch_npu.profiler._ExperimentalConfig"),
    ("import torch_npu as tn", "tn.profiler._ExperimentalConfig"),
    ("import torch_npu.profiler as P", "P._ExperimentalConfig"),
    ("from torch_npu import profiler", "profiler._ExperimentalConfig"),
    ("from torch_npu import profiler as prof_api", "prof_api._ExperimentalConfig"),
    ("from torch_npu.profiler import _ExperimentalConfig as Cfg", "Cfg"),
    ("from torch_npu.profiler.experimental_config import _ExperimentalConfig", "_ExperimentalConfig"),
])
def test_the_imports_users_write(imports, call):
    text = f"{imports}\ncfg = {call}(profiler_level='level1')\n"
    assert [code for _, _, code in codes(text)] == ["NPP300"], imports
    assert codes(f"import torch\ncfg = {call}(profiler_level='level1')\n") == []        # not torch_npu's


def test_enum_members_through_aliases():
    text = ("import torch_npu as tn\nfrom torch_npu.profiler import AiCMetrics as M\n"
            "cfg = tn.profiler._ExperimentalConfig(aic_metrics=M.MemoryUB, "
            "profiler_level=tn.profiler.ProfilerLevel.Level1)\n")
    assert codes(text) == []
    assert [c for _, _, c in codes(text.replace("Level1", "Level0"))] == ["NPP302"]


def test_emulate_replays_a_torch_npu_script(tmp_path, capsys):
    script = Path(__file__).resolve().parents[1] / "examples" / "mistakes" / "torch_npu_profiler.py"
    code = main(["emulate", "--torch-npu", "26.1", "--cwd", str(tmp_path), str(script)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1 and "no profiling setup found" not in "\n".join(out)
    assert "usable data: no (line 22: the schedule records from step 12, but the loop (line 24) runs 8 steps, " \
           "calling prof.step() once each: it ends in its wait steps: nothing is collected and nothing is said)" in out


# ---------------------------------------------------------------- cost

def test_the_whole_file_is_walked_a_fixed_number_of_times_whatever_the_profilers(monkeypatch):
    """Issue 43: linear cost. The loop checks index .step, .start and the profilers' names in one walk; a
    walk per profiler (as _stepped/_escapes once did) makes N profilers cost N walks of the file."""
    import ast
    import sys as _sys
    walk = ast.walk
    walks = []

    def counting(node):
        if isinstance(node, ast.Module) and _sys._getframe(1).f_globals.get("__name__", "").startswith(
                "flake8_npuprof.checks.torch_npu"):
            walks.append(_sys._getframe(1).f_code.co_name)
        return walk(node)

    monkeypatch.setattr(ast, "walk", counting)

    def profilers(n):
        return HEAD + "".join(
            f"with torch_npu.profiler.profile(schedule=torch_npu.profiler.schedule(wait=1, active=1), "
            f"on_trace_ready=h) as p{i}:\n    for s in range(10):\n        p{i}.step()\n"
            f"q{i} = torch_npu.profiler.profile(schedule=torch_npu.profiler.schedule(wait=1, active=1))\n"
            f"q{i}.start()\n" for i in range(n))

    counts = []
    for n in (2, 20):
        walks.clear()
        found(profilers(n))
        counts.append(sorted(walks))
    assert counts[0] == counts[1] and len(counts[0]) <= 5, counts


@pytest.mark.parametrize("text, mentioned", [
    ("import tensorflow as tf\nconfig = tf.ConfigProto()\nconfig.graph_options.rewrite_options.custom_optimizers"
     ".add().parameter_map['profiling_mode'].b = True\n", False),
    ("import torch_npu\nprof = torch_npu.profiler.profile()\nprof.start()\n", True),
])
def test_whether_a_file_mentions_torch_npu_is_asked_of_its_text_once_per_analysis(monkeypatch, text, mentioned):
    # torch_npu's checks (torch_npu, torch_npu_members, torch_npu_utils_profile) each asked it: three passes over
    # the text each time; the analysis keeps the answer
    from flake8_npuprof.checks import torch_npu_report
    asked = []
    real = torch_npu_report.mentions_torch_npu
    monkeypatch.setattr(torch_npu_report, "mentions_torch_npu", lambda t: asked.append(t) or real(t))
    analyse(text, None, "x.py")
    assert asked == [text] and real(text) is mentioned


def test_the_6_0_rc1_aside_goes_with_the_6_0_line_only():
    # msprof_tx is new in 6.0.rc2: 6.0.rc1 raises TypeError there, so "(6.0.rc1: on every rank)" after what 7.0+ do
    # claimed a warning 6.0.rc1 never prints (Ascend/pytorch v6.0.rc1-pytorch2.1.0 experimental_config.py#L46-52)
    (_, _, code, message), = found(config("msprof_tx=1"))
    assert code == "NPP300"
    assert message == ("msprof_tx=1 is not a bool: torch_npu 7.0+ resets it to False with a warning on rank 0 only; on "
                       "torch_npu 5.0 it raises TypeError (_ExperimentalConfig has no msprof_tx before 6.0); on "
                       "torch_npu 6.0 it depends on the build (6.0.rc1 raises TypeError: _ExperimentalConfig has no "
                       "msprof_tx before 6.0.rc2); write msprof_tx=True or msprof_tx=False")
    (_, _, _, message), = found(config('data_simplification="x"'))
    assert message == ("data_simplification='x' is not a bool: torch_npu 7.0+ resets it to True with a warning on "
                       "rank 0 only; on torch_npu 5.0 it depends on the build (5.0.rc3 keeps the value as written, "
                       "without a warning; later 5.0 builds were not recorded); on torch_npu 6.0 it resets it to its "
                       "default with a warning on rank 0 only (6.0.rc1: on every rank); write "
                       "data_simplification=True or data_simplification=False")
    (_, _, _, message), = found(config("l2_cache=1"))       # where 6.0 shares the reaction, the aside stays
    assert message.startswith("l2_cache=1 is not a bool: torch_npu 6.0+ resets it to False with a warning on rank 0 "
                              "only (6.0.rc1: on every rank); on torch_npu 5.0")
    (_, _, _, message), = found(config("l2_cache=1"), release="6.0")
    assert message.startswith("l2_cache=1 is not a bool: torch_npu 6.0 resets it to False with a warning on rank 0 "
                              "only (6.0.rc1: on every rank);")


def test_a_keyword_newer_than_the_releases_recorded():
    # Ascend/pytorch@v26.2.0-beta.1-pytorch2.13.0:torch_npu/profiler/profiler.py#L214 takes execution_trace_observer
    text = HEAD + "p = torch_npu.profiler.profile(execution_trace_observer=et, on_trace_ready=h)\n"
    assert codes(text) == []        # not every torch_npu raises: 26.2.0-beta.1 and master take it
    (line, col, code, message), = found(text, release="26.1")
    assert (line, col, code) == (3, 31, "NPP303")
    assert message == ("profile's keyword execution_trace_observer is new in torch_npu 26.2.0-beta.1 (its builds for "
                       "torch 2.12 and 2.13), after the releases recorded here: torch_npu 26.1 raises TypeError "
                       "(profile has no execution_trace_observer before 26.2.0-beta.1); drop it, or run a torch_npu "
                       "that has it")
    (_, _, _, message), = found(text, release="portable")
    assert message.startswith("profile's keyword execution_trace_observer is new in torch_npu 26.2.0-beta.1 (its "
                              "builds for torch 2.12 and 2.13), after the releases recorded here: torch_npu raises "
                              "TypeError")
