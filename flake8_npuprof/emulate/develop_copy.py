"""A package a launched script imports that the project holds as a copy to install: a folder with setup.py or
pyproject.toml around the package (a model zoo project ships its modified mmcv/, which its README installs with
`pip install -e mmcv` or `python setup.py develop`). Installed so, the package is imported from that folder (an
editable install adds it to Python's import path: data/sources.json python.develop_install); installed otherwise,
or not at all, it is not. A profiler in that copy may run: the launch's answer is unknown, never "no"."""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Set, Tuple

from ..source import fence, observed
from ..source.prefilter import PROFILING_WORDS, code_only
from ..values.project import MAX_IMPORTED, ROOT_LEVELS, Module, import_refs, load, on_path

FACTS = ("python.develop_install",)          # data/sources.json (tests/test_audit.py)
MARKERS = ("setup.py", "pyproject.toml")     # what `pip install -e FOLDER` builds from
MAX_FOLDERS = 64                              # the subfolders of one folder looked in


def launch_top(script: str, launcher_dir: str) -> str:
    """The project of a launch: the folder its script shares with its launcher's (the script's own, where they
    share nothing but /). Where the script is in the launcher's own folder (scripts/run.sh starts scripts/train.py),
    the folder above it too, so a copy beside that folder is looked in; not above a folder that is a project's top
    itself (a git work tree, or one holding setup.py, pyproject.toml or setup.cfg), nor outside the fence."""
    here = os.path.dirname(os.path.abspath(script))
    try:
        top = os.path.commonpath([here, os.path.abspath(launcher_dir)])
    except ValueError:
        return here
    if os.path.dirname(top) == top:
        return here
    above = os.path.dirname(top)
    if top == here == os.path.abspath(launcher_dir) and above != top and not fence.outside(above) and \
            not any(observed.exists(os.path.join(top, m)) for m in (".git", "setup.cfg") + MARKERS):
        return above
    return top


def script_top(script: str) -> str:
    """The project of a script emulated alone: its nearest folder (up to ROOT_LEVELS) holding a setup.py,
    pyproject.toml or setup.cfg, else its own (a repository's .git may hold many projects)."""
    here = cur = os.path.dirname(os.path.abspath(script))
    for _ in range(ROOT_LEVELS):
        if any(observed.isfile(os.path.join(cur, m)) for m in MARKERS + ("setup.cfg",)):
            return cur
        if os.path.dirname(cur) == cur:
            break
        cur = os.path.dirname(cur)
    return here


def copies(script: str, top: str) -> Dict[str, Tuple[str, str]]:
    """{package name: (the folder to install, its marker)} of the copies the project holds: a folder, or a subfolder
    of one, on the way from the script's folder up to the project's (top), holding a marker and the package
    (NAME/__init__.py); the nearest first."""
    here = os.path.dirname(os.path.abspath(script))
    out: Dict[str, Tuple[str, str]] = {}
    base = here
    while True:
        for folder in [base] + _subfolders(base):
            marker = next((m for m in MARKERS if observed.isfile(os.path.join(folder, m))), None)
            if marker is not None:
                for name in _subfolders(folder):
                    if observed.isfile(os.path.join(name, "__init__.py")):
                        out.setdefault(os.path.basename(name), (folder, marker))
        if base == top or os.path.dirname(base) == base or not base.startswith(top):
            return out
        base = os.path.dirname(base)


def _subfolders(folder: str) -> List[str]:
    try:
        with os.scandir(folder) as it:
            names = sorted(e.name for e in it if e.is_dir() and not e.name.startswith("."))
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names[:MAX_FOLDERS] if n.isidentifier()]


def profiling_copy(ls, top: str) -> str:
    """Why the launch may profile through a copy to install that it imports and the launch's own path does not
    provide (sys_path.py, values/project.py): that copy's module naming profiling, or its imports too many to
    follow; "" where it imports none, or none that names profiling. Under --no-outside a file of the copy that leads
    out of the project (a link) is neither read nor quoted, and the copy is said to lead there."""
    from .launcher import _names_in_code, named_line
    from .sys_path import launch_lookup
    script = ls.launch.script
    held = copies(script, top) if script else {}
    lookup = launch_lookup(ls) if held else None
    if lookup is None:
        return ""
    starts: Dict[str, List[str]] = {}              # {name: the copy's files its imports name}
    for importer, refs in [(lookup.filename, import_refs(ls.ctx.tree))] + \
            [(m.path, m.refs) for m in lookup.imported_modules()]:
        for level, parts in refs:
            if level or not parts or parts[0] not in held or lookup.module(importer, 0, parts[:1]) is not None:
                continue
            found = starts.setdefault(parts[0], [])
            for k in range(1, len(parts) + 1):
                path = on_path((held[parts[0]][0],), parts[:k])
                if path is not None and path not in found:
                    found.append(path)
    for name, paths in starts.items():
        outside = [p for p in paths if fence.outside(p)]
        modules, more, beyond = _reached(lookup, [p for p in paths if p not in outside])
        beyond = outside[0] if outside else beyond
        named = [m for m in modules if PROFILING_WORDS.search(m.src.text) and _names_in_code(m.src.text)]
        hit = next((m.path for m in named if PROFILING_WORDS.search(code_only(m.src.text, strings=True))),
                   named[0].path if named else None)
        if hit is None and not more and beyond is None:
            continue
        folder, marker = held[name]
        root = os.path.dirname(folder)
        shown = os.path.relpath(folder, root).replace(os.sep, "/")
        shown_line = profiler_call(next(m for m in named if m.path == hit)) if hit is not None else ""
        naming = f"{os.path.relpath(hit, root).replace(os.sep, '/')} there names profiling" \
            f"{shown_line or named_line(hit)}" \
            if hit is not None else "it imports more modules there than are followed here" if more else \
            f"its {os.path.relpath(str(beyond), root).replace(os.sep, '/')} leads {fence.WHY}"
        return (f"{os.path.basename(script)} imports {name}, which the project holds as a copy to install "
                f"({shown}/, with {marker}): {naming}; that copy may be the {name} the job imports (`pip install -e` "
                f"or `python setup.py develop` there makes Python import that folder's code): which {name} it imports "
                "is decided by how it was installed, not known here")
    return ""


def profiler_call(module: Module) -> str:
    """" (line N: `...`)" at the first call of a name the module imports from a profiling module (`Profile(...)`
    after `from torch_npu.utils.profiler import Profile`): where its profiler is built, which the import is not, nor
    a message naming the module (SOLOv2's mmcv prints one where the import fails); "" where it calls none."""
    import ast
    text = module.src.text
    lines = text.split("\n")
    names: Set[str] = set()
    try:
        tree = module.tree
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno <= len(lines) and \
                PROFILING_WORDS.search("\n".join(lines[node.lineno - 1:node.end_lineno or node.lineno])):
            names.update((a.asname or a.name).partition(".")[0] for a in node.names if a.name != "*")
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            head = node.func
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name) and head.id in names:
                calls.append(node.lineno)
    if not calls or min(calls) > len(lines):
        return ""
    shown = lines[min(calls) - 1].strip()
    return f" (line {min(calls)}: `{shown if len(shown) <= 80 else shown[:77] + '...'}`)"


def _reached(lookup, paths: List[str]) -> Tuple[List[Module], bool, Optional[str]]:
    """The modules these files are and import, transitively, breadth first; whether there were more than are
    followed (MAX_IMPORTED * 16, as launcher.py reads a package's worth); and the first module found outside the
    project under --no-outside, which is not read on."""
    out: List[Module] = []
    beyond: Optional[str] = None
    seen = set()
    queue: List[Module] = []
    for path in paths:
        module = load(path)
        if module is not None and module.path not in seen:
            seen.add(module.path)
            queue.append(module)
    while queue:
        if len(out) >= MAX_IMPORTED * 16:
            return out, True, beyond
        module = queue.pop(0)
        out.append(module)
        for level, parts in module.refs:
            refused = len(lookup.outside)
            found = lookup.module(module.path, level, parts) if parts or level else None
            if len(lookup.outside) > refused:       # (--no-outside: found outside the project, not read)
                beyond = beyond or lookup.outside[-1]
                continue
            if found is not None and found.path not in seen:
                seen.add(found.path)
                queue.append(found)
    return out, False, beyond
