"""Which code runs from the entry point, and under which conditions.

When a script runs, its module's top level runs (the `if __name__ == "__main__":` block included),
`tf.app.run()` / `tf.compat.v1.app.run()` / absl `app.run(main)` call `main`, and every function a
reached scope names (a call, or a function handed over as a callback: `model_fn=model_fn`) may run,
under the `if`s on the way to that name. A function nothing reached names does not run: a
profiling setup in it does not decide what the run collects.

Computed once per file from what the sites walk recorded (each Name/Attribute load with its scope
and guards, the scopes of the function and class definitions): no second walk of the tree.
Over-approximate where it must be, so that "not reached" is never said of code that may run:
a method is reached when any reached scope names an attribute of its name; every method of a class
with a base from elsewhere (a framework calls its hooks) or with decorators is reached once the
class is named; a decorated function (a registration) is reached once its definition runs;
lambdas run with the scope around them.

A file whose entry point cannot be determined (no main guard, no top-level `app.run` / `main()`,
no argument parsing at module level: a module other code imports) says None, not False, for what
its top level does not reach; so does a file that calls functions by computed names (`globals()`,
`getattr(obj, name)`, `eval`, `fire.Fire()`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, AbstractSet, Any, Dict, List, NamedTuple, Optional, Tuple

from ..source.imports import qualified
from ..source.site_records import main_test as _main_test
from ..source.sites import call_name, dotted

if TYPE_CHECKING:
    from .pytest_config import PytestSetup

APP_RUN = ("app.run", "absl.app.run")
ARG_PARSING = ("parse_args", "parse_known_args")
# Decorators that do not register the function anywhere: it still runs only when named.
PLAIN_DECORATORS = ("staticmethod", "classmethod", "property", "setter", "getter", "deleter", "function",
                    "wraps", "lru_cache", "cache", "cached_property", "abstractmethod", "contextmanager",
                    "overload", "override", "jit")
DYNAMIC_CALLS = ("globals", "eval", "exec", "Fire")      # functions called by a name computed at run time
# As an attribute only `fire.Fire` and `builtins.eval` are those: `model.eval()` (torch's evaluation mode) is not.
DYNAMIC_ATTRIBUTES = ("Fire",)
# test runners that run every TestCase of the module they are called in (torch_npu.testing's run_tests() calls
# unittest.main(); tf.test.main() and absltest.main() run googletest's, which is unittest's)
TEST_RUNNERS = ("unittest.main", ".run_tests", "absltest.main", "tf.test.main", "googletest.main")
# the methods of a TestCase a runner calls by itself: its tests (named test*, as unittest's loader and pytest find
# them; `runTest` where there are none), its hooks, and any dunder (a helper of another name runs only when called)
TEST_HOOKS = ("runTest", "setUp", "tearDown", "setUpClass", "tearDownClass", "asyncSetUp", "asyncTearDown", "run",
              "debug", "doCleanups", "doClassCleanups", "shortDescription", "id")
# `pytest.main([__file__])` runs this file's tests by pytest's collection rules (pytest 9.2 on python 3.11: module-level
# functions named test*, classes named Test* without an __init__ or __new__ and their methods named test*, unittest's
# TestCases; `async def` tests only with a plugin); these flags beside it change nothing of what runs
PYTEST_FLAGS = ("-s", "-v", "-vv", "-q", "-qq", "--verbose", "--quiet", "--capture=no")
PYTEST_HOOKS = ("setup_module", "teardown_module", "setup_function", "teardown_function")
PYTEST_CLASS_HOOKS = ("setup_method", "teardown_method", "setup_class", "teardown_class")
# pytest's own fixtures, each listed by `pytest --fixtures` in pytest 9.2 (run here; its newer capteesys and subtests
# left out), `request` besides; record_testsuite_property, the newest of these, came with pytest-dev/pytest 73bbff2
# (issue #5202), so an older pytest lacks it. A test's parameter of another name needs a fixture of that name, from
# this file or elsewhere (a conftest.py, a plugin), or pytest fails the test without running it
PYTEST_FIXTURES = ("request", "capsys", "capsysbinary", "capfd", "capfdbinary", "caplog", "monkeypatch", "recwarn",
                   "tmp_path", "tmp_path_factory", "tmpdir", "tmpdir_factory", "pytestconfig", "doctest_namespace",
                   "record_property", "record_xml_attribute", "record_testsuite_property")
NOSE_HOOKS = ("setup", "teardown")      # pytest before 8 called these too (its nose support), 8 does not
# unittest's TestCase classes not spelled TestCase, recognised where imported from unittest
UNITTEST_BASES = ("IsolatedAsyncioTestCase",)
MAX_ALTERNATIVES = 3            # conditions of different paths joined with "or", then "one of several"


def is_main_guard(guard) -> bool:
    """`if __name__ == "__main__":` runs whenever the script is launched: not a condition."""
    t = guard.test
    return not guard.negated and _main_test(t)


class Path(NamedTuple):
    """How a scope is reached: the `if`s on the way (texts), and, when they are one path's, the guards
    themselves with the scope and position they are read at (so a launch's flags can decide them)."""
    texts: Tuple[str, ...] = ()
    guards: Tuple[tuple, ...] = ()          # (Guard, Scope, pos) per text; () when texts is a disjunction
    exact: bool = True                      # guards stand for texts one to one
    # the line of a `try` with handlers around a call on the way (0: none): an exception raised here may
    # be caught there; on one way at least, so a stop is never claimed for code a caller's handler may save
    caught: int = 0
    # a disjunction's ways in, each the conditions of one (texts is their text); () for one way's path
    alts: Tuple[Tuple[str, ...], ...] = ()

    def extended(self, more: "Path") -> "Path":
        texts = self.texts + tuple(t for t in more.texts if t not in self.texts)
        keep = [g for g, t in zip(more.guards, more.texts) if t not in self.texts]
        return Path(texts, self.guards + tuple(keep), self.exact and more.exact, self.caught or more.caught)

    def merged(self, other: "Path") -> "Path":
        """Either path leads here: no condition if one has none, else one condition that says "or"."""
        caught = self.caught or other.caught
        if not self.texts or not other.texts:
            return Path(caught=caught)
        if self.texts == other.texts:
            return self._replace(caught=caught)
        ways = _simplest(list(dict.fromkeys(_ways_in(self) + _ways_in(other))))
        alts = [" and ".join(w) for w in ways]
        if not all(ways) or (len(alts) == 2 and f"not ({alts[0]})" == alts[1]):
            return Path(caught=caught)      # the two arms of one `if`/`else` (mp.spawn(main_worker) or main_worker())
        if len(ways) == 1:
            return Path(ways[0], (), False, caught, tuple(ways))
        text = " or ".join(f"({a})" for a in alts) if len(alts) <= MAX_ALTERNATIVES else \
            "one of several conditions"
        return Path((text,), (), False, caught, tuple(ways) if len(alts) <= MAX_ALTERNATIVES else ())


def _ways_in(p: Path) -> List[Tuple[str, ...]]:
    if p.alts:
        return list(p.alts)
    if not p.exact and len(p.texts) == 1 and p.texts[0].startswith("("):
        return [(a.strip()[1:-1],) for a in _split_or(p.texts[0])]
    return [p.texts]


def _simplest(ways: List[Tuple[str, ...]]) -> List[Tuple[str, ...]]:
    """Ways in with fewer conditions where the "or" of them says the same: (p and q) or (p and not (q)) is p, and
    p or (p and q) is p. Retinaface (ModelZoo-PyTorch) reaches main_worker through mp.spawn in `if args.distributed:`
    under `if args.device == 'npu':` and its else, and through a plain call in the outer else: every run reaches it,
    where three conditions were shown."""
    ways = [tuple(dict.fromkeys(w)) for w in ways]
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(ways):
            for j, b in enumerate(ways):
                if i == j:
                    continue
                only_a, only_b = set(a) - set(b), set(b) - set(a)
                if not only_a:                  # a's conditions are all b's: b adds nothing to a
                    del ways[j]
                elif len(only_a) == 1 and len(only_b) == 1 and _opposite(next(iter(only_a)), next(iter(only_b))):
                    ways[i] = tuple(c for c in a if c not in only_a)
                    del ways[j]
                else:
                    continue
                changed = True
                break
            if changed:
                break
    return ways


def _opposite(a: str, b: str) -> bool:
    """The test of an `if` and of its `else` (guard_text writes the latter `not (...)`)."""
    return b == f"not ({a})" or a == f"not ({b})"


def all_of(texts) -> str:
    """Conditions that all hold, as one text: one with an "or" at its top level (two ways in, `if a or b:`) in
    parentheses when it is joined with others, or "c and (a) or (b)" would read as "(c and a) or b"."""
    texts = tuple(texts)
    if len(texts) < 2:
        return "".join(texts)
    return " and ".join(f"({t})" if len(_split_or(t)) > 1 else t for t in texts)


def _split_or(text: str) -> List[str]:
    """The "(a) or (b)" parts of a joined condition, at the top level of its parentheses."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += (c == "(") - (c == ")")
        if depth == 0 and text.startswith(" or ", i):
            out.append(text[start:i])
            start = i + 4
    out.append(text[start:])
    return out


class Entry(NamedTuple):
    line: int
    what: str           # `if __name__ == "__main__":`, `tf.app.run()`, `main()`, `parse_args()`


class Reach:
    """Reached (True), not reached from the entry point (False) or not known (None), per node.

    Demand-driven: a question about a scope computes the ways into it and into every scope on those ways
    (the scopes that may reach it, closed under "may reach"), and runs the propagation over those alone.
    What reaches into such a closed set comes only from inside it, and the propagation visits its scopes in
    the order the whole run does, so their answers are the whole run's; the loads asked for are the names of
    those scopes only, not of every function the file defines (each one a search of the file's text and a
    walk of the statements that name it). Once the runs have propagated over as many scopes as the file
    holds, the whole file is computed at once (many setups in as many functions would otherwise cost a run
    each)."""

    def __init__(self, sites):
        self.sites = sites
        self.entry: Optional[Entry] = _entry(sites.module.node)
        self.paths: Dict[int, Path] = {id(sites.module): Path()}    # id(scope) -> how it is reached (scopes in _closed)
        self._closed: Dict[int, Any] = {id(sites.module): sites.module}     # answered scopes (module: always)
        self._dynamic: Optional[bool] = None
        self.dynamic_at: Optional[Tuple[int, str]] = None      # the first reached such call: line, what it is
        self._spent = 0                         # scopes propagated over by the runs so far
        self._loads: Dict[str, list] = {}       # name -> its loads (Name and Attribute), in walk order
        self._ways: Dict[int, Path] = {}        # id(reference) -> the way through it (_guards)
        defined: Dict[int, Dict[str, list]] = {}        # id(scope) -> name -> scopes defined right in it
        methods: Dict[str, list] = {}                   # method name -> its function scopes
        members: Dict[int, list] = {}                   # id(class scope) -> its method scopes
        inner: Dict[int, list] = {}                     # id(scope) -> class, lambda and registered scopes in it
        self.skipped: Dict[int, ast.expr] = {}          # id(function scope) -> its @unittest.skip: never runs
        self._tests_run: Optional[bool] = None
        self._pytest: Optional[bool] = None
        self._pytest_read: Optional["PytestSetup"] = None     # what pytest reads besides the file (pytest_config)
        self.when: Dict[int, Path] = {}                 # id(function scope) -> what its skipIf/skipUnless needs to run
        classes = {s.node.name: s.node for s in sites.scopes if s.kind == "class" and s.parent is sites.module}
        self._classes = classes
        for s in sites.scopes:
            parent = s.parent
            if parent is None:
                continue
            if s.kind in ("function", "class"):
                defined.setdefault(id(parent), {}).setdefault(s.node.name, []).append(s)
            if s.kind == "function" and parent.kind == "class":
                methods.setdefault(s.node.name, []).append(s)
                members.setdefault(id(parent), []).append(s)
            skip = _unittest_skip(s.node, sites.module.node) if s.kind == "function" else None
            when = _skip_unless(s.node, sites.module.node) if s.kind == "function" else ()
            if s.kind == "function" and parent.kind == "class":
                # a class's skipIf/skipUnless holds for each of its tests
                when += _skip_unless(parent.node, sites.module.node)
            pytest_test = s.kind == "function" and self._pytest_test(s, classes)
            if pytest_test:     # pytest's own skip marks, on the test or its class
                skip = skip or _pytest_skip(s.node, sites)
                when += _pytest_skip_unless(s.node, sites)
                if parent.kind == "class":
                    when += _pytest_skip_unless(parent.node, sites)
            if when:
                self.when[id(s)] = Path(when, (), False)
            if skip is not None:
                self.skipped[id(s)] = skip
            elif s.kind in ("class", "lambda") or (s.kind == "function" and _registered(s.node, sites)) or \
                    (s.kind == "function" and parent.kind == "class" and _run_by_runner(s.node.name) and
                     _test_case(parent.node, classes, sites.module.node) and
                     _unittest_skip(parent.node, sites.module.node) is None and
                     self._runs_tests()) or pytest_test:
                # a TestCase's tests and hooks, in a file that runs unittest (`unittest.main()`, torch_npu's
                # `run_tests()`): it finds and runs them without naming the class, unless the class is skipped
                inner.setdefault(id(parent), []).append(s)
        self._defined, self._methods, self._members, self._inner = defined, methods, members, inner
        self._maybe_tests: Optional[str] = None     # why a test runner may run tests this file cannot place (known)
        self._local_classes = {s.node.name for s in sites.scopes if s.kind == "class"}
        # the loads the propagation acts on: a name some scope defines or a dynamic or getattr-like call, an
        # attribute named like a method or a dynamic call (the others it passes over, in order)
        self._named = {name for names in defined.values() for name in names}
        self._named.update(DYNAMIC_CALLS, ("getattr", "hasattr", "setattr"))
        self._implicit: Optional[Dict[int, Tuple[Any, list]]] = None    # `tf.app.run()` without a main: it calls `main`

    # ---- answers

    def scope_path(self, scope) -> Optional[Path]:
        if scope is None:
            return None
        self._answer((scope,))
        return self.paths.get(id(scope))

    def _runs_tests(self) -> bool:
        """Whether the file's own top level (its main guard too) calls a test runner that runs every TestCase of the
        module (_runners)."""
        if self._tests_run is None:
            self._tests_run = any(site.scope is self.sites.module for site in self._runners()) or self._pytest_runs()
        return self._tests_run

    def _pytest_calls(self) -> list:
        # (a text without the word has none: asking for the calls named main would walk every statement naming it)
        if not self.sites.may_hold("pytest"):
            return []
        return [site for site in self.sites.calls_named("main") if pytest_name(self.sites, site.call.func) ==
                "pytest.main"]

    def _pytest_runs(self) -> bool:
        """Whether the file's top level (its main guard too) runs pytest on this file alone, under no condition:
        `pytest.main([__file__])` (PYTEST_FLAGS beside it)."""
        if self._pytest is None:
            module = self.sites.module
            self._pytest = any(site.scope is module and _pytest_on_file(site) for site in self._pytest_calls()) \
                and not self._pytest_setup().why
        return self._pytest

    def _pytest_setup(self) -> "PytestSetup":
        """What pytest reads besides the file, from its folder up (pytest_config): only where the file runs pytest on
        itself, and only where its path is known (imported here: most files never ask)."""
        if self._pytest_read is None:
            from .pytest_config import PytestSetup, pytest_setup
            self._pytest_read = pytest_setup(self.sites.path) if self.sites.path and any(
                site.scope is self.sites.module and _pytest_on_file(site) for site in self._pytest_calls()) else \
                PytestSetup()
        return self._pytest_read

    def _pytest_test(self, s, classes) -> bool:
        """A function pytest runs by itself when the file runs pytest on itself: a module-level test* or hook, a test*
        or hook of a Test* class it collects (a class skip mark: none of them); not an `async def` (maybe_tests)."""
        name, parent, node = s.node.name, s.parent, s.node
        if isinstance(node, ast.AsyncFunctionDef):
            return False
        if parent is self.sites.module:
            return name in PYTEST_HOOKS and self._pytest_runs() or \
                self._pytest_runs() and self._pytest_setup().test(name)
        return parent.kind == "class" and parent.parent is self.sites.module and self._pytest_runs() and \
            (name in PYTEST_CLASS_HOOKS or self._pytest_setup().test(name)) and \
            self._pytest_class(parent.node) is True and _pytest_skip(parent.node, self.sites) is None

    def _pytest_class(self, node: ast.ClassDef) -> Optional[bool]:
        """Whether pytest collects a class's tests as a plain class: named as python_classes says (Test*), with no
        __init__ or __new__ of its own or of a base (pytest warns and passes over it); None where a base is from
        elsewhere or a metaclass is given."""
        return self._pytest_setup().test_class(node.name) and _no_init(node, self._classes, frozenset())

    def _pytest_unknown(self) -> str:
        """Why pytest, called by this file, may run tests of it this file cannot place, else ""."""
        calls = self._pytest_calls()
        if not calls:
            return ""
        module = self.sites.module
        read = self._pytest_setup()
        if read.why:
            line = next(site.call.lineno for site in calls if site.scope is module and _pytest_on_file(site))
            return f"pytest.main at line {line} {read.why}"
        test = read.test
        tests = [n for n in module.node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and
                 (test(n.name) or n.name in NOSE_HOOKS) or isinstance(n, ast.ClassDef) and
                 any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and test(f.name)
                     for f in n.body)]
        if not tests:
            return ""
        for site in calls:
            if site.scope is not module:
                return (f"pytest.main is called in a function (line {site.call.lineno}), which may run the tests of "
                        "this file")
            if _pytest_on_file(site):
                continue
            line = site.call.lineno
            if not site.call.args and not site.call.keywords:
                return (f"pytest.main() at line {line} runs the tests the command line names, else those of the "
                        "folder it starts in, which may be this file's")
            conditions = guard_text(g for g in site.guards if not is_main_guard(g))
            if conditions:
                return f"pytest.main at line {line} runs the tests of this file when {all_of(conditions)}"
            return f"pytest.main at line {line} runs what its arguments select, which may be tests of this file"
        for n in tests:
            if isinstance(n, ast.ClassDef):
                if self._pytest_class(n) is not True or _pytest_skip(n, self.sites) is not None:
                    continue
                found = [f for f in n.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
            else:
                found = [n]
            for f in found:
                if isinstance(f, ast.AsyncFunctionDef) and test(f.name):
                    return f"pytest runs the async test {f.name} (line {f.lineno}) only with a plugin for it"
                needed = _fixtures_needed(f, isinstance(n, ast.ClassDef), module.node) if \
                    test(f.name) else []
                if needed:
                    return (f"pytest runs {f.name} (line {f.lineno}) only where a fixture named {needed[0]} exists (a "
                            "conftest.py's, a plugin's): without one pytest reports an error and does not run it")
                if f.name in NOSE_HOOKS:
                    return f"pytest before 8 calls {f.name} (line {f.lineno}) before or after the tests, 8 does not"
        return ""

    def _runners(self) -> list:
        """The calls of a test runner that runs every TestCase of the module (TEST_RUNNERS), not told which to run
        (`unittest.main(defaultTest="TestB")`, its second argument: those only)."""
        own = {n.name for n in getattr(self.sites.module.node, "body", ())     # (a `def run_tests():` of its own)
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        return [site for name in ("main", "run_tests") for site in self.sites.calls_named(name)
                if ((site.name or "").endswith(TEST_RUNNERS) or site.name == "run_tests" and "run_tests" not in own)
                and len(site.call.args) < 2 and all(k.arg != "defaultTest" for k in site.call.keywords)]

    def skipped_by(self, node) -> Optional[ast.expr]:
        """The `@unittest.skip(...)` of the function node is in (the innermost such), else None."""
        scope = self.sites.scope_of.at(node, self.sites.module)
        while scope is not None:
            if id(scope) in self.skipped:
                return self.skipped[id(scope)]
            scope = scope.parent
        return None

    def of(self, node) -> Optional[bool]:
        scope = self.sites.scope_of.at(node, self.sites.module)
        self._answer((scope,))
        if id(scope) in self.paths:
            return True
        return False if self.known else None

    def path(self, node) -> Path:
        scope = self.sites.scope_of.at(node, self.sites.module)
        self._answer((scope,))
        return self.paths.get(id(scope)) or Path()

    @property
    def known(self) -> bool:
        """Whether "not reached" can be said: the entry point is known, no name is computed at run time, and no test
        runner may run tests the file cannot place (maybe_tests)."""
        return self.entry is not None and not self.dynamic and not self.maybe_tests

    @property
    def maybe_tests(self) -> str:
        """Why a test runner the file calls may run tests this file cannot place, else "": a class with test* methods
        whose base is defined elsewhere (`class TestX(common.Base)`: a TestCase or not), or a TestCase's where the
        runner is called in a function (whether that runs is not worked out here)."""
        if self._maybe_tests is None:
            self._maybe_tests = self._pytest_unknown() if self.entry is not None else ""
            if self._maybe_tests:
                return self._maybe_tests
            inner = None if self.entry is None or self._runs_tests() else \
                next((site for site in self._runners() if site.scope is not self.sites.module), None)
            if self.entry is not None and (self._runs_tests() or inner is not None):
                for s in self.sites.scopes:
                    node = s.node
                    if s.kind != "class" or _unittest_skip(node, self.sites.module.node) is not None or \
                            not any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and
                                    f.name.startswith("test") for f in node.body):
                        continue
                    if _test_case(node, self._classes, self.sites.module.node):
                        if inner is not None:
                            self._maybe_tests = (f"a test runner is called in a function (line {inner.call.lineno}: "
                                                 f"{inner.name}), which may run the tests of {node.name} (line "
                                                 f"{node.lineno})")
                            break
                        continue
                    base = next((dotted(b) or ast.unparse(b) for b in node.bases
                                 if (dotted(b) or "") not in self._classes and dotted(b) != "object"), None)
                    if base is not None:
                        self._maybe_tests = (f"the test runner may run the tests of {node.name} (line {node.lineno}), "
                                             f"whose base {base} is not defined in this file")
                        break
        return self._maybe_tests

    @property
    def dynamic(self) -> bool:
        """Whether a reached scope calls functions by a computed name (`globals()`, `eval`, `getattr(obj,
        name)`, `fire.Fire()`): then what is not reached cannot be told."""
        if self._dynamic is None:
            holders = []
            for node, scope in self._loads_of(DYNAMIC_CALLS + ("getattr",)):
                if type(node) is ast.Name:
                    if node.id in DYNAMIC_CALLS or (node.id == "getattr" and
                                                    any(True for _ in _dynamic_getattrs(scope, (node,), self.sites))):
                        holders.append((node, scope, f"`{node.id}()`"))
                elif _dynamic_attribute(node):
                    holders.append((node, scope, f"`{ast.unparse(node)}()`"))
            self._answer([scope for _, scope, _ in holders])
            reached = [(node, what) for node, scope, what in holders if id(scope) in self.paths]
            self._dynamic = bool(reached)
            if reached:
                self.dynamic_at = (reached[0][0].lineno, reached[0][1])
        return self._dynamic

    def unknown_why(self) -> str:
        """Why "not reached" cannot be said of this file (when it cannot)."""
        if self.entry is None:
            return "this file has no entry point (no main guard, no top-level call)"
        if self.maybe_tests:
            return self.maybe_tests
        _ = self.dynamic
        line, what = self.dynamic_at or (0, "a call")
        return f"this file runs code by a name computed at run time ({what} at line {line})"

    def unreached(self) -> List[ast.stmt]:
        """The outermost function and class definitions the entry point does not reach (when that is known)."""
        if not self.known:
            return []
        self._answer(self.sites.scopes)
        out = []
        for s in self.sites.scopes:
            if s.kind in ("function", "class") and id(s) not in self.paths and \
                    (s.parent is None or id(s.parent) in self.paths):
                out.append(s.node)
        return out

    def outermost_unreached(self, scopes) -> List[bool]:
        """For each function or class scope: whether it is among those unreached() names when known is True."""
        self._answer([s for scope in scopes for s in (scope, scope.parent) if s is not None])
        paths = self.paths
        return [id(s) not in paths and (s.parent is None or id(s.parent) in paths) for s in scopes]

    # ---- the computation

    def _answer(self, scopes) -> None:
        """Close the answered set over these scopes (every scope that may reach one of them), and propagate."""
        closed = self._closed
        todo = [s for s in scopes if id(s) not in closed]
        if not todo:
            return
        if self._spent > len(self.sites.scopes):
            # the runs so far propagated over as many scopes as the file has: the whole file at once
            todo = [s for s in self.sites.scopes if id(s) not in closed]
        while todo:
            scope = todo.pop()
            if id(scope) in closed:
                continue
            closed[id(scope)] = scope
            todo.extend(s for s in self._ways_in(scope) if id(s) not in closed)
        self._spent += len(closed)
        self._run()

    def _loads_of(self, names) -> list:
        """The loads whose last identifier is one of names, in walk order."""
        return self.sites.loads_with_last(names)

    def _mentions(self, name: str) -> list:
        """(node, scope) of each way the propagation reads a name: its Name loads, and for `main` the
        `app.run()` calls without one."""
        found = self._loads.get(name)
        if found is None:
            Name = ast.Name
            found = [(node, scope) for node, scope in self._loads_of((name,)) if type(node) is Name]
            if name == "main":
                found += [(call, site_scope) for site_scope, calls in self._implicit_calls() for call in calls]
            self._loads[name] = found
        return found

    def _implicit_calls(self) -> List[Tuple[Any, list]]:
        if self._implicit is None:
            sites = self.sites
            implicit: Dict[int, Tuple[Any, list]] = {}
            for site in sites.calls_named("run"):
                if _runs_main(site.call, site.name or "", sites.module.node):
                    implicit.setdefault(id(site.scope), (site.scope, []))[1].append(site.call)
            self._implicit = implicit
        return list(self._implicit.values())

    def _ways_in(self, target) -> list:
        """The scopes whose propagation may reach target (as _run does it)."""
        parent = target.parent
        if parent is None or id(target) in self.skipped:
            return []               # (a skipped test's body never runs, whoever names it)
        out = []
        if target in self._inner.get(id(parent), ()):
            out.append(parent)                  # runs with its scope (or registered when defined)
        if target.kind not in ("function", "class"):
            return out
        name = target.node.name
        defined = self._defined
        out.extend(scope for _, scope in self._mentions(name)
                   if any(s is target for s in _visible(defined, scope, name)))
        if target.kind == "function" and parent.kind == "class":     # a method: named as an attribute
            out.extend(scope for node, scope in self._loads_of((name,)) if type(node) is not ast.Name)
            for getter in ("getattr", "hasattr", "setattr"):
                out.extend(scope for node, scope in self._mentions(getter)
                           if _named_attribute(node, self.sites) == [name])
            if _dunder(name) or _open_class(parent.node, self._local_classes):
                klass = parent.node.name
                out.extend(scope for _, scope in self._mentions(klass)
                           if any(s is parent for s in _visible(defined, scope, klass)))
        return out

    def _run(self) -> None:
        """The propagation from the module over the closed set (the whole file's once every scope is in it)."""
        sites, closed = self.sites, self._closed
        defined, methods, members, inner = self._defined, self._methods, self._members, self._inner
        named = self._named
        # the names the closed scopes are read by (their own, their classes', the getattr-likes for a method)
        words = set()
        for scope in closed.values():
            if scope.kind in ("function", "class") and scope.parent is not None:
                words.add(scope.node.name)
                if scope.parent.kind == "class":
                    words.update(("getattr", "hasattr", "setattr", scope.parent.node.name))
        refs: Dict[int, list] = {}
        Name = ast.Name
        for node, scope in self._loads_of(sorted(words)):
            if id(scope) in closed and \
                    ((node.id in named) if type(node) is Name else (node.attr in methods or _dynamic_attribute(node))):
                refs.setdefault(id(scope), []).append(node)
        implicit = {id(scope): calls for scope, calls in self._implicit_calls()} if "main" in words else {}
        guards_of, pos, ways = sites.guards_of, sites.pos, self._ways

        self.paths = paths = {id(sites.module): Path()}
        todo = [sites.module]
        changes: Dict[int, int] = {}

        skipped, when = self.skipped, self.when

        def reach(scope, path: Path) -> None:
            if id(scope) not in closed or id(scope) in skipped:
                return                  # reaches none of the scopes asked about, or never runs
            if id(scope) in when:
                path = path.extended(when[id(scope)])
            old = paths.get(id(scope))
            new = path if old is None else old.merged(path)
            if old is not None and new == old:
                return
            changes[id(scope)] = changes.get(id(scope), 0) + 1
            if changes[id(scope)] > MAX_ALTERNATIVES + 3:
                new = Path(("one of several conditions",), (), False, new.caught) if new.texts else new
                if new == old:
                    return
            paths[id(scope)] = new
            todo.append(scope)

        def way(node, scope, here: Path) -> Path:
            found = ways.get(id(node))
            if found is None:
                found = ways[id(node)] = _guards(guards_of.at(node, ()), scope, pos.at(node, 0), node, sites)
            return here.extended(found)

        while todo:
            scope = todo.pop()
            here = paths[id(scope)]
            for s in inner.get(id(scope), ()):
                reach(s, here)          # class bodies and lambdas run with their scope; registrations are kept
            for node in refs.get(id(scope), []) + implicit.get(id(scope), []):
                # what the name may mean first: most loads name nothing of this file, and their
                # conditions (source text) are not worth building
                if type(node) is ast.Name or type(node) is ast.Call:
                    name = node.id if type(node) is ast.Name else "main"
                    called = [m for attr in _named_attribute(node, sites) for m in methods.get(attr, ())]
                    targets = _visible(defined, scope, name)
                    if not called and not targets:
                        continue
                    on_way = way(node, scope, here)
                    for m in called:            # getattr(obj, "method")
                        reach(m, on_way)
                    for target in targets:
                        reach(target, on_way)
                        if target.kind == "class":
                            for m in members.get(id(target), ()):
                                if _dunder(m.node.name) or _open_class(target.node, self._local_classes):
                                    reach(m, on_way)
                else:
                    called = methods.get(node.attr, [])
                    if not called:
                        continue
                    on_way = way(node, scope, here)
                    for m in called:
                        reach(m, on_way)


def guard_text(guards) -> Tuple[str, ...]:
    """The guards' tests as source text (`not (...)` in an else branch); constant tests (always true
    here: the sites walk drops branches that never run) are left out."""
    out = []
    for g in guards:
        if isinstance(g.test, ast.Constant):
            continue
        test, negated = g.test, g.negated
        if negated and isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, negated = test.operand, False         # not (not x): x
        # a name or a dotted name (`args.profiling`: half of them) as unparse writes it, without its visitor
        text = dotted(test)
        if text is None:
            try:
                text = ast.unparse(test)
            except Exception:           # ast.unparse exists from 3.9; never fail on it
                text = "a condition"
        out.append(f"not ({text})" if negated else text)
    return tuple(out)


def _guards(guards, scope, pos: int, node, sites) -> Path:
    """The way through the reference `node`: the `if`s it is under and the `try` that may catch what it raises."""
    caught = sites.try_around(node)
    kept = tuple(g for g in guards if not is_main_guard(g) and not isinstance(g.test, ast.Constant))
    if not kept:
        return Path(caught=caught)
    texts = guard_text(kept)
    return Path(texts, tuple((g, scope, pos) for g in kept), True, caught)


def _visible(defined, scope, name: str) -> list:
    """The definitions a name used in scope means, by Python's rules (a method body skips its class)."""
    s, first = scope, True
    while s is not None:
        if first or s.kind != "class":
            found = defined.get(id(s), {}).get(name)
            if found:
                return found
        first = False
        s = s.parent
    return []


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _open_class(node: ast.ClassDef, local: AbstractSet[str]) -> bool:
    """A class whose methods others call by name: a base from elsewhere (a framework's hooks), or decorators."""
    if node.decorator_list or node.keywords:
        return True
    for b in node.bases:
        name = b.id if isinstance(b, ast.Name) else None
        if name is None or (name not in local and name != "object"):
            return True
    return False


def _test_case(node: ast.ClassDef, classes: Dict[str, ast.ClassDef], tree,
               seen: AbstractSet[str] = frozenset()) -> bool:
    """A test class unittest runs: a base named TestCase (unittest's, torch_npu.testing's, tf.test's, absltest's),
    unittest's IsolatedAsyncioTestCase (by import: its async test* run too), or a class of the module's top level
    (classes: by name) that is one."""
    for b in node.bases:
        name = dotted(b) or ""
        if name.rsplit(".", 1)[-1] == "TestCase" or _from_unittest(name, UNITTEST_BASES, tree) or \
                (name in classes and name not in seen and _test_case(classes[name], classes, tree, seen | {node.name})):
            return True
    return False


def _from_unittest(name: str, names: Tuple[str, ...], tree) -> str:
    """Which of unittest's names the dotted name is (`unittest.IsolatedAsyncioTestCase`, or the name imported from
    unittest, under its own name or another: a class of the project's of the same name is not), else ""."""
    if name.startswith("unittest.") and name[9:] in names:
        return name[9:]
    for s in getattr(tree, "body", ()):
        if isinstance(s, ast.ImportFrom) and s.module == "unittest":
            for a in s.names:
                if a.name in names and (a.asname or a.name) == name:
                    return a.name
    return ""


def _pytest_on_file(site) -> bool:
    """`pytest.main([__file__])` (or `args=`, PYTEST_FLAGS beside it) under no condition but the main guard."""
    call = site.call
    args = call.args[0] if len(call.args) == 1 and not call.keywords else \
        call.keywords[0].value if not call.args and len(call.keywords) == 1 and call.keywords[0].arg == "args" else None
    if not isinstance(args, (ast.List, ast.Tuple)) or not all(is_main_guard(g) for g in site.guards):
        return False
    files = [e for e in args.elts if isinstance(e, ast.Name) and e.id == "__file__"]
    return bool(files) and all(isinstance(e, ast.Constant) and e.value in PYTEST_FLAGS
                               for e in args.elts if e not in files)


def _fixtures_needed(func, method: bool, tree) -> List[str]:
    """The parameters of a pytest test no fixture of this file or of pytest's own provides, nor a parametrize mark
    (those without a default, after `self`)."""
    args = func.args.posonlyargs + func.args.args
    names = [a.arg for a in args[(1 if method else 0):len(args) - len(func.args.defaults)]] + \
        [a.arg for a, d in zip(func.args.kwonlyargs, func.args.kw_defaults) if d is None]
    if not names:
        return []
    given = set(PYTEST_FIXTURES)
    for n in getattr(tree, "body", ()):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                (dotted(d.func if isinstance(d, ast.Call) else d) or "").endswith("fixture") for d in n.decorator_list):
            given.add(n.name)
    for d in func.decorator_list:
        if isinstance(d, ast.Call) and (dotted(d.func) or "").endswith("parametrize") and d.args and \
                isinstance(d.args[0], ast.Constant) and isinstance(d.args[0].value, str):
            given.update(x.strip() for x in d.args[0].value.split(","))
    return [x for x in names if x not in given]


def _no_init(node: ast.ClassDef, classes: Dict[str, ast.ClassDef], seen: AbstractSet[str]) -> Optional[bool]:
    if node.keywords or any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name in ("__init__", "__new__")
                            for f in node.body):
        return None if node.keywords else False
    out: Optional[bool] = True
    for b in node.bases:
        name = dotted(b) or ""
        if name == "object":
            continue
        if name not in classes or name in seen:
            return None
        found = _no_init(classes[name], classes, seen | {node.name})
        if found is False:
            return False
        out = out and found
    return out


def pytest_mark(sites, decorator: ast.expr) -> bool:
    """Whether a skip decorator (Reach.skipped_by) is pytest's mark, not unittest's."""
    return pytest_name(sites, decorator.func if isinstance(decorator, ast.Call) else decorator) in PYTEST_SKIPS


PYTEST_SKIPS = ("pytest.mark.skip", "pytest.mark.skipif")


def pytest_name(sites, node: ast.expr) -> str:
    """The dotted name an expression gives, through the file's imports where it names an import: `pt.mark.skip` under
    `import pytest as pt`, `mark.skip` under `from pytest import mark` are pytest.mark.skip (as pytest sees them); a
    name imported from elsewhere is that module's, a name not imported (or bound anew after its import) is as spelled."""
    return qualified(sites, node) or dotted(node) or ""


def _pytest_skip(node, sites) -> Optional[ast.expr]:
    """The function's or class's `@pytest.mark.skip` (or a `skipif` with a constant true condition), else None."""
    for d in getattr(node, "decorator_list", ()):
        name = pytest_name(sites, d.func if isinstance(d, ast.Call) else d)
        if name == PYTEST_SKIPS[0] or name == PYTEST_SKIPS[1] and isinstance(d, ast.Call) and \
                len(d.args) == 1 and _bool_constant(d.args[0]) is True:
            return d
    return None


def _pytest_skip_unless(node, sites) -> Tuple[str, ...]:
    """What a `@pytest.mark.skipif(cond, ...)` needs for the test to run: `not (cond)`; "a condition" where it is a
    string pytest evaluates, or several conditions."""
    out: List[str] = []
    for d in getattr(node, "decorator_list", ()):
        if isinstance(d, ast.Call) and pytest_name(sites, d.func) == "pytest.mark.skipif" and \
                not (len(d.args) == 1 and _bool_constant(d.args[0]) is not None):
            text = guard_text((_Test(d.args[0], True),)) if len(d.args) == 1 else ()
            out.extend(text or ("a condition",))
    return tuple(out)


def _bool_constant(e) -> Optional[bool]:
    """A constant's truth, but not a string's (pytest evaluates a string condition as code)."""
    return bool(e.value) if isinstance(e, ast.Constant) and not isinstance(e.value, str) else None


def _run_by_runner(name: str) -> bool:
    """Whether a test runner calls a TestCase's method of this name by itself (TEST_HOOKS)."""
    return name.startswith("test") or name in TEST_HOOKS or (name.startswith("__") and name.endswith("__"))


def _unittest_skip(node, tree) -> Optional[ast.expr]:
    """The function's or class's `@unittest.skip(reason)` (or a skipIf(True, ...) / skipUnless(False, ...)), else
    None: on a function unittest puts one that raises SkipTest in its place, so its body never runs; on a class the
    runner runs none of its tests (skipIf/skipUnless with a condition decide at run time: _skip_unless)."""
    for d in getattr(node, "decorator_list", ()):
        which = _unittest_decorator(d, tree)
        if which == "skip" or which and _constant(d) == (which == "skipIf"):
            return d            # (skipIf(True, ...) and skipUnless(False, ...) are skip(...))
    return None


def _skip_unless(node, tree) -> Tuple[str, ...]:
    """What a `@unittest.skipIf(cond, ...)` / `@unittest.skipUnless(cond, ...)` needs for the function (or the tests of
    the class) to run: `not (cond)` / `cond`, decided when the definition runs."""
    out: List[str] = []
    for d in getattr(node, "decorator_list", ()):
        which = _unittest_decorator(d, tree)
        if which in ("skipIf", "skipUnless") and _constant(d) is None:   # (a constant one: _unittest_skip)
            text = guard_text((_Test(d.args[0], which == "skipIf"),))
            out.extend(text or ("a condition",))
    return tuple(out)


def _unittest_decorator(d, tree) -> str:
    """"skip", "skipIf" or "skipUnless" where the decorator is unittest's (`unittest.skipIf(...)`, or `skipIf(...)`
    imported from unittest under its own name: a `skip` of the project's is not), else ""."""
    name = dotted(d.func if isinstance(d, ast.Call) else d) or ""
    last = name.rsplit(".", 1)[-1]
    if last not in ("skip", "skipIf", "skipUnless") or (last != "skip" and not (isinstance(d, ast.Call) and d.args)):
        return ""
    if name == f"unittest.{last}" or name == last and any(
            isinstance(s, ast.ImportFrom) and s.module == "unittest" and
            any(a.name == last and a.asname in (None, last) for a in s.names) for s in getattr(tree, "body", ())):
        return last
    return ""


def _constant(d) -> Optional[bool]:
    """The truth of a skipIf/skipUnless decorator's condition where it is a constant (`True`, `0`), else None."""
    test = d.args[0] if isinstance(d, ast.Call) and d.args else None
    return bool(test.value) if isinstance(test, ast.Constant) else None


class _Test(NamedTuple):
    """A decorator's condition, as guard_text reads an `if`'s."""
    test: ast.expr
    negated: bool


def _registered(node, sites) -> bool:
    """A function whose decorators may register it to be called from elsewhere (pytest's marks do not: a marked test
    runs only where pytest collects it)."""
    for d in getattr(node, "decorator_list", ()):
        d = d.func if isinstance(d, ast.Call) else d
        last = d.attr if isinstance(d, ast.Attribute) else d.id if isinstance(d, ast.Name) else ""
        if last not in PLAIN_DECORATORS and not _pytest_mark_of(d, sites):
            return True
    return False


def _pytest_mark_of(d, sites) -> bool:
    """`pytest.mark.NAME` under any name (pytest.mark is an object, not a module: it is reached as `X.mark.NAME` or
    as `mark.NAME` imported from pytest, the only spellings looked up)."""
    if not isinstance(d, ast.Attribute):
        return False
    owner = d.value
    if not (isinstance(owner, ast.Attribute) and owner.attr == "mark" or isinstance(owner, ast.Name) and
            owner.id == "mark"):
        return False
    return pytest_name(sites, d).startswith("pytest.mark.")


def _named_attribute(node, sites) -> List[str]:
    """The attribute a `getattr(obj, "name")` / `hasattr(...)` call names by a constant, as a load of it would."""
    if type(node) is not ast.Name or node.id not in ("getattr", "hasattr", "setattr"):
        return []
    call = sites.parent.at(node)
    if isinstance(call, ast.Call) and call.func is node and len(call.args) >= 2 and \
            isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str):
        return [call.args[1].value]
    return []


def _dynamic_attribute(node: ast.Attribute) -> bool:
    """`fire.Fire(...)`, `builtins.eval(...)`: an attribute that runs code by a computed name."""
    return node.attr in DYNAMIC_ATTRIBUTES or node.attr in DYNAMIC_CALLS and \
        isinstance(node.value, ast.Name) and node.value.id in ("builtins", "__builtins__")


def _dynamic_getattrs(scope, refs, sites):
    """`getattr(obj, name)` calls with a computed name in this scope."""
    for node in refs:
        if type(node) is ast.Name and node.id == "getattr":
            call = sites.parent.at(node)
            if isinstance(call, ast.Call) and call.func is node and len(call.args) >= 2 and \
                    not isinstance(call.args[1], ast.Constant):
                yield call


def _entry(tree) -> Optional[Entry]:
    """Where the module shows it is run as a program, from its top-level statements."""
    body = getattr(tree, "body", ())
    # a main guard anywhere decides; without one, the first top-level call that shows a run (two passes: a dense
    # script's top level is long, and the guard is looked for by type alone)
    If = ast.If
    guard = next((stmt for stmt in body if type(stmt) is If and _main_test(stmt.test)), None)
    if guard is not None:
        return Entry(guard.lineno, 'if __name__ == "__main__":')
    kinds = (ast.Expr, ast.Assign, ast.AnnAssign)
    for stmt in body:
        if type(stmt) not in kinds or type(stmt.value) is not ast.Call:
            continue
        name = call_name(stmt.value) or ""
        last = name.rsplit(".", 1)[-1]
        if name.endswith(APP_RUN) or name == "run" and _imports_app_run(tree):
            return Entry(stmt.lineno, f"{name}()")
        if name == "main":
            return Entry(stmt.lineno, "main()")
        if last in ARG_PARSING:
            return Entry(stmt.lineno, f"{last}()")
    return None


def _runs_main(call: ast.Call, name: str, tree) -> bool:
    """`tf.app.run()` / `app.run()` without a main function: absl and TF call the module's `main`."""
    if not (name.endswith(APP_RUN) or name == "run" and _imports_app_run(tree)):
        return False
    return not call.args and not any(k.arg == "main" for k in call.keywords)


def _imports_app_run(tree) -> bool:
    return any(isinstance(s, ast.ImportFrom) and (s.module or "").endswith("app") and
               any(a.name == "run" for a in s.names) for s in getattr(tree, "body", ()))


def reach_of(sites) -> Reach:
    """The file's Reach, computed once and kept with its sites."""
    found = sites.memo.get("reach")
    if found is None:
        found = sites.memo["reach"] = Reach(sites)
    return found
