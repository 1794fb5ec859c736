"""The same file gives the same findings under any load: every budget is counted in work."""

from __future__ import annotations

import subprocess
import sys
import time

from evalfiles import all_files
from flake8_npuprof.checks.analysis import analyse

FILES = all_files()
HOG = "import time\nend = time.time() + 60\nwhile time.time() < end: pass\n"


def _findings():
    out = {}
    for ef in FILES:
        text = ef.path.read_text(encoding="utf-8")
        out[ef.path.name] = [(f.line, f.col, f.code, f.message) for f in analyse(text, None, str(ef.path))]
    return out


def test_eval_files_same_findings_beside_busy_processes():
    idle = _findings()
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(3)]
    try:
        loaded = _findings()
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert loaded == idle
    assert any(code == "NPP101" for *_, code, _ in idle["resolve_astroid.py"])     # astroid's finding kept


def test_eval_files_same_findings_when_the_clock_races(monkeypatch):
    """A clock that jumps a minute per reading: a time budget anywhere would cut the analysis."""
    idle = _findings()
    ticks = iter(range(0, 10 ** 9, 60))
    for name in ("time", "monotonic", "perf_counter", "process_time"):
        monkeypatch.setattr(time, name, lambda: float(next(ticks)))
    assert _findings() == idle
