"""What flows between the pipeline stages: findings, fixes and text edits."""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple


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
