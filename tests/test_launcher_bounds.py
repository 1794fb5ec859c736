"""Launchers within bounds (issue 26): a walk cut short is NPP191, never "All checks passed!"; the walk's
cost grows with the launcher (counted in calls, not seconds); sourced scripts are decoded as launchers
are, and `--no-outside` (or `outside = false`) keeps the walk inside the project."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.shell.state import MAX_BYTES, MAX_COMMANDS

LAUNCH = Path(__file__).resolve().parent / "data" / "projects" / "launch"
TRAP = "python3 train.py --profiling=False --epochs 3\n"
ZOO_TEMPLATE = Path(__file__).resolve().parent / "data" / "projects" / "zoo_args" / "template"


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    shutil.copy(LAUNCH / "train.py", tmp_path / "train.py")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _check(capsys, *argv):
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_trap_is_found_when_the_launcher_is_short(project, capsys):
    (project / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\n' + TRAP)
    code, out, _ = _check(capsys, "run.sh")
    assert code == 1 and out.startswith("run.sh:3:18: NPP205 ")


def test_a_launcher_past_the_command_budget_is_npp191(project, capsys):
    """The sweep's launcher: padding before the trap made `check` say "All checks passed!"."""
    padding = "true\n" * MAX_COMMANDS
    (project / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\n' + padding + TRAP)
    code, out, err = _check(capsys, "run.sh")
    assert code == 1 and "All checks passed" not in err
    stop = 2 + MAX_COMMANDS          # the first command the walk did not reach
    assert out.splitlines() == [
        f"run.sh:{stop}:1: NPP191 analysis budget exhausted: the walk of this launcher stopped at line {stop}, so the "
        "command lines from there on were not checked"]
    # the asides are the detail
    code, out, err = _check(capsys, "--verbose", "run.sh")
    assert out.splitlines()[1:] == [
        f"    analysis budget exhausted: the walk of this launcher stopped at line {stop} (after 5,000 commands), so "
        "the command lines from there on were not checked (a finding may be missing; split the launcher)"]


def test_words_multiplied_by_a_variable_stop_the_walk(project, capsys):
    """A launcher of 11 KB whose `$X` of 1,000 words was written 2,000 times took 7 s and 946 MB (fuzz): each word
    of the one command was made, then kept."""
    text = ('#!/bin/bash\nexport PROFILING_MODE=true\nX="' + " ".join(f"w{k}" for k in range(1000)) + '"\necho' +
            " $X" * 1000 + "\n" + TRAP)
    (project / "run.sh").write_text(text)
    code, out, err = _check(capsys, "--verbose", "run.sh")
    assert "\nrun.sh:4:1: NPP191 " in out and "stopped at line 4 (after 200,000 words of commands)" in out, out


def test_words_multiplied_by_the_arguments_stop_the_walk(project, capsys):
    """`"$@"` 30,000 times in the model zoo's loop over the arguments: the walks NPP015 gives a value for each option
    made 3 x 3 x 30,000 words each (fuzz: 11 s and 976 MB)."""
    shutil.copytree(ZOO_TEMPLATE, project / "p")
    launcher = project / "p" / "test" / "train_full_1p.sh"
    text = launcher.read_text().replace("for para in $*\ndo\n", "for para in $*\ndo\n    echo" + ' "$@"' * 30_000 + "\n")
    launcher.write_text(text)
    code, out, err = _check(capsys, "--verbose", str(launcher))
    assert out.startswith("p/test/train_full_1p.sh:16:22: NPP191 analysis budget exhausted: the walk of this launcher "
                          "with a value for each of its options stopped at line 13, and without those values")
    assert "stopped at line 13 (after 200,000 words of commands)" in out


def test_a_launcher_past_the_size_budget_is_npp191(project, capsys, monkeypatch):
    padding = "# " + "x" * 78 + "\n"
    lines = MAX_BYTES // len(padding) + 1
    text = '#!/bin/bash\ncd "$(dirname "$0")"\n' + padding * lines + TRAP
    (project / "run.sh").write_text(text)
    code, out, err = _check(capsys, "run.sh")
    assert code == 1 and "All checks passed" not in err
    (line,) = out.splitlines()
    assert line == (f"run.sh:1:1: NPP191 analysis budget exhausted: this launcher has {len(text):,} characters, "
                    "over the 262,144 a launcher may have, so none of its lines was checked")
    # from standard input too, where there is no walk
    import io
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, out, err = _check(capsys, "--stdin-filename", "run.sh", "-")
    assert code == 1 and out == line.replace("run.sh:", "run.sh:", 1) + "\n"


def test_a_sourced_script_past_the_budget_is_named(project, capsys):
    (project / "env.sh").write_text("true\n" * (MAX_COMMANDS + 10))
    (project / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nsource env.sh\n')
    code, out, _ = _check(capsys, "run.sh")
    assert code == 1
    assert out.splitlines() == [
        "run.sh:1:1: NPP191 analysis budget exhausted: the walk of this launcher stopped in env.sh, which it sources, "
        f"at line {MAX_COMMANDS - 1}, so the command lines from there on were not checked"]


# ---------------------------------------------------------------- cost

def _calls(run) -> int:
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def _check_text(path: Path, text: str):
    from flake8_npuprof.checks.analysis import Settings
    from flake8_npuprof.engine.run import check_text
    from flake8_npuprof.source.files import Selection
    path.write_text(text)
    return check_text(str(path), text, "shell", Settings(), Selection())


def _grows_linearly(tmp_path, make, n):
    path = tmp_path / "run.sh"
    _check_text(path, make(n // 4))
    a = _calls(lambda: _check_text(path, make(n)))
    b = _calls(lambda: _check_text(path, make(2 * n)))
    assert b / a < 2.5, (a, b)          # quadratic would give 4


def _peak_memory(run) -> int:
    """The most memory run() held at once, in bytes (allocations traced, not time)."""
    import tracemalloc
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_exports_and_commands_interleaved_cost_linear_memory(tmp_path):
    """Every command copied the whole exported environment (in C: no Python call to count, so the memory it
    held is measured): 2,400 exports and commands took 15 s and 129 MB, four times what 1,200 took."""
    def make(n):
        return "#!/bin/bash\n" + "".join(f"export V{k}=1\necho {k}\n" for k in range(n))
    path = tmp_path / "run.sh"
    _check_text(path, make(100))
    a = _peak_memory(lambda: _check_text(path, make(1200)))
    b = _peak_memory(lambda: _check_text(path, make(2400)))
    assert b / a < 2.5, (a, b)
    _grows_linearly(tmp_path, make, 600)


def test_an_unterminated_quote_costs_work_per_run_not_per_character(tmp_path):
    """16 s and 180 MB per MB: every character of the open quote got its own position record."""
    def make(n):
        return '#!/bin/bash\nexport PROFILING_MODE=true\nexport PROFILING_OPTIONS="{\\"output\\":\\"/tmp\\"}\n' + \
            "some words of a long line\n" * n
    path = tmp_path / "run.sh"
    _check_text(path, make(100))
    small, big = _calls(lambda: _check_text(path, make(1000))), _calls(lambda: _check_text(path, make(2000)))
    text = make(2000)
    assert big < len(text) // 4, (big, len(text))          # far fewer calls than characters
    assert big / small < 2.5


# ---------------------------------------------------------------- sourced scripts: decoding and the project's bounds

SCRIPT_ENV = '''import os
import tensorflow as tf
from npu_bridge.npu_init import *
config = tf.compat.v1.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
sess = tf.compat.v1.Session(config=config)
'''


def _emulate_json(capsys, *argv):
    code = main(["emulate", "--cann", "8.0", "--soc", "910B", "--format", "json", *argv])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out.strip() else None, err


def test_a_sourced_script_is_decoded_as_a_launcher_is(project, capsys):
    """A GB18030 env.sh showed `/tmp/��������`."""
    (project / "train_env.py").write_text(SCRIPT_ENV)
    (project / "env.sh").write_bytes('export PROFILING_MODE=true\nexport PROFILING_OPTIONS=\'{"output":"/tmp/性能数据",'
                                     '"task_trace":"on"}\'\n'.encode("gb18030"))
    (project / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nsource env.sh\npython3 train_env.py\n')
    code, doc, err = _emulate_json(capsys, "run.sh")
    assert doc is not None, err
    env = doc["launch"]["environment"]
    assert env["PROFILING_OPTIONS"]["value"] == '{"output":"/tmp/性能数据","task_trace":"on"}'
    assert doc["setups"][0]["output_dir"].startswith("/tmp/性能数据")


def test_no_outside_leaves_scripts_outside_the_project_unread(project, tmp_path_factory, capsys):
    """A CI job emulating a pull request's launcher must not print the runner's files into its log."""
    elsewhere = tmp_path_factory.mktemp("runner") / "secrets.sh"
    elsewhere.write_text("export PROFILING_MODE=true\nexport PROFILING_OPTIONS='{\"output\":\"/tmp/SECRET_TOKEN\"}'\n")
    (project / "train_env.py").write_text(SCRIPT_ENV)
    (project / "local.sh").write_text("export ASCEND_WORK_PATH=/tmp/work\n")
    (project / "run.sh").write_text(f'#!/bin/bash\ncd "$(dirname "$0")"\nsource local.sh\nsource {elsewhere}\n'
                                    "python3 train_env.py\n")
    code, doc, _ = _emulate_json(capsys, "run.sh")
    assert "SECRET_TOKEN" in json.dumps(doc)                    # read by default: a user's own launcher
    for argv, config in ((["--no-outside"], None), ([], "[tool.npuprof]\noutside = false\n")):
        if config:
            (project / "pyproject.toml").write_text(config)
        code, doc, _ = _emulate_json(capsys, *argv, "run.sh")
        assert "SECRET_TOKEN" not in json.dumps(doc)
        launch = doc["launch"]
        assert launch["sourced"] == ["local.sh"] and launch["outside"] == [str(elsewhere)]
        assert main(["emulate", "--cann", "8.0", "--soc", "910B", *argv, "run.sh"]) in (0, 1)
        text = capsys.readouterr().out
        assert "SECRET_TOKEN" not in text
        assert f"  sources {elsewhere} (run.sh:4): not read here (outside the project, which --no-outside leaves " \
               "unread), taken as setting no PROFILING_* variable" in text.splitlines()
    # the flag wins over the configuration, both ways
    code, doc, _ = _emulate_json(capsys, "--outside", "run.sh")
    assert "SECRET_TOKEN" in json.dumps(doc)



SCRIPT_OUTSIDE = SCRIPT_ENV.replace('custom_op.name = "NpuOptimizer"\n', 'custom_op.name = "NpuOptimizer"\n'
                                    'custom_op.parameter_map["profiling_mode"].b = True\n'
                                    'custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('
                                    '\'{"output":"/tmp/SECRET_TOKEN","task_trace":"on"}\')\n')


def _outside_lines(capsys):
    """The report on run.sh without and with --no-outside: what is outside is read (and shown) only without."""
    code, doc, _ = _emulate_json(capsys, "run.sh")
    assert "SECRET_TOKEN" in json.dumps(doc)                    # read by default: a user's own launcher
    code, doc, _ = _emulate_json(capsys, "--no-outside", "run.sh")
    assert "SECRET_TOKEN" not in json.dumps(doc)
    assert main(["emulate", "--cann", "8.0", "--soc", "910B", "--no-outside", "run.sh"]) == 1
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("line", ["python3 {script}", "cd {folder} && python3 train.py",
                                  "env -C {folder} python3 train.py", "export PYTHONPATH={folder}; python3 -m train"])
def test_no_outside_leaves_python_scripts_outside_the_project_unread(project, tmp_path_factory, capsys, line):
    """A script the launcher starts outside the project was read, and its options shown, under --no-outside."""
    folder = tmp_path_factory.mktemp("runner")
    (folder / "train.py").write_text(SCRIPT_OUTSIDE)
    (project / "train.py").unlink()         # (`python3 -m train` runs the one in the folder it is started in first)
    (project / "run.sh").write_text("#!/bin/bash\n" + line.format(script=folder / "train.py", folder=folder) + "\n")
    lines = _outside_lines(capsys)
    why = f"{folder / 'train.py'} is outside the project, which --no-outside leaves unread"
    assert lines[2] == f"  unknown: {why}" and lines[-1] == f"usable data: unknown (run.sh:2: {why})"


def test_no_outside_neither_replays_nor_quotes_a_module_outside_the_project(project, tmp_path_factory, capsys):
    folder = tmp_path_factory.mktemp("runner")
    (folder / "outside_mod.py").write_text(SCRIPT_OUTSIDE)
    (project / "train2.py").write_text("import outside_mod\n")
    (project / "run.sh").write_text(f"#!/bin/bash\nexport PYTHONPATH={folder}\npython3 train2.py\n")
    why = f"train2.py imports {folder / 'outside_mod.py'}: outside the project, which --no-outside leaves unread"
    assert _outside_lines(capsys)[-2:] == [why, f"usable data: unknown (run.sh:3: {why})"]


def _read_word_per_character(text: str, i: int):
    """The decoder as it was, one run per character: the definition the block decoder is held to."""
    from flake8_npuprof.shell.words import _WORD_END, skip_expansion
    from flake8_npuprof.source.text import HOLE
    parts, runs, t, n = [], [], 0, len(text)

    def put(ch, s, slen=1):
        nonlocal t
        parts.append(ch)
        runs.append((t, s, slen))
        t += len(ch)

    def hole():
        nonlocal t
        if not (parts and parts[-1] == HOLE):
            parts.append(HOLE)
            t += 1
    while i < n:
        c = text[i]
        if c in _WORD_END or c == "\r":
            break
        if c == "'":
            close = text.find("'", i + 1)
            close = n if close < 0 else close
            for k in range(i + 1, close):
                put(text[k], k)
            i = close + 1
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                ch = text[i]
                if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
                    if text[i + 1] != "\n":
                        put(text[i + 1], i, 2)
                    i += 2
                elif ch in "$`":
                    i = skip_expansion(text, i)
                    hole()
                else:
                    put(ch, i)
                    i += 1
            i += 1
        elif c == "\\":
            if i + 1 < n and text[i + 1] != "\n":
                put(text[i + 1], i, 2)
            i += 2
        elif c in "$`":
            i = skip_expansion(text, i)
            hole()
        else:
            put(c, i)
            i += 1
    return "".join(parts), runs, i


def test_the_block_decoder_maps_every_character_as_the_per_character_one_did():
    import random
    from flake8_npuprof.shell.words import read_word
    rng = random.Random(26)
    alphabet = ["a", "b", " ", "'", '"', "\\", "$", "`", "{", "}", "(", ")", "\n", "\r", ";", "x", "性", "$X", "${Y}"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        start = rng.randint(0, len(text))
        expected_text, expected_runs, expected_end = _read_word_per_character(text, start)
        value, end = read_word(text, start)
        assert (value.text, end) == (expected_text, expected_end), text
        for t, s, slen in expected_runs:
            assert (value.src(t), value.src_end(t)) == (s, s + slen), (text, t)


def test_every_launcher_costs_work_in_proportion_to_its_length_and_none_past_the_bound(tmp_path):
    """Within the bound, at most a few dozen calls per character whatever the launcher does; past it,
    nothing of it is read (a 10 MiB launcher of msprof lines or exports took minutes)."""
    path = tmp_path / "run.sh"
    shapes = {
        "msprof lines": "msprof --output=/tmp/p --aicore=on --sys-hardware-mem=on python3 train.py\n",
        "exports": "export PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"L2\":\"on\"}'\nexport V=1\n",
        "commands": "echo hello world; true && false || :\n",
        "an open quote": 'export PROFILING_OPTIONS="abc def\n',
        "expansions": 'X="${A:-$(b "$c")}" `d` $e\n',
    }
    _check_text(path, "#!/bin/bash\n" + "".join(shapes.values()))
    for name, line in shapes.items():
        text = "#!/bin/bash\n" + line * (60_000 // len(line))
        calls = _calls(lambda: _check_text(path, text))
        assert calls <= 20 * len(text), (name, calls, len(text))
        over = "#!/bin/bash\n" + line * (MAX_BYTES // len(line) + 1)
        calls = _calls(lambda: _check_text(path, over))
        assert calls <= 2000, (name, calls)
        assert [f.code for f in _check_text(path, over)] == ["NPP191"], name


def _emulate(capsys, *argv):
    code = main(["emulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("last", ["python3 train.py\n", "export PROFILING_MODE=true\npython3 train.py\n"])
def test_emulate_says_a_launcher_over_the_read_bound_was_not_read(project, capsys, last):
    """Never "no profiling setup found", nor an answer from lines past the bound (issue 44: no silent cliff)."""
    padding = "# " + "x" * 78 + "\n"
    text = "#!/bin/bash\n" + padding * (MAX_BYTES // len(padding) + 1) + last
    (project / "run.sh").write_text(text)
    code, out, _ = _emulate(capsys, "run.sh")
    why = (f"not read: over 256 KiB ({len(text):,} characters, over the 262,144 a launcher may have): what it sets "
           "and runs is not known here; split the launcher")
    assert code == 1 and "no profiling setup found" not in out
    assert out.splitlines()[1:3] == [why, f"usable data: unknown ({why})"]
    code, out, _ = _emulate(capsys, "--format", "json", "run.sh")
    report = json.loads(out)
    assert report["usable"] is None and report["answer"] == {"usable": None, "why": why, "decider": None}
    assert report["setups"] == []


def test_a_sourced_script_over_the_read_bound_is_npp191_and_unknown(project, capsys):
    padding = "# " + "x" * 78 + "\n"
    (project / "env.sh").write_text(padding * (MAX_BYTES // len(padding) + 1))
    size = (project / "env.sh").stat().st_size
    (project / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\nsource env.sh\npython3 train.py\n')
    code, out, _ = _check(capsys, "--verbose", "run.sh")
    assert code == 1
    assert out.splitlines()[1] == (
        f"    analysis budget exhausted: the walk of this launcher stopped in env.sh, which it sources, at line 1 (it "
        f"has {size:,} bytes, over the 262,144 a launcher may have, so it was not read), so the command lines from "
        "there on were not checked (a finding may be missing; split the launcher)")
    code, out, _ = _emulate(capsys, "run.sh")
    answer = (f"usable data: unknown (the walk of env.sh stopped at line 1 (it has {size:,} bytes, over the 262,144 "
              "a launcher may have, so it was not read): the commands from there on were not emulated")
    assert code == 1 and any(line.startswith(answer) for line in out.splitlines())


def test_a_script_over_the_word_bound_is_named_so_by_emulate(project, capsys):
    """Not "it does not parse as Python": it was not read, for its size."""
    (project / "huge.py").write_text("import os\n" + "a = 1\n" * 350_000)
    (project / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\npython3 huge.py\n')
    code, out, _ = _emulate(capsys, "run.sh")
    assert code == 1 and ("  unknown: cannot read huge.py (it has about 1,050,002 words and symbols, over the 1,000,000 "
                          "one file may have)") in out.splitlines()
