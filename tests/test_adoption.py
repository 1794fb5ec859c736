"""`npuprof check --add-noqa`: adopt the tool on an existing codebase without fixing everything first."""

import subprocess
import sys

from flake8_npuprof.cli import main
from flake8_npuprof.commands.noqa import add_codes

BAD = '''import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","L2":"on","storage_limit":"lots"}'
sess = tf.Session(config=config)
'''


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_adds_one_comment_per_line_with_all_its_codes_and_is_idempotent(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(BAD)
    (tmp_path / "clean.py").write_text("import os\n")
    code, out, err = run(capsys, "check", "--add-noqa", ".")
    assert (code, out) == (0, "") and err == "Added 1 noqa directive to 1 file.\n"
    lines = (tmp_path / "a.py").read_text().splitlines()
    assert lines[5] == BAD.splitlines()[5] + "  # noqa: NPP101, NPP107"
    assert lines[:5] + lines[6:] == BAD.splitlines()[:5] + BAD.splitlines()[6:]
    assert (tmp_path / "clean.py").read_text() == "import os\n"
    assert run(capsys, "check", ".")[:2] == (0, "")
    before = (tmp_path / "a.py").read_bytes()
    assert run(capsys, "check", "--add-noqa", ".")[2] == "Added 0 noqa directives to 0 files.\n"
    assert (tmp_path / "a.py").read_bytes() == before
    # flake8 reads the comments the same way
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", "a.py"],
                          capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (0, "")


def test_keeps_existing_comments_encoding_and_line_endings(tmp_path, capsys):
    text = ("# -*- coding: latin-1 -*-\r\n# caf\xe9\r\n" + BAD.replace("\n", "\r\n")
            .replace("lots\"}'\r\n", "lots\"}'  # keep this note\r\n"))
    target = tmp_path / "latin.py"
    target.write_bytes(text.encode("latin-1"))
    assert run(capsys, "check", "--add-noqa", str(target))[0] == 0
    data = target.read_bytes()
    assert data == text.replace("# keep this note", "# keep this note  # noqa: NPP101, NPP107").encode("latin-1")


def test_extends_an_existing_noqa_with_codes(tmp_path, capsys):
    target = tmp_path / "x.py"
    target.write_text(BAD.replace("lots\"}'\n", "lots\"}'  # noqa: E501\n"))
    assert run(capsys, "check", "--add-noqa", str(target))[0] == 0
    assert "lots\"}'  # noqa: E501, NPP101, NPP107\n" in target.read_text()


def test_the_comment_goes_where_flake8_reads_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # a finding inside a multi-line string: flake8 reads the comment at the end of the statement
    text = BAD.replace("s = b'{\"output\":\"/tmp/p\",\"L2\":\"on\",\"storage_limit\":\"lots\"}'",
                       's = b"""{\n  "output": "/tmp/p",\n  "L2": "on"\n}"""')
    (tmp_path / "multi.py").write_text(text)
    assert run(capsys, "check", "--add-noqa", "multi.py")[0] == 0
    assert '}"""  # noqa: NPP101\n' in (tmp_path / "multi.py").read_text()
    assert run(capsys, "check", "multi.py")[:2] == (0, "")
    proc = subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", "multi.py"],
                          capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (0, "")


def test_add_codes():
    assert add_codes("x = 1\n", ["NPP101"]) == "x = 1  # noqa: NPP101\n"
    assert add_codes("x = 1  # noqa\n", ["NPP101"]) == "x = 1  # noqa\n"
    assert add_codes("x = 1  # noqa:NPP1\n", ["NPP101"]) == "x = 1  # noqa:NPP1\n"
    assert add_codes("x = 1  # noqa: E501 trailing\r\n", ["NPP101"]) == "x = 1  # noqa: E501, NPP101 trailing\r\n"
    assert add_codes("x = 1", ["NPP101", "NPP107"]) == "x = 1  # noqa: NPP101, NPP107"


def test_stdin_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "flake8_npuprof", "check", "--add-noqa", "-"], input=BAD,
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "--add-noqa edits files, not standard input" in proc.stderr
