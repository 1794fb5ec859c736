"""Daily use at Ruff's level (issue 28, item 6): fix has check's flags and totals, check --fix, --show-fixes,
--exit-non-zero-on-fix, --show-settings, --show-files, --force-exclude, colour, unused noqa comments,
subcommand usage, --graph implying the preflight checks, did-you-mean, explain by name, and the exit codes
docs/ci.md gives for every command."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_npuprof.cli import main

SCRIPT = '''import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = b'{OPTIONS}'
sess = tf.Session(config=config)
'''
FIXABLE = SCRIPT.replace("{OPTIONS}", '{"output":"/tmp/p","L2":"on"}')                  # NPP101, a safe fix
FIXED = FIXABLE.replace('"L2"', '"l2"')
UNFIXABLE = SCRIPT.replace("{OPTIONS}", '{"output":"/tmp/p","storage_limit":"lots"}')   # NPP107, no fix
CLEAN = SCRIPT.replace("{OPTIONS}", '{"output":"/tmp/p","task_trace":"on"}')
DATA = Path(__file__).resolve().parent / "data"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    return tmp_path


# ---------------------------------------------------------------- fix has what check has, and totals

def test_fix_prints_a_total_and_what_remains(project, capsys):
    (project / "a.py").write_text(FIXABLE)
    (project / "b.py").write_text(UNFIXABLE)
    code, out, err = run(capsys, "fix", "a.py", "b.py")
    assert code == 1 and (project / "a.py").read_text() == FIXED
    assert out.startswith("b.py:6:") and " NPP107 " in out and out.count("\n") == 1
    assert err == "Found 2 findings (1 fixed, 1 remaining).\n"


def test_fix_quiet_exit_zero_format_and_output_file(project, capsys):
    (project / "b.py").write_text(UNFIXABLE)
    assert run(capsys, "fix", "-q", "b.py")[2] == ""                       # the findings only
    assert run(capsys, "fix", "--exit-zero", "b.py")[0] == 0
    code, out, _ = run(capsys, "fix", "--format", "json", "b.py")
    assert code == 1 and [row["code"] for row in json.loads(out)] == ["NPP107"]
    code, out, _ = run(capsys, "fix", "--format", "sarif", "-o", "fix.sarif", "b.py")
    assert out == "" and json.loads((project / "fix.sarif").read_text())["runs"][0]["results"][0]["ruleId"] == "NPP107"


def test_check_fix_fixes_then_reports_what_remains(project, capsys):
    (project / "a.py").write_text(FIXABLE)
    (project / "b.py").write_text(UNFIXABLE)
    code, out, err = run(capsys, "check", "--fix", "--format", "json", ".")
    assert code == 1 and (project / "a.py").read_text() == FIXED
    assert [(row["filename"], row["code"]) for row in json.loads(out)] == [("b.py", "NPP107")]
    (project / "b.py").write_text(CLEAN)
    assert run(capsys, "check", "--fix", ".") == (0, "", "All checks passed!\n")


def test_show_fixes_and_exit_non_zero_on_fix(project, capsys):
    (project / "a.py").write_text(FIXABLE)
    code, _, err = run(capsys, "check", "--show-fixes", "a.py")
    assert code == 1 and err.endswith("Would fix 1 finding:\n- a.py:\n    1 \u00d7 NPP101 (unknown-options-key)\n")
    code, _, err = run(capsys, "check", "--fix", "--show-fixes", "--exit-non-zero-on-fix", "a.py")
    assert code == 1 and err == ("Found 1 finding (1 fixed, 0 remaining).\n"
                                 "Fixed 1 finding:\n- a.py:\n    1 \u00d7 NPP101 (unknown-options-key)\n")
    assert run(capsys, "fix", "--exit-non-zero-on-fix", "a.py")[0] == 0     # nothing left to fix


# ---------------------------------------------------------------- what a run would use and read

def test_show_settings_names_the_configuration_and_where_each_value_comes_from(project, capsys):
    (project / "setup.cfg").write_text("[flake8]\nnpuprof-cann = 8.0\nextend-ignore = NPP203\n")
    code, out, _ = run(capsys, "check", "--show-settings", "--soc", "910B", "-j", "3")
    lines = out.splitlines()
    assert code == 0 and lines[0] == f"configuration: {project / 'setup.cfg'} [flake8]"
    assert "cann: 8.0 (" + str(project / "setup.cfg") + ": npuprof-cann)" in lines
    assert "soc: 910B (command line)" in lines and "extend-ignore: NPP203" in lines and "jobs: 3" in lines
    assert f"cache: {os.environ['NPUPROF_CACHE_DIR']}" in lines


def test_show_files_and_force_exclude(project, capsys):
    for name in ("train.py", "legacy/old.py", "build/gen.py", "run.sh", "notes.txt"):
        (project / name).parent.mkdir(exist_ok=True)
        (project / name).write_text(FIXABLE if name.endswith(".py") else "#!/bin/sh\n")
    (project / "pyproject.toml").write_text('[tool.npuprof]\nextend-exclude = ["legacy"]\n')
    assert run(capsys, "check", "--show-files")[1] == "run.sh\ntrain.py\n"
    # a file named on the command line is checked (an editor asks for it) unless --force-exclude (pre-commit)
    assert run(capsys, "check", "--show-files", "legacy/old.py", "build/gen.py", "train.py")[1] == \
        "legacy/old.py\nbuild/gen.py\ntrain.py\n"
    assert run(capsys, "check", "--show-files", "--force-exclude", "legacy/old.py", "build/gen.py", "train.py")[1] == \
        "train.py\n"
    code, out, err = run(capsys, "check", "--force-exclude", "legacy/old.py")
    assert (code, out, err) == (0, "", "")


# ---------------------------------------------------------------- colour

def test_colour_on_a_terminal_only_and_never_with_no_color(project, capsys, monkeypatch):
    (project / "a.py").write_text(FIXABLE)
    assert "\x1b[" not in run(capsys, "check", "a.py")[1]           # a pipe: no colour
    monkeypatch.setenv("FORCE_COLOR", "1")
    out = run(capsys, "check", "a.py")[1]
    assert out.startswith("\x1b[1ma.py\x1b[0m\x1b[36m:\x1b[0m6\x1b[36m:\x1b[0m") and "\x1b[1m\x1b[31mNPP101\x1b[0m" in out
    assert "\x1b[" not in run(capsys, "check", "a.py", "-o", "report.txt")[1] + (project / "report.txt").read_text()
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in run(capsys, "check", "a.py")[1]


# ---------------------------------------------------------------- unused noqa comments (NPP206, off by default)

def test_an_unused_noqa_is_found_when_asked_for_and_removed_by_an_unsafe_fix(project, capsys):
    text = CLEAN.replace("sess = tf.Session(config=config)", "sess = tf.Session(config=config)  # noqa: NPP101, E501")
    (project / "a.py").write_text(text)
    assert run(capsys, "check", "a.py")[0] == 0
    code, out, _ = run(capsys, "check", "--extend-select", "NPP206", "--verbose", "a.py")
    assert code == 1 and out == ("a.py:7:43: NPP206 `# noqa: NPP101` silences nothing: no NPP101 finding on this line "
                                 "for the target (fixable: npuprof fix --unsafe-fixes)\n"
                                 "    `# noqa: NPP101` silences nothing: no NPP101 finding on this line for the target "
                                 "(any CANN version, any product)\n"
                                 "    remove it, or check with the target that needs it\n")
    assert run(capsys, "fix", "--extend-select", "NPP206", "--unsafe-fixes", "a.py")[0] == 0
    assert (project / "a.py").read_text().splitlines()[6] == "sess = tf.Session(config=config)  # noqa: E501"
    # a comment that is used is not reported
    (project / "b.py").write_text(FIXABLE.replace("}'", "}'  # noqa: NPP101"))
    assert run(capsys, "check", "--extend-select", "NPP206", "b.py")[:2] == (0, "")


def test_unused_noqa_in_flake8_and_in_a_file_without_profiling(project):
    (project / "plain.py").write_text("x = 1  # noqa: NPP101\n")
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", "--extend-select", "NPP206",
                           "plain.py"], capture_output=True, text=True)
    assert proc.stdout.startswith("plain.py:1:16: NPP206 `# noqa: NPP101` silences nothing")
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", "plain.py"],
                          capture_output=True, text=True)
    assert proc.stdout == ""                                     # off by default


# ---------------------------------------------------------------- usage, --graph, names

def test_a_bad_subcommand_flag_says_so_in_one_line_with_a_did_you_mean(capsys):
    for command in ("check", "fix", "validate", "emulate", "explain"):
        assert main([command, "--no-such-flag", *(["x.py"] if command == "emulate" else [])]) == 2
        assert capsys.readouterr().err == (f"npuprof {command}: error: unrecognized arguments: --no-such-flag\n"
                                           f"`npuprof {command} --help` lists what it takes\n")
    assert main(["check", "--selct", "NPP101", "."]) == 2
    assert capsys.readouterr().err.startswith(
        "npuprof check: error: unrecognized arguments: --selct (did you mean --select?)\n")
    assert main(["fix", "--unsafe-fixs=1", "."]) == 2
    assert "unrecognized arguments: --unsafe-fixs=1 (did you mean --unsafe-fixes?)" in capsys.readouterr().err
    assert main(["chek", "."]) == 2
    assert capsys.readouterr().err.startswith("npuprof: error: unknown command 'chek' (did you mean check?)\n")


def test_a_launchers_arguments_typed_after_its_path_are_retyped_after_the_dashes(capsys):
    # `npuprof emulate train_full_1p.sh --profiling=True`, as typed at the launcher: argparse cannot tell the
    # launcher's words from emulate's, so the error gives the command that works; emulate's own options stay before
    assert main(["emulate", "test/train_full_1p.sh", "--profiling=True"]) == 2
    assert capsys.readouterr().err == (
        "npuprof emulate: error: unrecognized arguments: --profiling=True; a launcher's or script's own arguments go "
        "after `--`: npuprof emulate test/train_full_1p.sh -- --profiling=True\n"
        "`npuprof emulate --help` lists what it takes\n")
    assert main(["emulate", "train.sh", "--profiling", "True", "--cann", "8.0", "--data_path=/d d", "--env"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        "npuprof emulate: error: unrecognized arguments: --profiling True --data_path=/d d; a launcher's or script's "
        "own arguments go after `--`: npuprof emulate train.sh --cann 8.0 --env -- --profiling True '--data_path=/d d'")
    # alone, a word with a space is what argparse takes for a PATH (before: the launcher emulated without its
    # arguments, "usable data: yes (where its conditions hold)", then "--data_path=/d d: cannot read")
    assert main(["emulate", "train.sh", "--data_path=/d d"]) == 2
    assert capsys.readouterr() == ("", (
        "npuprof emulate: error: unrecognized arguments: --data_path=/d d; a launcher's or script's own arguments go "
        "after `--`: npuprof emulate train.sh -- '--data_path=/d d'\n`npuprof emulate --help` lists what it takes\n"))
    assert main(["emulate", "train.sh", "--cnn=8.0"]) == 2          # a typo of emulate's own flag keeps its guess
    assert capsys.readouterr().err.splitlines()[0] == (
        "npuprof emulate: error: unrecognized arguments: --cnn=8.0 (did you mean --cann?); a launcher's or script's "
        "own arguments go after `--`: npuprof emulate train.sh -- --cnn=8.0")


@pytest.mark.parametrize("argv", [["check", "--cann", "9.9", "."], ["validate", "--cann", "9.9", "{}"],
                                  ["emulate", "--cann", "9.9", "x.py"]])
def test_a_bad_cann_lists_every_accepted_value(project, capsys, argv):
    (project / "x.py").write_text("x = 1\n")
    assert main(argv) == 2
    assert "unknown CANN target '9.9': use any, portable, auto (this machine's toolkit), or one of 7.0, 8.0, 8.5, " \
        "9.0, 9.1 (8.1-8.3 share the 8.0 collector)" in capsys.readouterr().err
    proc = subprocess.run([sys.executable, "-m", "flake8", "--npuprof-cann", "9.9", "x.py"], capture_output=True,
                          text=True)
    assert proc.returncode != 0 and "use any, portable, auto (this machine's toolkit), or one of 7.0" in proc.stderr
    assert main(["check", "--soc", "999", "."]) == 2
    assert "unknown product '999': use any, auto (this machine's chip), or one of 310, 910, 310P, 910B, 910C, " \
        "310B, 950" in capsys.readouterr().err


def test_graph_implies_the_preflight_checks(project, capsys):
    graph = DATA / "emulate" / "graph.pbtxt"
    (project / "a.py").write_text(SCRIPT.replace(
        "{OPTIONS}", '{"output":"/tmp/p","training_trace":"on","task_trace":"on","fp_point":"no_such_op","bp_point":""}'))
    assert run(capsys, "check", "a.py")[0] == 0
    code, out, _ = run(capsys, "check", "--graph", str(graph), "a.py")
    assert code == 1 and " NPP903 " in out
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", "--npuprof-graph",
                           str(graph), "a.py"], capture_output=True, text=True)
    assert " NPP903 " in proc.stdout


def test_explain_by_name_and_did_you_mean(capsys):
    code, out, _ = run(capsys, "explain", "unknown-options-key")
    assert code == 0 and out.startswith("# NPP101 unknown-options-key\n")
    assert run(capsys, "explain", "NPP101")[1] == out
    code, _, err = run(capsys, "explain", "unknown-option-key")
    assert code == 2 and "unknown rule 'unknown-option-key' (did you mean unknown-options-key?)" in err


def test_a_misspelt_configuration_key_gets_a_did_you_mean(project, capsys):
    (project / "setup.cfg").write_text("[flake8]\nnpuprof-can = 8.0\n")
    code, _, err = run(capsys, "check")
    assert code == 2 and "setup.cfg: unknown [flake8] setting(s): npuprof-can (did you mean npuprof-cann?)" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_plugin_warns_once_about_a_misspelt_setting_and_an_unusable_graph(project, jobs):
    (project / "a.py").write_text(FIXABLE)
    (project / "b.py").write_text("x = 1\n")
    (project / "setup.cfg").write_text("[flake8]\nnpuprof-can = 8.0\nnpuprof_preflite = true\n"
                                       "npuprof-graph = missing.pbtxt\n")
    proc = subprocess.run([sys.executable, "-m", "flake8", "--select", "NPP", "-j", jobs, "a.py", "b.py"],
                          capture_output=True, text=True)
    assert proc.stderr.splitlines() == [
        "flake8-npuprof: warning: unknown [flake8] setting(s): npuprof-can (did you mean npuprof-cann?), "
        "npuprof-preflite (did you mean npuprof-preflight?); flake8 ignores them",
        "flake8-npuprof: warning: npuprof-graph missing.pbtxt: cannot read: No such file or directory; "
        "NPP903 is not checked"]
    assert "NPP101" in proc.stdout


def test_flake8_says_that_ignore_n_also_ignores_npp(project):
    (project / "a.py").write_text(FIXABLE)
    (project / "setup.cfg").write_text("[flake8]\nextend-ignore = E203,N\n")
    proc = subprocess.run([sys.executable, "-m", "flake8", "a.py"], capture_output=True, text=True)
    assert proc.stdout == "" and "flake8-npuprof: warning: extend-ignore = N also ignores every NPP code" in proc.stderr


# ---------------------------------------------------------------- exit codes, as docs/ci.md gives them

@pytest.mark.parametrize("argv,where", [
    (["check", "a.py"], "flake8_npuprof.checks.analysis.Context"),
    (["fix", "a.py"], "flake8_npuprof.checks.analysis.Context"),
    (["validate", '{"output": "/tmp/p"}'], "flake8_npuprof.commands.validate.check_options"),
    (["validate", "--env"], "flake8_npuprof.commands.validate.env_findings"),
    (["explain", "NPP101"], "flake8_npuprof.checks.catalog.render"),
    (["emulate", "a.py"], "flake8_npuprof.emulate.script.emulate_path"),
])
def test_an_internal_error_is_exit_2_for_every_command(project, capsys, monkeypatch, argv, where):
    (project / "a.py").write_text(FIXABLE)
    monkeypatch.setenv("PROFILING_MODE", "true")

    def boom(*args, **kwargs):
        raise RuntimeError("boom")
    monkeypatch.setattr(where, boom)
    code, out, err = run(capsys, *argv)
    # check and fix report it as the file's NPP000 finding (the other files are still checked)
    said = out if argv[0] in ("check", "fix") else err
    assert code == 2 and "internal error" in said and "boom" in said, (out, err)


def test_exit_codes_of_validate_and_explain(capsys):
    assert run(capsys, "validate", '{"output": "/tmp/p", "task_trace": "on"}')[0] == 0
    assert run(capsys, "validate", '{"output": "/tmp/p", "task_trace": "ON"}')[0] == 1
    assert run(capsys, "validate")[0] == 2
    assert run(capsys, "explain", "NPP999")[0] == 2


def _watch_stream(monkeypatch, module, name, on_read, on_item):
    """Call on_read(path) when a file is read, and on_item() when module.name hands an input on."""
    from flake8_npuprof.commands import inputs
    real_read, real_items = inputs.read_input, getattr(module, name)
    monkeypatch.setattr(inputs, "read_input", lambda args, path: on_read(path) or real_read(args, path))

    def watched(*a, **k):
        for pair in real_items(*a, **k):
            on_item()
            yield pair
    monkeypatch.setattr(module, name, watched)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_check_reads_each_file_when_its_turn_comes_and_reports_the_same(project, capsys, monkeypatch, jobs):
    """check reads a file when its turn comes and holds a bounded window of them (the model zoo's 13,581
    files were all read, and their texts kept, before any was checked). A window of two gives the same
    report, byte for byte, as the default one, and never reads more than two files ahead of what it hands on."""
    from flake8_npuprof.commands import batch, check
    for k in range(5):
        (project / f"s{k}.py").write_text(FIXABLE if k % 2 else CLEAN)
    (project / "bad.py").write_bytes(b"\xff\xfe not utf-8 \x00")
    argv = ["check", "--no-cache", "-j", jobs, "."]
    whole = run(capsys, *argv)
    reads, handed = [], []              # handed: files read when each one is handed on
    monkeypatch.setattr(batch, "WINDOW", 2)
    _watch_stream(monkeypatch, check, "check_items", reads.append, lambda: handed.append(len(reads)))
    assert run(capsys, *argv) == whole
    assert whole[0] == 1 and "bad.py:1:1: NPP192 " in whole[1]      # Python cannot decode it: a finding
    assert len(reads) == len(handed) == 6
    assert all(k <= read <= k + 2 for k, read in enumerate(handed, start=1))
    if jobs == "1":
        assert handed == [1, 2, 3, 4, 5, 6]             # one process: each file is done before the next is read


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fix_reads_each_file_when_its_turn_comes_and_fixes_the_same(project, capsys, monkeypatch, jobs):
    """fix streams as check does: with a window of two it writes the same files and reports the same as with the
    default window, never reading more than two files ahead of the one it writes."""
    from flake8_npuprof.commands import batch, fix
    for k in range(5):
        (project / f"s{k}.py").write_text(FIXABLE if k % 2 else CLEAN)
    (project / "bad.py").write_bytes(b"\xff\xfe not utf-8 \x00")
    pristine = {p.name: p.read_bytes() for p in project.glob("*.py")}
    argv = ["fix", "--no-cache", "-j", jobs, "."]
    whole = run(capsys, *argv)
    fixed = {p.name: p.read_bytes() for p in project.glob("*.py")}
    for name, data in pristine.items():
        (project / name).write_bytes(data)
    reads, handed = [], []
    monkeypatch.setattr(batch, "WINDOW", 2)
    _watch_stream(monkeypatch, fix, "fix_items", reads.append, lambda: handed.append(len(reads)))
    assert run(capsys, *argv) == whole
    assert {p.name: p.read_bytes() for p in project.glob("*.py")} == fixed
    assert fixed["s1.py"] != pristine["s1.py"] and fixed["s0.py"] == pristine["s0.py"]
    assert whole[0] == 1 and "bad.py:1:1: NPP192 " in whole[1]
    assert len(reads) == len(handed) == 6
    assert all(k <= read <= k + 2 for k, read in enumerate(handed, start=1))


def test_fix_writes_only_once_every_file_is_analysed(project, capsys, monkeypatch):
    """A file's analysis may read a sibling module: it must see the sibling as it was, not as fixed, whatever
    order the files are analysed and handed on in."""
    from flake8_npuprof.commands import fix
    for k in range(4):
        (project / f"s{k}.py").write_text(FIXABLE)
    events = []
    real_write = fix.write_bytes
    _watch_stream(monkeypatch, fix, "fix_items", lambda path: None, lambda: events.append("analysed"))
    monkeypatch.setattr(fix, "write_bytes", lambda *a: events.append("written") or real_write(*a))
    code, _, err = run(capsys, "fix", "--no-cache", "-j", "1", ".")
    assert code == 0 and events == ["analysed"] * 4 + ["written"] * 4, (events, err)
    assert all((project / f"s{k}.py").read_text() != FIXABLE for k in range(4))
