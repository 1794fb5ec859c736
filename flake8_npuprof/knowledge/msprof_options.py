"""The msprof binary's command-line options per CANN version: from 8.5 on the long-option table of
that tag's parser (data/msprof_parser.json), for 7.0/8.0 the tables of data/msprof_cli.json."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Tuple

from . import datafiles as K
from . import msprof_parser as P


@lru_cache(maxsize=None)
def cli() -> dict:
    with open(K.HERE / "data" / "msprof_cli.json", encoding="utf-8") as fh:
        return json.load(fh)


@lru_cache(maxsize=None)
def options_of(version: str) -> frozenset:
    if version in P.versions():
        return frozenset(P.option_names(version))
    return frozenset(cli()["versions"][version]["options"])


@lru_cache(maxsize=None)
def all_options() -> Tuple[str, ...]:
    return tuple(sorted(set().union(*(options_of(v) for v in K.VERSIONS))))
