"""The options' JSON as GE parses it: not JSON or not an object (NPP100, with a fix for Python dict
syntax and the pre-2021 colon list), and a key written twice (NPP111).
"""

from __future__ import annotations

from typing import Dict, List, Optional

from ..source.jsonscan import Doc, Member, parse
from ..source.model import Issue, TextFix
from ..source.said import Runtime, Said, aside, clause, logged, said, so
from .options_problem import ABORT, _json, _member_removal

_HINTS = {
    # the example is itself clean (with training_trace, the points NPP104 asks for)
    "legacy": ("this is the pre-2021 colon list", "write a JSON object such as "
               '{"output":"./prof","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'),
    "single_quotes": ("JSON needs double quotes around keys and strings",),
    "trailing_comma": ("remove the trailing comma",),
    "python_literal": ('use JSON true/false/null (switches take "on"/"off")',),
    "not_json": ("write a JSON object of options",),
}


BOM_REJECTED = "Failed to parse geoption configs. Error reason: Input json string error"


def _syntax_issue(text: str, doc: Doc) -> Issue:
    if doc.error and text.startswith("\ufeff") and not parse(text[1:]).error:
        # GE's nlohmann skips a byte-order mark; the collector's own reader does not (the oracle record)
        return Issue("NPP100", 0, 1,
                     Said("profiling_options starts with a byte-order mark (U+FEFF), which GE's JSON parser skips but "
                          "the collector's own reader does not",
                          runtime=(Runtime("CANN 8.5 and later", clause("the collector rejects the options",
                                                                        logged(f' ("{BOM_REJECTED}")'), so(ABORT))),),
                          advice=("remove the mark",)),
                     TextFix(((0, 1, ""),), True, "remove the byte-order mark"), effect="abort",
                     facts=(("logged", BOM_REJECTED),))
    if doc.error:
        err = doc.error
        advice = _HINTS.get(err.hint, ("fix the JSON syntax",))
        i = min(err.index, max(len(text) - 1, 0))
        fix = _legacy_fix(text) if err.hint == "legacy" else _python_dict_fix(text)
        return Issue("NPP100", i, i + 1,
                     # 1-based, like the columns beside it
                     said(clause("profiling_options is not valid JSON",
                                 aside(f"{err.message} at character {err.index + 1} of the options")),
                          clause("GE cannot parse it", so(ABORT)), *advice), fix, effect="abort")
    return Issue("NPP100", doc.start, doc.end,
                 said(f"profiling_options is a JSON {doc.root_type}, not an object", clause("GE rejects it", so(ABORT)),
                      'write the options as {"key": "value", ...}'), effect="abort")


def _legacy_fix(text: str) -> TextFix:
    parts = [p.strip() for p in text.split(":") if p.strip()]
    obj = {"output": "./"}
    for part in parts:
        obj["task_trace" if part == "op_trace" else part] = "on"
    if "training_trace" in obj:
        obj.update({"fp_point": "", "bp_point": ""})
    import json
    new = json.dumps(obj, separators=(",", ":"))
    return TextFix(((0, len(text), new),), False, "rewrite the colon list as a JSON object")


def _python_dict_fix(text: str) -> Optional[TextFix]:
    """A Python dict literal (single quotes, True, trailing comma) written as the JSON it means."""
    import ast
    import json
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):     # TypeError: {{...}} is a set
        return None
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        return None
    try:
        spaced = ": " in text
        new = json.dumps(value, ensure_ascii=False, separators=(", ", ": ") if spaced else (",", ":"))
    except (TypeError, ValueError):
        return None
    return TextFix(((0, len(text), new),), True, "write it as JSON")


def _duplicates(doc: Doc) -> List[Issue]:
    last: Dict[str, Member] = {}
    for member in doc.members:
        last[member.key] = member
    out = []
    for member in doc.members:
        winner = last[member.key]
        if winner is member:
            continue
        out.append(Issue(
            "NPP111", member.key_start, member.key_end,
            said(f'duplicate key "{member.key}"',
                 clause("the runtime keeps only the last value", aside(_json(winner.value)), ", this one",
                        aside(_json(member.value)), " is silently dropped"), "remove one of them"),
            TextFix((_member_removal(doc, member),), True, f'drop the earlier "{member.key}"'), member.key,
            effect="silent"))
    return out


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    GOOD_OPTIONS, REF_COLLECTOR, REF_E10001, REF_ENV_OPTIONS, REF_GE_INIT, REF_INIT_SYSTEM_80, REF_MODELZOO, Rule,
    _opts)

RULES = (
    Rule(
        code="NPP100",
        name="options-not-json",
        summary="not valid JSON or not a JSON object (the legacy colon list `\"training_trace:task_trace\"` "
                "gets its own hint) — GE init fails",
        default=True,
        level="error", fatal=True,
        what="A profiling options string that does not parse as a JSON object: the pre-2021 colon list, "
             "Python dict syntax with single quotes or `True`, trailing commas, or valid JSON of another "
             "type (a list, a bare string).",
        why="GE parses the string as JSON when it initialises; on a parse error or a non-object it rejects "
            "the parameter with E10001, GE initialisation fails and the adapter aborts the process at the "
            "first session. The colon format has not been accepted since the adapter moved to JSON options.",
        example=_opts("training_trace:task_trace"),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="sometimes",
        fix_note="Python-dict quoting (single quotes, `True`/`False`/`None`) is rewritten as the equivalent "
                 "JSON, which is safe because the meaning is unambiguous. A colon list becomes a JSON object "
                 "with the listed traces on, `output` \"./\" and empty trace points; that is unsafe because the "
                 "output directory and the `op_trace` mapping are guesses.",
        references=(REF_ENV_OPTIONS, REF_GE_INIT, REF_E10001, REF_INIT_SYSTEM_80, REF_MODELZOO),
        group="options",
        facts=("collection.emulation.messages.NPP100", "collection.emulation.ge_checks",
               "collection.emulation.e10001", "collection.emulation.adapter_abort"),
    ),
    Rule(
        code="NPP111",
        name="duplicate-options-key",
        summary="duplicate key in the options object (the last one silently wins)",
        default=True,
        level="warning", tags=('unnecessary',),
        what="The same key written twice in one options object, for example two `output` entries after an "
             "edit.",
        why="The runtime keeps only the last occurrence and drops the earlier one without a warning, so the "
            "first value, usually the one the reader sees, has no effect.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","aicpu":"on","output":"./prof"}'),
        fixed=_opts('{"task_trace":"on","aicpu":"on","output":"./prof"}'),
        fix_safety="safe",
        fix_note="Removes the earlier occurrence, which the runtime ignores anyway, so behaviour does not "
                 "change.",
        references=(REF_COLLECTOR, REF_GE_INIT),
        group="options",
        facts=("runtime.duplicate_keys",),
    ),
)
