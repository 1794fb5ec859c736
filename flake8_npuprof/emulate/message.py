"""What an emulation says, as data (issue 40, item 2): each message of an outcome or a result is the code of the
finding it comes from (None: the emulation's own words), its text, and the targets it applies to (None: every one
targeted). Code that decides (is this a failure? which code?) reads the fields; only a report joins them into the
line a user reads ("[CANN 8.5 / Ascend 310] NPP114 ..."), and no code takes that line apart again."""

from __future__ import annotations

import re
from typing import NamedTuple, Optional


class Message(NamedTuple):
    text: str
    code: Optional[str] = None
    where: Optional[str] = None     # "CANN 8.5 / Ascend 310": the targets it applies to, when not all

    def __str__(self) -> str:
        """As the reports write it."""
        said = f"{self.code} {self.text}" if self.code else self.text
        return f"[{self.where}] {said}" if self.where else said


# "line 8", "lines 3, 5 and 9", "line 15 to line 17" not already followed by " of FILE" (nor part of a longer
# number)
_LINES = re.compile(r"\blines? \d+(?:(?:, | and | to line )\d+)*(?!\d)(?! of )")


def in_file(text: str, name: str) -> str:
    """A script's (or a module's) sentence with each line it names as its own, "line 8", said as "line 8 of
    train.py": for an answer whose subject is another file (a launcher's, the module's that imports it). Lines
    already said with their file ("engine.py:152", "line 985 of nmt.py") are left as they are."""
    return _LINES.sub(lambda m: f"{m.group(0)} of {name}", text) if name else text


def opening_in_file(text: str, name: str) -> str:
    """in_file for the line a module's sentence opens with ("line 9: stored as ...", "line 10 NpuOptimizer collects"),
    the module's own, after "config.py, which train.py imports: "; the lines further on may be the launched script's,
    and the code that reads those names their file."""
    m = _LINES.match(text)
    return f"{m.group(0)} of {name}{text[m.end():]}" if m and name else text
