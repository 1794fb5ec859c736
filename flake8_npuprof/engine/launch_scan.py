"""Whether `check` needs the walk of a launcher that names no profiling word but starts a Python script.

emulate/scan.py leaves unwalked a launcher that can start no script. One that starts a script is walked only
for that script's sake: `check` reports what a launch passes to a script that holds a profiling setup (NPP205,
an options value), and a script fails the prefilter the flake8 plugin runs (source/prefilter.py) when it holds
none. So when every script the launcher can name is such a script, its findings are its own lines' (its check
costs about what reading it costs), unless the walk stops at a bound (NPP191). Decided without the walk, and only
where that is certain (why_walked says what is not):

- the launcher names no profiling word ("prof" in any case). What it finds with such a word (PROFILING_OPTIONS,
  msprof, PROFILE_TYPE, NPP015) is read from the launcher's own text; a launch in a file it runs or sources is
  reported on that file (shell_launches._prepared), so those files' words only decide what is walked;
- the files it runs or sources (`bash x.sh`, `source env`, `. ./env.sh`) are followed with the same scan, found by
  their names as the walk finds them (below the folders its relative paths reach; not a name that enters no file:
  a bare `x.sh` heading its command, which the walk runs from no path, a `.sh` after a `:` in a command's first
  word, `echo"usage:./x.sh"`, nor a `source` in a command an option heads, `--data_path source data` of a help
  text, unless a function has that name), to MAX_SOURCED deep, no file
  twice on one chain, each within the read bound: every script the launcher and the files it may source can name
  counts (a launcher that sources a `.sh` starting a profiled script is walked); a file every place that names it
  runs in a new shell (`bash x.sh`, `./x.sh`, _sources_none) is followed for its commands, levels and absolute
  paths (where the walk may stop: NPP191), but its launches are its own, reported on it, and nothing it sets comes
  back;
- every `.py` word ends in a name written out (`${dir}/train.py`, not `${name}.py`; `*_test.py` is looked for as
  written, since the walk expands no pattern; a name cut short by `${x#y}` is one of the files whose name ends
  its written one; a name held in a variable is used whole), a `-m` module is named (the files it can be:
  `pkg/mod.py`, `pkg/mod/__init__.py` below the region or in a folder above it), and no extension or `-m` is computed
  (nor joined from values: `${X}y`, `t$1`, `S+=y`, `F=-m`: checks/shell_scan.JOINED; but a cut of a loop's
  variable the walk knows no value of, `${f%.*}`, and `.${m}` of loops over words written out that make no `.py`
  or `.sh`: _loops_read);
  a word that starts with a variable no text sets (`${cur_path}/x.py`), or with the launcher's own arguments
  outside a function (`$3/x.py`), or with a variable the texts set only to those (`code_dir=$1`), is not known
  to the walk, which starts no script for it; one that starts with a variable the texts set only to names
  written out (`cur_path='pwd'`, at a command's head: not exported, read, appended to) is a file whose path
  ends with that name and the rest of the word (`pwd/x.py`);
- every absolute path (`/data/x`, `"/home/u/$d"`, `~/x` as the walk's `cd` reads it) is one the directories
  cannot reach a script through: it does not exist (with as many levels up as the texts go up), it is in the
  region listed, or it is only a program's argument (`cp /data/x .`, `--data_dir=/data`, in a substitution of a
  command whose output the walk does not know, `$(grep -c x /proc/cpuinfo)`: not an assignment's
  value, not on a command through which an argument becomes a directory, a script or a variable: `cd`,
  `source`, `export`, a loop, a function, a shell script run), also as the value of a variable assigned at a
  command's head whose every reading is such an argument (`DATA_DIR=/data` ... `--data_dir=${DATA_DIR}`), or the
  value of another such variable (`T="${DATA_DIR}/t"`), or a default or alternative that starts such a value
  (`R="${B:-/tmp}/x"`; not `${B:=/tmp}`, which sets B); a `-m` module beside one is left to the walk;
- the directories the walk can reach are then below the launcher's folder or above it by at most as many levels
  as the texts write `..` or `dirname` (a `..` in a value read once, none in a value no text reads, _unread; no
  value cut at a `/`, `${PWD%/*}`; not
  `dirname $0`: the file's own folder; nor those of a file run in a new
  shell that names no file to run or source: where it goes, nothing the scan follows is), counted as often as they can
  run: a function body once per call, a loop over the arguments once per argument (how many words a line gives
  at most, a variable that holds no blank one word, _one_word; in a file only run, the words after its name where
  it can be run: not where it is a bare command,
  which the walk does not run, nor where its name's path is none of that file's), a sourced file once per
  `source` of it, a file it runs once (a new shell: its `cd` does not come back);
- the walk cannot stop: the commands, counted that way, stay under shell/state.MAX_COMMANDS (where a function may
  be called from another file of the shell, each body once per walk of each place that names it, in any file; a
  command headed by an expansion, `${t}`, counts as a call of each function of its shell, and none is called inside
  itself);
- every file with one of the scripts' names in that region (found by a listing of it, built from each folder's
  entries, kept while the folder's time is the same) fails the prefilter (checks/shell_scan.may_have_setups:
  the walk's launches ask the same).
A folder link in the region, a region of more than MAX_ENTRIES entries (its listing would cost more than the
walk), or any doubt: the launcher is walked. What cannot change with the files it follows (its own commands, its
own absolute paths) is decided before anything is listed, and a launcher that names no script, module or file to
follow is settled there: wherever it goes, it can start nothing.
"""

from __future__ import annotations

import bisect
import copy
import os
import re
import stat
import threading
from itertools import accumulate, chain, compress, count, filterfalse, islice, repeat
from operator import add, contains
from types import ModuleType
from typing import Any, Callable, Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

from ..checks.shell_scan import JOINED, JOINED_SEARCHES, Gated, may_have_setups as _may_have_setups, may_start
from ..shell.state import MAX_COMMANDS, MAX_SOURCED
from ..shell.words import MAX_LAUNCHER
from ..source import observed
from ..source.files import ReadError, decode_shell, read_bytes

MAX_LEVELS = 4                  # folders above the launcher's
MAX_ENTRIES = 2000              # files and folders a region may hold (a listing costs more than a walk past it:
                                # on the issue's tree, 1,000 cost 55M more, 1,500 10M more, 3,000 5M more)
MAX_FILES = 32                  # the launcher and the files it runs or sources, followed
# listings kept: the launchers of one project share theirs and files are checked folder by folder, so a few
# serve a whole tree (256 held a tree's every listing: 9 MB over the model zoo's 16,218 files, 0.6 MB at 4,106)
MAX_REGIONS = 16
# what the scan cannot follow: an extension made from an expansion (`train.$ext`, `${name}py`), a substitution or
# substring of a value (`${x/a/b}`, `${x:2}`: any name; a cut from its end, `${x%y}`, which leaves `big.sh` of
# `big.shy`, a value no name ends; its case changed or transformed, `${x,,}`, `${x@L}`; a cut at a `/` is _CUT_UP's),
# `set --` (arguments the launcher's loops then walk)
# (each alternative starts with a character, which the search looks for first: `s(?<!\ws)` is `\bs`)
# (searched one by one, each by the characters it starts with: together they were tried at every `s`, `$` and `.`;
# each only where the text holds them, _computed; `${name}py` is JOINED's first, `\}(?:py|sh)\b` one search more)
# (a quote or backslash inside a script's extension, `./x.s"h"`, `x."py"`, `x.s\h`: bash removes them; the `.` searched
# once for it and for the `.$ext` before it)
_COMPUTED = (re.compile(r"""\.(?:[ps]?[$`]|(?=["'\\]+(?:s["'\\]*h|p["'\\]*y)|s["'\\]+h|p["'\\]+y)[sp]?["'\\])"""),
             re.compile(r"\$\{[#!]?(?=(\w+))\1(?:\[[^\]]*\])?(?:/|:(?:[ \t]*[\w$(]|[ \t]+-)|%(?!%?/)|[\^,~@])"),
             re.compile(r"set(?<!\wset)[ \t]+--")) + JOINED       # (`set --` where a word starts: not `reset --x`)
# (JOINED: a name joined from values, `${X}y`, `t$1`, `S+=y`, `-$M`: checks/shell_scan.py)
# (a substring's offset: `${x:2}`, `${x: -2}`, `${x:(-2)}`, `${x:n}`, `${x:$n}`; not `${PORT:-29500}`, the default-value
# expansion: bash reads `:-` as that, and a negative offset must be set off from the colon by a blank or
# parentheses, as its manual says; bash 5.2: x=abcdef gives ef for `${x: -2}` and `${x:(-2)}`, abcdef for `${x:-2}`)
# (`(?=(\w+))\1`: a name taken whole, as `\w+` is in any match here, since no word character can follow it; the
# search gave it back a character at a time at every `${name}`: half of what these two searches cost)
# a value cut at a `/` of its pattern (`${PWD%/*}`, `${0%/*/*}`, `${d%/$x}`: a folder up, which no `..` or `dirname`
# counts) or at a pattern from a value (not `${1%/}`, a trailing `/`; the pattern read to its first `/`, `$`, `` ` ``)
# (led by the `%` after a name or index, `${PWD%`, `${a[0]%`: led by `${`, it cost as much as the other searches)
_CUT_UP = re.compile(r"%(?<=[\w\]]%)%?[^}$`\n/]*(?:/+(?![/}])|[$`])")
_CUT_NAME = re.compile(r"\$\{[#!]?\w+(?:\[[^\]\n$]*\])?")     # (what stands before a cut's `%`: `${PWD`, `${a[0]`)
# a line that is a comment (after the line break before it: a search led by it; `^` with re.M was tried at every
# character, 21 M of the 148 texts the issue's tree scans)
_COMMENT = re.compile(r"\n[ \t]*#[^\n]*")
# deepspeed's --module (or an abbreviation its argparse takes: `--mo`, `--modu=`): it runs the module as `python -m`
# (shell/deepspeed.py), a script no `.py` word or `-m` names
# (a `\` after it too: `--module\`, newline, `  trainer` is bash's `--module trainer`)
# (led by the `--mo`, what stands before it looked at there: led by the lookbehind, it was tried at every character,
# 5.8M over the 145 texts p130's settled launchers scan, where `--mode`, `--model_dir` hold `--mo`)
_MODULE_OPTION = re.compile(r"""--mo(?<![\w-]--mo)(?:d(?:u(?:le?)?)?)?(?=[=\s;&|)'"\\]|$)""")
# a word from the root or a home folder, each led by its character; found as one search of `[/~]...` finds them
# (_leftmost: a set of characters tried at every one cost 22 M)
_ROOTED = (re.compile(r"/[^\s'\";&|()<>`]*"), re.compile(r"~[^\s'\";&|()<>`]*"))
# a `/` at the text's start or after one of _STARTS_AFTER, to the end of its word as _ROOTED[0]'s (led by the `/`, the
# lookbehind tried only there: of the 1,225 matches of _ROOTED[0] in the 126 texts of the issue's tree the scan reads,
# 221 stand there, the rest inside a word, `${d}/x`, each one step of the loop)
_ROOTED_AFTER = re.compile(r"/(?<![^ \t\n=(:;&|`<>'\"]/)[^\s'\";&|()<>`]*")
_LITERAL_END = re.compile(r"[$*?\[{\\]")         # where a word stops being written out
_IDENT = re.compile(r"\w+")
_VARIABLE = re.compile(r"[A-Za-z_]\w*")
_RUN_ENDS = frozenset("'\";&|()<>`")          # (with the blanks: what ends a match of _ROOTED)
_DEFAULT = re.compile(r"\$\{(?=(\w+))\1:?[-=+?]['\"]?([/~][^}'\"\s]*)")      # (the name: as _COMPUTED's)
_URL = re.compile(r"(?:https?|ftp|git|ssh|s3|obs):$")   # `http://x`: a relative `http:` folder, never the root
_PY = re.compile(r"\.py")                               # the end of a script's name (the word: _word_before)
_SH = re.compile(r"\.sh(?!\w)")
_SOURCED = (re.compile(r"source[ \t]+(\S+)"), re.compile(r"\.[ \t]+(\S+)"))      # (as `(?:source|\.)...`: _leftmost)
_SOURCE_HEAD = re.compile(r"(?:^|[\s;&|(){}`])(?:source|\.)[ \t]")
# (no module after it, group 1 None: at a line's end or before a quote, `\\` or `=`)
_MODULE = re.compile(r"-m(?:$|[ \t]+['\"]?([^\s;&|()<>`'\"]*)|(?=[\"'\\=\r]))", re.M)
_FUNCTION = re.compile(r"function[ \t]+([\w.:-]+)")       # a function definition, or `name()`:
_PARENS = re.compile(r"\([ \t]*\)")
_PARENS_AFTER = re.compile(r"[ \t]*\([ \t]*\)")
_FUNCTION_NAME = re.compile(r"[\w.:-]+")                    # (each word that may call one)
_NAME_BEFORE = re.compile(r"([\w.:-]+)[ \t]*$")      # (searched by _name_before, in linear time)
# what the count of commands and levels reads: an operator or line break ends a command (each of `\n;&|()``
# counts one); `do`/`done` at a command's head open and close a loop body; `..` and `dirname` go one folder up
# (at a command's head; `for((i=0; ...))` too, whose head would otherwise reach back to the loop before it)
# (`(`: `for((` alone) (each word searched alone: as one alternation, tried at every character; no match of one
# can hold another's, so together they are the matches of `(for|while|until|select|do|done)(?=...)`)
_LOOP_WORDS = tuple((w[:2] if w.startswith("do") else w, re.compile(r"(%s)(?=$|[\s;&|(])" % w, re.M))
                    for w in ("for", "while", "until", "select", "do(?:ne)?"))     # (each with what it starts with)
_DOTS = re.compile(r"\.\.+")                            # `..` (not `...`)
_ENDS = b"\n;&|()`"                 # (each ends a command, counted one: _Text's stretches, in bytes)
# a loop the walk runs once per argument (shell/control.Walk._evaluated): over `$*`/`$@`, `for x` alone, a `while` that
# tests `$1`/`$#` or runs getopts; any other loop body is walked once
_OVER_ARGS = re.compile(r"\$\{?[@*1#]|getopts")
# `for x` (over the arguments), in the loop's head (`\r`: a CRLF file's, which the walk reads as a blank)
_FOR_ALONE = re.compile(r"for[ \t]+\w+[ \t\r]*(?:[;\n]|$)")
_NAME = re.compile(r"[\w.+-]+")
_GLOB = re.compile(r"[\w.+*?\[\]-]+")     # `*_test.py`: the walk expands no pattern, it looks for that name
_BRACE = re.compile(r"\s*\{")
_LEAD = re.compile(r"\$(?:(\w+)|\{(\w+)\})/")             # `$dir/`, `${dir}/`, `$3/` (not `${dir:-.}/`)
# `dirname $0` (and of `readlink -f $0`, `${BASH_SOURCE[0]}`): the file's own folder, in the region; not a level up
_SELF = r"(?:\$0|\$\{0\}|\$\{?BASH_SOURCE(?:\[0\])?\}?)"
_OWN_FOLDER = re.compile(r"dirname[ \t]+[\"']?(?:%s|\$[({][ \t]*(?:readlink[ \t]+-f|realpath)[ \t]+[\"']?%s[\"']?"
                         r"[ \t]*[)}])[\"']?(?=$|[\s)`;&|])" % (_SELF, _SELF))
_BOUNDARY = " \t\n=(:;&|`<>"
_STARTS_AFTER = frozenset(_BOUNDARY + "'\"")        # what a word _starts_word accepts may follow (a quote: it looks on)
_UP = re.compile(r"^(?:\.\.?(?:/+|$))+")
_COMPUTED_PART = re.compile(r"[$`*?\[]")
# where the expansions of a word end (`$x`, `${x}`, `$(...)`, a backtick): what follows the last, written out, is its tail
_VARIABLE_HEAD = re.compile(r"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})")   # (a head by value that is one variable)
_EXPANDED_END = re.compile(r"\$(?:\w+|[@*#?!$-]|\{[^}]*\}|\([^)]*\))|`[^`]*`")

# folder -> (folder mtimes, its files by name, the check run's memo of times it was last found the same under, if any)
_regions: Dict[str, Tuple[Dict[str, int], "_Listing", Optional[Dict[str, Any]]]] = {}
_refused: Set[str] = set()                                               # folders over MAX_ENTRIES


def _leftmost(patterns, text: str):
    """The matches of an alternation of these patterns (`(?:a|b)` for (a, b)) as its finditer gives them, where no
    two can start at one place (each is led by its own characters): at each step the leftmost of their next
    matches, searched again from its end (a match of one may hold where another's starts)."""
    ahead = [p.search(text) for p in patterns]
    found = [x for x in ahead if x is not None]
    if len(found) < 2:                  # (one has matches, or none: its own)
        if found:
            yield from found[0].re.finditer(text, found[0].start())
        return
    while True:
        m = min((x for x in ahead if x is not None), key=lambda x: x.start(), default=None)
        if m is None:
            return
        yield m
        at = m.end() + (m.end() == m.start())
        ahead = [p.search(text, at) if x is not None and x.start() < at else x for p, x in zip(patterns, ahead)]


def _rooted(text: str):
    """The matches of _leftmost(_ROOTED, text) at the text's start or after one of _STARTS_AFTER (_starts_word's
    answer, without the call; not inside a word, `${d}/x`), which the scan reads for absolute paths. Without a `~`,
    those of _ROOTED_AFTER, less one after `=` or `:` that a match of _ROOTED[0] from a `/` before it in its word
    holds (`a/b=/c`: `/b=/c`)."""
    if "~" in text:
        for m in _leftmost(_ROOTED, text):
            if not m.start() or text[m.start() - 1] in _STARTS_AFTER:
                yield m
        return
    for m in _ROOTED_AFTER.finditer(text):
        k = m.start() - 1
        if k > 0 and text[k] in "=:":
            while k:
                k -= 1
                c = text[k]
                if c == "/" or c in _RUN_ENDS or c.isspace():
                    break
            if text[k] == "/":
                continue
        yield m


def _uncommented(text: str) -> str:
    """The text without its comment lines (`^[ \\t]*#[^\\n]*` with re.M, taken out; their line breaks kept)."""
    if "#" not in text:
        return text
    return _COMMENT.sub("\n", "\n" + text)[1:]


def _lead(pattern: "re.Pattern[str]") -> str:
    """The characters every match of the pattern starts with: its written-out start (`${` of `\\$\\{[#!]?...`), less a
    last one a quantifier follows (`se` of `set?`); "" where an alternative outside a group may start otherwise."""
    source, k, depth = pattern.pattern, 0, 0
    if pattern.flags & re.X:
        return ""
    while k < len(source):
        c = source[k]
        if c == "[":                    # (a class: to its `]`, which may stand first, `[]x]`, `[^]x]`)
            k += 1 + (source[k + 1:k + 2] == "^")
            k += source[k:k + 1] == "]"
            while k < len(source) and source[k] != "]":
                k += 1 + (source[k] == "\\")
        elif c == "\\":
            k += 1
        elif c in "()":
            depth += 1 if c == "(" else -1
        elif c == "|" and not depth:
            return ""
        k += 1
    tokens: List[str] = []
    written = _WRITTEN.match(source)
    while written:
        tokens.append(written.group())
        written = _WRITTEN.match(source, written.end())
    if tokens and source[len("".join(tokens)):][:1] in ("?", "*", "{"):
        tokens.pop()
    return "".join(t[-1] for t in tokens)


# a character a pattern writes out (`\.`, `a`; not a class, group, escape of a letter, anchor or quantifier)
_WRITTEN = re.compile(r"\\[^\w]|[^\\\[\](){}.?*+|^$]")


def _computed(text: str, lines: Optional[List[str]] = None) -> Optional[str]:
    """The first of _COMPUTED's in the text (`set --` only where a word starts), or None (lines: the text's split)."""
    lines = text.split("\n") if lines is None else lines
    fresh = list(filterfalse(_clean.__contains__, islice(lines, 1, None)))     # (asked in C)
    local = text if len(fresh) == len(lines) - 1 else "\n".join([lines[0], *fresh])
    found = _first_computed(local, _IN_LINES)
    if found is None:                   # (none in the text's lines: none in the lines known clean either)
        if len(_clean) + len(fresh) > MAX_CLEAN:
            _clean.clear()
        _clean.update(line for line in fresh if len(line) <= _LONG_LINE)     # (held as long as the process)
    elif local is not text:
        found = _first_computed(text, _IN_LINES)    # (where in the text)
    across = _first_computed(text, _ACROSS_LINES)
    first = min(filter(None, (found, across)), default=None)
    return None if first is None else first[2]


def _unfollowed(text: str) -> str:
    """Why the scan cannot follow a text (without its comment lines) for what it reads in it alone, before any other
    question ("": it can): a line over the bound, a computed name, a path cut by a pattern."""
    lines = _lines(text)                # (_computed's too)
    if len(text) > _LONG_LINE and max(map(len, lines)) > _LONG_LINE:
        # (the questions of a word below read its command back to its start: on one line of 20,000 `. ` that took
        # 2.8 s, as the square of the line; the zoos' 4,110 launchers hold two lines over the bound, 2,202 each)
        return f"a line over {_LONG_LINE:,} characters"
    computed = _computed(text, lines)
    if computed:
        return f"a computed name ({computed.strip()})"
    module = _MODULE_OPTION.search(text) if "--mo" in text else None
    if module:
        return f"a module deepspeed may run ({module.group().strip()})"
    for cut in _CUT_UP.finditer(text) if "%" in text else ():
        brace = text.rfind("${", max(0, cut.start() - 80), cut.start())
        if brace >= 0 and _CUT_NAME.fullmatch(text, brace, cut.start()):     # (not `date +%Y%m%d-%H`)
            return f"a path cut by a pattern ({text[brace:cut.end()]})"
    return ""


def _lines(text: str) -> List[str]:
    """The text split at its line breaks, kept for the text last asked (_unfollowed's, then _heads_by_value's: each
    split cost about 20 instructions a character). The list is shared: not to be changed."""
    kept = _split[0]
    if kept[0] is not text:
        kept = _split[0] = (text, text.split("\n"))
    return kept[1]


# (the text last split, its lines): one slot, swapped whole (the server's threads scan too)
_split: List[Tuple[Optional[str], List[str]]] = [(None, [])]


def _first_computed(text: str, searches) -> Optional[Tuple[int, int, str]]:
    """(start, index in _COMPUTED_SEARCHES, text) of the first match of these searches in the text, or None."""
    first: Optional[Tuple[int, int, str]] = None
    for i, lead, pattern in searches:
        if lead not in text:                # (a search costs ~5 instructions a character)
            continue
        if pattern is _SLICED_INDEX:        # (in time that grows with the text, where an index ends as one can)
            found = _first_indexed(text, len(text)) if _INDEX_END.search(text) else None
        else:
            m = pattern.search(text)
            found = (m.start(), m.group()) if m else None
        if found and (first is None or found[0] < first[0]):
            first = (found[0], i, found[1])
    return first


# (_COMPUTED[1] without an index, searched in C; with one, to its `[`; then what follows the index)
_SLICED_PLAIN = re.compile(r"\$\{[#!]?(?=(\w+))\1(?:/|:(?:[ \t]*[\w$(]|[ \t]+-)|%(?!%?/)|[\^,~@])")
_SLICED_INDEX = re.compile(r"\$\{[#!]?(?=(\w+))\1\[")
_SLICED_REST = re.compile(r"/|:(?:[ \t]*[\w$(]|[ \t]+-)|%(?!%?/)|[\^,~@]")
_INDEX_END = re.compile(r"\][/:%^,~@]")     # (a `]` and what _SLICED_REST starts with: in every match with an index)
# (each with its lead; JOINED's `-m` after a head by value searched with its lookbehinds last: shell_scan.HeadLast)
_COMPUTED_SEARCHES = tuple(zip(map(_lead, _COMPUTED), _COMPUTED[:len(_COMPUTED) - len(JOINED)] + JOINED_SEARCHES))
# _COMPUTED_SEARCHES whose matches are in a line, each read from the line break before it to the one after it (or the
# text's start and end), and those that may go on past it or hold one (`${a[` to a `]` on another line, `x.p\`, line
# break, `y`; the Gated, `python \`, line break, `-mx`, searched only where their gate finds a joined `-m`): the first
# are searched only in the lines not found clean before (the text's first line always, at the text's start), as a
# text of those lines (launchers of a project, and of many, share most of their lines: over the 166 texts p130's
# launchers scan, 45 % of their characters are in lines an earlier text held)
# (_COMPUTED[1] as its two branches, _first_sliced's: a name without an index is in a line, one with an index may run
# on past it; searched whole, its plain branch cost a third of the searches here, 15M over the 146 texts p130's settled
# launchers scan)
_IN_LINES = tuple((i, lead, _SLICED_PLAIN if p is _COMPUTED[1] else p)
                  for i, (lead, p) in enumerate(_COMPUTED_SEARCHES)
                  if not isinstance(p, Gated) and "\\n" not in p.pattern)
_ACROSS_LINES = tuple((i, lead, _SLICED_INDEX if p is _COMPUTED[1] else p)
                      for i, (lead, p) in enumerate(_COMPUTED_SEARCHES)
                      if isinstance(p, Gated) or p is _COMPUTED[1] or "\\n" in p.pattern)
# the lines, but a text's first, of texts where no search of _IN_LINES found anything (kept while the process lives, as
# _texts is: a line's answer depends on the line alone)
_clean: Set[str] = set()
MAX_CLEAN = 50000


_MAX_GIVEN = 256        # commands headed by an expansion a text may have (_given_source lexes each one's line)


def _first_sliced(text: str) -> Optional[Tuple[int, str]]:
    """(start, text) of the first match of _COMPUTED[1], found in time that grows with the text: its index,
    `\\[[^\\]]*\\]`, runs to the first `]` after its `[`, looked for once for all the `${a[` before that `]` (the
    search went to the text's end from each: 0.8 s over 15,000 lines of `${a[`). A name without an index is searched
    as the pattern's other branch (no match of one starts where the other's does)."""
    plain = _SLICED_PLAIN.search(text)
    indexed = _first_indexed(text, plain.start() if plain else len(text))
    return indexed if indexed else (plain.start(), plain.group()) if plain else None


def _first_indexed(text: str, end: int) -> Optional[Tuple[int, str]]:
    """(start, text) of the first match of _COMPUTED[1] with an index that starts before `end` (_first_sliced)."""
    close = -1                          # the first `]` at or after the last index looked at (len(text): none)
    for m in _SLICED_INDEX.finditer(text, 0, end):
        if close < m.end():
            close = text.find("]", m.end())
            close = len(text) if close < 0 else close
        if close == len(text):
            break                       # (no `]` after it: no index, and `[` is none of what follows a name)
        rest = _SLICED_REST.match(text, close + 1)
        if rest:
            return m.start(), text[m.start():rest.end()]
    return None


def starts_no_profiled_script(text: str, path: str) -> bool:
    """True when the walk of this launcher cannot change what `check` finds in it (see the module); False when
    it may, or when that is not certain here."""
    return not why_walked(text, path)


class _Text:
    """What the scan reads in one file: the scripts, modules and files it names, its absolute paths, and its
    commands and levels up by loop depth."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.why = ""
        # each `.py` word: its file name, the variable it starts with (`${dir}/x.py`: dir; `$3/x.py`: 3) and whether a
        # function body holds it
        # (and its written path's tail, and what follows the variable when it is written out: `/x.py`)
        self.scripts: List[Tuple[str, Optional[str], bool, str, Optional[str]]] = []
        self.shells: List[Tuple[str, str, bool]] = []   # (name, suffix or "", sourced) of each file it runs or sources
        self._shell_at: List[int] = []                  # where each is named (how often it runs: _Text.mentions)
        self.modules: Set[str] = set()
        self.rooted: List[Tuple[str, bool]] = []    # (absolute literal part, whether the word is all literal)
        # the absolute paths that are only a program's argument, with the words of its command
        self.arguments: List[Tuple[str, bool, Set[str]]] = []
        # the absolute values of assignments at a command's head (`DATA_DIR=/data`), with the variable's name: where
        # it is read only as a program's argument, no directory comes from it (why_walked, _held)
        self.held: List[Tuple[str, bool, str]] = []
        self.defined: Set[str] = set()
        self._open = 0                              # where the function bodies found so far end, the furthest
        # by [2 * how many loops over the arguments hold it + whether a function body holds it]:
        self.commands: List[int] = [1, 0]           # commands
        self.levels: List[int] = [0, 0]             # `..` and `dirname` (not that of the file's own path)
        # the words before each `..` not counted there, a program's argument (_dots): a function's may be a `cd`'s
        self.dot_commands: List[Set[str]] = []
        self.dot_values: List[str] = []             # the variables a counted `..` is assigned to (`UP=..`: _dots)
        self.unread_values: List[str] = []          # those of a `..` not counted, no text reading them (_unread)
        self._unread_at: List[Tuple[int, int, int, int]] = []   # (levels' index, body, depth, how many) of those
        self.links = "readlink" in text or "realpath" in text
        self.printed = False                        # a `.sh` word left out as echo's or printf's argument (_printed)
        # the absolute names a head by value may source where its value ends in a blank (`c="source "; ${c}/x`: _given_source)
        self.given_rooted: List[str] = []
        # the heads by value (a variable's name, or None) whose first argument is a value (`${B} "$f"`): where each may
        # be `source` or `.` (_may_source), the scan stops
        self.given_by_value: List[Tuple[Optional["re.Match[str]"], bool, Optional["re.Match[str]"], int]] = []
        # where the names a head by value may source are, with the head (a variable's name, or None; quoted)
        self._by_value_at: Dict[int, Tuple[Optional["re.Match[str]"], bool]] = {}
        self.option_heads: Set[str] = set()         # the first words of the commands whose `source` was left out
        self.looped = ""                            # the computed name _loops_read read otherwise (_as_walked)
        self._widest: Optional[int] = None
        self._walked: Dict[int, Optional[Tuple[int, int, int]]] = {}
        self._functions: List[Tuple[str, int]] = []     # (name, where it is written) of each body, in `bodies` order
        # (start, end, loop depth, the body it is in or -1) of the stretches the counts below were made in, and the
        # commands and levels of each body by loop depth: how often each body is walked (_Text.walked) weighs them
        self._stretches: List[Tuple[int, int, int, int]] = []
        self._headers: Set[int] = set()             # where the stretches that are a loop's head (to its `do`) start
        self.body_loops = False                     # a loop over the arguments in a function body (its call's)
        self._passes: Optional[int] = None
        self._by_value: Optional[Tuple[Optional[List[int]]]] = None     # (_Text.by_value's answer, once asked)
        self._longest: Optional[int] = None
        self._in_body: Dict[int, List[List[int]]] = {-1: [[1, 0]]}     # (-1: none; one command at least, as above)
        self.text = text = _uncommented(text)
        why = _unfollowed(text)
        if why:
            self.why = why
            return
        brace_body = _shell("parse").brace_body
        bodies: List[Tuple[int, int]] = []     # (start, end) of each function body, walked once per call
        for m in _FUNCTION.finditer(text) if "function" in text else ():
            # (`function name()`: the `()` below finds it, and its `{`; from here its body would end at the text's end)
            if _starts_word(text, m.start()) and not _PARENS_AFTER.match(text, m.end()):
                self._body(m.group(1), m.start(1), m.start(), m.end(), text, bodies, brace_body)
                if self.why:
                    return
        self._open = 0                  # a new pass from the text's start
        for m in _PARENS.finditer(text):
            named = _name_before(text, max(0, m.start() - 80), m.start())
            if named and _starts_word(text, named[0]):
                self._body(named[1], named[0], named[0], m.end(), text, bodies, brace_body)
                if self.why:
                    return
        back = _reversed(text) if ".py" in text or ".sh" in text else ""     # (_word_before's; kept for _command_start)
        for m in _PY.finditer(text) if ".py" in text else ():
            at, word = _word_before(text, m.end(), back)
            head, _, name = word.rpartition("/")
            if not _GLOB.fullmatch(name) or ("/" not in word and not _starts_word(text, at)) or \
                    self._assigned(text, at):
                self.why = self.why or f"a script name made from values ({word})"
                return
            lead = _LEAD.match(word) if _starts_word(text, at) else None
            # a path written out (`../BigGAN/main.py`) is, from any folder, a file whose path ends with it
            tail = "" if not _starts_word(text, at) or "/" not in word or word.startswith("/") or \
                _COMPUTED_PART.search(word) else "/" + _UP.sub("", os.path.normpath(word))
            rest = word[lead.end() - 1:] if lead else ""        # (`/x.py` of `${dir}/x.py`)
            self.scripts.append((name, lead.group(1) or lead.group(2) if lead else None,
                                 any(a <= at < b for a, b in bodies), tail,
                                 None if _COMPUTED_PART.search(rest) or "{" in rest or "\\" in rest else rest))
        for m in _SH.finditer(text) if ".sh" in text else ():
            at, word = _word_before(text, m.end(), back)
            # sourced when its line has a `source` or `.` before it (`. "$(dirname $0)/env.sh"`), at the line's start
            # too: the search starts at the line break before it (its `^` holds only at the text's start, so a
            # `source ./up.sh` that starts any other line was read as a file run: its `cd ..` counted once, not as
            # often as it is sourced), and a `\\`-newline does not start a line
            line = at
            while True:
                line = text.rfind("\n", 0, line)
                if line < 1 or text[line - 1] != "\\":
                    break
            sourced = bool(_SOURCE_HEAD.search(text, max(0, line), at))
            if not sourced and _printed(text, max(0, line + 1), at):
                self.printed = True     # `echo "usage: ./x.sh"`: a builtin's argument, no file it runs
                continue
            if not sourced and (_bare_head(text, at, word) or _no_path(text, at, m.end())):
                continue                # a command that enters no file: `x.sh $A` (PATH's), `echo"usage:./x.sh"`
            if self._assigned(text, at) or self._shell(word, at, text, sourced, at):
                return
        for m in _leftmost(_SOURCED if "source" in text else _SOURCED[1:], text):
            target = m.group(1).strip("'\"")    # (a `.sh` one is an _SH word; `find . -name`: no file of that name)
            # (after a quote too: a value or an eval'd string that holds the command, `c="source envx"` ... `$c`, `eval
            # 'source envx'`: bash 5.2 sources envx, splitting the value or reading the string, and the walk does)
            quoted = m.start() > 0 and text[m.start() - 1] in "'\""
            if not (quoted or _after_boundary(text, m.start())) or ".sh" in target or not target or \
                    target[0] in ";&|()<>":
                continue
            if not _NAME.fullmatch(target) and not _at_head(text, m.start()) and \
                    not (quoted and ("$" in target or "`" in target)):
                continue                    # `docker build . \`, "source code," in a text: no command
            option = _OPTION_HEAD.match(text, _command_start(text, m.start()), m.start())
            if option:                      # `--data_path  source data of training` (a help text): an option heads it
                self.option_heads.add(option.group(1))
                continue
            if self._shell(target, 0, text, True, m.start()):
                return
        heads = self.by_value() or () if "$" in text or "`" in text else ()
        if len(heads) > _MAX_GIVEN:     # (each is lexed: 15,000 lines of `${a[` took 2 s; the zoos' launchers have few)
            self.why = f"over {_MAX_GIVEN} commands headed by an expansion"
            return
        for at in heads:
            if self._given_source(text, at):
                return
        for m in _MODULE.finditer(text) if "-m" in text else ():
            module = m.group(1)
            if not _after_boundary(text, m.start()) and text[m.start() - 1] not in "\"'=":
                continue                    # (`x-m`; not `"-m"`, `F=-m`: bash removes the quotes, `$F` gives -m)
            if module is None:              # `f -m`, `F=-m`, `PY="python3 -m"`: the module is a word after a value
                self.why = f"a `-m` module not named here ({text[m.start():m.end() + 1].strip()})"
                return
            if not module:
                continue                    # `python -m` alone starts nothing
            if _program_option(text, m.start()):
                continue                    # `./utils/run_model -m $1`: an option of a program, not Python's
            if not _NAME.fullmatch(module):
                self.why = f"a `-m` module not named here ({module})"
                return
            after, opener = text[m.end(1):m.end(1) + 2], text[m.start(1) - 1]
            if after[:1] in ("'", '"', "\\") and not (after[0] == opener and after[1:] in ("", *" \t\r\n;&|)<>")) \
                    and not _closes_string(text, m.start(), m.end(1)):
                self.why = f"a computed name ({module}{after[0]})"    # `-m tools."p"`: bash removes the quotes
                return
            self.modules.add(module)        # (`mkdir -m 755`: a module no file is)
        for m in _DEFAULT.finditer(text) if "${" in text else ():   # `${d:-/data}`: the walk gives the word when d is
            # not set
            word = os.path.expanduser(m.group(2))
            literal = _LITERAL_END.split(word, maxsplit=1)[0]
            literal, whole = literal if literal == word else literal.rpartition("/")[0] or "/", literal == word
            held = _default_held_by(text, m)
            if held is not None:
                self.held.append((literal, whole, held))
            else:
                self.rooted.append((literal, whole))
        for m in _rooted(text):
            word = m.group()
            if not _starts_word(text, m.start()) or \
                    m.start() and _URL.search(text, max(0, m.start() - 6), m.start()):
                continue                    # `http://x`, `` `pwd`/.. ``: not a word that starts at the root
            quoted = k = m.start()
            while quoted and text[quoted - 1] in "'\"":
                quoted -= 1                 # (the opening quotes: the word's start)
            k = quoted
            while k and text[k - 1] in " \t":
                k -= 1
            if k and text[k - 1] in "<>":
                continue                    # `> /dev/null`: what a redirection names is no folder or script
            if word.startswith("~") and not _LITERAL_END.search(word) and _sources_word(text, quoted):
                continue                    # `source ~/env.sh`: a name below the walk's folders, as _shell noted it
            command = None if word.endswith((".py", ".sh")) else _program_words(text, quoted)
            if word.startswith("~"):
                word = os.path.expanduser(word)     # (what the walk's `cd ~/x` reaches)
                if word.startswith("~"):
                    self.why = f"a path in a home folder ({word})"
                    return
            literal = _LITERAL_END.split(word, maxsplit=1)[0]
            whole = literal == word
            literal = literal if whole else literal.rpartition("/")[0] or "/"
            held = None if command is not None or word.endswith((".py", ".sh")) else _held_by(text, quoted)
            if held is not None:
                self.held.append((literal, whole, held))
            elif command is None:
                self.rooted.append((literal, whole))
            else:                           # `cp /data/x .`, `--data_dir=/data`: a program's argument (why_walked)
                self.arguments.append((literal, whole, command))
        # the text in stretches where the loops and function bodies open and close, each counted at once
        marks = sorted([(m.start(1), m.group(1), -1) for w, p in _LOOP_WORDS if w in text for m in p.finditer(text)
                        if _loop_head(text, m.start()) and
                        (not text.startswith("(", m.end()) or text.startswith("for((", m.start()))] +
                       [(a, "{", n) for n, (a, _) in enumerate(bodies)] +
                       [(b, "}", n) for n, (_, b) in enumerate(bodies)] + [(len(text), "", -1)])
        depth, opened, loops, inside, at = 0, 0, [], 0, 0   # loops: whether each open loop runs once per argument
        open_bodies: List[int] = []
        # (each searched in a stretch only where the text has one: most have no `..`, many no dirname)
        dots, dirname = ".." in text, "dirname" in text
        # (`\n;&|()`` counted at once in a stretch: its length less what is left with them taken out, of the text as
        # bytes, one a character (`?` for one not ASCII); seven counts went through it seven times, 5.5M over the 145
        # texts p130's settled launchers scan)
        data = text.encode("ascii", "replace")
        for where, what, body in marks:
            k = 2 * depth + (inside > 0)
            commands = levels = 0           # (none in an empty stretch: one mark right after another)
            if where > at:
                commands = where - at - len(data[at:where].translate(None, _ENDS))
                if dots:
                    unread = len(self.unread_values)
                    levels = self._dots(text, at, where)
                    if len(self.unread_values) > unread:    # (where they would count: counted())
                        self._unread_at.append((k, open_bodies[-1] if open_bodies else -1, depth,
                                                len(self.unread_values) - unread))
                dirnames = text.count("dirname", at, where) if dirname else 0
                if dirnames:                 # (each _OWN_FOLDER match starts with one)
                    levels += dirnames - len(_OWN_FOLDER.findall(text, at, where))
            self.commands[k] += commands
            self.levels[k] += levels
            innermost = open_bodies[-1] if open_bodies else -1
            self.body_loops = self.body_loops or depth > 0 and innermost >= 0 and where > at
            self._stretches.append((at, where, depth, innermost))
            counts = self._in_body.setdefault(innermost, [])
            while len(counts) <= depth:
                counts.append([0, 0])
            counts[depth][0] += commands
            counts[depth][1] += levels
            at = where
            if what in ("for", "while", "until", "select"):
                opened = where
                self._headers.add(where)
            elif what == "do":
                # (from the last loop word found at a command's head: this loop's, or, where its word was not found
                # there, an earlier one's, so that its head is read in any case)
                loops.append(bool(_FOR_ALONE.search(text, opened, where) or _OVER_ARGS.search(text, opened, where)))
                depth += loops[-1]
                if 2 * depth == len(self.commands):
                    self.commands += [0, 0]
                    self.levels += [0, 0]
            elif what == "done":
                depth -= loops.pop() if loops else 0
            elif what:
                inside += 1 if what == "{" else -1
                if what == "{":
                    open_bodies.append(body)
                elif body in open_bodies:
                    open_bodies.remove(body)
        self._text_lines = text if len(self.commands) > 2 else ""

    def counted(self) -> "_Text":
        """A copy of this text whose `..` that _unread left out count (a followed file reads their variable)."""
        t = copy.copy(self)
        t.levels = list(self.levels)
        t._in_body = {body: [list(c) for c in counts] for body, counts in self._in_body.items()}
        for k, body, depth, n in self._unread_at:
            t.levels[k] += n
            t._in_body[body][depth][1] += n
        t.dot_values, t.unread_values, t._unread_at, t._walked = self.dot_values + self.unread_values, [], [], {}
        return t

    def _dots(self, text: str, a: int, b: int) -> int:
        """How many `..` between a and b may take a directory up or name a script: not one in a word that is only a
        program's argument (_program_words: `--data_dir=../data`, `ls ..`), written out (no quote, `\\`, `$` or
        `` ` `` in it) and naming no script (no `.py`, `.sh`), nor any of a command that starts no script
        (shell/command_line.NOT_STARTING: `echo "usage: ../x.sh"`, `cp -r ${d}/../data .`); why_walked checks that no
        such command is a function's call."""
        n = 0
        back = ""
        for m in _DOTS.finditer(text, a, b):
            if m.end() - m.start() != 2:
                continue
            # (the token's ends by a match each way, the text reversed for its start: loops in Python went a
            # character at a time)
            if not back:
                back = _reversed(text)      # (kept: the text's `.py` and `.sh` words reversed it already)
            start = len(text) - _run_end(_TOKEN_BACK, back, len(text) - m.start())
            end = _run_end(_TOKEN_BACK, text, m.end())
            head = _first_word(text, start)
            if head == "echo":                  # (what it prints is no directory, unless substituted: None then)
                self.dot_commands.append({head})
                continue
            token = text[start:end]
            if head is not None and (".py" not in token and ".sh" not in token and not _UNPLAIN.search(token) or
                                     head in _not_starting()):
                words = _program_words(text, _word_start(text, m.start()))
                if words is not None:
                    self.dot_commands.append(words | {head})
                    continue
            assigned = _ASSIGNED_TO.match(text, start, m.start())
            name = assigned.group(1) if assigned and not _FROM_ROOT.match(text, assigned.end()) else \
                None if assigned else _printed_into(text, m.start())
            if assigned and name and _unread(text, name, start, m.start()):
                self.unread_values.append(name)     # (why_walked: no other text reads it either)
                continue
            if name:
                self.dot_values.append(name)    # `UP=..`, `UP=$(echo ..)`: each `cd $UP` goes up again (_read_once)
            n += 1
        return n

    @property
    def widest(self) -> int:
        """The most words a line holds (the arguments it can give a loop over them); 0 without such a loop."""
        if self._widest is None:
            self._widest = self.passes if self._text_lines else 0
        return self._widest

    @property
    def passes(self) -> int:
        """The most words a line holds, its `\\`-newlines joined: the most arguments a command of it can give a
        function or a file it runs or sources, where no word of it is a variable's (_args)."""
        if self._passes is None:
            self._passes = max(map(len, map(str.split, _logical_lines(self.text))), default=0)
        return self._passes

    def by_value(self) -> Optional[List[int]]:
        """Where its commands whose head is an expansion have it (_heads_by_value; None: not known): the walk calls the
        function a value names there (shell/control.Compounds._call), any of its shell's but one being walked."""
        if self._by_value is None:
            self._by_value = (_heads_by_value(self.text),)
        return self._by_value[0]

    @property
    def longest(self) -> int:
        """The most characters a line holds, its `\\`-newlines joined (the most letters `getopts` can take of it)."""
        if self._longest is None:
            self._longest = max(map(len, _logical_lines(self.text)), default=0)
        return self._longest

    def in_function(self, at: int) -> bool:
        """Whether a function body holds the text at `at`."""
        starts = [a for a, _, _, _ in self._stretches]
        return bool(starts) and self._stretches[max(0, bisect.bisect_right(starts, at) - 1)][3] >= 0

    def _body(self, name: str, name_at: int, start: int, end: int, text: str, bodies: list, brace_body) -> None:
        """A function definition `name() {` / `function name {`: its body (to the end of the text when its `}` is not
        found)."""
        self.defined.add(name)
        if start < self._open:          # inside a body found before it in this pass, which goes in the text's order:
            # the walk decides (finding each nested body's end by the lexer was quadratic in the nesting)
            self.why = "a function defined in a function"
            return
        brace = _BRACE.match(text, end)
        close = _body_end(text, brace.end() - 1, brace_body) if brace else None
        bodies.append((start, len(text) if close is None else close))
        self._open = max(self._open, bodies[-1][1])
        self._functions.append((name, name_at))

    def _assigned(self, text: str, at: int) -> bool:
        """For the value of an assignment at `at` (`s=train.py`): True when the variable is used other than whole
        (`$a$s`, `${s#x}`: the scan stops)."""
        k = at - (at > 0 and text[at - 1] in "'\"")
        if not k or text[k - 1] != "=":
            return False
        named = _name_before(text, max(0, k - 81), k - 1)
        if named is None or not _IDENT.fullmatch(named[1]) or not _starts_word(text, named[0]):
            return False
        var = named[1]
        # each `$var` or `${var` (`\$(?:\{var(?![\w\[])(.?)|var(?!\w))`: the character after `${var`, none at a line
        # break), found by its name (a pattern compiled per name cost more than the search)
        n = len(var)
        k = text.find(var)
        while k >= 0:
            after = text[k + n:k + n + 1]
            if k >= 2 and text[k - 2:k] == "${" and not (after and (_word(after) or after == "[")):
                start, what = k - 2, "" if after == "\n" else after
            elif k >= 1 and text[k - 1] == "$" and not (after and _word(after)):
                start, what = k - 1, None
            else:
                k = text.find(var, k + 1)
                continue
            before = text[start - 1] if start else "\n"
            if what not in (None, "}") or before not in _BOUNDARY + "/\"'":
                self.why = f"a script name in ${var} used in part"
                return True
            k = text.find(var, k + 1)
        return False

    def _shell(self, word: str, at: int, text: str, sourced: bool, place: int) -> bool:
        """Note a file it runs or sources; True when its name is not written out (the scan stops)."""
        head, _, name = word.rpartition("/")
        if not _NAME.fullmatch(name) or ("/" not in word and not _starts_word(text, at)):
            self.why = f"a shell script named from values ({word})"
            return True
        # the folders it is named with narrow where it can be (not past a `..` inside them)
        folders = os.path.normpath(_UP.sub("", word)) if head and "$" not in head and "`" not in head else ".."
        self.shells.append((name, "" if folders.startswith("..") else word if word.startswith("/") else "/" + folders,
                            sourced))
        self._shell_at.append(place)
        return False

    def _given_source(self, text: str, at: int) -> bool:
        """A command whose head is an expansion (its `$` or backtick at `at`) sources a file where its value is `source`
        or `.` (bash 5.2: `c=source; $c envx`, `"$@" envx` in `f source`'s body, `` `echo .` envx ``; the walk too):
        its first argument is noted as a file it may source, or, where the head's word goes on after its last
        expansion (`${d}/x`, `${c}envx`), that word (a value that ends in a blank makes the rest the file's name:
        `c="source "`). True when that name is not written out (the scan stops). Not where the walk's lexer reads no
        head there (after words other than assignments and _HEAD_WORDS, or inside a word: `"s|a|${d}|g"`)."""
        for words, _, _ in _shell("parse").lexed_commands(text, _line_start(text, at), _line_end(text, at)):
            k = next((k for k, (a, b) in enumerate(words) if a <= at < b), -1)
            if k < 0:
                continue
            a, b = words[k]
            before = [text[c:d] for c, d in words[:k]]
            if before[:1] == ["function"]:
                del before[:2]              # (`function f { $c envx; }`: the lexer's one command)
            if text[a:at] not in ("", '"') or \
                    any(w not in _LEXED_HEADS and not _ASSIGNMENT.match(w) for w in before):
                return False
            head = text[a:b]
            tail = _EXPANDED_END.split(head)[-1].replace('"', "").replace("'", "")
            if "`" in tail or "$" in tail:
                return False                # (an expansion left open: no command, `` ` `` in a here-document)
            if tail:                        # (its value ends in a blank: the file is named by the tail, after it)
                if tail.startswith("/"):
                    self.given_rooted.append(_LITERAL_END.split(tail, maxsplit=1)[0])
                if tail.endswith(".sh"):
                    return False            # (an _SH word: followed as one that may be sourced, _sources_none)
                self._by_value_at[a] = (_VARIABLE_HEAD.fullmatch(head.strip('"')), head.startswith('"'))
                return self._shell(head.replace('"', "").replace("'", ""), a, text, True, a)
            if k + 1 == len(words):
                return False
            a, b = words[k + 1]
            word = text[a:b].replace('"', "").replace("'", "")
            if word.endswith(".sh"):
                return False                # (an _SH word: followed where it is, a file it may run or source)
            if "$" in word or "`" in word or "\\" in word:
                if "/" in word.rstrip("/"):
                    self._by_value_at[a] = (_VARIABLE_HEAD.fullmatch(head.strip('"')), head.startswith('"'))
                    return self._shell(word, a, text, True, a)      # (`${d}/envx`: found by its name)
                # a name made from values: the scan stops unless the walk knows no value of it, or the head's value is
                # never `source` or `.` (why_walked)
                self.given_by_value.append((_VARIABLE_HEAD.fullmatch(head.strip('"')), head.startswith('"'),
                                            _VARIABLE_HEAD.fullmatch(word), a))
                return False
            folder, _, name = word.rpartition("/")
            if name:                        # (`]`, `-m`: a file of that name, if any, is looked for too)
                self._by_value_at[a] = (_VARIABLE_HEAD.fullmatch(head.strip('"')), head.startswith('"'))
                folders = os.path.normpath(_UP.sub("", word)) if folder else ".."
                self.shells.append((name, "" if folders.startswith("..") else word if word.startswith("/") else
                                    "/" + folders, True))
                self._shell_at.append(a)
            return False
        return False

    def runs(self, i: int, rounds: int, times: int) -> int:
        """How often the file named by the i-th of self.shells can be run or sourced in one run of this file: once per
        round of each loop over the arguments around it (a loop's head, run each round, counts as inside it), and
        `times` (the most walks of a function body) when a function body holds it."""
        starts = [a for a, _, _, _ in self._stretches]
        k = max(0, bisect.bisect_right(starts, self._shell_at[i]) - 1)
        start, _, depth, body = self._stretches[k]
        return rounds ** (depth + (start in self._headers)) * (times if body >= 0 else 1)

    def where(self, at: int) -> Tuple[int, int]:
        """(how many loops over the arguments run the text at `at` once a round, a loop's head counting as inside it;
        the function body that holds it, or -1)."""
        starts = [a for a, _, _, _ in self._stretches]
        start, _, depth, body = self._stretches[max(0, bisect.bisect_right(starts, at) - 1)]
        return depth + (start in self._headers), body

    def weighted(self, counts: List[int], rounds: int, times: int) -> int:
        """How often these can be walked: a loop over the arguments `rounds` times, a function body `times`."""
        return sum(n * rounds ** (k // 2) * (times if k % 2 else 1) for k, n in enumerate(counts))

    def walked(self, rounds: int) -> Optional[Tuple[int, int, int]]:
        """(commands, levels, the most walks of a body) as often as they can be walked in one run of this file, when
        no other file calls its functions nor it theirs (_weights): a loop over the
        arguments `rounds` times, a function body once per call of its name (shell/control.Compounds._call: a
        command whose head is a defined name), a call in a loop over the arguments once per round, a call in a
        body once per walk of that body, and once more (a function no call reaches is walked once, as is a body
        whose end is not found); any word that is a function's name counts as a call, and a command whose head is an
        expansion (by_value) as one of each function but the body it is in; a call in a body that is walked only under
        the function it calls is none (the walk calls no function inside itself). None past _MAX_CHAINS (the bound is
        then _times')."""
        if rounds not in self._walked:      # (asked for the launcher alone, then again with the files it follows)
            self._walked[rounds] = self._walks(rounds)
        return self._walked[rounds]

    def _walks(self, rounds: int) -> Optional[Tuple[int, int, int]]:
        if not self._functions:
            return self.commands[0] + sum(n * rounds ** (k // 2) for k, n in enumerate(self.commands) if k > 1), \
                self.levels[0] + sum(n * rounds ** (k // 2) for k, n in enumerate(self.levels) if k > 1), 1
        names: Dict[str, List[int]] = {}
        for n, (name, _) in enumerate(self._functions):
            names.setdefault(name, []).append(n)
        written = {at for _, at in self._functions}
        starts = [a for a, _, _, _ in self._stretches]
        calls: Dict[int, List[Tuple[int, int]]] = {n: [] for n in range(len(self._functions))}   # body: (depth, in)
        # each word (as _FUNCTION_NAME splits them) that is a function's name
        for at, name in _names_at(self.text, names):
            if at not in written:
                _, _, depth, inside = self._stretches[max(0, bisect.bisect_right(starts, at) - 1)]
                for n in names[name]:
                    calls[n].append((depth, inside))
        for at in self.by_value() or ():      # (None: why_walked walks)
            _, _, depth, inside = self._stretches[max(0, bisect.bisect_right(starts, at) - 1)]
            for n in calls:
                if n != inside:             # (the walk calls no function inside itself: Compounds._call)
                    calls[n].append((depth, inside))
        walks: Dict[Tuple[int, FrozenSet[int]], int] = {}

        def walk(n: int, barred: FrozenSet[int]) -> Optional[int]:
            # (the walks of body n in which none of `barred` is being walked: a call in body b reaches n only where b
            # is walked with neither n nor those above it, for the walk calls no function being walked, _call)
            key = (n, barred)
            if key not in walks:
                if len(walks) >= _MAX_CHAINS:
                    return None
                total = 1
                for depth, inside in calls[n]:
                    if inside == n or inside in barred:
                        continue
                    outer = walk(inside, barred | {n}) if inside >= 0 else 1
                    if outer is None:
                        return None
                    total += rounds ** depth * outer
                walks[key] = total
            return walks[key]

        out = [0, 0, 1]
        for body, counts in self._in_body.items():
            times = walk(body, frozenset()) if body >= 0 else 1
            if times is None:
                return None
            out[2] = max(out[2], times)
            for depth, (commands, levels) in enumerate(counts):
                out[0] += commands * rounds ** depth * times
                out[1] += levels * rounds ** depth * times
        return out[0], out[1], out[2]


def _closes_string(text: str, dash: int, at: int) -> bool:
    """Whether the quote at `at`, right after a `-m` module's name, closes a string opened before that `-m` (at
    `dash`) and ends its word (`P="python3 -m pylint"`: bash reads the module whole, and `$P` gives it): the word that
    holds it, as the walk's lexer reads the text, ends right after it, and from its start to `at` holds that quote once,
    before `dash`, and no other quote, `\\`, `$` or backtick."""
    quote = text[at]
    if quote not in "'\"":
        return False
    for words, _, _ in _shell("parse").lexed_commands(text, 0, _line_end(text, at)):
        for a, b in words:
            if a <= at < b:
                inner = text[a:at]
                return b == at + 1 and inner.count(quote) == 1 and a + inner.index(quote) < dash and \
                    not any(c in inner for c in "'\"\\$`" if c != quote)
    return False


def _program_option(text: str, at: int) -> bool:
    """Whether the `-m` at `at` is an option of a program that starts no Python: its command's head (after keywords
    alone, the command's words written without quotes or `\\`) is a path written out (`./utils/run_model_single_input
    -m $1`: no function's name, which control._define takes of `[\\w.-]` alone), not a script, and neither Python nor a
    command the walk reads a launch behind (shell/launches._launch_of: shell/command_line.PREFIXES, SHELLS, msprof,
    torchrun, msrun)."""
    seg = text[_command_start(text, at):at]
    if "'" in seg or '"' in seg or "\\" in seg:
        return False
    words = seg.split()
    while words and words[0] in _KEYWORDS:
        del words[0]
    if not words or "/" not in words[0] or not _PLAIN_WORD.fullmatch(words[0]) or words[0].endswith((".sh", ".py")):
        return False
    names = _shell("command_words")
    base = words[0].rsplit("/", 1)[-1]
    return not names.PYTHON.match(words[0]) and base not in names.PREFIXES and base not in names.SHELLS and \
        base not in ("msprof", "torchrun", "msrun")


_PRINTERS = frozenset(("echo", "printf"))
_MAX_CHAINS = 512       # (body, the bodies it is not walked under) counted by _Text.walked; more: _times' bound


def _printed(text: str, line: int, at: int) -> bool:
    """Whether the word at `at` is an argument of `echo` or `printf` (`echo "usage: ./x.sh [dir]"`, `` echo "`date`
    start x.sh" ``): the command that holds it, lexed from its line's start as the walk lexes it, starts with one of
    them written out, and the word is not in a substitution (`echo "$(bash x.sh)"`) nor the command in one (its
    first word would be the substitution's). why_walked walks a launcher whose texts define a function of either
    name."""
    if not text.startswith(("echo", "printf"), len(text[line:at]) - len(text[line:at].lstrip()) + line):
        return False
    lexed_commands = _shell("parse").lexed_commands
    end = at
    while True:                         # the logical line's end (`\`-newlines joined)
        end = text.find("\n", end)
        if end < 0 or text[end - 1] != "\\":
            break
        end += 1
    for words, _, _ in lexed_commands(text, line, len(text) if end < 0 else end):
        if words and words[0][0] <= at:
            for k, (a, b) in enumerate(words):
                if a <= at < b:
                    inside = text[a:at]
                    return k > 0 and text[words[0][0]:words[0][1]] in ("echo", "printf") and \
                        "$(" not in inside and inside.count("`") % 2 == 0
    return False


def _logical_lines(text: str) -> List[str]:
    return text.replace("\\\r\n", " ").replace("\\\n", " ").split("\n")


# a word made from a variable's value or a command's output (not one of the arguments': `$1`, `"$@"`, `$#`)
_EXPANSION = re.compile(r"\$(?:\{?[A-Za-z_]|\(|\{!)|`")
_FORWARDS = re.compile(r"\$(?:\{?[@*])")


def _args(texts: Dict[str, _Text], launcher: str, edges=None) -> Optional[int]:
    """How many arguments a loop over them can go round, at most (it is walked once per argument: the launcher's own,
    which check does not know, once): where one is in a function body or a file the launcher runs or sources, the
    words of a line that calls that function or names that file (`\\`-newlines joined), each text's widest added
    for the arguments a call passes on (`"$@"`: as many times as there are functions and files to pass through), and
    two more for a `while` (_Text.walked). None when such a line has a word from a variable (`f $ARGS`: as many
    arguments as its value has words) or a command's output. A place that names such a file counts where the walk
    may run it from there: one of the files the place's name can be (edges: _follow's; without them, any file of
    that name)."""
    looping = [p for p, t in texts.items() if t.body_loops or p != launcher and len(t.commands) > 2]
    if not looping:
        return sum(t.widest for t in texts.values()) + 2
    functions = {n for t in texts.values() for n in t.defined}
    if functions and any(texts[p].by_value() for p in _with_functions(texts, edges or {})):
        return None         # (`$c`: a call of any function, given as many words as the value has: _heads_by_value)
    files = {p for p in looping if p != launcher}
    bases = {os.path.basename(p) for p in files}
    # (`while getopts` goes round once per letter of an option: `f -aaaa` four times, the line's characters at most)
    getopts = any("getopts" in texts[p].text for p in looping)
    for p, t in texts.items():      # each place that names such a file must run it there (not `S=./x.sh`, `for f in`)
        named = edges.get(p) if edges is not None else None
        reaching = None if named is None else {i for c, (_, _, places) in named.items() if c in files for i in places}
        for i, ((name, _, _), at) in enumerate(zip(t.shells, t._shell_at)):
            if i not in reaching if reaching is not None else not any(name.endswith(f) for f in bases):
                continue
            line = _logical_line(t.text, at)    # (a quote left open: its word runs on, `for a in $*` splits it)
            if not _runs_here(t.text, at) or line.count("'") % 2 or line.count('"') % 2 or \
                    _EXPANSION.search(line) and (getopts or not _one_word_each(line, texts)):
                return None
    for t in texts.values():
        # (only the lines that name a function: each found in the text, its `\\`-newlines joined as the lines are)
        joined = t.text.replace("\\\r\n", " ").replace("\\\n", " ") if "\\" in t.text else t.text
        for at, _ in _names_at(joined, functions) if functions else ():
            end = joined.find("\n", at)
            line = joined[joined.rfind("\n", 0, at) + 1:end if end >= 0 else len(joined)]
            if _EXPANSION.search(line) or line.count("'") % 2 or line.count('"') % 2:
                return None     # (a quote left open: the word runs on, `for a in $*` splits it)
    rounds = sum(t.longest if getopts else t.passes for t in texts.values())
    if any(_FORWARDS.search(t.text) for t in texts.values()):
        rounds *= 1 + len(functions) + len(texts)
    return rounds + 2


# an expansion of one variable, `$x`, `${x}` (not `${x:-a b}`); what _one_word_each allows on a line that runs a file
_PLAIN_EXPANSION = r"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"
# a value written out that gives the walk one word at most (no blank, expansion, `\\`, quote inside, nor `~`, which
# is $HOME there): `False`, `""`, `8`
_ONE_WORD_VALUE = r"""(["']?)[^\s$`'"\\;&|()<>~]*\1(?=[\s;&|)]|$)"""


def _one_word_each(line: str, texts: Dict[str, _Text]) -> bool:
    """Whether every expansion in a line is one of a variable (`--autotune=$autotune`) that gives the walk one word at
    most wherever it runs (_one_word): the line's blank-separated words then bound the words it gives the file it runs
    (`sh -x train_full_1p.sh --autotune=$autotune`, whose `for para in $*` goes round once per word)."""
    plain = re.compile(_PLAIN_EXPANSION)
    k = 0
    for m in _EXPANSION.finditer(line):
        if m.start() < k:
            continue
        e = plain.match(line, m.start())
        if e is None or not _one_word(e.group(1) or e.group(2), texts):
            return False
        k = e.end()
    return True


def _one_word(name: str, texts: Dict[str, _Text], seen: FrozenSet[str] = frozenset()) -> bool:
    """Whether a variable holds no blank in the walk, so that `$name` unquoted is one word at most (the walk splits it
    at blanks, shell/walk.Walk's fields, where no text names IFS): every mention of it in the texts is one after a
    `-` (`--name=$name`), in a command that sets none (_sets_none: `echo "name: ..."`, a `[[ ... ]]` test, a
    comment), the name of a `for name in $*` (or `$@`, unquoted: a field each round), or an assignment heading its
    command (or after an `export` that does) of a value written out with no blank (_ONE_WORD_VALUE) or of a variable
    of such a name, whole, cut from its start or as echo's output (`` `echo ${para#*=}` ``, para that of a `for para
    in $*`: _piece_of; echo joins its one word), and no `${name:=...}`, `${name=...}` nor `${!`. A mention anywhere
    else (`read name`, `for name in "a b"`, `local name=`, `f name`) may set it: not known. (The walk sets none by
    `printf -vname`, `mapfile`, `eval`.)"""
    if name in _READ_UNNAMED or name.startswith("BASH") or not _VARIABLE.fullmatch(name) or name in seen:
        return False
    key = (name, seen, tuple(texts.items()))    # (_args asks again as the region grows; the _Texts themselves held)
    known = _one_words.get(key)
    if known is None:
        if len(_one_words) >= 64:
            _one_words.clear()
        known = _one_words[key] = _one_word_of(name, texts, seen)
    return known


_one_words: Dict[tuple, bool] = {}


def _one_word_of(name: str, texts: Dict[str, _Text], seen: FrozenSet[str]) -> bool:
    """_one_word's answer, not kept."""
    one, loop = re.compile(_ONE_WORD_VALUE), re.compile(_OVER_SPLIT_ARGS)
    if any("IFS" in t.text and _mentions(t.text, "IFS") or "${!" in t.text for t in texts.values()):
        return False
    pending: List[Tuple[str, int]] = []     # (the mentions _sets_none is asked of, last: it may lex a whole text)
    for t in texts.values():
        if any(t.text.startswith(("=", ":="), k + len(name)) for k in _reads(t.text, name)):
            return False                # (`${name:=a b}`, `${!r:=a b}` set one)
        for at in _mentions(t.text, name):
            end = at + len(name)
            if at and t.text[at - 1] == "-":
                continue                # `--name=$x`, `[[ $p == --name* ]]`: no builtin takes a name so
            if not t.text.startswith("=", end):
                head = at
                while head and t.text[head - 1] in " \t":
                    head -= 1
                if head < at and t.text[head - 3:head] == "for" and _loop_head(t.text, head - 3) and \
                        loop.match(t.text, end):
                    continue            # `for para in $*`
                pending.append((t.text, at))
                continue
            if not _heads(t.text, at):
                before = t.text[_line_start(t.text, at):at].split()
                if before != ["export"] or not _heads(t.text, t.text.rfind("export", 0, at)):
                    pending.append((t.text, at))    # `echo "name=$name"`
                    continue
            if one.match(t.text, end + 1):
                continue
            value = _word_at(t.text, end + 1)
            for lead, close in (("`echo ", "`"), ("$(echo ", ")")):
                if value.startswith(lead) and value.endswith(close):
                    value = value[len(lead):-len(close)].strip(" \t")
                    break
            piece = _piece_of(value)
            if piece is None or not _one_word(piece, texts, seen | {name}):
                return False
    functions = {n for t in texts.values() for n in t.defined}
    return all(_sets_none(text, at, functions) for text, at in pending)


# `for X in $*` (or `$@`) after a loop's name, unquoted: X is a field of the file's arguments each round (_one_word)
_OVER_SPLIT_ARGS = r"""[ \t]+in[ \t]+\$[*@][ \t]*(?:;|\n|$)"""


# the commands that may set a variable named in their words (`read x`, `for x in`, `local x`, `command read x`)
# (with _SETTERS)
_NAME_SETTERS = frozenset(("for", "select", "coproc", "wait", "command", "builtin", "exec", "alias", "trap", "case",
                           "in"))


def _sets_none(text: str, at: int, functions: Set[str]) -> bool:
    """Whether the name at `at` (not an assignment's: `echo "name=x"`) is one that sets no variable: in no word of a
    command as the walk's lexer reads the text from its start (a comment, a here-document's body), or in a command
    whose head, written out and not the word that holds it, is no builtin that may set it (_NAME_SETTERS, _SETTERS:
    `read x`, `for x in`, `local x`, `command read x`) nor a function (`f name`): `echo "name: ..."`, `[[ $p ==
    --name* ]]` (bash sets a variable in one only by arithmetic, to a number: _in_test). Where its line before it
    holds no quote, `\\` nor backtick, its line is read alone: it starts either outside them all, where the lexer
    reads it as from the text's start, or inside a quote, substitution or here-document, none of whose words sets a
    variable of the shell."""
    before = text[_line_start(text, at):at]
    if not any(c in before for c in "'\"\\`"):
        hash_ = before.find("#")
        if hash_ >= 0 and (not hash_ or before[hash_ - 1] in " \t;&|"):
            return True                 # (a comment)
        if _in_test(text, at):
            return True
        head = _head_of(text, at)
        return head is not None and head not in _NAME_SETTERS and head not in _SETTERS and head not in functions
    for words, _, _ in _lexed_whole(text):
        if not words or words[-1][1] <= at:
            continue
        if words[0][0] > at:
            break                       # (the commands come in order: none after this one holds it)
        heads = [text[a:b] for a, b in words if a <= at]
        while heads and (heads[0] in _LEXED_KEYWORDS or _ASSIGNED_TO.match(heads[0])):
            heads.pop(0)
        return len(heads) > 1 and (bool(_PLAIN_WORD.fullmatch(heads[0])) or heads[0] == "[[") and \
            heads[0] not in _NAME_SETTERS and heads[0] not in _SETTERS and heads[0] not in functions
    return True


def _lexed_whole(text: str) -> "_Lexed":
    """The commands of the whole text, as the walk's lexer reads it (parse.lexed_commands), kept for the texts last
    asked (the few files of one launcher, asked of in turn)."""
    kept = _whole.get(text)
    if kept is None:
        if len(_whole) >= 8:
            _whole.clear()
        kept = _whole[text] = _Lexed(text)
    return kept


class _Lexed:
    """A text's commands (parse.lexed_commands), in order, lexed as far as they are asked for: the lexer reads left to
    right, so each command it gives is the whole lexing's, and each starts after the one before it ends (a question
    of a place stops at the first command that starts after it: over p130's launchers, the places _sets_none asks of
    stand in the first half of their texts, GNMT's wmt16_en_de.sh's at its 9th line of 150)."""

    __slots__ = ("done", "_more", "_lock")

    def __init__(self, text: str):
        self.done: List[tuple] = []     # (the commands lexed so far)
        self._more: Optional[Iterator[tuple]] = _shell("parse").lexed_commands(text)
        self._lock = threading.Lock()   # (the server's threads scan too: a generator is run by one at a time)

    def __iter__(self) -> Iterator[tuple]:
        k = 0
        while k < len(self.done) or self._next():
            yield self.done[k]
            k += 1

    def _next(self) -> bool:
        """Lex one command more (False: none is left)."""
        with self._lock:
            if self._more is not None:
                command = next(self._more, None)
                if command is not None:
                    self.done.append(command)
                    return True
                self._more = None
            return False


_whole: Dict[str, _Lexed] = {}       # text: its commands, lexed from its start


def _line_start(text: str, at: int) -> int:
    """Where the line that holds text[at] starts (after the line break before it that is not a `\\`-newline)."""
    start = at
    while True:
        start = text.rfind("\n", 0, start)
        if start < 1 or text[start - 1] != "\\":
            break
    return start + 1


def _line_end(text: str, at: int) -> int:
    """Where the line that holds text[at] ends (at the line break after it that is not a `\\`-newline)."""
    end = at
    while True:
        end = text.find("\n", end)
        if end < 0 or text[end - 1] != "\\":
            break
        end += 1
    return len(text) if end < 0 else end


def _logical_line(text: str, at: int) -> str:
    """The line that holds text[at] (`\\`-newlines joined, as _logical_lines gives it)."""
    return _logical_lines(text[_line_start(text, at):_line_end(text, at)])[0]


def _bare_head(text: str, at: int, word: str) -> bool:
    """Whether the `.sh` word at `at` is a bare name (no `/`, no quote) that starts its command (`x.sh $A` after a line
    break or an operator): the walk enters no file there (shell/command_line._child_script runs a path, `./x.sh`, or
    a shell's operand, `bash x.sh`; bash looks a bare name up on PATH; a function of that name is a call, which
    _args looks for as any function's)."""
    end = at + len(word)
    return "/" not in word and text.startswith(word, at) and (end == len(text) or text[end] in " \t\r\n;&|<>)") and \
        not text[_command_start(text, at):at].strip(" \t")


def _own_rounds(texts: Dict[str, _Text], launcher: str, edges) -> Dict[str, int]:
    """The arguments a loop over them can go round in a file the texts only run (a new shell: its arguments are the
    words after its name there, shell/walk.Walk._arguments), where that is fewer than _args' bound for all: at each
    place that can name it (_follow's edges), the blank-separated words after its name to its line's end (and two
    more for a `while`; for `getopts`, which takes each letter of an option, their characters). Not for the
    launcher, a file a place may source (it has its caller's arguments: _sources_none), one whose function bodies
    loop over their own arguments (their calls' words), nor where a place gives it an expansion (`$1`, `"$@"`: the
    caller's arguments, `$A`: _args; but `$A` where A is one word at most, _one_word_each, without getopts) or a quote
    (a quoted word may run on to other lines, each of its words a round of `for p in $*`)."""
    functions = {n for t in texts.values() for n in t.defined}
    most: Dict[str, int] = {}
    barred = {launcher}
    for p, t in texts.items():
        for c, (_, _, places) in edges.get(p, {}).items():
            most.setdefault(c, 0)
            for i in places:
                name, _, sourced = t.shells[i]
                at = t._shell_at[i]
                end = t.text.find(name, at) + len(name)     # (the name ends the word that starts at `at`)
                rest = _logical_lines(t.text[end:_line_end(t.text, at)])[0] \
                    if not sourced and end >= len(name) and not _BLANKS.search(t.text, at, end) else "$"
                if sourced or not _sources_none(t.text, at, functions) or any(q in rest for q in "`'\"") or \
                        "$" in rest and ("getopts" in texts[c].text or rest.count("$") != len(_EXPANSION.findall(rest))
                                         or not _one_word_each(rest, texts)):
                    barred.add(c)
                    continue
                most[c] = max(most[c], len(rest) if "getopts" in texts[c].text else len(rest.split()))
    return {c: n + 2 for c, n in most.items() if c not in barred and not texts[c].body_loops}


_BLANKS = re.compile(r"\s")
# a command headed by an option (`--data_path source data`): the walk sources only where `source` is the head (after
# assignments and keywords), and no option is one of those; a function so named is a call (why_walked walks then)
_OPTION_HEAD = re.compile(r"[ \t]*(-[\w.:+=-]*)[ \t]")      # (the whole first word: a function's name if any)


def _no_path(text: str, at: int, end: int) -> bool:
    """Whether the `.sh` word from `at` to `end` is in its command's first word, written out, after a `:` there
    (`echo"usage:./x.sh <args>"`, a blank left out): a command the walk neither runs as a script (the path of one,
    shell/command_line._SCRIPT_PATH, holds no `:`) nor sources; not an assignment (`A=a:./x.sh`: a value a `source
    $A` may find)."""
    head = text[_command_start(text, at):end].lstrip(" \t")
    return ":" in head and not any(c in head for c in " \t\r\n$`\\=")


_RUNNERS = {"bash", "sh", "dash", "zsh", "ksh", "source", ".", "exec", "nohup", "time", "command", ""}


def _command_start(text: str, at: int) -> int:
    """Where the command the word at `at` is in starts: after the line break before it (not a `\\`-newline), or
    after the last operator between them."""
    line = at
    while True:
        line = text.rfind("\n", 0, line)
        if line < 1 or text[line - 1] != "\\":
            break
    # (the last operator before it by one match in the text reversed, to the line's start at most: nine searches
    # back, one per operator, cost more than the rest of a command's reading)
    back = _reversed(text)
    return at - (_run_end(_COMMAND_BACK, back, len(text) - at, len(text) - line - 1) - (len(text) - at))


_COMMAND_BACK = re.compile(r"[^;&|(){}`]*")


def _run_end(pattern: "re.Pattern[str]", text: str, at: int, end: int = -1) -> int:
    """Where the run of a class's characters (pattern: `[...]*`, which matches wherever it is tried) that starts at
    `at` ends, before `end` at the latest (-1: the text's end)."""
    m = pattern.match(text, at, len(text) if end < 0 else end)
    return m.end() if m else at
_back = [("", "")]      # (the text last reversed, it reversed): one slot, swapped whole (the server's threads scan too)


def _reversed(text: str) -> str:
    """The text reversed, kept for the text last asked of (the scan asks of one text at a time)."""
    kept = _back[0]
    if kept[0] is not text:
        kept = _back[0] = (text, text[::-1])
    return kept[1]


def _runs_here(text: str, at: int) -> bool:
    """Whether the file named at `at` is run or sourced by the command it is named in: the words before it there are
    a shell, `source`/`.`, `exec`, `nohup` or their options (`bash -x ./x.sh`, `./x.sh`), so what that line gives it
    is what it gets."""
    start = _command_start(text, at)
    return all(w.strip("'\"") in _RUNNERS or w.startswith("-") for w in text[start:at].split())


def _set_anywhere(name: str, texts: Dict[str, _Text]) -> bool:
    """Whether a variable can be given a value in these texts: its name stands anywhere other than after `$`."""
    if name in ("PWD", "HOME", "OLDPWD", "BASH_SOURCE"):
        return True                     # (the walk knows PWD and BASH_SOURCE; the others: never certain)
    return any(_mentions(t.text, name) for t in texts.values())


def _word(c: str) -> bool:
    """Whether a character is one `\\w` matches."""
    return c.isalnum() or c == "_"


def _mentions(text: str, name: str) -> List[int]:
    """Where a variable's name (word characters) stands not after a word character, `$` or `{` and before no word
    character: what `(?<![\\w${])name(?!\\w)` finds (no two overlap: one starts after no word character), found by
    the name, not by a pattern compiled for it."""
    out = []
    n = len(name)
    k = text.find(name)
    while k >= 0:
        if not (k and (_word(text[k - 1]) or text[k - 1] in "${")) and \
                not (k + n < len(text) and _word(text[k + n])):
            out.append(k)
        k = text.find(name, k + 1)
    return out


def _names_at(text: str, names) -> List[Tuple[int, str]]:
    """(where, name) of each of these names (`[\\w.:-]` characters) standing as a whole word of such characters, in
    order: what `(?<![\\w.:-])(?:a|b|...)(?![\\w.:-])` finds (at a place at most one name ends before no such
    character, and none starts inside another's match), found by each name, not by a pattern compiled for them."""
    out = []
    for name in names:
        n = len(name)
        k = text.find(name)
        while k >= 0:
            if not (k and (_word(text[k - 1]) or text[k - 1] in ".:-")) and \
                    not (k + n < len(text) and (_word(text[k + n]) or text[k + n] in ".:-")):
                out.append((k, name))
            k = text.find(name, k + 1)
    out.sort()
    return out


# `name=value` at a command's head, its value a relative name written out (quoted or not) or one of the launcher's
# arguments (`$1`, `"${2}"`), then the word's end
_LITERAL_VALUE = re.compile(r"""=(?:(?P<q>['"]?)(?P<name>[\w.+-][\w.+/-]*)(?P=q)"""
                            r"""|(?P<r>"?)\$(?:(?P<n>\d)|\{(?P<nn>\d+)\})(?P=r))(?=$|[ \t\r\n;&|)])""")


def _values(name: str, texts: Dict[str, _Text], launcher: str) -> Optional[List[str]]:
    """The values these texts can give a variable when each is a relative name written out (what an assignment of
    the launcher's own argument outside a function gives it is not known to check's walk: no value), or None when
    one may be anything else: every mention of its name that does not read it (_set_anywhere) must be such an
    assignment at a command's head (not `export name=`, `name+=`, `read name`, `for name in`, `${name:=x}`)."""
    if name in ("PWD", "HOME", "OLDPWD", "BASH_SOURCE"):
        return None
    values: List[str] = []
    n = len(name)
    for p, t in texts.items():
        if _braced_other(t.text, name):
            return None                 # `${name:=x}`, `${name=x}` may set it (and `${#name}`, `${!name}` are others)
        for at in _mentions(t.text, name):
            v = _LITERAL_VALUE.match(t.text, at + n)
            if v is None or not _heads(t.text, at):
                return None
            if v.group("name") is not None:
                values.append(v.group("name"))
            elif p != launcher or t.in_function(at):
                return None             # (a function's arguments, or a sourced file's, may be known)
    return values


def _braced_other(text: str, name: str) -> bool:
    """Whether `${name`, `${#name` or `${!name` stands before neither a word character nor `}` (what
    `\\$\\{[#!]?name(?!\\w)(?!\\})` finds), found by the name."""
    n = len(name)
    k = text.find(name)
    while k >= 0:
        if k >= 2 and text[k - 2:k] == "${" or k >= 3 and text[k - 3:k] in ("${#", "${!"):
            after = text[k + n:k + n + 1]
            if not after or not (_word(after) or after == "}"):
                return True
        k = text.find(name, k + 1)
    return False


def _name_before(text: str, lo: int, end: int) -> Optional[Tuple[int, str]]:
    """(start, name) of what _NAME_BEFORE.search(text, lo, end) finds: the name (`[\\w.:-]+`) that only blanks follow
    to `end` (or to a line break just before it: `$`), from its start or lo. The search tried each start in turn,
    each running to the name's end (quadratic in a name's length)."""
    e = end - 1 if end > lo and text[end - 1] == "\n" else end
    while e > lo and text[e - 1] in " \t":
        e -= 1
    i = e
    while i > lo and (text[i - 1].isalnum() or text[i - 1] in "_.:-"):
        i -= 1
    return (i, text[i:e]) if i < e else None


_DELIMITERS = frozenset(" \t\r\n'\"=;|&()<>`")
_WORD_BACK = re.compile(r"[^ \t\r\n'\"=;|&()<>`]*")      # (what _DELIMITERS does not hold)
_TOKEN_BACK = re.compile(r"[^ \t\r\n;|&()<>]*")      # a word's run to what ends it where quotes do not (_Text._dots)
_UNPLAIN = re.compile(r"['\"\\$`]")
_PLAIN_WORD = re.compile(r"[\w./+-]+")


def _not_starting() -> Set[str]:
    """shell/command_words.NOT_STARTING: the commands whose words the walk never starts as a script (kept there, not
    in shell/launches.py, which uses it: importing that would import the walk, 20M instructions, nor in
    shell/command_line.py, 4.8M, none of which the scan needs)."""
    return _shell("command_words").NOT_STARTING


_imported: Dict[str, ModuleType] = {}


def _shell(name: str) -> ModuleType:
    """shell/'s module of that name, imported at the first text that needs it (the scan of a launcher with nothing to
    follow never does), then kept here: a `from` import in a function costs about 9,000 instructions at each call,
    even when the module is loaded."""
    module = _imported.get(name)
    if module is None:
        import importlib
        module = _imported[name] = importlib.import_module(f"..shell.{name}", __package__)
    return module


def _first_word(text: str, at: int) -> Optional[str]:
    """The first word of the command the word at `at` is in (after the line break, not a `\\`-newline, or the
    operator before it), when it is written out (`echo`, `python3`, `./x`; not `$CMD`, `"x"`) and the command is
    no substitution's (`$(echo ..)`, `` `echo ..` ``: what it prints may become a value); None otherwise."""
    start = _command_start(text, at)
    if start and (text[start - 1] == "`" or text.startswith("$(", start - 2)):
        return None
    words = text[start:at].split(None, 1)      # (the first alone: a command can run over dozens of lines)
    return words[0] if words and _PLAIN_WORD.fullmatch(words[0]) else None


def _word_before(text: str, end: int, back: str = "") -> Tuple[int, str]:
    """The word that ends at `end` (from after a blank, quote, `=` or operator): its start and text. back: the text
    reversed, where the word is found by one match (a loop in Python went back a character at a time)."""
    if back:
        k = end - _run_end(_WORD_BACK, back, len(text) - end) + len(text) - end
    else:
        k = end
        while k and text[k - 1] not in _DELIMITERS:
            k -= 1
    return k, text[k:end].strip("\\")


# a command through which an argument can become a directory, a script or a variable (what `f /data` passes `f`,
# what `bash x.sh /data` passes x.sh, a loop's items)
_PASSES = {"cd", "pushd", "popd", "source", ".", "eval", "exec", "export", "local", "declare", "readonly", "typeset",
           "for", "select", "case", "in", "set", "read", "mapfile", "readarray", "getopts", "let", "printf", "alias",
           "bash", "sh", "dash", "zsh", "ksh", "xargs", "parallel", "env", "sudo", "su", "nohup", "time", "command",
           "builtin", "timeout", "taskset", "numactl", "mpirun", "mpiexec", "srun", "horovodrun", "torchrun"}


# the commands whose output the walk knows in a substitution (shell/expand.Expander._output: what it prints may become
# a value, `d=$(dirname /data/x)`); any other's output it does not know, and it runs none of them
_PRINTING = {"cd", "pushd", "popd", "pwd", "dirname", "readlink", "realpath", "basename", "echo", "printf",
             "eval", "exec", "command", "builtin", "sudo", "env", "nohup", "time"}


def _program_words(text: str, at: int) -> Optional[Set[str]]:
    """The words before the word at `at` in its command when that word is only an argument of a program (`cp /data/x
    .`, `python3 x.py --data=/data`): it is not an assignment's value, and its command (from the operator or line
    before it) names no command through which an argument can reach a directory, a script or a variable (_PASSES)
    and no shell script (why_walked checks that none is a function); None otherwise."""
    k = at
    while k and text[k - 1] in "'\"":
        k -= 1
    if k and text[k - 1] == "=":
        named = _name_before(text, max(0, k - 81), k - 1)
        if named is not None and _IDENT.fullmatch(named[1]) and _starts_word(text, named[0]):
            return None                 # `X=/data`: a variable a `cd $X` may read
    start = _command_start(text, k)
    while start and text[start - 1] in "{}" and _expansion_brace(text, start - 1):
        start = _command_start(text, start - 1)     # (`--model_dir ${M} --data ${R}`: no operator)
    if start and text[start - 1] not in "\n`":
        line = _line_start(text, start)
        if "'" in text[line:start] or '"' in text[line:start]:
            unquoted = _unquoted_start(text, line, k)   # (`T="a;b /data"`: the `;` is the value's, not an operator)
            if unquoted is None:
                return None
            start = unquoted
    # (each word taken apart and looked at in C: a launch's command can run over dozens of `\\`-continued lines, and
    # every absolute path in it asks of the words before it)
    seg = text[start:k]
    if seg.count('"') % 2 and not any(c in seg for c in "'\\`") and "$(" not in seg and "trap" not in seg:
        seg = seg[:seg.rfind('"')]      # (`echo "logs are in ${L}"`: one word with the one at `at`, not `in`'s)
    words = list(map(str.strip, seg.split(), repeat("'\"")))
    if _in_substitution(text, start) and \
            (not words or words[0] in _PRINTING or not _PLAIN_WORD.fullmatch(words[0]) or
             start and text[start - 1] == "`" and text.count("`", _line_start(text, k), start - 1) % 2):
        piped = _piped_first(text, k) if "`" in text else None
        if piped is None:
            return None     # `x=$(echo /data)`: what it prints may become a value (`` `echo cd` /data ``: it heads
            # it; `$(cd ..; echo /data)`: the walk knows the output of `cd`s then one printing command, expand._output)
        start, seg = piped, text[piped:k]   # (`` `echo "a;b / c" | bc` ``: from the substitution's start)
        words = list(map(str.strip, seg.split(), repeat("'\"")))
    if not words or "=" in words[0] or not _PASSES.isdisjoint(words) or \
            ".sh" in seg and any(map(str.endswith, words, repeat(".sh"))):
        return None
    head = next((w for w in words if w not in _KEYWORDS), "")
    if not _PLAIN_WORD.fullmatch(head) and not text.startswith("((", start - 2):
        return None     # `$c /data`, `c\d /data`: a head by value (`cd`, a function) or one bash reads otherwise
        # (`$(($n / 2))`: a division in an arithmetic, no command)
    return set(words)


def _expansion_brace(text: str, at: int) -> bool:
    """Whether the `{` or `}` at `at` is a parameter expansion's (`${M}`), in a word: bash ends no command there."""
    if text[at] == "{":
        return text[at - 1:at] == "$"
    opened = text.rfind("${", _line_start(text, at), at)
    return opened >= 0 and _PLAIN_BRACES.fullmatch(text, opened + 2, at) is not None


_PLAIN_BRACES = re.compile(r"[^{};&|()<>`'\"\\$\s]*")   # (what a `${...}` holds that _expansion_brace passes over)


def _unquoted_start(text: str, line: int, at: int) -> Optional[int]:
    """Where the command that holds text[at] starts, its line read from `line` with its quotes (_command_start takes
    an operator inside them for one: `T="a;b /data"`, `sed 's/a//;s/b//'`): after the last operator outside quotes;
    None where a substitution inside double quotes, or `$'...'`, makes that not read here."""
    start, i, quote = line, line, ""
    while i < at:
        c = text[i]
        if quote == "'":
            quote = "" if c == "'" else quote
        elif c == "\\":
            i += 1
        elif c == "$" and text.startswith("'", i + 1) and not quote:
            return None
        elif quote:
            if c == "`" or text.startswith("$(", i):
                return None
            quote = "" if c == '"' else quote
        elif c in "'\"":
            quote = c
        elif c == "$" and text.startswith("{", i + 1) and text.find("}", i, at) > i and \
                _expansion_brace(text, text.find("}", i, at)):
            i = text.find("}", i, at)   # (`${M}`: a word's, no operator)
        elif c in ";&|(){}`":
            start = i + 1
        i += 1
    return start


def _piped_first(text: str, at: int) -> Optional[int]:
    """Where the backtick substitution that holds text[at] starts (after its `` ` ``) when text[at] is in its first
    command and a `|` ends that command (`` x=`echo "$a / $b" | bc` ``): shell/expand.Expander._output gives no output
    of a substitution at its first `|`, so what that command's words print becomes no value; None otherwise. The word
    that holds it is found as the walk's lexer reads the text from its start (quotes, comments, here-documents), and
    must hold two backticks, around text[at], and no `\\`, `$(` nor another substitution."""
    bar, end = text.find("|", at), text.find("`", at)
    if not 0 <= bar < end:
        return None                     # (no `|` before the next backtick: none ends its first command)
    word = _whole_word(text, at)
    if word is None or text.count("`", *word) != 2 or "\\" in text[word[0]:word[1]] or \
            "$(" in text[word[0]:word[1]]:
        return None
    opened = text.find("`", *word) + 1
    end = text.find("`", opened, word[1])
    if not opened <= at < end:
        return None
    for _, op, where in _shell("parse").lexed_commands(text, opened, end):
        return opened if op == "|" and where > at else None
    return None


def _whole_word(text: str, at: int) -> Optional[Tuple[int, int]]:
    """The span of the word that holds text[at] as the walk's lexer reads the text from its start (None: in none)."""
    for words, _, _ in _lexed_whole(text):
        if words and words[0][0] > at:
            break                       # (the commands come in order: none after this one holds it)
        if words and at < words[-1][1]:
            return next(((a, b) for a, b in words if a <= at < b), None)
    return None


def _sources_word(text: str, at: int) -> bool:
    """Whether the word at `at` is what a `source` or `.` that heads its command sources (after keywords alone): the
    walk finds it below its folders, with no `~` expanded (shell/walk.Walk.find; only its `cd` expands one)."""
    words = text[_command_start(text, at):at].split()
    return bool(words) and words[-1] in ("source", ".") and all(w in _KEYWORDS for w in words[:-1])


_KEYWORDS = frozenset(("then", "do", "else", "elif", "if", "while", "until", "!", "{"))    # (before a command's head)


def _in_substitution(text: str, at: int) -> bool:
    """Whether text[at] may be inside a command substitution: a `(` before it not closed there (a `$(`, or a subshell;
    not an arithmetic `$((`), or an odd number of backticks before it, or any after a backtick the count cannot pair
    (_loose_backtick)."""
    positions, innermost = _parens(text)
    k = bisect.bisect_left(positions, at) - 1
    opened = innermost[k] if k >= 0 else -1
    if opened >= 0:                 # (not `$((`: arithmetic, where a `/` divides)
        return text[opened - 1:opened + 2].count("(") < 2
    n = text.count("`", 0, at)
    return n % 2 == 1 or n > 0 and _loose_backtick(text) < at


def _loose_backtick(text: str) -> int:
    """Where the first line starts that holds a backtick that may neither open nor close a substitution: one in single
    quotes (`X='`'`), after a `\\` or in a comment (a line with a backtick and a `'`, `\\`` or `#`), or in a
    here-document (after a `<<`); from there on, the backticks' count says nothing (len(text): no such line)."""
    kept = _loose[0]
    if kept[0] is text:
        return kept[1]
    found = len(text)
    here = text.find("<<")
    k = text.find("`")
    while 0 <= k < found:
        start = text.rfind("\n", 0, k) + 1
        end = text.find("\n", k)
        end = len(text) if end < 0 else end
        if here >= 0 and here < end:
            found = min(found, text.rfind("\n", 0, here) + 1)
            break
        line = text[start:end]
        if "'" in line or "#" in line or "\\`" in line:
            found = start
            break
        k = text.find("`", end)
    _loose[0] = (text, found)
    return found


_loose: List[Tuple[Optional[str], int]] = [(None, 0)]      # (the text last asked, its answer): one slot, swapped whole


def _parens(text: str) -> Tuple[List[int], List[int]]:
    """Where each `(` and `)` of the text is, and the innermost `(` not closed there (-1: none), found once for the text
    last asked (its absolute paths ask one after another: a search back from each went over the whole text before
    it)."""
    kept = _parened[0]
    if kept[0] is not text:
        # (each found by splitting the text at it, in C: a search for either, a class, cost ~50 instructions a
        # character)
        positions = sorted(chain(_places(text, "("), _places(text, ")")))
        innermost: List[int] = []
        opened: List[int] = []
        for at in positions:
            if text[at] == "(":
                opened.append(at)
            elif opened:
                opened.pop()
            innermost.append(opened[-1] if opened else -1)
        kept = _parened[0] = (text, positions, innermost)
    return kept[1], kept[2]


# (the text last asked, its parentheses' places, the innermost open at each): one slot, swapped whole (the server's
# threads scan too)
_parened: List[Tuple[Optional[str], List[int], List[int]]] = [(None, [], [])]


def _places(text: str, c: str) -> List[int]:
    """Where each `c` of the text is: the i-th after the text's parts before it and i of it."""
    return list(map(add, accumulate(map(len, text.split(c)[:-1])), count()))


def _heads(text: str, at: int) -> bool:
    """Whether a word at `at` is the first of a command (after a line break or `;`, `&`, `|`)."""
    k = at
    while k and text[k - 1] in " \t":
        k -= 1
    return not k or text[k - 1] in "\n;&|"


_LOOP_AFTER = {"then", "else", "elif", "do", "time", "!"}


def _loop_head(text: str, at: int) -> bool:
    """Whether a loop word at `at` starts a command: after a line break, `;`, `&`, `|`, `{`, `(`, `` ` `` or a
    keyword that a command follows (`then for x`, `{ for x; do`)."""
    k = at
    while k and text[k - 1] in " \t":
        k -= 1
    if not k or text[k - 1] in "\n;&|{(`":
        return True
    before = text[text.rfind("\n", 0, k) + 1:k].split()
    return bool(before) and before[-1] in _LOOP_AFTER


def _after_boundary(text: str, at: int) -> bool:
    return not at or text[at - 1] in " \t\r\n;&|(){}`"


# (led by the line break or operator before it, not a lookbehind: a search led by a set of characters passes over
# the others quickly, where `(?:^|(?<=[;&|]))` was tried at every character of the body; a body's braces are after
# its own `{`, so never at the text's start)
_BRACES = re.compile(r"[\n;&|][ \t]*([{}])(?=$|[\s;&|)])", re.M)


def _body_end(text: str, brace: int, brace_body) -> Optional[int]:
    """Where the function body that the `{` at brace opens ends: at the `}` that starts a command and closes it (a
    `{` that starts one opens a group); by the shell's lexer (shell/parse.brace_body) where a here-document or a
    quote left open on a line could hold a brace."""
    depth = 0
    for m in _BRACES.finditer(text, brace + 1):
        depth += 1 if m.group(1) == "{" else -1
        if depth < 0:
            body = text[brace:m.start() + 1]
            if "<<" not in body and all(line.count('"') % 2 == 0 and line.count("'") % 2 == 0
                                        for line in body.split("\n")):
                return m.end()
            break
    found = brace_body(text, brace)
    return found[2] if found else None


def _starts_word(text: str, at: int) -> bool:
    """Whether text[at:] starts a shell word (after opening quotes), not the rest of one (`"$d"/x`, `` `pwd`/x``)."""
    k = at
    while k and text[k - 1] in "'\"":
        k -= 1
    if not k or text[k - 1] == "\n":
        return True
    if text[k - 1] == "`":
        return text.count("`", text.rfind("\n", 0, k - 1) + 1, k - 1) % 2 == 0     # an opening one
    return text[k - 1] in _BOUNDARY


_HEADS = {"then", "do", "else", "if", "elif", "while", "until", "time", "!", "nohup", "exec", "command", "builtin",
          "eval", "sudo"}


def _at_head(text: str, at: int) -> bool:
    """Whether the word at `at` is where a command starts."""
    k = at
    while k and text[k - 1] in " \t":
        k -= 1
    if not k or text[k - 1] in "\n;&|({`":
        return True
    return text[text.rfind("\n", 0, k) + 1:k].split()[-1] in _HEADS


BY_VALUE = "a function may be called by a variable's value"
# a command whose head is an expansion (`$c`, `"$@"`, `${c}`, `eval $c`; after assignments, an operator, a keyword or a
# prefix): the walk calls the function its value names (shell/control.Compounds._call) once per walk of that command,
# which no count of the functions' names bounds (`c=f`, `s f` are one word each): each is counted as a call of every
# function (_Text.walked, _cross_commands, _times), given words no line bounds (_args), and an absolute path on it may
# be a directory (_program_words)
_HEAD_WORDS = ("then", "do", "else", "elif", "if", "while", "until", "time", "nohup", "exec", "command", "builtin",
               "eval")
_LEXED_HEADS = frozenset(("{", "!") + _HEAD_WORDS)    # (what the walk's lexer may give before a head: _given_source)
# (each head led by its own character, the lookbehinds left to _calls_by_value: a pattern whose every branch starts with
# a character is searched from those characters alone, about twice as fast as one tried at every character; a `$name`
# in a value is taken whole, `(?!\w)`: split between `\$\w+` and single characters, `x=$a..$a..` that ends in no head
# was tried in 2 ** n ways, 10 s at eight of them)
# (the name and the value taken whole, `(?=(?P<v>...))(?P=v)` as an atomic group: each piece of a value starts with a
# character that no other's starts with, none with a blank, so fewer of them, or a shorter name, leave no blank after
# them, and trying each as the search went back cost about 7,000 instructions at each `{`, `|`, `(` or backtick of the
# lines _lines_by_value gives: 27M over the 166 texts of p130's launchers)
_BY_VALUE_REST = r"""[ \t]*(?:[A-Za-z_](?=(?P<n>\w*))(?P=n)(?:\[[^]\n]*\])?\+?=(?=(?P<v>(?:[^\s;&|$`'"()\\]|\$\w+(?!\w)"""\
                 r"""|\$\{[^}\s]*\}|"[^"\n]*"|'[^'\n]*'|\$\([^()\n]*\)|`[^`\n]*`)*))(?P=v)[ \t]+)*"?[$`]"""
_BY_VALUE = re.compile(r"""(?P<at>\n|;|&|\||\{|!|\)(?!`)|\((?!\()|`(?!`)|"""
                       + "|".join(w + r"[ \t]" for w in _HEAD_WORDS) + r""")""" + _BY_VALUE_REST)
# (the heads led by a character, searched from those characters alone; those led by a word, found by the word: the
# letters that lead _BY_VALUE's words are most of a text's, and it was tried at each, 2M instructions a launcher)
_BY_VALUE_SIGN = re.compile(r"""(?P<at>\n|;|&|\||\{|!|\)(?!`)|\((?!\()|`(?!`))""" + _BY_VALUE_REST)
_AFTER_HEAD_WORD = re.compile(_BY_VALUE_REST)


_LONG_LINE = 1024       # (the longest line of the zoos' 4,110 launchers: 2,202 characters, in two with no function)
# (each head sign of a searched line may read on to the line's end: a line of 330 `{a=` took 7 ms, 256 KiB of them
# 2 s; the most any of the zoos' and p130's 4,731 launchers asks, line length times its signs summed, is 47,758)
_SIGNS = "{!(|&;`"
_SIGN_BYTES = _SIGNS.encode()
_SIGN_WORK = 2_000_000


def _calls_by_value(text: str) -> bool:
    """Whether a command of the text may have an expansion for its head (_heads_by_value: some, or not known)."""
    return _heads_by_value(text, True) != []


def _heads_by_value(text: str, first: bool = False) -> Optional[List[int]]:
    """Where the commands of the text that may have an expansion for their head have it (at its `$` or backtick;
    _BY_VALUE: at a line's start, not a `\\`-newline's; after an operator, a `(` not after `(` or `=`, a backtick
    after a blank, `=` or `(`, or one of _HEAD_WORDS starting a word; not after a `||` or `&&` inside `[[ ]]`, which
    joins tests, not commands), or a backtick after a `)` that closes no `$(` (a case pattern's: `` x)`echo $c`;; ``,
    whose output the walk runs); None where a line is over _LONG_LINE, or the lines searched hold more than
    _SIGN_WORK of length times head signs (not known). first: the first alone (the callers ask whether there is one)."""
    lines = _lines(text)
    if len(text) > _LONG_LINE and max(map(len, lines)) > _LONG_LINE:
        return None     # (a `{` or `!` head inside a value reads on to the line's end again: time as its square)
    out: List[int] = []
    k = text.find(")`")
    if k >= 0:          # (_BY_VALUE leaves out `)` before a backtick: `` `echo $(pwd)` `` closes one there)
        positions, innermost = _parens(text)
        while k >= 0:
            i = bisect.bisect_left(positions, k)
            opened = innermost[i - 1] if i else -1      # (the `(` this `)` closes, or -1)
            if opened < 1 or text[opened - 1] != "$":
                out.append(k + 1)
                if first:
                    return out
            k = text.find(")`", k + 1)
    if "\\\n" in text:                  # (bash joins a `\\`-newline: `A=1 \\`, newline, `$c envx` is `A=1 $c envx`)
        text = text.replace("\\\n", "  ")
        lines = text.split("\n")
    # (each line's heads and work are its own, a match holding no line break but its head's: the lines not searched
    # before are searched together, then the text's are read from what each gave)
    distinct = set(lines)
    work, heads = _by_line[0]
    fresh = distinct.difference(work)
    if len(work) + len(fresh) > MAX_CLEAN:
        work, heads = _by_line[0] = ({}, {})    # (swapped whole: the server's threads scan too)
        fresh = distinct
    if fresh and not _search_lines(sorted(fresh), work, heads):
        return None
    if len(text) * (len(text) + 1) > _SIGN_WORK and sum(map(work.__getitem__, lines)) > _SIGN_WORK:
        return None     # (a line's work, its length and break times its signs, is at most that: summed only past it)
    if not heads.keys().isdisjoint(distinct):
        # (where each line starts, less one: its line break, one put before the text; the lines with heads picked in C,
        # a loop over every line cost about 250 instructions a line)
        starts = map(add, accumulate(map(len, lines), initial=0), count())
        for at, line in compress(zip(starts, lines), map(heads.__contains__, lines)):
            out.extend(at + h for h in heads[line])
    return sorted(set(out))[:1] if first else sorted(set(out))


# the lines _heads_by_value has searched (each without its line break; kept while the process lives, as _clean is): the
# work their search may take (length times head signs where _lines_by_value gives the line, else 0), and the heads of
# those that have any (each from the line break before the line, in a text with one put before its start)
_by_line: List[Tuple[Dict[str, int], Dict[str, Tuple[int, ...]]]] = [({}, {})]


def _search_lines(fresh: List[str], work: Dict[str, int], heads: Dict[str, Tuple[int, ...]]) -> bool:
    """Note the work and heads of these lines (_by_line), searched together (False, and none noted, where their work
    is over _SIGN_WORK: so is any text's that holds them)."""
    text = "\n" + "\n".join(fresh)
    search = _BY_VALUE_SIGN.search
    lines: List[Tuple[int, int]] = []       # (start, end) of each line searched
    kept: Dict[int, int] = {}               # the work of each, by its start
    # (the signs counted at once in a line, as _Text's stretches count their ends: seven counts a line cost 3.7M over
    # the 158 texts p130's launchers scan)
    data = text.encode("ascii", "replace")
    for start in _lines_by_value(text):     # (a match holds no line break but its head's: it is in its line)
        end = text.find("\n", start + 1)
        end = len(text) if end < 0 else end
        lines.append((start, end))
        kept[start] = (end - start) * (end - start - len(data[start:end].translate(None, _SIGN_BYTES)))
    if sum(kept.values()) > _SIGN_WORK:
        return False
    out: List[int] = []
    at = 0
    for start, end in lines:
        m = search(text, max(at, start), end)
        while m:
            at = m.start("at")
            c, before = text[at], text[at - 1] if at else ""
            # (a line break is a head's: no `\\`-newline is left, each joined; here the line before it is any other)
            if c == "(" and before and before in "(=" or \
                    c == "`" and not (before and before in "=(" or before.isspace()):
                at += 1                     # (no head there: looked on from the next character, as a search does)
                m = search(text, at, end)
                continue
            line = text.rfind("\n", 0, at) + 1
            if c in "|&" and text.rfind("[[", line, at) > text.rfind("]]", line, at):
                at = m.end()
                m = search(text, at, end)
                continue
            out.append(m.end() - 2)         # (the `$` or backtick, less the line break put before the text)
            at = m.end()
            m = search(text, at, end)
    # the heads led by a keyword, in those lines alone (_lines_by_value gives each line one holds: its `$` or backtick
    # follows a blank, and the keyword or an assignment's `=` stands before it), joined: each keeps the line break
    # before it and is followed by one or by the end, as in the text (finding each keyword in the whole text, and
    # looking at each place, cost 17M over the 166 texts p130's launchers scan)
    if lines:
        within = "".join([text[a:b] for a, b in lines])
        starts = list(accumulate([b - a for a, b in lines], initial=0))     # (where each line starts in `within`)
        match = _AFTER_HEAD_WORD.match
        for word in _HEAD_WORDS:            # (`then $c`: a word that starts none, `undo $c`, no head)
            n = len(word)
            k = within.find(word)
            while k >= 0:
                if within[k + n:k + n + 1] in (" ", "\t") and not (within[k - 1].isalnum() or within[k - 1] == "_"):
                    m = match(within, k + n + 1)
                    if m:
                        i = bisect.bisect_right(starts, k) - 1
                        out.append(m.end() - 2 - starts[i] + lines[i][0])
                k = within.find(word, k + 1)
    # each line's share, from its line break (the text's lines, each after one, start where the lines of `fresh` do)
    breaks = list(accumulate([len(line) + 1 for line in fresh], initial=0))
    found: Dict[int, List[int]] = {}
    for h in out:
        i = bisect.bisect_right(breaks, h) - 1
        found.setdefault(i, []).append(h - breaks[i])
    for i, piece in enumerate(fresh):
        work[piece] = kept.get(breaks[i], 0)
        if i in found:
            heads[piece] = tuple(found[i])
    return True


# what stands before the `"?[$`]` that ends a match of _BY_VALUE: a blank or a head's character (found by a search led
# by the `$` or the `` ` ``, each alone: a search led by a set of characters tests each character of the text against
# the set, about 48 instructions a character; a loop of str.find over them cost more than the search of the whole text
# saved)
_BY_VALUE_BEFORE = frozenset(" \t\n;&|{!)(`")
_BY_VALUE_ENDS = tuple(re.compile(r"""%s(?:(?<=[ \t\n;&|{!)(`].)|(?<=[ \t\n;&|{!)(`]".))""" % c) for c in (r"\$", "`"))


def _lines_by_value(text: str) -> List[int]:
    """Where the lines start (at the line break before each) that may hold a match of _BY_VALUE, in order: one ends
    with a `$` or `` ` `` (after a `"` or not) that a blank or a head's character precedes, and either an operator's
    head or a keyword stands before it past the blanks, or an assignment's `=` does before it in its line (the
    search of the whole text was tried at every operator and at every letter a keyword starts with: 44M instructions
    over the 26 launchers of the issue's tree that ask, with their 3,165 lines; 339 of them are left)."""
    starts = set()
    for pattern in _BY_VALUE_ENDS:
        start = end = -1                # the line of the last end found (its matches are in order)
        equals: Optional[int] = None    # its first `=` (-1: none), looked for once
        m = pattern.search(text)
        while m:
            z = m.start() - (text[m.start() - 1] == '"')
            if z > end:
                start = text.rfind("\n", 0, z)
                end = text.find("\n", z)
                end = len(text) if end < 0 else end
                equals = None
            if start in starts:         # (its line is given already: its other ends passed over, searched on from its
                m = pattern.search(text, end)   # end; each looked at cost about 8,000 instructions)
                continue
            b = z - 1
            while text[b] in " \t":
                b -= 1
            if text[b] not in _BY_VALUE_BEFORE:
                if equals is None:
                    equals = text.find("=", start, end)
                if not 0 <= equals < z and not text[max(0, b - 6):b + 1].endswith(_HEAD_WORDS):
                    m = pattern.search(text, m.end())
                    continue
            starts.add(start)
            m = pattern.search(text, end)
    return sorted(starts)


def why_walked(text: str, path: str) -> str:
    """"" when the walk of this launcher cannot change what `check` finds in it (see the module); otherwise why it
    is walked."""
    if len(text) > MAX_LAUNCHER:
        return "over the read bound"
    if "prof" in text.lower():
        return "a profiling word"           # (one that shell_scan.needs_walk walks for)
    if not may_start(text):
        return ""                           # no word the walk's findings hang on (checks/shell_scan.py)
    if not os.path.isfile(path):
        return "not a file"
    launcher = os.path.abspath(path)
    texts = {launcher: _text(launcher, text)}
    if texts[launcher].why.startswith("a computed name"):
        texts[launcher] = _as_walked(texts[launcher]) or texts[launcher]
    if texts[launcher].why:
        return texts[launcher].why
    # what the files it follows can only add to, decided before any listing: its own commands, its absolute paths
    own = texts[launcher]
    levels = min(sum(own.levels), MAX_LEVELS)       # (at least those it writes itself)
    home = os.path.dirname(launcher)                # (its folder, made once: os.path's functions are Python's)
    height = _cd_height(own, home) if sum(own.levels) else None
    if height is not None:
        levels = height
    rounds = _args({launcher: own}, launcher)
    if rounds is None:
        return "a function given a variable's words loops over them"
    alone = own.walked(rounds)
    if (alone[0] if alone else own.weighted(own.commands, rounds, _times({launcher: own}))) >= MAX_COMMANDS:
        return "its commands may reach the walk's bound"
    if own.printed and own.defined & _PRINTERS:
        return "a function named echo or printf"    # (its `.sh` arguments were left out: _printed)
    if own.option_heads & own.defined:
        return "a function named as an option before `source`"
    if not own.scripts and not own.shells and not own.modules:
        # it names no script, module or file to follow: none can be started wherever it goes (its commands, counted
        # above, are all it walks, unless a call is by a value)
        return BY_VALUE if own.defined and own.by_value() is None else ""
    if _linked(home):
        return "a linked folder on its path"    # (`../x.py` is found through the link's target, not listed)
    own_held = _held({launcher: own}, own.defined)
    region = _up(home, levels)
    why = _absolute({launcher: own}, region, levels, own_held)
    if why:
        return why
    rounds_alone = rounds
    while True:
        found = _listing(region)
        if found is None:
            return "a folder link or too many files above it"
        own_folders: Set[str] = set()
        why, edges = _follow(texts, launcher, found, own_folders)
        if not why and own_folders and not all(_own_folder(var, texts[p].text, False) for var in own_folders
                                               for p in _same_shell(texts, launcher, edges) if p != launcher):
            why, edges = _follow(texts, launcher, found)    # (a file it sources may set it)
        if why:
            return why
        for p, t in list(texts.items()):    # (a `..` _unread left out whose variable a followed file reads: counted)
            if any(not _unread_in(u.text, name) for name in t.unread_values for u in texts.values()):
                texts[p] = t.counted()
        # a loop body runs once per argument (a `while` over them up to two more); a function body as often as its
        # calls walk it (_weights), else _times' bound
        # (the launcher alone, as read before: what _args found then)
        rounds = rounds_alone if len(texts) == 1 and texts[launcher] is own else _args(texts, launcher, edges)
        if rounds is None:
            return "a function or a file given a variable's words loops over them"
        own_rounds = _own_rounds(texts, launcher, edges)
        weights = _weights(texts, rounds, own_rounds)
        times = max(w[2] for w in weights.values()) if weights else _times(texts, edges)
        commands = _commands(texts, edges, launcher, rounds, times, weights, own_rounds)
        if commands is None:
            return "a file it runs or sources runs again on the way"
        if weights is None:     # each call's walks counted (_times' bound counts a call in a file sourced 5 times once)
            cross = _cross_commands(texts, edges, launcher, rounds, own_rounds)
            if cross is None:
                return "its commands may reach the walk's bound"
            commands, times = cross[0], max(times, cross[1])    # (times: the most walks of a body, for _levels)
        if commands >= MAX_COMMANDS:
            return "its commands may reach the walk's bound"
        own_shell = _same_shell(texts, launcher, edges)
        # (a file's name given as a value or an argument, `bash ./up.sh ./far.sh`, is found from where that file went)
        given = any(not _runs_here(t.text, at) for t in texts.values() for at in t._shell_at
                    if at not in t._by_value_at)    # (a head by value's file is its command's: `$c envx`)
        pieces = _lazy_pieces(texts, edges, launcher) if not given else frozenset   # (asked by _may_source alone)
        need = _levels(texts, edges, launcher, rounds, times, weights, own_rounds, None if given else own_shell,
                       pieces) if height is None else height
        if need > MAX_LEVELS:
            return f"{need} levels up"
        if need <= levels:
            break
        levels = need
        region = _up(home, levels)
    if texts[launcher].looped and _same_shell(texts, launcher, edges) != {launcher}:
        return texts[launcher].looped       # (a file it sources may set a loop's variable: _loops_read)
    for t in texts.values():
        if t.links and os.path.realpath(t.path) != t.path:
            return "`readlink -f`/`realpath` of a linked file"
    functions = {n for t in texts.values() for n in t.defined}
    if functions & _PRINTERS and any(t.printed for t in texts.values()):
        return "a function named echo or printf"
    if any(functions & t.option_heads for t in texts.values()):
        return "a function named as an option before `source`"
    if any(words & functions for t in texts.values() for words in t.dot_commands):
        return "a `..` a function is given"     # (its `cd $1` may go up: the `..` was not counted, _Text._dots)
    if any(not _read_once(name, texts, launcher, functions) for t in texts.values() for name in t.dot_values):
        return "a `..` in a value read more than once"      # (`UP=..` counted once: `cd $UP; cd $UP` goes up twice)
    held = dict(own_held) if len(texts) == 1 and texts[launcher] is own else _held(texts, functions)
    for p, t in texts.items():          # an argument of a function: what `f /data` passes may be its `cd $1`
        passed = [(literal, whole) for literal, whole, before in t.arguments if before & functions]
        if passed:
            held[p] = passed + held.get(p, [])
    # a file only run that names no file to run or source, and runs no name it may be given (_runs_given), enters no
    # file from where it goes: its scripts are its own (reported on it), and its `cd` does not come back
    why = _absolute({p: t for p, t in texts.items() if p in own_shell or _names_files(t, texts, pieces) or
                     (t.rooted or held.get(p)) and _runs_given(t.text)}, region, levels, held)
    if why:
        return why
    for t in texts.values():
        for head, quoted, word, at in t.given_by_value:
            if (word is None or not _unknown(word.group(1) or word.group(2), texts)) and \
                    (head is None or _may_source(head.group(1) or head.group(2), quoted, texts, pieces)):
                return f"a file named from values a head by value may source ({_word_at(t.text, at)})"
    for t in texts.values():            # (`c="source "; ${c}/x`: the walk sources /x where it is there)
        for literal in t.given_rooted:
            if observed.note(literal)[0] != "missing":
                return f"an absolute path a head by value may source ({literal})"
    # a word that starts with a variable no text sets (`${cur_path}/x.py`), or with the launcher's own arguments
    # outside a function (`$3/x.py`: check knows none), is not known to the walk: it starts no script; nor one that
    # starts with a variable the texts set only to such arguments (`code_dir=$1`); one set only to names written out
    # (`cur_path='pwd'`) is, from any folder, a file whose path ends with its value and the rest of the word
    # only the scripts of the launcher's own shell: a file it runs is a new shell, whose launches are reported on that
    # file (shell_launches._prepared) and whose variables and folders do not come back; it was followed for its
    # commands, levels and absolute paths (where its walk may stop: NPP191 on the launcher)
    names = set()
    for p, t in texts.items():
        if p not in own_shell:
            continue
        for name, lead, body, tail, rest in t.scripts:
            if lead is None or lead.isdigit() and not (p == launcher and not body):
                names.add((name, tail))
            elif not lead.isdigit() and _set_anywhere(lead, texts):
                values = _values(lead, texts, launcher) if rest is not None else None
                if values is None or rest is None:
                    names.add((name, tail))
                else:
                    names.update((name, "/" + _UP.sub("", os.path.normpath(v + rest))) for v in values)
    # (a name ends a file's only where a `${x#y}` may cut it: else it is the file's whole, `*test.py` a file so named;
    # the texts searched for a cut only where a file's name ends another's)
    whole = any(_ends_held(found, name) for name, _ in names) and \
        not any(re.compile(_CUT_START).search(t.text) for t in texts.values())
    candidates = list(dict.fromkeys(p for name, tail in names
                                    for p in (found.get(name, ()) if whole else _named(found, name))
                                    if not tail or p.endswith(tail)))
    candidates += _modules({m for p, t in texts.items() if p in own_shell for m in t.modules}, region, found)
    why = next((f"{os.path.relpath(p, home)} may hold a setup"
                for p in candidates if _may_have_setups(p)), "")
    if why and len(texts) == 1 and _lost_first(own, launcher):
        why = ""                        # (the walk has no folder where it names them: _lost_first)
    if not why and functions and _called_by_value(texts, edges):
        return BY_VALUE                 # (where its heads by value are not known, its counts above do not hold)
    return why


# (the patterns of _as_walked, _cd_height, _own_folder_lead and _own_folder are compiled where first asked: the scan's
# import is paid by every `check` process, of empty files too)
# a cut, slice or case change of a positional parameter (`${1%@*}`, `${2:3}`, `${1^^}`, `${1/a/b}`; not a default,
# `${1:-x}`), its pattern written out on its line (no expansion, quote or `\\` in it); shell/expand.Expander._parameter
# gives None for each where `$1` is not known
_OWN_ARGUMENT = r"""\$\{(\d+)(?:%%?|/|:(?=[ \t]*[\w(]|[ \t]+-)|[\^,~@])[^{}$`'"\\\n]*\}"""
# a `\`-newline right after the script word of a command python heads (its options flags without a value) whose next
# line starts with an option written out: bash joins them into one word, `train.py--x=1` (the line before ends with
# no `\`; no `/` in the script word, no `.` in the option: the word ends in neither `.py` nor `.sh`, names no folder)
_JOINED_OPTION = (r"""python(?:\d(?:\.\d+)?)?(?:[ \t]+-[bBdEIOqsSuv]+)*[ \t]+\w[\w.+-]*\.py\\\n"""
                  r"""(?=-[\w=,:+@%-]*(?:[ \t;&|<>\n]|$))""")     # (led by `python`: its line's start is _joined's)


def _joined(text: str) -> List["re.Match[str]"]:
    """The matches of _JOINED_OPTION whose `python` starts its line (after blanks) and whose line before ends with no
    `\\`."""
    out = []
    for m in re.compile(_JOINED_OPTION).finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        if not text[start:m.start()].strip(" \t") and not (start > 1 and text[start - 2] == "\\"):
            out.append(m)
    return out


def _as_walked(t: _Text) -> Optional[_Text]:
    """A launcher's text as check's walk reads what _computed takes for a computed name where it names nothing: a
    positional parameter cut, sliced or changed (`user=${1%@*}`) outside a function, read as `${1}` (check walks the
    launcher without arguments, shell_launches: the walk knows neither, and starts no script for a word of them),
    and `python3 train.py\\`, newline, `--x=1`, read as `python3 train_py--x=1` (bash runs python with the one word
    `train.py--x=1`, which the walk starts as no script, shell/launches._script wanting a `.py` end: read as it is,
    the scan takes train.py for a script it may start; `_py`, a word that is none either); and the readings of loop
    variables of _loops_read. None where the text so read is still not followed, or where it names a file to run or
    source (where `$1` is that file's caller's: the launcher itself may be one), defines a function (whose `$1` is its
    call's), has a here-document or a single quote before such a place of `$1` (where its text may be written out)."""
    text = t.text
    if "<<" in text:
        return None
    places = list(re.compile(_OWN_ARGUMENT).finditer(text)) if "${" in text else []
    joined = _joined(text) if "\\\n-" in text else []
    places += joined
    if places and "'" in text[:max(m.start() for m in places)]:
        return None
    read = text
    for m in reversed(joined):              # (`python3 t.py\\`, newline, `--x`: `python3 t_py--x`)
        read = read[:m.end() - 5] + "_py" + read[m.end():]
    read = re.compile(_OWN_ARGUMENT).sub(r"${\1}", read) if places else read
    read, looped = _loops_read(read)
    if not places and not looped:
        return None
    made = _Text(t.path, read)
    if made.why or made.shells and places or made.defined:
        return None
    plain = read.replace('"', "").replace("'", "").replace("\\", "")
    if looped and (_sets_unnamed(plain) or not all(ok(name, read) for name, ok in looped)):
        return None
    made.looped = t.why if looped else ""     # (why_walked: no file it follows may be sourced)
    return made


# a cut from the end of a variable's value, its pattern written out (`${f%.*}`), and an extension made of a variable
# after a name written out (`bpe.${m}`, `x.$m`; not `..$m`, whose `..` may go up)
_VALUE_CUT = r"""\$\{([A-Za-z_]\w*)%%?[^{}$`'"\\\n]*\}"""
_VALUE_EXTENSION = r"""(?<=[\w}])\.\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))"""
# `for NAME in WORDS` after the name: the words to the `;` or line break, none a quote, `\\`, substitution or operator
_FOR_WORDS = r"""[ \t]+in[ \t]+([^;\n'"`\\()<>|&]*?)[ \t]*(?:;|\n)"""
# a launcher's own argument at a value's start (`O=${1:-"data/x"}`, `O="$1"`): check's walk knows none (shell/expand)
_OWN_VALUE = r"""=("?)\$(?:\d|\{\d)"""


def _loops_read(text: str) -> Tuple[str, List[Tuple[str, Callable[[str, str], bool]]]]:
    """(GNMT's wmt16_en_de.sh) The text with each cut of a variable read as its value whole (`${f%.*}` as `${f}`), and
    each extension of one as a word's part (`bpe.${m}` as `bpe_${m}`), and the questions (name, _unknown_loop or
    _written_loop) whose answers must hold of the text so read for it to be what check's walk reads: where the walk
    knows no value of f, its cut is none either (shell/expand.Expander._parameter), and where m holds only words that
    make no extension `.py` or `.sh`, `.${m}` is no script's name (_as_walked asks the rest)."""
    looped: Dict[str, Callable[[str, str], bool]] = {}
    if "%" in text and "${" in text:
        def cut(m: "re.Match[str]") -> str:
            looped[m.group(1)] = _unknown_loop
            return "${%s}" % m.group(1)
        text = re.compile(_VALUE_CUT).sub(cut, text)

    def extension(m: "re.Match[str]") -> str:
        looped.setdefault(m.group(1) or m.group(2), _written_loop)
        return "_" + m.group()[1:]
    text = re.compile(_VALUE_EXTENSION).sub(extension, text) if ".$" in text else text
    return text, list(looped.items())


_LOOP_UNREAD = frozenset(("PWD", "OLDPWD", "HOME", "IFS", "PATH", "CDPATH", "BASH_SOURCE"))    # (the walk's own)


def _loop_lists(name: str, text: str) -> Optional[List[List[str]]]:
    """The words of each `for NAME in WORDS` loop of a text that names no function and runs or sources no file, where
    every other mention of the name sets none (_sets_none: `echo "m=${m}"`) and nothing else may set it (`${m:=x}`,
    `${m[0]}`: _braced_other; a name not written out, _sets_unnamed, _as_walked asks); None otherwise."""
    if name in _LOOP_UNREAD or name.startswith("BASH") or _braced_other(text, name):
        return None
    lists = []
    for at in _mentions(text, name):
        head = at
        while head and text[head - 1] in " \t":
            head -= 1
        if head < at and head >= 3 and text.startswith("for", head - 3) and _loop_head(text, head - 3):
            words = re.compile(_FOR_WORDS).match(text, at + len(name))
            if words is None:
                return None
            lists.append(words.group(1).split())
        elif not _sets_none(text, at, set()):
            return None
    return lists


def _written_loop(name: str, text: str) -> bool:
    """Whether a variable holds only words of loops over words written out, none of which starts an extension `py`
    or `sh` after a `.` (`for lang in en de`, `for merge_ops in 32000`; bash 5.2 gives each word as it is written),
    or none the walk knows."""
    lists = _loop_lists(name, text)
    return lists is not None and all(_WRITTEN_WORD.fullmatch(w) and w[0] not in "pPsS"
                                     for words in lists for w in words)


_WRITTEN_WORD = re.compile(r"[A-Za-z0-9_]+")


def _unknown_loop(name: str, text: str) -> bool:
    """Whether the walk knows no value of a variable set only by loops over words each of which holds a variable the
    walk knows no value of (`for f in ${OUTPUT_DIR}/*.de`, OUTPUT_DIR=${1:-...}): of the launcher's own argument, or
    never set (_unknown_value)."""
    lists = _loop_lists(name, text)
    if lists is None:
        return False
    known: Dict[str, bool] = {}         # (each variable's answer, once: GNMT's loops read ${OUTPUT_DIR} five times)
    for w in chain.from_iterable(lists):
        for m in re.compile(_CD_PART).finditer(w):
            var = m.group(1) or m.group(2)
            if var not in known:
                known[var] = _unknown_value(var, text)
            if known[var]:
                break
        else:
            return False
    return True


def _unknown_value(name: str, text: str) -> bool:
    """Whether check's walk knows no value of a variable of a launcher that names no function and runs or sources no
    file: set only at a command's head to a value that starts with one of the launcher's own arguments (_OWN_VALUE),
    or never, where every other mention of it sets none (_sets_none) and no `${X:=y}` may."""
    if name in _LOOP_UNREAD or name.startswith("BASH") or _braced_other(text, name):
        return False
    n = len(name)
    return all(_sets_none(text, at, set()) or
               text.startswith("=", at + n) and _heads(text, at) and re.compile(_OWN_VALUE).match(text, at + n)
               for at in _mentions(text, name))


# a line that is a `cd` to a relative folder written out (`cd utils/pyvotkit`, `cd ../../`), and what a text whose
# other lines _cd_height reads may not hold: a `cd` elsewhere, a way to change the folder (a function, `$c`, `source`)
# or to make a command conditional, repeated, skipped or text (a quote, `\\`-newline, here-document, block, subshell,
# pipeline, background)
_CD_LINE = r"[ \t]*cd[ \t]+([\w.+][\w./+-]*)[ \t]*;?[ \t]*"       # (not `cd -`: the folder before)
# (_not_plain: a word of these standing alone, as `(?<![\w.-])(?:cd|...)(?![\w.-])` finds it, `..`, one of these
# characters, `<<`, or a `.` command at the line's start or after a `;`)
_NOT_PLAIN_WORDS = frozenset(("cd", "pushd", "popd", "dirname", "if", "then", "elif", "else", "fi", "for", "while",
                              "until", "do", "done", "case", "esac", "select", "function", "eval", "exec", "source",
                              "alias", "trap", "CDPATH"))
_NOT_PLAIN_SIGNS = "'\"`\\(){}&|$"
# a run of the characters a word of _NOT_PLAIN_WORDS or _BLOCK_WORDS may not stand beside (each run is a match of
# `(?<![\w.-])WORD(?![\w.-])` where it is such a word: the alternations of those words compiled at their first use
# cost 2.2M and 1.0M instructions, this 0.1M)
_RUN = r"[\w.-]+"


def _cd_height(t: _Text, folder: str) -> Optional[int]:
    """How many folders above its own the walk's directory can be, for a launcher of plain lines whose every `..` is in
    a line `cd DIR` (DIR relative, written out; siammask's make.sh: `cd utils/pyvotkit` ... `cd ../../`), each to a
    folder that is there from where the lines before it went: bash and the walk run them in the order written, each
    once, each going there. None where that is not so: the launcher names a file to run or source, defines a function,
    or has a line other than such a `cd` that holds any of _not_plain's (a `cd` in a branch, loop, `&&`, subshell or
    string may not run)."""
    if t.shells or t.defined or any(c in t.text for c in "$'\"`(&|\\"):     # (in C: most texts hold one)
        return None
    here, height = folder, 0
    for line in t.text.split("\n"):
        cd = re.compile(_CD_LINE).fullmatch(line)
        if cd is None:
            if _not_plain(line):
                return None
            continue
        for step in cd.group(1).split("/"):
            here = os.path.normpath(os.path.join(here, step)) if step else here
            height = max(height, len(folder.split(os.sep)) - len(here.split(os.sep)))
        if height > MAX_LEVELS or observed.note(here)[0] != "dir":
            return None                 # (a folder not there: bash stays where it is, and the lines after go on)
    return height


def _not_plain(line: str) -> bool:
    """Whether a line holds any of _NOT_PLAIN_WORDS standing alone, `..`, one of _NOT_PLAIN_SIGNS, `<<`, or a `.` command
    at its start or after a `;` (`(?:^|;)[ \\t]*\\.[ \\t]`)."""
    if ".." in line or "<<" in line or any(c in line for c in _NOT_PLAIN_SIGNS):
        return True
    if any(part.lstrip(" \t")[:1] == "." and part.lstrip(" \t")[1:2] in (" ", "\t") for part in line.split(";")):
        return True
    return not _NOT_PLAIN_WORDS.isdisjoint(re.compile(_RUN).findall(line))


# a line `cd WORD`, WORD written out but for `$X`, `${X}`
# (BigGAN's train_1p.sh: `cd ${EXEC_DIR}/${RESULTS}/${device_id}`)
_LOST_CD = r"[ \t]*cd[ \t]+((?:[\w./+-]|\$[A-Za-z_]\w*|\$\{[A-Za-z_]\w*\})+)[ \t]*"
_CD_PART = r"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})"
# the words that open or close a block, and what each opener is closed by
_BLOCK_WORDS = frozenset(("if", "then", "elif", "else", "fi", "case", "esac", "for", "while", "until", "select", "do",
                          "done", "function"))     # (each a run of _RUN)
_CLOSED_BY = {"if": "fi", "case": "esac", "for": "done", "while": "done", "until": "done", "select": "done"}
_GIVEN = r"""=(["']?)\$(?:\d|\{\d+\})\1[ \t]*(?=\n|$)"""       # (one of the launcher's arguments: check knows none)
# a value without a blank, as the walk gives it: a name written out, `$(pwd)` where no folder the walk goes to has one
# (_blank_free: with _OWN_FOLDER_SET and _GIVEN)
_BLANK_FREE = r"""=(?:(["']?)[\w./+-]*\1|\$\([ \t]*pwd[ \t]*\)|`[ \t]*pwd[ \t]*`)[ \t]*(?=\n|$)"""
# what may change the walk's folder after such a `cd`, or run what the scan does not read there
_MOVERS = ("cd", "pushd", "popd", "eval", "source", "alias", "trap")
_DOT_COMMAND = r"(?:^|[\n;&|(`{])[ \t]*\.[ \t]"


def _lost_first(t: _Text, launcher: str) -> bool:
    """Whether the walk loses its folder before the launcher names any script or module (it runs or sources no file,
    defines no function and heads no command by a value): a line `cd WORD` at its top level (the lines before it
    open no block they do not close, hold no quote, `\\`, backtick, subshell or group across lines, and do not carry
    on into it) whose WORD reads, before any variable that may hold a blank, one whose value the walk does not know
    there: no line before it sets that variable but to one of the launcher's arguments (`device_id=$1`: check walks
    it without them), nor can (_sets_unnamed, `${X:=y}`). shell/walk.Walk then sets its folders to none (a `cd` to
    a word not known), and no `cd`, `pushd`, `popd`, `eval`, `source`, alias or trap after it gives one back: each
    later launch has no folder, and shell/launches._script starts no script there (nor `-m`: found in no folder),
    so no script it names is analysed. A blank in a variable before it would split the word (`A="/tmp /"`: the walk
    goes to /tmp): each such variable is set only to a name written out, `$(pwd)` or the launcher's folder, and
    every `cd` before it to such words, from a launcher whose path has no blank (_blank_free)."""
    text = t.text
    if t.shells or t.defined or t.by_value() != [] or "<<" in text or re.compile(_DOT_COMMAND).search(text):
        return False
    if any(c.isspace() for c in launcher) or any(n in ("alias", "trap") for _, n in _names_at(text, _MOVERS)):
        return False
    start = 0
    for line in text.split("\n"):
        cd = re.compile(_LOST_CD).fullmatch(line)
        head = text[:start]
        start += len(line) + 1
        if ".py" in head or "-m" in head:
            return False                        # (a script or module before it)
        if cd is None or not _top_level(head):
            continue
        plain = head.replace('"', "").replace("'", "")
        if _sets_unnamed(plain) or \
                _names_at(text[start:].replace('"', "").replace("'", "").replace("\\", ""), _MOVERS):
            continue
        for part in re.compile(_CD_PART).finditer(cd.group(1)):
            name = part.group(1) or part.group(2)
            if _not_known(name, head, plain):
                return not part.start() or _cds_blank_free(head, plain)     # (a blank before it may split the word)
            if not _blank_free(name, head, plain):
                break
    return False


def _top_level(head: str) -> bool:
    """Whether a line after these lines is at the top level of the launcher, run wherever the walk reaches it: no
    `\\`, backtick or here-document, no quote or parenthesis left open on a line, each `{` a `${`, each `(` a `$(` or
    `$((`, and the last line does not carry on (`&&`, `||`, `|`); each block word closed by its own, and each where a
    command starts for certain: after the line's start, a `;` or then/do/else/elif, with no quote, parenthesis or `$`
    before it on its line (`echo "; fi"`, `nohup fi`: no keyword; where a false one closed a block, the `cd` would be
    in a branch the walk may skip)."""
    if "\\" in head or "`" in head or head.count("{") != head.count("}") or \
            any(head[k - 1:k] != "$" for k in _places(head, "{")) or \
            any(head[k - 1:k] not in ("$", "(") for k in _places(head, "(")):
        return False
    lines = re.compile(_OWN_FOLDER_SET).sub("=D", head).split("\n")   # (its quotes nest in `$(`: taken out)
    if any(not _quotes_closed(line) or line.count("(") != line.count(")") or
           ('"' in line or "'" in line) and ("$(" in line or _quote_in_brace(line)) for line in lines):
        return False                            # (quotes only where no `$(` or `${` may nest others)
    last = next((line.strip() for line in reversed(lines) if line.strip()), "")
    if last.endswith(("&&", "||", "|")):
        return False
    opened: List[str] = []
    for m in re.compile(_RUN).finditer(head):
        word = m.group()
        if word not in _BLOCK_WORDS:
            continue
        before = head[head.rfind("\n", 0, m.start()) + 1:m.start()]
        if word == "function" or any(c in before for c in "\"'()$") or \
                before.strip() and not before.rstrip().endswith(";") and \
                before.split()[-1] not in ("then", "do", "else", "elif"):
            return False
        if word in _CLOSED_BY:
            opened.append(_CLOSED_BY[word])
        elif word in ("fi", "esac", "done"):
            if not opened or opened.pop() != word:
                return False
        elif not opened:
            return False                        # (`then`, `else`, `do` outside a block)
    return not opened


def _quote_in_brace(line: str) -> bool:
    """Whether a quote stands after a `${` before the next `}` (what `\\$\\{[^}]*["']` finds)."""
    k = line.find("${")
    while k >= 0:
        end = line.find("}", k + 2)
        inside = line[k + 2:] if end < 0 else line[k + 2:end]
        if '"' in inside or "'" in inside:
            return True
        k = line.find("${", k + 2)
    return False


def _quotes_closed(line: str) -> bool:
    """Whether a line without `\\` ends outside quotes (a `'` inside `"..."` is no quote, nor a `"` inside `'...'`)."""
    state = ""
    for c in line:
        if not state and c in "\"'":
            state = c
        elif c == state:
            state = ""
    return not state


def _not_known(name: str, head: str, plain: str) -> bool:
    """Whether the walk knows no value of the variable after these lines (plain: them without quotes): it is none
    the walk sets itself, and they only read it (`$X`, `${X}`) or set it to one of the launcher's arguments at a line's
    head (`X=$1`, `X="${2}"`)."""
    if name in ("PWD", "HOME", "OLDPWD", "BASH_SOURCE"):
        return False
    n = len(name)
    if any(plain[k - 1] == "{" and not plain.startswith("}", k + n) for k in _reads(plain, name)):
        return False                            # (`${X:=y}`, `${X=y}` set it)
    return len(_mentions(head, name)) == len(_mentions(plain, name)) and \
        all((not k or plain[k - 1] == "\n") and re.compile(_GIVEN).match(plain, k + n) for k in _mentions(plain, name))


def _blank_free(name: str, head: str, plain: str) -> bool:
    """Whether each line that names the variable sets it at its head to a value without a blank in the walk: a name
    written out, `$(pwd)`, the launcher's folder (_OWN_FOLDER_SET), one of its arguments (not known: a `cd` to it
    loses the folder); `$(pwd)` holds none where no folder the walk goes to has one (_cds_blank_free)."""
    at = _mentions(head, name)
    n = len(name)
    if len(at) != len(_mentions(plain, name)) or \
            any(head[k - 1] == "{" and not head.startswith("}", k + n) for k in _reads(head, name)):
        return False
    return all(not (k and head[k - 1] != "\n") and any(re.compile(v).match(head, k + n)
                                                           for v in (_BLANK_FREE, _OWN_FOLDER_SET, _GIVEN))
               for k in at)


def _cds_blank_free(head: str, plain: str) -> bool:
    """Whether no folder the walk goes to in these lines has a blank, from a launcher whose path has none: each `cd` is
    a line `cd WORD` (_LOST_CD) whose variables are _blank_free, or in a value of the launcher's folder (a subshell's,
    which does not come back); no `pushd` or `popd`."""
    for k, word in _names_at(head, ("cd", "pushd", "popd")):
        line = head[head.rfind("\n", 0, k) + 1:_line_end(head, k)]
        if word == "cd" and re.compile(_OWN_FOLDER_SET).search(line):
            continue
        cd = re.compile(_LOST_CD).fullmatch(line) if word == "cd" else None
        if cd is None or not all(_blank_free(m.group(1) or m.group(2), head, plain)
                                 for m in re.compile(_CD_PART).finditer(cd.group(1))):
            return False
    return True


def _may_source(name: str, quoted: bool, texts: Dict[str, _Text],
                pieces: Callable[[], FrozenSet[str]] = frozenset) -> bool:
    """Whether a variable a command's head is (`${B} "$f"`) may hold `source` or `.` in the walk: it is set in these
    texts other than by assignments at a command's head whose value is a substitution whose output the walk does not
    know (`B=$(which python2)`: shell/expand.Expander._output, _PRINTING) or a word written out that is neither (nor
    starts with one and a blank), or, for a quoted head (no splitting: the value whole), one that writes out a
    character neither holds (`"${D}/x.sh"`), or a piece of an argument of a file in pieces() (_argument_piece: those
    of every place that runs it hold neither); a mention in a `[[ ... ]]` test sets no word (_in_test); one no text
    sets has no value the walk knows."""
    if name in ("PWD", "HOME", "OLDPWD", "BASH_SOURCE"):
        return True
    for p, t in texts.items():
        if _braced_other(t.text, name):
            return True                 # `${name:=source}`
        for at in _mentions(t.text, name):
            end = at + len(name)
            if not t.text.startswith("=", end) or not _heads(t.text, at):
                if _in_test(t.text, at):
                    continue            # `[[ $para == --bind_core* ]]`
                return True             # `read name`, `for name in`, `export name=`, `f name`: not known here
            value = _word_at(t.text, end + 1)
            if _unknown_output(value):
                continue                # (the walk does not know its output: no value)
            if _argument_piece(value, t, texts, p, pieces):
                continue                # `bind_core=`echo ${para#*=}``, para a word of `for para in $*`
            if quoted and not set(_EXPANDED_END.sub("", value).replace('"', "").replace("'", "")) <= _SOURCE_CHARS:
                continue
            first = _FIRST_END.split(value.replace('"', "").replace("'", ""), maxsplit=1)[0]
            if first and not any(w.startswith(first) for w in ("source", ".")):
                continue                # (`taskset -c $a-$c`: its first word is no `source` or `.`, whatever follows)
            if any(c in value for c in "$`\\") or value.strip("'\"").split(None, 1)[:1] in (["source"], ["."]):
                return True
    return False


_FIRST_END = re.compile(r"[\s$`\\]")     # (where a value's first word stops being written out: _may_source)


def _names_files(t: _Text, texts: Dict[str, _Text], pieces: Callable[[], FrozenSet[str]] = frozenset) -> bool:
    """Whether a text names a file it may run or source: one of its shells, but those a head by value names whose
    value the walk never has as `source` or `.` (_may_source: `${bind_core} python3.7 x.py`)."""
    for at in t._shell_at:
        head = t._by_value_at.get(at)
        if head is None or head[0] is None or \
                _may_source(head[0].group(1) or head[0].group(2), head[1], texts, pieces):
            return True
    return False


def _in_test(text: str, at: int) -> bool:
    """Whether the word at `at` is in a `[[ ... ]]` test: its command's first word after keywords is `[[`, and no `]]`
    stands before it there, and no `=~` in its line. Bash sets no variable in one but by arithmetic, to a number
    (`[[ 1 -eq --x ]]`, `[[ 1 -eq x=y ]]`: bash 5.2 gives -1 and 0) and BASH_REMATCH by `=~`; the walk sets none."""
    words = text[_command_start(text, at):at].split()
    k = 0
    while k < len(words) and words[k] in _KEYWORDS:
        k += 1
    return k < len(words) and words[k] == "[[" and "]]" not in words and "=~" not in text[at:_line_end(text, at)] \
        and "=~" not in words


# (the patterns of _pieces and _argument_piece, compiled where first asked: not at import, as most runs never ask)
# `for X in $*` (or `$@`, `"$@"`, `"$*"`) after a loop's name: X is a word of the file's arguments each round
_OVER_ALL_ARGS = r"""[ \t]+in[ \t]+("?)\$[*@]\1[ \t]*(?:;|\n|$)"""
# (and blanks between words; no `.`, quote, `$`, pattern, `\\`, `<`, `>`, nor other letters than ASCII's: _pieces)
_SAFE_ARGUMENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/=,:+@%- \t")


def _argument_piece(value: str, t: _Text, texts: Dict[str, _Text], path: str,
                    pieces: Callable[[], FrozenSet[str]]) -> bool:
    """Whether a value of an assignment in t (the file at path, one of pieces()) is a word of its file's arguments or
    what is left of one cut from its start, or echo's output of that (`${para#*=}`, `` `echo ${para#*=}` ``, `$(echo
    $para)`), para being the name of a `for para in $*` outside any function body of t, and named nowhere else in the
    texts but in echo's arguments and `[[ ... ]]` tests (no text sets it another way: `${para:=x}` neither): each word
    of it is then a piece of an argument's."""
    value = value.strip('"')
    for lead, end in (("`echo ", "`"), ("$(echo ", ")")):
        if value.startswith(lead) and value.endswith(end):
            value = value[len(lead):-len(end)].strip(" \t")
            break
    name = _piece_of(value)
    if name is None or path not in pieces():
        return False
    loops = 0
    for u in texts.values():
        k = u.text.find("${" + name)
        while k >= 0:
            if u.text[k + 2 + len(name):k + 3 + len(name)] not in ("}", "#") and \
                    not _word(u.text[k + 2 + len(name):k + 3 + len(name)] or " "):
                return False            # `${para:=x}`, `${para=x}`, `${para[0]}`
            k = u.text.find("${" + name, k + 1)
        for at in _mentions(u.text, name):
            if _in_test(u.text, at) or _head_of(u.text, at) == "echo":
                continue                # (`echo "para: ..."`: echo sets no variable)
            head = at
            while head and u.text[head - 1] in " \t":
                head -= 1
            if u is not t or u.text[head - 3:head] != "for" or head == at or not _loop_head(u.text, head - 3) or \
                    not re.compile(_OVER_ALL_ARGS).match(u.text, at + len(name)) or t.where(at)[1] != -1:
                return False
            loops += 1
    return loops > 0


def _piece_of(value: str) -> Optional[str]:
    """The variable whose value, or what is left of it cut from its start by a pattern written out (`${para#*=}`, no
    quote, `$`, `` ` ``, `\\` nor `(` in it), a value (quoted or not) is: `$para`, `"${para}"`; None otherwise."""
    if len(value) > 1 and value[0] == value[-1] == '"':
        value = value[1:-1]
    if value.startswith("${") and value.endswith("}"):
        name, cut, pattern = value[2:-1].partition("#")
        if cut and any(c in pattern for c in "}$`'\"\\("):
            return None
    elif value.startswith("$"):
        name = value[1:]
    else:
        return None
    return name if _VARIABLE.fullmatch(name) else None


def _lazy_pieces(texts: Dict[str, _Text], edges, launcher: str) -> Callable[[], FrozenSet[str]]:
    """_pieces, found when first asked."""
    found: List[FrozenSet[str]] = []

    def pieces() -> FrozenSet[str]:
        if not found:
            found.append(_pieces(texts, edges, launcher))
        return found[0]
    return pieces


_SET_WORDS = r"(?<![\w.-])set(?![\w.-])[ \t]*([^\n;&|)`]*)"        # (a `set` and its words: compiled where asked)


def _pieces(texts: Dict[str, _Text], edges, launcher: str) -> FrozenSet[str]:
    """The files (not the launcher) that every place naming them runs in a new shell (_sources_none, by a shell, exec,
    nohup or time: _runs_here), each with arguments written out that hold no `.` nor `source` and no character that
    may make or join words (_SAFE_ARGUMENT: no blank inside one, quote, `$`, `*?[`, `\\`, redirection), and that set
    no arguments of their own (`set a b`): any piece of their arguments (a part of a word, split at any characters)
    is neither `source` nor `.`. (None in a shell with a function named echo.)"""
    if any(any(not (w.startswith(("-", "+")) or k and words[k - 1] in ("-o", "+o")) for k, w in enumerate(words))
           for t in texts.values() for words in (m.group(1).split() for m in re.compile(_SET_WORDS).finditer(t.text))):
        return frozenset()              # `set a b`, `set -x a`: arguments of its own (or of the file that sources it)
    functions = {n for t in texts.values() for n in t.defined}
    if "echo" in functions:
        return frozenset()              # (_argument_piece reads echo's output and arguments as the builtin's)
    places: Dict[str, Optional[List[Tuple[str, int]]]] = {}
    for q, named in edges.items():
        for c, (_, sourced, at) in named.items():
            if sourced:
                places[c] = None
            elif places.get(c, []) is not None:
                places.setdefault(c, []).extend((q, i) for i in at)     # type: ignore[union-attr]
    out = set()
    for c, where in places.items():
        if c == launcher or not where or c not in texts:
            continue
        for q, i in where:
            text = texts[q].text
            at = texts[q]._shell_at[i]
            if not _sources_none(text, at, functions) or not _runs_here(text, at):
                break                   # (`echo source | xargs bash ./x.sh`: words the line does not show)
            start = at
            while start < len(text) and text[start] not in " \t\n;&|<>()`":
                start += 1
            end = start
            while end < len(text) and text[end] not in "\n;&|)`":
                end += 1
            words = text[start:end]
            if not set(words) <= _SAFE_ARGUMENT or "source" in words:
                break
        else:
            out.add(c)
    return frozenset(out)


_SOURCE_CHARS = frozenset("source.")


def _unknown_output(value: str) -> bool:
    """Whether a word is one substitution of a command whose output the walk does not know (`$(which python2)`,
    `` `find . -name x` ``: not one of _PRINTING, shell/expand.Expander._output's)."""
    value = value.strip('"')
    if not value.startswith(("$(", "`")) or value.count("$(") + value.count("`") > (1 if value[0] == "$" else 2):
        return False
    words = value.lstrip("$(`").split()
    return bool(words) and bool(_PLAIN_WORD.fullmatch(words[0])) and words[0] not in _PRINTING


def _unknown(name: str, texts: Dict[str, _Text]) -> bool:
    """Whether the walk knows no value of a variable: every mention of it in these texts is an assignment at a
    command's head, or a `for` loop's name, of one substitution whose output it does not know (`for f in `find ...``:
    presubmit.sh's), or none is (not PWD, HOME, OLDPWD, BASH_SOURCE: the walk knows those)."""
    if name in ("PWD", "HOME", "OLDPWD", "BASH_SOURCE"):
        return False
    for t in texts.values():
        if _braced_other(t.text, name):
            return False
        for at in _mentions(t.text, name):
            end = at + len(name)
            if t.text.startswith("=", end) and _heads(t.text, at):
                if not _unknown_output(_word_at(t.text, end + 1)):
                    return False
                continue
            loop = _FOR_IN.match(t.text, end)
            head = at - 4
            if loop is None or head < 0 or t.text[head:at] != "for " or not _loop_head(t.text, head) or \
                    not _unknown_output(loop.group(1)):
                return False
    return True


_FOR_IN = re.compile(r"[ \t]+in[ \t]+(\S+|`[^`]*`|\$\([^()]*\))[ \t]*(?:;|\n|$)")


def _word_at(text: str, at: int) -> str:
    """The word that starts at `at`, as far as a blank or an operator outside quotes and `$(...)` ends it (roughly)."""
    for words, _, _ in _shell("parse").lexed_commands(text, _line_start(text, at), _line_end(text, at)):
        for a, b in words:
            if a <= at < b:
                return text[at:b]
    return text[at:at + 1]


def _follow(texts: Dict[str, _Text], launcher: str, found: "_Listing", own: Optional[Set[str]] = None):
    """Read every file the texts run or source (by name, in the region); why not, and {file: {file it names: (how
    often it is named, whether sourced, which of the file's shells names it)}}. own: where given, a name of the
    launcher after a variable set to its own folder is that folder's file (_own_folder_lead), and own is filled with
    those variables (why_walked asks _own_folder of them, and follows again without it where one fails)."""
    edges: Dict[str, Dict[str, Tuple[int, bool, Tuple[int, ...]]]] = {}
    todo, depth = [launcher], {launcher: 0}
    asked: Dict[str, bool] = {}         # (_own_folder of the launcher's text, by variable)
    while todo:
        p = todo.pop()
        edges[p] = {}
        for i, (name, suffix, sourced) in enumerate(texts[p].shells):
            files = _named(found, name)
            lead = _own_folder_lead(texts[p].text, texts[p]._shell_at[i], name) \
                if own is not None and p == launcher and files else None
            if lead is not None and lead not in asked:
                asked[lead] = _own_folder(lead, texts[p].text, True)
            if own is not None and lead is not None and asked[lead] and observed.note(os.sep + name)[0] == "missing":
                # (unset where it is read, the word is /name: that file is not there)
                files = tuple(c for c in files if os.path.dirname(c) == os.path.dirname(launcher))
                own.add(lead)
            read: Dict[str, str] = {}
            if len(files) > 1:
                why = _unfollowed_of(files, suffix, texts, read, launcher)
                if why:
                    return why, edges
            for c in files:
                if suffix and not c.endswith(suffix):
                    continue
                n, s, named = edges[p].get(c, (0, False, ()))
                edges[p][c] = (n + 1, s or sourced, named + (i,))
                if c in depth:
                    continue                # (reached in this pass already)
                if depth[p] + 1 > MAX_SOURCED or c not in texts and len(texts) >= MAX_FILES:
                    return "files run or sourced too deep or too many", edges
                if c not in texts:
                    t = _read(c, read.get(c))
                    if t is None:
                        return f"{os.path.relpath(c, os.path.dirname(launcher))} cannot be read whole", edges
                    if t.why:
                        return f"{t.why} in {os.path.relpath(c, os.path.dirname(launcher))}", edges
                    texts[c] = t
                # a file read in an earlier pass (before the region grew) is gone through again: its edges were
                # left out of this pass's when it was skipped as read, and its commands and levels with them
                depth[c] = depth[p] + 1
                todo.append(c)
    return "", edges


# the value of an assignment of the launcher's own folder, `D=$(cd "$(dirname "$0")"; pwd)` (`&&`,
# `${BASH_SOURCE[0]}`, quotes), matched after the variable's name
_OWN_FOLDER_SET = (r"""=(["']?)\$\([ \t]*cd[ \t]+(["']?)\$\([ \t]*dirname[ \t]+(["']?)%s\3[ \t]*\)\2[ \t]*"""
                   r"""(?:;|&&)[ \t]*pwd[ \t]*\)\1[ \t]*(?=[\n;]|$)""" % _SELF)
# what may set a variable without its name written out before an `=` (`read`, `printf -v`, `eval "$n=x"`, `${!n}`)
# (as a command's word: after a blank, an operator or the text's start, its quotes left out)
# (each found by str.find, the characters around it checked: as one search, its first letters were tried at every
# character, 5M over the 13 texts p130's 221 launchers ask of)
_SETTERS = ("eval", "declare", "typeset", "local", "readonly", "read", "printf", "mapfile", "readarray", "getopts",
            "unset", "let", "export", "source", ".")
_SETTER_BEFORE = frozenset(" \t\n;&|({`!")
_SETTER_AFTER = frozenset(" \t\n\r\f\v;&|)`")
# an arithmetic or an index whose variable may be named by a value (`(( $n = 1 ))`, `a[$n=1]=x`: bash sets that one)
_NAMED_ARITHMETIC = r"(?:\(\(|\$\[)(?:(?!\)\)|\])[^\n])*\$|\[(?<=\w\[)[^\]\n]*\$[^\]\n]*\]"
_PLAIN_EXPORT = r"export[ \t]+[A-Za-z_]\w*=[^\s;&|'\"`\\()]*[ \t]*(?=\n|$)"


def _own_folder_lead(text: str, at: int, name: str) -> Optional[str]:
    """The variable a file's name is written after, the whole word but the name (`${D}/x.sh`, `$D/x.sh`, in double
    quotes or none); None otherwise. Whether it holds the launcher's folder is asked by _own_folder."""
    quoted = at > 0 and text[at - 1] == '"'
    lead = _LEAD.match(text, at)
    if lead is None or at > quoted and text[at - 1 - quoted] not in " \t\n;&|(`=":
        return None                     # (`x${D}/a.sh`, `"x${D}/a.sh"`: another folder)
    var = lead.group(1) or lead.group(2)
    end = lead.end() + len(name)
    if text[lead.end():end] != name or text[end:end + quoted] != '"' * quoted or \
            end + quoted < len(text) and text[end + quoted] not in " \t\n;&|)<>":
        return None
    return var


def _own_folder(var: str, text: str, launcher: bool) -> bool:
    """Whether the launcher's own folder (or nothing) is what a variable _own_folder_lead found holds wherever it is
    read, as far as a text of the launcher's shell tells (launcher: whether it is the launcher's): the launcher sets it
    by one assignment (_OWN_FOLDER_SET; in a function or a branch, it may be unset: the word is then /name, which
    _follow finds not there), no other file of its shell names it, and none has a way to set a variable whose name is
    not written out (`read`, `eval`, `declare`, an `export` but `export NAME=value` alone on its line, an arithmetic or
    index with a `$`; nor a `source`, `.`, `[[`, which the check of each word does not read). Where quotes and `\\`
    are left out (`export cur""rentDir=x` sets currentDir), each other mention is a read, `$D` or `${D}`."""
    plain = text.replace('"', "").replace("'", "").replace("\\", "")
    if launcher:
        at = _mentions(text, var)
        if len(at) != 1 or len(_mentions(plain, var)) != 1 or "dirname" not in text or not _heads(text, at[0]) or \
                not re.compile(_OWN_FOLDER_SET).match(text, at[0] + len(var)):
            return False                        # (the assignment, once, heading its command)
    elif _mentions(plain, var) or _reads(plain, var):
        return False
    if _sets_unnamed(plain):
        return False
    if not launcher:
        return True
    n = len(var)
    return not any(plain[k - 1] == "{" and not plain.startswith("}", k + n) or plain.startswith("[", k + n)
                   for k in _reads(plain, var))     # `${D:=x}`, `${D[0]}`


def _sets_unnamed(plain: str) -> bool:
    """Whether a text (its quotes and `\\` left out) has a way to set a variable whose name is not written out before
    an `=` (_SETTERS as a command's word, but `export NAME=value` alone on its line; `${!`, `[[`, an arithmetic or
    index with a `$`)."""
    if "${!" in plain or "[[" in plain or ("((" in plain or "$[" in plain or "[" in plain) and \
            re.compile(_NAMED_ARITHMETIC).search(plain):
        return True
    for word in _SETTERS:
        k, n = plain.find(word), len(word)
        while k >= 0:
            if (not k or plain[k - 1] in _SETTER_BEFORE) and (k + n == len(plain) or plain[k + n] in _SETTER_AFTER) \
                    and not (word == "export" and re.compile(_PLAIN_EXPORT).match(plain, k)):
                return True                     # (not `/usr/local`, `readlink`: inside a word)
            k = plain.find(word, k + 1)
    return False


def _unfollowed_of(files, suffix: str, texts: Dict[str, _Text], read: Dict[str, str], launcher: str) -> str:
    """Why not, as _follow says it, for the first of several files of a name (those with the suffix, not read yet)
    that cannot be followed for its text alone (_unfollowed), asked of each before any is made a _Text: `bash
    train_full_8p.sh` may name a file in each project of the region, and the first that cannot be followed walks the
    launcher, however many before it can (a _Text of one costs about 6M, its text alone about half). ("": none;
    read: each text read, by file.)"""
    for c in files:
        if suffix and not c.endswith(suffix) or c in texts:
            continue
        observed.reading(c)
        try:                            # (as _read: what it cannot read or make a _Text of, it says so)
            text = decode_shell(read_bytes(c, MAX_LAUNCHER))
            kept = _texts.get(c)
            why = kept[1].why if kept is not None and kept[0] == text else _unfollowed(_uncommented(text))
        except (OSError, ReadError, ValueError):
            return f"{os.path.relpath(c, os.path.dirname(launcher))} cannot be read whole"
        if why:
            return f"{why} in {os.path.relpath(c, os.path.dirname(launcher))}"
        read[c] = text
    return ""


def _same_shell(texts: Dict[str, _Text], launcher: str, edges) -> Set[str]:
    """The launcher and the files it may source, and those they may source: all but the files no place that names
    them sources (_sources_none: `bash x.sh`, `./x.sh`, `cp x.sh d/`), and what only those source or run."""
    functions = {n for t in texts.values() for n in t.defined}
    out, todo = {launcher}, [launcher]
    while todo:
        p = todo.pop()
        t = texts[p]
        for c, (_, sourced, named) in edges.get(p, {}).items():
            if c not in out and (sourced or any(not _sources_none(t.text, t._shell_at[i], functions) for i in named)):
                out.add(c)
                todo.append(c)
    return out


def _called_by_value(texts: Dict[str, _Text], edges) -> bool:
    """Whether a text whose heads by value are not known (_Text.by_value: None) is in a shell that has functions."""
    return any(t.by_value() is None for t in texts.values()) and \
        any(texts[p].by_value() is None for p in _with_functions(texts, edges))


def _with_functions(texts: Dict[str, _Text], edges) -> List[str]:
    """The texts in a shell that has functions (_shell_groups)."""
    shells = _shell_groups(texts, edges)
    defining = {shells[p] for p, t in texts.items() if t.defined}
    return [p for p in texts if shells[p] in defining]


def _shell_groups(texts: Dict[str, _Text], edges) -> Dict[str, str]:
    """A text of each shell for each text: a file and those it may source (_same_shell's criterion) share one; a file
    only run is a new shell, with none of its caller's functions (a file both, in both)."""
    functions = {n for t in texts.values() for n in t.defined}
    group = {p: p for p in texts}

    def top(p: str) -> str:
        while group[p] != p:
            p = group[p]
        return p
    for p, t in texts.items():
        for c, (_, sourced, named) in edges.get(p, {}).items():
            if sourced or any(not _sources_none(t.text, t._shell_at[i], functions) for i in named):
                group[top(c)] = top(p)
    return {p: top(p) for p in texts}


def _sources_none(text: str, at: int, functions: Set[str]) -> bool:
    """Whether the command that holds the word at `at` sources no file: the words before it there are written out (not
    `$cmd`, `"source`) and none is `source`, `.`, `eval` or a function's name, or else its head (after keywords) is
    written out and is none of those nor a prefix (`command`, `builtin`, ...), out of a substitution (`ssh h$IP "bash
    -s" < ./x.sh`): the walk sources a file only by a command whose head is `source` or `.`, which may come from a
    value, an eval or a function's body."""
    start = _command_start(text, at)
    words = text[start:at].rstrip("'\"").split()      # (`bash "$d/x.sh"`: its opening quote)
    if all(_PLAIN_WORD.fullmatch(w) and w not in (".", "source", "eval") and w not in functions for w in words):
        return True
    head = next((w for w in words if w not in _KEYWORDS), None)
    return head is not None and bool(_PLAIN_WORD.fullmatch(head)) and head not in _SOURCING_HEADS and \
        head not in functions and not _in_substitution(text, start)     # (`$(echo $c ./x.sh)`: its output runs)


def _runs_given(text: str) -> bool:
    """Whether a text may run or source a file whose name is a value (`bash "$1"`, `$1`, `./$x`): a command, as the
    walk's lexer reads it, whose head (after assignments and keywords) is not written out, or is a command through which
    an argument can become a script (_PASSES, but those that only set, test or print) given a word not written out;
    or a substitution anywhere (its commands are inside a word)."""
    if "$(" in text or "`" in text or "<(" in text or ">(" in text:
        return True
    for words, _, _ in _shell("parse").lexed_commands(text):
        spans = iter(words)
        for a, b in spans:
            word = text[a:b]
            if word in _KEYWORDS or _ASSIGNMENT.match(word):
                continue
            if not _PLAIN_WORD.fullmatch(word) or word in ("xargs", "parallel"):     # (these run what they read)
                return True
            if word in _PASSES and word not in _SETTING and \
                    any(not _PLAIN_WORD.fullmatch(text[c:d]) for c, d in spans):
                return True
            break
    return False


_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*(?:\[[^]]*\])?\+?=")
# (of _PASSES: the commands that set, test or print what they are given, and run nothing it names)
_SETTING = frozenset(("cd", "pushd", "popd", "export", "local", "declare", "readonly", "typeset", "set", "read",
                      "mapfile", "readarray", "getopts", "let", "printf", "case", "in", "for", "select"))


# the heads of a command that may source a file named after them (`builtin source x`: bash's; the walk's is `source`)
_SOURCING_HEADS = frozenset((".", "source", "eval", "command", "builtin", "exec", "time", "nohup", "sudo", "env"))


def _linked(folder: str) -> bool:
    """Whether a folder of this absolute, normalized path is a link (where os.path.realpath would differ from it; a
    link that leads back to itself too), by one lstat a folder. In a check run (observed.one_run) the answer is kept
    for each folder looked at, and the launchers of a project stop at the first folder an earlier one looked at."""
    seen = observed.this_run("link")          # (folder -> whether it or a folder above it is a link)
    looked: List[str] = []
    linked = False
    while True:
        known = seen.get(folder) if seen is not None else None
        if known is not None:
            linked = known
            break
        looked.append(folder)
        try:
            if stat.S_ISLNK(os.lstat(folder).st_mode):
                linked = True
                break
        except OSError:
            pass                        # (as realpath: not known to be a link)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    if seen is not None:
        seen.update(dict.fromkeys(looked, linked))
    return linked


def _up(folder: str, levels: int) -> str:
    for _ in range(levels):
        folder = os.path.dirname(folder)
    return folder


def _weights(texts: Dict[str, _Text], rounds: int, own: Optional[Dict[str, int]] = None) \
        -> Optional[Dict[str, Tuple[int, int, int]]]:
    """Each file's _Text.walked, when every function is defined in one file and called only there (a file run with
    `bash` is a new shell, which has none of its caller's functions; a sourced one shares them: then a call may
    cross, and this is None, as when a call leads back to its function: _times is the bound)."""
    where: Dict[str, str] = {}
    for p, t in texts.items():
        for name in t.defined:
            if where.setdefault(name, p) != p:
                return None
    if where and len(texts) > 1:
        for p, t in texts.items():     # a word of it (as _FUNCTION_NAME splits them) that another file's function is
            foreign = [name for name, q in where.items() if q != p]
            if foreign and (_names_at(t.text, foreign) or t.by_value()):
                return None             # (a head by value may name any function of its shell)
    out = {}
    for p, t in texts.items():
        walked = t.walked(own.get(p, rounds) if own else rounds)
        if walked is None:
            return None
        out[p] = walked
    return out


def _times(texts: Dict[str, _Text], edges=None) -> int:
    """How often a function body can be walked at most: once per call (and once more if no call is seen), a call in a
    body once per call of that one: (calls + 1) ** functions."""
    defined = sum(len(t.defined) for t in texts.values())
    if not defined:
        return 1
    names = {n for t in texts.values() for n in t.defined}
    calls = sum(len(_names_at(t.text, names)) for t in texts.values()) - defined + \
        sum(len(texts[p].by_value() or ()) for p in _with_functions(texts, edges or {}))   # (a head by value: a call)
    return (calls + 1) ** defined


def _cross_commands(texts: Dict[str, _Text], edges, launcher: str, rounds: int,
                    own: Optional[Dict[str, int]] = None) -> Optional[Tuple[int, int]]:
    """The most commands a walk of the launcher can count where a function may be called from another file than its
    own (_weights: None; a sourced file shares the shell's functions): each file's top level walked once per walk of
    each place that runs or sources it (the launcher's once), each function body once per walk of each place that
    names it in any text (a call: _Text.walked) or has an expansion for its head (a call of any function: the walk
    calls the one the value names) and once more per walk of its file's top level (a body no call
    reaches is walked once as one that may run, at the end of each shell that defined it), a place in a loop over
    the arguments once a round; a function's name in its own body is no call (shell/walk.Walk._simple calls none
    being walked); and the most walks of a body (for _levels). None where calls or files lead back to themselves
    (why_walked walks then: _times' (calls + 1) ** functions counts a call in a file sourced 5 times once)."""
    names: Dict[str, List[Tuple[str, int]]] = {}
    for p, t in texts.items():
        for n, (name, _) in enumerate(t._functions):
            names.setdefault(name, []).append((p, n))
    shells = _shell_groups(texts, edges)
    into: Dict[Tuple[str, int], List[Tuple[Tuple[str, int], int]]] = {}    # unit: (the unit of a place, its rounds)
    for p, t in texts.items():
        r = own.get(p, rounds) if own else rounds
        written = {at for _, at in t._functions}
        for at, name in _names_at(t.text, names):
            if at not in written:
                depth, body = t.where(at)
                for unit in names[name]:
                    if unit != (p, body):       # (in its own body: the walk calls no function inside itself)
                        into.setdefault(unit, []).append(((p, body), r ** depth))
        for at in t.by_value() or ():      # a head by value: a call of any function of its shell (None: walked)
            depth, body = t.where(at)
            for units in names.values():
                for unit in units:
                    if unit != (p, body) and shells[unit[0]] == shells[p]:
                        into.setdefault(unit, []).append(((p, body), r ** depth))
        for c, (_, _, places) in edges.get(p, {}).items():
            for i in places:
                depth, body = t.where(t._shell_at[i])
                into.setdefault((c, -1), []).append(((p, body), r ** depth))
    done: Dict[Tuple[Tuple[str, int], FrozenSet[Tuple[str, int]]], int] = {}
    busy: Set[Tuple[str, int]] = set()

    def walks(unit: Tuple[str, int], barred: FrozenSet[Tuple[str, int]]) -> Optional[int]:
        # (the walks of unit in which none of the function bodies `barred` is being walked: a place in a body reaches
        # a function only where that body is walked with neither it nor those above it, _Text.walked's)
        key = (unit, barred)
        if key in done:
            return done[key]
        if unit in busy or len(done) >= _MAX_CHAINS:
            return None
        busy.add(unit)
        total = 1 if unit == (launcher, -1) else 0
        inner = barred | {unit} if unit[1] >= 0 else barred
        for outer, n in into.get(unit, []) + ([((unit[0], -1), 1)] if unit[1] >= 0 else []):
            if outer in barred or unit[1] >= 0 and outer == unit:
                continue
            w = walks(outer, inner)
            if w is None:
                return None
            total += n * w
        busy.discard(unit)
        done[key] = total
        return total

    out, most = 0, 1
    for p, t in texts.items():
        r = own.get(p, rounds) if own else rounds
        for body, counts in t._in_body.items():
            w = walks((p, body), frozenset())
            if w is None:
                return None
            out += w * sum(commands * r ** depth for depth, (commands, _) in enumerate(counts))
            most = max(most, w) if body >= 0 else most
    return out, most


# a value cut from its start (`${x#*_}`, `${@#y}`, `${a[0]##*/}`, an eval's `${x"#"y}`; not `${#x}`): the one way the
# walk makes a name of the end of another (a cut from the end, a substring, a substitution: _COMPUTED; IFS: the walk
# splits at blanks)
_CUT_START = r"""\$\{[#!]?(?:\w+|[@*])(?:\[[^]]*\])?["'\\]*#"""     # (compiled where first asked)


def _ends_held(found: "_Listing", name: str) -> bool:
    """Whether a file in the listing has a name this one ends with (that keeps its extension), not this one."""
    ext = name.rfind(".") if name.endswith((".py", ".sh")) else 0
    return any(name[i:] in found.names for i in range(1, ext + 1))


def _named(found: "_Listing", name: str) -> Tuple[str, ...]:
    """The files a script or file of this name can be: by its name, and by a name it ends with when that keeps its
    extension (`${x#*_}` cuts `run_train.py` to `train.py`: _CUT_START)."""
    kept = found.asked.get(name)        # (the launchers of a project ask the same listing of the same names)
    if kept is None:
        ext = name.rfind(".") if name.endswith((".py", ".sh")) else 0
        held = found.names              # (most of the names asked are held by no folder: no call for them)
        kept = found.asked[name] = tuple(p for i in range(ext + 1) if name[i:] in held for p in found.get(name[i:]))
    return kept


def _commands(texts: Dict[str, _Text], edges, launcher: str, rounds: int, times: int, weights,
              own: Optional[Dict[str, int]] = None) -> Optional[int]:
    """The most commands a walk of the launcher can count (one count for all the files it enters): each file's own
    (weights: _weights'; else _Text.weighted's bound), and for each place where it runs or sources a file, as often
    as that place can run (_Text.runs), the most of the files the name can be (the walk enters the one file it is
    from: shell/walk.Walk.find); None when a file runs or sources a file on its own chain."""
    done: Dict[str, int] = {}
    busy: Set[str] = set()

    def total(p: str) -> Optional[int]:
        if p in done:
            return done[p]
        t = texts[p]
        busy.add(p)
        most: Dict[int, int] = {}          # each place it names a file: the most of those files
        for c, (_, _, named) in edges.get(p, {}).items():
            n = None if c in busy else total(c)
            if n is None:
                return None
            for i in named:
                most[i] = max(most.get(i, 0), n)
        busy.discard(p)
        r = own.get(p, rounds) if own else rounds
        done[p] = (weights[p][0] if weights else t.weighted(t.commands, r, times)) + \
            sum(t.runs(i, r, times) * n for i, n in most.items())
        return done[p]

    return total(launcher)


def _levels(texts: Dict[str, _Text], edges, launcher: str, rounds: int, times: int, weights=None,
            own: Optional[Dict[str, int]] = None, shell: Optional[Set[str]] = None,
            pieces: Callable[[], FrozenSet[str]] = frozenset) -> int:
    """How many folders up the walk's directories can go: a file's own `..` and `dirname` as often as they can run
    (weights: _weights'), those of a file it sources as often as it sources it (the shell is the same), and those of
    the one file it runs that goes furthest (a new shell starts where its caller is, and its `cd` does not come
    back); not those of a file it runs that names no file to run or source, out of the launcher's shell (shell:
    _same_shell's), where every place that names a file runs it there (no name is a value it may be given): its
    scripts are its own (reported on it), and where it goes it finds nothing the scan follows. A file a place may
    source (_sources_none: `s ./env.sh` where `s() { eval "source $1"; }`) counts as sourced there."""
    functions = {n for t in texts.values() for n in t.defined}
    done: Dict[str, int] = {}

    def need(p: str) -> int:
        if p in done:
            return done[p]
        t = texts[p]
        r = own.get(p, rounds) if own else rounds
        loops = r ** (len(t.commands) // 2 - 1) * times
        ran = by_source = 0
        for c, (n, sourced, places) in edges.get(p, {}).items():
            up = need(c)
            if not up:
                continue            # (one that goes up nowhere adds nothing: whether it is sourced is not asked)
            if sourced or any(not _sources_none(t.text, t._shell_at[i], functions) for i in places):
                by_source += n * loops * up
            elif shell is None or c in shell or _names_files(texts[c], texts, pieces):
                ran = max(ran, up)
        done[p] = (weights[p][1] if weights else t.weighted(t.levels, r, times)) + ran + by_source
        return done[p]

    return need(launcher)           # (_commands made sure no file is on its own chain)


def _read(path: str, text: Optional[str] = None) -> Optional[_Text]:
    """(text: what _unfollowed_of read of it already)"""
    if text is None:
        observed.reading(path)          # a cached check depends on it as on a file the walk reads
    try:
        return _text(path, decode_shell(read_bytes(path, MAX_LAUNCHER)) if text is None else text)
    except (OSError, ReadError, ValueError):
        return None


# what the scan read in each file, kept while its text is the same: a launcher's project has other launchers that run
# or source it (`benchmark.sh` runs test/train_full_8p.sh, checked next), so one reading serves both (_Text is not
# changed once made: what it learns later, such as _Text.walked's counts, depends on its text alone)
_texts: Dict[str, Tuple[str, "_Text"]] = {}
MAX_TEXTS = 256
# and by text: a launcher copied from one template into several projects (MassFace's, PRSR's and Unpaired-SR's
# test/train_full_1p.sh, 3.2M each) is read once, and the reading of another file is a copy that holds its own path
# (what _Text learns depends on its text alone; the path is only carried)
_by_text: Dict[str, "_Text"] = {}


def _text(path: str, text: str) -> "_Text":
    kept = _texts.get(path)
    if kept is not None and kept[0] == text:
        return kept[1]
    if len(_texts) >= MAX_TEXTS:
        _texts.clear()
        _by_text.clear()
    same = _by_text.get(text)
    if same is None:
        made = _by_text[text] = _Text(path, text)
    else:
        made = _Text.__new__(_Text)     # (its answers shared: each is its text's)
        made.__dict__.update(same.__dict__)
        made.path = path
    _texts[path] = (text, made)
    return made


def _absolute(texts: Dict[str, _Text], region: str, levels: int, held: Dict[str, list]) -> str:
    """Why an absolute path of the texts (and those held: _held) may reach a script ("" when none can: it is not
    there, with as many levels up as the texts can go, or it is in the region listed)."""
    for p, t in texts.items():
        for literal, whole in t.rooted + held.get(p, []):
            if t.modules:
                return f"a `-m` module beside an absolute path ({literal})"
            top = os.path.normpath(literal)
            for _ in range(levels):
                top = os.path.dirname(top)
            if top == region or top.startswith(region.rstrip(os.sep) + os.sep):
                continue                    # listed
            sig = observed.note(top)
            if sig[0] == "missing":
                continue                    # nothing below it: no script, no folder to go to
            if whole and not levels and sig[0] in ("file", "other") and not top.endswith(".py") and \
                    not any(top.endswith("/" + name) for u in texts.values() for name, _, _ in u.shells):
                continue                    # a file (`/dev/null`): neither a folder nor a script
            return f"an absolute path that is there ({literal})"
    return ""


def _held_by(text: str, at: int) -> Optional[str]:
    """The variable whose value the word at `at` is, when it is the whole value of an assignment at a command's head
    or an `export` that heads one (`DATA_DIR=/data`, `export PATH=/x/bin:$PATH`; not `x=a/data`, `local x=/data`)."""
    if not at or text[at - 1] != "=":
        return None
    named = _name_before(text, max(0, at - 81), at - 1)
    if named is None or not _VARIABLE.fullmatch(named[1]) or not _assigns(text, named[0]):
        return None
    return named[1]


def _default_held_by(text: str, m: "re.Match[str]") -> Optional[str]:
    """The variable whose value a default or alternative (_DEFAULT's match, `${B:-/tmp}`, `${B+/x}`) starts, as
    _held_by reads it (`ROOT_DIR="${BUCKET:-/tmp}/MLPerf_NCF"`): it is that value's part, and sets no variable (bash
    5.2: `${B:=/x}` sets B, so it stays an absolute path wherever it stands)."""
    if text[m.end(1) + (text[m.end(1)] == ":")] not in "-+":
        return None
    at = m.start()
    while at and text[at - 1] in "'\"":
        at -= 1                         # (the opening quotes: the word's start)
    return _held_by(text, at)


def _assigns(text: str, at: int) -> bool:
    """Whether the `name=` at `at` heads its command or is the first word after an `export` that does (the walk sets
    the variable to the value: shell/walk.Walk._export)."""
    if _heads(text, at):
        return True
    k = at
    while k and text[k - 1] in " \t":
        k -= 1
    return k < at and text.startswith("export", k - 6) and (k == 6 or not _word(text[k - 7])) and _heads(text, k - 6)


def _in_own_value(text: str, name: str, at: int) -> bool:
    """Whether the word that holds text[at] (a reading of `name`) is the value of an assignment of that name
    (_assigns: `export PATH=/x:${PATH}`): its value goes back to the name alone."""
    k = _word_start(text, at)
    while k and text[k - 1] in "'\"":
        k -= 1
    if not k or text[k - 1] != "=":
        return False
    named = _name_before(text, max(0, k - 81), k - 1)
    return named is not None and named[1] == name and _assigns(text, named[0])


def _held(texts: Dict[str, _Text], functions: Set[str]) -> Dict[str, List[Tuple[str, bool]]]:
    """The absolute values of assignments (_Text.held) that may become a directory or a script: all but those of a
    variable that is only ever read as a program's argument (`DATA_DIR=/data` ... `python3 x.py --data_dir=$DATA_DIR`,
    as _program_words: not by `cd`, `source`, a function, a script run, an assignment, a substitution), and named
    otherwise only by such assignments (not exported, read, looped over, or set by `${x:=}`; nor `set -a`)."""
    out: Dict[str, List[Tuple[str, bool]]] = {}
    free: Dict[str, bool] = {}
    for p, t in texts.items():
        for literal, whole, name in t.held:
            if name not in free:
                free[name] = _only_argument(name, texts, functions)
            if not free[name]:
                out.setdefault(p, []).append((literal, whole))
    return out


def _only_argument(name: str, texts: Dict[str, _Text], functions: Set[str]) -> bool:
    """Whether a variable is only ever read as a program's argument (_held), or into the value of an assignment to
    another that is (`TEST_DIR="${ROOT_DIR}/${DATE}"`, `export LOG=$TEST_DIR/x`: as _held_by reads it), and so on."""
    todo, seen = [name], {name}
    while todo:
        made = _read_as_argument(todo.pop(), texts, functions)
        if made is None:
            return False
        todo += made - seen
        seen |= made
    return True


def _read_as_argument(name: str, texts: Dict[str, _Text], functions: Set[str]) -> Optional[Set[str]]:
    """The variables assigned a value that reads this one (_only_argument) where every other reading of it is a
    program's argument and every other mention such an assignment of it; None otherwise."""
    if name in ("PWD", "HOME", "OLDPWD", "CDPATH", "BASH_SOURCE", "PYTHONPATH"):
        return None         # (read by the walk itself; PATH is not: Walk.find joins a name to its folders alone)
    made: Set[str] = set()
    n = len(name)
    for t in texts.values():
        text = t.text
        if "set -a" in text or "allexport" in text or "${!" in text:
            return None
        at = text.find(name)
        while at >= 0:
            end = at + n
            after = text[end:end + 1]
            before = text[at - 1:at] if at else ""
            if after and (after.isalnum() or after == "_") or before and (before.isalnum() or before == "_"):
                pass                    # (another name)
            elif before == "$" or before == "{" and text[at - 2:at] == "${":
                if before == "{" and after != "}" and not text.startswith(("-", ":-"), end):
                    return None         # `${x:=y}`, `${x=y}` may set it, `${x[1]}` (`${x:-y}` and `${x-y}` read it)
                start = _word_start(text, at - 1 - (before == "{"))
                words = _program_words(text, start)
                if (words is None or words & functions) and not _in_own_value(text, name, at):
                    while start and text[start - 1] in "'\"":
                        start -= 1      # (the opening quotes: the word's start)
                    into = _held_by(text, start)
                    if into is None:
                        return None     # read where it may become a directory, a script or another value
                    made.add(into)      # (`T="${R}/x"`: T is asked the same)
            elif before != "{" and (after != "=" or not _assigns(text, at)):
                return None             # `export x`, `read x`, `for x in`, `x+=`, `${#x}`: not such an assignment
            at = text.find(name, at + 1)
    return made


_ASSIGNED_TO = re.compile(r"([A-Za-z_]\w*)\+?=")
# (a value that starts from the root is the same folder wherever it is read: `cur=`pwd`/..`, `D=$(cd ..; pwd)`,
# `$(dirname $0)/..` (the walk's $0 is the file's whole path); not `D=$(echo ..)`, which the walk knows is `..`)
_FROM_ROOT = re.compile(r"""["']?(?:[/~]|\$\{?(?:PWD|HOME)\b|(?:\$\(|`)[ \t]*(?:pwd|cd)\b"""
                        r"""|(?:\$\(|`)[ \t]*dirname[ \t]+["']?\$\{?(?:0|BASH_SOURCE))""")


def _printed_into(text: str, at: int) -> Optional[str]:
    """The variable assigned the `$(...)` that holds text[at] (`UP=$(echo ..)`: the walk knows what echo prints), when
    that value does not start from the root (_FROM_ROOT: `$(cd ..; pwd)`); None otherwise."""
    positions, innermost = _parens(text)
    k = bisect.bisect_left(positions, at) - 1
    opened = innermost[k] if k >= 0 else -1
    if opened < 2 or text[opened - 1] != "$" or _FROM_ROOT.match(text, opened - 1):
        return None
    eq = opened - 2 - (text[opened - 2] in "'\"")
    named = _name_before(text, max(0, eq - 81), eq) if eq > 0 and text[eq] == "=" else None
    return named[1] if named and _IDENT.fullmatch(named[1]) else None


def _reads(text: str, name: str) -> List[int]:
    """Where `$name` or `${name` stands (the name whole), found by the name."""
    out = []
    n = len(name)
    k = text.find(name)
    while k >= 0:
        if (k and text[k - 1] == "$" or k > 1 and text[k - 2:k] == "${") and \
                not (k + n < len(text) and _word(text[k + n])):
            out.append(k)
        k = text.find(name, k + 1)
    return out


# the variables bash or the walk reads without a `$` (`~`, `cd` alone, `cd -`, CDPATH, PATH, a `-m` module's PYTHONPATH,
# a new shell's ENV, BASH_ENV; IFS's split): a `..` in their value may be a folder the walk goes to
_READ_UNNAMED = frozenset(("HOME", "PWD", "OLDPWD", "CDPATH", "PATH", "ENV", "IFS", "PYTHONPATH", "PYTHONHOME",
                           "PYTHONSTARTUP", "GLOBIGNORE", "SHELLOPTS", "TMPDIR", "INPUTRC", "EXECIGNORE", "FIGNORE"))


def _unread(text: str, name: str, start: int, at: int) -> bool:
    """Whether the `..` at `at`, in the value of an assignment to name at `start` (`export F=${d}/../x.json`), never
    takes the walk anywhere because the text never reads the variable: every mention of its name is such an
    assignment (heading its command, or after an `export` that does), with no `$name`, `${name`, `${#name`, `${!`
    nor `eval` (a name read as a value's: `declare -n r=name`, `printenv name`, `[[ -v name ]]` are mentions), and no
    `(` or backtick before the `..` in the value (a substitution runs commands); not one bash or the walk reads
    unnamed (_READ_UNNAMED, BASH_*). why_walked asks the same of every other text it follows (_unread_in)."""
    if name in _READ_UNNAMED or name.startswith("BASH") or "(" in text[start:at] or "`" in text[start:at]:
        return False
    return _unread_in(text, name)


def _unread_in(text: str, name: str) -> bool:
    """Whether a text mentions name only in assignments to it (_unread), and has no `${!` or `eval`. (Kept by text and
    name: a file the launchers of a project follow, env.sh, is asked of by each of them, as is a launcher's own text by
    its reading and by why_walked: p130's 218 launchers asked 48 times of 22.)"""
    key = (text, name)
    known = _unreads.get(key)
    if known is None:
        if len(_unreads) >= 256:
            _unreads.clear()
        known = _unreads[key] = _unread_in_of(text, name)
    return known


_unreads: Dict[Tuple[str, str], bool] = {}


def _unread_in_of(text: str, name: str) -> bool:
    """_unread_in's answer, not kept."""
    if "${!" in text or _reads(text, name) or "eval" in text and re.compile(r"(?<![\w-])eval(?![\w-])").search(text):
        return False
    for k in _mentions(text, name):
        if not text.startswith("=", k + len(name)) and not text.startswith("+=", k + len(name)):
            return False                # `read name`, `for name in`, `f name`, `${#name}`
        if not _heads(text, k):
            before = text[_line_start(text, k):k].split()
            if before != ["export"] or not _heads(text, text.rfind("export", 0, k)):
                return False            # `cd name=..`: a folder; `local name=..`
    return True


def _read_once(name: str, texts: Dict[str, _Text], launcher: str, functions: Set[str]) -> bool:
    """Whether a variable a `..` is assigned to (`UP=..`, counted once where it is assigned) takes the walk up at most
    that once: of its reads, and those of the variables assigned from it (`D=$UP/x`), at most one is in a command
    through which an argument can become a directory (_PASSES, a function, a head not written out: `cd $UP`, `f $UP`;
    not `python3 x.py --d=$UP`, `[ -d $UP ]`), in the launcher outside any function body and loop over the arguments
    (a sourced file may be read several times)."""
    reads: List[Tuple[str, int]] = []
    todo, seen = [name], {name}
    while todo:
        var = todo.pop()
        for p, t in texts.items():
            for k in _reads(t.text, var):
                start = _word_start(t.text, k - 1)
                head = _head_of(t.text, k)
                if head is not None and head not in _PASSES and head not in functions:
                    continue                # `python3 x.py --data=$UP`, `> $UP/log`: an argument, no directory
                held = _held_by(t.text, start - (start > 0 and t.text[start - 1] in "'\""))
                if held is None:
                    reads.append((p, k))
                elif held in seen:
                    return False            # (`X=$X/..`: as often as it runs)
                else:
                    seen.add(held)
                    todo.append(held)
    return len(reads) <= 1 and all(p == launcher and texts[p].where(k) == (0, -1) for p, k in reads)


_LEXED_KEYWORDS = {"if", "then", "elif", "else", "do", "while", "until", "!", "time", "{"}    # (_head_of skips them)


def _head_of(text: str, at: int) -> Optional[str]:
    """The first word of the simple command that holds text[at] as the shell's lexer reads its line (after keywords),
    when it is written out and text[at] is not in it nor in an assignment before it; None otherwise."""
    lexed_commands = _shell("parse").lexed_commands
    line = _line_start(text, at)
    for words, _, _ in lexed_commands(text, line, _line_end(text, at)):
        if not words or words[0][0] > at or words[-1][1] <= at:
            continue
        heads = [text[a:b] for a, b in words if b <= at]
        while heads and (heads[0] in _LEXED_KEYWORDS or _ASSIGNED_TO.match(heads[0])):
            heads.pop(0)
        return heads[0] if heads and (_PLAIN_WORD.fullmatch(heads[0]) or heads[0] in ("[", "[[")) else None
    return None


def _word_start(text: str, at: int) -> int:
    """Where the word that holds text[at] starts (after a blank, an operator or a quote that opens it)."""
    k = at
    while k and text[k - 1] not in _DELIMITERS:
        k -= 1
    return k


def _modules(modules: Set[str], region: str, found: "_Listing") -> List[str]:
    """The files `python -m` can start for these modules: below the region (any folder may be the search path's)
    or in a folder above it (project.search_path goes up to a package's top and a project's root)."""
    out: List[str] = []
    if not modules:
        return out
    above = []                          # the folders above the region, nearest first
    folder = region
    while True:
        folder = os.path.dirname(folder)
        above.append(folder)
        if os.path.dirname(folder) == folder:
            break
    for module in modules:
        parts = module.split(".")
        # (a tail in a folder with no folder of its first part, `torch/` of torch.distributed.launch, is no file there:
        # one look at that folder, what the answer then rests on, for each of its tails; most are not there)
        heads: Dict[str, bool] = {}
        for tail in (os.sep.join(parts) + ".py", os.sep.join(parts + ["__init__.py"])):
            out += [p for p in found.get(tail.rpartition(os.sep)[2], ()) if p.endswith(os.sep + tail)]
            for folder in above:
                if os.sep in tail:
                    there = heads.get(folder)
                    if there is None:
                        there = heads[folder] = observed.note_once(os.path.join(folder, parts[0]))[0] == "dir"
                    if not there:
                        continue
                if observed.note_once(os.path.join(folder, tail))[0] == "file":
                    out.append(os.path.join(folder, tail))
    return out


class _Listing:
    """The files below a region by name, as a dict of name -> paths would give them (get: in the order the listing
    found them), found when asked: the names of each folder's files are the kept folder's (_entries), and a name none
    of them holds (most that are asked) is answered by one lookup in their union. (Building that dict cost about
    70,000 instructions a region, with a path made for every file: the issue's tree lists 86 regions, 10,754 entries,
    and asks of each a few names.)"""

    __slots__ = ("folders", "names", "_paths", "_files", "asked")

    def __init__(self, folders: List[Tuple[str, FrozenSet[str]]]):
        self.folders = folders          # (each folder's path with its separator, the names of its files), as listed
        self.names: FrozenSet[str] = frozenset().union(*(files for _, files in folders))
        self._paths: List[str] = []     # (the folders' paths and names apart, made at the first name held)
        self._files: List[FrozenSet[str]] = []
        self.asked: Dict[str, Tuple[str, ...]] = {}     # _named's answers (a listing is not changed once made)

    def get(self, name: str, default=()):
        if name not in self.names:
            return default
        if not self._paths:
            self._paths = [within for within, _ in self.folders]
            self._files = [files for _, files in self.folders]
        # (the folders that hold it picked in C: a loop in Python over a region's hundreds of folders, for each name
        # found, cost 6M over the 199 launchers of the issue's tree)
        return [within + name for within in compress(self._paths, map(contains, self._files, repeat(name)))]


def _listing(region: str) -> Optional[_Listing]:
    """The files below region by name (None: a folder link, or too many entries)."""
    if region in _refused:
        return None                     # (walked then: a region that grows past the bound is not listed again)
    kept = _regions.get(region)
    run = observed.this_run("time")
    # (in a check run a folder's time, once looked at, stays what it was: a listing made or found the same in this
    # run is not looked at again, folder by folder, by each launcher of its project)
    if kept is not None and (run is not None and kept[2] is run or all(_mtime(d) == t for d, t in kept[0].items())):
        if run is not None and kept[2] is not run:
            _regions[region] = (kept[0], kept[1], run)
        observed.listed(kept[0])     # (a cached check rests on the names they hold: source/observed.py)
        return kept[1]
    folders: Dict[str, int] = {}
    names: List[Tuple[str, FrozenSet[str]]] = []
    entries, todo = 0, [region]
    while todo:
        folder = todo.pop()
        found = _entries(folder)
        if found is None:
            return None                 # a folder link, or a folder that cannot be read
        folders[folder], inside, files = found
        entries += len(inside) + len(files)
        if entries > MAX_ENTRIES:
            if len(_refused) >= 1024:
                _refused.clear()
            folder = region             # (and each folder above it, which holds what it holds: not listed either)
            while folder not in _refused:
                _refused.add(folder)
                folder = os.path.dirname(folder)
            return None
        todo += inside
        if files:
            names.append((folder if folder.endswith(os.sep) else folder + os.sep, files))    # (as scandir joins them)
    if len(_regions) >= MAX_REGIONS:
        _regions.clear()
    _regions[region] = (folders, _Listing(names), run)
    observed.listed(folders)
    return _regions[region][1]


# what one folder holds, kept while its time is the same: regions overlap (a project's, the folder above it that a
# launcher with more `..` reaches), and a folder is read once for all of them (the 223 launchers of the issue's tree
# read 9,726 entries in 1,754 folders, 3,855 in 693 different ones)
_folders: Dict[str, Tuple[int, List[str], FrozenSet[str]]] = {}     # folder -> (its time, its folders, its files)
MAX_FOLDERS = 2048


def _entries(folder: str) -> Optional[Tuple[int, List[str], FrozenSet[str]]]:
    """(time, paths of the folders in it, names of the other entries) of a folder; None when it holds a link to a
    folder (what is below it is not listed) or cannot be read."""
    time = _mtime(folder)                           # (before it is read: a change after is seen)
    if time < 0:
        return None
    kept = _folders.get(folder)
    if kept is not None and kept[0] == time:
        return kept
    inside: List[str] = []
    files: List[str] = []
    try:
        with os.scandir(folder) as found:
            # (a folder or a link to one, then which: asked with a keyword, `is_dir(follow_symlinks=False)` parsed it
            # at each entry, and each file was asked again whether it is a link)
            for e in found:
                if e.is_dir():
                    if e.is_symlink():
                        return None
                    inside.append(e.path)
                else:
                    files.append(e.name)
    except OSError:
        return None
    if len(_folders) >= MAX_FOLDERS:
        _folders.clear()
    _folders[folder] = (time, inside, frozenset(files))
    return _folders[folder]


def _mtime(folder: str) -> int:
    """A folder's st_mtime_ns (-1: it cannot be looked at), looked at once a check run (observed.one_run)."""
    seen = observed.this_run("time")
    if seen is not None:
        time = seen.get(folder)
        if time is not None:
            return time
    try:
        time = os.stat(folder).st_mtime_ns
    except OSError:
        time = -1
    if seen is not None:
        seen[folder] = time
    return time
