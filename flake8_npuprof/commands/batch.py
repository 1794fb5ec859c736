"""Many files at once for check and fix: the cache first, then worker processes, with a progress line.

A run hands over one job per file. Jobs the cache answers (commands/cache.py) are done at once; the others go
to `-j` worker processes (default: the CPU count; none when one would do), and come back in the order of the
jobs, so the report is the same byte for byte whatever the cache holds and however many processes ran. While
it works, a run that lasts more than a second says how far it is on standard error, when that is a terminal.
"""

from __future__ import annotations

import os
import sys
import time
from collections import deque
from typing import (TYPE_CHECKING, Any, Callable, Deque, Iterable, Iterator, List, NamedTuple, Optional, Sequence,
                    Tuple, TypeVar)

from ..source import observed

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

P = TypeVar("P")                # what ordered() hands back with each result: the caller's own

PROGRESS_AFTER = 1.0            # seconds before the progress line appears
PROGRESS_EVERY = 0.1            # seconds between updates


class Job(NamedTuple):
    """One file to check or fix, as the worker needs it."""

    path: str
    text: str
    kind: str
    ignores: Tuple[str, ...] = ()
    compiled: bool = False          # this interpreter's bytecode cache proves the text parses (source/bytecode.py)
    within: Optional[str] = None    # the folder whose walk found it (values/project.py reads no link out of it)


def read_jobs(args, config, paths: Iterable[str], store, each, selection) -> Iterator[tuple]:
    """(input, its Job, the cache's findings for it) for each path, read when its turn comes: the Job is None
    when the file could not be read, the findings None when the cache does not hold them (standard input is
    never looked up)."""
    from .inputs import read_input, walk_root
    for path in paths:
        item = read_input(args, path)
        if item.source is None:
            yield item, None, None
            continue
        job = Job(item.path, item.source.text, item.source.kind, tuple(config.ignores_for(item.path)) if config else (),
                  within=None if item.stdin else walk_root(args, item.path))
        cached = store.get(job.path, job.text, job.kind, each, selection, job.ignores, job.within) \
            if store is not None and not item.stdin else None
        yield item, job, cached


def check_job(job: Job, each, selection) -> Tuple[List[list], Optional[dict]]:
    """The findings for each settings, and what they depend on (None: not all of it could be listed)."""
    from ..engine.run import check_each
    from ..values.project import walked_from
    _folder_done(os.path.dirname(job.path))
    with observed.recording() as seen, walked_from(job.within):
        found = check_each(job.path, job.text, job.kind, tuple(each), selection, job.ignores,   # one analysis
                           compiled=job.compiled)
    return found, (seen.paths if seen.complete else None)


_folder: Optional[str] = None
_trim: Any = None                       # glibc's malloc_trim, found once (False: not there)


def _folder_done(folder: str) -> None:
    """When the files of a folder are done, hand the memory their analyses freed back to the system. glibc
    keeps freed memory inside its heap, and what a later file keeps (a cached module, a finding) sits between
    freed pieces, so the heap only grew: over the model zoo's 16,218 files it held 43 MB of which 32 MB free
    (mallinfo2), most of the growth of the peak from 4k to 16k files. malloc_trim(0) gives the free pages of
    the whole heap back (glibc 2.8 and later); elsewhere nothing is done."""
    global _folder, _trim
    if folder == _folder:
        return
    _folder = folder
    if _trim is None:
        _trim = False
        if sys.platform == "linux":
            try:
                import ctypes
                _trim = ctypes.CDLL(None).malloc_trim
            except (OSError, AttributeError):
                pass
    if _trim:
        _trim(0)


def workers(args) -> int:
    jobs = getattr(args, "jobs", None)
    return max(1, jobs if jobs else (os.cpu_count() or 1))


def _worker_init() -> None:
    import warnings
    warnings.simplefilter("ignore", SyntaxWarning)      # the user's code is parsed, never run


def run(fn: Callable, tasks: Sequence[tuple], processes: int, progress: "Progress") -> list:
    """fn(*task) for each task, in the tasks' order; in `processes` worker processes when more than one is
    worth starting."""
    out: list = [None] * len(tasks)
    processes = min(processes, len(tasks))
    if processes <= 1:
        for k, task in enumerate(tasks):
            out[k] = fn(*task)
            progress.advance()
        return out
    with _pool(processes) as pool:
        for k, result in pool.imap_unordered(_indexed, [(k, fn, task) for k, task in enumerate(tasks)]):
            out[k] = result
            progress.advance()
    return out


WINDOW = 256                    # entries ordered() holds at once: read, waiting for a worker, or worked on


def ordered(fn: Callable, entries: Iterable[Tuple[P, Optional[tuple]]], processes: int,
            progress: "Progress") -> Iterator[Tuple[P, Any]]:
    """(payload, fn(*task)) for each (payload, task) of entries, in their order; an entry with no task (a
    file the cache answered, or one that could not be read) comes out with None. At most WINDOW entries are
    held at once, read or in a worker, so memory does not grow with their number; one pool of `processes`
    workers serves the whole run, started when the first task comes (none when one process would do)."""
    pending: Deque[Tuple[P, Any, bool]] = deque()      # (payload, result or AsyncResult, in a worker)
    pool: Optional[Pool] = None
    try:
        for payload, task in entries:
            if task is None:
                pending.append((payload, None, False))
            elif processes <= 1:
                pending.append((payload, fn(*task), False))
            else:
                if pool is None:
                    pool = _pool(processes)
                pending.append((payload, pool.apply_async(fn, task), True))
            # hand on what is ready at the front, and wait for the front once the window is full
            while pending and (len(pending) >= WINDOW or not pending[0][2] or pending[0][1].ready()):
                yield _settled(pending.popleft(), progress)
        while pending:
            yield _settled(pending.popleft(), progress)
    finally:
        if pool is not None:
            pool.terminate()


def _settled(entry, progress: "Progress"):
    payload, result, in_worker = entry
    progress.advance()
    return payload, (result.get() if in_worker else result)


PRELOAD = "flake8_npuprof.checks.analysis"     # what every worker needs, imported once before they start


def _pool(processes: int) -> Pool:
    import multiprocessing
    method = start_method()
    if method == "forkserver":
        # (the server's modules are its own: it imports these once, from a fresh interpreter)
        multiprocessing.get_context(method).set_forkserver_preload([PRELOAD])
    else:
        __import__(PRELOAD)
    return multiprocessing.get_context(method).Pool(processes, initializer=_worker_init)


def start_method() -> Optional[str]:
    """fork where the platform has it and this process runs a single thread: the workers start with the
    modules this process has imported, at no cost. With another thread alive (a test runner's, a program
    that calls `main`), a fork may hand the worker a lock that thread held, held for ever (Python 3.12 and
    later warn: "This process ... is multi-threaded, use of fork() may lead to deadlocks in the child"):
    forkserver then, a server started once from a fresh interpreter that forks the workers from its single
    thread. None: the platform's default (spawn on macOS and Windows)."""
    import multiprocessing
    methods = multiprocessing.get_all_start_methods()
    if "fork" not in methods or sys.platform == "darwin":
        return None
    if threads() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def threads() -> int:
    """The threads of this process: the operating system's count where it gives one (Linux; the one Python
    warns by), else those the threading module knows."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        import threading
        return threading.active_count()


def _indexed(item):
    k, fn, task = item
    return k, fn(*task)


class Progress:
    """`checking 120/4,000 files` on standard error, rewritten in place: only on a terminal, only after the
    first second, at most ten times a second, and erased when the run is done."""

    def __init__(self, total: int, verb: str = "checking", stream=None, enabled: Optional[bool] = None,
                 clock: Callable[[], float] = time.monotonic):
        self.total, self.verb = total, verb
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            try:
                enabled = self.stream.isatty()
            except (AttributeError, ValueError):
                enabled = False
        self.enabled = enabled
        self.clock = clock
        self.start = clock()
        self.last: Optional[float] = None
        self.done = 0
        self.shown = False

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < PROGRESS_AFTER or (self.last is not None and now - self.last < PROGRESS_EVERY
                                                  and self.done < self.total):
            return
        self.last = now
        self._write(f"\r{self.verb} {self.done:,}/{self.total:,} files")
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self._write("\r\x1b[K")
            self.shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False
