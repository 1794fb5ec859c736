"""What the msprof binary of CANN 8.5 and later does with its command line.

The steps follow the code that runs (hicann/oam-tools src/msprof/collector/dvvp/msprofbin, installed
as tools/profiler/bin/msprof): main -> InputParser::MsprofGetOpts. SplitApplicationArgv decides which
words are msprof's; glibc's getopt_long reads them with the version's LONG_OPTIONS (an exact name or
a unique prefix, ambiguity, optional and required arguments); PreCheckPlatform refuses the options on
the chip's black list; ProcessOptions calls each option's check; then come the checks after the
options (--dynamic, --mstx-domain-*, --output from 9.0, ParamsCheck). data/msprof_parser.json holds
what differs per version and per chip; tests/test_oracle.py holds these steps to the record of the
real parser run on each chip.

A step says what msprof does at one of its words (or after reading them all): REJECT (it prints an
error and exits before the application starts), CRASH (the process dies), HELP (it prints its help
and exits), LOG (a warning, the run goes on), IGNORED (the option is taken and has no effect),
MACHINE (the machine decides: a path that must exist, a tool that must be installed), UNKNOWN (not
known statically). msprof stops at its first refusal; the steps go on as if it had passed, so that
each problem is found on its own.

This module is the entry point (`steps`, `verdict`, and what a check asks of an option: `limits`,
`accepted`); the names the checks use are imported from here. The parts, by what they model: the
version's tables and the step record (`msprof_tables`), the chip and the machine msprof runs on
(`msprof_machine`), which words are msprof's and how getopt_long reads them (`msprof_getopt`), the
checks of each option's value (`msprof_values`) and the run, option by option and after the options
(`msprof_run`).
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from .msprof_machine import Machine, UNKNOWN_MACHINE, chip
from .msprof_run import _Run
from .msprof_tables import CRASH, HELP, MACHINE, REJECT, Step, UNKNOWN, data, facts, long_options
# the rest of what the checks and the oracle's tests use, from here
from .msprof_values import LOG_SIZE, hole_name  # noqa: F401
from .msprof_getopt import Got, getopt, parsed, split  # noqa: F401
from .msprof_machine import FEATURES, Chip  # noqa: F401
from .msprof_tables import IGNORED, LOG, NULL_STRING, WHOLE, Opt, option_names, versions  # noqa: F401


def steps(words: Sequence[str], version: str, product: str, machine: Machine = UNKNOWN_MACHINE,
          hole: Optional[str] = None) -> List[Step]:
    """msprof's steps for its words (argv[1:]) on one chip. hole: a character that stands for text not
    known statically; a word that starts with it ends what is known (it may be several words).

    For a chip without a platform class in the version's source, a step that depends on the chip
    counts only when a chip with every feature and a chip with none give it alike."""
    words = list(words)
    known = chip(version, product)
    if known is not None:
        return _Run(words, version, known, machine, hole).steps()
    both = [_Run(words, version, chip(version, product, on), machine, hole).steps() for on in (True, False)]
    if both[0] == both[1]:
        return both[0]
    out: List[Step] = []
    seen = set()
    for step in both[0] + both[1]:      # in the order of the chip with every feature, word by word
        if step.at in seen:
            continue
        seen.add(step.at)
        mine = [s for s in both[0] if s.at == step.at]
        other = [s for s in both[1] if s.at == step.at]
        if mine == other:
            out.extend(mine)
        elif [s._replace(line="") for s in mine] == [s._replace(line="") for s in other]:
            out.extend(s._replace(line="") for s in mine)       # the same step; its wording depends on the chip
        else:
            out.append(Step(step.at, step.option, UNKNOWN, "platform"))
    return out


def limits(version: str, product: str, name: str) -> Optional[Tuple[int, int]]:
    """The range msprof checks an option's number against on the chip (None: not a ranged option)."""
    opt = next((o for o in long_options(version) if o.name == name), None)
    if opt is None or opt.ident not in data()["ranges"]:
        return None
    lo, hi = data()["ranges"][opt.ident]
    plat = chip(version, product)
    if opt.ident == "HARDWARE_MEM_SAMPLING_FREQ" and plat is not None and "PLATFORM_SYS_DEVICE_US" in plat.features:
        hi = data()["hardware_mem_max_on_us_chips"]
    return lo, hi


def accepted(version: str, name: str) -> Tuple[str, ...]:
    """The values a switch or a list option takes (empty when its values are not a fixed list)."""
    opt = next((o for o in long_options(version) if o.name == name), None)
    if opt is None:
        return ()
    f = facts(version)
    levels = tuple(sorted(f["task_time"]["levels"], key=_LEVEL_ORDER.index))
    fixed = {"GE_API": ("off", "l0", "l1"), "TASK_TIME": levels,
             "AIC_MODE": ("task-based", "sample-based"), "AIV_MODE": ("task-based", "sample-based"),
             "SUMMARY_FORMAT": ("json", "csv"), "EXPORT_TYPE": ("text", "db"), "LLC_PROFILING": tuple(f["llc"][""]),
             "HOST_SYS": tuple(f["host_sys"]), "HOST_SYS_USAGE": ("cpu", "mem"),
             "RULE": ("communication", "communication_matrix")}
    if opt.ident in fixed:
        return fixed[opt.ident]
    if opt.group == "switch" and opt.ident not in ("MSTX_DOMAIN_INCLUDE", "MSTX_DOMAIN_EXCLUDE") or \
            opt.ident == "DYNAMIC_PROF":
        return ("on", "off")
    return ()


_LEVEL_ORDER = ["on", "off", "l0", "l1", "l2", "l3"]


def verdict(all_steps: Sequence[Step]) -> str:
    """What msprof does with the whole line: the first step that ends the run decides ('rejected',
    'crash', 'help', 'usage' for no arguments at all, 'unknown' when the machine or an unknown text
    decides first), else 'accepted'."""
    for s in all_steps:
        if s.action == REJECT:
            return "usage" if s.kind == "no_arguments" else "rejected"
        if s.action == CRASH:
            return "crash"
        if s.action == HELP:
            return "help"
        if s.action in (MACHINE, UNKNOWN):
            return "unknown"
    return "accepted"
