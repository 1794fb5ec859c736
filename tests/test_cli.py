"""The npuprof command: exit codes, formats, selection and noqa as flake8 has them."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from flake8_npuprof.cli import main

HERE = Path(__file__).resolve().parent
EVAL = HERE / "eval_files"

BAD = '''import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","L2":"on"}'
sess = tf.Session(config=config)
'''


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_exit_codes(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "good.py").write_text("import os\n")
    assert run(capsys, "check", "good.py")[0] == 0
    code, out, _ = run(capsys, "check", "bad.py")
    assert code == 1 and out.startswith("bad.py:6:64: NPP101 ")
    code, out, _ = run(capsys, "check")                          # no path: the current directory, as Ruff
    assert code == 1 and out.startswith("bad.py:6:64: NPP101 ")
    assert run(capsys, "check", "--exit-zero", "bad.py")[0] == 0
    assert run(capsys, "check", "--cann", "6.9", "bad.py")[0] == 2
    assert run(capsys, "check", "--no-such-flag")[0] == 2


def test_check_directories_and_json(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "bad.py").write_text(BAD)
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "bad.py").write_text(BAD)
    code, out, _ = run(capsys, "check", "--format", "json", ".")
    rows = json.loads(out)
    assert code == 1 and [r["filename"] for r in rows] == ["pkg/bad.py"]
    row = rows[0]
    assert row["code"] == "NPP101" and row["location"] == {"line": 6, "column": 64}
    assert row["end_location"] == {"line": 6, "column": 68}
    assert row["fix"]["applicability"] == "safe"
    assert row["fix"]["edits"] == [{"content": "l2", "location": {"line": 6, "column": 65},
                                    "end_location": {"line": 6, "column": 67}}]


def test_noqa_is_honoured_like_flake8(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = BAD.splitlines()
    variants = {
        "plain.py": lines[5] + "  # noqa",
        "codes.py": lines[5] + "  # noqa: NPP101",
        "prefix.py": lines[5] + "  # noqa:NPP1",
        "other.py": lines[5] + "  # noqa: E501",
    }
    for name, last in variants.items():
        (tmp_path / name).write_text("\n".join(lines[:5] + [last, lines[6]]) + "\n")
    (tmp_path / "multi.py").write_text("\n".join(lines[:5]) + "\nop.parameter_map['profiling_options'].s = (\n"
                                       "    b'{\"output\":\"/tmp/p\",\"L2\":\"on\"}'\n)  # noqa: NPP101\n"
                                       + lines[6] + "\n")
    (tmp_path / "file.py").write_text("# flake8: noqa\n" + BAD)
    code, out, _ = run(capsys, "check", *sorted(p.name for p in tmp_path.iterdir()))
    # flake8 reads noqa per physical line inside brackets: multi.py's comment is on another line
    assert {line.split(":")[0] for line in out.splitlines()} == {"other.py", "multi.py"}
    # the same files through flake8 itself
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", "."],
                          capture_output=True, text=True)
    assert {line.split(":")[0] for line in proc.stdout.splitlines()} == {"./other.py", "./multi.py"}


@pytest.mark.parametrize("argv,codes", [
    ((), {"NPP101"}),
    (("--select", "NPP2"), {"NPP201", "NPP203"}),
    (("--extend-select", "NPP2"), {"NPP101", "NPP201", "NPP203"}),
    (("--extend-select", "NPP203"), {"NPP101", "NPP203"}),
    (("--select", "NPP203"), {"NPP203"}),
    (("--ignore", "NPP1"), set()),
    (("--select", "NPP", "--ignore", "NPP101"), set()),
])
def test_selection_matches_flake8(tmp_path, capsys, monkeypatch, argv, codes):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.py").write_text(BAD.replace("/tmp/p", "/home/alice/p"))
    _, out, _ = run(capsys, "check", *argv, "x.py")
    assert {line.split()[1] for line in out.splitlines()} == codes
    flake8_argv = list(argv) if "--select" in argv else ["--select", "NPP", *argv]
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", *flake8_argv, "x.py"],
                          capture_output=True, text=True)
    assert {line.split()[1] for line in proc.stdout.splitlines()} == codes


def test_validate_says_what_it_assumed_of_a_file_with_no_profiling_options_key(capsys, tmp_path):
    # MindSpeed-MM's tools.json (its own profiler's settings) was judged as GE's options without a word of doubt
    f = tmp_path / "tools.json"
    f.write_text('{\n  "profile": {"enable": false},\n  "memory_profile": {},\n  "sorafeature": {}\n}\n')
    code, out, err = run(capsys, "validate", "--file", str(f))
    assert code == 1 and f"{f}:2:3: NPP101 unknown profiling_options key \"profile\"" in out
    assert err == (f'npuprof: note: none of the keys of {f} ("profile", "memory_profile", "sorafeature") is a '
                   "profiling_options key; it was checked as GE's profiling options, as validate checks every file "
                   "but a dynamic-profiling one (profiler_config.json: --framework torch_npu or mindspore)\n")
    code, _, err = run(capsys, "validate", '{"profile": {}}')
    assert code == 1 and err.startswith('npuprof: note: none of the keys of the options ("profile") is a ')
    f.write_text('{"output": "/tmp", "profile": 1}')       # one key is: no note
    assert run(capsys, "validate", "--file", str(f))[2] == ""


def test_validate(capsys, tmp_path, monkeypatch):
    code, out, _ = run(capsys, "validate", '{"output":"/tmp","L2":"on"}')
    assert code == 1 and out.startswith("<options>:1:18: NPP101 ")
    assert run(capsys, "validate", '{"output":"/tmp","task_trace":"on"}')[0] == 0
    f = tmp_path / "opts.json"
    f.write_text('{\n  "output": "/tmp",\n  "task_trace": "ON"\n}\n')
    code, out, _ = run(capsys, "validate", "--file", str(f))
    assert code == 1 and f"{f}:3:17: NPP102" in out
    code, out, _ = run(capsys, "validate", "--cann", "8.0", '{"output":"/tmp","dvpp_freq":5}', "--format", "json")
    assert code == 1 and json.loads(out)[0]["code"] == "NPP110"
    monkeypatch.setenv("PROFILING_MODE", "True")
    monkeypatch.setenv("PROFILING_OPTIONS", '{"output":"/tmp","task_trace":"on"}')
    code, out, _ = run(capsys, "validate", "--env")
    assert code == 1 and "NPP011" in out
    monkeypatch.setenv("PROFILING_MODE", "true")
    assert run(capsys, "validate", "--env")[0] == 0
    monkeypatch.delenv("PROFILING_MODE")
    code, out, _ = run(capsys, "validate", "--env")
    assert code == 1 and "NPP001" in out
    assert run(capsys, "validate")[0] == 2


def test_validate_env_off_switch_is_deliberate_and_its_option_problems_latent(capsys, monkeypatch):
    monkeypatch.setenv("PROFILING_OPTIONS", '{"output":"/tmp","training_trace":"off"}')
    for mode in ("false", "FALSE", "0"):
        monkeypatch.setenv("PROFILING_MODE", mode)
        code, out, _ = run(capsys, "validate", "--env", "--verbose")
        assert code == 1 and out.count("NPP") == 1 and "NPP103 latent (profiling is switched off here): " in out
        assert "\n    latent (profiling is switched off here); once GE reads these options\n" in out   # the detail
        assert "the job aborts" not in out
    monkeypatch.setenv("PROFILING_MODE", "true")
    code, out, _ = run(capsys, "validate", "--env")
    assert "NPP103" in out and "latent" not in out and "the job aborts" in out


def test_validate_env_reads_mindspores_variable(capsys, monkeypatch):
    # before: `validate --env` with only MS_PROFILER_OPTIONS set said "neither PROFILING_MODE nor PROFILING_OPTIONS
    # is set", and beside them it was not read (MindSpore's EnvProfiler reads it)
    for name in ("PROFILING_MODE", "PROFILING_OPTIONS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MS_PROFILER_OPTIONS", '{"profiler_level": "Level1"}')
    code, out, _ = run(capsys, "validate", "--env")
    assert (code, out) == (1, 'MS_PROFILER_OPTIONS:1:1: NPP355 MS_PROFILER_OPTIONS has no "start": true: MindSpore '
                              "does not profile, and says so only in an INFO line of its log\n")
    monkeypatch.setenv("MS_PROFILER_OPTIONS", '{"start": true, "profiler_level": "Level1"}')
    assert run(capsys, "validate", "--env")[:2] == (0, "")
    monkeypatch.delenv("MS_PROFILER_OPTIONS")
    code, out, err = run(capsys, "validate", "--env")
    assert code == 2 and "none of PROFILING_MODE, PROFILING_OPTIONS and MS_PROFILER_OPTIONS is set" in err


def test_validate_env_points_at_mindspores_value_at_fault(capsys, monkeypatch):
    # before: every NPP355 of `validate --env` spanned the whole of MS_PROFILER_OPTIONS, at 1:1
    for name in ("PROFILING_MODE", "PROFILING_OPTIONS"):
        monkeypatch.delenv(name, raising=False)
    cases = [('{"start": true, "output_path": "/tmp/x", "profiler_level": "Level9"}', (1, 60), (1, 68),
              "MS_PROFILER_OPTIONS's profiler_level 'Level9' is not a ProfilerLevel value"),
             ('{"start": true,', (1, 15), (1, 16), "MS_PROFILER_OPTIONS is not valid JSON"),
             ('{\n  "start": false}', (2, 12), (2, 17), 'MS_PROFILER_OPTIONS has "start": false'),
             ('{"output_path": "/x"}', (1, 1), (1, 22), 'MS_PROFILER_OPTIONS has no "start": true'),
             ('{"start": true, "activities": ["CPU", "NPUX"]}', (1, 39), (1, 45),
              "MS_PROFILER_OPTIONS's activities 'NPUX' is not a ProfilerActivity value")]
    for value, start, end, message in cases:
        monkeypatch.setenv("MS_PROFILER_OPTIONS", value)
        code, out, _ = run(capsys, "validate", "--env", "--format", "json")
        (row,) = json.loads(out)
        assert code == 1 and row["code"] == "NPP355" and row["message"].startswith(message + ": ")
        assert (row["location"]["line"], row["location"]["column"]) == start, value
        assert (row["end_location"]["line"], row["end_location"]["column"]) == end, value
    monkeypatch.setenv("MS_PROFILER_OPTIONS", cases[0][0])
    assert run(capsys, "validate", "--env")[1].startswith("MS_PROFILER_OPTIONS:1:60: NPP355 ")


def test_explain(capsys):
    code, out, _ = run(capsys, "explain", "npp101")
    assert code == 0 and out.startswith("# NPP101 ") and "## Fix safety" in out
    assert run(capsys, "explain", "NPP999")[0] == 2
    code, out, _ = run(capsys, "explain", "--list")
    assert code == 0 and "NPP101" in out


def test_console_script_and_version():
    script = Path(sys.executable).parent / "npuprof"
    for cmd in ([str(script)] if script.exists() else []) + [[sys.executable, "-m", "flake8_npuprof"]]:
        cmd = cmd if isinstance(cmd, list) else [cmd]
        proc = subprocess.run(cmd + ["--version"], capture_output=True, text=True)
        assert proc.returncode == 0 and proc.stdout.startswith("npuprof ")


def test_extend_default_ignore_prefix_from_config(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.npuprof]\nextend-default-ignore = ["NPP1"]\n')
    (tmp_path / "x.py").write_text(BAD)
    assert run(capsys, "check", "x.py")[0] == 0                  # NPP101 is now off by default
    code, out, _ = run(capsys, "check", "--extend-select", "NPP101", "x.py")
    assert code == 1 and " NPP101 " in out
