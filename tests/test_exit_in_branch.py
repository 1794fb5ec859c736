"""A launch after an `exit` in a branch or loop: bash may end the launcher there, so the launch may not run.

The shape of ModelZoo-TensorFlow's Bert_Nv_Finetune_MPRC_ID1641 scripts/run_squad_inference.sh: a loop over the
data it needs, `exit -1` where one is missing, then the launch. emulate said the launch runs (launch_truth: false).
Run with bash 5.2.15 (/bin/bash, python3 a stub that prints its arguments, under timeout 20): without data/v1,
run.sh prints "Error! data/v1 missing" and exits with status 255, starting nothing; with data/v1 and
data/vocab.txt it starts `python3 train.py --x 1`. run2.sh starts `python3 train.py --x 2` without data/v1: an exit
in a function never called, in a subshell, or in a child script (`bash child.sh`) does not end it."""

import json

from flake8_npuprof.emulate.render import render_json
from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target

T = Target.parse("8.0", "910B")
LOOP = """#!/bin/bash
for f in data/v1 data/vocab.txt; do
  if [ ! -d "$f" ] && [ ! -f "$f" ]; then
    echo "Error! $f missing"
    exit -1
  fi
done
python3 train.py --x 1
"""
APART = """#!/bin/bash
stop() { exit 1; }
( [ -d data/v1 ] || exit 1 )
bash child.sh
python3 train.py --x 2
"""


def _emulate(tmp_path, launcher):
    (tmp_path / "train.py").write_text("import os\n")
    (tmp_path / "child.sh").write_text("if [ ! -d data/v1 ]; then exit 1; fi\n")
    (tmp_path / "run.sh").write_text(launcher)
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={}, launcher_args=[])
    return report, json.loads(render_json(report))


def test_a_launch_after_an_exit_in_a_loop_may_not_run(tmp_path):
    report, data = _emulate(tmp_path, LOOP)
    assert report["launch"]["lines"][0] == "launch: run.sh:8 python3 train.py --x 1"
    assert report["launch"]["lines"][2:3] == [
        "  after an `exit` in a branch or loop (run.sh:5): the launcher may end before it, so this command may not "
        "run"]
    assert data["launch"]["may_end"] == "run.sh:5"
    assert data["launch"]["conditional"] is False


def test_an_exit_in_a_function_a_subshell_or_a_child_ends_no_later_launch(tmp_path):
    _, data = _emulate(tmp_path, APART)
    assert data["launch"]["command"] == ["python3", "train.py", "--x", "2"]
    assert data["launch"]["may_end"] is None


def _launch(tmp_path, launcher, args=()):
    (tmp_path / "data").mkdir(parents=True)
    (tmp_path / "x.txt").write_text("")
    _, data = _emulate(tmp_path, launcher + "python3 train.py --x 1\n")
    return data["launch"]


# each run with bash 5.2 (timeout 20, ulimit -u 200) in a folder holding data/ and x.txt, `echo ran` for the launch:
# each printed "ran", status 0
KNOWN_GUARDS = (
    "mkdir ./train\ncd ./train || exit 3\ncd ..\n",                 # the folder it just made
    "mkdir -p ./t2/a\ncd ./t2/a || exit 3\ncd ../..\n",
    "cd ./data || exit 3\ncd ..\n",                                  # a folder of the tree
    "rm -rf ./data\nmkdir ./data\ncd ./data || exit 3\ncd ..\n",    # removed, then made again
    "[ -d ./data ] || exit 3\n",
    "if [ ! -d ./data ]; then exit 3; fi\n",
    "[ -f ./x.txt ] || exit 3\n",
    "[ 1 -eq 2 ] && exit 3 || echo other\n",                        # (printed "other" first)
)


def test_an_exit_the_walk_knows_is_not_taken_leaves_the_launch_certain(tmp_path):
    # emulate said "may not run" after each (the shape of mindspore-ai/models' run_standalone_train.sh: `mkdir ./train`
    # then `cd ./train || exit`)
    for n, guard in enumerate(KNOWN_GUARDS):
        launch = _launch(tmp_path / str(n), guard)
        assert (launch["command"], launch["may_end"], launch["conditional"]) == (
            ["python3", "train.py", "--x", "1"], None, False), guard


# bash 5.2: `for i in 1 2; do cd ./data || exit 3; done` printed "cd: ./data: No such file or directory" (the second
# round, in ./data), status 3; `[ -d ./nodir ] || exit 3` status 3. Not known to pass: the launch may not run
UNKNOWN_GUARDS = (
    ("[ -d ./nodir ] || exit 3\n", "run.sh:1"),
    ("cd ./nodir || exit 3\n", "run.sh:1"),
    ("rm -rf $X\ncd ./data || exit 3\ncd ..\n", "run.sh:2"),        # (any folder may be gone)
    ("mv ./a ./b\n[ -d ./data ] || exit 3\n", "run.sh:2"),
    ("for i in 1 2; do cd ./data || exit 3; done\ncd ..\n", "run.sh:1"),
    ("mkdir ./a/b\ncd ./a/b || exit 3\ncd ../..\n", "run.sh:2"),    # (no ./a: mkdir fails)
)


def test_an_exit_the_walk_cannot_rule_out_still_may_end_the_launcher(tmp_path):
    for n, (guard, where) in enumerate(UNKNOWN_GUARDS):
        launch = _launch(tmp_path / str(n), guard)
        assert launch["may_end"] == where, guard


def test_a_test_of_the_arguments_decides_the_exit_after_it(tmp_path):
    # bash 5.2: `[ $# -lt 1 ] && exit 3; echo ran` (and `[[ $# -lt 1 ]]`) with no argument: status 3, nothing printed;
    # with one argument: "ran"
    for n, guard in enumerate(("[ $# -lt 1 ] && exit 3\n", "[[ $# -lt 1 ]] && exit 3\n")):
        (tmp_path / str(n)).mkdir()
        (tmp_path / str(n) / "train.py").write_text("import os\n")
        (tmp_path / str(n) / "run.sh").write_text(guard + "python3 train.py\n")
        path = str(tmp_path / str(n) / "run.sh")
        none = json.loads(render_json(emulate_path(path, T, use_env=False, environ={}, launcher_args=[])))
        assert none["answer"]["why"] == "no launch found before the launcher ends at run.sh:1", guard
        one = json.loads(render_json(emulate_path(path, T, use_env=False, environ={}, launcher_args=["a"])))
        assert (one["launch"]["command"], one["launch"]["may_end"]) == (["python3", "train.py"], None), guard
        unknown = json.loads(render_json(emulate_path(path, T, use_env=False, environ={}, launcher_args=None)))
        assert unknown["launch"]["may_end"] == "run.sh:1", guard
