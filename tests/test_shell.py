"""Shell launchers: exported PROFILING_* variables with shell quoting understood."""

from pathlib import Path

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.source.files import DEFAULT_OFF
from flake8_npuprof.checks.shell_env import analyse_shell
from flake8_npuprof.shell.words import assignments

DATA = Path(__file__).resolve().parent / "data"


def test_launcher_findings_and_positions():
    text = (DATA / "launcher_mistakes.sh").read_text(encoding="utf-8")
    got = [(f.line, f.col + 1, f.code) for f in analyse_shell(text) if f.code not in DEFAULT_OFF]
    # no NPP104 for the training trace on line 6: "ON" (line 7) fails GE initialisation first
    assert got == [(4, 23, "NPP011"), (7, 41, "NPP102"), (11, 94, "NPP101"), (12, 26, "NPP100")]
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
    # an explicit off switch beside parked options is deliberate (RULES: not NPP001)
    off = analyse_shell("export PROFILING_MODE=false\nexport PROFILING_OPTIONS='{\"output\":\"/p\",\"task_trace\":\"on\"}'\n")
    assert off == []
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


OPTIONS_LINE = "export PROFILING_OPTIONS='{\"output\":\"/p\",\"task_trace\":\"on\"}'\n"


@pytest.mark.parametrize("mode", ["false  # true if need profiling", "FALSE", "0", "off", '""'])
def test_deliberate_off_switch_is_neither_npp001_nor_npp011(mode):
    assert analyse_shell(f"export PROFILING_MODE={mode}\n" + OPTIONS_LINE) == []


@pytest.mark.parametrize("mode", ["True", "TRUE", "1", "on", "yes"])
def test_mode_meant_on_but_not_exactly_true_is_npp011(mode):
    found = analyse_shell(f"export PROFILING_MODE={mode}\n" + OPTIONS_LINE)
    assert [f.code for f in found] == ["NPP011"]
    assert 'set it to "true"' in found[0].message


def test_options_behind_an_off_switch_are_latent_not_aborting():
    text = ("export PROFILING_MODE=false  # true if need profiling\n"
            "export PROFILING_OPTIONS='{\"output\":\"/p\",\"training_trace\":\"off\"}'\n")
    (f,) = analyse_shell(text)
    assert f.code == "NPP103"
    assert f.message.startswith("latent (profiling is switched off here)")
    assert "the job aborts" not in f.message and "will fail" in f.message
    # switched on, the same options abort
    (g,) = analyse_shell(text.replace("=false", "=true"))
    assert "GE initialisation fails and the job aborts" in g.message and "latent" not in g.message


@pytest.mark.parametrize("text", [
    "export PROFILING_MODE={PROFILING_MODE}\n" + OPTIONS_LINE,
    "export PROFILING_MODE=@PROFILING_MODE@\n" + OPTIONS_LINE,
    'export PROFILING_MODE=true\nexport PROFILING_OPTIONS="{task_trace_flag}"\n',
    "export PROFILING_MODE=true\nexport PROFILING_OPTIONS='{\"output\":\"${OUT}\",\"task_trace\":\"{flag}\"}'\n",
    "export PROFILING_MODE=true\nexport PROFILING_OPTIONS='{\"output\":\"@OUT@\",\"task_trace\":\"on\"}'\n",
])
def test_template_placeholders_are_not_judged_as_values(text):
    assert analyse_shell(text) == []


def test_mode_true_without_any_options_is_npp002():
    (f,) = analyse_shell("export PROFILING_MODE=true\npython train.py\n")
    assert (f.code, f.line, f.col) == ("NPP002", 1, 7)
    assert "default options" in f.message
    # options given by the launcher, or mentioned for the environment: not claimed
    assert analyse_shell("export PROFILING_MODE=true\n" + OPTIONS_LINE) == []
    assert analyse_shell("export PROFILING_MODE=true\necho $PROFILING_OPTIONS\n") == []


def test_mode_set_differently_in_branches_is_neither_on_nor_off():
    text = ('if [ "$PROF" = 1 ]; then\n    export PROFILING_MODE=true\nelse\n    export PROFILING_MODE=false\nfi\n'
            "export PROFILING_OPTIONS='{\"output\":\"/p\",\"training_trace\":\"off\"}'\n")
    (f,) = analyse_shell(text)
    assert f.code == "NPP103" and not f.message.startswith("latent")
    from flake8_npuprof.setups.inventory import shell_setups
    assert shell_setups(text, assignments(text))[0].mode.state == "unknown"
