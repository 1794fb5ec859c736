"""DeepSpeed's launcher, `deepspeed [OPTIONS] SCRIPT ARGS` or `python -m deepspeed.launcher.runner ...`, read as its
runner's argparse reads the words (deepspeed/launcher/runner.py parse_args, v0.16.4: an option not known, an
ambiguous abbreviation or a value int() refuses exit with status 2; the first other word is the script, the words after
it are the script's own, argparse REMAINDER), and what its launch.py starts each rank with: `python -u SCRIPT
--local_rank=<local rank> ARGS` (`python -u -m MODULE` with --module; no --local_rank with --no_local_rank), once for
each of --num_gpus on a node (data/sources.json shell.deepspeed; tests/data/deepspeed_runs.json, what its code did)."""

from __future__ import annotations

import re
from typing import Dict, List, NamedTuple

from ..source.text import HOLE
from .command_words import DEEPSPEED as COMMAND, DEEPSPEED_RUNNER as RUNNER_MODULE  # noqa: F401 (its names)

HOSTFILE = "/job/hostfile"          # -H's default (DLTS_HOSTFILE): other nodes are read from it where it is there
RANK_WORD = "--local_rank=0"        # rank 0's (launch.py: f"--local_rank={local_rank}")
VALUED = ("-H", "--hostfile", "-i", "--include", "-e", "--exclude", "--num_nodes", "--min_elastic_nodes",
          "--max_elastic_nodes", "--num_gpus", "--num_accelerators", "--master_port", "--master_addr", "--node_rank",
          "--launcher", "--launcher_args", "--enable_each_rank_log", "--autotuning", "--bind_core_list", "--ssh_port")
SWITCHES = ("--module", "--no_python", "--no_local_rank", "--no_ssh", "--no_ssh_check", "--force_multi", "--save_pid",
            "--elastic_training", "--bind_cores_to_rank")
HELP = ("-h", "--help")
INTEGERS = ("--num_nodes", "--min_elastic_nodes", "--max_elastic_nodes", "--num_gpus", "--num_accelerators",
            "--master_port", "--node_rank", "--ssh_port")          # type=int
ALIASES = {"--num_accelerators": "--num_gpus", "-H": "--hostfile", "-i": "--include", "-e": "--exclude",
           "-h": "--help"}
_LONG = tuple(o for o in VALUED + SWITCHES + HELP if o.startswith("--"))
RUNNER = "deepspeed's runner (v0.16.4)"


class Reading(NamedTuple):
    script_at: int                  # index of the script (len(words): none)
    options: Dict[str, str]         # each option given (its long name; --num_gpus for --num_accelerators): last value
    why: str = ""                   # where the words are not read to a launch: why
    refused: bool = False           # ... because its runner exits there (argparse), or raises before any rank


def read(words: List[str], k: int) -> Reading:
    """DeepSpeed's runner's reading of words[k:] (HOLE in a word not known statically)."""
    options: Dict[str, str] = {}
    j = len(words)
    while k < len(words):
        w = words[k]
        if w == "--":
            j = k + 1
            break
        if w.startswith(HOLE) and not w.endswith(".py") or HOLE in w.partition("=")[0] and w.startswith("-"):
            return Reading(k, options, f"{COMMAND}'s options hold a word not known statically ("
                           f"{w.replace(HOLE, '<unknown>')}): which options it gives, and where its script starts, are "
                           "not known here")
        if _positional(w):
            j = k
            break
        option, eq, value = w.partition("=") if w.startswith("--") else (w[:2], "", w[2:])
        eq = eq or ("=" if value else "")
        name = _option(option)
        if isinstance(name, list):
            why = f"{RUNNER} has no option {option}: its argparse exits with status 2 there (\"error: unrecognized " \
                "arguments\"), and a release that has one is not known here" if not name else \
                f"{RUNNER} reads {option} as an abbreviation of more than one of its options " \
                f"({', '.join(name)}): its argparse exits with status 2 there (\"error: ambiguous option\")"
            return Reading(len(words), options, why, True)
        if eq and option.startswith("--") and name in SWITCHES + HELP:
            return Reading(len(words), options, f"{RUNNER} takes no value for {option}: its argparse exits with "
                           f"status 2 there (\"error: argument {name}: ignored explicit argument\")", True)
        if name in HELP:
            return Reading(len(words), {"--help": ""})
        if name in SWITCHES:
            options[ALIASES.get(name, name)] = ""
            k += 1
            continue
        if not eq:
            value = words[k + 1] if k + 1 < len(words) else ""
            k += 1
            if value.startswith("-") and not _positional(value):
                if HOLE in value:
                    return Reading(k, options, f"{COMMAND}'s options hold a word not known statically ("
                                   f"{value.replace(HOLE, '<unknown>')}): which options it gives, and where its script "
                                   "starts, are not known here")
                return Reading(len(words), options, f"{RUNNER} takes a value after {option}, not the option-like "
                               f"{value!r}: its argparse exits with status 2 there (\"error: argument {name}: expected "
                               "one argument\")", True)
        k += 1
        if name in INTEGERS and HOLE not in value and not _integer(value):
            shown = "--num_gpus/--num_accelerators" if ALIASES.get(name, name) == "--num_gpus" else name
            return Reading(len(words), options, f"{RUNNER} takes an integer for {name}, not {value!r}: its argparse "
                           f"exits with status 2 there (\"error: argument {shown}: invalid int value\")", True)
        options[ALIASES.get(name, name)] = value
    if j >= len(words):
        return Reading(len(words), options)
    if ("--num_nodes" in options or "--num_gpus" in options) and ("--include" in options or "--exclude" in options):
        return Reading(j, options, f"{RUNNER} raises ValueError for --num_nodes or --num_gpus given with --include or "
                       "--exclude (\"Cannot specify num_nodes/gpus with include/exclude\"): it starts no script there",
                       True)
    for option, why in (("--no_python", "starts {script} itself, not with python: what that starts is not known here"),
                        ("--autotuning", "runs DeepSpeed's autotuner, which starts its own experiments: not followed "
                                         "here"),
                        ("--elastic_training", "starts the ranks through its elastic agent, which is not followed "
                                               "here")):
        if option in options:
            return Reading(j, options, f"{COMMAND} {option} " + why.format(script=words[j].replace(HOLE, "<unknown>")))
    return Reading(j, options)


# argparse's _negative_number_matcher (its parser has no such option; a pattern, compiled where first asked)
_NUMBER = r"-\d+|-\d*\.\d+"


def _positional(word: str) -> bool:
    """Whether argparse (python 3.9-3.13) reads a word as no option: not `-`-led, `-` alone, a negative number, or
    one with a blank that is no option's prefix (`-x y`; v0.16.4 and python 3.9, 3.13 gave these to the script or an
    option's value)."""
    return not word.startswith("-") or word == "-" or bool(re.fullmatch(_NUMBER, word)) or \
        " " in word and _option(word.partition("=")[0] if word.startswith("--") else word[:2]) == []


def _option(option: str):
    """The runner's option a word names: itself, or the one long option it abbreviates (python 3.9-3.13: argparse's
    allow_abbrev); a list of the candidates where it names none or several."""
    if option in VALUED + SWITCHES + HELP:
        return option
    if not option.startswith("--"):
        return []
    found = sorted(o for o in _LONG if o.startswith(option))
    return found[0] if len(found) == 1 else found


def _integer(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def ranks(options: Dict[str, str]) -> int:
    """The ranks it starts on a node: --num_gpus N (N > 0); -1 where they are the node's devices (none given, -1 or 0:
    its accelerator's device count, or ASCEND_RT_VISIBLE_DEVICES'), --include's or --exclude's, or not known."""
    value = options.get("--num_gpus", "")
    if "--include" in options or "--exclude" in options or HOLE in value or not _integer(value) or int(value) <= 0:
        return -1
    return int(value)


def nodes(options: Dict[str, str]) -> str:
    """What says which nodes it starts the script on, as emulate says it."""
    if options.get("--num_nodes") == "1" and "--force_multi" not in options:
        return f"  {COMMAND} starts it on this node alone (--num_nodes 1)"
    hostfile = options.get("--hostfile", HOSTFILE).replace(HOLE, "<unknown>")
    return (f"  {COMMAND} starts it on this node alone where its hostfile ({hostfile}) is not there or names one host; "
            "one that names more starts it on each of their nodes (through pdsh or --launcher): which, is not known "
            "here")
