"""MindSpore's profiler configuration API (data/mindspore.json): the keywords `mindspore.Profiler`,
`_ExperimentalConfig` and `schedule` take, the enums, what a wrong value is reset to, and how
`MS_PROFILER_OPTIONS` is read. One table: the validation is the same code in MindSpore 2.7-2.10.
Read by checks/mindspore.py."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=None)
def data() -> dict:
    path = Path(__file__).resolve().parent.parent / "data" / "mindspore.json"
    return json.loads(path.read_text(encoding="utf-8"))
