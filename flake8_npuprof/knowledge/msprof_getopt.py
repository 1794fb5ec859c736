"""Which words of a command line are msprof's (SplitApplicationArgv) and how glibc's getopt_long reads
them with the version's LONG_OPTIONS (an exact name or a unique prefix, ambiguity, optional and required
arguments); `parsed` does both once per version.
"""

from __future__ import annotations

from functools import lru_cache
from typing import List, NamedTuple, Optional, Sequence, Tuple

from .msprof_tables import Opt, facts, long_options


# ---------------------------------------------------------------- which words are msprof's

def split(words: Sequence[str], version: str) -> Tuple[int, int]:
    """SplitApplicationArgv: (how many words getopt reads, where the application starts). A `--name`
    without "=" takes the next word along as its value (8.5 and 9.0 always, 9.1 unless that word
    starts with "-" or there is none); the count may then pass the last word."""
    style = facts(version)["split"]
    count, i = 0, 0
    while i < len(words):
        word = words[i]
        if not word.startswith("--"):
            return count, i
        if "=" in word:
            count += 1
        elif style == "unless_option" and (i + 1 >= len(words) or words[i + 1].startswith("-")):
            count += 1
        else:
            count += 2
            i += 1
        i += 1
    return count, len(words)


# ---------------------------------------------------------------- glibc getopt_long, optstring ""

class Got(NamedTuple):
    at: int                     # the option's word
    opt: Optional[Opt]          # None: getopt's '?' (an error it printed, or no such option)
    arg: Optional[str]          # optarg (None: no argument)
    kind: str = ""              # for '?': unrecognized, ambiguous, no_argument, requires, short
    line: str = ""              # what getopt printed
    arg_at: int = -1            # the word a required argument was taken from


def getopt(words: Sequence[str], count: int, version: str) -> Tuple[List[Got], bool]:
    """The options glibc's getopt_long returns, in order, and whether it reads past the last word (the
    count SplitApplicationArgv gives is larger than the words: argv[argc] is a null pointer, and
    glibc dereferences it)."""
    table = long_options(version)
    out: List[Got] = []
    i = 0
    while i < count:
        if i >= len(words):
            return out, True
        word = words[i]
        if word == "--":
            break
        if not word.startswith("-") or word == "-":
            i += 1                  # a non-option: permuted to the end, never read
            continue
        if not word.startswith("--"):
            out.append(Got(i, None, None, "short", f"msprof: invalid option -- '{word[1]}'"))
            i += 1
            continue
        body = word[2:]
        name, eq, value = body.partition("=")
        found = next((o for o in table if o.name == name), None)
        if found is None:
            prefixed = [o for o in table if o.name.startswith(name)]
            if len(prefixed) > 1:
                out.append(Got(i, None, None, "ambiguous", f"msprof: option '--{body}' is ambiguous; possibilities:"
                               + "".join(f" '--{o.name}'" for o in prefixed)))
                i += 1
                continue
            if not prefixed:
                out.append(Got(i, None, None, "unrecognized", f"msprof: unrecognized option '--{body}'"))
                i += 1
                continue
            found = prefixed[0]
        i += 1
        if eq:
            if found.has_arg == "no":
                out.append(Got(i - 1, None, None, "no_argument",
                               f"msprof: option '--{found.name}' doesn't allow an argument"))
                continue
            out.append(Got(i - 1, found, value))
        elif found.has_arg == "required":
            if i < count:
                out.append(Got(i - 1, found, words[i] if i < len(words) else None, arg_at=i))
                i += 1
            else:
                out.append(Got(i - 1, None, None, "requires", f"msprof: option '--{found.name}' requires an argument"))
        else:
            out.append(Got(i - 1, found, None))
    return out, False


@lru_cache(maxsize=4096)
def parsed(words: Tuple[str, ...], version: str, complete: bool = True) -> Tuple[int, Tuple[Got, ...], bool]:
    """SplitApplicationArgv and getopt_long over msprof's words: (where the application starts, the options
    getopt returns, whether it reads past the last word). The same for every chip of a version, so a command
    line is parsed once per version and judged per chip (_Run); complete: no word stands for several."""
    count, app_start = split(words, version)
    if not complete:
        count = min(count, len(words))
    got, past_end = getopt(words, count, version)
    return app_start, tuple(got), past_end
