"""Access to the data files: options schemas per CANN version and product capabilities.

Each file is read once per process and each validator compiled once (schema_engine: the
keywords our schemas use, held to jsonschema's answers by the tests).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, Mapping, Optional, Tuple

HERE = Path(__file__).resolve().parent.parent          # the package folder (data/, schemas/)

# Named CANN versions, oldest first; each has schemas/profiling_options.cann-<v>.schema.json.
VERSIONS: Tuple[str, ...] = ("7.0", "8.0", "8.5", "9.0", "9.1")
# Older collectors (up to 2025-12) fail on a bad value; oam-tools (8.5+) differ in places.
LEGACY_VERSIONS = frozenset({"7.0", "8.0"})
PRODUCTS: Tuple[str, ...] = ("310", "910", "310P", "910B", "910C", "310B", "950")


def schema_dir() -> Path:
    installed = HERE / "schemas"           # wheel install: schemas/ is packaged here
    if (installed / "profiling_options.any.schema.json").exists():
        return installed
    return HERE.parent / "schemas"         # source tree / editable install


def schema_name(target: str) -> str:
    """File stem part for a target: 'any', 'portable' or 'cann-<version>'."""
    return target if target in ("any", "portable") else f"cann-{target}"


@lru_cache(maxsize=None)
def schema(target: str) -> dict:
    path = schema_dir() / f"profiling_options.{schema_name(target)}.schema.json"
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


@lru_cache(maxsize=None)
def validator(target: str):
    from .schema_engine import Validator
    return Validator(schema(target))


@lru_cache(maxsize=None)
def keys_of(target: str) -> FrozenSet[str]:
    return frozenset(schema(target)["properties"])


@lru_cache(maxsize=None)
def all_keys() -> FrozenSet[str]:
    return keys_of("any")


def versions_accepting(key: str) -> Tuple[str, ...]:
    return tuple(v for v in VERSIONS if key in keys_of(v))


def property_schema(target: str, key: str) -> dict:
    return schema(target)["properties"].get(key, {})


def enum_values(target: str, key: str) -> Tuple[str, ...]:
    """Allowed string values of an enumerated key (first enum found in its schema)."""
    sub = property_schema(target, key)
    if "enum" in sub:
        return tuple(sub["enum"])
    for alt in sub.get("anyOf", ()):
        if "enum" in alt:
            return tuple(alt["enum"])
    return ()


@lru_cache(maxsize=None)
def products() -> dict:
    with open(HERE / "data" / "products.json", encoding="utf-8") as fh:
        return json.load(fh)


def product(name: str) -> dict:
    return products()["products"][name]


def aic_metrics_for(name: str) -> Tuple[str, ...]:
    data = products()
    return tuple(data["base_aic_metrics"]) + tuple(data["products"][name]["extra_aic_metrics"])


def product_aliases() -> Dict[str, str]:
    return products()["aliases"]


# What a collector does with a key (or value) a chip cannot collect (products.json "unsupported").
WARN, SILENT, ERROR, UNKNOWN = "warn", "silent", "error", "unknown"


def unsupported(name: str, version: str) -> Dict[str, Tuple[str, str]]:
    """{key: (behaviour, why)} for the keys this product's collector of this version does not collect."""
    return dict(unsupported_table(name, version))


def unsupported_table(name: str, version: str) -> Mapping[str, Tuple[str, str]]:
    """unsupported(), the table kept for every caller: read it, never change it (the judgement of an options
    string reads it for each of its 35 (version, product) pairs)."""
    if version not in LEGACY_VERSIONS:
        return _ge_options()._unsupported(name, version)        # 8.5+: the built collector's tables
    return _legacy_unsupported(name, version)


@lru_cache(maxsize=None)
def _ge_options():
    """knowledge/ge_options.py, which imports this module: imported on first use, once (an import statement here
    cost about 10,000 instructions at each of the 84 calls an options judgement of the setup sample makes)."""
    from . import ge_options
    return ge_options


@lru_cache(maxsize=None)
def _legacy_unsupported(name: str, version: str) -> Dict[str, Tuple[str, str]]:
    # from the data alone, asked for each (version, product) of every options string: worked out once
    out = {}
    for key, entry in product(name).get("unsupported", {}).items():
        behaviour = entry["on"].get(version)
        if behaviour:
            out[key] = (behaviour, entry["why"])
    return out


def value_unsupported(name: str, version: str, key: str, value) -> Optional[Tuple[str, str]]:
    """(behaviour, why) when this product's collector of this version refuses one value of a key."""
    entry = product(name).get("value_unsupported", {}).get(key, {}).get(value) if isinstance(value, str) else None
    behaviour = entry["on"].get(version) if entry else None
    return (behaviour, entry["why"]) if behaviour and entry else None


def metric_builds(name: str, version: str, metric: str) -> Optional[str]:
    """Which builds of a version lack one of the product's extra metric sets: 'every', a description
    of some builds, or None when every build has it."""
    return product(name).get("metric_builds", {}).get(metric, {}).get(version)


@lru_cache(maxsize=None)
def sources() -> dict:
    """Provenance of every fact in data/ and schemas/ (data/sources.json), keyed by fact id."""
    with open(HERE / "data" / "sources.json", encoding="utf-8") as fh:
        return json.load(fh)["facts"]
