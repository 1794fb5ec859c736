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
