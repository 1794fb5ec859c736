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
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..source.fence import within
from ..source.prefilter import PROFILING_WORDS, code_only
from ..values.project import load, search_path
from ..values.resolve import DENYLIST

ADDS_TO_PATH = re.compile(r"\bsys\s*\.\s*path\s*(?:\.\s*(?:insert|append|extend)\b|\+=|\[[^\]]*\]\s*=)|"
                          r"\baddsitedir\b")
MAX_ENTRIES = 20000         # files and folders looked at under one root: a whole checkout is not walked


class MayImport(str):
    """The path of a module the script may import through a folder it adds to sys.path (not one a lookup found:
    reports say so)."""


def named_on_added_path(importers: Iterable[Tuple[str, str, Sequence]], found) -> Optional[str]:
    """The first file naming profiling that an import no lookup finds may be, for the importers (path, text, import
    refs) whose code adds to sys.path; found(importer, parts) is the lookup's module or None. "" where none is found
    but a root was too big to list whole (the answer is then not "no"), None where none is."""
    listed: Dict[str, Tuple[List[str], bool]] = {}      # root -> its .py files and whether all, walked once
    for importer, text, refs in importers:
        code = code_only(text)
        if not ADDS_TO_PATH.search(code):
            continue
        missing = [parts for level, parts in refs if not level and parts and parts[0] not in DENYLIST
                   and found(importer, parts) is None]
        if not missing:
            continue
        root = search_path(importer)[-1]
        if root not in listed:
            listed[root] = _python_files(root)
        for path in _named(root, listed[root][0], missing):
            module = load(path)         # (not through a link out of the root, nor outside --no-outside's fence)
            if module is not None and PROFILING_WORDS.search(code_only(module.src.text)):
                return MayImport(path)
    return "" if any(not whole for _, whole in listed.values()) else None


def _python_files(root: str) -> Tuple[List[str], bool]:
    """The .py files under root, in walk order, none through a link out of it, and whether that is all of them: at
    most MAX_ENTRIES entries are looked at (a whole checkout is not walked)."""
    out: List[str] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        seen += len(dirs) + len(files)
        if seen > MAX_ENTRIES:
            return out, False
        out.extend(p for p in (os.path.join(folder, f) for f in sorted(files) if f.endswith(".py"))
                   if within(p, root))
    return out, True


def _named(root: str, files: List[str], missing) -> Iterable[str]:
    """The files an import of these parts may load: `a/b.py` or `a/b/__init__.py` for `import a.b`, at any depth
    (the added entry is the folder above), and `a.py` or `a/__init__.py` for its head alone."""
    tails = set()
    for parts in missing:
        for k in range(1, len(parts) + 1):
            tails.add(os.path.join(*parts[:k]) + ".py")
            tails.add(os.path.join(*parts[:k], "__init__.py"))
    for path in files:
        rel = os.path.relpath(path, root)
        if any(rel == t or rel.endswith(os.sep + t) for t in tails):
            yield path
