"""Which files a directory walk checks: default folder names, --exclude/--extend-exclude, .gitignore."""

import shutil
import subprocess

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.source.files import DEFAULT_EXCLUDE, discover
from flake8_npuprof.source.ignore import GitIgnore

BAD = '''import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","L2":"on"}'
sess = tf.Session(config=config)
'''
HAS_GIT = shutil.which("git") is not None


def checked(capsys, *argv):
    code = main(["check", *argv])
    out, _ = capsys.readouterr()
    return code, sorted({line.split(":")[0] for line in out.splitlines()})


@pytest.fixture
def tree(tmp_path, monkeypatch):
    for name in ("src/train.py", "src/gen/out.py", "third_party/lib/x.py", "build/x.py", "venv/x.py",
                 "pkg.egg-info/x.py", "tests/data/x.py", "run.sh"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(BAD if name.endswith(".py") else "export PROFILING_MODE=True\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_default_folder_names_are_skipped(tree, capsys):
    assert checked(capsys) == (1, ["run.sh", "src/gen/out.py", "src/train.py", "tests/data/x.py",
                                   "third_party/lib/x.py"])
    # documented where users look for them
    from pathlib import Path
    docs = (Path(__file__).resolve().parent.parent / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in docs for name in DEFAULT_EXCLUDE)


def test_exclude_replaces_and_extend_exclude_adds(tree, capsys):
    # flake8's rule: a glob on the base name, or on the path when it holds a `/`
    assert checked(capsys, "--extend-exclude", "third_party,src/gen") == (
        1, ["run.sh", "src/train.py", "tests/data/x.py"])
    assert checked(capsys, "--extend-exclude", "*.sh, tests/*") == (
        1, ["src/gen/out.py", "src/train.py", "third_party/lib/x.py"])
    # --exclude replaces the defaults: build/ and venv/ are searched again
    code, files = checked(capsys, "--exclude", "third_party")
    assert "build/x.py" in files and "venv/x.py" in files and "third_party/lib/x.py" not in files
    # a file named on the command line is always checked, as Ruff does
    assert checked(capsys, "--extend-exclude", "third_party", "third_party/lib/x.py") == (1, ["third_party/lib/x.py"])


def test_exclude_from_the_configuration_is_relative_to_it(tree, capsys, monkeypatch):
    (tree / ".git").mkdir()
    (tree / "pyproject.toml").write_text('[tool.npuprof]\nextend-exclude = ["src/gen/", "third_party"]\n')
    monkeypatch.chdir(tree / "src")
    assert checked(capsys, ".") == (1, ["train.py"])
    (tree / "setup.cfg").write_text("[flake8]\nextend-exclude = src/gen,tests\n")
    (tree / "pyproject.toml").unlink()
    monkeypatch.chdir(tree)
    assert checked(capsys) == (1, ["run.sh", "src/train.py", "third_party/lib/x.py"])


@pytest.mark.skipif(not HAS_GIT, reason="git is not installed: the fallback reader is tested below")
def test_gitignore_is_honoured_in_a_git_repository(tree, capsys):
    subprocess.run(["git", "init", "-q", "."], check=True)
    (tree / ".gitignore").write_text("third_party/\n*.sh\n")
    (tree / "src" / ".gitignore").write_text("gen/\n")
    assert checked(capsys) == (1, ["src/train.py", "tests/data/x.py"])
    assert checked(capsys, "--no-respect-gitignore") == (1, ["run.sh", "src/gen/out.py", "src/train.py",
                                                             "tests/data/x.py", "third_party/lib/x.py"])
    # a tracked file stays checked even when a pattern matches it, as in git
    subprocess.run(["git", "add", "-f", "run.sh"], check=True)
    assert "run.sh" in checked(capsys)[1]
    # from a subfolder, and when the folder itself is the path given
    assert checked(capsys, "src") == (1, ["src/train.py"])


def test_outside_a_repository_gitignore_means_nothing(tree, capsys):
    (tree / ".gitignore").write_text("third_party/\n")
    assert "third_party/lib/x.py" in checked(capsys)[1]


@pytest.mark.parametrize("use_git", [False, True] if HAS_GIT else [False])
def test_the_fallback_reader_agrees_with_git(tree, monkeypatch, use_git):
    (tree / ".git").mkdir()
    if use_git:
        shutil.rmtree(tree / ".git")
        subprocess.run(["git", "init", "-q", "."], check=True)
    (tree / ".gitignore").write_text("# vendored\n/third_party/\n*.sh\n!keep.sh\ngen\n")
    (tree / "keep.sh").write_text("export PROFILING_MODE=True\n")
    (tree / "tests" / ".gitignore").write_text("data/*.py\n")
    (tree / "tests" / "data" / "deeper").mkdir()
    (tree / "tests" / "data" / "deeper" / "kept.py").write_text(BAD)         # `*` does not cross a folder
    (tree / "src" / "a" / "b").mkdir(parents=True)
    (tree / "src" / "a" / "b" / "gone.py").write_text(BAD)
    (tree / ".gitignore").write_text((tree / ".gitignore").read_text() + "src/**/gone.py\n")
    if not use_git:
        monkeypatch.setattr(GitIgnore, "_ask_git", lambda self: None)        # as if git were not installed
    found = sorted(discover(["."], exclude=DEFAULT_EXCLUDE))
    assert found == ["./keep.sh", "./src/train.py", "./tests/data/deeper/kept.py"]
