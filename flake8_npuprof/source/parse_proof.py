"""Whether a large file parses, proven with a fraction of the memory of parsing it whole (NPP192's check).

A file with no profiling marker is only asked whether it parses (checks/analysis.syntax_check), and the symbol
table that answers builds the file's whole syntax tree first: about 80 bytes a character of code (a 153 KB test
module of the model zoo took 12.6 MB, the largest step of a check over its 16,218 files) and 47 of a data
literal (glove_MIT.py, 2.28 MB of word vectors written as `name = {u'word': [0.1, ...], ...}`: 107 MB). Two
proofs answer with far less; whenever one does not go through, the caller parses the whole text as before, so
a file that does not parse gets the parser's own NPP192. A file this module passes is one ast.parse accepts.

Pieces (`_in_pieces`). The text is cut at lines that start a statement at the left margin, into pieces of at
least PIECE characters, and each piece must pass the symbol table on its own (which accepts less than ast.parse:
a duplicate parameter, `nonlocal` at module level). A piece that parses alone ends outside any string and
bracket, at no indentation, after a whole statement: the tokenizer, reading the same characters from the same
state, is in that state at the cut in the whole text too, so the whole text's tokens are the pieces' tokens
one after the other (the DEDENTs a piece ends with come from the next one's first line). The grammar's
`statements` is a run of statements, and no statement reads past its own end except to look for `elif`, `else`,
`except` or `finally`, which cannot start a piece that parses alone. So the whole text parses. A cut that
falls inside a string (a docstring's line at the margin) makes the piece fail: it is grown to the next cut.

Data literals (`_literals`), for a statement too long to cut:
1. A module-level statement `target = <display>` whose display (a list, tuple, dict or set of numbers and plain
   strings, `_value_end`) is at least MIN_SPAN characters long is read by a recogniser that accepts only text
   Python's tokenizer splits the same way and its grammar accepts as an atom: decimal numbers with an optional
   attached sign, one-line strings with no prefix but `u` and only the escapes of a backslash, a quote, n, t or
   r, no empty string (`'''` would open a triple-quoted one), no comment, no backslash line joining, no control
   character or surrogate, at most MAX_DEPTH brackets deep, each number or string followed by a delimiter. The
   displays must be at least half the text (the rest is parsed).
2. Each such display is replaced by a placeholder with the same line breaks, `{` and `0}` around them (a set
   display), and that text is parsed; it holds no large literal any more.
3. Its tree must hold each placeholder as the whole value of a module-level assignment, at the very position
   of the display. The text before the display is the same, so the tokenizer was in code there, at no
   bracket depth; the display and the placeholder are both one `atom`, and the assignment ends after it
   (NEWLINE or `;`), so the original file is the placeholder's with one atom changed for another: it parses.
"""

from __future__ import annotations

import ast
import re
from typing import List, Optional, Tuple

MIN_TEXT = 64 * 1024            # files smaller than this are parsed as they are
PIECE = 16 * 1024               # characters a piece holds at least (its symbol table: about 1.3 MB)
MAX_GROWN = 4                   # cuts a failing piece is grown past before the whole text is left to the parser
MIN_SPAN = 16 * 1024            # displays shorter than this are left in the text
# The displays replaced must be at least half the text: the placeholder is parsed with ast.parse, which takes
# about 1.3x the symbol table's memory (and CPU) for the same text.
MAX_DEPTH = 16                  # brackets in brackets (the tokenizer refuses 200, the parser's stack far less)
MAX_NUMBER = 64                 # characters of a number (3.11 refuses an int literal of more than 4,300 digits)

# `name = [` / `a = b = {` at the start of a line (whether that line is a module-level statement is step 3's)
_STATEMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*[ ]*=[ ]*(?:[A-Za-z_][A-Za-z0-9_]*[ ]*=[ ]*)*(?=[\[({])", re.M)
_SPACE = re.compile(r"[ \r\n]*")
_NUMBER = re.compile(r"[-+]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
# a run of numbers each followed by a comma (the bulk of a vector, matched in one call)
_NUMBERS = re.compile(r"(?:[ \r\n]*[-+]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?[ \r\n]*,)*")
# a one-line string with no escape but _ESCAPES and no control character or surrogate; no prefix but u/U
_STRING = re.compile(r"""[uU]?(?:'(?:[^'\\\x00-\x1f\ud800-\udfff]|\\[\\'"ntr])+'"""
                     r'''|"(?:[^"\\\x00-\x1f\ud800-\udfff]|\\[\\'"ntr])+")''')
_AFTER = frozenset(" \r\n,:)]}")       # what may follow a number or a string
_OPEN = {"[": "]", "(": ")", "{": "}"}
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


# A line that starts a statement at the left margin (not a comment, a closing bracket, a string or a clause
# that continues the statement before it), after a line that is not a decorator.
_CUT = re.compile(r"(?<![^\n])(?!(?:else|elif|except|finally)\b)[A-Za-z_]")


def parses(text: str) -> bool:
    """True when text is proven to parse (ast.parse would return a tree); False: not proven, parse it."""
    if len(text) < MIN_TEXT:
        return False
    spans = _displays(text)
    if sum(e - s for s, e in spans) * 2 < len(text):
        return _in_pieces(text)
    return _literals(text, spans)


def _in_pieces(text: str) -> bool:
    """Whether every piece passes the symbol table on its own (see above)."""
    import symtable
    start, n = 0, len(text)
    while start < n:
        end, grown = start, 0
        while True:
            m = _CUT.search(text, max(end, start + PIECE) + 1) if n - start > 2 * PIECE else None
            end = m.start() if m is not None else n
            if end < n and text.startswith("@", text.rfind("\n", start, end - 1) + 1):
                continue                            # a decorator's line, then the cut: the next cut
            try:
                symtable.symtable(text[start:end], "<piece>", "exec")
                break
            except Exception:                       # SyntaxError, ValueError (null bytes), RecursionError, ...
                grown += 1
                if end == n or grown > MAX_GROWN:
                    return False
        start = end
    return True


def _literals(text: str, spans: List[Tuple[int, int]]) -> bool:
    pieces: List[str] = []
    places = []                             # each placeholder's (start, end) in the text parsed
    start = size = 0
    for s, e in spans:                      # the same line breaks, so the same lines after it
        breaks = "".join(m.group() for m in _LINE_BREAK.finditer(text, s + 1, e - 1))
        pieces += [text[start:s], "{" + breaks + "0}"]
        size += s - start
        places.append((size, size + len(pieces[-1])))
        size += len(pieces[-1])
        start = e
    pieces.append(text[start:])
    placeholder = "".join(pieces)
    del pieces
    try:
        tree = ast.parse(placeholder)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    found = {(v.lineno, v.col_offset, v.end_lineno, v.end_col_offset)
             for v in (stmt.value for stmt in tree.body if isinstance(stmt, ast.Assign))
             if isinstance(v, ast.Set) and len(v.elts) == 1 and isinstance(v.elts[0], ast.Constant)
             and type(v.elts[0].value) is int and v.elts[0].value == 0}
    return all(_position(placeholder, s) + _position(placeholder, e) in found for s, e in places)


def _position(text: str, at: int) -> Tuple[int, int]:
    """(line, column in UTF-8 bytes) of text[at], as ast counts them (CR LF, CR and LF each end a line)."""
    line = text.count("\n", 0, at) + text.count("\r", 0, at) - text.count("\r\n", 0, at) + 1
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    return line, len(text[start:at].encode("utf-8", "surrogatepass"))


def _displays(text: str) -> List[Tuple[int, int]]:
    """(start, end) of each display long enough to be worth replacing that the recogniser accepts."""
    spans: List[Tuple[int, int]] = []
    at = 0
    while True:
        m = _STATEMENT.search(text, at)
        if m is None:
            return spans
        s = m.end()
        e = _value_end(text, s)
        if e is not None and e - s >= MIN_SPAN:
            spans.append((s, e))
            at = e
        else:
            at = s


def _past(pattern: "re.Pattern[str]", text: str, at: int) -> int:
    """Where what pattern matches at `at` ends (it matches the empty string too)."""
    m = pattern.match(text, at)
    return m.end() if m is not None else at


def _value_end(text: str, at: int) -> Optional[int]:
    """The end of the display opened at text[at] when the recogniser accepts it whole, else None."""
    stack: List[list] = []      # [closer, kind]: kind "[", "(", "set", "{" (a set or a dict: not known yet),
    #                             "key" or "value" (a dict, the part read last)
    value, can_close = True, False          # a value is next (or a closer, when can_close)
    n = len(text)
    while True:
        if value:
            if can_close and stack[-1][0] in "])":
                at = _past(_NUMBERS, text, at)      # the bulk of a vector in one call
            at = _past(_SPACE, text, at)
            if at >= n:
                return None
            c = text[at]
            if c in _OPEN:
                if len(stack) >= MAX_DEPTH:
                    return None
                stack.append([_OPEN[c], c])
                at += 1
                can_close = True            # `[]`, `()`, `{}`
                continue
            if can_close and c == stack[-1][0]:
                at += 1
                stack.pop()
                if not stack:
                    return at
                value = False
                continue
            if c in "-+0123456789":
                m = _NUMBER.match(text, at)
                if m is not None and m.end() - at > MAX_NUMBER:
                    return None
            else:
                m = _STRING.match(text, at)
            if m is None or m.end() >= n or text[m.end()] not in _AFTER:
                return None
            at = m.end()
            value = False
            continue
        at = _past(_SPACE, text, at)     # after a value: a comma, a colon or the closer
        if at >= n:
            return None
        c = text[at]
        top = stack[-1]
        at += 1
        if c == "," and top[1] != "key":
            top[1] = {"{": "set", "value": "key"}.get(top[1], top[1])
            value, can_close = True, True
        elif c == ":" and top[1] in ("{", "key"):
            top[1] = "value"
            value, can_close = True, False
        elif c == top[0] and top[1] != "key":
            stack.pop()
            if not stack:
                return at
        else:
            return None
