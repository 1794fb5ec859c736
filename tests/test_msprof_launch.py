"""A launcher's msprof line followed to the script it starts (issue 12, item 3: precedence and emulate)."""

import json
import shutil
from pathlib import Path

import pytest

from flake8_npuprof.checks.shell_launches import check_launcher
from flake8_npuprof.shell.launches import walk
from flake8_npuprof.checks.analysis import Settings
from flake8_npuprof.cli import main
from flake8_npuprof.emulate.script import HEADLINE_WIDTH, emulate_path, headline
from flake8_npuprof.source.text import HOLE
from flake8_npuprof.knowledge.targets import Target

PROJECT = Path(__file__).resolve().parent / "data" / "projects" / "msprof_launch"
T = Target.parse("8.5", "910B")
EXPORTS = ("msprof parses and exports the data itself when the application ends (mindstudio_profiler_output/ "
           "inside PROF_*): there is no export command to run afterwards")


def _emulate(path, target=T, **kw):
    return emulate_path(str(path), target, use_env=kw.pop("use_env", False), environ=kw.pop("environ", {}), **kw)


def _project(tmp_path, launcher_text, name="run.sh"):
    shutil.copy(PROJECT / "train.py", tmp_path / "train.py")
    (tmp_path / name).write_text('#!/bin/bash\ncd "$(dirname "$0")"\n' + launcher_text)
    return tmp_path / name


def test_the_application_is_the_launch_with_its_flags():
    w, (la,) = walk(str(PROJECT / "run_msprof.sh"))
    assert la.script == str(PROJECT / "train.py") and la.msprof is not None and not la.msprof.application
    assert [a.text for a in la.args] == ["--profiling=True", "--epochs=2"]
    assert [o.name for o in la.msprof.call.options] == ["output", "aic-metrics", "hccl"]
    w, (la,) = walk(str(PROJECT / "run_application.sh"))
    assert la.script == str(PROJECT / "train.py") and la.msprof.application
    assert [a.text for a in la.args] == ["--epochs=3"]


@pytest.mark.parametrize("line", [
    "msprof $PROF_ARGS python3 train.py\n",             # msprof's words are not all known
    'msprof --application="$APP"\n',                    # the application is not known
    "msprof --output=/tmp/o ./infer_app --batch=1\n",   # not a Python script
])
def test_an_application_we_cannot_name_is_not_followed(tmp_path, line):
    assert walk(str(_project(tmp_path, line)))[1] == []


def test_msprof_collects_and_the_script_is_overridden(capsys):
    report = _emulate(PROJECT / "run_msprof.sh")
    own, script = report["results"]
    assert (own.setup.route, own.setup.line, own.verdict, own.read_by_ge) == ("msprof", 5, "collects", True)
    assert own.collected == ["task_trace", "aic_metrics", "hccl"]
    assert own.output_dir == "/tmp/msprof_out" and own.export_command == "" and own.source == "msprof"
    assert own.effective_options["aic-metrics"] == "PipeUtilization" and own.effective_options["ai-core"] == "on"
    assert own.layout[0] == "PROF_<seq>_<timestamp>_<id>/"
    assert str(own.messages[-1]) == EXPORTS
    assert (script.setup.line, script.verdict, script.read_by_ge) == (19, "off", False)
    assert [str(m) for m in script.messages] == [
        "overridden by msprof at run_msprof.sh:5: the collector takes msprof's configuration (PROFILER_SAMPLECONFIG) "
        "instead of this setup's profiling options, so msprof's flags decide what is collected"]
    assert report["usable"] is True and report["exit"] == 0 and report["preflight"] == []
    assert headline(report, own) == \
        "run_msprof.sh:5 msprof: COLLECTS task_trace, aic_metrics, hccl into /tmp/msprof_out (msprof options)"
    assert headline(report, script) == "train.py:19 NpuOptimizer: OFF: " + str(script.messages[0])     # whole
    assert main(["emulate", "--cann", "8.5", "--soc", "910B", str(PROJECT / "run_msprof.sh")]) == 0
    out = capsys.readouterr().out
    assert "  under msprof (run_msprof.sh:5): the script is its application; msprof's switches decide what is " \
           "collected (--output=/tmp/msprof_out --aic-metrics=PipeUtilization --hccl=on)" in out
    assert "usable data: yes\n" in out and "then run" not in out and "afterwards run" not in out


def test_a_setup_the_launch_does_not_run_keeps_its_own_reason_under_msprof(tmp_path):
    # without --profiling the `if args.profiling:` is false: no profiling option is set, so msprof overrides none
    run = _project(tmp_path, "msprof --output=/tmp/msprof_out python3 train.py --epochs=2\n")
    own, script = _emulate(run)["results"]
    assert own.verdict == "collects" and (script.setup.line, script.verdict) == (19, "off")
    assert [str(m) for m in script.messages] == [
        "not run in this launch: `args.profiling` is false in this launch (the default of --profiling, which the "
        "launcher does not pass; --profiling True would switch it on); msprof at run.sh:3 decides what is collected"]


def test_json_report(capsys):
    assert main(["emulate", "--cann", "8.5", "--soc", "910B", "--format", "json", str(PROJECT / "run_msprof.sh")]) == 0
    doc = json.loads(capsys.readouterr().out)
    own, script = doc["setups"]
    assert own["file"].endswith("run_msprof.sh") and own["route"] == "msprof" and own["line"] == 5
    assert (own["verdict"], own["output_dir"], own["export_command"], own["options_source"]) == \
        ("collects", "/tmp/msprof_out", "", "msprof")
    assert "file" not in script and script["verdict"] == "off" and script["read_by_ge"] is False
    assert doc["launch"]["msprof"] == {"at": "run_msprof.sh:5", "application": False, "options": {
        "output": "/tmp/msprof_out", "aic-metrics": "PipeUtilization", "hccl": "on"}}
    assert doc["launch"]["flags"]["--profiling"]["value"] == "True"


def test_application_form_writes_under_the_work_path():
    own, script = _emulate(PROJECT / "run_application.sh")["results"]
    assert (own.verdict, own.output_dir, own.collected) == ("collects", "/tmp/msprof_work/profiling_data",
                                                            ["task_trace", "aic_metrics"])
    assert own.effective_options["task-time"] == "l1" and "application" not in own.effective_options
    assert script.verdict == "off" and \
        str(script.messages[0]) == ("not run in this launch: `args.profiling` is false in this launch (the default of "
                                    "--profiling, which the launcher does not pass; --profiling True would switch it "
                                    "on); msprof at run_application.sh:4 decides what is collected")


@pytest.mark.parametrize("line, environ, output", [
    ("msprof python3 train.py\n", {}, "{d}"),                              # the current directory
    ('msprof --application="python3 train.py"\n', {}, "{d}"),              # the script's directory
    ("msprof python3 train.py\n", {"ASCEND_WORK_PATH": "/w"}, "/w/profiling_data"),
    ("msprof --output=prof python3 train.py\n", {"ASCEND_WORK_PATH": "/w"}, "{d}/prof"),
])
def test_output_directory(tmp_path, line, environ, output):
    own = _emulate(_project(tmp_path, line), use_env=True, environ=environ)["results"][0]
    assert own.output_dir == output.format(d=tmp_path)


def test_output_unknown_without_the_environment(tmp_path):
    report = _emulate(_project(tmp_path, "msprof python3 train.py\n"))
    own = report["results"][0]
    assert own.verdict == "collects" and own.output_dir is None
    assert f"no --output: msprof writes to $ASCEND_WORK_PATH/profiling_data when that is set, else to {tmp_path}; " \
           "ASCEND_WORK_PATH is not known here (give --env to use this environment)" in map(str, own.messages)
    assert headline(report, own) == "run.sh:3 msprof: COLLECTS task_trace, aic_metrics into a directory known only " \
                                    "at run time"


def test_a_problem_msprof_refuses_fails_before_the_script_starts():
    report = _emulate(PROJECT / "run_typo.sh")
    own, script = report["results"]
    assert own.verdict == "fails" and [m.code for m in own.messages[:2]] == ["NPP120", "NPP122"]
    assert EXPORTS not in map(str, own.messages) and own.layout == []
    assert script.verdict == "off" and [str(m) for m in script.messages] == [
        "not run: msprof at run_typo.sh:3 exits before it starts the application, so this setup is never reached"]
    assert report["usable"] is False and report["exit"] == 1
    assert headline(report, own).startswith("run_typo.sh:3 msprof: FAILS: NPP120 --timeline is not an msprof option")


def test_a_problem_on_some_targets_only(tmp_path):
    path = _project(tmp_path, "msprof --output=/tmp/o --ai-vector-core=on python3 train.py\n")
    own = _emulate(path, Target.parse("8.5", "910B"))["results"][0]
    assert own.verdict == "fails"
    assert str(own.messages[0]).startswith("NPP126 msprof 8.5 refuses --ai-vector-core on the Ascend 910B")
    own = _emulate(path, Target.parse("8.5", "950"))["results"][0]
    assert own.verdict == "collects" and "aiv_metrics" in own.collected
    own = _emulate(path, Target())["results"][0]
    assert own.verdict == "unknown" and {v for v, _, _ in own.spread} == {"collects", "fails"}


def test_options_ge_checks_itself_are_not_called_overridden(tmp_path):
    # GE parses the options before it calls the collector: the collector sources do not show it skips that
    path = _project(tmp_path, "msprof --output=/tmp/o python3 train.py --profiling=True --profiling_options=x\n")
    own, script = _emulate(path)["results"]
    assert own.verdict == "collects"
    assert (script.verdict, script.read_by_ge) == ("unknown", None)
    assert str(script.messages[0]).startswith("under msprof at run.sh:3, whose configuration the collector uses")
    assert str(script.messages[1]).startswith("NPP100 GE:")
    # a value only the collector refuses is msprof's business under msprof
    path = _project(tmp_path, "msprof --output=/tmp/o python3 train.py --profiling=True "
                              "--profiling_options='{\"output\": \"/tmp/p\", \"task_trace\": \"of\"}'\n")
    own, script = _emulate(path)["results"]
    assert (script.verdict, script.read_by_ge) == ("off", False)


def test_a_failure_before_ge_starts_is_not_overridden(tmp_path):
    path = _project(tmp_path, "msprof --output=/tmp/o python3 train.py --profiling=True\n")
    text = (tmp_path / "train.py").read_text()
    (tmp_path / "train.py").write_text(text.replace('["profiling_mode"].b = True', '["profiling_mode"].b = "on"'))
    own, script = _emulate(path)["results"]
    assert own.verdict == "collects" and script.verdict == "fails"
    assert str(script.messages[0]) == \
        "under msprof at run.sh:3, but this fails before GE starts, which msprof does not change"
    assert str(script.messages[1]).startswith("NPP010 ")


def test_values_not_known_statically(tmp_path):
    path = _project(tmp_path, "msprof --output=$OUT/prof python3 train.py\n")
    report = _emulate(path)
    own = report["results"][0]
    assert (own.verdict, own.output_dir) == ("collects", None)
    assert headline(report, own) == \
        "run.sh:3 msprof: COLLECTS task_trace, aic_metrics into <unknown>/prof (msprof options)"
    path = _project(tmp_path, "msprof --output=/tmp/o --ai-core=$AIC python3 train.py\n")
    own = _emulate(path)["results"][0]
    assert own.verdict == "unknown" and str(own.messages[0]) == \
        "--ai-core is not known statically: what msprof makes of it is not known"
    assert own.effective_options["ai-core"] == HOLE


def test_dynamic_profiling_is_not_predicted(tmp_path):
    path = _project(tmp_path, "export PROFILING_MODE=dynamic\nmsprof --output=/tmp/o python3 train.py\n")
    own = _emulate(path)["results"][0]
    assert own.verdict == "unknown" and str(own.messages[0]) == \
        "PROFILING_MODE is 'dynamic' in this launch: the collector then takes its dynamic path"
    path = _project(tmp_path, "msprof --output=/tmp/o --dynamic=on python3 train.py\n")
    assert _emulate(path)["results"][0].verdict == "unknown"


def test_check_says_nothing_of_the_scripts_options_under_msprof(tmp_path):
    # the --profiling=False trap and an options value the collector would refuse: not the collector's input
    path = _project(tmp_path, "msprof --output=/tmp/o python3 train.py --profiling=False "
                              "--profiling_options='{\"task_trace\": \"of\"}'\n")
    assert check_launcher(path.read_text(), str(path), Settings(target=T)) == []
    plain = _project(tmp_path, "python3 train.py --profiling=False\n", "plain.sh")
    assert [f.code for f in check_launcher(plain.read_text(), str(plain), Settings(target=T))] == ["NPP205"]


def test_check_a_project_with_msprof_launchers(capsys, monkeypatch):
    monkeypatch.chdir(PROJECT)
    assert main(["check", "."]) == 1
    got = [ln.split(" ", 2)[:2] for ln in capsys.readouterr().out.splitlines()]
    assert got == [["run_typo.sh:3:33:", "NPP120"], ["run_typo.sh:3:61:", "NPP122"], ["train.py:8:21:", "NPP205"]]


@pytest.mark.parametrize("application", ["torchrun --nproc_per_node=2 train.py", "cd sub && bash run.sh"])
def test_an_application_program_msprof_does_not_find_in_its_directory_fails(tmp_path, application):
    # msprof takes --application's program, when it is not bash, sh or python*, from the directory it runs in, not
    # from PATH (CheckUserCmdValid); emulate said "COLLECTS" for --application="torchrun ..." and "cd x && ..."
    path = _project(tmp_path, f'msprof --output=/tmp/o --application="{application}"\n')
    own = _emulate(path)["results"][0]
    program = application.split()[0]
    assert own.verdict == "fails" and str(own.messages[0]) == (
        f"msprof refuses --application ([ERROR] App path({tmp_path}/{program}) does not exist or permission "
        "denied!!!) and exits before the application starts, so nothing is profiled: a program that is not bash, sh "
        f"or python is looked for in the directory msprof runs in ({tmp_path}, as this machine holds it), not on PATH")
    # one that is there, and may run, is started; on 7.0 and 8.0 (no parser read) nothing is said
    (tmp_path / program).write_text("#!/bin/sh\n")
    (tmp_path / program).chmod(0o755)
    assert _emulate(path)["results"][0].verdict != "fails"
    (tmp_path / program).unlink()
    assert _emulate(path, Target.parse("8.0", "910B"))["results"][0].verdict != "fails"


def test_a_typed_msprof_command_run_elsewhere_is_named_as_typed(tmp_path, capsys, monkeypatch):
    # `npuprof emulate --cwd scripts -- msprof ...` from the project's folder labelled its detail
    # "scripts/<command line>:1 msprof: unknown", a file that does not exist
    shutil.copy(PROJECT / "train.py", tmp_path / "train.py")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    main(["emulate", "--cann", "8.5", "--soc", "910B", "--cwd", "sub", "--", "msprof", "--output=/tmp/o", "python3",
          "../train.py"])
    out = capsys.readouterr().out.splitlines()
    assert "<command line>:1 msprof: collects" in out and not any("sub/<command line>" in line for line in out)
