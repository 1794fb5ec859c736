"""A finding's message in two parts: one short sentence (the problem and its consequence) and the detail.

The rules write one complete message: the problem, what each CANN version's runtime does (with the log line
it writes), the advice, and context such as the flag a setup depends on. Front-ends show the short sentence
(flake8's one line, the text report, the editor's problem list) and keep the detail one step away
(`--show-source`/`--verbose`, JSON `detail`, SARIF `message.markdown`, the LSP hover). The split only moves
text: every segment of the message is either in the short sentence as written or a line of the detail, so
no fact is lost (tests/test_brief.py holds that against a snapshot of the messages).

The message's grammar, as the rules write it (checks/options.py `_judge`, setups/state.py's prefixes):

    [not reached from this file's entry point (line N): ][latent (why); once GE reads these options: ][when F: ]
    <what>: <consequence>[; on CANN ... <consequence>]...[; <advice>]...[ (context)]

A consequence keeps its last clause (", so GE initialisation fails and the job aborts"); the log lines it
quotes, long asides in parentheses and the per-version list move to the detail.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import List, Tuple

# the short sentence is meant to fit one line of a terminal or a problem pane; over this, it falls back to the
# problem and the last clause of its consequence
LONG = 120

_UNREACHED = re.compile(r"not reached from this file's entry point \(line \d+\): ")
_LATENT = re.compile(r"latent \((?P<why>[^()]*(?:\([^()]*\)[^()]*)*)\); once GE reads these options: ")
_WHEN = re.compile(r"when [^:;\"]{1,80}? (?:is|are) given: ")
_VERSION_PART = re.compile(r"on (?:CANN \d|some builds of CANN|every CANN version|CANN versions?)")
# a quoted log line and the verb that introduces it: `logs "..." and`, `prints "...", then its usage, and`
_LOGGED = re.compile(r'\b(?:logs|prints) "(?:[^"\\]|\\.)*"(?: \([^()]*\))?(?:, then its usage,)? and ')
_SO = ", so "


@lru_cache(maxsize=4096)
def split(message: str) -> Tuple[str, str]:
    """(short sentence, detail): a message that fits in LONG characters is left as written (its advice
    included), a longer one is cut into the sentence and the lines of its detail."""
    if len(message) <= LONG:
        return message, ""
    prefixes, rest = _prefixes(message)
    clauses = _top_level(rest, "; ")
    head, tail = clauses[0], clauses[1:]
    what, first = _what_and_consequence(head)
    parts = [first] if first else []
    while tail and _VERSION_PART.match(tail[0]) and parts:
        parts.append(tail.pop(0))
    context = ""
    if tail:            # a trailing aside of the whole message: "(checked with the default of --x, ...)"
        tail[-1], context = _trailing_aside(tail[-1])
    # a value that holds only when a flag is left out says so in the sentence too, not only in the detail
    # (after a state prefix the sentence has its condition already, and would grow too long with a second)
    default = _DEFAULT_ASIDE.match(context) if not prefixes else None
    lead = "".join(p for p, _ in prefixes) + (f"without {default.group(1)}: " if default else "")
    short = _short(lead, what, head, parts)
    detail: List[str] = [full for shown, full in prefixes if full != shown]
    if what and what not in short:
        detail.append(what)
    elif not parts and head not in short:
        detail.append(head)
    detail += [p for p in parts if p not in short]
    detail += tail                  # the advice and what else the message says, a clause a line
    if context:
        detail.append(context)
    return short, "\n".join(detail)


def _short(prefix: str, what: str, head: str, parts: List[str]) -> str:
    """The problem and its consequence, each step shorter than the one before, until it fits."""
    if parts:
        consequence = _consequence(parts)
        tries = [lambda keep: f"{_clean(what, keep)}: {consequence}"]
        if consequence != DEPENDS:
            tries.append(lambda keep: f"{_clean(what, keep)}: {_last_clause(_clean(parts[0]))}")
    else:
        tries = [lambda keep: _clean(head, keep), lambda keep: _problem_and_outcome(_clean(head, keep))]
    short = ""
    for keep in (30, 12):
        for make in tries:
            short = _tidy(prefix + make(keep))
            if len(short) <= LONG:
                return short
    return short


def _problem_and_outcome(head: str) -> str:
    """`<problem>: <how it goes>, so <outcome>` as `<problem>: <outcome>`."""
    cuts = _top_level(head, ": ")
    if len(cuts) > 1 and re.fullmatch(r'"[^"]*"', cuts[0]):      # `"key": value is ...`: the key's colon
        cuts = [cuts[0] + ": " + cuts[1]] + cuts[2:]
    # a label ("analysis budget exhausted: ...") names no problem on its own: the sentence stays whole
    if len(cuts) < 2 or _SO not in cuts[-1] or len(cuts[0]) < 30:
        return head
    return f"{cuts[0]}: {cuts[-1].rsplit(_SO, 1)[1]}"


def _prefixes(message: str) -> Tuple[List[Tuple[str, str]], str]:
    """The state prefixes at the front: (what the short sentence says, the full prefix), and the rest."""
    out = []
    rest = message
    while True:
        m = _UNREACHED.match(rest) or _LATENT.match(rest) or _WHEN.match(rest)
        if not m:
            return out, rest
        full = m.group(0)
        if m.re is _UNREACHED:
            out.append(("not reached from its entry point: ", full.rstrip(": ")))
        elif m.re is _LATENT:               # why GE does not read them stays in the sentence: which setting wins
            out.append((f"latent ({m.group('why')}): ", full.rstrip(": ")))
        else:
            out.append((full, full))
        rest = rest[m.end():]


def _top_level(text: str, sep: str) -> List[str]:
    """`text` cut at `sep` where it stands outside brackets and double quotes."""
    out, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        c = text[i]
        if c == '"' and (i == 0 or text[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and c in "([{":
            depth += 1
        elif not quoted and c in ")]}":
            depth = max(depth - 1, 0)
        elif not quoted and depth == 0 and text.startswith(sep, i):
            out.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    out.append(text[start:])
    return out


def _what_and_consequence(head: str) -> Tuple[str, str]:
    """The problem and its per-version consequence, when the head reads `<what>: on CANN ...`."""
    for piece in _top_level(head, ": ")[1:]:
        if _VERSION_PART.match(piece):
            k = head.index(": " + piece) if ": " + piece in head else -1
            if k > 0:
                return head[:k], head[k + 2:]
    return head, ""


def _consequence(parts: List[str]) -> str:
    """What the versions' runtimes do, in one clause: their common last clause when they share it, else that
    it depends on the version (no version's outcome stands for the others)."""
    lasts = [_last_clause(_clean(p)) for p in parts]
    some = any(p.startswith("on some builds") for p in parts)
    if len(set(lasts)) == 1:
        if len(parts) == 1:
            scope = _scope(parts[0])
            return f"{scope}, {lasts[0]}" if scope else lasts[0]
        return f"on some builds, {lasts[0]}" if some else lasts[0]
    return DEPENDS          # the sentence says only what every version shares; the detail says each


DEPENDS = "what happens depends on the CANN version"


def _scope(part: str) -> str:
    """`on CANN 8.0` of `on CANN 8.0 the collector rejects it`; `on some builds of CANN 8.0` without the builds."""
    m = re.match(r"on (?:some builds of )?CANN [\d.]+(?:(?:, | and )[\d.]+)*|on every CANN version", part)
    return m.group(0) if m else ""


def _last_clause(text: str) -> str:
    if _SO in text:
        return text.rsplit(_SO, 1)[1]
    scope = _scope(text)
    return text[len(scope):].lstrip(" ,") if scope else text


def _clean(text: str, keep: int = 30) -> str:
    """`text` without its quoted log lines and its asides in parentheses longer than `keep`."""
    text = _LOGGED.sub("", text)
    out, depth, start, quoted = [], 0, None, False
    for i, c in enumerate(text):
        if c == '"' and depth == 0:
            quoted = not quoted
        if quoted:
            if depth == 0:
                out.append(c)
            continue
        if c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")" and depth:
            depth -= 1
            if depth == 0:
                aside = text[start:i + 1]
                if '"' not in aside and len(aside) <= keep:
                    out.append(aside)
                elif out and out[-1] == " ":
                    out.pop()
            continue
        if depth == 0:
            out.append(c)
    if depth:                   # an unbalanced "(": keep the text as it is
        return text
    return "".join(out)


_DEFAULT_ASIDE = re.compile(r"\(checked with the default of (\S+), used when the flag is not given\)$")


def _trailing_aside(clause: str) -> Tuple[str, str]:
    m = re.search(r" (\((?:checked |passed to|in every value|defined in)[^()]*(?:\([^()]*\)[^()]*)*\))$", clause)
    if not m:
        return clause, ""
    return clause[:m.start()], m.group(1)


def _tidy(text: str) -> str:
    text = re.sub(r"\s{2,}", " ", text).replace(" ,", ",").replace(" :", ":")
    return text.strip()


# a line of the same file the message points at: "the profiling config (line 13)", "the first is on line 112",
# "not reached from this file's entry point (line 18)" (the rules name other files' lines as "file.py:2")
_LINE_REF = re.compile(r"(?:\(|\bon )line (\d+)\b")


def lines_named(message: str) -> Tuple[int, ...]:
    """The lines of the finding's own file its message names, in order, once each (SARIF `relatedLocations`,
    the LSP's related information)."""
    return tuple(dict.fromkeys(int(n) for n in _LINE_REF.findall(message) if int(n) > 0))


_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|#"})


def markdown_escape(text: str) -> str:
    """Text shown as written in (GitHub-flavoured) markdown: `PROF_*`, `<N>MB` and `[x]` stay literal."""
    return text.translate(_MARKDOWN)


def markdown(short: str, detail: str) -> str:
    """The short sentence, then the detail as a list (SARIF `message.markdown`, the editor's hover)."""
    lines = [markdown_escape(short)]
    if detail:
        lines += [""] + ["- " + markdown_escape(line) for line in detail.splitlines()]
    return "\n".join(lines)
