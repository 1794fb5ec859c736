"""A finding's words in the other forms front-ends show: markdown (SARIF `message.markdown`, the editor's hover)
and the lines of its own file a message names (SARIF `relatedLocations`, the LSP's related information).

The short sentence and the detail are renderings of the finding's fields (source/said.py); nothing here cuts a
message into them.
"""

from __future__ import annotations

import re
from typing import Tuple

# a line of the same file the message points at: "the profiling config (line 13)", "the first is on line 112",
# "not reached from this file's entry point (line 18)" (the rules name other files' lines as "file.py:2")
_LINE_REF = re.compile(r"(?:\(|\bon )line (\d+)\b")


def lines_named(message: str) -> Tuple[int, ...]:
    """The lines of the finding's own file its message names, in order, once each (SARIF `relatedLocations`,
    the LSP's related information)."""
    return tuple(dict.fromkeys(int(n) for n in _LINE_REF.findall(message) if int(n) > 0))


_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|#"})


def markdown_escape(text: str) -> str:
    """Text shown as written in (GitHub-flavoured) markdown: `PROF_*`, `<N>MB` and `[x]` stay literal."""
    return text.translate(_MARKDOWN)


def markdown(short: str, detail: str) -> str:
    """The short sentence, then the detail as a list (SARIF `message.markdown`, the editor's hover)."""
    lines = [markdown_escape(short)]
    if detail:
        lines += [""] + ["- " + markdown_escape(line) for line in detail.splitlines()]
    return "\n".join(lines)
