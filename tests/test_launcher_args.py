"""A launcher as the user starts it (issue 39): its arguments (`emulate LAUNCHER -- ARG...`), the argument loops
launchers use, the directory idioms, and NPP015, a profiling option the launcher takes and drops.

The projects under data/projects/zoo_args are written in the model-zoo style. What each launch gets was checked
by running every launcher with bash and a python3 stub that prints its argv, directory and PROFILING_MODE:
the expectations below are bash's."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flake8_npuprof.checks.analysis import Settings
from flake8_npuprof.cli import main
from flake8_npuprof.shell.launches import launches
from flake8_npuprof.shell.walk import Walk
from flake8_npuprof.emulate.render import wrapped
from flake8_npuprof.emulate.script import emulate_command, emulate_path
from flake8_npuprof.engine.run import check_shell as check_file
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.source.text import HOLE

T = Target.parse("8.0", "910B")
ZOO = Path(__file__).resolve().parent / "data" / "projects" / "zoo_args"


def _emulate(path, args=None, **kw):
    return emulate_path(str(path), T, use_env=False, environ={}, launcher_args=args, **kw)


def _argv(report):
    return [w for w in report["launch"]["command"] if w]


def _walk(tmp_path, text, args=None, name="run.sh"):
    path = tmp_path / name
    path.write_text(text)
    return Walk(str(path), args=args).run()


def _words(w):
    return [[x.text for x in c.words] for c in w.commands]


# ---------------------------------------------------------------- the model-zoo template: the option goes nowhere

TEMPLATE = ZOO / "template" / "test" / "train_full_1p.sh"
DROPPED = ("--profiling=True on this launcher collects nothing: no launch gets --profiling or anything made from it "
           "(line 29 starts ../src/train.py alike with or without it), so ../src/train.py reads its own --profiling "
           "at its default False (../src/train.py:9) and its profiling setup under `args.profiling` "
           "(../src/train.py:17) does not run; forward the option to ../src/train.py on line 29 (a PROFILING_MODE the "
           "caller exports is read the same with or without the option)")


def test_the_template_run_with_its_arguments_drops_the_profiling_option():
    report = _emulate(TEMPLATE, ["--data_path=/d", "--profiling=True"])
    # `cur_path=`pwd``, `cd $cur_path/../`: the project's folder; the script gets what bash gives it
    assert _argv(report)[:5] == ["python3", "./src/train.py", "--data_path=/d", "--epochs=1", ">"]
    assert report["cwd"] == str(ZOO / "template")
    assert report["launch"]["script"] == "train.py" and report["usable"] is False
    assert report["answer"]["why"] == (
        "--profiling=True on this launcher goes nowhere: no launch gets --profiling or anything made from it, so "
        "../src/train.py reads its own --profiling at its default False (../src/train.py:9) and its profiling "
        "setup under `args.profiling` (../src/train.py:17) does not run")


def test_an_option_that_changes_no_launch_is_said_where_npp015_is_not_claimed(tmp_path):
    # another file of the project names a profiling setting (an inference script, a commented-out line): NPP015's
    # "collects nothing" is not claimed, but the option the user passed certainly changes no launch
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    (tmp_path / "p" / "src" / "train.py").write_text("import argparse\nargparse.ArgumentParser().parse_args()\n")
    (tmp_path / "p" / "src" / "infer.py").write_text('# custom_op.parameter_map["profiling_mode"].b = True\n')
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    assert check_file(launcher.read_text(), str(launcher), Settings(target=T)) == []
    report = _emulate(launcher, ["--data_path=/d", "--profiling=True"])
    assert report["usable"] is False
    assert report["answer"]["why"] == ("no launch switches profiling on; --profiling=True on this launcher changes "
                                       "no launch: none gets --profiling or anything made from it")
    # without the option, nothing is said of it
    assert _emulate(launcher, ["--data_path=/d"])["answer"]["why"] == "no launch switches profiling on"


def test_an_option_the_launcher_only_documents_is_said_to_change_no_launch(tmp_path):
    # ResNet101_ID1595's launcher lists --profiling in its help text and reads only --data_path and --device_id:
    # `--profiling=True` was not named in the answer, which read as if the launcher had been run without it
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    text = launcher.read_text()
    launcher.write_text(text.replace(text[text.index("    elif [[ $para == --profiling*"):
                                          text.index("    elif [[ $para == --data_path*")], ""))
    off = ("profiling is off unless --profiling=True is passed to ../src/train.py: the launcher does not pass it, and "
           "its default is False (train.py:9)")
    assert _emulate(launcher, ["--data_path=/d", "--profiling=True"])["answer"]["why"] == \
        f"{off}; --profiling=True on this launcher changes no launch: each is the same without it"
    assert _emulate(launcher, ["--data_path=/d"])["answer"]["why"] == off
    assert _emulate(launcher, ["--data_path=/d", "--profiling=False"])["answer"]["why"] == \
        f"{off}; --profiling=False on this launcher changes no launch: each is the same without it"
    # forwarded (`"$@"`), it changes the launch: nothing is said of it
    launcher.write_text(launcher.read_text().replace("--epochs=1", '--epochs=1 "$@"'))
    assert "changes no launch" not in _emulate(launcher, ["--data_path=/d", "--profiling=True"])["answer"]["why"]


@pytest.mark.parametrize("help_text, idle", [
    # SimpleHumanPose's and DeepFaceLab's launchers: the help is one echo of a quoted string over several lines
    ('    echo "usage: <args>\n    --data_path    data\n    --profiling    if or not profiling\n"', True),
    ('    if true; then echo "\n    --profiling    if or not profiling"; fi', True),
    # in a substitution, a here-document or a test, the option may be read: nothing is said of it
    ('    echo "$(grep -c -- --profiling ${cur_path}/args)"', False),
    ("    cat > ${cur_path}/args <<EOF\n--profiling\nEOF", False),
    ('    [[ "$*" == *--profiling* ]] && echo on', False),
    # `printf -v P` sets P (bash 5.2), which the test reads: not a help text
    ('    printf -v P "%s" --profiling\n    [[ "$*" == *$P* ]] && echo on', False),
])
def test_an_option_named_in_a_help_text_over_lines_is_said_to_change_no_launch(tmp_path, help_text, idle):
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    text = launcher.read_text()
    text = text.replace(text[text.index("    elif [[ $para == --profiling*"):
                             text.index("    elif [[ $para == --data_path*")], "")
    launcher.write_text(text.replace('    echo "    --profiling      if or not profiling for performance debug, '
                                     'default is False"\n', help_text + "\n"))
    assert "if or not profiling for" not in launcher.read_text()
    why = _emulate(launcher, ["--data_path=/d", "--profiling=True"])["answer"]["why"]
    assert why.startswith("profiling is off unless --profiling=True is passed to ../src/train.py")
    assert why.endswith("; --profiling=True on this launcher changes no launch: each is the same without it") is idle


@pytest.mark.parametrize("keeps", ['echo "$@" > ${cur_path}/output/args.txt',
                                   "for a in $*; do echo $a >> ${cur_path}/output/args.txt; done",
                                   'ARGS="$*"\nprintf "%s" "$ARGS" | tee ${cur_path}/output/args.txt',
                                   'eval "run_$1=1"'])
def test_an_option_the_launcher_may_keep_in_a_file_is_not_said_to_change_nothing(tmp_path, keeps):
    # the walks compare launches (words, environment, folder): an argument written to a file (or eval'd) that a script
    # then reads is not among them, so "changes no launch: each is the same without it" could be false
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    text = launcher.read_text()
    text = text.replace(text[text.index("    elif [[ $para == --profiling*"):
                             text.index("    elif [[ $para == --data_path*")], "")
    launcher.write_text(text.replace("mkdir -p ${cur_path}/output\n", f"mkdir -p ${{cur_path}}/output\n{keeps}\n"))
    assert _emulate(launcher, ["--data_path=/d", "--profiling=True"])["answer"]["why"] == (
        "profiling is off unless --profiling=True is passed to ../src/train.py: the launcher does not pass it, and "
        "its default is False (train.py:9)")
    # a write that holds no argument leaves the claim standing (awk's `$2` in single quotes is no argument of bash's)
    launcher.write_text(text.replace("mkdir -p ${cur_path}/output\n", "mkdir -p ${cur_path}/output\n"
                                     "echo start > ${cur_path}/output/log 2>&1\n"
                                     "loss=`grep loss log | awk '{print $2}'`\n"
                                     "echo \"loss = ${loss}\" >> ${cur_path}/output/log\n"))
    assert _emulate(launcher, ["--data_path=/d", "--profiling=True"])["answer"]["why"].endswith(
        "; --profiling=True on this launcher changes no launch: each is the same without it")


def test_a_carriage_return_inside_quotes_does_not_hide_an_idle_option(tmp_path):
    # DIN_ID0190's launcher: `sed -i 's/^M/\n/g' log` with a literal CR in the quotes. The walk reads the file as bash
    # does (the CR stays in the word); the walks without the option read Walk.launcher_text(), a text-mode read that
    # made it a line feed, so the two `sed -i` commands differed and "changes no launch" was withheld
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    text = launcher.read_text()
    text = text.replace(text[text.index("    elif [[ $para == --profiling*"):
                             text.index("    elif [[ $para == --data_path*")], "")
    launcher.write_bytes(text.replace("mkdir -p ${cur_path}/output\n", "mkdir -p ${cur_path}/output\n"
                                      "sed -i 's/\r/\\n/g' ${cur_path}/output/log\n").encode())
    assert b"'s/\r/" in launcher.read_bytes()
    assert _emulate(launcher, ["--data_path=/d", "--profiling=True"])["answer"]["why"].endswith(
        "; --profiling=True on this launcher changes no launch: each is the same without it")


def test_an_option_a_launcher_tests_outside_its_argument_loop_is_not_said_to_change_nothing(tmp_path):
    # `[[ "$*" == *--profiling=True* ]]` and a `sed` on a file: the launches' words are the same, but bash runs the
    # sed only with the option (bash 5.2), so "changes no launch: each is the same without it" would be false
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    text = launcher.read_text()
    text = text.replace(text[text.index("    elif [[ $para == --profiling*"):
                             text.index("    elif [[ $para == --data_path*")], "")
    launcher.write_text(text.replace("mkdir -p ${cur_path}/output\n", "mkdir -p ${cur_path}/output\n"
                                     'if [[ "$*" == *--profiling=True* ]]; then\n'
                                     "    sed -i 's/^PROF = False/PROF = True/' ${cur_path}/../src/settings.py\nfi\n"))
    assert _emulate(launcher, ["--data_path=/d", "--profiling=True"])["answer"]["why"] == (
        "profiling is off unless --profiling=True is passed to ../src/train.py: the launcher does not pass it, and "
        "its default is False (train.py:9)")


def test_an_option_that_goes_nowhere_is_said_over_several_launches_too(tmp_path):
    # Speech_Transformer's launcher runs pre_process.py, then train.py; neither nor any file of the project profiles:
    # with --profiling=True the answer said only "no launch switches profiling on" (NPP015 says the option is lost)
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    (tmp_path / "p" / "src" / "train.py").write_text("import argparse\nargparse.ArgumentParser().parse_args()\n")
    (tmp_path / "p" / "src" / "prep.py").write_text("print('prepared')\n")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    launcher.write_text(launcher.read_text().replace("python3 ./src/train.py",
                                                     "python3 ./src/prep.py\npython3 ./src/train.py"))
    report = _emulate(launcher, ["--data_path=/d", "--profiling=True"])
    assert report["usable"] is False and len(report["launches"]) == 2
    assert report["answer"]["why"] == (
        "no launch switches profiling on; --profiling=True on this launcher goes nowhere: no launch gets --profiling "
        "or anything made from it, and ../src/prep.py, ../src/train.py have no profiling setup (no Python file of the "
        "project names one)")
    assert _emulate(launcher, ["--data_path=/d"])["answer"]["why"] == "no launch switches profiling on"


def test_the_template_without_arguments_says_what_would_switch_profiling_on():
    report = _emulate(TEMPLATE)
    assert report["usable"] is False and report["launch"]["command"][2] == f"--data_path={HOLE}"
    assert report["answer"]["why"] == ("profiling is off unless --profiling=True is passed to ../src/train.py: the "
                                       "launcher does not pass it, and its default is False (train.py:9)")


ENDS = ("no launch found before the launcher ends at train_full_1p.sh:25: `if [[ $data_path == \"\" ]]` "
        "(train_full_1p.sh:23) holds in this launch; it prints `[Error] para \"data_path\" must be confing`; "
        "--data_path=VALUE on the launcher sets what the condition reads")


def test_an_option_compared_before_the_launch_gets_a_word_it_is_compared_with(tmp_path):
    # BertBase_Google's launchers: `if [[ $type != "bertbase" ]] && [[ $type != "bertlarge" ]]; then exit 1`. NPP015
    # gives the other options a placeholder (so a required --data_path does not end the walk first); with the list
    # decided, the placeholder --type=npuprof_x ended it before any launch and the finding was lost
    shutil.copytree(ZOO / "template", tmp_path / "p")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    text = launcher.read_text().replace(
        "    elif [[ $para == --data_path* ]];then", "    elif [[ $para == --type* ]];then\n        type=`echo "
        "${para#*=}`\n    elif [[ $para == --data_path* ]];then").replace(
        "mkdir -p ${cur_path}/output\n", 'if [[ $type != "bertbase" ]] && [[ $type != "bertlarge" ]];then\n    exit 1\n'
        "fi\nmkdir -p ${cur_path}/output\n")
    launcher.write_text(text)
    findings = check_file(text, str(launcher), Settings(target=T))
    assert [(f.code, f.line, f.col + 1, f.message) for f in findings] == [
        ("NPP015", 15, 22, DROPPED.replace("line 29", "line 34"))]


def test_the_template_without_its_required_argument_ends_before_any_launch():
    # `if [[ $data_path == "" ]]; then echo ...; exit 1`: bash starts nothing; the answer says which branch ended it,
    # what it prints there, and the launcher's option that sets what its condition reads (before: only where)
    report = _emulate(TEMPLATE, ["--profiling=True"])
    assert report["usable"] is False
    assert report["answer"]["why"] == ENDS


def test_check_reports_the_dropped_option_where_the_launcher_tests_it(tmp_path):
    findings = check_file(TEMPLATE.read_text(), str(TEMPLATE), Settings(target=T))
    assert [(f.code, f.line, f.col + 1, f.message) for f in findings] == [("NPP015", 15, 22, DROPPED)]
    assert findings[0].short == ("--profiling=True on this launcher collects nothing: ../src/train.py reads its own "
                                 "--profiling at its default False and its profiling setup under `args.profiling` "
                                 "does not run")


@pytest.mark.parametrize("loop, line, col", [
    # a case on one line (bash 5.2 runs its branch for `--profiling=True`, `case "$1" in ...` as well): NPP015 read case
    # patterns at a line's start only, and said nothing of these
    ("for para in $*\ndo\n    case $para in --profiling=*) profiling=`echo ${para#*=}`;; esac\n"
     "    case \"$para\" in --data_path=*) data_path=`echo ${para#*=}`;; esac\ndone\n", 7, 19),
    ('case "$1" in --profiling=*) profiling=True;; esac\n', 5, 14),
    # a second pattern after `;;` on the same line
    ("for para in $*\ndo\n    case $para in --data_path=*) data_path=${para#*=};; --profiling=*) profiling=1;; "
     "esac\ndone\n", 7, 57),
])
def test_a_case_on_one_line_takes_the_option(tmp_path, loop, line, col):
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    text = ("#!/bin/bash\ncur_path=`pwd`\ndata_path=\"\"\nprofiling=False\n" + loop +
            "cd $cur_path/../\npython3 ./src/train.py --data_path=${data_path} --epochs=1\n")
    launcher.write_text(text)
    findings = check_file(text, str(launcher), Settings(target=T))
    assert [(f.code, f.line, f.col + 1) for f in findings] == [("NPP015", line, col)]
    assert findings[0].short == ("--profiling=True on this launcher collects nothing: ../src/train.py reads its own "
                                 "--profiling at its default False and its profiling setup under `args.profiling` "
                                 "does not run")


def test_a_launch_line_of_20000_words_is_checked_without_hanging(tmp_path):
    # a hang guard (about 20 times what it takes here), not a measure of speed
    # which variables are made from the option's was one pattern over the whole text: from each `--a=b` it scanned to
    # the line's end for `$profiling`, quadratic on one long line (8,000 words took 12 s, 20,000 over 20 s)
    from evalfiles import deadline
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    # (`--d=b`: argparse's abbreviation of train.py's --data_path; a word it does not read stops it in parse_args,
    # and NPP015 is not the finding then)
    text = TEMPLATE.read_text().replace("--epochs=1", "--epochs=1" + " --d=b" * 20_000)
    launcher.write_text(text)
    with deadline(10, "a launch line of 20,000 words"):
        findings = check_file(text, str(launcher), Settings(target=T))
    assert [(f.code, f.line, f.col + 1) for f in findings] == [("NPP015", 15, 22)]


def test_a_variable_of_20000_expanded_words_is_split_without_hanging(tmp_path):
    # a hang guard (about 50 times what it takes here), not a measure of speed
    # each field of an unquoted `$ARGS` cut its runs out of all the value's runs: 5,000 `$1` took 4 s (fuzz: a
    # MindSpeed launcher's ARGS of 20,000 "$@" never ended)
    from evalfiles import deadline
    (tmp_path / "train.py").write_text("import sys\n")
    launcher = tmp_path / "run.sh"
    launcher.write_text('#!/bin/bash\nARGS="' + " $1" * 20_000 + '"\npython3 train.py $ARGS\n')
    with deadline(10, "an unquoted variable of 20,000 words"):
        report = _emulate(launcher, ["--x=1"])
    assert _argv(report) == ["python3", "train.py"] + ["--x=1"] * 20_000


# ---------------------------------------------------------------- launchers that forward it: collected, no NPP015

FORWARD = ZOO / "forward" / "test" / "train_full_1p.sh"
FORWARD_ENV = ZOO / "forward_env" / "run_1p.sh"
WHILE = ZOO / "while_shift" / "scripts" / "infer.sh"
GETOPTS = ZOO / "getopts" / "run.sh"


@pytest.mark.parametrize("path", [FORWARD, FORWARD_ENV, WHILE, GETOPTS, ZOO / "child" / "run_8p.sh"],
                         ids=lambda p: p.parent.name)
def test_no_finding_on_a_launcher_that_forwards_the_option(path):
    assert [f.code for f in check_file(path.read_text(), str(path), Settings(target=T))] == []


def test_forwarded_by_flag_collects_into_the_folder_the_launcher_makes():
    report = _emulate(FORWARD, ["--data_path=/d", "--profiling=True"])
    out = FORWARD.parent / "output" / "profiling"
    assert _argv(report)[2:6] == ["--data_path=/d", "--epochs=1", "--profiling=True", f"--profiling_dump_path={out}"]
    assert report["usable"] is True
    (setup,) = report["results"]
    assert setup.verdict == "collects" and setup.collected == ["task_trace"] and setup.output_dir == str(out)
    assert "  `args.profiling` is true in this launch (--profiling=True from train_full_1p.sh:29)" in \
        report["launch"]["lines"]


def test_forwarded_through_the_environment():
    report = _emulate(FORWARD_ENV, ["--profiling=True"])
    assert report["usable"] is True and report["launch"]["environment"]["PROFILING_MODE"]["value"] == "true"
    report = _emulate(FORWARD_ENV, ["--epochs=3"])
    assert report["usable"] is False and report["launch"]["environment"] == {}
    # without arguments the `if` on $profiling is not known: neither is the variable it exports
    report = _emulate(FORWARD_ENV)
    assert report["usable"] is None and report["launch"]["environment"]["PROFILING_MODE"]["value"] == HOLE


def test_while_case_shift_and_a_readlink_directory():
    report = _emulate(WHILE, ["--profiler", "true", "--batch", "4"])
    assert _argv(report) == ["python3", "infer.py", "--batch=4", "--profiling"]
    assert report["launch"]["at"] == "infer.sh:26" and report["usable"] is True
    assert report["cwd"] == str(ZOO / "while_shift" / "main")
    report = _emulate(WHILE, ["--batch", "4"])
    assert report["launch"]["at"] == "infer.sh:28" and report["usable"] is False
    # `*) exit 1`: an option it does not know ends it
    report = _emulate(WHILE, ["--profiling=True"])
    assert report["answer"]["why"] == "no launch found before the launcher ends at infer.sh:18"


def test_getopts_and_shift_by_optind():
    report = _emulate(GETOPTS, ["-p", "True", "-d", "/data", "--", "--epochs=3"])
    assert _argv(report) == ["python3", "train.py", "--data=/data", "--profiling=True", "--epochs=3"]
    assert report["usable"] is True
    report = _emulate(GETOPTS, ["-d", "/data"])
    assert _argv(report)[2:] == ["--data=/data", "--profiling=False"] and report["usable"] is False
    # getopts reads `--epochs=3` as the options `-`, `-e`, ...: `*) exit 1`
    report = _emulate(GETOPTS, ["-p", "True", "--epochs=3"])
    assert report["answer"]["why"] == "no launch found before the launcher ends at run.sh:9"


def test_a_child_script_gets_its_arguments():
    report = _emulate(ZOO / "child" / "run_8p.sh")
    assert _argv(report) == ["python3", "train.py", "--profiling=True"]
    assert report["launch"]["ranks"] == 8 and report["usable"] is True


def test_directory_idioms_give_a_definite_directory():
    report = _emulate(ZOO / "paths" / "scripts" / "run_1p.sh")
    assert report["cwd"] == str(ZOO / "paths" / "main") and report["usable"] is True
    assert not any(line.startswith("  runs in") for line in report["launch"]["lines"])    # not assumed: known


# ---------------------------------------------------------------- the walk: parameters as bash binds them

def test_positional_parameters_and_shift(tmp_path):
    text = ('python3 a.py $# $1 ${10} "$*"\nshift 2\npython3 b.py $# $1 "$@"\nset -- x\nshift 5\n'
            'python3 c.py "$@"\n')
    w = _walk(tmp_path, text, [str(i) for i in range(1, 11)])
    assert _words(w)[0] == ["python3", "a.py", "10", "1", "10", "1 2 3 4 5 6 7 8 9 10"]
    assert _words(w)[1] == ["python3", "b.py", "8", "3", "3", "4", "5", "6", "7", "8", "9", "10"]
    assert _words(w)[2] == ["python3", "c.py", "x"]           # `set -- x`; `shift 5` of one leaves it
    # without `--` nothing of them is known
    w = _walk(tmp_path, text)
    assert _words(w)[0] == ["python3", "a.py", HOLE, HOLE, HOLE, HOLE]


def test_for_para_in_args_with_if_and_parameter_removal(tmp_path):
    text = ("mode=a\nfor para in $*; do\n  if [[ $para == --mode=* ]]; then mode=${para#*=}; "
            "elif [[ $para == --x* ]]; then x=`echo ${para#*=}`; else other=$para; fi\ndone\n"
            "python3 t.py $mode $x ${other%%.*}\n")
    w = _walk(tmp_path, text, ["--x=1", "--mode=b", "f.tar.gz"])
    assert _words(w)[-1] == ["python3", "t.py", "b", "1", "f"]
    w = _walk(tmp_path, text)
    assert _words(w)[-1] == ["python3", "t.py", HOLE, HOLE, HOLE]


def test_for_over_unquoted_args_splits_each_argument_as_bash_does(tmp_path):
    # `npuprof emulate train_full_1p.sh -- "--data_path=/my data"`: the model zoo's `for para in $*` gives bash
    # "--data_path=/my" then "data", so the launch gets --data_path=/my (before: "/my data", two words at the launch)
    text = ('for para in $*; do\n  if [[ $para == --data_path* ]]; then d=`echo ${para#*=}`; fi\ndone\n'
            'python3 t.py --data_path=$d\n')
    assert _words(_walk(tmp_path, text, ["--data_path=/my data"]))[-1] == ["python3", "t.py", "--data_path=/my"]
    quoted = text.replace("$*", '"$@"')
    assert _words(_walk(tmp_path, quoted, ["--data_path=/my data"]))[-1] == [
        "python3", "t.py", "--data_path=/my", "data"]      # the value whole, split again where $d is unquoted


def test_case_arms_fall_through_and_default(tmp_path):
    text = ('rest=\nfor a; do\n  case "$a" in\n    -p|--prof) p=on ;;\n    --out=*) out="${a#--out=}" ;;\n'
            '    *) rest=$a ;;\n  esac\ndone\npython3 t.py $p $out $rest\n')
    w = _walk(tmp_path, text, ["-p", "--out=/o", "z"])
    assert _words(w)[-1] == ["python3", "t.py", "on", "/o", "z"]


def test_a_known_test_decides_its_branch_without_arguments_too(tmp_path):
    text = 'profiling=False\nif [ "$profiling" = "True" ]; then\n  python3 on.py\nelse\n  python3 off.py\nfi\n'
    w = _walk(tmp_path, text)
    assert [(c.words[1].text, c.conditional) for c in w.commands] == [("off.py", False)]


def test_an_exit_in_a_branch_a_test_cannot_decide_stays_a_maybe(tmp_path):
    w = _walk(tmp_path, 'if [ -f "$1" ]; then exit 1; fi\npython3 t.py\n', ["x"])
    assert [(c.words[1].text, c.conditional) for c in w.commands if c.words[0].text == "python3"] == \
        [("t.py", False)]
    assert w.exited is None


def test_path_idioms(tmp_path):
    (tmp_path / "main").mkdir()
    (tmp_path / "main" / "t.py").write_text("")
    (tmp_path / "test").mkdir()
    # (shape, settled): only `pwd`/$PWD before any `cd` hang on where the launcher is started, said as assumed
    for shape, settled in (('cur=$(dirname $(readlink -f "$0"))\ncd $cur/../main\n', True),
                           ('cd "$(cd "$(dirname "$0")"; pwd)/../main"\n', True),
                           ('cd $(cd $(dirname $0); pwd)/../main\n', True),
                           ('top=$(realpath "$(dirname "${BASH_SOURCE[0]}")/..")\ncd $top/main\n', True),
                           ('cur=`pwd`\ncd $cur/../main\n', False), ('cd $PWD/../main\n', False)):
        w = _walk(tmp_path / "test", shape + "python3 t.py\n")
        (la,) = launches(w)
        assert la.script == str(tmp_path / "main" / "t.py"), shape
        assert la.command.settled == settled, shape
    # a value from the caller stays unknown, and says which part
    w = _walk(tmp_path / "test", "cd $WORK/main\npython3 t.py\n")
    (la,) = launches(w) or [None]
    assert la is None


def test_cli_takes_the_launchers_arguments_after_a_double_dash(capsys):
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(WHILE), "--", "--profiler", "true",
                 "--batch", "4"]) == 0
    out = capsys.readouterr().out
    assert "launch: infer.sh:26 python3 infer.py --batch=4 --profiling\n" in out
    assert main(["emulate", str(WHILE), str(GETOPTS), "--", "-p", "True"]) == 2
    assert capsys.readouterr().err == ("npuprof emulate: error: arguments after -- are the launcher's: give one "
                                       "launcher before them\n")
    script = ZOO / "forward" / "src" / "train.py"
    assert main(["emulate", str(script), "--graph", str(script), "--", "--profiling=True"]) == 2
    assert capsys.readouterr().err == ("npuprof emulate: error: arguments after -- are the script's or the "
                                       "launcher's, without --graph or --against\n")


# ---------------------------------------------------------------- the command as it is typed

def _typed(capsys, monkeypatch, where, *command):
    monkeypatch.chdir(where)
    code = main(["emulate", "--cann", "8.0", "--soc", "910B", "--", *command])
    return code, capsys.readouterr()


def test_a_typed_launcher_runs_in_the_current_directory_and_says_where_it_finds_its_script(capsys, monkeypatch):
    # the model-zoo launcher takes its paths from `pwd`: started from the project's root, `cd $cur_path/../` leaves
    # the project and ./src/train.py is not there; started in test/ (its own folder) it is
    code, out = _typed(capsys, monkeypatch, ZOO / "template", "bash", "test/train_full_1p.sh", "--data_path=/d",
                       "--profiling=True")
    assert code == 1 and out.err == ""
    missing = (f"cannot find ./src/train.py (looked in {ZOO}); started in the launcher's own folder (test) it runs "
               "src/train.py: start it from there (cd test)")
    # (the option the user passed is lost whichever folder the launcher starts in: it forwards no argument)
    lost = "--profiling=True on this launcher changes no launch: none gets --profiling or anything made from it"
    assert out.out.split("\n")[1:4] == ["launch: train_full_1p.sh:29 python3 ./src/train.py --data_path=/d --epochs=1",
                                        f"  unknown: {missing}",
                                        f"usable data: unknown (train_full_1p.sh:29: {missing}; {lost})"]
    # from test/, the typed command is the launcher with its arguments: the option goes nowhere
    code, out = _typed(capsys, monkeypatch, ZOO / "template" / "test", "bash", "train_full_1p.sh", "--data_path=/d",
                       "--profiling=True")
    assert code == 1
    assert f"usable data: no ({_emulate(TEMPLATE, ['--data_path=/d', '--profiling=True'])['answer']['why']})" \
        in out.out


def test_a_launcher_in_scripts_started_in_its_own_folder_says_it_finds_its_script_from_the_folder_above(
        capsys, monkeypatch, tmp_path):
    # mindspore-ai/models' Bert: `bash scripts/run_distributed_pretrain_ascend.sh` from the project's root, whose
    # `CUR_DIR=\`pwd\`; python ${CUR_DIR}/scripts/x.py` finds nothing when started in scripts/ itself (bash 5.2: "No
    # such file"); the hint tried only the launcher's own folder, where it already was
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "x.py").write_text("print(1)\n")
    (tmp_path / "scripts" / "run.sh").write_text("#!/bin/bash\nCUR_DIR=`pwd`\npython ${CUR_DIR}/scripts/x.py $1\n")
    code, out = _typed(capsys, monkeypatch, tmp_path / "scripts", "bash", "run.sh", "/d")
    assert out.out.split("\n")[2] == (
        f"  unknown: cannot find {tmp_path}/scripts/scripts/x.py: no such file here; started in the folder above the "
        "launcher's (..) it runs x.py: start it from there (cd ..; bash scripts/run.sh)")
    # from there, it is found (and no hint)
    code, out = _typed(capsys, monkeypatch, tmp_path, "bash", "scripts/run.sh", "/d")
    assert out.out.split("\n")[1] == f"launch: run.sh:3 python {tmp_path}/scripts/x.py /d" and "unknown" not in out.out


def test_a_launcher_msprof_runs_from_the_projects_root_says_where_it_finds_its_script_too(capsys, monkeypatch):
    # DualGAN under msprof from the project's root: the launcher is msprof's application, walked as a child; the
    # hint re-walked only the typed command, so the answer lacked "start it from there"
    code, out = _typed(capsys, monkeypatch, ZOO / "template", "msprof", "--output=/tmp/out",
                       "--application=bash test/train_full_1p.sh --data_path=/d --profiling=True")
    missing = (f"cannot find ./src/train.py (looked in {ZOO}); started in the launcher's own folder (test) it runs "
               "src/train.py: start it from there (cd test)")
    assert code == 1 and out.err == ""
    assert f"  unknown: {missing}" in out.out.split("\n")
    assert f"usable data: unknown (test/train_full_1p.sh:29: {missing})" in out.out.split("\n")


def test_a_launcher_typed_after_sh_says_the_answer_is_bashs(capsys, monkeypatch, tmp_path):
    # Milking_cowmask's README: `sh ./test/train_full_1p.sh`. /bin/sh is dash on Debian and Ubuntu, which has no
    # `[[` (dash 0.5.12: `[[: not found`, so `if [[ $data_path == "" ]]` is false and the launch runs) and ends the
    # script at a `for ((` (`Syntax error: Bad for loop variable`); the answer said "no launch" as bash reads it
    code, out = _typed(capsys, monkeypatch, ZOO / "template" / "test", "sh", "train_full_1p.sh")
    note = ("! sh runs train_full_1p.sh, which uses bash's `[[` (line 6): this answer is bash's; where /bin/sh is "
            "dash (Debian's and Ubuntu's), `[[` is not a command (its test is false), `((` is not arithmetic, a "
            "`for ((` loop is a syntax error that ends the script there and `source` is not found: start it with "
            "bash train_full_1p.sh")
    assert out.out.split("\n")[1:4] == [ENDS.replace("no launch found", "no launch: none found"), f"usable data: no ({ENDS}: nothing is collected)",
                                        note]
    code, out = _typed(capsys, monkeypatch, ZOO / "template" / "test", "sh", "train_full_1p.sh", "--data_path=/d")
    assert note in out.out.split("\n")
    assert main(["emulate", "--format", "json", "--", "sh", "train_full_1p.sh", "--data_path=/d"]) == 1
    assert json.loads(capsys.readouterr().out)["sh"] == note[2:]
    # bash itself, or a launcher dash reads as bash does: no note
    code, out = _typed(capsys, monkeypatch, ZOO / "template" / "test", "bash", "train_full_1p.sh")
    assert "! " not in out.out
    (tmp_path / "run.sh").write_text("# [[ a ]] in a comment\nif [ -n \"$1\" ]; then echo x; fi\npython3 train.py\n")
    (tmp_path / "train.py").write_text("print(1)\n")
    code, out = _typed(capsys, monkeypatch, tmp_path, "sh", "run.sh")
    assert "! " not in out.out and "usable data: no" in out.out


def test_msprof_of_a_launcher_that_ends_before_its_launch_says_msprof_runs_it(capsys, monkeypatch, tmp_path):
    # `msprof --application="bash train_full_1p.sh" --output=/tmp/p` without --data_path (LeNet's launcher ends at
    # its `exit 1`): it said "<command line>: no launch: it starts no Python script or msprof run"
    code, out = _typed(capsys, monkeypatch, ZOO / "template" / "test", "msprof",
                       "--application=bash train_full_1p.sh", "--output=/tmp/p")
    # (and why it ends there, as the launcher's own answer says it: ENDS)
    why = ("msprof at <command line>:1 runs train_full_1p.sh, which ends at train_full_1p.sh:25 before it starts one "
           f"({ENDS.split(': ', 1)[1].replace('on the launcher', 'on train_full_1p.sh')}): no training process "
           "starts under msprof")
    assert code == 1 and out.out.split("\n")[1:3] == [f"no launch: {why}", f"usable data: no ({why}: nothing is collected)"]
    (tmp_path / "idle.sh").write_text("echo nothing to run\n")
    (tmp_path / "run.sh").write_text("msprof --output=/tmp/p bash idle.sh\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["answer"] == {"usable": False, "decider": None,
                                "why": "msprof at run.sh:1 runs idle.sh, which starts none: no training process starts "
                                       "under msprof"}


def test_msprofs_collection_beside_a_script_not_found_hangs_on_the_script_alone(capsys, monkeypatch, tmp_path):
    # DualGAN's `msprof --application="bash test/train_full_1p.sh ..."` from the project's root: main.py is not where
    # the launcher runs it. It said "COLLECTS ... — unknown: if the process that reads these variables sets no
    # profiling options of its own: ...", but msprof's configuration is used instead of the process's own options
    (tmp_path / "run.sh").write_text("python3 trian.py\n")
    (tmp_path / "train.py").write_text("print(1)\n")
    code, out = _typed(capsys, monkeypatch, tmp_path, "msprof", "--application=bash run.sh", "--output=/tmp/p")
    assert (f"<command line>:1 msprof: COLLECTS task_trace, aic_metrics into /tmp/p (msprof options) — unknown: "
            f"run.sh:1: cannot find trian.py (looked in {tmp_path})") in out.out.split("\n")


def test_the_own_folder_is_named_only_where_the_script_is_found_there(tmp_path, monkeypatch):
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "run.sh").write_text("python3 missing.py\n")
    monkeypatch.chdir(tmp_path)
    report = emulate_path(str(tmp_path / "test" / "run.sh"), T, cwd=str(tmp_path), environ={}, launcher_args=[])
    assert report["answer"]["why"] == f"run.sh:1: cannot find missing.py (looked in {tmp_path})"
    assert report["launch"]["found_from"] is None


def test_a_typed_python_command_gets_its_flags(capsys, monkeypatch):
    code, out = _typed(capsys, monkeypatch, ZOO / "forward", "python3", "src/train.py", "--profiling=True")
    lines = out.out.split("\n")
    assert lines[1:4] == ["launch: <command line>:1 python3 src/train.py --profiling=True",
                          "  `args.profiling` is true in this launch (--profiling=True from <command line>:1)",
                          "train.py:17 NpuOptimizer: COLLECTS task_trace into /tmp/prof"]
    # `emulate SCRIPT -- ARG...` is the same command
    monkeypatch.chdir(ZOO / "forward")
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", "src/train.py", "--", "--profiling=True"]) == code
    assert capsys.readouterr().out == out.out
    # without the flag, the setup under `args.profiling` does not run: the typed command, not a launcher, leaves it
    # out (it said "the default of --profiling, which the launcher does not pass" and "the launcher does not pass it")
    code, out = _typed(capsys, monkeypatch, ZOO / "forward", "python3", "src/train.py")
    lines = out.out.split("\n")
    assert code == 1 and lines[2] == ("  `args.profiling` is false in this launch (the default of --profiling, which "
                                      "the command as typed does not pass; --profiling True would switch it on)")
    assert lines[4] == ("usable data: no (profiling is off unless --profiling=True is passed to src/train.py: the "
                        "command as typed does not pass it, and its default is False (train.py:9))")
    report = emulate_command(["python3", "src/train.py"], T, str(ZOO / "forward"), environ={})
    assert report["answer"]["why"] == lines[4][len("usable data: no ("):-1]
    # the environment it sets is the typed command's too (it said "GE reads PROFILING_OPTIONS from the launcher")
    code, out = _typed(capsys, monkeypatch, ZOO / "forward", "env", "PROFILING_MODE=true",
                       'PROFILING_OPTIONS={"output":"/tmp/p","task_trace":"on"}', "python3", "src/train.py")
    assert "  - GE reads PROFILING_OPTIONS from the command as typed (inline at <command line>:1)" in \
        out.out.split("\n")


def test_a_typed_msprof_command_is_msprofs_collection(capsys, monkeypatch):
    code, out = _typed(capsys, monkeypatch, ZOO / "forward", "msprof", "--output=./prof", "python3", "src/train.py")
    assert code == 0 and out.out.split("\n")[1:7] == [
        "launch: <command line>:1 msprof --output=./prof python3 src/train.py",
        "  under msprof (<command line>:1): the script is its application; msprof's switches decide what is "
        "collected (--output=./prof)",
        "  `args.profiling` is false in this launch (the default of --profiling, which the command as typed does not "
        "pass; --profiling True would switch it on)",
        "<command line>:1 msprof: COLLECTS task_trace, aic_metrics into prof (msprof options)",
        # the setup is not run (it said "overridden by msprof", which has nothing of it to override)
        "train.py:17 NpuOptimizer: OFF: not run in this launch: `args.profiling` is false in this launch (the default "
        "of --profiling, which the command as typed does not pass; --profiling True would switch it on); msprof at "
        "<command line>:1 decides what is "
        "collected",
        "usable data: yes"]
    assert f"  output directory: {ZOO / 'forward' / 'prof'}\n" in out.out


def test_a_typed_command_that_is_wrong_says_so(capsys, monkeypatch):
    assert main(["emulate", "--"]) == 2
    assert capsys.readouterr().err == ("npuprof emulate: error: give the command after --, as it is typed (bash "
                                       "train_full_1p.sh --profiling=True)\n")
    assert main(["emulate"]) == 2
    assert capsys.readouterr().err == ("npuprof emulate: error: give a script, a launcher, or the command after -- "
                                       "(npuprof emulate -- bash train_full_1p.sh --profiling=True)\n")
    code, out = _typed(capsys, monkeypatch, ZOO / "template", "bash", "nothere.sh")
    assert code == 2 and out.err == f"npuprof emulate: error: nothere.sh: no such launcher in {ZOO / 'template'}\n"
    # as a launcher of that one line says it (test_a_launcher_that_starts_nothing_says_so)
    code, out = _typed(capsys, monkeypatch, ZOO / "template", "ls", "-l")
    assert code == 1 and out.out.split("\n")[1:3] == [
        "<command line>: no launch: it starts no Python script or msprof run, so a run of it collects nothing",
        "usable data: no"]
    code, out = _typed(capsys, monkeypatch, ZOO / "template", "./main", "--model", "x.om")
    assert code == 1 and out.out.split("\n")[2] == (
        "usable data: unknown (no launch found, but <command line>:1 runs the program ./main, which emulate does "
        "not follow: what it starts is not known here)")


# ---------------------------------------------------------------- readable verdicts

def test_a_terminal_gets_lines_wrapped_at_spaces_and_a_pipe_whole_lines():
    line = "usable data: no (--profiling=True on this launcher goes nowhere: no launch gets --profiling)"
    text = wrapped("target: x\n" + line + "\n  ! a_very_long_word_that_does_not_fit_anywhere_at_all", 30)
    assert text.split("\n") == ["target: x", "usable data: no", "    (--profiling=True on this",
                                "    launcher goes nowhere: no", "    launch gets --profiling)", "  !",
                                "      a_very_long_word_that_does_not_fit_anywhere_at_all"]    # a word stays whole


def test_a_function_called_with_arguments_binds_them(tmp_path):
    text = ('run_infer() {\n    local tool=$1\n    if [ "$tool" == "skip" ]; then\n        return 0\n    fi\n'
            '    python3 infer.py --tool=$tool --all "$@"\n}\nrun_infer "$TOOL"\nrun_infer onnx x\nrun_infer skip\n'
            'python3 last.py $1\n')
    w = _walk(tmp_path, text, ["top"])
    runs = [([x.text for x in c.words], c.conditional) for c in w.commands if c.words[0].text == "python3"]
    assert runs == [(["python3", "infer.py", f"--tool={HOLE}", "--all", HOLE], True),   # `return` may end it first
                    (["python3", "infer.py", "--tool=onnx", "--all", "onnx", "x"], False),
                    (["python3", "last.py", "top"], False)]                 # $1 is the launcher's again


def test_an_argument_loop_and_msprof_in_a_function(tmp_path):
    # Ascend-msit's infer_analyser.sh shape: options read by while/case/shift, msprof started by a function
    text = ('#!/bin/bash\nPROFILER=false\nwhile [ -n "$1" ]; do\n  case "$1" in\n    --profiler) PROFILER=$2; shift;;\n'
            '    *) ;;\n  esac\n  shift\ndone\nmsprof_bin=msprof\nrun() {\n  if [ "$PROFILER" == "true" ]; then\n'
            '    $msprof_bin --output=/tmp/prof --application="./app --batch=1"\n  else\n    ./app --batch=1\n  fi\n}\n'
            'run\n')
    w = _walk(tmp_path, text, ["--profiler", "true"])
    (la,) = [c for c in w.commands if c.words[0].text == "msprof"]
    assert not la.conditional
    assert [x.text for x in la.words][1:] == ["--output=/tmp/prof", "--application=./app --batch=1"]
    w = _walk(tmp_path, text, ["--profiler", "false"])
    assert not [c for c in w.commands if c.words[0].text == "msprof"]


def test_a_script_with_no_profiling_setup_in_a_project_with_none(tmp_path):
    # the model zoo's usual case: the template takes --profiling, the project has no profiling code at all
    (tmp_path / "test").mkdir()
    launcher = tmp_path / "test" / "train_full_1p.sh"
    launcher.write_text(TEMPLATE.read_text())
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("import argparse\np = argparse.ArgumentParser()\n"
                                               "p.add_argument('--data_path')\np.add_argument('--epochs')\n"
                                               "args = p.parse_args()\n")
    (f,) = check_file(launcher.read_text(), str(launcher), Settings(target=T))
    assert (f.code, f.line) == ("NPP015", 15) and f.message == (
        "--profiling=True on this launcher collects nothing: no launch gets --profiling or anything made from it "
        "(line 29 starts ../src/train.py alike with or without it), so nothing switches profiling on: "
        "../src/train.py has no profiling setup and no Python file of the project names one; give the training script "
        "a profiling setup behind a flag and forward the option to it, or drop the option (a PROFILING_MODE the caller "
        "exports is read the same with or without the option)")
    # several launches: each script named
    launcher.write_text(TEMPLATE.read_text().replace("python3 ./src/train.py",
                                                     "python3 ./src/prep.py\npython3 ./src/train.py"))
    (tmp_path / "src" / "prep.py").write_text("print('prep')\n")
    (f,) = check_file(launcher.read_text(), str(launcher), Settings(target=T))
    assert "(every launch is alike with or without it), so nothing switches profiling on: ../src/prep.py, " \
        "../src/train.py have no profiling setup" in f.message
    launcher.write_text(TEMPLATE.read_text())
    # a module of the project that names a profiling setting may hold the setup: nothing is claimed
    (tmp_path / "src" / "npu_config.py").write_text("PROFILING = {'profiling_mode': True}\n")
    assert check_file(launcher.read_text(), str(launcher), Settings(target=T)) == []
    (tmp_path / "src" / "npu_config.py").unlink()
    # the launcher exports PROFILING_MODE itself: GE may profile whatever the option says
    launcher.write_text(TEMPLATE.read_text().replace("export RANK_SIZE=1", "export PROFILING_MODE=true"))
    assert "NPP015" not in [f.code for f in check_file(launcher.read_text(), str(launcher), Settings(target=T))]
    # Windows line endings: bash does not read the lines as written, and that is the finding to fix first
    launcher.write_bytes(TEMPLATE.read_bytes().replace(b"\n", b"\r\n"))
    text = launcher.read_bytes().decode()
    assert "NPP015" not in [f.code for f in check_file(text, str(launcher), Settings(target=T))]


def test_an_unknown_directory_says_which_cd_and_which_part(tmp_path):
    (tmp_path / "train.py").write_text("")
    for text, why in (("cd $(git rev-parse --show-toplevel)/src\n", "`cd $(git rev-parse --show-toplevel)/src` at "
                       "run.sh:1: the output of a command in it is not known statically"),
                      ("if [ -d /x ]; then cd /opt; fi\n", "`cd /opt` at run.sh:1 is in a branch, loop or function "
                       "that may not run"),
                      ("cd\n", "`cd` at run.sh:1 goes to $HOME, which is not known here"),
                      # mindrlhf's `cd ${ROOT_PATH}/device$[i]` in a loop whose rounds are not known: no command there
                      ("cd /x/device$[RANDOM + 1]\n", "`cd /x/device$[RANDOM + 1]` at run.sh:1: an arithmetic "
                       "expansion in it is not known statically"),
                      # both: `$((1+1))` is 2 here, and the command's output is not known (it blamed the arithmetic)
                      ("cd $(git rev-parse --show-toplevel)/device$((1+1))\n", "`cd $(git rev-parse --show-toplevel)/"
                       "device$((1+1))` at run.sh:1: the output of a command or an arithmetic expansion in it is not "
                       "known statically")):
        w = _walk(tmp_path, text + "python3 train.py\n")
        (la,) = [c for c in w.commands if c.words[0].text == "python3"]
        assert la.cwd == () and la.lost == why, text


def test_a_script_whose_setup_may_be_in_a_module_it_imports_is_unknown_not_no(tmp_path):
    # the module the script imports holds the setup (emulate/imported.py): it is emulated, and the config it returns
    # goes to code that file does not show, so whether GE reads it stays open
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython3 train.py\n")
    (tmp_path / "train.py").write_text("import npu_config\nsess = npu_config.make()\n")
    (tmp_path / "npu_config.py").write_text(
        "from npu_bridge.npu_init import *\n\ndef make():\n"
        "    return ProfilingConfig(enable_profiling=True, profiling_options='{}')\n")
    report = _emulate(tmp_path / "run.sh")
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:2: npu_config.py, which train.py imports: line 4 of npu_config.py ProfilingConfig: the file does not show whether GE "
        "reads this config (if GE reads it: fails)")
    (tmp_path / "train.py").write_text("import os\nprint(os.getcwd())\n")
    assert _emulate(tmp_path / "run.sh")["usable"] is False        # imports nothing of the project: certainly none


def test_a_script_with_a_framework_profiler_is_replayed_as_emulate_replays_it(tmp_path):
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython3 train.py --prof\n")
    (tmp_path / "train.py").write_text("import torch\nimport torch_npu\n\nwith torch_npu.profiler.profile() as p:\n"
                                       "    pass\n")
    report = _emulate(tmp_path / "run.sh")
    assert report["usable"] is False and report["answer"]["why"] == (
        "run.sh:2: collects nothing: line 4 of train.py: no on_trace_ready and no export call: the raw data goes to "
        "a temporary folder (./export_only_prof_dir) and is deleted when the profiler object goes away")
    # a profiling API no replay models stays unknown, never "no"
    (tmp_path / "train.py").write_text("import torch\nimport torch_npu\n\nwith torch.autograd.profiler.emit_nvtx():\n"
                                       "    pass\n")
    report = _emulate(tmp_path / "run.sh")
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:2: train.py names a profiling API emulate does not model (torch_npu, torch, MindSpore or vLLM "
        "profiler, msprof through a subprocess): what it collects is not known here")


def test_a_child_scripts_functions_are_its_own(tmp_path):
    (tmp_path / "child.sh").write_text("#!/bin/bash\nstart() {\n  python3 child.py $1\n}\nstart c\n")
    text = "#!/bin/bash\nbash child.sh\nstart p\npython3 after.py\n"
    w = _walk(tmp_path, text)
    # `start` is the child's: in the launcher it is a command not found, not the child's function
    assert [[x.text for x in c.words] for c in w.commands if c.words[0].text == "python3"] == \
        [["python3", "child.py", "c"], ["python3", "after.py"]]


# ---------------------------------------------------------------- review item 7: NPP015 past the walk's bound

def _many_options(tmp_path, n, required=""):
    """The template's loop with n more options: with a value for each, the n x n tests of the loop pass the walk's
    bound (shell/state.MAX_COMMANDS) before any launch."""
    (tmp_path / "src").mkdir()
    shutil.copy(TEMPLATE.parent.parent / "src" / "train.py", tmp_path / "src" / "train.py")
    (tmp_path / "test").mkdir()
    branches = "".join(f"    elif [[ $para == --opt{i}* ]];then\n        opt{i}=`echo ${{para#*=}}`\n"
                       for i in range(n))
    text = ("#!/bin/bash\ncur_path=`pwd`\nprofiling=False\nfor para in $*\ndo\n"
            "    if [[ $para == --profiling* ]];then\n        profiling=`echo ${para#*=}`\n"
            f"{branches}    fi\ndone\n{required}cd $cur_path/../\npython3 ./src/train.py --data_path=$opt0\n")
    path = tmp_path / "test" / "run.sh"
    path.write_text(text)
    return path


def test_many_options_keep_npp015_when_the_option_alone_is_conclusive(tmp_path):
    path = _many_options(tmp_path, 40)
    w = Walk(str(path), args=[a for i in range(40) for a in (f"--opt{i}=npuprof_x",)] + ["--profiling=True"]).run()
    assert w.stopped                    # what the placeholders' walk meets: before, NPP015 went silently
    findings = check_file(path.read_text(), str(path), Settings(target=T))
    assert [(f.code, f.line, f.col + 1) for f in findings] == [("NPP015", 6, 20)]
    assert findings[0].message.startswith("--profiling=True on this launcher collects nothing: no launch gets "
                                          "--profiling or anything made from it (line 91 starts ../src/train.py")
    report = _emulate(path, ["--profiling=True"])       # emulate says the same
    assert report["usable"] is False and report["answer"]["why"].startswith(
        "--profiling=True on this launcher goes nowhere: no launch gets --profiling or anything made from it")


def test_many_options_and_a_required_one_say_npp015_was_not_checked(tmp_path):
    path = _many_options(tmp_path, 40, "if [[ $# -lt 2 ]];then\n    exit 1\nfi\n")     # bash: $# counts them
    findings = check_file(path.read_text(), str(path), Settings(target=T))
    assert [(f.code, f.line, f.col + 1, f.message) for f in findings] == [(
        "NPP191", 6, 20,
        "analysis budget exhausted: the walk of this launcher with a value for each of its options stopped at line 30 "
        "(after 5,000 commands), and without those values it reaches no launch, so whether a launch gets --profiling "
        "(NPP015) was not checked (a finding may be missing; `npuprof emulate LAUNCHER -- --profiling=True` says "
        "where it goes)")]


# ---------------------------------------------------------------- a launcher that starts no launch emulate can name

@pytest.mark.parametrize("text,why", [
    ("PY=$1\n$PY train.py\n", "no launch found, but run.sh:2 runs `$PY`, not known statically: what it starts is not "
                              "known here"),
    ('eval "$CMD"\n', "no launch found, but run.sh:1 runs `eval`, whose command is not read: what it starts is not "
                      "known here"),
    ("cd out\n./main --model x.om\n", "no launch found, but run.sh:2 runs the program ./main, which emulate does not "
                                      "follow: what it starts is not known here"),
    ("source ./$ENV_FILE\necho go\n", "no launch found, but run.sh:1 sources ./<unknown>, which is not read: what it "
                                      "starts is not known here"),
])
def test_a_launcher_running_a_command_it_cannot_read_is_unknown_never_no(tmp_path, text, why):
    (tmp_path / "run.sh").write_text(text)
    report = _emulate(tmp_path / "run.sh")
    assert report["usable"] is None and report["answer"]["why"] == why
    assert report["launch"]["lines"] == [f"no launch: {why}"]


def test_a_program_the_launcher_runs_is_named_before_a_script_it_sources_and_does_not_read(tmp_path):
    # ModelZoo-PyTorch's Scaling-nmt: env_npu.sh sources ${install_path}/ascend-toolkit/set_env.sh (not read), then
    # the launcher runs `fairseq-train` (a console script of the project's fairseq): the answer named the toolkit's
    # environment script as what may start something, and not the program that starts the training
    (tmp_path / "env_npu.sh").write_text("source ${install_path}/ascend-toolkit/set_env.sh\n"
                                         "export HCCL_WHITELIST_DISABLE=1\n")
    (tmp_path / "run.sh").write_text("source ./env_npu.sh\nnohup fairseq-train /data --arch transformer > log 2>&1 &\n"
                                     "wait\n")
    report = _emulate(tmp_path / "run.sh")
    assert report["usable"] is None and report["answer"]["why"] == (
        "no launch found, but run.sh:2 runs the program fairseq-train, which emulate does not follow: what it starts "
        "is not known here")


@pytest.mark.parametrize("text,said", [
    ("", "it is empty"), ("mkdir -p out\n/usr/bin/env echo hi\n", "it starts no Python script or msprof run"),
    # AnimeFaceGAN's scripts/run_msprof.sh: `python3.7 ${MSPROF_DIR}/msprof.py import -dir $1`, then query and export
    ("D=/opt/msprof\npython3.7 ${D}/msprof.py import -dir $1\npython3.7 ${D}/msprof.py export summary -dir $1\n",
     "it runs the toolkit's msprof.py analysis, of data collected earlier, and starts no training script or "
     "msprof run")])
def test_a_launcher_that_starts_nothing_says_so(tmp_path, capsys, text, said):
    (tmp_path / "run.sh").write_text(text)
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", str(tmp_path / "run.sh")]) == 1
    assert capsys.readouterr().out.split("\n")[1:3] == [f"run.sh: no launch: {said}, so a run of it collects nothing",
                                                        "usable data: no"]


def test_a_command_it_cannot_read_beside_launches_that_profile_nothing_leaves_the_answer_unknown(tmp_path):
    (tmp_path / "prep.py").write_text("import sys\n")
    (tmp_path / "run.sh").write_text("python3 prep.py\nPY=$1\n$PY train.py\n")
    report = _emulate(tmp_path / "run.sh")
    assert report["usable"] is None
    assert report["answer"]["why"] == ("no launch switches profiling on; but run.sh:3 runs `$PY`, not known "
                                       "statically: what it starts is not known here")


@pytest.mark.parametrize("line", ['eval set -- "$args"', "eval $name=$value", "[[ $1 == --help ]] && exit 1",
                                  "/usr/local/Ascend/driver/tools/msnpureport -f", 'echo"usage: ./run.sh <args>"',
                                  "source /usr/local/Ascend/ascend-toolkit/set_env.sh"])
def test_commands_that_start_nothing_keep_the_answer(tmp_path, line):
    (tmp_path / "prep.py").write_text("import sys\n")
    (tmp_path / "run.sh").write_text(f"{line}\npython3 prep.py\n")
    report = _emulate(tmp_path / "run.sh")
    assert (report["usable"], report["answer"]["why"]) == (False, "no launch switches profiling on")


def test_an_option_that_reaches_a_command_the_walk_cannot_read_is_not_said_to_go_nowhere(tmp_path):
    # `$PY_WRAP ./src/train.py --profiling=${profiling}`: PY_WRAP may well be python3 (the caller's), so the option
    # may reach a launch: NPP015 is not claimed, and emulate's answer stays unknown
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    launcher.write_text(launcher.read_text() + "$PY_WRAP ./src/train.py --profiling=${profiling}\n")
    assert check_file(launcher.read_text(), str(launcher), Settings(target=T)) == []
    report = _emulate(launcher, ["--data_path=/d", "--profiling=True"])
    assert report["usable"] is None
    assert report["answer"]["why"].endswith("; but train_full_1p.sh:30 runs `$PY_WRAP`, not known statically: what "
                                            "it starts is not known here")
    # without that line, the template's option goes nowhere (NPP015)
    assert [f.code for f in check_file(TEMPLATE.read_text(), str(TEMPLATE), Settings(target=T))] == ["NPP015"]


# ---------------------------------------------------------------- msprof starting a shell script

@pytest.mark.parametrize("line", ["msprof --output=/tmp/prof bash train.sh 3",
                                  'msprof --application="./train.sh 3" --output=/tmp/prof',
                                  "msprof --output=/tmp/prof bash -x ./train.sh 3"])
def test_msprofs_shell_application_is_walked_and_its_launches_run_under_msprof(tmp_path, line):
    (tmp_path / "train.py").write_text("import sys\n")
    (tmp_path / "train.sh").write_text("python3 train.py --epochs=$1\n")
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\n{line}\n")
    report = _emulate(tmp_path / "run.sh")
    app = line.split("application=")[1].split('"')[1] if "application" in line else \
        line.split("/tmp/prof ", 1)[1]
    assert report["launch"]["lines"][:4] == [
        "launch: train.sh:1 python3 train.py --epochs=3",
        f"  runs in {tmp_path}: the launcher's own directory, where it is meant to be started (it sets none with "
        "`cd`; give --cwd for another)",
        "  runs train.sh (run.sh:2)",
        f"  under msprof (run.sh:2): its application ({app}) runs this script; msprof's switches decide what is "
        "collected (--output=/tmp/prof)"]
    assert report["usable"] is True and [r.output_dir for r in report["results"]] == ["/tmp/prof"]
    assert report["launch"]["msprof"]["at"] == "run.sh:2"
    # msprof's own result is on msprof's line, not on the launch's inside its application
    assert [(os.path.basename(r.path), r.setup.line) for r in report["results"] if r.setup.route == "msprof"] == \
        [("run.sh", 2)]


NPU_SETUP = ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\nconfig = tf.ConfigProto()\n"
             "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
             "op.parameter_map['profiling_mode'].b = True\n"
             "op.parameter_map['profiling_options'].s = tf.compat.as_bytes('{\"output\": \"/tmp/prof\", "
             "\"task_trace\": \"on\"}')\nsess = tf.Session(config=config)\n")


def test_a_launch_msprofs_application_leaves_in_the_background_is_unknown(tmp_path):
    """msprof waits for its application's own process alone (waitpid), then exports and ends: a training its shell
    application starts with `&` and no `wait` may still run then. It was "COLLECTS", "usable data: yes"."""
    (tmp_path / "train.py").write_text(NPU_SETUP)
    (tmp_path / "train.sh").write_text("nohup python3 train.py > log 2>&1 &\necho started\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\nmsprof --output=/tmp/o bash train.sh\n")
    report = _emulate(tmp_path / "run.sh")
    why = ("msprof waits only for its application (bash train.sh), which starts this launch in the background at "
           "train.sh:1 and does not `wait` for it: msprof exports what its output holds when the application ends, "
           "and ends, maybe before this launch has collected anything; what is collected and exported is not known "
           "here")
    assert report["usable"] is None and report["answer"]["why"] == f"train.sh:1: line 2 msprof: {why}"
    assert [(r.setup.route, r.verdict, r.messages[0].text) for r in report["results"]] == [
        ("msprof", "unknown", why),
        # the script's own setup is overridden by msprof, said at msprof's line (it said "at train.sh:1")
        ("NpuOptimizer", "off", "overridden by msprof at run.sh:2: the collector takes msprof's configuration "
         "(PROFILER_SAMPLECONFIG) instead of this setup's profiling options, so msprof's flags decide what is "
         "collected")]
    # with `wait` the application lasts as long as the launch: msprof collects, as before
    (tmp_path / "train.sh").write_text("nohup python3 train.py > log 2>&1 &\nwait\n")
    assert _emulate(tmp_path / "run.sh")["usable"] is True
    # msprof itself in the background of the launcher: it still waits for its own application, and bash leaves a
    # background job running when the script ends (below)
    (tmp_path / "run.sh").write_text("#!/bin/bash\nmsprof --output=/tmp/o python3 train.py &\n")
    assert _emulate(tmp_path / "run.sh")["usable"] is True
    bash = shutil.which("bash")
    if bash is not None:
        done = tmp_path / "done"
        subprocess.run([bash, "-c", f"(sleep 1; touch {done}) &\nexit 0"], timeout=30)
        deadline = time.time() + 20
        while not done.exists() and time.time() < deadline:
            time.sleep(0.2)
        assert done.exists()


@pytest.mark.parametrize("line, then", [
    ("timeout 3600 msprof --output=/tmp/o python3 train.py", "timeout 3600 signals msprof and its application once "
     "that time has passed (msprof does not catch SIGTERM, timeout's default: it ends with them and exports nothing)"),
    ("timeout -s INT 10m msprof --output=/tmp/o python3 train.py", "timeout 10m signals msprof and its application "
     "once that time has passed (msprof stops them, and exports what was collected from CANN 9.0, nothing before)")])
def test_msprof_under_timeout_is_unknown(tmp_path, line, then):
    """timeout signals msprof and its whole process group when the time has passed: msprof catches SIGINT alone
    (and exports after it from 9.0). It was "COLLECTS", "usable data: yes"."""
    (tmp_path / "train.py").write_text(NPU_SETUP)
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\n{line}\n")
    report = _emulate(tmp_path / "run.sh")
    why = f"{then}; whether the run ends first is not known here"
    assert report["usable"] is None and report["answer"]["why"] == f"run.sh:2: line 2 msprof: {why}"
    assert report["results"][0].export_command == ""


def test_msprofs_application_that_cannot_be_walked_stays_msprofs(tmp_path):
    (tmp_path / "run.sh").write_text("msprof --output=/tmp/prof bash missing.sh\n")
    report = _emulate(tmp_path / "run.sh")
    assert report["launch"]["lines"][0] == "launch: run.sh:1 msprof --output=/tmp/prof bash missing.sh"
    assert report["launch"]["application"] == ["bash", "missing.sh"]


@pytest.mark.parametrize("app, wrapper, ranks", [
    ("torchrun --nproc_per_node=8 sub/train.py --epochs=3", "torchrun", 8),
    ("msrun --local_worker_num=2 sub/train.py --epochs=3", "msrun", 2),
    ("mpirun -np 4 python3 sub/train.py --epochs=3", "mpirun", 4),
])
@pytest.mark.parametrize("quoted", [False, True])
def test_msprofs_rank_launcher_application_starts_the_script_under_msprof(tmp_path, app, wrapper, ranks, quoted):
    # it was "the application (torchrun ...) is not a Python script: what it runs is not read": each rank's
    # script inherits msprof's environment, so it runs under this msprof
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "train.py").write_text("import sys\n")
    line = f'msprof --application="{app}"' if quoted else f"msprof {app}"
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\n{line}\n")
    report = _emulate(tmp_path / "run.sh")
    shown = f"'--application={app}'" if quoted else app
    assert report["launch"]["lines"][:4] == [
        f"launch: run.sh:2 msprof {shown}",
        f"  runs in {tmp_path}: the launcher's own directory, where it is meant to be started (it sets none with "
        "`cd`; give --cwd for another)",
        f"  started {ranks} times (one per rank, by {wrapper})",
        f"  under msprof (run.sh:2): its application ({app}) runs this script; msprof's switches decide what is "
        "collected (its defaults)"]
    assert (report["launch"]["script"], report["launch"]["ranks"]) == ("sub/train.py", ranks)
    # msprof's output is where it was before: msprof takes the rank launcher as its application, not the script
    (r,) = [r for r in report["results"] if r.setup.route == "msprof"]
    assert r.output_dir is None and any(f"else to {tmp_path};" in m.text for m in r.messages)


@pytest.mark.parametrize("release, shown", [("7.1", "torch_npu 7.1 (--torch-npu); "),
                                            ("portable", "every torch_npu release (--torch-npu); "), ("any", "")])
def test_a_launchers_target_line_names_the_torch_npu_release_its_launches_are_replayed_for(
        tmp_path, capsys, monkeypatch, release, shown):
    (tmp_path / "train.py").write_text("import torch_npu\n")
    (tmp_path / "run.sh").write_text("python3 train.py\n")
    monkeypatch.chdir(tmp_path)
    for command in (["run.sh"], ["--", "bash", "run.sh"], ["--", "python3", "train.py"]):
        main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", release, *command])
        assert capsys.readouterr().out.split("\n")[0] == f"target: {shown}CANN 8.0 (--cann) / Ascend 910B (--soc)"


@pytest.mark.parametrize("app, verdict, why", [
    ("msrun --local_worker_num=2 train.py", "unknown", "msrun --join=False (its default)"),
    ("msrun --join False --local_worker_num=2 train.py", "unknown", "msrun --join=False (its default)"),
    ("msrun --join=$J train.py", "unknown", "msrun's --join is not known here"),
    ("msrun --join=True --local_worker_num=2 train.py", "collects", ""),
    ("msrun --local_worker_num=2 train.py --join=False", "unknown", "msrun --join=False (its default)"),
])
def test_msprof_over_msrun_without_join_ends_when_its_workers_start(tmp_path, app, verdict, why):
    # msrun returns once it has started its workers unless --join=True, and msprof waits for its application alone
    (tmp_path / "train.py").write_text("import sys\n")
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\nmsprof --output=/tmp/prof {app}\n")
    report = _emulate(tmp_path / "run.sh")
    (r,) = [r for r in report["results"] if r.setup.route == "msprof"]
    assert r.verdict == verdict
    if why:
        assert r.messages[0].text == (
            f"msprof waits only for its application, and {why} returns once it has started its workers: msprof "
            "exports what its output holds and ends then, maybe before they have collected anything; what is "
            "collected and exported is not known here (msrun --join=True waits for them)")
        assert report["usable"] is None


def test_a_redirection_glued_to_the_last_word_is_not_part_of_it(tmp_path):
    # 3D_UNet-Medical's launcher: `-mode=${mode}> $cur_path/output/train.log 2>&1 &`. bash ends the word at `>`
    # (only digits before it make a file descriptor: `2>`), so the script gets --profiling=True, not 'True>' and
    # the log's path as one more argument
    (tmp_path / "train.py").write_text(
        "import argparse\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--profiling', default='False')\n"
        "args = parser.parse_args()\n\nconfig = tf.ConfigProto()\n"
        "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
        "custom_op.name = 'NpuOptimizer'\nif args.profiling == 'True':\n"
        "    custom_op.parameter_map['profiling_mode'].b = True\n"
        "    custom_op.parameter_map['profiling_options'].s = tf.compat.as_bytes("
        "'{\"output\":\"/tmp/prof\",\"task_trace\":\"on\"}')\n"
        "with tf.Session(config=config) as sess:\n    sess.run(tf.no_op())\n")
    launcher = tmp_path / "run.sh"
    launcher.write_text("profiling=$1\npython3 train.py --profiling=${profiling}> log 2>&1 &\nwait\n")
    report = _emulate(launcher, ["True"])
    assert _argv(report)[:4] == ["python3", "train.py", "--profiling=True", ">"]
    assert report["usable"] is True


REBOUND = '''import tensorflow as tf
from npu_bridge.npu_init import *

flags = tf.flags
FLAGS = flags.FLAGS
flags.DEFINE_bool("profiling", False, "profile")


def main(_):
    profiling_config = ProfilingConfig(enable_profiling=False, profiling_options=None)
    if FLAGS.profiling:
        profiling_config = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"/tmp/p","task_trace":"on"}')
    run_config = NPURunConfig(profiling_config=profiling_config, model_dir="/tmp/m")
    NPUEstimator(model_fn=None, config=run_config).train(input_fn=None, max_steps=10)


if __name__ == "__main__":
    tf.app.run()
'''


@pytest.mark.parametrize("flag, usable", [("--profiling=True", True), ("--profiling=False", False)])
def test_a_config_bound_again_under_a_flag_the_launch_passes_is_the_one_ge_reads(tmp_path, flag, usable):
    # BERT's run_classifier.py: a config that is off, then the same name bound again under `if FLAGS.profiling:`.
    # With the flag given, the NPURunConfig gets the second one (it was "which one GE reads is not settled here")
    (tmp_path / "train.py").write_text(REBOUND)
    launcher = tmp_path / "run.sh"
    launcher.write_text(f"python3 train.py {flag}\n")
    report = _emulate(launcher)
    assert report["usable"] is usable
    first, second = report["results"]
    assert first.verdict == "off" and second.verdict == ("collects" if usable else "off")
    if usable:
        assert [str(m) for m in first.messages] == [
            "replaced in this launch: line 12 binds `profiling_config` again first, so the GE initialisation on "
            "line 14 gets that config, not this one"]


@pytest.mark.parametrize("flag, usable, said", [
    ("--profiling=True", True, "`args.profiling == 'True'` is true in this launch (--profiling=True from run.sh:1)"),
    ("", False, "`args.profiling == 'True'` is false in this launch (the default of --profiling, which the launcher "
     "does not pass)")])
def test_a_string_flag_compared_with_true_is_decided_by_the_launch(tmp_path, flag, usable, said):
    # the model zoo's TF2 YoloV3: `if args.profiling == 'True':` around npu_device's profiling_config; launched
    # with --profiling=False (or nothing) it said "usable data: yes (where its conditions hold)"
    (tmp_path / "train.py").write_text(
        "import argparse\nimport npu_device\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--profiling', type=str, default='False')\nargs, _ = parser.parse_known_args()\n\n\n"
        "def npu_config(args):\n    if args.profiling == 'True':\n"
        "        npu_device.global_options().profiling_config.enable_profiling = True\n"
        "        npu_device.global_options().profiling_config.profiling_options = "
        "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n    npu_device.open().as_default()\n\n\nnpu_config(args)\n")
    launcher = tmp_path / "run.sh"
    launcher.write_text(f"python3 train.py {flag}\n")
    report = _emulate(launcher)
    assert report["usable"] is usable and f"  {said}" in report["launch"]["lines"]


@pytest.mark.parametrize("flag, usable, said", [
    ("--profiling=True", True, "`args.profiling.strip() == 'True'` is true in this launch (--profiling=True from "
     "run.sh:1)"),
    ("--profiling=' TRUE'", False, "`args.profiling.lower() == 'true'` is false in this launch (--profiling= TRUE from "
     "run.sh:1)"),
    ("", False, "`args.profiling.strip() == 'True'` is false in this launch (the default of --profiling, which the "
     "launcher does not pass)")])
def test_a_string_flag_stripped_or_lowered_is_decided_by_the_launch(tmp_path, flag, usable, said):
    # the model zoo's `if args.profiling.strip() == "True":` (Textcnn, OpenPose, TCN, FastText, Pix2Pix, RCNN): it
    # was a condition the launch did not decide, and the default it named was "--strip"
    test = "args.profiling.lower() == 'true'" if "TRUE" in flag else "args.profiling.strip() == 'True'"
    (tmp_path / "train.py").write_text(
        "import argparse\nimport npu_device\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--profiling', type=str, default='False')\nargs = parser.parse_args()\n"
        f"if {test}:\n    npu_device.global_options().profiling_config.enable_profiling = True\n"
        "    npu_device.global_options().profiling_config.profiling_options = "
        "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\nnpu_device.open().as_default()\n")
    launcher = tmp_path / "run.sh"
    launcher.write_text(f"python3 train.py {flag}\n")
    report = _emulate(launcher)
    assert report["usable"] is usable and f"  {said}" in report["launch"]["lines"]


STR2BOOL = ("def str2bool(v):\n    \"\"\"Yes or no.\"\"\"\n    if v.lower() in ('yes', 'true', 't', 'y', '1'):\n"
            "        return True\n    elif v.lower() in ('no', 'false', 'f', 'n', '0'):\n        return False\n"
            "    else:\n        raise argparse.ArgumentTypeError('Boolean value expected.')\n")


@pytest.mark.parametrize("where, flag, usable, said", [
    # ModelZoo-PyTorch's SSD-MobileNetV1 (`def str2bool(s): return s.lower() in ('true', '1')` in vision/utils/misc.py,
    # `--prof=False` in its launchers): it said "fails: line 136, when args.prof" (python 3.11: args.prof is False)
    ("misc", "--profiling=False", False, "`args.profiling` is false in this launch (--profiling=False from run.sh:1)"),
    ("own", "--profiling=False", False, "`args.profiling` is false in this launch (--profiling=False from run.sh:1)"),
    ("utils", "--profiling=False", False, "`args.profiling` is false in this launch (--profiling=False from run.sh:1)"),
    ("utils", "--profiling=Yes", True, "`args.profiling` is true in this launch (--profiling=Yes from run.sh:1)"),
    # argparse stops the script on `maybe`: str2bool raises ArgumentTypeError, argparse's _get_value makes it an
    # ArgumentError and parse_known_args calls error(), which exits with status 2 (python 3.11: "train.py: error:
    # argument --profiling: Boolean value expected.", status 2, nothing after parse_args runs). It said "usable data:
    # yes (where its conditions hold)", COLLECTS when args.profiling
    # (the stop is the script's, whatever it reads: said of every setup after parse_args)
    ("utils", "--profiling=maybe", False, "the setup does not run: argparse stops the script "
     "in parse_args: str2bool(), the type of --profiling (train.py:6), raises argparse.ArgumentTypeError on "
     "--profiling=maybe from run.sh:1, so argparse exits with status 2"),
    # a body of other calls (len) is not run here
    ("len", "--profiling=False", True, None)])
def test_a_flag_converted_by_the_projects_own_pure_function_is_decided_by_the_launch(
        tmp_path, where, flag, usable, said):
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "__init__.py").write_text("")
    (tmp_path / "utils" / "misc.py").write_text("import argparse\n\n\n" + STR2BOOL + "\n\ndef ssd(s):\n"
                                                "    return s.lower() in ('true', '1')\n")
    own = {"own": STR2BOOL, "len": "def str2bool(v):\n    return len(v) < 5\n"}.get(where, "")
    imported = {"misc": "from utils.misc import ssd as str2bool\n", "utils": "from utils.misc import str2bool\n"}
    (tmp_path / "train.py").write_text(
        "import argparse\nimport npu_device\n" + imported.get(where, "") + own +
        "\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--profiling', type=str2bool, default=False)\nargs = parser.parse_args()\n"
        "if args.profiling:\n    npu_device.global_options().profiling_config.enable_profiling = True\n"
        "    npu_device.global_options().profiling_config.profiling_options = "
        "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\nnpu_device.open().as_default()\n")
    launcher = tmp_path / "run.sh"
    launcher.write_text(f"python3 train.py {flag}\n")
    report = _emulate(launcher)
    lines = report["launch"]["lines"]
    assert report["usable"] is usable
    assert f"  {said}" in lines if said else not any("args.profiling" in x for x in lines)


@pytest.mark.parametrize("flag, out", [
    # torch_npu's profiler under `if args.prof:` with `type=str2bool` that raises ValueError on `maybe`: python 3.11
    # prints "train.py: error: argument --prof: invalid str2bool value: 'maybe'" and exits with status 2 in
    # parse_args. It said "collects (when args.prof)", "usable data: yes (where its conditions hold)"
    ("--prof maybe", "train.py: torch_npu's profiler is off: line 17: not run in this launch: argparse stops the "
     "script in parse_args: str2bool(), the type of --prof (train.py:14), raises ValueError on --prof maybe from "
     "run.sh:1, so argparse exits with status 2"),
    # a value it takes: decided as before
    ("--prof yes", "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)"),
    # given twice: argparse converts each value and stops on `maybe` (python 3.9.18 and 3.13.0: status 2); it said
    # "collects", reading the last value alone, then "collects (when args.prof)" (s63: each word read)
    ("--prof maybe --prof yes", "train.py: torch_npu's profiler is off: line 17: not run in this launch: argparse "
     "stops the script in parse_args: str2bool(), the type of --prof (train.py:14), raises ValueError on --prof maybe "
     "from run.sh:1, so argparse exits with status 2"),
])
def test_a_launch_whose_flag_the_type_function_raises_on_stops_in_parse_args(tmp_path, capsys, flag, out):
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\n\ndef str2bool(v):\n    if v.lower() in ('yes', 'true', '1'):\n"
        "        return True\n    elif v.lower() in ('no', 'false', '0'):\n        return False\n"
        "    raise ValueError(v)\n\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--prof', type=str2bool, default=False)\nargs = parser.parse_args()\nif args.prof:\n"
        "    with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p')) as prof:"
        "\n        prof.step()\n")
    (tmp_path / "run.sh").write_text(f"python3 train.py {flag}\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert capsys.readouterr().out.splitlines()[3] == out


@pytest.mark.parametrize("raised, end", [
    # python 3.11, run: a subclass of ValueError is a usage error (status 2), as are UnicodeError and an ArgumentError
    # raised by the function; KeyError and a bare raise (RuntimeError) go on (status 1, a traceback). A class of the
    # project's own is not looked into: it said "raises BadBool ..., an exception argparse does not catch", and
    # argparse exits with status 2 on it ("argument --prof: invalid str2bool value: 'maybe'")
    ("BadBool(v)", "so argparse exits with status 2 if BadBool is a TypeError or ValueError, else the exception stops "
     "the script there"),
    ("UnicodeError(v)", "so argparse exits with status 2"),
    ("argparse.ArgumentError(None, v)", "so argparse exits with status 2"),
    ("KeyError(v)", "an exception argparse does not catch, so the script stops there")])
def test_what_argparse_does_with_what_the_type_function_raises(tmp_path, capsys, raised, end):
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\n\nclass BadBool(ValueError):\n    pass\n\n\ndef str2bool(v):\n"
        "    if v.lower() in ('yes', 'true', '1'):\n        return True\n"
        f"    raise {raised}\n\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--prof', type=str2bool, default=False)\nargs = parser.parse_args()\nif args.prof:\n"
        "    with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p')) as prof:"
        "\n        prof.step()\n")
    (tmp_path / "run.sh").write_text("python3 train.py --prof maybe\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert capsys.readouterr().out.splitlines()[3] == (
        "train.py: torch_npu's profiler is off: line 19: not run in this launch: argparse stops the script in "
        f"parse_args: str2bool(), the type of --prof (train.py:16), raises {raised.split('(')[0]} on --prof maybe "
        f"from run.sh:1, {end}")


@pytest.mark.parametrize("parser, parse", [
    # python 3.11, run: argparse's exit (SystemExit) caught and the defaults parsed: the profiler runs (prof=True)
    ("argparse.ArgumentParser()", "try:\n    args = parser.parse_args()\nexcept SystemExit:\n"
     "    args = parser.parse_args([])\n"),
    # exit_on_error=False: parse_args raises ArgumentError, caught
    ("argparse.ArgumentParser(exit_on_error=False)", "try:\n    args = parser.parse_args()\n"
     "except argparse.ArgumentError:\n    args = parser.parse_args([])\n"),
    # in a function of the file called under a bare except
    ("argparse.ArgumentParser()", "def parse():\n    return parser.parse_args()\n\n\ntry:\n    args = parse()\n"
     "except:\n    args = parser.parse_args([])\n")])
def test_a_raising_type_function_under_a_try_may_not_stop_the_script(tmp_path, capsys, parser, parse):
    # it said "torch_npu's profiler is off: ...: argparse stops the script in parse_args: ..., so argparse exits with
    # status 2", where the script goes on with its defaults and runs the profiler
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\n\ndef str2bool(v):\n    if v.lower() in ('yes', 'true', '1'):\n"
        f"        return True\n    raise ValueError(v)\n\n\nparser = {parser}\n"
        "parser.add_argument('--prof', type=str2bool, default=True)\n" + parse + "if args.prof:\n"
        "    with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p')) as prof:"
        "\n        prof.step()\n")
    (tmp_path / "run.sh").write_text("python3 train.py --prof maybe\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert capsys.readouterr().out.splitlines()[3] == (
        "train.py: torch_npu's profiler collects (when args.prof) (emulate train.py for its steps and folders)")


@pytest.mark.parametrize("flag, usable", [("", False), ("--profiling=True", None)])
def test_one_false_if_is_enough_whatever_an_outer_one_is(tmp_path, flag, usable):
    # the model zoo's TF Aligned-ReID: `if FLAGS.chip.lower() == 'npu':` (a method call, not evaluated before) around
    # `if FLAGS.profiling:`; its launcher never passes --profiling, yet emulate said "usable data: yes (where its
    # conditions hold)": the inner test alone decides that nothing runs
    (tmp_path / "train.py").write_text(
        "import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\nFLAGS = tf.flags.FLAGS\n"
        "tf.flags.DEFINE_string('chip', 'npu', 'npu or gpu')\ntf.flags.DEFINE_boolean('profiling', False, 'p')\n\n\n"
        "def main(argv=None):\n    if FLAGS.chip.lower() == 'npu':\n        config = tf.ConfigProto()\n"
        "        op = config.graph_options.rewrite_options.custom_optimizers.add()\n        op.name = 'NpuOptimizer'\n"
        "        if FLAGS.profiling:\n            op.parameter_map['profiling_mode'].b = True\n"
        "            op.parameter_map['profiling_options'].s = tf.compat.as_bytes('{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}')\n"
        "        sess = tf.Session(config=config)\n\n\nif __name__ == '__main__':\n    tf.app.run()\n")
    launcher = tmp_path / "run.sh"
    launcher.write_text(f"python3 train.py {flag}\n")
    report = _emulate(launcher)
    if usable is False:
        assert report["usable"] is False and report["launch"]["lines"][-1] == (
            "  `FLAGS.profiling` is false in this launch (the default of --profiling, which the launcher does not pass)")
    else:                   # true, and so is the outer test now (`.lower()` of the str flag is worked out)
        assert report["results"][0].verdict == "collects" and report["results"][0].setup.conditions == ()
        assert report["usable"] is True and "  `FLAGS.chip.lower() == 'npu'` is true in this launch (the default of " \
            "--chip, which the launcher does not pass)" in report["launch"]["lines"]


@pytest.mark.parametrize("launcher, out", [
    # `AA=1 BB=2 ... bash child.sh`: the walk logged what the child sees name by name from a set, so its launches'
    # environment came in an order PYTHONHASHSEED chose (1: PROFILING_MODE, PROFILING_OPTIONS, BB, AA, DD, CC, EE;
    # 2: PROFILING_MODE, BB, EE, PROFILING_OPTIONS, CC, DD, AA): now the order they are set in
    ("export PROFILING_MODE=true\nAA=1 BB=2 CC=3 DD=4 EE=5 PROFILING_OPTIONS=x bash child.sh 0\n",
     "[['PROFILING_MODE', 'AA', 'BB', 'CC', 'DD', 'EE', 'PROFILING_OPTIONS']]\n"),
    # what a subshell unsets comes back after it, logged from a set likewise (1: DD, FF, BB, AA, CC, EE)
    ("export AA=1 BB=2 CC=3 DD=4 EE=5 FF=6\n( unset AA BB CC DD EE FF; python3 train.py )\npython3 train.py\n",
     "[[], ['AA', 'BB', 'CC', 'DD', 'EE', 'FF']]\n"),
])
def test_the_environment_of_a_launch_comes_in_one_order_whatever_the_hash_seed(tmp_path, launcher, out):
    import sys
    (tmp_path / "run.sh").write_text("#!/bin/bash\n" + launcher)
    (tmp_path / "child.sh").write_text("#!/bin/bash\npython3 train.py\n")
    code = ("import sys\nfrom flake8_npuprof.shell.launches import steps\nfrom flake8_npuprof.shell.walk import Walk\n"
            "print([list(la.command.env) for la in steps(Walk(sys.argv[1]).run())])\n")
    outs = {subprocess.run([sys.executable, "-c", code, str(tmp_path / "run.sh")], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert outs == {out}


@pytest.mark.parametrize("args, words", [
    (["0"], ["python3", "train.py", "--rank", "0", "--next", "1"]),
    (["3"], ["python3", "train.py", "--rank", "3", "--next", "4"]),
    # none given: bash counts an empty parameter 0 in an arithmetic
    ([], ["python3", "train.py", "--rank", "0", "--next", "1"]),
])
def test_old_arithmetic_is_expanded_as_bash_does(tmp_path, args, words):
    # mindrlhf's run_standalone_train.sh: `RANK_START=$3; cd ${ROOT_PATH}/device$[RANK_START]` left the launch's
    # directory unknown ("the output of a command in it is not known statically"); bash gives `$[x]` as `$((x))`
    w = _walk(tmp_path, "#!/bin/bash\nR=$1\nmkdir -p dev$[R]\ncd dev$[R]\n"
              "python3 ../train.py --rank $[R] --next $[R+1]\n", args)
    assert [[x.replace("../", "") for x in ws] for ws in _words(w)][-1] == words
    assert [c.cwd for c in w.commands][-1] == (str(tmp_path / f"dev{words[3]}"),)


@pytest.mark.parametrize("body, text, out", [
    # as python 3.11 runs them: `and`/`or` give an operand, a chain of == is each pair's, a bare return is None
    ("return s.strip() == 'on' or s", " x ", (" x ",)),
    ("return not s.upper() != 'ON' and 1", "on", (1,)),
    ("if s == 'a' == s.lower():\n        return True\n    return", "a", (True,)),
    ("if s == 'a' == s.lower():\n        return True\n    return", "A", (None,)),
    ("return s not in 'yes'", "es", (False,)),
    # not run: a call other than lower/upper/strip, `in` on an int (TypeError), a default, a name not the parameter
    ("return len(s) > 1", "ab", None),
    ("return s in 1", "1", None),
    ("return s in FLAGS", "1", None)])
def test_a_pure_type_function_runs_as_python_does(body, text, out):
    import ast
    from flake8_npuprof.values.type_function import Raised, call
    func = ast.parse(f"def f(s):\n    {body}\n").body[0]
    assert call(func, text) == out
    assert call(ast.parse("def f(s, t=1):\n    return True\n").body[0], "x") is None
    with pytest.raises(Raised):
        call(ast.parse("def f(s):\n    if s:\n        raise ValueError(s)\n").body[0], "x")


def test_an_option_the_launcher_reads_and_drops_is_said_where_the_script_is_off_for_its_own_reason(tmp_path):
    # XLM_ID0740's launcher reads --profiling=True into a variable no launch gets, and its train.py's profiler is off
    # for a reason of its own: the answer gave that reason and said nothing of the option the user passed
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    src = tmp_path / "p" / "src" / "train.py"
    src.write_text("import os\nfrom torch_npu.utils.profiler import Profile\n"
                   "profiler = Profile(start_step=int(os.getenv('PROFILE_START_STEP', 10)), "
                   "profile_type=os.getenv('PROFILE_TYPE'))\n")
    report = _emulate(tmp_path / "p" / "test" / "train_full_1p.sh", ["--data_path=/d", "--profiling=True"])
    assert report["usable"] is False
    assert report["answer"]["why"] == (
        "Profile (train.py:3) stays off: PROFILE_TYPE is not set in this launch (the caller's environment is not read "
        "without --env), so "
        "nothing is collected (PROFILE_TYPE=ASCEND_PROFILER switches it on from torch_npu 6.0); --profiling=True on "
        "this launcher changes no launch: none gets --profiling or anything made from it")


def test_an_option_the_launcher_drops_is_said_where_the_answer_is_unknown(tmp_path):
    # MindSpeed-MM's finetune_ocr2.sh passes none of its arguments on, and its script's profiler is in a module it
    # imports (not emulated: the answer is unknown): `--profiling` was not named, as if the launcher had taken it
    shutil.copytree(TEMPLATE.parent.parent, tmp_path / "p")
    src = tmp_path / "p" / "src"
    (src / "prof.py").write_text("import torch_npu\n\n\ndef run():\n    prof = torch_npu.profiler.profile()\n"
                                 "    prof.start()\n")
    (src / "train.py").write_text("import prof\nprof.run()\n")
    launcher = tmp_path / "p" / "test" / "train_full_1p.sh"
    unknown = ("train_full_1p.sh:29: train.py has no profiling setup of its own, but prof.py, which it imports, "
               "names one (line 5: `prof = torch_npu.profiler.profile()`): a setup in a module it imports is not "
               "emulated here")
    report = _emulate(launcher, ["--data_path=/d", "--profiling=True"])
    assert report["usable"] is None
    assert report["answer"]["why"] == (f"{unknown}; --profiling=True on this launcher changes no launch: none gets "
                                       "--profiling or anything made from it")
    # an option the launcher never reads (only its help names it)
    text = launcher.read_text()
    launcher.write_text(text.replace(text[text.index("    elif [[ $para == --profiling*"):
                                          text.index("    elif [[ $para == --data_path*")], ""))
    unknown = unknown.replace("train_full_1p.sh:29:", "train_full_1p.sh:25:")      # (its 4 lines taken out)
    assert _emulate(launcher, ["--data_path=/d", "--profiling=True"])["answer"]["why"] == \
        f"{unknown}; --profiling=True on this launcher changes no launch: each is the same without it"
    assert _emulate(launcher, ["--data_path=/d"])["answer"]["why"] == unknown


def test_an_option_the_launcher_writes_into_a_file_the_script_reads_is_not_said_lost(tmp_path, capsys):
    # bash 5.2: `echo "{\"prof\": \"${profiling}\"}" > cfg.json` writes True with --profiling=True, and train.py reads
    # it and runs prof.run(). It said "--profiling=True on this launcher changes no launch: none gets --profiling or
    # anything made from it": the walks compared the launches alone, not the files the launcher writes
    (tmp_path / "prof.py").write_text("import torch_npu\n\n\ndef run():\n    prof = torch_npu.profiler.profile()\n"
                                      "    prof.start()\n")
    (tmp_path / "train.py").write_text("import json\nimport prof\ncfg = json.load(open('cfg.json'))\n"
                                       "if cfg['prof'] == 'True':\n    prof.run()\n")
    (tmp_path / "run.sh").write_text(
        "#!/bin/bash\nprofiling=False\nfor para in $*\ndo\n    if [[ $para == --profiling* ]]; then\n"
        "        profiling=`echo ${para#*=}`\n    fi\ndone\necho \"{\\\"prof\\\": \\\"${profiling}\\\"}\" > cfg.json\n"
        "python3 train.py\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh"), "--", "--profiling=True"])
    assert capsys.readouterr().out.splitlines()[4] == (
        "usable data: unknown (run.sh:10: train.py has no profiling setup of its own, but prof.py, which it imports, "
        "names one (line 5: `prof = torch_npu.profiler.profile()`): a setup in a module it imports is not emulated "
        "here)")


def test_a_flag_given_to_a_launcher_that_takes_folders_by_position_stops_python(tmp_path, capsys):
    # AnimeFaceGAN's run_1p.sh: `code_dir=${1}` ... `python3.7 ${code_dir}/train.py`. Started with
    # `--data_path=/d --profiling=True`, python is given `--data_path=/d/train.py` and stops there (CPython 3.7-3.13:
    # "unknown option --data_path=/d/train.py", status 2). It said "no launch: it starts no Python script"
    (tmp_path / "train.py").write_text("import argparse\nargparse.ArgumentParser().parse_known_args()\n")
    (tmp_path / "run_1p.sh").write_text("code_dir=${1}\ndata_dir=${2}\npython3 ${code_dir}/train.py "
                                        "--dataset=${data_dir}\n")
    main(["emulate", str(tmp_path / "run_1p.sh"), "--", "--data_path=/d", "--profiling=True"])
    out = capsys.readouterr().out.splitlines()
    refused = ('python stops at --data_path=/d/train.py, which is not an option of the interpreter ("unknown option '
               '--data_path=/d/train.py", status 2): it runs no script')
    assert out[1:4] == ["launch: run_1p.sh:3 python3 --data_path=/d/train.py --dataset=--profiling=True",
                        f"  no script: {refused}", f"usable data: no ({refused})"]
    got = subprocess.run([sys.executable, "--data_path=/d/train.py"], capture_output=True, text=True)
    assert (got.returncode, got.stderr.splitlines()[0]) == (2, "unknown option --data_path=/d/train.py")


@pytest.mark.parametrize("line, script", [
    ("python3 --version train.py", None),           # prints and exits (each of -h, -V, -VV, -?, --help: 0)
    ("python3 -? train.py", None),
    ("python3 --check-hash-based-pycs always train.py", "train.py"),
    ("python3 -- train.py", "train.py"),
    ("python3 -u -W ignore train.py", "train.py"),
    # short options joined (python 3.11 ran each: the script runs): not a long option it refuses
    ("python3 -uB train.py", "train.py"),
    ("python3 -OO train.py", "train.py"),
    ("python3 -bb -I train.py", "train.py"),
])
def test_the_interpreter_options_that_exit_or_go_on(tmp_path, line, script):
    (tmp_path / "train.py").write_text("pass\n")
    found = [os.path.basename(la.script) for la in launches(_walk(tmp_path, line + "\n"))]
    assert found == ([script] if script else [])


PROFILE = ("    with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler('./p')) "
           "as prof:\n        prof.step()\n")


@pytest.mark.parametrize("kind, word, raised, end", [
    # python 3.9 and 3.13 ran it: "error: argument --prof: invalid int value: 'True'" (float, literal_eval alike),
    # status 2
    ("int", "--prof=True", "ValueError", "so argparse exits with status 2"),
    ("float", "--prof one", "ValueError", "so argparse exits with status 2"),
    ("ast.literal_eval", "--prof=false", "ValueError", "so argparse exits with status 2"),
    # a SyntaxError is no error argparse reports: the traceback stops the script (status 1)
    ("ast.literal_eval", "--prof=1+", "SyntaxError",
     "an exception argparse does not catch, so the script stops there")])
def test_a_value_its_type_does_not_convert_stops_the_script(tmp_path, capsys, kind, word, raised, end):
    # it said "torch_npu's profiler collects (when args.prof)" and "usable data: yes (where its conditions hold)"
    (tmp_path / "train.py").write_text(
        "import argparse\nimport ast\nimport torch_npu\n\nparser = argparse.ArgumentParser()\n"
        f"parser.add_argument('--prof', type={kind}, default=0)\nargs = parser.parse_args()\nif args.prof:\n" + PROFILE)
    (tmp_path / "run.sh").write_text(f"python3 train.py {word}\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    name = kind.split(".")[-1]
    stop = (f"{name}(), the type of --prof (train.py:6), raises {raised} on {word} from run.sh:1, {end}")
    if kind in ("int", "float"):    # a type argparse's own reading knows (values/argv_words.first_stop) names its error
        value = word.split("=")[-1].split()[-1]
        stop = (f"{word} from run.sh:1 is not what --prof takes, so argparse exits with status 2 (\"error: argument "
                f"--prof: invalid {kind} value: '{value}'\")")
    assert capsys.readouterr().out.splitlines()[3] == (
        f"train.py: torch_npu's profiler is off: line 9: not run in this launch: argparse stops the script in "
        f"parse_args: {stop}")


@pytest.mark.parametrize("kind, word", [("int", "--prof=1"), ("int", "--prof= 7"), ("float", "--prof=1e3"),
                                        ("ast.literal_eval", "--prof=True"), ("ast.literal_eval", "--prof= 1")])
def test_a_value_its_type_converts_or_may_convert(tmp_path, capsys, kind, word):
    # int(' 7') is 7; ast.literal_eval(' 1') is 1 on python 3.10+ and a SyntaxError on 3.9: not decided
    (tmp_path / "train.py").write_text(
        "import argparse\nimport ast\nimport torch_npu\n\nparser = argparse.ArgumentParser()\n"
        f"parser.add_argument('--prof', type={kind}, default=0)\nargs = parser.parse_args()\nif args.prof:\n" + PROFILE)
    (tmp_path / "run.sh").write_text(f"python3 train.py '{word}'\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert "argparse stops" not in capsys.readouterr().out


def test_a_value_its_type_does_not_convert_under_a_try(tmp_path, capsys):
    # argparse's exit caught and the defaults parsed: the script goes on (prof=0)
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--prof', type=int, default=0)\ntry:\n    args = parser.parse_args()\nexcept SystemExit:\n"
        "    args = parser.parse_args([])\nif args.prof:\n" + PROFILE)
    (tmp_path / "run.sh").write_text("python3 train.py --prof=True\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert "argparse stops" not in capsys.readouterr().out


@pytest.mark.parametrize("words", ["--prof=on --level", "--level --prof=on", "--prof=on --level -h"])
def test_an_option_given_no_value_stops_the_script(tmp_path, capsys, words):
    # python 3.9, 3.12 and 3.13 ran it: "error: argument --level: expected one argument", status 2 (an option word
    # after it is no value); it said "collects" and "usable data: yes", or took `--prof=on` as --level's value
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--prof', type=str, default='off')\nparser.add_argument('--level', type=int, default=0)\n"
        "args = parser.parse_args()\nif args.prof == 'on':\n" + PROFILE)
    (tmp_path / "run.sh").write_text(f"python3 train.py {words}\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert capsys.readouterr().out.splitlines()[3] == (
        "train.py: torch_npu's profiler is off: line 9: not run in this launch: argparse stops the script in "
        "parse_args: --level from run.sh:1 takes a value and is given none, so argparse exits with status 2 "
        "(\"error: argument --level: expected one argument\")")


@pytest.mark.parametrize("words, said", [
    # a negative number is a value (the parser has no option like one); `-` is a positional, so a value
    ("--prof=on --level -1", "collects"), ("--prof=on --level -", "collects"),
    # nargs='?' takes none (its const), and a flag of the script's own parser is all that is decided
    ("--prof=on --opt", "collects")])
def test_an_option_whose_next_word_is_its_value(tmp_path, capsys, words, said):
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--prof', type=str, default='off')\nparser.add_argument('--level', default=0)\n"
        "parser.add_argument('--opt', nargs='?', const=1)\n"
        "args = parser.parse_args()\nif args.prof == 'on':\n" + PROFILE)
    (tmp_path / "run.sh").write_text(f"python3 train.py {words}\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert capsys.readouterr().out.splitlines()[3].startswith(f"train.py: torch_npu's profiler {said}")


def test_a_comparison_reading_a_flag_argparse_stops_before(tmp_path, capsys):
    # `if args.prof == 'on':` with a word train.py does not define: python 3.11 exits with status 2 in parse_args;
    # it said "collects (when args.prof == 'on')" (the stop was seen for `if args.prof:` alone)
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--prof', type=str, default='off')\n"
        "args = parser.parse_args()\nif args.prof.lower() == 'on' and args.prof:\n" + PROFILE)
    (tmp_path / "run.sh").write_text("python3 train.py --prof=on --xyz\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert capsys.readouterr().out.splitlines()[3] == (
        "train.py: torch_npu's profiler is off: line 8: not run in this launch: argparse stops the script in "
        "parse_args: --xyz from run.sh:1 is no option train.py defines, so argparse exits with status 2 (\"error: "
        "unrecognized arguments\", naming --xyz)")


def test_an_option_given_no_value_with_exit_on_error_false(tmp_path, capsys):
    # python 3.9, 3.12 and 3.13 ran it: parse_args raises argparse.ArgumentError ("expected one argument"), status 1
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\nparser = argparse.ArgumentParser(exit_on_error=False)\n"
        "parser.add_argument('--prof', type=str, default='off')\nparser.add_argument('--level', type=int, default=0)\n"
        "args = parser.parse_args()\nif args.prof == 'on':\n" + PROFILE)
    (tmp_path / "run.sh").write_text("python3 train.py --prof=on --level\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert capsys.readouterr().out.splitlines()[3] == (
        "train.py: torch_npu's profiler is off: line 9: not run in this launch: argparse stops the script in "
        "parse_args: --level from run.sh:1 takes a value and is given none, so argparse raises "
        "argparse.ArgumentError (\"argument --level: expected one argument\")")


@pytest.mark.parametrize("word, shown", [("--prof=True", "--prof=True"), ("--lvl 3", "--lvl 3")])
def test_a_value_outside_the_flag_choices_stops_the_script(tmp_path, capsys, word, shown):
    # python 3.9 and 3.13 ran it: "argument --prof: invalid choice: 'True' (choose from 'NONE', 'CANN', 'GE')",
    # status 2; `if args.prof != 'NONE':` made it "collects (when ...)" and "usable data: yes"
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--prof', type=str, default='NONE', choices=['NONE', 'CANN', 'GE'])\n"
        "parser.add_argument('--lvl', type=int, default=1, choices=(0, 1, 2))\n"
        "args = parser.parse_args()\nif args.prof != 'NONE' or args.lvl:\n" + PROFILE)
    (tmp_path / "run.sh").write_text(f"python3 train.py {word}\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    option = shown.split("=")[0].split()[0]
    value = "'True'" if option == "--prof" else "3"     # (type=int's choices show the converted value)
    assert capsys.readouterr().out.splitlines()[3] == (
        f"train.py: torch_npu's profiler is off: line 9: not run in this launch: argparse stops the script in "
        f"parse_args: {shown} from run.sh:1 is not what {option} takes, so argparse exits with status 2 (\"error: "
        f"argument {option}: invalid choice: {value}\")")


@pytest.mark.parametrize("word", ["--prof=GE", "--lvl 2", "--prof=$P"])
def test_a_value_among_the_flag_choices_or_not_known(tmp_path, capsys, word):
    (tmp_path / "train.py").write_text(
        "import argparse\nimport torch_npu\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--prof', type=str, default='NONE', choices=['NONE', 'CANN', 'GE'])\n"
        "parser.add_argument('--lvl', type=int, default=0, choices=range(3))\n"
        "args = parser.parse_args()\nif args.prof != 'NONE' or args.lvl:\n" + PROFILE)
    (tmp_path / "run.sh").write_text(f"python3 train.py {word}\n")
    main(["emulate", "--torch-npu", "7.3", str(tmp_path / "run.sh")])
    assert "argparse stops" not in capsys.readouterr().out


TRAINER = ("from npu_bridge.npu_init import *\nimport tensorflow as tf\n\n\ndef train(args):\n"
           "    config = tf.ConfigProto()\n"
           "    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
           "    custom_op.name = 'NpuOptimizer'\n    if args.profiling:\n"
           "        custom_op.parameter_map['profiling_mode'].b = True\n"
           "        custom_op.parameter_map['profiling_options'].s = tf.compat.as_bytes("
           "'{\"output\":\"%s\",\"task_trace\":\"on\"}' % args.dump)\n"
           "    with tf.Session(config=config) as sess:\n        sess.run(1)\n")


@pytest.mark.parametrize("word, usable", [
    # python 3.9.18 and 3.13.0: "error: argument --profiling: invalid int value: 'True'", status 2, before train()
    ("--profiling=True", "no (pkg/trainer.py, which run_training.py imports: line 10 of trainer.py: not run in this "
                         "launch (in train(), which run_training.py calls only after its parse_args): argparse stops "
                         "the script in parse_args: --profiling=True from run.sh:1 is not what --profiling takes, so "
                         "argparse exits with status 2 (\"error: argument --profiling: invalid int value: 'True'\"))"),
    ("--profiling=1", "yes; afterwards run: msprof --export=on --output=/tmp/p/PROF_*")])
def test_a_setup_in_an_imported_function_the_script_calls_after_a_stopping_parse_args(tmp_path, capsys, word, usable):
    # AVOD's launcher passes --profiling=True to `type=int`, and trainer.py's train(args) holds the NpuOptimizer: it
    # said "unknown (... collects when `args.profiling` ...; whether that holds in this launch is not known here)"
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "trainer.py").write_text(TRAINER)
    (tmp_path / "run_training.py").write_text(
        "import argparse\nfrom pkg import trainer\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('--profiling', type=int, default=0)\n"
        "    parser.add_argument('--dump', type=str, default='./out')\n    args = parser.parse_args()\n"
        "    trainer.train(args)\n\n\nif __name__ == '__main__':\n    main()\n")
    (tmp_path / "run.sh").write_text(f"python3 run_training.py {word} --dump=/tmp/p\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", str(tmp_path / "run.sh")])
    assert [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("usable data")] == [
        f"usable data: {usable}"]


def test_a_setup_an_imported_module_runs_at_its_import_is_not_after_the_stop(tmp_path, capsys):
    # the import runs before parse_args: a setup at the module's top level is not said to be stopped
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "trainer.py").write_text(TRAINER + "\n\ntrain(None)\n")
    (tmp_path / "run_training.py").write_text(
        "import argparse\nfrom pkg import trainer\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--profiling', type=int, default=0)\nargs = parser.parse_args()\ntrainer.train(args)\n")
    (tmp_path / "run.sh").write_text("python3 run_training.py --profiling=True\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", str(tmp_path / "run.sh")])
    assert "calls only after its parse_args" not in capsys.readouterr().out


def test_an_argument_loop_with_more_options_than_the_rounds_it_has_left(tmp_path):
    # tacotron2's test_infer.sh shape: `while [ -n "$1" ]` with a two-word option in each round; bash 5.2 runs a round
    # for each option, the last one too (the round count is bounded by the arguments there are as the loop begins,
    # not by those left after the shifts): python gets `--g 7`, never the default g0
    opts = "abcdefg"
    text = ("#!/bin/bash\n" + "; ".join(f"{o.upper()}={o}0" for o in opts) + '\nwhile [ -n "$1" ]\ndo\n  case "$1" in\n'
            + "".join(f'    --{o}) {o.upper()}="$2"; shift ;;\n' for o in opts)
            + '    *) echo "Option $1 not recognized"\n  esac\n  shift\ndone\npython train.py '
            + " ".join(f"--{o} ${o.upper()}" for o in opts) + "\n")
    args = [x for k, o in enumerate(opts, 1) for x in (f"--{o}", str(k))]
    w = _walk(tmp_path, text, args)
    (run,) = [[x.text for x in c.words] for c in w.commands if c.words[0].text == "python"]
    assert run == ["python", "train.py"] + args
    assert w.args == []


def test_a_leading_tilde_is_the_callers_home_not_a_literal_word(tmp_path):
    # bash 5.2 (HOME=/h): `echo ~/x a~/z a=~/x --a=~/x "~/q" ~` gave `/h/x a~/z a=/h/x --a=~/x ~/q /h`; where HOME is
    # not known a word made from it holds a hole, as `$HOME/x` does
    text = 'python3 train.py --a ~/x --b ~ --c a~/z --d "~/q" --e a=~/x --f=~/x --g "$HOME/x"\n'
    w = _walk(tmp_path, text)
    assert _words(w) == [["python3", "train.py", "--a", HOLE + "/x", "--b", HOLE, "--c", "a~/z", "--d", "~/q",
                          "--e", "a=" + HOLE + "/x", "--f=~/x", "--g", HOLE + "/x"]]
    w = _walk(tmp_path, "HOME=/h\n" + text)
    assert _words(w)[-1][3:] == ["/h/x", "--b", "/h", "--c", "a~/z", "--d", "~/q", "--e", "a=/h/x", "--f=~/x",
                                 "--g", "/h/x"]


def test_a_tilde_prefix_before_an_expansion_or_a_quote_is_expanded_too(tmp_path):
    # bash 5.2 (HOME=/h, y=Q, z="a b"): `~/x$y a=~/x$y --a=~/x$y ~"/x" ~/x"$z" ~/x$z ~/"x" a=x:~/y --a=x:~/y ~/a:~/b ~$y`
    # gave /h/xQ a=/h/xQ --a=~/xQ ~/x "/h/xa b" /h/xa b /h/x a=x:/h/y --a=x:~/y /h/a:~/b ~Q: the prefix runs to the
    # first `/` (after `NAME=`, or a `:`), expanded where none of it is quoted; its value is never split
    text = ('HOME=/h; y=Q; z="a b"\npython3 t.py ~/x$y a=~/x$y --a=~/x$y ~"/x" ~/x"$z" ~/x$z ~/"x" a=x:~/y --a=x:~/y '
            '~/a:~/b ~$y\n')
    assert _words(_walk(tmp_path, text))[-1][2:] == ["/h/xQ", "a=/h/xQ", "--a=~/xQ", "~/x", "/h/xa b", "/h/xa", "b",
                                                    "/h/x", "a=x:/h/y", "--a=x:~/y", "/h/a:~/b", "~Q"]


def test_a_tilde_prefix_naming_a_folder_or_a_user_is_not_known(tmp_path):
    # bash 5.2 (HOME=/h, in /tmp): `~+/p ~root/r ~nosuchuser/s` gave /tmp/p /root/r ~nosuchuser/s, and `~-/q` its
    # OLDPWD's (or, unset, as written): the walk keeps no PWD or OLDPWD, and a user's home is the machine's; `a=~/x:~/z$y`
    # gave a=/h/x:/h/zQ, where which `:` bash reads outside quotes and expansions is not looked for
    text = 'HOME=/h; y=Q\npython3 t.py ~+/p ~-/q ~root/r ~nosuchuser/s a=~/x:~/z$y\n'
    assert _words(_walk(tmp_path, text))[-1][2:] == [HOLE + "/p", HOLE + "/q", HOLE + "/r", HOLE + "/s", HOLE]


def test_a_tilde_in_an_assignment_before_an_expansion_or_naming_a_user(tmp_path):
    # bash 5.2 (HOME=/h, y=Q): `D=~/x$y G=~/"q r" K=~"/x" L=x:~:y N=x:"~"/y; declare F=~/c$y` gave /h/xQ, /h/q r, ~/x,
    # x:/h:y, x:~/y, /h/cQ; `I=~root/x J=~+/x` a user's home and $PWD (not known: holes); `E=a:~/b$y` a:/h/bQ and
    # `M=~/x"$y":~/z` /h/xQ:/h/z (a `:~` past the start of a value with expansions or quotes: not known)
    text = ('HOME=/h; y=Q\nD=~/x$y; G=~/"q r"; K=~"/x"; L=x:~:y; N=x:"~"/y; I=~root/x; J=~+/x; E=a:~/b$y; '
            'M=~/x"$y":~/z\ndeclare F=~/c$y\npython3 t.py "$D" "$G" "$K" "$L" "$N" "$F" "$I" "$J" "$E" "$M"\n')
    assert _words(_walk(tmp_path, text))[-1][2:] == ["/h/xQ", "/h/q r", "~/x", "x:/h:y", "x:~/y", "/h/cQ",
                                                    HOLE + "/x", HOLE + "/x", HOLE, HOLE]


def test_a_tilde_in_an_assignment_is_the_callers_home_too(tmp_path):
    # bash 5.2 (HOME=/h): `D=~/data; E=a:~/b; export F=~/c; G=a~/g` gave /h/data, a:/h/b, /h/c and a~/g
    text = 'D=~/data\nE=a:~/b\nexport F=~/c\nG=a~/g\npython3 train.py "$D" "$E" "$F" "$G"\n'
    assert _words(_walk(tmp_path, text))[-1] == ["python3", "train.py", HOLE + "/data", "a:" + HOLE + "/b",
                                                 HOLE + "/c", "a~/g"]
    assert _words(_walk(tmp_path, "HOME=/h\n" + text))[-1][2:] == ["/h/data", "a:/h/b", "/h/c", "a~/g"]


def test_a_tilde_after_an_array_element_or_an_append_word_is_expanded(tmp_path):
    # bash 5.2 (HOME=/h, i=3): `echo a+=~/x a[1]=~/x a[1]+=~/x a[$i]=~/x a["k"]=~/x a[[1]]=~/x a[1]b=~/x` gave
    # a+=/h/x a[1]=/h/x a[1]+=/h/x a[3]=/h/x a[k]=/h/x a[[1]]=/h/x a[1]b=~/x: a word like an assignment to an
    # element or with `+=` has its tilde expanded too; a subscript not read here (quotes, expansions, brackets):
    # not known
    text = 'HOME=/h; i=3\npython3 t.py a+=~/x a[1]=~/x a[1]+=~/x a[$i]=~/x a["k"]=~/x a[[1]]=~/x a[1]b=~/x\n'
    assert _words(_walk(tmp_path, text))[-1][2:] == ["a+=/h/x", "a[1]=/h/x", "a[1]+=/h/x", HOLE, HOLE, HOLE, HOLE]


def test_a_tilde_starting_a_default_word_or_a_pattern_is_not_kept_as_written(tmp_path):
    # bash 5.2 (HOME=/h, A= B=b A2=/h/y): `${A:-~/x} "${A:-~/x}" "${A-~/x}" ${B:-~/x} ${A2#~} "${A2#~}" ${A2%~/y}
    # ${A:-a~/x} ${A:-\~/x}` gave /h/x, ~/x, "", b, /y, /y, "", a~/x, ~/x: a default word that starts with a tilde
    # prefix is expanded outside double quotes and kept inside them, and a pattern's is expanded in both; which quotes
    # stand around the expansion is not looked for, so a default so taken, or such a pattern, is not known
    text = 'HOME=/h; A=; B=b; A2=/h/y\npython3 t.py ${A:-~/x} "${A:-~/x}" "${A-~/x}" ${B:-~/x} ${A2#~} "${A2#~}" ' \
        '"${A2%~/y}" ${A:-a~/x} ${A:-\\~/x}\n'
    assert _words(_walk(tmp_path, text))[-1][2:] == [HOLE, HOLE, "", "b", HOLE, HOLE, HOLE, "a~/x", "~/x"]
