"""A Python file Python cannot decode is a finding (NPP192) in every front-end (issue 41).

Python decodes a source before it runs a line (PEP 263: a BOM, else the coding line on line 1 or 2,
else UTF-8) and raises SyntaxError when it cannot. flake8 6 and 7 read such a file as Latin-1 and
report nothing; `npuprof check` used to stop with exit 2 (the status for usage errors).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.source.files import DecodeError, decode_python

GBK = "import os\n# 性能采集\nx = 1\n".encode("gbk")           # Chinese comment in GBK, no coding line

CASES = [
    # bytes, (line, column) of the first byte Python cannot decode (or of the coding line's name), reason
    (GBK, (2, 2), "byte 0xd0 is not UTF-8, and no coding line declares another encoding"),
    ("x = 'é'  # 采\n".encode("utf-8")[:-4] + "采".encode("gbk") + b"\n", (1, 11),
     "byte 0xb2 is not UTF-8, and no coding line declares another encoding"),
    (b"# -*- coding: nosuch -*-\nx = 1\n", (1, 14), "its coding line names 'nosuch', an encoding Python does not know"),
    (b"#!/usr/bin/env python\r\n# coding: klingon\r\nx = 1\r\n", (2, 10),
     "its coding line names 'klingon', an encoding Python does not know"),
    (b"\xef\xbb\xbf# coding: latin-1\nx = 1\n", (1, 10),
     "it starts with a UTF-8 byte-order mark but its coding line declares 'latin-1'"),
    (b"# coding: gbk\r\nx = '\xb2\xe2'\r\ny = '\xff\xff'\r\n", (3, 5),
     "byte 0xff is not gbk, the encoding its coding line declares"),
    # Python's tokenizer takes only "utf-8" (get_normal_name) after a BOM: "utf8" is refused (stdlib bad_coding2.py)
    (b"\xef\xbb\xbf#coding: utf8\nx = 1\n", (1, 9),
     "it starts with a UTF-8 byte-order mark but its coding line declares 'utf8'"),
    (b"# coding: rot13\nx = 1\n", (1, 10), "its coding line names 'rot13', which Python cannot decode source with"),
]
GOOD = [
    "# -*- coding: gbk -*-\n# 性能采集\nx = 1\n".encode("gbk"),
    "\n# vim: set fileencoding=gb18030 :\nx = '性能'\n".encode("gb18030"),
    "x = '性能'\n".encode("utf-8"),
    b"\xef\xbb\xbf# coding: utf-8\nx = 1\n",
    b"x = 1\n# coding: nosuch\n",       # line 3: not a coding line
    b"\xef\xbb\xbf# coding: UTF_8\nx = 1\n",
    b"import os\n# coding: nosuch\n",   # line 2 after a line of code: not a coding line
    b"#!/usr/bin/env python\n\n# coding: nosuch\n",     # after the second line feed: not looked at
    "\n# -*- coding: gbk -*-\nx = '性能'\n".encode("gbk"),   # line 2 after a blank line, the file's last line feed
    "#!/usr/bin/env python\r\n# coding: gbk\r\nx = '性能'".encode("gbk"),   # CRLF, no line feed after the code
]


def run_as_script(tmp_path, data: bytes) -> subprocess.CompletedProcess:
    """Python itself, as a training script is started (`python x.py`: its file reader checks every line;
    3.11's compile() of bytes, which import uses, lets a comment through undecoded)."""
    (tmp_path / "x.py").write_bytes(data)
    return subprocess.run([sys.executable, "x.py"], capture_output=True, text=True, cwd=tmp_path)


@pytest.mark.parametrize("data, where, reason", CASES)
def test_python_refuses_what_we_refuse_and_where(tmp_path, data, where, reason):
    ran = run_as_script(tmp_path, data)
    assert ran.returncode == 1 and ran.stderr.splitlines()[-1].startswith("SyntaxError: ")
    with pytest.raises(DecodeError) as exc:
        decode_python(data)
    assert (exc.value.line, exc.value.col) == where and exc.value.reason == reason


@pytest.mark.parametrize("data", GOOD)
def test_what_python_decodes_we_decode(tmp_path, data):
    assert run_as_script(tmp_path, data).returncode == 0
    text, _ = decode_python(data)
    assert compile(text, "x.py", "exec").co_consts == compile(data, "x.py", "exec").co_consts


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "gbk.py").write_bytes(GBK)
    (tmp_path / "ok.py").write_text(
        'import os\nos.environ["PROFILING_MODE"] = "true"\n'
        'os.environ["PROFILING_OPTIONS"] = \'{"output":"/tmp/p","L2":"on"}\'\n', encoding="utf-8")
    return tmp_path


MESSAGE = ("NPP192 the file does not decode: byte 0xd0 is not UTF-8, and no coding line declares another encoding, "
           "so Python refuses to run it as a script and nothing in it was checked")


def test_npuprof_check_reports_it_and_checks_the_others(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree)
    code = main(["check", "--no-cache", "."])
    out, err = capsys.readouterr()
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"gbk.py:2:3: {MESSAGE}"
    assert lines[1].startswith("ok.py:3:") and "NPP101" in lines[1]
    assert "cannot decode" not in err and err.splitlines()[0].startswith("Found 2 findings")


def test_npuprof_fix_leaves_it_as_a_finding(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree)
    assert main(["fix", "--no-cache", "gbk.py"]) == 1
    assert f"gbk.py:2:3: {MESSAGE}" in capsys.readouterr().out
    assert (tree / "gbk.py").read_bytes() == GBK


@pytest.mark.parametrize("select", [["--select", "NPP"], []])
def test_the_flake8_plugin_reports_it(tree, select):
    proc = subprocess.run([sys.executable, "-m", "flake8", *select, "gbk.py", "ok.py"], capture_output=True,
                          text=True, cwd=tree)
    lines = proc.stdout.splitlines()
    assert f"gbk.py:2:3: {MESSAGE}" in lines, proc.stdout + proc.stderr
    assert proc.returncode == 1
    if select:                                  # other plugins read flake8's Latin-1 text; NPP says only NPP192
        assert [x for x in lines if "gbk.py" in x] == [f"gbk.py:2:3: {MESSAGE}"]


def test_the_plugin_leaves_decodable_files_alone(tmp_path):
    (tmp_path / "a.py").write_bytes("# -*- coding: gbk -*-\n# 性能采集\nx = 1\n".encode("gbk"))
    (tmp_path / "b.py").write_bytes("x = 'café'\n".encode("utf-8"))
    proc = subprocess.run([sys.executable, "-m", "flake8", "--select", "NPP", "a.py", "b.py"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == ""


def test_the_language_server_reports_it_in_the_document(tree):
    from flake8_npuprof import lsp_analysis as A
    path = str(tree / "gbk.py")
    doc = A.doc_settings(path, A.Overrides(), A.ConfigCache())
    text = GBK.decode("gbk")                    # as an editor that guessed the encoding shows it
    analysis = A.analyse_document(text, path, "python", doc)
    assert [(f.code, f.line, f.col, f.short) for f in analysis.findings] == [("NPP192", 2, 2, MESSAGE[7:])]
    (tree / "gbk.py").write_bytes(b"# -*- coding: gbk -*-\n" + GBK)     # declared: decodes, checked again
    assert A.analyse_document("# -*- coding: gbk -*-\n" + text, path, "python", doc).findings == []


def test_fix_from_standard_input_passes_the_bytes_through(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "flake8_npuprof", "fix", "--no-cache", "--stdin-filename", "gbk.py",
                           "-"], input=GBK, capture_output=True, cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == GBK
    assert f"gbk.py:2:3: {MESSAGE}" in proc.stderr.decode()
    proc = subprocess.run([sys.executable, "-m", "flake8_npuprof", "check", "--no-cache", "-"], input=GBK,
                          capture_output=True, cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout.decode().startswith("-:2:3: NPP192 the file does not decode")
