"""What the sites walk recorded for each top-level statement of an edited document, kept for the next edit.

The language server parses again only the statements an edit touched (lsp_reparse); the others are the same
node objects in the next tree, on the same lines. The walk of a top-level statement depends on nothing but
its nodes, the text of its own lines (which expressions are deferred) and its index in the module's body (its
positions: statement k takes those from (k + 1) * SLOT, sites.collect), so for a statement that is the same
object at the same index its records are the last walk's. Whatever a statement's walk records about the
others is not kept: the module scope's bindings are made again from each statement's log (in walk order),
the entries (which later stages complete) are made again, and every question and index that reads several
statements (bindings seen from a use, loads by name, the deferred text) starts afresh in the new sites.

Kept: the positions and walk items of the statement's nodes, its loads, calls, assignments, imports,
returns, deletions, definitions, the scopes it opens (whose parent is the module scope, the same object
from one analysis to the next) and its deferred expressions. A deferred expression binds nothing (a line
holding a comprehension, a lambda or `:=` is walked at once), so walking one later, in one analysis,
changes no kept scope. tests/test_site_reuse.py holds the findings equal to a fresh analysis's over
random edits.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple, cast

from .site_records import Scope

if TYPE_CHECKING:
    from .sites import Sites

SLOT = 1 << 45      # positions of one top-level statement: more than the most a file within the work budget holds
_IDENTIFIER_RUN = re.compile(r"[A-Za-z0-9_]+")     # (as sites.py's)


class ModuleScope(Scope):
    """The module scope of a document whose statements' walks are kept: the same object in each analysis (the
    kept records name it as their scope), with the bindings of the current text only. While a statement is
    walked, what it binds here is logged for the next analyses that reuse its walk."""

    __slots__ = ("log",)

    def __init__(self) -> None:
        super().__init__(None, "module", None)
        self.log: Optional[list] = None

    def bind(self, key: str, pos: int, value, stmt, guards=()) -> None:
        if self.log is not None:            # a statement walked alone: bound when its walk is added (apply)
            self.log.append((key, pos, value, stmt, guards))
        else:
            Scope.bind(self, key, pos, value, stmt, guards)

    def restart(self, tree: ast.AST) -> None:
        self.node = tree
        self.bindings, self.positions, self.unguarded, self.globals = {}, {}, {}, set()


class Piece:
    """What the walk of one top-level statement recorded (the containers of the sites it was walked into)."""

    __slots__ = ("stmt", "index", "first", "pos", "walked", "raw_loads", "calls", "entries", "assigns", "imports",
                 "star_imports", "returns", "deletes", "functions", "scopes", "deferred", "binds", "globals",
                 "_identifiers")

    def __init__(self, stmt: ast.stmt, index: int, first: int, sites: "Sites", binds: list, names: set):
        self.stmt, self.index, self.first = stmt, index, first     # first: the statement's own position
        self.pos, self.walked = sites._pos, sites._walked
        self.raw_loads, self.calls, self.assigns = sites._raw_loads, sites._calls, sites.assigns
        # an entry is completed by later stages: made again from what its walk gave it
        self.entries = [(e.call, e.config_expr, e.scope, e.guards) for e in sites.entries]
        self.imports = list(sites.imports.items())
        self.star_imports, self.returns, self.deletes = sites.star_imports, sites.returns, sites.deletes
        self.functions = list(sites.functions.items())
        self.scopes = sites.scopes[1:]                  # (the module scope first)
        self.deferred = cast(List[tuple], sites._deferred)     # (none of them walked in those sites)
        self.binds, self.globals = binds, names         # the module scope's bindings and `global` names
        self._identifiers: Optional[Dict[str, List[int]]] = None

    def identifiers(self, text: str, starts: List[int]) -> Dict[str, List[int]]:
        """Each identifier on the lines of its deferred expressions -> those lines, in order (the part of
        Sites._identifier_lines's index that is this statement's; worked out once, when first asked)."""
        found = self._identifiers
        if found is None:
            found = self._identifiers = {}
            run_a = run_b = 0
            for item in self.deferred:
                a, b = item[4], item[5]
                if run_b and a <= run_b:            # shares a line with the run: one run (as _deferred_text)
                    run_b = max(run_b, b)
                    continue
                if run_b:
                    _add_lines(found, text, starts, run_a, run_b)
                run_a, run_b = a, b
            if run_b:
                _add_lines(found, text, starts, run_a, run_b)
        return found

    def drop(self) -> None:
        """Break the cycles of its scopes (each binding holds its scope), so they go with their last reference."""
        for scope in self.scopes:
            scope.bindings = {}


class Walks:
    """The kept walks of one document's top-level statements (by the statement's node, at its index)."""

    def __init__(self) -> None:
        self.module = ModuleScope()
        self._pieces: Dict[int, Piece] = {}
        self._next: Dict[int, Piece] = {}

    def start(self, tree: ast.AST) -> None:
        """A new analysis: its module scope starts empty, and nothing is kept yet (an analysis that failed
        half-way left what it had walked)."""
        self.module.restart(tree)
        self._next = {}

    def find(self, stmt: ast.stmt, index: int) -> Optional[Piece]:
        piece = self._pieces.get(id(stmt))
        if piece is None or piece.stmt is not stmt or piece.index != index:
            return None
        return piece

    def keep(self, piece: Piece) -> None:
        self._next[id(piece.stmt)] = piece

    def done(self) -> None:
        """The walks of this analysis's statements are kept; those of statements gone are dropped."""
        old, self._pieces, self._next = self._pieces, self._next, {}
        for key, piece in old.items():
            if self._pieces.get(key) is not piece:
                piece.drop()

    def clear(self) -> None:
        for piece in self._pieces.values():
            piece.drop()
        self._pieces, self._next = {}, {}
        self.module.restart(None)  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._pieces)


def _add_lines(index: Dict[str, List[int]], text: str, starts: List[int], a: int, b: int) -> None:
    findall = _IDENTIFIER_RUN.findall
    run = text[starts[a - 1]:starts[b] if b < len(starts) else len(text)]
    for k, line in enumerate(run.split("\n")):
        for name in set(findall(line)):
            index.setdefault(name, []).append(a + k)


def identifiers(pieces: List[Piece], text: str, starts: List[int]) -> Dict[str, List[int]]:
    """The index of Sites._identifier_lines from the statements' own: a line two statements share (`a = f(x);
    b = g(y)`) is the last of one's and the first of the next's, and is in the index once. (Lines are counted as
    in the index, at LF: the caller asks only for a text whose line starts are all after a LF.)"""
    index: Dict[str, List[int]] = {}
    for piece in pieces:
        for name, lines in piece.identifiers(text, starts).items():
            found = index.get(name)
            if found is None:
                index[name] = list(lines)
            elif found[-1] == lines[0]:
                found += lines[1:]
            else:
                found += lines
    return index


def apply(sites: "Sites", piece: Piece, tree: ast.AST, context: Tuple[Scope, tuple]) -> None:
    """Add a kept walk's records to the sites, as the walk of its statement would have."""
    from .site_entries import Entry
    sites._pos.update(piece.pos)
    walked = sites._walked
    walked.update(piece.walked)
    walked[piece.first] = (piece.stmt, tree, context)       # its parent is this analysis's module
    sites._raw_loads += piece.raw_loads
    sites._calls += piece.calls
    sites.assigns += piece.assigns
    for spec in piece.entries:
        sites.entries.append(Entry(*spec))
    if piece.imports:
        sites.imports.update(piece.imports)
    sites.star_imports += piece.star_imports
    sites.returns += piece.returns
    sites.deletes += piece.deletes
    functions = sites.functions
    for name, defs in piece.functions:
        found = functions.get(name)
        if found is None:
            functions[name] = list(defs)
        else:
            found += defs
    sites.scopes += piece.scopes
    sites._deferred += piece.deferred
    module = sites.module
    bind = Scope.bind
    for key, pos, value, stmt, guards in piece.binds:
        bind(module, key, pos, value, stmt, guards)
    if piece.globals:
        module.globals |= piece.globals
