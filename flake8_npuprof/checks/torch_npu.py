"""torch_npu's profiler setup (NPP300-NPP310): `torch_npu.profiler.profile`, `_ExperimentalConfig`,
`schedule`, `tensorboard_trace_handler`, the training loop that steps it, the legacy API, and the
environment variables that switch it off.

torch_npu never stops on a bad profiling setting: a bad value is reset to a default with a warning
printed on rank 0 only, and a profiler that never reaches its active steps collects nothing and says
nothing. Each message says what torch_npu does, per release where releases differ; the target's
torch_npu release (`--npuprof-torch-npu`, default any) decides what is reported, as the CANN target
does for the options checks. The knowledge is data/torch_npu.json (knowledge/torch_npu.py).
"""

from __future__ import annotations

import ast
from typing import Dict, Iterable, List, NamedTuple, Optional, Tuple

from ..knowledge import torch_npu as K
from ..knowledge.targets import TORCH_NPU_RELEASES
from ..source.model import Edit, Fix
from ..source.said import said
from ..source.sites import dotted
from ..source.suggest import close_matches
from .framework_values import EnumRef, Items, Names as FrameworkNames, known as _known, plain as _plain, show as _show

PROFILER = "torch_npu.profiler"
PROFILE = PROFILER + ".profile"
EXPERIMENTAL = PROFILER + "._ExperimentalConfig"
SCHEDULE = PROFILER + ".schedule"
HANDLER = PROFILER + ".tensorboard_trace_handler"
ENUMS = {PROFILER + ".ProfilerLevel": "profiler_level", PROFILER + ".AiCMetrics": "aic_metrics",
         PROFILER + ".ExportType": "export_type", PROFILER + ".ProfilerActivity": "activities"}
RANK0 = "with a warning on rank 0 only"
# 6.0.rc1 prints its warnings on every rank (the record's env.RANK_1 case); 6.0.rc3 on, rank 0 only
RANK0_60 = "with a warning on rank 0 only (6.0.rc1: on every rank)"
# The one 5.0 build recorded (5.0.rc3) validates none of these values: it keeps them as written, silently;
# the final 5.0 was not recorded (its wheels are not served), so for 5.0 a reset is not claimed
BUILD_50_LEVEL0 = "depends on the build (5.0.rc3 keeps the value as written, with a warning that AI Core metrics " \
    "need Level1 or Level2; later 5.0 builds were not recorded)"
EXPERIMENTAL_50 = "ignores it, with a Python warning (5.0.rc3; later 5.0 builds were not recorded)"
PROFILE_BOOL_50 = "depends on the build (5.0.rc3 does not check its type: record_shapes=\"True\" raised TypeError " \
    "there, profile_memory=1 and with_modules=\"yes\" were kept; later 5.0 builds were not recorded)"
ACTIVE0_50 = "depends on the build (5.0.rc3 keeps active=0 without a warning, then raises ZeroDivisionError at " \
    "prof.step(); later 5.0 builds were not recorded)"
BUILD_50 = "depends on the build (5.0.rc3 keeps the value as written, without a warning; later 5.0 builds " \
    "were not recorded)"
EVERY = "every"                         # a reaction shared by every release


def mentions_torch_npu(text: str) -> bool:
    """Whether a file may use torch_npu's profiler (cheap, before any walk)."""
    return "torch_npu" in text or "npu.prof" in text or "use_npu" in text


def _torch_enum(owner: str, member: str) -> Optional[EnumRef]:
    kind = ENUMS.get(owner)
    if kind is None:
        return None
    table = K.data()["experimental_config"].get(kind, {}) if kind != "activities" else \
        {a: a for a in K.data()["profile"]["activities"]}
    if member not in table:
        return None
    return EnumRef(kind, member, table[member])


class Names(FrameworkNames):
    """The file's names for torch and torch_npu, with the submodules that re-export the profiler's objects."""

    def __init__(self, tree: ast.AST):
        super().__init__(tree, ("torch", "torch_npu"),
                         ((PROFILER + ".profiler.", PROFILER + "."),
                          (PROFILER + ".experimental_config.", PROFILER + "."),
                          (PROFILER + ".scheduler.", PROFILER + ".")), _torch_enum)


# ---------------------------------------------------------------- reporting per release

def _every(reaction: str) -> Dict[str, str]:
    return {r: reaction for r in TORCH_NPU_RELEASES}


def _missing(keyword: str, first: str, table: str) -> Dict[str, str]:
    """The TypeError a keyword gives on the releases before the one that added it (and on the builds of its
    first line before the one that added it: 6.0.rc1 lacks msprof_tx, which 6.0.rc3 has)."""
    out = {r: f"raises TypeError ({table} has no {keyword} before {first})" for r in K.releases_before(first)}
    build = K.data().get("first_build", {}).get(table, {}).get(keyword)
    if build:
        out[first] = f"depends on the build ({build[0]} raises TypeError: {table} has no {keyword} before {build[1]})"
    return out


def _report(ctx, code: str, node: ast.AST, head: str, reactions: Dict[str, Optional[str]], advice: str = "",
            fix: Optional[Fix] = None, fine_as: Optional[Dict[str, str]] = None) -> bool:
    """Report `head: torch_npu <reaction>` when the target's releases fail (per release where they differ).
    fine_as: what a release that does not fail does, where "accepts it" would say too little."""
    target = ctx.target
    bad = {r: _worded(r, x, target.torch_npu) for r, x in reactions.items() if x}
    if not target.torch_npu_fails_on(bad):
        return False
    shown = [r for r in target.torch_npu_releases if r in bad]
    groups: Dict[str, List[str]] = {}
    for r in shown:
        groups.setdefault(bad[r], []).append(r)
    others: List[str] = []              # what the other releases do, a clause each
    if target.torch_npu not in ("any", "portable"):
        body = f"torch_npu {target.torch_npu} {bad[target.torch_npu]}"
    elif len(groups) == 1 and len(shown) == len(TORCH_NPU_RELEASES):
        body = f"torch_npu {bad[shown[0]]}"
    else:                               # the most releases' reaction first; the others after it
        order = sorted(groups.items(), key=lambda g: -len(g[1]))
        body = f"torch_npu {K.span(order[0][1])} {order[0][0]}"
        others += [f"on torch_npu {K.span(rs)} it {x}" for x, rs in order[1:]]
        fine: Dict[str, List[str]] = {}
        for r in TORCH_NPU_RELEASES:
            if r not in bad:
                fine.setdefault((fine_as or {}).get(r, "accepts it"), []).append(r)
        others += [f"torch_npu {K.span(rs)} {what}" for what, rs in fine.items()]
    notes = getattr(ctx, "torch_npu_notes", {}).get(id(node))
    aside = f" ({'; '.join(notes)})" if notes else ""
    ctx.report_node(code, node, said(head, body, *others, advice).closed_with(aside), fix)
    return True


def _worded(release: str, reaction: str, target: str) -> str:
    """A reaction as that release's builds show it: 5.0's validation by build, 6.0.rc1's warnings on every rank."""
    if RANK0 not in reaction or RANK0_60 in reaction:
        return reaction
    if release == "5.0":
        return BUILD_50
    if target in ("any", "portable", "6.0"):
        return reaction.replace(RANK0, RANK0_60)
    return reaction


def _replace(ctx, node: ast.AST, text: str, safe: bool, title: str) -> Fix:
    return Fix((Edit(ctx.src.node_start(node), ctx.src.node_end(node), text),), safe, title)


# ---------------------------------------------------------------- the checks

def check(ctx) -> None:
    if not mentions_torch_npu(ctx.src.text):
        return
    names = Names(ctx.tree)
    if not names.aliases:
        return
    ctx.torch_npu_notes = names.notes
    calls = [n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call)]
    profiles = []
    for call in calls:
        full = names.of(call.func)
        if full is None:
            continue
        if full == EXPERIMENTAL:
            _experimental(ctx, names, call)
        elif full == SCHEDULE:
            _schedule(ctx, names, call)
        elif full == PROFILE:
            profiles.append(call)
            _profile(ctx, names, call)
        elif full == HANDLER:
            _handler(ctx, names, call)
        else:
            _legacy(ctx, call, full)
    if profiles:
        _loops(ctx, names, profiles)
        _environment(ctx, names)


def _raises_on_target(ctx, call: ast.Call, table: Dict[str, str]) -> bool:
    """Whether the call raises TypeError on the target release (a keyword it lacks): then only that is said."""
    release = ctx.target.torch_npu
    if release in ("any", "portable"):
        return False
    return any(kw.arg and (kw.arg not in table or release in K.releases_before(table[kw.arg]))
               for kw in call.keywords)


def _keywords(ctx, call: ast.Call, table: Dict[str, str], what: str) -> Dict[str, ast.keyword]:
    """NPP303 for keywords no release has, or the target's release lacks; returns the keywords by name."""
    out = {}
    for kw in call.keywords:
        if kw.arg is None:
            continue
        out[kw.arg] = kw
        first = table.get(kw.arg)
        if first is None:
            guess = close_matches(kw.arg, sorted(table))
            hint = f"; did you mean {guess[0]}=?" if guess else f"; it takes {', '.join(sorted(table))}"
            _report(ctx, "NPP303", kw, f"{what} has no keyword {kw.arg}",
                    _every(f"raises TypeError (unexpected keyword argument {kw.arg!r}) when the script starts"),
                    hint.lstrip("; "))
        else:
            _report(ctx, "NPP303", kw, f"{what}'s keyword {kw.arg} is new in torch_npu {first}",
                    _missing(kw.arg, first, what), f"drop it, or target torch_npu {first}+")
    return out


def _experimental(ctx, names: Names, call: ast.Call) -> None:
    data = K.data()["experimental_config"]
    kws = _keywords(ctx, call, data["keywords"], "_ExperimentalConfig")
    if call.args or _raises_on_target(ctx, call, data["keywords"]):     # positional order differs by release
        return
    values = {k: _known(ctx, names, kw.value) for k, kw in kws.items()}
    levels = data["profiler_level"]
    level = "Level0" if "profiler_level" not in kws else None
    if "profiler_level" in kws and values["profiler_level"]:
        got = [_plain(v) for v in values["profiler_level"]]
        if all(v not in levels.values() for v in got) and len(set(map(repr, got))) == 1:
            _bad_level(ctx, kws["profiler_level"].value, values["profiler_level"][0], levels)
            level = "reset"     # what a release then does with aic_metrics was not recorded (6.0+ keep the metric)
        elif len(set(got)) == 1 and got[0] in levels.values():
            level = got[0]
    if level == "Level_none" and values.get("profiler_level") and not isinstance(values["profiler_level"][0], EnumRef):
        _report(ctx, "NPP300", kws["profiler_level"].value, "profiler_level \"Level_none\" is new in torch_npu 6.0.rc3",
                {"5.0": BUILD_50, "6.0": "depends on the build (6.0.rc1 resets it to Level0 with a warning on every rank)"},
                "target torch_npu 6.0.rc3 or later")
    metric_ok = _metric(ctx, kws.get("aic_metrics"), values.get("aic_metrics"), level, "profiler_level" in kws,
                        data) if level != "reset" else None
    for name, default in data["bools"].items():
        if name in kws and values[name] and all(not isinstance(v, bool) and v is not None for v in values[name]):
            reactions = _every(f"resets it to {default} {RANK0}")
            if name == "data_simplification":   # 6.0.rc1's default is None, 6.0.rc3's True
                reactions["6.0"] = f"resets it to its default {RANK0}"
            reactions.update(_missing(name, data["keywords"][name], "_ExperimentalConfig"))
            _report(ctx, "NPP300", kws[name].value, f"{name}={_show(values[name][0])} is not a bool", reactions,
                    f"write {name}=True or {name}=False")
    export = _export_type(ctx, kws.get("export_type"), values.get("export_type"), data)
    if "op_attr" in kws and values["op_attr"] and all(v is True for v in values["op_attr"]) and export is not None \
            and "db" not in export:
        reactions = _every(f"turns op_attr off {RANK0} (op attributes are exported only to the db)")
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
            _every(f"resets it to Level0 {RANK0}"), advice, fix)


def _metric(ctx, kw: Optional[ast.keyword], values, level: Optional[str], level_given: bool,
            data) -> Optional[str]:
    """NPP301 for an aic_metrics value torch_npu does not accept, NPP302 for a metric at Level0/Level_none;
    returns the metric's name when it is known and accepted (None otherwise)."""
    if kw is None or not values:
        return None
    table = data["aic_metrics"]
    by_value = {v: k for k, v in table.items() if v}
    names = set()
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
        reactions = _every(f"drops it {RANK0}")
        reactions["5.0"] = BUILD_50_LEVEL0 if level == "Level0" else None
        where = f"with profiler_level {level}" if level_given else "at profiler_level Level0 (the default)"
        _report(ctx, "NPP302", kw, f"aic_metrics {name} {where}", reactions,
                "AI Core metrics are collected at Level1 and Level2 only (it becomes AiCoreNone): add "
                "profiler_level=ProfilerLevel.Level1 to collect it")
    return name


def _bad_metric(ctx, node, value, level: Optional[str], table: Dict[str, str], data,
                level_given: bool = True) -> None:
    reset = {"Level0": "AiCoreNone", "Level_none": "AiCoreNone"}.get(level or "", "PipeUtilization") \
        if level else None
    to = reset if reset else "its default (AiCoreNone at Level0, PipeUtilization at Level1/Level2)"
    reactions = _every(f"resets it to {to} {RANK0}")
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
        reactions = {r: f"resets it to text {RANK0} (a list is accepted from {later})"
                     for r in K.releases_before(later)}
        bad = [v for v in items if v not in allowed]
        if bad or not items:
            for r in K.releases_from(later):
                reactions[r] = f"resets it to text {RANK0}"
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
    reactions = _every(f"resets it to text {RANK0}")
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
        _report(ctx, "NPP309", kws["l2_cache"], f"l2_cache=True on Ascend {soc} (no L2 cache data there)",
                _every(lost), "drop l2_cache (or set it False) for this chip")
    if metric is None or level not in ("Level1", "Level2") or metric in aic_metrics_for(soc):
        return
    if metric == "L2Cache":
        _report(ctx, "NPP309", kws["aic_metrics"], f"aic_metrics L2Cache on Ascend {soc} (no L2 cache PMU there)",
                _every(lost),
                "use AiCMetrics.PipeUtilization or another metric of this chip")
    elif metric == "MemoryAccess":
        _report(ctx, "NPP309", kws["aic_metrics"], f"aic_metrics MemoryAccess on Ascend {soc} (910B/910C only)",
                _every("falls back to PipeUtilization with a warning where CANN's feature list lacks it, or gets "
                       "no NPU data (aclprofStart fails)"), "use AiCMetrics.PipeUtilization or another metric of this chip")


def _schedule(ctx, names: Names, call: ast.Call) -> None:
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
                _every(f"raises TypeError (missing required argument{'s' if len(missing) > 1 else ''}) "
                       "when the script starts"), f"give {', '.join(f'{m}=' for m in missing)}")
    if len(call.args) >= 3:
        read = ", ".join(f"{n}={ast.get_source_segment(ctx.src.text, a) or '...'}"
                         for n, a in zip(data["positional"], call.args))
        edits = tuple(Edit(ctx.src.node_start(a), ctx.src.node_start(a), f"{n}=")
                      for n, a in zip(data["positional"], call.args))
        ctx.report_node("NPP304", call, said("schedule's positional order is wait, active, warmup (torch's own is "
                                             "wait, warmup, active)", f"this call is read as {read}",
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
        reactions = {r: f"resets it to {floor} {RANK0}" for r in K.releases_from(checked)}
        reactions.update({r: _schedule_before_checks(name, value) for r in K.releases_before(checked)})
        reactions.update(_missing(name, data["keywords"][name], "schedule"))
        what = f"{name}={_show(value)} " + ("is not an int" if not integer else
                                             "is not positive" if name == "active" else "is negative")
        _report(ctx, "NPP300", node, what, reactions,
                "write a whole number" + (" of at least 1" if floor else " of at least 0"))


def _schedule_before_checks(name: str, value) -> Optional[str]:
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


def _handler(ctx, names: Names, call: ast.Call) -> None:
    node = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "dir_name"), None)
    values = _known(ctx, names, node)
    if not values or any(isinstance(v, str) or v is None for v in values):
        return
    reactions = _every(f"resets it to its default ($ASCEND_WORK_PATH/profiling_data, else the working directory) {RANK0}")
    _report(ctx, "NPP300", node, f"tensorboard_trace_handler's dir_name {_show(values[0])} is not a str",
            reactions, "give the output directory as a string")


def _profile(ctx, names: Names, call: ast.Call) -> None:
    data = K.data()
    table = data["profile"]["keywords"]
    _keywords(ctx, call, table, "profile")
    if call.args:
        only = data["profile"]["keyword_only_from"]
        _report(ctx, "NPP303", call.args[0], "profile() given a positional argument",
                {r: "raises TypeError (its arguments are keyword-only)" for r in K.releases_from(only)},
                f"name it ({list(table)[0]}=...)")
    if _raises_on_target(ctx, call, table):
        return
    kws = {kw.arg: kw for kw in call.keywords if kw.arg}
    star = any(kw.arg is None for kw in call.keywords)
    activities = _activities(ctx, names, kws.get("activities"))
    if "experimental_config" in kws and activities is not None and "NPU" not in activities:
        _report(ctx, "NPP302", kws["experimental_config"], "experimental_config without ProfilerActivity.NPU in "
                "activities", dict(_every(f"ignores it {RANK0}"), **{"5.0": EXPERIMENTAL_50}),
                "it configures the NPU side only: add ProfilerActivity.NPU to activities, or drop experimental_config")
    for name in data["profile"]["bools"]:
        values = _known(ctx, names, kws[name].value) if name in kws else None
        if values and all(not isinstance(v, bool) and v is not None for v in values):
            _report(ctx, "NPP300", kws[name].value, f"{name}={_show(values[0])} is not a bool",
                    dict(_every(f"resets it to False {RANK0}"), **{"5.0": PROFILE_BOOL_50}),
                    f"write {name}=True or {name}=False")
    if star or call.args:
        return
    handler = kws.get("on_trace_ready")
    unset = handler is None or (isinstance(handler.value, ast.Constant) and handler.value.value is None)
    if unset and not _exports(ctx, data["profile"]["exports"]) and _kept_here(ctx, call):
        reactions = _every("deletes the data when the profiler object goes away")
        reactions["5.0"] = None         # 5.0 keeps the raw data in the working directory
        _report(ctx, "NPP307", handler.value if handler else call.func,
                "profile() without on_trace_ready or an export call", reactions,
                "the raw data goes to ./export_only_prof_dir and nothing is kept: pass "
                "on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(\"<dir>\")")


def _kept_here(ctx, call: ast.Call) -> bool:
    """Whether the profiler stays in this file: used by `with`, or bound to a name that is not passed on,
    stored or returned (another module might export its data)."""
    node = _index(ctx.tree).owner.get(id(call))
    if isinstance(node, ast.withitem):
        var = node.optional_vars
        return var is None or (isinstance(var, ast.Name) and not _escapes(ctx.tree, var.id))
    if isinstance(node, ast.Assign):
        return len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and \
            not _escapes(ctx.tree, node.targets[0].id)
    return False


def _activities(ctx, names: Names, kw: Optional[ast.keyword]) -> Optional[set]:
    """NPP300 for strings in activities; returns the activities in effect (None: unknown)."""
    if kw is None:
        return {"CPU", "NPU"}
    values = _known(ctx, names, kw.value)
    if not values or len(values) != 1:
        return None
    items = values[0]
    if isinstance(items, str):          # activities="NPU": its characters are not activities
        items = Items((items,))
    if not isinstance(items, Items):
        return None
    if not items:                       # empty: profile() takes its default, both
        return {"CPU", "NPU"}
    strings = [v for v in items if isinstance(v, str)]
    if strings:
        name = strings[0]
        _report(ctx, "NPP300", kw.value, f"activities holds the string {name!r}",
                _every(f"resets activities to both CPU and NPU {RANK0}"),
                "write ProfilerActivity.CPU / ProfilerActivity.NPU" if name.upper() in ("CPU", "NPU") else
                "only ProfilerActivity.CPU and ProfilerActivity.NPU exist")
        return {"CPU", "NPU"}
    if all(isinstance(v, EnumRef) and v.kind == "activities" for v in items):
        return {v.name for v in items}
    return None


def _exports(ctx, exports: Iterable[str]) -> bool:
    """Whether the file calls an export method (read once per file: a file may hold many profilers)."""
    key = (id(ctx.src), tuple(exports))
    cached = getattr(ctx, "torch_npu_exports", None)
    if cached is None or cached[0] != key:
        ctx.torch_npu_exports = cached = (key, any(e in ctx.src.text for e in exports))
    return cached[1]


def _legacy(ctx, call: ast.Call, full: str) -> None:
    data = K.data()["legacy"]
    module, _, name = full.rpartition(".")
    if module in ("torch.npu", "torch_npu.npu") and name in data["names"]:
        gone = {r: "raises AttributeError (the legacy profiler API is gone)" for r in K.releases_from(data["last"])[1:]}
        _report(ctx, "NPP308", call.func, f"{full}() is torch_npu's legacy profiler API (last in {data['last']})",
                gone, "use torch_npu.profiler.profile with _ExperimentalConfig")
    elif full == "torch.autograd.profiler.profile" and any(k.arg == "use_npu" for k in call.keywords):
        kw = next(k for k in call.keywords if k.arg == "use_npu")
        _report(ctx, "NPP308", kw, "torch.autograd.profiler.profile(use_npu=...) existed only in the old torch "
                "1.5/1.8 NPU forks", _every("runs on a torch without use_npu, which raises TypeError"),
                "use torch_npu.profiler.profile")


# ---------------------------------------------------------------- the loop

def _schedule_of(ctx, names: Names, node: ast.AST) -> Optional[ast.Call]:
    if isinstance(node, ast.Call) and names.of(node.func) == SCHEDULE:
        return node
    if isinstance(node, ast.Name):
        found = _index(ctx.tree).assigned.get(node.id, [])
        if len(found) == 1 and isinstance(found[0], ast.Call) and names.of(found[0].func) == SCHEDULE:
            return found[0]
    return None


def _steps(ctx, names: Names, sched: ast.Call) -> Optional[Dict[str, int]]:
    """The schedule's values as ints (defaults filled in), or None when one is unknown or gets reset."""
    data = K.data()["schedule"]
    if any(k.arg is None or k.arg == "skip_first_wait" for k in sched.keywords) or len(sched.args) > 5:
        return None
    given = dict(zip(data["positional"], sched.args))
    given.update((k.arg, k.value) for k in sched.keywords)
    out = {"wait": 0, "active": 1, "warmup": 0, "repeat": 0, "skip_first": 0}
    for name, node in given.items():
        values = _known(ctx, names, node)
        if not values or len(set(map(repr, values))) != 1 or not isinstance(values[0], int) or \
                isinstance(values[0], bool) or values[0] < (1 if name == "active" else 0):
            return None
        out[name] = values[0]
    return out if "wait" in given and "active" in given else None


NOTHING = "collects nothing and says nothing (the schedule never leaves its wait steps)"
DELETED = "ends in its warmup steps and deletes the data, with a warning"
# 6.0.rc1 starts collecting at the warmup steps (6.0.rc3 on, at the record steps): its run ends collecting
# 5.0.rc3 too starts collecting at the warmup steps; it is not counted as failing (the data it keeps was not read)
WARMUP_50 = {"5.0": "starts collecting in the warmup steps and stops at exit, with a Python warning (5.0.rc3; later "
                    "5.0 builds were not recorded)"}
DELETED_60 = "depends on the build (6.0.rc1 starts collecting in the warmup steps and stops at exit without calling " \
    "on_trace_ready, with a warning; 6.0.rc3 and 6.0.0 end in their warmup steps and delete the data, with a warning)"


def _steps_of(ctx, names: Names, call: ast.Call) -> Optional[Dict[str, int]]:
    kw = next((k for k in call.keywords if k.arg == "schedule"), None)
    sched = _schedule_of(ctx, names, kw.value) if kw else None
    return _steps(ctx, names, sched) if sched is not None else None


def _no_step(ctx, call: ast.Call, var: Optional[str], first: int, record: int, started: bool) -> None:
    """NPP305 for a scheduled profiler never stepped. started: it is run by start()/stop(), which 5.0 ran
    whatever the schedule said; with `with`, 5.0 too asked the schedule (what it did in warmup was not read)."""
    if first > 0:
        reactions = _every(NOTHING)
    elif record > 0:
        reactions = _every(DELETED)
        reactions["5.0"] = None
        reactions["6.0"] = DELETED_60
    else:
        return
    if started:
        reactions["5.0"] = None
    name = var or "prof"
    _report(ctx, "NPP305", call, f"profile(schedule=...) whose {'run' if started else 'loop'} never calls "
            f"{name}.step()", reactions, f"call {name}.step() at the end of each training step" +
            ("" if var else " (bind the profiler with `as prof`)"),
            fine_as=WARMUP_50 if first == 0 and record > 0 and not started else None)


def _loops(ctx, names: Names, profiles: List[ast.Call]) -> None:
    """NPP305 (no prof.step() for a scheduled profiler) and NPP306 (the loop ends before the active steps)."""
    ids = {id(p) for p in profiles}
    for item, withnode in _with_items(ctx.tree):
        call = item.context_expr
        if id(call) not in ids:
            continue
        steps = _steps_of(ctx, names, call)
        if steps is None:
            continue
        first = steps["skip_first"] + steps["wait"]
        record = first + steps["warmup"]
        var = item.optional_vars.id if isinstance(item.optional_vars, ast.Name) else None
        loops = [n for stmt in withnode.body for n in ast.walk(stmt) if isinstance(n, (ast.For, ast.While,
                                                                                       ast.AsyncFor))]
        if not loops:
            continue
        if var is None or not _stepped(ctx.tree, var):
            if var is None or not _escapes(ctx.tree, var):
                _no_step(ctx, call, var, first, record, started=False)
            continue
        _reach(ctx, names, var, withnode, steps, first, record)
    # `prof = profile(schedule=...)` run by prof.start() ... prof.stop()
    for var, values in _index(ctx.tree).assigned.items():
        for value in values:
            if id(value) in ids:
                _started_no_step(ctx, names, var, value)


def _started_no_step(ctx, names: Names, var: str, call: ast.Call) -> None:
    """NPP305 for `var = profile(schedule=...)` run by var.start() and never stepped."""
    if _stepped(ctx.tree, var) or _escapes(ctx.tree, var) or not _started(ctx.tree, var):
        return
    steps = _steps_of(ctx, names, call)
    if steps is not None:
        first = steps["skip_first"] + steps["wait"]
        _no_step(ctx, call, var, first, first + steps["warmup"], started=True)


class _Index(NamedTuple):
    """What the loop and lifetime checks ask of a file, from one walk: per name, whether `name.step` appears,
    whether `name.start()`/`name.__enter__()` is called, whether a load of it escapes; the with items; the
    single-name assignments; and where each call is used (with item or assignment)."""
    stepped: set
    started: set
    escaping: set
    withs: list                         # (item, with node) whose context is a call
    assigned: Dict[str, list]           # name -> the values assigned to it alone
    owner: Dict[int, ast.AST]           # id(call) -> the with item or the Assign that holds it


_LAST: list = [None, None]              # the last tree indexed and its index (one file at a time)


def _index(tree) -> _Index:
    if _LAST[0] is tree:
        return _LAST[1]
    stepped, started, escaping, withs, assigned, owner = set(), set(), set(), [], {}, {}
    parents: Dict[ast.AST, ast.AST] = {}
    nodes = []
    for n in ast.walk(tree):
        nodes.append(n)
        for c in ast.iter_child_nodes(n):
            parents[c] = n
    for n in nodes:
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.attr == "step":
            stepped.add(n.value.id)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                n.func.attr in ("start", "__enter__") and isinstance(n.func.value, ast.Name):
            started.add(n.func.value.id)
        elif isinstance(n, (ast.With, ast.AsyncWith)):
            for item in n.items:
                if isinstance(item.context_expr, ast.Call):
                    withs.append((item, n))
                owner.setdefault(id(item.context_expr), item)
        elif isinstance(n, ast.Assign):
            owner.setdefault(id(n.value), n)
            if len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                assigned.setdefault(n.targets[0].id, []).append(n.value)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in escaping:
            up = parents.get(n)
            if not isinstance(up, _TESTS) or (isinstance(up, ast.IfExp) and n is not up.test):
                escaping.add(n.id)
    _LAST[:] = [tree, _Index(stepped, started, escaping, withs, assigned, owner)]
    return _LAST[1]


def _with_items(tree):
    yield from _index(tree).withs


def _step_call(node, var: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step" and \
        isinstance(node.func.value, ast.Name) and node.func.value.id == var


def _stepped(tree, var: str) -> bool:
    """Whether `var.step` appears anywhere in the file (any scope: quiet when in doubt)."""
    return var in _index(tree).stepped


def _started(tree, var: str) -> bool:
    return var in _index(tree).started


# where a load of the profiler's name only tests it (`if prof:`, `prof is not None`): it stays here
_TESTS = (ast.Attribute, ast.Compare, ast.If, ast.While, ast.BoolOp, ast.UnaryOp, ast.IfExp, ast.Assert)


def _escapes(tree, var: str) -> bool:
    """Whether the profiler's name is used other than as `var.attr` or in a test (passed on, stored,
    returned: then someone else may step it)."""
    return var in _index(tree).escaping


def _reach(ctx, names: Names, var: str, withnode, steps: Dict[str, int], first: int, record: int) -> None:
    """NPP306: a `for ... in range(N)` that steps the profiler once per iteration ends before the record steps."""
    for stmt in withnode.body:
        for loop in ast.walk(stmt):
            if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call) or \
                    not isinstance(loop.iter.func, ast.Name) or loop.iter.func.id != "range":
                continue
            if _inside_loop(withnode, loop):
                continue
            direct, nested = _step_calls(loop, var)
            if direct != 1 or nested:
                continue
            bounds = [_known(ctx, names, a) for a in loop.iter.args]
            if not bounds or len(bounds) > 2 or loop.iter.keywords or any(
                    not b or len(b) != 1 or not isinstance(b[0], int) or isinstance(b[0], bool) for b in bounds):
                continue
            ints = [b[0] for b in bounds]
            n = max(0, ints[-1] - (ints[0] if len(ints) == 2 else 0))
            if n >= record:
                continue
            sched = (f"skip_first={steps['skip_first']} + wait={steps['wait']}" +
                     (f" + warmup={steps['warmup']}" if steps["warmup"] else ""))
            reactions = _every("collects nothing and says nothing" if n < first else DELETED)
            if n >= first:
                reactions["5.0"] = None         # what 5.0 did when stopped in warmup was not read
                reactions["6.0"] = DELETED_60
            _report(ctx, "NPP306", loop.iter, f"the schedule records from step {record} ({sched}), but this loop "
                    f"calls {var}.step() only {n} time{'s' if n != 1 else ''}", reactions,
                    "lower wait/skip_first/warmup or run more steps", fine_as=WARMUP_50 if n >= first else None)


def _inside_loop(withnode, loop) -> bool:
    """Whether `loop` is nested in another loop inside the with block (its step count would multiply)."""
    for stmt in withnode.body:
        for outer in ast.walk(stmt):
            if outer is not loop and isinstance(outer, (ast.For, ast.While, ast.AsyncFor)) and \
                    any(n is loop for n in ast.walk(outer)):
                return True
    return False


def _step_calls(loop, var: str) -> Tuple[int, bool]:
    """(prof.step() calls directly in the loop's body, whether any sits in a nested loop or function)."""
    direct, nested = 0, False
    stack = [(s, False) for s in loop.body + loop.orelse]
    while stack:
        node, deep = stack.pop()
        if _step_call(node, var):
            if deep:
                nested = True
            else:
                direct += 1
        inner = deep or isinstance(node, (ast.For, ast.While, ast.AsyncFor, ast.FunctionDef, ast.AsyncFunctionDef,
                                          ast.Lambda, ast.ListComp, ast.GeneratorExp))
        stack.extend((c, inner) for c in ast.iter_child_nodes(node))
    return direct, nested


# ---------------------------------------------------------------- the environment

def _environment(ctx, names: Names) -> None:
    """NPP310: PROFILING_MODE / PROFILER_SAMPLECONFIG set in a script that profiles with torch_npu."""
    data = K.data()["env_noop"]
    for node in ast.walk(ctx.tree):
        var, at, value = None, None, None
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Subscript) and dotted(t.value) in ("os.environ", "environ") and \
                        isinstance(t.slice, ast.Constant) and t.slice.value in data["names"]:
                    var, at, value = t.slice.value, t, node.value
        elif isinstance(node, ast.Call) and len(node.args) == 2 and isinstance(node.args[0], ast.Constant) and \
                node.args[0].value in data["names"] and dotted(node.func) in (
                    "os.environ.setdefault", "environ.setdefault", "os.putenv"):
            var, at, value = node.args[0].value, node, node.args[1]
        if var is None:
            continue
        values = _known(ctx, names, value)      # an empty value is not "set" (os.getenv's "" is false)
        if not values or not all(isinstance(v, str) and v for v in values):
            continue
        reactions = {r: "turns every torch_npu profiler call into a no-op (it prints only that the torch_npu "
                     "profiler api is not effective)" for r in K.releases_from(data["from"])}
        _report(ctx, "NPP310", at, f"{var} is set in a script that profiles with torch_npu.profiler", reactions,
                f"do not set {var} (it belongs to TF/GE or msprof profiling)")


# ---------------------------------------------------------------- the pages of the codes reported here

from .rule import Rule  # noqa: E402

_TORCH = """\
import torch
import torch_npu
from torch_npu.profiler import ProfilerActivity, ProfilerLevel, AiCMetrics, ExportType

"""
_PROFILE = """\
with torch_npu.profiler.profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.NPU],
        schedule=torch_npu.profiler.schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1),
        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"),
        experimental_config=experimental_config) as prof:
    for step in range(10):
        train_one_step()
        prof.step()
"""


def _script(config: str, profile: str = _PROFILE) -> str:
    return _TORCH + "experimental_config = torch_npu.profiler._ExperimentalConfig(\n" + config + ")\n" + profile


_GOOD = _script("    profiler_level=ProfilerLevel.Level1,\n    aic_metrics=AiCMetrics.PipeUtilization,\n")
REF_GUIDE = ("Ascend PyTorch profiler user guide (Ascend/pytorch docs/zh/developer_notes/"
             "ascend_pytorch_profiler_user_guide.md)")
_CHECKED = ("The target's torch_npu release (`--npuprof-torch-npu`, default `any`) decides what is reported: "
            "under `any`, only what every release from 5.0 to 26.1 does wrong (a value 6.0+ reset counts for 5.0 "
            "too, whose one recorded build, 5.0.rc3, keeps it unchecked); a release such as `7.3`, or "
            "`portable` (anything one release does wrong). Where releases differ the message says which does what.")

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
        code="NPP303",
        name="torch-npu-unknown-keyword",
        summary="a keyword that `_ExperimentalConfig`/`schedule`/`profile` does not have (on the target release), a "
                "positional `profile` argument (6.0+), or a required `schedule` argument missing: TypeError when the "
                "script starts",
        default=True,
        level="error",
        what="A keyword no release of torch_npu has (`aicore_metrics=`, with did-you-mean), one that the target "
             "release lacks (`mstx=` before 7.2, `host_sys=` before 7.1, `export_type=` on 5.0, "
             "`skip_first_wait=` before 26.1, `custom_trace_id_callback=` before 26.1), a positional argument to "
             "`profile()` (keyword-only from 6.0), or a `schedule()` without `wait` or `active`.",
        why="These are plain Python signature errors, raised in the user's own code before the profiler's "
            "exception-swallowing wrappers run: the job stops at start-up with a TypeError.",
        example=_script("    profiler_level=ProfilerLevel.Level1,\n    aicore_metrics=AiCMetrics.PipeUtilization,\n"),
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: the intended keyword is the author's to choose (the message suggests one).",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.experimental_config.keywords", "torch_npu.schedule.keywords", "torch_npu.profile.keywords"),
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
        code="NPP305",
        name="torch-npu-no-step",
        summary="`with profile(schedule=...)` around a loop that never calls `prof.step()`: torch_npu collects "
                "nothing and says nothing",
        default=True,
        level="warning",
        what="A `with torch_npu.profiler.profile(schedule=...) as prof:` block with a loop in it, or a "
             "`prof = profile(schedule=...)` run by `prof.start()`/`prof.stop()`, where `prof.step()` is called "
             "nowhere in the file and the profiler is not passed on, and the schedule starts with wait (or "
             "skip_first) or warmup steps.",
        why="The schedule advances only on `prof.step()`. Without it the profiler stays at step 0: in its wait "
            "steps nothing is ever recorded and nothing is printed; in its warmup steps (6.0+) it warns at exit "
            "and deletes the data. (5.0's `start()` started collecting whatever the schedule said, so the "
            "start()/stop() form is reported for 6.0 and later.)",
        example=_script("    profiler_level=ProfilerLevel.Level1,\n", _PROFILE.replace("        prof.step()\n", "")),
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: where a training step ends is the author's to say.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.schedule.actions",),
    ),
    Rule(
        code="NPP306",
        name="torch-npu-schedule-never-records",
        summary="a schedule whose record steps come after the last step of a loop of known length: torch_npu "
                "collects nothing and says nothing",
        default=True,
        level="warning",
        what="A `for ... in range(N)` loop inside `with profile(schedule=...) as prof:` that calls `prof.step()` "
             "once per iteration, where N (a constant, a name or an argparse default) is at most "
             "skip_first + wait + warmup.",
        why="The profiler starts recording only at step skip_first + wait + warmup. A loop that ends first "
            "leaves it in its wait steps (no data, no message) or in its warmup steps (a warning at exit, and the "
            "data is deleted).",
        example=_script("    profiler_level=ProfilerLevel.Level1,\n",
                        _PROFILE.replace("range(10)", "range(5)").replace("wait=1", "wait=5")),
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: shorten the schedule or run more steps.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.schedule.actions",),
    ),
    Rule(
        code="NPP307",
        name="torch-npu-data-deleted",
        summary="`profile()` without `on_trace_ready` and without an export call: the data is collected, then "
                "deleted",
        default=True,
        level="warning",
        what="A `torch_npu.profiler.profile(...)` without `on_trace_ready` (or with None) in a file that calls "
             "none of `export_chrome_trace`, `export_stacks`, `export_memory_timeline`.",
        why="Without a trace handler torch_npu (6.0 and later) writes the raw data to a temporary export-only "
            "folder and deletes it when the profiler object goes away, unless an export method is called: the "
            "run profiles and keeps nothing. 5.0 kept the raw data in the working directory, so under the default "
            "target (any) this is reported only with a release target of 6.0 or later.",
        example=_script("    profiler_level=ProfilerLevel.Level1,\n",
                        _PROFILE.replace("        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler"
                                         "(\"./prof\"),\n", "")),
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: where the data should go is the author's to say.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        settings=(("torch-npu", "7.3"),),
        group="torch_npu",
        facts=("torch_npu.profile.on_trace_ready",),
    ),
    Rule(
        code="NPP308",
        name="torch-npu-legacy-profiler",
        summary="the legacy profiler API (`torch.npu.profile`, `profileConfig`, `prof_init`, "
                "`torch.autograd.profiler.profile(use_npu=True)`): AttributeError on torch_npu 6.0+",
        default=True,
        level="error",
        what="Calls of `torch.npu.profile`/`torch_npu.npu.profile`, `profileConfig`, `prof_init`/`prof_start`/"
             "`prof_stop`/`prof_finalize`, and `torch.autograd.profiler.profile(use_npu=...)`.",
        why="The legacy API was removed in torch_npu 6.0.RC1, so these calls raise AttributeError on 6.0 and "
            "later; `use_npu` existed only in the old torch 1.5/1.8 NPU forks. Under the default target (any) "
            "the legacy calls are reported only with a release target of 6.0 or later (5.0 still has them).",
        example=_TORCH + "with torch.npu.profile(\"./prof\"):\n    train_one_step()\n",
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: the new API configures collection differently (levels, metrics, schedule).",
        options=_CHECKED,
        references=(REF_GUIDE,),
        settings=(("torch-npu", "7.3"),),
        group="torch_npu",
        facts=("torch_npu.legacy",),
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
    Rule(
        code="NPP310",
        name="torch-npu-profiler-disabled-by-env",
        summary="`PROFILING_MODE` or `PROFILER_SAMPLECONFIG` set in a script that profiles with torch_npu: the "
                "torch_npu profiler becomes a no-op (26.1)",
        default=True,
        level="warning",
        what="`os.environ[\"PROFILING_MODE\"] = ...` (or `setdefault`, `os.putenv`; also `PROFILER_SAMPLECONFIG`) "
             "in a file that calls `torch_npu.profiler.profile`.",
        why="From torch_npu 26.1, any non-empty `PROFILING_MODE` value (even \"false\") or `PROFILER_SAMPLECONFIG` "
            "(set by msprof) turns every torch_npu profiler call into a no-op, with only a warning on rank 0 that "
            "the torch_npu profiler api is not effective. A variable left over from TF/GE profiling quietly "
            "disables the profiler. (An empty value, or a value the checker cannot read, is not reported.)",
        example=_TORCH + "import os\nos.environ[\"PROFILING_MODE\"] = \"true\"\n" +
        "experimental_config = torch_npu.profiler._ExperimentalConfig(profiler_level=ProfilerLevel.Level1)\n" + _PROFILE,
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: the variable may be meant for another job step.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        settings=(("torch-npu", "26.1"),),
        group="torch_npu",
        facts=("torch_npu.env_noop",),
    ),
)
