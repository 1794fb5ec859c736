"""NPP1xx: checks of the profiling_options JSON itself, for any route.

Every check is evaluated per supported CANN version (schema errors from that version's
compiled validator, mapped to codes by keyword and instance path) and per product (the
capability table); the target then decides what is reported (see targets.py). A value with
a hole is never judged by its own content.

This module is the judge's entry point (`check_options`): the length (NPP112), the verdicts per
(version, product) merged into what the target is told, and whether anything is collected (NPP116).
The checks it runs live beside their pages: the JSON's shape (`options_json`), unknown keys and keys
of other versions (`options_keys`), values per key (`options_values`), `output` (`options_output`),
what each chip supports and its metric sets (`options_chips`), the training trace's points
(`options_trace`), the versions up to 8.0 as their schemas read the options (`options_schema`) and
8.5 and later as GE and the collector do, step by step (`options_steps`). What their verdicts are made
of is `options_problem`.
"""

from __future__ import annotations

import functools
from typing import Dict, List, Mapping, NamedTuple, Optional, Sequence, Set, Tuple

from ..knowledge import datafiles as K
from ..knowledge.collection import silent_pairs
from ..source.jsonscan import Doc, parse
from ..source.model import Issue
from ..source.said import Runtime, Said, Text, clause, outcome, said, so
from ..knowledge.targets import Target
from . import options_chips, options_json, options_keys, options_output, options_schema, options_trace, options_values
from .options_chips import _product_problems, known_members
from .options_json import _duplicates, _syntax_issue
from .options_problem import ABORT, Problem, _any_unknown, snake, versions_phrase
from .options_schema import _schema_judgement
from .options_steps import Read, _runtime_problems, read
from .options_trace import _trace_points

MAX_BYTES = 2047          # GE copies the options into a 2048-byte buffer
PARSE_LIMIT = 1 << 16     # beyond this we only report the length
# Effects that happen only after the options pass GE initialisation (model.Issue.effect).
_new_tuple = tuple.__new__     # (a namedtuple's _replace costs about 8,000 instructions: one per options string asked)
LATER = frozenset({"silent", "logged", "ignored", "guidance"})


class OptionsReport(NamedTuple):
    empty: bool                 # blank string: the runtime treats it as "not set"
    unknown: bool               # the structure depends on an unknown piece
    doc: Optional[Doc]
    issues: Sequence[Issue]     # a tuple once cached (_cached)


def check_options(text: str, target: Target, mode_on: Optional[bool] = True) -> OptionsReport:
    """All NPP1xx issues of one options string (holes allowed) for a target.

    Reports of strings the runtime could hold are kept per process: scripts of a project repeat
    their options strings, and checking one means 35 (version, product) pairs. Each caller gets
    its own list of the (immutable) issues."""
    if len(text) > 2 * MAX_BYTES:
        return _check_options(text, target, mode_on)
    report = _cached(text, target, mode_on)
    return _new_tuple(OptionsReport, report[:3] + (list(report.issues),))     # _replace(issues=...), without its frames


@functools.lru_cache(maxsize=512)
def _cached(text: str, target: Target, mode_on: Optional[bool]) -> OptionsReport:
    report = _check_options(text, target, mode_on)
    return _new_tuple(OptionsReport, report[:3] + (tuple(report.issues),))


def _check_options(text: str, target: Target, mode_on: Optional[bool]) -> OptionsReport:
    issues: List[Issue] = []
    known = text.replace("\ue000", "")
    size = len(known.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        more = " at least" if len(known) != len(text) else ""
        issues.append(Issue("NPP112", 0, len(text),
                            said(f"profiling_options is{more} {size} bytes, over the runtime's 2047-byte buffer",
                                 clause("it is cut and then fails to parse", so(ABORT)),
                                 "shorten it (drop unused keys or long fp_point/bp_point names)"), effect="abort"))
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
    once, plain = read(doc, text), known_members(doc)
    for version in K.VERSIONS:
        if version not in K.LEGACY_VERSIONS:
            _add_runtime(problems, doc, text, version, once)
            continue
        schema_problems, schema_ok = _schema_judgement(doc, version)
        for problem in schema_problems:
            for product in K.PRODUCTS:
                problems.setdefault((problem.code, problem.anchor), {})[(version, product)] = problem
        for product in K.PRODUCTS:
            for problem in _product_problems(doc, version, product, schema_ok, plain):
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
    once = read(doc, text)
    for version in K.VERSIONS:
        if version not in K.LEGACY_VERSIONS:
            _add_runtime(problems, doc, text, version, once)
    return problems


def _add_runtime(problems, doc: Doc, text: str, version: str, once: Read) -> None:
    """The 8.5+ problems of every product, each platform's judged once (two products may share one)."""
    per_platform: Dict[str, List[Problem]] = {}
    for product in K.PRODUCTS:
        runtime = _runtime_product(product)
        found = per_platform.get(runtime)
        if found is None:
            found = per_platform[runtime] = _runtime_problems(doc, text, version, runtime, once)
        for problem in found:
            problems.setdefault((problem.code, problem.anchor), {})[(version, product)] = problem


def _runtime_product(product: str) -> str:
    """The product whose platform class the collector uses for this one: the Atlas A3 (910C) reports
    the Atlas A2's platform type (an inference: no public source gives it a platform class of its own)."""
    return "910B" if product == "910C" else product


def for_state(words, state):
    """The words (a Said) under the condition of their setup's state (setups/state.py)."""
    from ..setups.state import for_state as given
    return given(words, state)


# ---------------------------------------------------------------- judging per target

def _bad_versions(cells: Mapping[Tuple[str, str], Optional[Problem]], target: Target,
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
    # a rejection ends its clause in so(ABORT); a drop or a reset says which it is where it is written (effect=)
    return "abort" if outcome(problem.consequence) == ABORT else ""


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
        # group the versions by what their runtime does (and, for some builds only, which builds)
        by_consequence: Dict[Tuple[str, Text], List[str]] = {}
        for v, problem in chosen.items():
            text = problem.consequence if problem.code == code else clause(problem.what, ", and ", problem.consequence)
            by_consequence.setdefault((problem.builds if problem.standing == "some" else "", text), []).append(v)
        consequence: Text = ""
        runtime: List[Runtime] = []
        for (builds, text), vs in by_consequence.items():
            if not builds and len(by_consequence) == 1 and target.cann == "any" and len(vs) == len(K.VERSIONS):
                consequence = text          # every version does the same: no version is named
            else:
                runtime.append(Runtime(versions_phrase(vs), text, builds))
        # what no source shows, for the versions the target names
        unknown: Dict[Text, List[str]] = {}
        for v in target.versions:
            if v in relevant:
                continue
            cell = next((cells[(v, p)] for p in target.products if (v, p) in cells), None)
            if cell is not None and cell.standing == "unknown":
                unknown.setdefault(cell.consequence, []).append(v)
        unknowns = [Runtime(versions_phrase(vs), text) for text, vs in unknown.items()]
        advice = (first.advice,) if isinstance(first.advice, str) else first.advice
        if consequence:         # what no source shows is a note after what every version does
            words = Said(first.what, consequence, advice=tuple(r.line for r in unknowns) + advice)
        else:
            words = Said(first.what, runtime=tuple(runtime + unknowns), advice=advice)
        words = words._replace(advice=tuple(a for a in words.advice if a))
        effects = {_effect(p) for p in chosen.values()}
        effect = "abort" if effects == {"abort"} else "env" if effects <= {"abort", "env"} else \
            next(iter(effects)) if len(effects) == 1 else ""
        stopping = any(p.stops or _effect(p) in ("abort", "env") for p in chosen.values())
        facts = tuple(dict.fromkeys(f for p in chosen.values() for f in p.facts))
        out.append(Issue(code, first.span[0], first.span[1], words, first.fix, anchor, partial, effect, stopping,
                         facts))
    return out


# ---------------------------------------------------------------- whether anything is collected

def _nothing_collected(doc: Doc, target: Target) -> Optional[Issue]:
    """NPP116, for options with no reported error: on the target nothing would be collected."""
    if _any_unknown(doc):
        return None
    options = {snake(k): v for k, v in doc.as_dict().items()}
    cells = dict.fromkeys(silent_pairs(options, tuple((v, p) for v in target.versions for p in target.products)))
    bad = _bad_versions(cells, target)
    if not target.fails_on(bad):
        return None
    where = "" if target.cann == "any" else f" on {versions_phrase([v for v in target.versions if v in bad])}"
    return Issue("NPP116", doc.start, doc.start + 1,
                 said(f"profiling is on but these options switch on no collection{where}", "no data would be written",
                      'turn on at least "task_trace" or "training_trace"'), effect="silent")


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    GOOD_OPTIONS, REF_ENV_OPTIONS, REF_GE_INIT, REF_OPTIONS_80, _ANY_CANN, _ANY_SOC, _HEAD, _TAIL, Rule, _opts)


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

# The checks' modules whose pages document the codes this judge reports (options_problem and options_steps
# have none: the codes the 8.5+ steps report are documented beside the older versions' checks).
PARTS = (options_json, options_keys, options_values, options_output, options_chips, options_trace, options_schema)

# Codes whose options never reach collection on the reported target (NPP116 stays quiet then): the pages
# marked fatal (Rule.fatal), all of them here or in PARTS, beside the checks that report them (tests/test_catalog.py).
FATAL = frozenset(r.code for r in RULES if r.fatal) | frozenset(r.code for m in PARTS for r in m.RULES if r.fatal)
