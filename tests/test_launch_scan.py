"""The cheap scan before a launcher's walk (checks/shell_scan.py), and the prefilter that spares the analysis of a
script that cannot hold a setup (shell_launches._may_have_setups): neither loses a finding."""

from __future__ import annotations

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
    "echo ok;" * MAX_COMMANDS,
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
    from flake8_npuprof.checks import shell_launches
    (tmp_path / "train.py").write_text("import sys\nprint(sys.argv)\n")
    (tmp_path / "run.sh").write_text("python3 train.py --epochs=1\n")
    analysed = []
    real = shell_launches.prepare
    monkeypatch.setattr(shell_launches, "prepare", lambda la, *a: analysed.append(la.script) or real(la, *a))
    assert check_file("python3 train.py --epochs=1\n", str(tmp_path / "run.sh"), Settings()) == []
    assert analysed == []


def _walks(monkeypatch):
    from flake8_npuprof.shell.walk import Walk
    made = []
    run = Walk.run
    monkeypatch.setattr(Walk, "run", lambda self, text=None: made.append(self.args) or run(self, text))
    return made


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
    "cd ..\nscript=train.py\npython3 $script --x=1\npython3 tools/eval.py\n",
    "#!/bin/bash\n# python3 ../train.py is the training\nnohup python3 ../train.py &\n",
])
def test_a_launcher_whose_scripts_hold_no_setup_is_not_walked(project, text, monkeypatch):
    from flake8_npuprof.engine.launch_scan import starts_no_profiled_script
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert needs_walk(text) and starts_no_profiled_script(text, str(path))
    made = _walks(monkeypatch)
    fast = bench._check(str(path), text)
    assert made == []
    with bench.every_walk():
        assert bench._check(str(path), text) == fast
    # the same launcher walked once a script of that name in its reach may hold a setup
    (project / "tools" / "train.py").write_text(EXAMPLE_SCRIPT)
    assert not starts_no_profiled_script(text, str(path))


@pytest.mark.parametrize("text", [
    "python3 /opt/models/train.py\n",                  # an absolute path: outside what the listing covers
    "cd ~/work\npython3 train.py\n",
    "python3 ${name}.py\n",                             # the script's name is computed
    "bash ../train.sh\npython3 ../train.py\n",          # another script runs: walked (emulate/scan.py)
    "python3 ../missing/train.py\n",                    # named with its folder, and not there
    "cd ../../../../..\npython3 train.py\n",            # more levels up than MAX_LEVELS
    "export PROFILING_MODE=true\npython3 ../train.py\n",
])
def test_a_launcher_the_scripts_scan_cannot_settle_is_walked(project, text):
    from flake8_npuprof.engine.launch_scan import starts_no_profiled_script
    path = project / "test" / "run.sh"
    path.write_text(text)
    assert not starts_no_profiled_script(text, str(path))


def test_the_listing_of_a_region_is_made_again_when_a_folder_changes(project):
    from flake8_npuprof.engine.launch_scan import starts_no_profiled_script
    path = project / "test" / "run.sh"
    text = "python3 ../train.py\n"
    path.write_text(text)
    assert starts_no_profiled_script(text, str(path))
    (project / "test" / "deep").mkdir()
    (project / "test" / "deep" / "train.py").write_text(EXAMPLE_SCRIPT)
    assert not starts_no_profiled_script(text, str(path))
