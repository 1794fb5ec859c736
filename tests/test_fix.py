"""npuprof fix: fix pairs, safety, idempotence, and never losing data."""

import ast
import contextlib
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from flake8_npuprof.checks.analysis import Settings
from flake8_npuprof.engine.run import check_text
from flake8_npuprof.cli import main
from flake8_npuprof.source.files import Selection
from flake8_npuprof.engine.fix import fix_text

PAIRS = sorted((Path(__file__).resolve().parent / "fix_pairs").glob("*.in.py"))


def _args(path: Path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    return first.split("# FIX:", 1)[1].split()


def _selection(args):
    extend = args[args.index("--select") + 1] if "--select" in args else ""
    return Selection(select=("NPP",), extend_select=(extend,) if extend else ())


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
def test_fix_pair(pair):
    args = _args(pair)
    text = pair.read_text(encoding="utf-8")
    expected = pair.with_name(pair.name.replace(".in.py", ".out.py")).read_text(encoding="utf-8")
    unsafe = "--unsafe-fixes" in args
    result = fix_text(text, str(pair), Settings(), _selection(args), unsafe)
    assert result.text == expected
    assert result.applied and not result.refused
    ast.parse(result.text)
    # every applicable fix was applied, and a second run changes nothing
    assert not [f for f in result.remaining if f.fix and (f.fix.safe or unsafe)]
    again = fix_text(result.text, str(pair), Settings(), _selection(args), unsafe)
    assert again.text == result.text and not again.applied


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
@pytest.mark.parametrize("variant", ["crlf", "bom+crlf", "lf"])
def test_fix_keeps_line_endings_bom_and_mode(pair, variant, tmp_path):
    args = _args(pair)
    newline = "\r\n" if "crlf" in variant else "\n"
    bom = b"\xef\xbb\xbf" if "bom" in variant else b""
    source = pair.read_text(encoding="utf-8").replace("\n", newline)
    expected = pair.with_name(pair.name.replace(".in.py", ".out.py")).read_text(encoding="utf-8").replace("\n", newline)
    target = tmp_path / "script.py"
    target.write_bytes(bom + source.encode("utf-8"))
    os.chmod(target, 0o640)
    code = main(["fix", *args, str(target)])
    assert code in (0, 1)
    assert target.read_bytes() == bom + expected.encode("utf-8")
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["script.py"]       # no temporary file left behind


LATIN = '''# -*- coding: latin-1 -*-
# caf\xe9
import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","L2":"on","task_trace":"on"}'
sess = tf.Session(config=config)
'''


def test_declared_encoding_is_kept(tmp_path):
    target = tmp_path / "latin.py"
    target.write_bytes(LATIN.encode("latin-1"))
    assert main(["fix", str(target)]) == 0
    assert target.read_bytes() == LATIN.replace('"L2"', '"l2"').encode("latin-1")


def test_diff_writes_nothing_and_exit_codes(tmp_path, capsys, monkeypatch):
    target = tmp_path / "x.py"
    target.write_text(LATIN.split("\n", 2)[2])
    before = target.read_bytes()
    assert main(["fix", "--diff", str(target)]) == 1
    out = capsys.readouterr().out
    assert '-op.parameter_map["profiling_options"].s' in out and '"l2":"on"' in out
    assert target.read_bytes() == before
    assert main(["fix", "--diff", "--exit-zero", str(target)]) == 0       # as Ruff: the diff, and exit 0
    assert capsys.readouterr().out == out and target.read_bytes() == before
    assert main(["fix", "--diff", "--exit-zero", "--exit-non-zero-on-fix", str(target)]) == 0
    capsys.readouterr()
    assert main(["fix", str(target)]) == 0               # everything fixed: nothing remains
    assert main(["fix", "--diff", str(target)]) == 0     # nothing left to change
    monkeypatch.chdir(tmp_path)
    (tmp_path / "y.py").write_text(target.read_text().replace('"l2"', '"L2"'))
    assert main(["fix"]) == 0                            # no paths: the current directory, as Ruff
    assert '"l2"' in (tmp_path / "y.py").read_text()


def test_unfixable_findings_remain_exit_1(tmp_path, capsys):
    target = tmp_path / "x.py"
    target.write_text(LATIN.split("\n", 2)[2].replace('"L2":"on"', '"storage_limit":"lots"'))
    assert main(["fix", str(target)]) == 1
    assert "NPP107" in capsys.readouterr().out


def test_unsafe_fixes_need_the_flag(tmp_path):
    target = tmp_path / "x.py"
    target.write_text(LATIN.split("\n", 2)[2].replace('"L2":"on"', '"hccl":"true"'))
    assert main(["fix", str(target)]) == 1
    assert '"hccl":"true"' in target.read_text()
    assert main(["fix", "--unsafe-fixes", str(target)]) == 0
    assert '"hccl":"on"' in target.read_text()


def test_noqa_and_syntax_errors_are_left_alone(tmp_path, capsys):
    body = LATIN.split("\n", 2)[2]
    noqa = tmp_path / "noqa.py"
    noqa.write_text(body.replace("task_trace\":\"on\"}'", "task_trace\":\"on\"}'  # noqa: NPP101"))
    broken = tmp_path / "broken.py"
    broken.write_text(body + "def (:\n")
    before = broken.read_bytes(), noqa.read_bytes()
    main(["fix", "--unsafe-fixes", str(noqa), str(broken)])
    assert (broken.read_bytes(), noqa.read_bytes()) == before
    assert "broken.py: not fixed, it has a syntax error" in capsys.readouterr().err


def test_a_fix_that_would_not_parse_is_refused(monkeypatch):
    from flake8_npuprof.commands import fix as fixcmd
    from flake8_npuprof.source.model import Edit
    body = LATIN.split("\n", 2)[2]
    real = check_text

    def breaking(*a, **kw):
        out = real(*a, **kw)
        return [f._replace(fix=f.fix._replace(edits=(Edit(0, 0, "def (:\n"),))) if f.fix else f for f in out]
    monkeypatch.setattr("flake8_npuprof.engine.run.check_text", breaking)
    result = fixcmd.fix_text(body, "x.py", Settings(), Selection(), True)
    assert result.text == body and result.refused and "would not parse" in result.refused[0][1]


SCRIPT = '''import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = tf.compat.as_bytes({literal})
sess = tf.Session(config=config)
'''
KEYS = st.sampled_from(["output", "L2", "l2", "task_trace", "training_trace", "aicpu", "storage_limit", "fp_point",
                        "bp_point", "aic_metrics", "result_path", "hccl", "Task_Trace"])
VALUES = st.sampled_from(['"on"', '"ON"', '"off"', "true", "200", '"2GB"', '"100MB"', '"x/y"', '""', '"pipeutilization"',
                          '"PipeUtilization"', "null", '"a\\"b"', '"中文"'])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(KEYS, VALUES), max_size=6), st.sampled_from(["'", '"']), st.booleans())
def test_fixing_generated_options_always_parses_and_converges(pairs, quote, single_quoted_json):
    body = "{" + ",".join(f'"{k}":{v}' for k, v in pairs) + "}"
    if single_quoted_json:
        body = body.replace('"', "'")
        quote = '"'
    literal = quote + body.replace("\\", "\\\\").replace(quote, "\\" + quote) + quote
    text = SCRIPT.format(literal=literal)
    ast.parse(text)
    result = fix_text(text, "x.py", Settings(), Selection(), True)
    ast.parse(result.text)
    again = fix_text(result.text, "x.py", Settings(), Selection(), True)
    assert again.text == result.text


# ---------------------------------------------------------------- links, folders and files we may not write

FIXABLE = LATIN.split("\n", 2)[2]
FIXED = FIXABLE.replace('"L2"', '"l2"')


@contextlib.contextmanager
def read_only(path: Path):
    """Make a file or folder unwritable, also for root (who ignores the mode): the immutable flag."""
    if os.geteuid() != 0:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        os.chmod(path, mode & ~0o222)
        try:
            yield
        finally:
            os.chmod(path, mode)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("running as root without chattr +i: nothing here can make a file unwritable")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_symlink_is_followed_and_stays_a_link(tmp_path, capsys):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "train.py"
    target.write_text(FIXABLE)
    link = tmp_path / "train.py"
    link.symlink_to(target)
    assert main(["fix", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == FIXED
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["train.py"]


def test_a_hard_linked_file_is_fixed_under_every_name(tmp_path, capsys):
    first = tmp_path / "train.py"
    first.write_text(FIXABLE)
    second = tmp_path / "train_copy.py"
    os.link(first, second)
    inode = os.stat(first).st_ino
    assert main(["fix", str(first)]) == 0
    assert os.stat(first).st_ino == inode == os.stat(second).st_ino and os.stat(first).st_nlink == 2
    assert first.read_text() == second.read_text() == FIXED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py", "train_copy.py"]


def test_a_file_in_an_unwritable_folder_is_fixed_in_place(tmp_path, capsys):
    locked = tmp_path / "locked"
    locked.mkdir()
    inside = locked / "train.py"
    inside.write_text(FIXABLE)
    other = tmp_path / "other.py"
    other.write_text(FIXABLE)
    with read_only(locked):
        code = main(["fix", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert inside.read_text() == FIXED and other.read_text() == FIXED
    assert sorted(p.name for p in locked.iterdir()) == ["train.py"]


def test_an_unwritable_or_unreadable_file_is_reported_and_the_others_still_fixed(tmp_path, capsys):
    blocked = tmp_path / "a_blocked.py"
    blocked.write_text(FIXABLE)
    later = tmp_path / "b_later.py"
    later.write_text(FIXABLE)
    (tmp_path / "a_dangling.py").symlink_to(tmp_path / "gone.py")
    with read_only(blocked):
        # --diff shows the same outcome as fix: the blocked file is reported, the other one diffed
        code = main(["fix", "--diff", str(tmp_path)])
        out, err = capsys.readouterr()
        assert code == 2
        assert f"{blocked}: not fixed, cannot write" in err
        assert f"{tmp_path / 'a_dangling.py'}: cannot read" in err
        assert "b_later.py" in out and "a_blocked.py" not in out
        code = main(["fix", str(tmp_path)])
        out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err and "internal error" not in err
    assert f"{blocked}: not fixed, cannot write" in err
    assert blocked.read_text() == FIXABLE and later.read_text() == FIXED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_blocked.py", "a_dangling.py", "b_later.py"]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_diff_applies_with_git(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q", "."], check=True)
    (tmp_path / "sub").mkdir()
    for name in ("x.py", "sub/y.py"):
        (tmp_path / name).write_text(FIXABLE)
    for paths in (["x.py", "sub/y.py"], ["./x.py", "./sub//y.py"], [str(tmp_path / "x.py"), str(tmp_path / "sub")], []):
        assert main(["fix", "--diff", *paths]) == 1
        diff = capsys.readouterr().out
        assert "--- a/x.py\n+++ b/x.py\n" in diff and "--- a/sub/y.py\n+++ b/sub/y.py\n" in diff
        (tmp_path / "fix.diff").write_text(diff)
        proc = subprocess.run(["git", "apply", "--check", "fix.diff"], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    subprocess.run(["git", "apply", "fix.diff"], check=True)
    assert (tmp_path / "x.py").read_text() == (tmp_path / "sub" / "y.py").read_text() == FIXED


def test_an_in_place_write_that_fails_puts_the_old_text_back(tmp_path, capsys, monkeypatch):
    import errno
    from flake8_npuprof.source import writes
    first = tmp_path / "train.py"
    first.write_text(FIXABLE)
    os.link(first, tmp_path / "other_name.py")
    calls = []

    class FullDisk(writes.Disk):
        def fsync(self, fd):
            if os.fstat(fd).st_ino == first.stat().st_ino:
                calls.append(fd)
                if len(calls) == 1:         # the write of the fixed text fails, the restore works
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return super().fsync(fd)
    monkeypatch.setattr(writes, "DISK", FullDisk())
    other = tmp_path / "z_other.py"
    other.write_text(FIXABLE)
    code = main(["fix", str(first), str(other)])
    err = capsys.readouterr().err
    assert code == 2 and f"{first}: not fixed, cannot write: No space left on device" in err
    assert first.read_text() == (tmp_path / "other_name.py").read_text() == FIXABLE
    assert other.read_text() == FIXED


# ---------------------------------------------------------------- what a review of fix's data safety found

BODY = LATIN.split("\n", 2)[2]


@pytest.mark.parametrize("options", ['''"{'output': '%s', 'task_trace': 'on'}" % OUT''',
                                     '''f"{{'output': '{OUT}', 'task_trace': 'on'}}"'''])
def test_a_formatted_string_is_not_rewritten_with_its_values(tmp_path, capsys, options):
    # before: the safe NPP100 fix wrote the filled-in value back, dropping `%s` (the script then raised TypeError)
    # or replacing the f-string field by its value
    target = tmp_path / "x.py"
    target.write_text("OUT = '/tmp/p'\n" + BODY.replace(
        """b'{"output":"/tmp/p","L2":"on","task_trace":"on"}'""", f"tf.compat.as_bytes({options})"))
    before = target.read_bytes()
    assert main(["fix", str(target)]) == 1
    out = capsys.readouterr().out
    assert "NPP100" in out and "fixable" not in out
    assert target.read_bytes() == before


def test_a_piece_emptied_keeps_the_comment_after_it(tmp_path):
    target = tmp_path / "x.py"
    target.write_text(BODY.replace("""b'{"output":"/tmp/p","L2":"on","task_trace":"on"}'""",
                                   """(\n    b'{"output":"/tmp/p",'\n    b'"aicpu":"off",'  # off for now, JIRA-123\n"""
                                   """    b'"aicpu":"on",'\n    b'"task_trace":"on"}')"""))
    assert main(["fix", str(target)]) == 0
    assert """    b'{"output":"/tmp/p",'\n    # off for now, JIRA-123\n    b'"aicpu":"on",'\n""" in target.read_text()


def test_one_file_named_twice_is_fixed_once(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.py").write_text(BODY)
    # before: the second name found the file "changed while fixing" (exit 2), and --diff printed it twice
    assert main(["fix", "--diff", "x.py", "./x.py", str(tmp_path / "x.py")]) == 1
    assert capsys.readouterr().out.count("+++ b/") == 1
    assert main(["fix", "x.py", "./x.py", "."]) == 0


def test_a_lone_surrogate_in_the_output_path_is_no_internal_error(tmp_path, capsys):
    target = tmp_path / "x.py"
    # a str literal: \ud800 is an escape there (in bytes it is not)
    target.write_text(BODY.replace("b'{\"output\":\"/tmp/p\"", "'{\"output\":\"/tmp/\\ud800\""))
    main(["check", str(target)])
    out = capsys.readouterr().out
    assert "NPP101" in out and "NPP000" not in out


def test_the_fix_limit_is_said_and_nothing_claims_to_be_fixable(tmp_path, capsys, monkeypatch):
    from flake8_npuprof.engine import fix as engine_fix
    monkeypatch.setattr(engine_fix, "MAX_FIXES", 1)
    target = tmp_path / "x.py"
    target.write_text(BODY.replace('"task_trace":"on"', '"task_trace":"ON"'))
    assert main(["fix", str(target)]) == 1
    out, err = capsys.readouterr()
    assert "fix refused: not tried: one run stops after 1 attempt at fixing a file (1 made a fix here); run " \
           "`npuprof fix` again" in err
    assert "NPP102" in out and "fixable" not in out


def test_extended_attributes_survive_the_fix(tmp_path):
    target = tmp_path / "x.py"
    target.write_text(BODY)
    try:
        os.setxattr(target, "user.note", b"keep")
    except (AttributeError, OSError):
        pytest.skip("no user extended attributes on this file system")
    assert main(["fix", str(target)]) == 0
    assert '"l2"' in target.read_text() and os.getxattr(target, "user.note") == b"keep"    # before: gone
