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
  their names as the walk finds them (below the folders its relative paths reach), to MAX_SOURCED deep, no file
  twice on one chain, each within the read bound: every script any of them can name counts (a launcher that runs
  a `.sh` starting a profiled script is walked);
- every `.py` word ends in a name written out (`${dir}/train.py`, not `${name}.py`; `*_test.py` is looked for as
  written, since the walk expands no pattern; a name cut short by `${x#y}` is one of the files whose name ends
  its written one; a name held in a variable is used whole), a `-m` module is named (the files it can be:
  `pkg/mod.py`, `pkg/mod/__init__.py` below the region or in a folder above it), and no extension is computed;
  a word that starts with a variable no text sets (`${cur_path}/x.py`), or with the launcher's own arguments
  outside a function (`$3/x.py`), is not known to the walk, which starts no script for it;
- every absolute path (`/data/x`, `"/home/u/$d"`, `~/x` as the walk's `cd` reads it) is one the directories
  cannot reach a script through: it does not exist (with as many levels up as the texts go up), it is in the
  region listed, or it is only a program's argument (`cp /data/x .`, `--data_dir=/data`: not an assignment's
  value, not on a command through which an argument becomes a directory, a script or a variable: `cd`,
  `source`, `export`, a loop, a function, a shell script run); a `-m` module beside one is left to the walk;
- the directories the walk can reach are then below the launcher's folder or above it by at most as many levels
  as the texts write `..` or `dirname` (not `dirname $0`: the file's own folder), counted as often as they can
  run: a function body once per call, a loop over the arguments once per argument (how many words a line gives
  at most), a sourced file once per `source` of it, a file it runs once (a new shell: its `cd` does not come back);
- the walk cannot stop: the commands, counted that way, stay under shell/state.MAX_COMMANDS;
- every file with one of the scripts' names in that region (found by one listing of it, kept while no folder of
  it changes) fails the prefilter (checks/shell_scan.may_have_setups: the walk's launches ask the same).
A folder link in the region, a region of more than MAX_ENTRIES entries (its listing would cost more than the
walk), or any doubt: the launcher is walked. What cannot change with the files it follows (its own commands, its
own absolute paths) is decided before anything is listed.
"""

from __future__ import annotations

import os
import re
from typing import Dict, List, Optional, Set, Tuple

from ..checks.shell_scan import may_have_setups as _may_have_setups

MAX_LEVELS = 4                  # folders above the launcher's
MAX_ENTRIES = 1000              # files and folders a region may hold (a listing costs more than a walk past it)
MAX_FILES = 32                  # the launcher and the files it runs or sources, followed
# listings kept: the launchers of one project share theirs and files are checked folder by folder, so a few
# serve a whole tree (256 held a tree's every listing: 9 MB over the model zoo's 16,218 files, 0.6 MB at 4,106)
MAX_REGIONS = 16
# what the scan cannot follow: an extension made from an expansion (`train.$ext`, `${name}py`), a substitution or
# substring of a value (`${x/a/b}`, `${x:2}`: any name), `set --` (arguments the launcher's loops then walk)
# (each alternative starts with a character, which the search looks for first: `s(?<!\ws)` is `\bs`)
_COMPUTED = re.compile(r"\.[$`]|\}(?:py|sh)\b|\$\{[#!]?\w+(?:\[[^\]]*\])?(?:/|:[ \t]*-?\d)|s(?<!\ws)et[ \t]+--")
_COMMENT = re.compile(r"^[ \t]*#[^\n]*", re.M)          # a line that is a comment
_ROOTED = re.compile(r"['\"]*([/~][^\s'\";&|()<>`]*)")
_DEFAULT = re.compile(r"\$\{\w+:?[-=+?]['\"]?([/~][^}'\"\s]*)")
_URL = re.compile(r"(?:https?|ftp|git|ssh|s3|obs):$")   # `http://x`: a relative `http:` folder, never the root
_PY = re.compile(r"\.py")                               # the end of a script's name (the word: _word_before)
_SH = re.compile(r"\.sh(?!\w)")
_SOURCED = re.compile(r"(?:source|\.)[ \t]+(\S+)")
_SOURCE_HEAD = re.compile(r"(?:^|[\s;&|(){}`])(?:source|\.)[ \t]")
_MODULE = re.compile(r"-m(?:$|[ \t]+['\"]?([^\s;&|()<>`'\"]*))", re.M)
_FUNCTION = re.compile(r"function[ \t]+([\w.:-]+)")       # a function definition, or `name()`:
_PARENS = re.compile(r"\([ \t]*\)")
_PARENS_AFTER = re.compile(r"[ \t]*\([ \t]*\)")
_FUNCTION_NAME = re.compile(r"[\w.:-]+")                    # (each word that may call one)
_NAME_BEFORE = re.compile(r"([\w.:-]+)[ \t]*$")
# what the count of commands and levels reads: an operator or line break ends a command (each of `\n;&|()``
# counts one); `do`/`done` at a command's head open and close a loop body; `..` and `dirname` go one folder up
_LOOP_WORDS = re.compile(r"(for|while|until|select|do|done)(?=$|[\s;&|])", re.M)     # (at a command's head)
_DOTS = re.compile(r"\.\.+")                            # `..` (not `...`)
# a loop the walk runs once per argument (shell/control.Walk._evaluated): over `$*`/`$@`, `for x` alone, a `while` that
# tests `$1`/`$#` or runs getopts; any other loop body is walked once
_OVER_ARGS = re.compile(r"^for[ \t]+\w+[ \t]*(?:;|$)|\$\{?[@*1#]|getopts")
_NAME = re.compile(r"[\w.+-]+")
_GLOB = re.compile(r"[\w.+*?\[\]-]+")     # `*_test.py`: the walk expands no pattern, it looks for that name
_BRACE = re.compile(r"\s*\{")
_LEAD = re.compile(r"\$(?:(\w+)|\{(\w+)\})/")             # `$dir/`, `${dir}/`, `$3/` (not `${dir:-.}/`)
# `dirname $0` (and of `readlink -f $0`, `${BASH_SOURCE[0]}`): the file's own folder, in the region; not a level up
_SELF = r"(?:\$0|\$\{0\}|\$\{?BASH_SOURCE(?:\[0\])?\}?)"
_OWN_FOLDER = re.compile(r"dirname[ \t]+[\"']?(?:%s|\$[({][ \t]*(?:readlink[ \t]+-f|realpath)[ \t]+[\"']?%s[\"']?"
                         r"[ \t]*[)}])[\"']?(?=$|[\s)`;&|])" % (_SELF, _SELF))
_BOUNDARY = " \t\n=(:;&|`<>"
_UP = re.compile(r"^(?:\.\.?(?:/+|$))+")
_COMPUTED_PART = re.compile(r"[$`*?\[]")

_regions: Dict[str, Tuple[Dict[str, int], Dict[str, List[str]]]] = {}     # folder -> (folder mtimes, name -> paths)
_refused: Set[str] = set()                                               # folders over MAX_ENTRIES


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
        self.scripts: List[Tuple[str, Optional[str], bool, str]] = []     # (and its written path's tail)
        self.shells: List[Tuple[str, str, bool]] = []   # (name, suffix or "", sourced) of each file it runs or sources
        self.modules: Set[str] = set()
        self.rooted: List[Tuple[str, bool]] = []    # (absolute literal part, whether the word is all literal)
        # the absolute paths that are only a program's argument, with the words of its command
        self.arguments: List[Tuple[str, bool, Set[str]]] = []
        self.defined: Set[str] = set()
        self._open = 0                              # where the function bodies found so far end, the furthest
        # by [2 * how many loops over the arguments hold it + whether a function body holds it]:
        self.commands: List[int] = [1, 0]           # commands
        self.levels: List[int] = [0, 0]             # `..` and `dirname` (not that of the file's own path)
        self.links = "readlink" in text or "realpath" in text
        self._widest: Optional[int] = None
        self._functions: List[Tuple[str, int]] = []     # (name, where it is written) of each body, in `bodies` order
        # (start, end, loop depth, the body it is in or -1) of the stretches the counts below were made in, and the
        # commands and levels of each body by loop depth: how often each body is walked (_Text.walked) weighs them
        self._stretches: List[Tuple[int, int, int, int]] = []
        self._in_body: Dict[int, List[List[int]]] = {-1: [[1, 0]]}     # (-1: none; one command at least, as above)
        self.text = text = _COMMENT.sub("", text)
        m = _COMPUTED.search(text)
        if m:
            self.why = f"a computed name ({m.group().strip()})"
            return
        from ..shell.parse import _brace_body
        bodies: List[Tuple[int, int]] = []     # (start, end) of each function body, walked once per call
        for m in _FUNCTION.finditer(text):
            # (`function name()`: the `()` below finds it, and its `{`; from here its body would end at the text's end)
            if _starts_word(text, m.start()) and not _PARENS_AFTER.match(text, m.end()):
                self._body(m.group(1), m.start(1), m.start(), m.end(), text, bodies, _brace_body)
                if self.why:
                    return
        self._open = 0                  # a new pass from the text's start
        for m in _PARENS.finditer(text):
            named = _NAME_BEFORE.search(text, max(0, m.start() - 80), m.start())
            if named and _starts_word(text, named.start()):
                self._body(named.group(1), named.start(1), named.start(), m.end(), text, bodies, _brace_body)
                if self.why:
                    return
        for m in _PY.finditer(text):
            at, word = _word_before(text, m.end())
            head, _, name = word.rpartition("/")
            if not _GLOB.fullmatch(name) or ("/" not in word and not _starts_word(text, at)) or \
                    self._assigned(text, at):
                self.why = self.why or f"a script name made from values ({word})"
                return
            lead = _LEAD.match(word) if _starts_word(text, at) else None
            # a path written out (`../BigGAN/main.py`) is, from any folder, a file whose path ends with it
            tail = "" if not _starts_word(text, at) or "/" not in word or word.startswith("/") or \
                _COMPUTED_PART.search(word) else "/" + _UP.sub("", os.path.normpath(word))
            self.scripts.append((name, lead.group(1) or lead.group(2) if lead else None,
                                 any(a <= at < b for a, b in bodies), tail))
        for m in _SH.finditer(text):
            at, word = _word_before(text, m.end())
            # sourced when its line has a `source` or `.` before it (`. "$(dirname $0)/env.sh"`)
            sourced = bool(_SOURCE_HEAD.search(text, text.rfind("\n", 0, at) + 1, at))
            if self._assigned(text, at) or self._shell(word, at, text, sourced):
                return
        for m in _SOURCED.finditer(text):
            target = m.group(1).strip("'\"")    # (a `.sh` one is an _SH word; `find . -name`: no file of that name)
            if not _after_boundary(text, m.start()) or ".sh" in target or not target or target[0] in ";&|()<>":
                continue
            if not _NAME.fullmatch(target) and not _at_head(text, m.start()):
                continue                    # `docker build . \`, "source code," in a text: no command
            if self._shell(target, 0, text, True):
                return
        for m in _MODULE.finditer(text):
            module = m.group(1)
            if not module or not _after_boundary(text, m.start()):
                continue                    # `python -m` alone starts nothing
            if not _NAME.fullmatch(module):
                self.why = f"a `-m` module not named here ({module})"
                return
            self.modules.add(module)        # (`mkdir -m 755`: a module no file is)
        for m in _DEFAULT.finditer(text):   # `${d:-/data}`: the walk gives the word when d is not set
            word = os.path.expanduser(m.group(1))
            literal = re.split(r"[$*?\[{\\]", word, maxsplit=1)[0]
            self.rooted.append((literal if literal == word else literal.rpartition("/")[0] or "/", literal == word))
        for m in _ROOTED.finditer(text):
            word = m.group(1)
            if not _starts_word(text, m.start(1)) or \
                    m.start(1) and _URL.search(text, max(0, m.start(1) - 6), m.start(1)):
                continue                    # `http://x`, `` `pwd`/.. ``: not a word that starts at the root
            k = m.start()
            while k and text[k - 1] in " \t":
                k -= 1
            if k and text[k - 1] in "<>":
                continue                    # `> /dev/null`: what a redirection names is no folder or script
            command = None if word.endswith((".py", ".sh")) else _program_words(text, m.start())
            if word.startswith("~"):
                word = os.path.expanduser(word)     # (what the walk's `cd ~/x` reaches)
                if word.startswith("~"):
                    self.why = f"a path in a home folder ({word})"
                    return
            literal = re.split(r"[$*?\[{\\]", word, maxsplit=1)[0]
            whole = literal == word
            literal = literal if whole else literal.rpartition("/")[0] or "/"
            if command is None:
                self.rooted.append((literal, whole))
            else:                           # `cp /data/x .`, `--data_dir=/data`: a program's argument (why_walked)
                self.arguments.append((literal, whole, command))
        # the text in stretches where the loops and function bodies open and close, each counted at once
        marks = sorted([(m.start(1), m.group(1), -1) for m in _LOOP_WORDS.finditer(text) if _heads(text, m.start())] +
                       [(a, "{", n) for n, (a, _) in enumerate(bodies)] +
                       [(b, "}", n) for n, (_, b) in enumerate(bodies)] + [(len(text), "", -1)])
        depth, opened, loops, inside, at = 0, 0, [], 0, 0   # loops: whether each open loop runs once per argument
        open_bodies: List[int] = []
        for where, what, body in marks:
            k = 2 * depth + (inside > 0)
            commands = sum(text.count(c, at, where) for c in "\n;&|()`")
            levels = sum(len(d) == 2 for d in _DOTS.findall(text, at, where)) + \
                text.count("dirname", at, where) - len(_OWN_FOLDER.findall(text, at, where))
            self.commands[k] += commands
            self.levels[k] += levels
            innermost = open_bodies[-1] if open_bodies else -1
            self._stretches.append((at, where, depth, innermost))
            counts = self._in_body.setdefault(innermost, [])
            while len(counts) <= depth:
                counts.append([0, 0])
            counts[depth][0] += commands
            counts[depth][1] += levels
            at = where
            if what in ("for", "while", "until", "select"):
                opened = where
            elif what == "do":
                loops.append(bool(_OVER_ARGS.search(text, opened, where)))
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

    @property
    def widest(self) -> int:
        """The most words a line holds (the arguments it can give a loop over them); 0 without such a loop."""
        if self._widest is None:
            self._widest = max((len(line.split()) for line in self._text_lines.split("\n")), default=0)
        return self._widest

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
        named = _NAME_BEFORE.search(text, max(0, k - 81), k - 1)
        if named is None or not re.fullmatch(r"\w+", named.group(1)) or not _starts_word(text, named.start()):
            return False
        var = named.group(1)
        for use in re.finditer(r"\$(?:\{%s(?![\w\[])(.?)|%s(?!\w))" % (var, var), text):
            before = text[use.start() - 1] if use.start() else "\n"
            if use.group(1) not in (None, "}") or before not in _BOUNDARY + "/\"'":
                self.why = f"a script name in ${var} used in part"
                return True
        return False

    def _shell(self, word: str, at: int, text: str, sourced: bool) -> bool:
        """Note a file it runs or sources; True when its name is not written out (the scan stops)."""
        head, _, name = word.rpartition("/")
        if not _NAME.fullmatch(name) or ("/" not in word and not _starts_word(text, at)):
            self.why = f"a shell script named from values ({word})"
            return True
        # the folders it is named with narrow where it can be (not past a `..` inside them)
        folders = os.path.normpath(_UP.sub("", word)) if head and "$" not in head and "`" not in head else ".."
        self.shells.append((name, "" if folders.startswith("..") else word if word.startswith("/") else "/" + folders,
                            sourced))
        return False

    def weighted(self, counts: List[int], rounds: int, times: int) -> int:
        """How often these can be walked: a loop over the arguments `rounds` times, a function body `times`."""
        return sum(n * rounds ** (k // 2) * (times if k % 2 else 1) for k, n in enumerate(counts))

    def walked(self, rounds: int) -> Optional[Tuple[int, int, int]]:
        """(commands, levels, the most walks of a body) as often as they can be walked in one run of this file, when
        no other file calls its functions nor it theirs (_weights): a loop over the
        arguments `rounds` times, a function body once per call of its name (shell/control.Compounds._call: a
        command whose head is a defined name), a call in a loop over the arguments once per round, a call in a
        body once per walk of that body, and once more (a function no call reaches is walked once, as is a body
        whose end is not found); any word that is a function's name counts as a call. None when a function's calls
        lead back to itself (the walk does not call a function inside itself; the bound is then _times')."""
        if not self._functions:
            return self.commands[0] + sum(n * rounds ** (k // 2) for k, n in enumerate(self.commands) if k > 1), \
                self.levels[0] + sum(n * rounds ** (k // 2) for k, n in enumerate(self.levels) if k > 1), 1
        import bisect
        names: Dict[str, List[int]] = {}
        for n, (name, _) in enumerate(self._functions):
            names.setdefault(name, []).append(n)
        written = {at for _, at in self._functions}
        starts = [a for a, _, _, _ in self._stretches]
        calls: Dict[int, List[Tuple[int, int]]] = {n: [] for n in range(len(self._functions))}   # body: (depth, in)
        # each word (as _FUNCTION_NAME splits them) that is a function's name
        named = re.compile(r"(?<![\w.:-])(?:%s)(?![\w.:-])" % "|".join(map(re.escape, names)))
        for m in named.finditer(self.text):
            if m.start() not in written:
                _, _, depth, inside = self._stretches[max(0, bisect.bisect_right(starts, m.start()) - 1)]
                for n in names[m.group()]:
                    calls[n].append((depth, inside))
        walks: Dict[int, int] = {}

        def walk(n: int, chain: Tuple[int, ...]) -> Optional[int]:
            if n not in walks:
                total = 1
                for depth, inside in calls[n]:
                    if inside in chain or inside == n:
                        return None
                    outer = walk(inside, chain + (n,)) if inside >= 0 else 1
                    if outer is None:
                        return None
                    total += rounds ** depth * outer
                walks[n] = total
            return walks[n]

        out = [0, 0, 1]
        for body, counts in self._in_body.items():
            times = walk(body, ()) if body >= 0 else 1
            if times is None:
                return None
            out[2] = max(out[2], times)
            for depth, (commands, levels) in enumerate(counts):
                out[0] += commands * rounds ** depth * times
                out[1] += levels * rounds ** depth * times
        return out[0], out[1], out[2]


def _set_anywhere(name: str, texts: Dict[str, _Text]) -> bool:
    """Whether a variable can be given a value in these texts: its name stands anywhere other than after `$`."""
    if name in ("PWD", "HOME", "OLDPWD", "BASH_SOURCE"):
        return True                     # (the walk knows PWD and BASH_SOURCE; the others: never certain)
    mention = re.compile(r"(?<![\w${])%s(?!\w)" % re.escape(name))
    return any(mention.search(t.text) for t in texts.values())


_DELIMITERS = frozenset(" \t\r\n'\"=;|&()<>`")


def _word_before(text: str, end: int) -> Tuple[int, str]:
    """The word that ends at `end` (from after a blank, quote, `=` or operator): its start and text."""
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


def _program_words(text: str, at: int) -> Optional[Set[str]]:
    """The words before the word at `at` in its command when that word is only an argument of a program (`cp /data/x
    .`, `python3 x.py --data=/data`): it is not an assignment's value, and its command (from the operator or line
    before it) names no command through which an argument can reach a directory, a script or a variable (_PASSES)
    and no shell script (why_walked checks that none is a function); None otherwise."""
    k = at
    while k and text[k - 1] in "'\"":
        k -= 1
    if k and text[k - 1] == "=" and _NAME_BEFORE.search(text, max(0, k - 81), k - 1) is not None:
        named = _NAME_BEFORE.search(text, max(0, k - 81), k - 1)
        if named is not None and re.fullmatch(r"\w+", named.group(1)) and _starts_word(text, named.start()):
            return None                 # `X=/data`: a variable a `cd $X` may read
    start = k
    while start:
        c = text[start - 1]
        if c in ";&|(){}`" or c == "\n" and (start < 2 or text[start - 2] != "\\"):
            break
        start -= 1
    if start and (text[start - 1] == "`" or text.startswith("$(", start - 2)):
        return None                     # `x=$(echo /data)`: what a substitution prints may become a value
    words = [w.strip("'\"") for w in text[start:k].split()]
    if not words or any(w in _PASSES or w.endswith(".sh") or w is words[0] and "=" in w for w in words):
        return None
    return set(words)


def _heads(text: str, at: int) -> bool:
    """Whether a word at `at` is the first of a command (after a line break or `;`, `&`, `|`)."""
    k = at
    while k and text[k - 1] in " \t":
        k -= 1
    return not k or text[k - 1] in "\n;&|"


def _after_boundary(text: str, at: int) -> bool:
    return not at or text[at - 1] in " \t\r\n;&|(){}`"


_BRACES = re.compile(r"(?:^|(?<=[;&|]))[ \t]*([{}])(?=$|[\s;&|)])", re.M)


def _body_end(text: str, brace: int, brace_body) -> Optional[int]:
    """Where the function body that the `{` at brace opens ends: at the `}` that starts a command and closes it (a
    `{` that starts one opens a group); by the shell's lexer (shell/parse._brace_body) where a here-document or a
    quote left open on a line could hold a brace."""
    depth = 0
    for m in _BRACES.finditer(text, brace + 1):
        depth += 1 if m.group(1) == "{" else -1
        if depth < 0:
            body = text[brace:m.start()]
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


def why_walked(text: str, path: str) -> str:
    """"" when the walk of this launcher cannot change what `check` finds in it (see the module); otherwise why it
    is walked."""
    from ..checks.shell_scan import needs_walk
    from ..shell.state import MAX_COMMANDS
    from ..shell.words import MAX_LAUNCHER
    if len(text) > MAX_LAUNCHER:
        return "over the read bound"
    if not needs_walk(text):
        return ""                           # no word the walk's findings hang on (checks/shell_scan.py)
    if "prof" in text.lower():
        return "a profiling word"
    if not os.path.isfile(path):
        return "not a file"
    launcher = os.path.abspath(path)
    if os.path.realpath(os.path.dirname(launcher)) != os.path.dirname(launcher):
        return "a linked folder on its path"    # (`../x.py` is found through the link's target, not listed)
    texts = {launcher: _Text(launcher, text)}
    if texts[launcher].why:
        return texts[launcher].why
    # what the files it follows can only add to, decided before any listing: its own commands, its absolute paths
    own = texts[launcher]
    levels = min(sum(own.levels), MAX_LEVELS)       # (at least those it writes itself)
    alone = own.walked(own.widest + 2)
    if (alone[0] if alone else own.weighted(own.commands, own.widest + 2, _times({launcher: own}))) >= MAX_COMMANDS:
        return "its commands may reach the walk's bound"
    why = _absolute({launcher: own}, _up(os.path.dirname(launcher), levels), levels)
    if why:
        return why
    while True:
        region = _up(os.path.dirname(launcher), levels)
        found = _listing(region)
        if found is None:
            return "a folder link or too many files above it"
        why, edges = _follow(texts, launcher, found)
        if why:
            return why
        # a loop body runs once per argument (a `while` over them up to two more); a function body as often as its
        # calls walk it (_weights), else _times' bound
        rounds = sum(t.widest for t in texts.values()) + 2
        weights = _weights(texts, rounds)
        times = max(w[2] for w in weights.values()) if weights else _times(texts)
        runs = _runs(texts, edges, launcher, rounds, times)
        if runs is None:
            return "a file it runs or sources runs again on the way"
        if sum(runs[p] * (weights[p][0] if weights else t.weighted(t.commands, rounds, times))
               for p, t in texts.items()) >= MAX_COMMANDS:
            return "its commands may reach the walk's bound"
        need = _levels(texts, edges, launcher, rounds, times, weights)
        if need > MAX_LEVELS:
            return f"{need} levels up"
        if need <= levels:
            break
        levels = need
    for t in texts.values():
        if t.links and os.path.realpath(t.path) != t.path:
            return "`readlink -f`/`realpath` of a linked file"
    functions = {n for t in texts.values() for n in t.defined}
    for t in texts.values():            # an argument of a function: what `f /data` passes may be its `cd $1`
        t.rooted += [(literal, whole) for literal, whole, before in t.arguments if before & functions]
    why = _absolute(texts, region, levels)
    if why:
        return why
    # a word that starts with a variable no text sets (`${cur_path}/x.py`), or with the launcher's own arguments
    # outside a function (`$3/x.py`: check knows none), is not known to the walk: it starts no script
    names = {(name, tail) for p, t in texts.items() for name, lead, body, tail in t.scripts
             if lead is None or not (lead.isdigit() and p == launcher and not body or
                                     not lead.isdigit() and not _set_anywhere(lead, texts))}
    candidates = list(dict.fromkeys(p for name, tail in names for p in _named(found, name)
                                    if not tail or p.endswith(tail)))
    candidates += _modules({m for t in texts.values() for m in t.modules}, region, found)
    return next((f"{os.path.relpath(p, os.path.dirname(launcher))} may hold a setup"
                 for p in candidates if _may_have_setups(p)), "")


def _follow(texts: Dict[str, _Text], launcher: str, found: Dict[str, List[str]]):
    """Read every file the texts run or source (by name, in the region); why not, and {file: {file it names: how
    often}}."""
    from ..shell.state import MAX_SOURCED
    edges: Dict[str, Dict[str, Tuple[int, bool]]] = {}
    todo, depth = [launcher], {launcher: 0}
    while todo:
        p = todo.pop()
        edges[p] = {}
        for name, suffix, sourced in texts[p].shells:
            for c in _named(found, name):
                if suffix and not c.endswith(suffix):
                    continue
                n, s = edges[p].get(c, (0, False))
                edges[p][c] = (n + 1, s or sourced)
                if c in texts:
                    continue
                if depth[p] + 1 > MAX_SOURCED or len(texts) >= MAX_FILES:
                    return "files run or sourced too deep or too many", edges
                t = _read(c)
                if t is None:
                    return f"{os.path.relpath(c, os.path.dirname(launcher))} cannot be read whole", edges
                if t.why:
                    return f"{t.why} in {os.path.relpath(c, os.path.dirname(launcher))}", edges
                texts[c], depth[c] = t, depth[p] + 1
                todo.append(c)
    return "", edges


def _up(folder: str, levels: int) -> str:
    for _ in range(levels):
        folder = os.path.dirname(folder)
    return folder


def _weights(texts: Dict[str, _Text], rounds: int) -> Optional[Dict[str, Tuple[int, int, int]]]:
    """Each file's _Text.walked, when every function is defined in one file and called only there (a file run with
    `bash` is a new shell, which has none of its caller's functions; a sourced one shares them: then a call may
    cross, and this is None, as when a call leads back to its function: _times is the bound)."""
    where: Dict[str, str] = {}
    for p, t in texts.items():
        for name in t.defined:
            if where.setdefault(name, p) != p:
                return None
    if where and len(texts) > 1:
        for p, t in texts.items():
            if any(where.get(word, p) != p for word in _FUNCTION_NAME.findall(t.text)):
                return None
    out = {}
    for p, t in texts.items():
        walked = t.walked(rounds)
        if walked is None:
            return None
        out[p] = walked
    return out


def _times(texts: Dict[str, _Text]) -> int:
    """How often a function body can be walked at most: once per call (and once more if no call is seen), a call in a
    body once per call of that one: (calls + 1) ** functions."""
    defined = sum(len(t.defined) for t in texts.values())
    if not defined:
        return 1
    names = {n for t in texts.values() for n in t.defined}
    calls = sum(1 for t in texts.values() for word in _FUNCTION_NAME.findall(t.text) if word in names) - defined
    return (calls + 1) ** defined


def _named(found: Dict[str, List[str]], name: str) -> List[str]:
    """The files a script or file of this name can be: by its name, and by a name it ends with when that keeps its
    extension (`${x#*_}` cuts `run_train.py` to `train.py`)."""
    ext = name.rfind(".") if name.endswith((".py", ".sh")) else 0
    return [p for i in range(ext + 1) for p in found.get(name[i:], ())]


def _runs(texts: Dict[str, _Text], edges, launcher: str, rounds: int, times: int) -> Optional[Dict[str, int]]:
    """How often each file can be entered (a file named in a loop body counts once per round: the texts' widest
    line bounds the rounds); None when one runs or sources a file on its own chain."""
    out = {p: 0 for p in texts}

    def visit(p: str, times: int, chain: Tuple[str, ...]) -> bool:
        out[p] += times
        loops = rounds ** (len(texts[p].commands) // 2 - 1) * times
        for c, (n, _) in edges.get(p, {}).items():
            if c in chain or not visit(c, times * n * loops, chain + (c,)):
                return False
        return True

    return out if visit(launcher, 1, (launcher,)) else None


def _levels(texts: Dict[str, _Text], edges, launcher: str, rounds: int, times: int, weights=None) -> int:
    """How many folders up the walk's directories can go: a file's own `..` and `dirname` as often as they can run
    (weights: _weights'), those of a file it sources as often as it sources it (the shell is the same), and those of
    the one file it runs that goes furthest (a new shell starts where its caller is, and its `cd` does not come
    back)."""

    def need(p: str) -> int:
        t = texts[p]
        loops = rounds ** (len(t.commands) // 2 - 1) * times
        ran = [need(c) for c, (_, sourced) in edges.get(p, {}).items() if not sourced]
        return (weights[p][1] if weights else t.weighted(t.levels, rounds, times)) + max(ran, default=0) + \
            sum(n * loops * need(c) for c, (n, sourced) in edges.get(p, {}).items() if sourced)

    return need(launcher)           # (_runs made sure no file is on its own chain)


def _read(path: str) -> Optional[_Text]:
    from ..source import observed
    from ..source.files import ReadError, decode_shell, read_bytes
    from ..shell.words import MAX_LAUNCHER
    observed.reading(path)              # a cached check depends on it as on a file the walk reads
    try:
        return _Text(path, decode_shell(read_bytes(path, MAX_LAUNCHER)))
    except (OSError, ReadError, ValueError):
        return None


def _absolute(texts: Dict[str, _Text], region: str, levels: int) -> str:
    """Why an absolute path of the texts may reach a script ("" when none can: it is not there, with as many
    levels up as the texts can go, or it is in the region listed)."""
    from ..source import observed
    for t in texts.values():
        for literal, whole in t.rooted:
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


def _modules(modules: Set[str], region: str, found: Dict[str, List[str]]) -> List[str]:
    """The files `python -m` can start for these modules: below the region (any folder may be the search path's)
    or in a folder above it (project.search_path goes up to a package's top and a project's root)."""
    from ..source import observed
    out = []
    for module in modules:
        parts = module.split(".")
        for tail in (os.sep.join(parts) + ".py", os.sep.join(parts + ["__init__.py"])):
            out += [p for p in found.get(tail.rpartition(os.sep)[2], ()) if p.endswith(os.sep + tail)]
            folder = region
            while True:
                folder = os.path.dirname(folder)
                if observed.isfile(os.path.join(folder, tail)):
                    out.append(os.path.join(folder, tail))
                if os.path.dirname(folder) == folder:
                    break
    return out


def _listing(region: str) -> Optional[Dict[str, List[str]]]:
    """name -> paths of the files below region (None: a folder link, or too many entries)."""
    if region in _refused:
        return None                     # (walked then: a region that grows past the bound is not listed again)
    kept = _regions.get(region)
    if kept is not None and all(_mtime(d) == t for d, t in kept[0].items()):
        return kept[1]
    folders: Dict[str, int] = {}
    names: Dict[str, List[str]] = {}
    entries, todo = 0, [region]
    while todo:
        folder = todo.pop()
        try:
            folders[folder] = os.stat(folder).st_mtime_ns      # (before it is read: a change after is seen)
            with os.scandir(folder) as found:
                for e in found:
                    entries += 1
                    if entries > MAX_ENTRIES:
                        if len(_refused) >= 1024:
                            _refused.clear()
                        _refused.add(region)
                        return None
                    if e.is_dir(follow_symlinks=False):
                        todo.append(e.path)
                    elif e.is_symlink() and e.is_dir():
                        return None                             # a folder link: what is below it is not listed
                    else:
                        names.setdefault(e.name, []).append(e.path)
        except OSError:
            return None                                         # a folder that cannot be read
    if len(_regions) >= MAX_REGIONS:
        _regions.clear()
    _regions[region] = (folders, names)
    return names


def _mtime(folder: str) -> int:
    try:
        return os.stat(folder).st_mtime_ns
    except OSError:
        return -1
