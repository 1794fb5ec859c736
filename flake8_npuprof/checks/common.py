"""Helpers the route checks share: running the NPP1xx checks on an options expression."""

from __future__ import annotations

import ast
from typing import Optional

from ..values.reader import BUDGET_REASON, Strings
from ..values.ops import NONE_NOTE
from .hand_built import check_hand_built
from .hygiene import check_option_hygiene, none_in_output
from .options import check_options, for_state


def check_options_expr(ctx, node: ast.AST, scope, pos: int, mode_on: Optional[bool]) -> Strings:
    """Report NPP1xx/NPP2xx issues of the options an expression evaluates to.

    With several candidate values, only issues found in every candidate are reported.
    Returns the resolved strings so callers can reason about emptiness. The consequences are
    worded for the state of the setup the expression belongs to (ctx.model).
    """
    state = ctx.state_of(node)
    if state is not None and state.latent:
        mode_on = False                 # GE does not read these options now: nothing "is on"
    strings = ctx.values.strings(node, scope, pos)
    check_hand_built(ctx, node, scope, pos, strings)
    cands = strings.candidates
    if not cands:
        if strings.reason != BUDGET_REASON:        # a budget that ran out is NPP191's (on by default)
            ctx.report_node("NPP190", node, _undetermined(strings))
        return strings
    reports = [check_options(c.text, ctx.target, mode_on) for c in cands]
    if any(r.unknown for r in reports):
        ctx.report_node("NPP190", node, "profiling_options depend on a value that cannot be determined "
                        "statically where a key or the JSON structure should be; nothing was checked here")
    if all(r.empty for r in reports):
        return strings
    hygiene = [check_option_hygiene(c.text, r.doc, ctx.src.text) + none_in_output(c, r.doc)
               for c, r in zip(cands, reports)]
    per_candidate = [list(r.issues) + h for r, h in zip(reports, hygiene)]
    common = set.intersection(*[{(x.code, x.key) for x in issues} for issues in per_candidate])
    for issue in per_candidate[0]:
        if (issue.code, issue.key) not in common:
            continue
        suffix = ""
        if len(cands) > 1:
            suffix = " (in every value this expression can take)"
        else:
            notes = [n for n in cands[0].notes_in(issue.i, issue.j) if n != NONE_NOTE]
            if notes:
                suffix = f" (checked {notes[0]})"
        ctx.report_issue(issue._replace(message=for_state(issue.message, state)), cands[0], suffix)
    return strings


def _undetermined(strings: Strings) -> str:
    reason = f" ({strings.reason})" if strings.reason else ""
    return (f"profiling_options cannot be determined statically{reason}: nothing was checked here; "
            "a literal or json.dumps({...}) of known values can be checked")
