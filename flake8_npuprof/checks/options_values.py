"""The options' values, per key, as the versions up to 8.0 check them (the 8.5+ steps reuse the
wording): switches and enumerations (NPP102), `training_trace` (NPP103), `storage_limit` (NPP107),
sampling frequencies (NPP109) and the JSON type of a value (NPP110).
"""

from __future__ import annotations

import re
from typing import Optional

from ..knowledge import datafiles as K
from ..source.jsonscan import Doc, Member
from ..source.model import TextFix
from ..source.numeric import decimal, whole
from ..source.suggest import close_matches, did_you_mean
from ..source.said import Text, aside, clause, logged, so
from .options_output import _output_problem
from .options_problem import ABORT, FREQ_KEYS, Problem, _json, _jtype, _member_removal, snake


def _code_for(key: str, keyword: str, version: str = "") -> str:
    base = snake(key)
    if base == "task_time" and version and K.enum_values(version, key) == ("",):
        return "NPP113"     # 9.x: whitelisted, but every non-empty value is "not supported"
    if base == "training_trace":
        return "NPP103"
    if keyword in ("type", "not"):
        return "NPP110"
    if base in ("aic_metrics", "aiv_metrics"):
        return "NPP106"
    if base == "storage_limit":
        return "NPP107"
    if base == "output":
        return "NPP108"
    if base in FREQ_KEYS:
        return "NPP109"
    return "NPP102"


def _value_problem(doc: Doc, member: Member, keyword: str, version: str) -> Optional[Problem]:
    key, value = member.key, member.value
    span = (member.value_start, member.value_end)
    code = _code_for(key, keyword, version)
    legacy = version in K.LEGACY_VERSIONS
    shown = _json(value)
    fix: Optional[TextFix]
    if code == "NPP103":
        if isinstance(value, str) and value.lower() == "on":
            advice, fix = 'write "on"', TextFix(((span[0] + 1, span[1] - 1, "on"),), True, 'write "on"')
        else:
            advice = 'remove the key to leave the trace off ("" also means off)'
            fix = TextFix((_member_removal(doc, member),), True, 'drop "training_trace"') \
                if value == "off" else None
        return Problem(code, key, span, f'"training_trace": {shown} is not "on" or ""',
                       clause("GE rejects it", logged(f' ("Training trace param:{value} is invalid.")'), so(ABORT)),
                       advice, fix)
    if code == "NPP110":
        want = _expected_type(version, key)
        consequence, effect = clause("the collector cannot read it", so(ABORT)), ""
        if not legacy and want == "string":
            consequence = clause("the collector reads it as empty", so("the setting is silently ignored"))
            effect = "silent"
        elif not legacy and want == "integer" and isinstance(value, str):
            consequence = clause("the collector reads it as 0, fails the range check", so(ABORT))
        advice, fix = _retype(key, value, want, span)
        return Problem(code, key, span, f'"{key}": {shown} is a JSON {_jtype(value)}, the runtime expects {"an" if want[0] in "aeiou" else "a"} {want}',
                       consequence, advice, fix, effect=effect)
    if code == "NPP106":
        names = [n for n in K.enum_values(version, key) if n]
        if isinstance(value, str) and value.startswith("Custom:"):
            return Problem(code, key, span, f'"{key}": {shown} is not a valid "Custom:" event list',
                           clause("the collector rejects it", so(ABORT)),
                           "list up to 8 distinct events, each 0x1-0x6E (hex) or decimal, comma-separated"
                           if legacy else "list distinct hex (0x..) or decimal events, comma-separated")
        hint = did_you_mean(str(value), names)
        matches = close_matches(str(value), names)
        fix = TextFix(((span[0] + 1, span[1] - 1, matches[0]),), True, f'write "{matches[0]}"') \
            if len(matches) == 1 and isinstance(value, str) and matches[0].lower() == value.lower() else \
            (TextFix(((span[0] + 1, span[1] - 1, matches[0]),), False, f'write "{matches[0]}"')
             if len(matches) == 1 and isinstance(value, str) else None)
        return Problem(code, key, span, f'"{key}": {shown} is not an AI Core metric set of any Ascend product',
                       clause("the collector rejects it", logged(f' ("aic-metrics[{value}] is invalid")'), so(ABORT)),
                       hint or "use one of " + ", ".join(names[:6]) + " or Custom:<events>", fix)
    if code == "NPP107":
        return _storage_problem(member, version)
    if code == "NPP108":
        return _output_problem(member, version)
    if code == "NPP109":
        sub = K.property_schema(version, key)
        if "minimum" not in sub:        # checked only under a condition (8.5+ instr_profiling)
            sub = K.schema(version).get("then", {}).get("properties", {}).get(key, sub)
        lo, hi = sub.get("minimum"), sub.get("maximum")
        consequence = clause("the collector rejects it", so(ABORT))
        zero = (isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0) or \
            (isinstance(value, str) and decimal(value) in (None, 0))
        if legacy and zero:
            # up to 2025 a frequency of 0 (or text that reads as 0) means "not set"
            consequence = clause("the collector reads it as 0 (not set)", so("nothing is collected for it"))
        return Problem(code, key, span, f'"{key}": {shown} is not an integer in {lo}-{hi} (Hz)',
                       consequence, f"use a value from {lo} to {hi}",
                       facts=(("lo", str(lo)), ("hi", str(hi))) if lo is not None else ())
    # NPP102: enumerations and lists
    allowed = [v for v in K.enum_values(version, key)]
    if K.property_schema(version, key).get("anyOf") and not allowed:
        items = _list_items(version, key)
        return Problem(code, key, span, f'"{key}": {shown} is not a comma-separated list of {"/".join(items)}',
                       clause("the collector rejects it", so(ABORT)), f"use items from {', '.join(items)}")
    if allowed == [""]:
        if code == "NPP113":      # 9.x: whitelisted, but missing from the feature table its checker uses
            return Problem(code, key, span, clause(f'"task_time": {shown} is refused by this collector',
                                                   aside('only "" passes')),
                           clause("the collector rejects it", logged(' ("Argument [task_time] is not supported.")'),
                                  so(ABORT)),
                           ("remove it", "this collector turns the task trace on by itself"),
                           TextFix((_member_removal(doc, member),), False, f'drop "{key}"'))
        return Problem(code, key, span, clause(f'"{key}": {shown} is rejected by its checker', aside('only "" passes')),
                       clause("the collector rejects it", so(ABORT)), "remove it",
                       TextFix((_member_removal(doc, member),), False, f'drop "{key}"'))
    shown_allowed = "/".join(f'"{a}"' for a in allowed if a)
    matches = close_matches(str(value), [a for a in allowed if a])
    fix = None
    advice = f"use one of {shown_allowed}"
    if isinstance(value, str) and len(matches) >= 1 and matches[0].lower() == value.lower():
        advice = f'write "{matches[0]}"'
        fix = TextFix(((span[0] + 1, span[1] - 1, matches[0]),), True, advice)
    elif value in (True, False) and "on" in allowed:
        word = "on" if value else "off"
        advice = f'write "{word}"'
        fix = TextFix(((span[0], span[1], f'"{word}"'),), False, advice)
    elif isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no") and "on" in allowed:
        word = "on" if value.lower() in ("true", "1", "yes") else "off"
        advice = f'write "{word}"'
        fix = TextFix(((span[0] + 1, span[1] - 1, word),), False, advice)
    return Problem(code, key, span, f'"{key}": {shown} is not one of {shown_allowed}',
                   clause("the collector rejects it", so(ABORT)), advice, fix)


def _expected_type(version: str, key: str) -> str:
    sub = K.property_schema(version, key)
    t = sub.get("type")
    if isinstance(t, list):
        return " or ".join("integer" if x == "integer" else x for x in t)
    return t or "string"


def _retype(key: str, value, want: str, span=None):
    """Advice and an unsafe fix that gives the value the JSON type the runtime reads."""
    new = None
    if want == "string" and isinstance(value, bool) and "on" in K.enum_values("any", snake(key)):
        new = '"on"' if value else '"off"'
    elif want == "string" and isinstance(value, (int, float)) and not isinstance(value, bool):
        n = whole(value)
        new = f'"{n}MB"' if snake(key) == "storage_limit" and n is not None else f'"{value}"'
    elif want == "integer" and isinstance(value, str) and value.strip().isdigit() and (decimal(value) or 0) >= 1:
        new = str(decimal(value))
    if new is None:
        return f"give a JSON {want}", None
    fix = TextFix(((span[0], span[1], new),), False, f"write {new}") if span else None
    return f"write {new}", fix


def _list_items(version, key):
    pattern = ""
    for alt in K.property_schema(version, key).get("anyOf", ()):
        pattern = alt.get("pattern", pattern)
    m = re.match(r"\^\(\?:([^)]*)\)", pattern)
    return m.group(1).split("|") if m else []


_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)(i?B?)", re.I)      # fullmatch on stripped text
_UNIT = {"": 1 / (1 << 20), "K": 1 / 1024, "M": 1, "G": 1024, "T": 1 << 20}


def _storage_problem(member: Member, version: str, logs: str = "") -> Problem:
    """NPP107; `logs`: the line the 8.5+ collector logs before it warns."""
    value = member.value
    span = (member.value_start, member.value_end)
    legacy = version in K.LEGACY_VERSIONS
    m = _SIZE.fullmatch(value.strip()) if isinstance(value, str) else None
    mb = None
    if m and (m.group(2) or m.group(3)):
        mb = float(m.group(1)) * _UNIT[m.group(2).upper()]
    elif m:
        mb = None
    fix, advice = None, 'write "<N>MB" with 200 <= N <= 4294967295'
    if mb is not None and whole(mb) is not None and 200 <= mb <= 4294967295:
        new = f"{whole(mb)}MB"
        fix = TextFix(((span[0] + 1, span[1] - 1, new),), True, f'write "{new}"')
        advice = f'write "{new}"'
    elif mb is not None and mb < 200:
        fix = TextFix(((span[0] + 1, span[1] - 1, "200MB"),), False, 'raise it to "200MB"')
        advice = 'the minimum is "200MB"'
    said_first = clause("the collector ", logged(f'logs "{logs}" and ')) if logs else ""
    consequence: Text
    if legacy:
        consequence = clause("the collector rejects it", so(ABORT))
    elif isinstance(value, str) and value.endswith("MB") and value[:-2].isdigit() and \
            (decimal(value[:-2]) or 200) < 200:
        consequence = "the collector warns and raises it to 200MB"
    else:
        # 8.5+ keeps the text: the ageing code drops its last two characters and reads the rest as MB
        text = value if isinstance(value, str) else ""
        digits = re.match(r"\s*\+?([0-9]+)", text[:-2]) if len(text) > 2 else None
        read: Text
        if len(text) <= 2:
            read = "applies no limit"
        elif digits and decimal(digits.group(1)) is not None:
            read = f"applies the leading digits of the rest, {decimal(digits.group(1))} MB, as the limit"
        else:
            read = clause("fails to read the rest as a number", aside("std::stoull throws"))
        consequence = clause(said_first or "the collector ", "only warns",
                             logged(' ("storage_limit para is invalid")'),
                             " and keeps the text; its data ageing drops the last two characters and ", read)
        said_first = ""
    return Problem("NPP107", member.key, span,
                   f'"storage_limit": {_json(value)} is not "<N>MB" with 200 <= N <= 4294967295',
                   clause(said_first, consequence), advice, fix)


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    REF_COLLECTOR, REF_ENV_OPTIONS, REF_GE_INIT, REF_OAM, REF_PROFILING_CONFIG_504, REF_PROFILING_CONFIG_601,
    _ANY_CANN, Rule, _opts)

RULES = (
    Rule(
        code="NPP102",
        name="invalid-option-value",
        summary="invalid value for an enumerated option (`on`/`off` switches are exact and lowercase; "
                "task_trace levels, llc_profiling, host_sys, host_sys_usage per target)",
        default=True,
        level="error", fatal=True,
        what="A switch such as `aicpu`, `hccl`, `l2`, `msproftx` or `runtime_api` given something other than "
             "`\"on\"`/`\"off\"` (`\"ON\"`, `\"true\"`, `\"1\"`), a `task_trace`/`task_time` level the target "
             "does not know, or an `llc_profiling`, `host_sys` or `host_sys_usage` value outside its list.",
        why="Old documentation claimed unknown switch values count as off, but every collector in use checks "
            "them and rejects the whole configuration; GE initialisation then fails and the job aborts.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","aicpu":"ON"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","aicpu":"on"}'),
        fix_safety="sometimes",
        fix_note="Fixing the case of `on`/`off` is safe. Turning `\"true\"`/`\"false\"`/`\"1\"` into "
                 "`\"on\"`/`\"off\"` is unsafe: it is a guess, and \"on\" starts a collection that adds overhead.",
        options=_ANY_CANN + " Levels such as `l2` for `task_trace` exist only from CANN 8.5, `host_sys` "
                "items (`numa` from 9.1) and `llc_profiling` values differ per version (8.5+ refuses an empty "
                "`llc_profiling` too), and `llc_profiling` also per product (--npuprof-soc; the Ascend 310 took "
                "`capacity`/`bandwidth` up to CANN 8.0). On 9.0 and 9.1 any non-empty `task_time` is refused.",
        references=(REF_ENV_OPTIONS, REF_COLLECTOR, REF_OAM),
        group="options",
        facts=("schema.aicpu", "schema.task_trace", "schema.task_time", "schema.llc_profiling", "schema.host_sys",
               "schema.task_block", "collection.emulation.messages.NPP102",
               "collection.emulation.collector_call_failed", "collection.emulation.e10001",
               "collection.emulation.adapter_abort"),
    ),
    Rule(
        code="NPP103",
        name="training-trace-not-on",
        summary="`training_trace` present with a value other than `\"on\"` or `\"\"` (`\"off\"` makes GE init fail)",
        default=True,
        level="error", fatal=True,
        what="`\"training_trace\"` set to `\"off\"`, `\"ON\"`, `true` or any other value except `\"on\"` and "
             "the empty string.",
        why="GE checks this one key itself before the collector sees the options: a non-empty value other "
            "than `on` is reported as an invalid training trace parameter, GE initialisation fails and the "
            "job aborts. `\"off\"` is not a way to switch it off; leaving the key out is.",
        example=_opts('{"output":"/tmp/prof","training_trace":"off","task_trace":"on"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="safe",
        fix_note="`\"off\"` (and other off-like values) drops the key, which is what off means; `\"ON\"` "
                 "becomes `\"on\"`. Both keep the intent unchanged.",
        references=(REF_GE_INIT, REF_PROFILING_CONFIG_504, REF_ENV_OPTIONS),
        group="options",
        facts=("schema.training_trace", "collection.emulation.messages.NPP103", "collection.emulation.ge_checks",
               "collection.emulation.e10001", "collection.emulation.adapter_abort"),
    ),
    Rule(
        code="NPP107",
        name="invalid-storage-limit",
        summary="invalid `storage_limit` (`<N>MB`, 200 ≤ N ≤ 4294967295)",
        default=True,
        level="error",
        what="A `storage_limit` that is not a string of digits followed by exactly `MB`, or whose number is "
             "below 200 or above 4294967295 (`\"2GB\"`, `\"500\"`, `\"100MB\"`, `\"1.5MB\"`).",
        why="Up to CANN 8.0 the collector rejects the value and GE initialisation fails, aborting the job. "
            "From 8.5 on it only warns: `<N>MB` below 200 is raised to 200MB, and any other text is kept as "
            "it is; the data ageing then drops its last two characters and reads the leading digits of the "
            "rest as megabytes (`\"2GB\"` becomes a 2 MB limit, `\"500\"` a 5 MB one), or fails on text "
            "without digits. An empty `storage_limit` means no limit on every version.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","storage_limit":"2GB"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","storage_limit":"2048MB"}'),
        fix_safety="sometimes",
        fix_note="Converting another unit to MB (`2GB` → `2048MB`) keeps the limit and is safe. Raising a value "
                 "below 200 to `200MB` is unsafe: it changes the limit the user chose.",
        options=_ANY_CANN + " The finding is reported with `any` because every version mishandles the value, "
                "but the consequence it names depends on the version.",
        references=(REF_ENV_OPTIONS, REF_PROFILING_CONFIG_601, REF_COLLECTOR, REF_OAM),
        group="options",
        facts=("schema.storage_limit", "collection.emulation.messages.NPP107",
               "collection.emulation.collector_call_failed", "collection.emulation.e10001",
               "collection.emulation.adapter_abort"),
    ),
    Rule(
        code="NPP109",
        name="invalid-sampling-frequency",
        summary="sampling frequency not an integer or out of its range",
        default=True,
        level="error", fatal=True,
        what="A `*_freq` option (`sys_hardware_mem_freq`, `sys_io_sampling_freq`, `sys_interconnection_freq`, "
             "`dvpp_freq`, `host_sys_usage_freq`, `instr_profiling_freq`) whose value is not an integer or "
             "lies outside the range the target accepts (1-100 Hz for most, 1-50 for interconnect and host "
             "usage, 300-30000 for instruction profiling).",
        why="The collector range-checks every frequency and rejects the whole configuration when one is "
            "outside its range, so GE initialisation fails and the job aborts. On CANN 8.0 a non-numeric "
            "string is instead read as 0 and that sampling is silently skipped.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","dvpp_freq":500}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","dvpp_freq":100}'),
        fix_safety="none",
        fix_note="No fix: the right sampling rate is the user's choice.",
        options=_ANY_CANN + " The ranges differ per version and product (the Ascend 950 takes "
                "`sys_hardware_mem_freq` up to 10000), and so does the JSON type a frequency must have "
                "(NPP110).",
        references=(REF_ENV_OPTIONS, REF_COLLECTOR, REF_OAM),
        settings=(("cann", "8.5"),),
        group="options",
        facts=("schema.dvpp_freq", "schema.instr_profiling_freq", "products.950.max_freq",
               "collection.emulation.messages.NPP109", "collection.emulation.collector_call_failed",
               "collection.emulation.e10001", "collection.emulation.adapter_abort"),
    ),
    Rule(
        code="NPP110",
        name="option-value-wrong-json-type",
        summary="value of the wrong JSON type for the target (`\"aicpu\": true`, `\"storage_limit\": 200`, "
                "frequency type per CANN version)",
        default=True,
        level="error",
        what="A JSON boolean or number where the target expects a string, or the reverse: `\"aicpu\": true`, "
             "`\"storage_limit\": 200`, and sampling frequencies, which CANN 8.0 reads as strings and CANN "
             "8.5+ as numbers.",
        why="Up to CANN 8.0 the JSON reader throws on a value of the wrong type and the whole configuration "
            "is rejected, so GE initialisation fails and the job aborts. From 8.5 on a wrongly typed string "
            "option reads as unset and a frequency written as a string reads as 0, so the switch is "
            "silently off or the range check fails.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","sys_hardware_mem_freq":50}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","sys_hardware_mem_freq":"50"}'),
        fix_safety="unsafe",
        fix_note="Rewrites the value in the expected type (`true` → `\"on\"`, `200` → `\"200MB\"`, `50` ↔ "
                 "`\"50\"`). Unsafe: `true` → `\"on\"` starts a collection, and a frequency written for one "
                 "version becomes wrong for the other.",
        options=_ANY_CANN + " No frequency representation works on every version, so pick the version the "
                "job runs on.",
        references=(REF_ENV_OPTIONS, REF_COLLECTOR, REF_OAM),
        settings=(("cann", "8.0"),),
        group="options",
        facts=("schema.dvpp_freq", "schema.aicpu", "collection.emulation.messages.NPP110",
               "collection.emulation.collector_call_failed", "collection.emulation.e10001",
               "collection.emulation.adapter_abort"),
    ),
)
