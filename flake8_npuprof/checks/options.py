"""NPP1xx: checks of the profiling_options JSON itself, for any route.

Every check is evaluated per supported CANN version (schema errors from that version's
compiled validator, mapped to codes by keyword and instance path) and per product (the
capability table); the target then decides what is reported (see targets.py). A value with
a hole is never judged by its own content.
"""

from __future__ import annotations

import functools
import re
from typing import Dict, List, NamedTuple, Optional, Set, Tuple

from ..knowledge import datafiles as K
from ..knowledge.collection import active, collects_anything
from ..source.jsonscan import Doc, Member, Unknown, parse
from ..source.model import Issue, TextFix, printable
from ..source.numeric import decimal, hexadecimal, whole
from ..source.suggest import KEY_ALIASES, close_matches, did_you_mean
from ..knowledge.targets import Target

MAX_BYTES = 2047          # GE copies the options into a 2048-byte buffer
PARSE_LIMIT = 1 << 16     # beyond this we only report the length

from ..source.said import ABORT, LATENT_ABORT  # noqa: F401  (the outcome the rules name; said.py words it)
# Effects that happen only after the options pass GE initialisation (model.Issue.effect).
LATER = frozenset({"silent", "logged", "ignored", "guidance"})
FREQ_KEYS = ("sys_hardware_mem_freq", "sys_io_sampling_freq", "sys_interconnection_freq", "dvpp_freq",
             "host_sys_usage_freq", "instr_profiling_freq", "sys_lp_freq")


def snake(key: str) -> str:
    """The snake_case key a protobuf-era lowerCamelCase alias stands for."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), key)


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
    what: str                   # the problem, independent of the version
    consequence: str            # what this version's runtime does
    advice: str                 # how to fix it
    fix: Optional[TextFix] = None
    # "fails": every build of the version does this; "some": only the builds named in `builds`;
    # "unknown": no source shows what this version does (never reported on its own)
    standing: str = "fails"
    builds: str = ""
    # what the runtime does: "abort" (GE initialisation fails), "env" (it does unless an environment
    # variable is set), "ignored", "changed", "dropped", "guidance"; "" derived from the consequence
    effect: str = ""


class OptionsReport(NamedTuple):
    empty: bool                 # blank string: the runtime treats it as "not set"
    unknown: bool               # the structure depends on an unknown piece
    doc: Optional[Doc]
    issues: List[Issue]


def check_options(text: str, target: Target, mode_on: Optional[bool] = True) -> OptionsReport:
    """All NPP1xx issues of one options string (holes allowed) for a target.

    Reports of strings the runtime could hold are kept per process: scripts of a project repeat
    their options strings, and checking one means 35 (version, product) pairs. Each caller gets
    its own list of the (immutable) issues."""
    if len(text) > 2 * MAX_BYTES:
        return _check_options(text, target, mode_on)
    report = _cached(text, target, mode_on)
    return report._replace(issues=list(report.issues))


@functools.lru_cache(maxsize=512)
def _cached(text: str, target: Target, mode_on: Optional[bool]) -> OptionsReport:
    report = _check_options(text, target, mode_on)
    return report._replace(issues=tuple(report.issues))


def _check_options(text: str, target: Target, mode_on: Optional[bool]) -> OptionsReport:
    issues: List[Issue] = []
    known = text.replace("\ue000", "")
    size = len(known.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        more = " at least" if len(known) != len(text) else ""
        issues.append(Issue("NPP112", 0, len(text),
                            f"profiling_options is{more} {size} bytes, over the runtime's 2047-byte buffer: "
                            f"it is cut and then fails to parse, so {ABORT}; shorten it (drop unused keys "
                            "or long fp_point/bp_point names)", effect="abort"))
        if len(text) > PARSE_LIMIT:
            return OptionsReport(False, False, None, issues)
    if not text:
        return OptionsReport(True, False, None, issues)
    doc = parse(text)
    if doc.unknown:
        return OptionsReport(False, True, doc, issues)
    if not text.strip():
        # only "" means "not set" to GE; from 8.5 on, GE fails to parse blank options (no source
        # shows what the collectors up to 8.0 did with them)
        issues.extend(_judge(_blank_problems(doc, text), target))
        return OptionsReport(not issues, False, None, issues)
    if doc.error or doc.root_type != "object":
        issues.append(_syntax_issue(text, doc))
        return OptionsReport(False, False, doc, issues)
    issues.extend(_duplicates(doc))
    problems: Dict[Tuple[str, str], Dict[Tuple[str, str], Problem]] = {}
    for version in K.VERSIONS:
        if version not in K.LEGACY_VERSIONS:
            for product in K.PRODUCTS:
                for problem in _runtime_problems(doc, text, version, _runtime_product(product)):
                    problems.setdefault((problem.code, problem.anchor), {})[(version, product)] = problem
            continue
        for problem in _schema_problems(doc, version):
            for product in K.PRODUCTS:
                problems.setdefault((problem.code, problem.anchor), {})[(version, product)] = problem
        schema_ok = _schema_ok_keys(doc, version)
        for product in K.PRODUCTS:
            for problem in _product_problems(doc, version, product, schema_ok):
                problems.setdefault((problem.code, problem.anchor), {})[(version, product)] = problem
    issues.extend(_judge(problems, target))
    issues.extend(_trace_points(doc, target))
    if mode_on and not any(x.code in FATAL and not x.partial for x in issues):
        issue = _nothing_collected(doc, target)
        if issue:
            issues.append(issue)
    if any(x.effect == "abort" and not x.partial for x in issues):
        # GE initialisation fails on every target version: what the runtime would do later with
        # these options (ignore a key, search for points) never happens, so it is not claimed;
        # those findings come once the failure is fixed. A duplicate key (NPP111) is decided by
        # the parse itself, before any check
        issues = [x for x in issues if x.effect not in LATER or x.code == "NPP111"]
    issues.sort(key=lambda x: (x.i, x.code))
    return OptionsReport(False, False, doc, issues)


def _blank_problems(doc: Doc, text: str):
    problems: Dict[Tuple[str, str], Dict[Tuple[str, str], Problem]] = {}
    for version in K.VERSIONS:
        if version in K.LEGACY_VERSIONS:
            continue
        for product in K.PRODUCTS:
            for problem in _runtime_problems(doc, text, version, _runtime_product(product)):
                problems.setdefault((problem.code, problem.anchor), {})[(version, product)] = problem
    return problems


def _runtime_product(product: str) -> str:
    """The product whose platform class the collector uses for this one: the Atlas A3 (910C) reports
    the Atlas A2's platform type (an inference: no public source gives it a platform class of its own)."""
    return "910B" if product == "910C" else product


def for_state(words, state):
    """The words (a Said) under the condition of their setup's state (setups/state.py)."""
    from ..setups.state import for_state as given
    return given(words, state)


# ---------------------------------------------------------------- judging per target

def _bad_versions(cells: Dict[Tuple[str, str], Problem], target: Target,
                  standings=("fails",)) -> Set[str]:
    """Versions on which the problem happens on every target product (or the one named)."""
    bad = set()
    for version in K.VERSIONS:
        prods = [p for p in target.products if (version, p) in cells and
                 getattr(cells[(version, p)], "standing", "fails") in standings]
        if target.soc == "any":
            if len(prods) == len(K.PRODUCTS):
                bad.add(version)
        elif prods:
            bad.add(version)
    return bad


def _category(code: str) -> str:
    """Problems are judged per JSON key: a member rejected on every version for different
    reasons (a range error here, a type error there, an unknown key on 8.5) is rejected
    everywhere. Key combinations (NPP115) are judged on their own."""
    return "combination" if code == "NPP115" else "member"


_RANK = {"fails": 0, "some": 1, "unknown": 2}


def _representative(problems: List[Problem]) -> Problem:
    """The problem that speaks for a version across products: the surest standing, then the code most
    products report (an unsupported switch on one chip must not name a value error of the others)."""
    best = min(_RANK[p.standing] for p in problems)
    sure = [p for p in problems if _RANK[p.standing] == best]
    codes = [p.code for p in sure]
    return next(p for p in sure if codes.count(p.code) == max(codes.count(c) for c in codes))


def _effect(problem: Problem) -> str:
    if problem.effect:
        return problem.effect
    text = problem.consequence
    if ABORT in text:
        return "abort"
    if "silently" in text or "without a message" in text:
        return "silent"
    if "warn" in text or "logs" in text:
        return "logged"
    return ""


def _judge(problems, target: Target) -> List[Issue]:
    merged: Dict[Tuple[str, str], Dict[Tuple[str, str], Problem]] = {}
    for (code, anchor), cells in problems.items():
        bucket = merged.setdefault((_category(code), anchor), {})
        for cell, problem in cells.items():
            # what every build does outranks what some builds do, which outranks the unknown
            if cell not in bucket or _RANK[problem.standing] < _RANK[bucket[cell].standing]:
                bucket[cell] = problem
    # where the whole string fails (GE cannot parse it, say), every key of it fails there as well:
    # a key refused by the other versions is then refused everywhere
    whole = merged.get(("member", ""), {})
    filled: Set[int] = set()
    for (category, anchor), bucket in merged.items():
        if category == "member" and anchor:
            for cell, problem in whole.items():
                if cell not in bucket and problem.standing == "fails" and _effect(problem) == "abort":
                    bucket[cell] = problem
                    filled.add(id(problem))
    out = []
    for (_, anchor), cells in merged.items():
        bad = _bad_versions(cells, target)
        partial = False
        if not target.fails_on(bad):
            # a named version (or portable) also hears of what only some of a version's builds do;
            # the default target reports only what fails everywhere
            some = _bad_versions(cells, target, ("fails", "some"))
            if target.cann == "any" or not target.fails_on(some):
                continue
            bad, partial = some, True
        relevant = [v for v in target.versions if v in bad]
        chosen = {v: _representative([cells[(v, p)] for p in target.products if (v, p) in cells])
                  for v in relevant}
        own = [c for c in chosen.values() if id(c) not in filled or anchor == ""] or list(chosen.values())
        codes = [c.code for c in own]
        code = max(sorted(set(codes)), key=lambda c: (codes.count(c), c != "NPP110"))
        first = next(c for c in own if c.code == code)
        # group the versions by what their runtime does
        by_consequence: Dict[str, List[str]] = {}
        for v, problem in chosen.items():
            text = problem.consequence if problem.code == code else f"{problem.what}, and {problem.consequence}"
            if problem.standing == "some":
                text = f"\x00{problem.builds}\x00{text}"
            by_consequence.setdefault(text, []).append(v)
        parts = []
        for text, vs in by_consequence.items():
            if text.startswith("\x00"):
                _, builds, text = text.split("\x00", 2)
                parts.append(f"on some builds of {versions_phrase(vs)} ({builds}) {text}")
            elif len(by_consequence) == 1 and target.cann == "any" and len(vs) == len(K.VERSIONS):
                parts.append(text)
            else:
                parts.append(f"on {versions_phrase(vs)} {text}")
        # what no source shows, for the versions the target names
        unknown = {}
        for v in target.versions:
            if v in relevant:
                continue
            cell = next((cells[(v, p)] for p in target.products if (v, p) in cells), None)
            if cell is not None and cell.standing == "unknown":
                unknown.setdefault(cell.consequence, []).append(v)
        parts += [f"on {versions_phrase(vs)} {text}" for text, vs in unknown.items()]
        message = f"{first.what}: {'; '.join(parts)}"
        if first.advice:
            message += f"; {first.advice}"
        effects = {_effect(p) for p in chosen.values()}
        effect = "abort" if effects == {"abort"} else "env" if effects <= {"abort", "env"} else \
            next(iter(effects)) if len(effects) == 1 else ""
        out.append(Issue(code, first.span[0], first.span[1], message, first.fix, anchor, partial, effect))
    return out


# ---------------------------------------------------------------- syntax and duplicates

_HINTS = {
    # the example is itself clean (with training_trace, the points NPP104 asks for)
    "legacy": ("this is the pre-2021 colon list; write a JSON object such as "
               '{"output":"./prof","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'),
    "single_quotes": "JSON needs double quotes around keys and strings",
    "trailing_comma": "remove the trailing comma",
    "python_literal": 'use JSON true/false/null (switches take "on"/"off")',
    "not_json": "write a JSON object of options",
}


BOM_REJECTED = "Failed to parse geoption configs. Error reason: Input json string error"


def _syntax_issue(text: str, doc: Doc) -> Issue:
    if doc.error and text.startswith("\ufeff") and not parse(text[1:]).error:
        # GE's nlohmann skips a byte-order mark; the collector's own reader does not (the oracle record)
        return Issue("NPP100", 0, 1,
                     "profiling_options starts with a byte-order mark (U+FEFF), which GE's JSON parser skips but the "
                     "collector's own reader does not: on CANN 8.5 and later the collector rejects the options "
                     f'("{BOM_REJECTED}"), so {ABORT}; remove the mark',
                     TextFix(((0, 1, ""),), True, "remove the byte-order mark"), effect="abort")
    if doc.error:
        err = doc.error
        advice = _HINTS.get(err.hint, "fix the JSON syntax")
        i = min(err.index, max(len(text) - 1, 0))
        fix = _legacy_fix(text) if err.hint == "legacy" else _python_dict_fix(text)
        return Issue("NPP100", i, i + 1,
                     # 1-based, like the columns beside it
                     f"profiling_options is not valid JSON ({err.message} at character {err.index + 1} of the "
                     f"options): "
                     f"GE cannot parse it, so {ABORT}; {advice}", fix, effect="abort")
    return Issue("NPP100", doc.start, doc.end,
                 f"profiling_options is a JSON {doc.root_type}, not an object: GE rejects it, so {ABORT}; "
                 'write the options as {"key": "value", ...}', effect="abort")


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
            f'duplicate key "{member.key}": the runtime keeps only the last value ({_json(winner.value)}), '
            f"this one ({_json(member.value)}) is silently dropped; remove one of them",
            TextFix((_member_removal(doc, member),), True, f'drop the earlier "{member.key}"'), member.key,
            effect="silent"))
    return out


def _member_removal(doc: Doc, member: Member) -> Tuple[int, int, str]:
    """Text range that removes one member together with one adjacent comma."""
    members = doc.members
    k = members.index(member)
    if k + 1 < len(members):
        return (member.key_start, members[k + 1].key_start, "")
    if k > 0:
        return (members[k - 1].value_end, member.value_end, "")
    return (member.key_start, member.value_end, "")


# ---------------------------------------------------------------- schema errors → codes

def _members(doc: Doc) -> Dict[str, Member]:
    out = {}
    for m in doc.members:
        out[m.key] = m          # the last one is what the runtime reads
    return out


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


def _schema_problems(doc: Doc, version: str) -> List[Problem]:
    members = _members(doc)
    unknown = doc.unknown_keys()
    # unknown values stand in as "" so keys are still checked and nothing else is judged
    obj = {k: ("" if m.unknown else m.value) for k, m in members.items()}
    props = K.keys_of(version)
    legacy = version in K.LEGACY_VERSIONS
    per_key: Dict[str, list] = {}
    out: List[Problem] = []
    conflicts: List[str] = []
    for err in K.validator(version).iter_errors(obj):
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
                                           'profiling init fails ("Result path is empty")',
                                           'add "output": "<directory for PROF_* data>"'))
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
                           'profiling fails to start ("instrProfilingFreq is set, Params ... not allowed")',
                           "instruction sampling runs alone: drop one side or target CANN 8.5+"))
    if legacy:
        out.extend(_custom_event_problems(members, version))
    out.extend(_some_builds_output(members, version))
    return out


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
                            f'"output" contains characters some collectors refuse ({shown})',
                            f'the collector rejects it ("Output path is invalid."), so {ABORT}',
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
        from ..knowledge.collection import data as collection_data
        documented = collection_data().get("documented_rejected_keys", {}).get(key)
        if documented:
            return Problem("NPP101", key, span, f'"{key}" is {documented["known"]}',
                           f"the collector rejects the options, so {ABORT}", "remove it")
        return Problem("NPP101", key, span, f'unknown profiling_options key "{key}"',
                       f"the collector rejects the options, so {ABORT}", hint or "remove it", fix)
    advice = ""
    if key != snake(key):
        advice = f'write "{snake(key)}" (only the protobuf-era collector of {versions_phrase(accepted)} reads this spelling)'
    elif key == "task_time":
        advice = 'use "task_trace" for this version'
    elif key in ("aiv_metrics", "power"):
        advice = "remove it" + ("; AI Vector Core metrics follow aic_metrics on chips that have them"
                                if key == "aiv_metrics" else "")
    else:
        advice = f"remove it or target {versions_phrase(accepted)}"
    return Problem("NPP113", key, span, f'"{key}" is not a profiling_options key of this CANN version',
                   f"the collector rejects the options, so {ABORT}", advice)


def _value_problem(doc: Doc, member: Member, keyword: str, version: str) -> Optional[Problem]:
    key, value = member.key, member.value
    span = (member.value_start, member.value_end)
    code = _code_for(key, keyword, version)
    legacy = version in K.LEGACY_VERSIONS
    shown = _json(value)
    if code == "NPP103":
        if isinstance(value, str) and value.lower() == "on":
            advice, fix = 'write "on"', TextFix(((span[0] + 1, span[1] - 1, "on"),), True, 'write "on"')
        else:
            advice = 'remove the key to leave the trace off ("" also means off)'
            fix = TextFix((_member_removal(doc, member),), True, 'drop "training_trace"') \
                if value == "off" else None
        return Problem(code, key, span, f'"training_trace": {shown} is not "on" or ""',
                       f'GE rejects it ("Training trace param:{value} is invalid."), so {ABORT}', advice, fix)
    if code == "NPP110":
        want = _expected_type(version, key)
        consequence = f"the collector cannot read it, so {ABORT}"
        if not legacy and want == "string":
            consequence = "the collector reads it as empty, so the setting is silently ignored"
        elif not legacy and want == "integer" and isinstance(value, str):
            consequence = f"the collector reads it as 0, fails the range check, so {ABORT}"
        advice, fix = _retype(key, value, want, span)
        return Problem(code, key, span, f'"{key}": {shown} is a JSON {_jtype(value)}, the runtime expects {"an" if want[0] in "aeiou" else "a"} {want}',
                       consequence, advice, fix)
    if code == "NPP106":
        names = [n for n in K.enum_values(version, key) if n]
        if isinstance(value, str) and value.startswith("Custom:"):
            return Problem(code, key, span, f'"{key}": {shown} is not a valid "Custom:" event list',
                           f"the collector rejects it, so {ABORT}",
                           "list up to 8 distinct events, each 0x1-0x6E (hex) or decimal, comma-separated"
                           if legacy else "list distinct hex (0x..) or decimal events, comma-separated")
        hint = did_you_mean(str(value), names)
        matches = close_matches(str(value), names)
        fix = TextFix(((span[0] + 1, span[1] - 1, matches[0]),), True, f'write "{matches[0]}"') \
            if len(matches) == 1 and isinstance(value, str) and matches[0].lower() == value.lower() else \
            (TextFix(((span[0] + 1, span[1] - 1, matches[0]),), False, f'write "{matches[0]}"')
             if len(matches) == 1 and isinstance(value, str) else None)
        return Problem(code, key, span, f'"{key}": {shown} is not an AI Core metric set of any Ascend product',
                       f'the collector rejects it ("aic-metrics[{value}] is invalid"), so {ABORT}',
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
        consequence = f"the collector rejects it, so {ABORT}"
        zero = (isinstance(value, (int, float)) and not isinstance(value, bool) and value == 0) or \
            (isinstance(value, str) and decimal(value) in (None, 0))
        if legacy and zero:
            # up to 2025 a frequency of 0 (or text that reads as 0) means "not set"
            consequence = "the collector reads it as 0 (not set), so nothing is collected for it"
        return Problem(code, key, span, f'"{key}": {shown} is not an integer in {lo}-{hi} (Hz)',
                       consequence, f"use a value from {lo} to {hi}")
    # NPP102: enumerations and lists
    allowed = [v for v in K.enum_values(version, key)]
    if K.property_schema(version, key).get("anyOf") and not allowed:
        items = _list_items(version, key)
        return Problem(code, key, span, f'"{key}": {shown} is not a comma-separated list of {"/".join(items)}',
                       f"the collector rejects it, so {ABORT}", f"use items from {', '.join(items)}")
    if allowed == [""]:
        if code == "NPP113":      # 9.x: whitelisted, but missing from the feature table its checker uses
            return Problem(code, key, span, f'"task_time": {shown} is refused by this collector (only "" passes)',
                           f'the collector rejects it ("Argument [task_time] is not supported."), so {ABORT}',
                           'remove it; this collector turns the task trace on by itself',
                           TextFix((_member_removal(doc, member),), False, f'drop "{key}"'))
        return Problem(code, key, span, f'"{key}": {shown} is rejected by its checker (only "" passes)',
                       f"the collector rejects it, so {ABORT}", "remove it",
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
                   f"the collector rejects it, so {ABORT}", advice, fix)


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


def _storage_problem(member: Member, version: str) -> Problem:
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
    if whole(mb) is not None and 200 <= mb <= 4294967295:
        new = f"{whole(mb)}MB"
        fix = TextFix(((span[0] + 1, span[1] - 1, new),), True, f'write "{new}"')
        advice = f'write "{new}"'
    elif mb is not None and mb < 200:
        fix = TextFix(((span[0] + 1, span[1] - 1, "200MB"),), False, 'raise it to "200MB"')
        advice = 'the minimum is "200MB"'
    if legacy:
        consequence = f"the collector rejects it, so {ABORT}"
    elif isinstance(value, str) and value.endswith("MB") and value[:-2].isdigit() and \
            (decimal(value[:-2]) or 200) < 200:
        consequence = "the collector warns and raises it to 200MB"
    else:
        # 8.5+ keeps the text: the ageing code drops its last two characters and reads the rest as MB
        text = value if isinstance(value, str) else ""
        digits = re.match(r"\s*\+?([0-9]+)", text[:-2]) if len(text) > 2 else None
        if len(text) <= 2:
            read = "applies no limit"
        elif digits and decimal(digits.group(1)) is not None:
            read = f"applies the leading digits of the rest, {decimal(digits.group(1))} MB, as the limit"
        else:
            read = "fails to read the rest as a number (std::stoull throws)"
        consequence = (f'the collector only warns ("storage_limit para is invalid") and keeps the text; its '
                       f"data ageing drops the last two characters and {read}")
    return Problem("NPP107", member.key, span,
                   f'"storage_limit": {_json(value)} is not "<N>MB" with 200 <= N <= 4294967295',
                   consequence, advice, fix)


def _output_problem(member: Member, version: str) -> Optional[Problem]:
    """`output` as the collectors up to 8.0 check it (8.5+ checks neither emptiness nor length)."""
    value = member.value
    span = (member.value_start, member.value_end)
    if not isinstance(value, str):
        return None
    if value == "":
        return Problem("NPP108", member.key, span, '"output" is empty',
                       'profiling init fails ("Result path is empty")',
                       "give the directory for the PROF_* data")
    return Problem("NPP108", member.key, span, f'"output" is {len(value)} characters long (limit 1024, '
                   "measured on the absolute path)", f"the collector rejects it, so {ABORT}", "use a shorter path")


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
                               f"the collector rejects duplicate events, so {ABORT}",
                               "list each event once"))
    return out


# ---------------------------------------------------------------- CANN 8.5+: the runtime's steps

def _quoted(step) -> str:
    return f' ("{step.line}")' if step.line else ""


def _rejects(step, who: str = "") -> str:
    who = who or ("GE" if step.stage == "ge" else "the collector")
    return f"{who} rejects it{_quoted(step)}, so {ABORT}"


_NANO_ADVICE = {
    "json_quote": 'it ends a string at the first \\": write the value without escaped quotes',
    "json_integer": "it reads integers with std::stoi, which fails beyond 2147483647: use a smaller number",
    "json_syntax": "write plain keys and values (its reader keeps \\u escapes as written)",
}


def _runtime_problems(doc: Doc, text: str, version: str, product: str) -> List[Problem]:
    """Problems on one chip from what GE and the collector of this version do, step by step
    (knowledge/ge_options.py, held to the oracle record by tests/test_oracle.py)."""
    from ..knowledge import ge_options as G
    members = _members(doc)
    unknown = {k for k, m in members.items() if m.unknown}
    holes = bool(unknown) or "\ue000" in text
    by_key: Dict[str, list] = {}
    for step in G.steps(text, version, product, cut=False):     # NPP112 reports the cut
        if step.action in (G.UNKNOWN, G.OFF) or step.kind == "deprecated":
            continue
        if step.key in unknown or (holes and step.key is None):
            continue                        # a value known only at run time is not judged
        by_key.setdefault(step.key, []).append(step)
    out = []
    for key, steps in by_key.items():
        member = members.get(key)
        written = None if member is not None or key is None else _written_as(doc, text, key)
        if written is not None:
            problem = _collector_key_problem(doc, text, written, key, steps, version, product)
        elif member is not None and isinstance(member.value, str) and \
                text[member.value_start + 1:member.value_end - 1] != member.value:
            problem = _escaped_value_problem(doc, text, member, key, steps, version, product)
        else:
            problem = _runtime_problem(doc, member, key, steps, version, product, members)
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
    from ..knowledge.ge_options import WHITESPACE
    found = None
    for m in doc.members:
        raw = _raw_key(text, m)
        if key in (raw, raw.lstrip(WHITESPACE)) and key != m.key:
            found = m                   # the last one is what the runtime reads
    return found


def _collector_key_problem(doc: Doc, text: str, member: Member, key: str, steps: list, version: str,
                           product: str) -> Optional[Problem]:
    """A key the collector reads otherwise than GE: with a JSON escape (it rejects the key as written, unknown),
    or with whitespace before it (it judges the value under the key without it)."""
    from ..knowledge import ge_options as G
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
    return base._replace(anchor=member.key, what=f'"{printable(member.key)}" has whitespace before the key, which the '
                                                 f'8.5+ collector skips: {base.what}')


def _runtime_problem(doc: Doc, member: Optional[Member], key: str, steps: list, version: str,
                     product: str, members: Optional[Dict[str, Member]] = None) -> Optional[Problem]:
    from ..knowledge import ge_options as G
    final = next((s for s in steps if s.action == G.REJECT), None) or steps[-1]
    typed = next((s for s in steps if s.kind == "type"), None)
    title = f"Ascend {product}"
    if member is None:
        span = (doc.start, doc.start + 1)
        if final.kind == "env_output":
            return Problem("NPP108", "output", span, 'profiling_options has no "output"',
                           "the collector then writes under $ASCEND_WORK_PATH/profiling_data, and rejects the "
                           f"options when that variable is not set{_quoted(final)}, so {ABORT}",
                           'add "output": "<directory for PROF_* data>"', effect="env")
        if final.kind.startswith("json_"):
            return Problem("NPP100", "", (doc.start, doc.end),
                           "profiling_options is valid JSON, but the collector's own reader cannot read it",
                           _rejects(final), _NANO_ADVICE[final.kind])
        if final.kind in ("json", "object"):
            return Problem("NPP100", "", (doc.start, doc.end), "profiling_options is not a JSON object as GE reads it",
                           _rejects(final), "fix the JSON syntax")
        return None
    value = member.value
    span = (member.value_start, member.value_end)
    if final.kind.startswith("json_"):
        return Problem("NPP100", key, span, f'"{key}": {_json(value)} is valid JSON, but the collector\'s own reader '
                       "cannot read it", _rejects(final), _NANO_ADVICE[final.kind])
    if final.kind == "unknown_key":
        base = _key_problem(member, version, _members(doc) if members is None else members)
        return base._replace(consequence=_rejects(final, "the collector") + "")
    if typed is not None and (final is typed or final.kind in ("type", "empty", "range", "value", "items", "instr")):
        # the type the collector's reader wanted, from its own complaint (the schema of a version may
        # allow both: 9.x takes a number or a string for some frequencies)
        want = "integer" if "int variable" in typed.line else "string"
        advice, fix = _retype(key, value, want, span)
        base = Problem("NPP110", key, span, f'"{key}": {_json(value)} is a JSON {_jtype(value)}, the collector '
                       f'reads {"an integer" if want == "integer" else "a string"} there', "", advice, fix)
        if final.action == G.REJECT and final is not typed:
            read = "0" if "int variable" in typed.line else "empty"
            consequence = (f'the collector logs "{typed.line}", reads it as {read} and then rejects it'
                           f"{_quoted(final)}, so {ABORT}")
        elif final.action == G.REJECT:
            consequence = _rejects(final)
        else:
            consequence = (f'the collector logs "{typed.line}" and reads it as '
                           f"{'0' if 'int' in typed.line else 'empty'}, so the setting has no effect")
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
        base = _value_problem(doc, member, "enum", version)
        return base._replace(consequence=_rejects(final))
    if final.kind in ("value", "items", "empty"):
        base = _value_problem(doc, member, "enum", version)
        if base is None:
            return None
        return base._replace(code="NPP102", consequence=_rejects(final))
    if final.kind == "metrics":
        base = _value_problem(doc, member, "enum", version)
        if base is None or base.code != "NPP106":
            base = Problem("NPP106", key, span, f'"{key}": {_json(value)} is not an AI Core metric set on {title}',
                           "", "use one of " + ", ".join(K.aic_metrics_for(product)))
        return base._replace(consequence=_rejects(final))
    if final.kind in ("range", "instr"):
        if final.action != G.REJECT:
            return None
        lo, hi = G.data()["instr_freq_range"] if key == "instr_profiling_freq" else G.data()["freq_ranges"][key]
        if key == "sys_hardware_mem_freq" and "10000" in final.line:
            hi = G.data()["hardware_mem_max_on_us_chips"]
        return Problem("NPP109", key, span, f'"{key}": {_json(value)} is not an integer in {lo}-{hi} (Hz)',
                       _rejects(final), f"use a value from {lo} to {hi}")
    if final.kind == "output":
        return _output_refused(key, value, span, final, version)
    if final.kind == "env_output":
        return Problem("NPP108", key, span, '"output" is empty',
                       "the collector then writes under $ASCEND_WORK_PATH/profiling_data, and rejects the options "
                       f"when that variable is not set{_quoted(final)}, so {ABORT}",
                       "give the directory for the PROF_* data", effect="env")
    if final.kind == "storage":
        base = _storage_problem(member, version)
        tail = base.consequence.replace("the collector only warns", "only warns", 1)
        return base._replace(consequence=f'the collector logs "{final.line}" and {tail}', effect="logged")
    return None


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


# ---------------------------------------------------------------- product capabilities

def _present(value) -> bool:
    """Whether the 8.5+ collector checks a key's support: any value except "" (strings)."""
    return not (isinstance(value, str) and value == "")


def _unsupported_problem(key: str, m: Member, behaviour: str, why: str, title: str, value_text: str = "") -> Problem:
    base = snake(key)
    what = (f'"{key}": "{value_text}" is not supported on {title} ({why})' if value_text else
            f'"{key}" is not supported on {title} ({why})')
    span = (m.value_start, m.value_end) if value_text else (m.key_start, m.value_end)
    if behaviour == K.UNKNOWN:
        return Problem("NPP114", key, span, what,
                       f"it is not known whether the collector accepts it ({_NOT_OPEN})",
                       "", standing="unknown")
    if behaviour == K.WARN:
        consequence = ('the collector drops it with only a plog warning ("Unrecognized option:'
                       f'{base} for PlatformType:…")')
    elif behaviour == K.SILENT:
        consequence = "the collector drops it without a message"
    elif value_text:
        consequence = f'the collector rejects it ("{value_text} is not supported on this platform."), so {ABORT}'
    else:
        consequence = f'the collector rejects it ("Argument [{base}] is not supported."), so {ABORT}'
    return Problem("NPP114", key, span, what, consequence,
                   "remove it for this product" if not value_text else "use a lower level for this product")


_NOT_OPEN = "the collector of this version for this chip is not open source"


def _product_problems(doc: Doc, version: str, product: str, schema_ok: Set[str]) -> List[Problem]:
    """Problems of keys this version's schema accepts, on one product."""
    members = _members(doc)
    data = K.product(product)
    title = f"Ascend {product}"
    legacy = version in K.LEGACY_VERSIONS
    unsupported = K.unsupported(product, version)
    out = []
    for key, m in members.items():
        base = snake(key)
        if m.unknown or key not in schema_ok:
            continue
        value = m.value
        if base in unsupported:
            behaviour, why = unsupported[base]
            # up to 8.0 only a switch that asks for something is dropped; 8.5+ checks the support of
            # any non-empty value, "off" included
            if (active(base, value) if legacy else _present(value)):
                out.append(_unsupported_problem(key, m, behaviour, why, title))
                continue
        refused = K.value_unsupported(product, version, base, value)
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
                                   f'the collector rejects it ("aic-metrics[{value}] is invalid"), so {ABORT}',
                                   hint or "use one of " + ", ".join(allowed)))
            builds = K.metric_builds(product, version, value) if value in allowed else None
            if builds:
                out.append(Problem("NPP106", key, (m.value_start, m.value_end),
                                   f'"{key}": "{value}" is not available on {title} with this collector',
                                   f'the collector rejects it ("aic-metrics[{value}] is invalid"), so {ABORT}',
                                   "use another metric set or a newer CANN",
                                   standing="fails" if builds == "every" else "some", builds=builds))
        if base == "llc_profiling" and isinstance(value, str) and value and legacy:
            allowed = data.get("llc_profiling", {}).get(version, ["read", "write", ""])
            if value not in allowed:
                shown = "/".join(f'"{a}"' for a in allowed if a)
                out.append(Problem("NPP102", key, (m.value_start, m.value_end),
                                   f'"llc_profiling": "{value}" is not one of {shown} on {title}',
                                   f"the collector rejects it, so {ABORT}", f"use one of {shown}"))
        if base in FREQ_KEYS and isinstance(value, int) and not isinstance(value, bool):
            cap = data["max_freq"].get(base, K.products().get("default_max_freq", {}).get(base))
            if cap is not None and value > cap:
                out.append(Problem("NPP109", key, (m.value_start, m.value_end),
                                   f'"{key}": {value} is above {cap} Hz, the limit on {title}',
                                   f"the collector rejects it, so {ABORT}", f"use a value from 1 to {cap}"))
    return out


def _schema_ok_keys(doc: Doc, version: str) -> Set[str]:
    members = _members(doc)
    bad = set()
    obj = {k: m.value for k, m in members.items() if not m.unknown}
    for err in K.validator(version).iter_errors(obj):
        path = list(err.absolute_path)
        if err.schema_path and err.schema_path[0] == "dependentSchemas":
            continue                # a conflict between keys (NPP115), not a bad value
        if path:
            bad.add(path[0])
        elif err.validator == "additionalProperties":
            bad.update(k for k in obj if k not in K.keys_of(version))
    return {k for k in members if k not in bad}


# ---------------------------------------------------------------- trace points, collection

def _trace_points(doc: Doc, target: Target) -> List[Issue]:
    members = _members(doc)
    tt = members.get("training_trace")
    tt_on = tt is not None and tt.value == "on"
    out = []
    if tt is not None and tt.unknown:
        return out
    # guidance only where some targeted chip and version collects the step trace
    if tt_on and not all("training_trace" in K.unsupported(p, v) for v in target.versions for p in target.products):
        missing = [k for k in ("fp_point", "bp_point") if k not in members]
        if missing:
            names = "/".join(f'"{k}"' for k in missing)
            add = ",".join(f'"{k}":""' for k in missing)
            out.append(Issue(
                "NPP104", tt.key_start, tt.value_end,
                f'"training_trace" is "on" without {names}: nothing fails, yet the TF Adapter guide asks for '
                "both; GE searches for the points itself (not with dynamic shape, where they must be named); "
                f'add {add} ("" asks for the search) or the op names from your graph',
                TextFix(((tt.value_end, tt.value_end, "," + add),), True, f"add {add}"), "training_trace",
                effect="guidance"))
    if not tt_on and not (tt is None and _any_unknown(doc)):
        for key in ("fp_point", "bp_point"):
            m = members.get(key)
            if m is not None and not m.unknown and isinstance(m.value, str) and m.value:
                state = "absent" if tt is None else f'"{tt.value}"' if isinstance(tt.value, str) else _json(tt.value)
                out.append(Issue(
                    "NPP105", m.key_start, m.value_end,
                    f'"{key}" is set but "training_trace" is {state}: GE reads the points only for the '
                    'training trace, so it ignores them; switch "training_trace" on or drop the point',
                    TextFix((_member_removal(doc, m),), False, f'drop "{key}"'), key, effect="silent"))
    return out


def _any_unknown(doc: Doc) -> bool:
    return any(m.unknown for m in doc.members)


def _nothing_collected(doc: Doc, target: Target) -> Optional[Issue]:
    """NPP116, for options with no reported error: on the target nothing would be collected."""
    if _any_unknown(doc):
        return None
    options = {snake(k): v for k, v in doc.as_dict().items()}
    cells = {(v, p): None for v in target.versions for p in target.products
             if not collects_anything(options, v, p)}
    bad = _bad_versions(cells, target)
    if not target.fails_on(bad):
        return None
    where = "" if target.cann == "any" else f" on {versions_phrase([v for v in target.versions if v in bad])}"
    return Issue("NPP116", doc.start, doc.start + 1,
                 f"profiling is on but these options switch on no collection{where}: no data would be written; "
                 'turn on at least "task_trace" or "training_trace"', effect="silent")


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    GOOD_OPTIONS, REF_AIC_PRODUCTS, REF_COLLECTOR, REF_E10001, REF_ENV_OPTIONS, REF_ENV_OPTIONS_80, REF_FP_BP,
    REF_FP_BP_DYNAMIC, REF_GE_AIC, REF_GE_FP_BP_SEARCH, REF_GE_INIT, REF_INIT_SYSTEM_80, REF_MODELZOO, REF_OAM,
    REF_OPTIONS_80, REF_PROFILING_CONFIG_504, REF_PROFILING_CONFIG_601, REF_SESSION, _ANY_CANN, _ANY_SOC, _HEAD,
    _TAIL, Rule, _opts)


def _opts_chunks(chunks: Tuple[str, ...]) -> str:
    """Like _opts, with the options written as implicitly concatenated literals (long strings)."""
    body = "\n".join(f"    '{c}'" for c in chunks)
    return _HEAD + f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n{body})\n" + _TAIL


# A deeply nested scope, for op names long enough to overflow the 2048-byte options buffer.
_DEEP = "".join(f"stage{i}/unit{i}/" for i in range(70))
_LONG_OPTIONS_CHUNKS = (
    ('{"output":"/tmp/prof","training_trace":"on","task_trace":"on",',)
    + ('"fp_point":"',) + tuple(_DEEP[k:k + 80] for k in range(0, len(_DEEP), 80)) + ('conv1/Conv2D",',)
    + ('"bp_point":"gradients/',) + tuple(_DEEP[k:k + 80] for k in range(0, len(_DEEP), 80))
    + ('conv1/Conv2D_grad/Conv2DBackpropFilter"}',))


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
        code="NPP104",
        name="training-trace-without-points",
        summary="`training_trace` is `\"on\"` but `fp_point`/`bp_point` are missing (give them, `\"\"` means "
                "automatic)",
        default=True,
        level="note",
        what="Options that switch `training_trace` on but do not contain `fp_point` and `bp_point`.",
        why="Guidance, not a failure (reported as a SARIF note, an editor information): when a point is empty "
            "or absent, GE searches for it while it builds the graph. The forward point is the earliest consumer "
            "of the first Data, GetNext or IteratorV2 node in GE's node order; the backward point is the latest "
            "op on the same stream that feeds the last AllReduce (HcomAllReduce or Horovod's), or, with no "
            "AllReduce, the graph's output. The TF Adapter guide nevertheless asks for both keys with the "
            "training trace; `\"\"` says the search is wanted and leaves an obvious place for real op names.\n\n"
            "The search is not enough when:\n\n"
            "- the model has dynamic shapes: the PROFILING_OPTIONS reference says the points are not found "
            "automatically there and must be given by hand;\n"
            "- the first Data node in GE's order is not the model input (a placeholder fed for the learning "
            "rate, say): the forward point is then that node's consumer;\n"
            "- the op feeding the output (one device, no AllReduce) is not where the backward pass ends;\n"
            "- nothing matches: GE logs `First forward op name can't be found in graph for training trace.` "
            "(or `Last backward op name ...`) at graph build, and the iteration trace lacks that point.\n\n"
            "In those cases write the op names from the graph (`tf.io.write_graph`), as the FP/BP page shows.",
        example=_opts('{"output":"/tmp/prof","training_trace":"on","task_trace":"on"}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="sometimes",
        fix_note="Adds `\"fp_point\":\"\",\"bp_point\":\"\"` to an options string literal, which asks for "
                 "exactly what the runtime does without them: safe. No fix for options built in code (a "
                 "`json.dumps({...})` dict, concatenation, a flag): add the two keys there.",
        options="Not reported when no targeted chip and version collects the step trace (--npuprof-soc 310 with "
                "--npuprof-cann 7.0 or 8.0); that case is NPP114.",
        references=(REF_FP_BP, REF_GE_FP_BP_SEARCH, REF_FP_BP_DYNAMIC, REF_SESSION, REF_ENV_OPTIONS),
        group="options",
        facts=("option_keys.meaning.fp_point", "guidance.training_trace_points",
               "collection.emulation.trace_point_warnings"),
    ),
    Rule(
        code="NPP105",
        name="trace-points-without-training-trace",
        summary="`fp_point`/`bp_point` set while `training_trace` is not `\"on\"` — ignored",
        default=True,
        level="warning", tags=('unnecessary',),
        what="A non-empty `fp_point` or `bp_point` in options where `training_trace` is absent or empty.",
        why="GE reads the forward and backward points only to place the iteration-trace marks, which exist "
            "only with the training trace on. Otherwise the names are dropped without a message, and whoever "
            "set them will look in vain for step-trace data.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","fp_point":"resnet_model/conv2d/Conv2D",'
                      '"bp_point":"gradients/AddN_70"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on"}'),
        fix_safety="unsafe",
        fix_note="Drops the unused points. Unsafe: the user may rather have wanted `training_trace` on.",
        references=(REF_FP_BP, REF_GE_INIT),
        group="options",
        facts=("schema.fp_point", "option_keys.meaning.fp_point"),
    ),
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
    Rule(
        code="NPP112",
        name="options-too-long",
        summary="options string longer than 2047 bytes (the runtime cuts it, then fails to parse)",
        default=True,
        level="error", fatal=True,
        what="A profiling options string of more than 2047 bytes (UTF-8), usually because of long "
             "`fp_point`/`bp_point` op names.",
        why="The options are copied into a fixed 2048-byte buffer before parsing. A longer string is cut "
            "off, the rest is no longer valid JSON, GE initialisation fails and the job aborts.",
        example=_opts_chunks(_LONG_OPTIONS_CHUNKS),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: which keys or names to shorten is the user's decision (empty points select the "
                 "automatic search).",
        references=(REF_GE_INIT, REF_ENV_OPTIONS),
        group="options",
        facts=("ge.options_buffer", "collection.emulation.ge_checks", "collection.emulation.e10001",
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
    Rule(
        code="NPP116",
        name="options-collect-nothing",
        summary="profiling is on but the options switch nothing on for the target (no data would be collected)",
        default=True,
        level="warning",
        what="Profiling is switched on and the options are valid, but none of them turns on a collection "
             "on the target: only `output`, `storage_limit` or switches set to off, or only switches the "
             "product drops.",
        why="The runtime accepts such options and the job runs with profiling switched on, but no trace "
            "or counter data is collected, so there is nothing to analyse afterwards.",
        example=_opts('{"output":"/tmp/prof","storage_limit":"1000MB"}'),
        fixed=_opts('{"output":"/tmp/prof","storage_limit":"1000MB","task_trace":"on"}'),
        fix_safety="none",
        fix_note="No fix: which data to collect is the user's choice.",
        options=_ANY_CANN + " CANN 8.5+ turns `task_trace` on by default, so options without any switch are "
                "reported only for older versions. " + _ANY_SOC,
        references=(REF_ENV_OPTIONS, REF_OPTIONS_80),
        settings=(("cann", "8.0"),),
        group="options",
        facts=("collection.switch.",),
    ),
)

# Codes whose options never reach collection on the reported target (NPP116 stays quiet then): the pages
# marked fatal (Rule.fatal), all of them here, beside the judge that reports them (tests/test_catalog.py).
FATAL = frozenset(r.code for r in RULES if r.fatal)
