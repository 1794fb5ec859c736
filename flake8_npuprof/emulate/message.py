"""What an emulation says, as data (issue 40, item 2): each message of an outcome or a result is the code of the
finding it comes from (None: the emulation's own words), its text, and the targets it applies to (None: every one
targeted). Code that decides (is this a failure? which code?) reads the fields; only a report joins them into the
line a user reads ("[CANN 8.5 / Ascend 310] NPP114 ..."), and no code takes that line apart again."""

from __future__ import annotations

from typing import NamedTuple, Optional


class Message(NamedTuple):
    text: str
    code: Optional[str] = None
    where: Optional[str] = None     # "CANN 8.5 / Ascend 310": the targets it applies to, when not all

    def __str__(self) -> str:
        """As the reports write it."""
        said = f"{self.code} {self.text}" if self.code else self.text
        return f"[{self.where}] {said}" if self.where else said
