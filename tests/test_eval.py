"""Run every eval file through the plugin API, the CLI path and real flake8 (subprocess)."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict

import pytest

from evalfiles import EVAL_DIR, FILE_SECONDS, all_files, deadline, parse_options
from flake8_npuprof.checks.analysis import Settings
from flake8_npuprof.engine.run import check_text
from flake8_npuprof.source.files import Selection, noqa_lines, split_codes, suppressed
from flake8_npuprof.plugin import NpuProfChecker
from flake8_npuprof.knowledge.targets import Target

FILES = all_files()


def _settings(options):
    opts = parse_options(options)
    return Settings(target=Target.parse(opts.get("npuprof-cann", "any"), opts.get("npuprof-soc", "any"),
                                        opts.get("npuprof-torch-npu", "any")))


def _selection(options):
    opts = parse_options(options)
    return Selection(select=split_codes(opts.get("select")) or ("NPP",),
                     extend_select=split_codes(opts.get("extend-select")))


@pytest.mark.parametrize("ef", FILES, ids=[f.path.name for f in FILES])
def test_plugin_api(ef, monkeypatch):
    text = ef.path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    monkeypatch.setattr(NpuProfChecker, "settings", _settings(ef.options))
    opts = parse_options(ef.options)
    monkeypatch.setattr(NpuProfChecker, "selected", (split_codes(opts.get("select")) or ("NPP",))
                        + split_codes(opts.get("extend-select")))
    checker = NpuProfChecker(ast.parse(text), lines, str(ef.path))
    selection, noqa = _selection(ef.options), noqa_lines(text)
    got = set()
    with deadline(what=ef.path.name):
        results = list(checker.run())
    for line, col, message, _ in results:
        code = message.split(" ", 1)[0]
        if selection.wants(code) and not suppressed(code, noqa.get(line)):
            got.add((line, col + 1, code))
    assert sorted(got) == sorted(ef.expected)


@pytest.mark.parametrize("ef", FILES, ids=[f.path.name for f in FILES])
def test_cli_path(ef):
    text = ef.path.read_text(encoding="utf-8")
    with deadline(what=ef.path.name):
        findings = check_text(str(ef.path), text, "python", _settings(ef.options), _selection(ef.options))
    assert sorted((f.line, f.col + 1, f.code) for f in findings) == sorted(ef.expected)


def test_real_flake8_subprocess():
    groups = defaultdict(list)
    for ef in FILES:
        groups[ef.options].append(ef)
    for options, files in groups.items():
        cmd = [sys.executable, "-m", "flake8", "--isolated", "--select", "NPP",
               "--format", "%(path)s|%(row)d|%(col)d|%(code)s", *options, *[str(f.path) for f in files]]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=EVAL_DIR,
                              timeout=FILE_SECONDS * len(files))
        assert proc.returncode in (0, 1), proc.stderr
        got = defaultdict(set)
        for row in proc.stdout.splitlines():
            path, line, col, code = row.rsplit("|", 3)
            got[path].add((int(line), int(col), code))
        for ef in files:
            assert sorted(got[str(ef.path)]) == sorted(ef.expected), ef.path.name
