"""A flag's own `type=` function, run on the text a launch passes, where it is a pure function of that text.

argparse calls a flag's type with the option's string (`type=str2bool`: `str2bool("False")`). The project's own
such function is run here only where its body is built from what a string alone decides: its one parameter,
constants, `.lower()` / `.upper()` / `.strip()`, `in` / `not in` / `==` / `!=`, `not` / `and` / `or`,
`if ...:` / `else:`, `return` and `raise` (ModelZoo-PyTorch's `return s.lower() in ('true', '1')`, and the
`if v.lower() in (...): return True ... else: raise argparse.ArgumentTypeError(...)` of many projects). Anything
else is not run: what it gives is not known here.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Dict, Optional, Tuple

METHODS: Dict[str, Callable[[str], str]] = {"lower": str.lower, "upper": str.upper, "strip": str.strip}
MAX_STEPS = 200                 # statements and expressions evaluated, at most


class Raised(Exception):
    """The function raises on this text (argparse then stops the script at parse_args): what it raises, as written
    (`argparse.ArgumentTypeError`; "" for a bare `raise`)."""

    def __init__(self, exception: str):
        super().__init__(exception)
        self.exception = exception


class _Unknown(Exception):
    pass


def pure_one_argument(func) -> bool:
    """A plain `def f(s):`: one positional parameter, no defaults, no decorators."""
    if not isinstance(func, ast.FunctionDef) or func.decorator_list:
        return False
    a = func.args
    return len(a.args) == 1 and not (a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg or a.defaults)


def call(func: ast.FunctionDef, text: str) -> Optional[Tuple[Any]]:
    """(what `func(text)` returns,), or None where the body is not of the pure kind; raises Raised where it raises."""
    if not pure_one_argument(func):
        return None
    run = _Run(func.args.args[0].arg, text)
    try:
        return (run.block(func.body)[1],)
    except _Unknown:
        return None


class _Run:
    def __init__(self, param: str, text: str):
        self.param, self.text, self.steps = param, text, 0

    def _step(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _Unknown()

    def block(self, body) -> Tuple[bool, Any]:
        """(returned, value) of a list of statements."""
        for i, stmt in enumerate(body):
            self._step()
            if isinstance(stmt, ast.Return):
                return True, None if stmt.value is None else self.expr(stmt.value)
            if isinstance(stmt, ast.Raise):
                exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
                raise Raised(ast.unparse(exc) if exc is not None else "")
            if isinstance(stmt, ast.If):
                done, value = self.block(stmt.body if self.expr(stmt.test) else stmt.orelse)
                if done:
                    return True, value
                continue
            if isinstance(stmt, ast.Pass) or i == 0 and isinstance(stmt, ast.Expr) and \
                    isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                continue                # (a docstring)
            raise _Unknown()
        return False, None

    def expr(self, e) -> Any:
        self._step()
        if isinstance(e, ast.Name) and e.id == self.param:
            return self.text
        if isinstance(e, ast.Constant):
            return e.value
        if isinstance(e, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(x, ast.Constant) for x in e.elts):
            items = [x.value for x in e.elts if isinstance(x, ast.Constant)]
            return set(items) if isinstance(e, ast.Set) else tuple(items)
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in METHODS and \
                not e.args and not e.keywords:
            value = self.expr(e.func.value)
            if not isinstance(value, str):
                raise _Unknown()
            return METHODS[e.func.attr](value)
        if isinstance(e, ast.Compare):
            left = self.expr(e.left)
            for op, right_node in zip(e.ops, e.comparators):
                right = self.expr(right_node)
                if isinstance(op, (ast.In, ast.NotIn)):
                    if not isinstance(right, (str, tuple, set)) or isinstance(right, str) and not isinstance(left, str):
                        raise _Unknown()        # (a TypeError in Python)
                    ok = (left in right) == isinstance(op, ast.In)
                elif isinstance(op, ast.Eq):
                    ok = left == right
                elif isinstance(op, ast.NotEq):
                    ok = left != right
                else:
                    raise _Unknown()
                if not ok:
                    return False
                left = right
            return True
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return not self.expr(e.operand)
        if isinstance(e, ast.BoolOp):
            value = None
            for v in e.values:          # Python's: the first false (and) / true (or) operand, else the last
                value = self.expr(v)
                if bool(value) != isinstance(e.op, ast.And):
                    return value
            return value
        raise _Unknown()
