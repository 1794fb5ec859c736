"""`npuprof fix --diff` follows unified-diff rules (issue 26): every fixable eval file and fix pair, with
each line ending (LF, CRLF, CR, no final newline) and encoding (UTF-8, UTF-8 with a BOM, GB18030 under
its coding cookie), goes through `git apply --check` and `patch --dry-run`, and applying the diff gives
the very bytes `npuprof fix` writes."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from flake8_npuprof.cli import main

HERE = Path(__file__).resolve().parent
CANDIDATES = sorted((HERE / "fix_pairs").glob("*.in.py")) + sorted((HERE / "eval_files").glob("*.py"))
GIT, PATCH = shutil.which("git"), shutil.which("patch")
ENDINGS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r", "no final newline": "\n"}
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=]")


def variant(text: str, ending: str, encoding: str) -> bytes:
    lines = text.splitlines()
    if encoding == "gb18030":                       # declared where Python looks: line 1, or 2 after a shebang
        cookie = "# -*- coding: gb18030 -*-"
        head = 1 if lines and lines[0].startswith("#!") else 0
        old = next((k for k in range(min(2, len(lines))) if _COOKIE.match(lines[k])), None)
        if old is not None:
            lines[old] = cookie
        else:
            lines.insert(head, cookie)
    body = ENDINGS[ending].join(lines) + ("" if ending == "no final newline" else ENDINGS[ending])
    if encoding == "utf-8-sig":
        return b"\xef\xbb\xbf" + body.encode("utf-8")
    return body.encode(encoding)


def _run(capsysbinary, *argv):
    code = main(list(argv))
    out, err = capsysbinary.readouterr()
    return code, out, err.decode("utf-8", "replace")


def _apply(tool, folder: Path, diff: bytes, dry: bool):
    (folder / "fix.diff").write_bytes(diff)
    if tool == "git":
        argv = [GIT, "apply"] + (["--check"] if dry else []) + ["fix.diff"]
    else:
        argv = [PATCH, "-p1", "--batch", "--silent"] + (["--dry-run"] if dry else []) + ["-i", "fix.diff"]
    proc = subprocess.run(argv, cwd=folder, capture_output=True)
    (folder / "fix.diff").unlink()
    return proc.returncode, (proc.stdout + proc.stderr).decode("utf-8", "replace")


def _fixable():
    return [p for p in CANDIDATES if "(fixable: npuprof fix" in _findings(p)]


def _findings(path: Path) -> str:
    from flake8_npuprof.checks.analysis import analyse
    from flake8_npuprof.engine.fix import fix_marker
    text = path.read_text(encoding="utf-8")
    return "".join(fix_marker(f) for f in analyse(text, None, str(path)))


FIXABLE = _fixable()


def test_there_are_fixable_files_to_try():
    assert len(FIXABLE) >= 15, [p.name for p in FIXABLE]


@pytest.mark.skipif(GIT is None or PATCH is None, reason="git and patch are both needed (git apply, patch --dry-run)")
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "gb18030"])
@pytest.mark.parametrize("ending", list(ENDINGS))
def test_the_diff_applies_and_gives_what_fix_writes(tmp_path, capsysbinary, monkeypatch, ending, encoding):
    monkeypatch.chdir(tmp_path)
    tried = 0
    for src in FIXABLE:
        data = variant(src.read_text(encoding="utf-8"), ending, encoding)
        for folder in ("diff", "git", "patch", "fixed"):
            (tmp_path / folder).mkdir(exist_ok=True)
            (tmp_path / folder / "x.py").write_bytes(data)
        monkeypatch.chdir(tmp_path / "diff")
        code, diff, err = _run(capsysbinary, "fix", "--diff", "--unsafe-fixes", "x.py")
        assert (tmp_path / "diff" / "x.py").read_bytes() == data            # --diff writes nothing
        monkeypatch.chdir(tmp_path / "fixed")
        _run(capsysbinary, "fix", "--unsafe-fixes", "x.py")
        fixed = (tmp_path / "fixed" / "x.py").read_bytes()
        if fixed == data:
            assert diff == b"", (src.name, err)
            continue                                # every fix refused in this variant: nothing to apply
        tried += 1
        assert diff.startswith(b"--- a/x.py\n+++ b/x.py\n@@ -"), (src.name, diff[:200])
        for tool in ("git", "patch"):
            folder = tmp_path / tool
            assert _apply(tool, folder, diff, dry=True) == (0, ""), (src.name, tool)
            assert _apply(tool, folder, diff, dry=False)[0] == 0, (src.name, tool)
            assert (folder / "x.py").read_bytes() == fixed, (src.name, tool)
        if encoding == "gb18030" and any(c > 0x7f for c in fixed):
            assert diff.decode("gb18030")                                    # the file's own encoding, not UTF-8
    assert tried >= len(FIXABLE) // 2, tried


@pytest.mark.skipif(GIT is None or PATCH is None, reason="git and patch are both needed")
@pytest.mark.parametrize("odd", ["\u2028", "\x85", "\x1d", "\x0c", "\x0b", "\u2029"])
def test_characters_str_splitlines_splits_at_do_not_move_the_hunks(tmp_path, capsysbinary, monkeypatch, odd):
    """str.splitlines splits at these and git does not: the hunk's line numbers went off by one."""
    from test_cli_conventions import BAD
    text = f"# {odd} a comment with it\n" + BAD.replace("sess = tf.Session", f"x = '{odd}'\nsess = tf.Session")
    monkeypatch.chdir(tmp_path)
    for folder in ("diff", "git", "patch", "fixed"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.py").write_bytes(text.encode("utf-8"))
    monkeypatch.chdir(tmp_path / "diff")
    diff = _run(capsysbinary, "fix", "--diff", "x.py")[1]
    monkeypatch.chdir(tmp_path / "fixed")
    _run(capsysbinary, "fix", "x.py")
    fixed = (tmp_path / "fixed" / "x.py").read_bytes()
    assert fixed != text.encode("utf-8") and b"@@ -4,6 +4,6 @@" in diff, diff
    for tool in ("git", "patch"):
        assert _apply(tool, tmp_path / tool, diff, dry=True) == (0, ""), tool
        assert _apply(tool, tmp_path / tool, diff, dry=False)[0] == 0
        assert (tmp_path / tool / "x.py").read_bytes() == fixed, tool


def test_no_newline_at_end_of_file_is_marked(tmp_path, capsysbinary, monkeypatch):
    from test_cli_conventions import BAD
    monkeypatch.chdir(tmp_path)
    lines = BAD.rstrip("\n").split("\n")
    text = "\n".join(lines[:-2] + [lines[-1], lines[-2]])     # the fix on the last line, which has no newline
    (tmp_path / "x.py").write_text(text)
    diff = _run(capsysbinary, "fix", "--diff", "x.py")[1]
    assert diff.endswith(b'"on"}\'\n\\ No newline at end of file\n+' + lines[-2].replace('"L2"', '"l2"').encode() +
                         b"\n\\ No newline at end of file\n")


def test_standard_input_comes_back_in_its_own_bytes(tmp_path, capsysbinary, monkeypatch):
    """`npuprof fix -` writes the fixed file to standard output as the file's bytes (a GB18030 file came
    out in UTF-8), and a file it does not change comes back byte for byte."""
    import io
    import sys
    from test_cli_conventions import BAD
    for data, expected in ((variant(BAD + "# 注释\n", "CRLF", "gb18030"),
                            variant(BAD.replace('"L2"', '"l2"') + "# 注释\n", "CRLF", "gb18030")),
                           (b"\xef\xbb\xbfimport os\r\n# \xe6\xb3\xa8\r", b"\xef\xbb\xbfimport os\r\n# \xe6\xb3\xa8\r")):
        stdin = io.TextIOWrapper(io.BytesIO(data))
        monkeypatch.setattr(sys, "stdin", stdin)
        code, out, _ = _run(capsysbinary, "fix", "-")
        assert out == expected
