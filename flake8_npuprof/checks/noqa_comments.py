"""NPP206: a `# noqa: NPPxxx` comment that silences nothing (off by default, as Ruff's RUF100).

A comment is read as flake8 reads it: the first `# noqa` of a logical line covers every physical line of
that line (source/files.py: noqa_lines). A listed NPP code (or prefix) is unused when no finding of this
file's analysis, for the run's target, starts with it on those lines. Other tools' codes are theirs to
judge, and a bare `# noqa` cannot be judged at all. The finding says which target it was judged for:
another CANN version or product may need the comment (the fix is unsafe for that reason).
"""

from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

from flake8.defaults import NOQA_INLINE_REGEXP

from ..source.model import Edit, Finding, Fix, finding
from ..source.said import aside, clause, said
from ..source.text import SourceText

CODE = "NPP206"
_CODE = re.compile(r"[A-Za-z]+[0-9]+")


def might_have(text: str) -> bool:
    """A cheap scan: a file without an NPP code next to a noqa is never tokenized for this."""
    return "NPP" in text and ("noqa" in text or "NOQA" in text or "NoQA" in text)


def unused(text: str, findings: Sequence[Finding], target) -> List[Finding]:
    """NPP206 for each NPP code of a `# noqa:` comment that no finding on its logical line starts with."""
    if not might_have(text):
        return []
    from ..source.files import noqa_lines
    src = SourceText(text)
    mapping = noqa_lines(text)
    # each logical line (the text flake8 searches, one object for all its physical lines) and its lines
    logical: List[Tuple[str, List[int]]] = []
    for line in sorted(mapping):
        if logical and mapping[line] is logical[-1][0] and logical[-1][1][-1] == line - 1:
            logical[-1][1].append(line)
        else:
            logical.append((mapping[line], [line]))
    out: List[Finding] = []
    for joined, lines in logical:
        m = NOQA_INLINE_REGEXP.search(joined)
        if m is None or not m.group("codes"):
            continue
        comment_line, base = _where(src, lines, joined, m.start())
        if comment_line is None:
            continue
        codes = [(c.group(0).upper(), base + m.start("codes") + c.start(), base + m.start("codes") + c.end())
                 for c in _CODE.finditer(m.group("codes"))]
        here = [f for f in findings if f.line in lines and f.code != CODE]
        dead = [(code, a, b) for code, a, b in codes if code.startswith("NPP") and code != CODE
                and not any(f.code.startswith(code) for f in here)]
        for code, a, b in dead:
            (line, col), (_, end_col) = src.position(a), src.position(b)
            message = said(f"`# noqa: {code}` silences nothing",
                           clause(f"no {code} finding on this line for the target", aside(target.describe())),
                           "remove it, or check with the target that needs it")
            out.append(finding(CODE, message, a, b, line, col, line, end_col,
                               _fix(src, comment_line, m, base, codes, dead, code, a, b)))
    return out


def _where(src: SourceText, lines: List[int], joined: str, at: int) -> Tuple[Optional[int], int]:
    """(physical line, its start offset) of a position in a logical line's joined text."""
    seen = 0
    for line in sorted(lines):
        text = src.line_text(line)
        if at < seen + len(text):
            return line, src.line_starts[line - 1] - seen
        seen += len(text)
    return None, 0


def _fix(src, line: int, m, base: int, codes, dead, code: str, a: int, b: int) -> Optional[Fix]:
    """Remove the code; the whole comment when it lists nothing else (and no fix when text follows that one
    code: what would be left is a bare `# noqa`)."""
    body = src.line_text(line).rstrip("\r\n")
    line_start = src.line_starts[line - 1]
    end_of_match = codes[-1][2]             # (flake8's pattern also takes the separators after the last code)
    rest = body[end_of_match - line_start:]
    if len(codes) == 1:
        if rest.strip():
            return None                 # `# noqa: why` would be a bare noqa, silencing everything
        start = base + m.start()
        while start > line_start and body[start - line_start - 1] in " \t":
            start -= 1
        return Fix((Edit(start, end_of_match, ""),), False, f"remove the unused `# noqa: {code}`")
    k = next(i for i, c in enumerate(codes) if c[1] == a)
    if k + 1 < len(codes):
        edit = Edit(a, codes[k + 1][1], "")             # the code and the separator after it
    else:
        edit = Edit(codes[k - 1][2], b, "")             # the last code: the separator before it
    return Fix((edit,), False, f"remove {code} from the `# noqa` comment")


# ---------------------------------------------------------------- the page of the code reported here

from .rule import _HEAD, _SET_OPTIONS, _TAIL, Rule  # noqa: E402

RULES = (
    Rule(
        code="NPP206",
        name="unused-noqa",
        summary="`# noqa: NPPxxx` that silences nothing on its line for the target (off by default)",
        default=False,
        level="warning", enabled_by="NPP2",
        what="A `# noqa` comment naming an NPP code (or prefix) when the line it covers has no finding of that "
             "code for the target the run checks. The comment is read as flake8 reads it: the first `# noqa` "
             "of a logical line covers all its physical lines. Codes of other tools, and a bare `# noqa`, are "
             "left alone.",
        why="A stale `# noqa` hides the next real mistake on that line: once the options are edited, a "
            "rejected key there would be silenced and GE initialisation would fail at run time with nothing "
            "said before the NPU hours were spent. The finding names the target it was judged for: a comment "
            "kept for another CANN version or product (`--cann 8.5`, `--soc 310`) is not unused there.",
        example=_HEAD + _SET_OPTIONS.rstrip("\n") + "  # noqa: NPP101\n" + _TAIL,
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="unsafe",
        fix_note="The fix removes the code from the comment (the whole comment when it named nothing else). "
                 "Unsafe: another target than the one checked may need the comment.",
        group="hygiene",
    ),
)
