"""The launch's sys.path, as Python builds it, for the modules a launched script imports (emulate/imported.py, and
launcher.py's look for a module naming profiling): the script's own folder (symlinks resolved), or the directory
`python -m` runs in; then the PYTHONPATH the launch exports, relative entries from the directory the launch runs in
(python3 -c 'import sys; print(sys.path)' under `PYTHONPATH=":x" python3 sub/s.py`: sub's folder, the current
directory, ./x made absolute). A module not found there is looked for as values/project.py looks from the importing
file (its folder, the folder above its top package, the project's root), which stands for the
`sys.path.append(...)` a script may make itself.
"""

from __future__ import annotations

import ast
import os
from typing import Optional, Tuple

from ..source import observed
from ..source.text import HOLE
from ..values.project import Lookup, Module, on_path
from ..values.resolve import DENYLIST


def launch_path(launch) -> Tuple[str, ...]:
    """The folders at the head of the launch's sys.path, as Python builds it: the script's own folder (symlinks
    resolved), or the directory `python -m` runs in; then each entry of the PYTHONPATH the launch exports, a relative
    one (and an empty one, which Python takes for the current directory) from the directory the launch runs in. An
    entry not known statically, or relative where that directory is not known, is left out."""
    cmd = launch.command
    cwd = cmd.cwd[0] if len(cmd.cwd) == 1 else None
    head = cwd if launch.module else os.path.dirname(os.path.realpath(launch.script))
    out = [head] if head else []
    setting = cmd.env.get("PYTHONPATH")
    if setting is not None and setting.how != "set without export":
        for entry in setting.value.split(":"):
            if HOLE in entry or (cwd is None and not os.path.isabs(entry)):
                continue
            out.append(os.path.normpath(os.path.join(cwd or "", entry)))
    return tuple(dict.fromkeys(out))


class LaunchLookup(Lookup):
    """A lookup for a launch's script and the modules it imports: an absolute import is looked for on the launch's
    sys.path first (launch_path), then as values/project.py looks for it from the importing file."""

    def __init__(self, filename: str, tree: ast.AST, sys_path: Tuple[str, ...]):
        super().__init__(filename, tree)
        self.sys_path = sys_path

    def module(self, importer: str, level: int, parts) -> Optional[Module]:
        if not level and parts and parts[0] not in DENYLIST and self.sys_path:
            path = observed.remembered(self._found, (self.sys_path, 0, tuple(parts)),
                                       lambda: on_path(self.sys_path, parts))
            if path is not None and os.path.abspath(path) != self.filename:
                return self.load(path)
        return super().module(importer, level, parts)


def launch_lookup(ls) -> Optional[LaunchLookup]:
    """The lookup of a launch's script (its LaunchSetup), None for a script that is not a file."""
    name = ls.ctx.filename
    if not name or name.startswith("<") or not observed.isfile(name):
        return None
    return LaunchLookup(name, ls.ctx.tree, launch_path(ls.launch))
