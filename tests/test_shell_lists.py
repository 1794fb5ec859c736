"""Compounds opened on the line of another's keyword (`then { ...; } &`, `do for ...`, `else ( ... ) &`) and and-or
lists put in the background (`a || b &`), held to what bash 5.2 ran.

Each shape was run with bash 5.2.15 and a python3 on PATH that printed its folder and arguments; what it printed is
written by each case (RAN). One test runs bash itself on a few of them (needs_bash)."""

import os
import shutil
import stat
import subprocess

import pytest

from flake8_npuprof.shell.walk import Walk

BASH = shutil.which("bash")
needs_bash = pytest.mark.skipif(BASH is None, reason="no bash on this machine")


def _python(tmp_path, text):
    """(arguments, background, conditional, ranks) of each python3 command the walk met, in order."""
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(text)
    w = Walk(str(tmp_path / "run.sh")).run()
    return [(" ".join(x.text for x in c.words[2:]), c.background, c.conditional, c.ranks) for c in w.commands
            if c.words and c.words[0].text == "python3"]


# (launcher, what the walk must say; bash 5.2 ran what RAN says)
KEYWORD_LINES = [
    # RAN: --a, --b (the group in the background: its exit ends that subshell alone)
    ("if [ 1 -eq 1 ]; then { python3 train.py --a; exit 1; } & fi\npython3 train.py --b\nwait\n",
     [("--a", True, False, 1), ("--b", False, False, 1)]),
    ("if [ -n \"$X\" ]\nthen { python3 train.py --a; exit 1; } &\nfi\npython3 train.py --b\nwait\n",
     [("--a", True, True, 1), ("--b", False, False, 1)]),
    ("if [ -n \"$X\" ]; then {\n  python3 train.py --a\n  exit 1\n} &\nfi\npython3 train.py --b\nwait\n",
     [("--a", True, True, 1), ("--b", False, False, 1)]),
    ("if [ 1 -eq 1 ]; then ( python3 train.py --a; exit 1 ) & fi\npython3 train.py --b\nwait\n",
     [("--a", True, False, 1), ("--b", False, False, 1)]),
    ("if [ 1 -eq 2 ]; then echo; else ( python3 train.py --a; exit 1 ) & fi\npython3 train.py --b\nwait\n",
     [("--a", True, False, 1), ("--b", False, False, 1)]),
    ("{ { python3 train.py --a; exit 1; } & }\npython3 train.py --b\nwait\n",
     [("--a", True, False, 1), ("--b", False, False, 1)]),
    # RAN: --b alone (the inner test is false)
    ("if [ 1 -eq 1 ]; then if [ 2 -eq 3 ]; then python3 train.py --a; fi; fi\npython3 train.py --b\n",
     [("--b", False, False, 1)]),
    # RAN: --b alone (the loop runs no round: the walk cannot tell, but must not say --a runs)
    ("if [ 1 -eq 1 ]; then while false; do python3 train.py --a; done; fi\npython3 train.py --b\n",
     [("--a", False, True, 1), ("--b", False, False, 1)]),
    # RAN: --a six times, then --b
    ("for j in 1 2; do for i in 1 2 3; do python3 train.py --a; done; done\npython3 train.py --b\n",
     [("--a", False, False, 6), ("--b", False, False, 1)]),
]


@pytest.mark.parametrize("text, said", KEYWORD_LINES)
def test_a_compound_opened_on_the_line_of_then_do_else_or_a_brace(tmp_path, text, said):
    assert _python(tmp_path, text) == said


def test_a_loop_opened_on_the_line_of_then_does_not_end_the_counted_loop_around_it(tmp_path):
    # the counted loop's body was read up to the inner loop's `done`, so its step of i was not seen: bash 5.2 ran
    # d0 and d2 alone, where the walk said d0, d1, d2
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(
        "for ((i=0; i<3; i++)); do\n  if [ -n \"$X\" ]; then for j in 1 2; do echo; done; fi\n  mkdir -p ./d$i\n"
        "  cd ./d$i || exit\n  python3 ../train.py &\n  cd ..\n  i=$((i+1))\ndone\n")
    (cmd,) = [c for c in Walk(str(tmp_path / "run.sh")).run().commands if c.words[0].text == "python3"]
    assert (cmd.cwd, cmd.rounds, cmd.ranks) == ((), None, 0)


@pytest.mark.parametrize("text, said", [
    # RAN: --a, --b, --c, each in a background subshell (bash runs the whole and-or list before `&` so: the
    # launcher's `wait` waits for them); --c certainly, after `false ||`
    ("python3 train.py --a || echo failed &\npython3 train.py --b && echo ok &\nfalse || python3 train.py --c &\n"
     "wait\n", [("--a", True, False, 1), ("--b", True, False, 1), ("--c", True, False, 1)]),
    ("for i in 0 1; do\n  python3 train.py --a || exit 1 &\ndone\nwait\n", [("--a", True, False, 2)]),
    # RAN: --a alone: the exit in the list ends its subshell, not the launcher, which goes on and runs nothing more
    ("python3 train.py --a && exit 1 &\nwait\n", [("--a", True, False, 1)]),
])
def test_every_command_of_a_list_put_in_the_background_is_in_the_background(tmp_path, text, said):
    assert _python(tmp_path, text) == said



@needs_bash
def test_bash_runs_an_and_or_list_before_an_ampersand_in_the_background(tmp_path):
    # the claim the cases above rest on, held to bash on this machine: the launcher's `echo after` runs before the
    # slow python3 of `python3 train.py || echo failed &` ends (a python3 in the foreground would print first)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "python3"
    fake.write_text('#!/bin/sh\nsleep 0.3\necho "ran $*"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    (tmp_path / "run.sh").write_text("python3 train.py --a || echo failed &\necho after\nwait\n")
    out = subprocess.run([BASH, "run.sh"], cwd=tmp_path, capture_output=True, text=True, timeout=10,
                         env={**os.environ, "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}"}).stdout
    assert out == "after\nran train.py --a\n"
    assert _python(tmp_path, "python3 train.py --a || echo failed &\necho after\nwait\n") == [
        ("--a", True, False, 1)]
