"""A finding's short sentence and detail as markdown (SARIF `message.markdown`, the editor's hover).

The short sentence, the detail and the lines a finding names are renderings of its fields (source/said.py);
nothing here cuts a message into them.
"""

from __future__ import annotations

from typing import Sequence

_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|#"})


def markdown_escape(text: str) -> str:
    """Text shown as written in (GitHub-flavoured) markdown: `PROF_*`, `<N>MB` and `[x]` stay literal."""
    return text.translate(_MARKDOWN)


def markdown(short: str, detail: Sequence[str]) -> str:
    """The short sentence, then the detail's lines as a list (SARIF `message.markdown`, the editor's hover)."""
    lines = [markdown_escape(short)]
    if detail:
        lines += [""] + ["- " + markdown_escape(line) for line in detail]
    return "\n".join(lines)
