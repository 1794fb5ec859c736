"""torch_npu's profiler configuration API per release (data/torch_npu.json): keywords, accepted values,
what a bad value is reset to, and the newest release's warning texts. Read by checks/torch_npu.py."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, Iterable, Optional, Tuple

from .targets import TORCH_NPU_RELEASES


@lru_cache(maxsize=None)
def data() -> dict:
    path = Path(__file__).resolve().parent.parent / "data" / "torch_npu.json"
    return json.loads(path.read_text(encoding="utf-8"))


def release_of_wheel(version: str) -> Optional[str]:
    """The Ascend/pytorch release (7.3.1, 6.0.rc3) whose tag names this torch-npu package version, None when no
    tag read does. The version is compared in its PEP 440 normal form (2.1.0.rc1 and 2.1.0rc1 are one)."""
    return data()["wheels"].get(_normal(version))


def _normal(version: str) -> str:
    v = version.strip().lower().replace("-", ".").replace("_", ".")
    v = re.sub(r"\.?(rc|a|b)\.?(\d+)", r"\1\2", v)
    return v


def releases_from(first: str) -> Tuple[str, ...]:
    """The releases from `first` on (a keyword's or a behaviour's first release)."""
    return TORCH_NPU_RELEASES[TORCH_NPU_RELEASES.index(first):]


def releases_before(first: str) -> Tuple[str, ...]:
    return TORCH_NPU_RELEASES[:TORCH_NPU_RELEASES.index(first)]


TABLES = {"profile": "profile", "_ExperimentalConfig": "experimental_config", "schedule": "schedule"}


def after_recorded(what: str) -> Dict[str, str]:
    """{keyword: the first build that takes it} of the keywords of `what` (profile, _ExperimentalConfig, schedule)
    that only builds after the newest release recorded take: every release recorded raises TypeError there."""
    table = data().get(TABLES.get(what, what), {}).get("after_recorded", {})
    return {k: v for k, v in table.items() if not k.startswith("$")}


def newer_keyword(what: str, keyword: str, build: str) -> str:
    """How a finding names such a keyword."""
    return f"{what}'s keyword {keyword} is new in torch_npu {build}, after the releases recorded here"


def span(releases: Iterable[str]) -> str:
    """"6.0+", "5.0", "5.0-7.0" or a list: how a message names a set of releases."""
    chosen = [r for r in TORCH_NPU_RELEASES if r in set(releases)]
    if not chosen:
        return ""
    first, last = TORCH_NPU_RELEASES.index(chosen[0]), TORCH_NPU_RELEASES.index(chosen[-1])
    if last - first + 1 == len(chosen):
        if last == len(TORCH_NPU_RELEASES) - 1 and len(chosen) > 1:
            return f"{chosen[0]}+"
        return chosen[0] if len(chosen) == 1 else f"{chosen[0]}-{chosen[-1]}"
    return ", ".join(chosen)


# the builds where torch.autograd.profiler.profile is torch_npu's own, which takes use_npu (words for a message)
USE_NPU_WHERE = "its builds for torch 1.8.1-2.0.1 put it in torch.autograd.profiler"
USE_NPU_TAKEN = f"torch_npu's own profile ({USE_NPU_WHERE})"


def use_npu_builds() -> dict:
    """{release: its builds whose torch.autograd.profiler.profile takes use_npu} (data/torch_npu.json "legacy"): on
    the releases not named, and the named ones' other builds, it is stock torch's, which raises TypeError."""
    return data()["legacy"]["use_npu"]
