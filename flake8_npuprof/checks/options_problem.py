"""What the profiling_options checks share: a check's verdict on one (version, product) (`Problem`),
the consequence a fatal verdict names (`ABORT`), and how a message shows keys, values and versions.

The checks are the other options_* modules; checks/options.py judges their verdicts per target.
"""

from __future__ import annotations

import functools
import re
from typing import Dict, NamedTuple, Optional, Tuple, Union

from ..knowledge import datafiles as K
from ..source.jsonscan import Doc, Member, Unknown
from ..source.model import TextFix
from ..source.said import ABORT, Part, Text, clause, logged, so

FREQ_KEYS = ("sys_hardware_mem_freq", "sys_io_sampling_freq", "sys_interconnection_freq", "dvpp_freq",
             "host_sys_usage_freq", "instr_profiling_freq", "sys_lp_freq")


@functools.lru_cache(maxsize=1024)
def snake(key: str) -> str:
    """The snake_case key a protobuf-era lowerCamelCase alias stands for (kept per key: each options string
    is judged for 35 (version, product) pairs, and its keys are the few the schemas name)."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), key)


def versions_phrase(versions) -> str:
    vs = [v for v in K.VERSIONS if v in set(versions)]
    if len(vs) == len(K.VERSIONS):
        return "every CANN version"
    if len(vs) == 1:
        return f"CANN {vs[0]}"
    return "CANN " + ", ".join(vs[:-1]) + " and " + vs[-1]


def _json(value) -> str:
    import json
    if isinstance(value, Unknown):
        return '"…"'
    text = json.dumps(value, ensure_ascii=False, default=lambda v: "…")      # an Unknown inside a list
    if len(text) <= 60:
        return text
    # abridged inside its quotes: a quote left open would run on into the rest of the message
    return text[:56].rstrip("\\") + '…"' if text.startswith('"') else text[:57] + "…"


def _jtype(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "array" if isinstance(value, list) else "object"


class Problem(NamedTuple):
    """One check's verdict on one (version, product)."""

    code: str
    anchor: str                 # grouping key: the JSON key, or "" for the whole string
    span: Tuple[int, int]
    what: Text                  # the problem, independent of the version
    consequence: Text           # what this version's runtime does (source/said.py: a text or a clause)
    advice: Union[str, Tuple[str, ...]]     # how to fix it (a tuple: its clauses, a line each in the detail)
    fix: Optional[TextFix] = None
    # "fails": every build of the version does this; "some": only the builds named in `builds`;
    # "unknown": no source shows what this version does (never reported on its own)
    standing: str = "fails"
    builds: str = ""
    # what the runtime does: "abort" (GE initialisation fails), "env" (it does unless an environment
    # variable is set), "ignored", "changed", "dropped", "guidance"; "" derived from the consequence
    effect: str = ""
    # profiling does not start though GE initialisation does not fail (the collector's init fails)
    stops: bool = False
    # facts the runtime's own words name, for emulate to fill them in: ("logged", the line the 8.5+ runtime logs as
    # it rejects the options), ("lo", ...) and ("hi", ...) (the range a value must be in), ("case", "long")
    facts: Tuple[Tuple[str, str], ...] = ()


def _member_removal(doc: Doc, member: Member) -> Tuple[int, int, str]:
    """Text range that removes one member together with one adjacent comma."""
    members = doc.members
    k = members.index(member)
    if k + 1 < len(members):
        return (member.key_start, members[k + 1].key_start, "")
    if k > 0:
        return (members[k - 1].value_end, member.value_end, "")
    return (member.key_start, member.value_end, "")


def _members(doc: Doc) -> Dict[str, Member]:
    out = {}
    for m in doc.members:
        out[m.key] = m          # the last one is what the runtime reads
    return out


def _quoted(step) -> "Part | str":
    """The line the runtime writes as it rejects the options, as a consequence quotes it."""
    return logged(f' ("{step.line}")') if step.line else ""


def _rejects(step, who: str = "") -> Text:
    who = who or ("GE" if step.stage == "ge" else "the collector")
    return clause(f"{who} rejects it", _quoted(step), so(ABORT))


def _any_unknown(doc: Doc) -> bool:
    return any(m.unknown for m in doc.members)
