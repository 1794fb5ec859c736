"""A launcher that copies its script into the folder it runs it in (emulate/copied.py): mindspore-ai/models'
scripts/run_standalone_train.sh makes ./train, copies ../*.py there, cds there and runs `python train.py`.
emulate said "unknown: cannot find train.py (looked in .../scripts/train)", a folder only the run makes.

What bash does was checked by running each launcher with bash 5.2 and a `python` stub that prints its folder and
lists it: train.py is in scripts/train when it starts (not with the glob quoted: cp finds no file named `*.py`)."""

from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target

T = Target.parse("8.0", "910B")
TRAIN = 'import mindspore as ms\n\nprofiler = ms.Profiler(output_path="./prof")\nprofiler.analyse()\n'
LAUNCHER = """#!/bin/bash
if [ -d "train" ]; then
    rm -rf ./train
fi
mkdir ./train
cp ../*.py ./train
cd ./train || exit
python train.py --device_id=0 > log.txt 2>&1 &
cd ..
"""


def _project(tmp_path, launcher=LAUNCHER):
    (tmp_path / "scripts").mkdir(parents=True)
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "scripts" / "run_standalone_train.sh").write_text(launcher)
    return tmp_path / "scripts" / "run_standalone_train.sh"


def _emulate(path):
    return emulate_path(str(path), T, use_env=False, environ={}, launcher_args=[])


def test_the_script_the_launcher_copies_is_emulated_where_it_runs(tmp_path):
    report = _emulate(_project(tmp_path))
    assert report["launch"]["lines"][:5] == [
        "launch: run_standalone_train.sh:8 python train.py --device_id=0",
        "  the launcher copies train.py into train from ../train.py (`cp ../*.py ./train`, run_standalone_train.sh:6): "
        "emulated from that file",
        f"  runs in {tmp_path}/scripts/train: a relative `cd` from the launcher's own directory, where it is meant to be "
        "started (give --cwd for another)",
        # (`cd ./train || exit` after `mkdir ./train`: the cd does not fail, the exit does not run: no "may not run")
        "  in the background (&): the launcher goes on without waiting for it"]
    assert report["launch"]["unknown"] is None
    assert report["usable"] is True
    assert report["cwd"] == str(tmp_path / "scripts" / "train")
    # one file copied under another name lands as the destination names it
    launcher = _project(tmp_path / "b", LAUNCHER.replace("cp ../*.py ./train", "cp ../train.py ./train/main.py")
                        .replace("python train.py", "python main.py"))
    assert _emulate(launcher)["launch"]["lines"][1] == (
        "  the launcher copies main.py into train from ../train.py (`cp ../train.py ./train/main.py`, "
        "run_standalone_train.sh:6): emulated from that file")


def test_a_copy_bash_may_not_make_is_not_followed(tmp_path):
    # (no "train.py is in ...: give --cwd ...": started there, the launcher would look in its own ./train too)
    missing = f"cannot find train.py (looked in {tmp_path}/x/scripts/train)"
    # quoted, the glob is not expanded: cp looks for a file named `*.py`
    report = _emulate(_project(tmp_path / "x", LAUNCHER.replace("cp ../*.py", 'cp "../*.py"')))
    assert report["launch"]["unknown"] == missing and report["usable"] is None
    # in a branch, the copy may not be made
    missing = missing.replace("/x/", "/y/")
    report = _emulate(_project(tmp_path / "y", LAUNCHER.replace("cp ../*.py ./train\n",
                                                                'if [ -n "$COPY" ]; then cp ../*.py ./train; fi\n')))
    assert report["launch"]["unknown"] == missing and report["usable"] is None
    # no folder made for it: cp (GNU, bash 5.2) copies the one file the glob finds to a file named train, and
    # `cd ./train` fails ("Not a directory"). It said "the launcher copies train.py into train ...: emulated from that
    # file", usable data: yes
    missing = missing.replace("/y/", "/z/")
    report = _emulate(_project(tmp_path / "z", LAUNCHER.replace("mkdir ./train\n", "")))
    assert report["launch"]["unknown"] == missing and report["usable"] is None


def test_started_from_the_projects_root_the_launcher_copies_nothing_there_and_says_where_to_start_it(
        tmp_path, capsys, monkeypatch):
    # from the project's root, `cp ../*.py ./train` copies the .py files of the folder above it (none here): bash
    # starts no train.py; started in scripts/ (its own folder), the copy is made
    from flake8_npuprof.cli import main
    _project(tmp_path / "p")
    monkeypatch.chdir(tmp_path / "p")
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", "--", "bash", "scripts/run_standalone_train.sh"]) == 1
    assert capsys.readouterr().out.split("\n")[2] == (
        f"  unknown: cannot find train.py (looked in {tmp_path}/p/train); started in the launcher's own folder "
        "(scripts) it runs train.py: start it from there (cd scripts)")


def test_started_from_the_projects_root_the_copy_is_named_from_where_cp_runs(tmp_path, capsys, monkeypatch):
    # mindspore-ai/models' CRNN scripts/run_standalone_train.sh, started from the project's root as its usage says
    # (`bash scripts/run_standalone_train.sh NAME PATH 0`): `mkdir ./train0; cp ./*.py ./train0; cd ./train0`. It said
    # "copies train.py into ../train0 from train.py": the folder from the launcher's own, the file from the root
    from flake8_npuprof.cli import main
    _project(tmp_path / "p", LAUNCHER.replace("../*.py", "./*.py").replace("./train", "./train0"))
    monkeypatch.chdir(tmp_path / "p")
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", "--", "bash", "scripts/run_standalone_train.sh"]) == 0
    assert capsys.readouterr().out.split("\n")[2] == (
        "  the launcher copies train.py into train0 from train.py (`cp ./*.py ./train0`, run_standalone_train.sh:6): "
        "emulated from that file")


def test_of_two_files_one_cp_copies_to_one_name_the_first_is_kept(tmp_path):
    # GNU cp 9.1 (bash 5.2): `cp ../*/train.py ./train` with a/train.py and b/train.py copies a's, then refuses
    # b's ("will not overwrite just-created 'train/train.py' with 'b/train.py'"). It was emulated from b's.
    launcher = _project(tmp_path, LAUNCHER.replace("cp ../*.py", "cp ../*/train.py"))
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "train.py").write_text(TRAIN)
    assert _emulate(launcher)["launch"]["lines"][1] == (
        "  the launcher copies train.py into train from ../a/train.py (`cp ../*/train.py ./train`, "
        "run_standalone_train.sh:6): emulated from that file")


def test_a_glob_over_many_folders_is_not_expanded_and_the_answer_says_so(tmp_path):
    # `cp /*/*/*/*.py ./train` would list much of the file system: a glob is expanded over at most 256 folders
    # (the folders a wildcard is matched in); past that the copy is not followed, and the launch says why
    launcher = _project(tmp_path, LAUNCHER.replace("cp ../*.py ./train", "cp ../m/*/*.py ./train 2>/dev/null"))
    for i in range(255):            # ../m and 255 folders in it: 256
        (tmp_path / "m" / f"d{i:03}").mkdir(parents=True)
    (tmp_path / "m" / "d000" / "train.py").write_text(TRAIN)
    assert _emulate(launcher)["launch"]["lines"][1].startswith(
        "  the launcher copies train.py into train from ../m/d000/train.py")
    (tmp_path / "m" / "d255").mkdir()
    report = _emulate(launcher)
    assert report["launch"]["unknown"] == (
        f"cannot find train.py (looked in {tmp_path}/scripts/train); the launcher's `cp ../m/*/*.py ./train "
        "2> /dev/null` (run_standalone_train.sh:6) may copy it there, but its glob ../m/*/*.py is not expanded here: "
        "it looks in more than 256 folders")
    assert report["launch"]["lines"][1] == "  unknown: " + report["launch"]["unknown"]
    assert report["launch"]["lines"][2].startswith("  runs in ")
    assert report["usable"] is None
