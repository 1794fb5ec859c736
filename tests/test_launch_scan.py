"""The cheap scan before a launcher's walk (checks/shell_scan.py), and the prefilter that spares the analysis of a
script that cannot hold a setup (shell_launches._may_have_setups): neither loses a finding."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from flake8_npuprof.checks.analysis import Settings
from flake8_npuprof.checks.launcher_switch import EXAMPLE_SCRIPT
from flake8_npuprof.checks.catalog import RULES
from flake8_npuprof.shell.state import MAX_COMMANDS
from flake8_npuprof.checks.shell_scan import needs_walk
from flake8_npuprof.engine.run import check_shell as check_file

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import launchers as bench  # noqa: E402


@pytest.mark.parametrize("text", [
    "export PROFILING_MODE=true\n", "msprof --output=/tmp/p ./app\n", "# --Profiling=True: off by default\n",
    "python3 train.py\n", "python -m pkg.train\n", "python3 train.$ext\n", "python3 ${name}py\n",
    "source env\n", ". ./env\n", "cd x && . env\n", "bash run.sh\n", "f() { echo; }\nf\n", "function f { echo; }\n",
    "echo ok;" * MAX_COMMANDS, 'bash ./x.s"h"\n', "python3 x.p'y'\n", "bash ./x.\\sh\n",
])
def test_walked_where_a_finding_can_hang_on_it(text):
    assert needs_walk(text)


@pytest.mark.parametrize("text", [
    "", "#!/bin/bash\nset -e\nmkdir -p out/ckpt\ncp a.txt out/\n", "echo $1 > log.txt\nexit 0\n",
    "for i in 1 2 3; do echo $i; done\n", "./app --mode=train\n", "echo ok;" * (MAX_COMMANDS - 2),
])
def test_not_walked(text):
    assert not needs_walk(text)


def test_scan_never_skips_a_launcher_with_a_finding(tmp_path):
    """Every launcher of tests/ and examples/, and every shell page example beside its script: the findings with
    the scan are those of walking every launcher and analysing every script it starts."""
    paths = bench.launchers([ROOT / "tests", ROOT / "examples"])
    for rule in RULES:
        if rule.language != "shell":
            continue
        for which, text in (("bad", rule.example), ("fixed", rule.fixed)):
            project = tmp_path / f"{rule.code}_{which}"
            (project / "src").mkdir(parents=True)
            (project / "test").mkdir()
            (project / "src" / "train.py").write_text(EXAMPLE_SCRIPT)
            (project / "test" / "run.sh").write_text(text)
            paths.append(str(project / "test" / "run.sh"))
    counts: dict = {}
    assert bench.differences(paths, counts) == []
    assert counts["found"] >= 20            # the comparison is over launchers that have findings


def test_a_launcher_the_scan_skips_has_its_own_lines_checked(tmp_path):
    """Not walked, yet NPP016 and the other findings on its own lines remain."""
    path = tmp_path / "run.sh"
    text = 'OPTS="--output=/tmp/out --aic-metrics=PipeUtilization" \\\n"--task-time=on"\necho $OPTS\n'
    path.write_text(text)
    assert not needs_walk(text)
    with bench.every_walk():
        slow = check_file(text, str(path), Settings())
    fast = check_file(text, str(path), Settings())
    assert fast == slow
    assert [f.code for f in fast] == ["NPP016"]


def test_a_script_without_a_setup_is_not_analysed(tmp_path, monkeypatch):
    """The launch of a script that fails the prefilter is walked, but its script is not analysed."""
    (tmp_path / "train.py").write_text("import sys\nprint(sys.argv)\n")
    (tmp_path / "run.sh").write_text("python3 train.py --epochs=1\n")
    analysed = []
    from flake8_npuprof.checks import launch_setup
    real = launch_setup.prepare
    monkeypatch.setattr(launch_setup, "prepare", lambda la, *a: analysed.append(la.script) or real(la, *a))
    assert check_file("python3 train.py --epochs=1\n", str(tmp_path / "run.sh"), Settings()) == []
    assert analysed == []


def _walks(monkeypatch):
    from flake8_npuprof.shell.walk import Walk
    made = []
    run = Walk.run
    monkeypatch.setattr(Walk, "run", lambda self, text=None: made.append(self.args) or run(self, text))
    return made


def _not_walked_and_as_if_walked(path, text, monkeypatch):
    """check makes no walk of the launcher, and its findings are those of a check that walks every launcher."""
    made = _walks(monkeypatch)
    fast = bench._check(str(path), text)
    assert made == []
    with bench.every_walk():
        assert bench._check(str(path), text) == fast


def _same_as_walked(path, text):
    """check's findings for a launcher the scan walks are those of a check that walks every launcher."""
    with bench.every_walk():
        slow = bench._check(str(path), text)
    assert bench._check(str(path), text) == slow


def _settled_or_as_walked(path, text, why, monkeypatch):
    """Settled (why empty): no walk, and the findings of every walk; else the findings of every walk."""
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)
    else:
        _same_as_walked(path, text)


def _settled_soundly(path, text) -> bool:
    """Whether the scan settles the launcher at path (text); where it does, its walk starts no script that may hold a
    setup (benchmarks/launchers.unstartable) and check finds what a check that walks every launcher finds."""
    from flake8_npuprof.engine.launch_scan import why_walked
    if why_walked(text, str(path)):
        return False
    assert bench.unstartable(str(path.parent), [path.name]) == [path.name], text
    with bench.every_walk():
        slow = bench._check(str(path), text)
    assert bench._check(str(path), text) == slow, text
    return True


LOOP = ("for para in $*\ndo\n    if [[ $para == --data_path* ]];then\n        data_path=`echo ${para#*=}`\n"
        "    elif [[ $para == --epochs* ]];then\n        epochs=`echo ${para#*=}`\n    fi\ndone\n")


def test_npp015_walks_only_a_launcher_that_takes_a_profiling_option(tmp_path, monkeypatch):
    """A launcher whose argument loop takes no profiling option is walked once, by check itself (args None)."""
    (tmp_path / "train.py").write_text(EXAMPLE_SCRIPT)
    text = LOOP + "python3 train.py --data_path=${data_path}\n"
    (tmp_path / "run.sh").write_text(text)
    made = _walks(monkeypatch)
    check_file(text, str(tmp_path / "run.sh"), Settings())
    assert made == [None]


def test_npp015_off_walk_only_when_the_on_walk_reads_the_option(tmp_path, monkeypatch):
    """A `--profiling` the launcher only names in a comment's test (no loop reads it): the on walk shows it is not
    read, so there is no off walk."""
    (tmp_path / "train.py").write_text(EXAMPLE_SCRIPT)
    text = "# [[ $para == --profiling* ]]\npython3 train.py\n"
    (tmp_path / "run.sh").write_text(text)
    made = _walks(monkeypatch)
    assert check_file(text, str(tmp_path / "run.sh"), Settings()) == []
    assert made == [None, ["--profiling=True"]]


# ---------------------------------------------------------------- engine/launch_scan.py: no walk for a launcher whose
# scripts all fail the prefilter

PLAIN = "import sys\nprint(sys.argv)\n"


@pytest.fixture
def project(tmp_path):
    """zoo/project/{train.py, tools/eval.py, test/}: scripts without a setup, launchers in test/ (a `..` or
    `dirname` counts as a level up: what the scan lists is at most zoo/)."""
    root = tmp_path / "zoo" / "project"
    (root / "tools").mkdir(parents=True)
    (root / "test").mkdir()
    (root / "train.py").write_text(PLAIN)
    (root / "tools" / "eval.py").write_text(PLAIN)
    return root


@pytest.mark.parametrize("text", [
    "cur=$(cd $(dirname $0)/..; pwd)\npython3 ${cur}/train.py --epochs=1 > log 2>&1\n",
    "bash ../train.sh\npython3 ../train.py\n",          # a script it runs that is not there
    "cd ..\nscript=train.py\npython3 $script --x=1\npython3 tools/eval.py\n",
    "#!/bin/bash\n# python3 ../train.py is the training\nnohup python3 ../train.py &\n",
])
def test_a_launcher_whose_scripts_hold_no_setup_is_not_walked(project, text, monkeypatch):
    from flake8_npuprof.engine.launch_scan import starts_no_profiled_script
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and starts_no_profiled_script(text, str(path))
    _not_walked_and_as_if_walked(path, text, monkeypatch)
    # the same launcher walked once a script of that name in its reach may hold a setup
    (project / "tools" / "train.py").write_text(EXAMPLE_SCRIPT)
    assert not starts_no_profiled_script(text, str(path))


# f's body walked 10,000 times: the walk stops at its bound
NESTED_CALLS = "".join(f"{a}() {{ {'; '.join([b] * 10)}; }}\n" for a, b in zip("ghkl", "fghk")) + "f() { echo; }\nl\n"


def test_a_function_body_weighs_as_often_as_its_calls_walk_it(project, monkeypatch):
    """f's body is walked 90 times (80 calls, and 10 in g's one walk): far from the walk's bound, so the launcher is
    not walked; nested calls that do reach it (NESTED_CALLS) are walked, and the walk stops there (NPP191)."""
    from flake8_npuprof.engine.launch_scan import starts_no_profiled_script
    path = project / "test" / "run.sh"
    text = "f() { echo; }\n" + "f\n" * 80 + "g() { f; f; f; f; f; f; f; f; f; f; }\ng\nfunction h() {\n  f\n}\nh\n"
    path.write_text(text)
    assert starts_no_profiled_script(text, str(path))
    _not_walked_and_as_if_walked(path, text, monkeypatch)
    path.write_text(NESTED_CALLS)
    assert not starts_no_profiled_script(NESTED_CALLS, str(path))
    assert "NPP191" in {f.code for f in bench._check(str(path), NESTED_CALLS)[0]}
    # calls that lead back to the function: the walk makes none inside a function being walked (f's call in g counts
    # only in a walk of g not under f): f walked 1 + 1 + 1 times (its call, once more, g's call under no f), g alike
    from flake8_npuprof.engine.launch_scan import _Text
    assert _Text(str(path), "f() { g; }\ng() { f; }\nf\n").walked(2) == (22, 0, 3)
    # commands (a `\n;&|()` each): 86 outside the bodies; f's 3 walked 1 + 80 + 10 * 2 + 1 * 2 times (once more than
    # its calls; g and h, called once, twice), g's 12 and h's 4 twice
    assert _Text(str(path), text).walked(2) == (86 + 3 * 103 + 12 * 2 + 4 * 2, 0, 103)


def test_functions_defined_in_functions_are_left_to_the_walk(project):
    """Each nested body's end, found by the shell's lexer where a line holds an odd quote, read the bodies around it
    again: 1,200 definitions one inside the other took 6 s (fuzz); the walk reads them once."""
    from evalfiles import deadline
    from flake8_npuprof.engine.launch_scan import _Text, starts_no_profiled_script
    path = project / "test" / "run.sh"
    text = ("python3 ../train.py\n" + "".join(f"f{k}() {{\n" for k in range(5000)) + 'echo "a\nb"\n' +
            "}\n" * 5000)
    path.write_text(text)
    with deadline(10, "5,000 nested function definitions"):
        assert _Text(str(path), text).why == "a function defined in a function"
        assert not starts_no_profiled_script(text, str(path))
        assert bench._check(str(path), text)[0] == []
    # side by side, each body is found alone and the launcher is not walked
    text = "python3 ../train.py\n" + "".join(f'f{k}() {{\n  echo "a\nb"\n}}\n' for k in range(50))
    assert _Text(str(path), text).why == "" and starts_no_profiled_script(text, str(path))


def test_a_shell_script_it_runs_weighs_its_own_function_calls(project, monkeypatch):
    """`bash child.sh` is a new shell, with none of its caller's functions: each file's bodies weigh by its own calls.
    A sourced file shares the shell's functions, so a call may cross: then the bound is (calls + 1) ** functions."""
    from flake8_npuprof.engine.launch_scan import _Text, _weights, starts_no_profiled_script
    calls = "f() { echo; }\n" + "f\n" * 40 + "g() { f; f; f; f; f; f; f; f; f; f; }\ng\ng\n"
    (project / "test" / "child.sh").write_text(calls)
    path = project / "test" / "run.sh"
    for text in ("bash ./child.sh\n", calls.replace("f", "h").replace("g", "k") + "bash ./child.sh\n"):
        path.write_text(text)
        assert starts_no_profiled_script(text, str(path))
        _not_walked_and_as_if_walked(path, text, monkeypatch)
    texts = {"run.sh": _Text("run.sh", "source ./child.sh\nf\n"), "child.sh": _Text("child.sh", calls)}
    assert _weights(texts, 2) is None
    del texts["run.sh"]
    assert _weights(texts, 2) == {"child.sh": (45 + 3 * 71 + 12 * 3, 0, 71)}     # f: 1 + 40 + 10 * 3 walks


BOUND = "its commands may reach the walk's bound"
LIB = "f() {\n" + "".join(f"  echo {i}\n" for i in range(100)) + "}\nh() { echo; }\n"


@pytest.mark.parametrize("text, why", [
    # f walked 1 + 2 times (twice by g's two walks, once as a body that may run): 300 of f's commands
    ("source ./lib.sh\ng() { f; h; }\ng\ng\npython3 ../train.py\n", ""),
    ("g() { f; h; }\n. ./lib.sh\nfor a\ndo\n  g\ndone\npython3 ../train.py\n", ""),
    # g's name in its own body is no call: the walk calls no function inside itself
    ("source ./lib.sh\ng() { f; echo \"usage: g\"; }\ng\ng\npython3 ../train.py\n", ""),
    # f walked 1,000 times: the walk stops at its bound
    ("source ./lib.sh\ng() { f; f; f; f; f; f; f; f; f; f; }\nk() { g; g; g; g; g; g; g; g; g; g; }\n"
     "k; k; k; k; k; k; k; k; k; k\npython3 ../train.py\n", "its commands may reach the walk's bound"),
    # calls that lead back: the walk calls no function being walked (k's g is none under g): f walked 4 + 1 + 1 times
    ("source ./lib.sh\ng() { f; k; }\nk() { g; }\ng; g; g; g\npython3 ../train.py\n", ""),
    # and where those it makes reach the bound (each k's g walks f 10 times: NPP191)
    ("source ./lib.sh\ng() { f; f; f; f; f; f; f; f; f; f; k; }\nk() { g; }\nk; k; k; k; k\npython3 ../train.py\n",
     BOUND),
])
def test_a_function_a_sourced_file_defines_weighs_by_the_calls_of_every_file(project, text, why, monkeypatch):
    """A sourced file shares the shell's functions, so a call may cross files: each body is walked once per walk of
    each place that calls it, in any file (and once more per entry of its file), each file's top level once per walk
    of each place that runs or sources it (_cross_commands), not the (calls + 1) ** functions of _times (125 here:
    12,500 of f's commands)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "lib.sh").write_text(LIB)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)
    elif "k; k" in text:
        with bench.every_walk():
            assert "NPP191" in {f.code for f in bench._check(str(path), text)[0]}


def test_a_function_called_from_a_file_sourced_several_times_weighs_by_each_source(project):
    """lib.sh calls the launcher's g 10 times and is sourced 5 times: g's 100 commands are walked 50 times (the walk
    stops at its bound, NPP191), not the (calls + 1) ** functions = 11 times of _times, which counts each call once."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "lib.sh").write_text("g; g; g; g; g; g; g; g; g; g\n")
    path = project / "test" / "run.sh"
    text = "g() {\n" + "".join(f"  echo {i}\n" for i in range(100)) + "}\n" + "source ./lib.sh\n" * 5 + \
        "python3 ../train.py\n"
    path.write_text(text)
    assert why_walked(text, str(path)) == BOUND
    with bench.every_walk():
        slow = bench._check(str(path), text)
    assert "NPP191" in {f.code for f in slow[0]}
    assert bench._check(str(path), text) == slow


def test_a_level_in_a_function_called_from_a_file_sourced_several_times_counts_each_call(project, tmp_path):
    """g goes a level up; lib.sh calls it and is sourced 3 times: the walk goes 3 levels up and starts x/q.py there
    (a setup), where _times' (calls + 1) ** functions = 2 listed 2 levels up only."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "q.py").write_text(EXAMPLE_SCRIPT)
    (project / "test" / "lib.sh").write_text("g\n")
    path = project / "test" / "run.sh"
    text = "D=$(cd $(dirname $0); pwd)\ng() { cd ..; }\n" + "source $D/lib.sh\n" * 3 + "python3 x/q.py\n"
    path.write_text(text)
    assert bench.unstartable(str(project / "test"), ["run.sh"]) == []
    assert why_walked(text, str(path)) in ("../../../x/q.py may hold a setup",
                                           "a folder link or too many files above it")     # (pytest's tmp folder)


LONG_CHILD = "".join(f"echo {i}\n" for i in range(1500))   # a third of the walk's bound: four runs reach it


@pytest.mark.parametrize("text", [
    "f() {\n  bash ./long.sh\n}\nf\nf\nf\nf\npython3 ../train.py\n",   # run once per walk of f's body
    "f() {\n  for a\n  do\n    bash ./long.sh\n  done\n}\nf 1 2 3 4\npython3 ../train.py\n",   # once per argument
    "while bash ./long.sh \"$1\"; do shift; done\npython3 ../train.py\n",  # a loop's head runs each round
    "h() { for x; do bash ./long.sh; done; }\nh a b c d\npython3 ../train.py\n",     # a loop right after `{`
])
def test_a_file_run_where_it_can_run_again_counts_each_run(project, text):
    """The child's commands count once per run of the place that names it: a function body as often as it is walked,
    a loop over the arguments (`for a` alone too) once per round. Counted once, each of these was settled while the
    walk stopped at its bound (NPP191)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "long.sh").write_text(LONG_CHILD)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == "its commands may reach the walk's bound"
    with bench.every_walk():
        slow = bench._check(str(path), text)
    assert "NPP191" in {f.code for f in slow[0]} or "while" in text
    assert bench._check(str(path), text) == slow


LOOPING_CHILD = "for p in $*\ndo\n" + "".join(f"  echo {i}\n" for i in range(100)) + "done\n"
SIXTY = " ".join(f"a{i}" for i in range(60))


@pytest.mark.parametrize("text, why", [
    # a launcher without a loop of its own passes 60 arguments: the child's loop goes round 60 times
    ("bash ./looping.sh " + SIXTY + "\npython3 ../train.py\n", "its commands may reach the walk's bound"),
    ("bash ./looping.sh " + SIXTY.replace(" a3", " \\\n a3") + "\npython3 ../train.py\n",     # one logical line
     "its commands may reach the walk's bound"),
    # as many as a variable's value has words: not counted here
    ('A="' + SIXTY + '"\nbash ./looping.sh $A $A\npython3 ../train.py\n',
     "a function or a file given a variable's words loops over them"),
    # named where it is not run: the line that runs it is not known here
    ('S=./looping.sh\nA="' + SIXTY + '"\nbash $S $A $A $A\npython3 ../train.py\n',
     "a function or a file given a variable's words loops over them"),
    ('A="' + SIXTY + '"\nf() {\n  for a\n  do\n' + "".join(f"    echo {i}\n" for i in range(30)) +
     '  done\n}\nf $A $A $A\npython3 ../train.py\n', "a function given a variable's words loops over them"),
    # a quoted argument that runs on over 30 lines of 2 words: `for a in $*` splits it into 60 (the widest line has 2)
    ("f() {\n  for a in $*\n  do\n" + "".join(f"    echo {i}\n" for i in range(100)) + "  done\n}\nf '" +
     "\n".join(f"a{i} b{i}" for i in range(30)) + "'\npython3 ../train.py\n",
     "a function given a variable's words loops over them"),
])
def test_the_arguments_a_loop_goes_round_are_those_its_caller_can_give(project, text, why):
    """A loop over the arguments in a function body or a file it runs goes round once per argument of the call: the
    words of the calling line, whatever file it is in (a launcher without a loop of its own counted none: settled,
    while the walk stopped at its bound), and a variable's words are not counted here."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "looping.sh").write_text(LOOPING_CHILD)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    with bench.every_walk():
        slow = bench._check(str(path), text)
    assert "NPP191" in {f.code for f in slow[0]}
    assert bench._check(str(path), text) == slow


TEN = " ".join(f"a{i}" for i in range(10))


@pytest.mark.parametrize("text, why", [
    # a bare name at a command's head: the walk runs a child script only by a path (`./x.sh`) or a shell (`bash x.sh`;
    # a bare one is looked up on PATH), so no argument of that line reaches the loop
    ('A="' + TEN + '"\nbash ./looping.sh a b\nif [ -n "$A" ]; then\n  looping.sh $A $A\nfi\npython3 ../train.py\n', ""),
    ('A="' + TEN + '"\nbash ./looping.sh a b\nlooping.sh $A $A;\tlooping.sh $A\npython3 ../train.py\n', ""),
    # a name inside a word whose path no file of that name ends with (`echo"usage:./x.sh <args>"`, a missing blank)
    ('bash ./looping.sh a b\nif [ "$1" = -h ]; then echo"usage:./looping.sh $1"; fi\npython3 ../train.py\n', ""),
    # where the walk may run it with a variable's words: still walked
    ('A="' + TEN + '"\nbash ./looping.sh a b\nbash looping.sh $A $A\npython3 ../train.py\n',
     "a function or a file given a variable's words loops over them"),
    ('A="' + TEN + '"\nbash ./looping.sh a b\n./looping.sh $A $A\npython3 ../train.py\n',
     "a function or a file given a variable's words loops over them"),
    ('A="' + TEN + '"\nbash ./looping.sh a b\nnohup looping.sh $A $A\npython3 ../train.py\n',
     "a function or a file given a variable's words loops over them"),
    ('A="' + TEN + '"\nbash ./looping.sh a b\n"looping.sh" $A $A\npython3 ../train.py\n',
     "a function or a file given a variable's words loops over them"),
    ('A="' + TEN + '"\nlooping.sh() { for a; do echo $a; done; }\nbash ./looping.sh a b\nlooping.sh $A\n'
     'python3 ../train.py\n', "a function given a variable's words loops over them"),
    ('A="' + TEN + '"\nbash ./looping.sh a b\nbash usage/../looping.sh $A\npython3 ../train.py\n',
     "a function or a file given a variable's words loops over them"),
])
def test_a_place_that_cannot_run_the_looping_file_gives_it_no_arguments(project, text, why, monkeypatch):
    """The arguments a loop over them goes round are counted at the places that can run its file: not a bare name at a
    command's head (the walk runs no child script there), nor a word whose path none of the files followed ends with
    (as the files are followed: _follow)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "looping.sh").write_text("for p in $*\ndo\n" + "  echo $p\n" * 20 + "done\n")
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)


GETOPTS_CHILD = "while getopts a o\ndo\n" + "".join(f"  echo {i}\n" for i in range(100)) + "done\n"


@pytest.mark.parametrize("text, why", [
    # a file only run: its loop goes round once per word after its name there (one), not _args' bound for all (63)
    ("echo " + SIXTY + "\nbash ./looping.sh a\npython3 ../train.py\n", ""),
    ("echo " + SIXTY + "\nf() { bash ./looping.sh a b; }\nf\nf\npython3 ../train.py\n", ""),
    ("echo " + SIXTY + "\nbash ./getopts.sh -a\npython3 ../train.py\n", ""),
    # getopts takes each letter of an option: a round each
    ("echo " + SIXTY + "\nbash ./getopts.sh -" + "a" * 52 + "\npython3 ../train.py\n", BOUND),
    # the caller's arguments, a quoted word that may run on, a sourced file (its caller's arguments): _args' bound
    ("echo " + SIXTY + "\nbash ./looping.sh \"$@\"\npython3 ../train.py\n", BOUND),
    ("echo " + SIXTY + "\nbash ./looping.sh 'a\nb c'\npython3 ../train.py\n",
     "a function or a file given a variable's words loops over them"),
    ("echo " + SIXTY + "\nsource ./looping.sh a\npython3 ../train.py\n", BOUND),
    # (a function may do anything with it)
    ("echo " + SIXTY + "\ns() { \"$@\"; }\ns ./looping.sh a\npython3 ../train.py\n",
     "a function or a file given a variable's words loops over them"),
])
def test_a_file_only_run_loops_over_the_words_its_places_give_it(project, text, why, monkeypatch):
    """A loop over the arguments in a file the launcher runs (a new shell) goes round as often as the words after its
    name at the places that run it (_own_rounds): the launcher's widest line (60 words) no longer bounds it."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "looping.sh").write_text(LOOPING_CHILD)
    (project / "test" / "getopts.sh").write_text(GETOPTS_CHILD)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)
    elif "getopts" in text:
        assert "NPP191" in {f.code for f in bench._check(str(path), text)[0]}


HELP_CHILD = ('cd $(pwd)/..\nif [[ $1 == -h ]]; then\n  echo"usage:./help.sh <args>"\n  echo "parameter explain:\n'
              '    --data_path    source data of training\n  "\n  exit 1\nfi\necho ok\n')


@pytest.mark.parametrize("text, why", [
    # the file it runs goes a level up, but in its own shell, and names nothing to run or source there: the region
    # stays the launcher's (no `bash help.sh` above it is followed; its `source data` is no command: an option heads it)
    ("bash help.sh\npython3 ../train.py\n", ""),
    ("bash ./help.sh a\npython3 ../train.py\n", ""),
    # a file it may source goes up in the launcher's shell: the region is the folder above
    (". ./help.sh\npython3 ../train.py\n", "../../other/train.py may hold a setup"),
])
def test_a_file_run_that_names_nothing_adds_no_level(project, text, why, monkeypatch):
    """A `cd ..` in a file it runs (a new shell) moves only that shell, which the scan follows only to find the files it
    runs or sources: where it names none, its levels widen no region. Names that enter no file are none: a bare name at
    a command's head (`x.sh $A`: PATH's), a `.sh` in a first word after a `:` (`echo"usage:./x.sh"`), a `source` after
    an option (`--data_path source data` in a help text)."""
    from flake8_npuprof.engine.launch_scan import _Text, why_walked
    (project / "test" / "help.sh").write_text(HELP_CHILD)
    other = project.parent / "other"
    other.mkdir()
    (other / "help.sh").write_text("python3 train.py\n")
    (other / "train.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)
    assert _Text("x.sh", HELP_CHILD).shells == []
    assert _Text("x.sh", "x.sh $A\nfoo:./y.sh\nA=a:./b.sh\n  --d source d\n").shells == [("b.sh", "/a:./b.sh", False)]
    assert [n for n, _, _ in _Text("x.sh", "./x.sh\n\"x.sh\"\nnohup x.sh\nf x:./y.sh\n--d; source d\n").shells] == \
        ["x.sh", "x.sh", "x.sh", "y.sh", "d"]


def test_a_file_run_that_runs_what_it_is_given_goes_up_for_it(project, tmp_path):
    """`bash ./up.sh ./far.sh` where up.sh goes up and runs its argument: up.sh names no file, but the name it is given
    is found from where it went (far.sh above the launcher's folder, long enough to stop the walk): its levels count
    wherever a file's name is given as a value or an argument, not run where it stands."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "up.sh").write_text('cd ..\nbash "$1"\n')
    (project / "far.sh").write_text(LONG_CHILD * 4)
    path = project / "test" / "run.sh"
    text = "bash ./up.sh ./far.sh\npython3 train.py\n"
    path.write_text(text)
    with bench.every_walk():
        assert "NPP191" in {f.code for f in bench._check(str(path), text)[0]}
    assert why_walked(text, str(path)) == "its commands may reach the walk's bound"


TEN_BY_VALUE = "; ".join(["$c"] * 10)


@pytest.mark.parametrize("text", [
    # f's 100 commands walked 60 times through `$c` (the walk calls a function by its expanded name): its bound
    "c=f\ng() { " + TEN_BY_VALUE + "; }\ng; g; g; g; g; g\npython3 ../train.py\n",
    "source ./lib.sh\nc=f\ng() { " + TEN_BY_VALUE + "; }\ng; g; g; g; g; g\npython3 ../train.py\n",
    "c=f\ng() { " + TEN_BY_VALUE.replace("$c", "${c}") + "; }\ng; g; g; g; g; g\npython3 ../train.py\n",
    "c=f\ng() { " + TEN_BY_VALUE.replace("$c", "eval $c") + "; }\ng; g; g; g; g; g\npython3 ../train.py\n",
    # a case pattern's `)` then a backtick: the walk runs what `echo $c` prints (review13; settled at 280cd7a)
    "c=f\ng() { " + TEN_BY_VALUE.replace("$c", "case x in x)`echo $c`;; esac") + "; }\ng; g; g; g; g; g\n"
    "python3 ../train.py\n",
    "g() { " + TEN_BY_VALUE.replace("$c", "$1") + "; }\ng f; g f; g f; g f; g f; g f\npython3 ../train.py\n",
    "s() { " + TEN_BY_VALUE.replace("$c", '"$@"') + "; }\ns f; s f; s f; s f; s f; s f\npython3 ../train.py\n",
    "source ./lib.sh\ns() { " + TEN_BY_VALUE.replace("$c", '"$@"') + "; }\ns f; s f; s f; s f; s f; s f\n"
    "python3 ../train.py\n",
])
def test_a_function_called_by_a_variable_s_value_is_counted_as_a_call_of_each(project, text):
    """A command whose head is an expansion (`$c`, `"$@"`, `eval $c`) calls the function its value names, as often as
    that command is walked: the name's words (`c=f`, `s f`) count no such call, so each such command counts as a call
    of every function (but the one it is in). Counted once, each of these was settled while the walk stopped at its
    bound (NPP191)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "lib.sh").write_text("f() {\n" + "".join(f"  echo {i}\n" for i in range(100)) + "}\n")
    path = project / "test" / "run.sh"
    text = text if "lib.sh" in text else (project / "test" / "lib.sh").read_text() + text
    path.write_text(text)
    assert why_walked(text, str(path)) == "its commands may reach the walk's bound"
    with bench.every_walk():
        slow = bench._check(str(path), text)
    assert "NPP191" in {f.code for f in slow[0]}
    assert bench._check(str(path), text) == slow


@pytest.mark.parametrize("text, why", [
    # presubmit.sh's shape: `${PY_BINARY} x` in py_test, `${t}` at the top, py2_test calling py_test (none of them
    # calls one being walked: py_test's `${PY_BINARY}` reaches py2_test only in a walk not under py2_test)
    ('p() {\n  for f in `ls`; do ${B} "$f"; done\n}\np2() {\n  B=$(which python2)\n  p "$B"\n}\n'
     'for t in "${TESTS}"; do ${t} || r=$?; done\npython3 ../train.py\n', ""),
    ("g() { $c; }\nc=f\ng\n$c\npython3 ../train.py\n", ""),
    ("source ./lib.sh\ng() { $c; }\nc=f\ng\n$c\npython3 ../train.py\n", ""),
    # what `$c /` gives may be f's `cd $1` (and `$c` may be `cd`): an absolute path, not a program's argument
    ("g() { cd $1; }\nc=g\n$c /\npython3 ../train.py\n", "an absolute path that is there (/)"),
    ("c=cd\n$c /\npython3 ../train.py\n", "an absolute path that is there (/)"),
    ("x=$(($n / 2))\npython3 ../train.py\n", ""),        # (a division, no command headed by `$n`)
    # g (sourced) and h call each other by value: neither inside itself (across files: _cross_commands)
    ("source ./lib2.sh\nh() { $c; }\nc=g\nh\n$c\npython3 ../train.py\n", ""),
    # a head by value in a file only run, a shell with no function: it calls none
    ("f() { echo; }\nf\nbash ./child.sh a b\npython3 ../train.py\n", ""),
    # a body that loops over its arguments, given as many as the value has words
    ('g() {\n  for a in "$@"\n  do\n    echo 1\n  done\n}\nc="g 1 2 3"\n$c\npython3 ../train.py\n',
     "a function given a variable's words loops over them"),
])
def test_a_head_by_value_is_settled_where_its_calls_are_counted(project, text, why, monkeypatch):
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "lib.sh").write_text("f() {\n" + "".join(f"  echo {i}\n" for i in range(100)) + "}\n")
    (project / "test" / "lib2.sh").write_text("g() { $c; }\n")
    (project / "test" / "child.sh").write_text("for p in $*\ndo\n  $p\ndone\n")
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)


def test_a_source_after_an_option_is_a_call_of_a_function_of_that_name(project):
    """`--data_path source data` is no command unless a function has that name (bash defines one so named; the walk
    too): the launcher is walked then."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "data").write_text("cd ..\n")
    path = project / "test" / "run.sh"
    text = "function --data_path {\n  \"$@\"\n}\n--data_path source data\npython3 ../train.py\n"
    path.write_text(text)
    assert why_walked(text, str(path)) == "a function named as an option before `source`"
    # a first word not written out whole may be another name (`-x"y"` is `-xy`): its `source` is followed
    from flake8_npuprof.engine.launch_scan import _Text
    assert _Text("x.sh", '-x"y" source d\n-x$C source d\n').shells == [("d", "", True)] * 2


def test_a_name_several_files_have_counts_the_longest_once(project, monkeypatch):
    """`bash ${d}/long.sh` is one file of that name (the walk enters the one it is from): three of them in reach
    count the longest once, not all three."""
    from flake8_npuprof.engine.launch_scan import why_walked
    for folder in ("test", "tools", "."):
        (project / folder / "long.sh").write_text(LONG_CHILD)
    path = project / "test" / "run.sh"
    text = "d=$(cd $(dirname $0); pwd)\nbash ${d}/long.sh\nbash ${d}/long.sh\npython3 ../train.py\n"
    path.write_text(text)
    assert why_walked(text, str(path)) == ""
    _not_walked_and_as_if_walked(path, text, monkeypatch)
    path.write_text(text.replace("bash", "bash ../long.sh; bash ../long.sh; bash", 1))    # four runs: the bound
    assert why_walked(path.read_text(), str(path)) == "its commands may reach the walk's bound"


@pytest.mark.parametrize("text", [
    "cd ~\npython3 train.py\n",                          # the home folder is there
    "python3 ${name}.py\n",                             # the script's name is computed
    "cd ../../../../..\npython3 train.py\n",            # more levels up than MAX_LEVELS
    "export PROFILING_MODE=true\npython3 ../train.py\n",
    "a=tra\nb=in.py\npython3 ../$a$b\n",                # a name held in a variable, used in part
    "for p in $*; do cd ..; done\npython3 ../train.py\n",     # `cd ..` once per argument: as far up as they go
    "up() { cd ..; }\nup; up; up; up\npython3 train.py\n",   # a body's `cd ..` once per call
    "python3 -m $module\n",
    "bash ./${name}.sh\n",
    "source ./env.sh\nsource ./env.sh\nsource ./env.sh\npython3 train.py\n",    # env.sh goes up 2 each time
    "bash ./loop.sh\n",                                 # runs itself
    NESTED_CALLS,                                       # calls enough for the bound
])
def test_a_launcher_the_scripts_scan_cannot_settle_is_walked(project, text):
    from flake8_npuprof.engine.launch_scan import starts_no_profiled_script
    (project / "test" / "env.sh").write_text("cd ../..\n")
    (project / "test" / "loop.sh").write_text("bash ./loop.sh\n")
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert not starts_no_profiled_script(text, str(path))
    _same_as_walked(path, text)


# the shapes the scan follows: a file run or sourced, a `-m` module, a function body, an absolute path
FOLLOWED = [
    "bash ./child.sh --epochs=1\n",                     # child.sh starts ../tools/eval.py
    "cd ..\nbash test/child.sh\n",                      # (from the project's folder: the same child)
    "source ./env.sh\npython3 ${ROOT}/train.py\n",       # env.sh sets ROOT=.. (a level up it writes)
    ". ./env.sh && python3 ${ROOT}/tools/eval.py\n",
    "cd ..\npython3 -m tools.eval --x=1\n",
    "run() {\n  python3 ../train.py \"$@\"\n}\nrun --epochs=1\nrun --epochs=2\n",
    "function run {\n  cd ..\n  python3 train.py\n}\nrun\n",
    "python3 /nonexistent_npx/models/train.py\n",    # not there: the walk finds no script
    "cd /nonexistent_npx/data\npython3 ../train.py\n",
    "python3 ../train.py > /dev/null 2>&1\n",           # what a redirection names is no folder
    "wget https://example.com/data.tar\npython3 ../train.py\n",
    "# python3 /opt/x/train.py is what runs on the cluster\npython3 ../train.py\n",
    "cp -r /etc/x_npx ./out && python3 ../train.py --data_dir=/etc\n",   # a program's arguments: never a folder
    "python3 ../test_*.py\n",                           # the walk looks for that very name
]


@pytest.mark.parametrize("text", FOLLOWED)
def test_a_launcher_whose_followed_files_start_no_profiled_script_is_not_walked(project, text, monkeypatch):
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "child.sh").write_text("for p in $*; do echo $p; done\npython3 ../tools/eval.py \"$@\"\n")
    (project / "test" / "env.sh").write_text("export ROOT=..\nA=1\n")
    (project / "tools" / "__init__.py").write_text("")
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and why_walked(text, str(path)) == ""
    _not_walked_and_as_if_walked(path, text, monkeypatch)


@pytest.mark.parametrize("text", FOLLOWED[:2] + [
    "nohup sh ./child.sh > log 2>&1 &\n",
    "./child.sh\n",
    "cp ./child.sh ./copy_npx.sh\n",
])
def test_a_file_it_runs_in_a_new_shell_starts_no_script_of_the_launcher(project, text, monkeypatch):
    """A profiled script that a file the launcher runs (not sources) starts is that file's launch, reported there:
    the launcher is not walked for it, and its findings are every walk's."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "child.sh").write_text("python3 ../tools/eval.py \"$@\"\n")
    (project / "test" / "child.sh").chmod(0o755)
    (project / "tools" / "eval.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == ""
    _not_walked_and_as_if_walked(path, text, monkeypatch)


GIVEN = 'a file named from values a head by value may source ("$1")'


@pytest.mark.parametrize("text, why", [
    ("run=source\n$run ./child.sh\n", ""),             # `source` from a value
    # by a function: `$s "$1"` may source any file it is given (`f envx` too), the scan stops at it
    ("f() { s=source; $s \"$1\"; }\nf ./child.sh\n", GIVEN),
    ("eval \"bash ./child.sh\"\n", ""),
    ("bash() { s=.; $s \"$1\"; }\nbash ./child.sh\n", GIVEN),    # a function named as a shell
    ("x=./child.sh; cp $x ./copy_npx.sh\n", ""),        # named where it may go on to be sourced
])
def test_a_file_a_command_may_source_is_followed_for_its_scripts(project, text, why):
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "child.sh").write_text("python3 ../tools/eval.py \"$@\"\n")
    (project / "tools" / "eval.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == (why or "../tools/eval.py may hold a setup")
    _same_as_walked(path, text)


def test_a_file_read_before_the_region_grew_is_followed_again(project):
    """The scan reads the files a launcher sources, and goes up a level when one writes `..` (env.sh here): the
    second pass goes through every file again, so env.sh, sourced from a file read in the first pass, still sets
    the script the launcher starts."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "outer.sh").write_text("source ./env.sh\n")
    (project / "test" / "env.sh").write_text("T=../train.py\n")
    (project / "train.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    text = "source ./outer.sh\npython3 ${T}\n"
    path.write_text(text)
    assert why_walked(text, str(path)) == "../train.py may hold a setup"
    _same_as_walked(path, text)


@pytest.mark.parametrize("text, why", [
    ('echo "usage: ./child.sh [data dir]"\n', ""),       # echo's argument: no file run
    ('echo "`date +%H`-[INFO] start to run child.sh "\n', ""),
    ("printf '%s\\n' child.sh\n", ""),
    ('echo "$(s=source; $s ./child.sh)"\n', "../tools/eval.py may hold a setup"),     # in a substitution
    ("$(echo $cmd ./child.sh)\n", "../tools/eval.py may hold a setup"),      # a substitution's output, run
    ("x=`echo ./child.sh`; source $x\n", "a shell script named from values ($x)"),
    ('echo() { s=source; $s "$1"; }\necho ./child.sh\n', "a function named echo or printf"),
])
def test_a_file_named_only_in_what_echo_prints_is_not_followed(project, text, why, monkeypatch):
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "child.sh").write_text("python3 ../tools/eval.py\n")
    (project / "tools" / "eval.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)


@pytest.mark.parametrize("text", FOLLOWED[2:7])
def test_a_launcher_is_walked_once_a_file_it_follows_can_start_a_profiled_script(project, text):
    """The same launchers once the script the child, the sourced value, the module or the function names holds a
    setup: walked, with every walk's findings."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "child.sh").write_text("python3 ../tools/eval.py \"$@\"\n")
    (project / "test" / "env.sh").write_text("export ROOT=..\n")
    (project / "tools" / "__init__.py").write_text("")
    (project / "tools" / "eval.py").write_text(EXAMPLE_SCRIPT)
    (project / "train.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)).endswith("may hold a setup")
    _same_as_walked(path, text)


@pytest.mark.parametrize("text, walked", [
    ("python3 ${cur_path}/train.py\n", False),          # a variable no text sets: not known to the walk
    ("python3 $3/train.py\n", False),                   # check knows no argument of the launcher
    ("cur_path=..\npython3 ${cur_path}/train.py\n", True),
    ("python3 ${cur_path:-..}/train.py\n", True),       # its default is known
    ("run() { python3 $1/train.py; }\nrun ..\n", True),  # a function's arguments are known
    ("for cur_path in ..; do python3 ${cur_path}/train.py; done\n", True),
])
def test_a_script_word_the_walk_cannot_know_starts_no_script(project, text, walked):
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "train.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == ("" if not walked else "a `..` a function is given" if "run .." in text
                                           else "../train.py may hold a setup")
    _same_as_walked(path, text)


@pytest.mark.parametrize("text", [
    "X=/etc\ncd $X/..\npython3 ../train.py\n",           # a value a `cd` may read
    "run() { cd $1/..; python3 train.py; }\nrun /etc\n",   # what a function's call passes it
    "bash ./child.sh /etc\npython3 ../train.py\n",       # what a script run gets
    "for d in /etc; do cd $d/..; done\npython3 ../train.py\n",
    "cd /etc/..\npython3 ../train.py\n",
    "d=$(echo /etc)\ncd $d/..\npython3 ../train.py\n",   # what a substitution prints (the walk runs echo)
    "d=`dirname /etc/x`\ncd $d/..\npython3 ../train.py\n",
    "cd ${DATA:-/etc}/..\npython3 ../train.py\n",        # a default the walk gives
])
def test_an_absolute_path_a_directory_may_come_from_is_walked(project, text):
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "child.sh").write_text("cd $1\n")
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)).startswith("an absolute path that is there (/")


def test_a_path_written_out_is_the_file_it_ends_with(project):
    """`../missing/train.py` can only be a train.py in a folder named missing: tools/train.py, which holds a
    setup, is not what it starts; a missing/train.py with one is."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "train.py").write_text(EXAMPLE_SCRIPT)
    text = "python3 ../missing/train.py\npython3 ./../tools/../tools/eval.py\n"
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == ""
    fast = bench._check(str(path), text)
    with bench.every_walk():
        assert bench._check(str(path), text) == fast
    (project / "missing").mkdir()
    (project / "missing" / "train.py").write_text(EXAMPLE_SCRIPT)
    assert why_walked(text, str(path)) == "../missing/train.py may hold a setup"


def test_a_launcher_in_a_linked_folder_is_walked(project, tmp_path):
    """`../train.py` from a linked folder is its target's neighbour, which no listing of the link's parent holds."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (tmp_path / "real" / "test").mkdir(parents=True)
    (tmp_path / "real" / "train.py").write_text(EXAMPLE_SCRIPT)
    (project / "linked").symlink_to(tmp_path / "real" / "test")
    text = "python3 ../train.py\n"
    (project / "linked" / "run.sh").write_text(text)
    assert why_walked(text, str(project / "linked" / "run.sh")) == "a linked folder on its path"
    (tmp_path / "real" / "test" / "deep").mkdir()            # a link higher up the path
    (project / "linked" / "deep" / "run.sh").write_text(text)
    assert why_walked(text, str(project / "linked" / "deep" / "run.sh")) == "a linked folder on its path"
    # one that names nothing to follow starts nothing wherever it is
    assert why_walked("cd ..\nls\nf() { echo; }\n", str(project / "linked" / "run.sh")) == ""


def test_an_absolute_path_that_is_there_is_walked(project, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "train.py").write_text(PLAIN)
    text = f"cd {tmp_path / 'elsewhere'}\npython3 train.py\n"
    path = project / "test" / "run.sh"
    path.write_text(text)
    from flake8_npuprof.engine.launch_scan import why_walked
    assert why_walked(text, str(path)).startswith("an absolute path that is there")


@pytest.mark.parametrize("before", ["cd ..; ", "cd .. && ", "cd ..\n", "cd $(dirname ..); "])
def test_an_absolute_path_in_a_later_command_of_a_substitution_may_be_its_output(project, tmp_path, before):
    """`$(cd ..; echo /data)`: the walk knows the output of `cd`s then one printing command (shell/expand.Expander.
    _output), so a later command's argument may become the value a `cd $D` goes to (it started elsewhere/train.py,
    while the scan took /data for a program's argument and settled it)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "q.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    text = f"D=$({before}echo {tmp_path / 'elsewhere'})\ncd $D\npython3 q.py\n"
    path.write_text(text)
    assert why_walked(text, str(path)).startswith("an absolute path that is there")
    assert bench.unstartable(str(project / "test"), ["run.sh"]) == []


@pytest.mark.parametrize("head, walked", [
    ("grep -c ^processor", False), ("wc -l", False), ("git -C", False), ("cat", False),
    # what these print the walk knows: a value a `cd $D` may go to (or one it gives a command whose output it knows)
    ("dirname", True), ("echo", True), ("readlink -f", True), ("realpath", True), ("$CMD", True),
    ("cd", True), ("bash ./x.sh", True),
])
def test_an_absolute_path_in_a_substitution_the_walk_cannot_print_is_no_directory(
        project, tmp_path, head, walked, monkeypatch):
    """`$(grep -c ^processor /proc/cpuinfo)`: the walk knows the output of a substitution only where its command is one
    of shell/expand.Expander._output's (`dirname`, `echo`, `pwd`, ...), runs none of its commands, so a path that is
    only such a command's argument leads nowhere."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "train.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    for text in (f"D=$({head} {tmp_path / 'elsewhere'})\ncd $D\npython3 train.py\n",
                 f"N=`{head} {tmp_path / 'elsewhere'}`\npython3 ../train.py $N\n"):
        path.write_text(text)
        assert why_walked(text, str(path)).startswith("an absolute path that is there") == walked, text
        if not walked:
            _not_walked_and_as_if_walked(path, text, monkeypatch)


def test_a_launcher_running_a_script_whose_walk_stops_is_walked_and_says_so(project):
    """What a launcher runs counts toward the walk's bound: NPP191 on the launcher, which names no profiling word."""
    (project / "test" / "child.sh").write_text("echo ok\n" * MAX_COMMANDS)
    text = "bash ./child.sh\npython3 ../train.py\n"
    path = project / "test" / "run.sh"
    path.write_text(text)
    from flake8_npuprof.engine.launch_scan import why_walked
    assert why_walked(text, str(path)) == "its commands may reach the walk's bound"
    found = check_file(text, str(path), Settings())
    assert [(f.code, f.line) for f in found] == [("NPP191", 1), ("NPP191", 2)]
    assert "stopped in child.sh, which it runs, at line 5000" in found[0].message


@pytest.mark.parametrize("text,why", [
    ("x=child.shy\nbash ${x%y}\n", "a computed name (${x%)"),                 # (settled at 9a124ab: settle16)
    ("x=child.s\nx+=hy\nbash ${x%y}\n", "a computed name (${x%)"),            # (no `.sh` word: may_start said no)
    ("x=child.sh.bak\nbash ${x%%.bak}\n", "a computed name (${x%)"),
])
def test_a_script_name_cut_from_a_value_s_end_is_walked_and_says_so(project, text, why):
    """A value cut from its end names a file no word of the text ends with (`child.shy` less its `y`: bash 5.2 runs
    child.sh): the launcher is walked, and the walk stops in the child (NPP191), as bash would run it."""
    (project / "test" / "child.sh").write_text("echo ok\n" * MAX_COMMANDS)
    path = project / "test" / "run.sh"
    path.write_text(text)
    from flake8_npuprof.engine.launch_scan import why_walked
    assert needs_walk(text) and why_walked(text, str(path)) == why
    found = check_file(text, str(path), Settings())
    assert [(f.code, f.line) for f in found] == [("NPP191", 1)]
    # (the launcher's own commands before it count toward the bound: one or two)
    assert f"stopped in child.sh, which it runs, at line {MAX_COMMANDS + 1 - text.count(chr(10))} (after 5,000 " \
           "commands)" in found[0].message


def test_a_child_that_starts_a_profiled_script_is_reported_on_the_child(project):
    """The launch is the child's: the launcher that runs it is not walked for it and reports nothing of it, the child
    does."""
    (project / "train.py").write_text(EXAMPLE_SCRIPT.replace('"--data_path", default=""', '"--trace", default="True"')
                                      .replace("if args.profiling:", "if args.trace:"))
    child = "python3 ../train.py --trace=False\n"
    (project / "test" / "child.sh").write_text(child)
    text = "bash ./child.sh\n"
    path = project / "test" / "run.sh"
    path.write_text(text)
    from flake8_npuprof.engine.launch_scan import why_walked
    assert why_walked(text, str(path)) == ""
    assert check_file(text, str(path), Settings()) == []
    found = check_file(child, str(project / "test" / "child.sh"), Settings())
    assert [(f.code, f.line, f.col) for f in found] == [("NPP205", 1, 20)]


def test_the_listing_of_a_region_is_made_again_when_a_folder_changes(project):
    from flake8_npuprof.engine.launch_scan import starts_no_profiled_script
    path = project / "test" / "run.sh"
    text = "python3 ../train.py\n"
    path.write_text(text)
    assert starts_no_profiled_script(text, str(path))
    (project / "test" / "deep").mkdir()
    (project / "test" / "deep" / "train.py").write_text(EXAMPLE_SCRIPT)
    assert not starts_no_profiled_script(text, str(path))


def test_one_check_run_looks_at_each_folder_once(project, monkeypatch):
    """Inside a check run (observed.one_run) the launchers of a project share what their region's folders looked like
    (their times, whether each is a link): looked at once, not once a launcher; the next run looks again."""
    import os
    from flake8_npuprof.engine import launch_scan
    from flake8_npuprof.source import observed
    text = "python3 ../train.py\n"
    for name in ("run1.sh", "run2.sh"):
        (project / "test" / name).write_text(text)
    looked = []
    real_stat, real_lstat = os.stat, os.lstat
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: (looked.append(("stat", str(p))), real_stat(p, *a, **k))[1])
    monkeypatch.setattr(os, "lstat", lambda p, *a, **k: (looked.append(("lstat", str(p))), real_lstat(p, *a, **k))[1])
    with observed.one_run():
        assert launch_scan.why_walked(text, str(project / "test" / "run1.sh")) == ""
        first = [x for x in looked if not x[1].endswith(".py")]
        assert ("stat", str(project / "tools")) in first and ("lstat", str(project / "test")) in first
        del looked[:]
        assert launch_scan.why_walked(text, str(project / "test" / "run2.sh")) == ""
        assert [x for x in looked if not x[1].endswith((".py", ".sh"))] == []
    (project / "tools" / "train.py").write_text(EXAMPLE_SCRIPT)     # (tools/ changes: seen by the next run)
    with observed.one_run():
        assert launch_scan.why_walked(text, str(project / "test" / "run1.sh")) == "../tools/train.py may hold a setup"


def test_a_check_run_is_one_run_and_ends_with_it(project, monkeypatch, capsys):
    """`npuprof check` checks its files inside observed.one_run (each run its own memo), and leaves none behind: the
    language server and fix, which look again every time, never run inside one."""
    from flake8_npuprof.cli import main
    from flake8_npuprof.engine import launch_scan
    from flake8_npuprof.source import observed
    (project / "test" / "run.sh").write_text("python3 ../train.py\n")
    inside = []
    real = launch_scan.why_walked
    monkeypatch.setattr(launch_scan, "why_walked",
                        lambda text, path: (inside.append(observed.this_run("time") is not None), real(text, path))[1])
    main(["check", "--no-cache", "-j1", str(project / "test" / "run.sh")])
    assert inside == [True]
    assert observed.this_run("time") is None


@pytest.mark.parametrize("text, walked", [
    ("cur_path='pwd'\npython3 ${cur_path}/train.py > log 2>&1\n", ""),    # pwd/train.py: no such folder
    ("code_dir=$1\npython3.7 ${code_dir}/train.py --data_path=$2\n", ""),  # check knows no argument
    ('code_dir="${1}"\npython3 $code_dir/train.py\n', ""),
    ("cur_path=..\npython3 ${cur_path}/train.py\n", "train.py may hold a setup"),
    ("cur_path='pwd'\ncur_path+=_x\npython3 ${cur_path}/train.py\n", "train.py may hold a setup"),
    ("export cur_path='pwd'\npython3 ${cur_path}/train.py\n", "train.py may hold a setup"),
    ("cur_path='pwd'\nread cur_path\npython3 ${cur_path}/train.py\n", "train.py may hold a setup"),
    ("cur_path='pwd'\necho ${cur_path:-..}\npython3 ${cur_path}/train.py\n", "train.py may hold a setup"),
    ("f() { code_dir=$1; }\nf ..\npython3 ${code_dir}/train.py\n", "a `..` a function is given"),
    ("cur_path=$(pwd)\npython3 ${cur_path}/train.py\n", "train.py may hold a setup"),
    ("cur_path='pwd'\npython3 ${cur_path}/$name/train.py\n", "train.py may hold a setup"),
])
def test_a_variable_set_only_to_names_written_out_or_to_the_arguments(project, text, walked):
    """`${cur_path}/train.py` where the texts set cur_path only to `'pwd'` is a file whose path ends with
    pwd/train.py, and where they set it only to the launcher's `$1` (outside a function) no script check's walk
    starts; any other way the variable may be set, and the word is any train.py in reach (test/train.py here)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "train.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == walked
    _same_as_walked(path, text)
    if "'pwd'" in text and not walked:
        (project / "test" / "pwd").mkdir()
        (project / "test" / "pwd" / "train.py").write_text(EXAMPLE_SCRIPT)
        assert why_walked(text, str(path)) == "pwd/train.py may hold a setup"


def test_several_files_of_a_name_are_asked_for_their_text_alone_before_any_is_read_whole(project, monkeypatch):
    """`bash run_8p.sh` after `cd ../..`: a run_8p.sh in each project of the region may be the one run. The first
    whose text alone stops the scan (a computed name) has the launcher walked, and no _Text is made of those before it
    (InceptionV4's benchmark.sh made four, 6M each, before the fifth's `.$`)."""
    from flake8_npuprof.engine import launch_scan
    zoo = project.parent
    for name, script in (("a", "python3 ../train.py\n"), ("b", "python3 ../train.$ext\n"), ("c", "echo c\n")):
        (zoo / name / "test").mkdir(parents=True)
        (zoo / name / "test" / "run_8p.sh").write_text(script)
    real = launch_scan._named
    monkeypatch.setattr(launch_scan, "_named", lambda found, name: sorted(real(found, name)))     # (a, b, c)
    made = []

    class Counted(launch_scan._Text):
        def __init__(self, path, text):
            made.append(path)
            super().__init__(path, text)

    monkeypatch.setattr(launch_scan, "_Text", Counted)
    monkeypatch.setattr(launch_scan, "_by_text", {})    # (what other tests' texts left: counted here as made)
    text = "cd ../..\nbash run_8p.sh\n"
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert launch_scan.why_walked(text, str(path)) == "a computed name (.$) in ../../b/test/run_8p.sh"
    assert [p for p in made if p.endswith("run_8p.sh")] == []
    _same_as_walked(path, text)
    # none stops it: each is read whole (b's text not a's: one text in two files is read once, _by_text)
    (zoo / "b" / "test" / "run_8p.sh").write_text("python3 ../train.py --b=1\n")
    assert launch_scan.why_walked(text, str(path)) == ""
    assert sorted(p for p in made if p.endswith("run_8p.sh")) == [str(zoo / n / "test" / "run_8p.sh") for n in "abc"]


def test_a_folder_above_a_region_over_the_bound_is_not_listed(tmp_path, monkeypatch):
    """A region that holds more entries than a listing may is refused, and so is every folder above it without a
    look (it holds all that region holds): siammask's make.sh listed TensorFlow/ after ResNext101's benchmark.sh had
    found TensorFlow/built-in/ over the bound (2.2M)."""
    from flake8_npuprof.engine import launch_scan
    monkeypatch.setattr(launch_scan, "MAX_ENTRIES", 5)
    monkeypatch.setattr(launch_scan, "_refused", set())        # (the folders above tmp_path: not for other tests)
    region = tmp_path / "zoo" / "a"
    region.mkdir(parents=True)
    (tmp_path / "zoo" / "b").mkdir()
    for i in range(6):
        (region / f"{i}.sh").write_text("")
    assert launch_scan._listing(str(tmp_path / "zoo" / "b")) is not None
    assert launch_scan._listing(str(region)) is None
    monkeypatch.setattr(launch_scan, "_entries", lambda folder: pytest.fail(f"read {folder}"))
    assert launch_scan._listing(str(tmp_path / "zoo")) is None
    assert launch_scan._listing(str(tmp_path)) is None
    assert launch_scan._listing(str(tmp_path / "zoo" / "b")) is not None     # (kept: not above it)


def test_a_listing_found_the_same_in_a_check_run_is_not_looked_at_again(tmp_path, monkeypatch):
    """In a check run (observed.one_run) a folder's time stays the one first seen: a region listed in the run is not
    looked at again, folder by folder, by the next launcher of its project; outside a run, or in the next, it is."""
    from flake8_npuprof.engine import launch_scan
    from flake8_npuprof.source import observed
    region = tmp_path / "proj"
    (region / "test").mkdir(parents=True)
    (region / "train.py").write_text("")
    asked = []
    mtime = launch_scan._mtime
    monkeypatch.setattr(launch_scan, "_mtime", lambda folder: asked.append(folder) or mtime(folder))
    with observed.one_run():
        found = launch_scan._listing(str(region))
        assert found is not None and found.get("train.py") == [str(region / "train.py")]
        asked.clear()
        with observed.recording() as rec:
            assert launch_scan._listing(str(region)) is found
        assert asked == []
        assert rec.paths == {str(region): ("listing", mtime(str(region))),
                             str(region / "test"): ("listing", mtime(str(region / "test")))}
    assert launch_scan._listing(str(region)) is found
    assert sorted(asked) == [str(region), str(region / "test")]         # (outside a run: every folder looked at)
    (region / "eval.py").write_text("")
    asked.clear()
    with observed.one_run():
        again = launch_scan._listing(str(region))
        assert again is not found and again.get("eval.py") == [str(region / "eval.py")]     # (the folder changed)


def test_a_module_above_the_region_is_looked_for_below_its_first_part(tmp_path):
    """`python -m pkg.tool` may start pkg/tool.py (or pkg/tool/__init__.py) in any folder above the region: where a
    folder holds no pkg, one look at pkg answers for both, and what a cached check rests on is that pkg is not there
    (it becomes stale when pkg is made)."""
    from flake8_npuprof.engine import launch_scan
    from flake8_npuprof.source import observed
    region = tmp_path / "zoo" / "proj"
    region.mkdir(parents=True)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "tool.py").write_text("")
    (tmp_path / "lone.py").write_text("")
    found = launch_scan._listing(str(region))
    assert launch_scan._modules({"pkg.tool"}, str(region), found) == [str(tmp_path / "pkg" / "tool.py")]
    assert launch_scan._modules({"lone"}, str(region), found) == [str(tmp_path / "lone.py")]
    with observed.recording() as rec:
        assert launch_scan._modules({"other.tool"}, str(region), found) == []
    assert rec.paths[str(tmp_path / "zoo" / "other")] == ("missing",)
    assert str(tmp_path / "zoo" / "other" / "tool.py") not in rec.paths
    assert observed.unchanged(rec.paths)
    (tmp_path / "zoo" / "other").mkdir()
    (tmp_path / "zoo" / "other" / "tool.py").write_text("")
    assert not observed.unchanged(rec.paths)
    assert launch_scan._modules({"other.tool"}, str(region), found) == [str(tmp_path / "zoo" / "other" / "tool.py")]


def test_a_launcher_that_names_nothing_to_start_is_not_listed(project, tmp_path, monkeypatch):
    """With no script, module or file to follow named, where its `cd`s go decides nothing: the folders above it
    are not listed (a folder link there would have had it walked)."""
    from flake8_npuprof.engine import launch_scan
    (tmp_path / "real").mkdir()
    (project / "linked").symlink_to(tmp_path / "real")
    text = "get() { cd ../..; wget -q $1; }\nget x\nget y\n"
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text)
    monkeypatch.setattr(launch_scan, "_listing", lambda region: pytest.fail(f"listed {region}"))
    assert launch_scan.why_walked(text, str(path)) == ""
    _same_as_walked(path, text)
    monkeypatch.undo()
    text += "python3 train.py\n"
    path.write_text(text)
    assert launch_scan.why_walked(text, str(path)) == "a folder link or too many files above it"


@pytest.mark.parametrize("text, walked", [
    ("X=/etc\npython3 ../train.py --data=$X --log=${X}/log > log 2>&1\n", False),   # only ever an argument
    ('X="/etc"\ncp -r "$X" . && python3 ../train.py\n', False),
    ("X=/etc\ncd $X/..\npython3 ../train.py\n", True),
    ("X=/etc\nexport X\npython3 ../train.py\n", True),                   # a script it starts may cd there
    ("X=/etc\nrun() { cd $1; }\nrun $X\npython3 ../train.py\n", True),  # what a function gets
    ("X=/etc\nbash ./child.sh $X\npython3 ../train.py\n", True),          # what a script run gets
    ("X=/etc\nY=$X/..\ncd $Y\npython3 ../train.py\n", True),              # another variable's value
    ("set -a\nX=/etc\nbash ./child.sh\npython3 ../train.py\n", True),     # exported by set -a
    ("X=/etc\nd=$(dirname $X)\npython3 ../train.py\n", True),             # what a substitution prints
    ("X=/etc\nfor d in $X; do cd $d; done\npython3 ../train.py\n", True),
])
def test_an_absolute_value_read_only_as_a_program_argument_is_no_directory(project, text, walked):
    """`DATA_DIR=/home/imagenet_TF` then `--data_dir=${DATA_DIR}` (the model zoo's Resnet50v1.5 scripts): a value
    a variable holds that is only ever read as a program's argument is what `cp /data/x .` is; read anywhere it may
    become a directory, or set otherwise, it is an absolute path that is there."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "child.sh").write_text("cd $1\n")
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == ("an absolute path that is there (/etc)" if walked else "")
    if not walked:
        _same_as_walked(path, text)


@pytest.mark.parametrize("text, why", [
    # only programs' arguments: no directory goes up there (`..` in the script's own word counts: 1 level)
    ("python3 ../train.py --data=../../data --out=../../../out\n", ""),
    ('echo "usage: ./train.sh --data_path=../../data"\npython3 ../train.py\n', ""),
    ("ls ../../.. > /dev/null\npython3 ../train.py\n", ""),
    ('cp -r "${d}/../../data" . && sed -i "s#/a#$d/../..#g" x.py\npython3 ../train.py\n', ""),   # start no script
    # a `..` that may take a directory up or name a script counts: other/train.py is then in reach
    ("cd ../..\npython3 other/train.py\n", "../../other/train.py may hold a setup"),
    ("d=../..\npython3 $d/other/train.py\n", "../../other/train.py may hold a setup"),
    ("python3 ../../other/train.py\n", "../../other/train.py may hold a setup"),
    ("s=train.py\npython3 ../../other/$s\n", "../../other/train.py may hold a setup"),
    ("python3 ../train.py ${d}/../../other/train.py\n", "../../other/train.py may hold a setup"),
    ("d=$(echo ../..)\ncd $d\npython3 other/train.py\n", "../../other/train.py may hold a setup"),
    ("go() { cd $1; }\ngo ../..\npython3 other/train.py\n", "a `..` a function is given"),
    ("echo() { cd $1; }\necho ../..\npython3 other/train.py\n", "a `..` a function is given"),
])
def test_a_dotdot_only_a_program_is_given_is_no_level_up(project, text, why, monkeypatch):
    """A `..` counts a folder level only where it may take the walk's directory up or name a script: not in a word
    that is a program's argument (written out, naming no script) nor in an `echo`'s; a function's arguments are left
    to the walk. zoo/other/train.py, two levels above test/, holds a setup."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project.parent / "other").mkdir()
    (project.parent / "other" / "train.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    _settled_or_as_walked(path, text, why, monkeypatch)


TRACE = ('import argparse\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n'
         'parser = argparse.ArgumentParser()\nparser.add_argument("--trace", default="")\nargs = parser.parse_args()\n'
         'config = tf.ConfigProto()\ncustom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n'
         'custom_op.name = "NpuOptimizer"\nif args.trace:\n'
         '    custom_op.parameter_map["profiling_mode"].b = True\n'
         '    custom_op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p","task_trace":"on"}\'\n'
         'with tf.Session(config=config) as sess:\n    sess.run(tf.no_op())\n')


@pytest.mark.parametrize("text", [
    "echo start\nsource ./up.sh\nsource ./up2.sh\npython3 train.py --trace=False\n",
    "echo start\n. ./up.sh\n. ./up2.sh\npython3 train.py --trace=False\n",
])
def test_a_file_sourced_at_a_line_start_goes_up_in_the_launcher_shell(project, text):
    """Two sourced files' `cd ..` take the launcher's directory up twice, to a script that holds a setup: the
    launcher is walked, and NPP205 is found. bd6183e's scan read a `source ./x.sh` that starts a line (not the
    first) as a file run, whose `cd` does not come back, counted one level up, and settled the launcher: "All
    checks passed!" without the NPP205 at line 4."""
    from flake8_npuprof.engine.launch_scan import starts_no_profiled_script
    (project / "test" / "up.sh").write_text("cd ..\n")
    (project / "up2.sh").write_text("cd ..\n")
    (project.parent / "train.py").write_text(TRACE)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert not starts_no_profiled_script(text, str(path))
    found = bench._check(str(path), text)
    assert [(f.code, f.line) for f in found[0]] == [("NPP205", text.count("\n"))]
    with bench.every_walk():
        assert bench._check(str(path), text) == found


def test_what_the_scan_read_in_a_file_is_kept_only_while_its_text_is_the_same(project):
    """A launcher another one sources is read once for both (engine/launch_scan._text), and again once it changes: the
    child that now names a script with a setup makes the same launcher walked. A function's argument (`f /data`)
    weighs in its launcher's verdict without changing the kept reading of that launcher."""
    from flake8_npuprof.engine.launch_scan import _text, why_walked
    child = project / "test" / "child.sh"
    child.write_text("echo ok\n")
    path = project / "test" / "run.sh"
    text = "source ./child.sh\npython3 ../train.py\n"
    path.write_text(text)
    assert why_walked(text, str(path)) == ""
    assert why_walked(child.read_text(), str(child)) == ""      # (the child as a launcher: its kept reading)
    child.write_text("python3 ../tools/eval.py\n")
    (project / "tools" / "eval.py").write_text(EXAMPLE_SCRIPT)
    assert why_walked(text, str(path)) == "../tools/eval.py may hold a setup"
    assert why_walked(child.read_text(), str(child)) == "../tools/eval.py may hold a setup"
    fed = "f() { cd $1; }\nf /\npython3 ../train.py\n"
    path.write_text(fed)
    assert why_walked(fed, str(path)) == "an absolute path that is there (/)"
    assert _text(str(path), fed).rooted == []                    # (not added to the kept reading)
    assert why_walked(fed, str(path)) == "an absolute path that is there (/)"


@pytest.mark.parametrize("text, computed", [
    # bash removes the quotes and backslashes inside a word: each of these runs long.sh (four runs reach the walk's
    # bound: NPP191) or starts tools/p.py, which holds a setup
    ('bash ./long.s"h"\n' * 4, '.s"'), ('bash ./long."sh"\n' * 4, '."'), ("bash ./long.s\\h\n" * 4, ".s\\"),
    ("bash ./long.s\'\'h\n" * 4, ".s\'"), ('python3 ../tools/p.p"y"\n', '.p"'), ('python3 ../tools/p."py"\n', '."'),
    ('cd ..\npython3 -m tools."p"\n', 'tools."'), ('cd ..\npython3 -m "tools".p\n', 'tools"'),
])
def test_a_name_with_quotes_inside_is_a_computed_one(project, text, computed):
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "long.sh").write_text(LONG_CHILD)
    (project / "tools" / "p.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == f"a computed name ({computed})"
    assert bench.unstartable(str(project / "test"), ["run.sh"]) == []


@pytest.mark.parametrize("text, why", [
    # a quote after a `-m` module's name that closes a string opened before the `-m` (ci_sanity.sh's
    # `PYLINT_BIN="python3 -m pylint"`): bash reads the module `tools.p`, which the walk starts from `$P`
    ('cd ..\nP="python3 -m tools.p"\n$P --x=1\n', "../tools/p.py may hold a setup"),
    ("cd ..\nP='python3 -m tools.p'\n$P\n", "../tools/p.py may hold a setup"),
    ('P="python3 -m pylint"\n${P} --rcfile=x\n', ""),
    # the word goes on after it, or the quote opens a string of its own: the name is made by bash (walked)
    ('cd ..\nP="python3 -m tools".p\n$P\n', 'a computed name (tools")'),
    ('cd ..\nP="python3" -m tools" x"\n$P\n', 'a computed name (tools")'),
    ('cd ..\nP="a\nb" -m tools" x"\n$P\n', 'a computed name (tools")'),
    ('cd ..\nP="python3 \\" -m tools"\n$P\n', 'a computed name (tools")'),
])
def test_a_quote_after_a_module_that_closes_a_string_is_no_computed_name(project, text, why):
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "p.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why.startswith("a computed"):     # (the walk starts tools/p.py from `$P`; pylint is no file)
        assert bench.unstartable(str(project / "test"), ["run.sh"]) == ([] if why else ["run.sh"])


@pytest.mark.parametrize("text, computed", [
    # `${x:-2}` is bash's default-value expansion (x's value, else 2): no name is cut from a value
    ("PORT=${PORT:-29500}\npython3 -m torch.distributed.launch --master_port=$PORT ../train.py\n", None),
    ("python3 ../train.py --port=${PORT:-2}\n", None),
    # a substring of a value (bash 5.2, x=abcdef: `${x: -2}` and `${x:(-2)}` give ef, `${x:n}` takes n's value as
    # the offset): any name, which the scan cannot follow
    ("s=../xtrain.py\npython3 ${s: -2}\n", "${s: -"),
    ("s=../xtrain.py\npython3 ${s:(-2)}\n", "${s:("),
    ("n=1\ns=../xtrain.py\npython3 ${s:n}\n", "${s:n"),
    ("s=../xtrain.py\npython3 ${s:$n}\n", "${s:$"),
])
def test_a_default_value_is_no_computed_name_but_a_substring_is(project, text, computed, monkeypatch):
    from flake8_npuprof.engine.launch_scan import why_walked
    path = project / "test" / "run.sh"
    path.write_text(text)
    if computed is None:
        assert why_walked(text, str(path)) == ""
        _not_walked_and_as_if_walked(path, text, monkeypatch)
    else:
        assert why_walked(text, str(path)) == f"a computed name ({computed})"


# lines of random launchers around `${x:-y}` defaults, substrings, `cd` and a script with a setup (tools/p.py)
DEFAULTS_FUZZ = [
    "PORT=${PORT:-29500}", "python3 ${DIR:-..}/train.py --port=$PORT", "python3 ../train.py ${ARG:-1}",
    "s=../train.py", "python3 ${s:-../tools/eval.py}", "cd ${D:-..}", "x=${1:-2}", "python3 ${S:-../tools/p.py}",
    "bash ./child.sh ${N:-3}", "echo ${X:-/data}", "python3 ${s: -8}", "python3 ${s:(-8)}", "n=3", "python3 ${s:n}",
    "python3 ${s:$n}", "DIR=${DIR:-../tools}", "python3 $DIR/p.py", "cd ..", "cd tools", "python3 p.py",
    "python3 ../tools/eval.py ${E:-2}", "f() { python3 ${1:-../train.py}; }", "f", "f ../tools/p.py",
    "S=${S:=../tools/p.py}", "python3 \"${DIR:-.}/train.py\"", "for a in ${L:-1 2}; do python3 ../train.py; done",
    "python3 ${T:-../tools}/p.py", "cd ../tools", "python3 ${P:-p}.py", "python3 ../tools/p.py",
]


def test_random_launchers_the_scan_settles_start_no_profiled_script(project):
    """Random launchers of DEFAULTS_FUZZ's lines: each one the scan settles starts no script that may hold a setup
    by its walk (benchmarks/launchers.unstartable: the walk does not stop either), and its findings are those of
    every walk. (Run with 11,000 such launchers when _COMPUTED stopped taking `${x:-2}` for a substring: 4,922
    settled, none unsound; a scan that settles every launcher made 27 unsound of 4,000, and fails here.)"""
    import random
    (project / "tools" / "p.py").write_text(EXAMPLE_SCRIPT)
    (project / "test" / "child.sh").write_text("python3 ../tools/p.py --x=$1\n")
    rnd = random.Random(44)
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(150):
        text = "\n".join(rnd.choice(DEFAULTS_FUZZ) for _ in range(rnd.randint(1, 5))) + "\n"
        path.write_text(text)
        settled += _settled_soundly(path, text)
    assert settled >= 40


THIRTY = " ".join(f"w{i}" for i in range(30))
# lines that exercise the counts of arguments, calls and levels across the files a launcher runs or sources (loop.sh
# goes round once per argument, 60 commands a round; lib.sh's f has 100; up.sh goes up and names nothing, given.sh
# goes up and runs what it is given: far.sh there stops the walk)
FILES_FUZZ = [
    "bash ./loop.sh a", "bash ./loop.sh a b c d e f g h", "loop.sh $A $A $A", f'A="{THIRTY}"', "bash ./loop.sh $A",
    "bash ./loop.sh $A $A $A", "for a; do bash ./loop.sh a b; done", "f2() { bash ./loop.sh \"$@\"; }", "f2 $A $A",
    "source ./lib.sh", ". ./lib.sh", "g() { f; f; f; }", "g", "k() { g; g; g; g; }", "k", "k; k; k",
    'echo"usage:./loop.sh $A"', "  --data_path source lib", "N=$(grep -c x /proc/cpuinfo)", "cd ..",
    "bash ./up.sh", ". ./up.sh", "python3 ../train.py", "python3 ../tools/p.py", "python3 train.py",
    "bash ./loop.sh 'a\nb c d'", "lib.sh", "bash lib.sh a b", "bash ./given.sh ./far.sh", "bash ./given.sh ./up.sh",
    "python3 train.py",
]


def test_random_launchers_running_and_sourcing_files_the_scan_settles_are_as_walked(project):
    """Random launchers of FILES_FUZZ's lines: each one the scan settles starts no script that may hold a setup by its
    walk, and its findings are those of every walk (NPP191 where the walk stops at its bound included)."""
    import random
    (project / "tools" / "p.py").write_text(EXAMPLE_SCRIPT)
    (project / "test" / "loop.sh").write_text("for p in $*\ndo\n" + "".join(f"  echo {i}\n" for i in range(60)) +
                                              "done\n")
    (project / "test" / "lib.sh").write_text("f() {\n" + "".join(f"  echo {i}\n" for i in range(100)) + "}\n")
    (project / "test" / "up.sh").write_text("cd ..\necho up\n")
    (project / "test" / "given.sh").write_text('cd ..\nbash "$1"\n')
    (project / "far.sh").write_text(LONG_CHILD * 4)
    rnd = random.Random(12)
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(120):
        text = "\n".join(rnd.choice(FILES_FUZZ) for _ in range(rnd.randint(1, 6))) + "\n"
        path.write_text(text)
        settled += _settled_soundly(path, text)
    assert settled >= 30


def test_a_home_file_sourced_is_a_name_below_the_walk_s_folders(project, tmp_path, monkeypatch):
    """`source ~/env.sh` (preprocessing_smith.sh): the walk expands no `~` but a `cd`'s (shell/walk.Walk.find joins
    the word to its folders), so the file it looks for is below them, as the scan follows `.sh` names; a `~` that a
    `cd` or a value may expand is still an absolute path."""
    from flake8_npuprof.engine.launch_scan import why_walked
    home = tmp_path / "home"
    (home / "x").mkdir(parents=True)
    (home / "env.sh").write_text("cd ~/x\n")
    (home / "x" / "train.py").write_text(EXAMPLE_SCRIPT)
    monkeypatch.setenv("HOME", str(home))
    path = project / "test" / "run.sh"
    for text, why in (("source ~/env.sh\npython3 ../train.py\n", ""),
                      ('if true; then . "~/env.sh"; fi\npython3 ../train.py\n', ""),
                      ("cd ~/x\npython3 ../train.py\n", f"an absolute path that is there ({home}/x)"),
                      ("source ~/$E\npython3 ../train.py\n", "a shell script named from values (~/$E)"),
                      ("D=~/x\ncd $D\npython3 ../train.py\n", f"an absolute path that is there ({home}/x)")):
        path.write_text(text)
        assert why_walked(text, str(path)) == why, text
        if not why:
            assert bench.unstartable(str(project / "test"), ["run.sh"]) == ["run.sh"]
            _not_walked_and_as_if_walked(path, text, monkeypatch)


@pytest.mark.parametrize("text, why", [
    # cann_atc_vars.sh's `export PATH=/usr/local/python3.7.5/bin:${PATH}`: an exported value read only as a program's
    # argument or in its own value is no directory (the walk reads no PATH: Walk.find joins a name to its folders)
    ("export PATH=ELSE/bin:${PATH}\nexport PATH=/x:$PATH\npython3 ../train.py\n", ""),
    ("export D=ELSE\npython3 ../train.py --d=$D\n", ""),
    ("PATH=ELSE:$PATH\npython3 ../train.py\n", ""),
    # read by a `cd`, or into another value, or set otherwise than at a command's head: a directory it may be
    ("export D=ELSE\ncd $D\npython3 p.py\n", "an absolute path that is there (ELSE)"),
    ("export D=ELSE\nE=$D/..\ncd $E\npython3 p.py\n", "an absolute path that is there (ELSE)"),
    ("export D=ELSE\nD=$D/x\ncd $D\npython3 p.py\n", "an absolute path that is there (ELSE)"),
    ("declare -x D=ELSE\npython3 ../train.py --d=$D\n", "an absolute path that is there (ELSE)"),
    ("export -n D=ELSE\npython3 ../train.py --d=$D\n", "an absolute path that is there (ELSE)"),
    ("export D=ELSE\nbash ./child.sh\npython3 ../train.py\n", "an absolute path that is there (ELSE)"),
])
def test_an_exported_value_read_only_as_an_argument_is_no_directory(project, tmp_path, text, why, monkeypatch):
    from flake8_npuprof.engine.launch_scan import why_walked
    (tmp_path / "else").mkdir()
    (tmp_path / "else" / "p.py").write_text(EXAMPLE_SCRIPT)
    (project / "test" / "child.sh").write_text("cd $D\npython3 p.py\n")
    text, why = text.replace("ELSE", str(tmp_path / "else")), why.replace("ELSE", str(tmp_path / "else"))
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)


@pytest.mark.parametrize("text, remote, why", [
    # inference_davinci.sh's `ssh ... "bash -s" < ./remote.sh`: ssh heads it (it sources nothing, whatever its other
    # words), and remote.sh, only run, names no file and runs no name it is given: where its `cd ~` goes is its own
    ('ssh u@$IP "bash -s" < ./remote.sh $W\npython3 ../train.py\n', "cd ~\n./main\n", ""),
    ("bash ./remote.sh\npython3 ../train.py\n", "cd ~\nmkdir -p ~/$A\n./main >log\n", ""),
    # one that may run what it is given from there (long.sh in the home folder stops the walk: NPP191)
    ("bash ./remote.sh ./long.sh\npython3 ../train.py\n", 'cd ~\nbash "$1"\n', "an absolute path that is there (HOME)"),
    ("bash ./remote.sh ./long.sh\npython3 ../train.py\n", "cd ~\n$1\n", "an absolute path that is there (HOME)"),
    ("bash ./remote.sh ./long.sh\npython3 ../train.py\n", "cd ~\nx=$(bash $1)\n",
     "an absolute path that is there (HOME)"),
    ("bash ./remote.sh ./long.sh\npython3 ../train.py\n", "cd ~\necho $1 | xargs bash\n",
     "an absolute path that is there (HOME)"),
    # sourced (a value heads it): its `cd ~` comes back
    ('$SSH u@$IP "bash -s" < ./remote.sh\npython3 ../train.py\n', "cd ~\n", "an absolute path that is there (HOME)"),
])
def test_a_file_only_run_that_runs_no_given_name_goes_nowhere_for_the_launcher(project, tmp_path, text, remote, why,
                                                                               monkeypatch):
    from flake8_npuprof.engine.launch_scan import why_walked
    home = tmp_path / "home"
    home.mkdir()
    (home / "long.sh").write_text(LONG_CHILD * 4)
    (tmp_path / "train.py").write_text(EXAMPLE_SCRIPT)
    monkeypatch.setenv("HOME", str(home))
    (project / "test" / "remote.sh").write_text(remote)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why.replace("HOME", str(home))
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)
    elif 'bash "$1"' in remote:
        with bench.every_walk():
            assert "NPP191" in {f.code for f in bench._check(str(path), text)[0]}


@pytest.mark.parametrize("text, why", [
    # Darts' inference_davinci.sh: `-m` is an option of a program the walk reads no launch behind
    ("./utils/run_model -m $1 -i $2 > $3/ome.log\npython3 ../train.py\n", ""),
    ("cd ..\nif true; then bin/tool -m tools.p; fi\n", ""),
    # Python, or a command a launch is read behind, or a head not written out (or after an assignment)
    ("./venv/bin/python3 -m $1\n", "a `-m` module not named here ($1)"),
    ("/usr/bin/env python3 -m $1\n", "a `-m` module not named here ($1)"),
    ("./bin/nohup -m $1\n", "a `-m` module not named here ($1)"),
    ("/opt/torchrun -m $1\n", "a `-m` module not named here ($1)"),
    ("$T/tool -m $1\n", "a `-m` module not named here ($1)"),
    ("A=1 ./bin/tool -m $1\n", "a `-m` module not named here ($1)"),
    ('x="./bin/tool -m $1"\n', "a `-m` module not named here ($1)"),
    ("cd ..\n./go.sh -m tools.p\n", "../tools/p.py may hold a setup"),
])
def test_a_module_option_of_a_program_is_no_module(project, text, why, monkeypatch):
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "p.py").write_text(EXAMPLE_SCRIPT)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)


# lines around commands headed by an expansion (a call of any function, `cd`, `source`, a script: what the value is) and
# absolute paths (ELSE: a folder outside the region with p.py, which holds a setup; lib.sh's f has 100 commands)
BY_VALUE_FUZZ = [
    "c=f", "c=g", "c=k", "c=cd", "c=source", 'c="python3 p.py"', 'c="f ELSE"', 'c="cd ELSE"', "c=./lib.sh", "$c",
    "${c}", '"$c"', "eval $c", "$c ..", "$c ELSE", "$c ../tools", '"$@"', "$c $D", "D=ELSE", "D=ELSE/p.py",
    "g() { cd $1; }", "g() { $c; $c; }", "k() { $c; $c; $c; $c; $c; $c; }", "k; k; k", "g", "g ELSE", "k ELSE",
    'h() { for a in "$@"; do echo $a; done; }', "h $c", "source ./lib.sh", ". ./lib.sh", "python3 p.py",
    "python3 ../train.py", "cd ..", "cd tools", "cd ELSE", "python3 $D", "cp ELSE/p.py .", "ls ELSE", "$c ELSE/p.py",
    "if $c; then python3 p.py; fi", "for t in $c; do $t; done", "x=$($c)", "bash ./run2.sh", "`$c` ELSE",
    "export D=ELSE", "export PATH=ELSE:$PATH", "D=$D/..", "cd $D", "python3 x.py --d=$D", "cd $PATH", "source ~/x.sh",
    "bash ./child.sh", 'ssh u@$IP "bash -s" < ./remote.sh', "bash ./remote.sh", "bash ./given.sh ./long.sh",
    "$c ./remote.sh", "./bin/tool -m $1", "./bin/tool -m tools.p", "cd ..; bin/t -m tools.p", "python3 -m tools.p",
]


def test_random_launchers_with_heads_by_value_the_scan_settles_are_as_walked(project, tmp_path, count=150):
    """Random launchers of BY_VALUE_FUZZ's lines: each one the scan settles starts no script that may hold a setup by
    its walk, and its findings are those of every walk (NPP191 included). (Run with 2,000 such launchers when a head by
    value became a call of every function: none unsound.)"""
    import random
    (tmp_path / "else").mkdir()
    (tmp_path / "else" / "p.py").write_text(EXAMPLE_SCRIPT)
    (project / "tools" / "p.py").write_text(EXAMPLE_SCRIPT)
    (project / "test" / "lib.sh").write_text("f() {\n" + "".join(f"  echo {i}\n" for i in range(100)) + "}\n")
    (project / "test" / "run2.sh").write_text("for p in $*\ndo\n  echo $p\ndone\n")
    (project / "test" / "child.sh").write_text("cd $D\npython3 p.py\n")
    (project / "test" / "remote.sh").write_text(f"cd {tmp_path / 'else'}\n./main\n")
    (project / "test" / "given.sh").write_text(f'cd {tmp_path / "else"}\nbash "$1"\n')
    (tmp_path / "else" / "long.sh").write_text(LONG_CHILD * 4)
    lines = [line.replace("ELSE", str(tmp_path / "else")) for line in BY_VALUE_FUZZ]
    rnd = random.Random(56)
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(count):
        text = "\n".join(rnd.choice(lines) for _ in range(rnd.randint(1, 6))) + "\n"
        path.write_text(text)
        settled += _settled_soundly(path, text)
    assert settled >= 40


def test_a_script_that_is_a_link_to_a_file_is_found_by_its_name(project, tmp_path):
    """A link to a file (or to nothing) in the region is listed with the files, by its name: a link to a profiled
    script is that script, and one that cannot be read may hold a setup (only a link to a folder stops the
    listing)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "main.py").write_text(EXAMPLE_SCRIPT)
    (project / "run").mkdir()
    (project / "run" / "main.py").symlink_to(tmp_path / "elsewhere" / "main.py")
    (project / "run" / "gone.py").symlink_to(tmp_path / "elsewhere" / "gone.py")
    (project / "test" / "run.sh").write_text("python3 ../run/main.py\n")
    assert why_walked("python3 ../run/main.py\n", str(project / "test" / "run.sh")) == \
        "../run/main.py may hold a setup"
    assert why_walked("python3 ../run/gone.py\n", str(project / "test" / "run.sh")) == \
        "../run/gone.py may hold a setup"
    (tmp_path / "elsewhere" / "main.py").write_text(PLAIN)
    assert why_walked("python3 ../run/main.py\n", str(project / "test" / "run.sh")) == ""


def test_a_listing_gives_a_name_s_files_in_its_order_and_the_names_a_cut_name_ends_with():
    from flake8_npuprof.engine.launch_scan import _Listing, _named
    found = _Listing([("/a/", frozenset({"x.py", "run_x.py"})), ("/b/", frozenset({"y.py"})),
                      ("/c/", frozenset({"x.py"}))])
    assert found.get("x.py") == ["/a/x.py", "/c/x.py"]
    assert found.get("z.py") == () and found.get("z.py", None) is None
    assert _named(found, "run_x.py") == ("/a/run_x.py", "/a/x.py", "/c/x.py")
    assert _named(found, "run_x.py") is _named(found, "run_x.py")      # (kept: a listing is not changed)
    assert _named(found, "x") == ()                                      # (no extension: the name alone)


def test_note_once_looks_once_a_run_and_records_at_every_call(tmp_path):
    from flake8_npuprof.source import observed
    path = str(tmp_path / "mod.py")
    with observed.one_run():
        assert observed.note_once(path) == ("missing",)
        (tmp_path / "mod.py").write_text("x = 1\n")
        with observed.recording() as rec:
            assert observed.note_once(path) == ("missing",)     # (the tree as the run first saw it)
        assert rec.paths == {path: ("missing",)}
    assert observed.note_once(path)[0] == "file"                # outside a run: looked at every time


# _BY_VALUE as one pattern with its lookbehinds, tried at every character: what _calls_by_value's led search answers
_BY_VALUE_PLAIN = re.compile(r"""(?P<at>^(?<!\\\n)|[;&|{!]|\)(?!`)|(?<![(=])\((?!\()|(?<=[=\s(])`(?!`)"""
                             r"""|\b(?:then|do|else|elif|if|while|until|time|nohup|exec|command|builtin|eval)[ \t])"""
                             r"""[ \t]*(?:[A-Za-z_]\w*(?:\[[^]\n]*\])?\+?=(?:[^\s;&|$`'"()\\]|\$\w+|\$\{[^}\s]*\}"""
                             r"""|"[^"\n]*"|'[^'\n]*'|\$\([^()\n]*\)|`[^`\n]*`)*[ \t]+)*"?[$`]""", re.M)


def _plain_calls_by_value(text):
    text = text.replace("\\\n", "  ")    # (bash joins a `\\`-newline: `A=1 \\`, newline, `$c` is a head)
    for k in range(len(text) - 1):      # a backtick after a `)` that closes no `$(` (a case pattern's)
        if text.startswith(")`", k):
            depth, j = 0, k - 1
            while j >= 0 and not (text[j] == "(" and depth == 0):
                depth += {")": 1, "(": -1}.get(text[j], 0)
                j -= 1
            if j < 1 or text[j - 1] != "$":
                return True
    for m in _BY_VALUE_PLAIN.finditer(text):
        at = m.start("at")
        line = text.rfind("\n", 0, at) + 1
        if text[at:at + 1] in "|&" and text.rfind("[[", line, at) > text.rfind("]]", line, at):
            continue
        return True
    return False


def test_the_heads_by_value_are_those_of_the_plain_pattern():
    """_calls_by_value searches its heads led by their own characters (those led by a keyword, by the word) and checks
    what precedes them itself: the answers are the plain pattern's (a line's start after a `\\`-newline, `((`, `=(`, a
    backtick after a word, a keyword inside a word, `||` inside `[[ ]]`, the text's start), but where a keyword's head
    stands inside the span of a match the plain search passed over (`[[ x || x+={eval $c`, 1 of 20,000): one head
    more, a call more (never one fewer)."""
    import random
    pieces = ["\n", "\\\n", " ", "\t", ";", "&", "|", "{", "}", "!", "(", ")", "((", "`", "$", "$x", "${x}", '"', "'",
              "=", "x=", "a[1]=", "+=", "then ", "do ", "undo ", "eval ", "[[", "]]", "||", "&&", "x", "f", "$(", "\\",
              "é", "_", "1", "\x1c", "\u00a0"]
    rnd = random.Random(44)
    texts = ["", "$c", "x\\\n$c", "a=($c)", "echo `x`$c", "f((`$c`))", "if [[ a || $c ]]; then :; fi", "undo $c",
             "undo\t$c", "é(`$c`)", "x=1 y=\"a\" $c", "\\\n$c"]
    texts += ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 25))) for _ in range(20000)]
    from flake8_npuprof.engine.launch_scan import _calls_by_value
    answers = [(t, _calls_by_value(t)) for t in texts]
    plain = [(t, _plain_calls_by_value(t)) for t in texts]
    assert [t for (t, a), (_, b) in zip(answers, plain) if b and not a] == []
    assert len([t for (t, a), (_, b) in zip(answers, plain) if a and not b]) <= 2
    assert sum(a for _, a in answers) > 5000 and sum(not a for _, a in answers) > 5000


def test_the_lines_searched_for_a_head_by_value_hold_every_match():
    """_calls_by_value searches only the lines _lines_by_value gives: every match of _BY_VALUE, from any place a
    search starts, is in one of them (a match holds no line break but its head's), and a line with none of the ends
    it looks for (a blank or a head's character, then `"`, then `$` or `` ` ``) is not given."""
    import random
    from flake8_npuprof.engine.launch_scan import _BY_VALUE, _lines_by_value
    pieces = ["\n", "\\\n", " ", "\t", ";", "&", "|", "{", "}", "!", "(", ")", "`", "$", "$x", "${x}", '"', "'", "=",
              "x=", "a[1]=", "+=", "then ", "do ", "undo ", "elif\t", "command ", "builtin ", "[[", "]]", "x", "é"]
    rnd = random.Random(56)
    texts = ["\n" + "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30))) for _ in range(5000)]
    texts += ["\necho $a\nx=1 y=2\n", "\ncd $d\n", "\nf() { :; }\npython3 x.py --lr=1 --d $D\n"]
    found = 0
    for text in texts:
        lines = _lines_by_value(text)
        assert lines == sorted(set(lines))
        for at in range(len(text)):
            m = _BY_VALUE.search(text, at)
            if m:
                found += 1
                assert text.rfind("\n", 0, m.start() + 1) in lines, (text, at)
    assert found > 10000
    assert _lines_by_value("\necho $a\nx=1 y=2\n") == [] and _lines_by_value("\ncd $d\n") == []
    assert _lines_by_value("\nf() { :; }\npython3 x.py --lr=1 --d $D\n") == [11]     # (an `=` before it: asked)
    assert _lines_by_value("\na\n  $c\nb\nx=1\tthen \"$c\n") == [2, 9]
    from evalfiles import deadline
    with deadline(2, "a 64,000-character line of ends"):
        _lines_by_value("\n" + " $" * 16000 + '"`' * 16000)


def _heads_by_value_of_the_whole_text(text):
    """_heads_by_value as it was before its keywords were looked for in its lines alone (9a124ab)."""
    import bisect
    from flake8_npuprof.engine.launch_scan import (_AFTER_HEAD_WORD, _BY_VALUE_SIGN, _HEAD_WORDS, _LONG_LINE,
                                                   _lines_by_value, _parens)
    if len(text) > _LONG_LINE and max(map(len, text.split("\n"))) > _LONG_LINE:
        return None
    out = []
    k = text.find(")`")
    if k >= 0:
        positions, innermost = _parens(text)
        while k >= 0:
            i = bisect.bisect_left(positions, k)
            opened = innermost[i - 1] if i else -1
            if opened < 1 or text[opened - 1] != "$":
                out.append(k + 1)
            k = text.find(")`", k + 1)
    text = "\n" + text
    if "\\\n" in text:
        text = text.replace("\\\n", "  ")
    at = 0
    for start in _lines_by_value(text):
        end = text.find("\n", start + 1)
        end = len(text) if end < 0 else end
        m = _BY_VALUE_SIGN.search(text, max(at, start), end)
        while m:
            at = m.start("at")
            c, before = text[at], text[at - 1] if at else ""
            if c == "\n" and before == "\\" or c == "(" and before and before in "(=" or \
                    c == "`" and not (before and before in "=(" or before.isspace()):
                at += 1
                m = _BY_VALUE_SIGN.search(text, at, end)
                continue
            line = text.rfind("\n", 0, at) + 1
            if c in "|&" and text.rfind("[[", line, at) > text.rfind("]]", line, at):
                at = m.end()
                m = _BY_VALUE_SIGN.search(text, at, end)
                continue
            out.append(m.end() - 2)
            at = m.end()
            m = _BY_VALUE_SIGN.search(text, at, end)
    for word in _HEAD_WORDS:
        n = len(word)
        k = text.find(word)
        while k >= 0:
            if text[k + n:k + n + 1] in (" ", "\t") and not (text[k - 1].isalnum() or text[k - 1] == "_"):
                m = _AFTER_HEAD_WORD.match(text, k + n + 1)
                if m:
                    out.append(m.end() - 2)
            k = text.find(word, k + 1)
    return sorted(set(out))


def test_the_heads_led_by_a_keyword_are_those_the_whole_text_holds():
    """_heads_by_value looks for the heads a keyword leads (`then $c`) only in the lines _lines_by_value gives, joined:
    the same answers as when it looked in the whole text (random texts, and launchers' shapes: keywords inside words,
    at a line's end, `\\`-newlines, several lines asked)."""
    import random
    from flake8_npuprof.engine.launch_scan import _heads_by_value
    pieces = ["\n", "\\\n", " ", "\t", ";", "&", "|", "{", "!", "(", ")", "`", "$", "$x", "${x}", '"', "'", "=", "x=",
              "a[1]=", "then ", "do ", "undo ", "elif\t", "eval ", "time ", "nohup ", "if", "exec", "do", "x", "é"]
    rnd = random.Random(16)
    texts = ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 40))) for _ in range(4000)]
    texts += ["if [ x$a = x ]; then $c; fi\nfor i in $*; do A=1 \"$f\" $i; done\necho $x\n",
              "x=1\nwhile true; do\n  eval $cmd\ndone\ntime $PY x.py\nnohup\t${RUN} &\nthen",
              "modified=$x\nelif $c\ndo\n$c\nuntil `t`; do :; done\nA=1 \\\nthen $c", "then $c\n" * 200]
    heads = [_heads_by_value(t) for t in texts]
    assert heads == [_heads_by_value_of_the_whole_text(t) for t in texts]
    assert [_heads_by_value(t, True) != [] for t in texts] == [h != [] for h in heads]
    assert sum(bool(h) for h in heads) > 2000 and sum(not h for h in heads) > 1000
    assert _heads_by_value("a=1\nif x; then $c; fi\nf() { eval \"$d\"; }\n") == [15, 34]


# _BY_VALUE_REST as it was (9a124ab): the name and the value's pieces given back one by one when what follows fails
_BY_VALUE_REST_BACKTRACKING = r"""[ \t]*(?:[A-Za-z_]\w*(?:\[[^]\n]*\])?\+?=(?:[^\s;&|$`'"()\\]|\$\w+(?!\w)|\$\{[^}\s]*\}""" \
                              r"""|"[^"\n]*"|'[^'\n]*'|\$\([^()\n]*\)|`[^`\n]*`)*[ \t]+)*"?[$`]"""


def test_a_head_by_value_s_assignments_are_read_as_when_they_were_given_back():
    """_BY_VALUE_REST takes an assignment's name and value whole (no piece of a value starts with a blank or with what
    another starts with): from every place of random texts and launchers' lines, the same matches as the pattern that
    gave them back one by one, and a long value read in time that grows with it."""
    import random
    from evalfiles import deadline
    from flake8_npuprof.engine.launch_scan import _AFTER_HEAD_WORD, _BY_VALUE_SIGN
    head = r"""(?P<at>\n|;|&|\||\{|!|\)(?!`)|\((?!\()|`(?!`))"""
    pairs = [(_BY_VALUE_SIGN, re.compile(head + _BY_VALUE_REST_BACKTRACKING)),
             (_AFTER_HEAD_WORD, re.compile(_BY_VALUE_REST_BACKTRACKING))]
    pieces = ["\n", " ", "\t", ";", "&", "|", "{", "!", "(", ")", "`", "$", "$x", "${x}", "$(a b)", '"', "'", "=", "x=",
              "a[1]=", "+=", "y", "\\", "]", "[", "_", "1", "é", '"a b"', "'c d'", "`e f`", "$((1))"]
    rnd = random.Random(59)
    texts = ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 24))) for _ in range(2500)]
    texts += ["\ncur_path=`echo $(cd $(dirname $0);pwd)`\nNetwork=`echo $x | awk -F\"/\" '{print $(NF-1)}'`\n",
              "\nA=1 B=\"$x y\" C=${d}/e $run\nfor i in $*; do x[1]+=$i\t$c; done\n{ L=a\\ b $c; }"]
    found = 0
    for text in texts:
        for at in range(len(text)):
            for new, old in pairs:
                a, b = new.match(text, at), old.match(text, at)
                assert (a and a.span()) == (b and b.span()), (text, at)
                found += a is not None
    assert found > 3000
    with deadline(1, "a value of 60,000 pieces"):
        assert _AFTER_HEAD_WORD.match(" x=" + "a$b" * 20000 + "(") is None


def _plain_in_substitution(text, at):
    depth = 0
    for k in range(at - 1, -1, -1):
        if text[k] == ")":
            depth += 1
        elif text[k] == "(":
            if not depth:
                return text[k - 1:k + 2].count("(") < 2
            depth -= 1
    return text.count("`", 0, at) % 2 == 1


def test_a_substitution_is_found_as_a_search_back_from_each_word_finds_it():
    """_in_substitution answers from the text's parentheses found once (the innermost `(` not closed before a word):
    as a search back from the word, texts asked in turn (`$((` arithmetic, `)` more than `(`, backticks)."""
    import random
    from flake8_npuprof.engine.launch_scan import _in_substitution
    rnd = random.Random(12)
    texts = ["".join(rnd.choice(["(", ")", "$(", "$((", "`", "x", " ", "/"]) for _ in range(rnd.randint(0, 20)))
             for _ in range(3000)]
    asked = [(t, at) for t in texts for at in range(len(t) + 1)]
    rnd.shuffle(asked)
    answers = [_in_substitution(t, at) for t, at in asked]
    assert answers == [_plain_in_substitution(t, at) for t, at in asked]
    assert 1000 < sum(answers) < len(answers) - 1000


def test_a_head_by_value_is_searched_in_time_that_grows_with_the_text():
    """A value of many `$name`s was split between `\\$\\w+` and single characters in 2 ** n ways (eight took 10 s);
    a long line of `{`/`!` heads inside values was read to its end from each (64,000 characters: 40 s). The first is
    answered at once; a line over _LONG_LINE is taken to may call by value (the walk decides)."""
    from evalfiles import deadline
    from flake8_npuprof.engine.launch_scan import _LONG_LINE, _calls_by_value
    with deadline(2, "a value of 30 $names"):
        assert _calls_by_value("\nx=" + "$aaaaaaaa" * 30 + " y") is False
        assert _calls_by_value("x=" + "$aaaaaaaa" * 30 + " $c") is True
    with deadline(2, "a 64,000-character line of heads inside values"):
        assert _calls_by_value("x=" + "a!a=" * 16000) is True
    short = "x=" + "a!a=" * ((_LONG_LINE - 2) // 4)
    assert len(short) <= _LONG_LINE and _calls_by_value(short) is False
    assert _calls_by_value(short + "a!a=") is True


def test_many_lines_of_heads_inside_values_are_left_to_the_walk():
    """Each `{` of a line searched for heads by value may read on to the line's end: under _LONG_LINE, a line of 330
    `{a=` took 7 ms, 256 KiB of them 2 s. Past _SIGN_WORK (length times head signs, summed over the lines searched)
    the text is taken to may call by value (the walk decides); under it, the lines are searched as before."""
    from evalfiles import deadline
    from flake8_npuprof.engine.launch_scan import _SIGN_WORK, _heads_by_value
    line = "{a=" * 330 + "\\ $c"                # 994 characters, 330 `{`, no head
    fit = _SIGN_WORK // ((len(line) + 1) * 330)
    assert fit == 6
    assert _heads_by_value("f() { :; }\n" + "\n".join([line] * fit) + "\n") == []
    assert _heads_by_value("f() { :; }\n" + "\n".join([line] * (fit + 1)) + "\n") is None
    with deadline(2, "256 KiB of lines of heads inside values"):
        assert _heads_by_value("f() { :; }\n" + "\n".join([line] * 264) + "\n") is None
    # (the lines' squares pass the bound long before their signs do: counted then, and under it)
    signless = "a=" + "x" * 990 + " $c"
    assert len(_heads_by_value("f() { :; }\n" + "\n".join([signless] * 300) + "\n")) == 300     # (`a=x $c`)


# ---------------------------------------------------------------- review13: launchers the scan settled while their walk
# found something (each case failed at 280cd7a: settled, or not walked at all by checks/shell_scan.py)

# tools/t.py's setup switches profiling on by `--trace` (default "True"): `--trace=False` passed to it is NPP205
TRACED = (EXAMPLE_SCRIPT.replace('"--data_path", default=""', '"--trace", default="True"')
          .replace("if args.profiling:", "if args.trace:"))


def _walk_finds(path, text, code):
    """The walk of every launcher finds `code` on this launcher, and check finds the same."""
    with bench.every_walk():
        slow = bench._check(str(path), text)
    assert code in {f.code for f in slow[0]}, slow
    assert bench._check(str(path), text) == slow


@pytest.mark.parametrize("text, why", [
    # the walk joins a word's parts with the values it knows (shell/expand.py), bash too: each starts tools/t.py
    ("X=../tools/t.p\npython3 ${X}y --trace=False\n", "a computed name (}y)"),
    ("E=\npython3 ../tools/t.p${E}y --trace=False\n", "a computed name (.p$)"),
    ("X=../tools/t.\npython3 $X\"py\" --trace=False\n", 'a computed name ($X"py)'),
    ("X=../tools/t.\npython3 ${X}'py' --trace=False\n", "a computed name (}'py)"),
    ("X=../tools/t.\npython3 $X\\py --trace=False\n", "a computed name ($X\\py)"),
    ("python3 $(echo ../tools/t.p)y --trace=False\n", "a computed name ()y)"),
    ("python3 `echo ../tools/t.p`y --trace=False\n", "a computed name (.p`)"),
    # (a cut from the value's end is a computed name by itself: `${X%`)
    ("X=../tools/t.pz\npython3 ${X%z}y --trace=False\n", "a computed name (${X%)"),
    ("S=../tools/t.p\nS+=y\npython3 $S --trace=False\n", "a computed name (=y)"),
    ("A=../tools/t.p\nB=y\npython3 $A$B --trace=False\n", "a computed name (=y)"),
    ("X=../tools/t.pz\nY=zy\npython3 ${X%z}${Y#z} --trace=False\n", "a computed name (${X%)"),
    ("X=a../tools/t.p\nY=zy\npython3 ${X#a}${Y#z} --trace=False\n", "a computed name (#a}$)"),
    ("python3 ../tools/t.p\\\ny --trace=False\n", "a computed name (\\\ny)"),
    ("f() { python3 ../tools/t$1 --trace=False; }\nf .py\n", "a computed name ($1)"),
    ("f() { python3 $1y --trace=False; }\nf ../tools/t.p\n", "a computed name ($1y)"),
    ("f() { python3 \"$1\"y --trace=False; }\nf ../tools/t.p\n", 'a computed name ($1"y)'),
    ("f() { python3 $1$2 --trace=False; }\nf ../tools/t.p y\n", "a computed name ($1$)"),
    ("python3 $(echo ../tools/t.p)$(echo y) --trace=False\n", "a computed name (echo y))"),
    # `-m` in quotes or from a value: bash removes the quotes, `$F` gives `-m`
    ("cd ..\nF=-m\npython3 $F tools.t --trace=False\n", "a `-m` module not named here (-m)"),
    ("cd ..\npython3 \"-m\" tools.t --trace=False\n", 'a `-m` module not named here (-m")'),
    ("cd ..\npython3 '-m' tools.t --trace=False\n", "a `-m` module not named here (-m')"),
    ("PY=\"python3 -m\"\ncd ..\n$PY tools.t --trace=False\n", 'a `-m` module not named here (-m")'),
    ("f() { cd ..; python3 $1 tools.t --trace=False; }\nf -m\n", "a `-m` module not named here (-m)"),
    ("cd ..\nM=m\npython3 -$M tools.t --trace=False\n", "a computed name (-$)"),
    ("cd ..\npython3 -\\\nm tools.t --trace=False\n", "a computed name (\\\nm)"),
    ("cd ..\npython3 -'m' tools.t --trace=False\n", "a computed name (-'m)"),
    # `-m` joined to other options or to its module: CPython reads `-m tools.t` (python 3.11: `python3 -mtools.t` and
    # `python3 -um tools.t` run tools/t.py; shell/launches._python_option)
    ("cd ..\npython3 -mtools.t --trace=False\n", "a computed name (python3 -m)"),
    ("cd ..\npython3 -um tools.t --trace=False\n", "a computed name (python3 -um)"),
    ("cd ..\nnohup python3 \\\n  -Bmtools.t --trace=False &\n", "a computed name (python3 \\\n  -Bm)"),
    ("cd ..\nPY=python3\n\"$PY\" -X dev -umtools.t --trace=False\n", 'a computed name ($PY" -X dev -um)'),
    ("cd ..\nCMD=python3\nif true; then $CMD -mtools.t --trace=False; fi\n", "a computed name ($CMD -m)"),
])
def test_a_name_joined_from_values_is_a_computed_one(project, text, why):
    """No `.py`, `.sh` or `-m` is written out whole, yet the walk starts tools/t.py (NPP205): a launcher with one of
    these shapes (checks/shell_scan.JOINED) is walked."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "t.py").write_text(TRACED)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text)
    assert why_walked(text, str(path)) == why
    _walk_finds(path, text, "NPP205")


@pytest.mark.parametrize("word", ['"."', "\\.", ".''", "so''urce", "'source'", 'source""', "s\\ource", '"sour"ce'])
def test_a_source_written_with_quotes_is_walked(project, word):
    """bash 5.2 removes the quotes and `\\` of a command's word: `"." ./env`, `\\. ./env`, `so''urce ./env` source env
    (its `cd ..`), and the walk sources it too, then starts tools/t.py (NPP205); the scan settled the launcher, its
    `source` or `.` not being spelled out."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "t.py").write_text(TRACED)
    (project / "test" / "env").write_text("cd ..\n")
    path = project / "test" / "run.sh"
    text = f"{word} ./env\npython3 tools/t.py --trace=False\n"
    path.write_text(text)
    assert why_walked(text, str(path)) == f"a computed name ({word})"
    _walk_finds(path, text, "NPP205")


@pytest.mark.parametrize("before", ["X='`'\n", "echo '`'; ", 'X="\\`"\n', "echo x # `\n", "cat <<EOF\n`\nEOF\n"])
def test_a_backtick_the_count_cannot_pair_leaves_a_later_printed_path_to_the_walk(project, tmp_path, before):
    """A backtick in single quotes, after `\\`, in a comment or a here-document opens nothing: the count of backticks
    before `` `echo /elsewhere` `` was even, and /elsewhere taken for echo's argument outside a substitution (its
    output is D, where the walk starts elsewhere/t.py)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "t.py").write_text(TRACED)
    path = project / "test" / "run.sh"
    text = f"{before}D=`echo {tmp_path / 'elsewhere'}`\ncd $D\npython3 t.py --trace=False\n"
    path.write_text(text)
    assert why_walked(text, str(path)) == f"an absolute path that is there ({tmp_path / 'elsewhere'})"
    _walk_finds(path, text, "NPP205")


WORDS_100 = "\n".join(" ".join(f"w{i}_{j}" for j in range(10)) for i in range(10))
BODY_30 = "".join(f"  echo {i}\n" for i in range(30))


@pytest.mark.parametrize("text, why", [
    # one quoted word over ten lines: `for a in $*` in loop.sh splits it into 100 rounds of 60 commands
    ('bash ./loop.sh "' + WORDS_100 + '"\npython3 ../train.py\n',
     "a function or a file given a variable's words loops over them"),
    # getopts takes each letter of `-aaa...`: 200 rounds of 30 commands
    ("f() {\n  while getopts \"a\" o; do\n" + BODY_30 + "  done\n}\nf -" + "a" * 200 + "\npython3 ../train.py\n",
     BOUND),
    # a CRLF file: the walk reads `for a\r` as `for a` (over the arguments: 200 rounds of 30)
    (("f() {\nfor a\ndo\n" + BODY_30 + "done\n}\nf " + " x" * 200 + "\npython3 ../train.py\n").replace("\n", "\r\n"),
     BOUND),
])
def test_a_loop_over_arguments_goes_round_as_often_as_the_walk_takes_it(project, text, why):
    """Each of these loops goes round more often than the words of a line: the walk stops at its bound (NPP191)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "loop.sh").write_text("for a in $*; do\n" + "".join(f"  echo {i}\n" for i in range(60)) +
                                              "done\n")
    path = project / "test" / "run.sh"
    path.write_bytes(text.encode())
    assert why_walked(text, str(path)) == why
    _walk_finds(path, text, "NPP191")


@pytest.mark.parametrize("text, why", [
    # env.sh goes up once each time a function sources it (its `source $1`): three folders up, to t.py
    ('s() { eval "source $1"; }\ns ./env.sh\ns ./env.sh\ns ./env.sh\npython3 t.py --trace=False\n',
     'a shell script named from values ($1";)'),      # (`s envx` too: eval's string sources a value)
    ('s() { x=.; $x "$1"; }\ns ./env.sh\ns ./env.sh\ns ./env.sh\npython3 t.py --trace=False\n', "12 levels up"),
    # a `..` held in a value goes up at each `cd` that reads it
    ("UP=..\ncd $UP\ncd $UP\ncd $UP\npython3 t.py --trace=False\n", "a `..` in a value read more than once"),
    ("UP=..\nu() { cd $UP; }\nu; u; u\npython3 t.py --trace=False\n", "a `..` in a value read more than once"),
    ("UP=$(echo ..)\ncd $UP\ncd $UP\ncd $UP\npython3 t.py --trace=False\n", "a `..` in a value read more than once"),
    # a value cut at a `/`: a folder up for each, where no `..` or `dirname` is written
    ("cd ${PWD%/*/*/*}\npython3 t.py --trace=False\n", "a path cut by a pattern (${PWD%/)"),
    ("cd ${0%/*/*/*/*}\npython3 t.py --trace=False\n", "a path cut by a pattern (${0%/)"),
    ("cd ${BASH_SOURCE%/x/y/test/run.sh}\npython3 t.py --trace=False\n", "a path cut by a pattern (${BASH_SOURCE%/)"),
])
def test_a_folder_up_the_count_of_levels_missed_is_walked(project, text, why):
    """The launcher is three folders below t.py: each of these goes up there (NPP205), which the scan's count of
    `..` and `dirname` did not see."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "x" / "y" / "test").mkdir(parents=True)
    for folder in ("x/y/test", "x/y", "x"):
        (project / folder / "env.sh").write_text("cd ..\n")
    (project / "t.py").write_text(TRACED)
    path = project / "x" / "y" / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    _walk_finds(path, text, "NPP205")
    # (a `..` in a value read once, or only as a program's argument, is one level up as it was counted; a `%` of no
    # value's cut, or a cut of a trailing `/`, goes up nowhere)
    for once in ("UP=..\ncd $UP\npython3 ../train.py\n", "D=../data\npython3 ../train.py --data=$D\ncp -r $D .\n",
                 "echo `date +%Y%m%d-%H:%M:%S` ${1%/}\npython3 ../train.py\n",
                 "D=`pwd`/..\ncd $D\ncd $D\npython3 ../train.py\n"):
        path.write_text(once)
        assert why_walked(once, str(path)) == ""


def test_the_scan_s_new_patterns_take_time_that_grows_with_the_text():
    """JOINED's and _CUT_UP's searches on long adversarial lines: no backtracking that grows as the square."""
    from evalfiles import deadline
    from flake8_npuprof.checks.shell_scan import may_start
    from flake8_npuprof.engine.launch_scan import _Text
    texts = ['}' + '"' * 200000, "${a%" * 50000, "${a[0]%" * 30000, "$" + "a" * 200000, "x" * 200000 + "\\\n",
             "-" + "'" * 200000, "=" + "'" * 200000, "`" * 200000, "\\" * 200000 + "\n"]
    with deadline(10, "the scan of 9 adversarial texts of 200,000 characters"):
        for text in texts:
            may_start(text)
            _Text("x.sh", text)


@pytest.mark.parametrize("word", [". ", "source ", "-m "])
def test_a_line_over_the_bound_is_walked_at_once(project, word):
    """The questions of a `source`, `.` or `-m` read its command back to its start: 20,000 characters of them on one
    line took 2.8 s (60,000: 24 s); a text with a line over _LONG_LINE is left to the walk, which has its own bounds."""
    from evalfiles import deadline
    from flake8_npuprof.engine.launch_scan import _LONG_LINE, why_walked
    path = project / "test" / "run.sh"
    text = "x() { :; }\n" + word * (60000 // len(word)) + "\npython3 ../train.py\n"
    path.write_text(text)
    with deadline(2, "a 60,000-character line of " + repr(word)):
        assert why_walked(text, str(path)) == "a line over 1,024 characters"
    short = "x() { :; }\n" + word * (_LONG_LINE // len(word)) + "\npython3 ../train.py\n"
    path.write_text(short)
    assert why_walked(short, str(path)) != "a line over 1,024 characters"


def test_a_pattern_s_lead_is_what_each_of_its_matches_starts_with():
    """_lead: the written-out start of a pattern, less a character a quantifier makes optional; none where an
    alternative outside a group may start otherwise."""
    from flake8_npuprof.engine.launch_scan import _lead
    answers = {r"\$\{[#!]?x": "${", r"set(?<!\wset)[ \t]+--": "set", r"ab?c": "a", r"a\.?b": "a", r"\\?x": "",
               r"abc*": "ab", r"ab+": "ab", r"x{2}": "", r"ab|cd": "", r"a(b|c)": "a", r"a[|]b|c": "", r"a[]|]|b": "",
               r"x[^]|]y": "x", r"(for)x": "", r"\\\.x": "\\.x", r"\rx": "", r"%(?<=[\w\]]%)": "%", r"-m": "-m"}
    assert {p: _lead(re.compile(p)) for p in answers} == answers
    assert _lead(re.compile("ab", re.X)) == ""


# _COMPUTED's patterns as they were first written, each searched alone (`set --` checked after each match)
_COMPUTED_PLAIN = (re.compile(r"\.[ps]?[$`]"), re.compile(r"\}(?:py|sh)\b"),
                   re.compile(r"\$\{[#!]?(?=(\w+))\1(?:\[[^\]]*\])?(?:/|:(?:[ \t]*[\w$(]|[ \t]+-)|%(?!%?/)|[\^,~@])"),
                   re.compile(r"set[ \t]+--"),
                   re.compile(r"""\.(?=["'\\]+(?:s["'\\]*h|p["'\\]*y)|s["'\\]+h|p["'\\]+y)[sp]?["'\\]"""))


def _plain_computed(text):
    """The first match of the plain patterns and JOINED's (the leftmost; at one place, the first pattern's)."""
    from flake8_npuprof.checks.shell_scan import JOINED
    found = []
    for n, p in enumerate(_COMPUTED_PLAIN + JOINED):
        for m in p.finditer(text):
            if n == 3 and m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_"):
                continue
            found.append((m.start(), n, m.group()))
            break
    return min(found)[2] if found else None


def test_the_computed_name_is_that_of_the_patterns_searched_alone():
    """_computed searches no pattern whose lead the text lacks, the two led by a `.` as one, none for `}py` (JOINED's
    first finds it), `set --` where a word starts by a lookbehind: its answers are those of the patterns as first
    written, each searched alone (the leftmost match; at one place, the first pattern's)."""
    import random
    from flake8_npuprof.checks.shell_scan import JOINED
    from flake8_npuprof.engine.launch_scan import _computed
    pieces = ["$", "${", "}", "{", "1", "x", ":", "2", " ", "\t", "-", "--", "set", "reset", "_", ".", "p", "s", "y",
              "h", "py", "sh", '"', "'", "\\", "\n", "`", ")", "(", "=", "%", "#", "[0]", "echo ", "basename ", "/",
              "m", "\r", "é"]
    rnd = random.Random(57)
    texts = ["${1:2}$", "x.$e", "${n}py", "set -- a", "reset --x", "x.s\"h\"", "a.p\\\ny", "-$M",
             "$(echo x.p)$(echo y)",
             # (walk14's: a `-m` glued to its module or with other flags, after python or a variable; a quoted source)
             "python3 -mtools.t", "$P -um tools.t", "so''urce ./env"]
    texts += ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30))) for _ in range(30000)]
    answers = [_computed(t) for t in texts]
    assert answers == [_plain_computed(t) for t in texts]
    assert answers[:9] == ["${1:2", ".$", "}py", "set --", None, '.s"', "\\\ny", "-$", "echo y)"]
    plain = _COMPUTED_PLAIN + JOINED
    firsts = {n for t, a in zip(texts, answers) for n, p in enumerate(plain) if a and p.search(t) and
              p.search(t).group() == a and n != 3}
    assert firsts == set(range(len(plain))) - {3}       # (each pattern's match is the answer for some text)


def test_the_computed_name_is_the_same_where_lines_were_found_clean_before():
    """_computed searches the patterns read in a line only in the lines no earlier text found clean (and the text's
    first): texts made of lines drawn from one pool, most of them seen before, have the answers of the patterns
    searched in the whole text (a `.p\\`, line break, `y` and `${a[`, line, `]/` go on past a line: searched whole)."""
    import random
    from flake8_npuprof.engine import launch_scan
    pieces = ["$", "${", "}", "{", "1", "x", ":", " ", "-", "set", ".", "p", "s", "y", "h", '"', "'", "\\", "`", ")",
              "(", "=", "%", "#", "[0]", "echo ", "/", "m", "python ", "é", "$a", "]"]
    rnd = random.Random(16)
    pool = ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 8))) for _ in range(300)]
    pool += ["cd $(dirname $0)", "python3 ./train.py --data_path=$1", "${a[0", "]/x", "x.p\\", "y", "a=1", ""]
    launch_scan._clean.clear()
    texts = ["\n".join(rnd.choice(pool) for _ in range(rnd.randint(1, 12))) for _ in range(6000)]
    answers = [launch_scan._computed(t) for t in texts]
    assert answers == [_plain_computed(t) for t in texts]
    assert len(launch_scan._clean) > 50 and 1000 < sum(a is None for a in answers) < 5000
    launch_scan._clean.update(["]/x", "y"])     # (clean in a text: `]/x` after `${a[0` and `y` after `x.p\\` are not)
    assert launch_scan._computed("a\n${a[0\n]/x") == "${a[0\n]/" and launch_scan._computed("a\nx.p\\\ny") == "\\\ny"


def test_the_parentheses_are_those_a_search_for_either_finds():
    """_parens finds each `(` and `)` by splitting the text at it: the places and innermost open `(` a search for either
    gives."""
    import random
    from flake8_npuprof.engine.launch_scan import _parens
    rnd = random.Random(57)
    texts = ["", "(", ")", "()", "$(a (b) c)", ")(", "é((x)"]
    texts += ["".join(rnd.choice("(()) x\né") for _ in range(rnd.randint(0, 20))) for _ in range(5000)]
    for text in texts:
        positions, innermost, opened = [], [], []
        for m in re.finditer(r"[()]", text):
            if m.group() == "(":
                opened.append(m.start())
            elif opened:
                opened.pop()
            positions.append(m.start())
            innermost.append(opened[-1] if opened else -1)
        assert _parens(text) == (positions, innermost), text


def test_the_computed_names_search_takes_time_that_grows_with_the_text():
    """_computed's joined searches on long adversarial texts, one line and many: no backtracking that grows as the
    square."""
    from evalfiles import deadline
    from flake8_npuprof.engine.launch_scan import _computed
    texts = [c + q * 100000 for c in "}$.-=`)" for q in ('"', "\\", "'")] + \
        ["${a" * 30000, "${a[0" * 30000, "$a" * 50000, "set " * 30000, "echo " * 30000 + "/" * 50000,
         "${a%" * 30000, "x\\\n" * 30000, "${a}\n" * 30000, "$1\n" * 50000, ".s\n" * 50000]
    with deadline(10, "the computed names' search of 31 adversarial texts"):
        for text in texts:
            _computed(text)


def test_a_joined_m_is_searched_in_time_that_grows_with_the_text():
    """JOINED's `-m` after python read the rest of the word from every `python` in it: one word of 20,000 `python`
    took 11.8 s in may_start, which every launcher without a profiling word asks (a 256 KiB one: about 50 s). It is
    led by a `python` that starts a word or a path's last part, whose rest holds no `/` (shell/command_line.PYTHON)."""
    from evalfiles import deadline
    from flake8_npuprof.checks.shell_scan import needs_walk
    from flake8_npuprof.engine.launch_scan import _computed
    with deadline(2, "may_start and _computed on words of 20,000 `python`"):
        for text in ("python" * 20000, "/python" * 20000, "-python" * 20000):
            assert not needs_walk(text) and _computed(text) is None, text[:20]
        needs_walk("python3." * 20000)          # (its `.py` asks for the scan)
        _computed("python3." * 20000)
    # (what the walk starts as module tools.t: shell/launches reads `-mtools.t` as CPython does)
    for text in ("python3 -mtools.t", "/usr/bin/python3.8 -um tools.t", "x=1; python -Bmtools.t", "(python -mtools.t)"):
        assert needs_walk(text) and _computed(text), text
    for text in ("ipython -mtools.t", "my-python -mtools.t", "python3/x -mtools.t"):
        assert not needs_walk(text), text


@pytest.mark.parametrize("text", [
    # a head by value that is `source` or `.` (bash 5.2 sources envx in each: `pwd` after it prints tools)
    "c=source\n$c envx\n", "c=.\n${c} envx\n", 'S=source\n"$S" envx\n', "c=source\nA=1 $c envx\n",
    "c=source\n$c 'envx'\n", 'c=source\n$c "envx" x y\n', "x=source\neval $x envx\n", "`echo source` envx\n",
    "$(echo source) envx\n", 'f() { "$@" envx; }\nf source\n', "c=source\n$c ./envx\n",
    # a value or an eval'd string that holds the whole command: bash splits the value, eval reads the string
    'c="source envx"\n$c\n', "c='. envx'\n$c\n", 'eval "source envx"\n', "eval 'source envx'\n",
    "c=source\nA=1 \\\n$c envx\n",        # (a head after a `\\`-newline: bash joins the line)
])
def test_a_file_a_head_by_value_may_source_is_followed(project, text):
    """envx goes up to the project and into tools/, where t.py takes `--trace=False` (NPP205): the walk sources it
    (its head is the value `source` or `.`), as bash does; the scan followed only a `source` it saw written before
    its file, and settled these."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "t.py").write_text(TRACED)
    (project / "test" / "envx").write_text("cd ../tools\n")
    path = project / "test" / "run.sh"
    text += "python3 t.py --trace=False\n"
    path.write_text(text)
    assert why_walked(text, str(path)) == "../tools/t.py may hold a setup"
    _walk_finds(path, text, "NPP205")


@pytest.mark.parametrize("text", ["c=.\n$c envx\n", 'c="."\n"$c" envx\n', "c='. envx'\n$c\n", "c=source\n$c envx\n"])
def test_a_file_a_head_by_value_may_source_counts_its_commands(project, text):
    """envx's 6,000 commands stop the walk that sources it (NPP191); the scans did not walk these (a `.` after `=` or
    a quote was no word of shell_scan's, and a launcher that names no script was settled before its files)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "envx").write_text(LONG_CHILD * 4)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and why_walked(text, str(path)) == BOUND
    _walk_finds(path, text, "NPP191")


# lines around a head by value that may be `source` or `.` (envx goes to tools/, where t.py takes `--trace=False`)
SOURCE_BY_VALUE_FUZZ = [
    "c=source", "c=.", "c=python3", 'c="source envx"', "c='. envx'", "$c envx", "${c} envx", '"$c" envx', "eval $c envx",
    'f() { "$@" envx; }', "f source", "f .", "f python3", "e=envx", "$c $e", '$c "$e"', "cd ..", "B=$(which x)",
    "$B envx", 'for f in `ls`; do $B "$f"; done', 'for f in `ls`; do $c "$f"; done', "A=1 $c envx", "$c ./envx",
    "g() { $1 envx; }", "g source", "g .", "d=.", "$c $d/envx", 'eval "$c envx"', "x=$c", "$x envx", "c=$1",
    "{ $c envx; }", "$(echo $c) envx", "`echo $c` envx", "c=${c:-source}", "read c", "c=sou", "${c}rce envx",
    "h() { local c=$1; $c envx; }", "h source", "export c=source", "A=1 \\\n$c envx",
]


def test_random_launchers_with_heads_by_value_that_may_source_are_as_walked(project, count=80):
    """Random launchers of SOURCE_BY_VALUE_FUZZ's lines: each one the scan settles has every walk's findings. (Run with
    450 such launchers, a file envx of 6,000 commands too, when a head by value's first argument became a file it may
    source: none unsound, 151 settled.)"""
    import random
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "t.py").write_text(TRACED)
    (project / "test" / "envx").write_text("cd ../tools\n")
    rnd = random.Random(57)
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(count):
        text = "\n".join(rnd.choice(SOURCE_BY_VALUE_FUZZ) for _ in range(rnd.randint(1, 5))) + \
            "\npython3 t.py --trace=False\n"
        path.write_text(text)
        if why_walked(text, str(path)):
            continue
        settled += 1
        with bench.every_walk():
            slow = bench._check(str(path), text)
        assert bench._check(str(path), text) == slow, text
    assert settled >= 15


def test_a_substring_s_index_is_searched_in_time_that_grows_with_the_text():
    """_COMPUTED[1]'s index (`${a[...]:2}`) ran to the text's end from each `${a[` with no `]` after it: 0.85 s over
    15,000 lines of them. _first_sliced finds what its search finds (the first match, the same text), each `]` once."""
    import random
    from evalfiles import deadline
    from flake8_npuprof.engine.launch_scan import _COMPUTED, _computed, _first_sliced, _Text
    with deadline(0.3, "the scan of 15,000 lines of `${a[`"):
        assert _computed("${a[\n" * 15000) is None
        # (each is a command headed by an expansion, whose line _given_source lexes: over _MAX_GIVEN, walked)
        assert _Text("x.sh", "${a[\n" * 15000).why == "over 256 commands headed by an expansion"
    pieces = ["${", "${#", "${!", "a", "ab", "[", "]", "/", ":", " ", "\t", "-", "$", "(", "x", "\n", "}", "1"]
    rnd = random.Random(14)
    texts = ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 14))) for _ in range(20000)]
    texts += ["${a[1]:2}", "${a[\n1]/x/y}", "${a[1]}${b[2]:-x}${c:2}", "${a[x[y]:2}", "${a[b[1]]:2}"]
    found = 0
    for text in texts:
        m = _COMPUTED[1].search(text)
        assert _first_sliced(text) == (None if m is None else (m.start(), m.group())), text
        found += m is not None
    assert found > 300


def test_a_shell_script_a_head_by_value_runs_counts_its_file_s_levels(project):
    """up.sh goes two folders up and runs big.sh there by `$c` (c=bash: no `source`, but a run): the walk stops in
    big.sh (NPP191 on the launcher). The `.sh` word is a file up.sh names (its levels count), whatever the head."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "up.sh").write_text("cd ../..\nc=bash\n$c ./big.sh\n")
    (project.parent / "big.sh").write_text(LONG_CHILD * 4)
    path = project / "test" / "run.sh"
    path.write_text("bash ./up.sh\n")
    assert why_walked("bash ./up.sh\n", str(path)) == BOUND
    _walk_finds(path, "bash ./up.sh\n", "NPP191")


# shell_scan._COMMAND_HEAD as it was first written: 44 lookbehinds at the character after a `$`, tried one after another
_HEAD_PLAIN = "|".join(f"(?<={before}{quote}\\$)" for before in
                       [r"[\n;&|(`{]" + r"[ \t]" * n for n in range(13)] +
                       ["then ", "else ", "time ", "exec ", "nohup ", "env ", "do ", "! ", "command "]
                       for quote in ("", "[\"']")) + r"|(?<![\s\S][\s\S])"


def test_the_command_heads_sorted_by_character_hold_where_the_44_lookbehinds_do():
    """_COMMAND_HEAD's lookbehinds grouped by the character before the `$` (and the one before a blank there): at every
    place of random texts of what they look at, they hold where the 44 written one after another do."""
    import random
    from flake8_npuprof.checks.shell_scan import _COMMAND_HEAD
    plain, grouped = re.compile(_HEAD_PLAIN), re.compile(_COMMAND_HEAD)
    pieces = ["$", " ", "\t", "\n", ";", "&", "|", "(", "`", "{", '"', "'", "x", "then", "else", "time", "exec",
              "nohup", "env", "do", "!", "command", "n", "e", "c", "p", "v", "o", "d", "  ", "      ", "\t" * 11]
    rnd = random.Random(58)
    held = 0
    for _ in range(20000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 25)))
        for k in range(len(text) + 1):
            found = plain.match(text, k) is not None
            assert (grouped.match(text, k) is not None) == found, (text, k)
            held += found
    assert held > 20000
    for text in ("x;" + " " * 12 + "$", "x;" + " " * 13 + "$", "then '$", "nohup $", "xnohup $", "echo $", "$"):
        assert (grouped.match(text, len(text)) is not None) == (plain.match(text, len(text)) is not None), text


def test_a_joined_m_s_search_is_asked_only_where_a_joined_m_stands():
    """JOINED's two `-m` searches after python or a variable (Python's options to a joined `-m`) are searched only in a
    text with a joined `-m` after a blank, a quote or `\\` (shell_scan.Gated, _GLUED_M): each finds what it finds
    searched alone, on random texts of what they read."""
    import random
    from flake8_npuprof.checks.shell_scan import _GLUED_M, JOINED, JOINED_SEARCHES, Gated
    gated = [k for k, p in enumerate(JOINED_SEARCHES) if isinstance(p, Gated)]
    assert [JOINED[k].pattern[:6] for k in gated] == ["python", "\\$(?<!"]
    assert [p for k, p in enumerate(JOINED_SEARCHES) if k not in gated] == \
        [p for k, p in enumerate(JOINED) if k not in gated]
    pieces = ["$", "$a", "${a}", '"', "'", " ", "\t", "\n", "\r", ";", "&", "|", "(", "{", "`", "-m", "-um", "-mx",
              "-Bm", "-X", "dev", "-B", "then ", "do ", "env ", "x", "python3", "python", " -mx", "\\", "\\\n", "!",
              " -W ", "=", "/usr/bin/", "m", "-", "u"]
    rnd = random.Random(58)
    found = 0
    for _ in range(30000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 30)))
        for k in gated:
            m, g = JOINED[k].search(text), JOINED_SEARCHES[k].search(text)
            assert (m and (m.span(), m.group())) == (g and (g.span(), g.group())), text
            assert m is None or _GLUED_M.search(text), text
            found += m is not None
    assert found > 1000


def test_the_joined_m_gate_takes_time_that_grows_with_the_text():
    """_GLUED_M and the grouped heads on long adversarial texts: no backtracking that grows as the square."""
    from evalfiles import deadline
    from flake8_npuprof.checks.shell_scan import _GLUED_M, JOINED_SEARCHES, may_start
    texts = [" -" + "B" * 200000, " -B" * 70000, "-" * 200000, " $" * 100000, ";" + " " * 200000 + "$",
             "then $" * 30000, " '$" * 70000, "x $a -X " * 25000 + "-mx", "python -X " * 20000 + "-mx"]
    with deadline(10, "the joined `-m` searches of 9 adversarial texts"):
        for text in texts:
            _GLUED_M.search(text)
            may_start(text)
            for p in JOINED_SEARCHES:
                p.search(text)


def test_a_cut_of_an_indexed_value_is_searched_in_time_that_grows_with_the_text():
    """may_start's `${a[i]%y}` read each `${a[` on to its line's end for the `]`: a line of 60,000 took 55 s of CPU
    (a launcher of 240 KB without a profiling word); searched from each line's start and `]`, it is found as before."""
    from evalfiles import deadline
    from flake8_npuprof.checks.shell_scan import may_start
    with deadline(2, "may_start on lines of 30,000 `${a[`"):
        for text in ("${a[" * 30000, "${a[" * 30000 + "]%", "x]" + "${a[" * 30000 + "\n]%"):
            assert may_start(text) == text.endswith("[]%"), text[-4:]
    for text in ("bash ${a[$i]%y}", "bash ${a[${i}]%y}", "bash ${#a[0]^^}", "x] ${a[1]%y}", "${b[0]}${a[@]%y}",
                 "bash ${x%y}"):
        assert may_start(text), text
    for text in ("bash ${a[\n]%y}", "bash ${a[0]}%y", "[x]%y ${a}"):
        assert not may_start(text), text


# may_start's search for a value cut or changed in case, as one pattern (3cbdaf9)
_CUT_OR_CASE = re.compile(r"\$\{[#!]?\w+[%^,~@]|(?:^|(?<=\]))(?=(?P<s>[^\]\n]*\$\{[#!]?\w+\[))(?P=s)[^\]\n]*\][%^,~@]",
                          re.M)


def test_a_cut_or_case_change_is_found_as_the_one_pattern_found_it():
    """may_start searches `${x%` alone and an index's `${a[i]%` only in a text with a `]` before one of `%^,~@` (the
    one pattern was tried at every character): on random texts, a match where the one pattern has one."""
    import random
    from flake8_npuprof.checks.shell_scan import _MAY_START
    k = next(k for k, p in enumerate(_MAY_START) if getattr(p, "pattern", "") == r"\$\{[#!]?\w+[%^,~@]")
    plain, indexed = _MAY_START[k], _MAY_START[k + 1]
    pieces = ["${a", "${#a", "${!a", "a", "_1", "[", "]", "[$i]", "[0]", "%", "%%", "^", ",", "~", "@", "\n", "$", "{",
              "}", " ", "x]", "é"]
    rnd = random.Random(17)
    texts = ["".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 14))) for _ in range(6000)]
    found = [bool(_CUT_OR_CASE.search(t)) for t in texts]
    assert found == [bool(plain.search(t) or indexed.search(t)) for t in texts]
    assert sum(found) > 1000 and len(texts) - sum(found) > 3000
    assert sum(bool(indexed.search(t)) and not plain.search(t) for t in texts) > 50


def test_the_lines_kept_clean_are_short_ones():
    """_computed keeps the lines it found clean while the process lives, up to MAX_CLEAN of them: of 50,000 lines of
    100,000 characters (a tree of adversarial launchers), 5 GB; a line over _LONG_LINE is searched again instead."""
    from flake8_npuprof.engine import launch_scan
    launch_scan._clean.clear()
    for k in range(20):
        assert launch_scan._computed(f"echo {k}\n" + "x" * 100000 + str(k) + "\necho y\n") is None
    assert sorted(launch_scan._clean) == ["", "echo y"]          # (the last line, after the text's last break)


# a model zoo child's shape (train_full_8p.sh): its argument loop sets bind_core to a piece of an argument, and a head
# `${bind_core}` may source what follows only where that piece is `source` or `.`; zoo/envx, two folders up, is long
BIND_CHILD = ("for para in $*\ndo\n    if [[ $para == --data_path* ]];then\n        data_path=`echo ${para#*=}`\n"
              "    elif [[ $para == --bind_core* ]];then\n        bind_core=`echo ${para#*=}`\n    fi\ndone\n"
              'echo "para: $data_path"\ncd ../..\n${bind_core} envx\n')


WORDS = "a function or a file given a variable's words loops over them"


@pytest.mark.parametrize("text, child, why", [
    # every word it is given holds neither: its `cd ../..` goes nowhere the scan follows (zoo/ is not listed)
    ("bash ./child.sh --data_path=/data/x --epochs=1\npython3 ../train.py\n", BIND_CHILD, ""),
    ("bash ./child.sh\npython3 ../train.py\n", BIND_CHILD, ""),
    ("bash ./child.sh --epochs=1\npython3 ../train.py\n", "set -e\nset -o pipefail\nset +x\n" + BIND_CHILD, ""),
    # `source` or `.` given (bash sources zoo/envx: 6,000 commands, NPP191), or a word that may hold them
    ("bash ./child.sh --bind_core=source\npython3 ../train.py\n", BIND_CHILD, BOUND),
    ("bash ./child.sh --bind_core=.\npython3 ../train.py\n", BIND_CHILD, BOUND),
    ("S=source\nbash ./child.sh --bind_core=$S\npython3 ../train.py\n", BIND_CHILD, BOUND),     # (S: one word)
    ("bash ./child.sh --data_path=x 2>&1 > log\npython3 ../train.py\n", BIND_CHILD, BOUND),
    ("bash ./child.sh --data_path=x.\npython3 ../train.py\n", BIND_CHILD, BOUND),
    ("bash ./child.sh --data_path=sources\npython3 ../train.py\n", BIND_CHILD, BOUND),
    ("echo --bind_core=source | xargs bash ./child.sh\npython3 ../train.py\n", BIND_CHILD, WORDS),
    # arguments set in the child, the name set otherwise, a loop in a function, a child sourced or given the launcher's
    ("bash ./child.sh --epochs=1\npython3 ../train.py\n", "set x y\n" + BIND_CHILD, BOUND),
    ("bash ./child.sh --epochs=1\npython3 ../train.py\n", "read para\n" + BIND_CHILD, BOUND),
    ("bash ./child.sh --epochs=1\npython3 ../train.py\n", "bind_core=$1\n" + BIND_CHILD, BOUND),
    ("bash ./child.sh --epochs=1\npython3 ../train.py\n", BIND_CHILD.replace("${para#*=}", "${para/x/source}"),
     "a computed name (${para/) in child.sh"),
    ("bash ./child.sh --epochs=1\npython3 ../train.py\n", "f() {\n" + BIND_CHILD + "}\nf --bind_core=.\n", WORDS),
    ("source ./child.sh --epochs=1\npython3 ../train.py\n", BIND_CHILD, BOUND),
    ("bash ./child.sh --bind_core=x\npython3 ../train.py\n", "echo() { printf source; }\n" + BIND_CHILD, WORDS),
    ("bash ./child.sh --epochs=1\npython3 ../train.py\n", BIND_CHILD.replace("== --bind_core*", "=~ --bind_core"),
     BOUND),
    ("bash ./child.sh --epochs=1\nbash ./child.sh $1\npython3 ../train.py\n", BIND_CHILD, BOUND),
])
def test_a_head_by_value_set_to_a_piece_of_arguments_holds_what_they_hold(project, text, child, why, monkeypatch):
    """benchmark.sh's shape: a child run with arguments written out that hold no `.` nor `source` sources nothing
    by its head `${bind_core}`, which its loop over them sets (the `..` of a file that names no file to run or source
    count for nothing: _levels); the scan walked two benchmark.sh of the zoo for it, its region then the zoo's (`cd
    ..` of the child counted). Where a word may be `source` or `.`, the walk sources zoo/envx and stops (NPP191)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project.parent / "envx").write_text(LONG_CHILD * 4)
    (project / "test" / "child.sh").write_text(child)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)
    elif ("bind_" in text or "f --bind" in child) and "echo()" not in child and "xargs" not in text:
        # (bash sources envx in each; the walk in all but these two: an echo function, a child xargs runs)
        _walk_finds(path, text, "NPP191")


# lines of a child a launcher runs (zoo/envx, two folders up, is long: a walk that sources it stops), and the words
# the launcher gives it
PIECES_CHILD_FUZZ = [
    "for para in $*", 'for para in "$@"', "do", "done", "if [[ $para == --bind_core* ]];then", "fi",
    "bind_core=`echo ${para#*=}`", "bind_core=$(echo $para)", "bind_core=${para##*=}", 'bind_core="$para"',
    "read para", "para=source", "para=.", "set x --y", "set -e", 'echo "para: $para"', "cd ../..", "cd ../..",
    "${bind_core} envx", "$bind_core envx", '"${bind_core}" envx', "f() { para=$1; }", "f source", "export para",
    "${para} envx", "shift", "bind_core=.", 'for para in "$@"; do bind_core=${para#*=}; done', "g() {", "}", "g $1",
]
PIECES_ARGS_FUZZ = ["--bind_core=source", "--bind_core=.", "--data_path=/data/x", "--epochs=1", "source", ".", "x.",
                    "$S", "a b", "2>&1", "--bind_core=1", "-x=sou", "rce"]


def test_random_children_given_pieces_of_arguments_are_as_walked(project, count=60):
    """Random children of PIECES_CHILD_FUZZ's lines, then a `cd ../..` and a head `${bind_core}`, given
    PIECES_ARGS_FUZZ's words: each launcher the scan settles has every walk's findings. (Run with 3,000 such
    launchers: none unsound, 385 settled, 316 of them before _argument_piece.)"""
    import random
    from flake8_npuprof.engine.launch_scan import why_walked
    (project.parent / "envx").write_text(LONG_CHILD * 4)
    rnd = random.Random(62)
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(count):
        child = "\n".join(rnd.choice(PIECES_CHILD_FUZZ) for _ in range(rnd.randint(1, 8))) + "\n" + \
            rnd.choice(["cd ../..\n${bind_core} envx\n", "${bind_core} envx\ncd ../..\n",
                        'cd ../..\n"$bind_core" envx\n'])
        (project / "test" / "child.sh").write_text(child)
        text = "S=source\n" + "".join(
            f"{rnd.choice(['bash', 'bash', 'source'])} ./child.sh "
            f"{' '.join(rnd.choice(PIECES_ARGS_FUZZ) for _ in range(rnd.randint(0, 3)))}\n"
            for _ in range(rnd.randint(1, 2))) + "python3 ../train.py\n"
        path.write_text(text)
        if why_walked(text, str(path)):
            continue
        settled += 1
        with bench.every_walk():
            slow = bench._check(str(path), text)
        assert bench._check(str(path), text) == slow, (text, child)
    assert settled >= 5


@pytest.mark.parametrize("text, why", [
    # no cut from a value's start: a name is a file's whole (presubmit.sh's `find ./ -name '*test.py'`: no test.py)
    ("cd ../tools\npython3 run_t.py --trace=False\n", ""),
    ("cd ../tools\nfor f in `find ./ -name '*t.py' -print`; do ${B} \"$f\"; done\n", ""),
    ("cd ../tools\nS=run_t.py\necho ${#S}\npython3 $S --trace=False\n", ""),
    # a cut makes t.py of run_t.py (bash and the walk start tools/t.py: NPP205)
    ("cd ../tools\nS=run_t.py\npython3 ${S#run_} --trace=False\n", "a script name in $S used in part"),
    ("cd ../tools\nS=run_t.py\npython3 ${S##*_} --trace=False\n", "a script name in $S used in part"),
    ("cd ../tools\nf() { python3 ${1#run_} --trace=False; }\nf run_t.py\n", "../tools/t.py may hold a setup"),
    ("cd ../tools\nf() { python3 ${@#run_} --trace=False; }\nf run_t.py\n", "../tools/t.py may hold a setup"),
])
def test_a_name_ends_another_file_s_only_where_a_value_is_cut(project, text, why, monkeypatch):
    """The walk makes a name of the end of another only by a cut from a value's start (`${S#run_}`): without one in
    the texts, `run_t.py` and `*t.py` are files so named, not tools/t.py (which takes `--trace=False`: NPP205);
    presubmit.sh of ResNet200 was walked for a test.py four folders up."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "t.py").write_text(TRACED)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)
    else:
        _walk_finds(path, text, "NPP205")


# lines of a launcher around a name that ends another's (tools/t.py takes `--trace=False`: NPP205)
CUT_FUZZ = [
    "cd ../tools", "cd ..", "S=run_t.py", "python3 $S --trace=False", "python3 ${S#run_} --trace=False",
    "python3 run_t.py --trace=False", "f() { python3 ${1#run_} --trace=False; }", "f run_t.py",
    "g() { python3 $1 --trace=False; }", "g run_t.py", "g t.py", "for f in `find . -name '*t.py'`; do python3 $f; done",
    "x=${S##*_}", "python3 $x --trace=False", "echo ${#S}", "T=${S}", "python3 ${T#run_} --trace=False",
    "h() { python3 ${@#run_} --trace=False; }", "h run_t.py", "python3 tools/run_t.py --trace=False",
    "source ./lib.sh", "bash ./lib.sh run_t.py", "python3 *t.py --trace=False",
]


def test_random_launchers_with_names_that_end_others_are_as_walked(project, count=60):
    """Random launchers of CUT_FUZZ's lines (lib.sh cuts its argument): each one the scan settles has every walk's
    findings. (Run with 2,000 such launchers: none unsound, 1,596 settled, 1,491 before _ends_held.)"""
    import random
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "t.py").write_text(TRACED)
    (project / "test" / "lib.sh").write_text("python3 ../tools/${1#run_} --trace=False\n")
    rnd = random.Random(62)
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(count):
        text = "\n".join(rnd.choice(CUT_FUZZ) for _ in range(rnd.randint(1, 5))) + "\n"
        path.write_text(text)
        if why_walked(text, str(path)):
            continue
        settled += 1
        with bench.every_walk():
            slow = bench._check(str(path), text)
        assert bench._check(str(path), text) == slow, text
    assert settled >= 20


@pytest.mark.parametrize("text, why", [
    # (PHASEN's toserver.sh) check walks the launcher without arguments: `${1%@*}` is as unknown to it as `$1`
    ('site=${1#*@}\nuser=${1%@*}\npython3 ../tools/t.py --trace=${user}\n', "../tools/t.py may hold a setup"),
    ('user=${1%@*}\nrsync ./x/* $user@h:~/w/$2\n', ""),
    ('x=${1%y}\npython3 $x --trace=False\n', ""),
    ('python3 ${1/a/b} ${2:3} ${1^^} ${1: -2} --trace=False\n', ""),
    # where `$1` may be known or the cut is text written out, it is walked as before
    ('f() { python3 ${1%y} --trace=False; }\nf ../tools/t.pyy\n', "a computed name (${1%)"),
    ('x=${1%y}\nbash ./child.sh\n', "a computed name (${1%)"),
    ("echo 'a'\npython3 ${1%y} --trace=False\n", "a computed name (${1%)"),
    ('cat <<EOF\n${1%y}\nEOF\n', "a computed name (${1%)"),
    ('x=${1%$y}\npython3 $x --trace=False\n', "a computed name (${1%)"),
    ('x=${1%y}\ny=${x%z}\npython3 $y --trace=False\n', "a computed name (${1%)"),     # (as the text says)
])
def test_a_cut_of_the_launcher_s_own_argument_is_the_argument(project, text, why, monkeypatch):
    """`user=${1%@*}` outside a function, in a launcher that runs or sources no file: a value check's walk does not
    know, as `$1` is not (shell/expand.Expander._parameter gives None for each form): read as `${1}`, the launcher is
    settled where it would be with `$1`. On main each was walked for "a computed name"."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "t.py").write_text(TRACED)
    (project / "test" / "child.sh").write_text("echo child\n")
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and why_walked(text, str(path)) == why
    _settled_or_as_walked(path, text, why, monkeypatch)


@pytest.mark.parametrize("text, why", [
    # (doubleunet's train_testcase.sh) bash runs python with the one word `t.py--trace=False`: no script
    ("cd ../tools\npython3.7  t.py\\\n--trace=False --epochs=1 >train.log 2>&1\n", ""),
    ("cd ../tools\npython3 -u t.py\\\n--trace=False\necho done\n", ""),
    # a blank before the `\\`: t.py is started with --trace=False (NPP205)
    ("cd ../tools\npython3 t.py \\\n--trace=False\n", "../tools/t.py may hold a setup"),
    # where the word may be no python script's or may end in `.py` once joined, walked as before
    ("cd ../tools\npython3 t.p\\\ny --trace=False\n", "a computed name (\\\ny)"),
    ("cd ../tools\npython3 t.py\\\n--x=a.py --trace=False\n", "a computed name (\\\n-)"),
    ("cd ../tools\nbash t.py\\\n--trace=False\n", "a computed name (\\\n-)"),
    ("cd ../tools\necho \\\npython3 t.py\\\n--trace=False\n", "a computed name (\\\n-)"),
    ("cd ../tools\npython3 t.py\\\n--trace=False\nbash ./x.sh\n", "a computed name (\\\n-)"),
])
def test_a_script_word_joined_to_an_option_by_a_backslash_newline_is_no_script(project, text, why, monkeypatch):
    """`python3.7 t.py\\`, newline, `--trace=False`: bash joins the two into `t.py--trace=False`, which the walk
    starts as no script (its name does not end in `.py`), even where a file of that name holds a setup. On main it
    was walked for "a computed name"."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "t.py").write_text(TRACED)
    (project / "tools" / "t.py--trace=False").write_text(TRACED)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and why_walked(text, str(path)) == why
    if not why:
        _not_walked_and_as_if_walked(path, text, monkeypatch)
        assert bench.unstartable(str(project / "test"), ["run.sh"]) == ["run.sh"]
    elif why.endswith("may hold a setup"):
        _walk_finds(path, text, "NPP205")


# lines of random launchers around cuts of the launcher's own arguments and `.py` words joined to options
OWN_FUZZ = [
    "u=${1%@*}", "python3 $u --trace=False", "python3 ${1%y} --trace=False", "cd ../tools", "cd ..", "cd tools",
    "python3 t.py\\\n--trace=False", "python3 -u t.py\\\n--trace=False --x=1", "python3 t.py \\\n--trace=False",
    "python3 ${2:3}", "d=${1/a/b}", "cd $d", "cd ${1%/*}", "python3 ../tools/t.py --trace=${1%@*}", "shift",
    "f() { python3 ${1%y} --trace=False; }", "f t.pyy", "f ../tools/t.pyy", "set -- t.pyy", "echo 'x'",
    "x=${u%y}", "python3 $x", "bash ./child.sh t.pyy", "python3 train.py\\\n--x", "python3 ${1,,}",
    'D=$(cd "$(dirname "$0")"; pwd)', "${D}/child.sh t.pyy", '"$D/child.sh"', 'U=$(dirname "$PWD")', "D=../tools",
    "read D", "export D=../tools", "f() { ${D}/child.sh a; }", "f",
]


def test_random_launchers_with_cuts_of_their_arguments_and_joined_words_are_as_walked(project, count=80):
    """Random launchers of OWN_FUZZ's lines (test/child.sh starts the `t.py` its argument cut names, tools/child.sh
    stops the walk at its bound): each one the scan settles starts no script that may hold a setup by its walk and
    has every walk's findings. (Run with 3,000 such launchers and seeds 1 to 5: none unsound.)"""
    import os
    import random
    (project / "tools" / "t.py").write_text(TRACED)
    (project / "tools" / "t.py--trace=False").write_text(TRACED)
    (project / "test" / "child.sh").write_text("cd ../tools\npython3 ${1%y} --trace=False\n")
    (project / "tools" / "child.sh").write_text(LONG_CHILD * 4)
    rnd = random.Random(int(os.environ.get("OWN_FUZZ_SEED", "63")))
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(int(os.environ.get("OWN_FUZZ_COUNT", count))):
        text = "\n".join(rnd.choice(OWN_FUZZ) for _ in range(rnd.randint(1, 5))) + "\n"
        path.write_text(text)
        settled += _settled_soundly(path, text)
    assert settled >= 15


OWN_DIR = 'D=$(cd "$(dirname "$0")"; pwd)\nU=$(dirname "$PWD")\n'      # (U: a level up, the region is project/)


@pytest.mark.parametrize("text, why", [
    # (UNet3D's run_performance_1p.sh) the walk's `$0` is the launcher's path: ${D}/child.sh is test/child.sh alone,
    # not tools/child.sh, whose 5,000 commands would stop the walk
    (OWN_DIR + "${D}/child.sh a\n", ""),
    (OWN_DIR + '"${D}/child.sh" a\nbash $D/child.sh\n', ""),
    ("D=$(cd \"$(dirname \"${BASH_SOURCE[0]}\")\" && pwd)\nexport A=1\nfor((i=0;i<2;i++)); do ${D}/child.sh; done\n"
     "cd ..\n", ""),
    ("f() { ${D}/child.sh; }\nf\n" + OWN_DIR, ""),       # (read before it is set: /child.sh, which is not there)
    # anything else that may set D, and every child.sh of the region counts as before
    (OWN_DIR + "D=../tools\n${D}/child.sh a\n", "its commands may reach the walk's bound"),
    (OWN_DIR + 'export D""=../tools\n${D}/child.sh a\n', "its commands may reach the walk's bound"),
    (OWN_DIR + "read D\n${D}/child.sh a\n", "its commands may reach the walk's bound"),
    (OWN_DIR + 'n=D\n(( $n = 2 ))\n${D}/child.sh a\n', "its commands may reach the walk's bound"),
    (OWN_DIR + 'eval "$1"\n${D}/child.sh a\n', "its commands may reach the walk's bound"),
    (OWN_DIR + 'x${D}/child.sh a\n', "its commands may reach the walk's bound"),
    (OWN_DIR + 'source ./env.sh\n${D}/child.sh a\n', "its commands may reach the walk's bound"),
    (OWN_DIR + '${D}/sub/child.sh a\n', "its commands may reach the walk's bound"),
    ('D=$(cd "$(dirname "$1")"; pwd)\ncd ..\n${D}/child.sh a\n', "its commands may reach the walk's bound"),
])
def test_a_file_named_after_the_launcher_s_own_folder_is_that_folder_s(project, text, why, monkeypatch):
    """`D=$(cd "$(dirname "$0")"; pwd)` then `${D}/child.sh`: the launcher's own folder's child.sh, the only one
    followed where nothing else in the launcher's shell may set D (on main every child.sh of the region counted,
    and tools/child.sh stops the walk at its bound)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "child.sh").write_text("echo child\n")
    (project / "test" / "env.sh").write_text("echo env\n")
    (project / "tools" / "child.sh").write_text("echo x\n" * MAX_COMMANDS)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and why_walked(text, str(path)) == why
    _settled_or_as_walked(path, text, why, monkeypatch)


@pytest.mark.parametrize("text, why", [
    # (siammask's make.sh) down two folders that are there and back up: the walk never leaves test/, so the
    # setup.py two levels up (zoo/other/) is none it can start; on main the `..` counted 2 levels
    ("cd a/b\npython3 setup.py --trace=False\ncd ../../\ncd a\npython3 setup.py --trace=False\ncd ..\n", ""),
    ("#!/bin/bash\ncd a/b/\npython3 setup.py build_ext --inplace\ncd ../..\necho ok > log\n", ""),
    # up one past its folder: project/setup.py is in reach and takes --trace=False
    ("cd a\ncd ../..\npython3 setup.py --trace=False\n", "../setup.py may hold a setup"),
    # a `cd` that may not go down or may not run, or a folder not there: each `..` counts as before
    ("cd a/c\ncd ../..\npython3 setup.py --trace=False\n", "../../other/setup.py may hold a setup"),
    ("cd a/b || exit\ncd ../..\npython3 setup.py --trace=False\n", "../../other/setup.py may hold a setup"),
    ('echo "\ncd a/b\n"\ncd ../..\npython3 setup.py --trace=False\n', "../../other/setup.py may hold a setup"),
    ("c=cd\n$c a\ncd b\ncd ../..\npython3 setup.py --trace=False\n", "../../other/setup.py may hold a setup"),
    ("if true; then cd a/b; fi\ncd ../..\npython3 setup.py --trace=False\n", "../../other/setup.py may hold a setup"),
    ("cd a/b; cd ../..\npython3 setup.py --trace=False\n", "../../other/setup.py may hold a setup"),
    ("f() { cd a/b; }\ncd ../..\npython3 setup.py --trace=False\n", "../../other/setup.py may hold a setup"),
])
def test_a_cd_written_out_to_a_folder_that_is_there_goes_down(project, text, why, monkeypatch):
    """A launcher of plain lines whose every `..` is in a `cd DIR` line, each DIR there from where the lines before
    went: its directory is never above its folder by more than those lines take it (test/a/b, then `cd ../..`: test/
    again), not by every `..` written (on main: 2 levels, and zoo/other/setup.py in reach)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "a" / "b").mkdir(parents=True)
    (project / "test" / "a" / "b" / "setup.py").write_text(PLAIN)
    (project / "test" / "a" / "setup.py").write_text(PLAIN)
    (project / "setup.py").write_text(TRACED)
    (project.parent / "other").mkdir()
    (project.parent / "other" / "setup.py").write_text(TRACED)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and why_walked(text, str(path)) == why
    _settled_or_as_walked(path, text, why, monkeypatch)
    if why == "../setup.py may hold a setup":
        _walk_finds(path, text, "NPP205")


CD_FUZZ = ["cd a/b", "cd a", "cd b", "cd ..", "cd ../..", "cd ../../", "python3 setup.py --trace=False", "echo ok",
           "cd a/c", "cd ../test", "cd ../tools", "python3 eval.py --trace=False", "cd a/b/", "cd ../../..", "cd ./a",
           "python3 ../setup.py --trace=False", "cd b || cd ..", "x=1"]


def test_random_launchers_of_cd_lines_are_as_walked(project, count=150):
    """Random launchers of CD_FUZZ's lines (test/a/b and test/a hold setup.py files without a setup; project/,
    zoo/other/ and tools/eval.py take --trace=False): each one the scan settles starts no script that may hold a setup
    by its walk and has every walk's findings. (Run with 3,000 such launchers and seeds 1 to 5: none unsound.)"""
    import os
    import random
    (project / "test" / "a" / "b").mkdir(parents=True)
    (project / "test" / "a" / "b" / "setup.py").write_text(PLAIN)
    (project / "test" / "a" / "setup.py").write_text(PLAIN)
    (project / "setup.py").write_text(TRACED)
    (project / "tools" / "eval.py").write_text(TRACED)
    (project.parent / "other").mkdir()
    (project.parent / "other" / "setup.py").write_text(TRACED)
    rnd = random.Random(int(os.environ.get("CD_FUZZ_SEED", "20")))
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(int(os.environ.get("CD_FUZZ_COUNT", count))):
        text = "\n".join(rnd.choice(CD_FUZZ) for _ in range(rnd.randint(1, 6))) + "\n"
        path.write_text(text)
        settled += _settled_soundly(path, text)
    assert settled >= 20


def test_a_settled_launcher_imports_and_compiles_nothing_only_the_walk_needs(tmp_path):
    """A process whose launchers the scan settles pays no import or pattern that only the walk uses: the scan reads
    the command names of shell/command_words.py (not shell/command_line.py, 4.8M instructions at import) and
    shell/parse.py's lexer, whose loop patterns (_FOR_C, _FOR_C_NAMED, _BY_VALUE: 8.4M to compile) it never asks."""
    import subprocess
    (tmp_path / "test").mkdir()
    (tmp_path / "train.py").write_text("import os\nprint(1)\n")
    launcher = tmp_path / "test" / "run.sh"
    launcher.write_text('#!/bin/bash\ncur=$(cd "$(dirname "$0")"; pwd)\ncd ..\necho "see ../x"\n'
                        'cp -r ${cur}/../data .\nf() {\n  python3 train.py --epochs=1\n}\nf\n'
                        'for i in 1 2; do echo $i; done\n')
    probe = ("import sys\nfrom flake8_npuprof.engine.run import check_each\n"
             "from flake8_npuprof.engine.launch_scan import why_walked\n"
             "from flake8_npuprof.checks.analysis import Settings\nfrom flake8_npuprof.source.files import Selection\n"
             f"p = {str(launcher)!r}\ntext = open(p).read()\n"
             "print(repr(why_walked(text, p)), check_each(p, text, 'shell', (Settings(),), Selection()))\n"
             "from flake8_npuprof.shell import parse\n"
             "print(sorted(m for m in sys.modules if m.startswith('flake8_npuprof.shell.')), len(parse._COMPILED))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=str(Path(__file__).resolve().parent.parent)).stdout.splitlines()
    assert out[0] == "'' [[]]"
    assert out[1] == ("['flake8_npuprof.shell.command_words', 'flake8_npuprof.shell.msprof_words', "
                      "'flake8_npuprof.shell.parse', 'flake8_npuprof.shell.state', 'flake8_npuprof.shell.words'] 0")


@pytest.mark.parametrize("head, compiled", [("for i in 1 2 3", 0), ("for ((i=0; i<3; i++))", 1),
                                             ("A=0; for\t (( i=$A; i<$((A+3)); i++ ))", 2)])
def test_the_walk_compiles_the_counted_for_patterns_where_a_loop_needs_them(tmp_path, head, compiled):
    """`for x in` compiles neither of the `for ((...))` patterns; each loop is still counted (three rounds)."""
    import subprocess
    (tmp_path / "t.py").write_text("print(1)\n")
    probe = ("from flake8_npuprof.shell import parse\nfrom flake8_npuprof.shell.walk import Walk\n"
             "from flake8_npuprof.shell.launches import steps\n"
             f"w = Walk({str(tmp_path / 'run.sh')!r}).run({head + '; do python3 t.py --r=$i; done' + chr(10)!r})\n"
             "print(*[la.ranks for la in steps(w)], sum(p in parse._COMPILED for p in (parse._FOR_C, parse._FOR_C_NAMED)))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=str(Path(__file__).resolve().parent.parent)).stdout.split()
    assert out == ["3", str(compiled)]


def test_a_launcher_copied_into_another_project_is_read_once_and_judged_there(tmp_path, monkeypatch):
    """The same text in two projects is made a _Text once (launch_scan._by_text); each launcher is still judged in its
    own project: the one whose train.py holds a setup is walked, the other settled."""
    from flake8_npuprof.engine import launch_scan
    text = '#!/bin/bash\ncd "$(dirname "$0")"/..\nf() {\n  python3 train.py --epochs=1\n}\nf\n'
    for name, script in (("a", "print(1)\n"), ("b", EXAMPLE_SCRIPT), ("c", "print(2)\n")):
        (tmp_path / name / "test").mkdir(parents=True)
        (tmp_path / name / "train.py").write_text(script)
        (tmp_path / name / "test" / "run.sh").write_text(text)
    made = []
    real = launch_scan._Text.__init__

    def counted(self, path, text):
        made.append(path)
        real(self, path, text)
    monkeypatch.setattr(launch_scan._Text, "__init__", counted)
    monkeypatch.setattr(launch_scan, "_texts", {})
    monkeypatch.setattr(launch_scan, "_by_text", {})
    paths = [str(tmp_path / name / "test" / "run.sh") for name in "abc"]
    why = [launch_scan.why_walked(text, p) for p in paths]
    assert why == ["", "../train.py may hold a setup", ""]
    assert made == paths[:1]
    assert [launch_scan._texts[p][1].path for p in paths] == paths


LOST_DIR = 'E=$(cd "$(dirname "$0")"; pwd)\ncd $E\ncd ..\nE=$(pwd)\nR=results/1p\n'     # (the region is project/)


@pytest.mark.parametrize("text, why", [
    # (BigGAN's train_1p.sh and train_8p.sh) `cd ${E}/${R}/${d}`, d not set before it: the walk has no folder after it,
    # and starts no script, ${E}/t.py (project/t.py, which takes --trace=False) neither
    (LOST_DIR + "cd ${E}/${R}/${d}\nd=$1\npython3 ${E}/t.py --trace=False\n", ""),
    (LOST_DIR + 'd=$1\nif [ x"${d}" = x ] ;\nthen\n    exit\nelse\n    export D=${d}\nfi\ncd $E/$R/$d\n'
     "python3 -m t --trace=False\npython3 t.py --trace=False\n", ""),
    ("cd $d\npython3 ../t.py --trace=False\n", ""),
    # a script before it, a `cd` that may not run, any `cd` after it (even `cd .`, which the walk leaves lost), or a
    # value that may split or be set
    ("cd $d\ncd .\npython3 ../t.py --trace=False\n", "../t.py may hold a setup"),
    ("python3 ../t.py --trace=False\ncd $d\n", "../t.py may hold a setup"),
    ("if false; then\ncd $d\nfi\npython3 ../t.py --trace=False\n", "../t.py may hold a setup"),
    ("true &&\ncd $d\npython3 ../t.py --trace=False\n", "../t.py may hold a setup"),
    ("cd $d\ncd ${E:-..}\npython3 ../t.py --trace=False\n", "../t.py may hold a setup"),
    ("cd $d\neval cd ..\npython3 ../t.py --trace=False\n", "../t.py may hold a setup"),
    ('A="a b"\ncd ${A}/${d}\npython3 t.py --trace=False\n', "a/t.py may hold a setup"),
    ("d=a\ncd $d\npython3 t.py --trace=False\n", "a/t.py may hold a setup"),
    ("read d\ncd $d\npython3 t.py --trace=False\n", "a/t.py may hold a setup"),
    ("echo ${d:=a}\ncd $d\npython3 t.py --trace=False\n", "a/t.py may hold a setup"),
    ("for d in a; do echo; done\ncd $d\npython3 t.py --trace=False\n", "a/t.py may hold a setup"),
    ("cd $PWD\ncd a\npython3 t.py --trace=False\n", "a/t.py may hold a setup"),
    # a block word that is none (`echo "; fi"`, `nohup fi`) closes no block: the `cd` is in a branch the walk skips
    ('if false; then\necho "; fi"\ncd $d\nfi\npython3 ../t.py --trace=False\n', "../t.py may hold a setup"),
    ("if false; then\nnohup fi\ncd $d\nfi\npython3 ../t.py --trace=False\n", "../t.py may hold a setup"),
    ("if false; then\necho '\"' \"\nfi\"\ncd $d\nfi\npython3 ../t.py --trace=False\n", "../t.py may hold a setup"),
])
def test_a_cd_to_a_value_the_walk_cannot_know_comes_before_every_launch(project, text, why, monkeypatch):
    """A top-level `cd` to a word with a variable that nothing before it sets (or only to an argument: check knows
    none) loses the walk's folder; where no script is named before it and nothing after it may move or source, no
    script the launcher names is started, whatever file of that name holds a setup (on main: walked)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "t.py").write_text(TRACED)
    (project / "test" / "a").mkdir()
    (project / "test" / "a" / "t.py").write_text(TRACED)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and why_walked(text, str(path)) == why
    _settled_or_as_walked(path, text, why, monkeypatch)


LOST_FUZZ = ["cd $d", "cd ${A}/${d}", "cd $A/$R/$d", "cd $A", "cd ..", "cd a", "cd -", "cd .", "cd", "d=$1", 'd="$2"',
             "d=a", 'A="a b"', "A=..", "A=$(pwd)", 'A=$(cd "$(dirname "$0")"; pwd)', "R=a", "R=results/1p",
             "python3 t.py --trace=False", "python3 ../t.py --trace=False", "python3 ${A}/t.py --trace=False",
             "python3 -m t --trace=False", "if [ -z $d ]; then", "else", "fi", "then", "exit 0", "true &&", "(cd $A)",
             "pushd a", "popd", "eval cd a", "read d", "echo ${d:=a}", "export d=a", "echo 'x", "echo \"",
             "for d in a; do echo; done", "f() { cd a; }", "f", "echo ok", "cd {root}", "A=$(cd {root}; pwd)",
             'A="{root}"', "A=$PWD", "IFS=/", "cd a/$d", "cd $d;", "set -- a", "d=${1}", "A=a",
             "python3 a/t.py --trace=False", "exec python3 t.py --trace=False",
             "env -C {root} python3 t.py --trace=False", "bash -c 'cd a'", "sudo -D a python3 t.py --trace=False",
             "if false; then", 'echo "; fi"', "nohup fi", "echo '\"' \"x", 'echo "x', "case x in", "x) cd a;;", "esac",
             "if false; then cd $d; fi", "true; fi", 'X="$(echo ")")"', "while false; do",
             'if false; then\necho "; fi"', "if false; then\nnohup fi", "if false; then\ncd $d\nfi"]


def test_random_launchers_of_cd_lines_that_lose_the_folder_are_as_walked(project, count=150):
    """Random launchers of LOST_FUZZ's lines (project/, test/a/ and tools/ hold a t.py that takes --trace=False):
    each one the scan settles starts no script that may hold a setup by its walk and has every walk's findings. (Run
    with 3,000 such launchers and seeds 1 to 5: none unsound.)"""
    import os
    import random
    for folder in (project, project / "test" / "a", project / "tools"):
        folder.mkdir(exist_ok=True)
        (folder / "t.py").write_text(TRACED)
    lines = [line.replace("{root}", str(project)) for line in LOST_FUZZ]
    launches = [line for line in lines if line.startswith("python3")]
    rnd = random.Random(int(os.environ.get("LOST_FUZZ_SEED", "64")))
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(int(os.environ.get("LOST_FUZZ_COUNT", count))):
        # (each ends with a launch: a launcher that names no script settles without the rule)
        text = "\n".join(rnd.choice(lines) for _ in range(rnd.randint(1, 5))) + "\n" + rnd.choice(launches) + "\n"
        path.write_text(text)
        settled += _settled_soundly(path, text)
    assert settled >= 15


@pytest.mark.parametrize("seed", range(4))
def test_function_calls_and_lines_naming_them_counted_as_word_by_word(seed):
    """_times counts a call where a word of `[\\w.:-]` characters is a function's name, and _args gives None where a
    line (its `\\`-newlines joined) that names one has an expansion or a quote left open: asked of the whole text
    (_names_at), as they were of each word and each line."""
    import random
    from flake8_npuprof.engine import launch_scan as ls
    rng = random.Random(seed)
    pieces = ["f", "g.x", "f-1", "xf", "f:", "-f", " ", " ", "\t", "\n", "\\\n", "\\\r\n", ";", "$a", "'", '"', "é",
              "g.x()", "f()", "{", "}", "`", "(", "_f", "f_"]
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        names = {n for n in ("f", "g.x", "f-1", "h") if rng.random() < 0.6} or {"f"}
        old_calls = sum(1 for word in ls._FUNCTION_NAME.findall(text) if word in names)
        assert len(ls._names_at(text, names)) == old_calls, (text, names)
        t = ls._Text.__new__(ls._Text)
        t.text, t.defined, t.body_loops, t.commands, t.shells, t._shell_at = text, set(names), True, [1, 0], [], []
        t._by_value, t._passes, t._longest = ([],), None, None
        old_none = any((ls._EXPANSION.search(line) or line.count("'") % 2 or line.count('"') % 2) and
                       ls._names_at(line, names) for line in ls._logical_lines(text))
        assert (ls._args({"/l.sh": t}, "/l.sh") is None) == old_none, (text, names)
        assert t.passes == max((len(line.split()) for line in ls._logical_lines(text)), default=0)


# ---------------------------------------------------------------- s65 walk22: BigGAN's benchmark.sh (its test/
# train_full_8p.sh: an exported `..` no text reads, `sh -x train_full_1p.sh --autotune=$autotune`, `cat /proc/cpuinfo`
# and `` `echo "...${a} / ${b}"|bc` ``)

@pytest.mark.parametrize("text, why", [
    # a `..` in a value no text reads takes the walk nowhere: not two levels up (zoo/, whose t.py takes --trace=False)
    ("export R=${cur}/../../rank.json\npython3 t.py --trace=False\n", ""),
    ("R=../..\nexport R=../../x\n# R\npython3 t.py --trace=False\n", ""),
    # read, or a way to read it unnamed: counted
    ("export R=${cur}/../..\ncd $R\npython3 t.py --trace=False\n", "../../t.py may hold a setup"),
    ('export R=../..\ncd "${R}"\npython3 t.py --trace=False\n', "../../t.py may hold a setup"),
    ("export R=../..\neval cd \\$R\npython3 t.py --trace=False\n", "../../t.py may hold a setup"),
    ("export R=../..\nv=R\ncd ${!v}\npython3 t.py --trace=False\n", "../../t.py may hold a setup"),
    ("export R=../..\ndeclare -n v=R\ncd $v\npython3 t.py --trace=False\n", "../../t.py may hold a setup"),
    ("HOME=../..\ncd ~\npython3 t.py --trace=False\n", None),          # (None: walked, its reason the HOME's)
    ("CDPATH=../..\ncd .\npython3 t.py --trace=False\n", "../../t.py may hold a setup"),
    ("OLDPWD=../..\ncd -\npython3 t.py --trace=False\n", "../../t.py may hold a setup"),
    ("cd R=../..\npython3 t.py --trace=False\n", "../../t.py may hold a setup"),
    ("local R=../..\npython3 t.py --trace=False\n", "../../t.py may hold a setup"),
    ("R=$(cd ../..; pwd)\npython3 t.py --trace=False\n", "../../t.py may hold a setup"),
    # another file it follows reads it: counted, and read outside the launcher (_read_once), as on main
    ("export R=../..\nbash ./up.sh\npython3 t.py --trace=False\n", "a `..` in a value read more than once"),
    ("export R=../..\nsource ./up.sh\npython3 t.py --trace=False\n", "a `..` in a value read more than once"),
])
def test_a_dotdot_in_a_value_no_text_reads_is_no_level_up(project, text, why, monkeypatch):
    """A `..` in the value of an assignment (`export RANK_TABLE_FILE=${cur_path}/../configs/x.json`) whose variable no
    followed text names but to assign it, nor reads unnamed (`${!v}`, `eval`, HOME, CDPATH, OLDPWD, ...), takes the
    walk nowhere: it counts no level up (on main: two, the region zoo/, whose t.py may hold a setup)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project.parent / "t.py").write_text(TRACED)
    (project / "test" / "up.sh").write_text("cd $R\n")
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why if why is not None else why_walked(text, str(path))
    _settled_or_as_walked(path, text, "walked" if why is None else why, monkeypatch)


ONE_WORD_LOOP = ("for para in $*\ndo\n    if [[ $para == --a* ]];then\n        a=`echo ${para#*=}`\n    fi\ndone\n"
                 'echo "[Error] para \\"a\\" is a"\necho "usage:\n    --a   whether a\n"\n')
GIVEN_WORDS = "a function or a file given a variable's words loops over them"


@pytest.mark.parametrize("text, why", [
    # each variable on the line gives one word at most: a value written out without a blank, or echo's output of a
    # piece of a field of `for para in $*` (a round per word after the file's name: 2, not the 60 of the echo line)
    ("echo " + SIXTY + "\na=False\nbash ./looping.sh --a=$a --b=${b}\npython3 ../train.py\n", ""),
    ("echo " + SIXTY + "\na=False\n" + ONE_WORD_LOOP + "bash ./looping.sh --a=$a\npython3 ../train.py\n", ""),
    ("echo " + SIXTY + '\nexport a="x"\nbash ./looping.sh --a=$a\npython3 ../train.py\n', ""),
    ("a=False\nsource ./looping.sh --a=$a\npython3 ../train.py\n", ""),          # (a sourced file: _args' bound)
    # a value that may hold a blank, or a way to set one: not known
    ('echo ' + SIXTY + '\na="x y"\nbash ./looping.sh --a=$a\npython3 ../train.py\n', GIVEN_WORDS),
    ("echo " + SIXTY + "\na=$(pwd)\nbash ./looping.sh --a=$a\npython3 ../train.py\n", GIVEN_WORDS),
    ("echo " + SIXTY + "\nread a\nbash ./looping.sh --a=$a\npython3 ../train.py\n", GIVEN_WORDS),
    ("echo " + SIXTY + "\nfor a in x y; do :; done\nbash ./looping.sh --a=$a\npython3 ../train.py\n", GIVEN_WORDS),
    ('echo ' + SIXTY + '\nfor a in "$@"; do :; done\nbash ./looping.sh --a=$a\npython3 ../train.py\n', GIVEN_WORDS),
    ("echo " + SIXTY + "\nIFS=,\na=x\nbash ./looping.sh --a=$a\npython3 ../train.py\n", GIVEN_WORDS),
    ('echo ' + SIXTY + '\n: ${a:="x y"}\nbash ./looping.sh --a=$a\npython3 ../train.py\n', GIVEN_WORDS),
    ('echo ' + SIXTY + '\nf() { read $1; }\nf a\nbash ./looping.sh --a=$a\npython3 ../train.py\n',
     "a function or a file given a variable's words loops over them"),
    ('echo ' + SIXTY + '\nx=1 a="x y"\nbash ./looping.sh --a=$a\npython3 ../train.py\n', GIVEN_WORDS),
    ('echo ' + SIXTY + '\necho "a\n" ; read a\nbash ./looping.sh --a=$a\npython3 ../train.py\n', GIVEN_WORDS),
    ("echo " + SIXTY + "\na=x\nbash ./looping.sh ${a:-x y}\npython3 ../train.py\n", GIVEN_WORDS),
    ("echo " + SIXTY + "\na=x\nbash ./getopts.sh -$a\npython3 ../train.py\n", "a computed name (-$)"),
    ("echo " + SIXTY + "\na=x\nbash ./getopts.sh - $a\npython3 ../train.py\n", GIVEN_WORDS),
])
def test_a_variable_of_one_word_bounds_the_words_a_line_gives_a_looping_file(project, text, why, monkeypatch):
    """A line that runs a file looping over its arguments (`sh -x train_full_1p.sh --autotune=$autotune`) gives it as
    many words as it has where each of its variables holds no blank in the walk (on main: not known, walked)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "test" / "looping.sh").write_text(LOOPING_CHILD)
    (project / "test" / "getopts.sh").write_text(GETOPTS_CHILD)
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    _settled_or_as_walked(path, text, why, monkeypatch)


@pytest.mark.parametrize("text, why", [
    ("corenum=`cat /proc/cpuinfo |grep 'processor' |wc -l`\npython3 ../train.py\n", ""),
    ('T=`echo "scale=2;${a} / ${b}"|bc`\npython3 ../train.py\n', ""),
    ('T=`echo "scale=2;${a} /" | bc`\ncd $T\npython3 train.py\n', ""),
    # the walk knows echo's output where no `|` follows it: the value a `cd $T` may go to
    ('T=`echo "scale=2;${a} /"`\ncd $T\npython3 train.py\n', "an absolute path that is there (/)"),
    ('T=`echo "ab /"; echo c | bc`\ncd $T\npython3 train.py\n', "an absolute path that is there (/)"),
    ('T=$(echo "ab /" | bc)\ncd $T\npython3 train.py\n', "an absolute path that is there (/)"),
])
def test_an_absolute_path_in_a_substitution_with_a_pipe_is_no_value(project, text, why, monkeypatch):
    """`cat /proc/cpuinfo | ...`, `` `echo "... / ..."|bc` ``: the walk knows no output of `cat`, nor of a substitution
    whose first command a `|` ends (shell/expand.Expander._output), so the path is only a program's argument (on main:
    an absolute path that is there)."""
    from flake8_npuprof.engine.launch_scan import why_walked
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    _settled_or_as_walked(path, text, why, monkeypatch)


WALK22_FUZZ = ["export R=${c}/../../x", "R=../..", "export R=../..", "cd $R", 'cd "${R}"', "eval cd \\$R", "v=R",
               "cd ${!v}", "declare -n v=R", "cd $v", "HOME=../..", "cd ~", "cd", "CDPATH=../..", "OLDPWD=../..",
               "cd -", "local R=../..", "# R", "echo R", "echo R=x", "bash ./up.sh", 'HOME="x y"', "a=~/x",
               "cd R=..", "R=$(cd ../..; pwd)",
               "bash ./looping.sh --a=$a --b=$b", "source ./looping.sh --a=$a", "bash ./getopts.sh - $a", "a=False",
               'a="x y"', "a=$(pwd)", "read a", "for a in x y; do :; done", 'for a in "$@"; do :; done',
               "for para in $*; do a=`echo ${para#*=}`; done", "for para in $*; do a=${para#*=}; done", "IFS=,",
               ': ${a:="x y"}', 'x=1 a="x y"', 'echo "a', 'echo "', "'", "f() { read $1; }", "f a", "export a=x",
               'echo "a=x y"', "cd $a", "a=..", "a=..,..", "export a", "cat <<E", "E", "a=x y",
               "corenum=`cat /proc/cpuinfo |grep p |wc -l`", 'T=`echo "s;${a} /"|bc`', 'T=`echo "{root} s"|bc`',
               "T=`echo {root}`", "T=`echo {root} | tr a a`", "cd $T", "D=$(cat {root}/p)", "cd $D", "cd ..",
               "python3 t.py --trace=False", "python3 ../t.py --trace=False", "python3 ../../t.py --trace=False",
               "echo " + SIXTY, "if true; then", "fi", "a=x; b=..", "b=x", "cd $b", 'a="' + SIXTY + '"',
               'A="' + SIXTY + '"', "a=$A", "a=${A}"]


def test_random_launchers_of_walk22_s_rules_lines_are_as_walked(project, count=150):
    """Random launchers of WALK22_FUZZ's lines (zoo/ and project/ hold a t.py that takes --trace=False, test/ one
    without a setup; test/ a file that loops over its arguments, one that runs getopts, one that goes `cd $R`): each
    one the scan settles starts no script that may hold a setup by its walk and has every walk's findings. (Run
    with 3,000 such launchers and seeds 1 to 5: none unsound.)"""
    import os
    import random
    for folder in (project.parent, project):
        (folder / "t.py").write_text(TRACED)
    (project / "test" / "t.py").write_text(PLAIN)
    (project / "p").write_text(str(project) + "\n")
    (project / "test" / "up.sh").write_text("cd $R\n")
    # (1,000 commands a round: a word too few counted, `$a` of 60 words read as one, reaches the walk's bound)
    (project / "test" / "looping.sh").write_text("for p in $*\ndo\n" + "  echo $p\n" * 1000 + "done\n")
    (project / "test" / "getopts.sh").write_text(GETOPTS_CHILD)
    lines = [line.replace("{root}", str(project)) for line in WALK22_FUZZ]
    launches = [line for line in lines if line.startswith("python3")]
    rnd = random.Random(int(os.environ.get("WALK22_FUZZ_SEED", "65")))
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(int(os.environ.get("WALK22_FUZZ_COUNT", count))):
        text = "\n".join(rnd.choice(lines) for _ in range(rnd.randint(1, 6))) + "\n" + rnd.choice(launches) + "\n"
        path.write_text(text)
        settled += _settled_soundly(path, text)
    assert settled >= 15


@pytest.mark.parametrize("value", ['"a;b {}"', "'a;b {}'", '`echo "a;b {}"`', '$(echo "a;b {}")'])
def test_a_path_after_a_quoted_operator_is_no_programs_argument(project, value, monkeypatch):
    """`T="a;b /data"`: the `;` is inside the value's quotes, not the end of a command whose program `b` takes /data
    as an argument; `cd "${T#*b }"` goes there (bash 5.2), and its setup.py is what the walk analyses."""
    from flake8_npuprof.engine.launch_scan import why_walked
    data = project.parent.parent / "data"
    data.mkdir()
    (data / "setup.py").write_text(TRACED)
    path = project / "test" / "run.sh"
    text = f'T={value.format(data)}\ncd "${{T#*b }}"\npython3 setup.py --trace=False\n'
    path.write_text(text)
    assert why_walked(text, str(path)) == f"an absolute path that is there ({data})"
    _walk_finds(path, text, "NPP205")


def test_a_path_in_a_quoted_argument_with_an_operator_stays_a_programs_argument(project):
    """`sed 's/: //;s/]//g'` (BigGAN's benchmark.sh): the quoted `;` is sed's; the path after it is sed's argument."""
    from flake8_npuprof.engine.launch_scan import why_walked
    path = project / "test" / "run.sh"
    text = "x=(`grep a log.txt | sed 's/: //;s/]//g'`)\necho \"it's\"; cp /data .\npython3 ../train.py\n"
    path.write_text(text)
    assert why_walked(text, str(path)) == ""


@pytest.mark.xfail(strict=True, reason="_command_start and _unquoted_start read quotes from the line's start: a quoted "
                   "string opened on a line before (`T=\"a` then `b;c /data\"`) is not seen, and the scan settles")
def test_a_path_after_an_operator_in_a_string_opened_lines_before_is_no_programs_argument(project):
    from flake8_npuprof.engine.launch_scan import why_walked
    data = project.parent.parent / "data"
    data.mkdir()
    (data / "setup.py").write_text(TRACED)
    path = project / "test" / "run.sh"
    text = f'T="a\nb;c {data}"\ncd "${{T#*c }}"\npython3 setup.py --trace=False\n'
    path.write_text(text)
    _walk_finds(path, text, "NPP205")
    assert why_walked(text, str(path)) != ""


@pytest.mark.parametrize("word, why", [
    ("--module", "a module deepspeed may run (--module)"),
    ("--mod", "a module deepspeed may run (--mod)"),          # (an abbreviation deepspeed's argparse takes)
    ("--module\\\n ", "a module deepspeed may run (--module)"),   # (bash joins the `\\`-newline: `--module trainer`)
    ("--mode", ""),                                           # (no option of deepspeed's: `--mode` is the script's)
])
def test_a_module_deepspeed_runs_walks_the_launcher(tmp_path, word, why, monkeypatch):
    """`deepspeed --module trainer` runs trainer.py as `python -m trainer` (shell/deepspeed.py), a script no `.py`
    word or `-m` names: the scan settled it, and check missed the NPP101 and NPP108 its walk finds in the options it
    passes to trainer.py's NpuOptimizer."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (tmp_path / "trainer.py").write_text(
        'import argparse\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n'
        'parser = argparse.ArgumentParser()\nparser.add_argument("--local_rank", type=int, default=0)\n'
        'parser.add_argument("--opts", default="")\nargs = parser.parse_args()\nconfig = tf.ConfigProto()\n'
        'custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\ncustom_op.name = "NpuOptimizer"\n'
        'custom_op.parameter_map["profiling_mode"].b = True\n'
        'custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(args.opts)\n')
    path = tmp_path / "run.sh"
    text = f'#!/bin/bash\ndeepspeed --num_gpus 1 {word} trainer --opts "{{\\"outptu\\":\\"/tmp/x\\"}}"\n'
    path.write_text(text)
    assert why_walked(text, str(path)) == why
    found = [(f.code, f.line, f.col) for f in bench._check(str(path), text)[0]]
    at = text.index('"{') + 1           # the options' `{`: NPP108 there, NPP101 at the key after it
    line, col = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at) - 1
    assert found == ([("NPP108", line, col), ("NPP101", line, col + 1)] if why else [])
    _settled_or_as_walked(path, text, why, monkeypatch)


def test_unread_in_is_kept_by_text_and_name(monkeypatch):
    """_unread_in is asked of the same file by each launcher that follows it (and of a launcher's text by its reading
    and by why_walked): the answer is kept by text and name, and it is the same."""
    from flake8_npuprof.engine import launch_scan
    asked = []
    of = launch_scan._unread_in_of
    monkeypatch.setattr(launch_scan, "_unread_in_of", lambda text, name: asked.append(name) or of(text, name))
    monkeypatch.setattr(launch_scan, "_unreads", {})
    text = "UP=../x\nexport UP=..\n"
    assert launch_scan._unread_in(text, "UP") and launch_scan._unread_in(text, "UP")
    assert not launch_scan._unread_in(text + "cd $UP\n", "UP")
    assert not launch_scan._unread_in(text + "eval x\n", "UP")
    assert asked == ["UP", "UP", "UP"]


# ---------------------------------------------------------------- a default held in a value, the values made from it
# (bert-squad's official/recommendation/run.sh), and readings of loop variables (GNMT's wmt16_en_de.sh)

HELD_ROOT = "an absolute path that is there (ELSE)"


@pytest.mark.parametrize("text, why", [
    # a default (`${B:-/tmp}`) that starts the value of an assignment, and each value made from that one, read only
    # as programs' arguments: no directory comes from any
    ('R="${B:-ELSE}/x"\npython3 ../train.py --data=$R\n', ""),
    ('B=${B:-""}\nR="${B:-ELSE}/m"\necho "Root: ${R}"\nif [[ -z ${B} ]]; then\n  L=${R}\nelse\n  L="ELSE/m"\n'
     '  mkdir -p ${L}\nfi\nT="${L}/t"\nmkdir -p ${T}\nfor i in `seq 0 1`;\ndo\n  M="${R}/model_${i}"\n'
     '  export C="${T}/run_${i}.log"\n  echo "  ${C}"\n  python3 ../train.py --model_dir ${M} \\\n'
     '    --data ${R}/d |& tee ${T}/log\n  rm -r ${M}\ndone\n', ""),
    ("R=${B:+ELSE}\nA=$R\nR=$A/x\npython3 ../train.py --d=$R\n", ""),       # (each made from the other)
    ('R=${B-"ELSE"}\nexport T=$R\npython3 ../train.py --d="$T"\n', ""),
    # read where it may become a directory, or set otherwise: an absolute path that is there
    ('R="${B:-ELSE}"\nT=$R\ncd $T\npython3 p.py\n', HELD_ROOT),
    ("R=${B:-ELSE}\nexport T=$R\nbash ./child.sh\npython3 ../train.py\n", HELD_ROOT),   # a child that cds there
    ("R=${B:-ELSE}\nT=$R bash ./child.sh\npython3 ../train.py\n", HELD_ROOT),          # (in its environment)
    ("R=${B:-ELSE}\nT=$R\nf() { cd $1; }\nf $T\npython3 p.py\n", HELD_ROOT),
    ("R=${B:-ELSE}\nT=$R\nbash ./child.sh $T\npython3 ../train.py\n", HELD_ROOT),
    ('R=${B:-ELSE}\nT=$R\neval "cd $T"\npython3 p.py\n', HELD_ROOT),
    ("R=${B:=ELSE}\ncd $B\npython3 p.py\n", HELD_ROOT),                   # (`:=` sets B too)
    ("R=${B:-ELSE}\nT=$(dirname $R)/else\ncd $T\npython3 p.py\n", HELD_ROOT),
    ("R=${B:-ELSE}\nfor d in $R; do cd $d; done\npython3 p.py\n", HELD_ROOT),
    ("R=${B:-ELSE}\nT=$R\n. ./env.sh\npython3 p.py\n", HELD_ROOT),              # a file it sources cds there
    ("R=${B:-ELSE}\nT=$R\ndeclare -n N=T\ncd $N\npython3 p.py\n", HELD_ROOT),
    ("R=${B:-ELSE}\nT=$R\nU=$T\nexport U\nbash ./child.sh\npython3 ../train.py\n", HELD_ROOT),
])
def test_a_default_held_in_values_read_only_as_arguments_is_no_directory(project, tmp_path, text, why, monkeypatch):
    """`ROOT_DIR="${BUCKET:-/tmp}/MLPerf_NCF"`, then `TEST_DIR="${ROOT_DIR}/${DATE}"`, `export COMPLIANCE_FILE=...`,
    each read only as a program's argument: what `DATA_DIR=/data` ... `--data_dir=${DATA_DIR}` is (on main the
    default was an absolute path wherever it stood, and a value read into another's was one a directory may come
    from). else/ holds p.py, with a setup."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (tmp_path / "else").mkdir()
    (tmp_path / "else" / "p.py").write_text(EXAMPLE_SCRIPT)
    (project / "test" / "child.sh").write_text("cd $T\ncd $U\npython3 p.py\n")
    (project / "test" / "env.sh").write_text("cd $T\n")
    text, why = text.replace("ELSE", str(tmp_path / "else")), why.replace("ELSE", str(tmp_path / "else"))
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and why_walked(text, str(path)) == why
    _settled_or_as_walked(path, text, why, monkeypatch)


@pytest.mark.parametrize("text, why", [
    # a cut from the end of a loop's variable over words that hold a value the walk does not know (the launcher's
    # own argument, `${1:-...}`): the walk's value of the cut is none, as of the variable
    ('O=${1:-"data/x"}\necho "set the O variable"\nfor f in ${O}/*.de; do\n  tr a b < $f > ${f%.*}.tok.de\ndone\n'
     'for f in ${O}/*.en ${O}/*.de; do\n  fbase=${f%%.*}\n  echo "${fbase}"\ndone\npython3 ../train.py\n', ""),
    # an extension of a loop's variable over words written out, none of which starts `py` or `sh`
    ('for m in 32000; do\n  echo "m=${m}"\n  for l in en de; do\n    cp a.${l} "b.bpe.${m}.$l"\n  done\ndone\n'
     'python3 ../train.py\n', ""),
    ("O=$1\nfor l in en de; do\n  for f in ${O}/*.tok.${l} $O/*.c.$l; do\n    o=\"${f%.*}.bpe.${l}\"\n"
     "    cp $f $o\n  done\ndone\npython3 ../train.py\n", ""),
    # the words may make a name: walked
    ("for f in t.pyz; do python3 ${f%z} --trace=False; done\n", "a computed name (${f%)"),
    ("O=../tools\nfor f in ${O}/t.pyz; do python3 ${f%z} --trace=False; done\n", "a computed name (${f%)"),
    ("O=$1\nO=../tools\nfor f in $O/t.pyz; do python3 ${f%z} --trace=False; done\n", "a computed name (${f%)"),
    ("O=$1\nfor f in ${O}/*.de ../tools/t.pyz; do python3 ${f%z} --trace=False; done\n", "a computed name (${f%)"),
    ("O=$1\nf=../tools/t.pyz\nfor f in $O/*.de; do :; done\npython3 ${f%z} --trace=False\n",
     "a computed name (${f%)"),
    ("O=$1\nfor f in $O/*.de; do :; done\nread f\npython3 ${f%z} --trace=False\n", "a computed name (${f%)"),
    ("for e in py; do python3 ../tools/t.${e} --trace=False; done\n", "a computed name (.$)"),
    ("for e in p; do python3 ../tools/t.${e}y --trace=False; done\n", "a computed name (.$)"),
    ("for e in en sh; do bash ./child.$e; done\n", "a computed name (.$)"),
    ("for e in en; do :; done\ne=\"p\"\"y\"\npython3 ../tools/t.$e --trace=False\n", "a computed name (.$)"),
    ("for e in en; do :; done\neval 'e=p\"\"y'\npython3 ../tools/t.${e} --trace=False\n", "a computed name (.$)"),
    ("for e in en; do :; done\nprintf -v e py\npython3 ../tools/t.${e} --trace=False\n", "a computed name (.$)"),
    ("for e in en; do python3 ../tools/t.${e:-py} --trace=False; done\n", "a computed name (.$)"),
    ("f() { e=\"p\"\"y\"; }\nfor e in en; do f; python3 ../tools/t.${e} --trace=False; done\n", "a computed name (.$)"),
    ("for e in en; do . ./env.sh; python3 ../tools/t.${e} --trace=False; done\n", "a computed name (.$)"),
    ("for e in en; do :; done\nn=e\ndeclare -n r=$n\nr=\"p\"\"y\"\npython3 ../tools/t.${e} --trace=False\n",
     "a computed name (.$)"),
    ("for e in '' en; do cd ..${e}; python3 tools/t.py --trace=False; done\n", "a computed name (.$)"),
])
def test_a_loop_variable_s_cut_or_extension_that_makes_no_name_is_no_computed_one(project, text, why, monkeypatch):
    """(GNMT's wmt16_en_de.sh) `${f%.*}` of `for f in ${OUTPUT_DIR}/*.de` where OUTPUT_DIR is `${1:-...}`: check's walk
    knows no argument of the launcher, so neither f nor its cut; `bpe.${merge_ops}` of `for merge_ops in 32000`,
    `.${lang}` of `for lang in en de`: `.32000`, `.en`, `.de`, no `.py` nor `.sh` (bash gives a loop over words written
    out each of them: test_bash_gives_the_readings_of_defaults_and_loops). Where anything else may set the variable or
    the words may make a name, it stays a computed name. tools/t.py takes --trace=False; test/t.py does too."""
    from flake8_npuprof.engine.launch_scan import why_walked
    (project / "tools" / "t.py").write_text(TRACED)
    (project / "test" / "t.py").write_text(TRACED)
    (project / "test" / "child.sh").write_text("python3 ../tools/t.py --trace=False\n")
    (project / "test" / "env.sh").write_text("e=py\n")
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and why_walked(text, str(path)) == why
    _settled_or_as_walked(path, text, why, monkeypatch)


def test_bash_gives_the_readings_of_defaults_and_loops(tmp_path):
    """What the readings above take from bash 5.2, run: a default or an alternative in a value is that value's part and
    sets no variable (`${B:=x}` does), and a loop over words written out gives each word, the last one after it."""
    import shutil
    import subprocess
    bash = shutil.which("bash") or "/bin/bash"
    if not Path(bash).exists():
        pytest.skip("no bash on this machine")
    script = ('R="${B:-/x}/y"; S=${B+/z}; U=${B:+/u}; V=${B-"/v"}; echo "$R|$S|$U|$V|${B-unset}"\n'
              'T=${C:=/w}; echo "$T|$C"\nfor l in en de; do echo $l; done; echo $l\n'
              'for m in 32000; do echo x.$m; done\n')
    (tmp_path / "s.sh").write_text(script)
    out = subprocess.run([bash, str(tmp_path / "s.sh")], capture_output=True, text=True, timeout=20, env={})
    assert out.stdout == "/x/y|||/v|unset\n/w|/w\nen\nde\nde\nx.32000\n"


# lines of random launchers around defaults held in values and the values made from them ({root}: a folder outside
# the region, with a t.py that takes --trace=False and a long.sh whose walk stops at the bound)
HELD_FUZZ = ["R=${B:-{root}}", 'R="${B:-{root}}/x"', "R=${B:+{root}}", "R=${B:={root}}", "T=$R", 'T="${R}"',
             "export T=$R", "U=$T", "L=${U}/y", "cd $T", "cd $U", "cd $R", "cd $B", "python3 t.py --trace=False",
             "python3 ../t.py --d=$T", 'echo "in ${R} for $U"', "mkdir -p $L", "bash ./child.sh", "bash ./child.sh $U",
             "f() { cd $1; }", "f $T", 'eval "cd $U"', "T=$R bash ./child.sh", "R=$U", ". ./env.sh",
             "for d in $T; do cd $d; done", "T=$(dirname $R)", "declare -n N=T", "cd $N", "export U",
             "trap \"cd $T\" EXIT",
             "python3 ../t.py --m ${L} --d $U |& tee ${T}/log", "bash $T/long.sh", 'echo "cd $T" | bash']


def test_random_launchers_of_held_defaults_and_values_made_from_them_are_as_walked(project, tmp_path, count=150):
    """Random launchers of HELD_FUZZ's lines (test/child.sh cds to $T and $U and runs long.sh there, test/env.sh cds to
    $U; project/ holds a t.py without a setup): each one the scan settles starts no script that may hold a setup by
    its walk and has every walk's findings. (Run with 3,000 such launchers and seeds 1 to 5: none unsound.)"""
    import os
    import random
    root = tmp_path / "else"
    root.mkdir()
    (root / "t.py").write_text(TRACED)
    (root / "long.sh").write_text(LONG_CHILD * 4)
    (project / "t.py").write_text(PLAIN)
    (project / "test" / "child.sh").write_text("cd $T\ncd $U\nbash ./long.sh\n")
    (project / "test" / "env.sh").write_text("cd $U\n")
    lines = [line.replace("{root}", str(root)) for line in HELD_FUZZ]
    launches = [line for line in lines if line.startswith("python3")]     # (one ends each launcher)
    rnd = random.Random(int(os.environ.get("HELD_FUZZ_SEED", "67")))
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(int(os.environ.get("HELD_FUZZ_COUNT", count))):
        text = "\n".join(rnd.choice(lines) for _ in range(rnd.randint(1, 6))) + "\n" + rnd.choice(launches) + "\n"
        path.write_text(text)
        settled += _settled_soundly(path, text)
    assert settled >= 15


# lines of random launchers around cuts and extensions of loop variables (tools/t.py and test/t.py take --trace=False)
LOOP_FUZZ = ['O=${1:-"d"}', "O=$1", "O=../tools", "O=.", 'echo "set O and f"', "for f in ${O}/*.de; do", "done",
             "for f in t.pyz; do", "for f in $O/t.pyz; do", "for f in ${O}/*.de ../tools/t.pyz; do",
             "for e in en de; do",
             "for e in py; do", "for e in p; do", "for e in sh en; do", "python3 ${f%z} --trace=False",
             "python3 ${f%%z} --trace=False", "x=${f%.*}.bpe.${e}", "python3 $x --trace=False",
             "python3 ../tools/t.${e} --trace=False", "python3 t.${e}y --trace=False", "bash ./child.$e",
             'f="../tools/t.py""z"', 'e="p""y"', "read e", "read f", 'eval "e=p""y"', "cp a.${e} b.${e}",
             "tr a b < $f > ${f%.*}.tok.$e", "cd ../tools", "cd ${f%/*}", "python3 t.py --trace=False", ". ./env.sh",
             "echo \"e=${e}\"", "g() { e=p\"\"y; }", "g", "set -- ../tools/t.pyz", "python3 ${1%z} --trace=False"]


def test_random_launchers_of_loop_cuts_and_extensions_are_as_walked(project, count=150):
    """Random launchers of LOOP_FUZZ's lines (test/env.sh sets e and f; test/child.sh and child.py start tools/t.py):
    each one the scan settles starts no script that may hold a setup by its walk and has every walk's findings. (Run
    with 3,000 such launchers and seeds 1 to 5: none unsound.)"""
    import os
    import random
    (project / "tools" / "t.py").write_text(TRACED)
    (project / "test" / "t.py").write_text(TRACED)
    (project / "test" / "child.sh").write_text("python3 ../tools/t.py --trace=False\n")
    (project / "test" / "env.sh").write_text('e="p""y"\nf="t.py""z"\n')
    rnd = random.Random(int(os.environ.get("LOOP_FUZZ_SEED", "67")))
    path = project / "test" / "run.sh"
    settled = 0
    for _ in range(int(os.environ.get("LOOP_FUZZ_COUNT", count))):
        text = "\n".join(rnd.choice(LOOP_FUZZ) for _ in range(rnd.randint(1, 6))) + "\n"
        path.write_text(text)
        settled += _settled_soundly(path, text)
    assert settled >= 15


def test_a_file_read_after_it_was_looked_at_is_not_looked_at_again(tmp_path, monkeypatch):
    """The prefilter of a script a launcher may start notes it (observed.note) and then reads it, which notes it again
    (files._open_fd: observed.reading): where the recording holds it already, what it keeps is the first look, and the
    second is not made; a recording at its bound still says it is incomplete, and a file seen only for a word
    (stat_note) is looked at again when read."""
    from flake8_npuprof.checks import shell_scan
    from flake8_npuprof.source import observed
    script = tmp_path / "train.py"
    script.write_text("print(1)\n")
    looks: list = []
    real = observed.signature
    monkeypatch.setattr(observed, "signature", lambda path: (looks.append(path), real(path))[1])
    monkeypatch.setattr(shell_scan, "_passes", {})
    with observed.recording() as rec:
        assert not shell_scan.may_have_setups(str(script))
    assert looks == [str(script)]
    assert rec.paths == {str(script): real(str(script))} and rec.complete
    with observed.recording() as rec:
        observed.stat_note(str(script), os.stat(script))
        observed.reading(str(script))
    assert rec.paths == {str(script): real(str(script))}
    monkeypatch.setattr(observed, "MAX_PATHS", 1)
    with observed.recording() as rec:
        observed.note(str(script))
        assert rec.complete
        observed.reading(str(script))
    assert not rec.complete and rec.paths == {str(script): real(str(script))}


def test_a_place_near_a_texts_start_lexes_it_only_that_far():
    """_sets_none and _whole_word read the commands of the whole text (the walk's lexer from its start) only up to
    the first that starts after the place asked of: the commands come in order, so the answer is the whole lexing's;
    another question, further on, lexes on from there."""
    from flake8_npuprof.engine import launch_scan
    text = 'echo "set the OUTPUT_DIR variable"\nOUTPUT_DIR=x\n' + "".join(f'echo "{k}"\n' for k in range(500))
    at = text.index("OUTPUT_DIR")
    launch_scan._whole.clear()
    assert launch_scan._sets_none(text, at, set())
    assert len(launch_scan._whole[text].done) <= 2
    far = text.index('"499"')
    assert launch_scan._whole_word(text, far) == (far, far + 5)
    assert len(launch_scan._whole[text].done) == 502
    assert launch_scan._whole_word(text, len(text) - 1) is None and launch_scan._sets_none(text, len(text) - 1, set())
    assert [c[0] for c in launch_scan._whole[text]] == [c[0] for c in launch_scan._shell("parse").lexed_commands(text)]


def test_a_loop_variable_asks_of_each_variable_its_words_read_once(monkeypatch):
    """_unknown_loop asks _unknown_value of each variable its loops' words read once (GNMT's wmt16_en_de.sh reads
    ${OUTPUT_DIR} in five loops), and answers as before: the walk knows no value of f, each word's OUTPUT_DIR is the
    launcher's own argument."""
    from flake8_npuprof.engine import launch_scan
    asked: list = []
    real = launch_scan._unknown_value
    monkeypatch.setattr(launch_scan, "_unknown_value", lambda name, text: asked.append(name) or real(name, text))
    text = 'OUTPUT_DIR=${1:-"data/x"}\n' + "".join(f"for f in ${{OUTPUT_DIR}}/*.{e}; do\n  echo $f\ndone\n"
                                                   for e in ("de", "en", "tok.de", "tok.en", "clean"))
    assert launch_scan._unknown_loop("f", text)
    assert asked == ["OUTPUT_DIR"]
    assert not launch_scan._unknown_loop("f", text.replace("${1:-", "${X:-"))
