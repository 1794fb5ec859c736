"""The training trace's points: `training_trace` on without `fp_point`/`bp_point` (NPP104), and points
set while the trace is off (NPP105).
"""

from __future__ import annotations

from typing import List

from ..knowledge import datafiles as K
from ..source.jsonscan import Doc
from ..source.model import Issue, TextFix
from ..source.said import clause, said, so
from ..knowledge.targets import Target
from .options_problem import _any_unknown, _json, _member_removal, _members


def _trace_points(doc: Doc, target: Target) -> List[Issue]:
    members = _members(doc)
    tt = members.get("training_trace")
    tt_on = tt is not None and tt.value == "on"
    out: List[Issue] = []
    if tt is not None and tt.unknown:
        return out
    # guidance only where some targeted chip and version collects the step trace
    if tt is not None and tt_on and \
            not all("training_trace" in K.unsupported(p, v) for v in target.versions for p in target.products):
        missing = [k for k in ("fp_point", "bp_point") if k not in members]
        if missing:
            names = "/".join(f'"{k}"' for k in missing)
            add = ",".join(f'"{k}":""' for k in missing)
            out.append(Issue(
                "NPP104", tt.key_start, tt.value_end,
                said(f'"training_trace" is "on" without {names}',
                     "nothing fails, yet the TF Adapter guide asks for both",
                     "GE searches for the points itself (not with dynamic shape, where they must be named)",
                     f'add {add} ("" asks for the search) or the op names from your graph'),
                TextFix(((tt.value_end, tt.value_end, "," + add),), True, f"add {add}"), "training_trace",
                effect="guidance"))
    if not tt_on and not (tt is None and _any_unknown(doc)):
        for key in ("fp_point", "bp_point"):
            m = members.get(key)
            if m is not None and not m.unknown and isinstance(m.value, str) and m.value:
                state = "absent" if tt is None else f'"{tt.value}"' if isinstance(tt.value, str) else _json(tt.value)
                out.append(Issue(
                    "NPP105", m.key_start, m.value_end,
                    said(f'"{key}" is set but "training_trace" is {state}',
                         clause("GE reads the points only for the training trace", so("it ignores them")),
                         'switch "training_trace" on or drop the point'),
                    TextFix((_member_removal(doc, m),), False, f'drop "{key}"'), key, effect="silent"))
    return out


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    GOOD_OPTIONS, REF_ENV_OPTIONS, REF_FP_BP, REF_FP_BP_DYNAMIC, REF_GE_FP_BP_SEARCH, REF_GE_INIT, REF_SESSION,
    Rule, _opts)

RULES = (
    Rule(
        code="NPP104",
        name="training-trace-without-points",
        summary="`training_trace` is `\"on\"` but `fp_point`/`bp_point` are missing (give them, `\"\"` means "
                "automatic)",
        default=True,
        level="note",
        what="Options that switch `training_trace` on but do not contain `fp_point` and `bp_point`.",
        why="Guidance, not a failure (reported as a SARIF note, an editor information): when a point is empty "
            "or absent, GE searches for it while it builds the graph. The forward point is the earliest consumer "
            "of the first Data, GetNext or IteratorV2 node in GE's node order; the backward point is the latest "
            "op on the same stream that feeds the last AllReduce (HcomAllReduce or Horovod's), or, with no "
            "AllReduce, the graph's output. The TF Adapter guide nevertheless asks for both keys with the "
            "training trace; `\"\"` says the search is wanted and leaves an obvious place for real op names.\n\n"
            "The search is not enough when:\n\n"
            "- the model has dynamic shapes: the PROFILING_OPTIONS reference says the points are not found "
            "automatically there and must be given by hand;\n"
            "- the first Data node in GE's order is not the model input (a placeholder fed for the learning "
            "rate, say): the forward point is then that node's consumer;\n"
            "- the op feeding the output (one device, no AllReduce) is not where the backward pass ends;\n"
            "- nothing matches: GE logs `First forward op name can't be found in graph for training trace.` "
            "(or `Last backward op name ...`) at graph build, and the iteration trace lacks that point.\n\n"
            "In those cases write the op names from the graph (`tf.io.write_graph`), as the FP/BP page shows.",
        example=_opts('{"output":"/tmp/prof","training_trace":"on","task_trace":"on"}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="sometimes",
        fix_note="Adds `\"fp_point\":\"\",\"bp_point\":\"\"` to an options string literal, which asks for "
                 "exactly what the runtime does without them: safe. No fix for options built in code (a "
                 "`json.dumps({...})` dict, concatenation, a flag): add the two keys there.",
        options="Not reported when no targeted chip and version collects the step trace (--npuprof-soc 310 with "
                "--npuprof-cann 7.0 or 8.0); that case is NPP114.",
        references=(REF_FP_BP, REF_GE_FP_BP_SEARCH, REF_FP_BP_DYNAMIC, REF_SESSION, REF_ENV_OPTIONS),
        group="options",
        facts=("option_keys.meaning.fp_point", "guidance.training_trace_points",
               "collection.emulation.trace_point_warnings"),
    ),
    Rule(
        code="NPP105",
        name="trace-points-without-training-trace",
        summary="`fp_point`/`bp_point` set while `training_trace` is not `\"on\"` — ignored",
        default=True,
        level="warning", tags=('unnecessary',),
        what="A non-empty `fp_point` or `bp_point` in options where `training_trace` is absent or empty.",
        why="GE reads the forward and backward points only to place the iteration-trace marks, which exist "
            "only with the training trace on. Otherwise the names are dropped without a message, and whoever "
            "set them will look in vain for step-trace data.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","fp_point":"resnet_model/conv2d/Conv2D",'
                      '"bp_point":"gradients/AddN_70"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="unsafe",
        fix_note="Drops the unused points. Unsafe: the user may rather have wanted `training_trace` on.",
        references=(REF_FP_BP, REF_GE_INIT),
        group="options",
        facts=("schema.fp_point", "option_keys.meaning.fp_point"),
    ),
)
