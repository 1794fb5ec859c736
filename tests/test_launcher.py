"""Shell launchers as entry points (issue 12, item 2): the walk, the flags, emulate and check."""

import json
import shutil
from pathlib import Path

import pytest

from flake8_npuprof.checks.launch_setup import bind, flag_table
from flake8_npuprof.checks.shell_launches import check_launcher
from flake8_npuprof.shell.launches import command_lines, launches, opaque, steps, walk
from flake8_npuprof.shell.walk import Walk
from flake8_npuprof.shell.state import MAX_COMMANDS
from flake8_npuprof.cli import main
from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.source.text import HOLE
from flake8_npuprof.knowledge.targets import Target

LAUNCH = Path(__file__).resolve().parent / "data" / "projects" / "launch"
T = Target.parse("8.0", "910B")

SCRIPT = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--profiling', default=False)\n" \
         "p.add_argument('--lr', type=float, default=0.1)\nargs = p.parse_args()\n"


def _walk(tmp_path, text, **files):
    for name, body in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)
    (tmp_path / "run.sh").write_text(text)
    return walk(str(tmp_path / "run.sh"))


def test_exports_inline_source_and_variables(tmp_path):
    w, found = _walk(tmp_path,
                     "#!/bin/bash\nset -e\nsource ./env.sh\nexport PROFILING_OPTIONS=\"$OPTS\"\n"
                     "MODE=true\nPROFILING_MODE=$MODE RANK_ID=0 python3 train.py --profiling=True > log 2>&1\n",
                     **{"env.sh": "OPTS='{\"output\":\"/tmp/p\"}'\nexport ASCEND_WORK_PATH=/w\n",
                        "train.py": SCRIPT})
    assert [Path(s).name for s, _, _ in w.sourced] == ["env.sh"]
    (la,) = found
    env = la.command.env
    assert env["PROFILING_OPTIONS"].value == '{"output":"/tmp/p"}' and env["PROFILING_OPTIONS"].line == 4
    assert (env["PROFILING_MODE"].value, env["PROFILING_MODE"].how) == ("true", "inline")
    assert env["ASCEND_WORK_PATH"].path.endswith("env.sh")
    assert "MODE" not in env and "OPTS" not in env          # shell variables, not exported
    assert [a.text for a in la.args] == ["--profiling=True", ">", "log", "2>&", "1"]
    assert (la.command.line, la.command.column, la.ranks) == (6, 31, 1)      # at `python3`


@pytest.mark.parametrize("loop, ranks", [
    ("for i in $(seq 0 7); do\n  {cmd}\ndone\n", 8),
    ("for ((i=0;i<4;i++)); do {cmd}; done\n", 4),
    ("for i in {{0..3}}\ndo\n  {cmd}\ndone\n", 4),
    ("for i in 0 1; do {cmd}; done\n", 2),
    ("mpirun -np 8 --allow-run-as-root {cmd}\n", 8),
    ("{cmd}\n", 1),
])
def test_ranks(tmp_path, loop, ranks):
    _, (la,) = _walk(tmp_path, loop.format(cmd="DEVICE_ID=$i python3 train.py"), **{"train.py": SCRIPT})
    assert la.ranks == ranks
    if "$i" in loop or "for" in loop:
        assert la.command.env["DEVICE_ID"].value == HOLE


@pytest.mark.parametrize("line, script, wrapper, ranks", [
    ("torchrun --nproc_per_node=8 train.py --lr 1", "train.py", "torchrun", 8),
    ("python3 -m torch.distributed.launch --nproc_per_node 2 train.py", "train.py", "torch.distributed.launch", 2),
    ("nohup taskset -c 0-23 python3.7 -u sub/job.py &", "sub/job.py", "", 1),
    ("env PROFILING_MODE=true /usr/bin/python sub/job.py", "sub/job.py", "", 1),
    ("python -m sub.job --lr 2", "sub/job.py", "", 1),
    # what follows the script is the script's own: its -n is no process count
    ("torchrun train.py -n 3", "train.py", "torchrun", 1),
    ("mpirun -np 4 python3 train.py -n 3", "train.py", "mpirun", 4),
    # Open MPI's --output-filename takes a value (mindspore-ai/models' run_distribute_train_gpu.sh: it said
    # "runs log_output with ./train.py, which emulate does not follow")
    ("mpirun --allow-run-as-root -n 8 --output-filename log_output --merge-stderr-to-stdout python train.py",
     "train.py", "mpirun", 8),
    ("mpirun -n 2 -output-filename log_output python train.py", "train.py", "mpirun", 2),
    # MindSpore's msrun: --local_worker_num processes on this node, 8 when not given; --worker_num counts all
    # the nodes', --sim_level may start one, a value not known statically is not counted
    ("msrun --worker_num=16 --local_worker_num=2 --log_dir=msrun_log --join=True train.py --lr 1", "train.py",
     "msrun", 2),
    ("msrun --worker_num 16 --local_worker_num 4 python train.py -n 3", "train.py", "msrun", 4),
    ("msrun --bind_core=True --join=True train.py", "train.py", "msrun", 8),
    ("msrun --local_worker_num=$N train.py", "train.py", "msrun", 0),
    ("msrun --sim_level=1 train.py", "train.py", "msrun", 0),
    # --worker_num below the default --local_worker_num (mindcv's README: `msrun --bind_core=True --worker_num 4`):
    # msrun's code read refuses it (ValueError), later releases were not read: not counted (it said 8); at or above
    # 8 the eight local workers stand
    ("msrun --bind_core=True --worker_num 4 python train.py --distribute", "train.py", "msrun", 0),
    ("msrun --worker_num=2--local_worker_num=2 train.py", "train.py", "msrun", 0),
    ("msrun --worker_num=16 train.py", "train.py", "msrun", 8),
])
def test_command_lines(tmp_path, line, script, wrapper, ranks):
    _, (la,) = _walk(tmp_path, line + "\n", **{"train.py": SCRIPT, "sub/job.py": SCRIPT, "sub/__init__.py": ""})
    assert (la.script, la.wrapper, la.ranks) == (str(tmp_path / script), wrapper, ranks)


@pytest.mark.parametrize("line", ["torchrun --nproc_per_node=8 $S --lr 1", "msrun --join=True $S"])
def test_a_rank_launcher_whose_script_is_not_known_starts_something_not_known(tmp_path, line):
    # it was "no launch: it starts no Python script or msprof run, so a run of it collects nothing"
    w, _ = _walk(tmp_path, "S=$(ls *.py | head -1)\n" + line + "\n", **{"train.py": SCRIPT})
    (la,) = steps(w)
    wrapper = line.split()[0]
    assert (la.script, la.wrapper, la.missing) == ("", wrapper, f"it runs {wrapper} without a .py script named "
                                                   f"statically: what {wrapper} starts is not known here")


@pytest.mark.parametrize("text", [
    "cd $CODE_DIR\npython3 train.py\n",                   # a directory we cannot know
    "python3 $SCRIPT\n",                                  # a script we cannot name
    "python3 missing.py\n",
    "python3 -c 'import train'\n",
])
def test_unknown_scripts_are_not_guessed(tmp_path, text):
    assert _walk(tmp_path, text, **{"train.py": SCRIPT})[1] == []


def test_cd_and_branches(tmp_path):
    w, found = _walk(tmp_path, 'cd "$(dirname "$0")"/sub\npython3 job.py\nif [ -n "$X" ]; then\n'
                               "  export PROFILING_MODE=false\n  python3 job.py\nfi\npython3 job.py\n",
                     **{"sub/job.py": SCRIPT})
    assert [(la.command.line, la.command.conditional) for la in found] == [(2, False), (5, True), (7, False)]
    assert "PROFILING_MODE" not in found[0].command.env
    assert found[2].command.env["PROFILING_MODE"].value == HOLE     # set in one branch only: not known


def test_flags_bound_to_the_scripts_definitions(tmp_path):
    (tmp_path / "flags_def.py").write_text(
        "from absl import flags\nflags.DEFINE_bool('profiling', False, '')\nflags.DEFINE_string('out', '', '')\n")
    (tmp_path / "train.py").write_text("from flags_def import *\nimport argparse\n"
                                       "p = argparse.ArgumentParser()\np.add_argument('-e', '--epochs', type=int)\n")
    _, (la,) = _walk(tmp_path, "python3 train.py --noprofiling --out /tmp/o -e 3 --bogus=1 --epochs=4\n")
    import ast
    from flake8_npuprof.checks.analysis import Context, Settings
    from flake8_npuprof.source.text import SourceText
    text = (tmp_path / "train.py").read_text()
    ctx = Context(SourceText(text), ast.parse(text), str(tmp_path / "train.py"), Settings())
    given, unknown = bind(la, flag_table(ctx), str(tmp_path))
    assert {d: g.text for d, g in given.items()} == {"profiling": "false", "out": "/tmp/o", "epochs": "4"}
    assert [w.text for w in unknown] == ["--bogus=1"]
    # an earlier value int() rejects stops argparse (python 3.11: `-e x --epochs=4`, status 2): not the last value
    _, (la,) = _walk(tmp_path, "python3 train.py -e x --epochs=4\n")
    assert bind(la, flag_table(ctx), str(tmp_path))[0]["epochs"].text == HOLE


def _emulate(name):
    return emulate_path(str(LAUNCH / name), T, use_env=False, environ={})


@pytest.mark.parametrize("name, line, verdict, text", [
    # the string-flag trap: --profiling=False to an untyped argparse flag switches profiling on
    ("run_trap.sh", 19, "collects", "--profiling=False reaches the script as the non-empty string 'False'"),
    # (an untyped flag: any word but the empty one is a true str)
    ("run_off.sh", 19, "off", "`args.profiling` is false in this launch (the default of --profiling, which the "
                              "launcher does not pass; --profiling True would switch it on)"),
    ("run_flags.sh", 19, "fails", "started 8 times (one per rank)"),
    ("run_env.sh", 0, "collects", "PROFILING_MODE=true (export at scripts/npu_set_env.sh:3)"),
    ("run_inline.sh", 0, "off", "PROFILING_MODE=True (inline at run_inline.sh:3)"),
])
def test_emulate_a_launcher(name, line, verdict, text):
    report = _emulate(name)
    (r,) = report["results"]
    assert (r.setup.line, r.verdict) == (line, verdict)
    assert any(text in ln for ln in report["launch"]["lines"]), report["launch"]["lines"]
    assert report["cwd"] == str(LAUNCH)


def test_emulate_says_where_the_setup_comes_from(capsys):
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(LAUNCH / "run_env.sh")]) == 0
    out = capsys.readouterr().out
    assert "launch: run_env.sh:4 python3 train_env.py" in out
    assert "GE reads PROFILING_OPTIONS from the launcher (export at scripts/npu_set_env.sh:4)" in out
    assert "COLLECTS task_trace, aicpu into /tmp/prof_env" in out
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", "--format", "json", str(LAUNCH / "run_flags.sh")]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["file"].endswith("train.py") and doc["setups"][0]["verdict"] == "fails"
    assert doc["launch"]["flags"]["--profiling_options"]["value"] == '{"output": "/tmp/prof_flags", "task_trace": "of"}'
    assert doc["launch"]["ranks"] == 8 and doc["launch"]["at"] == "run_flags.sh:7"


def test_an_unknown_directory_makes_the_launch_unknown():
    report = _emulate("run_unknown.sh")
    assert report["results"] == [] and report["usable"] is None and report["exit"] == 1
    # which part is not known, and where
    assert report["launch"]["unknown"] == ("cannot find train.py: the directory the launcher runs it in is not known "
                                           "here (`cd ${CODE_DIR}` at run_unknown.sh:2: $CODE_DIR not known here (not "
                                           "set by the launcher; the caller's))")


def test_check_reports_on_the_launchers_lines(capsys, monkeypatch):
    monkeypatch.chdir(LAUNCH)
    assert main(["check", "."]) == 1
    got = [ln.split(" ", 2)[:2] for ln in capsys.readouterr().out.splitlines()]
    assert got == [["run_flags.sh:4:51:", "NPP102"], ["run_inline.sh:3:16:", "NPP011"],
                   ["run_trap.sh:4:18:", "NPP205"], ["train.py:8:21:", "NPP205"]]
    from flake8_npuprof.checks.analysis import Settings
    text = (LAUNCH / "run_flags.sh").read_text()
    (f,) = check_launcher(text, str(LAUNCH / "run_flags.sh"), Settings())
    assert text.splitlines()[f.line - 1][f.col:f.end_col] == '"of"'        # in OPTS=..., which "$OPTS" passes


def test_launcher_findings_agree_with_emulate():
    from flake8_npuprof.checks.analysis import Settings
    for name in ("run_trap.sh", "run_off.sh", "run_flags.sh"):
        path = LAUNCH / name
        findings = check_launcher(path.read_text(), str(path), Settings(target=T))
        (r,) = _emulate(name)["results"]
        codes = {f.code for f in findings}
        # the trap is reported where emulate collects because of it; options problems where it fails
        assert ("NPP205" in codes) == (r.verdict == "collects")
        assert ("NPP102" in codes) == (r.verdict == "fails")
        for f in findings:
            assert "GE initialisation fails" not in f.message or r.verdict == "fails"


def test_functions_and_groups(tmp_path):
    _, found = _walk(tmp_path, "train() {\n  export PROFILING_MODE=true\n  python3 train.py\n}\n"
                               "{ echo start; }\npython3 train.py\ntrain\n", **{"train.py": SCRIPT})
    # the function runs where it is called (line 7), after line 6's launch: bash's order and environment
    assert [(la.command.line, la.command.conditional) for la in found] == [(6, False), (3, False)]
    assert "PROFILING_MODE" not in found[0].command.env and found[1].command.env["PROFILING_MODE"].value == "true"
    # a function no call names is walked once, as a body that may run
    _, found = _walk(tmp_path, "train() {\n  python3 train.py\n}\n", **{"train.py": SCRIPT})
    assert [(la.command.line, la.command.conditional) for la in found] == [(2, True)]


def test_flags_defined_in_a_sibling_module_and_passed_by_the_launcher(capsys):
    sibling = LAUNCH.parent / "sibling"
    report = emulate_path(str(sibling / "run_1p.sh"), T, use_env=False, environ={})
    first = report["results"][0]
    assert (first.setup.line, first.verdict) == (11, "fails")
    assert first.effective_options == {"output": "/tmp/sibling", "task_trace": "on", "aic_metrics": "PipeUtilisation"}
    from flake8_npuprof.checks.analysis import Settings
    text = (sibling / "run_1p.sh").read_text()
    (f,) = check_launcher(text, str(sibling / "run_1p.sh"), Settings(target=T))
    line = text.splitlines()[f.line - 1]
    assert (f.code, f.line) == ("NPP106", 4) and line[f.col:f.end_col] == '"PipeUtilisation"'
    assert f.message.endswith("(passed to train.py at line 4, read by its NpuOptimizer setup at line 11 of train.py)")


@pytest.mark.parametrize("environ, verdict, text", [
    (None, "unknown", "PROFILING_MODE is set at run_noexport.sh:3 without export: the script sees it only if the "
                      "caller exports it"),
    ({"PROFILING_MODE": "false"}, "collects", "GE reads PROFILING_OPTIONS from the launcher (export at "
                                              "run_noexport.sh:4)"),
    ({}, None, ""),             # not in the caller's environment: the script never sees PROFILING_MODE
])
def test_a_variable_set_without_export(environ, verdict, text):
    report = emulate_path(str(LAUNCH / "run_noexport.sh"), T, use_env=environ is not None, environ=environ or {})
    if verdict is None:
        assert report["results"] == [] and report["usable"] is False
        return
    (r,) = report["results"]
    assert r.verdict == verdict and any(text in m for m in map(str, r.messages)), r.messages
    assert not any(HOLE in m for m in map(str, r.messages))


def test_command_lines_for_other_checks(tmp_path):
    (tmp_path / "run.sh").write_text('export OUT=/tmp/o\nmsprof --application="python3 train.py" '
                                     '--output=$OUT --aicore=on\n')
    (cmd,) = command_lines(str(tmp_path / "run.sh"))
    assert [w.text for w in cmd.words] == ["msprof", "--application=python3 train.py", "--output=/tmp/o",
                                           "--aicore=on"]
    text = (tmp_path / "run.sh").read_text()
    assert text[cmd.words[3].start:cmd.words[3].end] == "--aicore=on" and (cmd.line, cmd.column) == (2, 0)
    assert cmd.env["OUT"].value == "/tmp/o"
    assert launches(Walk(str(tmp_path / "run.sh")).run()) == []    # msprof's own precedence


def test_what_a_branch_may_change_is_not_known_after_it(tmp_path):
    # (a branch whose test is not known: `[ -f env.sh ]` with env.sh in the tree is now known true, as bash finds it)
    _, found = _walk(tmp_path, "if [ -n \"$Y\" ]; then\n  source env.sh\n  cd sub\nfi\npython3 train.py\n"
                               "cd \"$(dirname \"$0\")\"\nif [ -n \"$X\" ]; then unset PROFILING_OPTIONS; fi\n"
                               "python3 train.py\n",
                     **{"env.sh": "export PROFILING_MODE=true\nexport PROFILING_OPTIONS=x\n", "train.py": SCRIPT})
    (la,) = found                   # line 5: the directory may have changed: not named
    assert la.command.line == 8
    assert la.command.env["PROFILING_MODE"].value == HOLE and la.command.env["PROFILING_OPTIONS"].value == HOLE


def test_arguments_from_the_caller_leave_the_flags_open():
    report = _emulate("run_passthrough.sh")
    (r,) = report["results"]
    assert (r.setup.line, r.verdict, r.setup.conditions) == (19, "unknown", ("args.profiling",))
    assert "--profiling_options may be passed through the unknown arguments at run_passthrough.sh:4" in \
        str(r.messages[0])
    assert report["launch"]["not_read"] == ["/usr/local/Ascend/ascend-toolkit/set_env.sh"]
    assert report["launch"]["decided"] == [] and report["launch"]["traps"] == []


@pytest.mark.parametrize("before", ["", "bash ./many.sh\n"])
def test_a_launch_past_the_launch_bound_is_not_analysed(tmp_path, before):
    # the launches of a file the launcher runs count toward MAX_LAUNCHES (16): its own launch after 16 of them is not
    # analysed (shell_launches._prepared asks the other files' commands only when one of its own may be)
    from flake8_npuprof.checks.analysis import Settings
    from flake8_npuprof.shell.launches import MAX_LAUNCHES
    shutil.copy(LAUNCH / "train.py", tmp_path / "train.py")
    (tmp_path / "other.py").write_text("print(1)\n")
    (tmp_path / "many.sh").write_text("python3 other.py\n" * MAX_LAUNCHES)
    text = before + "python3 train.py --profiling=False\n"
    (tmp_path / "run.sh").write_text(text)
    found = check_launcher(text, str(tmp_path / "run.sh"), Settings())
    assert [(f.code, f.line, f.col) for f in found] == ([] if before else [("NPP205", 1, 17)])


def test_check_reads_the_text_it_is_given(tmp_path):
    from flake8_npuprof.checks.analysis import Settings
    text = (LAUNCH / "run_trap.sh").read_text()
    edited = "# an unsaved line\n" + text
    path = LAUNCH / "run_trap.sh"
    (f,) = check_launcher(edited, str(path), Settings())
    assert (f.code, f.line) == ("NPP205", 5) and edited.splitlines()[4][f.col:f.end_col] == "--profiling=False"


def test_a_loop_of_unknown_length_is_not_called_per_rank(tmp_path):
    # a model-zoo inference launcher loops over the images of a folder: no ranks, an unknown count
    shutil.copy(LAUNCH / "train.py", tmp_path / "train.py")
    (tmp_path / "each.sh").write_text('for i in $1/*; do\n    python3 train.py --profiling=True --in $i\ndone\n')
    report = emulate_path(str(tmp_path / "each.sh"), T, cwd=str(tmp_path), use_env=False, environ={})
    lines = report["launch"]["lines"]
    assert ("  started an unknown number of times (a loop, or a process count not known statically); each run "
            "emulated alike") in lines
    assert not any("rank" in ln for ln in lines), lines


@pytest.mark.parametrize("head, errexit", [
    ("set -e\n", True), ("set -euo pipefail\n", True), ("set -o errexit\n", True), ("set -o pipefail\n", False),
    ("set -e\nset +e\n", False), ("#!/bin/bash -e\n", True), ("set -x\n", False),
    ("if [ -n \"$X\" ]; then set -e; fi\n", False),            # in a branch: not certain
])
def test_errexit_is_followed(tmp_path, head, errexit):
    _, (la,) = _walk(tmp_path, head + "python3 train.py &\n", **{"train.py": SCRIPT})
    assert (la.command.errexit, la.command.background) == (errexit, True)


def test_the_mode_is_cited_where_it_is_exported(tmp_path):
    # ResNet50_ID0058's npu_set_env_1p.sh: PROFILING_MODE and PROFILING_OPTIONS on different lines
    (tmp_path / "env.sh").write_text("export ASCEND_HOME=/usr/local/Ascend\nexport PROFILING_MODE=false\n"
                                     "export PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n")
    (tmp_path / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nsource env.sh\npython3 train.py\n')
    (tmp_path / "train.py").write_text("import tensorflow as tf\nprint(tf.__version__)\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    (r,) = report["results"]
    assert r.verdict == "off"
    assert any("PROFILING_MODE is 'false' in the script or the launcher (export at env.sh:2)" in m
               for m in map(str, r.messages)), r.messages


def test_an_absolute_script_that_exists_is_not_called_missing(tmp_path):
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\ncd ${{WORK_DIR}}/results\npython3 {tmp_path}/train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["results"] == [] and report["usable"] is None
    assert report["launch"]["unknown"] == (f"{tmp_path}/train.py is there, but the directory the launcher runs it in "
                                           "is not known here (`cd ${WORK_DIR}/results` at run.sh:2: $WORK_DIR not "
                                           "known here (not set by the launcher; the caller's))")


@pytest.mark.parametrize("setting, loop, ranks", [
    ('device_group="0 1 2 3 4 5 6 7"', "for device_phy_id in ${device_group}", 8),
    ("device_group='0 1'", "for i in $device_group 7", 3),
    ('device_group="0 1 2 3"\nIFS=,', "for i in ${device_group}", 0),       # split at IFS the launcher sets: not counted
    ('device_group="0 *"', "for i in ${device_group}", 0),                  # a glob bash expands in the directory
    ("device_group=", "for i in ${device_group}", 0),                       # no word: not counted
    ("", "for i in ${device_group}", 0),                                    # the caller's
])
def test_a_for_over_a_known_variable_counts_its_words(tmp_path, setting, loop, ranks):
    # GPT-3 and UNet3D (ModelZoo-TensorFlow, 71 launchers): `device_group="0 1 2 3 4 5 6 7"`, then
    # `for device_phy_id in ${device_group}; do ./train_1p.sh ${device_phy_id} & done`: bash runs it 8 times; it said
    # "started an unknown number of times"
    _, (la,) = _walk(tmp_path, f"{setting}\n{loop}\ndo\n  python3 train.py &\ndone\nwait\n", **{"train.py": SCRIPT})
    assert la.ranks == ranks


def test_a_directory_the_launcher_sets_from_an_unknown_value_is_not_called_the_callers(tmp_path):
    # UNet3D's scripts/train_performance_8p.sh: `work_dir=${fold_dir}/Device-${ASCEND_DEVICE_ID}` (the device a loop
    # of run_performance_8p.sh gives it), then `cd ${work_dir}`; it said "$work_dir not known here (not set by the
    # launcher; the caller's)"
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\nwork_dir=/out/Device-${{ASCEND_DEVICE_ID}}\ncd ${{work_dir}}\n"
                                     f"cd ${{WORK_DIR}}\npython3 {tmp_path}/train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["launch"]["unknown"] == (f"{tmp_path}/train.py is there, but the directory the launcher runs it in "
                                           "is not known here (`cd ${work_dir}` at run.sh:3: $work_dir not known here "
                                           "(set at run.sh:2 from a value not known statically))")


@pytest.mark.parametrize("loop", ["for ((i=0; i<2; i++))", "for i in $(seq 0 1)", "for i in 0 1"])
def test_a_directory_named_by_a_loops_variable_is_not_called_the_callers(tmp_path, loop):
    # mindspore-ai/models' run_distribute_train.sh (resnet, CTPN, Arcface, MobileNetV2, LPCNet, snn):
    # `for((i=0; i<${DEVICE_NUM}; i++)) do mkdir ./device$i; cd ./device$i; python ../train.py ... &`; it said
    # "$i not known here (not set by the launcher; the caller's)": the loop sets it. (With the `mkdir ./device$i` of
    # those launchers before the cd, each round's folder is the one it made: tests/test_loop_rounds.py)
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"{loop}\ndo\n    cd ./device$i\n"
                                     "    python ../train.py &\n    cd ..\ndone\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["launch"]["unknown"] == ("cannot find ../train.py: the directory the launcher runs it in is not "
                                           "known here (`cd ./device$i` at run.sh:3: $i not known here (the "
                                           "variable of the `for` loop at run.sh:1: each round's value, the last "
                                           "one after it))")


def test_after_the_loop_its_variable_is_not_said_to_change_each_round(tmp_path):
    # bash keeps the last round's value after the loop (bash 5.2: `for i in 0 1; do :; done; echo $i` prints 1)
    (tmp_path / "d1").mkdir()
    (tmp_path / "t.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text("for i in 0 1; do echo $i; done\ncd ./d$i\npython3 t.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["launch"]["unknown"].endswith("$i not known here (the variable of the `for` loop at run.sh:1: "
                                                "each round's value, the last one after it))")


def test_a_loops_variable_set_before_the_loop_is_not_kept_through_it(tmp_path):
    # bash 5.2: `i=5; for i in 0 1; do :; done; echo $i` prints 1; the walk kept 5 and ran d5/t.py
    (tmp_path / "d5").mkdir()
    (tmp_path / "d5" / "t.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text("i=5\nfor i in 0 1; do :; done\ncd ./d$i\npython3 t.py\n")
    (launch,) = steps(Walk(str(tmp_path / "run.sh")).run())
    assert (launch.script, launch.command.cwd) == ("", ())
    assert launch.missing == ("cannot find t.py: the directory the launcher runs it in is not known here (`cd ./d$i` "
                              "at run.sh:3: $i not known here (the variable of the `for` loop at run.sh:2: each "
                              "round's value, the last one after it))")


def test_an_exported_loop_variable_is_each_rounds_value_in_the_body(tmp_path):
    # bash 5.2: `export R=5; for R in 0 1; do env | grep ^R=; done` prints R=0, then R=1 (not R=5)
    (tmp_path / "run.sh").write_text("export R=5\nfor R in 0 1; do\n  python3 t.py\ndone\n")
    (cmd,) = Walk(str(tmp_path / "run.sh")).run().commands
    assert (cmd.env["R"].value, cmd.env["R"].how, cmd.env["R"].line) == (HOLE, "export", 2)


LOOP_MOVED = ("the loop at run.sh:1 changes the directory, and the walk reads its body once: each round starts where "
              "the one before left it")


def test_a_cd_in_a_loop_moves_once_per_round(tmp_path):
    # bash 5.2: `for i in 1 2 3; do cd ..; done; pwd` in a/b/c prints a's parent; the walk went up once and ran t.py
    # in a/b
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    (tmp_path / "a" / "b" / "t.py").write_text("print(1)\n")
    (tmp_path / "a" / "b" / "c" / "run.sh").write_text("for i in 1 2 3; do cd ..; done\npython3 t.py\n")
    (launch,) = steps(Walk(str(tmp_path / "a" / "b" / "c" / "run.sh")).run())
    assert (launch.script, launch.command.cwd, launch.command.lost) == ("", (), LOOP_MOVED)
    assert launch.missing == f"cannot find t.py: the directory the launcher runs it in is not known here ({LOOP_MOVED})"


def test_what_runs_before_a_cd_in_a_loop_runs_elsewhere_from_the_second_round(tmp_path):
    # bash 5.2: `for i in 1 2; do pwd; cd /tmp; done` prints the start directory, then /tmp
    (tmp_path / "d").mkdir()
    (tmp_path / "run.sh").write_text(f"for i in 1 2; do\n  python3 t.py\n  cd {tmp_path}/d\n  python3 t.py --x\n"
                                     "done\npython3 t.py --y\n")
    first, second, after = Walk(str(tmp_path / "run.sh")).run().commands
    assert (first.cwd, first.lost) == ((), LOOP_MOVED)
    # after the `cd` to an absolute directory each round runs in it, and the loop leaves the shell there
    assert second.cwd == after.cwd == (str(tmp_path / "d"),)


@pytest.mark.parametrize("loop", ["for i in 1 2; do cd d; python3 ../t.py; cd ..; done",
                                  "for i in 0; do cd d; done", "while true; do python3 t.py; done"])
def test_a_loop_that_ends_where_it_began_keeps_its_directory(tmp_path, loop):
    # bash 5.2: `for i in 1 2; do cd d; pwd; cd ..; done` prints .../d twice; a loop of one round runs its body once
    (tmp_path / "d").mkdir()
    (tmp_path / "run.sh").write_text(f"{loop}\npython3 t.py --after\n")
    commands = Walk(str(tmp_path / "run.sh")).run().commands
    assert commands[-1].cwd == ((str(tmp_path / "d"),) if "0;" in loop else (str(tmp_path),))
    assert all(c.cwd for c in commands)


@pytest.mark.parametrize("line", ["python3 -mtools.t a", "python3 -um tools.t a", "python3 -Bmtools.t a",
                                  "python3 -Wignore -m tools.t a", "python3 -X dev -u -mtools.t a"])
def test_a_module_given_in_joined_options_is_started(tmp_path, line):
    # python 3.11 (CPython's getopt joins short options and glues a value to its letter): each of these runs
    # tools/t.py with sys.argv ['.../tools/t.py', 'a']; the walk took `-mtools.t` for a flag and started nothing
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "t.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(line + "\n")
    (launch,) = steps(Walk(str(tmp_path / "run.sh")).run())
    assert (launch.script, launch.module, [w.text for w in launch.args]) == (str(tmp_path / "tools" / "t.py"),
                                                                             "tools.t", ["a"])


@pytest.mark.parametrize("line, code", [("python3 - y.py <<EOF\nprint(1)\nEOF", "-"),
                                        ("python3 -uc 'print(1)' y.py", "-c"), ("python3 -c'print(1)' y.py", "-c")])
def test_code_from_stdin_or_c_does_not_start_the_py_word_after_it(tmp_path, line, code):
    # python 3.11: `python3 - y.py <<EOF` runs the here-document with sys.argv ['-', 'y.py'], `python3 -uc CODE y.py`
    # runs CODE with ['-c', 'y.py']: y.py is an argument, not run; the walk started y.py after `-`
    (tmp_path / "y.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(line + "\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    assert steps(w) == []
    assert [(o.kind, o.script) for o in map(opaque, w.commands) if o is not None] == [("code", code)]


PROFILE_ENV = "export PROFILING_MODE=true\nexport PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"


@pytest.mark.parametrize("line", ["bash child.sh $i", "taskset -c 0-3 ./child.sh $i &", "nohup sh ${HERE}/child.sh $i"])
def test_a_shell_script_it_runs_is_followed_as_a_child_process(tmp_path, line):
    # ResNet50_ID0058's train_8p.sh runs train_sample.sh per device, and that starts the training script
    (tmp_path / "child.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nexport DEVICE_ID=$1\npython3 train.py\n')
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f'#!/bin/bash\nHERE=$(cd "$(dirname "$0")"; pwd)\ncd $HERE\n{PROFILE_ENV}'
                                     f'for i in 0 1 2 3; do\n  {line}\ndone\n')
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    (r,) = report["results"]
    assert (r.setup.route, r.verdict, r.output_dir) == ("env", "collects", "/tmp/p")
    launch = report["launch"]
    assert launch["at"] == "child.sh:4" and launch["ranks"] == 4 and launch["runs"] == ["child.sh"]
    assert launch["background"] == line.endswith("&")
    assert "  runs child.sh (run.sh:7)" in launch["lines"]


def test_a_child_shell_sees_only_what_is_exported_and_gives_nothing_back(tmp_path):
    (tmp_path / "child.sh").write_text("#!/bin/bash\nexport PROFILING_MODE=true\npython3 train.py\n")
    (tmp_path / "train.py").write_text("print(1)\n")
    # set without export: the child process never sees it, so the child's own export decides there; the
    # child's export does not come back to the launcher's next command
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd \"$(dirname \"$0\")\"\n"
                                     "PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"
                                     "bash child.sh\npython3 train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    first, second = report["launches"]
    assert first.launch.command.env.get("PROFILING_MODE").value == "true"
    assert first.launch.command.env.get("PROFILING_OPTIONS") is None
    assert second.launch.command.env.get("PROFILING_MODE") is None


def test_a_launcher_that_runs_itself_says_so(tmp_path):
    # the model zoo's `sh -x train_full_1p.sh --autotune=$autotune --data_path=$data_path` in train_full_1p.sh: it
    # said "(not found, outside the project, nested too deep or run from itself): emulate train_full_1p.sh itself"
    (tmp_path / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nif [[ $autotune == True ]]; then\n'
                                     '    sh -x run.sh --autotune=$autotune --data_path=/d\nfi\n')
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["launch"]["unknown"] == (
        "it runs run.sh again, the file this command is in, which the walk does not follow into itself: what that "
        "run starts is not known here (emulate `sh -x run.sh --autotune=<unknown> --data_path=/d` to see it)")


def test_a_shell_script_that_cannot_be_read_is_unknown_not_nothing(tmp_path):
    (tmp_path / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nbash missing.sh 0\n')
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None and report["exit"] == 1
    # (it said: "not found, named by a value not known statically, outside the project, nested too deep or run from
    # itself"; the `cd` settles where it runs, and there is no such file there)
    assert report["launch"]["unknown"] == (f"it runs the shell script missing.sh, which is not read from here (there "
                                           f"is no missing.sh in {tmp_path}): emulate missing.sh itself")
    (tmp_path / "run.sh").write_text('#!/bin/bash\nbash "$D/child.sh" 0\n')
    assert emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})["launch"]["unknown"] == (
        "it runs the shell script <unknown>/child.sh, which is not read from here (its name holds a value not known "
        "statically): emulate child.sh itself")
    (tmp_path / "run.sh").write_text('#!/bin/bash\nbash /nowhere/child.sh\n')
    assert emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})["launch"]["unknown"] == (
        "it runs the shell script /nowhere/child.sh, which is not read from here (there is no /nowhere/child.sh): "
        "emulate child.sh itself")
    # where it runs is the launcher's own folder only by assumption (no `cd`): the reasons as before, less the value
    (tmp_path / "run.sh").write_text('#!/bin/bash\nbash missing.sh\n')
    assert emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})["launch"]["unknown"] == (
        "it runs the shell script missing.sh, which is not read from here (not found, outside the project, nested too "
        "deep or run from itself): emulate missing.sh itself")


@pytest.mark.parametrize("bind", ['bind_core=""', 'if [ "$RANK" = 0 ]; then bind_core="taskset -c 0-23"; fi'])
def test_a_wrapper_held_in_a_variable_does_not_hide_the_launch(tmp_path, bind):
    # the model zoo's `nohup ${bind_core} python3 x.py &` (173 launchers of the whole zoo): empty, the shell drops
    # the word; not known statically, it is a wrapper such as taskset in front of python
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f'#!/bin/bash\ncd "$(dirname "$0")"\n{PROFILE_ENV}{bind}\n'
                                     'nohup ${bind_core} python3 train.py &\n')
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    (r,) = report["results"]
    assert (r.setup.route, r.verdict) == ("env", "collects")
    assert report["launch"]["at"] == "run.sh:6" and report["launch"]["background"]
    assert report["launch"]["lines"][0] == ("launch: run.sh:6 nohup python3 train.py" if '""' in bind else
                                            "launch: run.sh:6 nohup '<unknown>' python3 train.py")


def test_a_script_run_by_its_bare_name_is_looked_up_on_path(tmp_path):
    (tmp_path / "child.sh").write_text("#!/bin/bash\npython3 train.py\n")
    (tmp_path / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nchild.sh --autotune=True\n')
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None
    assert report["launch"]["unknown"] == ("it runs child.sh by its bare name, which the shell looks up on PATH, not "
                                           "in the current directory: what that starts is not known here")


def test_only_the_launches_inside_a_child_name_it(tmp_path):
    (tmp_path / "child.sh").write_text("#!/bin/bash\npython3 train.py --part 1\n")
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nbash child.sh\npython3 train.py --part 2\n')
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    first, second = report["launches"]
    assert first.info["runs"] == ["child.sh"] and "  runs child.sh (run.sh:3)" in first.info["lines"]
    assert second.info["runs"] == [] and not any("runs child.sh" in ln for ln in second.info["lines"])


def test_a_profiling_mode_not_known_statically_is_unknown_not_off(tmp_path):
    # BERT_tf_Soapeggpain's e2e_test.sh: PROFILING_MODE read from a CSV with awk, then exported
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd \"$(dirname \"$0\")\"\n"
                                     "export PROFILING_MODE=`echo $line | awk -F, '{print $5}'`\n"
                                     "python3 train.py\npython3 train.py --again\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    for run in report["launches"]:
        (r,) = run.report["results"]
        assert r.verdict == "unknown" and run.profiles is None
        assert not any("\ue000" in m or "\\ue000" in m for m in map(str, r.messages))
        assert any("to a value not known statically" in m for m in map(str, r.messages))
    from flake8_npuprof.emulate.render import render_text
    assert "profiling data from: not known for launches 1, 2 (see above)" in render_text(report).splitlines()


def test_a_pipeline_in_the_background_puts_python_in_the_background(tmp_path):
    # ResNext101_ID1577's Resnext50_8p_host.sh: `python3.7 ... res50.py ... | tee -a train.log &`
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\npython3 train.py 2>&1 | tee -a log &\n'
                                     'python3 train.py | tee log2\n')
    w = Walk(str(tmp_path / "run.sh")).run()
    first, second = [la.command for la in launches(w)]
    assert (first.line, first.background) == (3, True)
    assert (second.line, second.background) == (4, False)


def test_the_toolkits_msprof_py_analysis_starts_no_training(tmp_path):
    # AVOD_ID0818's run_msprof.sh: `python3.7 msprof.py import/query/export -dir $1` in the toolkit's folder
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd /usr/local/Ascend/tools/profiler/analysis/msprof\n"
                                     "python3.7 msprof.py import -dir $1\npython3.7 msprof.py export summary -dir $1\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    assert steps(w) == []
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is False and report["results"] == []


def test_an_absolute_script_that_is_not_here_is_not_blamed_on_the_directory(tmp_path):
    # ResNext101_ID1577's Resnext50_8p_host.sh starts /network/.../res50.py
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $WORK\npython3.7 /network/code/res50.py\n"
                                     "cd /tmp\npython3.7 /network/code/res50.py --again\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    assert [la.missing for la in steps(w)] == ["cannot find /network/code/res50.py: no such file here"] * 2


FAILS = "python3 train.py --profiling --opts='{\"output\":\"/tmp/p\",\"task_trace\":\"ON\"}'\n"
TRAIN_FLAGS = ("import argparse\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n"
               "parser = argparse.ArgumentParser()\nparser.add_argument('--profiling', action='store_true')\n"
               "parser.add_argument('--opts', default='{\"output\":\"/tmp/prof\",\"task_trace\":\"on\"}')\n"
               "args = parser.parse_args()\nconfig = tf.ConfigProto()\n"
               "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
               "if args.profiling:\n    op.parameter_map['profiling_mode'].b = True\n"
               "    op.parameter_map['profiling_options'].s = tf.compat.as_bytes(args.opts)\n"
               "with tf.Session(config=config) as sess:\n    sess.run(x)\n")


def _verdicts(tmp_path, launcher_text, **children):
    (tmp_path / "train.py").write_text(TRAIN_FLAGS)
    for name, text in children.items():
        (tmp_path / f"{name}.sh").write_text(text)
    (tmp_path / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\n' + launcher_text)
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    runs = report.get("launches") or []
    return [(r.where, r.verdict) for r in runs], report


def test_set_e_in_a_child_stops_the_child_and_reaches_the_caller_only_under_its_set_e(tmp_path):
    child = "#!/bin/bash\nset -e\n" + FAILS + "python3 train.py --profiling\n"
    got, report = _verdicts(tmp_path, "bash child.sh\npython3 train.py --profiling\n", child=child)
    # the child stops; the launcher, without set -e, goes on
    assert got == [("child.sh:3", "fails"), ("child.sh:4", "not run"), ("run.sh:4", "collects")]
    assert "stops child.sh (set -e)" in report["launches"][1].why
    got, _ = _verdicts(tmp_path, "set -e\nbash child.sh\npython3 train.py --profiling\n", child=child)
    assert got == [("child.sh:3", "fails"), ("child.sh:4", "not run"), ("run.sh:5", "not run")]
    # a child without set -e exits with its last command's status: under the caller's set -e that stops it
    got, _ = _verdicts(tmp_path, "set -e\nbash last.sh\npython3 train.py --profiling\n", last="#!/bin/bash\n" + FAILS)
    assert got == [("last.sh:2", "fails"), ("run.sh:5", "not run")]
    # ... and `child && next` skips next
    got, _ = _verdicts(tmp_path, "bash last.sh && python3 train.py --profiling\n", last="#!/bin/bash\n" + FAILS)
    assert got == [("last.sh:2", "fails"), ("run.sh:3", "not run")]


def test_a_child_run_twice_is_two_runs(tmp_path):
    child = "#!/bin/bash\n" + FAILS.rstrip("\n") + " && python3 train.py\n"
    got, _ = _verdicts(tmp_path, "bash child.sh\nbash child.sh\n", child=child)
    assert got == [("child.sh:2", "fails"), ("child.sh:2", "not run"), ("child.sh:2", "fails"), ("child.sh:2", "not run")]


def test_a_child_in_a_branch_keeps_its_own_settings_and_gets_what_the_command_line_gives(tmp_path):
    child = "#!/bin/bash\nexport PROFILING_OPTIONS='{\"output\":\"/tmp/q\",\"task_trace\":\"on\"}'\npython3 plain.py\n"
    (tmp_path / "plain.py").write_text("print(1)\n")
    for line in ('if [ "$1" = 1p ]; then\n  PROFILING_MODE=true bash child.sh\nfi\n',
                 "env PROFILING_MODE=true ./child.sh\n"):
        _, report = _verdicts(tmp_path, line, child=child)
        (r,) = report["results"]
        assert (r.verdict, r.output_dir) == ("collects", "/tmp/q"), line


@pytest.mark.parametrize("line, unknown", [
    ("bash $0 1p\n", "again, the file this command is in"),
    ("bash -c 'python3 train.py'\n", "it runs a command string with `bash -c`, which is not read here"),
])
def test_what_cannot_be_walked_is_unknown(tmp_path, line, unknown):
    _, report = _verdicts(tmp_path, line)
    assert report["usable"] is None and unknown in report["launch"]["unknown"]


@pytest.mark.parametrize("line", ["bash -x child.sh\n", "timeout 3600 ./child.sh\n", "timeout 60 python3 train.py --profiling\n"])
def test_options_and_arguments_of_a_prefix_do_not_hide_the_launch(tmp_path, line):
    got, report = _verdicts(tmp_path, line, child="#!/bin/bash\npython3 train.py --profiling\n")
    (r,) = report["results"]
    assert r.verdict == "collects" and r.output_dir == "/tmp/prof"


def test_exec_replaces_the_shell(tmp_path):
    # nothing after `exec cmd` runs in that file; `exec >log 2>&1` only redirects
    got, _ = _verdicts(tmp_path, "exec > run.log 2>&1\nexec python3 train.py --profiling\npython3 train.py\n")
    assert got == [("run.sh:4", "collects")]


def test_what_a_child_sources_is_shown_on_its_own_launches_only(tmp_path):
    (tmp_path / "env.sh").write_text("export A=1\n")
    child = "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nsource env.sh\nsource gone.sh\npython3 train.py --part 1\n"
    _, report = _verdicts(tmp_path, "python3 train.py --part 0\nbash child.sh\n", child=child)
    first, second = report["launches"]
    assert first.info["sourced"] == [] and first.info["not_read"] == []
    assert second.info["sourced"] == ["env.sh"] and second.info["not_read"] == ["gone.sh"]
    assert not any("sources" in ln for ln in first.info["lines"])


def test_only_the_last_command_of_a_pipeline_decides_its_and_and(tmp_path):
    # `a | b && c`: the pipeline's status is b's; a failing a skips nothing
    got, _ = _verdicts(tmp_path, FAILS.rstrip("\n") + " | python3 train.py --profiling && python3 train.py --profiling\n")
    assert got == [("run.sh:3", "fails"), ("run.sh:3", "collects"), ("run.sh:3", "collects")]


def test_a_walk_stopped_in_a_child_says_the_launcher_runs_it(tmp_path):
    from flake8_npuprof.checks.analysis import Settings
    (tmp_path / "child.sh").write_text("#!/bin/bash\n" + "echo step\n" * (MAX_COMMANDS + 5))
    (tmp_path / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nbash child.sh\n')
    (f,) = check_launcher((tmp_path / "run.sh").read_text(), str(tmp_path / "run.sh"), Settings())
    assert f.code == "NPP191" and "the walk of this launcher stopped in child.sh, which it runs, at line" in f.message


def test_each_stop_under_set_e_ends_its_own_child(tmp_path):
    # two children with set -e, run by a launcher without it: each failure ends its own child only
    child = "#!/bin/bash\nset -e\n" + FAILS + "python3 train.py --profiling\n"
    got, _ = _verdicts(tmp_path, "bash a.sh\nbash b.sh\n", a=child, b=child)
    assert got == [("a.sh:3", "fails"), ("a.sh:4", "not run"), ("b.sh:3", "fails"), ("b.sh:4", "not run")]


def test_a_rank_loop_with_bounds_in_parameters_counts_its_ranks(tmp_path):
    # the model zoo's launchers: `for((RANK_ID=$RANK_ID_START;RANK_ID<$((RANK_SIZE+RANK_ID_START));RANK_ID++))`
    # with RANK_SIZE=8 runs 8 times; one starting at the caller's device id runs RANK_SIZE times whatever it is
    shutil.copy(LAUNCH / "train.py", tmp_path / "train.py")
    loops = {"start.sh": "RANK_ID_START=0\nfor((RANK_ID=$RANK_ID_START;RANK_ID<$((RANK_SIZE+RANK_ID_START));RANK_ID++));",
             "device.sh": "for((RANK_ID=$ASCEND_DEVICE_ID;RANK_ID<$((RANK_SIZE+$ASCEND_DEVICE_ID));RANK_ID++));",
             # DIN (ModelZoo-TensorFlow2): the start set from the caller's device id; it said "an unknown number"
             "held.sh": "RANK_ID_START=$ASCEND_DEVICE_ID\n"
                        "for((RANK_ID=$RANK_ID_START;RANK_ID<$((RANK_SIZE+RANK_ID_START));RANK_ID++));",
             "times.sh": "for((RANK_ID=$D;RANK_ID<$((RANK_SIZE*D));RANK_ID++));",
             "set.sh": "for((RANK_ID=0;RANK_ID<RANK_SIZE;RANK_ID++));",
             "let.sh": "let RANK_SIZE=RANK_SIZE*2\nfor((RANK_ID=0;RANK_ID<RANK_SIZE;RANK_ID++));",
             "read.sh": "read RANK_SIZE < sizes\nfor((RANK_ID=0;RANK_ID<RANK_SIZE;RANK_ID++));",
             # bash's `**`, its 64-bit wrap and its octal 010 are not worked out here (9**9**9 would run for minutes)
             "power.sh": "for((RANK_ID=0;RANK_ID<9**9**9;RANK_ID++));",
             "wrap.sh": "for((RANK_ID=0;RANK_ID<9223372036854775807+RANK_SIZE;RANK_ID++));",
             "octal.sh": "for((RANK_ID=0;RANK_ID<010;RANK_ID++));",
             # mindrlhf's run_distribute_train.sh: a bare group in a bound (bash 5.2 runs it 8 times)
             "group.sh": "RANK_START=2\nfor((i=${RANK_START};i<(${RANK_SIZE}+${RANK_START});i++));"}
    seen = {}
    for name, head in loops.items():
        # `let a=RANK_ID*${corenum}/${RANK_SIZE}` (the zoo's core binding) reads RANK_SIZE and sets nothing of it
        body = {"set.sh": "RANK_SIZE=4\n", "start.sh": "let a=RANK_ID*${corenum}/${RANK_SIZE}\n"}.get(name, "")
        (tmp_path / name).write_text(f"export RANK_SIZE=8\n{head}\ndo\n{body}    python3 train.py --profiling=True &\n"
                                     "done\nwait\n")
        report = emulate_path(str(tmp_path / name), T, cwd=str(tmp_path), use_env=False, environ={})
        seen[name] = report["launch"]["lines"][1]
    assert seen["start.sh"] == seen["device.sh"] == seen["held.sh"] == seen["group.sh"] == \
        "  started 8 times (one per rank)"
    # an unknown times a known is not settled; a body that sets a bound changes how often bash runs it; `let` and
    # `read` set a bound where the walk does not follow its value
    unknown = "  started an unknown number of times (a loop, or a process count not known statically); each run " \
        "emulated alike"
    assert seen["times.sh"] == seen["set.sh"] == seen["let.sh"] == seen["read.sh"] == unknown
    assert seen["power.sh"] == seen["wrap.sh"] == seen["octal.sh"] == unknown


def test_a_loop_that_waits_for_each_run_does_not_call_its_rounds_ranks(tmp_path):
    # msprof launchers that collect each AI Core metric in turn: `for m in ArithmeticUtilization PipeUtilization
    # Memory L2Cache; do msprof --application="python3 ..." --aic-metrics=$m; done`. bash runs each round after the
    # one before ends; it said "started 4 times (one per rank)". (Not "one after another": the walk does not put
    # `a` of `a && b &` in the background, as bash does)
    shutil.copy(LAUNCH / "train.py", tmp_path / "train.py")
    (tmp_path / "each.sh").write_text("for m in A B C D; do\n  python3 train.py --metric $m\ndone\n")
    (tmp_path / "torchrun.sh").write_text("for m in A B; do\n  torchrun --nproc_per_node 8 train.py --metric $m\n"
                                          "done\n")
    lines = {}
    for name in ("each.sh", "torchrun.sh"):
        report = emulate_path(str(tmp_path / name), T, cwd=str(tmp_path), use_env=False, environ={})
        lines[name] = report["launch"]["lines"][1]
    assert lines["each.sh"] == "  started 4 times (the rounds of a loop)"
    assert lines["torchrun.sh"] == "  started 16 times (2 rounds of a loop, each 8 ranks by torchrun)"


def test_a_status_test_after_a_background_launch_does_not_leave_the_rank_count_unknown(tmp_path):
    # 34 of ModelZoo-TensorFlow's launchers (OpenPose, Tacotron2, TCN): `nohup python3 ... &` then `if [ $? -ne 0 ]; then
    # exit 1; fi` in the rank loop; bash gives a command it puts in the background the status 0 (`false & echo $?`
    # prints 0), so the exit never runs. It said "started an unknown number of times"
    shutil.copy(LAUNCH / "train.py", tmp_path / "train.py")
    seen = {}
    for name, test in {"ne.sh": "if [ $? -ne 0 ];then\n  exit 1\nfi", "test.sh": "if test $? -ne 0; then exit 1; fi",
                       "eq.sh": "if [ $? -eq 0 ];then\n  exit 1\nfi", "var.sh": "if [ $x -ne 0 ];then\n  exit 1\nfi",
                       "wait.sh": "wait\nif [ $? -ne 0 ];then\n  exit 1\nfi"}.items():
        (tmp_path / name).write_text("export RANK_SIZE=8\nRANK_ID_START=0\n"
                                     "for((RANK_ID=$RANK_ID_START;RANK_ID<$((RANK_SIZE+RANK_ID_START));RANK_ID++));\n"
                                     f"do\n    nohup python3 train.py --profiling=True > log 2>&1 &\n{test}\ndone\nwait\n")
        report = emulate_path(str(tmp_path / name), T, cwd=str(tmp_path), use_env=False, environ={})
        seen[name] = report["launch"]["lines"][1]
    assert seen["ne.sh"] == seen["test.sh"] == "  started 8 times (one per rank)"
    # the exit that runs, a test of another value and a status after `wait` (the job's own): not counted
    unknown = "  started an unknown number of times (a loop, or a process count not known statically); each run " \
        "emulated alike"
    assert seen["eq.sh"] == seen["var.sh"] == seen["wait.sh"] == unknown


@pytest.mark.parametrize("body, value", [("2*(3+4)-1", 13), ("- -5", 5), ("--5", None), ("1++2", None), ("9**9**9", None), ("010", None),
                                         ("9223372036854775807+1", None), ("(" * 300 + "1" + ")" * 300, None),
                                         ("", None), ("1 2", None), ("(1", None),
                                         # `/` and `%` cut toward zero (bash 5.2 run): Python's // and % floor
                                         ("1/2", 0), ("-7/2", -3), ("-7%2", -1), ("7%-2", 1), ("7/-2", -3),
                                         ("2*3/4", 1), ("2*(3/4)", 0), ("8/2/2", 2), ("7%3*2", 2), ("1/0", None),
                                         ("4%0", None), ("9223372036854775807*2/2", None),
                                         ("(" * 200 + "1" + ")" * 200, 1)])
def test_an_arithmetic_body_is_worked_out_only_as_bash_would(body, value):
    from flake8_npuprof.shell.words import integer_value
    assert integer_value(body) == value


@pytest.mark.parametrize("text, set_here", [
    ("let RANK_SIZE=RANK_SIZE*2\n", True), ("(( RANK_SIZE += 1 ))\n", True), ("((\n  ++RANK_SIZE))\n", True),
    ("read -r a RANK_SIZE < f\n", True), ("readarray RANK_SIZE\n", True), ("printf -v RANK_SIZE %d 8\n", True),
    ("export RANK_SIZE=8\n", False), ("echo $((RANK_SIZE+1))\n", False), ("(( x = RANK_SIZE ))\n", False),
    ("let a=RANK_ID*${corenum}/${RANK_SIZE}\n", False), ("read a; RANK_SIZE=1\n", False),
    ("(( x )); RANK_SIZE=1\n", False), ("let RANK_SIZE_X=1\n", False), ("(( $RANK_SIZE++ ))\n", False),
])
def test_a_rank_loop_bound_set_where_the_walk_does_not_follow_values(text, set_here):
    """A `for ((...))` bound that arithmetic, read or printf -v set is not counted (searched only near the name)."""
    from flake8_npuprof.shell.parse import set_unfollowed
    assert set_unfollowed(text, "RANK_SIZE") is set_here
