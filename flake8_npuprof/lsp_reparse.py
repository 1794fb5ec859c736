"""The language server's parse of an edited document: what the edit did not touch is not parsed again.

The document is cut into segments, one per top-level statement (its decorators, and the comments and
blank lines after it, included; statements sharing a line share a segment). An edit changes the text
between a common head and a common tail; only the segments it touches are parsed again, as one chunk
placed at its line by blank lines in front, and the tree is the old segments' statements around the
new ones. When the edit adds or removes lines, everything from the chunk on is parsed again (the
statements after it would start on other lines).

Why this is the parse Python would make of the whole text: a segment starts at the start of a line
holding a top-level statement, where the tokenizer is at the top level (no bracket, string or
continuation open) whatever follows; the chunk's text is the new text between two such places,
and it parses on its own only when it ends at the top level too. Whatever does not parse on its
own, and a chunk with a `__future__` import (it must come first in the file, which only the whole
file shows), falls back to parsing the whole text. tests/test_lsp_reparse.py compares the trees,
positions included, over random edits.
"""

from __future__ import annotations

import ast
import threading
from collections import OrderedDict
from typing import Dict, List, NamedTuple, Optional, Tuple

from .source.site_reuse import Walks
from .source.text import SourceText


class Segment(NamedTuple):
    start: int                  # character offsets in the text it was parsed from
    end: int
    line: int                   # its first line
    stmts: Tuple[ast.stmt, ...]


class Parsed(NamedTuple):
    text: str
    segments: Tuple[Segment, ...]


_MAX_DOCUMENTS = 8              # the documents being edited; each keeps its tree (a few MB for 1,500 lines)
_lock = threading.Lock()
_last: "OrderedDict[str, Parsed]" = OrderedDict()
_walks: Dict[str, Walks] = {}     # the sites walks of each document's statements, kept for its next analysis


def parse(key: str, text: str) -> Optional[ast.Module]:
    """The tree of text, reusing the statements of the last text parsed under key; None when it does not
    parse (the analysis then parses it itself, and says what a file that does not parse gets)."""
    with _lock:
        old = _last.get(key)
    parsed = None
    if old is not None:
        parsed = old if old.text == text else _reparse(old, text)
    if parsed is None:
        parsed = _parse_whole(text)
    with _lock:
        _last.pop(key, None)
        if parsed is None:
            _walks.pop(key, None)
            return None
        _last[key] = parsed
        while len(_last) > _MAX_DOCUMENTS:
            _walks.pop(_last.popitem(last=False)[0], None)      # the least recently edited
    return ast.Module(body=[s for seg in parsed.segments for s in seg.stmts], type_ignores=[])


def walks(key: str) -> Optional[Walks]:
    """The kept sites walks of the statements of the document last parsed under key (source/site_reuse.py),
    for the analysis of the tree parse gave; None when it did not parse."""
    with _lock:
        if key not in _last:
            return None
        found = _walks.get(key)
        if found is None:
            found = _walks[key] = Walks()
        return found


def forget(key: str) -> None:
    with _lock:
        _last.pop(key, None)
        _walks.pop(key, None)


def _parse_whole(text: str) -> Optional[Parsed]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return Parsed(text, _segments(tree.body, SourceText(text), 0, len(text)))


def _segments(stmts, src: SourceText, start: int, end: int) -> Tuple[Segment, ...]:
    """Segments of consecutive top-level statements covering text[start:end] (start: a line start)."""
    groups: List[List[ast.stmt]] = []
    last_line = 0
    for stmt in stmts:
        first = _first_line(stmt)
        if groups and first <= last_line:
            groups[-1].append(stmt)                 # `a = 1; b = 2`: one line, one segment
        else:
            groups.append([stmt])
        last_line = max(last_line, stmt.end_lineno or stmt.lineno)
    out = []
    for k, group in enumerate(groups):
        a = start if k == 0 else src.line_starts[_first_line(group[0]) - 1]
        b = src.line_starts[_first_line(groups[k + 1][0]) - 1] if k + 1 < len(groups) else end
        out.append(Segment(a, b, src.position(a)[0], tuple(group)))
    return tuple(out)


def _first_line(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None)
    return min([stmt.lineno] + [d.lineno for d in decorators]) if decorators else stmt.lineno


def _reparse(old: Parsed, text: str) -> Optional[Parsed]:
    a, b = old.text, text
    if not old.segments:
        return None
    head = _common_head(a, b)
    tail = _common_tail(a, b, head)
    grow = len(b) - len(a)
    segs = old.segments
    src = SourceText(b)
    # the segments the edit touches, and their neighbours on either side of it: an insertion at a
    # segment's first character may join it to the line before
    lo, hi = max(head - 1, 0), len(a) - tail + 1
    first = next((k for k, s in enumerate(segs) if s.end > lo), len(segs) - 1)
    last = max(first, next((k for k in range(len(segs) - 1, -1, -1) if segs[k].start < hi), first))
    if last + 1 < len(segs) and src.position(segs[last + 1].start + grow)[0] != segs[last + 1].line:
        last = len(segs) - 1                    # lines added or removed: the rest starts on other lines
    start = segs[first].start
    end = len(b) if last + 1 == len(segs) else segs[last].end + grow
    if end < start:
        return None
    chunk = b[start:end]
    if "__future__" in chunk:
        return None
    line = src.position(start)[0]
    try:
        tree = ast.parse("\n" * (line - 1) + chunk)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not tree.body and (first > 0 or last + 1 < len(segs)):
        return None                             # no statement to hold the chunk's text: parse it all
    middle = _segments(tree.body, src, start, end) if tree.body else ()
    if middle and middle[0].start != start:     # text before the chunk's first statement: keep it in
        middle = (middle[0]._replace(start=start),) + middle[1:]
    after = tuple(s._replace(start=s.start + grow, end=s.end + grow) for s in segs[last + 1:])
    return Parsed(b, segs[:first] + middle + after)


def _common_head(a: str, b: str) -> int:
    n = min(len(a), len(b))
    lo, hi = 0, n
    while lo < hi:                              # the longest common prefix, compared in halves
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_tail(a: str, b: str, head: int) -> int:
    n = min(len(a), len(b)) - head
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[len(a) - mid:len(a) - lo] == b[len(b) - mid:len(b) - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo
