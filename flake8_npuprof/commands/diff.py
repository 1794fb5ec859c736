"""`npuprof fix --diff`: a unified diff that `git apply` and `patch` take.

The diff is of the file's bytes, not of its decoded text: lines are split where git and patch split
them (at LF only: a CR-only file is one line, and a form feed, U+2028 or \\x1d inside a line stays
there, where str.splitlines would split and shift every hunk after it), the lines are in the file's
own encoding and keep its BOM, and a last line without a line feed is followed by
`\\ No newline at end of file`.
"""

from __future__ import annotations

import difflib
import os
from typing import List

NO_NEWLINE = b"\\ No newline at end of file\n"


def lines(data: bytes) -> List[bytes]:
    """The lines as git reads them, each with its LF (the last one may have none)."""
    parts = data.split(b"\n")
    out = [p + b"\n" for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def unified(old: bytes, new: bytes, fromfile: str, tofile: str, context: int = 3) -> bytes:
    """The unified diff turning `old` into `new` (b"" when they are the same)."""
    a, b = lines(old), lines(new)
    out: List[bytes] = []
    for group in difflib.SequenceMatcher(None, a, b).get_grouped_opcodes(context):
        if not out:
            out.append(b"--- " + os.fsencode(fromfile) + b"\n+++ " + os.fsencode(tofile) + b"\n")
        first, last = group[0], group[-1]
        out.append(b"@@ -%s +%s @@\n" % (_range(first[1], last[2]), _range(first[3], last[4])))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out.extend(_line(b" ", line) for line in a[i1:i2])
                continue
            out.extend(_line(b"-", line) for line in a[i1:i2])
            out.extend(_line(b"+", line) for line in b[j1:j2])
    return b"".join(out)


def _line(prefix: bytes, line: bytes) -> bytes:
    return prefix + line if line.endswith(b"\n") else prefix + line + b"\n" + NO_NEWLINE


def _range(start: int, stop: int) -> bytes:
    """`line,count` as diff writes it: a count of one is left out, an empty range names the line before."""
    length = stop - start
    if length == 1:
        return b"%d" % (start + 1)
    return b"%d,%d" % (start + 1 if length else start, length)
