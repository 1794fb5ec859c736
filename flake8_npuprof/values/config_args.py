"""A parsed flag copied into a config object: `cfg.prof = args.prof`, then `if cfg.prof:` in the same function (or
both at module level). In a launch the test is decided by what the copy assigned, evaluated where it is made, only
where `cfg.prof` can hold nothing else when it is read:

- `.prof` is assigned once in the whole file (on any object), by that statement, which sits at the top level of the
  function's body (so it runs on every path), after `cfg`'s one binding there and before the statement that reads it;
- nothing in the file sets attributes by a computed name (`setattr()` with a name that is not a literal other than
  `prof`, `vars()`, `__dict__`, `__setattr__`), and no class of the file defines `__setattr__`, `__getattribute__`
  or a `prof` of its own (a property);
- up to the read, `cfg` is used only to read or assign its attributes: never handed to a call, called for a method
  (`cfg.merge_from_dict(args.options)` may set `prof`), indexed (an EasyDict's `cfg['prof'] = False` is its
  attribute), bound again or declared global elsewhere.

A config container (EasyDict, mmcv's Config, a Namespace, a plain object) hands back the scalar it was given.
Anything else: not decided, and a launch that such a test leads to is unknown with why
(checks/launch_setup.unsettled_in_launch). A config handed to another function (`train(cfg)`) is not followed.
"""

from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
FACTS = ("python.flag_copied_in_config",)       # data/sources.json: what an attribute assigned gives back


def why_not_copied(resolver, read: ast.Attribute, scope) -> str:
    """"" where `read` (`cfg.prof`, loaded in `scope`) holds what the file's one assignment of `.prof` gave it on
    every path; else why it is not shown to."""
    cache = _cache(resolver)
    kept = cache.get(id(read))
    if kept is None or kept[0] is not read:
        kept = cache[id(read)] = (read, _why(resolver, read, scope))
    return kept[1]


def _cache(resolver) -> Dict[int, Tuple[ast.AST, str]]:
    cache = getattr(resolver, "config_args", None)
    if cache is None:
        cache = resolver.config_args = {}
    return cache


def _why(resolver, read: ast.Attribute, scope) -> str:
    if not isinstance(read.value, ast.Name) or scope is None:
        return f"`{ast.unparse(read)}` is not an attribute of a name"
    name, attr, shown = read.value.id, read.attr, ast.unparse(read)
    tree = resolver.tree
    stores = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == attr and
              not isinstance(n.ctx, ast.Load)]
    if len(stores) != 1:
        lines = sorted({n.lineno for n in stores})
        if not lines:
            return f"no line of the file assigns `{shown}`"
        return f"`.{attr}` is assigned on lines {', '.join(map(str, lines))}: which value `{shown}` holds here is " \
            "not followed"
    store = stores[0]
    setter = _setter(tree, attr, shown)
    if setter:
        return setter
    body = getattr(scope.node, "body", None) if scope.kind in ("function", "module") else None
    if body is None:
        return f"`{shown}` is read in a {scope.kind}, where the copy is not followed"
    if not (isinstance(store.value, ast.Name) and store.value.id == name):
        return f"line {store.lineno} assigns `{ast.unparse(store)}`, not `{shown}`"
    tops = {id(n): stmt for stmt in body for n in _own_walk(stmt)}
    at_store, at_read = tops.get(id(store)), tops.get(id(read))
    if at_store is None:
        return f"line {store.lineno} assigns `{shown}` outside the function that reads it"
    if at_read is None:
        return f"`{shown}` is not read in a statement of this function's body"
    if not _plain_copy(at_store, store):
        return f"line {store.lineno} assigns `{shown}` inside {_what(at_store)}, so not on every path to line " \
            f"{read.lineno}"
    k_store, k_read = body.index(at_store), body.index(at_read)
    if k_store >= k_read:
        return f"line {store.lineno} assigns `{shown}` after line {read.lineno} reads it"
    binds = _binds(tree, name, scope)
    if isinstance(binds, str):
        return binds
    if len(binds) != 1 or binds[0] not in body or body.index(binds[0]) > k_store:
        lines = sorted({getattr(b, "lineno", 0) for b in binds})
        return f"`{name}` is bound on lines {', '.join(map(str, lines))}: not one object from before line " \
            f"{store.lineno} to line {read.lineno}" if lines else f"`{name}` is not bound in this function"
    if isinstance(binds[0], (ast.Import, ast.ImportFrom)):
        return f"`{name}` is a module (line {binds[0].lineno}), whose attributes other modules may set"
    # every use of the name up to the statement holding the read (a loop's body runs again after it), functions
    # defined before it included (they may be called in between)
    for stmt in body[:k_read + 1]:
        other = _other_use(stmt, name)
        if other is not None:
            return f"line {getattr(other, 'lineno', 0)} uses `{name}` other than by its attributes " \
                f"(`{_clip(ast.unparse(other))}`), which may set `{shown}`"
    return ""


def _setter(tree, attr: str, shown: str) -> str:
    """How the file may set `.attr` by a computed name, or decide what reading it gives; "" if it does not."""
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr":
            name = n.args[1] if len(n.args) > 1 else None
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)) or name.value == attr:
                return f"line {n.lineno} sets an attribute with setattr(), which may set `{shown}`"
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "vars":
            return f"line {n.lineno} reaches an object's attributes through vars(), which may set `{shown}`"
        elif isinstance(n, ast.Attribute) and n.attr in ("__dict__", "__setattr__"):
            return f"line {n.lineno} reaches an object's attributes through {n.attr}, which may set `{shown}`"
        elif isinstance(n, ast.ClassDef):
            for d in n.body:
                if isinstance(d, _DEFS) and d.name in ("__setattr__", "__getattribute__", attr):
                    return f"line {d.lineno} defines {n.name}.{d.name}, which may change what `{shown}` gives"
    return ""


def _plain_copy(stmt, store) -> bool:
    """Whether `stmt` is an assignment whose target is `store` (or a tuple holding it): it runs whenever its place in
    the body is reached, and assigns nothing else first that could fail on the way."""
    if not isinstance(stmt, ast.Assign):
        return False
    return any(t is store or isinstance(t, ast.Tuple) and any(e is store for e in t.elts) for t in stmt.targets)


def _what(stmt) -> str:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):     # (JDE's train(): "a compound statement" misled)
        return f"function `{stmt.name}` (line {stmt.lineno}), which runs only where it is called"
    kinds = {ast.If: "an `if`", ast.For: "a loop", ast.While: "a loop", ast.With: "a `with`", ast.Try: "a `try`"}
    return next((v for k, v in kinds.items() if isinstance(stmt, k)), "a compound statement")


def _binds(tree, name: str, scope):
    """The statements of the scope's body that bind `name`, or why it may be bound elsewhere."""
    for n in ast.walk(tree):
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return f"line {n.lineno} declares `{name}` {'global' if isinstance(n, ast.Global) else 'nonlocal'}"
    out: List[ast.stmt] = []
    for stmt in scope.node.body:
        for n in _own_walk(stmt):
            if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) or \
                    isinstance(n, (ast.Import, ast.ImportFrom)) and \
                    any((a.asname or a.name.split(".")[0]) == name for a in n.names) or \
                    isinstance(n, _DEFS + (ast.ClassDef,)) and n.name == name:
                out.append(stmt)
                break
    if scope.kind == "module":             # a function of the file may bind the global (`global cfg`, counted above)
        return out
    args = scope.node.args
    if name in [a.arg for a in getattr(args, "posonlyargs", []) + args.args + args.kwonlyargs] or \
            name in (getattr(args.vararg, "arg", None), getattr(args.kwarg, "arg", None)):
        return f"`{name}` is a parameter of {scope.node.name}()"
    return out


def _own_walk(stmt) -> List[ast.AST]:
    """The nodes of a statement, not those inside the functions, classes and lambdas it defines (their own scope)."""
    out: List[ast.AST] = []
    todo = [stmt]
    while todo:
        n = todo.pop()
        out.append(n)
        if n is stmt or not isinstance(n, _DEFS + (ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(n))
    return out


def _other_use(stmt, name: str) -> Optional[ast.AST]:
    """The first use of `name` in `stmt` (nested functions included: they may run here) that is not reading one of
    its attributes or the copy itself: the expression holding it."""
    parents: Dict[int, ast.AST] = {}
    for n in ast.walk(stmt):
        for c in ast.iter_child_nodes(n):
            parents[id(c)] = n
    for n in ast.walk(stmt):
        if not (isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)):
            continue                # (its bindings are counted apart: one)
        up = parents.get(id(n))
        # (another attribute's assignment is not `.prof`'s: the file assigns that once)
        if isinstance(up, ast.Attribute) and (not isinstance(up.ctx, ast.Load) or not _called(up, parents)):
            continue
        if isinstance(up, ast.Attribute):
            return parents[id(up)]          # its method's call: `cfg.merge_from_dict(args.options)`
        return up if up is not None else n
    return None


def _called(attr: ast.Attribute, parents) -> bool:
    up = parents.get(id(attr))
    return isinstance(up, ast.Call) and up.func is attr


def _clip(text: str) -> str:
    line = text.split("\n", 1)[0]
    return line if len(line) <= 60 and line == text else line[:57] + "..."
