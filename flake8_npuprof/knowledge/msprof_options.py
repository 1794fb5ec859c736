"""The msprof binary's command-line options per CANN version and product (data/msprof_cli.json)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Tuple

from . import datafiles as K


@lru_cache(maxsize=None)
def cli() -> dict:
    with open(K.HERE / "data" / "msprof_cli.json", encoding="utf-8") as fh:
        return json.load(fh)


@lru_cache(maxsize=None)
def options_of(version: str) -> frozenset:
    return frozenset(cli()["versions"][version]["options"])


@lru_cache(maxsize=None)
def all_options() -> Tuple[str, ...]:
    return tuple(sorted(set().union(*(options_of(v) for v in K.VERSIONS))))
