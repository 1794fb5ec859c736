"""The options' `output` (NPP108): empty or too long up to 8.0, characters only some builds refuse, and
what the 8.5+ collector refuses in the result path.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional

from ..knowledge import datafiles as K
from ..source.jsonscan import Member
from ..source.model import printable
from ..source.said import aside, clause, logged, so
from .options_problem import ABORT, Problem, _json, _rejects


def _some_builds_output(members: Dict[str, Member], version: str) -> List[Problem]:
    """`output` characters that only part of a version's builds refuse (schema annotation)."""
    m = members.get("output")
    checks = K.property_schema(version, "output").get("x-npuprof-some-builds", ())
    if m is None or m.unknown or not isinstance(m.value, str) or not m.value:
        return []
    for check in checks:        # widest range of builds first
        if not re.match(check["pattern"], m.value):
            bad = sorted({c for c in m.value if not re.match(check["pattern"], c)})
            shown = " ".join(repr(c) for c in bad)
            return [Problem("NPP108", "output", (m.value_start, m.value_end),
                            clause('"output" contains characters some collectors refuse', aside(shown)),
                            clause("the collector rejects it", logged(' ("Output path is invalid.")'), so(ABORT)),
                            _refused_advice(check["pattern"], shown),
                            standing="some", builds=check["builds"])]
    return []


def _refused_advice(pattern: str, shown: str) -> str:
    """Name every character these builds refuse (read from the schema's pattern), not only those found."""
    names = {"\t": "tab", "\n": "newline", "\r": "carriage return", "\f": "form feed", "\v": "vertical tab",
             "\b": "backspace", "\x7f": "DEL"}
    refused = [c for c in map(chr, range(128)) if not re.fullmatch(pattern, c)]
    listed = [" ".join(c for c in refused if c.isprintable())] + [names.get(c, repr(c)) for c in refused
                                                                   if not c.isprintable()]
    return f"leave out {shown}: these builds refuse {', '.join(x for x in listed if x)} and accept every other character"


def _output_problem(member: Member, version: str) -> Optional[Problem]:
    """`output` as the collectors up to 8.0 check it (8.5+ checks neither emptiness nor length)."""
    value = member.value
    span = (member.value_start, member.value_end)
    if not isinstance(value, str):
        return None
    if value == "":
        return Problem("NPP108", member.key, span, '"output" is empty',
                       clause("profiling init fails", logged(' ("Result path is empty")')),
                       "give the directory for the PROF_* data", stops=True)
    return Problem("NPP108", member.key, span, clause(f'"output" is {len(value)} characters long',
                                                      aside("limit 1024, measured on the absolute path")),
                   clause("the collector rejects it", so(ABORT)),
                   "use a shorter path",
                   facts=(("case", "long"),))


def _output_refused(key: str, value, span, final, version: str) -> Problem:
    """Why the collector refuses `output`, in its order: a character this version's list holds (9.x; 8.5 checks
    none), else a part over NAME_MAX bytes (or the path over PATH_MAX), which no directory can be created with."""
    from ..knowledge import ge_options as G
    text = value if isinstance(value, str) else ""
    refused = G.facts(version)["output_invalid_chars"]
    listed = " ".join(c for c in refused if c.isprintable()) + " and control characters"
    bad = next((c for c in refused if c in text), None)
    if bad is not None:
        shown = repr(bad) if bad.isprintable() else f"the control character {printable(bad)}"
        return Problem("NPP108", key, span, f'"output": {_json(value)} holds {shown}, which the collector refuses in '
                       "the result path", _rejects(final), f"use a path without {listed}")
    name_max, path_max = G.data()["name_max"], G.data()["path_max"]
    longest = max(text.split("/"), key=lambda p: len(p.encode("utf-8", "surrogatepass")), default="")
    size = len(longest.encode("utf-8", "surrogatepass"))
    if size > name_max:
        what = (f'"output": {_json(value)} has a part of {size} bytes, over the {name_max} bytes a directory name '
                "may have, so the directory cannot be created")
        advice = f"shorten each part of the path to at most {name_max} bytes"
    else:
        what = (f'"output": {_json(value)} is {len(text.encode("utf-8", "surrogatepass"))} bytes, at least the '
                f"{path_max} bytes a path may have, so the directory cannot be created")
        advice = f"use a path under {path_max} bytes"
    return Problem("NPP108", key, span, what, _rejects(final), advice)


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    GOOD_OPTIONS, REF_COLLECTOR, REF_ENV_OPTIONS, REF_OAM, REF_OPTIONS_80, _ANY_CANN, Rule, _opts)

RULES = (
    # also reported by hygiene (an output made from a Python None)
    Rule(
        code="NPP108",
        name="invalid-output-path",
        summary="invalid `output`: missing or empty where the target requires it, longer than 1024 (up to 8.0), a "
                "part over 255 bytes, or characters the collector refuses (some 8.0 builds, 9.x)",
        default=True,
        level="error", fatal=True,
        what="No `output`, an empty one, or one longer than 1024 characters, on a version whose collector "
             "checks that; and, for CANN 8.0, characters that some of its collector builds refuse (control "
             "characters from the 2024-03 builds; also quotes, backslash, `%`, `$`, `&`, `;`, `|`, `<`, `>` "
             "and backtick from the 2024-11 builds); from CANN 8.5, a part of the path over 255 bytes (or the "
             "whole path of 4096 bytes or more), and on CANN 9.0 and 9.1 the characters their collector refuses "
             "(the same list as the 2024-11 8.0 builds); also an `output` made from a Python `None` formatted "
             "as text (`'...\"output\":\"%s\"...' % None`), which sends the data to a directory named `None`.",
        why="Up to CANN 8.0 the collector needs a result path: a missing or empty `output`, or one whose "
            "absolute form is longer than 1024 characters, makes it reject the configuration, so GE "
            "initialisation fails and the job aborts. The 7.0 collector checks no characters; 8.0 builds "
            "differ (none, then control characters, then the full list), so with `--npuprof-cann 8.0` such a "
            "character is reported as a failure of some builds. From 8.5 on an empty or missing `output` falls "
            "back to `$ASCEND_WORK_PATH`, and no length limit of its own applies, but a directory whose name "
            "(one part of the path) is over 255 bytes cannot be created: the collector rejects the path (\"Result "
            "path is empty or not accessible\"). The 8.5 collector checks no characters; 9.0 and 9.1 refuse "
            "quotes, backslash, `%`, `$`, `&`, `;`, `|`, `<`, `>`, backtick and control characters (\"The path ... "
            "contains invalid character\"). A shell variable such as `$HOME` is never expanded: the directory is "
            "created with that literal name.",
        example=_opts('{"output":"","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: only the user knows where the data should go.",
        options=_ANY_CANN + " The missing, empty and 1024-character checks are made only up to CANN 8.0 (8.5+ "
                "falls back to `ASCEND_WORK_PATH`), so they are reported with `portable` or an old version; "
                "characters only some 8.0 builds refuse are reported with `8.0` or `portable` and say so; the "
                "255-byte part and the 9.x characters with a version from 8.5 or `portable`.",
        references=(REF_ENV_OPTIONS, REF_OPTIONS_80, REF_COLLECTOR, REF_OAM),
        settings=(("cann", "8.0"),),
        group="options",
        facts=("schema.output", "collection.emulation.messages.NPP108", "collection.emulation.collector_call_failed",
               "collection.emulation.e10001", "collection.emulation.adapter_abort"),
    ),
)
