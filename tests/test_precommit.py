"""The pre-commit hooks in .pre-commit-hooks.yaml, run the way pre-commit runs them.

Each hook's `entry` is split like pre-commit does, resolved to the installed console script,
and given the example files that its `types`/`types_or` select, from the repository root.
"""

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML reads .pre-commit-hooks.yaml (add pyyaml to the test extra)")

ROOT = Path(__file__).resolve().parent.parent
HOOKS = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
FIXCMD = ROOT / "flake8_npuprof" / "commands" / "fix.py"

SCRIPT = '''import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
op.parameter_map["profiling_options"].s = b'{OPTIONS}'
sess = tf.Session(config=config)
'''
GOOD = '{"output":"/tmp/p","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'
CLEAN_PY = SCRIPT.replace("{OPTIONS}", GOOD)
FIXABLE_PY = SCRIPT.replace("{OPTIONS}", GOOD.replace('"/tmp/p",', '"/tmp/p","L2":"on",'))       # NPP101, safe fix
UNFIXABLE_PY = SCRIPT.replace("{OPTIONS}", GOOD.replace('"/tmp/p"', '"/tmp/p","dvpp_freq":0'))   # NPP109, no fix
LAUNCHER = '''#!/bin/bash
export PROFILING_MODE=true
export PROFILING_OPTIONS='{OPTIONS}'
python train.py
'''
CLEAN_SH = LAUNCHER.replace("{OPTIONS}", '{"output":"/tmp/p","task_trace":"on"}')
BAD_SH = LAUNCHER.replace("{OPTIONS}", '{"output":"/tmp/p","L2":"on","task_trace":"on"}')      # NPP101

TAGS = {".py": "python", ".sh": "shell", ".yaml": "yaml", ".yml": "yaml"}   # what identify would say for these


def selected(hook, names):
    """The files pre-commit would pass: all of `types`, any of `types_or`."""
    def wanted(name):
        tag = TAGS[Path(name).suffix]
        return all(t == tag for t in hook.get("types", [])) and \
            (not hook.get("types_or") or tag in hook["types_or"])
    return [n for n in names if wanted(n)]


def command(entry):
    argv = shlex.split(entry)
    script = Path(sys.executable).parent / argv[0]
    if script.exists():
        return [str(script)] + argv[1:]
    assert argv[0] == "npuprof", f"unexpected entry {entry!r}"
    return [sys.executable, "-m", "flake8_npuprof"] + argv[1:]


def run_hook(hook_id, repo, files):
    hook = HOOKS[hook_id]
    names = selected(hook, list(files))
    for name, text in files.items():
        (repo / name).write_text(text, encoding="utf-8")
    proc = subprocess.run(command(hook["entry"]) + hook.get("args", []) + names, cwd=repo,
                          capture_output=True, text=True, encoding="utf-8", check=False)
    return proc, names


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()                  # pre-commit runs at a repository's root
    return tmp_path


def test_manifest():
    assert list(HOOKS) == ["npuprof-check", "npuprof-fix"]
    for hook in HOOKS.values():
        assert {"id", "name", "entry", "language"} <= set(hook)
        assert hook["language"] == "python"
        assert set(hook.get("types", []) + hook.get("types_or", [])) <= {"python", "shell", "yaml"}
    assert HOOKS["npuprof-check"]["entry"] == "npuprof check --force-exclude"
    assert HOOKS["npuprof-check"]["types_or"] == ["python", "shell", "yaml"]
    assert HOOKS["npuprof-fix"]["entry"] == "npuprof fix --force-exclude"
    assert HOOKS["npuprof-fix"]["types"] == ["python"]       # fix rewrites Python files only


@pytest.mark.parametrize("files, code, reported", [
    ({"train.py": CLEAN_PY, "launch.sh": CLEAN_SH}, 0, []),
    ({"train.py": FIXABLE_PY, "launch.sh": CLEAN_SH}, 1, ["train.py:6:64: NPP101 "]),
    ({"train.py": CLEAN_PY, "launch.sh": BAD_SH}, 1, ["launch.sh:3:46: NPP101 "]),
    ({"train.py": UNFIXABLE_PY, "launch.sh": BAD_SH}, 1, ["train.py:6:76: NPP109 ", "launch.sh:3:46: NPP101 "]),
], ids=["clean", "python", "shell", "both"])
def test_check_hook(repo, files, code, reported):
    proc, names = run_hook("npuprof-check", repo, files)
    assert names == ["train.py", "launch.sh"]
    assert proc.returncode == code, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(reported)
    assert all(line.startswith(prefix) for line, prefix in zip(lines, reported)), lines


def test_check_hook_on_yaml(repo):
    """Every staged YAML file is named: a MindFormers run configuration is judged, any other YAML is left alone
    (a broken workflow file without a profiling key is not even parsed)."""
    files = {"train.py": CLEAN_PY, "finetune.yaml": "run_mode: train\nprofiler_level: 3\n",
             ".github/ci.yml": "on: [push\n"}
    (repo / ".github").mkdir()
    proc, names = run_hook("npuprof-check", repo, files)
    assert names == ["train.py", "finetune.yaml", ".github/ci.yml"]
    assert proc.returncode == 1, proc.stderr
    assert [line.split(" ")[:2] for line in proc.stdout.splitlines()] == [["finetune.yaml:2:17:", "NPP358"]]


needs_fix = pytest.mark.skipif(not FIXCMD.exists(), reason="npuprof fix (flake8_npuprof/commands/fix.py) is not there yet")


@needs_fix
def test_fix_hook_fixes_and_passes_when_nothing_remains(repo):
    proc, names = run_hook("npuprof-fix", repo, {"train.py": FIXABLE_PY, "launch.sh": BAD_SH})
    assert names == ["train.py"]                 # the shell launcher is left to npuprof-check
    assert proc.returncode == 0, proc.stdout + proc.stderr
    fixed = FIXABLE_PY.replace('"L2"', '"l2"')
    assert (repo / "train.py").read_text(encoding="utf-8") == fixed
    again, _ = run_hook("npuprof-fix", repo, {"train.py": fixed})      # the next commit: nothing to do
    assert (again.returncode, again.stdout) == (0, "")
    assert (repo / "train.py").read_text(encoding="utf-8") == fixed


@needs_fix
def test_fix_hook_fails_while_findings_remain(repo):
    proc, _ = run_hook("npuprof-fix", repo, {"train.py": UNFIXABLE_PY})
    assert proc.returncode == 1
    assert proc.stdout.startswith("train.py:6:76: NPP109 ")
    assert (repo / "train.py").read_text(encoding="utf-8") == UNFIXABLE_PY


@needs_fix
def test_fix_hook_leaves_clean_files_alone(repo):
    proc, _ = run_hook("npuprof-fix", repo, {"train.py": CLEAN_PY})
    assert (proc.returncode, proc.stdout) == (0, "")
    assert (repo / "train.py").read_text(encoding="utf-8") == CLEAN_PY


@pytest.mark.parametrize("hook_id", ["npuprof-check", "npuprof-fix"])
def test_the_configurations_excludes_hold_for_the_files_pre_commit_names(repo, hook_id):
    (repo / "pyproject.toml").write_text('[tool.npuprof]\nextend-exclude = ["vendor"]\n', encoding="utf-8")
    (repo / "vendor").mkdir()
    proc, names = run_hook(hook_id, repo, {"vendor/train.py": UNFIXABLE_PY})
    assert names == ["vendor/train.py"] and (proc.returncode, proc.stdout) == (0, ""), proc.stderr
    assert (repo / "vendor" / "train.py").read_text(encoding="utf-8") == UNFIXABLE_PY
