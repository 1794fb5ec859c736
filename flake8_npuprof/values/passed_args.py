"""The parsed flags handed to a function: `def npu_config(FLAGS): if FLAGS.profiling:` called as `npu_config(FLAGS)`
with `FLAGS = parser.parse_args()`, or through a chain of such calls (`main(args)` then `train(args)`).

In a launch, `p.x` (p a parameter) is read as the flag `x` only where p can hold nothing else (held_args.py is the
model for `self.args`): the function is a plain function of the file (not a method, not a lambda, no decorator),
defined once, its name bound nowhere else and not listed in `__all__`; every use of its name in the file is a direct
call or the function torch.multiprocessing.spawn starts (`mp.spawn(main_worker, args=(n, args))`: main_worker(i, n,
args) in each process), and there is at least one; no call unpacks arguments, and every call passes p itself
(positionally or by keyword, never its default) parse_args()'s result on every path, or a parameter of the calling
function shown the same way; p is never rebound in the function.

parse_args()'s result: `parser.parse_args()`, `parser.parse_known_args()[0]` (`args, _ = ...`), either given
`sys.argv[1:]` (what they read when given nothing), or given a parameter of the function they are in that every call
being followed passes `sys.argv[1:]`; a name each of whose assignments reaching the use is one; a call of a plain
function of the file that ends in a return and each of whose returns is one (`args = get_args()`).

Then `p.x` is read as `args.x` would be where parse_args() is called: a flag the file assigns (`args.rank = ...`) is
not decided by the launch (checks/launch_setup.scalars). Anything else: not the flags, and a launch that such a test
leads to is unknown (checks/launch_setup.unsettled_in_launch), with why.

Callers in other modules are not searched: the launched script runs as `__main__`, and a module importing it by
name would get a copy of its own.
"""

from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple

from ..source.site_records import LAST_POS


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
FACTS = ("python.parsed_flags_handed_on",)          # data/sources.json: what parse_args() reads, what spawn() calls


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
    if key not in cache:        # (the function is kept with its answer: its id is not reused meanwhile)
        cache[key] = (func, _prove(resolver, func, param, active + (key,)))
    return cache[key][1]


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
    rebound = _rebinds(func, param)
    if rebound is not None:
        return f"line {getattr(rebound, 'lineno', 0)} rebinds {param} in {shown}"
    uses = _uses(resolver, func)
    if isinstance(uses, str):
        return uses
    if not uses:
        return f"{shown} is not called in this file"
    return _handed_by(resolver, func, param, uses, active)


def why_not_handed(resolver, func, param: str, calls: List[ast.Call], where: str) -> str:
    """"" where each of `calls` (made in the file of `resolver`, `where` naming it: "train.py") hands `param` of
    `func` (a function of another module) parse_args()'s result; else why not. Whether these are all its calls is
    the caller's to show (emulate/imported.py)."""
    if not isinstance(func, _DEFS):
        return f"{param} is a parameter of a lambda, whose callers are not followed"
    shown = f"{func.name}()"
    if func.decorator_list:
        return f"{shown} has a decorator, which may call it with other arguments"
    args = func.args
    if param not in [a.arg for a in getattr(args, "posonlyargs", []) + args.args + args.kwonlyargs]:
        return f"{param} collects {shown}'s extra arguments"
    rebound = _rebinds(func, param)
    if rebound is not None:
        return f"line {getattr(rebound, 'lineno', 0)} rebinds {param} in {shown}"
    return _handed_by(resolver, func, param, [(c, c) for c in calls], (), f" of {where}")


def _handed_by(resolver, func, param: str, uses, active: tuple, where: str = "") -> str:
    """"" where each (call as written, call the function gets) hands `param` parse_args()'s result; else why not."""
    shown = f"{func.name}()"
    for written, call in uses:
        how = f"line {written.lineno}{where} {'calls' if written is call else 'spawns processes that call'} {shown}"
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return f"{how} with unpacked arguments"
        arg = _argument(func, param, call)
        if arg is None:
            return f"{how} without {param}, which then takes its default"
        site_scope = resolver.sites.scope_of.at(written, resolver.sites.module)
        site_pos = resolver.sites.pos.at(written, 0)
        why = _parsed(resolver, arg, site_scope, site_pos, active, 0)
        if why:
            return f"{how} with a {param} {why}"
    return ""


def _parsed(resolver, expr, scope, pos, active: tuple, hops: int, via: Optional[ast.Call] = None) -> str:
    """"" where `expr` is parse_args()'s result on every path to this use; else the rest of a sentence saying why
    not ("that is not parse_args()'s result"). via: the call whose function `expr` is returned from."""
    no = "that is not parse_args()'s result"
    if hops > 4:
        return no
    if isinstance(expr, ast.Call):
        if _parse_call(resolver, expr, "parse_args", scope, pos, via):
            return ""
        return _returned(resolver, expr, scope, pos, active, hops) and no
    if isinstance(expr, ast.Subscript):             # `parser.parse_known_args()[0]`, `args, _ = ...parse_known_args()`
        index = expr.slice
        if not (isinstance(expr.value, ast.Call) and isinstance(index, ast.Constant) and
                type(index.value) is int and index.value >= 0):
            return no
        if index.value == 0 and _parse_call(resolver, expr.value, "parse_known_args", scope, pos, via):
            return ""
        # `opts, ds_init = get_args()`, get_args() ending in `return parser.parse_args(), ds_init` (BEiT)
        return _returned(resolver, expr.value, scope, pos, active, hops, index.value) and no
    if not isinstance(expr, ast.Name):
        return no
    binds = _last_run(resolver, expr, resolver._bindings(expr.id, scope, pos))
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
    # (the bindings that reach a use come before it; one after it in the same scope may reach it round a loop)
    where, key = resolver.sites._resolve(expr.id, scope)
    later = [b for b in (where.bindings.get(key, ()) if where is scope else ()) if b.pos > pos]
    if later:
        return f"{no} on every run: line {getattr(later[0].stmt, 'lineno', 0)} binds {expr.id} again"
    if len(binds) == 1 and isinstance(binds[0].stmt, ast.ImportFrom):
        from .yaml_config import imported_config, is_config_import  # mindspore-ai/models' config: flags over a YAML
        own = any(f.kind == "argparse" for f in resolver.flags)    # (else `args.x` may be the file's own flag)
        return "" if not own and imported_config(resolver) is not None and \
            is_config_import(resolver, binds[0].stmt, expr.id) is not None else no
    for b in binds:
        if b.pos == -1 or b.value is None or not isinstance(b.stmt, ast.Assign):
            return no
        why = _parsed(resolver, b.value, b.scope, b.pos, active, hops + 1, via)
        if why:
            return why
    return ""


def _parse_call(resolver, call: ast.Call, method: str, scope, pos, via: Optional[ast.Call]) -> bool:
    """`parser.parse_args()`: it reads the launch's command line (sys.argv[1:]); also given `sys.argv[1:]` itself,
    or a parameter of the function that holds it, which `via` (the one call followed into it) passes it."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == method) or len(call.args) > 1 or \
            any(k.arg != "args" for k in call.keywords) or len(call.args) + len(call.keywords) > 1:
        return False
    given = call.args[0] if call.args else call.keywords[0].value if call.keywords else None
    if given is None or _argv(resolver, given, scope, pos):
        return True
    func = getattr(scope, "node", None)
    if via is None or not isinstance(given, ast.Name) or not isinstance(func, _DEFS):
        return False
    if _takes_none(func, given.id, via) and _rebinds(func, given.id) is None:
        return True     # `def get_args(argv=None): return parser.parse_args(argv)` called as get_args(): None reads it
    if not _unchanged_until(func, given.id, call):
        return False
    arg = _argument(func, given.id, via)
    return arg is not None and _argv(resolver, arg, resolver.sites.scope_of.at(via, resolver.sites.module),
                                     resolver.sites.pos.at(via, 0))


def _argv(resolver, expr, scope, pos) -> bool:
    """`sys.argv[1:]`, sys being the module (what parse_args() reads when given nothing)."""
    if not (isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice) and expr.slice.upper is None and
            expr.slice.step is None and isinstance(expr.slice.lower, ast.Constant) and expr.slice.lower.value == 1 and
            not isinstance(expr.slice.lower.value, bool) and isinstance(expr.value, ast.Attribute) and
            expr.value.attr == "argv" and isinstance(expr.value.value, ast.Name) and expr.value.value.id == "sys"):
        return False
    binds = resolver._bindings("sys", scope, pos)
    return bool(binds) and all(isinstance(b.stmt, ast.Import) and any(a.name == "sys" and a.asname in (None, "sys")
                                                                      for a in b.stmt.names) for b in binds)


def _last_run(resolver, use: ast.Name, binds: list) -> list:
    """The bindings of `use` that may reach it: of several (`args = get_args_parser()` then `args = args.parse_args()`,
    MAE's), the last alone where it is a plain assignment of the name in the same list of statements as the
    statement holding the use, before it: a run reaching the use has run it, and the name is declared `global` or
    `nonlocal` nowhere in the file (no function called in between may bind it). Bindings after the use (round a
    loop) are the caller's to see."""
    if len(binds) < 2 or any(b.pos == -1 or b.scope is not binds[0].scope for b in binds):
        return binds
    last = max(binds, key=lambda b: b.pos)
    stmt = last.stmt
    if not (isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == use.id or
                                                 isinstance(t, (ast.Tuple, ast.List)) and
                                                 any(isinstance(e, ast.Name) and e.id == use.id for e in t.elts)
                                                 for t in stmt.targets)):
        return binds
    parent = resolver.sites.parent
    child, up = use, parent.at(use)
    while up is not None and up is not stmt:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(up, field, None)
            if isinstance(block, list) and stmt in block and child in block:
                if block.index(stmt) >= block.index(child):
                    return binds
                if any(isinstance(n, (ast.Global, ast.Nonlocal)) and use.id in n.names
                       for n in ast.walk(resolver.tree)):
                    return binds
                return [last]
        if isinstance(up, _DEFS + (ast.ClassDef, ast.Lambda)):
            return binds
        child, up = up, parent.at(up)
    return binds


def _returned(resolver, call: ast.Call, scope, pos, active: tuple, hops: int, index: Optional[int] = None) -> str:
    """"" where `call` calls a plain function of the file (`args = get_args()`) that ends in a return and each of whose
    returns gives parse_args()'s result (with index: a tuple written out whose item `index` is it, or for 0
    parse_known_args()'s pair); else why not."""
    no = "that is not parse_args()'s result"
    if not isinstance(call.func, ast.Name):
        return no
    binds = resolver._bindings(call.func.id, scope, pos)
    if len(binds) != 1 or not isinstance(binds[0].stmt, _DEFS) or binds[0].value is not binds[0].stmt:
        return no
    func = binds[0].stmt
    inner = _scope_of(resolver, func)
    if func.decorator_list or not func.body or not isinstance(func.body[-1], ast.Return) or inner is None or \
            isinstance(func, ast.AsyncFunctionDef) or \
            any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own(func)):
        return no
    returns = [n for n in _own(func) if isinstance(n, ast.Return)]
    for r in returns:
        value = r.value
        if value is None:
            return no
        at = resolver.sites.pos.at(value, LAST_POS)
        if index is not None:
            if index == 0 and isinstance(value, ast.Call) and \
                    _parse_call(resolver, value, "parse_known_args", inner, at, call):
                continue
            if not isinstance(value, ast.Tuple) or len(value.elts) <= index or \
                    any(isinstance(e, ast.Starred) for e in value.elts):
                return no
            value = value.elts[index]
        why = _parsed(resolver, value, inner, at, active, hops + 1, call)
        if why:
            return why
    return ""


def returned_parse_result(resolver, call: ast.Call, scope, pos) -> str:
    """"" where `call` calls a plain function of the file each of whose returns gives parse_args()'s result
    (`args = parse_args()`, the model zoo's own `def parse_args(): ... return args`); else why not."""
    return _returned(resolver, call, scope, pos, (), 0)


def _own(func) -> List[ast.AST]:
    """The nodes of a function's body, not those of the functions, classes and lambdas it defines."""
    out: List[ast.AST] = []
    todo = list(func.body)
    while todo:
        n = todo.pop()
        out.append(n)
        if not isinstance(n, _DEFS + (ast.ClassDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(n))
    return out


def _unchanged_until(func, param: str, call: ast.Call) -> bool:
    """Whether `param` is a parameter of `func` that still holds what the caller passed when `call` reads it: the call
    is in the value of an assignment at the top level of the body, and no statement before it binds the name
    (`args, _ = parser.parse_known_args(args)` reads the parameter, then binds it)."""
    args = func.args
    if param not in [a.arg for a in getattr(args, "posonlyargs", []) + args.args + args.kwonlyargs]:
        return False
    for stmt in func.body:
        if isinstance(stmt, ast.Assign) and any(n is call for n in ast.walk(stmt.value)):
            return not any(isinstance(n, ast.NamedExpr) for n in ast.walk(stmt.value))
        if _rebinds(stmt, param) is not None:
            return False
    return False


def _rebinds(func, param: str) -> Optional[ast.AST]:
    """The first node of `func` (or of a statement) that may bind `param` again (a store, `del`, `global` or
    `nonlocal`), or None."""
    for n in ast.walk(func):
        if isinstance(n, ast.Name) and n.id == param and not isinstance(n.ctx, ast.Load) or \
                isinstance(n, (ast.Global, ast.Nonlocal)) and param in n.names:
            return n
    return None


def _argument(func, param: str, call: ast.Call) -> Optional[ast.AST]:
    """What `call` passes for `param` of `func` (None: nothing, so its default, or unpacked arguments)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    args = func.args
    positional = [a.arg for a in getattr(args, "posonlyargs", []) + args.args]
    keyword_ok = [a.arg for a in args.args] + [a.arg for a in args.kwonlyargs]
    arg: Optional[ast.AST] = None
    if param in positional and positional.index(param) < len(call.args):
        arg = call.args[positional.index(param)]
    return next((k.value for k in call.keywords if k.arg == param and param in keyword_ok), arg)


def _takes_none(func, param: str, call: ast.Call) -> bool:
    """Whether `call` leaves `param` of `func` to its default and that default is None (nothing unpacked)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords) or \
            _argument(func, param, call) is not None:
        return False
    args = func.args
    positional = getattr(args, "posonlyargs", []) + args.args
    named = list(zip(positional[len(positional) - len(args.defaults):], args.defaults)) + \
        [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    default = next((d for a, d in named if a.arg == param), None)
    return isinstance(default, ast.Constant) and default.value is None


def _scope_of(resolver, func):
    for s in resolver.sites.scopes:
        if s.node is func:
            return s
    return None


def _uses(resolver, func):
    """(the call as written, the call the function gets) for each call of `func` in the file: by its name, or started
    by torch.multiprocessing.spawn (`mp.spawn(main_worker, args=(n, args))` calls `main_worker(i, n, args)` in each
    process, i its index); or why its name may reach it some other way."""
    from ..source.imports import qualified
    name = func.name
    tree = resolver.tree
    called: Dict[int, Tuple[ast.Call, ast.Call]] = {}
    for n in ast.walk(tree):
        if not isinstance(n, ast.Call):
            continue
        if isinstance(n.func, ast.Name) and n.func.id == name:
            called[id(n.func)] = (n, n)
            continue
        fn = n.args[0] if n.args else next((k.value for k in n.keywords if k.arg == "fn"), None)
        if isinstance(fn, ast.Name) and fn.id == name and qualified(resolver.sites, n.func) in SPAWNERS:
            called[id(fn)] = (n, _spawned(n, fn))
    calls: List[Tuple[ast.Call, ast.Call]] = []
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
    return sorted(calls, key=lambda c: (c[0].lineno, c[0].col_offset))


# torch.multiprocessing's starters: fn(i, *args) in each process, args pickled (FACTS)
SPAWNERS = ("torch.multiprocessing.spawn", "torch.multiprocessing.start_processes")


def _spawned(call: ast.Call, fn: ast.Name) -> ast.Call:
    """The call a spawned process makes: fn(i, *args), i the process index (no parsed flags)."""
    given = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "args"), None)
    index: ast.expr = ast.Constant(value=0)
    if given is None:
        args: List[ast.expr] = [index]
    elif isinstance(given, ast.Tuple):
        args = [index] + list(given.elts)
    else:
        args = [index, ast.Starred(value=given, ctx=ast.Load())]    # a tuple built elsewhere: not followed
    return ast.copy_location(ast.Call(func=fn, args=args, keywords=[]), call)
