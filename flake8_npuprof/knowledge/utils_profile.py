"""torch_npu.utils.profiler.Profile, the model zoo's step-triggered profiler: which profile_type each torch_npu
release line enables, the keywords each type takes, and what Profile does with them (data/torch_npu_utils_profile.json)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Optional, Tuple

from .targets import TORCH_NPU_RELEASES


@lru_cache(maxsize=1)
def data() -> dict:
    path = Path(__file__).resolve().parent.parent / "data" / "torch_npu_utils_profile.json"
    return json.loads(path.read_text(encoding="utf-8"))


def types(release: str) -> Tuple[str, ...]:
    """The profile_type values that switch Profile on in a release line (compared exactly)."""
    return tuple(data()["types"][release])


def kwargs(profile_type: str) -> Tuple[str, ...]:
    """The extra keywords Profile hands on for a type; any other raises ValueError at Profile(...)."""
    return tuple(data()["kwargs"].get(profile_type, ()))


def own_keywords(release: str) -> Tuple[str, ...]:
    return tuple(data()["own_keywords"]["5.0" if release == "5.0" else "6.0+"])


def passed_twice(profile_type: str, keyword: str) -> Optional[str]:
    """Profile's own keyword that already passes `keyword` on to the profiler (then it is given twice)."""
    return data()["passed_twice"].get(profile_type, {}).get(keyword)


def releases() -> Tuple[str, ...]:
    return TORCH_NPU_RELEASES
