"""MindSpore's profiler enums (NPP365): a member `ProfilerLevel`, `AicoreMetrics`, `ProfilerActivity`, `ExportType` or
`HostSystem` of mindspore.profiler does not define.

They are `Enum` classes (mindspore/profiler/common/constant.py): `ProfilerLevel.Level3`, `ProfilerLevel.Level_none`
(torch_npu's spelling) or `AicoreMetrics.PipeUtilisation` is an AttributeError where the expression is evaluated,
typically as the profiler's keywords are built, before training. Unlike a value of the wrong type, which MindSpore
resets with a warning (NPP350), this stops the job. The members are data/mindspore.json's `enums`, the same in
2.7-2.10; a name the script guards or sets is left alone (checks/member_uses.py).
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

from ..knowledge import mindspore as K
from ..source import said as S
from ..source.suggest import close_matches
from .member_uses import TYPE_ATTRIBUTES, name_of, uses
from .mindspore import MODULE, Names, mentions_mindspore


def check(ctx) -> None:
    text = ctx.src.text
    enums: Dict[str, dict] = K.data()["enums"]
    if not mentions_mindspore(text) or not any(e in text for e in enums):
        return
    names = Names(ctx.tree)
    if not names.aliases:
        return
    found = uses(ctx.tree)
    for node in found.attributes:
        missing = _missing(names.of(node), enums, found.named)
        if missing is not None:
            ctx.report_node("NPP365", name_of(node), words(*missing))


def _missing(full: Optional[str], enums: Dict[str, dict], named) -> Optional[Tuple[str, str, Tuple[str, ...]]]:
    """(enum, member, the enum's members) where `full` names a member mindspore.profiler's enum lacks."""
    if not full:
        return None
    owner, _, member = full.rpartition(".")
    module, _, enum = owner.rpartition(".")
    table = enums.get(enum) if module == MODULE else None
    if table is None or member in table["members"] or member.startswith("_") or member in TYPE_ATTRIBUTES or \
            member in named:
        return None
    return enum, member, tuple(table["members"])


def words(enum: str, member: str, members: Tuple[str, ...]) -> S.Said:
    guess = close_matches(member, sorted(members))
    advice = f"did you mean {enum}.{guess[0]}?" if guess else f"{enum} has {', '.join(members)}"
    # (python's own words differ by release: `AttributeError('Level3')` to 3.11, "type object ... has no attribute" on)
    return S.said(f"mindspore.profiler's {enum} has no member {member}",
                  f"MindSpore ({K.data()['releases']}) raises AttributeError where {enum}.{member} is evaluated, and "
                  "the job stops", advice)


# ---------------------------------------------------------------- the page

from .mindspore import REF_GUIDE, _CHECKED, _profiler  # noqa: E402
from .rule import Rule  # noqa: E402

RULES = (
    Rule(
        code="NPP365",
        name="mindspore-no-such-member",
        summary="a member of MindSpore's profiler enums (ProfilerLevel, AicoreMetrics, ProfilerActivity, ExportType, "
                "HostSystem) that MindSpore 2.7-2.10 do not define: AttributeError, and the job stops",
        default=True,
        level="error",
        what="`ProfilerLevel.Level3`, `ProfilerLevel.Level_none` (torch_npu's spelling; MindSpore's is `LevelNone`), "
             "`AicoreMetrics.PipeUtilisation` or `ProfilerActivity.Ascend`, reached through `mindspore.profiler` "
             "(with did-you-mean). A name the script guards (`hasattr`, `getattr` with a default, a `try` that "
             "catches the error) or sets is not reported.",
        why="The enums are Python `Enum` classes: a member they do not define is an AttributeError where the "
            "expression is evaluated, typically while the profiler's keywords are built before training starts. "
            "Unlike a value of the wrong type, which MindSpore resets to its default with a warning (NPP350), "
            "this ends the job.",
        example=_profiler("    profiler_level=ProfilerLevel.Level3,\n    aic_metrics=AicoreMetrics.PipeUtilization,\n"),
        fixed=_profiler("    profiler_level=ProfilerLevel.Level2,\n    aic_metrics=AicoreMetrics.PipeUtilization,\n"),
        fix_safety="none",
        fix_note="No fix: which member was meant is the author's to say (the message suggests one).",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="mindspore",
        facts=("mindspore.enums.members",),
    ),
)
