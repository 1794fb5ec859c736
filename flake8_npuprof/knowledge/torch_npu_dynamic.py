"""torch_npu's dynamic-profiling file, `<dir>/profiler_config.json`, per release (data/torch_npu_dynamic.json):
the keys each release's ConfigContext reads, the values it keeps and what it resets. Read by
checks/dynamic_json.py and tools/gen_schemas.py; tests/test_dynamic_json_oracle.py holds it to the record."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Tuple

from .targets import TORCH_NPU_RELEASES

FILE_NAME = "profiler_config.json"


@lru_cache(maxsize=None)
def data() -> dict:
    path = Path(__file__).resolve().parent.parent / "data" / "torch_npu_dynamic.json"
    return json.loads(path.read_text(encoding="utf-8"))


def reading_releases() -> Tuple[str, ...]:
    """The releases of the axis that read the file (dynamic profiling came with 6.0)."""
    first = data()["first_release"]
    return TORCH_NPU_RELEASES[TORCH_NPU_RELEASES.index(first):]


def reads(entry: dict, release: str) -> bool:
    """Whether a release reads a key (entry: its row in `keys` or `experimental_config`)."""
    return TORCH_NPU_RELEASES.index(release) >= TORCH_NPU_RELEASES.index(entry["from"])
