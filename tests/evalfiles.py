"""Eval files (bugbear style): expected findings written next to the code that causes them.

On the offending line:      `...  # NPP101: 23`        (code and 1-based column, as flake8 prints)
several on one line:        `...  # NPP101: 23, NPP102: 40`
anywhere (e.g. for a line inside a triple-quoted string):
                            `# expect: 12:5 NPP101`
options for the whole file: `# OPTIONS: --npuprof-cann=8.0 --npuprof-soc=910 --extend-select=NPP200`
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
import time
from pathlib import Path
from typing import Dict, List, NamedTuple, Set, Tuple

HERE = Path(__file__).resolve().parent
EVAL_DIR = HERE / "eval_files"

_TRAILING = re.compile(r"#\s*((?:NPP\d{3}:\s*\d+\s*,?\s*)+)\s*$")
_ONE = re.compile(r"(NPP\d{3}):\s*(\d+)")
_EXPECT = re.compile(r"#\s*expect:\s*(\d+):(\d+)\s+(NPP\d{3})")
_OPTIONS = re.compile(r"#\s*OPTIONS:\s*(.*)$")


class EvalFile(NamedTuple):
    path: Path
    expected: Set[Tuple[int, int, str]]     # (line, 1-based column, code)
    options: Tuple[str, ...]                # flake8 command-line options


def load(path: Path) -> EvalFile:
    text = path.read_text(encoding="utf-8")
    expected = set()
    options: Tuple[str, ...] = ()
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _OPTIONS.search(line)
        if m:
            options = tuple(m.group(1).split())
            continue
        for m in _EXPECT.finditer(line):
            expected.add((int(m.group(1)), int(m.group(2)), m.group(3)))
        m = _TRAILING.search(line)
        if m:
            for code, col in _ONE.findall(m.group(1)):
                expected.add((lineno, int(col), code))
    return EvalFile(path, expected, options)


def all_files() -> List[EvalFile]:
    return [load(p) for p in sorted(EVAL_DIR.glob("*.py"))]


def parse_options(options) -> Dict[str, str]:
    out = {}
    for opt in options:
        key, _, value = opt.lstrip("-").partition("=")
        out[key] = value
    return out


# A file that takes longer than this fails its test instead of hanging the CI run. Generous: a file
# takes well under a second; what we guard against (backtracking, runaway loops) takes minutes.
FILE_SECONDS = float(os.environ.get("NPUPROF_EVAL_SECONDS", "30"))


class Hang(Exception):
    pass


WALL_FACTOR = 10        # a block that waits (a lock, a pipe) uses no CPU: the clock stops it at ten times the limit


@contextlib.contextmanager
def deadline(seconds: float = FILE_SECONDS, what: str = "this input"):
    """Raise Hang inside the block once it has used `seconds` of this process's CPU time (SIGPROF), or waited
    WALL_FACTOR times that on the clock (SIGALRM); the regex engine and Python code both check for signals. CPU
    time first: on a machine shared by other jobs a block that takes half a second of CPU can take ten on the
    clock, and a guard against hangs must not fail on load. Elsewhere than a POSIX main thread, the CPU time is
    checked afterwards."""
    start = time.process_time()
    armed = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if armed:
        def expire(signum, frame):
            raise Hang(f"{what} took more than {seconds:g} s of CPU" if signum == signal.SIGPROF else
                       f"{what} waited more than {seconds * WALL_FACTOR:g} s")
        previous = signal.signal(signal.SIGPROF, expire), signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_PROF, seconds)
        signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGPROF, previous[0])
            signal.signal(signal.SIGALRM, previous[1])
    if time.process_time() - start > seconds:
        raise Hang(f"{what} took more than {seconds:g} s of CPU")
