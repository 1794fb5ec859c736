"""A command line's command word, as the interpreter needs it to follow child scripts: behind prefix commands
(`nohup`, `env A=b`, `taskset -c 0-3`, `timeout 60`, `mpirun -x A=b`) and a shell with its options (`bash -x
x.sh`), the shell script it runs and what `env` gives it; whether a script starts under `set -e`. launches.py
reads the same words for the Python and msprof launches."""

from __future__ import annotations

import re
from typing import Dict, MutableMapping, Optional, Tuple

from ..source.text import HOLE
from ..values.launch_args import Word
from .state import _ASSIGN, Setting

PYTHON = re.compile(r"(?:.*/)?python(?:\d(?:\.\d+)?)?$")
PREFIXES = {"nohup", "exec", "time", "command", "builtin", "stdbuf", "nice", "ionice", "env", "sudo",
            "taskset", "numactl", "mpirun", "mpiexec", "horovodrun", "srun", "timeout"}
SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}
# commands that name a .py file without starting it (`echo "run train.py"`, `cp train.py out/`, `scp train.py h:`)
# (launches.py's; here, with the other command names, so the cheap scan (engine/launch_scan.py) reads it without
# importing the walk)
NOT_STARTING = {"echo", "printf", "cat", "cp", "mv", "rm", "ls", "ln", "grep", "egrep", "sed", "awk", "tee", "mkdir",
                "chmod", "chown", "touch", "head", "tail", "find", "test", "[", "[[", "wget", "curl", "git", "cd",
                "export", "source", ".", "kill", "pkill", "ps", "dos2unix", "sha256sum", "md5sum", "wc", "tar",
                "unzip", "zip", "diff", "basename", "dirname", "readlink", "realpath", "read", "local", "declare",
                "scp", "rsync", "install", "sort", "cut", "du", "stat", "file", "less", "more", "vi", "vim", "patch"}
_POSITIONAL = re.compile(r"\d+(?:\.\d+)?[smhd]?|0x[0-9a-fA-F]+")      # timeout's duration, taskset's mask
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


def _after_prefix(words, k: int, base: str, given: MutableMapping[str, "Setting"], path: str, line: int) -> int:
    """The index of the command word after a prefix command (`nohup`, `taskset -c 0-3`, `env A=b`, `timeout 60`)
    and its options; `env`'s assignments go to `given`, as set at path:line."""
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
    if base in ("timeout", "taskset") and k + 1 < len(words) and _POSITIONAL.fullmatch(words[k].text):
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
