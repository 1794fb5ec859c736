"""What a statement the sites walk meets binds: imports, assignments (also to tuple targets and
`self.` attributes), loop and `with` targets, `:=`, returns and deletions.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, List

from .site_records import Scope, dotted

if TYPE_CHECKING:                  # the sites these functions fill in (sites.py imports this module)
    from .sites import Sites


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
                for elt_key in _target_keys(elt):
                    scope.bind(elt_key, order, item, node, guards)
            continue
        key = dotted(target)
        if key:
            bind_scope = scope
            head = key.split(".")[0]
            if scope.kind == "function" and scope.self_name and head == scope.self_name and "." in key:
                assert scope.klass is not None      # set with self_name (site_walk._walk_function)
                bind_scope = scope.klass
                key = "self." + key.split(".", 1)[1]
            elif head in scope.globals:
                bind_scope = sites.module
            bind_scope.bind(key, order, value, node, guards)


_LOAD = ast.Load()           # one for every element made here: the parser, too, gives all loads one object
_new_node = ast.AST.__new__


def _element(value: ast.expr, k: int) -> ast.Subscript:
    """A synthetic `value[k]` standing for one target of a tuple assignment, on value's place. Its fields and place
    are the instance's dict, given whole: what the constructor and copy_location would set, one attribute at a
    time (a tenth of the cost of walking a statement, for each element)."""
    line, col, end_line, end_col = value.lineno, value.col_offset, value.end_lineno, value.end_col_offset
    index = _new_node(ast.Constant)
    index.__dict__ = {"value": k, "lineno": line, "col_offset": col, "end_lineno": end_line, "end_col_offset": end_col}
    sub = _new_node(ast.Subscript)
    sub.__dict__ = {"value": value, "slice": index, "ctx": _LOAD, "lineno": line, "col_offset": col,
                    "end_lineno": end_line, "end_col_offset": end_col}
    return sub
