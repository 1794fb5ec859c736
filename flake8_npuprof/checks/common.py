"""Helpers the route checks share: running the NPP1xx checks on an options expression."""

from __future__ import annotations

import ast
from typing import Optional

from ..values import Strings, unwrap
from .options import check_options
from .hygiene import check_option_hygiene


def options_strings(ctx, node: ast.AST, scope, pos: int) -> Strings:
    return ctx.values.strings(node, scope, pos)


def check_options_expr(ctx, node: ast.AST, scope, pos: int, mode_on: Optional[bool]) -> Strings:
    """Report NPP1xx/NPP2xx issues of the options an expression evaluates to.

    With several candidate values, only issues found in every candidate are reported.
    Returns the resolved strings so callers can reason about emptiness.
    """
    strings = options_strings(ctx, node, scope, pos)
    check_hand_built(ctx, node, scope, pos, strings)
    cands = strings.candidates
    if not cands:
        ctx.report_node("NPP190", node, _undetermined(strings))
        return strings
    reports = [check_options(c.text, ctx.target, mode_on) for c in cands]
    if any(r.unknown for r in reports):
        ctx.report_node("NPP190", node, "profiling_options depend on a value that cannot be determined "
                        "statically where a key or the JSON structure should be; nothing was checked here")
    if all(r.empty for r in reports):
        return strings
    hygiene = [check_option_hygiene(c.text, r.doc) for c, r in zip(cands, reports)]
    per_candidate = [list(r.issues) + h for r, h in zip(reports, hygiene)]
    common = set.intersection(*[{(x.code, x.key) for x in issues} for issues in per_candidate])
    for issue in per_candidate[0]:
        if (issue.code, issue.key) not in common:
            continue
        suffix = ""
        if len(cands) > 1:
            suffix = " (in every value this expression can take)"
        else:
            notes = cands[0].notes_in(issue.i, issue.j)
            if notes:
                suffix = f" (checked {notes[0]})"
        ctx.report_issue(issue, cands[0], suffix)
    return strings


def hand_built(ctx, node: ast.AST, scope, pos: int, depth: int = 0) -> Optional[ast.AST]:
    """The expression that assembles options JSON by hand around a computed value, if any."""
    inner, _ = unwrap(node)
    if depth > 6:
        return None
    if isinstance(inner, ast.Name):
        for b in ctx.sites.bindings_at(inner.id, scope, pos):
            if b.value is not None:
                found = hand_built(ctx, b.value, b.scope, b.pos, depth + 1)
                if found is not None:
                    return found
        return None
    if _assembles(inner) and _interpolates(inner):
        return inner
    return None


def _assembles(node) -> bool:
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return True
    return isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values)


def _interpolates(node) -> bool:
    """Whether a value that is not a literal is spliced into the text."""
    if isinstance(node, ast.Constant):
        return False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _interpolates(node.left) or _interpolates(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        right = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        return _interpolates(node.left) or any(not isinstance(r, ast.Constant) for r in right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return any(not isinstance(a, ast.Constant) for a in list(node.args) + [k.value for k in node.keywords])
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) and not isinstance(v.value, ast.Constant) for v in node.values)
    return True


def check_hand_built(ctx, node: ast.AST, scope, pos: int, strings: Strings) -> None:
    """NPP200: JSON text assembled around computed values instead of json.dumps."""
    if strings.candidates and not any(c.text.lstrip().startswith("{") for c in strings.candidates):
        return
    built = hand_built(ctx, node, scope, pos)
    if built is None:
        return
    how = {ast.BinOp: "by concatenation or %", ast.Call: "with .format", ast.JoinedStr: "with an f-string"}
    ctx.report_node("NPP200", built,
                    f"profiling_options JSON is assembled {how.get(type(built), 'by hand')} around a computed "
                    "value: a quote or backslash in that value (a Windows-style or odd path) breaks the JSON "
                    "and GE initialisation aborts; build it with json.dumps({...})")


def _undetermined(strings: Strings) -> str:
    reason = f" ({strings.reason})" if strings.reason else ""
    return (f"profiling_options cannot be determined statically{reason}: nothing was checked here; "
            "a literal or json.dumps({...}) of known values can be checked")
