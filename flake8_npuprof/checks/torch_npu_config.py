"""torch_npu's profiler values (NPP300-NPP302, NPP304, NPP309): what `_ExperimentalConfig` and `schedule` are
given — a level, metric, export type or switch torch_npu resets or drops, schedule values it resets, the
positional order of `schedule`, and the data the target chip's collector refuses. The shared reporting is
checks/torch_npu_report.py; the knowledge data/torch_npu.json.
"""

from __future__ import annotations

import ast
from typing import Dict, Optional, Set, Tuple

from ..knowledge import torch_npu as K
from ..source.model import Edit, Fix
from ..source.said import Text, aside, clause, said
from ..source.suggest import close_matches
from .framework_values import EnumRef, Items, known as _known, plain as _plain, show as _show
from .torch_npu_report import (ACTIVE0_50, BUILD_50, BUILD_50_LEVEL0, CHECKED as _CHECKED, GOOD as _GOOD, Reaction,
                               Warns,
                               REF_GUIDE, TORCH as _TORCH, Names, every as _every, keywords as _keywords,
                               missing as _missing, raises_on_target as _raises_on_target, replace as _replace,
                               report as _report, script as _script)


def experimental(ctx, names: Names, call: ast.Call) -> None:
    data = K.data()["experimental_config"]
    kws = _keywords(ctx, call, data["keywords"], "_ExperimentalConfig")
    if call.args or _raises_on_target(ctx, call, data["keywords"]):     # positional order differs by release
        return
    values = {k: _known(ctx, names, kw.value) for k, kw in kws.items()}
    levels = data["profiler_level"]
    level = "Level0" if "profiler_level" not in kws else None
    given_levels = values.get("profiler_level")        # (None: not given, or not known)
    if given_levels:
        got = [_plain(v) for v in given_levels]
        if all(v not in levels.values() for v in got) and len(set(map(repr, got))) == 1:
            _bad_level(ctx, kws["profiler_level"].value, given_levels[0], levels)
            level = "reset"     # what a release then does with aic_metrics was not recorded (6.0+ keep the metric)
        elif len(set(got)) == 1 and got[0] in levels.values():
            level = got[0]
    if level == "Level_none" and given_levels and not isinstance(given_levels[0], EnumRef):
        _report(ctx, "NPP300", kws["profiler_level"].value, "profiler_level \"Level_none\" is new in torch_npu 6.0.rc2",
                {"5.0": BUILD_50, "6.0": clause("depends on the build",
                                                aside("6.0.rc1 resets it to Level0 with a warning on every rank"))},
                "target torch_npu 6.0.rc2 or later")
    metric_ok = _metric(ctx, kws.get("aic_metrics"), values.get("aic_metrics"), level, "profiler_level" in kws,
                        data) if level != "reset" else None
    for name, default in data["bools"].items():
        given = values.get(name)
        if given and all(not isinstance(v, bool) and v is not None for v in given):
            reactions = _every(Warns(f"resets it to {default}"))
            if name == "data_simplification":   # 6.0.rc1's default is None, 6.0.rc3's True
                reactions["6.0"] = Warns("resets it to its default")
            reactions.update(_missing(name, data["keywords"][name], "_ExperimentalConfig"))
            _report(ctx, "NPP300", kws[name].value, f"{name}={_show(given[0])} is not a bool", reactions,
                    f"write {name}=True or {name}=False")
    export = _export_type(ctx, kws.get("export_type"), values.get("export_type"), data)
    if "op_attr" in kws and values["op_attr"] and all(v is True for v in values["op_attr"]) and export is not None \
            and "db" not in export:
        reactions = _every(Warns("turns op_attr off", aside("op attributes are exported only to the db")))
        listed = values.get("export_type")
        if listed and len(listed) == 1 and isinstance(listed[0], Items) and "db" in [_plain(v) for v in listed[0]] \
                and all(_plain(v) in data["export_type"].values() for v in listed[0]):
            for r in K.releases_from(data["export_type_list_from"]):
                reactions[r] = None     # the list is kept there, with its "db"
        reactions.update(_missing("op_attr", "6.0", "_ExperimentalConfig"))
        _report(ctx, "NPP302", kws["op_attr"], "op_attr=True without \"db\" in export_type", reactions,
                "add export_type=[\"text\", \"db\"] (ExportType.Db)")
    if metric_ok is not None and metric_ok != "AiCoreNone":
        _chips(ctx, kws, values, level, metric_ok)
    elif metric_ok is None and "l2_cache" in kws:
        _chips(ctx, kws, values, level, None)


def _bad_level(ctx, node: ast.AST, value, levels: Dict[str, str]) -> None:
    shown = _show(value)
    guess = close_matches(str(_plain(value)), sorted(levels.values())) if isinstance(_plain(value), str) else []
    if isinstance(value, int) and not isinstance(value, bool) and f"Level{value}" in levels:
        guess = [f"Level{value}"]
    fix = None
    advice = f"write ProfilerLevel.{guess[0]} (\"{guess[0]}\")" if guess else \
        "use ProfilerLevel.Level0, Level1, Level2 or Level_none"
    if guess and isinstance(node, ast.Constant):
        fix = _replace(ctx, node, f'"{guess[0]}"', False, f'profiler_level "{guess[0]}" (collects that level)')
    _report(ctx, "NPP300", node, f"profiler_level {shown} is not a level torch_npu knows",
            _every(Warns("resets it to Level0")), advice, fix)


def _metric(ctx, kw: Optional[ast.keyword], values, level: Optional[str], level_given: bool,
            data) -> Optional[str]:
    """NPP301 for an aic_metrics value torch_npu does not accept, NPP302 for a metric at Level0/Level_none;
    returns the metric's name when it is known and accepted (None otherwise)."""
    if kw is None or not values:
        return None
    table = data["aic_metrics"]
    by_value = {v: k for k, v in table.items() if v}
    names: Set[Optional[str]] = set()             # None: a value not in the table
    for v in values:
        if isinstance(v, EnumRef):
            names.add(v.name)
        elif isinstance(v, str) and v in by_value:
            names.add(by_value[v])
        elif isinstance(v, str) and v.startswith("ACL_AICORE_"):
            return None                 # a constant this table lacks: maybe a newer one; not judged
        else:
            names.add(None)
    if None in names:
        bad = [v for v in values if not (isinstance(v, EnumRef) or (isinstance(v, str) and v in by_value))]
        if len(bad) == len(values) and len({repr(v) for v in bad}) == 1:
            _bad_metric(ctx, kw.value, bad[0], level, table, data, level_given)
        return None
    if len(names) != 1:
        return None
    name = names.pop()
    if name != "AiCoreNone" and level in ("Level0", "Level_none"):
        reactions = _every(Warns("drops it"))
        reactions["5.0"] = BUILD_50_LEVEL0 if level == "Level0" else None
        where = f"with profiler_level {level}" if level_given else \
            clause("at profiler_level Level0", aside("the default"))
        _report(ctx, "NPP302", kw, clause(f"aic_metrics {name} ", where), reactions,
                "AI Core metrics are collected at Level1 and Level2 only (it becomes AiCoreNone): add "
                "profiler_level=ProfilerLevel.Level1 to collect it")
    return name


def _bad_metric(ctx, node, value, level: Optional[str], table: Dict[str, str], data,
                level_given: bool = True) -> None:
    reset = {"Level0": "AiCoreNone", "Level_none": "AiCoreNone"}.get(level or "", "PipeUtilization") \
        if level else None
    to = reset if reset else clause("its default", aside("AiCoreNone at Level0, PipeUtilization at Level1/Level2"))
    reactions = _every(Warns(clause("resets it to ", to)))
    if level == "Level0":
        reactions["5.0"] = BUILD_50_LEVEL0
    fix = None
    if isinstance(value, str) and value in table:
        constant = table[value]
        # safe where the reset already gives what the fix asks for: the same data either way. At Level0 and
        # Level_none no metric is collected whatever it is named: writing the value there only trades this
        # finding for NPP302's, so the advice names the level instead and there is no fix
        dropped = level in ("Level0", "Level_none")
        # the record (tests/test_fix_safety.py): at Level1 6.0+ reset the name to ACL_AICORE_PIPE_UTILIZATION,
        # what the fix writes; 5.0.rc3 keeps the name as written; Level2 with a name was not recorded
        safe = level == "Level1" and value == "PipeUtilization" and "5.0" not in ctx.target.torch_npu_releases
        if isinstance(node, ast.Constant) and constant and not dropped:
            fix = _replace(ctx, node, f'"{constant}"', safe, f'aic_metrics "{constant}" (AiCMetrics.{value})')
        advice = f"write AiCMetrics.{value}" + (f" or \"{constant}\"" if constant else "")
        if dropped:
            advice += f", with profiler_level=ProfilerLevel.Level1 (at {level} no AI Core metric is collected)"
        _report(ctx, "NPP301", node, f"aic_metrics {value!r} is the member's name, not its value", reactions,
                advice, fix)
        return
    guess = close_matches(str(value), sorted(k for k in table if table[k])) if isinstance(value, str) else []
    advice = f"did you mean AiCMetrics.{guess[0]}?" if guess else \
        "use an AiCMetrics member (AiCMetrics.PipeUtilization, ...)"
    _report(ctx, "NPP301", node, f"aic_metrics {_show(value)} is not a metric torch_npu knows", reactions, advice)


def _export_type(ctx, kw: Optional[ast.keyword], values, data) -> Optional[Tuple[str, ...]]:
    """NPP300 for an export_type torch_npu resets; returns the export types in effect (None: unknown)."""
    if kw is None:
        return ("text",)
    if not values or len(values) != 1:
        return None
    value = values[0]
    allowed = set(data["export_type"].values())
    later = data["export_type_list_from"]
    if isinstance(value, Items):
        items = [_plain(v) for v in value]
        reactions: Dict[str, Optional[Reaction]] = {
            r: Warns("resets it to text", aside(f"a list is accepted from {later}")) for r in K.releases_before(later)}
        bad = [v for v in items if v not in allowed]
        if bad or not items:
            for r in K.releases_from(later):
                reactions[r] = Warns("resets it to text")
        reactions.update(_missing("export_type", "6.0", "_ExperimentalConfig"))
        if _report(ctx, "NPP300", kw.value, f"export_type {_show(value)} " + (
                f"holds {bad[0]!r}, not \"text\" or \"db\"" if bad else "is a list" if items else "is empty"),
                reactions, "write ExportType.Text and/or ExportType.Db"):
            return ("text",)
        return tuple(i for i in items if isinstance(i, str))
    plain = _plain(value)
    if plain in allowed:
        return (plain,)
    guess = close_matches(str(plain), sorted(allowed)) if isinstance(plain, str) else []
    reactions = _every(Warns("resets it to text"))
    reactions.update(_missing("export_type", "6.0", "_ExperimentalConfig"))
    _report(ctx, "NPP300", kw.value, f"export_type {_show(value)} is not \"text\" or \"db\"", reactions,
            f"did you mean {guess[0]!r} (ExportType.{'Db' if guess[0] == 'db' else 'Text'})?" if guess else
            "write ExportType.Text or ExportType.Db")
    return ("text",)


def _chips(ctx, kws, values, level: Optional[str], metric: Optional[str]) -> None:
    """NPP309: data the target chip's collector refuses, so aclprofStart fails. The chip's facts are the ones the
    options checks use (data/products.json: its AI Core metrics, and `l2` among what it cannot collect)."""
    from ..knowledge.datafiles import aic_metrics_for, product
    soc = ctx.target.soc
    if soc == "any" or (ctx.target.cann != "any" and ctx.target.cann not in K.data()["chips"]["known_cann"]):
        return
    lost = "gets no NPU data: aclprofStart fails, with only a line in the CANN log (plog)"
    l2 = values.get("l2_cache")
    if l2 and all(v is True for v in l2) and "l2" in product(soc)["unsupported"]:
        _report(ctx, "NPP309", kws["l2_cache"],
                clause(f"l2_cache=True on Ascend {soc}", aside("no L2 cache data there")),
                _every(lost), "drop l2_cache (or set it False) for this chip")
    if metric is None or level not in ("Level1", "Level2") or metric in aic_metrics_for(soc):
        return
    if metric == "L2Cache":
        _report(ctx, "NPP309", kws["aic_metrics"],
                clause(f"aic_metrics L2Cache on Ascend {soc}", aside("no L2 cache PMU there")),
                _every(lost),
                "use AiCMetrics.PipeUtilization or another metric of this chip")
    elif metric == "MemoryAccess":
        _report(ctx, "NPP309", kws["aic_metrics"], clause(f"aic_metrics MemoryAccess on Ascend {soc}",
                                                          aside("910B/910C only")),
                _every(clause("falls back to PipeUtilization with a warning where CANN's feature list lacks it, or "
                              "gets no NPU data", aside("aclprofStart fails"))),
                "use AiCMetrics.PipeUtilization or another metric of this chip")


def schedule(ctx, names: Names, call: ast.Call) -> None:
    data = K.data()["schedule"]
    kws = _keywords(ctx, call, data["keywords"], "schedule")
    if _raises_on_target(ctx, call, data["keywords"]):
        return
    star = any(kw.arg is None for kw in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args)
    if star or len(call.args) > len(data["positional"]):
        return
    given = dict(zip(data["positional"], call.args))
    given.update((k, kw.value) for k, kw in kws.items())
    missing = [k for k in data["required"] if k not in given]
    if missing:
        _report(ctx, "NPP303", call, f"schedule() without {' and '.join(missing)}",
                _every(clause("raises TypeError", aside(f"missing required argument{'s' if len(missing) > 1 else ''}"),
                              " when the script starts")), f"give {', '.join(f'{m}=' for m in missing)}")
    if len(call.args) >= 3:
        read = ", ".join(f"{n}={ast.get_source_segment(ctx.src.text, a) or '...'}"
                         for n, a in zip(data["positional"], call.args))
        edits = tuple(Edit(ctx.src.node_start(a), ctx.src.node_start(a), f"{n}=")
                      for n, a in zip(data["positional"], call.args))
        ctx.report_node("NPP304", call, said(clause("schedule's positional order is wait, active, warmup",
                                                    aside("torch's own is wait, warmup, active")),
                                             f"this call is read as {read}",
                                             "write the arguments as keywords"),
                        Fix(edits, True, "name schedule's arguments (the same values)"))
    checked = data["type_checked_from"]
    for name, node in given.items():
        values = _known(ctx, names, node)
        if not values or len({repr(v) for v in values}) != 1:
            continue
        value = values[0]
        floor = 1 if name == "active" else 0
        integer = isinstance(value, int)
        if integer and (value >= floor or name == "skip_first_wait"):   # skip_first_wait: only its type is checked
            continue
        reactions: Dict[str, Optional[Reaction]] = {r: Warns(f"resets it to {floor}") for r in K.releases_from(checked)}
        reactions.update({r: _schedule_before_checks(name, value) for r in K.releases_before(checked)})
        reactions.update(_missing(name, data["keywords"][name], "schedule"))
        what = f"{name}={_show(value)} " + ("is not an int" if not integer else
                                             "is not positive" if name == "active" else "is negative")
        _report(ctx, "NPP300", node, what, reactions,
                "write a whole number" + (" of at least 1" if floor else " of at least 0"))


def _schedule_before_checks(name: str, value) -> Optional[Text]:
    """What 5.0 does with a schedule value the later releases reset. 5.0.rc3 keeps every value as written (the
    final 5.0 was not recorded); a value int() reads as valid (2.0, "2") counts as accepted, as before."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return BUILD_50
    if number >= (1 if name == "active" else 0):
        return None
    if name == "active" and value == 0:
        return ACTIVE0_50
    return BUILD_50



# ---------------------------------------------------------------- the pages of the codes reported here

from .rule import Rule  # noqa: E402

RULES = (
    Rule(
        code="NPP300",
        name="torch-npu-value-reset",
        summary="a torch_npu profiler setting of the wrong type or value: torch_npu resets it to its default "
                "with a warning on rank 0 only",
        default=True,
        level="warning",
        what="A value torch_npu's profiler does not accept, in `_ExperimentalConfig` (a `profiler_level` other "
             "than the four level names, a non-bool switch such as `l2_cache=1`, an `export_type` other than "
             "\"text\"/\"db\"), `schedule` (a non-int, a negative value, `active` of 0), `profile` (a string in "
             "`activities`, a non-bool `record_shapes`/`with_stack`/...) or `tensorboard_trace_handler` (a "
             "`dir_name` that is not a string). Values built in code are followed (names, constants, argparse "
             "defaults); what cannot be known stays quiet.",
        why="torch_npu never stops on a bad profiling setting: it replaces the value by its default and prints "
            "one warning, and only on rank 0 (6.0.rc1: on every rank; not at all with TORCH_NPU_DISABLED_WARNING=1 "
            "from 6.0.rc3, or TORCH_NPU_WARNING_DISABLE=1 from 26.2: 6.0 to 26.1 still warn with the latter). "
            "5.0.rc3, the one 5.0 build recorded, checks none of these values and keeps them as written; the "
            "final 5.0 was not recorded, so for 5.0 the message says it depends on the build. "
            "`profiler_level=\"level1\"` collects Level0 data; `activities=[\"NPU\"]` collects CPU and NPU. "
            "The run looks fine and the data is not what was asked for.",
        example=_script("    profiler_level=\"level1\",\n"),
        fixed=_script("    profiler_level=ProfilerLevel.Level1,\n"),
        fix_safety="unsafe",
        fix_note="A `profiler_level` string that differs from a level only in case is rewritten to the level; "
                 "unsafe, since it changes what is collected (the run collected Level0 before).",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.experimental_config.", "torch_npu.schedule.values", "torch_npu.profile.activities",
               "torch_npu.profile.bools", "torch_npu.handler.dir_name", "torch_npu.warnings_rank0"),
    ),
    Rule(
        code="NPP301",
        name="torch-npu-aic-metrics",
        summary="`aic_metrics` that torch_npu does not accept (often the enum member's name, \"PipeUtilization\", "
                "instead of its value): reset to the default with a warning on rank 0 only",
        default=True,
        level="warning",
        what="An `_ExperimentalConfig(aic_metrics=...)` value that is not one of the `AiCMetrics` values "
             "(\"ACL_AICORE_PIPE_UTILIZATION\", ...). The common case is the member's name written as a string, "
             "`aic_metrics=\"PipeUtilization\"`: the dynamic-profiling JSON takes names, the Python API takes values.",
        why="torch_npu replaces an unknown metric by its default (AiCoreNone at Level0, PipeUtilization at Level1 "
            "and Level2) with one warning on rank 0: `\"Memory\"` collects PipeUtilization data, without error.",
        example=_script("    profiler_level=ProfilerLevel.Level1,\n    aic_metrics=\"PipeUtilization\",\n"),
        fixed=_GOOD,
        fix_safety="sometimes",
        fix_note="A member's name is replaced by its value (\"PipeUtilization\" → \"ACL_AICORE_PIPE_UTILIZATION\"). "
                 "Safe only where the record shows the reset already gave that value on every release the target "
                 "covers: PipeUtilization at Level1 on 6.0 and later (5.0.rc3 keeps the name as written, so not "
                 "under `any` or `portable`); otherwise unsafe, since the run collected something else before. "
                 "At Level0 and Level_none no metric is collected: no fix, the advice names the level.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.experimental_config.aic_metrics",),
    ),
    Rule(
        code="NPP302",
        name="torch-npu-setting-dropped",
        summary="a torch_npu profiler setting that another setting makes torch_npu drop (aic_metrics at Level0, "
                "op_attr without the db export, experimental_config without NPU activity)",
        default=True,
        level="warning",
        what="A valid setting that has no effect because of another one: `aic_metrics` with `profiler_level` "
             "Level0 (the default) or Level_none, `op_attr=True` while `export_type` has no \"db\", and "
             "`experimental_config` while `activities` has no `ProfilerActivity.NPU`.",
        why="torch_npu drops the setting with one warning on rank 0: AI Core metrics are collected at Level1 and "
            "Level2 only, op attributes are exported to the db only, and the experimental config configures "
            "the NPU side. The run collects less than the script says.",
        example=_script("    aic_metrics=AiCMetrics.PipeUtilization,\n"),
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: whether to raise the level or drop the metric is the author's choice.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.experimental_config.level0_metrics", "torch_npu.experimental_config.op_attr",
               "torch_npu.profile.experimental_without_npu"),
    ),
    Rule(
        code="NPP304",
        name="torch-npu-schedule-positional",
        summary="`schedule` called with three or more positional arguments: torch_npu reads them as wait, active, "
                "warmup (torch's order is wait, warmup, active)",
        default=False,
        level="note",
        enabled_by="NPP304",
        what="A `torch_npu.profiler.schedule(1, 1, 3)` call. torch_npu's positional order is "
             "`wait, active, warmup, repeat, skip_first`; code ported from `torch.profiler.schedule`, whose "
             "arguments are keyword-only in the order wait, warmup, active, easily swaps active and warmup.",
        why="Nothing fails: the run records `active` steps where `warmup` was meant, or the reverse. The finding "
            "shows how the call is read; naming the arguments makes the intent visible. Off by default, since "
            "the order may be what was meant.",
        example=_TORCH + "schedule = torch_npu.profiler.schedule(1, 1, 3)\n",
        fixed=_TORCH + "schedule = torch_npu.profiler.schedule(wait=1, active=1, warmup=3)\n",
        fix_safety="safe",
        fix_note="The arguments are named in the order torch_npu reads them: the same values, the same schedule.",
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.schedule.keywords",),
    ),
    Rule(
        code="NPP309",
        name="torch-npu-chip-unsupported",
        summary="l2_cache or an AI Core metric the target chip's collector refuses: aclprofStart fails, no NPU "
                "data, only a line in the CANN log",
        default=True,
        level="warning",
        what="With `--npuprof-soc`: `l2_cache=True` on Ascend 310; `aic_metrics` L2Cache on 910, 310P or 310; "
             "MemoryAccess outside 910B/910C (at Level1/Level2, where the metric is used).",
        why="torch_npu passes these settings to the collector's ACL profiling API. The collector checks each "
            "data type and metric against the chip and refuses the start: torch_npu logs \"Profiling start "
            "failed\" to the CANN log (plog) only and carries on with framework data. (For MemoryAccess torch_npu "
            "first asks CANN's feature list and, where it lacks the metric, falls back to PipeUtilization with a "
            "warning.)",
        example=_script("    profiler_level=ProfilerLevel.Level1,\n    l2_cache=True,\n"),
        fixed=_script("    profiler_level=ProfilerLevel.Level1,\n"),
        fix_safety="none",
        fix_note="No fix: drop the setting for this chip, or profile on a chip that has it.",
        options="Reported only with a product target (`--npuprof-soc`), and not for a CANN target before 8.5 (the "
                "ACL path of older collectors was not read).",
        references=(REF_GUIDE,),
        settings=(("soc", "310"),),
        group="torch_npu",
        facts=("torch_npu.chips",),
    ),
)
