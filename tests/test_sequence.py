"""A launcher as the sequence of launches it runs (issue 25, items 2 and 3), and a launcher's PROFILING_OPTIONS as
GE reads them in those launches (the check/emulate disagreement of issue 25)."""

import json
import shutil
import subprocess

from flake8_npuprof.checks.analysis import Settings
from flake8_npuprof.cli import main
from flake8_npuprof.engine.run import check_text
from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.source.text import HOLE

T = Target.parse("8.0", "910B")
# a script that switches profiling on with its own options
PROFILED = ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
            "config = tf.compat.v1.ConfigProto()\n"
            "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
            "op.parameter_map['profiling_mode'].b = True\n"
            "op.parameter_map['profiling_options'].s = tf.compat.as_bytes('{\"output\":\"/tmp/prof\","
            "\"task_trace\":\"on\"}')\nsess = tf.compat.v1.Session(config=config)\n")
PLAIN = "import tensorflow as tf\nsess = tf.compat.v1.Session()\n"
# a script whose profiling follows an untyped flag and takes its options from another flag
FLAGGED = ("import argparse\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
           "p = argparse.ArgumentParser()\np.add_argument('--profiling', action='store_true')\n"
           "p.add_argument('--opts', default='{\"output\":\"/tmp/prof\",\"task_trace\":\"on\"}')\n"
           "args = p.parse_args()\nconfig = tf.compat.v1.ConfigProto()\n"
           "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
           "if args.profiling:\n    op.parameter_map['profiling_mode'].b = True\n"
           "    op.parameter_map['profiling_options'].s = tf.compat.as_bytes(args.opts)\n"
           "sess = tf.compat.v1.Session(config=config)\n")


def _project(tmp_path, launcher, **scripts):
    for name, text in scripts.items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "run.sh"
    path.write_text(launcher)
    return path


def _emulate(path, **kw):
    return emulate_path(str(path), T, use_env=False, environ={}, **kw)


def _verdicts(report):
    return [(r.index, r.verdict) for r in report["launches"]]


# ---------------------------------------------------------------- item 2: every launch, in order

def test_a_warm_up_before_a_broken_msprof_line_is_not_the_answer(tmp_path, capsys):
    path = _project(tmp_path, '#!/bin/bash\ncd "$(dirname "$0")"\npython3 train.py\n'
                              "msprof --output=/tmp/ms --aic-metrics=PipeUtilisation python3 train.py\n",
                    **{"train.py": PROFILED})
    report = _emulate(path)
    # before: judged by the first launch alone, "usable data: yes", exit 0
    assert _verdicts(report) == [(1, "collects"), (2, "fails")]
    assert report["usable"] is False and report["exit"] == 1 and report["answer"]["decider"] == 2
    assert report["answer"]["why"].startswith("launch 2 of 2 at run.sh:4: fails: NPP122 --aic-metrics=PipeUtilisation")
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "launcher: run.sh runs 2 launches, in this order"
    assert "launch 2 of 2: run.sh:4 msprof --output=/tmp/ms --aic-metrics=PipeUtilisation python3 train.py" in out
    # launch 2 fails before msprof starts the script: it leaves no data
    assert "profiling data from: launch 1 (run.sh:3)" in out
    assert any(ln.startswith("usable data: no (launch 2 of 2 at run.sh:4: fails: NPP122") for ln in out)


def test_ranks_then_two_broken_msprof_lines(tmp_path):
    path = _project(tmp_path, '#!/bin/bash\ncd "$(dirname "$0")"\nfor i in $(seq 0 7); do\n'
                              "  DEVICE_ID=$i python3 train.py &\ndone\nwait\n"
                              "msprof --output=/tmp/ms --aicore=on python3 train.py\n"
                              "msprof --output=/tmp/ms --aic-metrics=Bogus python3 train.py\n",
                    **{"train.py": PROFILED})
    report = _emulate(path)
    first = report["launches"][0]
    assert (first.launch.ranks, first.launch.command.background, first.verdict) == (8, True, "collects")
    assert _verdicts(report) == [(1, "collects"), (2, "fails"), (3, "fails")]
    assert report["usable"] is False and report["exit"] == 1


def test_a_launch_that_switches_nothing_on_does_not_decide(tmp_path, capsys):
    path = _project(tmp_path, 'cd "$(dirname "$0")"\npython3 prep.py\npython3 train.py\n',
                    **{"prep.py": PLAIN, "train.py": PROFILED})
    report = _emulate(path)
    assert _verdicts(report) == [(1, "no profiling"), (2, "collects")]
    assert report["usable"] is True and report["exit"] == 0 and report["answer"]["decider"] == 2
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", "--format", "json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(x["index"], x["at"], x["verdict"], x["profiles"]) for x in doc["launches"]] == [
        (1, "run.sh:2", "no profiling", False), (2, "run.sh:3", "collects", True)]
    assert doc["launches"][1]["setups"][0]["verdict"] == "collects" and doc["answer"]["usable"] is True


def test_a_failure_under_set_e_stops_the_launches_after_it(tmp_path):
    launcher = ('#!/bin/bash\nset -e\ncd "$(dirname "$0")"\n'
                "python3 train.py --profiling --opts='{\"output\":\"/tmp/p\",\"task_trace\":\"ON\"}'\n"
                "python3 train.py --profiling\n")
    report = _emulate(_project(tmp_path, launcher, **{"train.py": FLAGGED}))
    assert _verdicts(report) == [(1, "fails"), (2, "not run")]
    assert report["usable"] is False
    assert report["answer"]["why"].endswith("; the launcher stops there (set -e): launch 2 never run")
    # without set -e bash goes on: the second launch runs after the failure and its data is the run's
    report = _emulate(_project(tmp_path, launcher.replace("set -e\n", "")))
    assert _verdicts(report) == [(1, "fails"), (2, "collects")] and report["usable"] is True
    assert report["answer"]["decider"] == 2 and report["answer"]["why"].startswith(
        "from launch 2 at run.sh:4: the launcher goes on after launch 1 of 2 at run.sh:3, which fails: NPP102 ")
    # `a && b`: b does not run when a fails
    report = _emulate(_project(tmp_path, launcher.replace("set -e\n", "").replace("'\npython3", "' && python3")))
    assert _verdicts(report) == [(1, "fails"), (2, "not run")]
    assert report["answer"]["why"].endswith("; `&&` skips launch 2")


def test_an_application_that_is_not_a_python_script_is_msprofs(tmp_path):
    path = _project(tmp_path, 'cd "$(dirname "$0")"\nmsprof --output=/tmp/ms --application=./benchmark\n')
    report = _emulate(path)
    (own,) = report["results"]
    # before: "no profiling setup found ... usable data: no"
    assert (own.setup.route, own.verdict, own.output_dir) == ("msprof", "collects", "/tmp/ms")
    assert own.collected == ["task_trace", "aic_metrics"]
    assert report["usable"] is True and report["launch"]["application"] == ["./benchmark"]


# ---------------------------------------------------------------- item 3: the launcher's own directory, unknown

def test_a_script_that_cannot_be_found_is_unknown_whatever_the_callers_directory(tmp_path, monkeypatch, capsys):
    path = _project(tmp_path, "python3 trian.py\n", **{"train.py": PROFILED})
    answers = []
    for where in (tmp_path, tmp_path.parent):
        monkeypatch.chdir(where)
        report = _emulate(path)
        answers.append((report["usable"], report["answer"]["why"]))
    # before: "no profiling setup found: a run collects no profiling data ... usable data: no"
    assert answers == [(None, f"run.sh:1: cannot find trian.py (looked in {tmp_path})")] * 2
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"  unknown: cannot find trian.py (looked in {tmp_path})\n" in out
    assert "no profiling setup found" not in out and "usable data: no" not in out
    assert f"usable data: unknown (run.sh:1: cannot find trian.py (looked in {tmp_path}))" in out


def test_paths_are_the_launchers_not_the_callers(tmp_path, monkeypatch):
    proj, elsewhere = tmp_path / "proj", tmp_path / "elsewhere"
    proj.mkdir()
    elsewhere.mkdir()
    (elsewhere / "train.py").write_text(PLAIN)          # the caller's directory has another train.py
    path = _project(proj, "python3 train.py\n", **{"train.py": PROFILED})
    monkeypatch.chdir(elsewhere)
    report = _emulate(path)
    assert report["launch"]["script"] == "train.py" and report["results"][0].verdict == "collects"
    assert report["cwd"] == str(proj)
    assert report["launch"]["lines"][1] == (f"  runs in {proj}: the launcher's own directory, where it is meant to be "
                                            "started (it sets none with `cd`; give --cwd for another)")
    # --cwd says where it starts
    report = _emulate(path, cwd=str(elsewhere))
    assert report["cwd"] == str(elsewhere) and report["results"] == []
    assert report["usable"] is False                     # the other train.py switches nothing on


def test_pwd_before_a_cd_is_the_launchers_own_directory_and_says_so(tmp_path):
    # `cur=$(pwd)` before any `cd`: where the launcher is meant to be started, its own folder (as for relative paths)
    path = _project(tmp_path, "cur=$(pwd)\npython3 $cur/train.py\n", **{"train.py": PROFILED})
    report = _emulate(path)
    assert report["usable"] is True and report["launch"]["script"] == "train.py"
    assert f"  runs in {tmp_path}: the launcher's own directory, where it is meant to be started (it sets none with " \
        "`cd`; give --cwd for another)" in report["launch"]["lines"]
    # `cd $cur/..` is relative to it: still the assumed start, said as a relative `cd`
    (tmp_path / "test").mkdir()
    path = _project(tmp_path / "test", "cur=`pwd`\ncd $cur/../\npython3 ./train.py\n")
    report = _emulate(path)
    assert report["usable"] is True and report["launch"]["at"] == "run.sh:3"
    assert f"  runs in {tmp_path}: a relative `cd` from the launcher's own directory, where it is meant to be " \
        "started (give --cwd for another)" in report["launch"]["lines"]
    # with --cwd, $(pwd) is that directory, known
    report = _emulate(path, cwd=str(tmp_path / "test"))
    assert report["usable"] is True and not any(line.startswith("  runs in") for line in report["launch"]["lines"])


# ---------------------------------------------------------------- PROFILING_OPTIONS of a launcher vs the script's own

ENV_BAD = ("#!/bin/bash\ncd \"$(dirname \"$0\")\"\nexport PROFILING_MODE=true\n"
           "export PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"L2\":\"on\"}'\npython3 {script}\n")


def _check(path):
    return check_text(str(path), path.read_text(), "shell", Settings(target=T), _selection())


def _selection():
    from flake8_npuprof.source.files import Selection
    return Selection(select=("NPP",), extend_select=(), ignore=(), extend_ignore=(), default_off=(),
                     explicit_select=False)


def test_a_script_with_its_own_options_makes_ge_ignore_the_launchers(tmp_path):
    # GE uses the options it is given when profiling is on and they are not empty, PROFILING_OPTIONS otherwise
    # (hicann/ge profiling_init.cc): check said the job aborts, emulate that it collects; emulate was right
    path = _project(tmp_path, ENV_BAD.replace("{script}", "train.py"), **{"train.py": PROFILED})
    (r,) = _emulate(path)["results"]
    assert (r.verdict, r.source) == ("collects", "script")
    assert "  PROFILING_OPTIONS from the launcher is not read: train.py:7 NpuOptimizer switches profiling on with " \
           "its own options, which GE uses instead" in _emulate(path)["launch"]["lines"]
    (f,) = _check(path)
    assert f.code == "NPP101" and f.message.startswith(
        "latent (train.py switches profiling on with its own options, which replace PROFILING_OPTIONS); "
        "once GE reads these options: ")
    assert "GE initialisation fails and the job aborts" not in f.message


def test_a_script_that_reads_the_environment_keeps_the_abort(tmp_path):
    path = _project(tmp_path, ENV_BAD.replace("{script}", "plain.py"), **{"plain.py": PLAIN})
    (r,) = _emulate(path)["results"]
    assert (r.verdict, r.source) == ("fails", "environment")
    (f,) = _check(path)
    assert f.code == "NPP101" and "GE initialisation fails and the job aborts" in f.message


def test_a_script_whose_own_options_hang_on_a_flag_leaves_it_uncertain(tmp_path):
    path = _project(tmp_path, ENV_BAD.replace("{script}", "train.py $EXTRA"), **{"train.py": FLAGGED})
    (r,) = _emulate(path)["results"]
    assert r.verdict == "unknown"
    (f,) = _check(path)
    assert f.message.startswith("if GE reads these options (train.py may switch profiling on with its own, which GE "
                                "then uses instead): ")
    assert "GE initialisation will fail and the job will abort" in f.message


# ---------------------------------------------------------------- a launch whose script cannot be followed

def test_the_launchers_own_options_resolve_where_the_launch_runs(tmp_path):
    # the script is not found after `cd /elsewhere`: the launcher's own PROFILING_OPTIONS are still emulated, and
    # their relative output lands where python runs (before: the launcher's directory, a false path)
    elsewhere = tmp_path / "elsewhere"
    path = _project(tmp_path, f"#!/bin/bash\ncd {elsewhere}\nexport PROFILING_MODE=true\n"
                              "export PROFILING_OPTIONS='{\"output\":\"./prof\",\"task_trace\":\"on\"}'\n"
                              "python3 train.py\n", **{"train.py": PLAIN})
    report = _emulate(path)
    assert report["launches"][0].info["unknown"] == f"cannot find train.py (looked in {elsewhere})"
    assert report["usable"] is None and report["cwd"] == str(elsewhere)
    [result] = report["results"]
    assert result.output_dir == str(elsewhere / "prof")
    assert result.export_command == f"msprof --export=on --output={elsewhere}/prof/PROF_*"


def test_a_relative_output_after_a_cd_not_followed_is_not_placed(tmp_path, capsys):
    path = _project(tmp_path, "#!/bin/bash\ncd $WORKDIR\nexport PROFILING_MODE=true\n"
                              "export PROFILING_OPTIONS='{\"output\":\"./prof\",\"task_trace\":\"on\"}'\n"
                              "python3 train.py\n", **{"train.py": PLAIN})
    report = _emulate(path)
    assert report["cwd"] is None and report["usable"] is None
    [result] = report["results"]
    assert result.output_dir is None and result.export_command == "msprof --export=on --output=<output>/PROF_*"
    assert report["preflight"] == [] and report["checked"] == []       # no directory here to look at
    main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)])
    out = capsys.readouterr().out
    assert "  output directory: <unknown>/prof (partly known only at run time)" in out.splitlines()
    assert str(tmp_path / "prof") not in out


# ---------------------------------------------------------------- what ends a shell, what runs only maybe, subshells

def _launched(report):
    """(script, conditional, the launch's own PROFILING_MODE) of every launch, in order."""
    runs = report.get("launches") or [None]
    infos = [r.info for r in runs] if runs[0] is not None else [report["launch"]]
    return [(i["script"], i["conditional"], (i["environment"].get("PROFILING_MODE") or {}).get("value"))
            for i in infos]


def test_exit_before_the_launch_ends_the_launcher(tmp_path, capsys):
    # before: the launch after `exit 0` was emulated as run, and the answer was "usable data: yes"
    path = _project(tmp_path, "#!/bin/bash\nexport PROFILING_MODE=true\nexit 0\npython3 train.py\n",
                    **{"train.py": PLAIN})
    report = _emulate(path)
    assert report["usable"] is False and report["results"] == []
    assert report["answer"]["why"] == "no launch found before the launcher ends at run.sh:3"
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)]) == 1
    assert capsys.readouterr().out.splitlines()[1:] == [
        "no launch: none found before the launcher ends at run.sh:3",
        "usable data: no (no launch found before the launcher ends at run.sh:3: nothing is collected)"]


def test_a_background_launch_then_wait_is_waited_for(tmp_path, capsys):
    # ModelZoo launchers: `nohup python3 x.py ... > log 2>&1 &` then `wait` (before: "the launcher goes on without
    # waiting for it" on every such launch, which the `wait` on the next line contradicts)
    path = _project(tmp_path, "#!/bin/bash\nexport PROFILING_MODE=true\nnohup python3 train.py > log 2>&1 &\nwait\n",
                    **{"train.py": PLAIN})
    main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)])
    assert "  in the background (&), waited for by `wait` at run.sh:4" in capsys.readouterr().out.splitlines()
    path.write_text("#!/bin/bash\nexport PROFILING_MODE=true\npython3 train.py &\necho started\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)])
    assert ("  in the background (&): the launcher goes on without waiting for it"
            in capsys.readouterr().out.splitlines())


def test_exit_in_a_sourced_script_ends_the_launcher_but_not_in_a_child(tmp_path):
    path = _project(tmp_path, "#!/bin/bash\nexport PROFILING_MODE=true\nsource ./quit.sh\npython3 train.py\n",
                    **{"train.py": PLAIN, "quit.sh": "exit 0\n"})
    assert _emulate(path)["answer"]["why"] == "no launch found before the launcher ends at quit.sh:1"
    path.write_text("#!/bin/bash\nexport PROFILING_MODE=true\nbash ./quit.sh\npython3 train.py\n")
    assert _launched(_emulate(path)) == [("train.py", False, "true")]


def test_a_command_after_and_or_or_may_not_run(tmp_path):
    # `cond && exec x`: exec replaces the shell only when cond holds, so the next launch may still run (before:
    # the walk ended there, and neither launch was said to be conditional)
    path = _project(tmp_path, '#!/bin/bash\nexport PROFILING_MODE=true\n[ -n "$X" ] && exec python3 other.py\n'
                              "true || python3 train.py\npython3 train.py\n", **{"train.py": PLAIN, "other.py": PLAIN})
    assert _launched(_emulate(path)) == [("other.py", True, "true"), ("train.py", True, "true"),
                                         ("train.py", False, "true")]


def test_a_group_after_or_is_conditional_and_its_exit_does_not_end_the_walk(tmp_path):
    path = _project(tmp_path, "#!/bin/bash\nexport PROFILING_MODE=true\nstop() {\n  exit 1\n}\n"
                              "[ -f train.py ] || { echo missing; exit 1; }\npython3 train.py\n",
                    **{"train.py": PLAIN})
    assert _launched(_emulate(path)) == [("train.py", False, "true")]


def test_a_subshell_keeps_its_cd_export_and_exit(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.py").write_text(PLAIN)
    path = _project(tmp_path, "#!/bin/bash\n(cd sub; export PROFILING_MODE=true; python3 a.py)\n( exit 0 )\n"
                              "python3 b.py\n", **{"b.py": PLAIN})
    report = _emulate(path)
    # before: b.py was looked for in sub/ (unknown), and it saw PROFILING_MODE=true
    assert _launched(report) == [("sub/a.py", False, "true"), ("b.py", False, None)]
    assert report["launches"][1].info["lines"][1] == (
        f"  runs in {tmp_path}: the launcher's own directory, where it is meant to be started (it sets none with "
        "`cd`; give --cwd for another)")
    assert report["launches"][0].info["lines"][1] == (
        f"  runs in {tmp_path / 'sub'}: a relative `cd` from the launcher's own directory, where it is meant to be "
        "started (give --cwd for another)")


# ---------------------------------------------------------------- the shell's grammar, checked against bash

BAD_MSPROF = "msprof --output=/tmp/ms --aic-metrics=PipeUtilisation python3 train.py"   # fails: NPP122


def _env_of(report, name):
    return (report["launch"]["environment"].get(name) or {}).get("value")


def test_redirections_heredocs_and_arrays_are_not_commands(tmp_path):
    path = _project(tmp_path, "#!/bin/bash\nset -e\nids=(0 1 2)\ncat > notes.txt <<'DOC'\npython3 other.py\n"
                              "export PROFILING_MODE=true\nDOC\n" + BAD_MSPROF + " &> ms.log\npython3 train.py |& tee log\n",
                    **{"train.py": PROFILED, "other.py": PROFILED})
    report = _emulate(path)
    # before: the heredoc's lines were two more commands, `&>` put msprof in the background, and `ids=(` opened a
    # "function" that made every launch after it conditional
    assert [(r.index, r.verdict) for r in report["launches"]] == [(1, "fails"), (2, "not run")]
    first = report["launches"][0].info
    assert (first["background"], first["conditional"], first["command"][-2:]) == (False, False, ["&>", "ms.log"])
    assert report["launches"][0].info["lines"][0] == f"launch: run.sh:8 {BAD_MSPROF}"


def test_set_e_spares_a_failure_that_is_handled_or_piped(tmp_path):
    for line in (BAD_MSPROF + " || echo failed", BAD_MSPROF + " && echo done", BAD_MSPROF + " | tee ms.log",
                 f"( {BAD_MSPROF} ) || echo failed", f"( {BAD_MSPROF} ) &", f"! {BAD_MSPROF}"):
        path = _project(tmp_path, f"#!/bin/bash\nset -e\n{line}\npython3 other.py\n",
                        **{"train.py": PROFILED, "other.py": PROFILED})
        # before: "launch 2 never run" (the launcher was said to stop at the failure)
        assert _verdicts(_emulate(path)) == [(1, "fails"), (2, "collects")], line


def test_a_child_run_by_bash_ignores_its_shebang_options(tmp_path):
    (tmp_path / "child.sh").write_text(f"#!/bin/bash -e\n{BAD_MSPROF}\npython3 other.py\n")
    path = _project(tmp_path, "#!/bin/bash\nbash child.sh\n", **{"train.py": PROFILED, "other.py": PROFILED})
    assert _verdicts(_emulate(path)) == [(1, "fails"), (2, "collects")]
    path.write_text("#!/bin/bash\nbash -e child.sh\n")
    assert _verdicts(_emulate(path)) == [(1, "fails"), (2, "not run")]
    path.write_text("#!/bin/bash\n./child.sh\n")
    assert _verdicts(_emulate(path)) == [(1, "fails"), (2, "not run")]


def test_process_counts_only_when_known(tmp_path):
    path = _project(tmp_path, "#!/bin/bash\nfor ((i=0; i<8; i+=2)); do\n  python3 train.py &\ndone\n",
                    **{"train.py": PLAIN})
    assert _emulate(path)["launch"]["ranks"] == 0         # before: 8
    path.write_text("#!/bin/bash\nfor ((i=0; i<8; i++)); do\n  python3 train.py &\ndone\n")
    assert _emulate(path)["launch"]["ranks"] == 8
    path.write_text("#!/bin/bash\nNP=$(npu-smi info -l | grep -c ID)\nmpirun -np $NP python3 train.py\n")
    assert _emulate(path)["launch"]["ranks"] == 0         # before: 1
    path.write_text("#!/bin/bash\nexport PROFILING_MODE=true\nmpirun -np 8 -x PROFILING_MODE=false python3 train.py\n")
    report = _emulate(path)
    assert (report["launch"]["ranks"], _env_of(report, "PROFILING_MODE")) == (8, "false")


def test_assignments_as_bash_makes_them(tmp_path):
    cases = [
        # declare keeps the export attribute; += appends; a backslash-newline inside double quotes is removed;
        # inline assignments are made left to right
        ("export PROFILING_MODE=true\ndeclare PROFILING_MODE=false\n", "PROFILING_MODE", "false"),
        ("export PROFILING_OPTIONS='{\"output\":\"/tmp/p\"'\nPROFILING_OPTIONS+=',\"task_trace\":\"on\"}'\n",
         "PROFILING_OPTIONS", '{"output":"/tmp/p","task_trace":"on"}'),
        ('export PROFILING_OPTIONS="{\\"output\\":\\"/tmp/p\\",\\\n\\"task_trace\\":\\"on\\"}"\n',
         "PROFILING_OPTIONS", '{"output":"/tmp/p","task_trace":"on"}'),
    ]
    for text, name, value in cases:
        path = _project(tmp_path, f"#!/bin/bash\n{text}python3 train.py\n", **{"train.py": PLAIN})
        assert _env_of(_emulate(path), name) == value, text
    path.write_text("#!/bin/bash\nOUT=/old\nOUT=/new PROFILING_OPTIONS=\"$OUT\" python3 train.py\n")
    assert _env_of(_emulate(path), "PROFILING_OPTIONS") == "/new"


def test_return_in_a_sourced_script_and_export_n(tmp_path):
    (tmp_path / "env.sh").write_text('if [ -z "$NIGHTLY" ]; then return 0; fi\n'
                                     "export PROFILING_OPTIONS='{\"output\":\"/tmp/p\"}'\n")
    path = _project(tmp_path, "#!/bin/bash\nsource ./env.sh\npython3 train.py\n", **{"train.py": PLAIN})
    assert _env_of(_emulate(path), "PROFILING_OPTIONS") == HOLE             # before: set for certain
    (tmp_path / "env.sh").write_text("return 0\nexport PROFILING_OPTIONS='{\"output\":\"/tmp/p\"}'\n")
    assert _env_of(_emulate(path), "PROFILING_OPTIONS") is None
    # `export -n` takes the export away whatever the caller's environment held (bash 5.2, PROFILING_MODE=x in the
    # caller's: env showed none); it was "set without export", which the caller's export would pass on
    path.write_text("#!/bin/bash\nexport PROFILING_MODE=true\nexport -n PROFILING_MODE\npython3 train.py\n")
    assert "PROFILING_MODE" not in _emulate(path)["launch"]["environment"]


def test_a_launcher_without_a_launch_it_can_follow_is_unknown(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path.parent)
    path = _project(tmp_path, "#!/bin/bash\nexport PROFILING_MODE=true\n"
                              "export PROFILING_OPTIONS='{\"output\":\"./prof\",\"task_trace\":\"on\"}'\n"
                              'CMD="python3 train.py"\n"$CMD"\n', **{"train.py": PLAIN})
    report = _emulate(path)
    # before: "usable data: yes", with the output resolved against the directory emulate ran in
    assert report["usable"] is None
    assert report["answer"]["why"] == "the launcher starts no python3 script or msprof run that emulate can follow"
    assert report["results"][0].output_dir == str(tmp_path / "prof")
    # unquoted, bash splits $CMD into `python3 train.py` and runs it (tests/test_field_splitting.py): followed
    path.write_text(path.read_text().replace('"$CMD"', "$CMD"))
    assert _emulate(path)["launch"]["script"] == "train.py"


# ---------------------------------------------------------------- a second review pass (against bash, as above)

def _launches(tmp_path, launcher, **scripts):
    path = _project(tmp_path, launcher, **{"train.py": PLAIN, "other.py": PROFILED, **scripts})
    report = _emulate(path)
    infos = [r.info for r in report["launches"]] if report.get("launches") else \
        ([report["launch"]] if report["launch"].get("command") else [])
    return report, [(i["script"], i["ranks"]) for i in infos]


def test_parentheses_that_close_no_subshell(tmp_path):
    (tmp_path / "sub").mkdir()
    for text in ('(\ncase "$1" in\n*) cd sub ;;\nesac\n)\n',                       # a case pattern's `)`
                 '( if [[ "$1" =~ ^(a|b)$ ]]; then echo hi; fi; cd sub )\n'):        # a regex's in [[ ]]
        report, found = _launches(tmp_path, f"#!/bin/bash\n{text}python3 other.py\n")
        assert found == [("other.py", 1)] and report["cwd"] == str(tmp_path), text
    for text in ('DEV=$(case "$1" in 1p) echo 0;; *) exit 1;; esac)\n', 'R=$(echo ")"; exit 0)\n',
                 "USAGE=$(cat <<'END'\n 2) python3 train.py\nEND\n)\n", "(( n = 1 << 2 ))\n",
                 "cat <<- EOF\n\tpython3 train.py\n\tEOF\n", "cat <<EOF>cfg.json\npython3 train.py\nEOF\n",
                 "ids=( 0 1 # the dev's ids\n2 3 )\n"):
        # before: an exit or a launch read inside a substitution, a heredoc or an array, or the rest swallowed
        assert _launches(tmp_path, f"#!/bin/bash\n{text}python3 other.py\n")[1] == [("other.py", 1)], text


def test_exits_that_may_not_run_and_loops_they_cut_short(tmp_path):
    for text in ("function die {\n  exit 1\n}\n", 'for a in "$@"; do exit 1; done\n', "f() ( exit 1 )\n"):
        assert _launches(tmp_path, f"#!/bin/bash\n{text}python3 other.py\n")[1] == [("other.py", 1)], text
    _, found = _launches(tmp_path, "#!/bin/bash\nfor i in 0 1 2 3; do\n  python3 other.py\n  exit 0\ndone\n")
    assert found == [("other.py", 0)]                   # before: started 4 times; bash starts it once
    report, found = _launches(tmp_path, "#!/bin/bash\n{ echo start; exit 0; }\npython3 other.py\n")
    assert found == [] and report["answer"]["why"] == "no launch found before the launcher ends at run.sh:2"
    assert _launches(tmp_path, "#!/bin/bash\n{ echo start; exit 0; } | tee log\npython3 other.py\n")[1] == \
        [("other.py", 1)]


def test_set_e_with_blocks_pipefail_and_failing_exits(tmp_path):
    for line in (f"( {BAD_MSPROF}; python3 other.py ) || echo failed", f"( {BAD_MSPROF} ) > log 2>&1 &",
                 f"{{ {BAD_MSPROF}; }} || true", f"{{ {BAD_MSPROF}; }} &", f"( {BAD_MSPROF} ) 2>&1 | tee log"):
        path = _project(tmp_path, f"#!/bin/bash\nset -e\n{line}\npython3 other.py\n",
                        **{"train.py": PROFILED, "other.py": PROFILED})
        assert "not run" not in [v for _, v in _verdicts(_emulate(path))], line
    path.write_text(f"#!/bin/bash\nset -eo pipefail\n{BAD_MSPROF} 2>&1 | tee log\npython3 other.py\n")
    assert _verdicts(_emulate(path)) == [(1, "fails"), (2, "not run")]
    for text, where in (("( cd sub; exit 1 )\n", "run.sh:3"), ("bash ./child.sh\n", "run.sh:3")):
        (tmp_path / "child.sh").write_text("exit 1\n")
        report, found = _launches(tmp_path, f"#!/bin/bash\nset -e\n{text}python3 other.py\n")
        assert found == [] and report["answer"]["why"] == f"no launch found before the launcher ends at {where}"


def test_a_launcher_with_windows_line_endings_is_unknown(tmp_path, capsys):
    path = _project(tmp_path, "", **{"train.py": PLAIN})
    path.write_bytes(b"#!/bin/bash\r\nexport PROFILING_MODE=true\r\npython3 train.py\r\n")
    report = _emulate(path)
    # before: "usable data: yes"; bash runs `python3 'train.py\r'` with PROFILING_MODE='true\r'
    assert report["usable"] is None and report["answer"]["why"].startswith(
        "run.sh has Windows line endings (CRLF): bash keeps a carriage return at the end of every line")
    main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)])
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "launch: run.sh:3 python3 train.py" and out[2].startswith("  ! run.sh has Windows line endings")


def test_a_word_that_does_not_print_is_shown_as_bash_reads_it_back(tmp_path, capsys):
    # `python3 train.py \` on a CRLF line: the backslash quotes the CR, so bash gives train.py one more argument, a
    # lone CR (bash 5.2: `printf '%q' "$2"` prints $'\r'); in plain quotes it showed as `''`
    path = _project(tmp_path, "", **{"train.py": PLAIN})
    path.write_bytes(b"#!/bin/bash\r\npython3 train.py \\\r\n  --lr 1\r\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)])
    assert capsys.readouterr().out.splitlines()[1] == "launch: run.sh:2 python3 train.py $'\\r'"
    path.write_text("#!/bin/bash\npython3 train.py \"it's\" \"a\tb\" \"\x01\" \"\u0085\" $'\\x01'\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)])
    assert capsys.readouterr().out.splitlines()[1] == \
        "launch: run.sh:2 python3 train.py 'it'\"'\"'s' $'a\\tb' $'\\x01' $'\\u0085' '<unknown>\\x01'"


def test_a_launcher_that_ends_first_says_which_branch_ended_it(tmp_path):
    # bash 5.2, `bash run.sh` with no argument: each launcher below prints its line and exits before python3 runs
    def why(body, args=()):
        path = _project(tmp_path, "#!/bin/bash\nfor p in $*; do\n  case $p in\n    --data_path=*) data_path=${p#*=};;\n"
                        f"  esac\ndone\n{body}python3 train.py\n", **{"train.py": PLAIN})
        return _emulate(path, launcher_args=list(args))["answer"]["why"]
    ends = "no launch found before the launcher ends at run.sh:"
    # the usage line goes to stderr (`>&2`), which the user sees; the log line does not, and one more is counted
    assert why('if [ $# -lt 2 ]; then\n  echo "x" > log.txt\n  echo "Usage: bash run.sh DATA" >&2\n  echo more\n'
               '  exit 1\nfi\n') == (f"{ends}11: `if [ $# -lt 2 ]` (run.sh:7) holds in this launch; it prints "
                                     "`Usage: bash run.sh DATA` and 1 more line(s)")
    # echo's options are not printed; a printf's output is its format's, not its words: not said
    assert why('if [ $# -lt 2 ]; then\n  printf "need %s\\n" DATA\n  echo -e "Usage:" DATA\n  exit 1\nfi\n') == \
        f"{ends}10: `if [ $# -lt 2 ]` (run.sh:7) holds in this launch; it prints `Usage: DATA`"
    # an `elif`, and the option (a `case` pattern) that sets what its condition reads
    assert why('data_path=""\nif [ $# -gt 3 ]; then :\nelif [[ $data_path == "" ]]; then echo "no data"; exit 2\nfi\n',
               ["--x"]) == (f"{ends}9: `elif [[ $data_path == \"\" ]]` (run.sh:9) holds in this launch; it prints "
                            "`no data`; --data_path=VALUE on the launcher sets what the condition reads")
    # an `else`; ifs inside ifs, each named
    assert why('data_path=""\nif [ -n "$data_path" ]; then :; else\n  exit 1\nfi\n') == \
        f"{ends}9: `else` (run.sh:8) runs in this launch"
    assert why('if [ $# -eq 1 ]; then\n if [ "$1" == "-h" ]; then\n  exit 0\n fi\nfi\n', ["-h"]) == \
        f"{ends}9: `if [ $# -eq 1 ]` (run.sh:7), then `if [ \"$1\" == \"-h\" ]` (run.sh:8) holds in this launch"
    # not in a branch the walk decided: where alone, as before
    assert why("exit 1\n") == f"{ends}7"


def test_an_and_or_list_of_tests_is_decided(tmp_path):
    # mindspore-ai/models' launchers: `if [ $# != 2 ] && [ $# != 3 ]` (226 lines); bash 5.2 reads && and || alike,
    # left to right, and runs the branch with no argument; before, the walk left a list undecided, and the launches
    # in `if [ $# == 2 ]` branches below made the answer "it starts no Python script"
    def why(cond, args):
        path = _project(tmp_path, f"#!/bin/bash\nif {cond}\nthen\n  echo usage\n  exit 1\nfi\npython3 train.py\n",
                        **{"train.py": PLAIN})
        return _emulate(path, launcher_args=list(args))["answer"]["why"]
    ends = "no launch found before the launcher ends at run.sh:5: `if {}` (run.sh:2) holds in this launch; it prints " \
        "`usage`"
    for cond, args in (("[ $# != 2 ] && [ $# != 3 ]", []), ("[ $# -lt 1 ] || [ \"$1\" == \"-h\" ]", ["-h"]),
                       ("[ $# -lt 1 ] || [[ $1 == -h ]] && test -z \"\"", ["-h"]),
                       # the second test's value is not known, and not needed
                       ("[ $# == 0 ] || [ -n \"$UNSET\" ]", [])):
        assert why(cond, args) == ends.format(cond), cond
    for cond, args in (("[ $# != 2 ] && [ $# != 3 ]", ["a", "b"]), ("[ $# -lt 1 ] || [ \"$1\" == \"-h\" ]", ["x"]),
                       ("[ $# != 2 ] && [ -n \"$UNSET\" ]", ["a", "b"])):
        assert not why(cond, args).startswith("no launch found"), cond
    # not known: a value the walk does not know where it counts, a command that is not a test
    for cond in ("[ $# != 2 ] && [ -n \"$UNSET\" ]", "[ $# != 2 ] && cd /tmp"):
        path = tmp_path / "run.sh"
        path.write_text(f"#!/bin/bash\nif {cond}\nthen\n  exit 1\nfi\npython3 train.py\n")
        assert _emulate(path, launcher_args=[])["launch"]["command"][:2] == ["python3", "train.py"], cond


def test_a_third_review_pass(tmp_path):
    (tmp_path / "sub").mkdir()
    # a handled subshell exit does not stop the launcher; a word `case` or `$((1<<3))` inside $( ) is no keyword
    # or heredoc, nor a comment's `(` (each swallowed the rest of the file, or ended the walk)
    for text in ("set -e\n( exit 1 ) || true\n", "set -e\n( cd sub; exit 1 ) && echo hi\n", "set -e\n( exit 1 ) &\n",
                 "n=$(echo use case)\n", "n=$(echo lower-case)\n", "mask=$((1<<3))\n", "n=$(ls # a comment (\n)\n"):
        assert _launches(tmp_path, f"#!/bin/bash\n{text}python3 other.py\n")[1] == [("other.py", 1)], text
    # a group in the background or piped runs in a subshell: its cd stays there
    report, found = _launches(tmp_path, "#!/bin/bash\n{ cd sub; echo; } > log 2>&1 &\nwait\npython3 other.py\n")
    assert found == [("other.py", 1)] and report["cwd"] == str(tmp_path)
    # a failure inside a piped group stops that subshell, not the launcher (no pipefail)
    path = _project(tmp_path, f"#!/bin/bash\nset -e\n{{ {BAD_MSPROF}; echo after; }} | tee log\npython3 other.py\n",
                    **{"train.py": PROFILED, "other.py": PROFILED})
    assert _verdicts(_emulate(path)) == [(1, "fails"), (2, "collects")]


def test_deeply_nested_substitutions_cost_no_recursion(tmp_path):
    # `"$(echo "$(echo ...)")"` 3,000 deep: the scanner recursed once per level (RecursionError, an internal error
    # for the whole run); one pass with a stack of what is open reads it
    deep = 'x="$(echo ' * 3000 + "a" + ')"' * 3000
    assert _launches(tmp_path, f"#!/bin/bash\n{deep}\npython3 other.py\n")[1] == [("other.py", 1)]


# ---------------------------------------------------------------- review item 4: a profiler emulate does not model

TORCH_NPU = ("import torch_npu\n\n\ndef main():\n    prof = torch_npu.profiler.profile(\n"
             "        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./prof'))\n"
             "    prof.start()\n    prof.step()\n    prof.stop()\n\n\nif __name__ == '__main__':\n    main()\n")


def test_a_torch_npu_script_through_a_launcher_is_replayed_as_it_is_run_directly(tmp_path, capsys):
    path = _project(tmp_path, "#!/bin/bash\npython3 train.py\n", **{"train.py": TORCH_NPU})
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "7.3", "--cwd", str(tmp_path),
                 str(tmp_path / "train.py")]) == 0
    assert capsys.readouterr().out.splitlines()[1] == f"train.py:5 profile: COLLECTS from step 0 into {tmp_path}/prof"
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "7.3", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    # before: "train.py: torch_npu.profiler is not replayed by emulate yet", and "usable data: unknown"
    assert out[1:5] == [
        "launch: run.sh:2 python3 train.py",
        f"  runs in {tmp_path}: the launcher's own directory, where it is meant to be started (it sets none with "
        "`cd`; give --cwd for another)",
        "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)",
        "usable data: yes"]
    assert not any("no profiling setup found" in ln for ln in out)


def test_a_launchers_profiling_mode_turns_torch_npu_26_1_off(tmp_path, capsys):
    path = _project(tmp_path, "#!/bin/bash\nexport PROFILING_MODE=false\npython3 train.py\n", **{"train.py": TORCH_NPU})
    assert main(["emulate", "--cann", "8.5", "--torch-npu", "26.1", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    why = ("line 5: PROFILING_MODE is set by the launcher (export at run.sh:2): torch_npu 26.1+ turns every profiler "
           "call into a no-op")
    assert [ln for ln in out if ln.startswith(("train.py", "usable"))] == [
        f"train.py: torch_npu's profiler is off: {why}",
        f"usable data: no ({why.replace('line 5', 'line 5 of train.py')})"]    # (the launcher's answer names the script)
    # 7.3 does not read it: GE's PROFILING_MODE is not this script's business
    assert main(["emulate", "--cann", "8.5", "--torch-npu", "7.3", str(path)]) == 0
    assert "usable data: yes" in capsys.readouterr().out.splitlines()


def test_the_replay_says_where_each_variable_of_a_launchs_environment_was_set(tmp_path, capsys, monkeypatch):
    # the caller's environment (--env) and the launcher's export each name their own origin in the replay's why
    from flake8_npuprof.emulate.environment import GIVEN, Environment
    env = Environment({"PROFILING_MODE": "false", "ASCEND_WORK_PATH": "/w"}, {"PROFILING_MODE": "by the launcher"})
    assert (dict(env), env.origin("PROFILING_MODE"), env.origin("ASCEND_WORK_PATH")) == (
        {"PROFILING_MODE": "false", "ASCEND_WORK_PATH": "/w"}, "by the launcher", GIVEN)
    path = _project(tmp_path, "#!/bin/bash\npython3 train.py\n", **{"train.py": TORCH_NPU})
    monkeypatch.setenv("PROFILING_MODE", "false")
    assert main(["emulate", "--env", "--cann", "8.5", "--torch-npu", "26.1", str(path)]) == 1
    why = ("line 5: PROFILING_MODE is set in this environment (--env): torch_npu 26.1+ turns every profiler call "
           "into a no-op")
    assert f"usable data: no ({why.replace('line 5', 'line 5 of train.py')})" in capsys.readouterr().out.splitlines()
    path.write_text("#!/bin/bash\nexport PROFILING_MODE=0\npython3 train.py\n")
    assert main(["emulate", "--env", "--cann", "8.5", "--torch-npu", "26.1", str(path)]) == 1
    why = ("line 5: PROFILING_MODE is set by the launcher (export at run.sh:2): torch_npu 26.1+ turns every profiler "
           "call into a no-op")
    assert f"usable data: no ({why.replace('line 5', 'line 5 of train.py')})" in capsys.readouterr().out.splitlines()


def test_a_script_whose_imported_module_profiles_is_not_said_to_collect_nothing(tmp_path, capsys):
    path = _project(tmp_path, "#!/bin/bash\npython3 train.py\n",
                    **{"train.py": "import prof_lib\n\nif __name__ == '__main__':\n    prof_lib.go()\n",
                       "prof_lib.py": "import os\n\n\ndef go():\n    os.environ['PROFILING_MODE'] = 'true'\n"})
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    # the module's setup is emulated (emulate/imported.py): PROFILING_MODE=true without options, which this
    # version's GE reads in a way no source shows
    assert out[3:5] == [
        "prof_lib.py:5 env: UNKNOWN: PROFILING_MODE=true with empty PROFILING_OPTIONS in the environment (taken as "
        "empty without --env): no source shows whether the GE of CANN 8.0 substitutes default options or leaves "
        "profiling off", "usable data: unknown (line 5 env: no source for this version's GE)"]



# ---------------------------------------------------------------- review item 8: the summary agrees with the launches

def test_a_launch_that_never_runs_its_script_leaves_no_data_and_a_later_one_that_collects_is_usable(tmp_path, capsys):
    """bash goes on after a failed command without `set -e`: the second msprof run happens and collects."""
    path = _project(tmp_path, "#!/bin/bash\nmsprof --output=/tmp/prof python3 --task_time=l1 train.py\n"
                              "msprof --output=/tmp/prof2 python3 train.py\n", **{"train.py": PLAIN})
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "  this launch: collects: task_trace, aic_metrics into /tmp/prof2 (msprof options)" in out
    # before: "profiling data from: launch 1 (run.sh:2), launch 2 (run.sh:3)", then "usable data: no (launch 1 ...)"
    at = out.index("profiling data from: launch 2 (run.sh:3)")
    assert out[at + 1].startswith(
        "usable data: yes (from launch 2 at run.sh:3: the launcher goes on after launch 1 of 2 at run.sh:2, which "
        "fails: NPP128 --task_time=l1 comes after python3, where the application's words begin: python3 reads it as "
        "an option of its own before its script and exits with status 2")
    # what the summary relies on: bash runs the next line after a failing one when `set -e` is not given
    bash = shutil.which("bash")
    if bash is not None:
        r = subprocess.run([bash, "-c", "false\necho next ran"], capture_output=True, text=True)
        assert r.stdout == "next ran\n"
        r = subprocess.run([bash, "-c", "set -e\nfalse\necho next ran"], capture_output=True, text=True)
        assert r.returncode == 1 and r.stdout == ""


def test_a_failing_launch_alone_leaves_no_data(tmp_path, capsys):
    path = _project(tmp_path, "#!/bin/bash\nmsprof --output=/tmp/prof python3 --task_time=l1 train.py\n"
                              "python3 train.py\n", **{"train.py": PLAIN})
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "profiling data from: no launch (none that switches profiling on collects)" in out
    assert any(ln.startswith("usable data: no (launch 1 of 2 at run.sh:2: fails: NPP128") for ln in out)


# ---------------------------------------------------------------- a setup in a module the script imports

ABSL_SCRIPT = ("from absl import app, flags\n\nimport npu_session\n\n"
               "flags.DEFINE_boolean('profiling', False, 'collect a profile')\nFLAGS = flags.FLAGS\n\n\n"
               "def main(_):\n    sess = npu_session.open_session()\n    sess.run(None)\n\n\n"
               "if __name__ == '__main__':\n    app.run(main)\n")
# the absl flag is defined in train.py and read in npu_session.py (one registry per process)
ABSL_MODULE = ("import tensorflow as tf\nfrom absl import flags\nfrom npu_bridge.npu_init import *\n\n"
               "FLAGS = flags.FLAGS\n\n\ndef open_session():\n    config = tf.ConfigProto()\n"
               "    op = config.graph_options.rewrite_options.custom_optimizers.add()\n    op.name = 'NpuOptimizer'\n"
               "    if FLAGS.profiling:\n        op.parameter_map['profiling_mode'].b = True\n"
               "        op.parameter_map['profiling_options'].s = tf.compat.as_bytes('{\"output\": \"/tmp/prof\", "
               "\"task_trace\": \"on\"}')\n    return tf.Session(config=config)\n")


def test_a_setup_in_an_imported_module_is_emulated_with_the_launch_s_flags(tmp_path, capsys):
    """GNMT's shape (ModelZoo-TensorFlow): nmt.py imports estimator.py, whose function builds the setup."""
    path = _project(tmp_path, "#!/bin/bash\npython3 train.py \"$@\"\n",
                    **{"train.py": ABSL_SCRIPT, "npu_session.py": ABSL_MODULE})
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(path), "--", "--profiling=True"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[3:6] == ["  npu_session.py: `FLAGS.profiling` is true in this launch (--profiling=True from run.sh:2)",
                        "npu_session.py:13 NpuOptimizer: COLLECTS task_trace into /tmp/prof",
                        "preflight: ok (/tmp/prof can be created)"]
    assert out[6] == "usable data: yes; afterwards run: msprof --export=on --output=/tmp/prof/PROF_*"
    report = _emulate(path, launcher_args=[])       # no argument: the flag keeps its default
    why = ("npu_session.py, which train.py imports: line 13 of npu_session.py: not run in this launch: `FLAGS.profiling` is false in "
           "this launch (the default of --profiling, which the launcher does not pass): the adapter forwards "
           "profiling off, so GE falls back to PROFILING_MODE/PROFILING_OPTIONS (profiling_mode=False does not switch "
           "off profiling enabled there)")
    assert report["usable"] is False and report["answer"]["why"] == why
    assert [r.verdict for r in report["launches"]] == ["no profiling"]


def test_an_imported_setup_the_launch_does_not_decide_is_unknown_and_says_why(tmp_path):
    # an argparse namespace handed to the module's function is a parameter there: its test is decided only where the
    # script's calls are shown to hand it parse_args()'s result (values/passed_args.py), else not guessed
    module = ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n\ndef open_session(args):\n"
              "    config = tf.ConfigProto()\n    op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
              "    op.name = 'NpuOptimizer'\n    if args.profiling == 'True':\n"
              "        op.parameter_map['profiling_mode'].b = True\n"
              "        op.parameter_map['profiling_options'].s = tf.compat.as_bytes('{\"output\": \"/tmp/prof\", "
              "\"task_trace\": \"on\"}')\n    return tf.Session(config=config)\n\n\n"
              "if __name__ == '__main__':\n    cfg = ProfilingConfig(enable_profiling=True, profiling_options='{}')\n")
    script = ("import argparse\n\nimport npu_session\n\nparser = argparse.ArgumentParser()\n"
              "parser.add_argument('--profiling', default='False')\nargs = parser.parse_args()\n"
              "if args.profiling != 'skip':\n    sess = npu_session.open_session(args)\n")
    path = _project(tmp_path, "#!/bin/bash\npython3 train.py --profiling=True\n",
                    **{"train.py": script, "npu_session.py": module})
    report = _emulate(path)
    assert report["usable"] is True and [r.setup.line for r in report["results"]] == [10]
    (tmp_path / "train.py").write_text(script.replace("open_session(args)", "open_session(load())"))
    report = _emulate(path)
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:2: npu_session.py, which train.py imports: line 10 of npu_session.py NpuOptimizer collects when `args.profiling == "
        "'True'` (task_trace into /tmp/prof); whether that holds in this launch is not known here: line 9 of train.py "
        "calls open_session() with a args that is not parse_args()'s result")
    # the launch's flag decides the script's own `if` on the way (`args.profiling != 'skip'`: no condition left);
    # the module's main-guarded ProfilingConfig never runs on import
    assert [r.setup.line for r in report["results"]] == [10]
    # a function the script does not name itself: whether it runs is not known (never "no")
    (tmp_path / "train.py").write_text("import npu_session\n\nsess = npu_session.helper()\n")
    helper = "def open_session(args):\n    pass\n\n\ndef helper():\n    return open_session(None)\n\n\ndef unused(args):"
    (tmp_path / "npu_session.py").write_text(module.replace("def open_session(args):", helper))
    report = _emulate(path)
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:2: npu_session.py, which train.py imports: line 18 of npu_session.py NpuOptimizer: train.py does not name unused of "
        "npu_session.py itself (other code may call it), so whether this code runs is not known here (if it runs: "
        "collects when `args.profiling == 'True'`: task_trace into /tmp/prof)")


SESSION_MODULE = ("import tensorflow as tf\nfrom npu_bridge.estimator.npu.npu_config import ProfilingConfig\n\n\n"
                  "class CreateSession():\n    def __init__(self):\n        self.config = tf.ConfigProto()\n"
                  "        opts = '{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"
                  "        self.profiling_config = ProfilingConfig(enable_profiling=True, profiling_options=opts)\n")
SESSION_SCRIPT = ("from npu_bridge.estimator.npu.npu_config import NPURunConfig\nfrom npu_bridge.estimator.npu.npu_estimator "
                  "import NPUEstimator\n\nimport create_session as cs\n\n\ndef main():\n    session = cs.CreateSession()\n"
                  "    run_config = NPURunConfig(session_config=session.config)\n"
                  "    NPUEstimator(model_fn=None, config=run_config).train(input_fn=None)\n\n\n"
                  "if __name__ == '__main__':\n    main()\n")


def test_a_config_a_module_stores_and_no_code_of_the_job_reads_is_never_handed_to_ge(tmp_path):
    # VGG16 (ModelZoo-TensorFlow): create_session.py keeps a ProfilingConfig as self.profiling_config, and train.py
    # hands NPURunConfig only session.estimator_config. It said "MAY COLLECT ... the file does not show whether GE
    # reads this config"
    path = _project(tmp_path, "#!/bin/bash\npython3 train.py\n",
                    **{"train.py": SESSION_SCRIPT, "create_session.py": SESSION_MODULE})
    report = _emulate(path)
    assert report["usable"] is False and report["answer"]["why"] == (
        "create_session.py, which train.py imports: line 9 of create_session.py: stored as `self.profiling_config`, which no code of the job "
        "reads again (train.py and the 1 project module it imports): nothing hands it to GE")
    # read again anywhere in the job (or read by a computed name): not known, as before
    for read in ("profiling_config=session.profiling_config", "**vars(session)"):
        (tmp_path / "train.py").write_text(SESSION_SCRIPT.replace("session_config=session.config", read))
        report = _emulate(path)
        assert report["usable"] is None and "no code of the job reads again" not in report["answer"]["why"], read
    # ... or read by a module the job loads by name (python runs reader.py's `session.profiling_config`), or by a
    # computed name from an object a call returns
    (tmp_path / "reader.py").write_text("def kwargs(session):\n    return dict(session_config=session.config, "
                                        "profiling_config=session.profiling_config)\n")
    for read in ("**importlib.import_module('reader').kwargs(session)", "**__import__('reader').kwargs(session)",
                 "session_config=getattr(cs.CreateSession(), KEY)"):
        (tmp_path / "train.py").write_text("import importlib\n" + SESSION_SCRIPT.replace(
            "session_config=session.config", read))
        report = _emulate(path)
        assert report["usable"] is None and "no code of the job reads again" not in report["answer"]["why"], read


def test_a_setup_function_the_module_calls_at_its_own_top_level_runs_on_import(tmp_path):
    # Word2vec (ModelZoo-TensorFlow2): config.py parses the flags, defines npu_config() and calls it at its top
    # level; main.py only imports config. It said "main.py does not name npu_config of config.py itself (other code
    # may call it), so whether this code runs is not known here"
    module = ("import argparse\nimport ast\nimport npu_device\n\nparser = argparse.ArgumentParser()\n"
              "parser.add_argument('--profiling', dest='profiling', type=ast.literal_eval)\n"
              "args = parser.parse_args()\n\n\ndef npu_config():\n    if args.profiling:\n"
              "        npu_device.global_options().profiling_config.enable_profiling = True\n"
              "        npu_device.global_options().profiling_config.profiling_options = "
              "'{\"output\": \"/tmp/prof\", \"task_trace\": \"on\"}'\n    npu_device.open().as_default()\n\n\n"
              "npu_config()\n")
    path = _project(tmp_path, "#!/bin/bash\npython3 main.py \"$@\"\n",
                    **{"main.py": "from config import args\n\nprint(args)\n", "config.py": module})
    report = _emulate(path, launcher_args=["--profiling=True"])
    assert report["usable"] is True and [r.setup.line for r in report["results"]] == [12]
    report = _emulate(path, launcher_args=["--profiling=False"])
    assert report["usable"] is False and report["answer"]["why"].startswith(
        "config.py, which main.py imports: line 12 of config.py: not run in this launch: `args.profiling` is false in this launch "
        "(--profiling=False from run.sh:2)")
    # under `if`, or in a module reading absl's FLAGS (unparsed on import): as before, not known
    for text in (module.replace("\nnpu_config()\n", "\nif args:\n    npu_config()\n"),
                 module.replace("import ast\n", "import ast\nfrom absl import flags\nFLAGS = flags.FLAGS\n")):
        (tmp_path / "config.py").write_text(text)
        report = _emulate(path, launcher_args=["--profiling=True"])
        assert report["usable"] is None and "main.py does not name npu_config of config.py itself (other code may " \
            "call it)" in report["answer"]["why"]


def test_an_imported_module_is_found_on_the_launch_s_pythonpath_from_where_it_runs(tmp_path, capsys, monkeypatch):
    """`export PYTHONPATH=./lib` is ./lib of the directory the launch runs in (--cwd proj), as Python makes it
    absolute; emulate looked for npu_session only where train.py is and above, and said "no profiling setup found",
    "usable data: no (no launch switches profiling on)"."""
    (tmp_path / "proj" / "scripts").mkdir(parents=True)
    (tmp_path / "proj" / "lib").mkdir()
    (tmp_path / "proj" / "train.py").write_text(ABSL_SCRIPT)
    (tmp_path / "proj" / "lib" / "npu_session.py").write_text(ABSL_MODULE)
    (tmp_path / "proj" / "scripts" / "run.sh").write_text('#!/bin/bash\nexport PYTHONPATH=./lib:$PYTHONPATH\n'
                                                          'python3 train.py "$@"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", "--cwd", "proj", "--", "bash", "scripts/run.sh",
                 "--profiling=True"]) == 0
    assert capsys.readouterr().out.splitlines()[1:6] == [
        "launch: run.sh:3 python3 train.py --profiling=True",
        "  npu_session.py: `FLAGS.profiling` is true in this launch (--profiling=True from run.sh:3)",
        "npu_session.py:13 NpuOptimizer: COLLECTS task_trace into /tmp/prof",
        "preflight: ok (/tmp/prof can be created)",
        "usable data: yes; afterwards run: msprof --export=on --output=/tmp/prof/PROF_*"]
    # the same entry from another directory names another folder: lib/ is not there, nothing is imported from it
    (tmp_path / "proj" / "scripts" / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\n'
                                                          'export PYTHONPATH=./lib:$PYTHONPATH\n'
                                                          'python3 ../train.py "$@"\n')
    report = emulate_path(str(tmp_path / "proj" / "scripts" / "run.sh"), T, environ={}, launcher_args=[
        "--profiling=True"])
    assert report["usable"] is False and report["launches"][0].verdict == "no profiling"
    from flake8_npuprof.emulate.sys_path import launch_path
    assert launch_path(report["launches"][0].launch) == (str(tmp_path / "proj"), str(tmp_path / "proj" / "scripts"
                                                                                      / "lib"))


def test_a_module_s_own_import_is_found_on_the_launch_s_sys_path_first(tmp_path):
    # models/net.py's `import npu_session` is train.py's folder's npu_session.py (sys.path[0]), not models/'s own
    (tmp_path / "models").mkdir()
    path = _project(tmp_path, "#!/bin/bash\npython3 train.py \"$@\"\n",
                    **{"train.py": ABSL_SCRIPT.replace("import npu_session\n", "from models import net\n")
                       .replace("npu_session.open_session()", "net.build()"),
                       "npu_session.py": ABSL_MODULE,
                       "models/__init__.py": "", "models/npu_session.py": "def open_session():\n    return None\n",
                       "models/net.py": "import npu_session\n\n\ndef build():\n"
                                        "    return npu_session.open_session()\n"})
    report = _emulate(path, launcher_args=["--profiling=True"])
    # found, and said as not followed through another module (it said "no profiling": models/npu_session.py)
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:2: npu_session.py, which train.py imports: line 13 of npu_session.py NpuOptimizer: train.py does not name "
        "open_session of npu_session.py itself (other code may call it), so whether this code runs is not known "
        "here (if it runs: collects: task_trace into /tmp/prof)")


def test_a_script_emulated_itself_is_followed_into_its_imports_as_its_launch_is(tmp_path, capsys):
    """`emulate train.py` said "train.py: no profiling setup found: a run collects no profiling data", "usable
    data: no", where a launcher's launch of it follows npu_session.py (VGG16's shape in ModelZoo-TensorFlow)."""
    path = _project(tmp_path, '#!/bin/bash\npython3 train.py "$@"\n',
                    **{"train.py": ABSL_SCRIPT, "npu_session.py": ABSL_MODULE})
    why = ("npu_session.py, which train.py imports: line 13 of npu_session.py NpuOptimizer collects when `FLAGS.profiling` (task_trace "
           "into /tmp/prof); whether that holds in this launch is not known here")
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(tmp_path / "train.py")]) == 1
    assert capsys.readouterr().out.splitlines()[1:4] == [
        f"npu_session.py:13 NpuOptimizer: COLLECTS task_trace into /tmp/prof (when FLAGS.profiling) — unknown: {why}",
        "preflight: ok (/tmp/prof can be created)",
        f"usable data: unknown ({why}); afterwards run: msprof --export=on --output=/tmp/prof/PROF_*"]
    # the launcher's launch of it, its arguments not known, says the same
    report = _emulate(path)
    assert report["usable"] is None and report["answer"]["why"] == f"run.sh:2: {why}"
    report = _emulate(tmp_path / "train.py")
    assert (report["usable"], report["answer"]["why"]) == (None, why)
    # a module it imports that profiles another way: unknown, as for its launch (test below)
    (tmp_path / "npu_session.py").write_text("import torch\n\n\ndef open_session():\n"
                                             "    with torch.profiler.profile():\n        pass\n")
    report = _emulate(tmp_path / "train.py")
    assert (report["usable"], report["unmodelled"]) == (None, (
        "train.py has no profiling setup of its own, but npu_session.py, which it imports, names one "
        "(line 5: `with torch.profiler.profile():`): a setup in a "
        "module it imports is not emulated here"))
    # no "(emulate that module)": emulated alone, a module with an entry point of its own runs only that, which never
    # calls open_session; a user following that advice got "usable data: no" (MindSpeed-MM's tools/profiler.py: "OFF:
    # not reached from this file's entry point")
    (tmp_path / "npu_session.py").write_text(
        "import torch_npu\n\n\ndef open_session():\n"
        "    prof = torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p'))\n"
        "    prof.start()\n    prof.stop()\n\n\nif __name__ == '__main__':\n    print('a tool')\n")
    assert _emulate(tmp_path / "npu_session.py")["usable"] is False
    assert _emulate(tmp_path / "train.py")["unmodelled"] == (
        "train.py has no profiling setup of its own, but npu_session.py, which it imports, names one (line 5: `prof = "
        "torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboa...`): a setup in a module it imports "
        "is not emulated here")


def test_an_imported_module_that_also_profiles_another_way_keeps_the_unknown_answer(tmp_path, capsys):
    # its torch profiler is not what the TF replay models: no "no profiling" from its PROFILING_MODE alone
    path = _project(tmp_path, "#!/bin/bash\npython3 train.py\n",
                    **{"train.py": "import prof_lib\n\nif __name__ == '__main__':\n    prof_lib.go()\n",
                       "prof_lib.py": "import os\n\nimport torch\n\n\ndef go():\n"
                                      "    os.environ['PROFILING_MODE'] = 'false'\n"
                                      "    with torch.profiler.profile():\n        pass\n"})
    report = _emulate(path)
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:2: train.py has no profiling setup of its own, but prof_lib.py, which it imports, names one "
        "(line 8: `with torch.profiler.profile():`): a setup "
        "in a module it imports is not emulated here")


def test_a_failing_launch_after_an_exit_that_may_end_the_launcher_leaves_the_answer_open(tmp_path):
    # bash 5.2 (timeout 20, ulimit -u 200), a stub python3 printing its arguments: without ./nodata it ran launch 1 then
    # exited (status 1), so launch 1's data is the run's; with ./nodata it ran both. The walk does not know whether
    # ./nodata is there: the answer is not "no" (launch 2 fails) but unknown
    launcher = ('#!/bin/bash\ncd "$(dirname "$0")"\npython3 train.py --profiling\n'
                "if [ ! -d ./nodata ]; then exit 1; fi\n"
                "python3 train.py --profiling --opts='{\"output\":\"/tmp/p\",\"task_trace\":\"ON\"}'\n")
    report = _emulate(_project(tmp_path, launcher, **{"train.py": FLAGGED}))
    assert _verdicts(report) == [(1, "collects"), (2, "fails")]
    assert report["usable"] is None and report["answer"]["decider"] == 2
    assert report["answer"]["why"].startswith("launch 2 of 2 at run.sh:5: ")
    # with nothing collected before the exit, no data either way (it ends first, or launch 2 runs and fails): no
    report = _emulate(_project(tmp_path, launcher.replace("python3 train.py --profiling\n", "", 1)))
    assert _verdicts(report) == [(1, "fails")] and report["usable"] is False
