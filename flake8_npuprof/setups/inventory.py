"""Every profiling setup of one script, whatever its route, and the order GE meets them.

A ScriptSetup says how one route switches profiling (Mode), what options it gives
(OptionsArg), and which call initialises GE with it (the delivery). The execution order is
an approximation of what Python runs: module-level statements in order, descending into the
functions and methods of this file when they are called (and into `main` for `tf.app.run()` /
`absl.app.run(main)`). GE reads its init options only once, so the setup whose delivery runs
first is the one GE uses; NPU configs without profiling count as GE initialisations too.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left, bisect_right
from typing import Dict, List, NamedTuple, Optional, Set, Tuple

from .env import MODE_VALUES
from .flow import HELPERS, helper_config_arg
from ..values.ops import Opaque
from .routes import ENV_MODE, ENV_OPTIONS, env_sets, last_values, npu_opens, profiling_configs, resource_inits, tf2_sets
from .parameter_map import PRECISION_REFUSED, PROFILING_PARAMS, npu_setups, precision_writes
from ..source.site_entries import ParamSet
from ..source.site_records import Def as _Def
from ..source.sites import CallSite, Guard, Scope, call_name, child_nodes
from ..source.text import HOLE, StrValue
from ..values.reader import Strings
from .state import Model, OFF, State, first_init, overridden_by
from .reach import guard_text, reach_of  # noqa: F401  (guard_text: also read from here)

GE_INIT = ("session", "init_resource", "set_keras_session_npu_config", "npu_estimator", "estimator")
PASS_ON = ("run_config", "npu_config_proto", "npu_run_config_init")
APP_RUN = ("app.run", "absl.app.run")
# What runs the Keras backend session in TF1 graph mode. set_keras_session_npu_config only makes that session
# (npu_init.py); GE starts when a graph first runs in it (GeOp's constructor calls GeOp::Initialize, which calls
# GePlugin::Init: tf_adapter/kernels/geop_npu.cc). Only Keras's own names count (np.save, Saver.save are not
# runs of it); with none of them in the file, whether GE reads the config is "unknown", never a guess.
KERAS_RUNS = ("fit", "fit_generator", "evaluate", "evaluate_generator", "predict", "predict_generator",
              "train_on_batch", "test_on_batch", "predict_on_batch", "get_session")
# backend functions that run the session, counted on the backend only (`K.get_value`, `backend.set_value`)
KERAS_BACKEND_RUNS = ("get_value", "set_value", "batch_get_value", "batch_set_value")
_SHARED_WITH_ESTIMATORS = ("evaluate", "predict")


class Mode(NamedTuple):
    state: str                  # "on", "off", "error", "unknown", "inherit" (env: from the launcher)
    detail: str = ""            # the condition or reason, for messages
    value: object = None        # the offending value when state == "error"
    # off in a launch because `guard` is false at the default of a flag the launcher does not pass: (guard, --flag)
    off_by: Optional[Tuple[str, str]] = None
    flag: str = ""              # on only in runs that give this flag: "--profiling_mode is given"
    unset: bool = False         # off because the switch is never set (not given, default False)
    skipped: bool = False       # off because a launch makes its guard false: the setup is not run at all
    stops: bool = False         # skipped because the script stops before its guard is read (argparse exits on a flag)


class OptionsArg(NamedTuple):
    state: str                  # "absent", "none" (Python None), "empty" (read as empty), "given", "error"
    strings: Optional[Strings] = None
    node: Optional[ast.AST] = None
    detail: str = ""


class ScriptSetup(NamedTuple):
    route: str                  # NpuOptimizer, ProfilingConfig, npu_resource_init, env, npu_device
    line: int
    column: int
    mode: Mode
    options: OptionsArg
    delivery: Optional[ast.AST]     # the call that initialises GE with this setup
    delivered: str              # "yes", "never", "late" (after npu.open()), "unknown" (escapes this file),
    #                             "replaced" (in a launch, a later binding of its name under flags that hold)
    conditions: Tuple[str, ...]     # guards of the profiling switch, as source text
    anchor: Optional[ast.AST] = None
    scope: Optional[Scope] = None
    pos: int = 0
    nodes: Tuple[int, ...] = ()     # ids of every node of this setup (switches, options, anchors)
    condition: str = ""             # delivered only under this condition (`cfg if flag else None`)
    reached: Optional[bool] = True  # from the entry point (reach.py): False not reached, None not known
    entry: int = 0                  # the entry point's line, when known
    path: Tuple[tuple, ...] = ()    # (Guard, Scope, pos) of the `if`s on the way to it, when one path's
    lost: str = ""                  # delivered "never": the step that loses it ("" nothing takes it at all)
    refused: str = ""               # the adapter refuses the entry whenever the setup runs (why, in words: NPP004)
    caught: int = 0                 # line of a `try` around the setup's line that may catch its error (0: none)
    unseen: str = ""                # delivered "unknown" for a reason this file shows (the Keras session never run)
    unknown_reach: str = ""         # reached None: why (no entry point, or a call by a computed name)


class GeInit(NamedTuple):
    """A call that initialises GE; setup is None for NPU configs without profiling."""
    call: ast.AST
    line: int
    what: str
    setup: Optional[ScriptSetup]


# ---------------------------------------------------------------- execution order

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# Ranks a statement left unwalked keeps free for its nodes: more than a file within the work budget
# (source/prefilter.py, a million words) can hold in one statement.
_GAP = 1 << 32
_IDENTIFIER = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_IDENTIFIER_RUN = re.compile(r"[A-Za-z0-9_]+")     # a run of _IDENTIFIER characters: a whole name in it
_LINES_PER_SEARCH = 4       # _hot_lines: names searched one by one while there are fewer than lines / this
# ... and while there are at most this many: a search reads the whole text (the server's 6,000-line benchmark script
# defines 570 names: 33 ms searched one by one, 4.4 ms in one pass over its identifiers)
_MOST_SEARCHED = 64
# Statements whose parts are ranked one by one when they hold a line a call may follow from (nested at most
# _SPLIT_DEPTH deep: the recursion stays a few frames per level of calls followed).
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try) + \
    ((ast.TryStar,) if hasattr(ast, "TryStar") else ())
_SPLIT_DEPTH = 3


class ExecOrder:
    """Rank of each node in an approximate execution order (None: not reached from module level).

    Demand-driven, per statement: a statement whose lines name nothing a call could follow into (a
    function, class or method of this file, or an `app.run`) only reserves its block of ranks, and is
    walked when a node in it is asked about; the ranks keep the whole walk's order."""

    def __init__(self, sites, tree: ast.AST, text: Optional[str] = None, starts: Optional[List[int]] = None):
        self.sites = sites
        self.rank: Dict[int, int] = {}
        self._count = 0
        self._active: set = set()
        self._walked: set = set()
        self._methods: Dict[str, Dict[str, _Def]] = {}
        self._method_ids: Optional[Set[int]] = None      # ids of every method in _methods (_is_method)
        for scope in sites.scopes:
            if scope.kind == "class":
                self._methods[scope.node.name] = {
                    s.name: s for s in scope.node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        # lines that may hold a call the walk follows (None: walk every statement at once)
        self._hot: Optional[List[int]] = None if text is None or starts is None else self._hot_lines(text, starts)
        self._cold: List[Tuple[ast.stmt, int]] = []      # (statement, the rank before its block), not walked yet
        self._unranked: set = set()                     # ids asked about that no walk ranks
        self._expanded: set = set()                     # ids of the statements of _cold walked since
        self._by_line: Optional[Dict[int, List[int]]] = None     # line -> indexes in _cold of the statements on it
        self._visit_block(getattr(tree, "body", []))

    def ranked(self, node: Optional[ast.AST]) -> bool:
        return self.of(node) is not None

    def first(self, nodes: List[ast.AST]) -> ast.AST:
        return min(nodes, key=lambda n: self.of(n) or 0)

    def of(self, node: Optional[ast.AST]) -> Optional[int]:
        if node is None:
            return None
        found = self.rank.get(id(node))
        if found is None and len(self._expanded) < len(self._cold) and id(node) not in self._unranked:
            found = self._from_cold(node)
        return found

    def _from_cold(self, node: ast.AST) -> Optional[int]:
        """Walk the statements left unwalked that may hold node (by its line; all of them when it has none)."""
        line = getattr(node, "lineno", None)
        if self._by_line is None:       # the lines each statement left unwalked spans, indexed once
            self._by_line = {}
            for k, (stmt, _) in enumerate(self._cold):
                for at in range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1):
                    self._by_line.setdefault(at, []).append(k)
        for k in range(len(self._cold)) if line is None else self._by_line.get(line, ()):
            stmt, base = self._cold[k]
            if id(stmt) in self._expanded:
                continue
            self._expanded.add(id(stmt))
            self._count, saved = base, self._count
            self._visit(stmt)
            self._count = saved
        found = self.rank.get(id(node))
        if found is None:
            self._unranked.add(id(node))
        return found

    def _hot_lines(self, text: str, starts: List[int]) -> List[int]:
        """The lines holding, as a whole identifier, a name a followed call can have (`_callees`), or a
        character outside ASCII (an identifier NFKC turns into such a name); over-approximated: a comment
        or a string naming one counts too."""
        words = set(self.sites.functions) | set(self._methods)
        for methods in self._methods.values():
            words.update(methods)
        lines: Set[int] = set()
        if words and len(words) * _LINES_PER_SEARCH <= len(starts) and len(words) <= _MOST_SEARCHED:
            # a few names: each one searched for in the whole text (a search costs about what reading the
            # identifiers of _LINES_PER_SEARCH lines does in a model-zoo script; both grow with the text, so past
            # _MOST_SEARCHED names the one pass below is cheaper whatever the length)
            for word in words:
                size = len(word)
                at = text.find(word)
                while at >= 0:
                    if not ((at and text[at - 1] in _IDENTIFIER) or text[at + size:at + size + 1] in _IDENTIFIER):
                        lines.add(bisect_right(starts, at))
                    at = text.find(word, at + size)
        elif words and "\r" not in text:
            # one pass over the text's identifiers, line by line: a search of the whole text per name cost a dense
            # script as many passes as it defines functions (600 in a 6,000-line script: 90 ms, against 9)
            names_in = _IDENTIFIER_RUN.findall
            lines.update(k for k, line in enumerate(text.split("\n"), 1) if not words.isdisjoint(names_in(line)))
        elif words:                     # (a carriage return ends a line too: the lines as `starts` has them)
            for m in _IDENTIFIER_RUN.finditer(text):
                if m.group() in words:
                    lines.add(bisect_right(starts, m.start()))
        if "run" not in words:          # `tf.app.run()`, `absl.app.run(main)`, `run(main)` imported from absl.app
            bare = self.sites.imports.get("run", "").endswith("app.run")
            at = text.find("run")
            while at >= 0:
                if not ((at and text[at - 1] in _IDENTIFIER) or text[at + 3:at + 4] in _IDENTIFIER) and \
                        _may_run_main(text, at, bare):
                    lines.add(bisect_right(starts, at))
                at = text.find("run", at + 3)
        if not text.isascii():
            lines.update(bisect_right(starts, m.start()) for m in _NON_ASCII.finditer(text))
        return sorted(lines)

    def _is_hot(self, stmt) -> bool:
        hot = self._hot
        if hot is None:
            return True
        k = bisect_left(hot, stmt.lineno)
        return k < len(hot) and hot[k] <= stmt.end_lineno

    def _visit_block(self, stmts, depth: int = 0) -> None:
        for stmt in stmts:
            if type(stmt) in _DEFS:
                continue                # runs when called
            if not self._is_hot(stmt):
                self._cold.append((stmt, self._count))
                self._count += _GAP
            elif type(stmt) in _COMPOUND and depth < _SPLIT_DEPTH and self._hot is not None:
                self._visit_parts(stmt, depth + 1)
            else:
                self._visit(stmt)

    def _visit_parts(self, stmt, depth: int) -> None:
        """A compound statement in the whole walk's order, part by part: each child in turn (its nested
        statements as a block, so the ones that follow nothing wait), then the statement itself."""
        for child in child_nodes(stmt):
            if isinstance(child, ast.stmt):
                self._visit_block((child,), depth)
            elif isinstance(child, ast.excepthandler):
                self._visit_parts(child, depth)
            else:
                self._visit(child)
        self._count += 1
        self.rank.setdefault(id(stmt), self._count)

    def _visit(self, root: ast.AST) -> None:
        # post-order in source order (arguments run before the call that gets them): the reverse
        # of a pre-order walk that takes the children last first; a call's callees are walked
        # when the call is ranked, so their nodes rank between it and what follows it
        walk: List[ast.AST] = []
        stack: list = [root]        # (Any: told apart by `kind is`, which mypy does not narrow through)
        pop, push, keep = stack.pop, stack.append, walk.append
        Name, Constant, Attribute, keyword, Expr, Call = \
            ast.Name, ast.Constant, ast.Attribute, ast.keyword, ast.Expr, ast.Call
        while stack:
            node = pop()
            kind = type(node)
            if kind in _DEFS:
                continue                # runs when called
            keep(node)
            if kind is Name or kind is Constant:        # the leaves: most nodes
                continue
            if kind is Attribute or kind is keyword or kind is Expr:     # one child, never None
                push(node.value)
            elif kind is Call:
                push(node.func)
                stack.extend(node.args)
                stack.extend(node.keywords)
            elif kind is ast.ClassDef:
                stack.extend(s for s in node.body if type(s) not in _DEFS)
            else:
                stack.extend(child_nodes(node))
        rank, count = self.rank, self._count
        for node in reversed(walk):
            count += 1
            rank.setdefault(id(node), count)
            if type(node) is Call:
                self._count = count
                self._follow(node)
                count = self._count
        self._count = count

    def _follow(self, call: ast.Call) -> None:
        for func in self._callees(call):
            if id(func) in self._active or id(func) in self._walked or len(self._active) > 50:
                continue
            self._active.add(id(func))
            self._walked.add(id(func))
            try:
                self._visit_block(func.body)
            finally:
                self._active.discard(id(func))

    def _callees(self, call: ast.Call) -> List[_Def]:
        name = call_name(call) or ""
        last = name.rsplit(".", 1)[-1]
        if name.endswith(APP_RUN) or name == "run" and self.sites.imports.get("run", "").endswith("app.run"):
            main = next((k.value for k in call.keywords if k.arg == "main"), call.args[0] if call.args else None)
            target = main.id if isinstance(main, ast.Name) else "main"
            return self._functions(target)
        if isinstance(call.func, ast.Name) and last in self._methods:
            init = self._methods[last].get("__init__")
            return [init] if init is not None else []
        if isinstance(call.func, ast.Name):
            return self._functions(last)
        if isinstance(call.func, ast.Attribute):
            found = [m[last] for m in self._methods.values() if last in m]
            return found if len(found) == 1 else []
        return []

    def _functions(self, name: str) -> List[_Def]:
        defs = [d for d in self.sites.functions.get(name, []) if not self._is_method(d)]
        return defs[-1:]                # the last definition wins

    def _is_method(self, func) -> bool:
        if self._method_ids is None:
            self._method_ids = {id(f) for m in self._methods.values() for f in m.values()}
        return id(func) in self._method_ids


class OrderWhenAsked:
    """The execution order, made when a rank is first asked for: a file with no GE initialisation to rank (or
    one whose every candidate is ruled out first) does not walk its statements for one. Whether a node is
    ranked at all (`ranked`) is often shown without it: most files have one GE initialisation, and only two
    ranked ones are compared."""

    __slots__ = ("sites", "_made", "_args", "_methods", "_shown", "_lines", "_plain")

    def __init__(self, sites, tree: ast.AST, text: Optional[str] = None, starts: Optional[List[int]] = None):
        self.sites = sites
        self._made: Optional[ExecOrder] = None
        self._args = (tree, text, starts)
        self._methods: Optional[Tuple[Set[str], Set[int]]] = None
        self._shown: Dict[int, Optional[Tuple[int, int]]] = {}     # id(node) -> _place's answer, once worked out
        self._lines: Dict[int, List[int]] = {}      # id(a body's owner) -> the first line of each of its statements
        self._plain: Dict[int, bool] = {}           # id(statement) -> its text holds no def, class or lambda

    def of(self, node: Optional[ast.AST]) -> Optional[int]:
        if node is None:
            return None
        if self._made is None:
            self._made = ExecOrder(self.sites, *self._args)
        return self._made.of(node)

    def ranked(self, node: Optional[ast.AST]) -> bool:
        """Whether of(node) is not None."""
        if node is None:
            return False
        if self._made is None and self._place(node) is not None:
            return True
        return self.of(node) is not None

    def first(self, nodes: List[ast.AST]) -> ast.AST:
        """The node of lowest rank (the first of them on a tie), of ranked nodes. Without the order when each is
        in its own statement of one body that is shown ranked: the order ranks a body's statements one after
        the other, each with what the calls in it run."""
        if self._made is None and len(nodes) > 1:
            places = [self._place(n) for n in nodes]
            known = [p for p in places if p is not None]
            if len(known) == len(places) and len({p[0] for p in known}) == 1 and \
                    len({p[1] for p in known}) == len(known):
                return nodes[min(range(len(nodes)), key=lambda k: known[k][1])]
        return min(nodes, key=lambda n: self.of(n) or 0)

    def _place(self, node: ast.AST) -> Optional[Tuple[int, int]]:
        """(id of the body's owner, index of the statement in it) of a node _surely_ranked shows, or None."""
        if id(node) in self._shown:
            return self._shown[id(node)]
        scope = self.sites.scope_of.at(node)
        found = None
        if scope is not None and self._surely_ranked(node, set()):
            k = self._plain_statement(node, scope)
            found = None if k is None else (id(scope.node), k)
        self._shown[id(node)] = found
        return found

    # ---- ranked without the order: only where nothing can make the order's answer another

    def _surely_ranked(self, node: ast.AST, seen: set) -> bool:
        """True when the node is in a statement of the module's body, or of the body of a function a plain call
        from such a statement names, that holds no def, class or lambda (the order ranks every node of such a
        statement, and walks every function a call of a ranked statement reaches: with at most 50 functions
        and methods in the file its depth bound is never met). False: not shown this way."""
        sites = self.sites
        scope = sites.scope_of.at(node)
        if scope is None or not self._in_plain_statement(node, scope):
            return False
        if scope.kind == "module":
            return True
        func = scope.node
        if scope.kind != "function" or id(func) in seen or self._is_method(func) or not self._few_functions():
            return False
        seen.add(id(func))
        names, _ = self._class_methods()
        name = func.name
        last = [d for d in sites.functions.get(name, []) if not self._is_method(d)][-1:]
        if name in names or last != [func] or name == "run":
            return False                # (a class's name calls its __init__; `run` may be absl's app.run)
        return any(type(site.call.func) is ast.Name and site.call.func.id == name and
                   (self._shown.get(id(site.call)) is not None or self._surely_ranked(site.call, seen))
                   for site in sites.calls_named(name))

    def _in_plain_statement(self, node: ast.AST, scope) -> bool:
        """Whether the node is inside a statement of its scope's body (the module's or a function's) whose text
        holds no `def`, `class` or `lambda`, and is no def or class itself."""
        return self._plain_statement(node, scope) is not None

    def _plain_statement(self, node: ast.AST, scope) -> Optional[int]:
        """The index in its scope's body of the statement _in_plain_statement finds, or None."""
        tree, text, starts = self._args
        line, col = getattr(node, "lineno", None), getattr(node, "col_offset", None)
        end = (getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None))
        if line is None or col is None or None in end or text is None or starts is None or \
                scope.kind not in ("module", "function"):
            return None
        body = scope.node.body if scope.kind == "function" else getattr(tree, "body", [])
        lines = self._lines.get(id(scope.node))
        if lines is None:
            lines = self._lines[id(scope.node)] = [stmt.lineno for stmt in body]
        k = bisect_right(lines, line) - 1
        for at in (k - 1, k):
            stmt = body[at] if at >= 0 else None
            if stmt is not None and (stmt.lineno, stmt.col_offset) <= (line, col) and \
                    end <= (stmt.end_lineno, stmt.end_col_offset):
                if type(stmt) in _DEFS or type(stmt) is ast.ClassDef:
                    return None
                plain = self._plain.get(id(stmt))
                if plain is None:       # read once per statement (a loop's body is asked about call by call)
                    last = stmt.end_lineno or stmt.lineno
                    chunk = text[starts[stmt.lineno - 1]:starts[last] if last < len(starts) else len(text)]
                    plain = self._plain[id(stmt)] = chunk.isascii() and not _holds_scope_word(chunk)
                return at if plain else None
        return None

    def _class_methods(self) -> Tuple[Set[str], Set[int]]:
        """The class names and the ids of the methods ExecOrder._methods holds (the last class of each name)."""
        if self._methods is None:
            methods: Dict[str, Dict[str, _Def]] = {}
            for scope in self.sites.scopes:
                if scope.kind == "class":
                    methods[scope.node.name] = {
                        s.name: s for s in scope.node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
            self._methods = (set(methods), {id(f) for m in methods.values() for f in m.values()})
        return self._methods

    def _is_method(self, func) -> bool:
        return id(func) in self._class_methods()[1]

    def _few_functions(self) -> bool:
        """At most 50 functions and methods: ExecOrder's depth bound (50 walked at once) cannot be met."""
        return sum(len(defs) for defs in self.sites.functions.values()) + len(self._class_methods()[1]) <= 50


_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_SCOPE_WORDS = ("def", "class", "lambda")     # (in a comment or a string too: then not shown)


def _holds_scope_word(chunk: str) -> bool:
    """Whether an ASCII text holds `def`, `class` or `lambda` as a whole word (what `\\b(?:def|class|lambda)\\b`
    finds there), by str.find: the regular expression took about 7 times as long on 40-line pieces of the zoo's
    scripts."""
    for word in _SCOPE_WORDS:
        size = len(word)
        at = chunk.find(word)
        while at >= 0:
            if not ((at and chunk[at - 1] in _IDENTIFIER) or chunk[at + size:at + size + 1] in _IDENTIFIER):
                return True
            at = chunk.find(word, at + 1)
    return False


def _may_run_main(text: str, at: int, bare: bool) -> bool:
    """Whether the `run` at `at` may be the name of a call `_callees` follows into main: `...app.run` (the
    dotted name ends with "app.run"), or `run` alone when imported from absl's app. Read back on its line;
    what it cannot tell there (a line break before it, a bracket before the dot) counts as may."""
    k = at - 1
    while k >= 0 and text[k] in " \t\x0c":
        k -= 1
    if k < 0 or text[k] in "\n\r\\":
        return True
    if text[k] != ".":
        return bare
    k -= 1
    while k >= 0 and text[k] in " \t\x0c":
        k -= 1
    end = k + 1
    while k >= 0 and text[k] in _IDENTIFIER:
        k -= 1
    return end == k + 1 or text[k + 1:end].endswith("app")


# ---------------------------------------------------------------- switches

def switch_mode(candidates, allow_int: bool = True, name: str = "profiling_mode") -> Mode:
    """What a bool switch does, from its candidate values (a flag: on when the flag is given)."""
    if not candidates:
        return Mode("unknown", f"{name} cannot be determined statically")
    on, off, bad, flags, untyped = False, False, None, [], None
    for v in candidates:
        if isinstance(v, Opaque):
            if v.py_type in (bool, int):
                flags.append(v.flag)
                continue
            if v.py_type is object:         # `type=str2bool`: what the script's function returns is not known
                untyped = untyped or v.flag
                continue
            bad = bad if bad is not None else v
        elif isinstance(v, bool) or (isinstance(v, int) and allow_int):
            on, off = on or bool(v), off or not v
        else:
            bad = bad if bad is not None else v
    if untyped and not (on or flags):
        return Mode("unknown", f"{name} takes the value of {untyped}, converted by a function of the script")
    if bad is not None and not (on or flags):
        return Mode("error", "", bad.flag if isinstance(bad, Opaque) else bad)
    if flags:
        return Mode("on", f"when {flags[0]} is given", flag=f"{flags[0]} is given")
    if on:
        return Mode("on", "in one of its branches" if off else "")
    return Mode("off", f"{name} is False")


# ---------------------------------------------------------------- the inventory

class Inventory:
    def __init__(self, ctx):
        self.ctx = ctx
        self.order = OrderWhenAsked(ctx.sites, ctx.tree, ctx.src.text, ctx.src.line_starts)
        self.setups: List[ScriptSetup] = []
        self.inits: List[GeInit] = []
        self._sites: Optional[Dict[int, CallSite]] = None
        self.late: Dict[int, ast.AST] = {}          # id(global-options target) -> the npu.open() before it
        self.conditions: Dict[int, str] = {}       # id(config) -> condition it is handed over under
        self.unseen: Dict[int, str] = {}           # id(config) -> why its reading by GE is not shown
        self._keras_runs: Optional[bool] = None
        self._npu_optimizer()
        self._estimator()
        self._resource_init()
        self._tf2()
        self._env()
        self._plain_helpers()
        self.setups.sort(key=lambda s: (s.line, s.column))

    # ---- helpers

    def line_col(self, node) -> Tuple[int, int]:
        return self.ctx.src.position(self.ctx.src.node_start(node))

    def _add(self, route, anchor, mode, options, delivery, delivered, guards, scope, pos, nodes=(),
             condition="", lost="", refused="", unseen="") -> ScriptSetup:
        line, col = self.line_col(anchor)
        reach = reach_of(self.ctx.sites)
        way = reach.path(anchor)            # the `if`s on the way from the entry point to this code
        own = guard_text(guards)
        conditions = own + tuple(t for t in way.texts if t not in own) + ((condition,) if condition else ())
        setup = ScriptSetup(route, line, col, mode, options, delivery, delivered, conditions, anchor,
                            scope, pos, tuple(id(n) for n in nodes if n is not None), condition,
                            reach.of(anchor), reach.entry.line if reach.entry else 0,
                            way.guards if way.exact else (), lost, refused,
                            self.ctx.sites.try_around(anchor) or way.caught,
                            unseen if delivered == "unknown" else "",
                            reach.unknown_why() if reach.of(anchor) is None else "")
        self.setups.append(setup)
        if delivery is not None and delivered == "yes":
            self.inits.append(GeInit(delivery, self.line_col(delivery)[0], route, setup))
        return setup

    def _site(self, call) -> Optional[CallSite]:
        sites = self.ctx.sites
        if sites.pos.at(call) is None:
            return None                 # not a call of this file's walk
        if self._sites is None or len(self._sites) != len(sites._calls):
            self._sites = {id(s.call): s for s in sites._calls}
        return self._sites.get(id(call))

    def _kind(self, call) -> Optional[str]:
        site = self._site(call)
        if site is None:
            return None
        kind = self.ctx.flow.kind_of(site)
        if kind is None and (site.name or "").rsplit(".", 1)[-1].endswith("Estimator"):
            return "estimator"
        return kind

    def deliveries(self, value: ast.AST) -> Tuple[List[ast.AST], bool]:
        """GE-initialising calls a config object reaches, and whether it also escapes our view.
        Calls reached only under a condition (`cfg if flag else None`) are noted in self.conditions."""
        flow = self.ctx.flow
        found: List[ast.AST] = []
        escapes = False
        frontier, seen = [(value, "")], set()
        unconditional = False           # some hand-over happens without a condition
        for _ in range(8):
            nxt = []
            for v, cond in frontier:
                if id(v) in seen:
                    continue
                seen.add(id(v))
                for use in flow.uses_of(v):
                    here = cond
                    if use.condition is not None:
                        here = guard_text((Guard(use.condition, use.negated),))[0]
                        self.conditions.setdefault(id(value), here)
                    if use.how == "call" and use.call is not None:
                        kind = self._kind(use.call)
                        name = (call_name(use.call) or "").rsplit(".", 1)[-1]
                        if kind == "set_keras_session_npu_config" and not self._keras_run_shown():
                            escapes = True
                            unconditional = unconditional or not here
                            self.unseen.setdefault(id(value), (
                                f"the Keras session that set_keras_session_npu_config (line "
                                f"{self.line_col(use.call)[0]}) makes is never run in this file (no fit, evaluate, "
                                "predict or get_session), and GE starts only when a graph first runs"))
                        elif kind in GE_INIT or (kind not in PASS_ON and name in self.ctx.sites.functions):
                            found.append(use.call)       # GE starts there (or inside that function, if at all)
                            unconditional = unconditional or not here
                        elif kind in PASS_ON:
                            nxt.append((use.call, here))
                        else:
                            escapes = True
                            unconditional = unconditional or not here
                    elif use.how == "return":
                        callers = self._calls_of_function(use.node)
                        nxt.extend((c, here) for c in callers)
                        escapes = escapes or not callers        # returned to code outside this file
                        unconditional = unconditional or (not callers and not here)
                    elif use.how in ("container", "alias"):
                        escapes = True
                        unconditional = unconditional or not here
            frontier = nxt
            if not frontier:
                break
        if unconditional:
            self.conditions.pop(id(value), None)
        if not found and not escapes and self._kept_for_importers(value):
            escapes = True
        return found, escapes

    def _keras_run_shown(self) -> bool:
        """Whether the file calls anything that runs the Keras backend session (KERAS_RUNS), not counting
        evaluate/predict on an object made by an `...Estimator(...)` call (it has its own session)."""
        if self._keras_runs is None:
            sites = self.ctx.sites
            self._keras_runs = any(not (last in _SHARED_WITH_ESTIMATORS and self._on_estimator(site))
                                   for last in KERAS_RUNS for site in sites.calls_named(last)
                                   if isinstance(site.call.func, ast.Attribute)) or \
                any((site.name or "").rsplit(".", 2)[-2:-1] in (["K"], ["backend"])
                    for last in KERAS_BACKEND_RUNS for site in sites.calls_named(last))
        return self._keras_runs

    def _on_estimator(self, site: CallSite) -> bool:
        if "." not in (site.name or ""):
            return False
        receiver = (site.name or "").rsplit(".", 1)[0]      # (it holds a ".": checked above)
        if "estimator" in receiver.lower():
            return True
        found = self.ctx.sites.bindings_at(receiver, site.scope, self.ctx.pos(site.call))
        return bool(found) and all(isinstance(b.value, ast.Call) and
                                   (call_name(b.value) or "").rsplit(".", 1)[-1].endswith("Estimator") for b in found)

    def _kept_for_importers(self, value: ast.AST) -> bool:
        """Whether a file with no entry point keeps the object where the modules that import it can read
        it: an instance attribute (`self.profiling_config`: the instance is made and used by those modules),
        or a module-level name of a file that starts nothing itself (no session, run config or estimator:
        a module others import, not a script run from the top). That nothing here reads it does not say
        nothing does."""
        sites = self.ctx.sites
        if reach_of(sites).entry is not None:
            return False
        library = not self.ctx.flow.consumer_calls()
        return any(key.startswith("self.") or (library and scope is sites.module)
                   for scope, key in sites.keys_bound_to(value))

    def _calls_of_function(self, node) -> List[ast.AST]:
        parent = self.ctx.flow.parent
        cur = node
        while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)):
            cur = parent.at(cur)
        if cur is None:
            return []
        return [s.call for s in self.ctx.sites.calls_named(cur.name)]

    def _first(self, calls: List[ast.AST]) -> Optional[ast.AST]:
        if not calls:
            return None
        if len(calls) == 1:
            return calls[0]             # (nothing to rank it against)
        # the first ranked one in execution order, then in the walk's; none ranked: the first in the walk's
        ranked = [c for c in calls if self.order.ranked(c)]
        if len(ranked) <= 1:
            return ranked[0] if ranked else min(calls, key=self.ctx.pos)
        if len({id(c) for c in ranked}) == len(ranked):     # (no two nodes share a rank)
            return self.order.first(ranked)
        return min(ranked, key=lambda c: (self.order.of(c) or 0, self.ctx.pos(c)))

    def _delivery_of(self, value: Optional[ast.AST]) -> Tuple[Optional[ast.AST], str]:
        if value is None:
            return None, "unknown"
        calls, escapes = self.deliveries(value)
        first = self._first(calls)
        if first is not None:
            return first, "yes"
        return None, "unknown" if escapes else "never"

    def lost_step(self, value: Optional[ast.AST]) -> str:
        """For a config that never reaches GE: the call that took it last and what became of that
        call's result, in words ("" when nothing takes it at all)."""
        flow = self.ctx.flow
        frontier: List[Optional[ast.AST]] = [value]
        seen = set()
        for _ in range(8):
            nxt: List[Optional[ast.AST]] = []
            for v in frontier:
                if id(v) in seen:
                    continue
                seen.add(id(v))
                on = []
                for use in flow.uses_of(v):
                    if use.how == "call" and use.call is not None and self._kind(use.call) in PASS_ON:
                        on.append(use.call)
                    elif use.how == "return":
                        on.extend(self._calls_of_function(use.node))
                if on:
                    nxt.extend(on)
                elif v is not value and v is not None:     # (those after the first are calls)
                    return self._dead_end(v)
            frontier = nxt
            if not frontier:
                break
        return ""

    def _dead_end(self, call: ast.AST) -> str:
        sites = self.ctx.sites
        name = call_name(call) if isinstance(call, ast.Call) else None
        what = f"{name or 'a call'}(...) at line {self.line_col(call)[0]}"
        slots = sites.slots_of(call)
        if not slots:
            return f"{what}, but its result is not kept"
        scope, key, i = slots[0]
        if sites.loads_seeing(scope, key, i):
            return f"{what}, but `{key}` is never handed on to GE"
        later = scope.bindings[key][i + 1:]
        if later:
            line = self.line_col(later[0].stmt)[0]
            return f"{what}, but `{key}` is assigned again at line {line} before it is read"
        return f"{what}, but `{key}` is never read"

    def condition_of(self, value: Optional[ast.AST]) -> str:
        """The condition a config is handed over under (`cfg if flag else None`), or ""."""
        return self.conditions.get(id(value), "") if value is not None else ""

    def strings(self, node, scope, pos) -> Strings:
        return self.ctx.values.strings(node, scope, pos)

    # ---- NpuOptimizer

    def _npu_optimizer(self) -> None:
        for setup in npu_setups(self.ctx.sites):
            if all(e.orphan for e in setup.entries):
                continue
            value = self.ctx.sites.nodes.at(setup.config_key[2]) if setup.config_key[0] == "node" else None
            value = self._origin(value)
            delivery, delivered = self._delivery_of(value)
            if not any(setup.params.get(k) for k in PROFILING_PARAMS):
                if delivery is not None:
                    self.inits.append(GeInit(delivery, self.line_col(delivery)[0],
                                             "an NpuOptimizer config without profiling", None))
                continue
            mode, guards = self._npu_mode(setup)
            options = self._npu_options(setup)
            anchor = _either(setup, "profiling_mode", "profiling_options")[-1].target
            last = _either(setup, "profiling_options", "profiling_mode")[-1]
            nodes = [p.value for k in PROFILING_PARAMS for p in setup.params.get(k, [])] + \
                [p.target for k in PROFILING_PARAMS for p in setup.params.get(k, [])]
            refused, refused_guards = self._refused(setup, last)
            self._add("NpuOptimizer", anchor, mode, options, delivery, delivered,
                      refused_guards if refused else guards, last.scope,
                      self.ctx.pos(last.stmt), nodes, self.condition_of(value),
                      self.lost_step(value) if delivered == "never" else "", refused,
                      self.unseen.get(id(value), ""))

    def _origin(self, value: Optional[ast.AST]) -> Optional[ast.AST]:
        """The config object a plain alias names (`cfg = config`: the `config` it was made as), when only one
        assignment of each name can reach there; the uses of that object are where it may be handed to GE."""
        sites = self.ctx.sites
        for _ in range(4):
            if type(value) is not ast.Name:
                break
            scope, pos = sites.scope_of.at(value), sites.pos.at(value)
            found = sites.bindings_at(value.id, scope, pos) if scope is not None and pos is not None else []
            if len(found) != 1 or found[0].value is None or found[0].pos < 0:
                break
            value = found[0].value
        return value

    def _refused(self, setup, last) -> Tuple[str, tuple]:
        """Why the adapter refuses this entry, and the guards of the write that makes it refuse, or ("", ()):
        a precision_mode.b written last empties the string, which TF Adapter r1.12+ refuses (NPP004). Said
        only when certain: no later .s can replace it, and the .b runs whenever the profiling lines do (its
        own conditions become the setup's: the failure happens only when they hold)."""
        bool_write, later = precision_writes(setup, self.ctx.pos)
        if bool_write is None or later or last.guards[:len(bool_write.guards)] != bool_write.guards:
            return "", ()
        line = self.line_col(bool_write.target)[0]
        return (f"precision_mode.b on line {line} leaves the precision_mode string empty, and the adapter "
                f'refuses it ("{PRECISION_REFUSED}"): the session fails when its graph first runs'), bool_write.guards

    def _npu_mode(self, setup) -> Tuple[Mode, tuple]:
        params = setup.params.get("profiling_mode", [])
        if not params:
            return Mode("off", "profiling_mode is never set on this config", unset=True), ()
        cands: list = []
        guards: Tuple[Guard, ...] = ()
        on: Optional[int] = None
        for k, p in enumerate(params):
            if p.field != "b":
                cands.append(False)     # the adapter reads .b: another field reads as false
                continue
            values = self.ctx.values.scalars(p.value, p.scope, self.ctx.pos(p.stmt))
            if not values.candidates:
                return Mode("unknown", "profiling_mode cannot be determined statically"), p.guards
            cands.extend(values.candidates)
            if any(v is True or isinstance(v, Opaque) for v in values.candidates):
                guards, on = p.guards, k
        mode = switch_mode(cands)
        if params[-1].field != "b" and mode.state == "off":
            mode = Mode("off", f"profiling_mode is set through .{params[-1].field}; the adapter reads .b, i.e. false")
        if on is None:
            return mode, params[-1].guards
        # `.b = True`, then `if not args.profiling: .b = False`: on where that one `if` does not hold
        later = params[on + 1:]
        if len(later) == 1 and len(later[0].guards) == len(guards) + 1 and later[0].guards[:len(guards)] == guards:
            last = later[0].guards[-1]
            guards = guards + (last._replace(negated=not last.negated),)
        return mode, guards

    def _npu_options(self, setup) -> OptionsArg:
        p = setup.last("profiling_options")
        if p is None:
            return OptionsArg("absent")
        if p.field != "s":
            return OptionsArg("empty", None, p.value, f"profiling_options is set through .{p.field}; the adapter "
                              "reads .s, i.e. empty")
        strings = self.strings(p.value, p.scope, self.ctx.pos(p.stmt))
        if strings.py_type == "str":
            return OptionsArg("error", strings, p.value, "str")
        return OptionsArg("given", strings, p.value)

    # ---- ProfilingConfig → NPURunConfig → NPUEstimator

    def _estimator(self) -> None:
        for rs in profiling_configs(self.ctx.sites):
            if rs.legacy:
                mode = Mode("error", "", "legacy")
            elif rs.mode is None:
                mode = Mode("off", "enable_profiling is not given (default False)", unset=True)
            else:
                mode = switch_mode(self.ctx.values.scalars(rs.mode.node, rs.scope, rs.pos).candidates,
                                   name="enable_profiling")
            options = self._arg_options(rs)
            delivery, delivered = self._delivery_of(rs.anchor)
            self._add("ProfilingConfig", rs.anchor, mode, options, delivery, delivered, rs.guards, rs.scope, rs.pos,
                      _route_nodes(rs), self.condition_of(rs.anchor),
                      self.lost_step(rs.anchor) if delivered == "never" else "")

    def _arg_options(self, rs) -> OptionsArg:
        if rs.options is None:
            return OptionsArg("absent")
        node = rs.options.node
        if isinstance(node, ast.Constant) and node.value is None:
            return OptionsArg("none", None, node)
        return OptionsArg("given", self.strings(node, rs.scope, rs.pos), node)

    # ---- npu_resource_init

    def _resource_init(self) -> None:
        for rs in resource_inits(self.ctx.sites):
            if rs.mode is None and rs.options is None:
                self.inits.append(GeInit(rs.anchor, self.line_col(rs.anchor)[0], "npu_resource_init without "
                                         "profiling", None))
                continue
            if rs.legacy:
                mode = Mode("error", "", "legacy")
            elif rs.mode is None:
                mode = Mode("off", "enable_profiling is not given (default False)", unset=True)
            else:
                mode = switch_mode(self.ctx.values.scalars(rs.mode.node, rs.scope, rs.pos).candidates,
                                   allow_int=False, name="enable_profiling")
            self._add("npu_resource_init", rs.anchor, mode, self._arg_options(rs), rs.anchor, "yes", rs.guards,
                      rs.scope, rs.pos, _route_nodes(rs))

    # ---- TF2 npu_device global options

    def _tf2(self) -> None:
        sets = tf2_sets(self.ctx.sites)
        opens = npu_opens(self.ctx.sites)
        used = set()
        by_scope: Dict[int, list] = {}
        for s in sets:
            by_scope.setdefault(id(s.scope), []).append(s)
        for group in by_scope.values():
            first = group[0]
            near = sorted((o.call for o in opens if o.scope is first.scope or o.scope.kind == "module"
                           or first.scope.kind == "module"), key=self.ctx.pos)
            # npu.open() reads the global options: settings made after the first open are ignored
            opened = near[0] if near else None
            live = [s for s in group if opened is None or self._before(s, opened)] or group
            for s in group:
                if opened is not None and not self._before(s, opened):
                    self.late[id(s.target)] = opened
            mode, options = self._tf2_values(live)
            if opened is None:
                delivery, delivered = None, "unknown"
            elif self._before(live[0], opened):
                delivery, delivered = opened, "yes"
                used.add(id(opened))
            else:
                delivery, delivered = opened, "late"
            anchor = next((s for s in reversed(live) if s.attr == "enable_profiling"), live[-1])
            self._add("npu_device", anchor.target, mode, options, delivery, delivered, anchor.guards, anchor.scope,
                      anchor.pos, [n for s in group for n in (s.value, s.target, s.stmt)])
        for o in opens:
            if id(o.call) not in used:
                self.inits.append(GeInit(o.call, self.line_col(o.call)[0], "npu.open() without profiling", None))

    def _before(self, s, opened) -> bool:
        """Whether a global-options setting runs before npu.open() (execution order, else source order)."""
        if self.order.ranked(s.stmt) and self.order.ranked(opened):
            return s.stmt is not opened and self.order.first([s.stmt, opened]) is s.stmt
        return s.pos < self.ctx.pos(opened)

    def _tf2_values(self, group) -> Tuple[Mode, OptionsArg]:
        enables = [s for s in group if s.attr == "enable_profiling"]
        option_sets = [s for s in group if s.attr == "profiling_options"]
        mode = Mode("off", "enable_profiling is never set before npu.open() (default False)", unset=True)
        if enables:
            cands: list = []
            for s in enables:
                cands.extend(self.ctx.values.scalars(s.value, s.scope, s.pos).candidates or [None])
            mode = switch_mode(cands, name="enable_profiling") if None not in cands else \
                Mode("unknown", "enable_profiling cannot be determined statically")
        options = OptionsArg("absent")
        if option_sets:
            s = option_sets[-1]
            options = OptionsArg("given", self.strings(s.value, s.scope, s.pos), s.value)
        return mode, options

    # ---- environment variables set from Python

    def _env(self) -> None:
        every = env_sets(self.ctx.sites)
        sets = last_values(every)     # the last value wins
        module = id(self.ctx.sites.module)
        by_scope: Dict[int, list] = {}
        for s in sets:
            by_scope.setdefault(id(s.scope), []).append(s)
        module_modes = [s for s in by_scope.get(module, []) if s.name == ENV_MODE]
        module_mode = None              # what the module's modes say, for every scope without its own (judged once)
        for scope_id, group in by_scope.items():
            modes = [s for s in group if s.name == ENV_MODE]
            option_sets = [s for s in group if s.name == ENV_OPTIONS]
            if not modes and scope_id != module:
                modes = module_modes
                if module_mode is None:
                    module_mode = self._modes_mode(modes)
                mode = module_mode
            else:
                mode = self._modes_mode(modes)
            options = OptionsArg("absent")
            if option_sets and option_sets[-1].value is not None:
                s = option_sets[-1]
                options = OptionsArg("given", self.strings(s.value, s.scope, s.pos), s.value)
            anchor = (modes or option_sets)[-1]
            self._add("env", anchor.anchor, mode, options, None, "yes", anchor.guards, anchor.scope, anchor.pos,
                      [n for s in group for n in (s.value, s.anchor)])

    def _modes_mode(self, modes) -> Mode:
        """The mode the PROFILING_MODE sets of a scope give (the last one, unless they disagree)."""
        if not modes:
            return Mode("inherit", "PROFILING_MODE is not set by the script")
        if len({(m.state, m.value) for m in map(self._env_mode, modes)}) > 1:
            return Mode("unknown", "PROFILING_MODE is set to different values in different branches")
        return self._env_mode(modes[-1])

    def _env_mode(self, s) -> Mode:
        if s.value is None:
            return Mode("off", "PROFILING_MODE is removed")
        strings = self.strings(s.value, s.scope, s.pos)
        texts = {c.text for c in strings.candidates}
        if not texts or any(HOLE in t for t in texts):
            return Mode("unknown", "PROFILING_MODE cannot be determined statically")
        return env_mode_of(texts)

    # ---- helpers that initialise GE with a config carrying no profiling

    def _plain_helpers(self) -> None:
        """init_resource / set_keras_session_npu_config not fed by a profiling setup, and
        npu_config_proto() without a config (a fresh one for a session): GE starts without profiling."""
        known = {id(i.call) for i in self.inits}
        for site in self.ctx.flow.consumer_calls():
            kind = self.ctx.flow.kind_of(site)
            if id(site.call) in known or any(k.arg is None for k in site.call.keywords):
                continue
            fresh = helper_config_arg(site.call, kind) is None if kind in HELPERS else False
            if kind == "npu_config_proto" and fresh:
                # npu_config_proto() only builds a config; GE starts where a session takes it. Kept in a
                # name (`config = npu_config_proto()`), the config is the script's own and may get the
                # profiling options later: only `tf.Session(config=npu_config_proto())` starts GE without them
                if not _direct_argument(self.ctx.sites, site.call):
                    continue
            if kind == "set_keras_session_npu_config" and not self._keras_run_shown():
                continue                # its session is never run here: not known to start GE at all
            if kind in ("init_resource", "set_keras_session_npu_config") or (kind == "npu_config_proto" and fresh):
                what = f"{kind}() with a fresh config" if fresh else f"{kind}() with a config without profiling"
                self.inits.append(GeInit(site.call, self.line_col(site.call)[0], what, None))


def _either(setup, first: str, second: str) -> List[ParamSet]:
    """setup.params[first], else [second] (the caller knows one of them is set)."""
    found = setup.params.get(first, setup.params.get(second))
    assert found is not None
    return found


def _direct_argument(sites, call: ast.Call) -> bool:
    """Whether the call is written directly as an argument of another call (`f(x())`, `f(k=x())`, `f(**x())`),
    from its parent in the walk (a walk of the whole tree for the calls' arguments cost about 15 M instructions
    on each of the two files of the README's setup sample that asked)."""
    up = sites.parent.at(call)
    if type(up) is ast.keyword:         # a keyword's parent in the walk is its call (a class's: never walked)
        return True
    return type(up) is ast.Call and up.func is not call


def _route_nodes(rs) -> list:
    return [rs.anchor] + [a.node for a in (rs.mode, rs.options) if a is not None] + \
        [a.anchor for a in (rs.mode, rs.options) if a is not None]


def env_mode_of(texts) -> Mode:
    """PROFILING_MODE as GE compares it (exactly "true"), from its candidate values."""
    texts = set(texts)
    value = next(iter(texts)) if len(texts) == 1 else None     # the text, for messages
    if texts == {"true"}:
        return Mode("on", "", "true")
    if texts == {"dynamic"}:
        return Mode("off", "PROFILING_MODE=dynamic is msprof's attach mode: GE does not start collection from "
                    "PROFILING_OPTIONS", value)
    if "true" in texts:
        return Mode("on", "in one of its branches")
    bad = sorted(t for t in texts if t not in MODE_VALUES)
    if bad:
        return Mode("off", f"PROFILING_MODE is {bad[0]!r}; GE switches profiling on only for exactly \"true\"",
                    value)
    return Mode("off", f"PROFILING_MODE is {sorted(texts)[0]!r}", value)


def shell_setups(text: str, sets) -> List[ScriptSetup]:
    """The PROFILING_* assignments of a shell launcher, as one env setup (the last values win).
    sets: the launcher's assignments as shell/words.assignments reads them (a layer above this one)."""
    if not sets:
        return []
    modes = [s for s in sets if s.name == ENV_MODE]
    opts = [s for s in sets if s.name == ENV_OPTIONS]
    texts = {s.value.text for s in modes}
    if len(texts) > 1:
        # branches (`if ...; then ...=true; else ...=false; fi`) are not followed: say nothing certain
        mode = Mode("unknown", "PROFILING_MODE is set to different values in this launcher")
    elif modes:
        t = modes[-1].value.text
        mode = Mode("unknown", "PROFILING_MODE cannot be determined statically") if HOLE in t else env_mode_of({t})
    else:
        mode = Mode("inherit", "PROFILING_MODE is not set by the launcher")
    options = OptionsArg("absent")
    if opts:
        value: StrValue = opts[-1].value
        options = OptionsArg("given", Strings((value,), "str"))
    anchor = (modes or opts)[-1]
    column = anchor.start - (max(text.rfind("\n", 0, anchor.start), text.rfind("\r", 0, anchor.start)) + 1)
    return [ScriptSetup("env", anchor.line, column, mode, options, None, "yes", ())]


def build(ctx) -> Model:
    inventory = Inventory(ctx)
    model = Model(inventory.setups, inventory.late)
    first = first_init(inventory.inits, inventory.order)
    for k, setup in enumerate(model.setups):
        if overridden_by(setup, first, inventory.order):
            model.states[k] = State(OFF, "overridden", f"GE is initialised first at line {first.line}")
    return model
