"""The parsed flags held in an attribute: `self.args = args` in `__init__`, then `if self.args.prof:` in another
method, with `Trainer(parser.parse_args())` where the file builds the object.

`self.args.x` is read as the flag `x` only where the attribute can hold nothing else: its one assignment in the whole
file is `self.args = p` at the top level of the class's `__init__`, `p` a parameter `__init__` does not rebind; the
class has no base, decorator or subclass in the file (any of them may set the attribute or build the object another
way); the file never sets an attribute by a computed name (`setattr`, `__dict__`, `vars()`); and every use of the
class's name is a call that passes the result of `parse_args()` for `p`; and no flag is set through it
(`self.args.prof = True`). Anything else: not the flags, and a launch that such a test leads to is unknown
(checks/launch_setup.unsettled_in_launch).
"""

from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple

SETTERS = ("vars", "__setattr__", "__dict__")     # and setattr() with a name that is not a literal


def holds_parse_result(resolver, expr: ast.AST, scope, flag: str) -> bool:
    """Whether `expr` (`self.args`, read in a method) is the result of `parse_args()` on every run, and its `flag`
    is not changed."""
    return not why_not_held(resolver, expr, scope, flag)


def why_not_held(resolver, expr: ast.AST, scope, flag: str) -> str:
    """"" where `expr` (`self.args` read in a method) holds parse_args()'s result on every run and nothing in the
    file changes its `flag`; else why it is not shown to."""
    shown = ast.unparse(expr)
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and scope is not None and
            scope.self_name == expr.value.id and scope.klass is not None and
            isinstance(scope.klass.node, ast.ClassDef)):
        return f"{shown} is not an attribute of the method's own object"
    cls = scope.klass.node
    cache = resolver.held_args
    key = (id(cls), expr.attr, shown)      # the answer names the attribute as the method spells it
    if key not in cache:
        cache[key] = _holds(resolver, cls, expr.attr, shown)
    why, changed = cache[key]
    if not why and flag in changed:
        why = f"line {changed[flag]} changes {shown}.{flag}"
    return why


def _holds(resolver, cls: ast.ClassDef, attr: str, shown: str) -> Tuple[str, Dict[str, int]]:
    """(why the attribute may hold something else, or ""; the line where each of its flags is changed)."""
    tree = resolver.tree
    # (`class Trainer(object):` is `class Trainer:` in Python 3, where the file does not bind the name object)
    bases = [b for b in cls.bases if not (isinstance(b, ast.Name) and b.id == "object" and
                                          not resolver.sites.module.bindings.get("object"))]
    if bases or cls.keywords or cls.decorator_list:
        return f"class {cls.name} has a base or a decorator, which may set {shown}", {}
    param = _init_param(cls, attr)
    if param is None:
        return f"{shown} is not set from a parameter of {cls.name}.__init__ at its top level", {}
    init, index = param
    # names the module's imports bind (`torch.npu.config.x = ...` changes a module's attribute, not the object's:
    # the object could sit there only through another assignment of .{attr}, which is counted)
    modules = {(a.asname or a.name).split(".")[0] for n in getattr(tree, "body", ()) if isinstance(n, ast.Import)
               for a in n.names}
    stores: List[int] = []
    changed: Dict[str, int] = {}
    for node in ast.walk(tree):
        set_on, name = _set(node)
        if set_on is None:
            if isinstance(node, ast.Attribute) and node.attr in SETTERS or isinstance(node, ast.Name) and \
                    node.id in SETTERS:
                return f"line {node.lineno} may set attributes by a computed name", {}
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
                return f"line {node.lineno} may set attributes by a computed name", {}
            if isinstance(node, ast.ClassDef) and node is not cls and any(
                    isinstance(b, ast.Name) and b.id == cls.name for b in node.bases):
                return f"class {node.name} (line {node.lineno}) subclasses {cls.name}", {}
            continue
        line = getattr(node, "lineno", 0)
        if name == attr:
            stores.append(line)
        elif isinstance(set_on, ast.Attribute) and set_on.attr == attr and _head(set_on.value) not in modules:
            changed.setdefault(name, line)      # `self.args.x = ...`: that flag is not the launch's
    if len(stores) != 1:
        return f"{shown} is also set on line {sorted(stores)[1]}", {}
    why = _built_with_flags(resolver, cls, init, index)
    # `args.prof = True` before Trainer(args), or through any name that may hold the same object: a flag set on a
    # plain name is changed, unless the name is a module's or a method's own object (never an argparse Namespace)
    for node in ast.walk(tree) if not why else ():
        set_on, name = _set(node)
        if isinstance(set_on, ast.Name) and set_on.id not in modules and not _own_object(resolver, set_on):
            changed.setdefault(name, getattr(node, "lineno", 0))
    return why, changed


def _set(node: ast.AST) -> Tuple[Optional[ast.AST], str]:
    """(the object, the attribute's name) that an attribute store, `del`, or `setattr(obj, "name", v)` sets."""
    if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
        return node.value, node.attr
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" and \
            len(node.args) == 3 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
        return node.args[0], node.args[1].value
    return None, ""


def _init_param(cls: ast.ClassDef, attr: str):
    """(__init__, the index of its parameter p) where `self.attr = p` is a top-level statement of `__init__` and p is
    not rebound there; else None."""
    inits = [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == "__init__"]
    if len(inits) != 1 or not isinstance(inits[0], ast.FunctionDef) or len(inits[0].args.args) < 2:
        return None
    init = inits[0]
    names = [a.arg for a in init.args.args]
    me = names[0]
    for stmt in init.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute) and \
                stmt.targets[0].attr == attr and isinstance(stmt.targets[0].value, ast.Name) and \
                stmt.targets[0].value.id == me and isinstance(stmt.value, ast.Name) and stmt.value.id in names[1:]:
            p = stmt.value.id
            rebound = any(isinstance(n, ast.Name) and n.id == p and not isinstance(n.ctx, ast.Load) or
                          isinstance(n, (ast.Global, ast.Nonlocal)) and p in n.names for n in ast.walk(init))
            return None if rebound else (init, names.index(p))
    return None


def _built_with_flags(resolver, cls: ast.ClassDef, init: ast.FunctionDef, index: int) -> str:
    """"" where every use of the class's name in the file is a call passing `parse_args()`'s result for the parameter
    at `index` of `__init__` (self being 0), and there is one; else why not."""
    calls = {id(c.call): c for c in resolver.sites.calls_named(cls.name)}
    uses = []
    for node in ast.walk(resolver.tree):
        if isinstance(node, ast.Name) and node.id == cls.name:
            uses.append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == cls.name and \
                node is not cls:
            return f"{cls.name} is defined again on line {node.lineno}"
    built = [c for c in calls.values() if isinstance(c.call.func, ast.Name) and c.call.func.id == cls.name]
    # `C.helper()` of a @staticmethod builds nothing (a body that builds C names it: another use, checked here)
    static = {s.name for s in cls.body if isinstance(s, ast.FunctionDef) and len(s.decorator_list) == 1 and
              isinstance(s.decorator_list[0], ast.Name) and s.decorator_list[0].id == "staticmethod"}
    helpers = {id(n.value) for n in ast.walk(resolver.tree) if isinstance(n, ast.Attribute) and n.attr in static and
               isinstance(n.value, ast.Name) and n.value.id == cls.name and isinstance(n.ctx, ast.Load)}
    other = [n for n in uses if not any(n is c.call.func for c in built) and id(n) not in helpers]
    if other:
        return f"line {other[0].lineno} uses {cls.name} other than by building it"
    if not built:
        return f"{cls.name} is not built in this file"
    name = init.args.args[index].arg
    for site in built:
        call = site.call
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return f"line {call.lineno} builds {cls.name} with unpacked arguments"
        arg: Optional[ast.AST] = call.args[index - 1] if index - 1 < len(call.args) else None
        arg = next((k.value for k in call.keywords if k.arg == name), arg)
        if arg is None or not resolver._is_parse_result(arg, site.scope, resolver.sites.pos.at(call, 0), 0):
            return f"line {call.lineno} builds {cls.name} with a {name} that is not parse_args()'s result"
    return ""


def _own_object(resolver, name: ast.Name) -> bool:
    """Whether a name is the first parameter of the method it is used in (`self`: an instance of that class)."""
    scope = resolver.sites.scope_of.at(name, None)
    return scope is not None and scope.self_name == name.id and not any(
        b.pos != -1 for b in scope.bindings.get(name.id, ()))


def _head(expr: ast.AST) -> str:
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else ""
