"""What one file's analysis looked at on disk besides the file itself, so a cached result is trusted
only while all of it is unchanged.

A file's findings can depend on other files: the project modules its imports name (values/project.py),
the scripts a launcher starts and the files it sources (emulate/launcher.py), and files that are *not*
there (a module found in the second place searched, because the first has no such file). The places
that read or probe a path go through `reading`/`note`/`isfile`/`exists`; while `recording()` is active they keep
each path's signature, which the cache (commands/cache.py) compares again before it trusts a result.

Outside a recording (flake8, the language server, emulate) these are plain `os.stat` calls.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from typing import Dict, Iterator, Optional, Tuple

Signature = Tuple                       # ("file", mtime_ns, size), ("dir",), ("missing",) or ("other",)

MAX_PATHS = 4096                        # a file that depends on more is not cached (its recording is marked incomplete)


class Recording:
    """The paths one analysis looked at, with their signatures when it looked."""

    def __init__(self):
        self.paths: Dict[str, Signature] = {}
        self.complete = True

    def add(self, path: str, sig: Signature) -> None:
        if len(self.paths) >= MAX_PATHS:
            self.complete = False
            return
        self.paths.setdefault(os.path.abspath(path), sig)


_current: Optional[Recording] = None


def signature(path: str) -> Signature:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return ("missing",)
    if stat.S_ISREG(st.st_mode):
        return ("file", st.st_mtime_ns, st.st_size)
    if stat.S_ISDIR(st.st_mode):
        return ("dir",)                 # what a directory holds is recorded file by file
    return ("other",)


def note(path: str) -> Signature:
    """Look at a path (and remember it while recording)."""
    sig = signature(path)
    if _current is not None:
        _current.add(path, sig)
    return sig


def reading(path: str) -> None:
    """A file about to be read: remembered while recording (outside a recording, nothing is done)."""
    if _current is not None:
        _current.add(path, signature(path))


def isfile(path: str) -> bool:
    return note(path)[0] == "file"


def exists(path: str) -> bool:
    return note(path)[0] != "missing"


def incomplete() -> None:
    """What the analysis depends on cannot be listed (a bound was hit): the result is not cached."""
    if _current is not None:
        _current.complete = False


@contextmanager
def recording() -> Iterator[Recording]:
    """Record every path looked at inside the block (recordings nest: the outer one gets them too)."""
    global _current
    outer, rec = _current, Recording()
    _current = rec
    try:
        yield rec
    finally:
        _current = outer
        if outer is not None:
            for path, sig in rec.paths.items():
                outer.add(path, sig)
            outer.complete = outer.complete and rec.complete


def unchanged(paths: Dict[str, Signature]) -> bool:
    """Whether every path still has the signature recorded."""
    return all(tuple(signature(path)) == tuple(sig) for path, sig in paths.items())


def remembered(memo: dict, key, compute):
    """memo[key], computed once and kept while the paths the computation looked at are unchanged (a process
    that lives on, as the language server, sees an edited module). Every use looks at those paths again, so a
    result built from the memo depends on them as if it had computed the value itself."""
    if key in memo:
        value, paths, complete = memo[key]
        if unchanged(paths):
            if _current is not None:
                for path, sig in paths.items():
                    _current.add(path, sig)
                _current.complete = _current.complete and complete
            return value
    with recording() as rec:
        value = compute()
    memo[key] = (value, dict(rec.paths), rec.complete)
    return value
