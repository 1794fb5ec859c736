"""What a finding says, as data: the problem, what the runtime does (per CANN version where versions differ),
the advice, the context, and the condition it holds under (issue 40, item 2).

A rule builds these fields (`said(...)`); the message (the one complete text: the cache, `fix`'s matching and
the snapshots keep it), the short sentence (flake8's one line, the text report, the editor's problem list) and
the detail (`--verbose`, JSON `detail`, SARIF `message.markdown`, the LSP hover) are renderings of them. Nothing
cuts a finished text back into parts: a condition found later (the setup is switched off, the code is not
reached) is added as a field, and the tense of what will happen follows from it.

The message reads, as the rules have always written it:

    [not reached from this file's entry point (line N): ][latent (why); once GE reads these options: ][when F: ]
    <what>: <consequence, or the first version's>[; on CANN ... <consequence>]...[; <advice>]...[ (context)]

A text (the problem, a consequence) is a string, or a `clause(...)` of strings and parts the renderings treat
apart: `logged(...)`, the line a runtime writes with the words that bring it in (`' ("Output path is invalid.")'`,
`'logs "..." and '`), which the short sentence leaves out; `aside(...)`, a note in brackets (`' (the default)'`),
which the short sentence keeps only while it is short; and `so(outcome)`, the `, so <outcome>` a consequence ends
in, which the short sentence keeps and which names its form once the code runs from a closed set (`ABORT`: "...
will fail and the job will abort" under a condition that puts it later).

The short sentence is the problem and its consequence: a message that fits in LONG characters is shown as it
is; a longer one keeps the conditions in their short words, the problem and the consequence's outcome (what
each version's line ends in: what they share, or that it depends on the version), and leaves the rest to the
detail, a line each. It keeps an aside (and a one-clause message's context) of up to 30 characters, then, if it
is still too long, of up to 12; log lines never.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, List, NamedTuple, Sequence, Tuple, Union

# the short sentence is meant to fit one line of a terminal or a problem pane; over this, it falls back to the
# problem and the outcome its consequence names (`so(...)`)
LONG = 120

ABORT = "GE initialisation fails and the job aborts"
LATENT_ABORT = "GE initialisation will fail and the job will abort"
DEPENDS = "what happens depends on the CANN version"
# the outcomes with a form of their own once the code runs or GE reads the options (the others read the same)
LATER = {ABORT: LATENT_ABORT}


class Part(NamedTuple):
    """A piece of a clause the renderings treat apart: `logged(...)`, `aside(...)` or `so(...)`."""

    # "log": left out of the short sentence; "aside": kept there while short; "so": the outcome it keeps
    kind: str
    text: str                   # as the message shows it (a "so": the outcome as it happens)
    later: str = ""             # a "so": the outcome once the code runs or GE reads the options ("": the same)


class Clause(NamedTuple):
    """A consequence as a rule writes it: texts and parts, in order (`clause(...)`)."""

    parts: Tuple[Union[str, Part], ...]

    def __str__(self) -> str:
        return _render(self)            # as the message shows it, as it happens


Text = Union[str, Clause]


def logged(words: str) -> Part:
    """A line a runtime writes, with the words that bring it in: `' ("Output path is invalid.")'`."""
    return Part("log", words)


def aside(words: str) -> Part:
    """` (<words>)`: a note on what comes before it, which the short sentence keeps only while it is short."""
    return Part("aside", f" ({words})")


def so(outcome: str) -> Part:
    """`, so <outcome>`: what the clause ends in (ABORT takes its later form under a condition)."""
    return Part("so", outcome, LATER.get(outcome, ""))


def clause(*pieces: Union[str, Part, Clause]) -> Text:
    """A consequence of texts, parts and other clauses, in order (a plain text when it has no part)."""
    parts: List[Union[str, Part]] = []
    for piece in pieces:
        if isinstance(piece, Clause):
            parts.extend(piece.parts)
        elif piece:
            parts.append(piece)
    if all(isinstance(p, str) for p in parts):
        return "".join(p for p in parts if isinstance(p, str))
    return Clause(tuple(parts))


def outcome(text: Text) -> str:
    """The outcome a clause ends in, as it happens ("" for none): `outcome(c) == ABORT`."""
    ends = [p for p in text.parts if isinstance(p, Part) and p.kind == "so"] if isinstance(text, Clause) else []
    return ends[-1].text if ends else ""


def _render(text: Text, future: bool = False, keep: int = 0) -> str:
    """The message's form of a text, its outcome in the tense of `future`; with `keep`, the short sentence's:
    without its log lines and its asides longer than `keep` characters."""
    if isinstance(text, str):
        return text
    out = []
    for p in text.parts:
        if isinstance(p, str):
            out.append(p)
        elif p.kind == "so":
            out.append(", so " + (p.later if future and p.later else p.text))
        elif not keep or (p.kind == "aside" and _short_enough(p.text, keep)):
            out.append(p.text)
    return "".join(out)


def _short_enough(note: str, keep: int) -> bool:
    """Whether the short sentence keeps an aside (` (...)`, its brackets counted) when it keeps `keep` characters."""
    return len(note) - 1 <= keep


def _mapped(text: Text, f: Callable[[str], str]) -> Text:
    if isinstance(text, str):
        return f(text)
    return Clause(tuple(f(p) if isinstance(p, str) else p._replace(text=f(p.text), later=f(p.later) if p.later else "")
                        for p in text.parts))


class Condition(NamedTuple):
    """When what a finding says holds: `kind` "unreached" (the entry point does not reach the code), "latent"
    (GE does not read these options in this run), "when" (only in runs that give a flag), "if" (only if GE reads
    options another setting may replace)."""

    kind: str
    text: str                   # as the message says it: "not reached from this file's entry point (line 18)"
    shown: str                  # as the short sentence says it: "not reached from its entry point"
    line: int = 0               # the line of the finding's own file it names (0: none)

    @property
    def future(self) -> bool:
        """What the finding says happens later, once the code runs or GE reads the options."""
        return self.kind in ("unreached", "latent", "if")


def unreached(entry_line: int) -> Condition:
    # "not reached:" alone read as dead code for a library function other scripts call (review of the zoo)
    return Condition("unreached", f"not reached from this file's entry point (line {entry_line})",
                     "not reached from its entry point", entry_line)


def latent(why: str) -> Condition:
    # why GE does not read them stays in the sentence: which setting wins
    return Condition("latent", f"latent ({why}); once GE reads these options", f"latent ({why})")


def when(phrase: str) -> Condition:
    """The runs a finding holds in: "when --profiling is given"."""
    return Condition("when", phrase, phrase)


def if_read(why: str) -> Condition:
    """Options GE reads unless `why` (another setting) replaces them."""
    return Condition("if", f"if GE reads these options ({why})", "if GE reads these options")


class Runtime(NamedTuple):
    """What the runtime of some CANN versions does: `versions` "CANN 8.0 and 8.5" or "every CANN version",
    `builds` the builds of them it holds for ("" for every build)."""

    versions: str
    text: Text                  # clause("the collector rejects it", logged(' ("...")'), so(ABORT))
    builds: str = ""

    @property
    def scope(self) -> str:
        """As the short sentence names them."""
        return f"on some builds of {self.versions}" if self.builds else f"on {self.versions}"

    @property
    def line(self) -> str:
        return self.line_in(False)

    def line_in(self, future: bool) -> str:
        """The version's line, its outcome as it happens or (`future`) once the code runs."""
        text = _render(self.text, future)
        return f"on some builds of {self.versions} ({self.builds}) {text}" if self.builds else \
            f"on {self.versions} {text}"


class Said(NamedTuple):
    """The fields of one finding's words (see the module's docstring)."""

    what: Text                              # the problem
    consequence: Text = ""                  # what the runtime does, when no version is named
    runtime: Tuple[Runtime, ...] = ()      # what each group of versions does, when they are named
    advice: Tuple[str, ...] = ()            # the advice and the message's other clauses, in order
    context: str = ""                       # a closing aside: "(passed to train.py at line 3, ...)"
    default_of: str = ""                    # the flag whose default the value is, when the flag is left out
    conditions: Tuple[Condition, ...] = ()
    lines: Tuple[int, ...] = ()             # the other lines of the finding's own file the words name
    # the releases of the target's framework (torch_npu) on which what the words say happens; the words say what
    # the others do. Not rendered: emulate's verdict reads it (a TypeError on every release stops the script)
    fails_on: Tuple[str, ...] = ()

    # ---- built by the rules

    def given(self, *conditions: Condition) -> "Said":
        """The same words under further conditions, outermost first: `given(unreached(3))` on a latent
        finding reads "not reached ...: latent (...); once GE reads these options: ..."."""
        return self._replace(conditions=tuple(conditions) + self.conditions)

    def also(self, *advice: str) -> "Said":
        return self._replace(advice=self.advice + tuple(a for a in advice if a))

    def within(self, context: str, default_of: str = "") -> "Said":
        return self._replace(context=context, default_of=default_of)

    def closed_with(self, note: Union[str, Part]) -> "Said":
        """The last clause followed by `note` (" (the default of --level)", or an `aside(...)`): a note on the whole
        finding that its message has always closed with, unlike `context`, which the detail shows on a line of its
        own."""
        if not note:
            return self
        if self.advice:
            return self._replace(advice=self.advice[:-1] + (self.advice[-1] + _render(clause(note)),))
        if self.runtime:
            last = self.runtime[-1]
            return self._replace(runtime=self.runtime[:-1] + (last._replace(text=clause(last.text, note)),))
        if self.consequence:
            return self._replace(consequence=clause(self.consequence, note))
        return self._replace(what=clause(self.what, note))

    def mapped(self, f: Callable[[str], str]) -> "Said":
        """Every text of the fields through `f` (`printable`, for user text shown in a message)."""
        return self._replace(what=_mapped(self.what, f), consequence=_mapped(self.consequence, f),
                             runtime=tuple(r._replace(text=_mapped(r.text, f)) for r in self.runtime),
                             advice=tuple(map(f, self.advice)), context=f(self.context),
                             conditions=tuple(c._replace(text=f(c.text), shown=f(c.shown)) for c in self.conditions))

    # ---- the renderings

    @property
    def future(self) -> bool:
        """What the words say happens later, once the code runs or GE reads the options: outcomes take that form."""
        return any(c.future for c in self.conditions)

    @property
    def lines_named(self) -> Tuple[int, ...]:
        """The lines of the finding's own file the words name, in the order the message names them, once each
        (SARIF `relatedLocations`, the LSP's related information)."""
        return tuple(dict.fromkeys(n for n in [c.line for c in self.conditions] + list(self.lines) if n > 0))

    def _head(self, keep: int = 0) -> str:
        """The problem and its (first) consequence (`keep`: as the short sentence shows them, see `_render`)."""
        first = self._lines()[0] if self.runtime else _render(self.consequence, self.future, keep)
        what = _render(self.what, keep=keep)
        return f"{what}: {first}" if first else what

    def _lines(self) -> List[str]:
        return [r.line_in(self.future) for r in self.runtime]

    def _tail(self) -> List[str]:
        return self._lines()[1:] + list(self.advice)

    @property
    def message(self) -> str:
        """The one complete text."""
        lead = "".join(c.text + ": " for c in self.conditions)
        clauses = [self._head()] + self._tail()
        if self.context:
            clauses[-1] += " " + self.context
        return lead + "; ".join(clauses)

    @property
    def short(self) -> str:
        return _brief(self)[0]

    @property
    def detail(self) -> str:
        """The log lines, per-version consequences, advice and context the short sentence leaves out."""
        return "\n".join(_brief(self)[1])

    @property
    def detail_lines(self) -> Tuple[str, ...]:
        """The detail, a part a line (the hover's list, the LSP's related information, `--verbose`)."""
        return _brief(self)[1]

    def __str__(self) -> str:
        return self.message


def said(what: Text, consequence: Text = "", *advice: str, context: str = "", lines: Sequence[int] = ()) -> Said:
    """A finding's words: `said("duplicate key", "the runtime keeps the last one", "remove one")`; `lines`: the
    other lines of the same file they name ("the profiling config (line 13)")."""
    return Said(what, consequence, advice=tuple(a for a in advice if a), context=context, lines=tuple(lines))


def plain(message: "str | Said") -> Said:
    """A message a rule wrote as one sentence (no consequence or advice of its own) as a Said."""
    return message if isinstance(message, Said) else Said(message)


# ---- as JSON (the cache keeps a finding's fields, so a cached finding shows the same sentence)

def _text_json(text: Text):
    return text if isinstance(text, str) else [p if isinstance(p, str) else list(p) for p in text.parts]


def _text_from(value) -> Text:
    if isinstance(value, str):
        return value
    return Clause(tuple(p if isinstance(p, str) else Part(*map(str, p)) for p in value))


def to_json(s: Said) -> list:
    return [_text_json(s.what), _text_json(s.consequence),
            [[r.versions, _text_json(r.text), r.builds] for r in s.runtime],
            list(s.advice), s.context, s.default_of, [list(c) for c in s.conditions], list(s.lines), list(s.fails_on)]


def from_json(row) -> Said:
    what, consequence, runtime, advice, context, default_of, conditions, lines, fails_on = row
    return Said(_text_from(what), _text_from(consequence),
                tuple(Runtime(str(v), _text_from(t), str(b)) for v, t, b in runtime),
                tuple(map(str, advice)), str(context), str(default_of),
                tuple(Condition(str(k), str(t), str(s), int(n)) for k, t, s, n in conditions),
                tuple(map(int, lines)), tuple(map(str, fails_on)))


@lru_cache(maxsize=4096)
def _brief(s: Said) -> Tuple[str, Tuple[str, ...]]:
    """(short sentence, the detail's lines)."""
    message = s.message
    if len(message) <= LONG:
        return message, ()
    what = str(s.what)
    # the problem (with versions) or the problem and its consequence, as the short sentence shows them
    brief: Callable[[int], str] = lambda keep: _render(s.what, keep=keep)
    parts: List[str] = []
    if s.runtime:
        head, parts = what, s._lines()
    else:
        what = head = s._head()
        brief = s._head             # the sentence never quotes a log line
    tail = list(s.advice)
    context = s.context
    if context and not tail:                # an aside of a one-clause message stays in it
        head, what, context = f"{head} {context}", (f"{what} {context}" if what == head else what), ""
        if not s.runtime:
            # kept while it is short, as an aside (a context is one: "(passed to train.py at line 3, ...)")
            brief = _with_context(brief, s.context)
    # a value that holds only when a flag is left out says so in the sentence too, not only in the detail
    # (after a condition the sentence has one already, and would grow too long with a second)
    default = s.default_of if not s.conditions and context else ""
    lead = "".join(c.shown + ": " for c in s.conditions) + (f"without {default}: " if default else "")
    short = _short(lead, s, brief)
    detail: List[str] = [c.text for c in s.conditions if c.text != c.shown]
    if what and what not in short:
        detail.append(what)
    elif not parts and head not in short:
        detail.append(head)
    detail += [p for p in parts if p not in short]
    detail += tail                  # the advice and what else the message says, a clause a line
    if context:
        detail.append(context)
    return short, tuple(detail)


def _with_context(brief: Callable[[int], str], context: str) -> Callable[[int], str]:
    def with_it(keep: int) -> str:
        return brief(keep) + _render(Clause((Part("aside", " " + context),)), keep=keep)
    return with_it


def _short(lead: str, s: Said, brief: Callable[[int], str]) -> str:
    """The problem and its consequence, each step shorter than the one before, until it fits (`brief`: the
    problem and its consequence without log lines, or with versions, the problem, keeping asides up to a length)."""
    runtime, future = s.runtime, s.future
    if runtime:
        texts = [r.text for r in runtime]
        outcome = _outcome(runtime, texts, future)
        tries = [lambda keep: f"{brief(keep)}: {outcome}"]
        if outcome != DEPENDS:
            # what only some builds do never reads as what every build does
            some = "on some builds, " if any(r.builds for r in runtime) else ""
            tries.append(lambda keep: f"{brief(keep)}: {some}{_ending(texts[0], future)}")
    else:
        tries = [brief,
                 lambda keep: _problem_and_outcome(_render(s.what, keep=keep), s.consequence, future, keep,
                                                   brief(keep))]
    short = ""
    for keep in (30, 12):
        for make in tries:
            short = lead + make(keep)
            if len(short) <= LONG:
                return short
    return short


def _ending(text: Text, future: bool, keep: int = 30) -> str:
    """The outcome a consequence ends in (`so(...)`), with what follows it; the whole consequence when it names
    none."""
    if isinstance(text, Clause):
        ends = [i for i, p in enumerate(text.parts) if isinstance(p, Part) and p.kind == "so"]
        if ends:
            last = text.parts[ends[-1]]
            assert isinstance(last, Part)
            rest = Clause((last.later if future and last.later else last.text,) + text.parts[ends[-1] + 1:])
            return _render(rest, future, keep)
    return _render(text, future, keep)


def _problem_and_outcome(problem: str, consequence: Text, future: bool, keep: int, head: str) -> str:
    """`<problem>: <how it goes>, so <outcome>` as `<problem>: <outcome>` (the consequence's `so(...)`); a label
    ("analysis budget exhausted") names no problem on its own, and a consequence without an outcome has nothing
    shorter: the sentence stays."""
    if len(problem) < 30 or not outcome(consequence):
        return head
    return f"{problem}: {_ending(consequence, future, keep)}"


def _outcome(runtime: Tuple[Runtime, ...], texts: List[Text], future: bool) -> str:
    """What the versions' runtimes do, in one clause: their common outcome when they share it, else that it
    depends on the version (no version's outcome stands for the others)."""
    lasts = [_ending(t, future) for t in texts]
    if len(set(lasts)) == 1:
        if len(runtime) == 1:
            return f"{runtime[0].scope}, {lasts[0]}"
        return f"on some builds, {lasts[0]}" if any(r.builds for r in runtime) else lasts[0]
    return DEPENDS          # the sentence says only what every version shares; the detail says each


_PAIRS = {")": "(", "]": "["}


def _paired(text: str) -> bool:
    """Every double quote closed, and every bracket outside quotes (a `'"'` is a character named, not a quote;
    a `\\"` inside quotes is a quote of the value shown, as JSON writes it)."""
    text = text.replace("'\"'", "").replace("'('", "").replace("')'", "").replace("'['", "").replace("']'", "")
    stack: List[str] = []
    quoted = escaped = False
    for c in text:
        if quoted and (escaped or c == "\\"):
            escaped = not escaped
            continue
        if c == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif c in "([":
            stack.append(c)
        elif c in ")]":
            if not stack or stack.pop() != _PAIRS[c]:
                return False
    return not stack and not quoted


def balanced(text: str) -> bool:
    """Whether a sentence closes every quote and bracket it opens (tests hold every short sentence to it)."""
    return _paired(text)

