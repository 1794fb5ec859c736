"""Modules a script finds on folders it adds to sys.path itself (`sys.path.insert(0, "lib")`, `sys.path.append(
os.path.join(here, "utils"))`, `site.addsitedir(...)`): such an entry is a value at run time, often relative to the
directory the job runs in, so the folder is not computed here. An import the launch's sys.path (sys_path.py) and
values/project.py's search do not find, made by a file that adds to sys.path, may be any file of that name in the
importer's project: one that names profiling makes the answer unknown, never "no profiling setup found" (python
3.9.18 and 3.13.0 run `lib/inmod.go()` and its torch_npu profiler from `python3 train.py` in such a project).
"""

from __future__ import annotations

import os
import re
from typing import Iterable, Optional, Sequence, Tuple

from ..source.prefilter import PROFILING_WORDS, code_only
from ..values.project import load, search_path
from ..values.resolve import DENYLIST

ADDS_TO_PATH = re.compile(r"\bsys\s*\.\s*path\s*(?:\.\s*(?:insert|append|extend)\b|\+=|\[[^\]]*\]\s*=)|"
                          r"\baddsitedir\b")
MAX_ENTRIES = 20000         # files and folders looked at under one root: a whole checkout is not walked


def named_on_added_path(importers: Iterable[Tuple[str, str, Sequence]], found) -> Optional[str]:
    """The first file naming profiling that an import no lookup finds may be, for the importers (path, text, import
    refs) whose code adds to sys.path; found(importer, parts) is the lookup's module or None."""
    for importer, text, refs in importers:
        code = code_only(text)
        if not ADDS_TO_PATH.search(code):
            continue
        missing = [parts for level, parts in refs if not level and parts and parts[0] not in DENYLIST
                   and found(importer, parts) is None]
        if not missing:
            continue
        root = search_path(importer)[-1]
        for path in _files_named(root, missing):
            module = load(path)         # (not through a link out of the root, nor outside --no-outside's fence)
            if module is not None and PROFILING_WORDS.search(code_only(module.src.text)):
                return path
    return None


def _files_named(root: str, missing) -> Iterable[str]:
    """Files under root an import of these parts may load: `a/b.py` or `a/b/__init__.py` for `import a.b`, at any
    depth (the added entry is the folder above), and `a.py` for its head alone; in walk order, bounded."""
    tails = set()
    for parts in missing:
        for k in range(1, len(parts) + 1):
            tails.add(os.path.join(*parts[:k]) + ".py")
            tails.add(os.path.join(*parts[:k], "__init__.py"))
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        seen += len(dirs) + len(files)
        if seen > MAX_ENTRIES:
            return
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if any(rel == t or rel.endswith(os.sep + t) for t in tails) and \
                    os.path.realpath(path).startswith(os.path.join(os.path.realpath(root), "")):
                yield path
