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
from ..source.model import Issue, TextFix
from ..source.numeric import decimal, hexadecimal, whole
from ..source.suggest import KEY_ALIASES, close_matches, did_you_mean
from ..knowledge.targets import Target

MAX_BYTES = 2047          # GE copies the options into a 2048-byte buffer
PARSE_LIMIT = 1 << 16     # beyond this we only report the length

ABORT = "GE initialisation fails and the job aborts"
LATENT_ABORT = "GE initialisation will fail and the job will abort"
# Codes whose options never reach collection on the reported target (NPP116 stays quiet then).
FATAL = frozenset({"NPP100", "NPP101", "NPP102", "NPP103", "NPP106", "NPP108", "NPP109",
                   "NPP112", "NPP113", "NPP115"})
FREQ_KEYS = ("sys_hardware_mem_freq", "sys_io_sampling_freq", "sys_interconnection_freq", "dvpp_freq",
             "host_sys_usage_freq", "instr_profiling_freq", "sys_lp_freq")


def snake(key: str) -> str:
    """The snake_case key a protobuf-era lowerCamelCase alias stands for."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), key)


@functools.lru_cache(maxsize=None)
def _snake_keys() -> list:
    """The known keys in their snake_case spelling (the did-you-mean candidates), computed once."""
    return sorted(k for k in K.all_keys() if k == snake(k))


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
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


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


class OptionsReport(NamedTuple):
    empty: bool                 # blank string: the runtime treats it as "not set"
    unknown: bool               # the structure depends on an unknown piece
    doc: Optional[Doc]
    issues: List[Issue]


def check_options(text: str, target: Target, mode_on: Optional[bool] = True) -> OptionsReport:
    """All NPP1xx issues of one options string (holes allowed) for a target."""
    issues: List[Issue] = []
    known = text.replace("\ue000", "")
    size = len(known.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        more = " at least" if len(known) != len(text) else ""
        issues.append(Issue("NPP112", 0, len(text),
                            f"profiling_options is{more} {size} bytes, over the runtime's 2047-byte buffer: "
                            f"it is cut and then fails to parse, so {ABORT}; shorten it (drop unused keys "
                            "or long fp_point/bp_point names)"))
        if len(text) > PARSE_LIMIT:
            return OptionsReport(False, False, None, issues)
    if not text.strip():
        return OptionsReport(True, False, None, issues)
    doc = parse(text)
    if doc.unknown:
        return OptionsReport(False, True, doc, issues)
    if doc.error or doc.root_type != "object":
        issues.append(_syntax_issue(text, doc))
        return OptionsReport(False, False, doc, issues)
    issues.extend(_duplicates(doc))
    problems: Dict[Tuple[str, str], Dict[Tuple[str, str], Problem]] = {}
    for version in K.VERSIONS:
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
    issues.sort(key=lambda x: (x.i, x.code))
    return OptionsReport(False, False, doc, issues)


def for_state(message: str, state) -> str:
    """The message with a consequence true for the state of its setup (state.py): for a setup GE
    does not read (switched off, never passed, ...) it says what happens once the setup takes effect."""
    from ..setups.state import condition_prefix, latent_prefix
    prefix = latent_prefix(state)
    if not prefix:
        return condition_prefix(state) + message
    return prefix + message.replace(ABORT, LATENT_ABORT)


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


def _judge(problems, target: Target) -> List[Issue]:
    merged: Dict[Tuple[str, str], Dict[Tuple[str, str], Problem]] = {}
    for (code, anchor), cells in problems.items():
        bucket = merged.setdefault((_category(code), anchor), {})
        for cell, problem in cells.items():
            # what every build does outranks what some builds do, which outranks the unknown
            if cell not in bucket or _RANK[problem.standing] < _RANK[bucket[cell].standing]:
                bucket[cell] = problem
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
        chosen = {v: min((cells[(v, p)] for p in target.products if (v, p) in cells),
                         key=lambda c: _RANK[c.standing]) for v in relevant}
        codes = [c.code for c in chosen.values()]
        code = max(sorted(set(codes)), key=lambda c: (codes.count(c), c != "NPP110"))
        first = next(c for c in chosen.values() if c.code == code)
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
        out.append(Issue(code, first.span[0], first.span[1], message, first.fix, anchor, partial))
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


def _syntax_issue(text: str, doc: Doc) -> Issue:
    if doc.error:
        err = doc.error
        advice = _HINTS.get(err.hint, "fix the JSON syntax")
        i = min(err.index, max(len(text) - 1, 0))
        fix = _legacy_fix(text) if err.hint == "legacy" else _python_dict_fix(text)
        return Issue("NPP100", i, i + 1,
                     # 1-based, like the columns beside it
                     f"profiling_options is not valid JSON ({err.message} at character {err.index + 1} of the "
                     f"options): "
                     f"GE cannot parse it, so {ABORT}; {advice}", fix)
    return Issue("NPP100", doc.start, doc.end,
                 f"profiling_options is a JSON {doc.root_type}, not an object: GE rejects it, so {ABORT}; "
                 'write the options as {"key": "value", ...}')


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
    except (ValueError, SyntaxError, MemoryError, RecursionError):
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
            TextFix((_member_removal(doc, member),), True, f'drop the earlier "{member.key}"'), member.key))
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
    obj = {k: ("" if isinstance(m.value, Unknown) else m.value) for k, m in members.items()}
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
        snake_keys = _snake_keys()
        hint = did_you_mean(key, snake_keys, KEY_ALIASES)
        fix = None
        matches = close_matches(key, snake_keys, KEY_ALIASES)
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
    if tt_on and not all(K.product(p)["step_trace"] is False for p in target.products):
        missing = [k for k in ("fp_point", "bp_point") if k not in members]
        if missing:
            names = "/".join(f'"{k}"' for k in missing)
            add = ",".join(f'"{k}":""' for k in missing)
            out.append(Issue(
                "NPP104", tt.key_start, tt.value_end,
                f'"training_trace" is "on" without {names}: GE then searches for the points itself, but the '
                f"Ascend guide requires them with training_trace; add {add} (\"\" asks for the automatic "
                "search) or the op names from your graph",
                TextFix(((tt.value_end, tt.value_end, "," + add),), True, f"add {add}"), "training_trace"))
    if not tt_on and not (tt is None and _any_unknown(doc)):
        for key in ("fp_point", "bp_point"):
            m = members.get(key)
            if m is not None and not m.unknown and isinstance(m.value, str) and m.value:
                state = "absent" if tt is None else f'"{tt.value}"' if isinstance(tt.value, str) else _json(tt.value)
                out.append(Issue(
                    "NPP105", m.key_start, m.value_end,
                    f'"{key}" is set but "training_trace" is {state}: GE reads the points only for the '
                    'training trace, so it ignores them; switch "training_trace" on or drop the point',
                    TextFix((_member_removal(doc, m),), False, f'drop "{key}"'), key))
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
                 'turn on at least "task_trace" or "training_trace"')
