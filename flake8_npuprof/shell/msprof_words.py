"""msprof command lines as words: found in shell launchers, in shell strings and in argv lists, split the
way the shell splits them (quoting understood, an expansion is a hole), and read into msprof's options
and its application the way a user writes them (checks/msprof.py judges them).

msprof's own options come before the application (`msprof [options] python3 train.py`), unless
`--application="python3 train.py"` names it. A word we cannot read (an expansion such as
`$PROF_ARGS`, which may be several words) ends what we know: nothing after it is read.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..source.text import HOLE, StrValue
from .words import simple_commands

# Commands that run the command given after their own arguments (`nohup msprof ...`,
# `timeout 3600 msprof ...`, `mpirun -np 8 msprof ...`); any other command only mentions msprof.
_WRAPPERS = {"nohup", "sudo", "exec", "time", "env", "timeout", "taskset", "numactl", "stdbuf", "nice", "ionice",
             "setsid", "chrt", "mpirun", "mpiexec", "srun", "unbuffer"}
_SHELLS = {"sh", "bash", "zsh", "ksh", "dash"}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


# ---------------------------------------------------------------- words

class Word(NamedTuple):
    """One argv word: its decoded text (HOLE for unknown pieces) and where its characters are."""

    text: str
    place: Callable[[int, int], Tuple[int, int]]      # source span of text[i:j]
    source: str = ""                                   # the file's text, to tell whether a span is literal

    def literal(self, i: int, j: int) -> Optional[Tuple[int, int]]:
        """The source span of text[i:j] when it is written there character for character (fixable)."""
        start, end = self.place(i, j)
        return (start, end) if self.source[start:end] == self.text[i:j] and HOLE not in self.text[i:j] else None


def _value_word(value: StrValue, source: str) -> Word:
    from ..values.reader import place
    return Word(value.text, lambda i, j: place(value, i, j), source)


def _inner_word(inner: StrValue, outer: Word) -> Word:
    """A word read out of a string (a shell command inside a Python literal), placed in the file."""
    def place(i: int, j: int) -> Tuple[int, int]:
        a = inner.src(i)
        b = inner.src_end(j - 1) if j > i else a
        if a is None or b is None:
            return outer.place(0, len(outer.text))
        return outer.place(a, max(a, b))
    return Word(inner.text, place, outer.source)


def shell_commands(text: str) -> Iterator[List[StrValue]]:
    """The simple commands of a shell text, each as its words (decoded, mapped to `text`), as words.py splits them;
    here-document bodies are read too (a script the launcher writes)."""
    for cmd in simple_commands(text, bodies=True):
        if cmd.words:
            yield [w.value for w in cmd.words]


# ---------------------------------------------------------------- parsing msprof's argv

class Option(NamedTuple):
    word: Word
    name: str                   # without the leading "--"
    value: Optional[str]        # None: no "=" (msprof then sees no value)
    value_at: int               # index of the value in word.text
    detached: Optional[Word] = None     # `--output /p`: the word meant as the value (msprof skips it)

    @property
    def name_span(self) -> Tuple[int, int]:
        """`--name` in the word (what findings point at)."""
        return 0, 2 + len(self.name)


class Call(NamedTuple):
    msprof: Word
    options: Tuple[Option, ...]
    app: Tuple[str, ...]        # the application's argv as far as known ("" for an unknown word)
    complete: bool              # every word before the application was read
    words: Tuple[Word, ...] = ()    # every word after msprof, as msprof's argv[1:] (what its parser reads)


def find_msprof(words: Sequence[Word]) -> Optional[int]:
    """Index of the word that runs msprof in one command, or None."""
    k = 0
    while k < len(words) and _ASSIGNMENT.match(words[k].text):
        k += 1                                      # VAR=value msprof ...
    if k >= len(words):
        return None
    if _basename(words[k].text) == "msprof":
        return k
    if _basename(words[k].text) not in _WRAPPERS:
        return None
    for idx in range(k + 1, len(words)):
        if _basename(words[idx].text) == "msprof":
            return idx
    return None


def _shell_c(words: Sequence[Word]) -> Optional[Word]:
    """The command string of `bash -c "..."`, or None."""
    k = 0
    while k < len(words) and _ASSIGNMENT.match(words[k].text):
        k += 1
    if k < len(words) and _basename(words[k].text) in _SHELLS:
        for idx in range(k + 1, len(words) - 1):
            if words[idx].text == "-c":
                return words[idx + 1]
            if not words[idx].text.startswith("-"):
                break
    return None


def _calls(words: Sequence[Word], depth: int = 0) -> List[Call]:
    at = find_msprof(words)
    if at is not None:
        return [parse(words[at], words[at + 1:])]
    inner = _shell_c(words)
    if inner is not None and depth < 2:
        return calls_in_string(inner, depth + 1)
    return []


def _basename(text: str) -> str:
    return text.rsplit("/", 1)[-1]


def parse(msprof: Word, rest: Sequence[Word]) -> Call:
    options: List[Option] = []
    app: Tuple[str, ...] = ()
    complete = True
    k = 0
    while k < len(rest):
        word = rest[k]
        text = word.text
        if text.startswith("--") and len(text) > 2:
            eq = text.find("=")
            name = text[2:eq] if eq >= 0 else text[2:]
            if HOLE in name:
                complete = False
                break
            value = text[eq + 1:] if eq >= 0 else None
            # msprof counts `--name value` as two of its own words: the value is not read, and not the
            # application either; getopt still reads a following `--option` as an option
            detached = rest[k + 1] if eq < 0 and k + 1 < len(rest) and not rest[k + 1].text.startswith("--") \
                else None
            options.append(Option(word, name, value, eq + 1 if eq >= 0 else len(text), detached))
            k += 2 if detached is not None else 1
            continue
        if text.startswith(HOLE):
            complete = False                        # `$ARGS`: options or the application, we cannot tell
            break
        app = tuple("" if HOLE in w.text else w.text for w in rest[k:])
        break
    given = next((o.value for o in reversed(options) if o.name == "application" and o.value), None)
    if given is not None and HOLE not in given:
        app = tuple(given.split(" "))
    return Call(msprof, tuple(options), app, complete, tuple(rest))


def calls_in_shell(text: str) -> List[Call]:
    out: List[Call] = []
    for values in shell_commands(text):
        if any("msprof" in v.text for v in values):     # else neither msprof nor a `bash -c` that runs it
            out.extend(_calls([_value_word(v, text) for v in values]))
    return out


def calls_in_string(outer: Word, depth: int = 0) -> List[Call]:
    """msprof runs inside a shell command string (os.system, shell=True, bash -c)."""
    out: List[Call] = []
    for values in shell_commands(outer.text):
        if any("msprof" in v.text for v in values):
            out.extend(_calls([_inner_word(v, outer) for v in values], depth))
    return out


def parse_command(cmdline) -> Optional[Call]:
    """The msprof run in a command line (a shell string or an argv list), or None."""
    def plain(text: str) -> Word:
        return Word(text, lambda i, j: (i, j), text)
    if isinstance(cmdline, str):
        calls = calls_in_string(plain(cmdline))
        return calls[0] if calls else None
    calls = _calls([plain(str(w)) for w in cmdline])
    return calls[0] if calls else None
