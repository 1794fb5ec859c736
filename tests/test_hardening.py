"""A scanned tree is untrusted: nothing in it runs, nothing outside it is read or written, and what it
costs is bounded by its size (issue 43)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.source.ignore import GitIgnore

HAS_GIT = shutil.which("git") is not None


def _plant(tree, marker):
    """A repository whose config, hooks and includes each name a program that touches `marker`."""
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    script = tree / ".git" / "touch.sh"
    script.write_text(f"#!/bin/sh\necho \"$0 $*\" >> '{marker}'\n")
    script.chmod(0o755)
    (tree / ".git" / "included").write_text(f"[core]\n\tfsmonitor = {script}\n")
    with open(tree / ".git" / "config", "a") as fh:
        fh.write(f"[core]\n\tfsmonitor = {script}\n\tpager = {script}\n\thooksPath = .git/hooks\n"
                 f"[alias]\n\tls-files = !{script}\n\tstatus = !{script}\n"
                 f"[diff]\n\texternal = {script}\n"
                 f"[include]\n\tpath = included\n")
    for hook in ("post-index-change", "pre-commit", "post-checkout", "fsmonitor-watchman", "reference-transaction"):
        (tree / ".git" / "hooks" / hook).write_text(f"#!/bin/sh\necho \"$0\" >> '{marker}'\n")
        (tree / ".git" / "hooks" / hook).chmod(0o755)
    (tree / ".gitignore").write_text("gen/\n")
    (tree / "gen").mkdir()
    (tree / "gen" / "out.py").write_text("import os\n")
    (tree / "train.py").write_text("import os\n")


@pytest.mark.skipif(not HAS_GIT, reason="needs git")
def test_planted_fsmonitor_hooks_and_aliases_never_fire(tmp_path, monkeypatch, capsys):
    tree, marker = tmp_path / "tree", tmp_path / "marker"
    tree.mkdir()
    _plant(tree, marker)
    # the planted config does fire under a plain git call: the test can fail
    subprocess.run(["git", "ls-files", "--others"], cwd=tree, capture_output=True)
    assert marker.exists()
    marker.unlink()
    # what a pre-commit hook or a user's shell may export reaches no git started by npuprof
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.fsmonitor'='{tree / '.git' / 'touch.sh'}'")
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(tree / ".git" / "touch.sh"))
    monkeypatch.setenv("GIT_PAGER", str(tree / ".git" / "touch.sh"))
    ignore = GitIgnore(str(tree))
    assert ignore.reader is None                             # git answered, not the fallback reader
    assert ignore.paths == {str(tree / "gen")}
    monkeypatch.chdir(tree)
    for argv in (["check", "."], ["fix", "--diff", "."], ["check", "--show-files", "."]):
        main(argv)
    out = capsys.readouterr().out
    assert "gen/out.py" not in out
    assert not marker.exists(), marker.read_text()


def test_npu_smi_is_looked_up_only_on_absolute_path_entries(tmp_path, monkeypatch):
    """An empty or relative PATH entry means the current folder, often the scanned tree."""
    from flake8_npuprof.knowledge import detect
    fake = tmp_path / "npu-smi"
    fake.write_text("#!/bin/sh\necho planted\n")
    fake.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    ran = []
    found = detect.detect_soc({"PATH": os.pathsep.join(["", ".", "bin"])}, run=lambda exe: ran.append(exe) or "")
    assert ran == []
    assert "no npu-smi on PATH" in found.notes
