"""Values of the expressions that feed a profiling setting.

Literals are read directly from the source (with their position maps); wrappers that only
change str <-> bytes (`tf.compat.as_bytes(x)`, `x.encode()`, `bytes(x, "utf-8")`) are
unwrapped by syntax. Anything else goes to the resolver of computed values (resolve.py).
"""

from __future__ import annotations

import ast
from typing import NamedTuple, Optional, Tuple

from ..source.sites import Scope, dotted
from ..source.text import SourceText, StrValue

BYTES_WRAPPERS = ("as_bytes",)
BUDGET_REASON = "too much to evaluate"      # why a value is unknown when a budget ran out (NPP191)
STR_WRAPPERS = ("as_text", "as_str", "as_str_any")


_new_tuple = tuple.__new__


class Strings(NamedTuple):
    """What an expression can evaluate to, as far as strings go."""

    candidates: Tuple[StrValue, ...]    # empty when unknown; several when they disagree
    py_type: Optional[str]              # "str", "bytes" or None when unknown
    reason: str = ""                    # why it is unknown (for NPP190)


class Scalars(NamedTuple):
    """Candidate Python values of a switch (True, False, "True", 1, ...)."""

    candidates: tuple                   # empty when unknown
    notes: Tuple[str, ...] = ()         # e.g. ("the default of --profiling",)
    stops: str = ""                     # unknown because the script stops before it is read (ops.U.stops)


def unwrap(node) -> Tuple[ast.AST, Optional[str]]:
    """Strip str/bytes conversion wrappers; returns (inner, resulting python type or None)."""
    result = None
    while isinstance(node, ast.Call):
        func = node.func
        name = dotted(func) or ""
        last = name.rsplit(".", 1)[-1] if name else (func.attr if isinstance(func, ast.Attribute) else "")
        if last in BYTES_WRAPPERS and len(node.args) >= 1:
            result = result or "bytes"
            node = node.args[0]
            continue
        if last in STR_WRAPPERS and len(node.args) >= 1:
            result = result or "str"
            node = node.args[0]
            continue
        if isinstance(func, ast.Attribute) and func.attr == "encode" and len(node.args) <= 2:
            result = result or "bytes"
            node = func.value
            continue
        if isinstance(func, ast.Attribute) and func.attr == "decode" and len(node.args) <= 2:
            result = result or "str"
            node = func.value
            continue
        if name == "bytes" and len(node.args) >= 2:
            result = result or "bytes"
            node = node.args[0]
            continue
        if name == "str" and len(node.args) == 1:
            result = result or "str"
            node = node.args[0]
            continue
        break
    return node, result


class Values:
    """Reads literal values; hands computed ones to the resolver."""

    def __init__(self, src: SourceText, resolver):
        self.src = src
        self.resolver = resolver

    def strings(self, node: ast.AST, scope: Scope, pos: int) -> Strings:
        inner, wrapped = unwrap(node)
        lit = self.resolver.literal(inner)         # (literal_value, read once per node)
        if lit is not None:
            return Strings((lit,), wrapped or ("bytes" if lit.is_bytes else "str"))
        result = self.resolver.strings(inner, scope, pos)
        # (result._replace(py_type=wrapped), without its frames: about 8,000 instructions)
        return _new_tuple(Strings, (result[0], wrapped, result[2])) if wrapped else result

    def scalars(self, node: ast.AST, scope: Scope, pos: int) -> Scalars:
        if isinstance(node, ast.Constant):
            return Scalars((node.value,))
        return self.resolver.scalars(node, scope, pos)


def truthy(values) -> Optional[bool]:
    """True/False when every candidate agrees on truthiness as a protobuf bool field reads it."""
    verdicts = set()
    for v in values:
        if isinstance(v, int):                  # bool is an int
            verdicts.add(bool(v))
        else:
            return None
    return verdicts.pop() if len(verdicts) == 1 else None


def place(value: StrValue, i: int, j: int) -> Tuple[int, int]:
    """Source range for value.text[i:j]: exact inside one literal piece, else the best known."""
    span = value.src_span(i, j)
    if span is not None:
        return span
    if j - i >= 2 and value.text[i] == '"' and value.text[j - 1] == '"':
        span = value.src_span(i + 1, j - 1)     # a string value: its content, wherever it came from
        if span is not None:
            return span
    # computed text (json.dumps quotes, joins): the mapped characters inside the range
    first = next((k for k in range(i, min(j, i + 4096)) if value.src(k) is not None), None)
    last = next((k for k in range(j - 1, max(i, j - 4096) - 1, -1) if value.src(k) is not None), None)
    if first is not None and last is not None and last >= first:
        span = value.src_span(first, last + 1)
        if span is not None:
            return span
    a = value.src(i)
    if a is not None:
        b = value.src_end(j - 1) if j > i else None
        if b is not None and value._run(i) is value._run(j - 1):
            return a, b                 # one token standing for one source range
        piece = value.piece_at(a)
        return a, (piece.body_end if piece is not None else a + 1)
    return value.anchor, value.anchor_end

