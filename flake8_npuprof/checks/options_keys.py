"""The options' keys: a key no CANN version knows (NPP101, with a did-you-mean) and a key of another
version than the target's (NPP113).
"""

from __future__ import annotations

import functools
from typing import Tuple, Union

from ..knowledge import datafiles as K
from ..knowledge.collection import data as collection_data
from ..source.jsonscan import Member
from ..source.model import TextFix
from ..source.suggest import KEY_ALIASES, close_matches, did_you_mean
from ..source.said import clause, so
from .options_problem import ABORT, Problem, snake, versions_phrase


@functools.lru_cache(maxsize=None)
def _snake_keys() -> list:
    """The known keys in their snake_case spelling (the did-you-mean candidates), computed once."""
    return sorted(k for k in K.all_keys() if k == snake(k))


@functools.lru_cache(maxsize=4096)
def _suggestions(key: str) -> Tuple[str, Tuple[str, ...]]:
    """(did-you-mean text, close matches) for an unknown key: asked once per key, not once per key, version and
    chip (difflib is most of the cost of an options object with a thousand unknown keys)."""
    snake_keys = _snake_keys()
    return (did_you_mean(key, snake_keys, KEY_ALIASES) or "",
            tuple(close_matches(key, snake_keys, KEY_ALIASES)))


def _key_problem(member: Member, version: str, present=()) -> Problem:
    key = member.key
    accepted = K.versions_accepting(key)
    span = (member.key_start, member.key_end)
    if not accepted:
        hint, matches = _suggestions(key)
        fix = None
        if len(matches) == 1 and matches[0] not in present:   # a rename must not make a duplicate
            safe = matches[0].lower() == key.lower()
            fix = TextFix(((member.key_start + 1, member.key_end - 1, matches[0]),), safe,
                          f'rename "{key}" to "{matches[0]}"')
        documented = collection_data().get("documented_rejected_keys", {}).get(key)
        if documented:
            return Problem("NPP101", key, span, f'"{key}" is {documented["known"]}',
                           clause("the collector rejects the options", so(ABORT)), "remove it")
        return Problem("NPP101", key, span, f'unknown profiling_options key "{key}"',
                       clause("the collector rejects the options", so(ABORT)), hint or "remove it", fix)
    advice: Union[str, Tuple[str, ...]] = ""
    if key != snake(key):
        advice = f'write "{snake(key)}" (only the protobuf-era collector of {versions_phrase(accepted)} reads this spelling)'
    elif key == "task_time":
        advice = 'use "task_trace" for this version'
    elif key in ("aiv_metrics", "power"):
        advice = ("remove it", "AI Vector Core metrics follow aic_metrics on chips that have them") \
            if key == "aiv_metrics" else "remove it"
    else:
        advice = f"remove it or target {versions_phrase(accepted)}"
    return Problem("NPP113", key, span, f'"{key}" is not a profiling_options key of this CANN version',
                   clause("the collector rejects the options", so(ABORT)), advice)


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    REF_COLLECTOR, REF_ENV_OPTIONS, REF_ENV_OPTIONS_80, REF_MODELZOO, REF_OAM, _ANY_CANN, Rule, _opts)

RULES = (
    Rule(
        code="NPP101",
        name="unknown-options-key",
        summary="unknown key, with did-you-mean (L2→l2, result_path→output) — whole profiling init fails",
        default=True,
        level="error", fatal=True,
        what="A key in profiling_options that no supported CANN version knows, such as `L2`, "
             "`result_path` or `aicpu_trace`.",
        why="Keys are matched exactly, case included. Every collector generation keeps a whitelist and "
            "refuses the whole options string when one key is not on it, so GE initialisation fails at "
            "the first session and the job aborts before the first step.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","L2":"on"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","l2":"on"}'),
        fix_safety="sometimes",
        fix_note="Renames the key when exactly one known key is close. A rename that only changes case "
                 "(`L2` → `l2`) is safe; other renames guess what was meant and are unsafe.",
        options="Keys known to some CANN version but not to the target are NPP113, not NPP101.",
        references=(REF_ENV_OPTIONS, REF_COLLECTOR, REF_MODELZOO),
        group="options",
        facts=("collection.documented_rejected_keys.", "collection.emulation.messages.NPP101",
               "collection.emulation.collector_call_failed", "collection.emulation.e10001",
               "collection.emulation.adapter_abort"),
    ),
    Rule(
        code="NPP113",
        name="key-not-in-target-version",
        summary="key not accepted by the target CANN version (e.g. `task_time` on 8.5, "
                "`aiv_metrics`/`power` on 8.5+)",
        default=True,
        level="error", fatal=True,
        what="A key that some CANN versions accept but the target does not: `task_time` on 8.5, "
             "`aiv_metrics` and `power` from 8.5 on, `task_tsfw` and `sys_mem_serviceflow` outside 8.5, newer "
             "keys such as `instr_profiling` before 8.5, or the lowerCamelCase spellings only the protobuf-era "
             "collector read. (On 9.0 and 9.1 `task_time` is whitelisted but any non-empty value is refused; "
             "that is NPP102.)",
        why="Each collector generation has its own key whitelist; a key missing from it is treated like a "
            "typo, the whole configuration is rejected, GE initialisation fails and the job aborts.",
        example=_opts('{"output":"/tmp/prof","task_time":"on"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: the replacement key (`task_trace` for `task_time`) has different levels and "
                 "defaults on each version.",
        options=_ANY_CANN + " With the default `any` this rule never fires, since some version accepts the key; "
                "set --npuprof-cann to the version the job runs on, or `portable`.",
        references=(REF_ENV_OPTIONS, REF_ENV_OPTIONS_80, REF_COLLECTOR, REF_OAM),
        settings=(("cann", "8.5"),),
        group="options",
        facts=("schema.task_time", "schema.task_tsfw", "schema.power", "collection.emulation.messages.NPP113",
               "collection.emulation.collector_call_failed", "collection.emulation.e10001",
               "collection.emulation.adapter_abort"),
    ),
)
