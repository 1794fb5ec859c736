"""The custom_optimizers entries of a file: each `custom_optimizers.add()` (`Entry`), the `.name = ...`
and `.parameter_map[k].f = ...` assignments made on it (`ParamSet`, `NameSet`), the expression an
assignment names an entry through (`resolve_entry`: a name, a helper's parameter, what a helper
returns), and whether an entry is passed to code this file does not define (`_passed_on`).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Dict, List, NamedTuple, Optional, Tuple

from .site_records import Binding, Guard, LAST_POS, Scope, const_str, dotted

if TYPE_CHECKING:                  # the sites these functions fill in (sites.py imports this module)
    from .sites import Sites

# AttrValue fields a parameter_map entry can be set through.
ATTR_FIELDS = {"b", "s", "i", "f", "list", "type", "shape", "tensor", "func", "placeholder"}


class ParamSet(NamedTuple):
    entry: "Entry"
    key: str                    # parameter_map key
    key_node: ast.AST
    field: str                  # AttrValue field: b, s, i, ...
    value: Optional[ast.AST]    # None: an augmented assignment (`.parameter_map[k].i += 1`)
    target: ast.AST             # the whole assignment target
    stmt: ast.stmt
    scope: Scope
    guards: Tuple[Guard, ...]


class NameSet(NamedTuple):
    value: Optional[ast.AST]    # None: an augmented assignment (`op.name += "x"`)
    target: ast.AST
    stmt: ast.AST               # the assignment, or the `add(name=...)` call


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
        if target.attr == "name":
            # resolve_entry finds only an entry of by_call: without one (no `.add()` in the file) nothing is named
            entry = resolve_entry(sites, target.value, scope, sites._pos.get(stmt, 0), by_call) if by_call \
                else None
            if entry is not None:
                entry.names.append(NameSet(value, target, stmt))
            continue
        if target.attr in ATTR_FIELDS and isinstance(target.value, ast.Subscript):
            sub = target.value
            if isinstance(sub.value, ast.Attribute) and sub.value.attr == "parameter_map":
                pos = sites._pos.get(stmt, 0)
                entry = resolve_entry(sites, sub.value.value, scope, pos, by_call) if by_call else None
                if entry is None:
                    entry = _orphan(sites, sub.value.value, scope, guards, orphans)
                key_node = sub.slice
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
    assert isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))     # resolve_entry asks only for these
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
