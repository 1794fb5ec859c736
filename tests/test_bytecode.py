"""`check` trusts this interpreter's bytecode cache as proof that a file without profiling markers parses
(source/bytecode.py), and nothing else: another Python's cache, a changed file, a cache older than the
file, or text that did not come from the file are checked by the parser as before (NPP192)."""

import importlib.util
import os
import py_compile

import pytest

from flake8_npuprof.checks import analysis
from flake8_npuprof.cli import main
from flake8_npuprof.engine.run import check_each
from flake8_npuprof.source.files import Selection
from flake8_npuprof.knowledge.run_settings import Settings
from flake8_npuprof.source import bytecode

GOOD = "import os\n\n\ndef main():\n    return os.getcwd()\n"
BROKEN = "import os\n\n\ndef main(:)\n    return os.getcwd()\n"      # the same length as GOOD


@pytest.fixture
def module(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text(GOOD)
    return path


def compile_(path, mode=py_compile.PycInvalidationMode.TIMESTAMP):
    return py_compile.compile(str(path), doraise=True, invalidation_mode=mode)


def test_timestamp_cache_proves_the_bytes_it_was_compiled_from(module):
    assert not bytecode.compiled(str(module), module.read_bytes())      # no cache yet
    compile_(module)
    assert bytecode.compiled(str(module), module.read_bytes())
    assert not bytecode.compiled(str(module), module.read_bytes() + b"#")   # not the bytes on disk


def test_a_file_changed_after_its_cache_is_no_proof(module):
    cached = compile_(module)
    module.write_text(GOOD + "x = 1\n")                       # another size
    assert not bytecode.compiled(str(module), module.read_bytes())
    # Same size, and a modification time in the same second as the one the header holds: the header
    # matches, but the file changed after the cache was written
    module.write_text(BROKEN)
    second = int.from_bytes(open(cached, "rb").read()[8:12], "little")
    os.utime(cached, ns=(second * 10**9, second * 10**9))
    os.utime(module, ns=(second * 10**9 + 5 * 10**8, second * 10**9 + 5 * 10**8))
    assert not bytecode.compiled(str(module), module.read_bytes())
    os.utime(cached, ns=(second * 10**9 + 6 * 10**8, second * 10**9 + 6 * 10**8))
    assert bytecode.compiled(str(module), module.read_bytes())      # what import would trust, and run


@pytest.mark.parametrize("mode", [py_compile.PycInvalidationMode.CHECKED_HASH,
                                  py_compile.PycInvalidationMode.UNCHECKED_HASH])
def test_hash_based_cache_proves_exactly_its_bytes(module, mode):
    compile_(module, mode)
    assert bytecode.compiled(str(module), module.read_bytes())
    module.write_text(BROKEN)                                 # same size; the hash tells them apart
    assert not bytecode.compiled(str(module), module.read_bytes())


def test_another_interpreters_cache_is_no_proof(module):
    cached = compile_(module)
    with open(cached, "r+b") as fh:
        fh.write(b"\x00\x00\r\n")                             # another magic number: another bytecode version
    assert not bytecode.compiled(str(module), module.read_bytes())
    with open(cached, "wb") as fh:
        fh.write(importlib.util.MAGIC_NUMBER + b"\x04\x00")   # cut short
    assert not bytecode.compiled(str(module), module.read_bytes())


def test_unknown_flags_are_no_proof(module):
    cached = compile_(module)
    with open(cached, "r+b") as fh:
        fh.seek(4)
        fh.write((4).to_bytes(4, "little"))
    assert not bytecode.compiled(str(module), module.read_bytes())


def test_compiled_skips_only_the_syntax_check():
    """The flag is a promise about the text: given it, a broken text without markers is not parsed again
    (so the promise must come from the file's own cache); without it, NPP192 as before."""
    sel = Selection(select=("NPP",))
    assert [[f.code for f in fs] for fs in check_each("b.py", BROKEN, "python", (Settings(),), sel)] == [["NPP192"]]
    assert check_each("b.py", BROKEN, "python", (Settings(),), sel, compiled=True) == [[]]
    profiling = BROKEN + 'op.parameter_map["profiling_mode"].b = True\n'
    found = check_each("p.py", profiling, "python", (Settings(),), sel, compiled=True)
    assert [[f.code for f in fs] for fs in found] == [["NPP192"]]   # a file with markers is parsed whatever


def test_check_asks_the_parser_only_for_files_without_a_proof(tmp_path, monkeypatch, capsys):
    proven, unproven, broken = (tmp_path / n for n in ("proven.py", "unproven.py", "broken.py"))
    proven.write_text(GOOD)
    unproven.write_text(GOOD)
    broken.write_text(BROKEN)
    compile_(proven)
    checked = []
    real = analysis.syntax_check
    monkeypatch.setattr(analysis, "syntax_check", lambda text, name="<unknown>": checked.append(name) or real(text, name))
    monkeypatch.chdir(tmp_path)
    code = main(["check", "--no-cache", "-j1", "proven.py", "unproven.py", "broken.py"])
    out = capsys.readouterr().out
    assert sorted(os.path.basename(p) for p in checked) == ["broken.py", "unproven.py"]
    assert code == 1 and "broken.py:4:10: NPP192" in out and "proven.py" not in out.replace("unproven", "")


def test_stdin_text_is_never_proven_by_the_file_it_is_named_after(tmp_path, monkeypatch, capsys):
    """An editor sends its unsaved buffer on stdin under the file's name: the cache on disk says nothing
    about that text."""
    path = tmp_path / "mod.py"
    path.write_text(GOOD)
    compile_(path)
    monkeypatch.chdir(tmp_path)
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BROKEN.encode())))
    code = main(["check", "--no-cache", "--stdin-filename", "mod.py", "-"])
    assert code == 1 and "mod.py:4:10: NPP192" in capsys.readouterr().out
