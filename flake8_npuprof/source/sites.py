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

This module holds the sites (`Sites`: what the walk found, the questions asked of it, and the deferred
statements walked when a question needs them) and `collect`. The parts: the records the walk makes and
the names it reads (`site_records`), the walk itself, one function per kind of node it records something
for (`site_walk`), what a statement binds (`site_bindings`), and the custom_optimizers entries with the
`name` and `parameter_map[...]` assignments made on them (`site_entries`). The names other modules use are
imported from here.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left, bisect_right
from typing import Any, Dict, Iterator, List, Optional, Tuple, cast

from .site_entries import Entry, _attach_entry_ops
from .site_records import Binding, CallSite, Def, Guard, Scope, _new_tuple, call_name, dotted
from .site_reuse import SLOT, ModuleScope, Piece, Walks, apply, identifiers
from .site_walk import _EAGER_WORDS, _GAP, _IDENTIFIER, _SCOPES, _SPECIAL, _TRIES, _blocked_lines, _walk
# the other names the layers above import from here
from .site_entries import ParamSet  # noqa: F401
from .site_records import LAST_POS  # noqa: F401
from .site_walk import child_nodes  # noqa: F401

_IDENTIFIER_RUN = re.compile(r"[A-Za-z0-9_]+")     # a run of _IDENTIFIER characters: a whole name in it
# whole names searched one by one before the deferred text's identifiers are indexed: about what the index costs
# (a 6,000-line script: 65 searches; a profiling script of the model zoo: 125, most names being absent)
_INDEX_AFTER = 64


def _occurrences(text: str, word: str, lo: int, hi: int) -> List[int]:
    """Where word occurs in text[lo:hi], each occurrence after the end of the one before (those str.count counts)."""
    out = []
    size = len(word) or 1           # (an empty word: each offset, not forever the first)
    at = text.find(word, lo, hi)
    while at >= 0:
        out.append(at)
        at = text.find(word, at + size, hi)
    return out


class _ByPos:
    """A read-only `node -> value` view of the walk's items (`get`: by id(node)): item `field` of the node's (node, parent,
    context) item, and `part` of that (scope 0 or guards 1 of the context). A def, class, if or while has
    no context of its own here (the walk never recorded one for them): the default. `at(node)` walks the
    deferred statement the node is in first (its line says which); `get(id)` cannot tell, and walks them
    all when the node is not walked yet."""

    __slots__ = ("_sites", "_field", "_part")

    def __init__(self, sites: "Sites", field: Optional[int], part: Optional[int] = None):
        self._sites, self._field, self._part = sites, field, part

    def at(self, node, default=None):
        sites = self._sites
        i = sites._pos.get(node)
        if i is None:
            if not sites._pending:
                return default
            sites._force_node(node)
            i = sites._pos.get(node)
            if i is None:
                return default
        field = self._field                 # (_value inline: asked of most nodes a check looks at)
        if field is None:
            return i
        item = sites._walked[i]
        if self._part is None:
            value = item[field]
            return default if value is None else value
        if type(item[0]) in _SPECIAL:
            return default
        return item[2][self._part]

    def get(self, ident: int, default=None):
        """The value for the node whose id() is ident (a reader that kept ids, not nodes)."""
        sites = self._sites
        i = sites._by_ident().get(ident)
        if i is None:
            if not sites._pending:
                return default
            sites._force_all()
            i = sites._by_ident().get(ident)
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
    def __init__(self, module: Scope):
        self.module = module
        self.scopes: List[Scope] = []
        self.entries: List[Entry] = []
        self._calls: List[CallSite] = []            # in walk order, then the deferred statements' as walked
        # walk order (pos) -> (node, parent, (scope, guards)), the walk's own stack item
        self._walked: Dict[int, tuple] = {}
        self.assigns: List[Tuple[ast.AST, Optional[ast.AST], ast.stmt, Scope, Tuple[Guard, ...]]] = []  # (target, value, stmt, scope, guards)
        self.imports: Dict[str, str] = {}           # local name -> imported dotted path
        self.star_imports: List[str] = []
        self.returns: List[Tuple[ast.AST, Scope]] = []
        self.deletes: List[Tuple[ast.AST, ast.stmt, Scope, Tuple[Guard, ...]]] = []   # (target, stmt, scope, guards)
        self.functions: Dict[str, List[Def]] = {}       # name -> its definitions
        # node -> walk order (keyed by the node itself: an id() would be an int made for each node walked)
        self._pos: Dict[Any, int] = {}
        self._idents: Optional[Dict[int, int]] = None   # id(node) -> walk order, for _ByPos.get
        # node -> ..., read through the one dict above instead of a dict per view
        self.pos = _ByPos(self, None)
        self.nodes = _ByPos(self, 0)
        self.parent = _ByPos(self, 1)
        self.scope_of = _ByPos(self, 2, 0)
        self.guards_of = _ByPos(self, 2, 1)
        # (expression, statement, context, pos, first line, last line): not walked yet (None once walked)
        self._deferred: List[Optional[tuple]] = []
        self._pending = 0                            # how many of them are still waiting
        self._text = ""                              # the file's text and its line starts, for questions' words
        self._eager_found: Optional[set] = None      # the eager words (site_walk) in the text, when searched for
        self._starts: List[int] = []
        self._first_lines: List[int] = []            # each deferred statement's first and last line
        self._last_lines: List[int] = []
        self._waiting = (0, -1)                      # the first and the last of them not walked yet, or before (_span)
        self._joined: Optional[Tuple[str, List[int], List[int]]] = None     # _deferred_text
        self._forced: set = set()                    # words whose statements have been walked
        self._whole: set = set()                     # names whose statements have been walked
        self._whole_asked = 0                        # whole names looked for in the deferred text
        self._identifiers: Optional[Dict[str, List[int]]] = None  # its identifiers' offsets (_identifier_lines)
        self._eager_loads = self._eager_calls = 0    # how many loads / calls the first walk found
        self._unsorted: set = set()                  # names whose calls_named list got a late call
        self._ordered: Optional[List[CallSite]] = None   # the calls in walk order, once some came late
        # Name/Attribute loads, indexed on first use (Any: told apart by type(node) is Name, which mypy does not
        # follow through the local alias the hot loops use)
        self._raw_loads: List[Tuple[Any, Scope]] = []
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
        self.path: Optional[str] = None              # the file's path, where known (pytest's configuration beside it)
        self._passed_pending = False                 # Entry.used_elsewhere: _passed_on not yet asked
        self.kept = False                            # its scopes are kept for the next analysis (site_reuse)
        self._pieces: Optional[List[Piece]] = None   # the kept walks it was made of, in order (site_reuse)

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
        return sorted(self._raw_loads, key=lambda item: pos[item[0]])

    def may_hold(self, word: str) -> bool:
        """Whether the file's text may hold word anywhere (yes when the sites were made without the text). An
        eager word (`msprof`, ...) is answered from the walk's own search of the text for it, when it made one."""
        if not self._text:
            return True
        found = self._eager_found
        if found is not None and word in _EAGER_WORDS:
            return word in found
        return word in self._text

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
        text, (lo, hi) = self._text, self._span()
        found = [_occurrences(text, word, lo, hi) for word in words]
        # where any of the words occurs, in order: how often they occur on a statement's lines is told by two
        # bisections of it (a count of each word on each statement's lines cost 4 method calls a statement)
        every = sorted(at for ats in found for at in ats)
        seen, shallow = set(), []       # shallow: (the position the walk gives the call, its site)
        for word, ats in zip(words, found):
            if word in self._forced:
                continue
            for line in self._deferred_lines(ats):
                for k in self._statements_on(line):
                    item = self._deferred[k]
                    if item is None or k in seen:
                        continue
                    seen.add(k)
                    call, name = item[0], call_name(item[0]) if type(item[0]) is ast.Call else None
                    if name and word in name and self._count_in(k, every) == 1:
                        scope, guards = item[2]
                        shallow.append((item[3] + 1, _new_tuple(CallSite, (call, name, scope, guards, call))))
                    else:
                        self._walk_deferred(k)
        sites = self.calls_for(())
        if not shallow:
            return sites
        pos = self._pos
        return [site for _, site in sorted([(pos[site.call], site) for site in sites] + shallow,
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
            return sorted((raw[k] for k in ks), key=lambda item: pos[item[0]])
        ks.sort()
        return [raw[k] for k in ks]

    def _in_order(self, sites: List["CallSite"], eager: int) -> List["CallSite"]:
        if len(sites) == eager:
            return sites
        done = self._ordered
        if done is None or len(done) != len(sites):
            pos = self._pos
            done = self._ordered = sorted(sites, key=lambda site: pos[site.call])
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

    def force_names(self, names) -> None:
        """_force_word(name, whole=True) for each of the names (identifiers), with one search for the names that
        hold another of them (`Session` finds `InteractiveSession` too): each hit of the shorter one is read as
        the whole identifier it is in, and the lines of those that are one of the names are walked."""
        if not self._pending or self._pieces is not None:
            for name in names:
                self._force_word(name, True)
            return
        names = [name for name in names if name not in self._whole and name not in self._forced]
        for name in sorted(names, key=len):
            if not self._pending:           # every statement walked: nothing left to look for
                return
            if name in self._whole:         # found with a shorter name it holds
                continue
            group = {other for other in names if name in other and other not in self._whole}
            if len(group) == 1 or self._whole_asked + 1 > _INDEX_AFTER:
                self._force_word(name, True)
                continue
            self._whole_asked += 1
            self._whole.update(group)
            text, starts, size, ident = self._text, self._starts, len(name), _IDENTIFIER
            end = len(text)
            lo, hi = self._span()
            at = text.find(name, lo, hi)
            while at >= 0 and self._pending:
                a, b = at, at + size
                while a and text[a - 1] in ident:
                    a -= 1
                while b < end and text[b] in ident:
                    b += 1
                if text[a:b] in group:
                    self._force_line(bisect_right(starts, at))
                at = text.find(name, b, hi)

    def _deferred_text(self) -> Tuple[str, List[int], List[int]]:
        """The lines of the deferred expressions one after the other, each line once (8,000 statements on one
        line are one copy of it, not 8,000), where each run of lines starts there and in the file: what the index
        of their identifiers is made from (_identifier_lines)."""
        found = self._joined
        if found is None:
            text, starts = self._text, self._starts
            size, end = len(starts), len(text)
            pieces: List[str] = []
            offsets: List[int] = []
            sources: List[int] = []
            at = 0
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
        if whole and _IDENTIFIER.issuperset(word):
            if self._pieces is not None:        # from the index the kept walks' own make up
                if self._identifiers is None:
                    self._identifiers = identifiers(self._pieces, self._text, self._starts)
                yield from self._identifiers.get(word, ())
                return
            self._whole_asked += 1
            if self._whole_asked > _INDEX_AFTER:    # many names asked: one pass that finds them all
                yield from self._identifier_lines(word, *self._deferred_text())
                return
        yield from self._search(word, whole)

    def _search(self, word: str, whole: bool) -> Iterator[int]:
        """_lines_holding from a search of the whole text, keeping the lines a deferred statement takes up part of
        (the same lines a search of the deferred statements' own lines finds: joining those cost more than most
        files' questions, and a kept walk's text is made anew for each analysis)."""
        if not self._pending:
            return
        text, starts, size = self._text, self._starts, len(word)
        first, ends = self._first_lines, self._last_lines
        lo, hi = self._span()
        at = text.find(word, lo, hi)
        while at >= 0:
            if whole and ((at and text[at - 1] in _IDENTIFIER) or text[at + size:at + size + 1] in _IDENTIFIER):
                at = text.find(word, at + size, hi)     # inside a longer name
                continue
            line = bisect_right(starts, at)
            k = bisect_right(first, line) - 1       # (_statements_on(line) is not empty: the last one that starts
            if k >= 0 and ends[k] >= line:          # on or before the line reaches it, or none does)
                yield line
            if line >= len(starts):
                return
            at = text.find(word, starts[line], hi)      # the next line

    def _span(self) -> Tuple[int, int]:
        """Where the text of the deferred statements not walked yet starts and ends (the first one's first line to
        the last one's last line; some are waiting): a word found before or after is on no line a search keeps
        but a walked one's (a file's imports and definitions above, its `main()` call below, once walked). A word
        does not span a line end, so each occurrence is inside or outside whole."""
        deferred = self._deferred
        a, b = self._waiting
        while deferred[a] is None:
            a += 1
        while deferred[b] is None:
            b -= 1
        self._waiting = (a, b)
        starts, last = self._starts, self._last_lines[b]
        return starts[self._first_lines[a] - 1], (starts[last] if last < len(starts) else len(self._text))

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

    def _deferred_lines(self, ats: List[int]) -> Iterator[int]:
        """The lines of the offsets (in order) that a deferred statement takes up part of, each once: what _search
        finds for a word found at those offsets."""
        starts, first, ends = self._starts, self._first_lines, self._last_lines
        last = 0
        for at in ats:
            line = bisect_right(starts, at)
            if line != last:
                last = line
                k = bisect_right(first, line) - 1
                if k >= 0 and ends[k] >= line:
                    yield line

    def _count_in(self, k: int, every: List[int]) -> int:
        """How often the words occur on statement k's lines, from every offset where one of them occurs (in order;
        none of the words spans a line end, so an occurrence is on the lines or off them whole)."""
        starts = self._starts
        a, b = self._first_lines[k], self._last_lines[k]
        hi = starts[b] if b < len(starts) else len(self._text)
        return bisect_left(every, hi) - bisect_left(every, starts[a - 1])

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

    def _by_ident(self) -> Dict[int, int]:
        """_pos keyed by id(node), made again when the walk has numbered more nodes since."""
        found = self._idents
        if found is None or len(found) != len(self._pos):
            found = self._idents = {id(node): i for node, i in self._pos.items()}
        return found

    def close(self) -> None:
        """Break the cycle between the sites and their node views (the analysis is done with them)."""
        for view in (self.pos, self.nodes, self.parent, self.scope_of, self.guards_of):
            del view._sites

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
                ks = sorted(ks, key=lambda k: pos[raw[k][0]])
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
            found.sort(key=lambda site: pos[site.call])
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
                    i = 0
                    for b in binds:
                        bound = b[1]                # (b.value)
                        if bound is not None:
                            found = index.get(id(bound))
                            if found is None:
                                index[id(bound)] = [(scope, key, i)]
                            else:
                                found.append((scope, key, i))
                        i += 1
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
        before = bisect_left(scope.positions_of(key), pos)
        if i >= before:
            return False
        unguarded = scope.unguarded_of(key)
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
                positions = self._load_positions[(id(where), key)] = [self._pos[n] for n in loads]
            binds = scope.bindings[key]
            unguarded = scope.unguarded_of(key)
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
            for k in range(bisect_left(scope.positions_of(lookup_key), pos) - 1, -1, -1):
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
        s: Optional[Scope] = scope
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


def collect(tree: ast.AST, text: Optional[str] = None, starts: Optional[List[int]] = None,
            walks: Optional[Walks] = None, lines: Optional[List[str]] = None) -> Sites:
    """The sites of a module's tree. With the module's text and its line starts, the expressions of the
    plain statements (`x = ...`, `f(...)`, `return ...`) that hold none of the words a setup is made of
    are walked only when a question asks for them (a word in their text, a node in them, or everything):
    most of a training script's nodes, and most of them never asked for. Then each top-level statement is
    walked on its own, its positions from (its index + 1) * SLOT, so that they do not depend on the others;
    with walks (an edited document's, site_reuse), a statement the last analysis walked at the same index is
    not walked again. lines: the text's pieces between LFs, when the caller has them (SourceText.lf_lines)."""
    lazy = text is not None and starts is not None and isinstance(tree, ast.Module)
    if walks is not None and lazy:
        module: Scope = walks.module
        walks.start(tree)
    else:
        walks = None
        module = Scope(tree, "module", None)
    sites = Sites(module)
    sites.scopes.append(module)
    if lazy:
        assert text is not None and starts is not None
        sites._text, sites._starts = text, starts
        sites.kept = walks is not None
        _walk_statements(sites, cast(ast.Module, tree), text, starts, walks, lines)
    else:
        blocked = None
        if text is not None and starts is not None:
            sites._text, sites._starts = text, starts
            blocked = _blocked_lines(text, starts)
        _walk(sites, [(tree, None, (module, ()))], 0, blocked)
    sites._pending = len(sites._deferred)
    deferred = cast("List[tuple]", sites._deferred)     # none of them walked yet
    sites._first_lines = [item[4] for item in deferred]
    sites._last_lines = [item[5] for item in deferred]
    sites._waiting = (0, len(deferred) - 1)
    sites._eager_loads, sites._eager_calls = len(sites._raw_loads), len(sites._calls)
    _attach_entry_ops(sites)
    return sites


def _walk_statements(sites: Sites, tree: ast.Module, text: str, starts: List[int], walks: Optional[Walks],
                     lines: Optional[List[str]] = None) -> None:
    """The module, then each top-level statement from its own block of positions (the walk's are kept in walks,
    and a kept one is added instead of walking its statement again)."""
    module = sites.module
    context = (module, ())
    sites._pos[tree] = 1
    sites._walked[1] = (tree, None, context)
    body = tree.body
    if walks is None:
        sites._eager_found = set()
        whole = _blocked_lines(text, starts, pieces=lines, present=sites._eager_found)
        last = 1
        for k, stmt in enumerate(body):        # each from its own block of positions
            base = (k + 1) * SLOT
            if last >= base:
                raise RuntimeError(f"the statement before line {stmt.lineno} holds more nodes than its positions")
            last = _walk(sites, [(stmt, tree, context)], base, whole)
        _within_slot(last, (len(body) + 1) * SLOT, tree)
    else:
        found = [walks.find(stmt, k) for k, stmt in enumerate(body)]
        # the lines deferral may not touch: of the whole text when many statements are walked (the first
        # analysis, an edit that moved lines), else of each statement's own lines
        blocked = _blocked_lines(text, starts) if found.count(None) > 8 else None
        for k, stmt in enumerate(body):
            piece = found[k]
            if piece is None:
                piece = found[k] = _walk_alone(stmt, k, tree, text, starts, walks.module, blocked)
            walks.keep(piece)
            apply(sites, piece, tree, context)
        walks.done()
        if len(starts) == text.count("\n") + 1:   # (their indexes count lines at LF: no line ends at a lone CR)
            sites._pieces = cast("List[Piece]", found)
    if tree.type_ignores:                   # (only from a parse that asked for type comments)
        base = (len(body) + 1) * SLOT
        _walk(sites, [(t, tree, context) for t in reversed(tree.type_ignores)], base, None)


def _walk_alone(stmt: ast.stmt, k: int, tree: ast.Module, text: str, starts: List[int], module: ModuleScope,
                blocked: Optional[set]) -> Piece:
    """A top-level statement walked into sites of its own, kept as a Piece (what it binds in the module scope
    logged, not bound: site_reuse.apply binds it)."""
    own = Own(module)
    binds: list = []
    names: set = set()
    module.log, outer, module.globals = binds, module.globals, names
    base = (k + 1) * SLOT
    try:
        if blocked is None:
            blocked = _blocked_lines(text, starts, (stmt.lineno, stmt.end_lineno or stmt.lineno))
        _within_slot(_walk(own, [(stmt, tree, (module, ()))], base, blocked), base + SLOT, stmt)
    finally:
        module.log, module.globals = None, outer
    return Piece(stmt, k, base + 1, own, binds, names)


class Own(Sites):
    """The sites a top-level statement is walked into alone: only the containers the walk fills."""

    def __init__(self, module: Scope):      # (Sites.__init__'s indexes and views: not asked of these)
        self.module = module
        self.scopes, self.entries, self._calls, self.assigns = [module], [], [], []
        self._walked, self._pos, self.imports, self.functions = {}, {}, {}, {}
        self.star_imports, self.returns, self.deletes, self._deferred, self._raw_loads = [], [], [], [], []


def _within_slot(last: int, end: int, node) -> None:
    if last >= end:
        raise RuntimeError(f"the statement at line {getattr(node, 'lineno', 1)} holds more nodes than its positions")
