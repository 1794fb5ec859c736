"""Helpers the route checks share: running the NPP1xx checks on an options expression."""

from __future__ import annotations

import ast
from typing import Optional, Tuple

from ..values.reader import BUDGET_REASON, Strings
from ..values.ops import NONE_NOTE
from .hand_built import check_hand_built
from .hygiene import check_option_hygiene, none_in_output
from .options import check_options, for_state
from ..knowledge.collection import substituted_sets
from ..source.said import Text, aside, clause, said


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
        ctx.report_node("NPP190", node, "profiling_options are not checked: a key or the JSON's structure comes "
                        "from a value known only when the script runs")
    if all(r.empty for r in reports):
        return strings
    hygiene = [check_option_hygiene(c.text, r.doc, ctx.src.text) + none_in_output(c, r.doc)
               for c, r in zip(cands, reports)]
    unused = _defaults_not_in_effect(ctx, node)
    per_candidate = [[x for x in list(r.issues) + h if not _from_default(c, x, unused)]
                     for c, r, h in zip(cands, reports, hygiene)]
    common = set.intersection(*[{(x.code, x.key) for x in issues} for issues in per_candidate])
    for issue in per_candidate[0]:
        if (issue.code, issue.key) not in common:
            continue
        words = for_state(issue.words, state)
        if len(cands) > 1:
            words = words.within("(in every value this expression can take)")
        else:
            notes = [n for n in cands[0].notes_in(issue.i, issue.j) if n != NONE_NOTE]
            if notes:
                # a value that holds only when a flag is left out: the short sentence says so too
                flag = next((o for o in _default_flags(notes[0])), "")
                words = words.within(f"(checked {notes[0]})", default_of=flag)
        ctx.report_issue(issue._replace(said=words), cands[0])
    return strings


def _defaults_not_in_effect(ctx, node) -> Tuple[str, ...]:
    """Flags whose falsy default (None, "", False, 0) cannot be in effect where these options are
    read: the setup takes effect only when the flag tests true (`if FLAGS.prof_dir:`, `cfg if
    args.profiling else None`). A finding about that default would describe a run that never happens."""
    setup = ctx.model.setup_of(node)
    if setup is None:
        return ()
    tests = {t.strip() for text in setup.conditions + ((setup.condition,) if setup.condition else ())
             for t in text.split(" and ")}
    if not tests:
        return ()                       # (no condition names a flag: the file's flags are not asked for)
    out = []
    for flag in getattr(ctx.resolver, "flags", ()):
        default = flag.default
        falsy = default is None or (isinstance(default, ast.Constant) and not default.value)
        if falsy and flag.action not in ("store_false",) and \
                any(t == flag.dest or t.endswith("." + flag.dest) for t in tests):
            out.append(flag.option)
    return tuple(out)


def _default_flags(note: str):
    """The flag a value note says the value is the default of ("with the default of --x, used when ...")."""
    head = "with the default of "
    if note.startswith(head) and note.endswith(", used when the flag is not given"):
        yield note[len(head):].split(",", 1)[0]


def _from_default(value, issue, options: Tuple[str, ...]) -> bool:
    """Whether the issue lies in text that came from one of these flags' defaults."""
    if not options:
        return False
    notes = value.notes_in(issue.i, issue.j)
    return any(n.startswith(f"with the default of {o},") for o in options for n in notes)


def _undetermined(strings: Strings):
    reason = aside(strings.reason) if strings.reason else ""
    return said("profiling_options are not checked", clause("their value is known only when the script runs", reason),
                "write them as a literal or as json.dumps({...}) of known values to have them checked")


def substituted_phrase(route: str, versions) -> Text:
    """NPP002's consequence for profiling on without options: the adapter's default sets, as an aside."""
    sets = substituted_sets(route, versions)
    return clause("the adapter substitutes its defaults", aside(sets)) if sets else ""


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import REF_ENV_OPTIONS, _HEAD, _NPU_ENTRY, _SET_OPTIONS, _TAIL, Rule  # noqa: E402


RULES = (
    Rule(
        code="NPP190",
        name="options-undetermined",
        summary="options value could not be determined statically (default off; shows coverage)",
        default=False,
        level="note", enabled_by="NPP19",
        what="A profiling options expression the checker cannot evaluate: a command-line argument, a value "
             "read from a file, a call it does not model.",
        why="Nothing is known to be wrong; the runtime will validate the string when GE initialises. The "
            "finding marks places where the NPP1xx checks could not look, so you can see how much of the "
            "configuration was actually checked.",
        example=("import argparse\n\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
                 "parser = argparse.ArgumentParser()\n"
                 "parser.add_argument(\"--profiling_options\", type=str, required=True)\n"
                 "args = parser.parse_args()\n\n" + _NPU_ENTRY +
                 "custom_op.parameter_map[\"profiling_mode\"].b = True\n"
                 "custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(args.profiling_options)\n"
                 + _TAIL),
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="none",
        fix_note="No fix: the value is only known at run time.",
        references=(REF_ENV_OPTIONS,),
        group="options",
    ),
)
