"""The parsed flags handed to a function: `def npu_config(FLAGS): if FLAGS.profiling:` called as `npu_config(FLAGS)`
with `FLAGS = parser.parse_args()`, or through a chain of such calls (`main(args)` then `train(args)`).

In a launch, `p.x` (p a parameter) is read as the flag `x` only where p can hold nothing else (held_args.py is the
model for `self.args`): the function is a plain function of the file (not a method, not a lambda, no decorator),
defined once, its name bound nowhere else and not listed in `__all__`; every use of its name in the file is a direct
call, and there is at least one; no call unpacks arguments, and every call passes p itself (positionally or by
keyword, never its default) an expression that is parse_args()'s result on every path (`args`, each of whose
assignments reaching the call is `parser.parse_args()` with no arguments, or `parse_known_args()`'s first item), or a
parameter of the calling function shown the same way; p is never rebound in the function. Then `p.x` is read as
`args.x` would be where parse_args() is called: a flag the file assigns (`args.rank = ...`) is not decided by the
launch (checks/launch_setup.scalars). Anything else: not the flags, and a launch that such a test leads to is unknown
(checks/launch_setup.unsettled_in_launch), with why.

Callers in other modules are not searched: the launched script runs as `__main__`, and a module importing it by
name would get a copy of its own.
"""

from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def parameter_of(resolver, name: ast.Name, scope, pos) -> Optional[Tuple[ast.AST, str]]:
    """(the function or lambda, the parameter) when every binding of `name` reaching this use is one parameter."""
    binds = resolver._bindings(name.id, scope, pos) if scope is not None else []
    if not binds or not all(b.pos == -1 for b in binds) or len({id(b.stmt) for b in binds}) != 1:
        return None
    return binds[0].stmt, name.id


def passes_parse_result(resolver, name: ast.Name, scope, pos) -> bool:
    """Whether the parameter `name` holds parse_args()'s result on every call of its function."""
    return not why_not_passed(resolver, name, scope, pos)


def why_not_passed(resolver, name: ast.Name, scope, pos) -> str:
    """"" where the parameter `name` (read in its function) holds parse_args()'s result on every call of it; else
    why it is not shown to."""
    found = parameter_of(resolver, name, scope, pos)
    if found is None:
        return f"{name.id} is not a parameter of the function it is read in"
    func, param = found
    return _proved(resolver, func, param, ())


def _cache(resolver) -> Dict:
    cache = getattr(resolver, "passed_args", None)
    if cache is None:
        cache = resolver.passed_args = {}
    return cache


def _proved(resolver, func, param: str, active: tuple) -> str:
    """"" where every call of `func` passes parse_args()'s result for `param`; else why not (cached per function and
    parameter: it does not depend on the flag)."""
    cache = _cache(resolver)
    key = (id(func), param)
    if key not in cache:
        cache[key] = _prove(resolver, func, param, active + (key,))
    return cache[key]


def _prove(resolver, func, param: str, active: tuple) -> str:
    if not isinstance(func, _DEFS):
        return f"{param} is a parameter of a lambda, whose callers are not followed"
    shown = f"{func.name}()"
    if func.decorator_list:
        return f"{shown} has a decorator, which may call it with other arguments"
    scope = _scope_of(resolver, func)
    if scope is None or scope.parent is None or scope.parent.kind == "class":
        return f"{shown} is a method, whose callers are not followed"
    args = func.args
    positional = [a.arg for a in getattr(args, "posonlyargs", []) + args.args]
    keyword_ok = [a.arg for a in args.args] + [a.arg for a in args.kwonlyargs]
    if param not in positional and param not in keyword_ok:
        return f"{param} collects {shown}'s extra arguments"
    for n in ast.walk(func):
        if isinstance(n, ast.Name) and n.id == param and not isinstance(n.ctx, ast.Load) or \
                isinstance(n, (ast.Global, ast.Nonlocal)) and param in n.names:
            return f"line {n.lineno} rebinds {param} in {shown}"
    uses = _uses(resolver, func)
    if isinstance(uses, str):
        return uses
    if not uses:
        return f"{shown} is not called in this file"
    for call in uses:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return f"line {call.lineno} calls {shown} with unpacked arguments"
        arg: Optional[ast.AST] = None
        if param in positional and positional.index(param) < len(call.args):
            arg = call.args[positional.index(param)]
        arg = next((k.value for k in call.keywords if k.arg == param and param in keyword_ok), arg)
        if arg is None:
            return f"line {call.lineno} calls {shown} without {param}, which then takes its default"
        site_scope = resolver.sites.scope_of.at(call, resolver.sites.module)
        site_pos = resolver.sites.pos.at(call, 0)
        why = _parsed(resolver, arg, site_scope, site_pos, active, 0)
        if why:
            return f"line {call.lineno} calls {shown} with a {param} {why}"
    return ""


def _parsed(resolver, expr, scope, pos, active: tuple, hops: int) -> str:
    """"" where `expr` is parse_args()'s result on every path to this use; else the rest of a sentence saying why
    not ("that is not parse_args()'s result")."""
    no = "that is not parse_args()'s result"
    if hops > 4:
        return no
    if isinstance(expr, ast.Call):
        return "" if _parse_call(expr, "parse_args") else no
    if isinstance(expr, ast.Subscript):             # `parser.parse_known_args()[0]`, `args, _ = ...parse_known_args()`
        index = expr.slice
        if isinstance(expr.value, ast.Call) and _parse_call(expr.value, "parse_known_args") and \
                isinstance(index, ast.Constant) and index.value == 0 and not isinstance(index.value, bool):
            return ""
        return no
    if not isinstance(expr, ast.Name):
        return no
    binds = resolver._bindings(expr.id, scope, pos)
    if not binds:
        return no
    if all(b.pos == -1 for b in binds):             # a parameter of the caller, shown the same way
        found = parameter_of(resolver, expr, scope, pos)
        if found is None:
            return no
        key = (id(found[0]), found[1])
        if key in active:
            return f"({found[1]}) from a call that leads back to it, not followed"
        why = _proved(resolver, found[0], found[1], active)
        shown = f"{found[0].name}()" if isinstance(found[0], _DEFS) else "a lambda"
        return f"({expr.id} of {shown}) that is not shown to be parse_args()'s result: {why}" if why else ""
    for b in binds:
        if b.pos == -1 or b.value is None or not isinstance(b.stmt, ast.Assign):
            return no
        why = _parsed(resolver, b.value, b.scope, b.pos, active, hops + 1)
        if why:
            return why
    return ""


def _parse_call(call: ast.Call, method: str) -> bool:
    """`parser.parse_args()` with no arguments: it reads the launch's command line (sys.argv)."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == method and not call.args and \
        not call.keywords


def _scope_of(resolver, func):
    for s in resolver.sites.scopes:
        if s.node is func:
            return s
    return None


def _uses(resolver, func):
    """The calls of `func` by its name in the file; or why its name may reach it some other way."""
    name = func.name
    tree = resolver.tree
    called = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name:
            called[id(n.func)] = n
    calls: List[ast.Call] = []
    for n in ast.walk(tree):
        if isinstance(n, _DEFS + (ast.ClassDef,)) and n.name == name and n is not func:
            return f"{name} is defined again on line {n.lineno}"
        if isinstance(n, (ast.Import, ast.ImportFrom)) and \
                any((a.asname or a.name.split(".")[0]) == name for a in n.names):
            return f"line {n.lineno} binds {name} again"
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return f"line {n.lineno} may bind {name} again"
        if isinstance(n, ast.Name) and n.id == name:
            if not isinstance(n.ctx, ast.Load):
                return f"line {n.lineno} binds {name} again"
            if id(n) not in called:
                return f"line {n.lineno} uses {name} other than by calling it"
            calls.append(called[id(n)])
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets) and \
                any(isinstance(c, ast.Constant) and c.value == name for c in ast.walk(n.value)):
            return f"{name} is exported in __all__ (line {n.lineno}): other modules may call it"
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))
