"""What one file's analysis looked at on disk besides the file itself, so a cached result is trusted
only while all of it is unchanged.

A file's findings can depend on other files: the project modules its imports name (values/project.py),
the scripts a launcher starts and the files it sources (shell/walk.py, shell/launches.py), and files that are *not*
there (a module found in the second place searched, because the first has no such file). The places
that read or probe a path go through `reading`/`note`/`isfile`/`exists`; while `recording()` is active they keep
each path's signature, which the cache (commands/cache.py) compares again before it trusts a result.

Outside a recording (flake8, the language server, emulate) these are plain `os.stat` calls.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from typing import Any, Dict, Iterator, Optional, Tuple

Signature = Tuple                       # ("file", mtime_ns, size), ("dir",), ("missing",) or ("other",);
                                        # the cache keeps ("sha256", size, digest) for a file (content()), and
                                        # ("listing", mtime_ns) for a folder whose entries were read (listed()),
                                        # ("stat", mtime_ns, size) for a file read for a word only (stat_note())

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
        path = os.path.abspath(path)
        was = self.paths.get(path)
        if was is None or sig[0] == "listing" or was[0] == "stat" and sig[0] != "stat":
            self.paths[path] = sig      # (a folder listed is more than a folder seen, a file read more than a word)


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
    """A file about to be read: remembered while recording (outside a recording, nothing is done). A path the
    recording holds already (its key is the path made absolute) keeps what it holds (Recording.add): it is not looked
    at again (the prefilter of a script a launcher may start notes it, then reads it: an os.stat costs about 7,000
    instructions)."""
    rec = _current
    if rec is not None:
        was = rec.paths.get(path)
        if was is None or was[0] == "stat" or len(rec.paths) >= MAX_PATHS:
            rec.add(path, signature(path))


def isfile(path: str) -> bool:
    return note(path)[0] == "file"


def exists(path: str) -> bool:
    return note(path)[0] != "missing"


def listed(folders: Dict[str, int]) -> None:
    """Folders (absolute paths) whose entries an answer rests on (which names they hold, not what those hold: files
    are noted one by one), each read when its time was the one given: an entry added, removed or renamed in a folder
    changes its time. (One update: a launcher's region can hold hundreds of folders, and every check records.)"""
    rec = _current
    if rec is None:
        return
    if len(rec.paths) + len(folders) > MAX_PATHS:
        rec.complete = False
        return
    rec.paths.update(zip(folders, [("listing", t) for t in folders.values()]))


def stat_note(path: str, st: os.stat_result) -> None:
    """A file read only for whether it names a word (its size and time are its signature, not its content's digest:
    a check that reads a whole project's files would otherwise hash each of them at every warm run)."""
    if _current is not None and stat.S_ISREG(st.st_mode):
        _current.add(path, ("stat", st.st_mtime_ns, st.st_size))


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
    """Whether every path still has the signature recorded (by content for a ("sha256", ...) one)."""
    return all(_now(path, sig[0] if sig else "") == tuple(sig) for path, sig in paths.items())


def _now(path: str, kind: str) -> Optional[Signature]:
    """The path's signature today, of the kind recorded."""
    if kind == "sha256":
        return content(path)
    if kind == "listing":
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            return ("missing",)
        if stat.S_ISDIR(st.st_mode):
            return ("listing", st.st_mtime_ns)
    sig = signature(path)
    if kind == "stat" and sig[0] == "file":
        return ("stat",) + sig[1:]
    return sig


MAX_HASHED = 16 * 1024 * 1024           # a dependency larger than this is not hashed: the result is not cached


def content(path: str, recorded: Optional[Signature] = None) -> Optional[Signature]:
    """A regular file's signature by content, for the cache: ("sha256", size, digest); a size and a time can stay
    the same over an edit (a restored archive, a coarse clock). Another kind of path: its signature(). None when
    the file is too large to hash, or no longer has the `recorded` size and time (it changed after it was read)."""
    import hashlib
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return signature(path) if recorded is None else None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return ("dir",) if stat.S_ISDIR(st.st_mode) else ("other",)
        if st.st_size > MAX_HASHED or (recorded is not None and tuple(recorded) != ("file", st.st_mtime_ns, st.st_size)):
            return None
        h, left = hashlib.sha256(), st.st_size + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            h.update(chunk)
            left -= len(chunk)
        if left != 1:
            return None                 # it grew or shrank while it was read
        return ("sha256", st.st_size, h.hexdigest())
    except OSError:
        return None
    finally:
        os.close(fd)


def by_content(paths: Dict[str, Signature]) -> Optional[Dict[str, Signature]]:
    """The recorded signatures with every regular file's replaced by its content's; None when one cannot be
    (it changed since it was read, or is too large): such a result is not cached."""
    out = {}
    for path, sig in paths.items():
        if sig and sig[0] == "file":
            by_text = content(path, sig)
            if by_text is None:
                return None
            sig = by_text
        out[path] = sig
    return out


# what one `check` run has seen of folders (one_run): their times and whether each is a link, by path; None outside one
_run: Optional[Dict[str, Dict[str, Any]]] = None


@contextmanager
def one_run() -> Iterator[None]:
    """Inside the block, a folder's time and whether it is a link, once looked at, are taken as they were for the rest
    of it (this_run): a check run reads a tree as it was when it looked, and the launchers of one project look at the
    same folders again and again (engine/launch_scan.py: an os.stat costs about 7,000 instructions). Entered by a check
    run only: a process that lives on (the language server) or writes files (fix) looks again every time."""
    global _run
    outer = _run
    if outer is None:
        _run = {"time": {}, "link": {}, "note": {}}
    try:
        yield
    finally:
        _run = outer


def this_run(kind: str) -> Optional[Dict[str, Any]]:
    """The run's memo of that kind ("time": a folder's st_mtime_ns, -1 when it could not be looked at; "link": whether
    it is a link; "note": a path's signature, note_once), or None outside one_run."""
    return None if _run is None else _run[kind]


def note_once(path: str) -> Signature:
    """note, looked at once a check run (one_run; remembered while recording at every call): the launchers of a
    project probe the same missing paths above it (engine/launch_scan._modules), and an os.stat that fails costs
    about 20,000 instructions."""
    seen = None if _run is None else _run["note"]
    if seen is None:
        return note(path)
    sig = seen.get(path)
    if sig is None:
        sig = seen[path] = signature(path)
    if _current is not None:
        _current.add(path, sig)
    return sig


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
