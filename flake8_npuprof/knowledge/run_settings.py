"""What a run checks against (target, preflight, graph): light, so flake8's option parsing
can build it without importing the analysis."""

from __future__ import annotations

from typing import NamedTuple, Optional

from .targets import Target


class Settings(NamedTuple):
    target: Target = Target()
    preflight: bool = False
    graph: Optional[str] = None
    cwd: Optional[str] = None
