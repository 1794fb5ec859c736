"""Shell launchers: exported PROFILING_* variables with shell quoting understood."""

from pathlib import Path

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.plugin import DEFAULT_OFF
from flake8_npuprof.shell import analyse_shell, assignments

DATA = Path(__file__).resolve().parent / "data"


def test_launcher_findings_and_positions():
    text = (DATA / "launcher_mistakes.sh").read_text(encoding="utf-8")
    got = [(f.line, f.col + 1, f.code) for f in analyse_shell(text) if f.code not in DEFAULT_OFF]
    assert got == [(4, 23, "NPP011"), (6, 28, "NPP104"), (7, 41, "NPP102"), (11, 94, "NPP101"),
                   (12, 26, "NPP100")]
    lines = text.splitlines()
    assert lines[6][40:44] == '"ON"'
    assert lines[10][93:95] == '\\"' and lines[10][95:100] == "Aicpu"


@pytest.mark.parametrize("line,value", [
    ("export PROFILING_OPTIONS='{\"a\":\"b c\"}'", '{"a":"b c"}'),
    ('PROFILING_OPTIONS="{\\"a\\":\\"$X/p\\"}" python x.py', '{"a":"\ue000/p"}'),
    ("PROFILING_OPTIONS={\\\"a\\\":1}", '{"a":1}'),
    ('export PROFILING_MODE="tr"ue', "true"),
    ('echo "PROFILING_MODE=True"', None),
    ("# export PROFILING_MODE=True", None),
])
def test_quoting(line, value):
    found = assignments(line + "\n")
    assert (found[0].value.text if found else None) == value


def test_mode_off_and_empty_options():
    off = analyse_shell("export PROFILING_MODE=false\nexport PROFILING_OPTIONS='{\"output\":\"/p\",\"task_trace\":\"on\"}'\n")
    assert [f.code for f in off] == ["NPP001"]
    assert [f.code for f in analyse_shell("export PROFILING_OPTIONS='{\"output\":\"/home/bob/p\"}'\n")] == ["NPP203"]
    empty = analyse_shell("export PROFILING_MODE=true\nexport PROFILING_OPTIONS=\n")
    assert [f.code for f in empty] == ["NPP002"]
    assert analyse_shell("export PROFILING_MODE=true\nexport PROFILING_OPTIONS='{\"output\":\"/p\",\"task_trace\":\"on\"}'\n") == []


def test_cli_finds_launchers_by_suffix_and_shebang(tmp_path, capsys):
    (tmp_path / "run.sh").write_text("export PROFILING_MODE=1\n")
    (tmp_path / "launch").write_text("#!/usr/bin/env bash\nexport PROFILING_MODE=True\n")
    (tmp_path / "notes").write_text("export PROFILING_MODE=True\n")
    code = main(["check", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1
    assert sorted(line.split(":")[0].rsplit("/", 1)[-1] for line in out.splitlines()) == ["launch", "run.sh"]
