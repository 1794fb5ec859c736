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
