"""Turn edits of a decoded string into edits of the literal pieces that spell it.

An edit is kept only when it falls inside one literal piece and the new text can be written
in that piece's quoting style (quotes, escapes, raw, bytes, f-string braces); otherwise there
is no fix, never an approximate one.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from .model import Edit
from .text import HOLE, Piece, SourceText, StrValue


def encode_for(piece: Piece, text: str) -> Optional[str]:
    """Spell decoded text inside `piece`, or None when that is impossible."""
    if HOLE in text:
        return None
    q = piece.quote
    if piece.is_f:
        text = text.replace("{", "{{").replace("}", "}}")
    if piece.raw:
        if q[0] in text or text.endswith("\\") or (len(q) == 1 and "\n" in text):
            return None
        return text
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == q[0]:
            out.append("\\" + ch)
        elif ch == "\n" and len(q) == 1:
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02x}")
        elif piece.is_bytes and ord(ch) > 0x7F:
            out.extend(f"\\x{b:02x}" for b in ch.encode("utf-8", "surrogatepass"))
        else:
            out.append(ch)
    return "".join(out)


def text_edits_to_source(src: SourceText, value: StrValue,
                         edits: Sequence[Tuple[int, int, str]]) -> Optional[List[Edit]]:
    out = []
    n = len(value.text)
    for i, j, new in edits:
        if i < j:
            a, b = value.src(i), value.src_end(j - 1)
        elif i < n:
            a = b = value.src(i)
        elif n:
            a = b = value.src_end(n - 1)
        else:
            return None
        if a is None or b is None:
            return None
        piece = value.piece_at(a)
        if piece is None or not (piece.body_start <= a <= b <= piece.body_end):
            return None
        # the edit must not cut through an escape sequence of the source
        if i < j and (value.src(i) != a or value.src_end(j - 1) != b):
            return None
        # nor span what the value does not spell here: a `%s` or an f-string field filled from elsewhere (the
        # source between a and b must be exactly the value's characters i..j, one after the other). Only a
        # deletion may take an f-string's fields with it (a member dropped whole); `%s` and `{}` are counted
        # against their arguments, so dropping one breaks the call
        if any(value.src(k + 1) != value.src_end(k) for k in range(i, j - 1)) and (new or "f" not in piece.prefix):
            return None
        spelled = encode_for(piece, new)
        if spelled is None:
            return None
        if not spelled and (a, b) == (piece.body_start, piece.body_end) and len(value.pieces) > 1:
            line = _own_line(src, piece)
            if line is not None:            # a piece emptied on a line of its own: drop the line
                out.append(Edit(line[0], line[1], ""))
                continue
        out.append(Edit(a, b, spelled))
    return out


def _own_line(src: SourceText, piece: Piece):
    """(start, end) of what to remove when the piece is alone on its line: the whole line, or, when a comment
    follows, the piece and the blanks up to the comment (the comment stays, on a line of its own)."""
    line, _ = src.position(piece.start)
    start = src.line_starts[line - 1]
    end = src.line_starts[line] if line < len(src.line_starts) else len(src.text)
    before, after = src.text[start:piece.start], src.text[piece.end:end]
    if before.strip() or (after.strip() and not after.strip().startswith("#")):
        return None
    if src.position(piece.end)[0] != line:
        return None
    if after.strip():
        return piece.start, piece.end + len(after) - len(after.lstrip(" \t"))
    return start, end
