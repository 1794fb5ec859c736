"""The versions up to CANN 8.0: the errors of a version's compiled JSON schema, mapped to codes by
keyword and instance path, and `instr_profiling_freq` combined with other collections (NPP115).
"""

from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Set, Tuple

from ..knowledge import datafiles as K
from ..source.jsonscan import Doc
from ..source.said import clause, logged
from .options_chips import _custom_event_problems
from .options_keys import _key_problem
from .options_output import _some_builds_output
from .options_problem import Problem, _members
from .options_values import _value_problem


def _schema_judgement(doc: Doc, version: str) -> Tuple[List[Problem], Set[str]]:
    """_schema_problems and _schema_ok_keys, validating once where they validate the same object (no member's
    value has a hole)."""
    members = _members(doc)
    if any(m.unknown for m in members.values()):
        return _schema_problems(doc, version), _schema_ok_keys(doc, version)
    errors = list(K.validator(version).iter_errors({k: m.value for k, m in members.items()}))
    return _schema_problems(doc, version, errors), _schema_ok_keys(doc, version, errors)


def _schema_problems(doc: Doc, version: str, errors: Optional[Iterable] = None) -> List[Problem]:
    """errors: the validator's errors of the object validated below, when the caller has them."""
    members = _members(doc)
    unknown = doc.unknown_keys()
    # unknown values stand in as "" so keys are still checked and nothing else is judged
    obj = {k: ("" if m.unknown else m.value) for k, m in members.items()}
    props = K.keys_of(version)
    legacy = version in K.LEGACY_VERSIONS
    per_key: Dict[str, list] = {}
    out: List[Problem] = []
    conflicts: List[str] = []
    for err in K.validator(version).iter_errors(obj) if errors is None else errors:
        path = list(err.absolute_path)
        head = err.schema_path[0] if err.schema_path else None
        if head == "dependentSchemas":
            if path and path[0] not in unknown:
                conflicts.append(path[0])
            continue
        if not path:
            if err.validator == "additionalProperties":
                for key in obj:
                    if key not in props:
                        out.append(_key_problem(members[key], version, members))
            elif err.validator == "required":
                for key in err.validator_value:
                    if key not in obj:
                        out.append(Problem("NPP108", "output", (doc.start, doc.start + 1),
                                           'profiling_options has no "output"',
                                           clause("profiling init fails", logged(' ("Result path is empty")')),
                                           'add "output": "<directory for PROF_* data>"', stops=True))
            continue
        key = path[0]
        if key in unknown:
            continue
        per_key.setdefault(key, []).append(err)
    for key, errs in per_key.items():
        keywords = {e.validator for e in errs if len(e.absolute_path) == 1}
        keyword = "type" if "type" in keywords else (errs[0].validator if errs else "")
        problem = _value_problem(doc, members[key], keyword, version)
        if problem:
            out.append(problem)
    if conflicts and "instr_profiling_freq" in members:
        m = members["instr_profiling_freq"]
        names = ", ".join(f'"{c}"' for c in conflicts)
        out.append(Problem("NPP115", "instr_profiling_freq", (m.key_start, m.key_end),
                           f'"instr_profiling_freq" is set together with {names}',
                           clause("profiling fails to start",
                                  logged(' ("instrProfilingFreq is set, Params ... not allowed")')),
                           "instruction sampling runs alone: drop one side or target CANN 8.5+", stops=True))
    if legacy:
        out.extend(_custom_event_problems(members, version))
    out.extend(_some_builds_output(members, version))
    return out


def _schema_ok_keys(doc: Doc, version: str, errors: Optional[Iterable] = None) -> Set[str]:
    """errors: as for _schema_problems."""
    members = _members(doc)
    bad = set()
    obj = {k: m.value for k, m in members.items() if not m.unknown}
    for err in K.validator(version).iter_errors(obj) if errors is None else errors:
        path = list(err.absolute_path)
        if err.schema_path and err.schema_path[0] == "dependentSchemas":
            continue                # a conflict between keys (NPP115), not a bad value
        if path:
            bad.add(path[0])
        elif err.validator == "additionalProperties":
            bad.update(k for k in obj if k not in K.keys_of(version))
    return {k for k in members if k not in bad}


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import REF_COLLECTOR, REF_ENV_OPTIONS_80, _ANY_CANN, Rule, _opts  # noqa: E402

RULES = (
    Rule(
        code="NPP115",
        name="instr-profiling-with-trace-switches",
        summary="`instr_profiling_freq` combined with task/trace switches (fails before 8.5)",
        default=True,
        level="error", fatal=True,
        what="`instr_profiling_freq` in the same options as `task_trace`, `task_time`, `training_trace`, "
             "`aicpu`, `l2`, `hccl`, `runtime_api` or a metrics key.",
        why="Instruction sampling must run on its own on the collectors up to CANN 8.0: they refuse the "
            "combination (\"instrProfilingFreq is set, Params ... not allowed\"), GE initialisation fails and "
            "the job aborts. CANN 8.5+ only looks at the frequency when `instr_profiling` is on.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","instr_profiling_freq":"1000"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: keeping the task data or the instruction sampling is the user's choice.",
        options=_ANY_CANN + " Set --npuprof-cann 8.0 (or `portable`) to check for the older collectors.",
        references=(REF_ENV_OPTIONS_80, REF_COLLECTOR),
        settings=(("cann", "8.0"),),
        group="options",
        facts=("schema.instr_profiling_freq", "collection.emulation.messages.NPP115",
               "collection.emulation.collector_call_failed", "collection.emulation.e10001",
               "collection.emulation.adapter_abort"),
    ),
)
