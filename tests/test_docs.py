"""Generated docs (docs/rules/, README rule table) must match the catalog."""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_generated_docs_are_up_to_date():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "tools" / "gen_docs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for path, text in mod.outputs().items():
        assert path.exists(), f"{path} missing: run python tools/gen_docs.py"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run python tools/gen_docs.py"


def test_readme_starts_with_the_two_setup_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```sh") + 1:lines.index("```sh") + 3]
    assert block == ["pip install -e . && flake8 --select NPP examples/",
                     "pip install -e '.[test]' && python -m pytest -n auto"]
    assert lines.index("```sh") <= 3


# ---------------------------------------------------------------- every command the docs show, run as written

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]      # docs/rules/ is generated from the catalog
# Commands this machine cannot run as written, and why (each is matched at the start of a command).
NOT_RUN = {
    "pip install": "installs packages: needs the package index or the network; the suite itself runs in the "
                   "environment this command builds",
    "pip wheel": "builds the package with a build backend from the package index (no network here)",
    "python -m pytest": "runs this test suite, which would run this test again",
    "npuprof emulate [": "a usage synopsis, not a command",
    "python tools/": "a maintainer's generator: it rewrites files of the repository "
                     "(other tests check they are current)",
    "python benchmarks/": "a benchmark: minutes of CPU time, measured on purpose, not a check",
    "msprof ": "msprof comes with the CANN toolkit, which this machine does not have",
}
# In prose, a command's name (`npuprof fix`) or a synopsis with placeholders is not a command line.
PLACEHOLDERS = re.compile(r"\[|<|\.\.\.|\bPATH\b|\bFILES\b|\w\|\w")
INLINE = re.compile(r"(?<!`)`((?:npuprof|flake8|python|grep|git|msprof|pip) [^`]+)`(?!`)")


def _fences(text: str):
    """(first line number, language, lines) of every fenced block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*```(\w*)", lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith("```"):
            j += 1
        yield i + 2, m.group(1), lines[i + 1:j]
        i = j + 1


def shown_commands():
    """(where, command, expected output lines or None) for each command in a shell block, each `$ `
    line of a transcript, and each `run:` step of a workflow."""
    for doc in DOCS:
        name = doc.relative_to(ROOT).as_posix()
        for first, lang, body in _fences(doc.read_text(encoding="utf-8")):
            if lang in ("sh", "bash", "shell"):
                # a trailing backslash or an indented line continues the command above
                joined = re.sub(r"\\?\n[ \t]+", " ", "\n".join(body).replace("\\\n", " "))
                for k, line in enumerate(joined.splitlines()):
                    if line.strip() and not line.lstrip().startswith("#"):
                        yield f"{name}:{first + k}", line.strip(), None
            elif body and body[0].startswith("$ "):
                expected = []
                for line in body[1:]:
                    if line.startswith("$ "):
                        break
                    expected.append(line)
                yield f"{name}:{first}", body[0][2:], expected
            elif lang == "yaml":
                for k, line in enumerate(body):
                    m = re.match(r"^\s*- run: (.*)$", line)
                    if m:
                        yield f"{name}:{first + k}", m.group(1).split("  #")[0].strip(), None


def inline_commands():
    """(where, command) for each whole command line quoted in the prose."""
    for doc in DOCS:
        name = doc.relative_to(ROOT).as_posix()
        text = doc.read_text(encoding="utf-8")
        prose = re.sub(r"```.*?```", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
        for m in INLINE.finditer(prose):
            command = m.group(1)
            if re.fullmatch(r"(npuprof|git|msprof) [\w-]+", command) or PLACEHOLDERS.search(command):
                continue
            yield f"{name}:{text.count(chr(10), 0, m.start()) + 1}", command, None


COMMANDS = list(shown_commands()) + list(inline_commands())


def _parts(command: str):
    """The pieces of `a && b` the machine can run, and the reason for each it cannot."""
    run, skipped = [], []
    for part in (p.strip() for p in command.split("&&")):
        reason = next((why for start, why in NOT_RUN.items() if part.startswith(start)), None)
        if reason is None and part.startswith("check-jsonschema") and shutil.which("check-jsonschema") is None:
            reason = "check-jsonschema is not installed on this machine"
        (skipped.append((part, reason)) if reason else run.append(part))
    return run, skipped


@pytest.fixture
def sandbox(tmp_path_factory):
    """A project like the ones the docs talk about: the bundled examples and schemas, src/, options.json,
    ci/npuprof.toml and a pyproject.toml with the target the emulate example names."""
    box = tmp_path_factory.mktemp("docs")
    for folder in ("examples", "schemas"):
        shutil.copytree(ROOT / folder, box / folder)
    (box / ".git").mkdir()
    (box / "src").mkdir()
    shutil.copy(ROOT / "examples" / "mistakes" / "typos_in_options.py", box / "src" / "train.py")
    (box / "ci").mkdir()
    (box / "ci" / "npuprof.toml").write_text('[tool.npuprof]\ncann = "8.5"\n')
    (box / "options.json").write_text('{"output": "/tmp/prof", "task_trace": "on"}\n')
    (box / "pyproject.toml").write_text('[tool.npuprof]\ncann = "8.0"\nsoc = "910B"\n')
    for name in ("run_trap.sh", "train.py"):        # the launcher emulate.md walks through
        shutil.copy(ROOT / "tests" / "data" / "projects" / "launch" / name, box / name)
    shutil.copy(ROOT / "tests" / "data" / "projects" / "msprof_launch" / "run_msprof.sh", box / "run_msprof.sh")
    shutil.copytree(ROOT / "tests" / "data" / "agreement" / "warm_up", box / "warm_up")    # a launch sequence
    shutil.copytree(ROOT / "tests" / "data" / "projects" / "zoo_args" / "template", box / "zoo")    # its arguments
    # ... and a model of a zoo, whose launcher finds its script only when started in its own test/
    shutil.copytree(ROOT / "tests" / "data" / "projects" / "zoo_args" / "template", box / "models" / "lenet")
    # MindFormers YAML run configurations (README, "MindSpore")
    shutil.copytree(ROOT / "tests" / "eval_files" / "mindformers" / "configs" / "llama", box / "configs" / "llama")
    return box


def test_the_docs_show_commands():
    where = {w.split(":")[0] for w, _, _ in COMMANDS}
    assert {"README.md", "docs/configuration.md", "docs/ci.md", "docs/emulate.md", "docs/editors.md"} <= where
    inline = {command for _, command, _ in inline_commands()}
    assert {"npuprof explain NPP101", "npuprof check --add-noqa .", "npuprof check . | head -1"} <= inline
    assert "npuprof fix" not in inline and not any("[PATH" in c for c in inline)
    skipped = [(w, part, why) for w, command, _ in COMMANDS for part, why in _parts(command)[1]]
    # what is not run is said, not hidden: each skipped command has its reason
    assert skipped and all(why for _, _, why in skipped)
    print("\n".join(f"not run: {w}: {part} ({why})" for w, part, why in skipped))


@pytest.mark.parametrize("where,command,expected", COMMANDS, ids=[w for w, _, _ in COMMANDS])
def test_documented_command_runs_as_written(sandbox, where, command, expected):
    run, skipped = _parts(command)
    if not run:
        pytest.skip("; ".join(f"{part}: {why}" for part, why in skipped))
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    for part in run:
        proc = subprocess.run(part, shell=True, cwd=sandbox, env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=600)
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr, (where, part, proc.stderr)
        assert "error:" not in proc.stderr and proc.returncode in (0, 1), (where, part, proc.returncode, proc.stderr)
    if expected is not None:
        # the transcript's lines, up to its `...`; where it shows a machine's paths or sizes, this one's
        shown = [line for line in expected if line != "..."]
        got = proc.stdout.splitlines()[:len(shown)]

        def normal(line):
            # a directory of this machine's /tmp may exist or not (another job's): either is the same "ok"
            line = re.sub(r"preflight: ok \((\S+) (?:is writable|can be created)\)", r"preflight: ok (\1 usable)", line)
            return re.sub(r"\d+MB free", "NMB free", line.replace(str(sandbox), "/home/me/proj"))
        assert [normal(line) for line in got] == [normal(line) for line in shown], where
