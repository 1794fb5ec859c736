"""A launch whose redirection names a folder that is not there (shell/redirects.py): bash does not start it.

The shape of ModelZoo-TensorFlow DeeplabV3_ID0047's scripts/train_s16_r2.sh run as `bash scripts/train_s16_r2.sh
--data_path=/data`: `DEVICE_ID=$1`, `mkdir -p .../$DEVICE_ID` and `cd` there, then `python3 ... >
./train_${DEVICE_ID}.log`, whose folder ./train_--data_path= is not there. emulate claimed the launch. What bash
does was run with bash 5.2 (/bin/bash, under timeout 20): each redirection below reports "No such file or
directory" and starts nothing (also behind nohup ... &, on a function call, a child script's run); under set -e the
shell stops there; `> /dev/null`, a folder made by `mkdir -p` before or one in the tree never fail."""

import json

from flake8_npuprof.emulate.render import render_json
from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target

T = Target.parse("8.0", "910B")
TRAIN = "import os\n"
# the shape of the zoo's launcher, written here (a folder named by the launcher's first argument)
DEEPLAB = """#!/bin/sh
CURRENT_DIR=$(cd "$(dirname "$0")"; pwd)
cd ${CURRENT_DIR}
cd ..
CURRENT_DIR=$(pwd)
DEVICE_ID=$1
RESULTS=results/r2
mkdir -p ${CURRENT_DIR}/${RESULTS}/${DEVICE_ID}
rm -rf ${CURRENT_DIR}/${RESULTS}/${DEVICE_ID}/*
cd ${CURRENT_DIR}/${RESULTS}/${DEVICE_ID}
python3.7 ${CURRENT_DIR}/train.py --steps=10 > ./train_${DEVICE_ID}.log 2>&1
"""
NOT_THERE = ("`> ./train_--data_path=/data.log` (run.sh:11) names the folder ./train_--data_path= (the command runs "
             "in {top}/results/r2/--data_path=/data), which is not there (not in the tree, and nothing the launcher "
             "runs before makes it): bash reports \"No such file or directory\" and does not start python3.7")


def _project(tmp_path, launcher, files=("train.py",)):
    (tmp_path / "scripts").mkdir(parents=True)
    for name in files:
        (tmp_path / name).write_text(TRAIN)
    (tmp_path / "scripts" / "run.sh").write_text(launcher)
    return tmp_path / "scripts" / "run.sh"


def _emulate(path, args=("--data_path=/data",)):
    report = emulate_path(str(path), T, use_env=False, environ={}, launcher_args=list(args))
    return report, json.loads(render_json(report))


def test_a_redirection_into_a_folder_that_is_not_there_starts_nothing(tmp_path):
    report, data = _emulate(_project(tmp_path, DEEPLAB))
    why = NOT_THERE.format(top=tmp_path)
    assert report["launch"]["lines"][:2] == [
        f"launch: run.sh:11 python3.7 {tmp_path}/train.py --steps=10", f"  not run: {why}"]
    assert data["launch"]["redirection"] == {"starts": False, "why": why}
    assert [(x["verdict"], x["why"]) for x in data["launches"]] == [("not run", why)]
    assert data["answer"] == {"usable": False, "why": f"run.sh:11 is not run: {why}", "decider": None}
    # its first argument a plain number, the folder is there: the launch is as before
    report, data = _emulate(tmp_path / "scripts" / "run.sh", ["0"])
    assert data["launch"]["redirection"] is None
    assert report["launch"]["lines"][1:2] != [f"  not run: {why}"]
    assert data["launches"][0]["verdict"] == "no profiling"


def test_the_zoo_idiom_mkdir_p_then_the_log_in_it_is_unchanged(tmp_path):
    launcher = DEEPLAB.replace("> ./train_${DEVICE_ID}.log", "> ${CURRENT_DIR}/output/${DEVICE_ID}/train.log")
    launcher = launcher.replace("RESULTS=results/r2\n",
                                "RESULTS=results/r2\nmkdir -p ${CURRENT_DIR}/output/${DEVICE_ID}\n")
    _, data = _emulate(_project(tmp_path, launcher))
    assert data["launch"]["redirection"] is None
    assert data["launches"][0]["verdict"] == "no profiling"
    # the caller's ASCEND_DEVICE_ID (not known here): the folder is not judged
    launcher = DEEPLAB.replace("> ./train_${DEVICE_ID}.log", "> ./x_${ASCEND_DEVICE_ID}/train.log")
    _, data = _emulate(_project(tmp_path / "b", launcher))
    assert data["launch"]["redirection"] is None


def test_dev_null_and_a_folder_of_the_tree_never_fail(tmp_path):
    for n, target in enumerate(("/dev/null", "../../../../logs/train.log", "/dev/stdout")):
        launcher = DEEPLAB.replace("./train_${DEVICE_ID}.log", target)
        root = tmp_path / str(n)
        path = _project(root, launcher)
        (root / "logs").mkdir()
        _, data = _emulate(path)
        assert data["launch"]["redirection"] is None, target
        assert data["launches"][0]["verdict"] == "no profiling"


def test_a_command_before_that_may_make_the_folder_leaves_it_unknown(tmp_path):
    top = tmp_path
    cases = {
        "python3 prep.py\n": "`python3 prep.py` (run.sh:1) runs before and may make it: if it does not",
        "[ -n \"$X\" ] && mkdir -p ./logs\n": "`mkdir -p ./logs` (run.sh:1) runs before and may make it: "
        "if it does not",
        "tar -xf data.tar\n": "`tar -xf data.tar` (run.sh:1) runs before and may make it: if it does not",
        "V=$(awk '{print}' x)\n": "`$(awk '{print}' x)` (run.sh:1) runs before and may make it: if it does not",
    }
    for n, (before, said) in enumerate(cases.items()):
        path = _project(top / str(n), before + "export PROFILING_MODE=true\nexport PROFILING_OPTIONS="
                        "'{\"output\":\"/tmp/prof\",\"task_trace\":\"on\"}'\npython3 ../train.py > ./logs/train.log\n")
        report, data = _emulate(path, ())
        why = (f"`> ./logs/train.log` (run.sh:{before.count(chr(10)) + 3}) names the folder ./logs (the command runs "
               f"in {top / str(n)}/scripts), which is not in the tree; {said}, bash reports \"No such file or "
               "directory\" and does not start python3")
        last = data["launches"][-1]
        assert last["redirection"] == {"starts": None, "why": why}, before
        assert (last["verdict"], last["why"]) == ("unknown", why)
        assert f"  unknown: whether bash starts it: {why}" in report["launches"][-1].info["lines"]
        assert data["usable"] is None


def test_set_e_stops_at_it_and_a_background_one_does_not(tmp_path):
    body = "python3 ../train.py > ./nodir/a.log 2>&1{amp}\npython3 ../train.py --second\n"
    _, data = _emulate(_project(tmp_path / "e", "set -e\n" + body.format(amp="")), ())
    assert [x["verdict"] for x in data["launches"]] == ["not run", "not run"]
    assert data["launches"][1]["why"].startswith("launch 1 at run.sh:2 fails first and stops the launcher (set -e)")
    for name, text in (("plain", body.format(amp="")), ("nohup", "set -e\n" + body.format(amp=" &"))):
        text = text.replace("python3 ../train.py >", "nohup python3 ../train.py >") if name == "nohup" else text
        _, data = _emulate(_project(tmp_path / name, text), ())
        assert [x["verdict"] for x in data["launches"]] == ["not run", "no profiling"], name
        assert data["launches"][0]["redirection"]["starts"] is False


def test_a_function_call_and_a_child_run_with_the_redirection(tmp_path):
    for name, text in (("f", "f() {\n  python3 ../train.py\n}\nf > ./nodir/a.log\n"),
                       ("child", "bash ./child.sh > ./nodir/a.log 2>&1\n")):
        path = _project(tmp_path / name, text)
        (tmp_path / name / "scripts" / "child.sh").write_text("python3 ../train.py\n")
        _, data = _emulate(path, ())
        assert data["launches"][0]["verdict"] == "not run", name
        assert data["launches"][0]["redirection"]["why"].startswith(
            f"`> ./nodir/a.log` (run.sh:{4 if name == 'f' else 1}) names the folder ./nodir"), name


def test_in_a_loop_or_a_pipeline_it_is_unknown(tmp_path):
    for name, text, said in (
            ("loop", "for i in 0 1; do\n  python3 ../train.py > ./nodir/a.log\ndone\n",
             "it is in a loop, whose commands after it may make it before a later round: if none does"),
            ("pipe", "python3 ../train.py 2> ./nodir/a.log | tee x.log\n",
             "the other commands of its pipeline run at the same time (what they make is not followed here): if "
             "none makes it")):
        _, data = _emulate(_project(tmp_path / name, text), ())
        red = data["launches"][0]["redirection"]
        assert red["starts"] is None and said in red["why"], name


def test_reading_a_file_that_is_not_there_is_unknown(tmp_path):
    _, data = _emulate(_project(tmp_path, "python3 ../train.py < ./input.txt\n"), ())
    assert data["launches"][0]["redirection"] == {"starts": None, "why": (
        f"`< ./input.txt` (run.sh:1) names the file ./input.txt (the command runs in {tmp_path}/scripts), which is "
        "not in the tree; a command before may write it: if none does, bash reports \"No such file or directory\" "
        "and does not start python3")}


def test_a_glob_and_a_sourced_script_not_read(tmp_path):
    # a glob may name a file that is there (bash 5.2 ran `py >> ./lo*/a.log` into ./logs/a.log): not judged
    path = _project(tmp_path / "g", "python3 ../train.py > ./lo*/a.log\n")
    (tmp_path / "g" / "scripts" / "logs").mkdir()
    assert _emulate(path, ())[1]["launches"][0]["redirection"] is None
    # a script sourced and not read may make the folder
    _, data = _emulate(_project(tmp_path / "s", "source /etc/npu/set_env.sh\npython3 ../train.py > ./nodir/a.log\n"),
                       ())
    assert data["launches"][0]["redirection"]["starts"] is None
    assert "`source /etc/npu/set_env.sh` (run.sh:1) runs before and may make it" in \
        data["launches"][0]["redirection"]["why"]


def test_a_failed_exec_goes_on(tmp_path):
    # bash 5.2: `exec py a > nod/x.log; py after` reports the error and runs `py after`
    _, data = _emulate(_project(tmp_path, "exec python3 ../train.py > ./nodir/a.log\npython3 ../train.py --after\n"),
                       ())
    red = data["launches"][0]["redirection"]
    assert red["starts"] is None and red["why"].endswith(
        "does not start python3, and goes on with the commands after it, which are not followed here (exec would have "
        "ended the launcher)")


def test_one_redirection_certain_to_fail_is_the_answer(tmp_path):
    # ./a may be made; ./b is made by nothing: bash opens both before it starts python3, so it never starts
    _, data = _emulate(_project(tmp_path, "[ -n \"$X\" ] && mkdir -p ./a\n"
                                          "python3 ../train.py > ./a/x.log 2> ./b/err.log\n"), ())
    assert data["launches"][0]["verdict"] == "not run"
    assert data["launches"][0]["redirection"]["why"].startswith("`2> ./b/err.log` (run.sh:2) names the folder ./b")


def test_a_folder_an_if_makes_where_it_is_not_there_is_not_judged(tmp_path):
    # roberta's `if [ ! -d $OUTPUT_DIR ]; then mkdir $OUTPUT_DIR; fi` and GLM-10B's if/else that makes it in both arms:
    # bash 5.2 starts the launch after each (emulate does not weigh the branches: it takes the folder as made)
    for n, made in enumerate(("if [ ! -d ./output ]\nthen\n    mkdir ./output\nfi\n",
                              "if [ -d ./output/0 ];then\n    rm -rf ./output/0\n    mkdir -p ./output/0\nelse\n"
                              "    mkdir -p ./output/0\nfi\n")):
        _, data = _emulate(_project(tmp_path / str(n), made + "python3 ../train.py > ./output/0/x.log 2>&1\n"
                                    if n else made + "python3 ../train.py > ./output/x.log\n"), ())
        assert data["launches"][0]["redirection"] is None, made
        assert data["launches"][0]["verdict"] == "no profiling"


def test_an_rm_in_a_loop_forgets_every_folder_made(tmp_path):
    # bash 5.2: the second round removes ./d1, and the redirection into it fails; the walk reads the body once
    _, data = _emulate(_project(tmp_path, "mkdir -p ./d0 ./d1\nfor ((i=0; i<2; i++)); do\n  rm -rf ./d$i\ndone\n"
                                          "python3 ../train.py > ./d1/x.log\n"), ())
    assert data["launches"][0]["redirection"]["starts"] is None
    assert "`mkdir -p ./d0` (run.sh:1) runs before and may make it" in data["launches"][0]["redirection"]["why"]
