"""MindSpore's dynamic-profiling file, `<cfg_path>/profiler_config.json` (data/mindspore_dynamic.json): the keys
DynamicProfilerConfigContext reads, the type each must have, the members its enum settings take and the warning
each reset logs. Also which framework a `profiler_config.json` is for when only its keys can tell: torch_npu's
(knowledge/torch_npu_dynamic.py) and MindSpore's share the file name and some keys. Read by
checks/mindspore_dynamic_json.py, checks/dynamic_files.py and tools/gen_schemas.py."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import FrozenSet, Iterable, Optional

from . import torch_npu_dynamic

MINDSPORE = "mindspore"
TORCH_NPU = "torch_npu"
FRAMEWORKS = (MINDSPORE, TORCH_NPU)


@lru_cache(maxsize=None)
def data() -> dict:
    path = Path(__file__).resolve().parent.parent / "data" / "mindspore_dynamic.json"
    return json.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def keys() -> FrozenSet[str]:
    """Every top-level key MindSpore reads (is_valid: what the monitor writes back)."""
    d = data()
    return frozenset(d["typed"]) | frozenset(d["enums"]) | frozenset(d["untyped"]) | frozenset(d["written_back"])


@lru_cache(maxsize=None)
def torch_npu_keys() -> FrozenSet[str]:
    """Every top-level key some torch_npu release reads, and the is_valid its monitor writes back."""
    return frozenset(torch_npu_dynamic.data()["keys"]) | {"is_valid"}


@lru_cache(maxsize=None)
def deciding_keys() -> dict:
    """{framework: the keys only that framework reads}: a file holding some of one side's and none of the other's
    is that framework's (docs/rules/NPP356.md lists them)."""
    ms, tn = keys(), torch_npu_keys()
    return {MINDSPORE: ms - tn, TORCH_NPU: tn - ms}


def framework_by_keys(names: Iterable[str]) -> Optional[str]:
    """The framework the keys of a file decide, or None: none of either side's own keys, or some of both."""
    names = set(names)
    sides = [fw for fw, own in deciding_keys().items() if names & own]
    return sides[0] if len(sides) == 1 else None


def is_dynamic_config(path: str, text: str = "") -> bool:
    """A dynamic-profiling file of either framework: by its name, or (a file given to `validate`) a JSON object
    whose keys are mostly the file's own, not counting those profiling_options has too (aic_metrics, host_sys)."""
    if Path(path).name == torch_npu_dynamic.FILE_NAME:
        return True
    if not text.lstrip().startswith("{"):
        return False
    try:
        doc = json.loads(text)
    except ValueError:
        return False
    if not isinstance(doc, dict) or not doc:
        return False
    from .datafiles import all_keys
    own = sum(1 for key in doc if key in keys() | torch_npu_keys() and key not in all_keys())
    return own >= 1 and own * 2 > len(doc)


@lru_cache(maxsize=None)
def schema() -> dict:
    """schemas/profiler_config.mindspore.schema.json (tools/gen_schemas.py writes it from the data)."""
    from .datafiles import schema_dir
    return json.loads((schema_dir() / "profiler_config.mindspore.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def validator():
    from .schema_engine import Validator
    return Validator(schema())
