"""Frameworks that hand their flags to training code through a global accessor (`args = get_args()`), which users
seldom copy into their project: the accessor functions by dotted name, the kind of each option their own parser
defines that profiling code reads, and the namespace attributes they set at run time (data/global_args.json)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Dict, Optional, Tuple


@lru_cache(maxsize=1)
def data() -> dict:
    path = Path(__file__).resolve().parent.parent / "data" / "global_args.json"
    return json.loads(path.read_text(encoding="utf-8"))


def framework_of(dotted: str) -> Optional[str]:
    """The framework whose accessor `dotted` (megatron.training.get_args) is, else None."""
    for name, table in data()["accessors"].items():
        if dotted in table["functions"]:
            return name
    return None


def arguments(framework: str) -> Dict[str, dict]:
    """dest -> {"option", "kind"}: kind switch, int, str or int_list."""
    return dict(data()["accessors"][framework]["arguments"])


def switches(framework: str) -> Tuple[str, ...]:
    """The framework's options that take no value (store_true, store_false), where its data lists them."""
    return tuple(data()["accessors"][framework].get("switches", ()))


def set_at_run_time(framework: str) -> Dict[str, dict]:
    return dict(data()["accessors"][framework]["set_at_run_time"])


def pins(framework: str) -> Dict[str, dict]:
    """part -> {"repository", "package"?, "releases": {release: {"commit", "defaults"?}}}: the releases of the framework
    (and of what registers options into its parser) a project may pin as submodules, with their defaults."""
    return {k: v for k, v in data()["accessors"][framework].get("pins", {}).items() if not k.startswith("$")}


def frameworks() -> Tuple[str, ...]:
    return tuple(data()["accessors"])


def adapters() -> Dict[str, dict]:
    """dest -> {"option", "value", "adapter"}: the project's option whose value runs training over another framework's
    adapter of torch and torch_npu (MindSpeed-LLM's --ai-framework mindspore)."""
    return {k: v for k, v in data()["adapters"].items() if not k.startswith("$")}
