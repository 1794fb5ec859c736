"""Numbers read from user text, converted without exceptions and without touching global limits.

`int()` of a long digit string raises past Python's int-string limit (4,300 digits by default),
`str.isdigit()` accepts digits `int()` refuses ("²"), and a float can overflow to infinity: every
conversion of text we did not write goes through here.
"""

from __future__ import annotations

import math
from typing import Optional

MAX_DIGITS = 4000           # below the int-string limit, whatever the process set it to (>= 640)


def decimal(text: str) -> Optional[int]:
    """The int an ASCII decimal stands for (sign and surrounding blanks allowed), else None."""
    s = text.strip()
    body = s[1:] if s[:1] in ("+", "-") else s
    if not body or len(body) > MAX_DIGITS or not (body.isascii() and body.isdigit()):
        return None
    return int(s)


def hexadecimal(text: str) -> Optional[int]:
    """The int of an ASCII hex number with a 0x prefix, else None."""
    s = text.strip()
    body = s[2:] if s[:2].lower() == "0x" else ""
    if not body or len(body) > MAX_DIGITS or not all(c in "0123456789abcdefABCDEF" for c in body):
        return None
    return int(body, 16)


def whole(value) -> Optional[int]:
    """A finite integral number as an int (True/False are not numbers here), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None
