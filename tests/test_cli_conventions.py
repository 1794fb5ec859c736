"""The command line behaves like Ruff and flake8: default path, usage errors, stdin, pipes, summary, reports."""

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
BAD = SCRIPT.replace("{OPTIONS}", '{"output":"/tmp/p","L2":"on"}')                       # NPP101, fixable
# clean for the default target `any`; CANN 8.5 rejects task_time (NPP113)
HELD = SCRIPT.replace("{OPTIONS}", '{"output":"/tmp/p","task_trace":"on","task_time":"on"}')
CLEAN = SCRIPT.replace("{OPTIONS}", '{"output":"/tmp/p","task_trace":"on"}')
NPUPROF = [sys.executable, "-m", "flake8_npuprof"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()                  # the search for a configuration file stops here
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------- paths, codes and files that do not exist

def test_no_path_checks_the_current_directory(project, capsys):
    (project / "sub").mkdir()
    (project / "sub" / "bad.py").write_text(BAD)
    code, out, _ = run(capsys, "check")
    assert code == 1 and out.startswith("sub/bad.py:6:64: NPP101 ")


def test_a_folder_without_files_to_check_says_so(project, capsys):
    (project / "docs").mkdir()
    (project / "docs" / "notes.txt").write_text("nothing to check\n")
    code, out, err = run(capsys, "check", "docs")
    assert (code, out) == (0, "")
    assert err == "npuprof: warning: no Python files or shell launchers found in docs; nothing was checked\n"
    assert run(capsys, "check", "-q", "docs") == (0, "", "")


@pytest.mark.parametrize("argv,message", [
    (("--select", "XYZ"), "--select: unknown code 'XYZ'"),
    (("--ignore", "NPP101,NPP99"), "--ignore: unknown code 'NPP99'"),
    (("--extend-select", "E501"), "--extend-select: unknown code 'E501'"),
    (("--graph", "/nonexistent/graph.pbtxt"), "--graph: graph dump not found: /nonexistent/graph.pbtxt"),
    (("missing.py",), "missing.py: no such file or directory"),
    (("--cann", "7.1"), "--cann: unknown CANN target '7.1'"),
    (("--cann", ""), "--cann: unknown CANN target ''"),
    (("--cann", "8.4"), "--cann: unknown CANN target '8.4'"),
    (("--soc", "911"), "--soc: unknown product '911'"),
    (("--stdin-filename", "x.py", "bad.py"), "--stdin-filename names standard input"),
])
def test_usage_errors_are_one_clean_line_and_exit_2(project, capsys, argv, message):
    (project / "bad.py").write_text(BAD)
    code, out, err = run(capsys, "check", *argv)
    assert (code, out) == (2, "")
    assert err.startswith("npuprof: error: " + message) and err.count("\n") == 1


def test_known_versions_and_prefixes_are_accepted(project, capsys):
    (project / "bad.py").write_text(BAD)
    for argv in (("--cann", "8.0.RC1"), ("--cann", "8.3"), ("--cann", "7.0"), ("--select", "NPP1"),
                 ("--select", "N"), ("--ignore", "NPP2")):
        assert run(capsys, "check", *argv, "bad.py")[0] == 1, argv


# ---------------------------------------------------------------- configuration mistakes name the file and the key

@pytest.mark.parametrize("file,text,message", [
    ("pyproject.toml", "[tool.npuprof]\nignore = 5\n", "pyproject.toml: ignore must be a list of codes"),
    ("pyproject.toml", '[tool.npuprof]\nselect = ["NPP", 7]\n', "pyproject.toml: select must be a list of codes"),
    ("pyproject.toml", '[tool.npuprof]\nper-file-ignores = ["a"]\n',
     "pyproject.toml: per-file-ignores must be a table of pattern = codes"),
    ("pyproject.toml", '[tool.npuprof]\nextend-select = ["NPP2O0"]\n', "pyproject.toml: extend-select: unknown code"),
    ("pyproject.toml", '[tool.npuprof]\ncann = "8.4"\n', "pyproject.toml: cann: unknown CANN target '8.4'"),
    ("pyproject.toml", '[tool.npuprof]\nexclude = 3\n', "pyproject.toml: exclude must be a list of patterns"),
    ("setup.cfg", "[flake8]\nnpuprof-cann = 8.4\n", "setup.cfg: npuprof-cann: unknown CANN target '8.4'"),
    ("tox.ini", "[flake8]\nnpuprof-soc = 912\n", "tox.ini: npuprof-soc: unknown product '912'"),
    ("setup.cfg", "[flake8]\nper-file-ignores = a\n", "setup.cfg: per-file-ignores: expected lines of"),
    ("setup.cfg", "[flake8]\nextend-ignore = E501,NPP1O1\n", "setup.cfg: extend-ignore: unknown code 'NPP1O1'"),
])
def test_configuration_mistakes_are_usage_errors_naming_file_and_key(project, capsys, file, text, message):
    (project / "bad.py").write_text(BAD)
    (project / file).write_text(text)
    code, out, err = run(capsys, "check", "bad.py")
    assert (code, out) == (2, "")
    assert err.startswith("npuprof: error: ") and message in err, err
    assert err.count("\n") == 1 and "internal error" not in err and "Traceback" not in err
    # fix reads the same configuration and refuses it the same way
    code, _, err2 = run(capsys, "fix", "bad.py")
    assert code == 2 and err2 == err
    assert (project / "bad.py").read_text() == BAD


# ---------------------------------------------------------------- standard input

def test_check_reads_stdin_named_by_stdin_filename(project):
    (project / "pyproject.toml").write_text('[tool.npuprof.per-file-ignores]\n"legacy/*.py" = ["NPP101"]\n')
    proc = subprocess.run(NPUPROF + ["check", "-"], input=BAD, capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout.startswith("-:6:64: NPP101 ")
    proc = subprocess.run(NPUPROF + ["check", "--stdin-filename", "src/train.py", "-"], input=BAD,
                          capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout.startswith("src/train.py:6:64: NPP101 ")
    # per-file-ignores apply to the name given
    proc = subprocess.run(NPUPROF + ["check", "--stdin-filename", "legacy/old.py"], input=BAD,
                          capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (0, "")
    # the kind follows the name: a launcher is read as shell
    launcher = "export PROFILING_MODE=True\nexport PROFILING_OPTIONS='{\"output\":\"/p\",\"task_trace\":\"on\"}'\n"
    proc = subprocess.run(NPUPROF + ["check", "--stdin-filename", "run.sh", "-"], input=launcher,
                          capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout.startswith("run.sh:1:") and " NPP011 " in proc.stdout


def test_check_reads_a_bounded_amount_of_stdin(project):
    # `cat /dev/zero | npuprof check -` ends: stdin is bounded like a file
    from flake8_npuprof.source.files import MAX_BYTES
    proc = subprocess.run(NPUPROF + ["check", "-"], input=b"\0" * (MAX_BYTES + 10), capture_output=True)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode().startswith("-: not read: more than the 10,485,760-byte limit for a source file")


def test_fix_reads_stdin_and_prints_the_fixed_text(project):
    proc = subprocess.run(NPUPROF + ["fix", "--stdin-filename", "x.py", "-"], input=BAD,
                          capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout == BAD.replace('"L2"', '"l2"')
    assert not list(project.glob("*.py"))


def test_validate_reads_stdin(project):
    proc = subprocess.run(NPUPROF + ["validate", "-"], input='{"output":"/tmp","L2":"on"}\n',
                          capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout.startswith("-:1:18: NPP101 ")
    proc = subprocess.run(NPUPROF + ["validate", "--file", "-"], input='{"output":"/tmp","task_trace":"on"}',
                          capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (0, "")


def test_json_of_check_and_validate_name_the_file_the_same_way(project, capsys):
    (project / "bad.py").write_text(BAD)
    code, out, _ = run(capsys, "check", "--format", "json", "bad.py")
    row = json.loads(out)[0]
    assert row["filename"] == "bad.py" and row["doc"] == "npuprof explain NPP101"
    code, out, _ = run(capsys, "validate", "--format", "json", '{"output":"/tmp","L2":"on"}')
    assert json.loads(out)[0]["filename"] == "<options>"
    # the doc field is a command that works after installation
    explain = subprocess.run(NPUPROF + row["doc"].split()[1:], capture_output=True, text=True)
    assert explain.returncode == 0 and explain.stdout.startswith("# NPP101 ")


# ---------------------------------------------------------------- a reader that stops early

@pytest.mark.parametrize("argv", [["check", "."], ["fix", "--diff", "."], ["check", "--format", "json", "."],
                                  ["explain", "--list"]])
def test_broken_pipe_is_quiet(project, argv):
    for i in range(60):
        (project / f"bad{i:02}.py").write_text(BAD)
    # a reader that takes one line and goes away, as `| head -1`
    proc = subprocess.Popen(NPUPROF + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert first
    assert "Traceback" not in err and "internal error" not in err and "BrokenPipe" not in err, err
    assert proc.returncode in (0, 1)


@pytest.mark.parametrize("both", [False, True], ids=["stdout", "stdout+stderr"])
def test_fix_goes_on_fixing_when_the_reader_goes_away(project, both):
    for i in range(40):
        (project / f"bad{i:02}.py").write_text(BAD.replace('"L2":"on"', '"L2":"on","storage_limit":"x"'))
    # `npuprof fix . | head -1`, and `2>&1 | head -1`, where the progress lines meet the closed pipe too
    proc = subprocess.Popen(NPUPROF + ["fix", "."], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT if both else subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = "" if both else proc.stderr.read().decode()
    proc.wait(timeout=300)
    assert "Traceback" not in err and "internal error" not in err
    assert all('"l2":"on"' in p.read_text() for p in project.glob("bad*.py"))


# ---------------------------------------------------------------- summary, hints, statistics, source, output file

def test_summary_line_and_fixable_count(project, capsys):
    (project / "bad.py").write_text(BAD)
    (project / "unfixable.py").write_text(BAD.replace('"L2":"on"', '"storage_limit":"lots"'))
    code, out, err = run(capsys, "check", "bad.py", "unfixable.py")
    assert code == 1 and len(out.splitlines()) == 2
    assert err.splitlines()[0] == "Found 2 findings (1 fixable with `npuprof fix`)."
    (project / "mode.py").write_text('import os\nos.environ["PROFILING_MODE"] = "True"\n'
                                     'os.environ["PROFILING_OPTIONS"] = \'{"output":"/tmp/p","task_trace":"on"}\'\n')
    err = run(capsys, "check", "bad.py", "mode.py")[2]
    assert err.splitlines()[0] == ("Found 2 findings (1 fixable with `npuprof fix`, 1 fixable with "
                                   "`npuprof fix --unsafe-fixes`).")
    (project / "clean.py").write_text(CLEAN)
    assert run(capsys, "check", "clean.py") == (0, "", "All checks passed!\n")
    assert run(capsys, "check", "-q", "clean.py") == (0, "", "")
    assert run(capsys, "check", "--quiet", "bad.py")[2] == ""
    # machine formats print only the report
    assert run(capsys, "check", "--format", "json", "bad.py")[2] == ""


def test_the_default_target_says_what_it_holds_back(project, capsys):
    (project / "held.py").write_text(HELD)
    code, out, err = run(capsys, "check", "held.py")
    assert (code, out) == (0, "")
    assert err == ("All checks passed!\n1 more finding on some targets "
                   "(use --cann portable or name your target, e.g. --cann 8.0).\n")
    code, out, _ = run(capsys, "check", "--cann", "portable", "held.py")
    assert code == 1 and " NPP113 " in out
    # a named target holds nothing back, so there is no hint
    assert run(capsys, "check", "--cann", "8.0", "held.py") == (0, "", "All checks passed!\n")


def test_statistics(project, capsys):
    (project / "a.py").write_text(BAD)
    (project / "b.py").write_text(BAD.replace('"L2":"on"', '"L2":"on","storage_limit":"lots"'))
    code, out, err = run(capsys, "check", "--statistics", ".")
    assert code == 1 and err == ""
    assert out == "2\tNPP101\t[*] unknown-options-key\n1\tNPP107\tinvalid-storage-limit\n"
    code, out, _ = run(capsys, "check", "--statistics", "--format", "json", ".")
    assert json.loads(out) == [{"code": "NPP101", "name": "unknown-options-key", "count": 2, "fixable": True},
                               {"code": "NPP107", "name": "invalid-storage-limit", "count": 1, "fixable": False}]
    assert run(capsys, "check", "--statistics", "--format", "sarif", ".")[0] == 2


def test_show_source(project, capsys):
    (project / "bad.py").write_text(BAD)
    code, out, _ = run(capsys, "check", "--show-source", "bad.py")
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("bad.py:6:64: NPP101 ")
    assert lines[1] == BAD.splitlines()[5]
    assert lines[2] == " " * 63 + "^"
    # then the detail, indented: what each version's collector does (its log line) and the advice
    assert lines[3:] == ["    on CANN 7.0 and 8.0 the collector rejects the options, so GE initialisation fails and the "
                         "job aborts",
                         '    on CANN 8.5, 9.0 and 9.1 the collector rejects it ("Invalid geoption config: L2"), so GE '
                         "initialisation fails and the job aborts",
                         '    did you mean "l2"?']
    # a tab before the column is kept, so the caret lines up in a terminal
    (project / "tab.py").write_text("import tensorflow as tf\nif True:\n\tx = tf.ConfigProto()\n"
                                    + "".join("\t" + line + "\n" for line in BAD.splitlines()[2:]))
    code, out, _ = run(capsys, "check", "--show-source", "tab.py")
    head, line, caret = out.splitlines()[:3]
    assert head.startswith("tab.py:7:65: NPP101") and line.startswith("\top.parameter_map")
    assert caret == "\t" + " " * 63 + "^"


def test_output_file(project, capsys):
    (project / "bad.py").write_text(BAD)
    code, out, err = run(capsys, "check", "--output-file", "report.txt", "bad.py")
    assert (code, out) == (1, "") and err.startswith("Found 1 finding")
    assert (project / "report.txt").read_text().startswith("bad.py:6:64: NPP101 ")
    code, out, _ = run(capsys, "check", "--format", "sarif", "-o", "out.sarif", "bad.py")
    assert code == 1 and out == "" and json.loads((project / "out.sarif").read_text())["version"] == "2.1.0"
    code, _, err = run(capsys, "check", "--output-file", "nodir/r.txt", "bad.py")
    assert code == 2 and err.startswith("npuprof: error: --output-file nodir/r.txt: cannot write")


def test_console_script_on_a_real_pipe_with_head(project):
    (project / "bad.py").write_text(BAD * 1)
    for i in range(50):
        (project / f"more{i}.py").write_text(BAD)
    for command in ("check .", "fix --diff ."):
        proc = subprocess.run(f"{' '.join(NPUPROF)} {command} | head -1", shell=True, capture_output=True,
                              text=True, cwd=project)
        assert proc.stdout.count("\n") == 1
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, proc.stderr
    assert os.path.exists(project / "bad.py")
    assert Path(project / "more0.py").read_text() == BAD                    # --diff wrote nothing


@pytest.mark.parametrize("command", ["fix", "emulate", "validate"])
@pytest.mark.parametrize("cann", ["", "7.1", "8.4"])
def test_every_command_refuses_the_same_unknown_targets(project, capsys, command, cann):
    (project / "bad.py").write_text(BAD)
    target = ['{"output":"/tmp"}'] if command == "validate" else ["bad.py"]
    code, out, err = run(capsys, command, "--cann", cann, *target)
    assert (code, out) == (2, "") and f"unknown CANN target '{cann}'" in err
    assert (project / "bad.py").read_text() == BAD
