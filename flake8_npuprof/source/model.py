"""What flows between the pipeline stages: findings, fixes and text edits."""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, NamedTuple, Optional, Tuple, Union

from .said import Condition, Said, plain


@lru_cache(maxsize=None)
def _unsafe_code_points() -> Dict[int, str]:
    """Code points a message never shows raw: C0/C1 controls and DEL (NUL, escape sequences, line
    breaks that would split a one-line finding), lone surrogates (no encoding writes them), and the
    bidirectional controls that make a terminal or a code review show text in another order."""
    points = [*range(0x20), *range(0x7F, 0xA0), *range(0xD800, 0xE000),
              0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
    return {cp: f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" for cp in points}


def printable(text: str) -> str:
    """`text` with every unsafe code point written as a Python-style escape (`\\x00`, `\\ud800`,
    `\\u202e`): the one helper for user text in messages, fix titles and paths shown."""
    # the table (2,000-odd entries) is built on the first text that needs it, not at every start-up
    return text if text.isprintable() else text.translate(_unsafe_code_points())


class Edit(NamedTuple):
    """Replace text[start:end] (absolute character offsets) with `text`."""

    start: int
    end: int
    text: str


class Fix(NamedTuple):
    edits: Tuple[Edit, ...]
    safe: bool
    title: str


class Finding(NamedTuple):
    code: str
    message: str                # the one complete text (the cache, `fix`'s matching); `said.message` when said
    start: int                  # absolute character offset in the file
    end: int
    line: int                   # 1-based
    col: int                    # 0-based, in characters
    end_line: int
    end_col: int
    fix: Optional[Fix] = None
    said: Optional[Said] = None     # the fields the message renders (source/said.py); None: one plain sentence

    def sort_key(self):
        return (self.line, self.col, self.code, self.message)

    # Front-ends show the short sentence (the problem and its consequence) and keep the rest one step away:
    # renderings of the finding's fields, never a cut of its message
    @property
    def words(self) -> Said:
        return self.said if self.said is not None else plain(self.message)

    @property
    def short(self) -> str:
        return self.words.short

    @property
    def detail(self) -> str:
        """The log lines, per-version consequences, advice and context the short sentence leaves out."""
        return self.words.detail

    @property
    def detail_lines(self) -> Tuple[str, ...]:
        return self.words.detail_lines

    @property
    def lines_named(self) -> Tuple[int, ...]:
        """The other lines of its own file the finding names (SARIF `relatedLocations`, the LSP)."""
        return self.words.lines_named

    def given(self, *conditions: Condition) -> "Finding":
        """The finding under further conditions (outermost first), its message rendered again from its fields."""
        words = self.words.given(*conditions)
        return self._replace(message=words.message, said=words)


def finding(code: str, words: Union[str, Said], start: int, end: int, line: int, col: int, end_line: int,
            end_col: int, fix: Optional[Fix] = None) -> Finding:
    """A finding whose message is the rendering of its words, every text of them shown printable."""
    said = plain(words).mapped(printable)
    return Finding(code, said.message, start, end, line, col, end_line, end_col, fix,
                   None if said == Said(said.what) and isinstance(said.what, str) else said)


class TextFix(NamedTuple):
    """A fix expressed on an options string: replace value[i:j] by text (decoded chars)."""

    edits: Tuple[Tuple[int, int, str], ...]
    safe: bool
    title: str


class Issue(NamedTuple):
    """A finding inside an options string, placed by indexes into that string."""

    code: str
    i: int
    j: int
    said: Union[str, Said]      # what it says (source/said.py; a str: one plain sentence)
    fix: Optional[TextFix] = None
    key: str = ""               # the JSON key it is about ("" for the whole string)
    partial: bool = False       # only some builds of the target version do what the message says
    # what the runtime does on the target: "abort" (GE initialisation fails), "env" (it fails unless
    # an environment variable is set), "logged" (accepted, a line is logged, the setting is changed or
    # ignored), "silent" (the same without a word), "guidance" (nothing fails), "" (not stated)
    effect: str = ""
    # the options judge's verdict that profiling stops over it on a version it names, whatever `effect` says of
    # the others (emulate's failures come from these; a message is not searched for it)
    stopping: bool = False
    # facts of what the runtime says, for emulate's copy of its words (Problem.facts, merged over the versions)
    facts: Tuple[Tuple[str, str], ...] = ()

    @property
    def stops(self) -> bool:
        """Profiling stops over it on some version it names: GE initialisation fails, or the collector's init."""
        return self.stopping or self.effect in ("abort", "env")

    @property
    def words(self) -> Said:
        return plain(self.said)

    @property
    def message(self) -> str:
        return self.words.message
