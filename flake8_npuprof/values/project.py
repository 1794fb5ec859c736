"""The project a file belongs to: its own modules, their flags and module-level constants.

A training project spreads its setup over files: the flag is defined in `hyperparameters.py`, the
options string in `config.py`, and `train.py` builds the NPU config from them. The resolver asks
this index for a name another module of the project defines (`from hyperparameters import FLAGS`,
`import config as cfg`, packages with `__init__.py`, relative imports). A module is found the way
Python would find it when the script is launched (its own directory, then the directory above its
top-level package, then the project root: the nearest pyproject.toml / setup.cfg / setup.py / .git
above), read only when a name from it is asked for, parsed with `ast` and never imported or run.

Values carry where they come from ("as defined in config.py:3"), and lose their source positions:
a finding about them is placed on the use in the file being checked. Reading is bounded (a module
larger than MAX_BYTES is not read) and cached by path, mtime and size, so flake8 on a large tree reads each
module of a project once. The cache is bounded by the memory its modules take (MAX_HELD bytes, estimated from
their text and whether they keep their tree; MAX_MODULES modules) and lets go of the modules used longest ago:
files are checked folder by folder, so what a later file needs is its own project's modules, not every tree
read since the run began. Every path read or probed goes through
source/observed.py, and every memo here hands its paths on to the next user (observed.remembered): a cached
result of `npuprof check` is then trusted only while those paths are unchanged.
"""

from __future__ import annotations

import ast
import os
from collections import OrderedDict, deque
from contextlib import contextmanager
from functools import cached_property
from typing import Dict, List, Optional, Sequence, Tuple

from .resolve import DENYLIST, FLAGS_OBJECTS, Resolver, may_define_flags
from ..source import fence, observed
from ..source.sites import dotted
from ..source.text import SourceText, StrValue
from .ops import NONE_NOTE, C, D, L, S, U

MAX_BYTES = 512 * 1024          # a sibling module larger than this is not read
MAX_MODULES = 256               # modules kept per process, the least recently used let go first
MAX_HELD = 4 * 1024 * 1024      # bytes the kept modules take, estimated (TEXT_BYTES, TREE_BYTES)
# What a module takes, in bytes a character of its text (tracemalloc, 400 files of the model zoo): kept as its
# text and imports about 4; with its tree, indexed (sites, resolver) about 60. A module counted at 4 whose
# names are asked for later is parsed again and counted again (_regrown): counted once, at its first size,
# modules read for their imports and then asked a value held about 30 MB under the bound they counted 2 Mi.
TEXT_BYTES = 4
TREE_BYTES = 60
# Search paths kept (by folder), the least recently used let go first. Each keeps the 30-odd paths probed to
# find it (4.7 KB): 4,096 of them would be 19 MB, and the model zoo's 16,218 files held 768 (3.6 MB) when they
# were dropped only all at once. Files are checked folder by folder, so a few dozen serve a project.
MAX_ROOTS = 64
MAX_HOPS = 6                    # re-exports followed (`from .flags import FLAGS` in __init__.py)
MAX_IMPORTED = 64               # modules whose absl flags a file can see (its imports, transitively)
ROOT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
ROOT_LEVELS = 8                 # how far up the project root is looked for

_modules: "OrderedDict[str, Tuple[Tuple[int, int], Optional[Module]]]" = OrderedDict()
_held = 0                               # characters of text the modules in _modules hold
_roots: "OrderedDict[str, tuple]" = OrderedDict()     # directory -> (search path, paths probed to find it)


class Module:
    """One parsed module of the project, with its own resolver (no astroid) and memo of values asked for."""

    def __init__(self, path: str, text: str, tree: ast.AST):
        self.path = path
        self.src = SourceText(text)
        self.end = len(text) + 1                # a position after every module-level statement
        self.memo: Dict[tuple, tuple] = {}      # -> (values, paths looked at, complete): observed.remembered
        self.refs = import_refs(tree)           # the modules it imports, read once
        # Most modules are read only for their imports, on the way to the flags a file can see, and stay in
        # the module cache for the rest of the run: their trees (10-30x their text) were most of a long
        # check's memory. One whose text names no flag definition keeps its text and refs only, and is parsed
        # again if a question ever needs its names (the plain test, not may_define_flags' NFKC fold: which
        # trees stay is a matter of cost, never of what is found).
        self._tree: Optional[ast.AST] = tree if ("DEFINE_" in text or "add_argument" in text) else None
        self.weight: Optional[int] = None       # what it counts against the cache's bound (_weight)

    @property
    def tree(self) -> ast.AST:
        if self._tree is None:
            self._tree = ast.parse(self.src.text, self.path)
            _regrown(self)
        return self._tree

    @tree.setter
    def tree(self, value: ast.AST) -> None:
        self._tree = value

    # Indexed when first asked: a module read only for its imports (the walk to the flags a file can see)
    # or found to define no flag is never walked.

    @cached_property
    def sites(self):
        from ..source.sites import collect
        try:
            return collect(self.tree)
        except Exception:           # as when load() built it: a module that cannot be indexed offers nothing
            self.tree = ast.Module(body=[], type_ignores=[])
            return collect_empty()

    @cached_property
    def resolver(self) -> "ProjectResolver":
        sites = self.sites
        try:
            resolver = ProjectResolver(self.src, sites, self.tree, self.path)
            resolver.flags          # (found here, in the try: a module whose flags cannot be read offers nothing)
        except Exception:           # likewise
            self.tree = ast.Module(body=[], type_ignores=[])
            self.__dict__["sites"] = sites = collect_empty()
            resolver = ProjectResolver(self.src, sites, self.tree, self.path)
        # no astroid outside the checked file (mypy: a method assigned on one instance, on purpose)
        resolver._astroid = lambda node, scope, pos: None  # type: ignore[method-assign]
        resolver.memo = None        # it lives on from file to file: what each file looks at is noted (Module.memo)
        return resolver

    @cached_property
    def may_define_flags(self) -> bool:
        """False when no call of the module can be named `...DEFINE_*` or `...add_argument` (resolve.may_define_flags)."""
        return may_define_flags(self.src.text)


def collect_empty():
    from ..source.sites import collect
    return collect(ast.Module(body=[], type_ignores=[]))


_within: Optional[str] = None          # the folder whose walk found the checked file (real, ending in a separator)


@contextmanager
def walked_from(folder: Optional[str]):
    """While checking a file a folder walk found: that folder is the boundary, and a module reached through a
    symbolic link whose target is outside it is not read (issue 43: a folder walk reads nothing outside the
    folder). A file named on the command line (folder None) reads its project's modules wherever they are."""
    global _within
    saved, _within = _within, (os.path.join(os.path.realpath(folder), "") if folder else None)
    try:
        yield
    finally:
        _within = saved


def _escapes(path: str) -> bool:
    """Whether path (absolute) goes through a link to a file outside the walked folder."""
    if _within is None:
        return False
    real = os.path.realpath(path)
    return real != path and not real.startswith(_within)


def load(path: str) -> Optional[Module]:
    """The module at path (cached by mtime and size), or None when it cannot or must not be read."""
    path = os.path.abspath(path)
    if fence.outside(path):
        return None                         # emulate --no-outside (its callers say so), nor taken from the cache
    if _escapes(path):
        # not read, nor hashed for the cache: the result cannot list what it rests on, so it is not cached
        observed.incomplete()
        return None
    sig = observed.note(path)
    if sig[0] != "file":
        return None
    key = (sig[1], sig[2])
    cached = _modules.get(path)
    if cached is not None and cached[0] == key:
        _modules.move_to_end(path)
        return cached[1]
    module = None
    if sig[2] <= MAX_BYTES:
        try:
            from ..source.files import read_source
            source = read_source(path)
            module = Module(path, source.text, ast.parse(source.text, path))
        except Exception:                   # unreadable, undecodable or not Python: not ours to report
            module = None
    _keep(path, key, module)
    return module


def _keep(path: str, key: Tuple[int, int], module: Optional[Module]) -> None:
    """Cache a module read, letting go of those used longest ago while the cache is over its bounds."""
    global _held
    old = _modules.pop(path, None)
    _held -= _weight(old[1]) if old is not None else 0
    _modules[path] = (key, module)
    _held += _weight(module)
    _shrink()


def _shrink() -> None:
    global _held
    while len(_modules) > 1 and (len(_modules) > MAX_MODULES or _held > MAX_HELD):
        _, (_, gone) = _modules.popitem(last=False)
        _held -= _weight(gone)


def _weight(module: Optional[Module]) -> int:
    """What a cached module counts against MAX_HELD (as it was when last counted: _regrown)."""
    if module is None:
        return 0
    if module.weight is None:
        module.weight = len(module.src.text) * (TREE_BYTES if module._tree is not None else TEXT_BYTES)
    return module.weight


def _regrown(module: Module) -> None:
    """A cached module that kept only its text was parsed again: counted again, with its tree."""
    global _held
    kept = _modules.get(module.path)
    if kept is None or kept[1] is not module or module.weight is None:
        return                              # not (or no longer) in the cache: nothing counted
    _held -= module.weight
    module.weight = None
    _held += _weight(module)
    _shrink()


def forget() -> None:
    """Empty the module cache (tests; a long-lived process that wants its memory back)."""
    global _held
    _modules.clear()
    _roots.clear()
    _held = 0


def search_path(filename: str) -> Tuple[str, ...]:
    """Where a launched script finds its imports: its directory, the one above its top package, the root."""
    here = os.path.dirname(os.path.abspath(filename))
    found = observed.remembered(_roots, here, lambda: _search_path(here))
    _roots.move_to_end(here)
    while len(_roots) > MAX_ROOTS:
        _roots.popitem(last=False)
    return found


def _search_path(here: str) -> Tuple[str, ...]:
    out = [here]
    top = here
    while observed.isfile(os.path.join(top, "__init__.py")) and os.path.dirname(top) != top:
        top = os.path.dirname(top)
    out.append(top)
    cur = here
    for _ in range(ROOT_LEVELS):
        if any(observed.exists(os.path.join(cur, m)) for m in ROOT_MARKERS):
            out.append(cur)
            break
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        cur = parent
    return tuple(dict.fromkeys(out))


def find_module(filename: str, level: int, parts: Sequence[str], roots: Optional[dict] = None) -> Optional[str]:
    """The file of module `parts` (level > 0: relative to filename's package), as the script would import it.
    roots: search paths already found while answering one question, by directory (the disk does not change
    meanwhile; search_path's own memo checks the paths it probed again on every use)."""
    if level:
        base = os.path.dirname(os.path.abspath(filename))
        for _ in range(level - 1):
            base = os.path.dirname(base)
        bases: Sequence[str] = (base,)
    elif roots is None:
        bases = search_path(filename)
    else:
        here = os.path.dirname(filename)
        cached = roots.get(here)
        if cached is None:
            cached = roots[here] = search_path(filename)
        bases = cached
    if not parts:
        init = os.path.join(bases[0], "__init__.py")
        return init if level and observed.isfile(init) else None
    return on_path(bases, parts)


def on_path(bases: Sequence[str], parts: Sequence[str]) -> Optional[str]:
    """The file of module `parts` in the first of these folders that has it, as Python's path finder looks."""
    for base in bases:
        stem = os.path.join(base, *parts)
        for candidate in (stem + ".py", os.path.join(stem, "__init__.py")):
            if observed.isfile(candidate):
                return candidate
    return None


def import_ref(stmt: ast.AST, local: str) -> Optional[Tuple[int, List[str]]]:
    """(level, dotted parts) a local name stands for: `from a.b import c` -> (0, [a, b, c])."""
    if isinstance(stmt, ast.ImportFrom):
        for alias in stmt.names:
            if (alias.asname or alias.name) == local and alias.name != "*":
                return stmt.level or 0, (stmt.module.split(".") if stmt.module else []) + [alias.name]
    elif isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.asname == local:
                return 0, alias.name.split(".")
            if alias.asname is None and alias.name.split(".")[0] == local:
                return 0, [local]
    return None


# Fields that hold statements (or except handlers and match cases, which hold statements).
_BLOCKS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


def import_refs(tree: ast.AST) -> List[Tuple[int, List[str]]]:
    """Every module a tree imports, as (level, parts), in ast.walk's order (breadth first).

    Imports are statements, and statements sit only in statement blocks: the walk goes through
    those alone and meets the imports in the order a walk of every node would."""
    out: List[Tuple[int, List[str]]] = []
    queue = deque([tree])
    while queue:
        node = queue.popleft()
        for field in node._fields:
            if field in _BLOCKS:
                block = getattr(node, field, None)
                if type(block) is list:
                    queue.extend(block)
        if isinstance(node, ast.Import):
            out.extend((0, a.name.split(".")) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module.split(".") if node.module else []
            out.append((node.level or 0, base))
            out.extend((node.level or 0, base + [a.name]) for a in node.names if a.name != "*")
    return out


def origin_of(module: Module, line: int, filename: str) -> str:
    """`config.py:3`, relative to the checked file's directory when below it."""
    try:
        rel = os.path.relpath(module.path, os.path.dirname(os.path.abspath(filename)))
    except ValueError:
        rel = module.path
    if rel.startswith(".."):
        rel = os.path.basename(module.path)
    return f"{rel.replace(os.sep, '/')}:{line}"


# ---------------------------------------------------------------- values from another module

class Lookup:
    """Answers, for one checked file, the names its imports bring from the project's own modules."""

    def __init__(self, filename: str, tree: ast.AST):
        self.filename = os.path.abspath(filename)
        self.tree = tree
        self.active: set = set()
        self._imported: dict = {}           # {None: the modules it imports transitively} (observed.remembered)
        self.given = None                   # the flags one launch passes (launcher.py), or None
        self._found: dict = {}              # (importer's folder, level, parts) -> (path or None, paths probed)
        self._roots: dict = {}              # importer's folder -> its search path, during one question
        self.exhausted = False              # a sibling's evaluation ran out of its budget
        self.outside: List[str] = []        # modules its imports found outside the project, a path each time
                                            # (--no-outside): not read

    def module(self, importer: str, level: int, parts: Sequence[str]) -> Optional[Module]:
        if not level and parts and parts[0] in DENYLIST:
            return None                     # tensorflow, os, json, ...: never one of the project's modules
        key = (os.path.dirname(importer), level, tuple(parts))
        path = observed.remembered(self._found, key, lambda: find_module(importer, level, parts, self._roots))
        if path is None or os.path.abspath(path) == self.filename:
            return None
        return self.load(path)

    def load(self, path: str) -> Optional[Module]:
        """The module an import finds at path; None, and the path kept in `outside`, where the fence of
        emulate --no-outside keeps it unread (source/fence.py)."""
        if fence.outside(path):
            self.outside.append(path)
            return None
        return load(path)

    def value_of(self, resolver, node: ast.AST, scope, pos: int, switch: bool, binding=None) -> Optional[list]:
        """What the resolver of the checked file cannot find in it: a name or attribute whose head is imported
        from a project module, a name from `from m import *`, an absl flag defined in an imported module, or
        `args.x` with `args = get_args()` imported. None: not a value of the project's modules."""
        chain = dotted(node)
        if not chain:
            return None
        self.given, self.exhausted = resolver.given, False
        self._roots = {}                    # a sibling's lookup lives on in the module cache: per question
        try:
            return self._value_of(resolver, node, chain, scope, pos, switch, binding)
        finally:
            resolver.exhausted = resolver.exhausted or self.exhausted     # reported as the checked file's (NPP191)

    def _value_of(self, resolver, node, chain, scope, pos, switch, binding) -> Optional[list]:
        anchor = (resolver.src.node_start(node), resolver.src.node_end(node))
        head, *rest = chain.split(".")
        binds = [binding] if binding is not None else resolver._bindings(head, scope, pos)
        if len(binds) == 1 and isinstance(binds[0].stmt, (ast.Import, ast.ImportFrom)):
            return self.imported(binds[0].stmt, head, rest, anchor, switch)
        if not binds and not rest:
            return self.star(head, anchor, switch)
        if isinstance(node, ast.Attribute) and _flags_object(resolver, node.value, scope, pos):
            return self.flag(node.attr, anchor, switch)
        if len(binds) == 1 and len(rest) == 1 and isinstance(binds[0].value, ast.Call):
            fhead, *frest = (dotted(binds[0].value.func) or "").split(".")
            fbinds = resolver._bindings(fhead, binds[0].scope, binds[0].pos) if fhead else []
            if len(fbinds) == 1 and isinstance(fbinds[0].stmt, (ast.Import, ast.ImportFrom)):
                return self.parsed_flag(fbinds[0].stmt, fhead, frest, rest[0], anchor, switch)
        if isinstance(node, ast.Attribute) and len(rest) == 1 and binds and all(b.pos == -1 for b in binds):
            return self._handed_config(resolver, node, scope, pos, anchor, switch)
        return None

    def _handed_config(self, resolver, node: ast.Attribute, scope, pos, anchor, switch) -> Optional[list]:
        """`args.key` in `def network_init(args)` where every call passes mindspore-ai/models' imported config
        (yaml_config.py; passed_args.py shows it) and the file defines no argparse flag of its own; else None."""
        from .passed_args import parameter_of, why_not_passed
        from .yaml_config import imported_config, value_in
        found = imported_config(resolver)
        if found is None or not isinstance(node.value, ast.Name) or \
                parameter_of(resolver, node.value, scope, pos) is None:
            return None
        if any(f.kind == "argparse" for f in resolver.flags) or why_not_passed(resolver, node.value, scope, pos):
            return None
        return value_in(self, found[0], found[1].name, node.attr, anchor, switch)

    def imported(self, stmt: ast.AST, local: str, rest: Sequence[str], anchor: Tuple[int, int],
                 switch: bool) -> Optional[list]:
        """The value of `local.rest...` where local is bound by an import statement of the checked
        file; None when it is not a value of the project's own modules."""
        ref = import_ref(stmt, local)
        if ref is None:
            return None
        found = self._locate(self.filename, ref[0], ref[1] + list(rest))
        return None if found is None else self._value(found[0], found[1], found[2], anchor, switch)

    def star(self, name: str, anchor, switch) -> Optional[list]:
        """A name a module-level `from m import *` of the checked file brings from a project module."""
        if name.startswith("_"):
            return None
        for node in getattr(self.tree, "body", []):
            if not (isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)):
                continue
            parts = node.module.split(".") if node.module else []
            module = self.module(self.filename, node.level or 0, parts) if parts or node.level else None
            if module is None or "__all__" in module.sites.module.bindings:
                continue                        # an __all__ list decides what `*` brings: not followed
            if module.sites.bindings_at(name, module.sites.module, module.end):
                return self._value(module, name, [], anchor, switch)
        return None

    def function(self, stmt: ast.AST, local: str) -> Optional[ast.FunctionDef]:
        """The function `from m import local` brings from a project module, where m binds that name once, by its
        `def` (a flag's `type=str2bool`: values/type_function.py); else None."""
        ref = import_ref(stmt, local)
        found = self._locate(self.filename, ref[0], ref[1]) if ref else None
        if found is None or found[2]:
            return None
        module, name = found[0], found[1]
        bindings = module.sites.bindings_at(name, module.sites.module, module.end)
        return bindings[0].value if len(bindings) == 1 and isinstance(bindings[0].value, ast.FunctionDef) else None

    def parsed_flag(self, stmt: ast.AST, local: str, rest: Sequence[str], dest: str, anchor,
                    switch) -> Optional[list]:
        """`args.dest` where `args = local.rest()` calls a function of a project module that returns its
        argparse parser's parse_args()."""
        ref = import_ref(stmt, local)
        found = self._locate(self.filename, ref[0], ref[1] + list(rest)) if ref else None
        if found is None or found[2]:
            return None
        module, name = found[0], found[1]
        funcs = module.sites.functions.get(name, [])
        inner = next((sc for sc in module.sites.scopes if funcs and sc.node is funcs[-1]), None)
        returns = [(v, sc) for v, sc in module.sites.returns if sc is inner]
        if inner is None or not returns or not all(
                module.resolver._is_parse_result(v, sc, module.end, 0) for v, sc in returns):
            return None
        return self._argparse_flag(module, dest, anchor, switch)

    def imported_from(self, stmt: ast.AST, local: str):
        """(module, name in it) an import statement of the checked file binds `local` to, where that is a name of a
        project module; else None."""
        ref = import_ref(stmt, local)
        found = self._locate(self.filename, ref[0], ref[1]) if ref else None
        return None if found is None or found[2] else (found[0], found[1])

    def _locate(self, importer: str, level: int, chain: List[str]):
        """(module, name in it, attributes after it): the longest prefix of chain that is a project module."""
        for k in range(len(chain) - 1, -1 if level else 0, -1):
            module = self.module(importer, level, chain[:k])
            if module is not None:
                return module, chain[k], chain[k + 1:]
        return None

    def _value(self, module: Module, name: str, attrs: List[str], anchor, switch) -> Optional[list]:
        key = (module.path, name, tuple(attrs), switch)
        if key in self.active or len(self.active) > MAX_HOPS:
            return None
        self.active.add(key)
        try:
            return self._value_in(module, name, attrs, anchor, switch)
        finally:
            self.active.discard(key)

    def _value_in(self, module: Module, name: str, attrs: List[str], anchor, switch) -> Optional[list]:
        sites = module.sites
        if attrs:
            deeper = sites.bindings_at(".".join([name] + attrs), sites.module, module.end)
            if deeper:
                return self._evaluate(module, deeper, anchor, switch)
        bindings = sites.bindings_at(name, sites.module, module.end)
        if not bindings:
            return None
        if len(bindings) == 1 and isinstance(bindings[0].stmt, (ast.Import, ast.ImportFrom)):
            ref = import_ref(bindings[0].stmt, name)
            if ref is None:
                return None
            if attrs and len(attrs) == 1 and ref[1][-1] == "FLAGS":
                return self.flag(attrs[0], anchor, switch)      # a re-exported absl FLAGS
            found = self._locate(module.path, ref[0], ref[1] + list(attrs))
            return None if found is None else self._value(found[0], found[1], found[2], anchor, switch)
        if attrs:
            if len(attrs) != 1:
                return None
            from .yaml_config import value_in
            found = value_in(self, module, name, attrs[0], anchor, switch)
            if found is not None:               # mindspore-ai/models' `config.need_profiler` (yaml_config.py)
                return found
            if _is_absl_flags(bindings):
                return self.flag(attrs[0], anchor, switch)
            if _is_parse_result(module, bindings):
                return self._argparse_flag(module, attrs[0], anchor, switch)
            return None
        not_values = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        if any(b.pos == -1 or isinstance(b.stmt, not_values) for b in bindings):
            return None
        return self._evaluate(module, bindings, anchor, switch)

    def _evaluate(self, module: Module, bindings, anchor, switch) -> list:
        memo_key = (tuple(id(b.stmt) for b in bindings), switch)

        def compute():
            module.resolver.steps, module.resolver.exhausted = 0, False
            module.resolver.given = self.given
            try:
                raw = module.resolver._from_bindings(bindings, ast.Name(id="_"), 0, {}, switch)
            finally:
                module.resolver.given = None
            self.exhausted = self.exhausted or module.resolver.exhausted
            return raw
        raw = compute() if self.given is not None else observed.remembered(module.memo, memo_key, compute)
        line = bindings[-1].stmt.lineno
        return carry(raw, "as defined in " + origin_of(module, line, self.filename), anchor)

    # ---- flags defined in another module

    def flag(self, dest: str, anchor, switch) -> Optional[list]:
        """An absl flag (one global registry): defined in a module the checked file imports, transitively."""
        found = self.flag_def(dest, "absl")
        return None if found is None else self._flag_values(found[0], found[1], anchor, switch)

    def _argparse_flag(self, module: Module, dest: str, anchor, switch) -> Optional[list]:
        defs = [f for f in module.resolver.flags if f.dest == dest and f.kind == "argparse"]
        return self._flag_values(module, defs[0], anchor, switch) if defs else None

    def _flag_values(self, module: Module, flag, anchor, switch) -> list:
        memo_key = ("flag", id(flag.call), switch)

        def compute():
            module.resolver.steps, module.resolver.exhausted = 0, False
            module.resolver.given = self.given
            try:
                raw = module.resolver._flag_value(flag, 0, switch)
            finally:
                module.resolver.given = None
            self.exhausted = self.exhausted or module.resolver.exhausted
            return raw
        raw = compute() if self.given is not None else observed.remembered(module.memo, memo_key, compute)
        return carry(raw, "defined in " + origin_of(module, flag.call.lineno, self.filename), anchor)

    def flag_def(self, dest: str, kind: Optional[str] = None):
        """(module, FlagDef) of a flag defined in a module the checked file imports, else None."""
        for module in self.imported_modules():
            if not module.may_define_flags:
                continue
            for f in module.resolver.flags:
                if f.dest == dest and (kind is None or f.kind == kind):
                    return module, f
        return None

    def imported_modules(self, bound: int = MAX_IMPORTED) -> List[Module]:
        """The project modules the checked file imports, transitively, breadth first, up to `bound` (remembered at
        the default bound; emulate/global_args.py reads further)."""
        if bound != MAX_IMPORTED:
            return self._imported_modules(bound)
        return observed.remembered(self._imported, None, self._imported_modules)

    def _imported_modules(self, bound: int = MAX_IMPORTED) -> List[Module]:
        out: List[Module] = []
        seen = {self.filename}
        queue = [(self.filename, import_refs(self.tree))]
        while queue and len(out) < bound:
            importer, refs = queue.pop(0)
            for level, parts in refs:
                module = self.module(importer, level, parts) if parts or level else None
                if module is None or module.path in seen:
                    continue
                seen.add(module.path)
                out.append(module)
                queue.append((module.path, module.refs))
        return out


def _flags_object(resolver, expr, scope, pos) -> bool:
    """Whether expr is absl's FLAGS (`FLAGS`, `tf.app.flags.FLAGS`, or a name assigned `flags.FLAGS`)."""
    base = dotted(expr) or ""
    if isinstance(expr, ast.Name) and resolver._is_parse_result(expr, scope, pos, 0):
        return False                    # argparse's namespace, named FLAGS or not: not absl's registry
    if base in FLAGS_OBJECTS or base.endswith(".FLAGS"):
        return True
    binds = resolver._bindings(base, scope, pos) if isinstance(expr, ast.Name) else []
    return bool(binds) and all(isinstance(b.value, ast.Attribute) and b.value.attr == "FLAGS" for b in binds)


def _is_absl_flags(bindings) -> bool:
    return all(b.value is not None and (dotted(b.value) in FLAGS_OBJECTS or (dotted(b.value) or "").endswith(".FLAGS"))
               for b in bindings)


def _is_parse_result(module: Module, bindings) -> bool:
    r = module.resolver
    return all(b.value is not None and r._is_parse_result(b.value, b.scope, b.pos, 0) for b in bindings)


def carry(values: list, origin: str, anchor: Tuple[int, int]) -> list:
    """Values computed in another module, placed on the use (anchor) and saying where they come from."""
    return [_carry(v, origin, anchor) for v in values]


def _carry(v, origin: str, anchor):
    if isinstance(v, S) and v.value.origin == "launcher":
        return v                        # passed by a launcher (launcher.py): it says where, and maps there
    if isinstance(v, S):
        sv = v.value
        notes = tuple((i, j, n if n == NONE_NOTE else f"{n}; {origin}") for i, j, n in sv.notes)
        if not any(n != NONE_NOTE for _, _, n in sv.notes):
            notes = notes + ((0, len(sv.text), origin),)
        return S(StrValue(sv.text, [], anchor[0], anchor[1], (), sv.is_bytes, "imported", notes), v.is_bytes)
    if isinstance(v, C):
        return C(v.value, None, f"{v.note}; {origin}" if v.note else "")
    if isinstance(v, U):
        return U(f"{v.reason}, {origin}", v.py_type)
    if isinstance(v, D):
        return D(tuple((_carry(k, origin, anchor), _carry(x, origin, anchor)) for k, x in v.items))
    if isinstance(v, L):
        return L(tuple(_carry(x, origin, anchor) for x in v.items))
    return v                            # Opaque: a flag's value chosen at launch, no position



class ProjectResolver(Resolver):
    """A resolver that asks the project's other modules for the names its file imports from them."""

    def _project_lookup(self) -> Optional[Lookup]:
        return for_file(self.filename, self.tree)


def for_file(filename: str, tree: ast.AST) -> Optional[Lookup]:
    """The lookup for a checked file on disk (None for `<stdin>` and other non-files)."""
    if not filename or filename.startswith("<") or not observed.isfile(filename):
        return None
    return Lookup(filename, tree)
