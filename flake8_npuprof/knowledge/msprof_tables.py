"""What data/msprof_parser.json says of each version's msprof: its option table (LONG_OPTIONS), and the
step record a check of the command line gives (`Step`, with what msprof does: REJECT, CRASH, HELP, LOG,
IGNORED, MACHINE, UNKNOWN).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, Tuple

HERE = Path(__file__).resolve().parent.parent          # the package folder (data/)

REJECT, CRASH, HELP, LOG, IGNORED, MACHINE, UNKNOWN = "reject", "crash", "help", "log", "ignored", "machine", "unknown"
WHOLE = -1                  # a step about the whole line, not one word

# what the C++ runtime prints when a std::string is built from a null pointer (libstdc++), then aborts
NULL_STRING = ("terminate called after throwing an instance of 'std::logic_error'",
               "what():  basic_string: construction from null is not valid")


@lru_cache(maxsize=None)
def data() -> dict:
    with open(HERE / "data" / "msprof_parser.json", encoding="utf-8") as fh:
        return json.load(fh)


def versions() -> Tuple[str, ...]:
    return tuple(data()["versions"])


def facts(version: str) -> dict:
    return data()["versions"][version]


class Opt(NamedTuple):
    name: str           # as LONG_OPTIONS spells it ("export " has a trailing space)
    has_arg: str        # "no", "optional", "required"
    ident: str          # the ARGS_ enum name without ARGS_
    group: str          # what ProcessOptions calls: help, cmd, switch, freq, host, invalid


@lru_cache(maxsize=None)
def long_options(version: str) -> Tuple[Opt, ...]:
    return tuple(Opt(*o) for o in facts(version)["long_options"])


def option_names(version: str) -> Tuple[str, ...]:
    """The option names a user writes (without the table's stray spaces and the internal --invalid)."""
    return tuple(o.name.strip() for o in long_options(version) if o.ident != "INVALID")


class Step(NamedTuple):
    at: int             # index of the word among msprof's words (argv[1:]); WHOLE for the line
    option: str         # the option it is about, as LONG_OPTIONS names it ("" for none)
    action: str         # REJECT, CRASH, HELP, LOG, IGNORED, MACHINE, UNKNOWN
    # what is wrong: unrecognized, ambiguous, no_argument, requires, short, invalid, chip, unsupported, none,
    # empty, value, l3, metrics, range, number, storage, output, mstx, dynamic, order, application, tool, path,
    # null_string, null_assign, past_end (crashes), ...
    kind: str
    line: str = ""      # what msprof prints (its first line); "" when it prints nothing of its own
    usage: bool = False  # msprof prints its usage after the line
