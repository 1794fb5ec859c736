"""msprof command lines: found in shell launchers and in Python `subprocess`/`os.system` calls,
split into argv the way the shell does, read the way the msprof binary reads its argv, and
checked against its options per CANN version and product (data/msprof_cli.json).

msprof takes `--name=value` words up to the first word that does not start with `--`; that
word and the rest are the application (`msprof [options] python3 train.py`), unless
`--application="python3 train.py"` names it. A word we cannot read (an expansion such as
`$PROF_ARGS`, which may be several words) ends what we know: nothing after it is judged.
"""

from __future__ import annotations

import ast
import difflib
import re
from functools import lru_cache
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple, Union

from ..knowledge import datafiles as K
from ..knowledge import msprof_parser as P
from ..source.model import Edit, Finding, Fix, finding, printable
from ..source.said import Said, Text, aside, clause, logged, plain, said, so
from ..source.text import HOLE, SourceText, literal_value
from ..knowledge.targets import Target
from ..knowledge.msprof_options import all_options, cli, options_of
from .msprof_app import check_app
from ..shell.msprof_words import (Call, Option, Word, _calls, _value_word, calls_in_shell,  # noqa: F401
                                  calls_in_string, find_msprof, parse, parse_command, shell_commands)

UNKNOWN_OPTION = "NPP120"
BAD_VALUE = "NPP121"
BAD_METRICS = "NPP122"
BAD_FREQ = "NPP123"
BAD_STORAGE = "NPP124"
BAD_OUTPUT = "NPP125"
REFUSED = "NPP126"
NO_VALUE = "NPP127"
MISPLACED = "NPP128"

# Names seen in real launchers that are not msprof options, and the option they most likely mean.
ALIASES = {
    "timeline": "task-time",
    "task-trace": "task-time",
    "training-trace": "task-time",
    "aicore": "ai-core",
    "aicore-metrics": "aic-metrics",
    "ai-core-metrics": "aic-metrics",
    "result-path": "output",
    "output-path": "output",
    "output-dir": "output",
    "acl": "ascendcl",
}

_DIGITS = re.compile(r"[0-9]+")


# ---------------------------------------------------------------- checking

class Problem(NamedTuple):
    code: str
    word: Word
    i: int
    j: int
    said: Union[str, Said]      # what it says (source/said.py)
    fix: Optional[Tuple[Tuple[int, int, str], bool, str]] = None    # (i, j, text) in word.text, safe, title
    # what msprof does: "exits" (it refuses the line, or dies, before the application starts),
    # "ignored" (it runs the application without what the option asks for), "mixed" (it exits on some
    # of the targeted versions and ignores the option on others), "app_exits" (msprof starts the application,
    # which exits before it runs anything: NPP128)
    effect: str = "exits"

    @property
    def words(self) -> Said:
        return plain(self.said)

    @property
    def message(self) -> str:
        return self.words.message


class _Hit(NamedTuple):
    """One problem on one (version, product): what msprof's step was, or the legacy tables' verdict."""
    at: int                     # index in call.words (-1: the msprof word itself)
    code: str
    kind: str
    step: Optional[P.Step]      # None for the 7.0/8.0 tables
    legacy: Optional[Problem] = None


def _versions_text(versions: Iterable[str]) -> str:
    vs = sorted(versions, key=K.VERSIONS.index)
    return "CANN " + ", ".join(vs)


def _fold(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def suggest(name: str, candidates: Sequence[str]) -> Tuple[List[str], bool]:
    """Close option names, best first, and whether the first differs only in case, `_` or `-`."""
    folded = [c for c in candidates if _fold(c) == _fold(name)]
    if folded:
        return folded[:1], True
    alias = ALIASES.get(name.lower().replace("_", "-"))
    if alias is not None and alias in candidates:
        return [alias], False
    return difflib.get_close_matches(name.lower().replace("_", "-"), list(candidates), n=3, cutoff=0.75), False


def check_call(call: Call, target: Target) -> List[Problem]:
    """The problems msprof has with the call on the target: for CANN 8.5+ what its parser does, step by
    step (knowledge/msprof_parser.py); for 7.0/8.0 the option tables of data/msprof_cli.json. A problem
    is reported where it happens on every targeted version and product (Target.fails_on)."""
    out = []
    for at, problem in _judged(tuple(w.text for w in call.words), target):
        word = call.words[at] if 0 <= at < len(call.words) else call.msprof
        fix = problem.fix
        if fix is _JOIN:        # joining two words edits the file between them: computed on the real words
            opt = next((o for o in call.options if o.word is word), None)
            fix = _join_fix(opt) if opt is not None and opt.detached is not None else None
        out.append(problem._replace(word=word, fix=fix))
    for m in check_app(call, target):       # the application's words: msprof never reads them (NPP128)
        out.append(Problem(MISPLACED, m.word, m.i, m.j, m.said, None, m.effect))
    return out


_JOIN = ((0, 0, "="), True, "join")     # stands for _join_fix until the problem is placed in the file


@lru_cache(maxsize=1024)
def _judged(texts: Tuple[str, ...], target: Target) -> Tuple[Tuple[int, Problem], ...]:
    """The problems of msprof's words on the target, each with the index of its word (-1: msprof itself).
    A launcher repeats its msprof lines: the same words are judged once."""
    call = parse(_plain("msprof"), [_plain(t) for t in texts])
    hits: Dict[Tuple[int, str], Dict[Tuple[str, str], _Hit]] = {}
    ported = set(P.versions())
    for v in target.versions:
        for p in target.products:
            if v in ported:
                found = _port_hits(list(texts), v, p)
            else:
                found = _legacy_hits(call, v, p)
            for hit in found:
                by = hits.setdefault((hit.at, hit.code), {})
                if (v, p) not in by or _exits(hit) and not _exits(by[(v, p)]):
                    by[(v, p)] = hit            # a refusal says more than an option taken without effect
    out = []
    for (at, code), by in hits.items():
        # where the option itself is refused (no such option, not on this chip), its value is never read:
        # that version or chip refuses the word all the same
        refused = {k for (a, c), other in hits.items() if a == at and c in (UNKNOWN_OPTION, REFUSED) for k in other}
        versions = {v for v in target.versions if all((v, p) in by or (v, p) in refused for p in target.products)}
        if target.fails_on(versions):
            problem = _render(call, at, code, by, versions, target)
            if problem.effect == "ignored" and any(_exits(h) for h in by.values()):
                problem = problem._replace(effect="mixed")
            out.append((_place(call, problem.word), problem))
    return tuple(sorted(out, key=lambda x: (x[0], x[1].i)))


def _plain(text: str) -> Word:
    return Word(text, lambda i, j: (i, j), "")


def _exits(hit: _Hit) -> bool:
    if hit.step is not None:
        return hit.step.action in (P.REJECT, P.CRASH)
    assert hit.legacy is not None           # a hit has a step or the legacy tables' verdict
    return hit.legacy.effect == "exits"


def _place(call: Call, word: Word) -> int:
    return next((k for k, w in enumerate(call.words) if w is word), -1)


# ---------------------------------------------------------------- CANN 8.5+: msprof's own steps

_CODES = {"unrecognized": UNKNOWN_OPTION, "ambiguous": UNKNOWN_OPTION, "invalid": UNKNOWN_OPTION,
          "no_argument": BAD_VALUE, "requires": NO_VALUE, "short": NO_VALUE, "chip": REFUSED, "unsupported": REFUSED,
          "none": NO_VALUE, "null_string": NO_VALUE, "null_assign": NO_VALUE, "past_end": NO_VALUE,
          "value": BAD_VALUE, "l3": BAD_VALUE, "mstx": BAD_VALUE, "dynamic": BAD_VALUE, "order": BAD_VALUE,
          "application": BAD_VALUE, "path": BAD_VALUE, "metrics": BAD_METRICS, "range": BAD_FREQ,
          "number": BAD_FREQ, "storage": BAD_STORAGE, "output": BAD_OUTPUT}
_EMPTY = {"output": BAD_OUTPUT, "aic-metrics": BAD_METRICS, "aiv-metrics": BAD_METRICS, "storage-limit": BAD_STORAGE}


@lru_cache(maxsize=4096)
def _port_steps(texts: Tuple[str, ...], version: str, product: str) -> Tuple[P.Step, ...]:
    return tuple(P.steps(texts, version, product, hole=HOLE))


def _port_hits(texts: List[str], version: str, product: str) -> List[_Hit]:
    out = []
    for step in _port_steps(tuple(texts), version, product):
        if step.action in (P.REJECT, P.CRASH):
            code = _EMPTY.get(step.option, BAD_VALUE) if step.kind == "empty" else _CODES.get(step.kind)
        elif step.action == P.IGNORED:
            code = NO_VALUE
        else:
            continue
        if code is None:
            continue                # a bare `msprof`, 512 words and more: no option to point at
        if code == UNKNOWN_OPTION and step.kind == "unrecognized" and _exists_elsewhere(texts[step.at]):
            code = REFUSED
        out.append(_Hit(step.at, code, step.kind, step))
    return out


def _written(text: str) -> str:
    """The option's name as written in its word (`--aic-metric=x` -> aic-metric)."""
    return text[2:].partition("=")[0] if text.startswith("--") else text


def _exists_elsewhere(text: str) -> bool:
    """Whether the unrecognized name is an option (or abbreviates one) in another version's msprof."""
    name = _written(text)
    return any(o == name or o.startswith(name) for o in all_options()) and bool(name)


# ---------------------------------------------------------------- CANN 7.0/8.0: the option tables

def _resolve(name: str, version: str) -> str:
    """'exact', 'prefix' (getopt takes a unique or ambiguous abbreviation: never judged) or 'unknown'."""
    known = options_of(version)
    if name in known:
        return "exact"
    if any(o.startswith(name) for o in known):
        return "prefix"
    return "unknown"


def _legacy_hits(call: Call, version: str, product: str) -> List[_Hit]:
    out = []
    for opt in call.options:
        at = _place(call, opt.word)
        for problem in _legacy_option(opt, version, product):
            out.append(_Hit(at, problem.code, "legacy", None, problem))
    return out


def _legacy_option(opt: Option, v: str, p: str) -> List[Problem]:
    """What the 7.0/8.0 tables say of one option (the message is completed when it is reported)."""
    name, word = opt.name, opt.word
    i, j = opt.name_span
    status = _resolve(name, v)
    if status == "unknown":
        known = any(_resolve(name, x) != "unknown" for x in K.VERSIONS)
        return [Problem(REFUSED if known else UNKNOWN_OPTION, word, i, j, "")]
    if status == "prefix":
        return []
    if opt.value is None:
        if opt.name in cli()["value_required"].get(v, ()):
            return [Problem(NO_VALUE, word, i, j, "")]
        return []
    if HOLE in opt.value:
        return []
    problem = _legacy_value(opt, v, p)
    return [problem] if problem else []


def _legacy_value(opt: Option, v: str, p: str) -> Optional[Problem]:
    data = cli()
    name, value = opt.name, opt.value
    assert value is not None                # (_legacy_option asks only about an option with a value)
    vi, vj = opt.value_at, opt.value_at + len(value)
    span = (vi, vj) if vj > vi else opt.name_span

    def problem(code: str, what: Text, fix=None, advice: str = "") -> Problem:
        return Problem(code, opt.word, span[0], span[1], said(what, LEGACY_EXITS, advice), fix)
    if name in data["switches"]["options"]:
        allowed = data["switches"]["values"]
        if name in data["switches"]["checked"].get(v, ()) and value not in allowed:
            return problem(BAD_VALUE, f"--{name}={value} is not on or off", _word_fix(value, allowed, vi, vj),
                           "write on or off")
        return None
    if name in data["enums"]:
        allowed = data["enums"][name].get(v)
        if allowed is not None and value not in allowed:
            shown = "/".join(allowed)
            return problem(BAD_VALUE, f"--{name}={value} is not one of {shown}", _word_fix(value, allowed, vi, vj),
                           f"use one of {shown}")
        return None
    if name in data["ranges"]:
        lim = data["ranges"][name].get(v)
        if lim is not None and (not _DIGITS.fullmatch(value) or len(value) > 9 or not lim[0] <= int(value) <= lim[1]):
            return problem(BAD_FREQ, f"--{name}={value} is not an integer from {lim[0]} to {lim[1]}",
                           advice=f"use a value from {lim[0]} to {lim[1]}")
        return None
    if name in data["metrics"]:
        if value.startswith("Custom:"):
            return None
        if not value or value not in K.aic_metrics_for(p) or K.metric_builds(p, v, value) == "every":
            return Problem(BAD_METRICS, opt.word, span[0], span[1], "")
        return None
    if name in data["storage_limit"]["options"]:
        rule = data["storage_limit"]
        m = re.fullmatch(r"([0-9]{1,10})MB", value)
        if m and rule["min"] <= int(m.group(1)) <= rule["max"]:
            return None
        return problem(BAD_STORAGE, f"--storage-limit={value} is not <N>MB with N from {rule['min']} to {rule['max']}",
                       _gb_fix(value, vi, vj), f"write the limit in MB, at least {rule['min']}MB")
    if name in data["output"]["options"]:
        if not value:
            return problem(BAD_OUTPUT, clause("--output= gives no directory", logged(' ("expected one argument")')),
                           advice="name the directory for the data")
        if len(value) > data["output"]["max_length"]:
            return problem(BAD_OUTPUT, f"--output is longer than {data['output']['max_length']} characters")
    return None


EXITS_BEFORE = clause("exits before the application starts", so("nothing is profiled"))
LEGACY_EXITS = clause("msprof ", EXITS_BEFORE)


# ---------------------------------------------------------------- messages

def _render(call: Call, at: int, code: str, by: Dict[Tuple[str, str], _Hit], versions: Set[str],
            target: Target) -> Problem:
    """The problem as reported: placed at its word, worded from the step of the version the target names
    (or the newest that has it), quoting what msprof prints there."""
    present = {v for v, _ in by}
    candidates = (versions & present) or present
    version = target.cann if target.cann in candidates else max(candidates, key=K.VERSIONS.index)
    products = [p for p in target.products if (version, p) in by] or [p for v, p in by if v == version]
    hit = by[(version, products[0])]
    word = call.words[at] if 0 <= at < len(call.words) else call.msprof
    if hit.step is None:
        assert hit.legacy is not None
        return _legacy_render(hit.legacy, call, versions, target)
    lines = {step.line for step in (by[(version, p)].step for p in products) if step is not None}
    notes = [] if target.soc != "any" or len(lines) <= 1 else [f"on the Ascend {products[0]}"]
    # the version is named only where the target names it; under `any` the words are every version's, or said
    # to be that version's
    who = f"msprof {version}" if target.cann == version else "msprof"
    worded = {(h.step.line.splitlines() or [""])[0] for (v, p), h in by.items()
              if v in candidates and p == products[0] and h.step is not None}
    if target.cann != version and len(worded) > 1:
        notes.append(f"in CANN {version}'s words")
    where = ", ".join(notes)
    problem = _port_render(word, hit.step, code, version, products, where, target, call, at, who)
    unread = [p for p in products if P.chip(version, p) is None]
    if unread and len(unread) == len(products):
        # the open source of that version has no platform class for the chip: its black list is not known
        problem = problem._replace(said=problem.words.within(
            f"(read from the open source of CANN {version}, which has no platform class for the Ascend "
            f"{', '.join(unread)}: its shipped msprof may refuse the option itself first)"))
    return problem


def _tail(step: P.Step, version: str, where: str = "", subject: str = "") -> Text:
    """What msprof does, in its own words (`where`: the notes on which chip or version's words they are)."""
    note = aside(where) if where else ""
    line = (step.line.splitlines() or [""])[0].strip()
    who = subject or f"msprof {version}"
    if step.action == P.CRASH:
        if step.kind == "null_string":
            return clause(f"{who} crashes on it", logged(f' ("{line}")'), note, " before the application starts",
                          so("nothing is profiled"))
        return clause(f"{who} reads through a null pointer and crashes", aside("a segmentation fault"), note,
                      " before the application starts", so("nothing is profiled"))
    if step.action == P.IGNORED:
        return f"{who} then runs without it, silently"
    if not line:
        said = "prints its usage" if step.usage else "prints nothing of its own"
        return clause(f"{who} {said}", note, " and ", EXITS_BEFORE)
    usage = ", then its usage," if step.usage else ""
    return clause(f"{who} ", logged(f'prints "{line}"{usage}{f" ({where})" if where else ""} and '), EXITS_BEFORE)


def _port_render(word: Word, step: P.Step, code: str, version: str, products: List[str], where: str,
                 target: Target, call: Call, at: int, who: str = "") -> Problem:
    text = word.text
    written = _written(text)
    name = step.option.strip() or written
    eq = text.find("=") if text.startswith("--") else -1
    value = text[eq + 1:] if eq >= 0 else None
    name_span = (0, 2 + len(written)) if text.startswith("--") else (0, len(text))
    value_span = (eq + 1, len(text)) if eq >= 0 and len(text) > eq + 1 else name_span
    who = who or f"msprof {version}"
    tail = _tail(step, version, where, who)
    aka = "" if written == name or not step.option else aside(f"msprof reads --{written} as --{name}")
    called = clause(f"--{written}", aka)
    given = clause(f"--{written}={value}", aka)
    kind = step.kind
    chips = "the Ascend " + ", ".join(products if target.soc == "any" else [target.soc])
    fix = None
    span = name_span
    effect = "ignored" if step.action == P.IGNORED else "exits"
    if kind == "unrecognized" and code == REFUSED:
        lacking = [v for v in target.versions if _resolve_port(written, v) == "unknown"] or [version]
        known_in = [v for v in K.VERSIONS if _resolve_port(written, v) != "unknown"]
        message = said(clause(f"msprof of {_versions_text(lacking)} has no option --{written}",
                              aside(f"it exists in {_versions_text(known_in)}")), tail,
                       "remove it or target that version")
    elif kind == "unrecognized":
        matches, trivial = suggest(written, all_options())
        hint = f'did you mean "--{matches[0]}"?' if matches else "see `msprof --help` for the options"
        if len(matches) == 1 and (trivial or difflib.SequenceMatcher(None, written, matches[0]).ratio() >= 0.75):
            fix = ((2, name_span[1], matches[0]), trivial, f"write --{matches[0]}")
        message = said(f"--{written} is not an msprof option", tail, hint)
    elif kind == "ambiguous":
        names = [o.name.strip() for o in P.long_options(version) if o.name.startswith(written)]
        message = said(clause(f"--{written} abbreviates several msprof options",
                              aside(', '.join('--' + n for n in names))), tail, "write the whole name")
    elif kind == "invalid":
        message = said(f"--{written} is msprof's internal marker of an invalid option, not an option", tail)
    elif kind == "no_argument":
        message = said(f"--{name} takes no value", tail, f"write --{name}")
    elif kind in ("requires", "none", "null_string", "null_assign", "past_end") or step.action == P.IGNORED:
        message, fix = _no_value_message(call, at, called, name, tail, kind)
    elif kind == "short":
        message = said(clause(f"msprof reads {text} as options of its own",
                              aside("single-dash options it does not have"),
                              ", not as the value of the option before it"), tail, "attach the value with =")
    elif kind == "chip":
        message = said(clause(f"{who} refuses ", called, f" on {chips}",
                              aside("the option is on the chip's black list")),
                       _tail(step, version, where, "it"), "remove it for this chip")
    elif kind == "unsupported":
        message = said(clause(called, f" is not supported on {chips}"), tail, "remove it for this chip")
    elif kind == "empty":
        span = name_span
        message = said(f"--{written}= gives no value", tail,
                       "name the directory for the data" if name == "output" else "")
    elif code == BAD_METRICS:
        message, fix, span = _metrics_message(given, name, value or "", value_span, products or [target.soc], tail)
    elif code == BAD_STORAGE:
        span = value_span
        fix = _gb_fix(value or "", *value_span)
        lo, hi = P.data()["storage_limit"]
        message = said(f"--storage-limit={value} is not <N>MB with N from {lo} to {hi}", tail,
                       fix[2] if fix else f"write the limit in MB, at least {lo}MB")
    elif code == BAD_FREQ:
        span = value_span
        lim = P.limits(version, products[0] if products else target.soc, name)
        advice = f"use a value from {lim[0]} to {lim[1]}" if lim else "write a plain integer"
        message = said(clause(given, " is out of range or not a plain integer"), tail, advice)
    elif code == BAD_OUTPUT:
        span = value_span
        message = said(f"--output={value} cannot be msprof's output directory", tail)
    elif kind == "l3":
        span = value_span
        message = said(f"--task-time=l3 is not available on {chips}", tail, "use l0, l1 or l2")
    elif kind == "mstx":
        message = said(clause(given, " takes effect only with --msproftx=on, and not together with the other "
                              "--mstx-domain option"), tail)
    elif kind == "dynamic":
        message = said(clause(called, " does not fit with the other options of this dynamic profiling run"), tail)
    elif kind == "order":
        message = said(clause(given, f" comes before --output and --application, which {who} needs first"), tail,
                       "move it after them")
    else:
        span = value_span if value else name_span
        allowed = P.accepted(version, name)
        fix = _word_fix(value or "", allowed, *value_span) if value and allowed else None
        advice = f"write {' or '.join(allowed)}" if allowed and len(allowed) == 2 else \
            f"use one of {', '.join(allowed)}" if allowed else ""
        message = said(clause(given, " is not a value msprof takes"), tail, advice)
    return Problem(code, word, span[0], span[1], message, fix, effect)


def _resolve_port(name: str, version: str) -> str:
    if version not in P.versions():
        return _resolve(name, version)
    names = P.option_names(version)
    if name in names:
        return "exact"
    return "prefix" if any(n.startswith(name) for n in names) else "unknown"


def _no_value_message(call: Call, at: int, called: Text, name: str, tail: Text, kind: str):
    """NPP127: msprof sees the option without a value (written `--name value`, or nothing after it). The
    next word is offered as the value only when the option could take it: `--sys-profiling python
    train.py` is a switch followed by the application, not by its value."""
    opt = next((o for o in call.options if _place(call, o.word) == at), None)
    detached = opt.detached if opt is not None else None
    allowed = _accepted_anywhere(name)
    choice = f"one of {', '.join(allowed)}" if allowed else "VALUE"
    if detached is None:
        if kind == "past_end":
            return said(clause(called, " is the last word and has no value"), tail, f"write --{name}=VALUE"), None
        return said(clause(called, " is given no value"), tail,
                    f"write --{name}=" + ("VALUE" if not allowed else f"VALUE ({choice})")), None
    text = detached.text
    if HOLE in text:
        shown, fix = "VALUE", _JOIN
    elif allowed and text not in allowed:
        return (said(clause(called, f" is followed by {text!r}, which is not one of its values"),
                     clause(f"msprof reads a value only as --{name}=VALUE, so --{name} has none, and the next word "
                            "is skipped: ", tail),
                     f"write --{name}=VALUE ({choice}) and keep {text!r} where it belongs"), None)
    else:
        shown, fix = text, _JOIN
    return (said(clause(called, " is followed by its value as a separate word"),
                 clause(f"msprof reads a value only as --{name}=VALUE, so --{name} has none, and the next word is "
                        "skipped: ", tail), f"write --{name}={shown}"), fix)


def _accepted_anywhere(name: str) -> Tuple[str, ...]:
    """The fixed values an option takes on the newest msprof that has it (empty: no fixed list)."""
    for version in reversed(P.versions()):
        values = P.accepted(version, name)
        if values:
            return values
    return ()


def _metrics_message(given: Text, name: str, value: str, span, products: List[str], tail: Text):
    names = sorted(set().union(*(K.aic_metrics_for(p) for p in products if p != "any"))) if products != ["any"] \
        else sorted(K.aic_metrics_for("910B"))
    fix = None
    if value.startswith("Custom:"):
        return (said(clause(given, " is not an event list msprof takes",
                            aside("at most as many events as the chip has PMU counters, each hexadecimal 0x.. or "
                                  "decimal, at most 70 characters in all")), tail), None, span)
    matches, trivial = suggest(value, names) if value else ([], False)
    advice = ""
    if value in names:
        what = clause(given, f" is not a metric set of the Ascend {', '.join(products)}")
    elif matches:
        what = clause(given, " is not an AI Core metric set",
                      f" of the Ascend {products[0]}" if len(products) == 1 else "")
        advice = f'did you mean "{matches[0]}"?'
        if len(matches) == 1:
            safe = trivial and matches[0].lower() == value.lower()
            fix = ((span[0], span[1], matches[0]), safe, f"write {matches[0]}")
    elif "," in value and all(x in names for x in value.split(",")):
        what = clause(given, " lists several metric sets")
        advice = "msprof takes one set per run: profile once per set"
    else:
        what = clause(given, " is not an AI Core metric set",
                      f" of the Ascend {products[0]}" if len(products) == 1 else "")
        advice = "use one of " + ", ".join(names) + " or Custom:<events>"
    return said(what, tail, advice), fix, span


def _legacy_render(problem: Problem, call: Call, versions: Set[str], target: Target) -> Problem:
    """A 7.0/8.0 problem, worded as the tables allow (the line msprof prints there was not read)."""
    opt = next(o for o in call.options if o.word is problem.word)
    name = opt.name
    if problem.code in (UNKNOWN_OPTION, REFUSED):
        if problem.code == REFUSED:
            lacking = [v for v in target.versions if _resolve_port(name, v) == "unknown"]
            known_in = [v for v in K.VERSIONS if _resolve_port(name, v) != "unknown"]
            return problem._replace(said=said(
                clause(f"msprof of {_versions_text(lacking)} has no option --{name}",
                       aside(f"it exists in {_versions_text(known_in)}")),
                clause("it ", logged('prints "unrecognized option" and its usage, and '), EXITS_BEFORE),
                "remove it or target that version"))
        matches, trivial = suggest(name, all_options())
        hint = f'did you mean "--{matches[0]}"?' if matches else "see `msprof --help` for the options"
        fix = None
        if len(matches) == 1 and (trivial or difflib.SequenceMatcher(None, name, matches[0]).ratio() >= 0.75):
            fix = ((2, problem.j, matches[0]), trivial, f"write --{matches[0]}")
        return problem._replace(said=said(clause(f"--{name} is not an msprof option",
                                                 logged(' ("unrecognized option")')),
                                          clause("msprof prints its usage and ", EXITS_BEFORE), hint), fix=fix)
    if problem.code == NO_VALUE:
        tail = clause("msprof refuses it", logged(' ("expected one argument", or "empty value" in older versions)'),
                      " and ", EXITS_BEFORE)
        message, fix = _no_value_message(call, _place(call, opt.word), f"--{name}", name, tail, "none")
        return problem._replace(said=message, fix=fix)
    if problem.code == BAD_METRICS:
        products = list(target.products)
        message, fix, _ = _metrics_message(f"--{name}={opt.value or ''}", name, opt.value or "",
                                           (problem.i, problem.j), products, LEGACY_EXITS)
        return problem._replace(said=message, fix=fix)
    return problem


_BETWEEN = re.compile(r"[ \t]+|([\"'])[ \t]*,[ \t]*\1")


def _join_fix(opt: Option):
    """Source edits turning `--name value` (or `"--name", "value"` in a list) into `--name=value`."""
    word, value = opt.word, opt.detached
    assert value is not None                # (asked only of an option with a detached value)
    a = word.literal(0, len(word.text))
    b = value.literal(0, len(value.text)) if value.text else None
    if a is None or b is None or a[1] > b[0] or not _BETWEEN.fullmatch(word.source[a[1]:b[0]]):
        return None
    return (a[1], b[0], "="), True, f"write --{opt.name}={value.text}"


def _word_fix(value: str, allowed: Sequence[str], i: int, j: int):
    """A fix for a value that differs from one allowed value only in case (`ON` -> `on`)."""
    same = [a for a in allowed if a.lower() == value.lower()]
    if len(same) == 1 and value:
        return (i, j, same[0]), True, f"write {same[0]}"
    return None


def _gb_fix(value: str, i: int, j: int):
    """Whole gigabytes written as megabytes (`2GB` -> `2048MB`): the same limit."""
    lo, hi = cli()["storage_limit"]["min"], cli()["storage_limit"]["max"]
    gb = re.fullmatch(r"([0-9]{1,7})GB", value)
    if gb and lo <= int(gb.group(1)) * 1024 <= hi:
        mb = f"{int(gb.group(1)) * 1024}MB"
        return (i, j, mb), True, f"write {mb}"
    return None


# ---------------------------------------------------------------- findings

def _finding(problem: Problem, src: SourceText) -> Finding:
    start, end = problem.word.place(problem.i, problem.j)
    fix = None
    if problem.fix is not None:
        (fi, fj, text), safe, title = problem.fix
        # word indexes, except for NPP127 whose join spans two words (absolute offsets)
        span = (fi, fj) if problem.code == NO_VALUE else problem.word.literal(fi, fj)
        if span is not None:
            fix = Fix((Edit(span[0], span[1], text),), safe, printable(title))
    (l1, c1), (l2, c2) = src.position(start), src.position(max(start, end))
    return finding(problem.code, problem.said, start, end, l1, c1, l2, c2, fix)


def check_shell(text: str, target: Target, fixes: bool = False, calls: Optional[List[Call]] = None) -> List[Finding]:
    """Findings for the msprof runs of a shell launcher. `npuprof fix` does not rewrite launchers,
    so their findings carry no fix unless asked for (fixes=True: the edits a launcher fix would make).
    calls: the launcher's msprof runs (calls_in_shell), when they are already read."""
    if "msprof" not in text:
        return []
    src = SourceText(text)
    calls = calls_in_shell(text) if calls is None else calls
    found = [_finding(p, src) for call in calls for p in check_call(call, target)]
    return found if fixes else [f._replace(fix=None) for f in found]


_SUBPROCESS = {"run", "call", "Popen", "check_call", "check_output"}
_SHELL_STRING = {("os", "system"), ("os", "popen"), ("subprocess", "getoutput"), ("subprocess", "getstatusoutput")}


def calls_in_python(tree: ast.AST, src: SourceText) -> List[Call]:
    """msprof runs with a literal command in subprocess / os.system calls."""
    modules: Dict[str, str] = {}            # local name -> module ("sp" -> "subprocess")
    functions: Dict[str, Tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in ("os", "subprocess"):
                    modules[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom) and node.module in ("os", "subprocess"):
            for a in node.names:
                functions[a.asname or a.name] = (node.module, a.name)
    out: List[Call] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in modules:
            target = (modules[func.value.id], func.attr)
        elif isinstance(func, ast.Name) and func.id in functions:
            target = functions[func.id]
        else:
            continue
        arg = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg in ("args", "cmd")), None)
        if arg is None:
            continue
        shell = target in _SHELL_STRING or any(
            k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords)
        if target[0] == "subprocess" and target[1] not in _SUBPROCESS and target not in _SHELL_STRING:
            continue
        if target[0] == "os" and target not in _SHELL_STRING:
            continue
        out.extend(_calls_in_argument(arg, shell, src))
    return out


def _calls_in_argument(arg: ast.AST, shell: bool, src: SourceText) -> List[Call]:
    if isinstance(arg, (ast.List, ast.Tuple)):
        words = []
        for elt in arg.elts:
            value = literal_value(src, elt)
            if value is None or value.is_bytes:
                # (mypy cannot type a lambda with a default argument against Word.place: ignored)
                words.append(Word(HOLE, lambda i, j, e=elt: (src.node_start(e), src.node_end(e)), src.text))  # type: ignore[misc]
            else:
                words.append(_value_word(value, src.text))
        return _calls(words)
    value = literal_value(src, arg)
    split = False
    if value is None and isinstance(arg, ast.Call) and not arg.args and isinstance(arg.func, ast.Attribute) \
            and arg.func.attr == "split":
        value, split = literal_value(src, arg.func.value), True     # "msprof --x=y python3 t.py".split()
    if value is None and isinstance(arg, ast.Call) and len(arg.args) == 1 and isinstance(arg.func, ast.Attribute) \
            and arg.func.attr == "split" and isinstance(arg.func.value, ast.Name) and arg.func.value.id == "shlex":
        value, shell = literal_value(src, arg.args[0]), True          # shlex.split("msprof ...")
    if value is None or value.is_bytes:
        return []
    outer = _value_word(value, src.text)
    if split:
        words = []
        for m in re.finditer(r"\S+", value.text):
            # (mypy cannot type a lambda with a default argument against Word.place: ignored)
            words.append(Word(m.group(), lambda i, j, a=m.start(): outer.place(a + i, a + j), src.text))  # type: ignore[misc]
        return _calls(words)
    if shell:
        return calls_in_string(outer)
    return []


def check_python(ctx) -> None:
    """The msprof runs of a Python file, reported through the file's context."""
    if "msprof" not in ctx.src.text:
        return
    for call in calls_in_python(ctx.tree, ctx.src):
        for problem in check_call(call, ctx.target):
            f = _finding(problem, ctx.src)
            ctx.report(f.code, f.start, f.end, f.words, f.fix)


# ---------------------------------------------------------------- precedence and output

_SCRIPT = re.compile(r".*\.py$")


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import REF_AIC_PRODUCTS, REF_MSPROF_CLI, REF_MSPROF_DOC, _ANY_CANN, _ANY_SOC, Rule  # noqa: E402


_LAUNCHERS_NOT_REWRITTEN = ("`npuprof fix` applies it to msprof runs in Python calls; shell launchers are checked, "
                            "not rewritten.")


def _parser_facts(*keys: str) -> tuple:
    """The fact ids of data/msprof_parser.json behind a rule, for every version it covers."""
    return tuple(f"msprof_parser.versions.{v}.{k}" for v in ("8.5", "9.0", "9.1") for k in keys)


def _launcher(msprof_options: str) -> str:
    """A shell launcher that profiles train.py with msprof and the given options."""
    return ("#!/bin/bash\n# run_prof.sh: profile a short training run on one device\n"
            "export ASCEND_DEVICE_ID=0\n"
            f"msprof --output=/tmp/prof {msprof_options} \\\n    python3 train.py --max_steps=20\n")


RULES = (
    Rule(
        code="NPP120",
        name="msprof-unknown-option",
        summary="msprof command line with an option msprof does not have (`--timeline=on`, `--aicore=on`, "
                "`--aic_metrics=...`), with did-you-mean",
        default=True,
        level="error",
        what="An `msprof` run (in a shell launcher, or in a Python `subprocess`/`os.system` call with a literal "
             "command) that passes a `--name` no msprof version knows: names guessed from other profilers "
             "(`--timeline`), the JSON option spelling (`--aic_metrics`, `--task_trace`), or a missing hyphen "
             "(`--aicore`), or an abbreviation that several options share (`--task` for `--task-time`, "
             "`--task-memory`, `--task-block`). The words are read as msprof reads them (SplitApplicationArgv, "
             "then glibc's getopt_long over the tag's option table): only those before the application are "
             "msprof's, and a prefix of exactly one option is that option (`--app=` is `--application=`, "
             "whose value is then checked as such).",
        why="msprof reads its options with getopt_long: an unknown name makes it print \"msprof: unrecognized "
            "option '--timeline=on'\" (an abbreviation of several: \"option '--task' is ambiguous; "
            "possibilities: ...\") and its usage, and exit before starting the application. The job is "
            "scheduled on the NPU host, runs nothing and collects nothing; the error is only in the job's log. "
            "For CANN 8.5 and later the finding quotes the line that version prints.",
        example=_launcher("--timeline=on"),
        fixed=_launcher("--task-time=on"),
        fix_safety="sometimes",
        fix_note="Renames the option when exactly one msprof option is close. Differences of case, `_` or `-` "
                 "only (`--aic_metrics` → `--aic-metrics`, `--aicore` → `--ai-core`) are safe; other close "
                 "spellings are unsafe; a name with no close option (`--timeline`) is not fixed. "
                 + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_CANN + " An option that only some versions have is NPP126.",
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.options", "msprof_cli.unknown_option") + _parser_facts("long_options", "split"),
    ),
    Rule(
        code="NPP121",
        name="msprof-invalid-option-value",
        summary="msprof option value not accepted: switches other than `on`/`off`, `--task-time` levels, "
                "`--ge-api`, `--aic-mode`, `--llc-profiling`, `--host-sys` items, options msprof takes only together",
        default=True,
        level="error",
        what="An msprof switch (`--ascendcl`, `--task-time`, `--hccl`, `--aicpu`, `--l2`, `--runtime-api`, "
             "`--sys-hardware-mem`, ...) given something other than exactly `on` or `off` (`true`, `ON`, `1`, "
             "empty), a `--task-time` level the version or chip lacks (`l0`/`l1` everywhere, `l2` from 8.5, `l3` "
             "on 8.5 and 9.1 only where the chip traces at level 3: Atlas A2/A3 and the Ascend 950), a value "
             "outside the list of `--ge-api`, `--aic-mode`/`--aiv-mode`, `--llc-profiling` (`read`/`write`; on the "
             "Ascend 310 from 9.0 `capacity`/`bandwidth`), `--summary-format`, `--type`, `--rule`, `--host-sys` "
             "(`numa` from 9.1), `--host-sys-usage`, `--sys-devices` (`all` or ids below 64); and options msprof "
             "takes only together: `--mstx-domain-include`/`--mstx-domain-exclude` without `--msproftx=on` or "
             "both at once, `--pid` without `--dynamic=on`, `--dynamic=on` with neither or both of an "
             "application and `--pid`, or with `--sys-devices`/`--sys-period`/`--sys-cpu-profiling`, and on 8.5 "
             "`--host-sys=osrt` before `--output` and `--application`.",
        why="msprof compares each value with its fixed list and, on a mismatch, prints the error and exits "
            "before starting the application, so the job collects nothing. Whether `--host-sys=osrt`/`disk` "
            "finds perf, ltrace and iotop through sudo depends on the machine and is not judged.",
        example=_launcher("--task-time=true"),
        fixed=_launcher("--task-time=on"),
        fix_safety="sometimes",
        fix_note="Lowercases a value that differs from an accepted one only in case (`ON` → `on`): safe. Other "
                 "values are not fixed (`true` could mean a level). " + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_CANN + " `--task-time=l2` is reported only for 7.0/8.0 targets.",
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.switches", "msprof_cli.enums", "msprof_cli.empty_value")
        + _parser_facts("task_time", "llc", "host_sys", "host_sys_osrt_after_output", "dynamic_pids", "messages"),
    ),
    Rule(
        code="NPP122",
        name="msprof-invalid-aic-metrics",
        summary="`--aic-metrics`/`--aiv-metrics` value that is not a metric set of the target chip, with "
                "did-you-mean",
        default=True,
        level="error",
        what="An msprof `--aic-metrics` or `--aiv-metrics` value that no chip has (a misspelling such as "
             "`PipeUtilisation`), that the target chip lacks (`L2Cache` on the Ascend 910), or that is empty; from "
             "CANN 8.5, a `Custom:<events>` list with more events than the chip has PMU counters, an event that is "
             "neither hexadecimal (`0x6e`) nor decimal, or more than 70 characters in all (for 7.0/8.0 such lists "
             "are not judged).",
        why="msprof checks the metric set against the chip it runs on with the same validator as the "
            "framework options (NPP106) and exits before starting the application when it is not there.",
        example=_launcher("--aic-metrics=PipeUtilisation"),
        fixed=_launcher("--aic-metrics=PipeUtilization"),
        fix_safety="sometimes",
        fix_note="Replaces the value with the single close metric set: safe when only the case differs, "
                 "unsafe otherwise (it changes which counters are collected). " + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_SOC + " A name no product knows is reported with any target.",
        references=(REF_MSPROF_CLI, REF_AIC_PRODUCTS),
        group="msprof",
        language="shell",
        facts=("msprof_cli.metrics", "products.910B.aic_metrics", "msprof_parser.chips",
               "msprof_parser.max_params_len"),
    ),
    Rule(
        code="NPP123",
        name="msprof-invalid-frequency",
        summary="msprof sampling frequency not an integer or out of its range",
        default=True,
        level="error",
        what="An msprof `*-freq` option whose value is not a plain integer or lies outside its range: 1-100 Hz "
             "for `--aic-freq`, `--aiv-freq`, `--dvpp-freq`, `--sys-io-sampling-freq`, `--sys-hardware-mem-freq` "
             "(up to 10000 on the Ascend 950), `--sys-lp-freq`, 1-50 for `--sys-cpu-freq`, "
             "`--sys-interconnection-freq`, `--host-sys-usage-freq`, 1-10 for `--sys-sampling-freq` and "
             "`--sys-pid-sampling-freq`, 300-30000 for `--instr-profiling-freq` on chips without instruction "
             "sampling (the Ascend 950 ignores it with a warning); also `--sys-period` (1-2592000 s), `--delay`, "
             "`--duration`, `--iteration-id` and `--model-id`. On 9.1 a chip without DVPP ignores "
             "`--dvpp-freq` with a warning.",
        why="msprof range-checks each number, prints the allowed range and exits before starting the "
            "application.",
        example=_launcher("--sys-hardware-mem=on --sys-cpu-profiling=on --sys-cpu-freq=100"),
        fixed=_launcher("--sys-hardware-mem=on --sys-cpu-profiling=on --sys-cpu-freq=50"),
        fix_safety="none",
        fix_note="No fix: the sampling rate is the user's choice.",
        options=_ANY_CANN,
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.ranges", "msprof_parser.ranges", "msprof_parser.hardware_mem_max_on_us_chips",
               "msprof_parser.sys_period_max") + _parser_facts("dvpp_gate", "messages"),
    ),
    Rule(
        code="NPP124",
        name="msprof-invalid-storage-limit",
        summary="msprof `--storage-limit` not `<N>MB` with 200 ≤ N ≤ 4294967295",
        default=True,
        level="error",
        what="A `--storage-limit` that is empty, not digits followed by exactly `MB` (`2GB`, `500`, `1.5MB`), "
             "or out of range (`100MB`).",
        why="msprof validates the limit before starting the application and exits on a bad one (the "
            "framework-options path is more lenient from 8.5 on, the command line is not).",
        example=_launcher("--storage-limit=2GB"),
        fixed=_launcher("--storage-limit=2048MB"),
        fix_safety="sometimes",
        fix_note="Converting whole gigabytes to megabytes (`2GB` → `2048MB`) keeps the limit: safe. Other "
                 "values are not fixed. " + _LAUNCHERS_NOT_REWRITTEN,
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.storage_limit", "msprof_parser.storage_limit"),
    ),
    Rule(
        code="NPP125",
        name="msprof-invalid-output",
        summary="msprof `--output` given no directory (`--output=`), a path longer than 1024 characters, a name "
                "over 255 bytes, or (9.0+) a character msprof refuses",
        default=True,
        level="error",
        what="`--output=` with nothing after it (a value the checker cannot see, such as `--output=$OUT`, is "
             "not judged), an output path longer than 1024 characters, a name in it over 255 bytes (no file "
             "system creates it), and from CANN 9.0 a path with a character msprof refuses: a line break, tab "
             "or other control character, `\"`, `'`, `\\`, `%`, `<`, `>`, `|`, `&`, `$`, `;` or a backquote. "
             "Whether the directory can be created on the machine (a part of the path that is a file, "
             "permissions) is not judged.",
        why="msprof needs a directory for the collected data: it refuses an empty value (\"Argument --output: "
            "expected one argument\"), a long path, a name it cannot create and (9.0+) those characters, all "
            "before the application starts.",
        example=_launcher("--task-time=on").replace("--output=/tmp/prof", "--output="),
        fixed=_launcher("--task-time=on"),
        fix_safety="none",
        fix_note="No fix: only the user knows where the data should go.",
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.output", "msprof_cli.empty_value", "msprof_parser.max_path_length", "msprof_parser.name_max")
        + _parser_facts("output_check", "output_invalid_chars"),
    ),
    Rule(
        code="NPP126",
        name="msprof-option-not-on-target",
        summary="msprof option the target CANN version or chip does not have (`--aiv-metrics` on Atlas A2, "
                "`--task-block` before 9.0)",
        default=True,
        level="error",
        what="An msprof option that exists, but not in the msprof of the target CANN version (`--task-block` "
             "and `--sys-lp` arrived in 9.0, `--scale` became `--optype` in 9.1, `--l2-freq` left with 8.5), or "
             "that the target chip's msprof refuses: the options on the chip's black list (the AI Vector Core "
             "options `--ai-vector-core`/`--aiv-*` on every chip of the record, `--instr-profiling*` on the 910, "
             "310P, 310B and 310, `--sys-io-*` on the 310P, `--sys-interconnection-*` on the 310B and 310, from "
             "9.0 `--sys-lp*` everywhere but the 950, `--task-block` on the 910, 310P and 310, and on the 310 "
             "`--l2`, `--storage-limit` and the dynamic-profiling options), and those its checks refuse on the "
             "chip (`--task-block` on Atlas A2/A3 with 9.x, `--task-block=on` except on the 950 with 9.0, "
             "`--optype`/`--scale` without operator filtering, `--nts-metrics`).",
        why="msprof removes the options a chip cannot collect from its parser: it prints \"msprof: "
            "unrecognized option '...'\", the chip's PlatformType and its usage, and exits before starting the "
            "application, so a launcher written for another chip or version collects nothing.",
        example=_launcher("--aic-metrics=PipeUtilization --aiv-metrics=PipeUtilization"),
        fixed=_launcher("--aic-metrics=PipeUtilization"),
        fix_safety="none",
        fix_note="No fix: removing the option changes what is collected on other targets.",
        options=_ANY_CANN + " " + _ANY_SOC + " The chip lists are known for CANN 8.5+ (each tag's own parser; for "
                "8.5 the Ascend 310 and 950 have no platform class in the open source, and no list is claimed), so "
                "name a version as well.",
        references=(REF_MSPROF_CLI,),
        settings=(("cann", "8.5"), ("soc", "910B")),
        group="msprof",
        language="shell",
        facts=("msprof_cli.options", "msprof_parser.platform_types", "msprof_parser.chips")
        + _parser_facts("black_lists", "task_block", "op_filter"),
    ),
    Rule(
        code="NPP127",
        name="msprof-option-value-not-attached",
        summary="msprof option given its value as a separate word (`--output /tmp/prof`) or no value at all",
        default=True,
        level="error",
        what="An msprof option written argparse-style, with its value in the next word (`--output /tmp/prof`, "
             "`[\"--aic-metrics\", \"Memory\"]` in a subprocess list), or with no value at all (`--ascendcl` "
             "at the end of the line). `--help` takes no value. `--storage-limit` without one is refused by 7.0/8.0 "
             "and, from 8.5, taken as no limit at all, silently: reported as such. On 8.5 and 9.0 an option "
             "without `=` as the very last word makes msprof read past the end of its arguments and crash, and on "
             "9.0 `--pid` or `--scale` without a value crashes it too.",
        why="Every msprof option takes an optional argument, which getopt_long reads only when it is attached "
            "with `=`. The option therefore arrives without a value and msprof refuses it (\"expected one "
            "argument\") and exits before starting the application; the separate word is skipped, not used as "
            "the value (from 9.1 unless it starts with `-`).",
        example=_launcher("--task-time=on").replace("--output=/tmp/prof", "--output /tmp/prof"),
        fixed=_launcher("--task-time=on"),
        fix_safety="safe",
        fix_note="Joins the option and the next word with `=` when both are written literally next to each "
                 "other (`--output /tmp/prof`, or `\"--output\", \"/tmp/prof\"` in a Python list): the value "
                 "the user wrote is the one msprof will then read. " + _LAUNCHERS_NOT_REWRITTEN,
        options=_ANY_CANN,
        references=(REF_MSPROF_CLI, REF_MSPROF_DOC),
        group="msprof",
        language="shell",
        facts=("msprof_cli.value_required",) + _parser_facts("split", "messages", "pid_check", "op_filter")
        + ("msprof_parser.storage_limit",),
    ),
)
