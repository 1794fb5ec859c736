"""One walk of the ast: where profiling is configured and where configs go.

The walk is iterative (deeply nested code cannot exhaust the stack) and records, per scope,
the assignments to names and dotted attributes (so a later stage can tell which
`custom_op` or `config` an expression means), every `custom_optimizers.add()` entry with the
`name` and `parameter_map[...]` assignments made on it, and every call with its keyword and
positional arguments. Code that can never run (`if False:`) is skipped.

Demand-driven: the walk numbers statements and records what they bind, but the expressions of
plain statements (an assignment's value, an expression statement, a return value, an if's test)
wait until a question needs them, unless their lines hold a setup's words or something the walk
must see at once (a comprehension, a lambda, `:=`). A question names its words (`calls_named`,
`loads_named`, `calls_for`) and walks the statements whose text holds one; a question about a node
(`pos.at`, `parent.at`, ...) walks the statement on the node's line. Each deferred expression keeps
the positions the whole walk would have given it (a gap is left for it), so the answers and their
order are the whole walk's (tests/test_walks.py holds the two equal).
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left, bisect_right
from typing import Dict, Iterator, List, NamedTuple, Optional, Tuple

# AttrValue fields a parameter_map entry can be set through.
ATTR_FIELDS = {"b", "s", "i", "f", "list", "type", "shape", "tensor", "func", "placeholder"}


def dotted(node) -> Optional[str]:
    """'a.b.c' for Name/Attribute chains, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def call_name(node: ast.Call) -> Optional[str]:
    """Dotted name of the called function, or for `x().y()` chains the last attribute."""
    func = node.func
    if type(func) is ast.Name:              # the common shapes first: every call of the file is named
        return func.id
    if type(func) is ast.Attribute:
        if type(func.value) is ast.Name:
            return f"{func.value.id}.{func.attr}"
        name = dotted(func)
        return "?." + func.attr if name is None else name
    return dotted(func)


def const_str(node) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class Binding(NamedTuple):
    """One assignment of a name or dotted attribute."""

    pos: int                    # walk order of the statement (-1: function parameter)
    value: Optional[ast.AST]    # the assigned expression; None when not a plain assignment
    stmt: ast.AST
    scope: "Scope"
    guards: Tuple["Guard", ...]


_new_tuple = tuple.__new__


class Scope:
    __slots__ = ("node", "kind", "parent", "bindings", "globals", "self_name", "klass", "params", "positions",
                 "unguarded")

    def __init__(self, node, kind: str, parent: Optional["Scope"]):
        self.node = node
        self.kind = kind                      # "module", "function", "class", "lambda"
        self.parent = parent
        self.bindings: Dict[str, List[Binding]] = {}
        self.positions: Dict[str, List[int]] = {}     # key -> pos of each binding (walk order: sorted)
        self.unguarded: Dict[str, List[int]] = {}     # key -> indices of the bindings without guards
        self.globals: set = set()
        self.self_name: Optional[str] = None  # first parameter of a method
        self.klass: Optional["Scope"] = None  # class scope of a method
        self.params: List[str] = []

    def bind(self, key: str, pos: int, value, stmt, guards=()) -> None:
        items = self.bindings.get(key)
        if items is None:
            items = self.bindings[key] = []
            self.positions[key] = []
        if not guards:
            self.unguarded.setdefault(key, []).append(len(items))
        # a Binding without the namedtuple's own __new__ (one Python frame less: every binding of the file)
        items.append(_new_tuple(Binding, (pos, value, stmt, self, guards if type(guards) is tuple else tuple(guards))))
        self.positions[key].append(pos)


class Guard(NamedTuple):
    test: ast.AST
    negated: bool       # the statement is in the else branch


class ParamSet(NamedTuple):
    entry: "Entry"
    key: str                    # parameter_map key
    key_node: ast.AST
    field: str                  # AttrValue field: b, s, i, ...
    value: ast.AST
    target: ast.AST             # the whole assignment target
    stmt: ast.AST
    scope: Scope
    guards: Tuple[Guard, ...]


class NameSet(NamedTuple):
    value: ast.AST
    target: ast.AST
    stmt: ast.AST


class Entry:
    """One custom optimizer entry created by `custom_optimizers.add()`."""

    __slots__ = ("call", "config_expr", "scope", "guards", "names", "params", "bound_to", "_elsewhere", "_owner",
                 "orphan")

    def __init__(self, call: ast.AST, config_expr: Optional[ast.AST], scope: Scope, guards):
        self.orphan = False                   # settings on an entry made elsewhere
        self.call = call
        self.config_expr = config_expr        # expression before .graph_options...custom_optimizers
        self.scope = scope
        self.guards = guards
        self.names: List[NameSet] = []
        self.params: List[ParamSet] = []
        self.bound_to: Optional[str] = None   # dotted target it was assigned to
        self._elsewhere = False               # passed on / returned: its name may be set elsewhere
        self._owner: Optional["Sites"] = None  # whose entries still wait for _passed_on (asked for on first use)
        kw = {k.arg: k.value for k in getattr(call, "keywords", ()) if k.arg}
        if "name" in kw:
            self.names.append(NameSet(kw["name"], call, call))

    @property
    def used_elsewhere(self) -> bool:
        # which entries a call passes on is found for all the file's entries at once, the first time one is
        # asked: most files never ask, and finding it costs an index of every load of the file
        owner = self._owner
        if owner is not None and owner._passed_pending:
            owner._passed_pending = False
            for entry in _passed_on(owner):
                entry._elsewhere = True
        return self._elsewhere

    @used_elsewhere.setter
    def used_elsewhere(self, value: bool) -> None:
        self._elsewhere = value


class CallSite(NamedTuple):
    call: ast.Call
    name: Optional[str]
    scope: Scope
    guards: Tuple[Guard, ...]
    stmt: ast.AST


class _ByPos:
    """A read-only `id(node) -> value` view of the walk's items: item `field` of the node's (node, parent,
    context) item, and `part` of that (scope 0 or guards 1 of the context). A def, class, if or while has
    no context of its own here (the walk never recorded one for them): the default. `at(node)` walks the
    deferred statement the node is in first (its line says which); `get(id)` cannot tell, and walks them
    all when the node is not walked yet."""

    __slots__ = ("_sites", "_field", "_part")

    def __init__(self, sites: "Sites", field: Optional[int], part: Optional[int] = None):
        self._sites, self._field, self._part = sites, field, part

    def at(self, node, default=None):
        sites = self._sites
        i = sites._pos.get(id(node))
        if i is None:
            if not sites._pending:
                return default
            sites._force_node(node)
            i = sites._pos.get(id(node))
            if i is None:
                return default
        return self._value(i, default)

    def get(self, ident: int, default=None):
        sites = self._sites
        i = sites._pos.get(ident)
        if i is None:
            if not sites._pending:
                return default
            sites._force_all()
            i = sites._pos.get(ident)
            if i is None:
                return default
        return self._value(i, default)

    def __getitem__(self, ident: int):
        found = self.get(ident)
        if found is None:
            raise KeyError(ident)
        return found

    def _value(self, i: int, default):
        if self._field is None:
            return i
        item = self._sites._walked[i]
        if self._part is None:
            value = item[self._field]
            return default if value is None else value
        if type(item[0]) in _SPECIAL:
            return default
        return item[2][self._part]

    def __len__(self) -> int:
        sites = self._sites
        if sites._pending:
            sites._force_all()
        return len(sites._pos)


class Sites:
    def __init__(self):
        self.module: Optional[Scope] = None
        self.scopes: List[Scope] = []
        self.entries: List[Entry] = []
        self._calls: List[CallSite] = []            # in walk order, then the deferred statements' as walked
        # walk order (pos) -> (node, parent, (scope, guards)), the walk's own stack item
        self._walked: Dict[int, tuple] = {}
        self.assigns: List[Tuple[ast.AST, ast.AST, ast.AST, Scope, Tuple[Guard, ...]]] = []  # (target, value, stmt, scope, guards)
        self.imports: Dict[str, str] = {}           # local name -> imported dotted path
        self.star_imports: List[str] = []
        self.returns: List[Tuple[ast.AST, Scope]] = []
        self.deletes: List[Tuple[ast.AST, ast.AST, Scope, Tuple[Guard, ...]]] = []   # (target, stmt, scope, guards)
        self.functions: Dict[str, List[ast.AST]] = {}   # name -> FunctionDef nodes
        self._pos: Dict[int, int] = {}              # id(node) -> walk order
        # id(node) -> ..., read through the one dict above instead of a dict per view
        self.pos = _ByPos(self, None)
        self.nodes = _ByPos(self, 0)
        self.parent = _ByPos(self, 1)
        self.scope_of = _ByPos(self, 2, 0)
        self.guards_of = _ByPos(self, 2, 1)
        # (expression, statement, context, pos, first line, last line): not walked yet (None once walked)
        self._deferred: List[Optional[tuple]] = []
        self._pending = 0                            # how many of them are still waiting
        self._text: Optional[str] = None             # the file's text and its line starts, for questions' words
        self._starts: List[int] = []
        self._first_lines: List[int] = []            # each deferred statement's first and last line
        self._last_lines: List[int] = []
        self._joined: Optional[Tuple[str, List[int], List[int]]] = None     # _deferred_text
        self._forced: set = set()                    # words whose statements have been walked
        self._whole: set = set()                     # names whose statements have been walked
        self._whole_asked = 0                        # whole names looked for in the deferred text
        self._identifiers: Optional[Dict[str, List[int]]] = None  # its identifiers' offsets (_identifier_lines)
        self._eager_loads = self._eager_calls = 0    # how many loads / calls the first walk found
        self._unsorted: set = set()                  # names whose calls_named list got a late call
        self._ordered: Optional[List[CallSite]] = None   # the calls in walk order, once some came late
        self._raw_loads: List[Tuple[ast.AST, Scope]] = []   # Name/Attribute loads, indexed on first use
        self._by_last: Optional[Dict[str, List[int]]] = None        # _loads_by_last
        self._buckets: Dict[str, Dict[str, List[int]]] = {}            # _bucket
        self._grouped: Dict[str, Dict[int, Tuple[Scope, List[ast.AST]]]] = {}    # _loads_grouped
        self.qualified_cache: Dict[int, Optional[str]] = {}   # imports.qualified, per node
        self._calls_by_name: Optional[Dict[str, List[CallSite]]] = None
        self._by_value: Optional[Dict[int, List[Tuple[Scope, str]]]] = None
        self._slots: Optional[Dict[int, List[Tuple[Scope, str, int]]]] = None
        self._load_positions: Dict[Tuple[int, str], List[int]] = {}
        self._children: Optional[Dict[int, List[Scope]]] = None
        self.memo: Dict[object, object] = {}         # derived views of these sites, found once (routes)
        self._passed_pending = False                 # Entry.used_elsewhere: _passed_on not yet asked

    # ---- deferred statements: walked when a question names a word in their text, or a node in them

    @property
    def calls(self) -> List["CallSite"]:
        """Every call, in walk order (every deferred statement walked first)."""
        self._force_all()
        return self._in_order(self._calls, self._eager_calls)

    @property
    def raw_loads(self) -> List[Tuple[ast.AST, "Scope"]]:
        """Every Name/Attribute load with the scope it is in, in walk order (`x().y` included)."""
        self._force_all()
        if len(self._raw_loads) == self._eager_loads:
            return self._raw_loads
        pos = self._pos
        return sorted(self._raw_loads, key=lambda item: pos[id(item[0])])

    def calls_for(self, words, whole: bool = False) -> List["CallSite"]:
        """The calls, in walk order, of every statement walked so far and of those whose text holds one of
        the words (whole: as a whole name): complete for a reader that takes only calls whose own text holds
        one of them."""
        for word in words:
            self._force_word(word, whole)
        return self._in_order(self._calls, self._eager_calls)

    def named_calls_for(self, words) -> List["CallSite"]:
        """calls_for(words) for a reader that takes only calls whose own name holds one of the words: a
        deferred statement whose text holds a word just once, in the name of the call that is its whole
        expression, gives that call without being walked (nothing else in it can be named so)."""
        if not self._pending:
            return self.calls_for(())
        seen, shallow = set(), []       # shallow: (the position the walk gives the call, its site)
        counts: Dict[Tuple[int, int], int] = {}     # a statement's lines -> how often the words occur there
        for word in words:
            if word in self._forced:
                continue
            for line in self._lines_holding(word):
                for k in self._statements_on(line):
                    item = self._deferred[k]
                    if item is None or k in seen:
                        continue
                    seen.add(k)
                    call, name = item[0], call_name(item[0]) if type(item[0]) is ast.Call else None
                    if name and word in name and self._count_in(k, words, counts) == 1:
                        scope, guards = item[2]
                        shallow.append((item[3] + 1, _new_tuple(CallSite, (call, name, scope, guards, call))))
                    else:
                        self._walk_deferred(k)
        sites = self.calls_for(())
        if not shallow:
            return sites
        pos = self._pos
        return [site for _, site in sorted([(pos[id(site.call)], site) for site in sites] + shallow,
                                           key=lambda pair: pair[0])]

    def loads_with_last(self, lasts) -> List[Tuple[ast.AST, "Scope"]]:
        """The raw loads whose last identifier is one of lasts, in walk order."""
        index = self._loads_by_last()
        ks: List[int] = []
        for last in lasts:
            self._force_word(last, True)
            ks += index.get(last, ())
        raw = self._raw_loads
        if ks and max(ks) >= self._eager_loads:
            pos = self._pos
            return sorted((raw[k] for k in ks), key=lambda item: pos[id(item[0])])
        ks.sort()
        return [raw[k] for k in ks]

    def _in_order(self, sites: List["CallSite"], eager: int) -> List["CallSite"]:
        if len(sites) == eager:
            return sites
        done = self._ordered
        if done is None or len(done) != len(sites):
            pos = self._pos
            done = self._ordered = sorted(sites, key=lambda site: pos[id(site.call)])
        return done

    def _force_word(self, word: str, whole: bool = False) -> None:
        """Walk the deferred statements whose lines hold word: as a whole identifier (whole: a name the
        question asks for, which its statement spells out), or anywhere (a part of a longer name too)."""
        if not self._pending or not word or word in self._forced or (whole and word in self._whole):
            return
        (self._whole if whole else self._forced).add(word)
        for line in self._lines_holding(word, whole):
            self._force_line(line)
            if not self._pending:
                return

    def _deferred_text(self) -> Tuple[str, List[int], List[int]]:
        """The lines of the deferred expressions one after the other, each line once (8,000 statements on one
        line are one copy of it, not 8,000), where each run of lines starts there and in the file: a word is
        looked for there, not in the whole file."""
        found = self._joined
        if found is None:
            text, starts = self._text, self._starts
            size, end = len(starts), len(text)
            pieces, offsets, sources, at = [], [], [], 0
            run_a = run_b = 0
            for a, b in zip(self._first_lines, self._last_lines):
                if run_b and a <= run_b:            # shares its first line with the run: extend it
                    run_b = max(run_b, b)
                    continue
                if run_b:
                    at = self._add_run(pieces, offsets, sources, at, run_a, run_b, starts, size, end)
                run_a, run_b = a, b
            if run_b:
                self._add_run(pieces, offsets, sources, at, run_a, run_b, starts, size, end)
            found = self._joined = ("".join(pieces), offsets, sources)
        return found

    def _add_run(self, pieces, offsets, sources, at, a, b, starts, size, end) -> int:
        source = starts[a - 1]
        piece = self._text[source:starts[b] if b < size else end]
        offsets.append(at)
        sources.append(source)
        pieces.append(piece)
        return at + len(piece)

    def _lines_holding(self, word: str, whole: bool = False) -> Iterator[int]:
        """Each line of a deferred statement that holds `word` (whole: as a whole identifier), once, in order."""
        text, offsets, sources = self._deferred_text()
        starts, size, count = self._starts, len(word), len(offsets)
        if whole and _IDENTIFIER.issuperset(word):
            self._whole_asked += 1
            if self._whole_asked > _INDEX_AFTER:    # many names asked: one pass that finds them all
                yield from self._identifier_lines(word, text, offsets, sources)
                return
        at = text.find(word)
        while at >= 0:
            if whole and ((at and text[at - 1] in _IDENTIFIER) or text[at + size:at + size + 1] in _IDENTIFIER):
                at = text.find(word, at + size)         # inside a longer name
                continue
            r = bisect_right(offsets, at) - 1
            line = bisect_right(starts, sources[r] + at - offsets[r])
            yield line
            if line >= len(starts):
                return
            after = offsets[r] + starts[line] - sources[r]      # the next line, in the joined text
            run_end = offsets[r + 1] if r + 1 < count else len(text)
            at = text.find(word, after if after < run_end else run_end)

    def _identifier_lines(self, word: str, text: str, offsets: List[int], sources: List[int]) -> Iterator[int]:
        """_lines_holding(word, whole=True) from an index of the deferred text's identifiers, built once: a
        dense script asks for hundreds of names (each function it defines), and each search of the whole text
        cost as much as the index does (600 names in a 6,000-line script: 55 ms, against 6 ms)."""
        index = self._identifiers
        if index is None:
            index = self._identifiers = {}
            starts, findall = self._starts, _IDENTIFIER_RUN.findall
            bounds = offsets[1:] + [len(text)]
            for r, at in enumerate(offsets):        # each run is whole lines of the file, from sources[r]
                first = bisect_right(starts, sources[r])
                for k, line in enumerate(text[at:bounds[r]].split("\n")):
                    for name in set(findall(line)):
                        index.setdefault(name, []).append(first + k)
        return iter(index.get(word, ()))

    def _statements_on(self, line: int) -> List[int]:
        """The deferred statements that take up part of the line, in order."""
        first, ends = self._first_lines, self._last_lines
        k = bisect_right(first, line) - 1
        out = []
        while k >= 0 and ends[k] >= line:
            out.append(k)
            k -= 1
        return out[::-1]

    def _count_in(self, k: int, words, counts: Dict[Tuple[int, int], int]) -> int:
        """How often the words occur on statement k's lines (statements on the same lines count them once)."""
        a, b = self._first_lines[k], self._last_lines[k]
        if (a, b) not in counts:
            starts, text = self._starts, self._text
            lo, hi = starts[a - 1], (starts[b] if b < len(starts) else len(text))
            counts[(a, b)] = sum(text.count(w, lo, hi) for w in words)
        return counts[(a, b)]

    def _force_node(self, node) -> None:
        """Walk the deferred statements on the node's first line (all of them for a node without one)."""
        line = getattr(node, "lineno", None)
        if line is None:
            self._force_all()
        else:
            self._force_line(line)

    def _force_line(self, line: int) -> None:
        """Walk the deferred expressions that take up part of the line. They are in source order and share
        no line but a first or last one (`a = f(\\n 1); b = g()`): those before the last one that starts
        on or before the line stop at the first that ends before it."""
        first, ends = self._first_lines, self._last_lines
        k = bisect_right(first, line) - 1
        while k >= 0 and ends[k] >= line:
            if self._deferred[k] is not None:
                self._walk_deferred(k)
            k -= 1

    def _force_all(self) -> None:
        if self._pending:
            for k in range(len(self._deferred)):
                self._walk_deferred(k)

    def close(self) -> None:
        """Break the cycle between the sites and their node views (the analysis is done with them)."""
        for view in (self.pos, self.nodes, self.parent, self.scope_of, self.guards_of):
            view._sites = None

    def _walk_deferred(self, k: int) -> None:
        item = self._deferred[k]
        if item is None:
            return
        self._deferred[k] = None
        self._pending -= 1
        value, stmt, context, base, _, _ = item
        loads, calls = len(self._raw_loads), len(self._calls)
        if _walk(self, [(value, stmt, context)], base, None) >= base + _GAP:
            raise RuntimeError(f"the statement at line {stmt.lineno} holds more nodes than its positions")
        index = self._by_last
        if index is not None:
            Name = ast.Name
            for j in range(loads, len(self._raw_loads)):
                node = self._raw_loads[j][0]
                index.setdefault(node.id if type(node) is Name else node.attr, []).append(j)
        by_name = self._calls_by_name
        if by_name is not None:
            for site in self._calls[calls:]:
                if site.name:
                    last = site.name.rsplit(".", 1)[-1]
                    by_name.setdefault(last, []).append(site)
                    self._unsorted.add(last)

    # Loads by dotted name, found on demand: the raw loads are indexed once by their last identifier (no
    # name is built), and the loads sharing the last identifier a question asks about are named together.
    # An analysis asks about a few names; naming every load of the file cost more than all its questions.

    def _loads_by_last(self) -> Dict[str, List[int]]:
        """Last identifier (`x` of `a.x` and of `x`) -> indices into the raw loads (walk order, then the
        deferred statements' loads as they are walked)."""
        index = self._by_last
        if index is None:
            index = self._by_last = {}
            Name = ast.Name
            for k, (node, _) in enumerate(self._raw_loads):
                last = node.id if type(node) is Name else node.attr
                found = index.get(last)
                if found is None:
                    index[last] = [k]
                else:
                    found.append(k)
        return index

    def _bucket(self, last: str) -> Dict[str, List[int]]:
        """dotted name -> indices into the raw loads, in walk order, for the loads whose last identifier is
        `last`: each bucket named once (dotted() of each of its loads), so asking many names costs the loads
        once. Every statement whose text holds `last` is walked first, so no later walk adds to it."""
        found = self._buckets.get(last)
        if found is None:
            self._force_word(last, True)
            found = self._buckets[last] = {}
            raw = self._raw_loads
            ks = self._loads_by_last().get(last, ())
            if ks and ks[-1] >= self._eager_loads:
                pos = self._pos
                ks = sorted(ks, key=lambda k: pos[id(raw[k][0])])
            for k in ks:
                name = dotted(raw[k][0])
                if name is not None:
                    found.setdefault(name, []).append(k)
        return found

    def loads_named(self, key: str) -> List[ast.AST]:
        """The Name/Attribute loads whose dotted name is key, in walk order."""
        raw = self._raw_loads
        return [raw[k][0] for k in self._bucket(key.rpartition(".")[2]).get(key, ())]

    def loads_ending(self, attr: str) -> List[Tuple[str, List[ast.AST]]]:
        """(dotted name, its loads) for every name `x.attr` (any x, attr itself may be dotted): the names in
        the order of their first load, each one's loads in walk order."""
        raw = self._raw_loads
        tail = "." + attr
        return [(name, [raw[k][0] for k in ks]) for name, ks in self._bucket(attr.rpartition(".")[2]).items()
                if name.endswith(tail)]

    def loads_in(self, scope: "Scope", key: str) -> List[ast.AST]:
        """key's loads in that scope, in walk order."""
        found = self._loads_grouped(key).get(id(scope))
        return found[1] if found is not None else []

    def _loads_grouped(self, key: str) -> Dict[int, Tuple["Scope", List[ast.AST]]]:
        """id(scope) -> (scope, key's loads in it), the scopes in the order of their first load."""
        grouped = self._grouped.get(key)
        if grouped is None:
            grouped = self._grouped[key] = {}
            raw = self._raw_loads
            for k in self._bucket(key.rpartition(".")[2]).get(key, ()):
                node, scope = raw[k]
                group = grouped.get(id(scope))
                if group is None:
                    grouped[id(scope)] = (scope, [node])
                else:
                    group[1].append(node)
        return grouped

    # ---- indexes built on first use (big files must not go quadratic)

    def calls_named(self, name: str) -> List["CallSite"]:
        """Call sites whose called name is `name` or ends with `.name`, in walk order."""
        self._force_word(name, True)
        if self._calls_by_name is None:
            index: Dict[str, List[CallSite]] = {}
            for site in self._in_order(self._calls, self._eager_calls):
                if site.name:
                    index.setdefault(site.name.rsplit(".", 1)[-1], []).append(site)
            self._calls_by_name = index
        found = self._calls_by_name.get(name, [])
        if name in self._unsorted:
            self._unsorted.discard(name)
            pos = self._pos
            found.sort(key=lambda site: pos[id(site.call)])
        return found

    def keys_bound_to(self, value: ast.AST) -> List[Tuple["Scope", str]]:
        """(scope, dotted key) of every binding whose value is this node."""
        return list(dict.fromkeys((scope, key) for scope, key, _ in self.slots_of(value)))

    def slots_of(self, value: ast.AST) -> List[Tuple["Scope", str, int]]:
        """(scope, key, index in scope.bindings[key]) of every binding whose value is this node."""
        if self._slots is None:
            index: Dict[int, List[Tuple[Scope, str, int]]] = {}
            for scope in self.scopes:
                for key, binds in scope.bindings.items():
                    for i, b in enumerate(binds):
                        if b.value is not None:
                            index.setdefault(id(b.value), []).append((scope, key, i))
            self._slots = index
        return self._slots.get(id(value), [])

    def sees(self, key: str, scope: "Scope", pos: int, value: ast.AST) -> bool:
        """Whether a use of key at pos in scope can see a binding whose value is this node: what
        `any(b.value is value for b in bindings_at(key, scope, pos))` says, by index, not by list."""
        target, lookup_key = self._resolve(key, scope)
        if target is None:
            return False
        for slot_scope, slot_key, i in self.slots_of(value):
            if slot_scope is target and slot_key == lookup_key and \
                    (target is not scope or self._reaches(target, lookup_key, i, pos)):
                return True
        return False

    @staticmethod
    def _reaches(scope: "Scope", key: str, i: int, pos: int) -> bool:
        """Whether binding i of key is among those a use at pos in the same scope can see: before
        the use, with no unguarded binding after it (that one would run whenever the use runs)."""
        before = bisect_left(scope.positions[key], pos)
        if i >= before:
            return False
        unguarded = scope.unguarded.get(key, [])
        k = bisect_right(unguarded, i)
        return k == len(unguarded) or unguarded[k] >= before

    def loads_seeing(self, scope: "Scope", key: str, i: int) -> List[ast.AST]:
        """The loads (in walk order per scope) that can see binding i of key in scope."""
        out: List[ast.AST] = []
        for where, loads in self._loads_grouped(key).values():
            target, lookup_key = self._resolve(key, where)
            if target is not scope or lookup_key != key:
                continue
            if where is not scope:
                out.extend(loads)               # from another scope every binding is visible
                continue
            positions = self._load_positions.get((id(where), key))
            if positions is None:
                positions = self._load_positions[(id(where), key)] = [self._pos[id(n)] for n in loads]
            binds = scope.bindings[key]
            unguarded = scope.unguarded.get(key, [])
            k = bisect_right(unguarded, i)
            end = binds[unguarded[k]].pos if k < len(unguarded) else None
            first = bisect_right(positions, binds[i].pos)
            last = bisect_left(positions, end) if end is not None else len(positions)
            out.extend(loads[first:last])
        return out

    def try_around(self, node: ast.AST) -> int:
        """The line of the innermost `try` with handlers whose body holds node, in node's own scope (0: none):
        an exception raised there may be caught. A `try` in a caller is not looked for."""
        child, up = node, self.parent.at(node)
        while up is not None and type(up) not in _SCOPES:
            if type(up) in _TRIES and up.handlers and any(s is child for s in up.body):
                return up.lineno
            child, up = up, self.parent.at(up)
        return 0

    def within(self, scope: "Scope") -> List["Scope"]:
        """The scope and every scope nested in it."""
        if self._children is None:
            children: Dict[int, List[Scope]] = {}
            for s in self.scopes:
                if s.parent is not None:
                    children.setdefault(id(s.parent), []).append(s)
            self._children = children
        out, todo = [], [scope]
        while todo:
            s = todo.pop()
            out.append(s)
            todo.extend(self._children.get(id(s), []))
        return out

    # ---- lookups

    def lookup(self, key: str, scope: Scope, pos: int):
        """The value last assigned to a dotted key visible from scope at pos, or None."""
        found = self.bindings_at(key, scope, pos)
        return found[-1].value if found else None

    def bindings_at(self, key: str, scope: Scope, pos: int, use_guards=()) -> List[Binding]:
        """The assignments of key that can reach a use at pos.

        In the same scope: walking back from the use, every binding up to the first one that
        runs whenever the use runs (its guards are among the use's): so `x = a` followed by
        `if c: x = b` gives both. From another scope (a function reading a module name, a
        method reading self.x): all of that scope's bindings.
        """
        target_scope, lookup_key = self._resolve(key, scope)
        if target_scope is None:
            return []
        items = target_scope.bindings.get(lookup_key, [])
        if not items:
            return []
        if target_scope is scope:
            use = set(use_guards)
            out: List[Binding] = []
            for k in range(bisect_left(scope.positions[lookup_key], pos) - 1, -1, -1):
                b = items[k]
                out.append(b)
                if set(b.guards) <= use:
                    break
            return out[::-1]
        return list(items)

    def _resolve(self, key: str, scope: Scope) -> Tuple[Optional[Scope], str]:
        """The scope whose bindings of key a use in scope reads, and the key there."""
        head, _, rest = key.partition(".")
        if scope.kind in ("function", "lambda") and scope.self_name and head == scope.self_name and rest:
            return scope.klass, "self." + rest
        s = scope
        while s is not None:
            if s.kind == "class" and s is not scope:
                s = s.parent
                continue
            if key in s.bindings and head not in s.globals:
                return s, key
            if head in s.globals and s is not self.module:
                s = self.module
                continue
            s = s.parent
        return None, key


class _Later:
    """On the walk's stack after an assignment's targets: its value is deferred from there."""

    __slots__ = ("value", "lines")

    def __init__(self, value: ast.AST, lines: Tuple[int, int]):
        self.value, self.lines = value, lines


# Node types the walk treats specially; every other node is only numbered and descended into.
_SCOPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef})
_BRANCHES = frozenset({ast.If, ast.While, ast.IfExp, ast.Global, ast.ExceptHandler})
_SPECIAL = _SCOPES | _BRANCHES | {_Later}
_TRIES = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)      # TryStar: 3.11+
_RECORDED = frozenset({ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor,
                       ast.comprehension, ast.With, ast.AsyncWith, ast.NamedExpr, ast.Return,
                       ast.Delete})   # calls: in collect


# Fields that never hold a child worth walking: names and flags (strings, ints), Load/Store
# contexts and operators. Constant.value is a Python value, never a node. Not "name": it is a
# string almost everywhere, but a node in TypeAlias (3.12+).
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "kind", "level", "module", "type_comment",
                          "is_async", "conversion", "simple", "tag"})
_CHILD_FIELDS: Dict[type, Tuple[str, ...]] = {ast.Constant: ()}     # kind -> its fields that hold children


def _fields_of(kind: type) -> Tuple[str, ...]:
    """_CHILD_FIELDS[kind], worked out on first use (the walks read the dict and call this on a miss)."""
    _CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
    return _CHILD_FIELDS[kind]


def child_nodes(node: ast.AST) -> List[ast.AST]:
    """ast.iter_child_nodes without the shared Load/Store and operator leaves, as a list."""
    kind = type(node)
    fields = _CHILD_FIELDS.get(kind)
    kids: List[ast.AST] = []
    for field in fields if fields is not None else _fields_of(kind):
        value = getattr(node, field, None)
        if type(value) is list:
            kids += [v for v in value if isinstance(v, ast.AST)]
        elif isinstance(value, ast.AST):
            kids.append(value)
    return kids


def collect(tree: ast.AST, text: Optional[str] = None, starts: Optional[List[int]] = None) -> Sites:
    """The sites of a module's tree. With the module's text and its line starts, the expressions of the
    plain statements (`x = ...`, `f(...)`, `return ...`) that hold none of the words a setup is made of
    are walked only when a question asks for them (a word in their text, a node in them, or everything):
    most of a training script's nodes, and most of them never asked for."""
    sites = Sites()
    module = Scope(tree, "module", None)
    sites.module = module
    sites.scopes.append(module)
    blocked = None
    if text is not None and starts is not None:
        sites._text, sites._starts = text, starts
        blocked = _blocked_lines(text, starts)
    _walk(sites, [(tree, None, (module, ()))], 0, blocked)
    sites._pending = len(sites._deferred)
    sites._first_lines = [item[4] for item in sites._deferred]
    sites._last_lines = [item[5] for item in sites._deferred]
    sites._eager_loads, sites._eager_calls = len(sites._raw_loads), len(sites._calls)
    _attach_entry_ops(sites)
    return sites


# Positions a deferred expression's nodes take, after its statement's: more than a file within the work
# budget (source/prefilter.py, a million words) can hold in one statement.
_GAP = 1 << 24
LAST_POS = 1 << 62            # after every position
# A statement on a line holding one of these is walked at once: a setup's words (an entry is made in the
# walk), and what binds a name or opens a scope inside an expression (a comprehension's `for`, `lambda`,
# `:=`), which the walk records as it meets them.
_EAGER_WORDS = ("rofiling", "PROFILING", "custom_optimizers", "parameter_map", "msprof", ":=")
_EAGER_NAMES = ("for", "lambda")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _blocked_lines(text: str, starts: List[int]) -> set:
    """The lines a deferred statement may not touch: those holding an eager word or name, or a character
    outside ASCII (an identifier may be spelt in a form NFKC turns into the word a question looks for)."""
    blocked = set()
    found = []
    for word in _EAGER_WORDS:
        at = text.find(word)
        while at >= 0:
            found.append(at)
            at = text.find(word, at + 1)
    for name in _EAGER_NAMES:
        # not followed by a letter, digit or _, whatever comes before it: `[n*2for n in x]` is Python
        size = len(name)
        at = text.find(name)
        while at >= 0:
            if text[at + size:at + size + 1] not in _IDENTIFIER:
                found.append(at)
            at = text.find(name, at + size)
    for at in found:
        blocked.add(bisect_right(starts, at))
    if not text.isascii():
        if "\r" in text:
            blocked.update(bisect_right(starts, m.start()) for m in _NON_ASCII.finditer(text))
        else:                           # lines as the line starts count them (LF only), a third of the time
            blocked.update(k for k, line in enumerate(text.split("\n"), 1) if not line.isascii())
    return blocked


_IDENTIFIER = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_IDENTIFIER_RUN = re.compile(r"[A-Za-z0-9_]+")     # a run of _IDENTIFIER characters: a whole name in it
_INDEX_AFTER = 16           # whole names searched one by one before the deferred text's identifiers are indexed


def _deferrable(node, blocked: set) -> Optional[Tuple[int, int]]:
    """The node's first and last line when none of them is blocked, else None."""
    line, end = node.lineno, node.end_lineno
    if line == end:
        return None if line in blocked else (line, end)
    for k in range(line, end + 1):
        if k in blocked:
            return None
    return line, end


def _walk(sites: Sites, stack: list, order: int, blocked: Optional[set]) -> int:
    """Walk from the stack's items in source order, numbering nodes from order + 1; returns the last number.
    blocked: the lines deferral may not touch (None: defer nothing)."""
    module = sites.module
    pos, walked, deferred = sites._pos, sites._walked, sites._deferred
    raw_loads, calls, assigns = sites._raw_loads, sites._calls, sites.assigns
    Load, Call, Name, Constant, Attribute, keyword, Expr, Assign, Return = \
        ast.Load, ast.Call, ast.Name, ast.Constant, ast.Attribute, ast.keyword, ast.Expr, ast.Assign, ast.Return
    AugAssign, AnnAssign = ast.AugAssign, ast.AnnAssign
    fields_of, new_tuple = _CHILD_FIELDS, _new_tuple
    # stack of (node, parent, (scope, guards)); children are pushed reversed to keep source order
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        node, up, context = item
        order += 1
        pos[id(node)] = order
        walked[order] = item
        kind = type(node)
        if kind is Name:                    # the leaves, a third of all nodes: nothing below them
            if type(node.ctx) is Load:
                raw_loads.append((node, context[0]))
            continue
        if kind is Constant:
            continue
        if kind is Attribute or kind is keyword:     # one child, `value`, never None
            if kind is Attribute and type(node.ctx) is Load:
                raw_loads.append((node, context[0]))
            push((node.value, node, context))
            continue
        if kind is Expr:
            lines = None if blocked is None else _deferrable(node, blocked)
            if lines is not None:
                deferred.append((node.value, node, context, order) + lines)
                order += _GAP
            else:
                push((node.value, node, context))
            continue
        if kind not in _SPECIAL:
            # the common case, kept lean: most nodes are expressions nothing is recorded for
            if kind is Call:                # by far the most frequent record: inline, children too
                func = node.func
                # call_name's two common shapes inline, and the record built without the namedtuple's
                # own __new__ (a Python frame per call)
                if type(func) is Name:
                    name = func.id
                elif type(func) is Attribute and type(func.value) is Name:
                    name = f"{func.value.id}.{func.attr}"
                else:
                    name = call_name(node)
                calls.append(new_tuple(CallSite, (node, name, context[0], context[1], node)))
                if type(func) is ast.Attribute and func.attr == "add" and _is_custom_optimizers(func.value):
                    sites.entries.append(Entry(node, _config_base(func.value), context[0], context[1]))
                for child in reversed(node.keywords):
                    push((child, node, context))
                for child in reversed(node.args):
                    push((child, node, context))
                push((func, node, context))
                continue
            if kind is Assign:
                targets, value = node.targets, node.value
                target = targets[0]
                if len(targets) == 1 and type(target) is Name:
                    # `x = ...`, the commonest statement: _record_assign's first case inline, children too
                    # (fields targets, value; type_comment is a string)
                    scope = context[0]
                    assigns.append((target, value, node, scope, context[1]))
                    (module if target.id in scope.globals else scope).bind(target.id, order, value, node, context[1])
                    lines = None if blocked is None else _deferrable(node, blocked)
                    if lines is not None:
                        order += 1              # the target now, the value when asked
                        pos[id(target)] = order
                        walked[order] = (target, node, context)
                        deferred.append((value, node, context, order) + lines)
                        order += _GAP
                    else:
                        push((value, node, context))
                        push((target, node, context))
                    continue
                _record_assign(sites, node, context[0], context[1], order)
                lines = None if blocked is None else _deferrable(node, blocked)
                if lines is not None:
                    push((_Later(value, lines), node, context))     # the value when asked, after the targets
                    for child in reversed(targets):
                        push((child, node, context))
                    continue
            elif kind in _RECORDED:
                _record(sites, node, context[0], context[1], order)
                lines = None
                if blocked is not None and (kind is Return or kind is AugAssign or kind is AnnAssign) and \
                        node.value is not None:
                    lines = _deferrable(node, blocked)
                if lines is not None:
                    if kind is Return:
                        deferred.append((node.value, node, context, order) + lines)
                        order += _GAP
                        continue
                    push((_Later(node.value, lines), node, context))
                    if kind is AnnAssign:
                        push((node.annotation, node, context))
                    push((node.target, node, context))
                    continue
            elif kind in _TRIES and node.orelse:
                # the else body runs only when the try body raised nothing: its bindings are conditional, so
                # they do not hide a handler's (`try: ... / except E: cfg = None / else: cfg = X()`)
                otherwise = (context[0], context[1] + (Guard(else_test(node), False),))
                for child in reversed(node.finalbody):
                    push((child, node, context))
                for child in reversed(node.orelse):
                    push((child, node, otherwise))
                for child in reversed(node.handlers):
                    push((child, node, context))
                for child in reversed(node.body):
                    push((child, node, context))
                continue
            fields = fields_of.get(kind)
            if fields is None:
                fields = _fields_of(kind)
            if not fields:
                continue
            kids = []
            for field in fields:
                value = getattr(node, field, None)
                if type(value) is list:
                    kids += value
                elif value is not None:
                    kids.append(value)
            for child in reversed(kids):
                if isinstance(child, ast.AST):
                    push((child, node, context))
            continue
        if kind is _Later:                  # the targets are walked: the value's positions start here
            del pos[id(node)], walked[order]
            order -= 1
            deferred.append((node.value, up, context, order) + node.lines)
            order += _GAP
            continue
        scope, guards = context
        children: List[Tuple[ast.AST, Scope, Tuple[Guard, ...]]] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inner = Scope(node, "lambda" if isinstance(node, ast.Lambda) else "function", scope)
            sites.scopes.append(inner)
            args = node.args
            names = [a.arg for a in getattr(args, "posonlyargs", []) + args.args + args.kwonlyargs]
            for extra in (args.vararg, args.kwarg):
                if extra is not None:
                    names.append(extra.arg)
            inner.params = names
            for a in names:
                inner.bind(a, -1, None, node)
            if scope.kind == "class" and args.args and not isinstance(node, ast.Lambda):
                decos = {dotted(d) for d in node.decorator_list}
                if "staticmethod" not in decos:
                    inner.self_name = (getattr(args, "posonlyargs", []) + args.args)[0].arg
                    inner.klass = scope
            if not isinstance(node, ast.Lambda):
                scope.bind(node.name, order, node, node)
                sites.functions.setdefault(node.name, []).append(node)
                for d in node.decorator_list:
                    children.append((d, scope, guards))
            for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
                children.append((d, scope, guards))
            body = _live(node.body) if isinstance(node.body, list) else [node.body]
            for stmt in body:
                children.append((stmt, inner, guards))
        elif isinstance(node, ast.ClassDef):
            inner = Scope(node, "class", scope)
            sites.scopes.append(inner)
            scope.bind(node.name, order, node, node)
            for d in node.decorator_list + node.bases + [k.value for k in node.keywords]:
                children.append((d, scope, guards))
            for stmt in node.body:
                children.append((stmt, inner, guards))
        elif isinstance(node, (ast.If, ast.While)):
            verdict = _static_truth(node.test)
            lines = None if blocked is None else _deferrable(node.test, blocked)
            if lines is not None:
                deferred.append((node.test, node, context, order) + lines)
                order += _GAP
            else:
                children.append((node.test, scope, guards))
            if verdict is not False:
                for stmt in node.body:
                    children.append((stmt, scope, guards + (Guard(node.test, False),)))
            if verdict is not True:
                for stmt in node.orelse:
                    children.append((stmt, scope, guards + (Guard(node.test, True),)))
        elif isinstance(node, ast.IfExp):
            children.append((node.test, scope, guards))
            children.append((node.body, scope, guards + (Guard(node.test, False),)))
            children.append((node.orelse, scope, guards + (Guard(node.test, True),)))
        elif isinstance(node, ast.Global):
            scope.globals.update(node.names)
        elif isinstance(node, ast.ExceptHandler):
            # A handler's body runs only when its try raised: its bindings are conditional, so they do not
            # hide the try body's (`try: cfg = X() / except E: cfg = None` hands over X() or None).
            if node.type is not None:
                children.append((node.type, scope, guards))
            caught = Guard(handler_test(node), False)
            for stmt in node.body:
                children.append((stmt, scope, guards + (caught,)))
        for child, child_scope, child_guards in reversed(children):
            push((child, node, (child_scope, child_guards)))
    return order


def _live(body: list) -> list:
    """A function body up to its first statement that always leaves it (`return`, `raise`, `sys.exit(...)`):
    what follows never runs, and is not walked (as under `if False:`)."""
    for k, stmt in enumerate(body):
        kind = type(stmt)
        if kind is ast.Return or kind is ast.Raise:
            return body[:k + 1]
        if kind is ast.Expr and type(stmt.value) is ast.Call:
            func = stmt.value.func          # `sys.exit(...)`, `os._exit(...)`, tested without building a name
            if type(func) is ast.Attribute and func.attr in _EXITS and type(func.value) is ast.Name and \
                    func.value.id == _EXITS[func.attr]:
                return body[:k + 1]
    return body


_EXITS = {"exit": "sys", "_exit": "os"}


def _record(sites: Sites, node, scope: Scope, guards, order: int) -> None:
    """What a statement adds to the sites: imports, bindings, returns (calls and entries: in collect)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        _record_import(sites, node, scope, order)
    elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        _record_assign(sites, node, scope, guards, order)
    elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        for key in _target_keys(node.target):
            scope.bind(key, order, None, node, guards)
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        for item in node.items:
            if item.optional_vars is not None:
                for key in _target_keys(item.optional_vars):
                    scope.bind(key, order, None, node, guards)
    elif isinstance(node, ast.NamedExpr):
        scope.bind(node.target.id, order, node.value, node, guards)
    elif isinstance(node, ast.Return) and node.value is not None:
        sites.returns.append((node.value, scope))
    elif isinstance(node, ast.Delete):
        sites.deletes.extend((target, node, scope, guards) for target in node.targets)


def handler_test(handler: ast.ExceptHandler) -> ast.Name:
    """The condition an except handler's body runs under, as a name no script binds, which reads as what it
    means wherever a condition is shown ("when an exception is caught at line 7") and evaluates to unknown."""
    test = ast.Name(id=f"an exception is caught at line {handler.lineno}", ctx=ast.Load())
    return ast.copy_location(test, handler)


def else_test(node) -> ast.Name:
    """The condition a try's else body runs under, in the same form as handler_test's."""
    test = ast.Name(id=f"no exception is raised in the try at line {node.lineno}", ctx=ast.Load())
    return ast.copy_location(test, node)


def _static_truth(test) -> Optional[bool]:
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _static_truth(test.operand)
        return None if inner is None else not inner
    return None


def _target_keys(target) -> List[str]:
    if isinstance(target, (ast.Tuple, ast.List)):
        out = []
        for elt in target.elts:
            out.extend(_target_keys(elt.value if isinstance(elt, ast.Starred) else elt))
        return out
    key = dotted(target)
    return [key] if key else []


def _record_import(sites: Sites, node, scope: Scope, order: int) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            local = alias.asname or alias.name.split(".")[0]
            sites.imports[local] = alias.name if alias.asname else alias.name.split(".")[0]
            scope.bind(local, order, node, node)
        return
    base = ("." * (node.level or 0)) + (node.module or "")
    for alias in node.names:
        if alias.name == "*":
            sites.star_imports.append(base)
            continue
        local = alias.asname or alias.name
        sites.imports[local] = f"{base}.{alias.name}" if base else alias.name
        scope.bind(local, order, node, node)


def _record_assign(sites: Sites, node, scope: Scope, guards, order: int) -> None:
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign):
        if node.value is None:
            return
        targets, value = [node.target], node.value
    else:
        targets, value = [node.target], None    # augmented: value becomes unknown
    for target in targets:
        sites.assigns.append((target, value, node, scope, guards))
        if type(target) is ast.Name:        # the common case: `x = ...` binds x here (or globally)
            (sites.module if target.id in scope.globals else scope).bind(target.id, order, value, node, guards)
            continue
        if isinstance(target, (ast.Tuple, ast.List)):
            values = value.elts if isinstance(value, (ast.Tuple, ast.List)) and \
                len(value.elts) == len(target.elts) else None
            starred = any(isinstance(e, ast.Starred) for e in target.elts)
            for k, elt in enumerate(target.elts):
                if values:
                    item = values[k]
                elif value is not None and not starred:
                    item = _element(value, k)          # `a, b = f()` binds a to f()[0]
                else:
                    item = None
                for key in _target_keys(elt):
                    scope.bind(key, order, item, node, guards)
            continue
        key = dotted(target)
        if key:
            bind_scope = scope
            head = key.split(".")[0]
            if scope.kind == "function" and scope.self_name and head == scope.self_name and "." in key:
                bind_scope = scope.klass
                key = "self." + key.split(".", 1)[1]
            elif head in scope.globals:
                bind_scope = sites.module
            bind_scope.bind(key, order, value, node, guards)


def _element(value: ast.AST, k: int) -> ast.Subscript:
    """A synthetic `value[k]` standing for one target of a tuple assignment."""
    sub = ast.Subscript(value=value, slice=ast.Constant(k), ctx=ast.Load())
    ast.copy_location(sub, value)
    sub.slice.lineno, sub.slice.col_offset = value.lineno, value.col_offset
    sub.slice.end_lineno, sub.slice.end_col_offset = value.end_lineno, value.end_col_offset
    return sub


def _is_custom_optimizers(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "custom_optimizers"


def _config_base(node: ast.AST) -> Optional[ast.AST]:
    """`cfg` from `cfg.graph_options.rewrite_options.custom_optimizers`."""
    node = node.value if isinstance(node, ast.Attribute) else node       # drop custom_optimizers
    if isinstance(node, ast.Attribute) and node.attr == "rewrite_options":
        node = node.value
        if isinstance(node, ast.Attribute) and node.attr == "graph_options":
            return node.value
        return node
    return node


def _attach_entry_ops(sites: Sites) -> None:
    """Attach `.name = ...` and `.parameter_map[k].f = ...` assignments to their entries."""
    by_call = {id(e.call): e for e in sites.entries}
    orphans: Dict[Tuple[int, str], Entry] = {}
    # bind entries to the targets they are assigned to
    for target, value, stmt, scope, guards in sites.assigns if by_call else ():
        if isinstance(value, ast.Call) and id(value) in by_call:
            by_call[id(value)].bound_to = dotted(target)
    for target, value, stmt, scope, guards in sites.assigns:
        if type(target) is not ast.Attribute:       # `x = ...`, `a[k] = ...`: neither shape below
            continue
        pos = sites._pos.get(id(stmt), 0)
        if target.attr == "name":
            entry = resolve_entry(sites, target.value, scope, pos, by_call)
            if entry is not None:
                entry.names.append(NameSet(value, target, stmt))
            continue
        if target.attr in ATTR_FIELDS and isinstance(target.value, ast.Subscript):
            sub = target.value
            if isinstance(sub.value, ast.Attribute) and sub.value.attr == "parameter_map":
                entry = resolve_entry(sites, sub.value.value, scope, pos, by_call)
                if entry is None:
                    entry = _orphan(sites, sub.value.value, scope, guards, orphans)
                key_node = sub.slice
                if isinstance(key_node, getattr(ast, "Index", ())):       # Python < 3.9 shape
                    key_node = key_node.value
                key = const_str(key_node)
                if key is None:
                    continue
                entry.params.append(ParamSet(entry, key, key_node, target.attr, value, target, stmt, scope,
                                             guards))
    for entry in sites.entries:
        entry._owner = sites
    sites._passed_pending = bool(sites.entries)


def _passed_on(sites: Sites) -> List[Entry]:
    """The entries bound to a name that is an argument of a call to a function this file does not define
    (it may complete them there). Found from the loads of the names the entries are bound to, not from
    every argument of every call (tests/test_walks.py holds the two equal)."""
    bound = {e.bound_to: e for e in sites.entries if e.bound_to}
    out: List[Entry] = []
    parent, functions, Call = sites.parent, sites.functions, ast.Call
    for key, entry in bound.items():
        for node in sites.loads_named(key):
            up = parent.at(node)
            if type(up) is ast.Starred:             # f(*x)
                node, up = up, parent.at(up)
            if type(up) is ast.keyword:             # f(k=x), f(**x)
                up = parent.at(up)
                if type(up) is not Call:
                    continue
            elif type(up) is not Call or up.func is node:
                continue
            if type(up.func) is ast.Name and up.func.id in functions:
                continue
            out.append(entry)
            break
    return out


def _orphan(sites: Sites, expr, scope: Scope, guards, orphans) -> Entry:
    """An entry this file does not create (a parameter, an attribute of something passed in):
    its settings are still checked, but nothing is assumed about its name or config."""
    key = (id(scope), dotted(expr) or f"@{id(expr)}")
    entry = orphans.get(key)
    if entry is None:
        entry = Entry(expr, None, scope, guards)
        entry.orphan = True
        entry.used_elsewhere = True
        orphans[key] = entry
        sites.entries.append(entry)
    return entry


def resolve_entry(sites: Sites, expr, scope: Scope, pos: int, by_call=None, depth: int = 0) -> Optional[Entry]:
    """The custom-optimizer entry an expression refers to: an `.add()` call, a name bound to one,
    or what a helper function of this file returns (also through `config, op = helper()`)."""
    by_call = by_call if by_call is not None else {id(e.call): e for e in sites.entries}
    if depth > 6:
        return None
    if isinstance(expr, ast.Call):
        if id(expr) in by_call:
            return by_call[id(expr)]
        return _returned_entry(sites, expr, None, scope, pos, by_call, depth)
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Call) and \
            isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, int):
        return _returned_entry(sites, expr.value, expr.slice.value, scope, pos, by_call, depth)
    key = dotted(expr)
    if key is None:
        return None
    found = sites.bindings_at(key, scope, pos)
    if not found:
        return None
    b = found[-1]
    if b.value is None and b.pos == -1 and isinstance(b.stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return _argument_entry(sites, b, key, by_call, depth)
    if b.value is None:
        return None
    return resolve_entry(sites, b.value, b.scope, b.pos, by_call, depth + 1)


def _argument_entry(sites: Sites, param: Binding, name: str, by_call, depth) -> Optional[Entry]:
    """A helper's parameter: the entry every call site in this file passes for it.

    When call sites pass different entries, none is chosen; they are all marked as completed
    elsewhere, so nothing is claimed about what they lack."""
    func = param.stmt
    params = [a.arg for a in getattr(func.args, "posonlyargs", []) + func.args.args]
    method = param.scope.self_name is not None
    entries = []
    for site in sites.calls_named(func.name):
        if not site.name or not (site.name == func.name or (method and site.name.endswith("." + func.name))):
            continue
        offset = 1 if method and isinstance(site.call.func, ast.Attribute) else 0
        arg = next((k.value for k in site.call.keywords if k.arg == name), None)
        if arg is None and name in params and 0 <= params.index(name) - offset < len(site.call.args):
            arg = site.call.args[params.index(name) - offset]
        if arg is None or isinstance(arg, ast.Starred):
            return None
        entries.append(resolve_entry(sites, arg, site.scope, sites.pos.at(site.call, 0), by_call, depth + 1))
    unique = {id(e): e for e in entries if e is not None}
    if len(unique) == 1 and None not in entries:
        return next(iter(unique.values()))
    for e in unique.values():
        e.used_elsewhere = True
    return None


def _returned_entry(sites: Sites, call: ast.Call, index, scope, pos, by_call, depth) -> Optional[Entry]:
    if not isinstance(call.func, ast.Name):
        return None
    funcs = [b for b in sites.bindings_at(call.func.id, scope, pos)
             if isinstance(b.stmt, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if len(funcs) != 1:
        return None
    func = funcs[0].stmt
    inner = next((s for s in sites.scopes if s.node is func), None)
    for value, rscope in sites.returns:
        if rscope is not inner:
            continue
        if index is not None:
            if not isinstance(value, ast.Tuple) or index >= len(value.elts):
                continue
            value = value.elts[index]
        entry = resolve_entry(sites, value, inner, sites.pos.at(value, LAST_POS), by_call, depth + 1)
        if entry is not None:
            return entry
    return None
