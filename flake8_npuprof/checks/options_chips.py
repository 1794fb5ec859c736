"""What each chip's collector supports: a switch or level it cannot collect (NPP114), its AI Core
metric sets and the `Custom:` event lists (NPP106), and its frequency limits and `llc_profiling`
values.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

from ..knowledge import datafiles as K
from ..knowledge.collection import active
from ..source.jsonscan import Doc, Member
from ..source.numeric import decimal, hexadecimal
from ..source.suggest import did_you_mean
from ..source.said import Text, aside, clause, logged, so
from .options_problem import ABORT, FREQ_KEYS, Problem, _members, snake


def _custom_event_problems(members: Dict[str, Member], version: str) -> List[Problem]:
    out = []
    for key in ("aic_metrics", "aiv_metrics", "aicMetrics", "aivMetrics"):
        m = members.get(key)
        if not m or not isinstance(m.value, str) or not m.value.startswith("Custom:"):
            continue
        events = [e.strip().lower() for e in m.value[len("Custom:"):].split(",")]
        try:
            nums = [hexadecimal(e) if e.startswith("0x") else decimal(e) for e in events]
        except ValueError:
            continue
        if None in nums:
            continue
        dup = sorted({e for e, n in zip(events, nums) if nums.count(n) > 1})
        if dup:
            out.append(Problem("NPP106", key + ":dup", (m.value_start, m.value_end),
                               f'"{key}" lists the event {dup[0]} more than once',
                               clause("the collector rejects duplicate events", so(ABORT)),
                               "list each event once"))
    return out


def _present(value) -> bool:
    """Whether the 8.5+ collector checks a key's support: any value except "" (strings)."""
    return not (isinstance(value, str) and value == "")


def _unsupported_problem(key: str, m: Member, behaviour: str, why: str, title: str, value_text: str = "") -> Problem:
    base = snake(key)
    what = clause(f'"{key}": "{value_text}" is not supported on {title}' if value_text else
                  f'"{key}" is not supported on {title}', aside(why))
    span = (m.value_start, m.value_end) if value_text else (m.key_start, m.value_end)
    if behaviour == K.UNKNOWN:
        return Problem("NPP114", key, span, what,
                       clause("it is not known whether the collector accepts it", aside(_NOT_OPEN)),
                       "", standing="unknown")
    consequence: Text
    effect = ""                 # rejected (ABORT in its clause), or what is said below
    if behaviour == K.WARN:
        consequence = clause("the collector drops it with only a plog warning",
                             logged(f' ("Unrecognized option:{base} for PlatformType:…")'))
        effect = "logged"
    elif behaviour == K.SILENT:
        consequence, effect = "the collector drops it without a message", "silent"
    elif value_text:
        consequence = clause("the collector rejects it",
                             logged(f' ("{value_text} is not supported on this platform.")'), so(ABORT))
    else:
        consequence = clause("the collector rejects it", logged(f' ("Argument [{base}] is not supported.")'), so(ABORT))
    return Problem("NPP114", key, span, what, consequence,
                   "remove it for this product" if not value_text else "use a lower level for this product",
                   effect=effect)


_NOT_OPEN = "the collector of this version for this chip is not open source"


def known_members(doc: Doc) -> List[Tuple[str, Member, str]]:
    """(key, member, snake_case key) of each member whose value is known, the last of each key."""
    return [(key, m, snake(key)) for key, m in _members(doc).items() if not m.unknown]


def _product_problems(doc: Doc, version: str, product: str, schema_ok: Set[str],
                      known: Optional[List[Tuple[str, Member, str]]] = None) -> List[Problem]:
    """Problems of keys this version's schema accepts, on one product. known: known_members(doc), when the
    caller asks for several products."""
    data = K.product(product)
    title = f"Ascend {product}"
    legacy = version in K.LEGACY_VERSIONS
    unsupported = K.unsupported_table(product, version)
    refusals = data.get("value_unsupported", {})      # the keys K.value_unsupported may refuse a value of
    out = []
    for key, m, base in known_members(doc) if known is None else known:
        if key not in schema_ok:
            continue
        value = m.value
        if base in unsupported:
            behaviour, why = unsupported[base]
            # up to 8.0 only a switch that asks for something is dropped; 8.5+ checks the support of
            # any non-empty value, "off" included
            if (active(base, value) if legacy else _present(value)):
                out.append(_unsupported_problem(key, m, behaviour, why, title))
                continue
        refused = K.value_unsupported(product, version, base, value) if base in refusals else None
        if refused:
            out.append(_unsupported_problem(key, m, refused[0], refused[1], title, value))
            continue
        if base in ("aic_metrics", "aiv_metrics") and isinstance(value, str) and value and \
                not value.startswith("Custom:"):
            allowed = K.aic_metrics_for(product)
            if value not in allowed and value in K.enum_values(version, key):
                hint = did_you_mean(value, allowed)
                out.append(Problem("NPP106", key, (m.value_start, m.value_end),
                                   f'"{key}": "{value}" is not available on {title}',
                                   clause("the collector rejects it",
                                          logged(f' ("aic-metrics[{value}] is invalid")'), so(ABORT)),
                                   hint or "use one of " + ", ".join(allowed)))
            builds = K.metric_builds(product, version, value) if value in allowed else None
            if builds:
                out.append(Problem("NPP106", key, (m.value_start, m.value_end),
                                   f'"{key}": "{value}" is not available on {title} with this collector',
                                   clause("the collector rejects it",
                                          logged(f' ("aic-metrics[{value}] is invalid")'), so(ABORT)),
                                   "use another metric set or a newer CANN",
                                   standing="fails" if builds == "every" else "some", builds=builds))
        if base == "llc_profiling" and isinstance(value, str) and value and legacy:
            allowed = data.get("llc_profiling", {}).get(version, ["read", "write", ""])
            if value not in allowed:
                shown = "/".join(f'"{a}"' for a in allowed if a)
                out.append(Problem("NPP102", key, (m.value_start, m.value_end),
                                   f'"llc_profiling": "{value}" is not one of {shown} on {title}',
                                   clause("the collector rejects it", so(ABORT)), f"use one of {shown}"))
        if base in FREQ_KEYS and isinstance(value, int) and not isinstance(value, bool):
            cap = data["max_freq"].get(base, K.products().get("default_max_freq", {}).get(base))
            if cap is not None and value > cap:
                out.append(Problem("NPP109", key, (m.value_start, m.value_end),
                                   f'"{key}": {value} is above {cap} Hz, the limit on {title}',
                                   clause("the collector rejects it", so(ABORT)), f"use a value from 1 to {cap}"))
    return out


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    REF_AIC_PRODUCTS, REF_COLLECTOR, REF_ENV_OPTIONS, REF_GE_AIC, REF_OAM, REF_OPTIONS_80, _ANY_CANN, _ANY_SOC,
    Rule, _opts)

RULES = (
    Rule(
        code="NPP106",
        name="invalid-aic-metrics",
        summary="unknown `aic_metrics` for the target product, or a malformed `Custom:` event list, with "
                "did-you-mean",
        default=True,
        level="error", fatal=True,
        what="An `aic_metrics` (or `aiv_metrics`) value that is not a metric set of the target product, a "
             "misspelt one such as `PipeUtilisation`, or a `Custom:` list with bad, too many or repeated "
             "events.",
        why="The metric sets differ per chip: `L2Cache` and `MemoryAccess` exist on Atlas A2/A3 but not on "
            "the Ascend 910 or 310P, `PipelineExecuteUtilization` only on the 310B. The collector validates "
            "the value against the chip it runs on and rejects the whole configuration, so GE "
            "initialisation fails and the job aborts. `MemoryAccess` reached the Atlas A2 table of the 8.0 "
            "collector only in its 2024-12 builds (none in 7.0); 8.5+ still limits the whole value to 70 "
            "characters.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","aic_metrics":"MemoryAccess"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","aic_metrics":"Memory"}'),
        fix_safety="sometimes",
        fix_note="Replaces the value with the single close metric name when there is one. Case-only "
                 "corrections are safe; other replacements change which counters are collected and are "
                 "unsafe.",
        options=_ANY_SOC + " A name that no product knows is reported with any target.",
        references=(REF_AIC_PRODUCTS, REF_GE_AIC, REF_OPTIONS_80, REF_COLLECTOR),
        settings=(("soc", "910"),),
        group="options",
        facts=("schema.aic_metrics", "products.910B.aic_metrics", "products.910B.metric_builds.",
               "collection.emulation.messages.NPP106", "collection.emulation.collector_call_failed",
               "collection.emulation.e10001", "collection.emulation.adapter_abort"),
    ),
    Rule(
        code="NPP114",
        name="switch-unsupported-on-product",
        summary="switch not supported on the target product (dropped with a log warning up to 8.0, rejected "
                "from 8.5 where that collector is open source, from 9.0 on the 310; e.g. `l2` on 310)",
        default=True,
        level="warning",
        what="An option that the target chip's collector of the target version cannot collect: `l2` on the "
             "Ascend 310, `training_trace` on the 310 up to 8.0, `hccl` on the 310B up to 8.0, `aiv_metrics` "
             "on chips without separate vector cores, `instr_profiling` outside Atlas A2/A3 and the 950, "
             "NIC/RoCE sampling on the 310P, `task_trace` level `l3` outside Atlas A2/A3, and similar.",
        why="Up to CANN 8.0 the collector drops the option, with a plog warning (\"Unrecognized option ... "
            "for PlatformType\") for switches and silently for sampling frequencies, so the run succeeds and "
            "that data is missing. From 8.5 on the collector checks the chip's feature table for any "
            "non-empty value, `\"off\"` included, and rejects it (\"Argument [...] is not supported.\"): GE "
            "initialisation fails and the job aborts. `instr_profiling_freq` alone is no longer checked from "
            "8.5 on. Where the collector of a version for a chip is not open source (the 8.5 collector for "
            "the Ascend 310 and 950), nothing is reported for that version.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","l2":"on"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: dropping the switch silently gives up data the user asked for.",
        options=_ANY_SOC + " " + _ANY_CANN,
        references=(REF_AIC_PRODUCTS, REF_ENV_OPTIONS, REF_COLLECTOR, REF_OAM),
        settings=(("soc", "310"), ("cann", "9.1")),
        group="options",
        facts=("products.310.unsupported.", "products.310B.unsupported.", "products.310P.unsupported.",
               "ge_options.platforms", "collection.emulation.messages.NPP114",
               "collection.emulation.collector_call_failed", "collection.emulation.e10001",
               "collection.emulation.adapter_abort"),
    ),
)
