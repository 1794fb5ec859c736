"""The cache and the worker processes of check and fix: the same bytes out whatever they hold, and a result
trusted only while everything it rests on is unchanged (a sibling module, a launched script, a sourced file,
a module that appears where none was)."""

import io
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from flake8_npuprof.checks import analysis, launcher_switch
from flake8_npuprof.cli import main
from flake8_npuprof.commands import batch, cache

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "examples", ROOT / "tests" / "data" / "projects", ROOT / "tests" / "eval_files"]


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """Examples, multi-file projects with launchers, the eval files, and a file that does not parse."""
    work = tmp_path / "work"
    for src in SOURCES:
        shutil.copytree(src, work / src.name)
    (work / "broken.py").write_text("import os\nprint 'profiling'\n")
    (work / "undecodable.py").write_bytes(b"x = '\xff'\n")             # Python refuses it: NPP192, exit 1
    (work / "pyproject.toml").write_text("[tool.npuprof]\nextend-select = [\"NPP2\"]\n")
    monkeypatch.chdir(work)
    monkeypatch.delenv("NPUPROF_CACHE_DIR")      # the cache beside the configuration file, as users have it
    return work


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def analyses(monkeypatch):
    """Count the files the analysis runs on (in this process: -j1)."""
    calls = []
    real = analysis._analyse

    def counted(text, tree, filename, settings):
        calls.append(filename)
        return real(text, tree, filename, settings)
    monkeypatch.setattr(analysis, "_analyse", counted)
    return calls


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_the_report_is_the_same_bytes_with_and_without_cache_and_workers(tree, capsys, fmt):
    plain = run(capsys, "check", "--no-cache", "-j1", "--format", fmt, ".")
    assert plain[0] == 1 and "undecodable.py" in plain[1] and "cannot decode" not in plain[2]
    assert not (tree / ".npuprof_cache").exists()   # --no-cache writes nothing
    cold = run(capsys, "check", "-j2", "--format", fmt, ".")
    warm = run(capsys, "check", "-j2", "--format", fmt, ".")
    warm1 = run(capsys, "check", "-j1", "--format", fmt, ".")
    assert cold == warm == warm1 == plain
    if fmt == "json":
        codes = {row["code"] for row in json.loads(plain[1])}
        assert {"NPP192", "NPP101", "NPP205", "NPP120"} <= codes


def test_workers_are_never_forked_from_a_process_with_another_thread(tree, capsys, monkeypatch):
    """A fork while another thread runs may hand the worker a lock held for ever (Python 3.12 and later warn:
    "This process ... is multi-threaded, use of fork() may lead to deadlocks in the child"): with a thread
    alive the workers come from a fork server, with the same report; alone, the CLI forks them (no cost)."""
    forks = []
    real = os.fork

    def fork():
        forks.append(batch.threads())
        return real()
    monkeypatch.setattr(os, "fork", fork)
    plain = run(capsys, "check", "--no-cache", "-j1", "--format", "json", ".")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert batch.threads() >= 2 and batch.start_method() == "forkserver"
        assert run(capsys, "check", "--no-cache", "-j2", "--format", "json", ".") == plain
    finally:
        stop.set()
        other.join()
    assert all(n == 1 for n in forks)
    alone = subprocess.run([sys.executable, "-c", "from flake8_npuprof.commands import batch\n"
                            "print(batch.threads(), batch.start_method())"], capture_output=True, text=True)
    if sys.platform == "linux":
        assert alone.stdout == "1 fork\n"


def test_fix_diff_is_the_same_bytes_with_and_without_cache_and_workers(tree, capsys):
    plain = run(capsys, "fix", "--diff", "--no-cache", "-j1", ".")
    assert plain[0] == 1 and plain[1].count("+++ b/") >= 5      # the undecodable file is a finding, not an error
    assert run(capsys, "fix", "--diff", "-j2", ".") == run(capsys, "fix", "--diff", "-j2", ".") == plain


def test_a_warm_run_analyses_nothing_and_a_changed_file_only_that_file(tree, capsys, monkeypatch):
    first = run(capsys, "check", "-j1", ".")
    calls = analyses(monkeypatch)
    assert run(capsys, "check", "-j1", ".") == first
    assert calls == []
    train = tree / "examples" / "mistakes" / "typos_in_options.py"
    train.write_text(train.read_text().replace('"L2"', '"L3"'))
    code, out, _ = run(capsys, "check", "-j1", ".")
    assert {Path(c).name for c in calls} == {"typos_in_options.py"}     # (once per target the text report uses)
    mine = "".join(line for line in out.splitlines(True) if line.startswith("examples/mistakes/typos_in_options.py"))
    assert 'unknown profiling_options key "L3"' in mine and '"L2"' not in mine


def test_fix_answers_from_the_cache_what_it_would_not_change(tree, capsys, monkeypatch):
    run(capsys, "check", "--format", "json", "-j1", "examples/clean")      # entries with the fix's settings
    calls = analyses(monkeypatch)
    code, out, err = run(capsys, "fix", "-j1", "examples/clean")
    assert calls == []                  # nothing fixable without --unsafe-fixes: the cache knew it
    assert code == 1 and err == "Found 3 findings (0 fixed, 3 remaining).\n" and out.count(" NPP20") == 3
    run(capsys, "fix", "-j1", "--unsafe-fixes", "examples/clean")
    assert [Path(c).name for c in calls][:1] == ["npu_estimator.py"]     # an unsafe fix to try: fixed for real


def test_a_changed_sibling_module_invalidates_the_files_that_import_it(tree, capsys):
    project = tree / "projects" / "sibling"
    run(capsys, "check", "-j1", str(project))
    config = project / "config.py"
    config.write_text(config.read_text().replace("traning_trace", "training_trace") + "\n")
    fresh = run(capsys, "check", "--no-cache", "-j1", str(project))
    assert run(capsys, "check", "-j1", str(project)) == fresh
    assert "traning_trace" not in fresh[1]


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


def test_a_module_imported_through_another_invalidates_every_file_that_reads_it(tmp_path, capsys, monkeypatch):
    # a.py and b.py read config.OPTS, which config.py builds from base.KEY: in one process the second file
    # gets config's value from the first one's memo, and must still depend on base.py
    monkeypatch.chdir(tmp_path)
    (tmp_path / "base.py").write_text('KEY = "L2"\n')
    (tmp_path / "config.py").write_text('from base import KEY\nOPTS = \'{"output": "/tmp/p", "%s": "on"}\' % KEY\n')
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(SCRIPT)
    code, out, _ = run(capsys, "check", "--verbose", "-j1", "a.py", "b.py")     # (the definition: in the detail)
    assert code == 1 and out.count('unknown profiling_options key "L2"') == 2 and "as defined in base.py:1" in out
    (tmp_path / "base.py").write_text('KEY = "l2"  # the collector\'s spelling\n')
    assert run(capsys, "check", "-j1", "a.py", "b.py")[:2] == (0, "")


def test_a_module_that_appears_where_none_was_invalidates(tree, capsys):
    # train.py imports `config`: found beside it. A config.py in a folder searched first changes the answer;
    # here the folder of a package: pkg/run.py imports `settings`, found in pkg/ (its own folder).
    project = tree / "projects" / "sibling"
    before = run(capsys, "check", "--verbose", "-j1", str(project / "pkg"))
    assert "checked as defined in settings.py:1" in before[1]
    # the script's own folder is searched first: a new module there is the one Python imports
    (project / "pkg" / "settings.py").write_text('OPTS = \'{"output": "/tmp/p", "aicpu": "on"}\'\n')
    fresh = run(capsys, "check", "--no-cache", "-j1", str(project / "pkg"))
    assert run(capsys, "check", "-j1", str(project / "pkg")) == fresh


def test_a_launched_script_and_a_sourced_file_invalidate_the_launcher(tree, capsys):
    project = tree / "projects" / "launch"
    run(capsys, "check", "-j1", str(project / "run_flags.sh"), str(project / "run_env.sh"))
    train = project / "train.py"
    train.write_text(train.read_text().replace("profiling", "profiling_renamed"))      # the flag it reads is gone
    env = project / "scripts" / "npu_set_env.sh"
    env.write_text(env.read_text().replace('"aicpu": "on"', '"aicpu": "of"'))
    fresh = run(capsys, "check", "--no-cache", "-j1", str(project / "run_flags.sh"), str(project / "run_env.sh"))
    assert run(capsys, "check", "-j1", str(project / "run_flags.sh"), str(project / "run_env.sh")) == fresh
    env.unlink()
    fresh = run(capsys, "check", "--no-cache", "-j1", str(project / "run_env.sh"))
    assert run(capsys, "check", "-j1", str(project / "run_env.sh")) == fresh


def test_a_script_added_where_a_settled_launcher_may_start_it_invalidates_the_launcher(tmp_path, capsys, monkeypatch):
    # the scan settles run.sh without its walk: sub/ holds no train.py (engine/launch_scan.py lists the region);
    # a train.py added there later is the script it starts, and the flag it is given switches profiling on
    monkeypatch.chdir(tmp_path)
    (tmp_path / "test" / "sub").mkdir(parents=True)
    (tmp_path / "test" / "run.sh").write_text("cd sub\npython3 train.py --trace=False\n")
    assert run(capsys, "check", "-j1", "test/run.sh")[:2] == (0, "")
    (tmp_path / "test" / "sub" / "train.py").write_text(
        "import argparse\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--trace', default='True')\n"
        "args = parser.parse_args()\nconfig = tf.ConfigProto()\n"
        "custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\ncustom_op.name = 'NpuOptimizer'\n"
        "if args.trace:\n    custom_op.parameter_map['profiling_mode'].b = True\n"
        "    custom_op.parameter_map['profiling_options'].s = tf.compat.as_bytes('{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}')\n")
    code, out, _ = run(capsys, "check", "-j1", "test/run.sh")
    assert (code, out) == (1, "test/run.sh:2:18: NPP205 --trace=False reaches sub/train.py as the non-empty string "
                              "'False', which is true: `args.trace` holds and profiling is switched on in this launch\n")
    assert run(capsys, "check", "-j1", "test/run.sh") == run(capsys, "check", "--no-cache", "-j1", "test/run.sh")


def test_npp015_is_cached_and_a_project_file_that_names_profiling_invalidates_it(tmp_path, capsys, monkeypatch):
    # NPP015's "no Python file of the project names one" rests on every folder and .py file of the project: a file
    # added, or an edit that names a profiling setting, changes it (it was never cached: every warm run walked it)
    from flake8_npuprof.checks.launcher_switch import _TRAIN
    monkeypatch.chdir(tmp_path)
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "train_full_1p.sh").write_text(_TRAIN + "python3 ${cur_path}/../train.py --data_path=${data_path}\n")
    (tmp_path / "train.py").write_text("import argparse\nparser = argparse.ArgumentParser()\n"
                                       "parser.add_argument('--data_path')\nargs = parser.parse_args()\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "util.py").write_text("X = 1\n")
    found = ("test/train_full_1p.sh:9:22: NPP015 --profiling=True on this launcher collects nothing: no launch gets "
             "--profiling or anything made from it, so nothing switches profiling on: ../train.py has no profiling "
             "setup and no Python file of the project names one\n")
    assert run(capsys, "check", "-j1", "test/train_full_1p.sh")[:2] == (1, found)
    calls = []
    monkeypatch.setattr(launcher_switch, "_off_by_default",
                        lambda *a, real=launcher_switch._off_by_default: calls.append(1) or real(*a))
    assert run(capsys, "check", "-j1", "test/train_full_1p.sh")[:2] == (1, found)
    assert calls == []                                  # from the cache
    (tmp_path / "lib" / "util.py").write_text("PROFILING_MODE = 'true'\n")      # same folder, a new word
    assert run(capsys, "check", "-j1", "test/train_full_1p.sh")[:2] == (0, "")
    (tmp_path / "lib" / "util.py").write_text("X = 1\n")
    assert run(capsys, "check", "-j1", "test/train_full_1p.sh")[:2] == (1, found)
    (tmp_path / "lib" / "deep").mkdir()
    (tmp_path / "lib" / "deep" / "prof.py").write_text("PROFILING_MODE = 'true'\n")    # a file added below
    assert run(capsys, "check", "-j1", "test/train_full_1p.sh")[:2] == (0, "")
    assert run(capsys, "check", "-j1", "test/train_full_1p.sh") == run(capsys, "check", "--no-cache", "-j1",
                                                                        "test/train_full_1p.sh")


def test_the_cache_folder_carries_its_own_gitignore_and_tag(tree, capsys):
    run(capsys, "check", "-j1", "examples")
    folder = tree / ".npuprof_cache"
    assert (folder / ".gitignore").read_text() == "# Automatically created by npuprof.\n*\n"
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert [p.name for p in folder.iterdir() if p.is_dir()] == ["0.1.0"]
    assert "npuprof_cache" not in run(capsys, "check", "--show-files", ".")[1]       # never searched


def test_a_damaged_or_foreign_entry_is_a_miss(tree, capsys):
    first = run(capsys, "check", "-j1", "examples")
    for entry in (tree / ".npuprof_cache" / "0.1.0").glob("*.json"):
        entry.write_text(json.dumps({"text": "x", "deps": [], "findings": 5}) if entry.stat().st_size % 2 else "{")
    assert run(capsys, "check", "-j1", "examples") == first


def test_a_cache_that_cannot_be_written_is_said_once_and_the_run_goes_on(tree, capsys):
    (tree / "blocker").write_text("a file where the folder would be")
    code, out, err = run(capsys, "check", "-j1", "--cache-dir", "blocker/cache", "examples")
    plain = run(capsys, "check", "--no-cache", "-j1", "examples")
    assert (code, out) == plain[:2]
    assert err.count("npuprof: warning: cache not written") == 1 and err.endswith(plain[2])


def test_preflight_runs_and_standard_input_are_not_cached(tree, capsys, monkeypatch):
    run(capsys, "check", "-j1", "--preflight", "examples")
    assert not (tree / ".npuprof_cache").exists()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"profiling_options = '{\"L2\": \"on\"}'\n")))
    run(capsys, "check", "-j1", "-")
    assert not (tree / ".npuprof_cache").exists()


# ---------------------------------------------------------------- the progress line

class Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_appears_after_a_second_on_a_terminal_and_is_erased():
    now = [0.0]
    stream = Tty()
    progress = batch.Progress(4, "checking", stream=stream, clock=lambda: now[0])
    progress.advance()                      # within the first second: nothing
    now[0] = 1.5
    progress.advance()
    now[0] = 1.55
    progress.advance()                      # less than 0.1 s later: not rewritten
    now[0] = 1.56
    progress.advance()                      # the last one is always shown
    progress.close()
    assert stream.getvalue() == "\rchecking 2/4 files\rchecking 4/4 files\r\x1b[K"


def test_no_progress_off_a_terminal_or_for_a_quick_run():
    now = [0.0]
    pipe = io.StringIO()
    progress = batch.Progress(3, stream=pipe, clock=lambda: now[0])
    now[0] = 5.0
    progress.advance(3)
    progress.close()
    tty = Tty()
    quick = batch.Progress(3, stream=tty, clock=lambda: now[0])
    quick.advance(3)
    quick.close()
    assert pipe.getvalue() == tty.getvalue() == ""


def test_jobs_must_be_a_positive_number(capsys):
    assert main(["check", "-j", "0", "."]) == 2
    assert "npuprof check: error: argument --jobs/-j: must be 1 or more: 0" in capsys.readouterr().err


def test_the_cache_keeps_one_file_per_folder_of_checked_files(tree, capsys, monkeypatch):
    """A folder's entries in one file (written once the run is done with the folder), each file's findings
    there; a warm run reads each folder's file once and answers every file from it."""
    import os
    first = run(capsys, "check", "-j1", "examples")
    folders = {os.path.dirname(p) for p in run(capsys, "check", "--show-files", "examples")[1].split()}
    stored = sorted((tree / ".npuprof_cache" / "0.1.0").glob("*.json"))
    assert len(stored) == len(folders) > 1
    docs = [json.loads(p.read_text()) for p in stored]
    assert sum(len(d["entries"]) for d in docs) == 2 * len(run(capsys, "check", "--show-files", "examples")[1].split())
    assert {d["tool"] for d in docs} == {cache.tool_fingerprint()}
    calls = analyses(monkeypatch)
    assert run(capsys, "check", "-j1", "examples") == first
    assert calls == []
    # another folder's run adds its file and keeps these
    run(capsys, "check", "-j1", "projects")
    assert set(stored) < set((tree / ".npuprof_cache" / "0.1.0").glob("*.json"))
    calls.clear()
    assert run(capsys, "check", "-j1", "examples") == first and calls == []


def test_a_folder_file_of_another_build_is_a_miss_and_is_replaced(tree, capsys, monkeypatch):
    first = run(capsys, "check", "-j1", "examples/clean")
    (stored,) = (tree / ".npuprof_cache" / "0.1.0").glob("*.json")
    doc = json.loads(stored.read_text())
    doc["tool"] = "an older build"
    stored.write_text(json.dumps(doc))
    calls = analyses(monkeypatch)
    assert run(capsys, "check", "-j1", "examples/clean") == first
    assert calls                                          # not trusted: checked again
    assert json.loads(stored.read_text())["tool"] != "an older build"


def test_the_memory_freed_is_given_back_once_a_folder_is_done(monkeypatch, tmp_path):
    """check_job hands freed heap memory back (malloc_trim) when it moves to another folder, not per file."""
    from flake8_npuprof.engine import run as engine_run
    calls = []
    monkeypatch.setattr(batch, "_trim", calls.append)
    monkeypatch.setattr(batch, "_folder", None)
    monkeypatch.setattr(engine_run, "check_each", lambda *args, **kwargs: [[]])
    for name in ("a/x.py", "a/y.py", "b/z.py", "b/w.sh"):
        assert batch.check_job(batch.Job(str(tmp_path / name), "x = 1\n", "python"), [None], None)[0] == [[]]
        assert len(calls) == (1 if name.startswith("a/") else 2)
    assert calls == [0, 0]
