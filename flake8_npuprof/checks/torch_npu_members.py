"""torch_npu's profiler enums (NPP317): a member or class the target's release does not define.

`ProfilerLevel`, `AiCMetrics`, `ExportType` and `HostSystem` are plain classes of class attributes and
`ProfilerActivity` a pybind11 enum: `ProfilerLevel.Level3` or `AiCMetrics.MemoryAccess` on 6.0 is an
AttributeError where the expression is evaluated (at `_ExperimentalConfig(...)` when it is an argument),
and `from torch_npu.profiler import HostSystem` before 7.1 an ImportError. Unlike a bad value, which
torch_npu resets with a warning, these stop the job. Which release has which member is
data/torch_npu_members.json, read from every release tag's class bodies.

A script that guards the name (`hasattr(...)`, `getattr(..., default)`, a `try` that catches the error) or
assigns it is not reported.
"""

from __future__ import annotations

import ast
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, Optional

from ..knowledge import torch_npu as K
from ..knowledge.targets import TORCH_NPU_RELEASES
from ..source.said import Text, aside, clause, logged
from ..source.suggest import close_matches
from .member_uses import TYPE_ATTRIBUTES, name_of, uses
from .torch_npu_report import CHECKED, PROFILER, REF_GUIDE, Names, every, report, script, torch_npu_mentioned


@lru_cache(maxsize=None)
def classes() -> Dict[str, dict]:
    path = Path(__file__).resolve().parent.parent / "data" / "torch_npu_members.json"
    return json.loads(path.read_text(encoding="utf-8"))["classes"]


def check(ctx) -> None:
    text = ctx.src.text
    if not torch_npu_mentioned(ctx) or not any(c in text for c in classes()):
        return
    names = Names(ctx.tree)
    if not names.aliases:
        return
    found = uses(ctx.tree)
    guarded = (found.inside, found.named)
    for statement in found.imports:
        _imported(ctx, statement, guarded)
    for node in found.attributes:
        full = names.of(node)
        if full:
            _attribute(ctx, node, full, guarded)


def _attribute(ctx, node: ast.Attribute, full: str, guarded) -> None:
    owner, _, member = full.rpartition(".")
    if owner == PROFILER and member in classes():           # the class itself: torch_npu.profiler.HostSystem
        if member not in guarded[1]:
            _missing_class(ctx, node, member, "AttributeError")
        return
    cls = owner[len(PROFILER) + 1:] if owner.startswith(PROFILER + ".") else ""
    table = classes().get(cls)
    if table is None or member.startswith("_") or member in TYPE_ATTRIBUTES or member in guarded[1]:
        return
    first = table["members"].get(member)
    if first == table["from"] != TORCH_NPU_RELEASES[0]:
        return                                              # as new as its class: said where the class is named
    where = f"{cls}.{member}"
    at = name_of(node)
    if first is None:
        guess = close_matches(member, sorted(table["members"]))
        hint = f"did you mean {cls}.{guess[0]}?" if guess else f"{cls} has {', '.join(table['members'])}"
        report(ctx, "NPP317", at, f"torch_npu's {cls} has no member {member}",
               every(clause("raises AttributeError", logged(f" ({cls} has no attribute {member!r})"),
                            f" where {where} is evaluated, and the job stops")), hint)
    elif first != TORCH_NPU_RELEASES[0]:
        report(ctx, "NPP317", at, f"{where} is new in torch_npu {first}",
               _before(first, f"{cls} has no {member}", "AttributeError"),
               f"use another member, or target torch_npu {_first_release(first)}+")


def _imported(ctx, node: ast.ImportFrom, guarded) -> None:
    module = node.module or ""
    if module not in (PROFILER, PROFILER + ".experimental_config"):
        return
    for alias in node.names:
        if alias.name in classes() and alias.name not in guarded[1] and id(node) not in guarded[0]:
            _missing_class(ctx, _alias_at(ctx, node, alias), alias.name, "ImportError")


def _alias_at(ctx, stmt: ast.ImportFrom, alias: ast.alias) -> ast.AST:
    """Where an imported name is written: the alias (3.10+), else its name found in the statement's text, since
    Python 3.9's aliases have no position (the statement itself when it is not found)."""
    if getattr(alias, "lineno", None) is not None:
        return alias
    start, end = ctx.src.node_start(stmt), ctx.src.node_end(stmt)
    segment = ctx.src.text[start:end]
    keyword = re.search(r"\bimport\b", segment)
    found = re.compile(rf"(?<![\w.]){re.escape(alias.name)}(?!\w)").search(segment, keyword.end() if keyword else 0)
    if found is None:
        return stmt
    line, col = ctx.src.position(start + found.start())
    byte_col = len(ctx.src.line_text(line)[:col].encode("utf-8"))
    return ast.Name(id=alias.name, ctx=ast.Load(), lineno=line, col_offset=byte_col, end_lineno=line,
                    end_col_offset=byte_col + len(alias.name.encode("utf-8")))


def _missing_class(ctx, node: ast.AST, cls: str, error: str) -> None:
    first = classes()[cls]["from"]
    if first == TORCH_NPU_RELEASES[0]:
        return
    report(ctx, "NPP317", name_of(node) if isinstance(node, ast.Attribute) else node,
           f"torch_npu.profiler.{cls} is new in torch_npu {first}",
           _before(first, f"torch_npu.profiler has no {cls}", error),
           f"drop it, or target torch_npu {_first_release(first)}+")


def _before(first: str, lacks: str, error: str) -> Dict[str, Optional[Text]]:
    """The error on the releases before `first` (a release, or the first build of its release: 6.0.rc2)."""
    release = _first_release(first)
    out: Dict[str, Optional[Text]] = {r: clause(f"raises {error}", aside(f"{lacks} before {release}"),
                                                ", and the job stops") for r in K.releases_before(release)}
    if first != release:
        out[release] = f"depends on the build: its builds before {first} raise {error}, and the job stops"
    return out


def _first_release(first: str) -> str:
    """The release a first build belongs to: 6.0.rc2 -> 6.0."""
    return next(r for r in reversed(TORCH_NPU_RELEASES) if first == r or first.startswith(r + "."))


# ---------------------------------------------------------------- the page

from .rule import Rule  # noqa: E402

RULES = (
    Rule(
        code="NPP317",
        name="torch-npu-no-such-member",
        summary="a member of torch_npu's profiler enums (ProfilerLevel, AiCMetrics, ExportType, HostSystem, "
                "ProfilerActivity) or one of those classes that the target release does not define: AttributeError "
                "or ImportError, and the job stops",
        default=True,
        level="error",
        what="`ProfilerLevel.Level3`, `AiCMetrics.PipeUtilisation` (with did-you-mean), or a member the target "
             "release lacks (`AiCMetrics.MemoryAccess` before 7.0, `ProfilerLevel.Level_none` and "
             "`AiCMetrics.AiCoreNone` before 6.0.rc2, `HostSystem.NUMA` before 26.1); `ExportType` before 6.0 and "
             "`HostSystem` before 7.1, named or imported from torch_npu.profiler. A name the script guards "
             "(`hasattr`, `getattr` with a default, a `try` that catches the error) or sets is not reported.",
        why="The enums are plain classes (ProfilerActivity a pybind11 enum): a member they do not define is an "
            "AttributeError where the expression is evaluated, typically while `_ExperimentalConfig(...)` is built "
            "before training starts, and a class the release lacks fails the import. Unlike a bad value, which "
            "torch_npu resets with a warning, these end the job.",
        example=script("    profiler_level=ProfilerLevel.Level1,\n    aic_metrics=AiCMetrics.PipeUtilisation,\n"),
        fixed=script("    profiler_level=ProfilerLevel.Level1,\n    aic_metrics=AiCMetrics.PipeUtilization,\n"),
        fix_safety="none",
        fix_note="No fix: which member was meant is the author's to say (the message suggests one).",
        options=CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.profiler.members",),
    ),
)
