"""The one fence of `emulate --no-outside`: the project's root, and whether a path lies outside it.

A launcher from an untrusted pull request names what the emulation reads (a script, a sourced file, a module on an
exported PYTHONPATH, a YAML configuration, a dynamic-profiling folder): under --no-outside no byte of a file outside
the project may reach a report. The emulation puts the fence up once (`fenced`, emulate/script.py); every read
through source/files (read_bytes, read_source) is refused outside it, so a reader that forgets to ask still reads
nothing there, and the readers that say why ask `outside` first and name the file. A path is judged with its links
resolved (a link in the project to a file elsewhere is outside; `..` and `cd` through a link alike), relative to
the current directory where it is relative.

Outside an emulation under --no-outside (check, flake8, the language server, a plain emulate) there is no fence.
"""

from __future__ import annotations

import errno
import os
from contextlib import contextmanager
from typing import Iterator, Optional

WHY = "outside the project, which --no-outside leaves unread"

_root: Optional[str] = None             # the project's root, links resolved, while the fence is up


def within(path: str, root: str) -> bool:
    """Whether path, its links resolved, is root or inside it."""
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


@contextmanager
def fenced(root: Optional[str]) -> Iterator[None]:
    """Nothing outside root is read inside the block (None: no fence; fences nest, the inner one holds)."""
    global _root
    outer, _root = _root, os.path.realpath(root) if root is not None else None
    try:
        yield
    finally:
        _root = outer


def root() -> Optional[str]:
    """The project's root while the fence is up, else None."""
    return _root


def outside(path: str) -> bool:
    """Whether the fence is up and path, its links resolved, lies outside the project: not to be read."""
    return _root is not None and not within(path, _root)


def check(path: str) -> None:
    """Before a read with open() (source/files.read_bytes asks itself): OSError where path is outside the fence, as
    for a file that cannot be read."""
    if outside(path):
        raise OSError(errno.EACCES, WHY, path)
