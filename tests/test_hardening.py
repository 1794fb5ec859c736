"""A scanned tree is untrusted: nothing in it runs, nothing outside it is read or written, and what it
costs is bounded by its size (issue 43)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.source.ignore import GitIgnore

HAS_GIT = shutil.which("git") is not None


def _plant(tree, marker):
    """A repository whose config, hooks and includes each name a program that touches `marker`."""
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    script = tree / ".git" / "touch.sh"
    script.write_text(f"#!/bin/sh\necho \"$0 $*\" >> '{marker}'\n")
    script.chmod(0o755)
    (tree / ".git" / "included").write_text(f"[core]\n\tfsmonitor = {script}\n")
    with open(tree / ".git" / "config", "a") as fh:
        fh.write(f"[core]\n\tfsmonitor = {script}\n\tpager = {script}\n\thooksPath = .git/hooks\n"
                 f"[alias]\n\tls-files = !{script}\n\tstatus = !{script}\n"
                 f"[diff]\n\texternal = {script}\n"
                 f"[include]\n\tpath = included\n")
    for hook in ("post-index-change", "pre-commit", "post-checkout", "fsmonitor-watchman", "reference-transaction"):
        (tree / ".git" / "hooks" / hook).write_text(f"#!/bin/sh\necho \"$0\" >> '{marker}'\n")
        (tree / ".git" / "hooks" / hook).chmod(0o755)
    (tree / ".gitignore").write_text("gen/\n")
    (tree / "gen").mkdir()
    (tree / "gen" / "out.py").write_text("import os\n")
    (tree / "train.py").write_text("import os\n")


@pytest.mark.skipif(not HAS_GIT, reason="needs git")
def test_planted_fsmonitor_hooks_and_aliases_never_fire(tmp_path, monkeypatch, capsys):
    tree, marker = tmp_path / "tree", tmp_path / "marker"
    tree.mkdir()
    _plant(tree, marker)
    # the planted config does fire under a plain git call: the test can fail
    subprocess.run(["git", "ls-files", "--others"], cwd=tree, capture_output=True)
    assert marker.exists()
    marker.unlink()
    # what a pre-commit hook or a user's shell may export reaches no git started by npuprof
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.fsmonitor'='{tree / '.git' / 'touch.sh'}'")
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(tree / ".git" / "touch.sh"))
    monkeypatch.setenv("GIT_PAGER", str(tree / ".git" / "touch.sh"))
    ignore = GitIgnore(str(tree))
    assert ignore.reader is None                             # git answered, not the fallback reader
    assert ignore.paths == {str(tree / "gen")}
    monkeypatch.chdir(tree)
    for argv in (["check", "."], ["fix", "--diff", "."], ["check", "--show-files", "."]):
        main(argv)
    out = capsys.readouterr().out
    assert "gen/out.py" not in out
    assert not marker.exists(), marker.read_text()


@pytest.mark.skipif(not HAS_GIT, reason="needs git")
def test_a_git_planted_in_the_tree_never_runs_through_a_relative_path_entry(tmp_path, monkeypatch):
    tree, marker = tmp_path / "tree", tmp_path / "marker"
    tree.mkdir()
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    (tree / ".gitignore").write_text("gen/\n")
    (tree / "gen").mkdir()
    planted = tree / "git"
    planted.write_text(f"#!/bin/sh\ntouch '{marker}'\n")
    planted.chmod(0o755)
    # an empty PATH entry is the working directory, and git runs in the scanned tree
    monkeypatch.setenv("PATH", os.pathsep.join(["", ".", os.environ["PATH"]]))
    ignore = GitIgnore(str(tree))
    assert not marker.exists()
    assert ignore.reader is None and ignore.paths == {str(tree / "gen")}      # the real git answered


def test_npu_smi_is_looked_up_only_on_absolute_path_entries(tmp_path, monkeypatch):
    """An empty or relative PATH entry means the current folder, often the scanned tree."""
    from flake8_npuprof.knowledge import detect
    fake = tmp_path / "npu-smi"
    fake.write_text("#!/bin/sh\necho planted\n")
    fake.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    ran = []
    found = detect.detect_soc({"PATH": os.pathsep.join(["", ".", "bin"])}, run=lambda exe: ran.append(exe) or "")
    assert ran == []
    assert "no npu-smi on PATH" in found.notes


# ---------------------------------------------------------------- the tree is the boundary

FIXABLE = '''import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","L2":"on","task_trace":"on"}'  # SECRET-LINE
sess = tf.Session(config=config)
'''
FIXED = FIXABLE.replace('"L2"', '"l2"')


@pytest.fixture
def linked(tmp_path, monkeypatch):
    """tree/ with its own fixable file, a link to a fixable file outside it and a link to one inside it."""
    tree, away = tmp_path / "tree", tmp_path / "away"
    tree.mkdir()
    away.mkdir()
    (away / "secret.py").write_text(FIXABLE)
    (tree / "own.py").write_text(FIXABLE)
    (tree / "sub").mkdir()
    (tree / "sub" / "real.py").write_text(FIXABLE)
    (tree / "out.py").symlink_to(away / "secret.py")
    (tree / "in.py").symlink_to(tree / "sub" / "real.py")
    (tree / "away_dir").symlink_to(away, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    return tree, away


def test_a_folder_walk_leaves_out_links_to_files_outside_it_and_says_so_once(linked, capsys):
    tree, away = linked
    assert main(["check", "--show-files", "tree"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["tree/in.py", "tree/own.py", "tree/sub/real.py"]
    assert err.count("not following") == 1
    assert (f"npuprof: note: not following tree/out.py -> {away / 'secret.py'}: a folder's walk checks only files "
            "inside it (name a link on the command line to check what it points to)") in err
    assert main(["check", "--show-source", "tree"]) == 1
    out, err = capsys.readouterr()
    assert "tree/own.py:6:" in out and "SECRET-LINE" in out           # its own lines are shown
    assert "out.py" not in out and "away" not in out
    assert err.count("not following") == 1


def test_fix_on_a_folder_writes_nothing_outside_it(linked, capsys):
    tree, away = linked
    assert main(["fix", "tree"]) == 0
    assert (away / "secret.py").read_text() == FIXABLE
    assert (tree / "own.py").read_text() == FIXED and (tree / "sub" / "real.py").read_text() == FIXED
    assert (tree / "out.py").is_symlink() and (tree / "in.py").is_symlink()
    assert sorted(p.name for p in away.iterdir()) == ["secret.py"]


def test_a_link_named_on_the_command_line_is_checked_and_fixed(linked, capsys):
    tree, away = linked
    assert main(["check", "tree/out.py"]) == 1
    assert "tree/out.py:6:" in capsys.readouterr().out
    assert main(["fix", "tree/out.py"]) == 0
    assert (away / "secret.py").read_text() == FIXED and (tree / "out.py").is_symlink()


def test_a_link_retargeted_outside_after_the_walk_is_not_written(linked, capsys):
    from flake8_npuprof.source.writes import WriteError, write_bytes
    tree, away = linked
    with pytest.raises(WriteError, match="outside tree .name the link to fix what it points to.; the file is unchanged"):
        write_bytes("tree/out.py", FIXED.encode(), FIXABLE.encode(), within="tree")
    assert (away / "secret.py").read_text() == FIXABLE
    write_bytes("tree/in.py", FIXED.encode(), FIXABLE.encode(), within="tree")
    assert (tree / "sub" / "real.py").read_text() == FIXED



def test_a_sibling_module_linked_from_outside_the_walked_folder_is_not_read(tmp_path, monkeypatch, capsys):
    """`import config` in a walked folder, where config.py links to a file outside it: the value is not read
    (nor hashed for the cache); named on the command line, the script reads its project's modules as before."""
    from flake8_npuprof.values import project
    tree, away = tmp_path / "tree", tmp_path / "away"
    tree.mkdir()
    away.mkdir()
    (away / "config.py").write_text(CONFIG)
    (tree / "config.py").symlink_to(away / "config.py")
    (tree / "train.py").write_text(SCRIPT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NPUPROF_CACHE_DIR", raising=False)
    read = []
    real_parse = project.ast.parse
    monkeypatch.setattr(project.ast, "parse", lambda text, path="<unknown>", *a, **k: (
        read.append(os.path.realpath(path)), real_parse(text, path, *a, **k))[1])
    project.forget()
    code, out, err = _run(capsys, "check", "-j1", "tree")
    assert 'unknown profiling_options key "L2"' not in out
    assert str(away / "config.py") not in read
    assert not list((tmp_path / ".npuprof_cache").glob("*/*.json"))      # what it rests on cannot be listed
    code, out, err = _run(capsys, "check", "-j1", "--no-cache", "tree/train.py")
    assert code == 1 and 'tree/train.py:9:' in out and 'unknown profiling_options key "L2"' in out
    assert str(away / "config.py") in read
    # a link inside the folder is read
    (tree / "config.py").unlink()
    (tree / "real").mkdir()
    (tree / "real" / "config.py").write_text(CONFIG)
    (tree / "config.py").symlink_to(tree / "real" / "config.py")
    project.forget()
    code, out, err = _run(capsys, "check", "-j1", "--no-cache", "tree")
    assert code == 1 and 'unknown profiling_options key "L2"' in out


# ---------------------------------------------------------------- unknown values inside JSON arrays and objects

def test_emulate_says_a_list_holding_an_unknown_value_cannot_be_determined(tmp_path, capsys):
    launcher = tmp_path / "run.sh"
    launcher.write_text("export PROFILING_MODE=true\n"
                        "export PROFILING_OPTIONS='{\"output\":[\"'$X'\"],\"task_trace\":\"on\"}'\n")
    main(["emulate", str(launcher)])
    out = capsys.readouterr().out
    assert "internal error" not in out
    assert 'the value of "output" cannot be determined statically ("output":["<unknown>"])' in out


# ---------------------------------------------------------------- the cache trusts nothing it reads

SCRIPT = """import tensorflow as tf
from npu_bridge.npu_init import *
import config as cfg

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(cfg.OPTS)
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""
CONFIG = 'OPTS = \'{"output": "/tmp/p", "L2": "on"}\'\n'


@pytest.fixture
def cached(tmp_path, monkeypatch, capsys):
    """A project checked once, so its cache holds an entry per file."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NPUPROF_CACHE_DIR", raising=False)
    (tmp_path / "config.py").write_text(CONFIG)
    (tmp_path / "train.py").write_text(SCRIPT)
    first = _run(capsys, "check", "-j1", ".")
    assert first[0] == 1 and 'unknown profiling_options key "L2"' in first[1]
    entries = sorted((tmp_path / ".npuprof_cache").glob("*/*.json"))      # one file per folder of checked files
    assert len(entries) == 1 and len(json.loads(entries[0].read_text())["entries"]) >= 2
    return tmp_path, first, entries


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("plant", ["fifo", "dev_zero", "link_to_entry", "deep", "huge", "binary", "wrong_types"])
def test_nothing_in_a_cache_entry_hangs_crashes_or_changes_a_run(cached, capsys, plant):
    from evalfiles import deadline
    from flake8_npuprof.commands import cache
    tree, first, entries = cached
    for entry in entries:
        good = entry.read_text()
        entry.unlink()
        if plant == "fifo":
            os.mkfifo(entry)                         # opening it for reading would block every run
        elif plant == "dev_zero":
            entry.symlink_to("/dev/zero")            # reading it would never end
        elif plant == "link_to_entry":
            (tree / "elsewhere.json").write_text(good.replace("L2", "l2"))
            entry.symlink_to(tree / "elsewhere.json")
        elif plant == "deep":
            entry.write_text("[" * 100000 + "]" * 100000)     # json.load would hit the recursion limit
        elif plant == "huge":
            entry.write_text(good[:-1] + ',"pad":"' + "x" * (cache.MAX_ENTRY) + '"}')
        elif plant == "binary":
            entry.write_bytes(b"\xff\xfe" + good.encode())
        else:
            entry.write_text(json.dumps({"text": {}, "deps": {"x": [[[]]]}, "findings": [[None] * 9]}))
    with deadline(30, "a run over a planted cache"):
        again = _run(capsys, "check", "-j1", ".")
    assert again == first


def test_a_linked_cache_folder_is_neither_read_nor_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NPUPROF_CACHE_DIR", raising=False)
    (tmp_path / "train.py").write_text(SCRIPT.replace("cfg.OPTS", "'{\"output\": \"/tmp/p\", \"L2\": \"on\"}'"))
    target = tmp_path / "backup"
    target.mkdir()
    (tmp_path / ".npuprof_cache").symlink_to(target, target_is_directory=True)
    code, out, err = _run(capsys, "check", "-j1", "train.py")
    assert code == 1 and "NPP101" in out
    assert list(target.iterdir()) == []              # no .gitignore, no CACHEDIR.TAG, no entry
    assert err.count("cache not written") == 1 and "the folder is a symbolic link, not written through" in err


def test_a_planted_gitignore_link_in_the_cache_folder_is_not_followed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NPUPROF_CACHE_DIR", raising=False)
    (tmp_path / "train.py").write_text("import os\n")
    (tmp_path / ".npuprof_cache").mkdir()
    (tmp_path / ".npuprof_cache" / ".gitignore").symlink_to(tmp_path / "victim")        # dangling
    _run(capsys, "check", "-j1", "train.py")
    assert not (tmp_path / "victim").exists()
    assert (tmp_path / ".npuprof_cache" / "CACHEDIR.TAG").is_file()


def test_a_dependency_edited_with_the_same_size_and_time_invalidates(cached, capsys):
    tree, first, _ = cached
    config = tree / "config.py"
    st = config.stat()
    config.write_text(CONFIG.replace('"L2"', '"l2"'))             # same size
    os.utime(config, ns=(st.st_atime_ns, st.st_mtime_ns))        # same time (a restored archive, a coarse clock)
    assert config.stat().st_size == st.st_size and config.stat().st_mtime_ns == st.st_mtime_ns
    # a new process, as every run is (this one's memo of the project's modules is its own, by size and time)
    proc = subprocess.run([sys.executable, "-m", "flake8_npuprof", "check", "-j1", "."], cwd=tree,
                          capture_output=True, text=True)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "All checks passed!\n")


# ---------------------------------------------------------------- cost bounded by work (structure, never time)

NPU_HEAD = ('import os\nimport tensorflow as tf\nconfig = tf.ConfigProto()\n'
            'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
            'op.parameter_map["profiling_mode"].b = True\n')


def _low_stack(text, limit=200):
    """The findings of `text`, analysed (not parsed) under a low recursion limit: a walk or an evaluation that
    recursed once per operand or statement would fail here."""
    import ast
    from flake8_npuprof.checks.analysis import analyse
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))                # the parser's own depth is not what is tested
    try:
        tree = ast.parse(text)
    finally:
        sys.setrecursionlimit(old)
    sys.setrecursionlimit(limit)
    try:
        return analyse(text, tree, "deep.py")
    finally:
        sys.setrecursionlimit(old)


def test_a_long_concatenation_in_as_bytes_needs_no_recursion():
    # 900 operands (Python 3.11's compiler takes about 1,000): a 6.4 KB file of this shape ended in NPP000
    # RecursionError after 15 CPU-seconds (NPP200's reader recursed per operand, the builder copied each prefix)
    text = NPU_HEAD + ("x = os.environ['A']\nop.parameter_map['profiling_options'].s = tf.compat.as_bytes("
                       "'{\"output\":\"' + x + '\"'" + " + ',\"L2\":\"on\"'" * 900 + " + '}')\n")
    found = _low_stack(text)
    assert "NPP000" not in {f.code for f in found}
    assert ("NPP200", 8) in {(f.code, f.line) for f in found}        # the hand-built JSON, read to its end
    assert [f.message.split(":")[0] for f in found if f.code == "NPP101"][:1] == ['unknown profiling_options key "L2"']


def test_a_concatenation_builds_its_text_once():
    """Each operand is appended to one builder: the parts it keeps are the operands, not every prefix."""
    from flake8_npuprof.source import text as text_module
    sizes = []
    real = text_module.StrBuilder.add_value

    def counted(self, value, i=0, j=None):
        sizes.append(len(value.text) if j is None else j - i)
        return real(self, value, i, j)
    text = NPU_HEAD + "op.parameter_map['profiling_options'].s = '{}'" + " + 'a'" * 400 + "\n"
    import unittest.mock
    with unittest.mock.patch.object(text_module.StrBuilder, "add_value", counted):
        _low_stack(text, 1000)
    assert len(sizes) >= 401 and max(sizes) <= 2          # never a prefix of the growing text


def test_an_elif_chain_past_the_bound_is_npp191_at_the_statement():
    from flake8_npuprof.source.prefilter import MAX_CONDITIONS
    def chain(n):
        return "import os\nimport sys\nmode = sys.argv[1]\n" + "".join(
            f'{"if" if k == 0 else "elif"} mode == "m{k}":\n    os.environ["PROFILING_MODE"] = "true"\n'
            f'    os.environ["PROFILING_OPTIONS"] = \'{{"output":"/tmp/p{k}","L2":"on"}}\'\n' for k in range(n))
    within = _low_stack(chain(MAX_CONDITIONS), 1000)
    assert [f.code for f in within].count("NPP101") == MAX_CONDITIONS and "NPP191" not in {f.code for f in within}
    past = _low_stack(chain(MAX_CONDITIONS + 1), 1000)
    line = 4 + 3 * MAX_CONDITIONS + 1                   # the body of the 257th branch
    assert [(f.code, f.line, f.col, f.message) for f in past] == [
        ("NPP191", line, 4, f"analysis budget exhausted: the statement at line {line} runs under more than 256 "
         "conditions (an if/elif chain this long), so this file was not analysed (a finding may be missing; "
         "split the chain or look the value up in a dict)")]


def test_many_statements_on_one_line_keep_one_copy_of_it():
    """8,000 statements on one 110 KB line took 10.5 s and 1.76 GB: each deferred statement kept its own copy
    of the line to search for a setup's words in."""
    from flake8_npuprof.checks.analysis import analyse
    from flake8_npuprof.source.sites import Sites
    line = "; ".join(f"x{k} = f{k}(a{k})" for k in range(2000))
    text = NPU_HEAD + line + "\n" + "y = 1\nz = 2\n"
    copies = []
    real = Sites._deferred_text

    def kept(self):
        found = real(self)
        copies.append(len(found[0]))
        return found
    import unittest.mock
    with unittest.mock.patch.object(Sites, "_deferred_text", kept):
        found = analyse(text, None, "one_line.py")
    assert "NPP000" not in {f.code for f in found}
    assert max(copies, default=0) <= len(text)      # (questions by word search the text itself)
    # the join the identifier index is made from holds the line once, not once per statement on it
    import ast
    from flake8_npuprof.source.sites import collect
    from flake8_npuprof.source.text import SourceText
    sites = collect(ast.parse(text), text, SourceText(text).line_starts)
    assert sites._pending >= 2000
    assert len(sites._deferred_text()[0]) <= len(text)


# ---------------------------------------------------------------- smaller items

def test_a_forged_pyc_header_does_not_hide_a_syntax_error(tmp_path, monkeypatch, capsys):
    import importlib.util
    import py_compile
    from flake8_npuprof.source import bytecode
    broken = tmp_path / "mod.py"
    broken.write_text("import os\n\n\ndef main(:)\n    return os.getcwd()\n")
    cached = importlib.util.cache_from_source(str(broken))
    os.makedirs(os.path.dirname(cached))
    header = importlib.util.MAGIC_NUMBER + (3).to_bytes(4, "little") + importlib.util.source_hash(broken.read_bytes())
    with open(cached, "wb") as fh:
        fh.write(header)                                  # 16 forged bytes: a hash-based header of these bytes
    assert not bytecode.compiled(str(broken), broken.read_bytes())
    with open(cached, "wb") as fh:
        fh.write(header + b"\xe3" + b"\x01" + bytes(11))      # a code object, but not a module's
    assert not bytecode.compiled(str(broken), broken.read_bytes())
    os.unlink(cached)
    os.mkfifo(cached)                                     # reading it would block
    assert not bytecode.compiled(str(broken), broken.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "-j1", "mod.py"]) == 1
    assert "mod.py:4:10: NPP192" in capsys.readouterr().out
    # what CPython writes is still proof, by hash and by time
    good = tmp_path / "good.py"
    good.write_text("import os\n")
    for mode in (py_compile.PycInvalidationMode.CHECKED_HASH, py_compile.PycInvalidationMode.TIMESTAMP):
        py_compile.compile(str(good), doraise=True, invalidation_mode=mode)
        assert bytecode.compiled(str(good), good.read_bytes())


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another owner needs root")
def test_fix_keeps_the_setuid_and_setgid_bits_of_another_owners_file(tmp_path, monkeypatch, capsys):
    script = tmp_path / "train.py"
    script.write_text(FIXABLE)
    os.chown(script, 1234, 1234)
    os.chmod(script, 0o6755)
    monkeypatch.chdir(tmp_path)
    assert main(["fix", "train.py"]) == 0
    st = os.stat(script)
    assert script.read_text() == FIXED
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (1234, 1234, 0o6755)    # a chown after chmod cleared them
    assert "could not be kept" not in capsys.readouterr().err


def test_fix_says_when_it_cannot_keep_the_setuid_bit(tmp_path, monkeypatch, capsys):
    from flake8_npuprof.source import writes
    script = tmp_path / "train.py"
    script.write_text(FIXABLE)
    os.chmod(script, 0o4755)
    real = os.stat(script)
    monkeypatch.setattr(os, "getuid", lambda: real.st_uid + 1)     # as if the file were another user's
    monkeypatch.setattr(os, "chown", lambda *a: (_ for _ in ()).throw(PermissionError(1, "Operation not permitted")))
    monkeypatch.chdir(tmp_path)
    assert main(["fix", "train.py"]) == 0
    assert script.read_text() == FIXED and os.stat(script).st_mode & 0o7777 == 0o755     # never setuid to another user
    assert ("train.py: fixed (its setuid bit could not be kept: it now belongs to the user running the fix, not "
            "its owner)") in capsys.readouterr().err
    # written in place (a hard link), a write clears the bits: set again by the owner, else said
    fd = os.open(script, os.O_RDWR)
    try:
        os.chmod(script, 0o755)
        assert writes._restore_bits(fd, 0o104755) == "" and os.stat(script).st_mode & 0o7777 == 0o4755
        os.chmod(script, 0o755)
        monkeypatch.setattr(os, "fchmod", lambda *a: (_ for _ in ()).throw(PermissionError(1, "not permitted")))
        assert writes._restore_bits(fd, 0o106755) == (" (its setuid and setgid bits could not be kept: writing the "
                                                      "file cleared them and only its owner may set them again)")
    finally:
        os.close(fd)


def _age(path, seconds=3600):
    st = os.stat(path)
    os.utime(path, (st.st_atime - seconds, st.st_mtime - seconds))


def test_the_next_run_cleans_up_a_killed_runs_temporary_files(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NPUPROF_CACHE_DIR", raising=False)
    (tmp_path / "train.py").write_text(FIXABLE)
    stale = [tmp_path / ".train.py.npuprof-0a1b2c3d", tmp_path / ".train.py.npuprof-old-deadbeef"]
    for path in stale:
        path.write_text("half")
        _age(path)
    young = tmp_path / ".train.py.npuprof-99999999"            # may be another run's, still writing
    young.write_text("half")
    other = tmp_path / ".other.py.npuprof-0a1b2c3d"           # not beside a file of this run
    other.write_text("x")
    _age(other)
    (tmp_path / "train.py.npuprof-0a1b2c3d").write_text("not ours: no leading dot")
    _age(tmp_path / "train.py.npuprof-0a1b2c3d")
    main(["check", "-j1", "train.py"])
    err = capsys.readouterr().err
    assert "removed 1 temporary file left by an interrupted run" in err
    assert not stale[0].exists() and young.exists() and other.exists()
    # the old-bytes copy holds text the file does not: said, both kept
    assert stale[1].exists() and ("train.py: a fix writing it in place was interrupted; its text from before that fix "
                                  "is kept in .train.py.npuprof-old-deadbeef: compare the two, keep the right text "
                                  "and delete the other") in err
    # a half-written cache entry of a killed run goes with the next write
    version = next(p for p in (tmp_path / ".npuprof_cache").iterdir() if p.is_dir())
    half = version / ".tmp-abc.json"
    half.write_text('{"te')
    _age(half)
    (tmp_path / "train.py").write_text(FIXABLE + "\n")
    main(["check", "-j1", "train.py"])
    assert not half.exists()


@pytest.mark.parametrize("state", ["old", "new", "partial"])
def test_an_in_place_write_interrupted_is_cleaned_up_or_reported(tmp_path, monkeypatch, capsys, state):
    """A hard-linked file is written in place, its old bytes kept beside it under a name carrying the new bytes'
    hash; a kill between the write and the truncate left new bytes and a tail of old ones."""
    from flake8_npuprof.source import writes
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "train.py"
    script.write_text(FIXABLE)
    os.link(script, tmp_path / "copy.py")
    old, new = FIXABLE.encode(), FIXED.encode()[:-3]
    kept = writes._keep(old, str(script), writes._digest(new))
    assert os.path.basename(kept).startswith(".train.py.npuprof-old-" + writes._digest(new) + "-")
    script.write_bytes({"old": old, "new": new, "partial": new + old[len(new):]}[state])
    _age(kept)
    main(["check", "--no-cache", "-j1", "train.py"])
    err = capsys.readouterr().err
    if state == "partial":
        assert os.path.exists(kept) and f"is kept in {os.path.basename(kept)}" in err
    else:
        assert not os.path.exists(kept) and "in place was interrupted" not in err
        assert "removed 1 temporary file left by an interrupted run" in err


def test_emulate_past_the_walks_bound_says_it_stopped(tmp_path, monkeypatch, capsys):
    from flake8_npuprof.shell.state import MAX_COMMANDS
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text("import tensorflow as tf\n")
    lines = ["#!/bin/bash", "python3 train.py"] + [f"echo step {k}" for k in range(MAX_COMMANDS + 100)] + [
        "export PROFILING_MODE=true", "export PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'",
        "python3 train.py"]
    (tmp_path / "run.sh").write_text("\n".join(lines) + "\n")
    main(["emulate", "run.sh"])
    out = capsys.readouterr().out
    assert "usable data: no" not in out                   # the profiled launch past the bound was never seen
    assert ("usable data: unknown (the walk of run.sh stopped at line 5002 (after 5,000 commands): the commands "
            "from there on were not emulated; before that, no launch switches profiling on)") in out
    # no launch before the bound: emulated on its own variables, and said
    (tmp_path / "run.sh").write_text("\n".join(lines[:1] + lines[-3:-1] + lines[2:]) + "\n")
    main(["emulate", "run.sh"])
    out = capsys.readouterr().out
    assert "no launch found before the walk of run.sh stopped at line 5002 (after 5,000 commands)" in out
    assert ("usable data: unknown (the walk of run.sh stopped at line 5002 (after 5,000 commands): the commands "
            "from there on were not emulated)") in out


def test_a_self_sourcing_launchers_emulate_output_stays_bounded(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.py").write_text("import tensorflow as tf\n")
    (tmp_path / "run.sh").write_text(
        "#!/bin/bash\nexport PROFILING_MODE=true\nexport PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"
        "source ./run.sh\nsource ./run.sh\npython3 train.py\n")
    main(["emulate", "run.sh"])
    out = capsys.readouterr().out
    assert len(out) < 100_000                             # 1 MB before: every `source` met, on its own line
    assert "  sources run.sh (run.sh:4) [255 times]" in out.splitlines()[:10]
    assert out.count("sources run.sh (run.sh:4)") == 16   # once per launch followed (16 at most)
    main(["emulate", "--format", "json", "run.sh"])
    report = json.loads(capsys.readouterr().out)
    assert report["launches"][0]["sourced"] == ["run.sh"]


def test_many_unknown_keys_cost_one_suggestion_each():
    """An options dict of n unknown keys looked each one up against all the others (n^2) and asked difflib
    for a did-you-mean per key, version and chip: 1,600 keys took 6.2 s."""
    import contextlib
    import unittest.mock
    from flake8_npuprof.checks import (options_chips, options_keys, options_problem, options_schema, options_steps,
                                       options_trace, options_values)
    from flake8_npuprof.checks.analysis import analyse
    n = 300
    text = NPU_HEAD + ("import json\nop.parameter_map['profiling_options'].s = tf.compat.as_bytes(json.dumps("
                       "{'output': '/tmp/p', " + ", ".join(f"'zz{k}': 'on'" for k in range(n)) + "}))\n")
    options_keys._suggestions.cache_clear()
    calls = []
    real = options_keys.close_matches
    with contextlib.ExitStack() as stack:
        # every options check that asks difflib, and every one that reads the members (the judge's parts)
        for module in (options_keys, options_values):
            stack.enter_context(unittest.mock.patch.object(
                module, "close_matches", lambda *a: calls.append(a[0]) or real(*a)))
        members = unittest.mock.Mock(wraps=options_problem._members)
        for module in (options_chips, options_schema, options_steps, options_trace):
            stack.enter_context(unittest.mock.patch.object(module, "_members", members))
        found = analyse(text, None, "keys.py")
    assert sorted(set(calls)) == sorted(calls) and len(calls) == n          # once per key
    assert 0 < members.call_count < 50                                      # not once per key
    assert [f.message.split(":")[0] for f in found if f.code == "NPP101"][:2] == [
        'unknown profiling_options key "zz0"', 'unknown profiling_options key "zz1"']


def test_read_bytes_reads_whole_files_up_to_the_limit_and_refuses_what_is_not_a_regular_file(tmp_path):
    from flake8_npuprof.source.files import ReadError, read_bytes
    for size in (0, 1, 65535, 65536, 65537, 200000):
        f = tmp_path / f"f{size}"
        data = bytes(range(256)) * (size // 256) + bytes(size % 256)
        f.write_bytes(data)
        assert read_bytes(str(f)) == data
    exact = tmp_path / "f200000"
    assert read_bytes(str(exact), limit=200000) == exact.read_bytes()
    with pytest.raises(ReadError, match=r"^not read: 200,000 bytes, over the 199,999-byte limit for a source file$"):
        read_bytes(str(exact), limit=199999)
    with pytest.raises(ReadError, match=r"^not read: a directory, not a regular file$"):
        read_bytes(str(tmp_path))
    with pytest.raises(ReadError, match=r"^cannot read: No such file or directory$"):
        read_bytes(str(tmp_path / "missing"))
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe")
        with pytest.raises(ReadError, match=r"^not read: a FIFO, not a regular file$"):
            read_bytes(str(tmp_path / "pipe"))          # refused before it is opened: nothing blocks


def test_read_bytes_reads_on_while_a_file_grows_and_stops_at_the_limit(tmp_path, monkeypatch):
    from flake8_npuprof.source import files
    f = tmp_path / "grows"
    f.write_bytes(b"a" * 10)
    real_fstat = os.fstat
    # the size fstat gave is stale: the file grew after it (70,000 bytes where 10 were), read on to the end
    monkeypatch.setattr(files.os, "fstat", lambda fd: os.stat_result((*real_fstat(fd)[:6], 10, *real_fstat(fd)[7:])))
    f.write_bytes(b"b" * 70000)
    assert files.read_bytes(str(f)) == b"b" * 70000
    with pytest.raises(files.ReadError, match=r"^not read: more than the 69,999-byte limit for a source file$"):
        files.read_bytes(str(f), limit=69999)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_read_bytes_refuses_a_fifo_put_in_a_files_place_after_its_stat(tmp_path, monkeypatch):
    # the path was a regular file at os.stat and a FIFO at os.open (replaced between them): the descriptor's
    # fstat refuses it, and the descriptor is closed (O_NONBLOCK: opening it blocked nothing)
    from flake8_npuprof.source import files
    os.mkfifo(tmp_path / "pipe")
    regular = os.stat_result((0o100644, *os.stat(tmp_path)[1:]))
    real_stat, real_close, closed = os.stat, os.close, []
    monkeypatch.setattr(files.os, "stat", lambda p, *a, **k: regular if str(p).endswith("pipe") else real_stat(p))
    monkeypatch.setattr(files.os, "close", lambda fd: (closed.append(fd), real_close(fd)))
    with pytest.raises(files.ReadError, match=r"^not read: a FIFO, not a regular file$"):
        files.read_bytes(str(tmp_path / "pipe"))
    assert len(closed) == 1
