"""A command line's command word, as the interpreter needs it to follow child scripts: behind prefix commands
(`nohup`, `env A=b`, `taskset -c 0-3`, `timeout 60`, `mpirun -x A=b`) and a shell with its options (`bash -x
x.sh`), the shell script it runs and what `env` gives it; whether a script starts under `set -e`. launches.py
reads the same words for the Python and msprof launches."""

from __future__ import annotations

import functools
import json
import os
import re
from typing import Dict, List, MutableMapping, NamedTuple, Optional, Tuple

from ..source.text import HOLE
from ..values.launch_args import Word
from .command_words import NOT_STARTING, PREFIXES, PYTHON, SHELLS  # noqa: F401 (the scan reads them there)
from .state import _ASSIGN, Setting

_POSITIONAL = r"\d+(?:\.\d+)?[smhd]?|0x[0-9a-fA-F]+"      # timeout's duration, taskset's mask (compiled where asked)
# a path to a shell script, parts of it maybe unknown (HOLE), not a word such as `echo"usage:./x.sh"`
_SCRIPT_PATH = re.compile(r"[\w./~+" + HOLE + r"-]*\.sh")


def _child_script(words, path: str, line: int) -> Tuple[Optional["Word"], bool, Dict[str, "Setting"]]:
    """The shell script a command runs (`./x.sh`, `bash -x x.sh`, behind taskset/nohup/env A=b/...), or None;
    whether a shell is named for it (`bash x.sh` reads x.sh from the current directory; a bare `x.sh` is looked
    up on PATH); and what `env A=b` gives it."""
    k = 0
    given: Dict[str, "Setting"] = {}
    while k < len(words):
        if _dropped(words, k):
            k += 1
            continue
        base = words[k].text.rsplit("/", 1)[-1]
        if base in PREFIXES and base not in ("mpirun", "mpiexec", "horovodrun", "srun"):
            grammar = grammar_of(words, k, base)
            p = read_prefix(words, k, grammar) if grammar is not None else None
            if p is not None and (p.clears or p.unsets or p.chdir is not None or p.resets or p.login):
                return None, False, given   # another environment or folder: not followed (launches.py says so)
            k = _after_prefix(words, k, base, given, path, line)
            continue
        shell = base in SHELLS
        if shell:
            k = _shell_operand(words, k)
            if k < len(words) and words[k].text == "-c":
                return None, True, given    # a command string: not a script (_launch says it is not read)
        return (words[k] if k < len(words) and _SCRIPT_PATH.fullmatch(words[k].text) else None), shell, given
    return None, False, given


def _shell_errexit(words, script: "Word") -> bool:
    """Whether the shell a script is run with starts it under set -e (`bash -e x.sh`, `sh -ex x.sh`)."""
    k = next(i for i, w in enumerate(words) if w is script)
    shell = max((i for i in range(k) if words[i].text.rsplit("/", 1)[-1] in SHELLS), default=k)
    opts = [w.text for w in words[shell + 1:k]]
    return any((o.startswith("-") and not o.startswith("--") and "e" in o[1:]) or
               (o == "errexit" and j > 0 and opts[j - 1] == "-o") for j, o in enumerate(opts))


def _shell_operand(words, k: int) -> int:
    """The index of the script after a shell and its options (`bash -x run.sh`, `bash -o pipefail run.sh`), or of
    its `-c`."""
    k += 1
    while k < len(words) and words[k].text.startswith("-") and words[k].text != "-c":
        k += 2 if words[k].text in ("-o", "+o") else 1
    return k


class Prefix(NamedTuple):
    """What a prefix command does with the command it runs, read by its grammar (data/prefix_commands.json)."""
    at: int                             # the index of that command's word (len(words): none)
    given: Tuple[Tuple[str, "Word"], ...] = ()     # NAME=VALUE words: its environment (`env A=1`)
    clears: str = ""                    # the option that starts it with an empty environment (`env -i`, `exec -c`)
    unsets: Tuple[str, ...] = ()        # the variables it removes (`env -u X`)
    chdir: Optional[str] = None         # the folder it runs in (`env -C DIR`, `sudo -D DIR`), HOLE where not known
    split: Optional[str] = None         # the string whose words are the command (`env -S "python3 x.py"`)
    resets: bool = False                # sudo without -E: the environment is the security policy's
    kept: Tuple[str, ...] = ()          # ... but for these (`sudo --preserve-env=A,B`)
    login: str = ""                     # sudo -i: the target user's login shell runs it, in that user's home
    nothing: str = ""                   # the option after which it runs no command (`command -v`, `taskset -p`)
    unknown: str = ""                   # why the command it runs is not known (an option its grammar lacks)
    builtins: bool = False              # it runs a shell builtin only (`builtin`)


@functools.lru_cache(maxsize=None)
def _grammars() -> Dict[str, dict]:
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "prefix_commands.json")
    with open(path, encoding="utf-8") as fh:
        return {name: g for name, g in json.load(fh).items() if not name.startswith("$")}


def grammar_of(words, k: int, base: str) -> Optional[dict]:
    """The grammar of the prefix command at k, None for one read by _takes_value (mpirun, ...). `time` at the head
    of a command is bash's keyword (`time -p`); behind another word or as a path it is the program (GNU time)."""
    if base == "time" and (words[k].text != "time" or any(words[i].text for i in range(k))):
        base = "/usr/bin/time"
    return _grammars().get(base)


def read_prefix(words, k: int, grammar: dict) -> Prefix:
    """The prefix command at k read as its program reads its words (getopt_long with a leading '+')."""
    name, j = words[k].text, k + 1
    found: Dict[str, object] = {}
    unsets: List[str] = []
    kept: List[str] = []

    def first(key: str):
        return next((found[o] for o in grammar.get(key, ()) if o in found), None)

    longs = [o for key in ("value", "flag", "optional", "nothing") for o in grammar.get(key, ()) if len(o) > 1]
    while j < len(words):
        t = words[j].text
        if t == "--":
            j += 1
            break
        if t == "-" and "-" in grammar.get("clears", ()):
            found["clears"] = t                                 # `env -`: as -i
            j += 1
            break
        if not t.startswith("-") or t == "-":
            break
        if grammar.get("number") and t[1:].isdigit():
            j += 1                                              # `nice -5`: the niceness
            continue
        if t.startswith("--"):
            opt, eq, value = t[2:].partition("=")
            full = [o for o in longs if o == opt] or [o for o in longs if o.startswith(opt)]
            if len(full) != 1:
                return Prefix(len(words), unknown=_refused(name, t))
            opt = full[0]
            if opt in grammar.get("value", ()) and not eq:
                j += 1
                value = words[j].text if j < len(words) else ""
            found[opt] = value if eq or opt in grammar.get("value", ()) else True      # (the last one given wins)
            if opt in grammar.get("keeps", ()):
                # (sudo's --preserve-env=LIST adds to those kept, and may be given more than once; alone it is -E)
                kept.extend(value.split(",") if eq else ("",))
            if opt in grammar.get("unsets", ()):
                unsets.append(value)
            j += 1
        else:
            i = 1
            while i < len(t):
                c = t[i]
                if c in grammar.get("value", ()):
                    value = t[i + 1:]
                    if not value:
                        j += 1
                        value = words[j].text if j < len(words) else ""
                    found[c] = value
                    if c in grammar.get("unsets", ()):
                        unsets.append(value)
                    break
                if c not in grammar.get("flag", ()) and c not in grammar.get("nothing", ()) and \
                        c not in grammar.get("clears", ()):
                    return Prefix(len(words), unknown=_refused(name, "-" + c))
                found[c] = True
                i += 1
            j += 1
        stop = next((o for o in found if o in grammar.get("nothing", ())), None)
        if stop is not None:
            return Prefix(len(words), nothing=f"{name} {'-' if len(stop) == 1 else '--'}{stop}")
        if any(o in found for o in grammar.get("splits", ())):
            break           # (coreutils 9.1 env.c: its words go where the option was, and are read as options first)
    given = []
    while grammar.get("assigns") and first("splits") is None and j < len(words):
        m = _ASSIGN.match(words[j].text)
        if m is None:
            break
        given.append((m.group(1), words[j]))
        j += 1
    j += grammar.get("operands", 0) if first("splits") is None else 0

    return Prefix(min(j, len(words)), tuple(given), "-" if found.get("clears") == "-" else
                  next((("-" if len(o) == 1 else "--") + o for o in grammar.get("clears", ()) if o in found), ""),
                  tuple(unsets), first("chdir"), first("splits"),
                  bool(grammar.get("resets")) and first("keeps") is not True and "" not in kept,
                  tuple(n for n in kept if n),
                  next((("-" if len(o) == 1 else "--") + o for o in grammar.get("login", ()) if o in found), ""),
                  builtins=bool(grammar.get("builtins")))


def _refused(name: str, option: str) -> str:
    return f"it runs `{name} {option}`, an option not in {name}'s grammar here (data/prefix_commands.json; or one " \
        "its getopt finds ambiguous): what it starts is not known here"


def _after_prefix(words, k: int, base: str, given: MutableMapping[str, "Setting"], path: str, line: int) -> int:
    """The index of the command word after a prefix command (`nohup`, `taskset -c 0-3`, `env A=b`, `timeout 60`)
    and its options (len(words) when it runs none, or none known); `env`'s assignments go to `given`, as set at
    path:line."""
    grammar = grammar_of(words, k, base)
    if grammar is not None:
        p = read_prefix(words, k, grammar)
        for name, w in p.given:
            given[name] = Setting(w.text[len(name) + 1:], path, line, w.start, "inline")
        return len(words) if p.nothing or p.unknown or p.split is not None else p.at
    k += 1
    while k < len(words) and (words[k].text.startswith("-") or _ASSIGN.match(words[k].text) or
                              _takes_value(words[k - 1].text) or
                              any(x.text in _TWO_VALUES for x in words[max(k - 2, 0):k])):
        m = _ASSIGN.match(words[k].text)
        # `env A=b cmd`, and `mpirun -x A=b cmd`, which sets A for every rank
        if m and (base == "env" or (base in ("mpirun", "mpiexec") and words[k - 1].text == "-x")):
            w = words[k]
            given[m.group(1)] = Setting(w.text[m.end():], path, line, w.start, "inline")
        k += 1
    if base in ("timeout", "taskset") and k + 1 < len(words) and re.fullmatch(_POSITIONAL, words[k].text):
        k += 1                          # `timeout 3600 cmd`, `taskset 0xff cmd`: the duration or the mask
    return k


def _errexit_shebang(path: str) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return _errexit_line(fh.readline())
    except OSError:
        return False


def _errexit_line(first: str) -> bool:
    """`#!/bin/bash -e`: the script runs with set -e from its first line."""
    return first.startswith("#!") and "-" in first and bool(re.search(r"\s-[a-z]*e", first))


def _dropped(words, k: int) -> bool:
    """A word the command line does not run: an unquoted expansion that is empty (the shell drops it), or one not
    known statically in front of python (`${bind_core} python3 x.py`: a wrapper such as taskset, kept in a
    variable)."""
    w = words[k]
    return not w.text or (not w.known and k + 1 < len(words) and bool(PYTHON.match(words[k + 1].text)))


_TWO_VALUES = {"-mca", "--mca", "-gmca", "--gmca"}      # mpirun's `-mca plm_rsh_agent ssh`: a name and a value


def _takes_value(option: str) -> bool:
    # (Open MPI's mpirun(1): `--output-filename <filename>`, also spelled with one dash; mindspore-ai/models'
    # `mpirun -n 8 --output-filename log_output --merge-stderr-to-stdout python train.py`)
    return option in ("-np", "-n", "-N", "-c", "-H", "-x", "--host", "-hostfile", "--hostfile", "-C", "-m",
                      "--cpunodebind", "--membind", "--physcpubind", "-p", "--map-by", "--bind-to", "-map-by",
                      "-bind-to", "-k", "-s", "--output-filename", "-output-filename")
