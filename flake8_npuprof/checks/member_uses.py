"""The names a file evaluates on a framework's classes, and how it guards them (NPP317 for torch_npu's profiler
enums, NPP365 for MindSpore's): one walk of the tree.

A name the file guards (`hasattr(X, "m")`, `getattr(X, "m", None)`, `setattr`, a `try` whose handler catches the
error) or assigns (`X.m = ...`) is its own business: a member it names there is not reported.
"""

from __future__ import annotations

import ast
from typing import List, NamedTuple, Set, Tuple

# what a name of the class itself reaches: type's attributes (`ProfilerLevel.mro`), an enum's own
TYPE_ATTRIBUTES = frozenset(dir(type)) | {"name", "value"}
CAUGHT = {"AttributeError", "ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


class Uses(NamedTuple):
    imports: List[ast.ImportFrom]       # absolute `from X import ...`
    attributes: List[ast.Attribute]     # read, not inside a guarding `try`
    named: Set[str]                     # attribute names the file tests or sets
    inside: Set[int]                    # ids of the nodes inside a guarding `try`'s body


def uses(tree: ast.AST) -> Uses:
    imports: List[ast.ImportFrom] = []
    attributes: List[ast.Attribute] = []
    inside: Set[int] = set()
    named: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            imports.append(node)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            attributes.append(node)
        elif isinstance(node, ast.Attribute):
            named.add(node.attr)                    # `ProfilerLevel.Level3 = ...`: the script sets it
        elif isinstance(node, ast.Try) and any(_catches(h) for h in node.handlers):
            inside.update(id(n) for stmt in node.body for n in ast.walk(stmt))
        elif isinstance(node, ast.Call):
            named.update(_tests_a_name(node))
    return Uses(imports, [a for a in attributes if id(a) not in inside], named, inside)


def name_of(node: ast.Attribute) -> ast.AST:
    """Where the attribute's own name is written (`Level3` of `ProfilerLevel.Level3`): the last word of it."""
    end_line, end_col = node.end_lineno, node.end_col_offset
    if end_line is None or end_col is None:
        return node
    return ast.Name(id=node.attr, ctx=ast.Load(), lineno=end_line, col_offset=end_col - len(node.attr),
                    end_lineno=end_line, end_col_offset=end_col)


def _tests_a_name(call: ast.Call) -> Tuple[str, ...]:
    """The name `hasattr(X, "Level_none")`, `getattr(X, "Level_none", None)` or `setattr(X, "Level3", ...)` tests
    or sets: the script guards or defines it itself."""
    if isinstance(call.func, ast.Name) and call.func.id in ("hasattr", "getattr", "setattr") and \
            len(call.args) >= 2 and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str):
        return (call.args[1].value,)
    return ()


def _catches(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, (ast.Name, ast.Attribute)) and (t.id if isinstance(t, ast.Name) else t.attr) in CAUGHT
               for t in types)
