"""NPP128: an msprof option among the application's words, where msprof does not read it (issue 39, item 4)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_npuprof.checks.analysis import Settings
from flake8_npuprof.checks.msprof_app import app_start, python_slot
from flake8_npuprof.checks.shell_env import analyse_shell
from flake8_npuprof.emulate.script import emulate_path, headline
from flake8_npuprof.engine.run import check_shell as check_file
from flake8_npuprof.knowledge.targets import Target

PROJECT = Path(__file__).resolve().parent / "data" / "projects" / "msprof_launch"
T91 = Settings(target=Target.parse("9.1", "910B"))
ENDS = "(msprof's options end at the first word that is not one of them; every word after it is the application's)"


def found(line, settings=T91):
    return [(f.code, f.line, f.col + 1, f.message) for f in analyse_shell(line + "\n", settings=settings)
            if f.code == "NPP128"]


def test_an_option_between_python3_and_its_script():
    assert found("msprof --output=/tmp/prof python3 --task_time=l1 train.py") == [(
        "NPP128", 1, 35,
        "--task_time=l1 comes after python3, where the application's words begin: python3 reads it as an option of "
        "its own before its script and exits with status 2 (\"unknown option --task_time=l1\", then its usage), so "
        f"train.py never runs and nothing is profiled; write msprof's --task-time before python3 {ENDS}")]
    assert found("msprof --output=/tmp/prof /usr/bin/python3.9 -u --aic-metrics=PipeUtilization train.py")[0][2:] == (
        49, "--aic-metrics=PipeUtilization comes after /usr/bin/python3.9, where the application's words begin: "
            "/usr/bin/python3.9 reads it as an option of its own before its script and exits with status 2 (\"unknown "
            "option --aic-metrics=PipeUtilization\", then its usage), so train.py never runs and nothing is profiled; "
            f"move it before /usr/bin/python3.9 {ENDS}")


def test_what_python_does_with_it():
    # the claim, held to the interpreter running these tests (3.9-3.13 alike: Python/getopt.c)
    r = subprocess.run([sys.executable, "--task_time=l1", "-c", "print('ran')"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith("unknown option --task_time=l1\nusage: ")


def test_inside_the_application_option():
    line = 'msprof --output=/tmp/prof --application="python3 --aic-metrics=PipeUtilization train.py"'
    assert found(line) == [(
        "NPP128", 1, 50,
        "--aic-metrics=PipeUtilization is inside --application's value, which is the application's: python3 would "
        "read it as an option of its own before its script and exit with status 2 (\"unknown option "
        "--aic-metrics=PipeUtilization\", then its usage), so train.py would never run and nothing is profiled; move "
        "it out of the quotes, before --application")]
    # 8.5 and 9.0 check the word after the interpreter as the script first
    assert found(line, Settings(target=Target.parse("8.5", "910B")))[0][3].endswith(
        "(msprof 8.5 and 9.0 take the word after the interpreter for the script and refuse the line, \"[ERROR] "
        "Script params are invalid\", when no file of that name exists)")


def test_another_application():
    assert found("msprof --output=/tmp/prof ./infer_app --aic-metrics=PipeUtilization --batch=1") == [(
        "NPP128", 1, 39,
        "--aic-metrics=PipeUtilization comes after ./infer_app, where the application's words begin: msprof passes "
        "it to the application without reading it, so msprof collects without this setting; move it before "
        f"./infer_app {ENDS}")]
    assert [x[:3] for x in found("msprof --output=/tmp/prof bash run.sh --aic-metrics=Memory")] == [("NPP128", 1, 39)]
    assert found('msprof --output=/tmp/prof --application="./infer_app --task-time=on"') == [(
        "NPP128", 1, 54,
        "--task-time=on is inside --application's value, which is the application's: msprof passes it to the "
        "application without reading it, so msprof collects without this setting; move it out of the quotes, "
        "before --application")]


@pytest.mark.parametrize("line", [
    "msprof --output=/tmp/prof --task-time=l1 python3 train.py",          # before the application: msprof's
    "msprof --output=/tmp/prof python3 train.py --task_time=l1",          # the script's (read by the walk)
    "msprof --output=/tmp/prof python3 -m torch.distributed.launch --aic-metrics=Memory train.py",
    "msprof --output=/tmp/prof python3 -W ignore train.py --epochs=2",
    "msprof --output=/tmp/prof ./infer_app --output=/tmp/results",         # a name an application may have
    "msprof --aic-metrics=Memory --output=/tmp/prof ./bench --aic-metrics=Memory",   # msprof has it too
    "msprof --output=/tmp/prof $PYTHON --task_time=l1 train.py",            # not known which program
    "msprof $OPTS python3 --task_time=l1 train.py",                         # where the application starts: unknown
    "msprof --output=/tmp/prof pypy3 --task_time=l1 train.py",              # an interpreter we have not read
    "msprof --output=/tmp/prof bash --aic-metrics=Memory run.sh",           # bash's own options: not read here
])
def test_quiet(line):
    assert found(line) == []


def test_where_the_application_starts_per_version():
    # SplitApplicationArgv: a `--name` without "=" takes the next word along on 8.5 and 9.0, and from 9.1 not when
    # that word starts with "-"
    words = ["--ai-core", "-q", "python3"]
    assert (app_start(words, "8.5"), app_start(words, "9.0"), app_start(words, "9.1")) == (2, 2, 1)
    assert app_start(["--output", "/tmp/p", "python3"], "8.0") == 2
    assert python_slot(["python3", "-X", "dev", "--task_time=l1", "t.py"]) == (3, None)
    assert python_slot(["python3", "-Wignore", "t.py", "--task_time=l1"]) == (None, 2)
    assert python_slot(["python3", "-um", "mod", "--task_time=l1"]) == (None, None)


def test_emulate_says_nothing_is_profiled(tmp_path):
    shutil.copy(PROJECT / "train.py", tmp_path / "train.py")
    (tmp_path / "run.sh").write_text("#!/bin/bash\nmsprof --output=/tmp/prof python3 --task_time=l1 train.py "
                                     "--profiling=True\n")
    report = emulate_path(str(tmp_path / "run.sh"), Target.parse("9.1", "910B"), use_env=False, environ={})
    own, script = report["results"]
    assert own.verdict == "fails" and str(own.messages[0]).startswith("NPP128 --task_time=l1 comes after python3")
    assert script.verdict == "off" and [str(m) for m in script.messages] == [
        "not run: the application msprof starts at run.sh:2 exits before this script runs (NPP128), so this setup "
        "is never reached"]
    assert report["usable"] is False and report["exit"] == 1
    assert headline(report, own).startswith("run.sh:2 msprof: FAILS: NPP128 --task_time=l1 comes after python3")


def _launcher(tmp_path, line, script=None):
    if script is None:
        shutil.copy(PROJECT / "train.py", tmp_path / "train.py")
    else:
        (tmp_path / "train.py").write_text(script)
    path = tmp_path / "run.sh"
    path.write_text("#!/bin/bash\n" + line + "\n")
    text = path.read_text()
    return [(f.code, f.line, f.col + 1, f.message) for f in check_file(text, str(path), T91) if f.code == "NPP128"]


def test_after_the_script_that_defines_no_such_flag(tmp_path):
    assert _launcher(tmp_path, "msprof --output=/tmp/prof python3 train.py --epochs=2 --aic-metrics=Memory") == [(
        "NPP128", 2, 55,
        "--aic-metrics=Memory comes after train.py, so it is the script's, which defines no --aic-metrics flag, and "
        "msprof does not read it: train.py exits with status 2 at parse_args() (train.py:11) (\"train.py: error: "
        "unrecognized arguments: --aic-metrics=Memory\") before anything is profiled; move it before python3 " + ENDS)]
    inside = _launcher(tmp_path, 'msprof --output=/tmp/prof --application="python3 train.py --aic_metrics=Memory"')
    assert [x[:3] for x in inside] == [("NPP128", 2, 59)]
    assert inside[0][3].startswith("--aic_metrics=Memory is inside --application's value, after train.py, so it is "
                                   "the script's, which defines no --aic_metrics flag")
    assert inside[0][3].endswith("; move it out of the quotes, before --application")


PARSE = "import argparse\np = argparse.ArgumentParser()\np.add_argument('--epochs', type=int, default=1)\n"
ABSL = ("from absl import app, flags\nflags.DEFINE_integer('epochs', 1, '')\n\n\n"
        "def main(argv):\n    print('ran')\n\n\n"
        "if __name__ == '__main__':\n    app.run(main)\n")


def _run_script(tmp_path, script, *args):
    (tmp_path / "train.py").write_text(script)
    return subprocess.run([sys.executable, "train.py", *args], cwd=str(tmp_path), capture_output=True, text=True)


def test_after_a_script_that_exits_on_it(tmp_path):
    """parse_args() exits with status 2 on a word it does not define, before the code after it runs."""
    script = PARSE + "args = p.parse_args()\nprint('ran')\n"
    r = _run_script(tmp_path, script, "--task-time=on")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.endswith("train.py: error: unrecognized arguments: --task-time=on\n")
    assert _launcher(tmp_path, "msprof --output=/tmp/prof python3 train.py --task-time=on", script) == [(
        "NPP128", 2, 44,
        "--task-time=on comes after train.py, so it is the script's, which defines no --task-time flag, and msprof "
        "does not read it: train.py exits with status 2 at parse_args() (train.py:4) (\"train.py: error: unrecognized "
        "arguments: --task-time=on\") before anything is profiled; move it before python3 " + ENDS)]
    report = emulate_path(str(tmp_path / "run.sh"), Target.parse("9.1", "910B"), use_env=False, environ={})
    own = report["results"][0]
    assert own.verdict == "fails" and str(own.messages[0]).startswith("NPP128 --task-time=on comes after train.py")
    assert report["usable"] is False and report["exit"] == 1


def test_emulate_a_script_that_exits_on_it_never_reaches_its_setup(tmp_path):
    shutil.copy(PROJECT / "train.py", tmp_path / "train.py")
    (tmp_path / "run.sh").write_text("#!/bin/bash\nmsprof --output=/tmp/prof python3 train.py --profiling=True "
                                     "--task-time=on\n")
    report = emulate_path(str(tmp_path / "run.sh"), Target.parse("9.1", "910B"), use_env=False, environ={})
    own, script = report["results"]
    assert own.verdict == "fails"
    assert script.verdict == "off" and [str(m) for m in script.messages] == [
        "not run: the script exits as it reads its arguments, on an msprof option written after it at run.sh:2 "
        "(NPP128), so this setup is never reached"]
    assert report["usable"] is False


def test_after_a_script_that_leaves_it_aside(tmp_path):
    """parse_known_args() returns the word among the rest, and the script runs: msprof collects without it."""
    script = PARSE + "args, rest = p.parse_known_args()\nprint('ran', rest)\n"
    r = _run_script(tmp_path, script, "--task-time=on")
    assert r.returncode == 0 and r.stdout == "ran ['--task-time=on']\n"
    assert _launcher(tmp_path, "msprof --output=/tmp/prof python3 train.py --task-time=on", script) == [(
        "NPP128", 2, 44,
        "--task-time=on comes after train.py, so it is the script's, which defines no --task-time flag, and msprof "
        "does not read it: train.py leaves it aside at parse_known_args() (train.py:4) and runs, so msprof collects "
        "without this setting; move it before python3 " + ENDS)]
    report = emulate_path(str(tmp_path / "run.sh"), Target.parse("9.1", "910B"), use_env=False, environ={})
    assert report["results"][0].verdict == "collects" and report["usable"] is True


def test_after_a_script_that_reads_its_arguments_where_it_is_not_known(tmp_path):
    script = PARSE + "import sys\nif len(sys.argv) > 1:\n    args = p.parse_args()\n"
    msg = ("--task-time=on comes after train.py, so it is the script's, which defines no --task-time flag, and msprof "
           "does not read it: whether train.py runs with it is not known here: the script is not seen reading its "
           "arguments with parse_args(), parse_known_args() or app.run before anything may be profiled; move it "
           "before python3 " + ENDS)
    assert _launcher(tmp_path, "msprof --output=/tmp/prof python3 train.py --task-time=on", script) == [
        ("NPP128", 2, 44, msg)]
    report = emulate_path(str(tmp_path / "run.sh"), Target.parse("9.1", "910B"), use_env=False, environ={})
    own = report["results"][0]
    assert own.verdict == "unknown" and str(own.messages[0]) == "NPP128 " + msg
    assert report["usable"] is None


def test_after_an_absl_script(tmp_path):
    assert _launcher(tmp_path, "msprof --output=/tmp/prof python3 train.py --task-time=on", ABSL) == [(
        "NPP128", 2, 44,
        "--task-time=on comes after train.py, so it is the script's, which defines no --task-time flag, and msprof "
        "does not read it: train.py exits with status 1 at absl's app.run (train.py:10) (\"FATAL Flags parsing "
        "error: Unknown command line flag 'task-time'\") before anything is profiled; move it before python3 " + ENDS)]
    tf_run = ("import tensorflow as tf\ntf.app.flags.DEFINE_integer('epochs', 1, '')\n\n\ndef main(_):\n    pass\n\n\n"
              "if __name__ == '__main__':\n    tf.app.run()\n")
    assert _launcher(tmp_path, "msprof --output=/tmp/prof python3 train.py --task-time=on", tf_run)[0][3] == (
        "--task-time=on comes after train.py, so it is the script's, which defines no --task-time flag, and msprof "
        "does not read it: train.py leaves it aside at tf.app.run (train.py:10) and runs, so msprof collects "
        "without this setting; move it before python3 " + ENDS)


def test_absl_exits_on_a_flag_it_does_not_define(tmp_path):
    pytest.importorskip("absl")
    r = _run_script(tmp_path, ABSL, "--task-time=on")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("FATAL Flags parsing error: Unknown command line flag 'task-time'")


@pytest.mark.parametrize("script", [
    "import argparse\np = argparse.ArgumentParser()\np.add_argument('--task_time')\nargs = p.parse_args()\n",
    "import argparse\np = argparse.ArgumentParser()\np.add_argument('--task_time_level')\nargs = p.parse_args()\n",
    "import sys\nprint(sys.argv)\n",                # no flags: what it does with its argv is not read
])
def test_after_the_script_quiet(tmp_path, script):
    # its own flag, an abbreviation argparse accepts, a script without flags
    assert _launcher(tmp_path, "msprof --output=/tmp/prof python3 train.py --task_time=l1", script) == []


def test_the_launcher_example_in_a_shell(tmp_path):
    """The word really reaches python3 and not msprof: a stand-in msprof that starts its application as msprof
    does (every word from the first non-option on)."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    fake = tmp_path / "msprof"
    fake.write_text('#!/bin/bash\nwhile [[ "$1" == --* ]]; do shift; done\nexec "$@"\n')
    fake.chmod(0o755)
    (tmp_path / "train.py").write_text("print('train ran')\n")
    env = dict(os.environ, PATH=f"{tmp_path}:{os.path.dirname(sys.executable)}:/usr/bin:/bin")
    r = subprocess.run([bash, "-c", "msprof --output=/tmp/prof python3 --task_time=l1 train.py"], cwd=str(tmp_path),
                       env=env, capture_output=True, text=True)
    assert r.returncode == 2 and "train ran" not in r.stdout
    assert r.stderr.startswith("unknown option --task_time=l1")


def test_the_scripts_flag_outside_the_application_quotes(tmp_path):
    assert _launcher(tmp_path, 'msprof --output=/tmp/prof --application="python3 train.py" --epochs=3') == [(
        "NPP128", 2, 60,
        "--epochs=3 is train.py's own flag, written outside --application's quotes: msprof reads it as one of its "
        "options, has no such option and exits before train.py starts (NPP120), so nothing is profiled; move it "
        "inside the quotes, after the script")]
    found = check_file(*_text_and_path(tmp_path), T91)
    assert [(f.code, f.col + 1) for f in found] == [("NPP120", 60), ("NPP128", 60)]   # msprof's refusal stays


@pytest.mark.parametrize("line", [
    'msprof --output=/tmp/prof --application="python3 train.py" --task-time=on',    # msprof's own option
    'msprof --application="python3 train.py" --out=/tmp/prof',                      # getopt: --output
    'msprof --output=/tmp/prof --application="python3 train.py" --unknown=1',      # not the script's either
])
def test_outside_the_quotes_quiet(tmp_path, line):
    script = ("import argparse\np = argparse.ArgumentParser()\np.add_argument('--out')\n"
              "p.add_argument('--task-time')\nargs = p.parse_args()\n")
    assert _launcher(tmp_path, line, script) == []


def _text_and_path(tmp_path):
    path = tmp_path / "run.sh"
    return path.read_text(), str(path)
