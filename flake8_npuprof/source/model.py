"""What flows between the pipeline stages: findings, fixes and text edits."""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, NamedTuple, Optional, Tuple


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
    message: str
    start: int                  # absolute character offset in the file
    end: int
    line: int                   # 1-based
    col: int                    # 0-based, in characters
    end_line: int
    end_col: int
    fix: Optional[Fix] = None

    def sort_key(self):
        return (self.line, self.col, self.code, self.message)

    # The message is what the rule says in full; front-ends show the short sentence (the problem and its
    # consequence) and keep the rest one step away (source/brief.py). Derived, so the cache, `fix`'s
    # matching and every caller of the analysis keep the one complete text.
    @property
    def short(self) -> str:
        from .brief import split
        return split(self.message)[0]

    @property
    def detail(self) -> str:
        """The log lines, per-version consequences, advice and context the short sentence leaves out."""
        from .brief import split
        return split(self.message)[1]


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
    message: str
    fix: Optional[TextFix] = None
    key: str = ""               # the JSON key it is about ("" for the whole string)
    partial: bool = False       # only some builds of the target version do what the message says
    # what the runtime does on the target: "abort" (GE initialisation fails), "env" (it fails unless
    # an environment variable is set), "logged" (accepted, a line is logged, the setting is changed or
    # ignored), "silent" (the same without a word), "guidance" (nothing fails), "" (not stated)
    effect: str = ""
