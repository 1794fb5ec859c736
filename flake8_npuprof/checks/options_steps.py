"""CANN 8.5 and later: the problems on one chip from what GE and the collector of a version do with
the options, step by step (knowledge/ge_options.py, held to the oracle record by tests/test_oracle.py).
The codes are documented beside the checks of the older versions, whose wording these reuse.
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Set

from ..knowledge import datafiles as K
from ..knowledge import ge_options as G
from ..source.jsonscan import Doc, Member
from ..source.model import TextFix, printable
from ..source.said import clause, logged, so
from .options_keys import _key_problem
from .options_output import _output_refused
from .options_problem import ABORT, Problem, _json, _jtype, _members, _quoted, _rejects
from .options_values import _retype, _storage_problem, _value_problem

_NANO_ADVICE = {
    "json_quote": 'it ends a string at the first \\": write the value without escaped quotes',
    "json_integer": "it reads integers with std::stoi, which fails beyond 2147483647: use a smaller number",
    "json_syntax": "write plain keys and values (its reader keeps \\u escapes as written)",
}


class Read(NamedTuple):
    """What every (version, product) pair reads the same way in one options string: its members (the last of
    each key), the keys whose value has a hole, and GE's own steps (GE's parse does not depend on the chip)."""
    members: Dict[str, Member]
    unknown: Set[str]
    holes: bool
    ge: Optional[list]          # None: an empty text, which steps() answers alone


def read(doc: Doc, text: str) -> Read:
    members = _members(doc)
    unknown = {k for k, m in members.items() if m.unknown}
    return Read(members, unknown, bool(unknown) or "\ue000" in text, G.ge_steps(text) if text else None)


def _runtime_problems(doc: Doc, text: str, version: str, product: str, once: Optional[Read] = None) -> List[Problem]:
    """Problems on one chip from what GE and the collector of this version do, step by step
    (knowledge/ge_options.py, held to the oracle record by tests/test_oracle.py). once: read(doc, text), when
    the caller asks for several pairs."""
    members, unknown, holes, ge = once if once is not None else read(doc, text)
    by_key: Dict[Optional[str], list] = {}       # None: the whole string
    # G.steps(text, version, product, cut=False) (NPP112 reports the cut), GE's part read once
    every = G.steps(text, version, product, cut=False) if ge is None else ge + G.collector_steps(text, version, product)
    for step in every:
        if step.action in (G.UNKNOWN, G.OFF) or step.kind == "deprecated":
            continue
        if step.key in unknown or (holes and step.key is None):
            continue                        # a value known only at run time is not judged
        by_key.setdefault(step.key, []).append(step)
    out = []
    for key, steps in by_key.items():
        member = members.get(key) if key is not None else None
        written = None if member is not None or key is None else _written_as(doc, text, key)
        if written is not None and key is not None:
            problem = _collector_key_problem(doc, text, written, key, steps, version, product)
        elif member is not None and key is not None and isinstance(member.value, str) and \
                text[member.value_start + 1:member.value_end - 1] != member.value:
            problem = _escaped_value_problem(doc, text, member, key, steps, version, product)
        else:
            problem = _runtime_problem(doc, member, key, steps, version, product, members)
        rejected = next((s for s in steps if s.action == G.REJECT), None)
        if problem is not None and rejected is not None and rejected.line:
            problem = problem._replace(facts=problem.facts + (("logged", rejected.line),))   # what its words quote
        if problem is not None:
            out.append(problem)
    return out


def _escaped_value_problem(doc: Doc, text: str, member: Member, key: str, steps: list, version: str,
                           product: str) -> Optional[Problem]:
    """A value written with a JSON escape (`"\\u006fn"`): GE decodes it, the 8.5+ collector's reader judges it as
    written. The problem is the written value's; its words say both readings, never `"on" is not "on"`."""
    raw = text[member.value_start + 1:member.value_end - 1]
    base = _runtime_problem(doc, member._replace(value=raw), key, steps, version, product)
    if base is None:
        return None
    plain = member.value.isprintable() and '"' not in member.value and "\\" not in member.value
    return base._replace(what=f'"{key}": "{printable(raw)}" is written with a JSON escape, which GE reads as '
                              f'{_json(member.value)} but the collector reads as written',
                         advice=f"write {_json(member.value)} without escapes" if plain else base.advice,
                         fix=TextFix(((member.value_start + 1, member.value_end - 1, member.value),), True,
                                     f"write {_json(member.value)} without escapes") if plain else None)


def _raw_key(text: str, member: Member) -> str:
    return text[member.key_start + 1:member.key_end - 1]


def _written_as(doc: Doc, text: str, key: str) -> Optional[Member]:
    """The member whose key the 8.5+ collector reads as `key` where GE (nlohmann) reads another: the collector's
    own reader takes the key as written (a JSON escape stays as it is) and skips the whitespace before it."""
    found = None
    for m in doc.members:
        raw = _raw_key(text, m)
        if key in (raw, raw.lstrip(G.WHITESPACE)) and key != m.key:
            found = m                   # the last one is what the runtime reads
    return found


def _collector_key_problem(doc: Doc, text: str, member: Member, key: str, steps: list, version: str,
                           product: str) -> Optional[Problem]:
    """A key the collector reads otherwise than GE: with a JSON escape (it rejects the key as written, unknown),
    or with whitespace before it (it judges the value under the key without it)."""
    raw = _raw_key(text, member)
    final = next((s for s in steps if s.action == G.REJECT), None)
    if final is None:
        return None
    if key == raw:                      # written with an escape: unknown to the collector
        plain = member.key.isprintable()
        fix = TextFix(((member.key_start + 1, member.key_end - 1, member.key),), True,
                      f'write "{member.key}" without escapes') if plain and "\\" not in member.key and \
            '"' not in member.key else None
        return Problem("NPP101", member.key, (member.key_start, member.key_end),
                       f'profiling_options key "{printable(raw)}" is written with a JSON escape: GE reads it as '
                       f'"{printable(member.key)}", the collector reads it as written',
                       _rejects(final, "the collector"),
                       f'write the key "{printable(member.key)}" without escapes' if plain else "remove it", fix)
    shifted = member._replace(key=key)
    base = _runtime_problem(doc, shifted, key, steps, version, product)
    if base is None:
        return None
    # judged with the member as GE and the older collectors see it (one key: every version's verdict on it)
    return base._replace(anchor=member.key, what=clause(f'"{printable(member.key)}" has whitespace before the key, '
                                                        "which the 8.5+ collector skips: ", base.what))


def _runtime_problem(doc: Doc, member: Optional[Member], key: Optional[str], steps: list, version: str,
                     product: str, members: Optional[Dict[str, Member]] = None) -> Optional[Problem]:
    final = next((s for s in steps if s.action == G.REJECT), None) or steps[-1]
    typed = next((s for s in steps if s.kind == "type"), None)
    title = f"Ascend {product}"
    if member is None:
        span = (doc.start, doc.start + 1)
        if final.kind == "env_output":
            return Problem("NPP108", "output", span, 'profiling_options has no "output"',
                           clause("the collector then writes under $ASCEND_WORK_PATH/profiling_data, and rejects "
                                  "the options when that variable is not set", _quoted(final), so(ABORT)),
                           'add "output": "<directory for PROF_* data>"', effect="env")
        if final.kind.startswith("json_"):
            return Problem("NPP100", "", (doc.start, doc.end),
                           "profiling_options is valid JSON, but the collector's own reader cannot read it",
                           _rejects(final), _NANO_ADVICE[final.kind])
        if final.kind in ("json", "object"):
            return Problem("NPP100", "", (doc.start, doc.end), "profiling_options is not a JSON object as GE reads it",
                           _rejects(final), "fix the JSON syntax")
        return None
    assert key is not None                  # a member's: None is only the whole string's
    value = member.value
    span = (member.value_start, member.value_end)
    if final.kind.startswith("json_"):
        return Problem("NPP100", key, span, f'"{key}": {_json(value)} is valid JSON, but the collector\'s own reader '
                       "cannot read it", _rejects(final), _NANO_ADVICE[final.kind])
    if final.kind == "unknown_key":
        base = _key_problem(member, version, _members(doc) if members is None else members)
        return base._replace(consequence=_rejects(final, "the collector"))
    if typed is not None and (final is typed or final.kind in ("type", "empty", "range", "value", "items", "instr")):
        # the type the collector's reader wanted, from its own complaint (the schema of a version may
        # allow both: 9.x takes a number or a string for some frequencies)
        want = "integer" if "int variable" in typed.line else "string"
        advice, fix = _retype(key, value, want, span)
        base = Problem("NPP110", key, span, f'"{key}": {_json(value)} is a JSON {_jtype(value)}, the collector '
                       f'reads {"an integer" if want == "integer" else "a string"} there', "", advice, fix)
        if final.action == G.REJECT and final is not typed:
            read = "0" if "int variable" in typed.line else "empty"
            consequence = clause(f'the collector logs "{typed.line}", reads it as {read} and then rejects it',
                                 _quoted(final), so(ABORT))
        elif final.action == G.REJECT:
            consequence = _rejects(final)
        else:
            consequence = clause("the collector ", logged(f'logs "{typed.line}" and '),
                                 f"reads it as {'0' if 'int' in typed.line else 'empty'}",
                                 so("the setting has no effect"))
        return base._replace(code="NPP110", consequence=consequence,
                             effect="abort" if final.action == G.REJECT else "ignored")
    if final.kind in ("unsupported", "op_filter"):
        if not G.supported_anywhere(version, key):
            # whitelisted, but no chip of this version supports it: a key of other versions
            base = _key_problem(member, version, _members(doc) if members is None else members)
            elsewhere = [v for v in K.versions_accepting(key)
                         if v in K.LEGACY_VERSIONS or G.supported_anywhere(v, key)]
            advice = base.advice if elsewhere else "remove it: no chip collects it on any CANN version from 8.5"
            return base._replace(code="NPP113", what=f'"{key}" is not accepted by this CANN version',
                                 consequence=_rejects(final), advice=advice)
        return Problem("NPP114", key, (member.key_start, member.value_end),
                       f'"{key}" is not supported on {title}', _rejects(final), "remove it for this product")
    if final.kind == "l3":
        return Problem("NPP114", key, span, f'"{key}": "l3" is not supported on {title}', _rejects(final),
                       "use a lower level for this product")
    if final.kind == "value" and key == "training_trace":
        problem = _value_problem(doc, member, "enum", version)
        assert problem is not None          # training_trace's code is NPP103: always a Problem
        return problem._replace(consequence=_rejects(final))
    if final.kind in ("value", "items", "empty"):
        problem = _value_problem(doc, member, "enum", version)
        if problem is None:
            return None
        return problem._replace(code="NPP102", consequence=_rejects(final))
    if final.kind == "metrics":
        problem = _value_problem(doc, member, "enum", version)
        if problem is None or problem.code != "NPP106":
            problem = Problem("NPP106", key, span, f'"{key}": {_json(value)} is not an AI Core metric set on {title}',
                              "", "use one of " + ", ".join(K.aic_metrics_for(product)))
        return problem._replace(consequence=_rejects(final))
    if final.kind in ("range", "instr"):
        if final.action != G.REJECT:
            return None
        lo, hi = G.data()["instr_freq_range"] if key == "instr_profiling_freq" else G.data()["freq_ranges"][key]
        if key == "sys_hardware_mem_freq" and "10000" in final.line:
            hi = G.data()["hardware_mem_max_on_us_chips"]
        return Problem("NPP109", key, span, f'"{key}": {_json(value)} is not an integer in {lo}-{hi} (Hz)',
                       _rejects(final), f"use a value from {lo} to {hi}", facts=(("lo", str(lo)), ("hi", str(hi))))
    if final.kind == "output":
        return _output_refused(key, value, span, final, version)
    if final.kind == "env_output":
        return Problem("NPP108", key, span, '"output" is empty',
                       clause("the collector then writes under $ASCEND_WORK_PATH/profiling_data, and rejects the "
                              "options when that variable is not set", _quoted(final), so(ABORT)),
                       "give the directory for the PROF_* data", effect="env")
    if final.kind == "storage":
        return _storage_problem(member, version, final.line)._replace(effect="logged")
    return None
