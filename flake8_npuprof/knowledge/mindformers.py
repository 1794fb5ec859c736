"""What MindFormers does with the profiling keys of its YAML run configuration, read at one commit
(data/mindformers.json): the functions the answers stand on with the digest of their lines, the template's defaults,
the command-line overrides of run_mindformer.py, the output folders and the schedule ProfileMonitor builds."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def data() -> dict:
    path = Path(__file__).resolve().parent.parent / "data" / "mindformers.json"
    return json.loads(path.read_text(encoding="utf-8"))


def digest(lines) -> str:
    """The digest a function's or class's lines are compared by: each line stripped, blank and comment-only lines
    left out (so a re-indented or re-commented copy is the same code), sha256, the first 16 hex digits."""
    kept = [s.strip() for s in lines if s.strip() and not s.strip().startswith("#")]
    return hashlib.sha256("\n".join(kept).encode("utf-8")).hexdigest()[:16]
