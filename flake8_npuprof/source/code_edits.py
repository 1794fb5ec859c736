"""Text edits on Python source: lines inserted next to a statement, keywords added to a call.

Every helper returns None when the edit would not be local and obvious (a statement sharing
its line with another, a call with **kwargs): then there is no fix, never a guess.
"""

from __future__ import annotations

import ast
from typing import Optional, Tuple

from .model import Edit
from .text import Located, SourceText


def _own_line(src: SourceText, stmt: ast.stmt) -> Optional[Tuple[int, int, str]]:
    """(line start, line end, indentation) when the statement has its lines to itself."""
    start = src.node_start(stmt)
    line, col = src.position(start)
    line_start = src.line_starts[line - 1]
    prefix = src.text[line_start:start]
    if prefix.strip():
        return None
    end = src.node_end(stmt)
    end_line = src.position(end)[0]
    rest_start = end
    rest_end = src.line_starts[end_line] if end_line < len(src.line_starts) else len(src.text)
    rest = src.text[rest_start:rest_end]
    if rest.strip() and not rest.strip().startswith("#"):
        return None                     # `a = 1; b = 2` or similar
    line_end = rest_start + len(rest.rstrip("\r\n"))
    return line_start, line_end, prefix


def insert_before(src: SourceText, stmt: ast.stmt, code: str) -> Optional[Edit]:
    where = _own_line(src, stmt)
    if where is None:
        return None
    line_start, _, indent = where
    return Edit(line_start, line_start, f"{indent}{code}\n")


def insert_after(src: SourceText, stmt: ast.stmt, code: str) -> Optional[Edit]:
    where = _own_line(src, stmt)
    if where is None:
        return None
    _, line_end, indent = where
    return Edit(line_end, line_end, f"\n{indent}{code}")


def add_keyword(src: SourceText, call: ast.Call, keyword: str) -> Optional[Edit]:
    """`f(a)` → `f(a, keyword)` (before the closing parenthesis, after any trailing comma)."""
    if any(k.arg is None for k in call.keywords):
        return None
    end = src.node_end(call)
    if src.text[end - 1:end] != ")":
        return None
    args = list(call.args) + list(call.keywords)
    if not args:
        return Edit(end - 1, end - 1, keyword)
    last_end = max(src.node_end(a) for a in args)
    between = src.text[last_end:end - 1]
    if "," in between:
        comma = last_end + between.index(",") + 1
        return Edit(comma, comma, " " + keyword)
    return Edit(last_end, last_end, ", " + keyword)


def remove_argument(src: SourceText, call: ast.Call, arg) -> Optional[Edit]:
    """Remove one keyword argument together with the comma before it (or after, when first)."""
    items = sorted(list(call.args) + list(call.keywords), key=src.node_start)
    k = next((i for i, a in enumerate(items) if a is arg), None)
    if k is None:
        return None
    start, end = src.node_start(arg), src.node_end(arg)
    if k > 0:
        return Edit(src.node_end(items[k - 1]), end, "")
    if k + 1 < len(items):
        return Edit(start, src.node_start(items[k + 1]), "")
    return Edit(start, end, "")


def source_of(src: SourceText, node: Located) -> str:
    return src.text[src.node_start(node):src.node_end(node)]
