"""Source text, positions and string literals decoded with a map back to the source.

Everything we report is placed in *characters* (ast counts UTF-8 bytes), and every value
read from a literal keeps, for each decoded character, the source range it came from, so a
finding can point at the key inside the options string and a fix can edit just that piece.
"""

from __future__ import annotations

import ast
import bisect
import re
from functools import cached_property
from itertools import accumulate
from typing import List, NamedTuple, Optional, Protocol, Tuple, Union

# A character standing in for an unknown piece of a computed string (a "hole").
HOLE = "\ue000"

# (start, end, note): where the characters text[start:end] of a StrValue came from
Note = Tuple[int, int, str]


class Located(Protocol):
    """An ast node with a place in the source (expressions, statements, keywords, arguments)."""
    lineno: int
    col_offset: int


class SourceText:
    """The file's text with line tables; offsets are absolute character indexes."""

    _lines: Optional[List[str]] = None      # (a subclass that keeps its text otherwise has no lines: commands/check)

    def __init__(self, text: str, lines: Optional[List[str]] = None):
        """lines: the text split after line ends, as flake8 gives them (or None): what line_starts is made from."""
        self.text = text
        self._lines = lines

    @cached_property
    def lf_lines(self) -> Optional[List[str]]:
        """The lines the text was given split into, when they are its pieces between LFs (the text has no CR):
        flake8's lines, which joined are the text, split after each line end. As many as the text has pieces
        between LFs, so split after the LFs alone (not also at a form feed, as str.splitlines does). Else None."""
        text, lines = self.text, self._lines
        if lines is None or "\r" in text or len(lines) != text.count("\n") + (not text.endswith("\n")):
            return None
        return lines

    @cached_property
    def line_starts(self) -> List[int]:
        """The offset each line starts at: worked out when first asked (most analysed files report
        nothing and never ask), then a plain attribute."""
        text = self.text
        lines = self.lf_lines
        if lines is not None:           # (then the text holds no CR: not looked for again)
            # their lengths add up without a string made per line, the bulk of the split below: it took the
            # plugin about 6 M instructions on 40 setup files
            starts = list(accumulate(map(len, lines), initial=0))
            if not text.endswith("\n"):
                starts.pop()
            return starts
        if "\r" in text:
            starts = [0]
            for m in re.finditer(r"\r\n|\r|\n", text):
                starts.append(m.end())
            return starts
        # LF only, nearly every file: a third of the time of the loop above
        return list(accumulate([len(line) + 1 for line in text.split("\n")[:-1]], initial=0))

    def line_text(self, lineno: int) -> str:
        i = lineno - 1
        if i < 0 or i >= len(self.line_starts):
            return ""
        start = self.line_starts[i]
        end = self.line_starts[i + 1] if i + 1 < len(self.line_starts) else len(self.text)
        return self.text[start:end]

    def offset(self, lineno: int, byte_col: int) -> int:
        """Absolute character offset of an ast (lineno, UTF-8 byte column) position."""
        starts, text = self.line_starts, self.text     # (line_text inline: asked for every node's position)
        if 0 < lineno <= len(starts):
            base = starts[lineno - 1]
            line = text[base:starts[lineno] if lineno < len(starts) else len(text)]
        else:
            base, line = len(text), ""
        if line.isascii():
            return base + byte_col
        return base + len(line.encode("utf-8")[:byte_col].decode("utf-8", "replace"))

    def node_start(self, node: Located) -> int:
        return self.offset(node.lineno, node.col_offset)

    def node_end(self, node: Located) -> int:
        end_line = getattr(node, "end_lineno", None) or node.lineno
        end_col = getattr(node, "end_col_offset", None)
        if end_col is None:
            return self.node_start(node)
        return self.offset(end_line, end_col)

    def position(self, offset: int) -> Tuple[int, int]:
        """(1-based line, 0-based character column) of an absolute offset."""
        i = bisect.bisect_right(self.line_starts, offset) - 1
        return i + 1, offset - self.line_starts[i]


class Run(NamedTuple):
    """Decoded characters text[t:t+tlen] come from source[s:s+slen]."""

    t: int
    tlen: int
    s: int
    slen: int


# Run(...) without the namedtuple's own __new__, a Python frame per run (a literal's reading makes one per piece and
# escape): _new_tuple(Run, (t, tlen, s, slen))
_new_tuple = tuple.__new__


class Piece(NamedTuple):
    """One string literal token of a (possibly implicitly concatenated) string."""

    start: int        # offset of the prefix
    end: int          # offset after the closing quote
    prefix: str       # lower-cased prefix letters
    quote: str        # ', ", ''' or \"\"\"
    body_start: int
    body_end: int

    @property
    def raw(self) -> bool:
        return "r" in self.prefix

    @property
    def is_bytes(self) -> bool:
        return "b" in self.prefix

    @property
    def is_f(self) -> bool:
        return "f" in self.prefix


class StrValue:
    """A string (possibly computed) with a map from its characters back to the source.

    `holes` are character ranges whose content is unknown (each a single HOLE char in
    `text`); `runs` map decoded characters to source offsets (sorted by t).
    """

    __slots__ = ("text", "runs", "anchor", "anchor_end", "pieces", "is_bytes", "origin", "notes")

    def __init__(self, text: str, runs: List[Run], anchor: int, anchor_end: int,
                 pieces: Tuple[Piece, ...] = (), is_bytes: bool = False, origin: str = "literal",
                 notes: Tuple[Note, ...] = ()):
        self.text = text
        self.runs = runs
        self.anchor = anchor          # where to report when a character has no source
        self.anchor_end = anchor_end
        self.pieces = pieces
        self.is_bytes = is_bytes
        self.origin = origin          # "literal", or how it was computed
        self.notes = notes            # ((start, end, note), ...): where a text range came from

    def src(self, i: int) -> Optional[int]:
        """Source offset of decoded character i, or None when it has none."""
        run = self._run(i)
        if run is None:
            return None
        if run.tlen == run.slen:
            return run.s + (i - run.t)
        return run.s

    def src_end(self, i: int) -> Optional[int]:
        """Source offset just after decoded character i."""
        run = self._run(i)
        if run is None:
            return None
        if run.tlen == run.slen:
            return run.s + (i - run.t) + 1
        return run.s + run.slen

    def _run(self, i: int) -> Optional[Run]:
        runs = self.runs
        k = bisect.bisect_right(runs, (i, float("inf"))) - 1
        if k < 0:
            return None
        run = runs[k]
        if run.t <= i < run.t + run.tlen:
            return run
        return None

    def src_span(self, i: int, j: int) -> Optional[Tuple[int, int]]:
        """Source range of decoded text[i:j] when all of it lies in one literal piece."""
        if j <= i:
            a = self.src(i)
            return (a, a) if a is not None else None
        a, b = self.src(i), self.src_end(j - 1)
        if a is None or b is None or b < a:
            return None
        piece_a = self.piece_at(a)
        if piece_a is None or not (piece_a.body_start <= b <= piece_a.body_end):
            return None
        # every character in between must come from the source in between, in order
        k = bisect.bisect_right(self.runs, (i, float("inf"))) - 1
        s_expect: Optional[int]
        t_expect, s_expect = i, a
        while t_expect < j:
            if k >= len(self.runs):
                return None
            run = self.runs[k]
            if not (run.t <= t_expect < run.t + run.tlen):
                return None
            start = self.src(t_expect)
            if start != s_expect:
                return None
            end_t = min(run.t + run.tlen, j)
            s_expect = self.src_end(end_t - 1)
            t_expect = end_t
            k += 1
        return a, b

    def notes_in(self, i: int, j: int) -> List[str]:
        """Notes on where the characters text[i:j] came from."""
        out = []
        for a, b, note in self.notes:
            if a < max(j, i + 1) and i < b and note not in out:
                out.append(note)
        return out

    def piece_at(self, offset: int) -> Optional[Piece]:
        for piece in self.pieces:
            if piece.body_start <= offset <= piece.body_end:
                return piece
        return None


# ---------------------------------------------------------------- scanning literals

_PREFIX = re.compile(r"[rRbBuUfF]{0,2}(?='|\")")
_ESCAPE = re.compile(
    r"\\(\r\n|\n|\r|\\|'|\"|a|b|f|n|r|t|v|[0-7]{1,3}|x[0-9a-fA-F]{2}|N\{[^}\n]{0,100}\}|u[0-9a-fA-F]{4}"
    r"|U[0-9a-fA-F]{8})")
_SIMPLE = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
           "t": "\t", "v": "\v"}


class LiteralError(Exception):
    """The text at the node's range is not a sequence of literals we can read."""


def scan_pieces(text: str, start: int, end: int) -> List[Piece]:
    """The string tokens between start and end (implicit concatenation), in order."""
    pieces = []
    i = start
    n = len(text)
    while i < end:
        c = text[i]
        if c in " \t\f\r\n":
            i += 1
            continue
        if c == "\\" and text.startswith(("\\\n", "\\\r"), i):
            i += 2
            continue
        if c == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        m = _PREFIX.match(text, i)
        if not m:
            raise LiteralError(f"unexpected {c!r} at {i}")
        prefix = m.group(0).lower()
        q = m.end()
        quote = text[q:q + 3] if text[q:q + 3] in ("'''", '"""') else text[q]
        body_start = q + len(quote)
        body_end = _find_close(text, body_start, quote, "f" in prefix)
        pieces.append(Piece(i, body_end + len(quote), prefix, quote, body_start, body_end))
        i = body_end + len(quote)
    return pieces


# What ends the scan of a string body that is not an f-string: a backslash (it skips the next character), the
# closing quote, and a line end in a one-quote string (unterminated)
_STOPS = {q: re.compile(r"\\|" + re.escape(q) + (r"|[\r\n]" if len(q) == 1 else "")) for q in ("'", '"', "'''", '"""')}


def _find_close(text: str, i: int, quote: str, fmt: bool) -> int:
    if not fmt:                         # (the loop below, one search per backslash)
        search = _STOPS[quote].search
        while True:
            m = search(text, i)
            if m is None:
                raise LiteralError("unterminated string")
            at = m.start()
            c = text[at]
            if c == "\\":
                i = at + (3 if text.startswith("\\\r\n", at) else 2)     # a continuation may end in CRLF
                continue
            if c in "\r\n":
                raise LiteralError("unterminated string")
            return at
    n = len(text)
    depth = 0
    while i < n:
        c = text[i]
        if c == "\\":
            i += 3 if text.startswith("\\\r\n", i) else 2     # a continuation may end in CRLF
            continue
        if fmt:
            if c == "{":
                if depth == 0 and text.startswith("{{", i):
                    i += 2
                    continue
                depth += 1
                i += 1
                continue
            if c == "}":
                if depth == 0 and text.startswith("}}", i):
                    i += 2
                    continue
                depth = max(0, depth - 1)
                i += 1
                continue
            if depth and c in "'\"":
                # a string inside a replacement field (3.12 allows the same quote)
                inner_q = text[i:i + 3] if text[i:i + 3] in ("'''", '"""') else c
                close = _find_close(text, i + len(inner_q), inner_q, False)
                i = close + len(inner_q)
                continue
        if depth == 0 and text.startswith(quote, i):
            return i
        if len(quote) == 1 and c in "\r\n" and depth == 0:
            raise LiteralError("unterminated string")
        i += 1
    raise LiteralError("unterminated string")


class FieldSlot(NamedTuple):
    """A replacement field `{...}` of an f-string, by position in the decoded text."""

    t: int          # index in the decoded text where its value goes
    start: int      # source offset of "{"
    end: int        # source offset after "}"


def decode_piece(text: str, piece: Piece, t0: int = 0):
    """Decode one literal: (decoded text, runs, f-string field slots)."""
    out: List[str] = []
    runs: List[Run] = []
    slots: List[FieldSlot] = []
    t = t0
    i = piece.body_start
    end = piece.body_end
    triple = len(piece.quote) == 3

    def literal(a: int, b: int):
        nonlocal t
        if a >= b:
            return
        chunk = text[a:b]
        if triple and "\r" in chunk:
            # the tokenizer turns \r\n and \r in triple-quoted strings into \n
            k = a
            for m in re.finditer(r"\r\n?", chunk):
                literal_plain(k, a + m.start())
                out.append("\n")
                runs.append(_new_tuple(Run, (t, 1, a + m.start(), len(m.group(0)))))
                t += 1
                k = a + m.end()
            literal_plain(k, b)
            return
        literal_plain(a, b)

    def literal_plain(a: int, b: int):
        nonlocal t
        if a >= b:
            return
        out.append(text[a:b])
        runs.append(_new_tuple(Run, (t, b - a, a, b - a)))
        t += b - a

    def escaped(a: int, b: int):
        nonlocal t
        if piece.raw:
            literal(a, b)
            return
        k = a
        for m in _ESCAPE.finditer(text, a, b):
            literal(k, m.start())
            body = m.group(1)
            ch = _unescape(body, piece.is_bytes)
            if ch is None:                        # not an escape in this kind of literal
                literal(m.start(), m.end())
            elif ch:
                out.append(ch)
                runs.append(_new_tuple(Run, (t, len(ch), m.start(), m.end() - m.start())))
                t += len(ch)
            k = m.end()
        literal(k, b)

    if not piece.is_f:
        escaped(i, end)
        return "".join(out), runs, slots
    k = i
    while i < end:
        c = text[i]
        if c == "\\" and not piece.raw:
            if text.startswith("\\N{", i):          # a named escape, not a field
                close = text.find("}", i)
                i = close + 1 if 0 <= close < end else i + 2
            else:
                i += 2
            continue
        if c in "{}" and text.startswith(c * 2, i):
            escaped(k, i)
            out.append(c)
            runs.append(_new_tuple(Run, (t, 1, i, 2)))
            t += 1
            i += 2
            k = i
            continue
        if c == "{":
            escaped(k, i)
            close = _field_end(text, i + 1, end)
            slots.append(FieldSlot(t, i, close))
            i = k = close
            continue
        i += 1
    escaped(k, end)
    return "".join(out), runs, slots


def _field_end(text: str, i: int, end: int) -> int:
    depth = 1
    while i < end:
        c = text[i]
        if c in "'\"":
            q = text[i:i + 3] if text[i:i + 3] in ("'''", '"""') else c
            i = _find_close(text, i + len(q), q, False) + len(q)
            continue
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return end


def _unescape(body: str, is_bytes: bool) -> Optional[str]:
    c = body[0]
    if body in ("\n", "\r\n", "\r"):
        return ""
    if body in _SIMPLE:
        return _SIMPLE[body]
    if c in "01234567":
        return chr(int(body, 8) & (0xFF if is_bytes else 0x1FF))
    if c == "x":
        return chr(int(body[1:], 16))
    if is_bytes:
        return None
    if c == "N":
        import unicodedata
        try:
            return unicodedata.lookup(body[2:-1])
        except KeyError:
            return None
    return chr(int(body[1:], 16))


def literal_value(src: SourceText, node: ast.AST) -> Optional[StrValue]:
    """A StrValue for a str/bytes Constant (implicit concatenation included), else None."""
    if isinstance(node, ast.JoinedStr) and all(isinstance(v, ast.Constant) for v in node.values):
        value: Union[str, bytes] = "".join(
            v.value for v in node.values
            if isinstance(v, ast.Constant) and isinstance(v.value, str))     # f-string pieces without fields
    elif isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
        value = node.value
    else:
        return None
    start, end = src.node_start(node), src.node_end(node)
    is_bytes = isinstance(value, bytes)
    expected = value.decode("latin-1") if isinstance(value, bytes) else value
    try:
        pieces = scan_pieces(src.text, start, end)
        parts, runs, t = [], [], 0
        for piece in pieces:
            decoded, piece_runs, slots = decode_piece(src.text, piece, t)
            if slots:
                raise LiteralError("f-string with fields")
            parts.append(decoded)
            runs.extend(piece_runs)
            t += len(decoded)
        decoded_text = "".join(parts)
    except (LiteralError, ValueError, IndexError, OverflowError):
        pieces, runs, decoded_text = [], [], None
    if decoded_text != expected:
        # odd input we cannot map; keep the value, report at the string's start
        pieces, runs = [], []
    text = expected
    if isinstance(value, bytes):
        try:
            utf8 = value.decode("utf-8")
        except UnicodeDecodeError:
            utf8 = value.decode("utf-8", "replace")
        if utf8 != text:
            text, runs = utf8, []
    return StrValue(text, runs, start, end, tuple(pieces), is_bytes=is_bytes)


class StrBuilder:
    """Builds a computed StrValue from pieces of other StrValues, plain text and holes."""

    def __init__(self):
        self.parts: List[str] = []
        self.runs: List[Run] = []
        self.pieces: List[Piece] = []
        self.notes: List[Note] = []
        self.t = 0
        self._seen: set = set()         # the pieces, for a membership test that does not grow with them

    def add_value(self, value: StrValue, i: int = 0, j: Optional[int] = None) -> None:
        j = len(value.text) if j is None else j
        if j <= i:
            return
        self.parts.append(value.text[i:j])
        shift = self.t - i
        for run in value.runs:
            a, b = max(run.t, i), min(run.t + run.tlen, j)
            if a >= b:
                continue
            if run.tlen == run.slen:
                self.runs.append(_new_tuple(Run, (a + shift, b - a, run.s + (a - run.t), b - a)))
            elif a == run.t and b == run.t + run.tlen:
                self.runs.append(_new_tuple(Run, (a + shift, run.tlen, run.s, run.slen)))
        for piece in value.pieces:
            if piece not in self._seen:
                self._seen.add(piece)
                self.pieces.append(piece)
        for a, b, note in value.notes:
            a, b = max(a, i), min(b, j)
            if a < b:
                self.notes.append((a + shift, b + shift, note))
        self.t += j - i

    def add_text(self, text: str) -> None:
        self.parts.append(text)
        self.t += len(text)

    def add_mapped(self, text: str, start: int, end: int) -> None:
        """Text standing for the source range [start, end) as a whole (e.g. True → true)."""
        self.parts.append(text)
        self.runs.append(_new_tuple(Run, (self.t, len(text), start, end - start)))
        self.t += len(text)

    def add_hole(self) -> None:
        if self.parts and self.parts[-1].endswith(HOLE):
            return                      # adjacent unknown pieces are one hole
        self.add_text(HOLE)

    def build(self, anchor: int, anchor_end: int, is_bytes: bool = False, origin: str = "computed") -> StrValue:
        return StrValue("".join(self.parts), self.runs, anchor, anchor_end, tuple(self.pieces), is_bytes,
                        origin, tuple(self.notes))


# Unsubstituted template placeholders, left for a generator (str.format, envsubst, CMake/autoconf,
# Jinja): `{NAME}`, `${NAME}`, `$NAME`, `@NAME@`, `{{ name }}`, `%(name)s`, `<NAME>`.
_PLACEHOLDER = re.compile(
    r"\{\{\s*[A-Za-z_][\w.]*\s*\}\}|\$\{[A-Za-z_]\w*\}|\$[A-Za-z_]\w*|\{[A-Za-z_]\w*\}|@[A-Za-z_]\w*@"
    r"|%\([A-Za-z_]\w*\)s|<[A-Za-z_][\w-]*>")


def placeholders(text: str) -> List[re.Match]:
    return list(_PLACEHOLDER.finditer(text))


def is_placeholder(text: str) -> bool:
    """Whether a value is one unsubstituted template placeholder (judged as no value at all)."""
    m = _PLACEHOLDER.fullmatch(text.strip())
    return m is not None


def mask_placeholders(value):
    """A StrValue with each unsubstituted template placeholder turned into a hole: a template
    left for a generator is not a value, so nothing is judged by its content."""
    text = value.text
    found = placeholders(text)
    if not found:
        return value
    keep = [True] * len(text)
    for m in found:
        for i in range(m.start(), m.end()):
            keep[i] = False
    parts, runs, t = [], [], 0
    for i, ch in enumerate(text):
        if keep[i]:
            s, e = value.src(i), value.src_end(i)
            if s is not None and e is not None and ch != HOLE:
                runs.append(_new_tuple(Run, (t, 1, s, e - s)))
            parts.append(ch)
            t += 1
        elif i == 0 or keep[i - 1]:
            parts.append(HOLE)
            t += 1
    return StrValue("".join(parts), runs, value.anchor, value.anchor_end, value.pieces, value.is_bytes,
                    value.origin, ())        # notes would point at shifted ranges
