"""`npuprof emulate` of a launch whose script imports a package the project holds as a copy to install (a folder with
setup.py or pyproject.toml around the package, as a model zoo project ships its modified mmcv/ and its README runs
`pip install -e` there): the job may import that copy (an editable install puts the folder on Python's import path,
data/sources.json python.develop_install), so a profiler in it makes the answer unknown, never "no"."""

from flake8_npuprof.cli import main

LAUNCHER = ("#!/bin/bash\nexport RANK_SIZE=1\ncd \"$(dirname \"$0\")\"/..\n"
            "python3 tools/train.py --epochs 1\n")
TRAIN = "import kitlib\nfrom kitlib.runner import run\n\nrun()\n"
RUNNER = ("import os\nfrom torch_npu.utils.profiler import Profile\n\n\ndef run():\n"
          "    profile = Profile(start_step=10, profile_type=os.getenv('PROFILE_TYPE'))\n"
          "    for step in range(100):\n        profile.start()\n        profile.end()\n")
UNKNOWN = ("train.py imports kitlib, which the project holds as a copy to install (kitlib/, with {marker}): "
           "kitlib/kitlib/runner.py there names profiling (line 6: `profile = Profile(start_step=10, "
           "profile_type=os.getenv('PROFILE_TYPE'))`); "
           "that copy may be the kitlib the job imports (`pip install -e` or "
           "`python setup.py develop` there makes Python import that folder's code): which kitlib it imports is "
           "decided by how it was installed, not known here")


def _project(tmp_path, marker="setup.py", runner=RUNNER):
    for d in ("test", "tools", "kitlib/kitlib"):
        (tmp_path / d).mkdir(parents=True)
    (tmp_path / "test" / "train_1p.sh").write_text(LAUNCHER)
    (tmp_path / "tools" / "train.py").write_text(TRAIN)
    if marker:
        (tmp_path / "kitlib" / marker).write_text("")
    (tmp_path / "kitlib" / "kitlib" / "__init__.py").write_text("from .version import __version__\n")
    (tmp_path / "kitlib" / "kitlib" / "version.py").write_text("__version__ = '1.0'\n")
    (tmp_path / "kitlib" / "kitlib" / "runner.py").write_text(runner)
    return str(tmp_path / "test" / "train_1p.sh")


def _usable(capsys, launcher):
    code = main(["emulate", "--cann", "8.5", "--torch-npu", "7.3", "--env", launcher])
    lines = capsys.readouterr().out.splitlines()
    return code, [ln for ln in lines if ln.startswith("usable data:")]


def test_a_profiler_in_a_copy_to_install_is_not_no(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PROFILE_TYPE", "ASCEND_PROFILER")
    for marker in ("setup.py", "pyproject.toml"):
        root = tmp_path / marker
        code, lines = _usable(capsys, _project(root, marker))
        # it said "no (no launch switches profiling on)"
        assert (code, lines) == (1, ["usable data: unknown (train_1p.sh:4: " + UNKNOWN.format(marker=marker) + ")"])


def test_without_such_a_copy_the_answer_stays(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PROFILE_TYPE", "ASCEND_PROFILER")
    # a package folder that is no copy to install (no setup.py nor pyproject.toml around it): not importable as
    # kitlib, as before
    code, lines = _usable(capsys, _project(tmp_path / "a", marker=""))
    assert (code, lines) == (1, ["usable data: no (no launch switches profiling on)"])
    # a copy that names no profiling
    code, lines = _usable(capsys, _project(tmp_path / "b", runner="def run():\n    pass\n"))
    assert (code, lines) == (1, ["usable data: no (no launch switches profiling on)"])


def test_emulate_of_the_script_alone_says_the_same(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PROFILE_TYPE", "ASCEND_PROFILER")
    _project(tmp_path)
    (tmp_path / "setup.py").write_text("")             # the project's own folder (its nearest with a setup.py)
    code = main(["emulate", "--cann", "8.5", "--torch-npu", "7.3", "--env", str(tmp_path / "tools" / "train.py")])
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("usable data:")]
    # it said "usable data: no"
    assert (code, lines) == (1, ["usable data: unknown (" + UNKNOWN.format(marker="setup.py") + ")"])
    # a project without a setup.py, pyproject.toml or setup.cfg of its own: the script's folder alone is looked in
    (tmp_path / "setup.py").unlink()
    code = main(["emulate", "--cann", "8.5", "--torch-npu", "7.3", "--env", str(tmp_path / "tools" / "train.py")])
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("usable data:")]
    assert (code, lines) == (1, ["usable data: no"])


def test_no_outside_neither_reads_nor_quotes_a_copy_linked_out_of_the_project(tmp_path, capsys):
    """kitlib/kitlib a link to a folder outside the project: its line was quoted under --no-outside."""
    project, elsewhere = tmp_path / "p", tmp_path / "elsewhere"
    project.mkdir()
    launcher = _project(project, runner=RUNNER.replace("Profile(start_step",
                                                       "Profile(  # SECRET_TOKEN\n        start_step"))
    (project / ".git").mkdir()
    (project / "kitlib" / "kitlib").rename(elsewhere)
    (project / "kitlib" / "kitlib").symlink_to(elsewhere)
    main(["emulate", "--cann", "8.5", "--torch-npu", "7.3", "--env", launcher])
    assert "SECRET_TOKEN" in capsys.readouterr().out                   # read by default: a user's own project
    code = main(["emulate", "--cann", "8.5", "--torch-npu", "7.3", "--env", "--no-outside", launcher])
    out = capsys.readouterr().out
    assert "SECRET_TOKEN" not in out
    why = ("train.py imports kitlib, which the project holds as a copy to install (kitlib/, with setup.py): its "
           "kitlib/kitlib/__init__.py leads outside the project, which --no-outside leaves unread; that copy may be "
           "the kitlib the job imports (`pip install -e` or `python setup.py develop` there makes Python import that "
           "folder's code): which kitlib it imports is decided by how it was installed, not known here")
    assert (code, [ln for ln in out.splitlines() if ln.startswith("usable data:")]) == (
        1, [f"usable data: unknown (train_1p.sh:4: {why})"])


def test_a_copy_beside_the_folder_launcher_and_script_share_is_looked_in(tmp_path, capsys, monkeypatch):
    """scripts/run_1p.sh starts scripts/train.py, and kitlib/ (with setup.py) stands beside scripts/: the folders
    looked in were scripts/ and its subfolders only, so the answer was "no"."""
    monkeypatch.setenv("PROFILE_TYPE", "ASCEND_PROFILER")
    _project(tmp_path)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "train.py").write_text(TRAIN)
    (tmp_path / "scripts" / "run_1p.sh").write_text("#!/bin/bash\ncd \"$(dirname \"$0\")\"\npython3 train.py\n")
    code, lines = _usable(capsys, str(tmp_path / "scripts" / "run_1p.sh"))
    assert (code, lines) == (1, ["usable data: unknown (run_1p.sh:3: " + UNKNOWN.format(marker="setup.py") + ")"])
    # the folder they share is the project's top (a git work tree, or one with setup.py): nothing above it
    (tmp_path / "scripts" / ".git").mkdir()
    code, lines = _usable(capsys, str(tmp_path / "scripts" / "run_1p.sh"))
    assert (code, lines) == (1, ["usable data: no (no launch switches profiling on)"])


# SOLOv2's mmcv/mmcv/runner/runner.py, in shape: the import in a try, a message naming the module, a stand-in class,
# and the profiler built far below
GUARDED = ("import os\ntry:\n    from torch_npu.utils.profiler import Profile\nexcept ImportError:\n"
           "    print('Profile not in torch_npu.utils.profiler now.. Auto Profile disabled.', flush=True)\n\n"
           "    class Profile:\n        def __init__(self, *args, **kwargs):\n            pass\n\n\n"
           "def run():\n    steps = 100\n"
           "    profile = Profile(start_step=int(os.getenv('PROFILE_START_STEP', 10)),\n"
           "                      profile_type=os.getenv('PROFILE_TYPE'))\n"
           "    for step in range(steps):\n        profile.start()\n        profile.end()\n")


def test_the_quoted_line_is_the_profilers_call(tmp_path, capsys, monkeypatch):
    """The line quoted was the first naming profiling: the import (RUNNER), or a message the import's fallback prints
    (SOLOv2's mmcv: line 27 of runner.py, against the Profile(...) call at line 320)."""
    monkeypatch.setenv("PROFILE_TYPE", "ASCEND_PROFILER")
    code, lines = _usable(capsys, _project(tmp_path, runner=GUARDED))
    quoted = "line 14: `profile = Profile(start_step=int(os.getenv('PROFILE_START_STEP', 10)),`"
    assert (code, lines) == (1, ["usable data: unknown (train_1p.sh:4: " + UNKNOWN.format(marker="setup.py").replace(
        "line 6: `profile = Profile(start_step=10, profile_type=os.getenv('PROFILE_TYPE'))`", quoted) + ")"])
