"""What the sites walk records, and how it names what it reads: scopes and their bindings (`Scope`,
`Binding`), the conditions a statement runs under (`Guard`), calls (`CallSite`), and the dotted name of an
expression or a call (`dotted`, `call_name`).
"""

from __future__ import annotations

import ast
from typing import Dict, List, NamedTuple, Optional, Tuple, Union

Def = Union[ast.FunctionDef, ast.AsyncFunctionDef]       # a function definition (a lambda is not one)


def dotted(node) -> Optional[str]:
    """'a.b.c' for Name/Attribute chains, else None."""
    kind = type(node)                       # the two commonest shapes first (`a`, `a.b`): no list, no join
    if kind is ast.Name:
        return node.id
    if kind is ast.Attribute and type(node.value) is ast.Name:
        return f"{node.value.id}.{node.attr}"
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def main_test(test) -> bool:
    """`__name__ == "__main__"` (either side): the test of the block that runs whenever the script is launched."""
    if not (isinstance(test, ast.Compare) and len(test.comparators) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    a, b = test.left, test.comparators[0]
    if isinstance(b, ast.Name):
        a, b = b, a
    return isinstance(a, ast.Name) and a.id == "__name__" and isinstance(b, ast.Constant) and b.value == "__main__"


def call_name(node: ast.Call) -> Optional[str]:
    """Dotted name of the called function, or for `x().y()` chains the last attribute."""
    func = node.func
    if type(func) is ast.Name:              # the common shapes first: every call of the file is named
        return func.id
    if type(func) is ast.Attribute:
        if type(func.value) is ast.Name:
            return f"{func.value.id}.{func.attr}"
        name = dotted(func)
        return "?." + func.attr if name is None else name
    return dotted(func)


def const_str(node) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


class Binding(NamedTuple):
    """One assignment of a name or dotted attribute."""

    pos: int                    # walk order of the statement (-1: function parameter)
    value: Optional[ast.AST]    # the assigned expression; None when not a plain assignment
    stmt: ast.AST
    scope: "Scope"
    guards: Tuple["Guard", ...]


_new_tuple = tuple.__new__


class Scope:
    __slots__ = ("node", "kind", "parent", "bindings", "globals", "self_name", "klass", "params", "positions",
                 "unguarded")

    def __init__(self, node, kind: str, parent: Optional["Scope"]):
        self.node = node
        self.kind = kind                      # "module", "function", "class", "lambda"
        self.parent = parent
        self.bindings: Dict[str, List[Binding]] = {}
        # key -> pos of each binding (walk order: sorted), and key -> indices of the bindings without guards:
        # worked out for a key when first asked (positions_of, unguarded_of); most keys never are
        self.positions: Dict[str, List[int]] = {}
        self.unguarded: Dict[str, List[int]] = {}
        self.globals: set = set()
        self.self_name: Optional[str] = None  # first parameter of a method
        self.klass: Optional["Scope"] = None  # class scope of a method
        self.params: List[str] = []

    def bind(self, key: str, pos: int, value, stmt, guards=()) -> None:
        items = self.bindings.get(key)
        if items is None:
            items = self.bindings[key] = []
        # a Binding without the namedtuple's own __new__ (one Python frame less: every binding of the file)
        items.append(_new_tuple(Binding, (pos, value, stmt, self, guards if type(guards) is tuple else tuple(guards))))

    def positions_of(self, key: str) -> List[int]:
        """The pos of each binding of key, in walk order (so sorted). Bindings are only ever appended: a list
        as long as the bindings is up to date."""
        items = self.bindings.get(key, ())
        found = self.positions.get(key)
        if found is None or len(found) != len(items):
            found = self.positions[key] = [b.pos for b in items]
            self.unguarded[key] = [k for k, b in enumerate(items) if not b.guards]
        return found

    def unguarded_of(self, key: str) -> List[int]:
        """The indices of key's bindings that have no guards, in order."""
        self.positions_of(key)
        return self.unguarded[key]


class Guard(NamedTuple):
    test: ast.AST
    negated: bool       # the statement is in the else branch


class CallSite(NamedTuple):
    call: ast.Call
    name: Optional[str]
    scope: Scope
    guards: Tuple[Guard, ...]
    stmt: ast.AST


LAST_POS = 1 << 80            # after every position (a top-level statement's take from its index times 2^45)
