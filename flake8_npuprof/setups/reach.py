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
from typing import AbstractSet, Dict, List, NamedTuple, Optional, Tuple

APP_RUN = ("app.run", "absl.app.run")
ARG_PARSING = ("parse_args", "parse_known_args")
# Decorators that do not register the function anywhere: it still runs only when named.
PLAIN_DECORATORS = ("staticmethod", "classmethod", "property", "setter", "getter", "deleter", "function",
                    "wraps", "lru_cache", "cache", "cached_property", "abstractmethod", "contextmanager",
                    "overload", "override", "jit")
DYNAMIC_CALLS = ("globals", "eval", "exec", "Fire")      # functions called by a name computed at run time
# As an attribute only `fire.Fire` and `builtins.eval` are those: `model.eval()` (torch's evaluation mode) is not.
DYNAMIC_ATTRIBUTES = ("Fire",)
MAX_ALTERNATIVES = 3            # conditions of different paths joined with "or", then "one of several"


def is_main_guard(guard) -> bool:
    """`if __name__ == "__main__":` runs whenever the script is launched: not a condition."""
    t = guard.test
    return not guard.negated and _main_test(t)


def _main_test(t) -> bool:
    if not (isinstance(t, ast.Compare) and len(t.comparators) == 1 and isinstance(t.ops[0], ast.Eq)):
        return False
    a, b = t.left, t.comparators[0]
    if isinstance(b, ast.Name):
        a, b = b, a
    return isinstance(a, ast.Name) and a.id == "__name__" and isinstance(b, ast.Constant) and b.value == "__main__"


class Path(NamedTuple):
    """How a scope is reached: the `if`s on the way (texts), and, when they are one path's, the guards
    themselves with the scope and position they are read at (so a launch's flags can decide them)."""
    texts: Tuple[str, ...] = ()
    guards: Tuple[tuple, ...] = ()          # (Guard, Scope, pos) per text; () when texts is a disjunction
    exact: bool = True                      # guards stand for texts one to one
    # the line of a `try` with handlers around a call on the way (0: none): an exception raised here may
    # be caught there; on one way at least, so a stop is never claimed for code a caller's handler may save
    caught: int = 0

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
        alts = list(dict.fromkeys(_alternatives(self) + _alternatives(other)))
        text = " or ".join(f"({a})" for a in alts) if len(alts) <= MAX_ALTERNATIVES else \
            "one of several conditions"
        return Path((text,), (), False, caught)


def _alternatives(p: Path) -> List[str]:
    if not p.exact and len(p.texts) == 1 and p.texts[0].startswith("("):
        return [a.strip()[1:-1] for a in _split_or(p.texts[0])]
    return [" and ".join(p.texts)]


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
    """Reached (True), not reached from the entry point (False) or not known (None), per node."""

    def __init__(self, sites):
        self.sites = sites
        self.entry: Optional[Entry] = _entry(sites.module.node)
        self.dynamic = False
        self.dynamic_at: Optional[Tuple[int, str]] = None      # the first such call: line, what it is
        self.paths: Dict[int, Path] = {}        # id(scope) -> how it is reached
        self._run()

    # ---- answers

    def scope_path(self, scope) -> Optional[Path]:
        return self.paths.get(id(scope)) if scope is not None else None

    def of(self, node) -> Optional[bool]:
        scope = self.sites.scope_of.at(node, self.sites.module)
        if id(scope) in self.paths:
            return True
        return False if self.known else None

    def path(self, node) -> Path:
        return self.paths.get(id(self.sites.scope_of.at(node, self.sites.module))) or Path()

    @property
    def known(self) -> bool:
        """Whether "not reached" can be said: the entry point is known and no name is computed at run time."""
        return self.entry is not None and not self.dynamic

    def unknown_why(self) -> str:
        """Why "not reached" cannot be said of this file (when it cannot)."""
        if self.entry is None:
            return "this file has no entry point (no main guard, no top-level call)"
        line, what = self.dynamic_at or (0, "a call")
        return f"this file runs code by a name computed at run time ({what} at line {line})"

    def _dynamic(self, node, what: str) -> None:
        self.dynamic = True
        if self.dynamic_at is None:
            self.dynamic_at = (getattr(node, "lineno", 0), f"`{what}`")

    def unreached(self) -> List[ast.stmt]:
        """The outermost function and class definitions the entry point does not reach (when that is known)."""
        if not self.known:
            return []
        out = []
        for s in self.sites.scopes:
            if s.kind in ("function", "class") and id(s) not in self.paths and \
                    (s.parent is None or id(s.parent) in self.paths):
                out.append(s.node)
        return out

    # ---- the computation

    def _run(self) -> None:
        sites = self.sites
        defined: Dict[int, Dict[str, list]] = {}        # id(scope) -> name -> scopes defined right in it
        methods: Dict[str, list] = {}                   # method name -> its function scopes
        members: Dict[int, list] = {}                   # id(class scope) -> its method scopes
        inner: Dict[int, list] = {}                     # id(scope) -> class, lambda and registered scopes in it
        for s in sites.scopes:
            parent = s.parent
            if parent is None:
                continue
            if s.kind in ("function", "class"):
                defined.setdefault(id(parent), {}).setdefault(s.node.name, []).append(s)
            if s.kind == "function" and parent.kind == "class":
                methods.setdefault(s.node.name, []).append(s)
                members.setdefault(id(parent), []).append(s)
            if s.kind in ("class", "lambda") or (s.kind == "function" and _registered(s.node)):
                inner.setdefault(id(parent), []).append(s)
        refs: Dict[int, list] = {}
        # only the loads the loop below acts on: a name some scope defines or a dynamic or getattr-like
        # call, an attribute named like a method or a dynamic call (the others it passes over, in order)
        named = {name for names in defined.values() for name in names}
        named.update(DYNAMIC_CALLS, ("getattr", "hasattr", "setattr"))
        Name = ast.Name
        for node, scope in sites.loads_with_last(named | set(methods)):
            if (node.id in named) if type(node) is Name else (node.attr in methods or _dynamic_attribute(node)):
                refs.setdefault(id(scope), []).append(node)
        local_classes = {s.node.name for s in sites.scopes if s.kind == "class"}
        implicit: Dict[int, list] = {}                  # `tf.app.run()` without a main: it calls `main`
        for site in sites.calls_named("run"):
            if _runs_main(site.call, site.name or "", sites.module.node):
                implicit.setdefault(id(site.scope), []).append(site.call)
        guards_of, pos, dyn = sites.guards_of, sites.pos, DYNAMIC_CALLS

        todo = [sites.module]
        self.paths[id(sites.module)] = Path()
        changes: Dict[int, int] = {}

        def reach(scope, path: Path) -> None:
            old = self.paths.get(id(scope))
            new = path if old is None else old.merged(path)
            if old is not None and new == old:
                return
            changes[id(scope)] = changes.get(id(scope), 0) + 1
            if changes[id(scope)] > MAX_ALTERNATIVES + 3:
                new = Path(("one of several conditions",), (), False, new.caught) if new.texts else new
                if new == old:
                    return
            self.paths[id(scope)] = new
            todo.append(scope)

        while todo:
            scope = todo.pop()
            here = self.paths[id(scope)]
            for s in inner.get(id(scope), ()):
                reach(s, here)          # class bodies and lambdas run with their scope; registrations are kept
            for node in refs.get(id(scope), []) + implicit.get(id(scope), []):
                # what the name may mean first: most loads name nothing of this file, and their
                # conditions (source text) are not worth building
                if type(node) is ast.Name or type(node) is ast.Call:
                    name = node.id if type(node) is ast.Name else "main"
                    if name in dyn:
                        self._dynamic(node, f"{name}()")
                    called = [m for attr in _named_attribute(node, sites) for m in methods.get(attr, ())]
                    targets = _visible(defined, scope, name)
                    if not called and not targets:
                        continue
                    on_way = here.extended(
                        _guards(guards_of.at(node, ()), scope, pos.at(node, 0), node, sites))
                    for m in called:            # getattr(obj, "method")
                        reach(m, on_way)
                    for target in targets:
                        reach(target, on_way)
                        if target.kind == "class":
                            for m in members.get(id(target), ()):
                                if _dunder(m.node.name) or _open_class(target.node, local_classes):
                                    reach(m, on_way)
                else:
                    name = node.attr
                    if _dynamic_attribute(node):
                        self._dynamic(node, f"{ast.unparse(node)}()")
                    called = methods.get(name, [])
                    if not called:
                        continue
                    on_way = here.extended(
                        _guards(guards_of.at(node, ()), scope, pos.at(node, 0), node, sites))
                    for m in called:
                        reach(m, on_way)
            for call in _dynamic_getattrs(scope, refs.get(id(scope), ()), sites):
                self._dynamic(call, "getattr()")
                break


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
        try:
            text = ast.unparse(test)
        except Exception:               # ast.unparse exists from 3.9; never fail on it
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


def _registered(node) -> bool:
    """A function whose decorators may register it to be called from elsewhere."""
    for d in getattr(node, "decorator_list", ()):
        d = d.func if isinstance(d, ast.Call) else d
        last = d.attr if isinstance(d, ast.Attribute) else d.id if isinstance(d, ast.Name) else ""
        if last not in PLAIN_DECORATORS:
            return True
    return False


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
    found: Optional[Entry] = None
    for stmt in getattr(tree, "body", ()):
        if isinstance(stmt, ast.If) and _main_test(stmt.test):
            return Entry(stmt.lineno, 'if __name__ == "__main__":')
        if found is not None:
            continue
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
        call = value if isinstance(value, ast.Call) else None
        if call is None:
            continue
        from ..source.sites import call_name
        name = call_name(call) or ""
        last = name.rsplit(".", 1)[-1]
        if name.endswith(APP_RUN) or name == "run" and _imports_app_run(tree):
            found = Entry(stmt.lineno, f"{name}()")
        elif name == "main":
            found = Entry(stmt.lineno, "main()")
        elif last in ARG_PARSING:
            found = Entry(stmt.lineno, f"{last}()")
    return found


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
