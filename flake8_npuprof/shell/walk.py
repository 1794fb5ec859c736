"""The interpreter: a launcher walked in order, as the shell would run it, without running anything.

`export` and inline assignments (`PROFILING_MODE=true python3 train.py`, `env A=b ...`), plain variables and
`set -a`, `source`/`.` of another script of the project, child scripts run as the processes they are, `cd`,
`set -e`/`pipefail`, `exit`/`exec`, subshells and groups, the launcher's arguments (`$1`, `shift`, `set --`), and
per-rank loops (`for i in $(seq 0 7)`, `for ((i=0;i<8;i++))`, `for i in {0..7}`). Whatever the walk cannot know
(a command substitution, a variable from the caller, a branch of `if`/`case`) is a hole: an unknown script,
directory or value is never guessed. Its result is `commands`, every simple command with its words, environment
and directory (launches.py tells which start Python or msprof); words are expand.py's, compounds control.py's.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple, Union

from ..source import fence
from ..source.files import rel_path
from ..source.text import HOLE, Run, SourceText, StrValue
from ..values.launch_args import Word
from .command_line import SHELLS, _SCRIPT_PATH, _child_script, _errexit_line, _errexit_shebang, _shell_errexit
from .control import _STATUS, Compounds
from .expand import COMPUTED, Expander, ifs_split
from .redirects import (Maker, Outer, Removal, fails_to_open, folderless, in_tree as _in_tree, made_folder, maker_of,
                        pairs, removes)
from .parse import (_AFTER_SUBSHELL, _FOR_C, _FOR_C_NAMED, _lexed, _loop_body, _loop_count, after_subshell, brace_body,
                    compiled, keyword_split, named_loop_count, no_rounds, set_by_value, set_unfollowed,
                    without_redirections)
from .state import (_ALL_ARGS, _ASSIGN, _LOOPS, _MAYBE, _NAME, MAX_BYTES, MAX_COMMANDS, MAX_SOURCED, MAX_WORDS,
                    Command, EnvView, Rounds, Setting, _Block)
from .words import glob_match, integer_value


_new_tuple = tuple.__new__          # a Word or Run without the namedtuple's __new__ (a Python frame each)
# the variable a `for` loop sets: `for i in ...`, `for ((i=0; ...))`
_FOR_VAR = re.compile(r"for\s+([A-Za-z_]\w*)(?![\w=])|for\s*\(\(\s*([A-Za-z_]\w*)\s*=")
_FOR_LIST = re.compile(r"[ \t]+in[ \t]+([^;\n]*)")       # (a `for NAME in` loop's list, to its `;` or line's end)
# the commands that may remove or move a path of the tree (a function's are met as it is walked where called)
_SHAKING = frozenset(("rm", "rmdir", "mv", "unlink", "find", "eval", "rsync", "shred"))
_TESTS = ("if", "[", "[[", "test")     # the commands `$?` is known in (right after a command run with `&`)
# (patterns, not compiled at import: re compiles them where a counted while first needs them)
_UNFOLLOWED_RUN = r"(?<![\w$-])(?:source|eval|exec)\b|(?:^|[;&|\n])\s*\.\s"   # what a counted while's body may not run
_INTEGER = r"-?(?:0|[1-9][0-9]*)"       # a counter's start or bound bash reads as the same number
MAX_ROUNDS = 1024       # rounds of a counted loop whose values the walk keeps (Walk._round_values)
# what a command after `cd DIR ||` may be for the walk to skip it where the cd certainly succeeds (a compound is not)
_COMPOUND = frozenset({"for", "while", "until", "if", "case", "select", "{", "}", "function", "then", "do", "done",
                       "fi", "else", "elif", "esac", "!"})
# the places of the fields of a Command that a child script's run sets in each of its commands (_run_child)
_RANKS, _CONDITIONAL, _BACKGROUND, _VIA, _FRAMES = (Command._fields.index(f) for f in
                                                    ("ranks", "conditional", "background", "via", "frames"))


# (no two blank runs side by side: `((` and 100,000 blanks took time that grows with their square)
_SETS = re.compile(r"(?<![\w$-])([A-Za-z_]\w*)\+?=|\(\(\s*(?:(?:\+\+|--)\s*)?([A-Za-z_]\w*)\s*(?:\+\+|--|[-+*/%]?=)|"
                   r"\b(?:read|let|local|declare|typeset|readonly|export)\s+(?:-\w+\s+)*([A-Za-z_]\w*)")


# `cd ~/x` and `source ~/x` keep their tilde prefix (the walk follows them to this user's home)
_TILDE_KEPT = frozenset(("cd", "pushd", "source", "."))
_WHITE = re.compile(r"\s*")         # (what `\s*` of _FOR_C and _FOR_C_NAMED takes after `for`)


def _body_sets(text: str, at: int) -> List[Tuple[str, int]]:
    """The variables the body of the loop at `at` sets (`X=`, `X+=`, `((X++))`, `read X`, `let X`), each with where."""
    found = _loop_body(text, at)
    if found is None:
        return []
    return [(m.group(m.lastindex or 1), m.start(m.lastindex or 1)) for m in _SETS.finditer(text, found[0], found[1])]


def _rounds_differ(body: str, names: Tuple[str, ...]) -> bool:
    """Whether the rounds of a counted loop whose body is this may not be alike: the body may set its variable
    (names[0]) or what its bounds read (names[1:]), or has `continue`/`break` (a `continue` may skip the body's way
    back, a `break` the later rounds: bash 5.2 left round 1 in d0/d1)."""
    return ("continue" in body or "break" in body) and \
        re.search(r"(?<![\w$-])(?:continue|break)\b", body) is not None or _may_set(body, names)


def _may_set(body: str, names: Tuple[str, ...]) -> bool:
    """Whether a loop's body may set its variable (names[0]) or one of names[1:]."""
    name = names[0]
    # (a step outside `((...))` and `let`, which set_unfollowed finds: `$[i++]`, `${a[i++]}`, `b[--i]=1`, `${x:i++:1}`,
    # `[[ i++ -lt 9 ]]` evaluate arithmetic, bash 5.2 ran each in d0 and d2; a nameref, `declare -n r=i`, sets i by r)
    # (each pattern searched only where the words it holds are there: compiled the first time one is)
    return "unset" in body or ("declare" in body or "typeset" in body or "local" in body) and \
        re.search(_NAMEREF_FIRST, body) is not None or \
        set_by_value(body) or _for_names(body, name) or \
        any(set_unfollowed(body, n) or _stepped(body, n) for n in names)


# `declare`, `typeset` or `local` as a word, its first option one that makes a nameref (_may_set), or any (_nameref):
# each word's `\b` checked after its letters (a search led by `\b` is tried at every character of the text, one led by
# a word's letters only where they are: 240 to 33 microseconds over GNMT's wmt16_en_de.sh)
_DECLARE_WORD = r"(?:declare(?<!\wdeclare)|typeset(?<!\wtypeset)|local(?<!\wlocal))"
_NAMEREF_FIRST = _DECLARE_WORD + r"\s+-\w*n"
_NAMEREF = _DECLARE_WORD + r"\s+(?:-\w+\s+)*-\w*n"


# What _may_set and _per_round search for a name, without a pattern of their own per name (each was compiled the first
# time a name was met: about 0.4 M instructions a name): a mention of the name is found, and what the pattern holds
# around it tested there with fixed patterns (`match` at an offset sees the text before it, as a search does; not
# compiled at import, as the counted while's)
_FOR_HEAD = r"for(?<!\wfor)\s*(?:\(\(\s*)?"     # `for NAME`, `for ((NAME`: what comes before the name (`\bfor`)
_FREE = r"(?<![\w$-])"                  # not after a word character, `$` or `-`
_FREE_OF_WORD = r"(?<![\w$])"           # not after a word character or `$`
_STEP_OP = r"\+?=|\+\+|--"             # `NAME=`, `NAME+=`, `NAME++`, `NAME--`
_WORD_END = r"\b"                       # (after a name: no word character follows)
_BEFORE_CLOSE = r"\b(?=\s*[])}:,])"      # `--NAME` before a closing bracket, `:` or `,`


def _for_names(body: str, name: str) -> bool:
    """Whether body has `for NAME`, `for ((NAME` (the search of rf"\\bfor\\s*(?:\\(\\(\\s*)?{name}\\b"): the name
    begins with a letter or `_`, so where it begins after `for` is where _FOR_HEAD's longest match ends."""
    if name not in body:
        return False
    end = re.compile(_WORD_END)
    for m in re.finditer(_FOR_HEAD, body):
        if body.startswith(name, m.end()) and end.match(body, m.end() + len(name)):
            return True
    return False


def _stepped(body: str, name: str) -> bool:
    """Whether body sets or steps the name as `NAME=`, `NAME+=`, `NAME++`, `NAME--`, `++NAME`, or `--NAME` before a
    closing bracket, `:` or `,` (the search of rf"(?<![\\w$-]){name}(?:\\+?=|\\+\\+|--)|\\+\\+{name}\\b|
    --{name}\\b(?=\\s*[])}}:,])"), at any mention of it."""
    k = body.find(name)
    while k >= 0:
        e = k + len(name)
        if re.compile(_FREE).match(body, k) and re.compile(_STEP_OP).match(body, e) or k >= 2 and (
                body.startswith("++", k - 2) and re.compile(_WORD_END).match(body, e) or
                body.startswith("--", k - 2) and re.compile(_BEFORE_CLOSE).match(body, e)):
            return True
        k = body.find(name, k + 1)
    return False


def _mentions(text: str, name: str) -> bool:
    """Whether text names the variable, not after a word character or `$` (the search of rf"(?<![\\w$]){name}\\b")."""
    k = text.find(name)
    while k >= 0:
        if re.compile(_FREE_OF_WORD).match(text, k) and re.compile(_WORD_END).match(text, k + len(name)):
            return True
        k = text.find(name, k + 1)
    return False


def _nameref(text: str) -> bool:
    """Whether the file declares a nameref anywhere (`declare -n r=i` before a loop: `r=$((r+1))` in its body steps i,
    bash 5.2 ran d0 and d2 alone): a counted loop's rounds are then not read as alike."""
    return ("declare" in text or "typeset" in text or "local" in text) and \
        re.search(_NAMEREF, text) is not None


class Walk(Expander, Compounds):
    def __init__(self, launcher: str, cwd: Optional[str] = None, args: Optional[Sequence[str]] = None,
                 typed: Optional[str] = None):
        """args: the launcher's arguments (`emulate LAUNCHER -- ARG...`), None when not known (check, the language
        server); typed: the launcher's path as it was typed (`emulate -- bash scripts/run.sh`), bash's `$0`. Under
        --no-outside nothing outside the project is sourced or walked (source/fence.py)."""
        self.launcher = os.path.abspath(launcher)
        self.root = os.path.dirname(self.launcher)
        # where the shell starts: the given directory, else the launcher's own, never the caller's (the answer must
        # not depend on where emulate is run from); `cd` moves it
        self.dirs: Tuple[str, ...] = (os.path.abspath(cwd) if cwd else self.root,)
        self.start = self.dirs[0]
        self.settled = bool(cwd)        # the directory is the given one or the launcher's own `cd` put it there
        self.errexit = False            # `set -e`
        self.vars: Dict[str, Setting] = {}
        self.exported: Dict[str, Setting] = {}
        self.commands: List[Command] = []
        self.sourced: List[Tuple[str, str, int]] = []     # (file, from file, line)
        self.unread: List[Tuple[str, str, int]] = []      # sourced scripts not found, not named or not read
        # the child scripts each of those was sourced in (a launch shows what its own shells sourced)
        self.sourced_in: List[Tuple[str, ...]] = []
        self.unread_in: List[Tuple[str, ...]] = []
        self._chain: Tuple[str, ...] = ()                 # the child scripts being walked, outermost first
        self.why_unread: Dict[int, str] = {}              # index in unread -> why a script found was not read
        self.sourced_stopped: set = set()                 # the sourced files among stopped (over the read bound)
        self.all_export = False
        self.steps = 0
        self.words = 0                  # words of the commands walked (MAX_WORDS)
        self.current = self.launcher    # the file being walked
        self.script = typed or self.launcher    # what `$0` names (the path found, where how it was typed is not known)
        self._calls = 0                 # runs of child scripts so far (Command.frames)
        self.log: List[Tuple[str, Optional[Setting]]] = []    # each change of what commands see (EnvView)
        self.unexports: Dict[int, str] = {}     # the log's entries that take an export away: by what, where
        self._unexported_by: Dict[str, str] = {}    # ... the last for each name
        self.stopped: Dict[str, Tuple[int, int, str]] = {}    # file -> (offset, line, why) where its walk stopped
        self.ended = False              # `exit` or `exec cmd` ended the shell being walked (and what sourced it)
        self.exited: Optional[Tuple[str, int]] = None     # (file, line) where the launcher's own shell ended
        self.child_end: Optional[Tuple[str, int]] = None  # where a child script's shell ended first (its `exit`)
        # msprof runs of a shell-script application: (application, file, line, where its shell ended first)
        self.msprof_apps: List[Tuple[str, str, int, Optional[Tuple[str, int]]]] = []
        self.exit_code = ""             # the code of the exit that ended a shell ("": not a literal one)
        # the decided `if` branches a shell's exit at (file, line) is in, outermost first (_Block.held): why it ended
        self.end_branches: Dict[Tuple[str, int], List[Tuple[str, int, str]]] = {}
        self._stop_code = ""            # the code a command that ends this shell ends it with (exec, source, child)
        self.pipefail = False           # `set -o pipefail`: a pipeline fails when any of its commands does
        self.crlf: List[str] = []       # the walked files written with Windows line endings
        # the positional parameters `$1`..`$N` of the shell being walked (None: not known, e.g. the caller's)
        self.args: Optional[List[str]] = None if args is None else list(args)
        self._assumed = False           # an expansion used the assumed start directory (`$(pwd)` before a `cd`)
        self._computed = False          # an expansion not known here is the launcher's computing (expand.COMPUTED)
        self._background = False        # the test being walked follows a command run with `&`: `$?` is 0
        self._anchored = False          # the command just walked was a `cd` to a known absolute directory
        self._nested = 0                # command substitutions being evaluated, one inside the other
        self.lost = ""                  # why the directory is not known (the `cd` that lost it), once it is not
        # functions defined in plain code: name -> (file, text, its SourceText, body start, body end), walked where
        # they are called (with their arguments as $1..), those never called once at the end as before (may run)
        self.functions: Dict[str, tuple] = {}
        self._called: set = set()
        self._calling: List[str] = []   # the functions being walked, outermost first
        # ... and the files sourced and loops and `case`s evaluated: whether set -e acts on their commands, by where
        # each is called or sourced (not before && or ||, negated, piped or in the background: bash 5.2 ran on after
        # `f || true`), or, asked when needed, where the compound is; a child script: no
        self._acts: List[Union[bool, Callable[[], bool]]] = []
        self._returned = False          # a `return` ended the function being walked
        # the names the functions being walked declared local (`local X`, `declare X`): what each hid
        self._local_saved: Dict[str, tuple] = {}
        self._loop: Optional[str] = None    # in an evaluated loop's body: "" running, "break"/"continue" met
        self.dropped: list = []         # the profiling options it takes and drops (dropped_switches), for emulate
        self.found_from: dict = {}      # ... the scripts found only from the launcher's own folder (emulate)
        self.copied: dict = {}          # ... a launch's seq -> what emulate says of the script the launcher copied
        # each child script run in a folder not its own, with its arguments: (file, args, the folder it starts in)
        self.children_elsewhere: List[Tuple[str, Optional[Tuple[str, ...]], str]] = []
        self._under: Optional[Command] = None     # the msprof whose shell-script application is being walked
        self.unreaching: list = []      # ... and those it takes that reach no launch, the project aside (idem)
        # a `for` loop's variable -> (file, line) of the loop: it has a value for each round (the last one after the
        # loop, as bash keeps it), which the walk (reading the body once for all rounds) does not hold; said of a `cd`
        # it makes unknown (not the caller's)
        self.loop_vars: Dict[str, Tuple[str, int]] = {}
        self.loop_heads: Dict[Tuple[str, int], str] = {}    # ... "while"/"until": those of a counted while (_counted)
        # ... those read through their first round that may end early (Compounds._cut_short): why
        self.loop_ends: Dict[Tuple[str, int], str] = {}
        self.ignored: list = []         # ... and those given that it does not test and that change no launch (idem)
        self.parsed: List[Tuple[str, str, int]] = []  # (option pattern, file, offset) an argument matched
        self.given: Optional[str] = None    # the launcher's text when it was given, not read (run(text))
        # in a counted loop's body after `mkdir ./d$i; cd ./d$i`: the folder the shell is in, round by round (dirs holds
        # the first round's); None elsewhere
        self.rounds: Optional[Rounds] = None
        self._round_block: Optional[_Block] = None   # the counted loop the command being walked is directly in
        self._round_open: List[_Block] = []          # the counted loops it is in, certain in them or not
        self._cd_sure = False           # the command just walked was a `cd` into a folder its round made
        self._made_sure = False         # ... a `mkdir` that certainly makes the folders it names, one a round
        self._decided = True            # ... not in a loop walked once for all its rounds, nor a function's body
        # an `rm`, `mv` (...) met, anywhere: a path of the tree may be gone, and is not taken as there (_known_there)
        self._shaken = False
        self._stops = ""                # ... one that may stop the shell in a round (set -e): how, for _cut_short
        # the first `exit` (or exec) in a branch or loop of this shell met so far, "file:line": it may end the shell
        # before the commands after it (bash 5.2 stops at `if [ ! -d data/v1 ]; then exit 1; fi` without the data)
        self._may_end = ""
        # the characters brace_body has read on each text to find whether a group in a loop runs apart: groups nested
        # n deep read it n times (2,000 deep in 16 KB: 12 s), so past its length a group is not read (not apart)
        self._apart_read: Dict[str, int] = {}
        self._while_read: Dict[str, int] = {}     # ... and counted_while on to a while loop's `done` (_counted)
        # ... a `mkdir`/`cp`/`rm` of such a body: its seq -> each word's text round by round (None: the same in all, ():
        # not known in one)
        self.round_words: Dict[int, Tuple[Optional[Tuple[str, ...]], ...]] = {}
        # the folders an unconditional `mkdir` of known words made (a round's `mkdir ./work/d$i` needs ./work)
        self.made_dirs: set = set()
        # ... those it certainly made and left (with the folders above them that `mkdir -p` made), for a path through
        # one (`mkdir ./d; cd ./d; python3 ../train.py`): read as written (find), the tree has none of them
        self.made_here: set = set()
        # folders a `mkdir` in a loop may make, named by a value not known statically (`mkdir ./d$i` in rounds not
        # known): (the folder as a glob, the file, the line); a later `cd` to one not in the tree may fail there
        self.may_make: List[Tuple[str, str, int]] = []
        self._in_loop = False           # the command being walked is in a loop (set for a `mkdir` only)
        self._first_round = False       # ... whose first round certainly reaches it (_first_round)
        self._failed = False            # ... a command that certainly fails there, stopping the shell under set -e
        # ... runs in a subshell of its own, in the background or a pipeline (no lastpipe): an `unset` or `export` there
        # leaves this shell's environment as it was (bash 5.2)
        self._apart_cmd = False
        self._aliased = False           # an `alias` ran: a command's name may be another's (_fails_here)
        self._globbing = ""             # `shopt -s nullglob` or failglob ran: a glob word is not known (_simple)
        self._lastpipe = False          # ... `shopt -s lastpipe` (even in a branch): a pipeline's last command may
        # run in this shell
        # the functions whose body is a subshell of one `mkdir` of words written out (`f() ( mkdir -p d1 )`), defined
        # in plain code: the folders' words
        self._mkdir_bodies: Dict[str, List[str]] = {}
        self._halted = False            # ... a glob after failglob, which may end the shell: the walk stops there
        # a file walked may turn set -e off where the walk does not see it (in a branch, `time set +e`, `set $o`, `trap
        # ... DEBUG`): its stops are not said (bash 5.2 ran on after `[ -n x ] && set +e; mkdir -p d1`)
        self._e_doubt = False
        # ... where that doubt comes from the launcher's own text alone: the offset of its first place that may turn set
        # -e off (0: from anywhere). A compound opened before it, outside functions and evaluated loops, opens its
        # redirections with set -e on (bash 5.2: `set -e; { set +e; cmd; } > ./nodir/a.log` stopped there)
        self._e_doubt_at = 0
        self._at = 0                    # the offset of the command being walked in its file
        # ... is in no compound, or only in `if` branches certainly taken, groups and subshells that set -e acts on
        # (_taken_alone)
        self._sure_e = True
        # ... a variable such a body sets from its loop's variable: (file, offset of the name) -> (the loop's file and
        # line, its value round by round)
        self.round_values: Dict[Tuple[str, int], Tuple[Tuple[str, int], Tuple[str, ...]]] = {}
        # what a launch's redirection to a folder the tree lacks rests on (shell/redirects.py): the commands met that
        # may make a folder, the redirections of function calls and child runs, and the seqs of the commands walked in
        # a loop (a later command of its body runs before a later round) or in a pipeline (its others run meanwhile)
        self.makers: List[Maker] = []
        self.removed: List[Removal] = []    # the `rm -r`s met: a folder of the tree they remove is gone till made
        self.outer: List[Outer] = []
        self.looped: set = set()
        self.piped: set = set()
        self._branch_mkdir = False      # the command being walked is a mkdir of its own in an `if` branch (_statements)
        self._rm_in_loop = False        # ... an `rm` in a loop
        self._rm_in_block = False       # ... in a compound (which may run in the background: `( rm -rf d ) &`)

    def launcher_text(self) -> str:
        """The launcher's whole text: the one given to run(), else the file's as the walk read it ("" when it cannot
        be read). Decoded as _file decodes it: a text-mode read would turn a carriage return inside quotes
        (`sed -i 's/^M/\\n/g'`) into a line break, and walks of that text would differ from this one's."""
        if self.given is not None:
            return self.given
        from ..source.files import ReadError, decode_shell, read_bytes
        try:
            return decode_shell(read_bytes(self.launcher, MAX_BYTES))
        except (OSError, ReadError):
            return ""

    def _unknown_value(self, name: str) -> None:
        """`name` may have been changed where the walk cannot tell (a branch, a function's local): set or exported,
        its value is no longer known."""
        for table in (self.vars, self.exported):
            if name in table:
                table[name] = table[name]._replace(value=HOLE)

    def _changed(self, name: str) -> None:
        """Log what a command now sees of `name`: its export, or a PROFILING_* variable set without one
        (seen only if the caller exports it), or nothing."""
        s = self.exported.get(name)
        if s is None and name.startswith("PROFILING_") and name in self.vars and self.vars[name].how != "not exported":
            s = self.vars[name]._replace(how="set without export")
        self.log.append((name, s))

    @property
    def cwd(self) -> Optional[str]:
        """The current directory, for `$(pwd)` / `$PWD`: the given one (--cwd) or where the launcher's own `cd`s put
        it; before any `cd`, the launcher's own directory, where it is meant to be started (a value built from it
        is marked assumed, so a `cd` to it keeps the launch's note that the directory was taken as the launcher's)."""
        if len(self.dirs) != 1 or self.rounds is not None:
            return None             # (in a folder a loop makes, it is another one each round)
        if not self.settled:
            self._assumed = True
        return self.dirs[0]

    @staticmethod
    def find(name: str, dirs, made=()) -> Optional[str]:
        """The one file `name` is from these directories (None: in none, or in several different ones); made: the
        folders the walk made (Walk.made_here), through which a path is read as written (as_written)."""
        from ..source.observed import isfile     # recorded: a cached check depends on what is found here
        found = {os.path.realpath(os.path.join(d, name)) for d in dirs if isfile(os.path.join(d, name))}
        if not found and made and not os.path.isabs(name):
            written = {as_written(d, name, made) for d in dirs} - {None}
            return written.pop() if len(written) == 1 else None
        return os.path.normpath(os.path.join(next(d for d in dirs if isfile(os.path.join(d, name))), name)) \
            if len(found) == 1 else None

    # ---- statements

    def run(self, text: Optional[str] = None) -> "Walk":
        """Walk the launcher (text: its content when already read, e.g. an editor's buffer)."""
        if text is None:
            try:
                with open(self.launcher, encoding="utf-8", errors="replace") as fh:
                    first = fh.readline()
            except OSError:
                first = ""
        else:
            first = text.split("\n", 1)[0]
        self.given = text
        self.errexit = _errexit_line(first)
        self._file(self.launcher, 0, False, text)
        if self.exited is None:
            self.uncalled()
        return self

    def _file(self, path: str, depth: int, conditional: bool, text: Optional[str] = None) -> str:
        """Walk one file (the launcher, or a script it sources); why it was not read ("" when it was).
        A sourced script is decoded as the launcher is (a BOM, a declared coding, UTF-8, else GB18030)."""
        if text is None:
            from ..source.files import ReadError, decode_shell, read_bytes
            try:
                text = decode_shell(read_bytes(path, MAX_BYTES))
            except ReadError as exc:
                try:
                    size = os.path.getsize(path)
                except OSError:
                    size = 0
                if size > MAX_BYTES:        # not a silent cliff: what it would run is not known (check: NPP191)
                    self.stopped[path] = (0, 1, f"it has {size:,} bytes, over the {MAX_BYTES:,} a launcher may have, "
                                                "so it was not read")
                return str(exc)
        elif len(text) > MAX_BYTES:
            self.stopped[path] = (0, 1, f"it has {len(text):,} characters, over the {MAX_BYTES:,} a launcher may have")
            return "too large"
        src = SourceText(text)
        if (not self._e_doubt or self._e_doubt_at) and _e_may_go_off(text):
            self._e_doubt = True        # (_fails_here)
            self._e_doubt_at = _e_first(text) if path == self.launcher and not self._e_doubt_at and depth == 0 and \
                not self._chain else 0
        if "\r\n" in text and path not in self.crlf:
            self.crlf.append(path)          # bash keeps each line's carriage return (the walk reads it as a blank)
        outer, self.current = self.current, path
        try:
            self._statements(text, src, path, depth, conditional)
        finally:
            self.current = outer
        return ""

    def _statements(self, text: str, src: SourceText, path: str, depth: int, inside: bool, start: int = 0,
                    stop: Optional[int] = None) -> None:
        """The commands of one file (or of text[start:stop], the body of a loop or `case` arm the walk evaluates);
        inside: the file is sourced from a branch (nothing in it is certain)."""
        blocks: List[_Block] = []                   # open compounds, innermost last
        resume = -1                                 # the commands up to here were walked already (an evaluated loop)
        function: Union[bool, str] = False         # `name()` seen: its `{` or `(` opens a function body
        defined = False     # ... after `then`, `do`, `else` or `{`: its `{ body; }` is walked as a group (set -e: not)
        # `a && b`, `a || b`: b runs depending on a, and so does a `{ group; }` or `( subshell )` in b's place
        chained, after = False, "\n"
        closed: Optional[_Block] = None             # the last `( ... )` or `{ ... }` closed: what follows applies
        pending: Optional[Tuple[_Block, str]] = None    # one that an exit ended, and the operator after it
        # the command before is a `cd` that certainly succeeds, or a test whose outcome is known: the operator after
        # which the next command is skipped ("||" after a success, "&&" after a failure; "": none is)
        sure = ""
        made = False            # ... a `mkdir` that certainly makes its folders: a command after `&&` runs
        failed = False          # ... a `false` that certainly runs: a command after `||` runs
        lexed = keyword_split(text, start, stop)
        # `cd ./d && python3 train.py &`: the whole list runs in a background subshell, and the shell stays where it was
        # (bash 5.2); its folder as the list began, and the list's last command
        background: Optional[Tuple[int, tuple]] = None
        for k, (words, op, at) in enumerate(lexed):
            self._at = words[0][0] if words else at
            if background is not None and k > background[0]:
                self.dirs, self.rounds, self.lost, self.settled = background[1]
                background = None
            if background is None and after not in ("&&", "||", "|") and op in ("&&", "||"):
                j = k
                while j < len(lexed) and lexed[j][1] in ("&&", "||", "|"):
                    j += 1
                if j < len(lexed) and lexed[j][1] == "&" and all(
                        w and text[w[0][0]:w[0][1]] not in _COMPOUND and text[w[0][0]:w[0][1]] != "("
                        for w, _, _ in lexed[k:j + 1]):
                    background = (j, (self.dirs, self.rounds, self.lost, self.settled))
            if at < resume:
                continue
            if self._loop or self._returned:
                return                              # `break`/`continue` of the evaluated loop, a function's `return`
            piped = after == "|"
            # (`mkdir -p ./d$i && cd ./d$i`: the cd runs wherever the round's mkdir certainly makes its folder)
            chained = after in ("&&", "||") and not (made and after == "&&") and not (failed and after == "||") or \
                (piped and chained)
            made = failed = False
            # `cmd &` then `if [ $? -ne 0 ]`: bash gives a command it puts in the background the status 0 (a test
            # only: after an `else` or `do` the command before is not the one that ran last)
            self._background = after == "&" and bool(words) and text[words[0][0]:words[0][1]] in _TESTS
            skipped, sure = sure if sure and after == sure else "", ""
            after = op
            if pending is not None:
                block, by = pending
                pending = None
                if not words and op in _AFTER_SUBSHELL:
                    by = op                         # `( exit 1 ) || true`: what follows the `)` decides
                if self._ends_after(block, by, piped or by == "|"):
                    return
            if not words:
                if op == "(":
                    # `name() ( ... )`: a function whose body is a subshell, run only when called
                    blocks.append(_Block("subshell?" if chained or function else "subshell", 1, len(self.commands),
                                         self._state()))
                    # an `exit` in it ends it alone, unless set -e stops this shell at its failure (_ends_after)
                    blocks[-1].apart = not self.errexit and not function
                    if defined and not function:
                        blocks[-1].state = "tested"     # `then g() ( ... )`
                    if not function:
                        self._opening(blocks, not defined and not chained and not piped and background is None and
                                      not inside, piped)
                    function = defined = False
                elif op == ")" and not function and any(b.kind.startswith("subshell") for b in blocks):
                    closed = self._close(blocks, "subshell")
                    assert closed is not None       # a subshell is open
                    pending = (closed, "")
                    self._closing(closed, text, *after_subshell(text, at + 1), path, src)
                    if self.ended:
                        return
                elif op in _AFTER_SUBSHELL and closed is not None:
                    self._after_block(closed, op)
                continue                            # `name()`: the `)` of a definition (function stays set)
            # (the checks over the open blocks below are skipped when none is: most commands of a launcher)
            dead = _dead(blocks) if blocks else None
            if dead is not None:                    # after an `exit` in this subshell or group: nothing runs in it
                head = text[words[0][0]:words[0][1]]
                if op == ")" and dead.kind.startswith("subshell"):
                    closed = self._close(blocks, "subshell")
                    assert closed is not None       # a subshell is open
                    pending = (closed, "")
                elif head == "}" and dead.kind.startswith("group"):
                    closed = self._close(blocks, "group", restore=op in ("&", "|"))
                    assert closed is not None   # dead is an open group
                    pending = (closed, op)
                    if op in _AFTER_SUBSHELL:
                        self._after_block(closed, op)
                continue
            if self._halted:
                return
            self.steps += 1
            if self.steps > MAX_COMMANDS or self.words > MAX_WORDS:
                self.stopped.setdefault(path, (words[0][0], src.position(words[0][0])[0],
                                               f"after {MAX_COMMANDS:,} commands" if self.steps > MAX_COMMANDS else
                                               f"after {MAX_WORDS:,} words of commands"))
                return
            head = text[words[0][0]:words[0][1]]
            # `! if ...; fi`, `! { ...; }`: the compound runs, its status inverted (set -e acts on nothing in it)
            bang = head == "!" and len(words) > 1 and text[words[1][0]:words[1][1]] in _NEGATED
            if bang:
                words = words[1:]
                head = text[words[0][0]:words[0][1]]
            if skipped and head not in _COMPOUND and op in ("\n", ";", "||", "&&"):
                # `cd ./d$i || exit` into the folder its round made: the exit does not run; the list's status is the
                # one before it (`[ -d ./d ] || exit && x`: x runs)
                sure = op if op == skipped else ""
                made, failed = op == "&&" and skipped == "||", op == "||" and skipped == "&&"
                continue
            skipping, plain = (_skipping(blocks), _plain(blocks)) if blocks else (False, True)
            if not skipping and plain and head in ("for", "while", "case"):
                # set -e acts in the body where it acts on the compound: alone, closed by a word that ends its command
                # (asked only where a command in it may stop the shell: the body may turn set -e on)
                self._acts.append(functools.partial(_taken_alone, text, tuple(blocks), lexed, k, (_CLOSERS[head],))
                                  if not chained and not piped and not bang and background is None else False)
                probe = [*blocks, _Block(head, 1, len(self.commands))]     # (for its redirections, _closing)
                self._opening(probe, not chained and not piped and not bang and background is None and not inside,
                              piped)
                try:
                    end = self._evaluated(text, src, path, depth, inside or chained, words, op, at)
                finally:
                    self._acts.pop()
                if end is not None:
                    # (end: after its `done` or `esac`, before the redirections bash opened as it began)
                    self._closing(probe[-1], text, *after_subshell(text, end), path, src)
                    if self.ended:
                        return
                    resume = end
                    continue
            if head == "if":
                known = self._tests(text, words[1:], op, lexed, k) if not skipping and (
                    _decidable(blocks) or self._background and _status_only(text, words[1:])) else None
                blocks.append(_Block(head, 1, len(self.commands), state="" if known is None else
                                     "take" if known else "skip"))
                blocks[-1].alone = not chained and not piped and not bang
                self._opening(blocks, blocks[-1].alone and background is None and not inside, piped)
                if known:
                    blocks[-1].held = (path, src.position(words[0][0])[0], "if " + _condition(text, lexed, k))
                words = words[1:]
            elif head in ("while", "until") and not skipping and self._counted(text, src, path, words, op, at, blocks):
                self._opening(blocks, not chained and not piped and not bang and background is None and not inside,
                              piped)
                continue
            elif head in ("while", "until", "case", "select"):
                blocks.append(_Block(head, 1, len(self.commands)))
                self._opening(blocks, not chained and not piped and not bang and background is None and not inside,
                              piped)
                if head != "case":
                    self._loop_began(blocks[-1], path, src.position(words[0][0])[0])
                words = words[1:]
            elif head == "for":
                loop_var = _FOR_VAR.match(text, words[0][0])
                line = src.position(words[0][0])[0]
                if loop_var:
                    name = loop_var.group(1) or loop_var.group(2)
                    self.loop_vars[name] = (path, line)
                    if not skipping:
                        self._loop_variable(name, path, line, loop_var.start(1 if loop_var.group(1) else 2),
                                            loop_var.group(1) is not None and self._computed_list(text, loop_var.end()))
                # (both patterns start with `for`, blanks and `((`: a `for x in` loop compiles neither)
                blanks = _WHITE.match(text, words[0][0] + 3)
                arith = blanks is not None and text.startswith("((", blanks.end())
                literal = compiled(_FOR_C).match(text, words[0][0]) if arith else None
                named = None if literal or not arith else compiled(_FOR_C_NAMED).match(text, words[0][0])
                block = _Block("for", _loop_count(text, words, literal), len(self.commands))
                if not block.ranks and not skipping and no_rounds(text, words, literal):
                    block.state = "skip"        # its body never runs
                if not block.ranks and not literal and not named:
                    block.ranks = self._list_rounds(text, words)
                if named:
                    count, names = named_loop_count(named, self._value)
                    if count is not None and any(set_unfollowed(text, n) for n in names):
                        count = None        # set where the walk does not follow values: its value here may be wrong
                    block.ranks = max(count or 0, 0)
                    if count is not None and count <= 0 and not skipping:
                        block.state = "skip"    # its body never runs (bash 5.2: `N=0; for ((i=0; i<N; i++))`)
                    block.bounds = {n: self.vars.get(n) or self.exported.get(n) for n in names}
                if (literal or named) and loop_var and block.ranks:
                    # a `for ((...))` whose body sets its counter runs as often as the body leaves it (bash 5.2:
                    # `for ((i=0;i<3;i++)); do ...; i=$((i+1)); done` ran rounds 0 and 2): how often is not known
                    body = _loop_body(text, at)
                    if body is None or _may_set(text[body[0]:body[1]], (name,)) or _nameref(text):
                        block.ranks = 0
                if loop_var and not skipping and 0 < block.ranks <= MAX_ROUNDS:
                    block.name = name
                    block.values = self._round_values(text, words, at, literal or named, (name, *block.bounds),
                                                      block.ranks)
                    block.known = {name: (self.vars.get(name), block.values)} if block.values else {}
                    block.later = _body_sets(text, at) if block.values else []
                block.alone = not chained and not piped and not bang
                self._loop_began(block, path, line)
                blocks.append(block)
                self._opening(blocks, block.alone and background is None and not inside, piped)
                continue
            elif head in ("fi", "done", "esac"):
                loop = self._close(blocks, {"fi": "if", "done": "loop", "esac": "case"}[head])
                if len(words) > 1:
                    self._closing(loop, text, words[1:], op, path, src)
                    if self.ended:
                        return
                if loop is not None and loop.bounds and loop.ranks and any(
                        (self.vars.get(n) or self.exported.get(n)) is not s for n, s in loop.bounds.items()):
                    # the body sets a bound, which bash reads again at every round: how often it ran is not known
                    for i in range(loop.first, len(self.commands)):
                        self.commands[i] = self.commands[i]._replace(ranks=0)
                if loop is not None and loop.values and loop.made and not loop.broken:
                    # each round's folder, made in every round (bash 5.2: `cd ./d2` after the loop went there)
                    self.made_dirs.update(f for folders in loop.made for f in folders)
                left = None             # the folder of its last round the loop leaves the shell in
                if loop is not None and self.rounds is not None and (self.rounds.path, self.rounds.line) == loop.at:
                    left, self.rounds = self.rounds.dirs[-1], None
                if loop is not None and loop.kind in _LOOPS and self.dirs != loop.dirs:
                    self._moved_in_loop(loop)
                    if left is not None and loop.anchor >= 0:
                        # `cd ${cur}/device$i` with no way back: the folder the last round made (bash 5.2), which is
                        # not in the tree to look in (nor, where the loop may end early, known)
                        self.dirs = ()
                        self.lost = f"the loop at {rel_path(loop.at[0], self.root)}:{loop.at[1]} leaves the shell " \
                            f"in the folder its last round makes ({rel_path(left, self.root)})" + \
                            (", and it may end early" if loop.broken else "")
                continue
            elif head == "}":
                group = self._close(blocks, "group", restore=op in ("&", "|"))
                if len(words) > 1:
                    self._closing(group, text, words[1:], op, path, src)
                    if self.ended:
                        return
                if group is not None and group.kind.startswith("group"):
                    closed = group
                    if op in _AFTER_SUBSHELL:
                        self._after_block(group, op)
                continue
            elif head in ("then", "else", "do", "{", "elif"):
                branch = next((b for b in reversed(blocks) if b.kind == "if"), None) \
                    if head in ("else", "elif") else None
                if branch is not None and branch.state:
                    if branch.state == "take":
                        branch.state = "done"
                    elif branch.state == "skip":
                        known = True if head == "else" else self._tests(text, words[1:], op, lexed, k)
                        branch.state = "" if known is None else "take" if known else "skip"
                        if known:
                            branch.held = (path, src.position(words[0][0])[0],
                                           "else" if head == "else" else "elif " + _condition(text, lexed, k))
                if head == "{" and isinstance(function, str) and plain and not skipping:
                    end = self._define(function, text, src, path, words[0][0])
                    function = False
                    if end is not None:
                        resume = end            # walked where it is called, with its arguments
                        continue
                if head == "{":
                    blocks.append(_Block("function" if function else "group?" if chained else "group", 1,
                                         len(self.commands), None if function else self._state()))
                    if not function and any(b.kind in _LOOPS for b in blocks) and \
                            self._apart_read.get(text, 0) <= len(text):
                        # `{ python3 train.py || { echo failed; exit 1; }; } &` in a loop: bash runs a group put in the
                        # background or piped in a subshell, whose `exit` ends it alone (bash 5.2: every round ran)
                        found = brace_body(text, words[0][0])
                        self._apart_read[text] = self._apart_read.get(text, 0) + (
                            len(text) if found is None else found[2]) - words[0][0]
                        blocks[-1].apart = found is not None and text.startswith(("&", "|"), found[2] - 1) and \
                            not text.startswith(("&&", "||"), found[2] - 1)
                    if (defined or bang) and not function:
                        blocks[-1].state = "tested"     # (a definition: nothing in it runs here, _taken_alone)
                    if not function and not defined:
                        self._opening(blocks, not chained and not piped and not bang and background is None and
                                      not inside, piped)
                    function = defined = False
                    chained = False             # the group's first command runs whenever the group does
                words = words[1:] if head != "elif" else []
                if len(words) == 1 and op == "(" and head != "elif":
                    self._mkdir_bodies.pop(text[words[0][0]:words[0][1]], None)     # (it may be another now)
                    defined = True              # `then g() { ...; }`: a definition, not a command
                    continue
            elif head == "function":
                # `function name {` / `function name { cmd; }`: the body runs only when called
                brace = next((k for k, (a, b) in enumerate(words) if text[a:b] == "{"), None)
                name = text[words[1][0]:words[1][1]] if len(words) > 1 else ""
                self._mkdir_bodies.pop(name, None)
                if brace is None:
                    function = name or True
                    continue
                end = self._define(name, text, src, path, words[brace][0]) if name and plain and not skipping \
                    else None
                if end is not None:
                    resume = end
                    continue
                blocks.append(_Block("function", 1, len(self.commands)))
                words = words[brace + 1:]
            elif len(words) == 1 and op == "(" and head == "!":
                # `! ( ... )`: the subshell runs, its status inverted (bash 5.2 ran on after `! ( exit 1 )` under set
                # -e; the walk read `!` as a function's name, and the subshell's commands as this shell's)
                blocks.append(_Block("subshell?" if chained else "subshell", 1, len(self.commands), self._state()))
                blocks[-1].apart = not self.errexit
                blocks[-1].state = "tested"
                continue
            elif len(words) == 1 and op == "(":
                function = text[words[0][0]:words[0][1]]    # a definition: its body runs only when called
                self._mkdir_bodies.pop(function, None)
                sub = compiled(_SUBSHELL_MKDIR).match(text, words[0][1])
                if sub is not None and not blocks:
                    self._mkdir_bodies[function] = sub.group(1).split()
                continue
            if blocks and _skipping(blocks):
                continue                            # a branch that certainly does not run
            negated = bool(words) and text[words[0][0]:words[0][1]] == "!"
            if negated:
                words = words[1:]                   # `! cmd`: cmd runs; its status is inverted (set -e ignores it)
            if not words:
                continue
            conditional = inside or chained or bool(blocks) and _maybe(blocks)
            # a pipeline's last command runs in this shell under `shopt -s lastpipe` (bash 5.2: `true | X=1` set X):
            # where it may be on, what it sets may or may not be seen after it
            last_piped = piped and op not in ("|", "&") and background is None and self._lastpipe
            conditional = conditional or last_piped
            first = text[words[0][0]:words[0][1]]
            if first in ("break", "continue"):
                if self._loop is not None and not any(b.kind in _LOOPS for b in blocks):
                    if conditional:             # the evaluated loop may stop here or not: no longer known
                        self._loop = "unknown"
                        return
                    self._loop = first
                    return
                self._cut_short(blocks)
                continue
            if first == "return" and self._calling and not any(b.kind in ("function", "subshell?") for b in blocks):
                # `return` in a function walked where it is called: it ends the function (in a branch or loop: what
                # follows in it may not run)
                if not conditional and not any(b.kind in _LOOPS for b in blocks):
                    self._returned = True
                    return
                inside = True
                continue
            if first == "return" and depth and not any(b.kind in ("function", "subshell?") for b in blocks) and \
                    self._chain[-1:] != (path,):
                # `return` in a sourced script ends that script (in a branch or loop: what follows may not run)
                if not conditional and not any(b.kind in _LOOPS for b in blocks):
                    return
                inside = True
                continue
            ranks = 1
            for b in blocks:
                if b.broken:                        # a loop cut short: how often it runs is not known
                    ranks = 0
                    break
                ranks = ranks * b.ranks if b.ranks > 0 and ranks > 0 else 0
            self._anchored = self._cd_sure = self._made_sure = False
            self._stops = ""
            # the counted loop whose rounds' values the command may use: the innermost block, the command certain in it
            self._round_block = None if not blocks or conditional else blocks[-1] if blocks[-1].values else \
                _round_loop(blocks) if blocks[-1].kind == "group" or blocks[-1].kind == "subshell" else None
            self._round_open = [b for b in blocks if b.values]
            runs = _run_by(text, words) if first in _RUNNERS else first     # (`command mkdir`, `time mkdir`)
            maker = "mkdir" in runs or first in self._mkdir_bodies
            self._in_loop = maker and any(b.kind in _LOOPS for b in blocks)     # (`x=$(mkdir d)` too)
            # ... a command of its own in a branch of an `if` (not after && or ||): `if [ ! -d D ]; then mkdir D; fi`
            self._branch_mkdir = maker and bool(blocks) and blocks[-1].kind == "if" and not chained and not piped and \
                op not in ("&", "|")
            # ... an `rm` in a loop, whose later rounds may remove other folders than the first round's words name
            self._rm_in_loop = first in ("rm", "rmdir") and any(b.kind in _LOOPS for b in blocks)
            self._rm_in_block = first == "rm" and bool(blocks)
            # ... each loop of which certainly runs its first round up to here (`for i in 1 2; do mkdir -p d1; done`)
            first_round = all(_first_round(b) for b in blocks if b.kind in _LOOPS) if blocks else True
            self._first_round = self._in_loop and first_round
            self._failed = False
            self._decided = _decidable(blocks)
            self._apart_cmd = piped and not last_piped or op in ("&", "|") or background is not None
            # (asked only of a command whose failure may stop the shell: a mkdir, a function, a sourced file)
            self._sure_e = (not blocks or self.errexit and (
                maker or first in ("source", ".") or first in self.functions) and
                _taken_alone(text, blocks, lexed, k)) and not (self.errexit and _after_substituted(text, lexed, k))
            first_new = len(self.commands)
            ends = self._simple(text, src, path, words, depth, conditional, ranks, "||" if negated else op)
            if len(self.commands) > first_new:
                if blocks and any(b.kind in _LOOPS for b in blocks):
                    self.looped.update(range(first_new, len(self.commands)))
                if piped or op == "|":
                    self.piped.update(range(first_new, len(self.commands)))
            if background is not None:
                # `python3 train.py || echo failed &`: bash runs the whole list in a background subshell (an exit in
                # it ends that subshell alone)
                for i in range(first_new, len(self.commands)):
                    self.commands[i] = self.commands[i]._replace(background=True)
                ends = False
            # (`mkdir -p ./d$i || exit 1`: the exit does not run where the mkdir certainly makes the folder)
            sure = "||" if (self._cd_sure or self._made_sure) and op == "||" else ""
            # (`true && mkdir -p d`, `false || mkdir -p d`: the builtin's status is known where it certainly runs)
            status = _STATUS.get(first) if len(words) == 1 and not negated and not conditional and not piped else None
            if status is None and (first[:1] == "[" or first == "test") and op in ("&&", "||") and not negated and \
                    not chained and not piped and background is None and self._decided:
                # `[ $# -lt 1 ] && exit 1`, `[ -d ./data ] || exit`: a test of values the walk knows (as an `if`'s)
                parsed = len(self.parsed)
                status = self._test(text, words, ";")
                del self.parsed[parsed:]        # (an option it compares with is parsed where an `if` tests it)
                sure = "||" if status is True and op == "||" else "&&" if status is False and op == "&&" else sure
            made = (self._made_sure or status is True) and not piped
            failed = status is False
            if self._stops:
                self._cut_short(blocks, self._stops)
            if self._anchored:
                # the loops this `cd` to a known absolute directory is in: their later commands run there in every
                # round (not those outside a subshell or group, which may keep its own directory)
                for b in reversed(blocks):
                    if b.kind.startswith(("subshell", "group")):
                        break
                    if b.kind in _LOOPS and b.anchor < 0:
                        b.anchor = len(self.commands)
            if ends and op != "&" and not _apart(blocks):
                self._cut_short(blocks)             # `exit` in a loop: it may end in its first round
            if ends and conditional and not self._may_end and op not in ("&", "|") and not piped and \
                    background is None and not any(b.kind.startswith(("function", "subshell")) for b in blocks):
                self._may_end = f"{rel_path(path, self.root)}:{src.position(words[0][0])[0]}"
            # an exit in a loop may never run; a pipeline's commands run in subshells of their own
            if ends and not conditional and op not in ("&", "|") and not piped and \
                    (self._failed and first_round or not any(b.kind in _LOOPS for b in blocks)):
                line = src.position(words[0][0])[0]
                code = text[words[1][0]:words[1][1]] if first == "exit" and len(words) > 1 else \
                    self._stop_code if first != "exit" else ""
                inner = next((b for b in reversed(blocks) if b.kind.startswith(("subshell", "group"))), None)
                if inner is not None:
                    inner.exit = (path, line, code)     # it ends there: a subshell at its `)`, a group its shell
                    self.ended = False
                    if op == ")" and inner.kind.startswith("subshell"):
                        closed = self._close(blocks, "subshell")
                        assert closed is not None       # a subshell is open
                        pending = (closed, "")
                    continue
                self.end_branches.setdefault((path, line), [b.held for b in blocks if b.kind == "if" and b.held])
                self._end(path, line, code)
                return
            if op == ")" and any(b.kind.startswith("subshell") for b in blocks):
                closed = self._close(blocks, "subshell")
                assert closed is not None       # a subshell is open
                pending = (closed, "")
                self._closing(closed, text, *after_subshell(text, at + 1), path, src)
                if self.ended:
                    return

    def _opening(self, blocks: List[_Block], alone: bool, piped: bool) -> None:
        """Where the compound just opened (blocks[-1]) begins, for its redirections, which bash opens before any
        command in it (_closing): set -e (on here) acts on its failure where it is alone (not after && or ||, negated,
        piped, in the background, a branch or a sourced file's branch) and outside other compounds."""
        doubt = self._e_doubt and not (self._e_doubt_at > self._at and self.current == self.launcher and
                                       not self._calling and self._loop is None and not self._chain)
        blocks[-1].opened = (self.dirs, frozenset(self.made_here or ()), alone and self.errexit and len(blocks) == 1 and
                             not doubt, any(b.kind in _LOOPS for b in blocks[:-1]), piped)

    def _closing(self, block: Optional[_Block], text: str, spans, op: str, path: str, src) -> None:
        """Keep a compound's redirections (`} > log`, `done < list`, `) > log 2>&1`; spans: the words after its
        closing word, op: the operator after them) as an Outer of the commands walked in it (shell/redirects.py)."""
        if block is None or block.opened is None or not spans or len(self.commands) <= block.first:
            return
        words: List[Word] = []
        for a, b in spans:
            if "~" in text[a:b]:            # (`> ~/x.log`: not judged)
                words.append(Word(StrValue(HOLE, [], a, b, origin="shell"), a, b))
            else:
                words.extend(Word(value, a, b) for value in self.fields(text, a, b))
        found = pairs(text, words)
        if found:
            dirs, made, errexit, looped, piped = block.opened
            # (set -e where it is sure: not where an eval, alias or unread sourced file may have turned it off)
            errexit = errexit and op not in ("&&", "||", "&", "|") and not self._aliased and \
                not self.unread and all(a if isinstance(a, bool) else a() for a in self._acts)
            line = src.position(spans[0][0])[0]
            self.outer.append(Outer(block.first, len(self.commands), found, dirs, path, line, made, errexit,
                                    len(self._chain), looped, piped or op == "|"))
            if errexit and fails_to_open(self, self.outer[-1]):
                self._end(path, line, "1")      # (the caller returns: nothing after it runs)

    def _simple(self, text, src, path, spans, depth, conditional, ranks, op: str = "") -> bool:
        """Record one simple command; True when it ends the shell: `exit`, `exec cmd` (which replaces it; not
        `exec >log 2>&1`, which only redirects its output), or a sourced script that ends it."""
        if spans and text.find("${", spans[0][0], spans[-1][1]) >= 0:
            self._assign_defaults(text, spans, path, src)
        words: List[Word] = []
        inline: Dict[str, Setting] = {}
        k = 0
        # leading assignments: inline environment for this command (or shell variables without a command), made
        # left to right: `OUT=/p OPTS="$OUT/x" cmd` reads the new OUT
        shadowed: Dict[str, Optional[Setting]] = {}
        valued: Dict[str, Tuple[int, int]] = {}     # where each assignment's value is written
        while k < len(spans):
            a, b = spans[k]
            m = _ASSIGN.match(text, a, b) if text.find("=", a, b) > a else None     # (most commands: no `=`)
            if not m:
                break
            self._assumed = False
            value = self.assigned(text, m.end(), b)
            line = src.position(a)[0]
            name = m.group(1)
            s = Setting(self._appended(name, value.text) if m.group(2) else value.text, path, line, a, "inline",
                        () if m.group(2) else tuple(value.runs), self._assumed, value.origin == COMPUTED or bool(
                            m.group(2) and name in self.vars and self.vars[name].computed))
            inline[name] = s
            valued[name] = (m.end(), b)
            shadowed.setdefault(name, self.vars.get(name))
            self.vars[name] = s
            k += 1
        for name, old in shadowed.items():
            if old is None:
                del self.vars[name]
            else:
                self.vars[name] = old
        counter = self._round_block.name if self._round_block is not None else None
        before = self.vars.get(counter) if counter in inline else None    # (the counter's step: `i=$((i+1))`)
        assumed: List[bool] = []        # per word: built from the assumed start directory
        for a, b in spans[k:]:
            if self.words + len(words) > MAX_WORDS:     # expansions multiply words: `"$@"` in a loop, `$X $X`
                break
            self._assumed = False
            word = text[a:b]
            if self.args is not None and word in _ALL_ARGS:
                # `"$@"`: one word per argument (none when there are none); `$@`, `$*` unquoted: a word per field of
                # each, so an empty one is none (bash 5.2: `set -- "a b" ""; printf '[%s]' $@` gave [a][b])
                apart = word[0] != '"'
                ifs = self._value("IFS") if "IFS" in self.vars or "IFS" in self.exported else " \t\n"
                if apart and (ifs is None or HOLE in ifs) and any(self.args):
                    words.append(Word(StrValue(HOLE, [], a, b, origin="shell"), a, b))     # (split: not known how)
                    continue
                words.extend(Word(StrValue(field, [], a, b, origin="shell"), a, b) for arg in self.args
                             for field in (_split_at(arg, ifs) if apart and ifs else (arg,)))
                continue
            tilde = self.tilde_word(text, a, b) if "~" in word and \
                (not words or words[0].text not in _TILDE_KEPT) else None
            if tilde is not None:
                words.extend(Word(value, a, b) for value in tilde)
                assumed.extend(False for _ in tilde)
                continue
            if "$" not in word and '"' not in word and "'" not in word and "\\" not in word and "`" not in word:
                # nothing expanded (most words): the one field fields() gives, without its call
                words.append(_new_tuple(Word, (StrValue(word, [_new_tuple(Run, (0, b - a, a, b - a))] if b > a else [],
                                                        a, b, origin="shell"), a, b)))
                assumed.append(False)
                continue
            for value in self.fields(text, a, b):      # `$ARGS` unquoted: a word per field, as bash splits it
                words.append(_new_tuple(Word, (value, a, b)))
                assumed.append(self._assumed)
        if self._globbing and words and words[0].text not in _DECLARING:
            # after `shopt -s nullglob` a glob that matches nothing is no word (bash 5.2: `shopt -s nullglob;
            # printf '[%s]' x* y` gave [y]); what matches where it runs is not known here. After failglob, one
            # that matches nothing ends the shell (bash 5.2: "no match: x*", nothing after ran): the walk stops
            if self._globbing == "failglob" and any(c in w.text for w in words[1:] for c in "*?["):
                self._halted = True
                self.stopped.setdefault(path, (spans[0][0], src.position(spans[0][0])[0],
                                               "at a glob after `shopt -s failglob`: one that matches nothing ends "
                                               "the shell, and what matches where it runs is not known here"))
                return False
            words = [w if k == 0 or not any(c in w.text for c in "*?[") else
                     Word(StrValue(HOLE, [], w.start, w.end, origin="shell"), w.start, w.end)
                     for k, w in enumerate(words)]
        self.words += len(words)
        if self.words > MAX_WORDS:              # the walk stops before this command
            self.stopped.setdefault(path, (spans[0][0], src.position(spans[0][0])[0],
                                           f"after {MAX_WORDS:,} words of commands"))
            return False
        if not words:
            # `x=$(mkdir -p d1)`: the status of an assignment alone is its last command substitution's (bash 5.2)
            fails = bool(inline) and self._fails_here(conditional, op) and \
                any(map(_blocked, self._substituted_mkdir(text, spans[:k])))
            if self._apart_cmd:
                return False        # `X=1 &`, `X=1 | cat`: bash 5.2 assigns in a subshell (the script's X stays)
            for name, s in inline.items():
                if conditional:
                    s = s._replace(value=HOLE)
                exported = self.all_export or name in self.exported
                # (built, not _replace'd: a launcher's most common command; `how` is the fifth field)
                # (after `declare +x X`, `X=v` is not exported whatever the caller's environment held)
                was = self.vars.get(name)
                hidden = was is not None and was.how == "not exported" and not exported
                self.vars[name] = Setting(s.value, s.path, s.line, s.start, "not exported" if hidden else "plain",
                                          s.runs, s.assumed, s.computed)
                if hidden:
                    self.unexports[len(self.log)] = self._unexported_by.get(name, "")
                if exported:
                    self.exported[name] = s._replace(how="set -a" if self.all_export else "export")
                if self._round_block is not None and not conditional:
                    self._round_set(name, text, *valued[name], before if name == counter else None)
                self._changed(name)
            if fails:
                self._stop_code = "1"
                self._failed = True
            return fails
        if words[0].text == "eval":
            words = _evaluated(words, self._eval_value(text, spans[k + 1:]))
            # one the walk does not read may define a function again or turn set -e off (bash 5.2 ran on after
            # `fm() { mkdir -p d1; }; eval "fm() { true; }"; fm`, where the walk said set -e stops at fm's mkdir)
            if words[0].text == "eval" and len(words) > 1:
                self._e_doubt, self._e_doubt_at = True, 0
        head = words[0].text
        if head == "shopt" and any(w.text == "lastpipe" or not w.known for w in words[1:]) and \
                any(w.text.startswith("-") and "s" in w.text for w in words[1:]):
            self._lastpipe = True
        if head == "shopt" and any(w.text.startswith("-") and "s" in w.text for w in words[1:]) and \
                any(w.text in ("nullglob", "failglob") or not w.known for w in words[1:]):
            # (even in a branch, a function or a subshell: it may be on from here)
            self._globbing = "failglob" if any(w.text == "failglob" or not w.known for w in words[1:]) else \
                self._globbing or "nullglob"
        fails = False                   # a command that certainly fails and so stops this shell under set -e
        # `command mkdir -p d1`, `time mkdir -p d1`: the mkdir runs, and its status is theirs (bash 5.2: set -e stopped)
        run = _behind(words) if head in _RUNNERS else words
        if head == "mkdir" and self._in_loop and self.rounds is None and len(self.dirs) == 1:
            line = src.position(words[0].start)[0]
            self.may_make.extend((os.path.normpath(os.path.join(self.dirs[0], w.text)).replace(HOLE, "*"), path, line)
                                 for w in words[1:] if not w.known and not w.text.startswith("-"))
        if self._round_block is not None and head in ("mkdir", "cp", "rm", "rmdir", "mv") and \
                len(words) == len(spans) - k and (head in ("mkdir", "cp") or
                                                  not any(c in w.text for w in words[1:] for c in "*?[")):
            self._round_files(text, words, head, op)
            fails = self._failed
        elif self._round_open and (head in ("rm", "rmdir", "mv", "unlink", "find", "eval", "source", ".")
                                   or head in self.functions):
            # one that may remove a folder a round made, which the walk does not follow (under a condition, a glob, in
            # a function: bash 5.2 `[ $i -ge 0 ] && rm -rf ./d$i`, `rm -rf ./d*`, `mv ./d$i ./e$i` then `cd ./d$i`
            # failed)
            for b in self._round_open:
                b.made.clear()
        elif run and run[0].text == "mkdir" and not conditional and len(self.dirs) == 1 and \
                (run is words or self._round_block is None and not self._round_open):
            to_make = [os.path.normpath(os.path.join(self.dirs[0], w.text)) for w in without_redirections(run[1:])
                       if w.known and not w.text.startswith("-")]
            self.made_dirs.update(to_make)
            # a file where it makes a folder: bash 5.2's `mkdir -p d1` failed ("File exists"), and set -e stopped there
            fails = self._fails_here(conditional, op) and any(map(_blocked, to_make))
            if not self._apart_cmd and op != "|":      # (`mkdir ./d &`: maybe not made yet when the next runs)
                self._made(run)
        elif head in self._mkdir_bodies and head not in self.functions and not inline and len(self.dirs) == 1:
            # `f() ( mkdir -p d1 )` called: its status is the subshell's, the mkdir's (bash 5.2 stopped there)
            fails = self._fails_here(conditional, op) and any(
                _blocked(os.path.normpath(os.path.join(self.dirs[0], w))) for w in self._mkdir_bodies[head]
                if not w.startswith("-"))
        if head == "exec" and not fails and _redirected(words) and self._e_acts(conditional, op) and \
                (not self._in_loop or self._first_round) and not any(True for _ in without_redirections(words[1:])):
            # `exec > ./nodir/log` under set -e: bash 5.2 stops there where it cannot open it (without set -e it goes
            # on, its output unchanged)
            found, seq = pairs(text, words), len(self.commands)
            fails = bool(found) and fails_to_open(self, Outer(
                seq, seq + 1, found, self.dirs, path, src.position(words[0].start)[0],
                frozenset(self.made_here or ()), True, len(self._chain)))
        if head in ("rm", "rmdir") and len(words) > 1:
            self._removes(text, words, conditional or bool(depth) or bool(self._calling), path, src)
        self._shaken = self._shaken or head in _SHAKING
        if self.made_here and (head in ("rm", "rmdir", "mv", "unlink", "find", "eval") or head in self.functions):
            # it may remove one (bash 5.2: `mkdir ./d; rm -rf ./d; cd ./d` failed); an `rm` of known words only those it
            # names or is inside (`rm -rf ./d/*` leaves ./d: bash 5.2's `cd ./d` after it succeeded)
            if head in ("rm", "rmdir") and not conditional and not self._rm_in_loop and len(self.dirs) == 1 and \
                    all(w.known for w in words):
                gone = [os.path.normpath(os.path.join(self.dirs[0], w.text)) for w in without_redirections(words[1:])
                        if not w.text.startswith("-")]
                self.made_here.difference_update([m for m in self.made_here if any(
                    glob_match(up, g) for g in gone for up in _and_above(m))])
            else:
                self.made_here.clear()
        if head in ("export", "declare", "typeset", "readonly", "local") and not inline:
            if self._calling and head in ("local", "declare", "typeset") and not any(
                    w.text.startswith("-") and "g" in w.text for w in words[1:]):
                for w in words[1:]:
                    name = w.text.split("=", 1)[0]
                    if not w.text.startswith("-") and name not in self._local_saved:
                        self._local_saved[name] = (self.vars.get(name), self.exported.get(name), not conditional)
            if not self._apart_cmd:
                self._export(text, src, path, spans[k + 1:], head, conditional)
            return False
        if head == "alias":
            self._aliased = True        # (under expand_aliases or POSIX mode a later `mkdir` may be another command)
        if head == "unset" and self._apart_cmd:
            return False
        if head == "unset":
            if any(w.text.startswith("-") and "f" in w.text for w in words[1:]):
                for w in words[1:]:
                    self._mkdir_bodies.pop(w.text, None)
                return False                # `unset -f NAME`: a function (bash 5.2 kept the variable NAME)
            for w in words[1:]:
                if self._calling and w.text in self._local_saved and not conditional:
                    # a name a function being walked made local: that local goes, and the value it hid is seen again
                    # (bash 5.2: `f() { local X=x; unset X; env; }` and `f() { local X; unset X; }; f; env` gave
                    # the exported X its value from before the call)
                    self.vars.pop(w.text, None)
                    self.exported.pop(w.text, None)
                    self._changed(w.text)
                    for table, s in zip((self.vars, self.exported), self._local_saved[w.text][:2]):
                        if s is not None:
                            table[w.text] = s
                    self._changed(w.text)
                    continue
                if conditional:
                    self._unknown_value(w.text)
                else:
                    self.vars.pop(w.text, None)
                    self.exported.pop(w.text, None)
                    self.loop_vars.pop(w.text, None)
                self._changed(w.text)
            return False
        if head == "set" and len(words) > 1 and words[1].text == "--":
            # `set -- a b`: new positional parameters (in a branch: no longer known)
            self.args = None if conditional or any(not w.known for w in words[2:]) else [w.text for w in words[2:]]
            return False
        if head == "set" and len(words) > 1:
            flags = words[1].text
            if flags.startswith("-") and "a" in flags:
                self.all_export = True
            elif flags.startswith("+") and "a" in flags:
                self.all_export = False
            if not conditional:
                for k, w in enumerate(words[1:], 1):
                    sign, letters = w.text[:1], w.text[1:]
                    named = letters == "o" and k + 1 < len(words) and words[k + 1].text == "errexit"
                    short = "e" in letters and letters != "o" and not letters.startswith("-")
                    if sign in ("-", "+") and (short or named):
                        self.errexit = sign == "-"
                    if sign in ("-", "+") and letters.endswith("o") and k + 1 < len(words) and \
                            words[k + 1].text == "pipefail":
                        self.pipefail = sign == "-"
            return False
        if head in ("cd", "pushd", "popd"):
            target = words[1] if len(words) > 1 and head != "popd" else None
            made = self._round_folder(text, target) if self._round_block is not None and target is not None and \
                not target.known and head == "cd" and len(words) == 2 else None
            if made is not None:
                folders, absolute = made
                # a folder this round made (`mkdir ./d$i; cd ./d$i`): another each round, the first one's in dirs
                block = self._round_block
                assert block is not None    # (_round_folder's answer)
                self.dirs, self.lost, self._cd_sure = (folders[0],), "", True
                # (the counter's values here: one more after a counted while's step before them)
                stepped = block.known.get(block.name)
                self.rounds = Rounds(block.at[0], block.at[1], block.name, stepped[1] if stepped is not None and
                                     self.vars.get(block.name) is stepped[0] else block.values, folders)
                # an absolute one is where each round goes whatever folder it began in (the loop's later commands)
                self._anchored = absolute
                return False
            moved_from = self.rounds
            self.rounds = None
            if not conditional and target is not None and target.known and os.path.isabs(target.text):
                self.dirs = (os.path.normpath(target.text),)
                self.lost = ""
                self._anchored = True
                # `cd $cur_path/..` after `cur_path=$(pwd)`: still relative to where the launcher was started
                self.settled = self.settled or not (len(assumed) > 1 and assumed[1])
            elif conditional or target is None or not target.known or target.text == "-" or not self.dirs:
                if self.dirs and (target is None or target.text != "."):
                    self.lost = self._lost_why(text, src, head, target, conditional)
                self.dirs = () if target is None or target.text != "." else self.dirs
            else:
                moved = os.path.expanduser(target.text)
                self.dirs = tuple(dict.fromkeys(os.path.normpath(os.path.join(d, moved)) for d in self.dirs))
                maker = self._may_make(self.dirs) if self.may_make else None
                if maker is not None:
                    self.lost = f"`{head} {text[target.start:target.end]}` at {rel_path(self.current, self.root)}:" \
                        f"{src.position(target.start)[0]}: a folder the walk does not know is there (not in the " \
                        f"tree; a `mkdir` of a name not known statically, at {rel_path(maker[1], self.root)}:" \
                        f"{maker[2]}, may make it)"
                    self.dirs, moved_from = (), None
                if moved_from is not None:
                    # `cd ..` out of a round's folder: the same folder again in every round (or still one a round)
                    dirs = tuple(os.path.normpath(os.path.join(d, moved)) for d in moved_from.dirs)
                    self.rounds = moved_from._replace(dirs=dirs) if len(set(dirs)) > 1 else None
            if self._round_block is not None and not conditional and len(self.dirs) == 1 and self.rounds is None and \
                    target is not None and os.path.isabs(target.text):
                from ..source.observed import note      # recorded: a cached check depends on what is found here
                # `cd ${cur} || exit` in a counted loop's body to a folder of the tree: the cd succeeds, the exit does
                # not run (bash 5.2), and how often the loop runs stays known (not `cd ./data`, which bash 5.2's second
                # round ran in ./data: "No such file or directory", the exit ran)
                self._cd_sure = note(self.dirs[0])[0] == "dir"
            elif head == "cd" and not conditional and self._decided and self.dirs and self.rounds is None:
                # `mkdir ./train; cd ./train || exit`, `cd ./data || exit` to a folder of the tree: the cd succeeds
                # (bash 5.2, CDPATH set or not), the exit does not run
                self._cd_sure = all(self._known_there(d, True) for d in self.dirs)
            return False
        if head in ("source", ".") and len(words) > 1:
            target = words[1]
            # (in a folder a loop makes, one a round, what it sources is looked for in the launcher's, as before)
            full = self.find(target.text, (self.dirs if self.rounds is None else ()) or (self.root,), self.made_here) \
                if target.known else None
            line = src.position(spans[0][0])[0]
            why = ""
            if full is not None and fence.outside(full):
                why = fence.WHY
            elif full is not None and depth < MAX_SOURCED:
                self._acts.append(op not in ("&&", "||") and not self._apart_cmd and self._sure_e)
                try:
                    why = self._file(full, depth + 1, conditional)
                finally:
                    self._acts.pop()
                if full in self.stopped:
                    self.sourced_stopped.add(full)
                if not why:
                    self.sourced.append((full, path, line))
                    self.sourced_in.append(self._chain)
            if full is None or depth >= MAX_SOURCED or why:     # assumed to set no PROFILING_* (the report lists it)
                self.unread.append((target.text, path, line))
                self.unread_in.append(self._chain)
                # (what it runs is not read: it may make a folder, before the next command walked)
                self.makers.append(Maker(len(self.commands), path, line,
                                         f"{head} {target.text}"[:80].replace(HOLE, "<unknown>"), early=True))
                if why:
                    self.why_unread[len(self.unread) - 1] = why
            self._stop_code = self.exit_code
            return self.ended               # a sourced script runs in this shell: its `exit` ends this one too
        if head == "exit":
            return True
        if head == "read" and not self._apart_cmd and not inline:
            self._read_into(list(without_redirections(words[1:])), path, src)
        if head == "shift":
            n = words[1].text if len(words) > 1 else "1"
            if self.args is not None:
                # bash leaves them as they are when there are fewer than n
                self.args = None if conditional or not n.isdigit() else \
                    self.args[int(n):] if int(n) <= len(self.args) else self.args
            return False
        self._stop_code = ""
        if head in self.functions and head not in self._calling and not inline:
            self._acts.append(op not in ("&&", "||") and not self._apart_cmd and self._sure_e)
            first, dirs, had = len(self.commands), self.dirs, frozenset(self.made_here or ())
            # (as it is here: the call's commands change what it reads; asked only where a redirection is)
            stops = _redirected(words) and self._e_acts(conditional, op)
            try:
                self._call(head, list(without_redirections(words)), depth, conditional)
            finally:
                self._acts.pop()
            self._opened(text, words, first, dirs, path, src, had, stops)
            return self.ended
        line, col = src.position(words[0].start)
        replaced = head == "exec" and any(True for _ in without_redirections(words[1:]))
        seq = len(self.commands)
        if self._msprof_child(words, path, line, col, inline, depth, conditional, ranks, op):
            # (msprof makes its --output folder before it runs its application: either may make a folder)
            self.makers.append(Maker(seq, path, line, "msprof", early=True))
            return replaced or bool(self._stop_code)
        child, by_shell, given = _child_script(words, path, line)
        first, dirs, had = len(self.commands), self.dirs, frozenset(self.made_here or ())
        stops = child is not None and _redirected(words) and self._e_acts(conditional, op)
        if child is not None and depth < MAX_SOURCED and ("/" in child.text or by_shell) and \
                self._run_child(child, depth, conditional, ranks, op, path, line, {**inline, **given},
                                _shell_errexit(words, child) if by_shell else None,
                                self._arguments(text, words, child)):
            self._opened(text, words, first, dirs, path, src, had, stops)
            return replaced or bool(self._stop_code)        # the child exits failing, under this shell's set -e
        # set -e does not act on a command before && or ||, nor on one whose status a pipe drops (no pipefail)
        errexit = self.errexit and op not in ("&&", "||") and (op != "|" or self.pipefail)
        if head not in folderless():
            may = maker_of(words, self.dirs, path, line, len(self.commands), self._branch_mkdir and conditional)
            if may is not None:
                self.makers.append(may)
        self.commands.append(Command(tuple(words), path, line, col, EnvView(self.log, len(self.log), inline),
                                     self.dirs, ranks, conditional, op == "&", errexit, op == "&&", self.settled,
                                     seq=len(self.commands), lost="" if self.dirs else self.lost, under=self._under,
                                     rounds=self.rounds,
                                     made=frozenset(self.made_here) if self.made_here else frozenset(),
                                     may_end=self._may_end))
        if fails:
            self._stop_code = "1"
            self._failed = True
        return replaced or fails

    def _assign_defaults(self, text: str, spans, path: str, src) -> None:
        """`${A:=word}` (`${A=word}`) in a command's words assigns word to A where A is empty (unset): bash 5.2's `A=;
        : ${A:=foo}; echo $A` prints foo. What it assigns is not followed here (expand._parameter): A is not known
        after it, unless it holds a value known already (which it keeps)."""
        for m in _ASSIGN_DEFAULT.finditer(text, spans[0][0], spans[-1][1]):
            name = m.group(1)
            s = self.vars.get(name) or self.exported.get(name)
            if s is not None and s.value and HOLE not in s.value:
                continue
            line = src.position(m.start())[0]
            for table in (self.vars, self.exported):
                t = table.get(name)
                if t is not None:
                    table[name] = Setting(HOLE, path, line, m.start(), t.how)
            if s is None:
                self.vars[name] = Setting(HOLE, path, line, m.start(), "plain")
            if name in self.exported:
                self._changed(name)

    def _opened(self, text: str, words, first: int, dirs, path: str, src, made, errexit: bool) -> None:
        """Keep the redirections of a function call or child run (`f > log`, `bash x.sh > log`): bash opens them
        before the commands it ran, seqs first.. (shell/redirects.py), in this shell, whose set -e (errexit: it
        certainly acts here) stops it where one fails (the child's own never starts)."""
        if len(self.commands) > first and _redirected(words):
            found = pairs(text, words)
            if found:
                self.outer.append(Outer(first, len(self.commands), found, dirs, path, src.position(words[0].start)[0],
                                        made, errexit, len(self._chain)))

    def _made(self, words) -> None:
        """Record the folders an unconditional `mkdir` certainly makes (made_here): with -p, each with the folders above
        it; without, each whose parent is there (in the tree, or made), in order (bash 5.2: `mkdir ./x/d` with no ./x
        failed, "cannot create directory"; `mkdir ./d ./d/e` made both). The word after -m is its mode."""
        parents, mode, folders = False, False, []
        for w in without_redirections(words[1:]):
            if mode:
                mode = False
            elif w.text.startswith("-"):
                parents = parents or w.text == "--parents" or bool(re.fullmatch(r"-[a-zA-Z]*p[a-zA-Z]*", w.text))
                mode = w.text == "--mode" or bool(re.fullmatch(r"-[a-zA-Z]*m", w.text))
            elif w.known:
                folders.append(os.path.normpath(os.path.join(self.dirs[0], w.text)))
        # (a folder of the tree an `rm` before may have removed is made again: shell/redirects reads made_here first)
        gone = tuple(p for r in self.removed for p in r.paths)
        for folder in folders:
            if _blocked(folder):
                continue
            if parents:
                while folder not in self.made_here and (not _in_tree(folder) or gone and removes(folder, gone)):
                    self.made_here.add(folder)
                    folder = os.path.dirname(folder)
            elif (not _in_tree(folder) or gone and removes(folder, gone)) and \
                    made_folder(os.path.dirname(folder), self.made_here, gone):
                self.made_here.add(folder)

    def _removes(self, text: str, words: List[Word], conditional: bool, path: str, src) -> None:
        """Record an `rm -r` or `rmdir` (shell/redirects.Removal): sure where it certainly runs, now (a line of the
        launcher's own, not in a compound, a function, a sourced or child script, nor in the background or piped), in
        the folder known, of paths written out (no glob, not `.`, `..` or `/`, which rm refuses); an `rm` without -r
        removes no folder (bash 5.2: "Is a directory")."""
        args = list(without_redirections(words[1:]))
        targets = [w for w in args if not (w.known and w.text.startswith("-"))]
        recursive = any(w.text == "--recursive" or re.fullmatch(r"-[a-zA-Z]*[rR][a-zA-Z]*", w.text) for w in args)
        # (`rm -d`, `rm --dir`: an empty folder, as rmdir; `rmdir -p a/b`: a/b, then a where it is left empty)
        emptied = any(w.text in ("--dir", "--parents") or re.fullmatch(r"-[a-zA-Z]*[dp][a-zA-Z]*", w.text)
                      for w in args)
        if not targets or words[0].text == "rm" and all(w.known for w in args) and not recursive and not emptied:
            return
        names = [w.text for w in targets]
        for name in names[:] if words[0].text == "rmdir" and emptied else ():
            while os.path.dirname(name.rstrip("/")).rstrip("/") not in ("", ".", ".."):
                name = os.path.dirname(name.rstrip("/"))
                names.append(name)
        base = self.dirs[0] if len(self.dirs) == 1 else HOLE
        # (`rm -ri`, `-I`, --interactive ask first, and read the answer from the launcher's input)
        sure = words[0].text == "rm" and recursive and not conditional and not self._rm_in_block and not self._apart_cmd and \
            not any(w.text.startswith("--interactive") or re.fullmatch(r"-[a-zA-Z]*[iI][a-zA-Z]*", w.text)
                    for w in args) and len(self.dirs) == 1 and all(w.known and not any(c in w.text for c in "*?[") and
                                        os.path.basename(w.text.rstrip("/")) not in ("", ".", "..") for w in targets)
        # (a word that starts with a part not known may name any folder: `rm -rf $OUT`)
        self.removed.append(Removal(len(self.commands), tuple(HOLE if name.startswith(HOLE) else
                                                              os.path.normpath(os.path.join(base, name))
                                                              for name in names), sure,
                                    text[words[0].start:words[-1].end][:80], path, src.position(words[0].start)[0]))

    def _known_there(self, path: str, folder: bool) -> bool:
        """Whether the walk knows a path is there now (a folder, or a file where not folder): a folder a certain
        `mkdir` made (made_here, kept up to date by the `rm`s after it), or a path of the tree where no command met may
        have removed or moved one (_shaken). False where not known (never "not there")."""
        from ..source.observed import note      # recorded: a cached check depends on what is found here
        if folder and path in self.made_here:
            return True
        return not self._shaken and note(path)[0] == ("dir" if folder else "file")

    def _fails_here(self, conditional: bool, op: str) -> bool:
        """Whether a command that fails here certainly stops the shell under set -e: it certainly runs, in the shell
        walked (not a loop's body, which may run no round; not before && or ||, negated, piped or in the background),
        in plain code or in functions and sourced files called where set -e acts on them (_acts), in a known folder."""
        return self.errexit and self.settled and not conditional and (not self._in_loop or self._first_round) and \
            len(self.dirs) == 1 and \
            not self._aliased and not self._e_doubt and not self.unread and \
            op not in ("&&", "||", "&", "|") and not self._apart_cmd and self._sure_e and \
            all(a if isinstance(a, bool) else a() for a in self._acts)

    def _e_acts(self, conditional: bool, op: str) -> bool:
        """Whether set -e certainly stops the shell where this command fails (what _fails_here asks but for where the
        walk is: a redirection's failure is judged in the folder the walk takes the command to run in)."""
        return self.errexit and not conditional and not self._aliased and not self._e_doubt and not self.unread and \
            op not in ("&&", "||", "&", "|") and not self._apart_cmd and self._sure_e and \
            all(a if isinstance(a, bool) else a() for a in self._acts)

    def _substituted_mkdir(self, text: str, spans) -> List[str]:
        """The folders `x=$(mkdir -p d1)` makes when that substitution is the assignments' last (whose status is
        theirs) and its words are all written out; [] for any other (`$(mkdir d; true)`, `$(mkdir d)$(true)`)."""
        raw = " ".join(text[a:b] for a, b in spans)
        m = None
        for m in compiled(_MKDIR_SUBST).finditer(raw):
            pass
        if m is None or "$(" in raw[m.end():] or "`" in raw[m.end():] or "'" in raw or "\\" in raw:
            return []
        made = m.group(1)
        if m.group(2):
            # `x=$(f)` with `f() { mkdir -p d1; }`: set -e is off in the substitution (no inherit_errexit), so its
            # status is the body's last command's; a body of that mkdir alone is read (bash 5.2 stopped there)
            f = self.functions.get(m.group(2))
            body = compiled(_MKDIR_BODY).fullmatch(f[1], f[3], f[4]) \
                if f is not None and m.group(2) not in self._calling else None
            if body is None:
                return []
            made = body.group(1)
        return [os.path.normpath(os.path.join(self.dirs[0], w)) for w in made.split() if not w.startswith("-")]

    def _eval_value(self, text: str, spans) -> Optional[str]:
        """The value of eval's one argument `$CMD` (or `"$CMD"`, `${CMD}`) as the walk has it, a part not known
        statically kept as a hole (the word eval is given has the whole value as one hole then)."""
        if len(spans) != 1:
            return None
        m = re.compile(_EVAL_VARIABLE).fullmatch(text, spans[0][0], spans[0][1])
        return self._value(m.group(1)) if m else None

    def _msprof_child(self, words, path: str, line: int, col: int, inline, depth: int, conditional: bool,
                      ranks: int, op: str) -> bool:
        """msprof whose application is a shell script (`msprof --output=out bash train.sh ARG...`,
        `--application="./train.sh ARG..."`): the script is walked as the child it is, its commands under this
        msprof (Command.under: msprof's configuration reaches what it starts through the environment). False when
        this is not such a command or the script cannot be walked (the launch is then msprof's application)."""
        if self._under is not None:
            return False
        for w in words:                     # (every command is asked: the name looked for before it is cut)
            named = w.value.text
            if "msprof" in named and named.rsplit("/", 1)[-1] == "msprof":
                break
        else:
            return False
        from .msprof_run import msprof_application
        errexit = self.errexit and op not in ("&&", "||") and (op != "|" or self.pipefail)
        me = Command(tuple(words), path, line, col, EnvView(self.log, len(self.log), inline), self.dirs, ranks,
                     conditional, op == "&", errexit, op == "&&", self.settled, lost="" if self.dirs else self.lost,
                     rounds=self.rounds, may_end=self._may_end)
        found = msprof_application(me)
        if found is None or not found[1]:
            return False
        app = found[1]
        k = 1 if app[0].text.rsplit("/", 1)[-1] in SHELLS else 0
        while k and k < len(app) and app[k].text.startswith("-"):
            k += 1                          # `bash -x train.sh`
        if k >= len(app) or not _SCRIPT_PATH.fullmatch(app[k].text) or not (k or "/" in app[k].text):
            return False
        self._under = me
        self.child_end = None
        try:
            walked = self._run_child(app[k], depth, conditional, ranks, op, path, line, dict(inline), None,
                                     [w.text for w in app[k + 1:]])
        finally:
            self._under = None
        if walked:
            # where its application ended: a launcher with no launch says msprof ran it (emulate/sequence.py)
            self.msprof_apps.append((app[k].text, path, line, self.child_end))
        return walked

    def _run_child(self, word: "Word", depth: int, conditional: bool, ranks: int, op: str, by: str,
                   line: int, given: Dict[str, "Setting"], errexit: Optional[bool] = None,
                   child_args: Optional[List[str]] = None) -> bool:
        """Walk a shell script this one runs (not sources) as the process it is: a new shell that sees only
        the exported variables (and `A=b ./x.sh`, `env A=b ./x.sh`), whose own settings, `cd` and `set -e` do
        not come back. Its commands are this command's: started as often, under the same conditions, in the
        background if it is. False when it cannot be walked (not found, outside the project under
        --no-outside, unreadable, or already running: `bash $0` per device): unknown then."""
        full = self.find(word.text, (self.dirs if self.rounds is None else ()) or (self.root,), self.made_here) \
            if word.known else None
        if full is None or fence.outside(full) or \
                full in self._chain or full == self.launcher:
            return False
        background = op == "&"
        if len(self.dirs) == 1 and self.dirs[0] != os.path.dirname(full) and self.rounds is None:
            self.children_elsewhere.append((full, None if child_args is None else tuple(child_args), self.dirs[0]))
        saved = (self.vars, self.exported, self.dirs, self.settled, self.all_export, self.errexit, self.script,
                 self.pipefail, self.args, self.functions, self.rounds)
        lost, rounds, may_end = self.lost, self.rounds, self._may_end
        if rounds is not None:
            # a child started in a folder a loop makes, one a round: its folder is not followed into it (as before)
            self.dirs, self.rounds = (), None
            self.lost = f"it runs in a folder the loop at {rel_path(rounds.path, self.root)}:{rounds.line} makes, " \
                "another each round, which the walk does not follow into a child script"
        parent_errexit = self.errexit
        # (in the order they are set, not a set's: the log's order is the order of the child's environment)
        names = dict.fromkeys([*self.vars, *self.exported, *given])
        exported = dict(self.exported)
        exported.update((name, s._replace(how="export" if s.how == "inline" else s.how)) for name, s in given.items())
        self.vars, self.exported = dict(exported), exported
        # `bash x.sh` reads x.sh's first line as a comment: only its own options (`bash -e x.sh`) set -e
        self.all_export, self.errexit = False, _errexit_shebang(full) if errexit is None else errexit
        self.pipefail = False
        # `$0` is the word bash is given (`bash scripts/run.sh`: scripts/run.sh), read from where it starts; where
        # that is only assumed (the launcher's own folder), the path found there stands for it, as it did
        self.script = word.text if self.settled and len(self.dirs) == 1 and not os.path.isabs(word.text) and \
            os.path.normpath(os.path.join(self.dirs[0], word.text)) == full else full
        self.args = child_args
        self.functions = {}             # a new shell: the caller's functions are not defined in it
        for name in names:
            self._changed(name)             # what the child sees: the exports and what the command line gives
        first = len(self.commands)
        outer_chain, self._chain = self._chain, self._chain + (full,)
        self._calls += 1
        frame = (self._calls, parent_errexit and not background and op not in ("&&", "||") and
                 (op != "|" or self.pipefail))
        try:
            # the child's own settings are certain inside it, even when the command that runs it is in a branch
            # a new shell: its own set -e stops it wherever the caller's may not act (bash 5.2: `bash ./child.sh`, its
            # `set -e; exec > ./nodir/a.log` stopped it there); whether that stops this shell is its frame's
            acts, self._acts = self._acts, []
            try:
                why = self._file(full, depth + 1, False)
            finally:
                self._acts = acts
            if not why and not self.ended:
                self.uncalled()             # the child's own functions no call of it names, before they are gone
        finally:
            # the child's `exit` ends the child; a failing one (`exit 1`) stops this shell too under its set -e
            failing = self.ended and self.exit_code not in ("", "0") and frame[1] and not conditional
            self._stop_code = self.exit_code if failing else ""
            self.ended = False
            self._may_end = may_end         # the child's `exit` ends the child alone
            self._chain = outer_chain
            names.update(dict.fromkeys([*self.vars, *self.exported]))
            (self.vars, self.exported, self.dirs, self.settled, self.all_export, self.errexit, self.script,
             self.pipefail, self.args, self.functions, self.rounds) = saved
            if self.rounds is not None:
                self.lost = lost
            for name in names:
                self._changed(name)
        if why:
            return False
        via = (full, by, line)
        for i in range(first, len(self.commands)):
            c = self.commands[i]
            # errexit stays the child's own `set -e`; whether a stop reaches this script is in the frame (the fields
            # set by their places in Command: _replace with keywords cost three times as much, once per command)
            fields = list(c)
            fields[_RANKS] = c.ranks * ranks if c.ranks > 0 and ranks > 0 else 0
            fields[_CONDITIONAL] = c.conditional or conditional
            fields[_BACKGROUND] = c.background or background
            fields[_VIA] = (via,) + c.via
            fields[_FRAMES] = (frame,) + c.frames
            self.commands[i] = Command._make(fields)
        if len(self.commands) > first:
            # the child's status is its last command's: `child.sh && next` skips next when it fails, and under this
            # script's `set -e` a failing last command stops this script too (frame[1] carries it outward)
            last = self.commands[-1]
            self.commands[-1] = last._replace(chained=op == "&&" if op in ("&&", "||") else last.chained,
                                              errexit=last.errexit or frame[1])
        return True

    def _round_values(self, text: str, words, at: int, counted, names: Tuple[str, ...], rounds: int) -> Tuple[str, ...]:
        """The variable's value (names[0]'s) in each round of a `for` loop whose rounds are counted: `for ((i=0; i<8;
        i++))` (its start a known integer), `for i in $(seq 0 7)`, `{0..7}`, `0 1 2`; () where not known, or where its
        body may set the variable or what its bounds read (names[1:]), or `continue`/`break` in it: each round then
        starts from what the body left, or some do not run, and rounds are not alike."""
        found = _loop_body(text, at)
        if found is None or _rounds_differ(text[found[0]:found[1]], names) or _nameref(text):
            return ()
        values: List[str] = []
        if counted is not None:
            lo = integer_value(counted.group(2)) if counted.re is compiled(_FOR_C) else \
                integer_value(self._arithmetic(text, counted.start(2), counted.end(2)) or "?")
            values = [str(lo + r) for r in range(rounds)] if lo is not None else []
        else:
            items = [text[a:b] for a, b in words[3:] if text[a:b] not in (";", "do")]
            bounds = re.fullmatch(r"\$\(\s*seq\s+(?:(\d+)\s+)?(\d+)\s*\)|`seq\s+(?:(\d+)\s+)?(\d+)`", items[0]) \
                if len(items) == 1 else None
            brace = re.fullmatch(r"\{(\d+)\.\.(\d+)\}", items[0]) if len(items) == 1 else None
            if bounds:
                lo = int(bounds.group(1) or bounds.group(3) or 1)
                values = [str(lo + r) for r in range(rounds)]
            elif brace and not any(len(x) > 1 and x[0] == "0" for x in brace.groups()):
                # (bash 5.2: {3..1} is 3 2 1; {00..02} is 00 01 02, not followed)
                lo, hi = int(brace.group(1)), int(brace.group(2))
                values = [str(v) for v in (range(lo, hi + 1) if lo <= hi else range(lo, hi - 1, -1))]
            elif items and all(re.fullmatch(r"[\w.-]+", w) for w in items):
                values = items
        return tuple(values) if len(values) == rounds else ()

    def _counted(self, text: str, src, path: str, words, op: str, at: int, blocks: List[_Block]) -> bool:
        """`i=0; while [ $i -lt $N ]; do ...; i=$((i+1)); done` read as `for ((i=0; i<N; i++))` (bash 5.2 ran CGAN's
        shape in d0, d1, d2 and left i at 3): where the counter's start and the bound are known integers, and nothing
        but the step sets the counter or what the bound reads. Opens the loop's block; False for any other loop."""
        if self._while_read.get(text, 0) > len(text):
            return False            # (loops nested n deep read the text n times: 5,000 deep in 140 KB took 7.5 s)
        from .counted_while import counted_while     # (imported where a while loop is met: 1.5 M instructions)
        read: List[int] = []
        found = counted_while(text, words, op, at, read)
        self._while_read[text] = self._while_read.get(text, 0) + sum(read)
        if found is None:
            return False
        name, holds, bound, body, step = found
        raw = text[bound[0]:bound[1]]
        names = tuple(dict.fromkeys(re.findall(r"[A-Za-z_]\w*", raw)))
        lo, hi = self._counter_start(text, name, path, step), self.expand(text, *bound).text
        if lo is None or not re.fullmatch(_INTEGER, hi) or any(set_unfollowed(text, n) for n in names):
            return False
        rounds = int(hi) - lo + (holds == "<=")
        if rounds < 0 and holds == "!=" or rounds > MAX_ROUNDS:
            return False                # (`while [ $i -ne 3 ]` from 5 counts up for ever)
        rest = text[body[0]:step[0]] + "\n" + text[step[1]:body[1]]       # (the body but its step)
        if text.startswith(("((", "let"), step[0]) and (self.errexit or re.search(r"\bset\s", rest)):
            return False                # (its status is 1 where it gives 0: bash 5.2 `set -e` stops at `((i++))` of 0)
        # a command that may set the counter where the walk does not follow it: a function, `source`, `eval`
        if _rounds_differ(rest, (name, *names)) or _nameref(text) or re.search(_UNFOLLOWED_RUN, rest) or \
                any(re.search(rf"(?<![\w$-]){re.escape(f)}\b", rest) for f in self.functions):
            return False
        line = src.position(words[0][0])[0]
        block = _Block("for", max(rounds, 0), len(self.commands),
                       state="skip" if rounds <= 0 else "")     # (read as a counted `for`: the body runs every round)
        block.name, block.values = name, tuple(str(lo + r) for r in range(rounds))
        self.loop_vars[name] = (path, line)
        self.loop_heads[(path, line)] = text[words[0][0]:words[0][1]]
        self._loop_variable(name, path, line, words[1][0])
        block.known = {name: (self.vars.get(name), block.values)} if block.values else {}
        block.later = [(n, a) for n, a in _body_sets(text, at) if not step[0] <= a < step[1]]
        block.bounds = {n: self.vars.get(n) or self.exported.get(n) for n in names}
        self._loop_began(block, path, line)
        blocks.append(block)
        return True

    def _counter_start(self, text: str, name: str, path: str, step: Tuple[int, int]) -> Optional[int]:
        """The counter's value as the loop begins: a known integer set in this file by a command of its own, which bash
        runs in this shell (bash 5.2: `i=0 &` and `i=0 | cat` leave i as it was), and changed nowhere the walk does not
        follow (`((i=5))`, `read i`) but by the loop's step; None otherwise."""
        s = self.vars.get(name)
        if s is None or s.path != path or not re.fullmatch(_INTEGER, s.value) or \
                set_unfollowed(text[:step[0]] + ";" + text[step[1]:], name) or set_by_value(text[:step[0]]):
            return None
        lexed = _lexed(text, 0, None)
        for k, (words, op, _) in enumerate(lexed):
            if words and words[0][0] <= s.start < words[-1][1]:
                return int(s.value) if op in (";", "\n") and (k == 0 or lexed[k - 1][1] != "|") else None
        return None

    def _per_round(self, text: str, a: int, b: int) -> Optional[Tuple[str, ...]]:
        """The word text[a:b] round by round of the counted loop the command is in, with the values its variable and
        what its body set from it have in each (None: one round's not known, or split into several words)."""
        block = self._round_block
        if block is None:
            return None
        names = [(n, vals) for n, (s, vals) in block.known.items() if self.vars.get(n) is s]
        # one the body sets after this word: from round 2 the word reads the value the round before left (bash 5.2:
        # `export DEVICE_ID=$((i+OFF)); OFF=4` gave 0, 5, 6)
        if any(at > a and n not in block.known and _mentions(text[a:b], n) for n, at in block.later):
            return None
        saved = {n: self.vars.get(n) for n, _ in names}
        assumed, out = self._assumed, []
        try:
            for r in range(len(block.values)):
                for n, vals in names:
                    self.vars[n] = Setting(vals[r], "", 0, 0, "plain")
                value = self.expand(text, a, b).text
                if HOLE in value or any(c in value for c in " \t\n"):
                    return None
                out.append(value)
        finally:
            for n, s in saved.items():
                if s is None:
                    self.vars.pop(n, None)
                else:
                    self.vars[n] = s
            self._assumed = assumed
        return tuple(out)

    def _round_set(self, name: str, text: str, a: int, b: int, before: Optional[Setting] = None) -> None:
        """A variable a counted loop's body sets (`export DEVICE_ID=$i`): its value round by round, where the walk's
        one value of it is not known. before: the counter's setting its step (`i=$((i+1))`) reads, each round's value
        (a counted while's step before the body's other commands: bash 5.2 ran them with the counter one more)."""
        block = self._round_block
        s = self.vars[name]
        assert block is not None    # (the caller's test)
        if before is not None:
            self.vars[name] = before
        try:
            vals = self._per_round(text, a, b) if HOLE in s.value else None
        finally:
            self.vars[name] = s
        if vals is not None:
            block.known[name] = (s, vals)
            self.round_values[(s.path, s.start)] = (block.at, vals)

    def _round_bases(self) -> Optional[Tuple[str, ...]]:
        """Where the shell is in each round of the counted loop being walked (None: not known)."""
        block = self._round_block
        if block is None or self.rounds is not None and (self.rounds.path, self.rounds.line) != block.at:
            return None             # (in the folders of an outer loop's rounds: not followed)
        if self.rounds is not None:
            return self.rounds.dirs
        return (self.dirs[0],) * len(block.values) if len(self.dirs) == 1 else None

    def _round_files(self, text: str, words: List[Word], head: str, op: str) -> None:
        """`mkdir ./d$i`, `rm -rf ./d$i`, `cp ../*.py ./d$i` in a counted loop's body: each word round by round (what
        emulate's copied.py reads of a `cp`), and the folders each round has made (`rm` of one takes it back)."""
        block = self._round_block
        bases = self._round_bases()
        assert block is not None    # (the caller's test)
        texts = [self._per_round(text, w.start, w.end) or () if HOLE in w.text else None for w in words]
        if any(texts):
            self.round_words[len(self.commands)] = tuple(texts)
        if any(t == () for t in texts):
            if head in ("rm", "rmdir", "mv"):
                block.made.clear()      # it may remove any of them
            return
        if head == "mv" or head == "cp" and not self._filled(words, texts, bases, block):
            block.gone.clear()          # (it may put a folder where one was not, or fill one)
            block.empty.clear()
        if bases is None or head == "cp":
            return
        operands = [(w, t) for w, t in zip(words[1:], texts[1:]) if not w.text.startswith("-")]
        kept = {id(w) for w in without_redirections(words)}
        parents, recursive = (any(w.text.startswith("-") and (letter in w.text[1:].lower() if w.text[1:2] != "-" else
                                                               w.text == name) for w in words[1:])
                              for letter, name in (("p", "--parents"), ("r", "--recursive")))
        sure = head == "mkdir"
        for w, t in operands:
            if id(w) not in kept:
                continue
            folders = tuple(os.path.normpath(os.path.join(base, t[r] if t else w.text)) for r, base in enumerate(bases))
            if head == "mkdir" and parents and not any(
                    all(x == f or f.startswith(x.rstrip("/") + "/") for x, f in zip(g, folders)) for g in block.gone) \
                    and any(map(_blocked, folders)):
                # a file there (or in its way): bash 5.2's `mkdir -p d1` failed ("File exists"), `&& cd d1` was skipped,
                # and set -e stopped there
                if self.errexit and op not in ("&&", "||"):
                    self._stops = f"(`{text[words[0].start:words[-1].end]}` stops the shell under set -e: a file is " \
                        "where it makes a folder)"
                    # in the first round: the shell certainly stops there (bash 5.2, `for i in 1 2; do mkdir -p d1;`)
                    self._failed = _blocked(folders[0]) and self._fails_here(False, op)
                    return
                sure = False
                block.made.discard(folders)
                continue
            if head == "mkdir" and (parents or all(self._there(os.path.dirname(f), block, r)
                                                   for r, f in enumerate(folders))):
                # without -p, one there already fails (bash 5.2: `set -e` stops at `mkdir ./d0` a run before left)
                parent = tuple(map(os.path.dirname, folders))
                fresh = parents or any(all(x == f or f.startswith(x.rstrip("/") + "/") for x, f in zip(g, folders))
                                       for g in block.gone) or parent in block.empty and not any(
                    glob_match(os.path.basename(f), n) for names in block.filled.get(parent, ())
                    for f, n in ((f, n) for r, f in enumerate(folders) for n in names[r]))
                if not fresh and self.errexit and op not in ("&&", "||"):
                    self._stops = f"(`{text[words[0].start:words[-1].end]}` stops the shell under set -e where the " \
                        "folder is there already: left by a run before, or made or copied by the launcher)"
                    return
                block.made.add(folders)
                block.gone.discard(folders)
                if not parents:
                    block.empty.add(folders)
                    block.filled.pop(folders, None)
                sure = sure and fresh
            else:
                sure = False
                block.made = {m for m in block.made
                              if not all(x == f or x.startswith(f.rstrip("/") + "/") for x, f in zip(m, folders))}
                block.empty = {m for m in block.empty
                               if not all(x == f or x.startswith(f.rstrip("/") + "/") for x, f in zip(m, folders))}
                if head == "rm" and recursive:
                    block.gone.add(folders)
        self._made_sure = sure

    def _may_make(self, dirs: Tuple[str, ...]) -> Optional[Tuple[str, str, int]]:
        """The `mkdir` in a loop that may make one of these folders (may_make), where it is neither in the tree nor
        made by a command the walk followed (bash 5.2: `for i in 0 1; do mkdir -p ./d$i; done; cd ./d2` failed, and
        so did `cd ./d1` after a loop whose body stepped i too): None where each is there."""
        from ..source.observed import note      # recorded: a cached check depends on what is found here
        for d in dirs:
            made = next((m for m in self.may_make if glob_match(d, m[0])), None)
            if made is not None and d not in self.made_dirs and note(d)[0] != "dir":
                return made
        return None

    def _filled(self, words: List[Word], texts, bases: Optional[Tuple[str, ...]], block: _Block) -> bool:
        """`cp ../*.py ./d$i`, `cp -r ../src ./d$i` into a folder the round made empty: the names it may put there
        (its sources' last parts, as globs), round by round, so a later `mkdir ./d$i/ckpt` is still known to make a
        new folder (pafnucy's launcher, under set -e). False where the copy is not followed so."""
        paths = [t or tuple(w.text for _ in bases or ()) for w, t in zip(words[1:], texts[1:])
                 if not w.text.startswith("-")]
        if bases is None or len(paths) < 2:
            return False
        dest = tuple(os.path.normpath(os.path.join(base, p)) for base, p in zip(bases, paths[-1]))
        if any(all(f == x or f.startswith(x.rstrip("/") + "/") for x, f in zip(g, dest)) for g in block.gone):
            return False
        if dest in block.empty:
            names = tuple(tuple(os.path.basename(p[r].rstrip("/")) for p in paths[:-1]) for r in range(len(dest)))
        elif tuple(map(os.path.dirname, dest)) in block.empty and len(paths) == 2:
            names, dest = tuple((os.path.basename(f),) for f in dest), tuple(map(os.path.dirname, dest))
        else:
            return False
        if any(n in ("", ".", "..") for each in names for n in each):
            return False                # (`cp -r ../src/. ./d$i` copies what src holds)
        block.filled.setdefault(dest, []).append(names)
        return True

    def _there(self, folder: str, block: _Block, r: int) -> bool:
        """Whether a folder is there in round r for a `mkdir` without -p to make one in it: in the tree, made by an
        unconditional `mkdir` before, or by the round (bash 5.2: `mkdir ./work/d0` without ./work fails, and so does
        the `cd` into it)."""
        from ..source.observed import note      # recorded: a cached check depends on what is found here
        return folder in self.made_dirs or any(m[r] == folder for m in block.made) or note(folder)[0] == "dir"

    def _round_folder(self, text: str, target: Word) -> Optional[Tuple[Tuple[str, ...], bool]]:
        """The folder `cd` goes to round by round, where each round's is one it made (`mkdir ./d$i` before it), and
        whether it is named by an absolute path."""
        block = self._round_block
        bases = self._round_bases()
        texts = self._per_round(text, target.start, target.end)
        if block is None or bases is None or texts is None:
            return None
        folders = tuple(os.path.normpath(os.path.join(base, t)) for base, t in zip(bases, texts))
        return (folders, os.path.isabs(texts[0])) if folders in block.made else None

    def _list_rounds(self, text: str, words) -> int:
        """The rounds of `for x in ${device_group}` (device_group="0 1 2 3 4 5 6 7", 71 zoo launchers): its words
        with their known values, split as bash splits them (0: not known: a value not known or empty, a glob)."""
        items = words[1:]
        if len(items) < 2 or text[items[1][0]:items[1][1]] != "in" or "IFS" in self.vars or "IFS" in self.exported:
            return 0                    # (fields() keeps a word whole where the launcher sets IFS: not bash's split)
        rounds = 0
        for a, b in items[2:]:
            if text[a:b] in (";", "do"):
                continue
            fields = self.fields(text, a, b)
            if any(not f.text or HOLE in f.text or any(c in f.text for c in "*?[") for f in fields):
                return 0
            rounds += len(fields)
        return rounds

    def _read_into(self, words, path: str, src) -> None:
        """`read [-options] NAME...` (bash 5.2's builtin): each NAME (REPLY where none is given; -a's array) holds
        what it reads, from its input (a file, a pipe, the terminal), which is not known here and is not the
        caller's words: marked COMPUTED (expand.py), as a command's output is."""
        names: List[Word] = []
        k = 0
        while k < len(words):
            t = words[k].text
            if t == "--":
                names.extend(words[k + 1:])
                break
            if t[:1] == "-" and len(t) > 1 and not names:
                taken = next((i for i, c in enumerate(t[1:]) if c in "adinNptu"), None)
                if taken is not None and t[1 + taken] == "a":       # (`-a NAME`, `-aNAME`: the array)
                    names.extend(words[k + 1:k + 2] if taken + 2 == len(t) else [])
                k += 2 if taken is not None and taken + 2 == len(t) else 1
                continue
            names.append(words[k])
            k += 1
        for w in names or [Word(StrValue("REPLY", [], 0, 0, origin="shell"), 0, 0)]:
            if not _NAME.fullmatch(w.text):
                continue
            kept = w.text in self.exported
            s = Setting(HOLE, path, src.position(w.start)[0] if w.end else 0, w.start, "export" if kept else "plain",
                        computed=True)
            self.vars[w.text] = s
            if kept:
                self.exported[w.text] = s
            self._changed(w.text)

    def _computed_list(self, text: str, at: int) -> bool:
        """Whether the list of a `for NAME in LIST` loop whose name ends at `at` holds what the launcher computes (a
        command's output, `$?`, a variable set to one: expand.COMPUTED), so that its variable does too."""
        m = _FOR_LIST.match(text, at)
        if m is None:
            return False
        listed = m.group(1)
        return "$(" in listed or "`" in listed or self.expand(text, m.start(1), m.end(1)).origin == COMPUTED

    def _loop_variable(self, name: str, path: str, line: int, start: int, computed: bool = False) -> None:
        """A `for` loop the walk reads once for all its rounds: its variable holds each round's value in the body and
        the last one after it (bash 5.2: `i=5; for i in 0 1; do :; done; echo $i` prints 1), not the value it had
        before; an exported one stays exported with it (`export R=5; for R in 0 1; do env; done`: R=0, then R=1).
        computed: its list holds what the launcher computes (`for x in $(cat f)`): so does the variable, set or not
        before the loop (not the caller's words)."""
        if computed and name not in self.vars and name not in self.exported:
            self.vars[name] = Setting(HOLE, path, line, start, "plain", computed=True)
        for table in (self.vars, self.exported):
            s = table.get(name)
            if s is not None:
                table[name] = Setting(HOLE, path, line, start, s.how, computed=computed)
        if name in self.exported:
            self._changed(name)

    def _looped(self, name: str) -> bool:
        """Whether a variable holds the value _loop_variable gave it (each round's of the loop that set it last)."""
        s = self.vars.get(name) or self.exported.get(name)
        return s is not None and s.value == HOLE and (s.path, s.line) == self.loop_vars.get(name)

    def _loop_began(self, block: _Block, path: str, line: int) -> None:
        block.dirs, block.at = self.dirs, (path, line)

    def _moved_in_loop(self, loop: _Block) -> None:
        """A loop whose body ends in another directory than it began in: the walk read the body once, but each round
        starts where the one before left it (bash 5.2: `for i in 1 2 3; do cd ..; done` goes up three times). What ran
        before a `cd` to an absolute directory in the body, and where the loop leaves the shell unless such a `cd` is
        in it, are not known (one round only, `for i in 0`, is what the walk read)."""
        if loop.kind == "for" and loop.ranks == 1 and not loop.broken:
            return
        path, line = loop.at
        why = f"the loop at {rel_path(path, self.root)}:{line} changes the directory, and the walk reads its body " \
              "once: each round starts where the one before left it"
        for i in range(loop.first, loop.anchor if loop.anchor >= 0 else loop.end):
            c = self.commands[i]
            if c.cwd:
                self.commands[i] = c._replace(cwd=(), lost=why, rounds=None)
        if loop.anchor < 0:
            self.dirs, self.lost = (), why

    def _lost_why(self, text: str, src, head: str, target, conditional: bool) -> str:
        """Which part of a `cd` makes the directory unknown: its branch, a variable from the caller, a command's
        output."""
        raw = text[target.start:target.end] if target is not None else ""
        where = f"{rel_path(self.current, self.root)}:{src.position(target.start if target else 0)[0]}"
        shown = f"`{head}{' ' + raw if raw else ''}` at {where}"
        if conditional:
            return f"{shown} is in a branch, loop or function that may not run"
        if target is None:
            return f"{shown} goes to $HOME, which is not known here"
        if target.text == "-":
            return f"{shown} goes back to a directory not followed here"
        names = [n for n in dict.fromkeys(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9])", raw) if "$" in raw else ())
                 if self._value(n) is None or HOLE in (self._value(n) or "")]
        if names:
            unset = [n for n in names if self._value(n) is None and n not in self.loop_vars]
            parts = [f"{', '.join('$' + n for n in unset)} not known here (not set by the launcher; the caller's)"] \
                if unset else []
            # a loop's variable: unset before the loop, or given each round's value by it (_loop_variable)
            looped = [n for n in names if n in self.loop_vars and (self._value(n) is None or self._looped(n))]
            for n in looped:
                at_path, at_line = self.loop_vars[n]
                ends = self.loop_ends.get((at_path, at_line))
                kind = self.loop_heads.get((at_path, at_line), "for")
                parts.append(f"${n} not known here (the variable of the `{kind}` loop at "
                             f"{rel_path(at_path, self.root)}:{at_line}: each round's value, the last one after it)" +
                             (f", and {ends}" if ends else ""))
            for n in names:
                # set here, from a value not known (UNet3D: a loop's `$device_index`)
                if n not in unset and n not in looped and self._value(n) is not None:
                    s = self.vars.get(n) or self.exported.get(n)
                    at = f" at {rel_path(s.path, self.root)}:{s.line}" if s is not None else ""
                    parts.append(f"${n} not known here (set{at} from a value not known statically)")
            return f"{shown}: {'; '.join(parts)}"
        # mindrlhf's `cd ${ROOT_PATH}/device$[i]`: not a command's output; with both, either may be the unknown part
        # (`$(dirname $0)` is known here, `$((1+1))` too)
        arithmetic, command = re.search(r"\$\[|\$\(\(", raw), re.search(r"\$\((?!\()|`", raw)
        if arithmetic:
            return f"{shown}: {'the output of a command or ' if command else ''}an arithmetic expansion in it is not " \
                "known statically"
        return f"{shown}: the output of a command in it is not known statically"

    def _arguments(self, text: str, words, child: "Word") -> Optional[List[str]]:
        """The arguments a child script is given (the words after it, redirections left out: one each, a value not
        known here kept as such, `$i` of a loop); None when how many there are is not known (`"$@"` of a launcher whose
        arguments are not known)."""
        at = next(i for i, w in enumerate(words) if w is child)
        out = []
        for w in without_redirections(words[at + 1:]):
            if self.args is None and text[w.start:w.end] in _ALL_ARGS:
                return None
            out.append(w.text)
        return out

    def _export(self, text, src, path, spans, head, conditional) -> None:
        flags = "".join(text[a + 1:b] for a, b in spans if text[a] == "-")
        plus = "".join(text[a + 1:b] for a, b in spans if text[a] == "+")
        if head == "export" and "n" in flags or head != "export" and "x" in plus:
            self._unexport(text, src, path, spans, head, conditional)
            return
        exporting = head == "export" or "x" in flags
        for a, b in spans:
            if text[a] == "-":
                continue
            m = _ASSIGN.match(text, a, b)
            line = src.position(a)[0]
            if m:
                name = m.group(1)
                self._assumed = False
                value = self.assigned(text, m.end(), b)
                new = self._appended(name, value.text) if m.group(2) else value.text
                # `declare X=v` of an exported X changes what is exported: the attribute stays
                kept = exporting or name in self.exported
                s = Setting(HOLE if conditional else new, path, line, a, "export" if kept else "plain",
                            () if m.group(2) else tuple(value.runs), self._assumed, value.origin == COMPUTED or bool(
                                m.group(2) and name in self.vars and self.vars[name].computed))
                self.vars[name] = s
                if kept:
                    self.exported[name] = s
                if self._round_block is not None and not conditional and not m.group(2):
                    self._round_set(name, text, m.end(), b)
                self._changed(name)
            elif exporting and _NAME.fullmatch(text[a:b]):
                name = text[a:b]
                if name in self.vars:
                    self.exported[name] = self.vars[name]._replace(how="export")
                    self._changed(name)

    def _unexport(self, text, src, path, spans, head, conditional) -> None:
        """`export -n NAME`, `declare +x NAME[=v]`: a shell variable again, not exported, whatever the caller's
        environment held (bash 5.2: `export P=1; declare +x P; env` shows no P; a later plain `P=z` is not exported
        either). Where it is certain, the log says no command gets it and `unexports` says why."""
        how = f"`{head} {text[spans[0][0]:spans[-1][1]]}`"
        for a, b in spans:
            if text[a] in "-+":
                continue
            m = _ASSIGN.match(text, a, b)
            name = m.group(1) if m else text[a:b]
            if not _NAME.fullmatch(name):
                continue
            if conditional:
                self._unknown_value(name)
                self._changed(name)
                continue
            self.exported.pop(name, None)
            if m:
                value = self.assigned(text, m.end(), b)
                self.vars[name] = Setting(self._appended(name, value.text) if m.group(2) else value.text, path,
                                          src.position(a)[0], a, "not exported",
                                          () if m.group(2) else tuple(value.runs), False, value.origin == COMPUTED)
            elif name in self.vars:
                self.vars[name] = self.vars[name]._replace(how="not exported")
            else:
                continue            # (an unset name: bash gives it the attribute alone; nothing to see)
            self._unexported_by[name] = f"{how} at {rel_path(path, self.root)}:{src.position(a)[0]}"
            self.unexports[len(self.log)] = self._unexported_by[name]
            self._changed(name)

    def _appended(self, name: str, more: str) -> str:
        """`X+=more`: X's value (empty when unset) with more after it; unknown when X's value is."""
        s = self.vars.get(name) or self.exported.get(name)
        if s is None:
            return more
        return HOLE if s.value is None or HOLE in s.value else s.value + more


# what bash would read again in an eval'd text: quoting, expansions, operators, assignments, comments, `~`. A glob
# (`--profile_rank_ids [0,8]`) is taken as written, as the walk takes it in any command (the two patterns are
# compiled where an eval is first met, not at import)
_EVAL_SYNTAX = r"""["'`$\\;&|<>(){}~#=]"""


_EVAL_VARIABLE = r'"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?'


# `${A:=word}`, `${A=word}`: a value the expansion may assign
_ASSIGN_DEFAULT = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?=")

# what may turn set -e off unseen: `+e`, `+o`, set or eval of a value, a script on stdin (_e_may_go_off; `set` and
# `eval` as whole words, each after a character that is no word's: a pattern whose branches each begin with a
# character is searched at those characters alone, one that begins with `\b` is tried at every character)
_E_OFF = re.compile(r"\+[A-Za-z]*e|\+o|set(?<!\wset)\s+[\"']?\$|eval(?<!\weval)\s+[\"']?\$|/dev/stdin|/dev/fd/")


# ... a DEBUG or RETURN trap: the name of one, where a `trap`, an eval or a command named by a value may set it (this
# and the shopt patterns below: compiled where a file first names DEBUG, RETURN or shopt)
_TRAPPED = r"\bDEBUG\b|\bRETURN\b"
_TRAP_BY = r"(?m)\btrap\b|\beval\b|(?:^|[;&|({]|\b(?:then|do|else|time|command|builtin)\b)[ \t]*[\"']?\$"


# ... shopt, unless each `shopt` in the file is of options named as written without -o (bash 5.2: none of its 57
# options, set or unset, kept set -e from stopping at a failing mkdir; `shopt -uo errexit` turns it off)
_SHOPT = r"\bshopt\b"
_SHOPT_PLAIN = r"(?m)shopt(?:[ \t]+(?:-[supq]+|[a-z_]+))*[ \t]*(?:$|[;&|)#])"


def _e_first(text: str) -> int:
    """Where in a file _e_may_go_off's first cause is (0 where a trap or shopt may be one: anywhere)."""
    found = _E_OFF.search(text)
    return 0 if found is None or "DEBUG" in text or "RETURN" in text or "shopt" in text else found.start()


def _e_may_go_off(text: str) -> bool:
    """Whether a file may turn set -e off where the walk does not see it (Walk._e_doubt)."""
    if _E_OFF.search(text) or ("DEBUG" in text or "RETURN" in text) and compiled(_TRAPPED).search(text) and \
            compiled(_TRAP_BY).search(text):
        return True
    return "shopt" in text and any(not compiled(_SHOPT_PLAIN).match(text, m.start())
                                   for m in compiled(_SHOPT).finditer(text))


def _split_at(value: str, ifs: str) -> List[str]:
    """The fields of an argument `$@` unquoted gives: split at IFS (bash 5.2: `IFS=,; set -- "p,q" r; f $@` gives p,
    q, r)."""
    if ifs == " \t\n":
        return _ifs_fields(value)
    return [value[a:b] for a, b in ifs_split(value, {t for t, c in enumerate(value) if c in ifs}, ifs)]


def _ifs_fields(value: str) -> List[str]:
    """The fields bash's default IFS (space, tab, line break) splits a value into: none for an empty one."""
    return [f for f in re.split(r"[ \t\n]+", value) if f]


def _after_substituted(text: str, lexed: list, k: int) -> bool:
    """Whether a process substitution (`cat <(mkdir -p d1)`, `tee >(...)`) opens at or before lexed[k]: the walk
    reads its commands as this shell's, where bash 5.2 runs them apart (set -e stops nothing there)."""
    return any(op == "(" and words and text[words[-1][0]:words[-1][1]].endswith(("<", ">"))
               for words, op, _ in lexed[:k + 1])


_NEGATED = frozenset({"if", "{", "while", "until", "for", "case", "select"})     # (`! if`: its compound opens)


# the words that lead a command without starting it (`then if ...`: the `if` opens a compound)
_LEADING = frozenset({"then", "else", "do", "{", "!"})


def _redirected(words) -> bool:
    return any(">" in w.text or "<" in w.text for w in words)


def _taken_alone(text: str, blocks, lexed: list, k: int, own: Tuple[str, ...] = ()) -> bool:
    """Whether set -e acts on a command in these compounds (and, `own`, the closing words of the one lexed[k] opens):
    each an `if` whose branch certainly runs, a `{ group; }` or `( subshell )`, not after && or || nor piped, that
    closes its command (bash 5.2 ran on after `if true; then mkdir -p d1; fi || true`, `{ mkdir -p d1; } || true`,
    `case a in a) mkdir -p d1;; esac | cat`: set -e is ignored in a compound whose status is tested)."""
    closers = list(own)
    for b in reversed(blocks):
        if b.kind == "if" and b.state == "take" and b.alone:
            closers.append("fi")
        elif b.kind in ("group", "subshell") and b.state != "tested":
            closers.append(")" if b.kind == "subshell" else "}")
        elif _first_round(b):
            closers.append("done")
        else:
            return False
    return _closed_alone(text, lexed, k, closers)


_CLOSERS = {"if": "fi", "case": "esac", "for": "done", "while": "done", "until": "done", "select": "done", "{": "}"}


def _closed_alone(text: str, lexed: list, k: int, closers: List[str]) -> bool:
    """Whether the compounds open at lexed[k], innermost first, close with these words (`fi`, `}`, `)`, ...) each
    ending its command: then `;` or a line break, not `fi || true`, `} | tee`, `) &`, `done >log` (a redirection may
    fail). The closers are found by the compounds opened and closed after lexed[k]; any other order is not sure."""
    inner: List[str] = []                   # the compounds opened after lexed[k], innermost last
    for i in range(k, len(lexed)):
        words, op, _ = lexed[i]
        if i == k:
            words = []                      # (its own `)` may close a subshell: `( mkdir -p d1 )`)
            if op != ")":
                continue
        if not words and i > k:
            if op == "(":
                inner.append(")")
            continue
        heads = [text[a:b] for a, b in words[:8]]
        j = 0
        while j < len(heads) and heads[j] in _LEADING:
            if heads[j] == "{":
                inner.append("}")
            j += 1
        head = heads[j] if j < len(heads) else ""
        if head in _CLOSERS and head != "{":
            inner.append(_CLOSERS[head])
        closing = head if head in ("fi", "esac", "done", "}") else ""
        if op == ")":
            if closing:
                return False                # (`fi)`: not read here)
            closing = ")"
        if not closing:
            continue
        if inner:
            if inner.pop() != closing:
                return False
            continue
        if closing != closers[0]:
            return False
        if closing == ")":
            # after `)`, what follows it: an operator (`) || true`) comes as a command with no words
            after = lexed[i + 1] if i + 1 < len(lexed) else None
            if after is not None and not after[0] and after[1] in ("&&", "||", "|", "&"):
                return False
        elif op not in (";", "\n") or len(words) > 1 and \
                not compiled(_QUIET).fullmatch(text, words[0][1], words[-1][1]):
            return False
        closers = closers[1:]
        if not closers:
            return True
    return False


# redirections that cannot fail: to /dev/null, or a copy of an open descriptor (`} 2>/dev/null`, `done >/dev/null 2>&1`;
# bash 5.2 stopped under set -e at `{ mkdir -p d1; } 2>/dev/null`, the group's status being the mkdir's) (this and the
# mkdir patterns below: compiled where first asked)
_QUIET = r"(?:[ \t]*(?:[0-2]?>>?|&>>?)[ \t]*(?:/dev/null|&[0-2]))+[ \t]*"


# `$(mkdir -p d1)` or `` `mkdir d1` `` of words written out, the whole substitution (_substituted_mkdir)
_MKDIR_SUBST = r"(?:\$\(|`)[ \t]*(?:mkdir((?:[ \t]+[\w./+-]+)+)|([A-Za-z_][\w]*))[ \t]*(?:\)|`)"


# ... after `f`, a body that is a subshell of it alone (`f() ( mkdir -p d1 )`)
_SUBSHELL_MKDIR = r"(?m)[ \t]*\([ \t]*\)[ \t]*\([ \t]*mkdir((?:[ \t]+[\w./+-]+)+)[ \t]*;?[ \t]*\)[ \t]*(?:$|[;#])"


# a function's body that is one `mkdir` of words written out (`f() { mkdir -p d1; }`)
_MKDIR_BODY = r"\s*mkdir((?:[ \t]+[\w./+-]+)+)[ \t]*;?\s*"


# the builtins whose `NAME=value` words are assignments, not globbed
_DECLARING = frozenset({"export", "declare", "typeset", "local", "readonly"})


# the words that run the command after them, its status theirs: `command [-p] [--]`, bash's `time [-p]`
_RUNNERS = frozenset({"command", "time"})


def _behind(words: List[Word]) -> List[Word]:
    """The words of the command `command mkdir ...` or `time -p mkdir ...` runs ([] for `command -v x`: none)."""
    k = 0
    while k < len(words) and words[k].text in _RUNNERS:
        runner = words[k].text
        k += 1
        while k < len(words) and words[k].text in ("-p", "--" if runner == "command" else "-p"):
            k += 1
        if k < len(words) and words[k].text.startswith("-"):
            return []           # (`command -v`, `command -V`: a description, nothing run)
    return words[k:]


def _run_by(text: str, spans) -> str:
    """The name of the command _behind runs, from the words as written."""
    words = [Word(StrValue(text[a:b], [], a, b), a, b) for a, b in spans[:6]]
    run = _behind(words)
    return run[0].text if run else ""


def _first_round(b: _Block) -> bool:
    """Whether a loop certainly runs its first round up to the command walked: a `for` of a known number of rounds,
    one or more, not cut short before it (`break`, `continue`), not after && or || nor piped."""
    return b.kind == "for" and b.ranks > 0 and not b.broken and b.alone and b.state != "skip"


def _and_above(folder: str) -> List[str]:
    """A folder and each folder above it."""
    out = [folder]
    while os.path.dirname(out[-1]) != out[-1]:
        out.append(os.path.dirname(out[-1]))
    return out


def as_written(folder: str, name: str, made) -> Optional[str]:
    """The file a relative path names from a folder, through a folder the walk made (`../train.py` from ./d, or
    `d/../train.py`, after `mkdir ./d`), as bash opens it: a made folder's `..` is the folder it was made in (a link's
    is its target's parent). None where a folder on the way is neither in the tree nor made, or the file is not
    there."""
    from ..source.observed import isfile     # recorded: a cached check depends on what is found here
    parts = name.split("/")
    for part in parts[:-1]:
        if not made_folder(folder, made):
            return None
        if part == "..":
            folder = os.path.dirname(os.path.realpath(folder) if os.path.islink(folder) else folder)
        elif part not in ("", "."):
            folder = os.path.join(folder, part)
    path = os.path.normpath(os.path.join(folder, parts[-1]))
    return path if isfile(path) else None


def _blocked(folder: str) -> bool:
    """Whether something not a folder is at folder or at one of the folders above it up to the first one there (in
    the tree the walk reads): `mkdir -p` of it fails."""
    from ..source.observed import note      # recorded: a cached check depends on what is found here
    while True:
        kind = note(folder)[0]
        if kind != "missing":
            return kind != "dir"
        up = os.path.dirname(folder)
        if up == folder:
            return False
        folder = up


def _evaluated(words: List[Word], value: Optional[str] = None) -> List[Word]:
    """`eval $CMD` (mindformers' msrun_launcher.sh builds its msrun line in a string): bash joins the words with
    spaces and runs the text as a command. Followed where that text is plain words alone, which bash splits at blanks
    (the words as eval's arguments span them); anything it would read again stays an `eval` the walk does not see
    into. A part not known statically (`--log_dir=$UNSET`) stays one word, as it does in any command."""
    rest = words[1:]
    if not rest:
        return words
    text = value if value is not None else " ".join(w.text for w in rest)
    parts = text.split()
    syntax = re.compile(_EVAL_SYNTAX)
    if not parts or HOLE in parts[0] or syntax.search(parts[0]) or \
            any(syntax.search(p.replace("=", "")) for p in parts):
        return words
    a, b = rest[0].start, rest[-1].end
    return [Word(StrValue(p, [], a, b, origin="shell"), a, b) for p in parts]


# the open blocks asked about at every command inside one (plain loops: a generator for each cost more than the test)
def _dead(blocks) -> Optional[_Block]:
    """The innermost open block an exit ended (nothing runs in it after that)."""
    for b in reversed(blocks):
        if b.exit is not None:
            return b
    return None


def _skipping(blocks) -> bool:
    """Whether a branch that certainly does not run is open."""
    for b in blocks:
        if b.state == "skip" or b.state == "done":
            return True
    return False


def _plain(blocks) -> bool:
    """Whether only `if`s whose branch certainly runs are open (no loop, function, subshell)."""
    for b in blocks:
        if b.kind != "if" or b.state != "take":
            return False
    return True


def _maybe(blocks) -> bool:
    """Whether a compound whose commands may not run is open."""
    for b in blocks:
        if b.kind in _MAYBE and b.state != "take":
            return True
    return False


def _apart(blocks) -> bool:
    """Whether the command is in a subshell of the innermost loop's body (an `exit` there ends that subshell alone)."""
    for b in reversed(blocks):
        if b.kind in _LOOPS:
            return False
        if b.apart:
            return True
    return False


def _round_loop(blocks) -> Optional[_Block]:
    """The counted loop whose rounds' values a command may use: the innermost block, or the loop a `{ group; }` or
    `( subshell )` of its body is in (E-NET's `{ mkdir ./log$i; cd ./log$i; python ...; cd ../; } &`, each round's
    group run in the background: bash 5.2 ran it in log0 ... log7)."""
    for b in reversed(blocks):
        if b.kind != "group" and b.kind != "subshell":
            return b if b.values else None
    return None


def _status_only(text: str, words) -> bool:
    """Whether a test reads no value but `$?`: one after a command run with `&` is the same in every round of a loop."""
    body = text[words[0][0]:words[-1][1]] if words else ""
    return body.count("$") == body.count("$?") and "`" not in body


def _decidable(blocks) -> bool:
    """Whether an `if` here can be decided by the values known: not inside a loop walked once for all its rounds, nor a
    function's body (walked where it is defined, with the values there)."""
    return not any(b.kind in _LOOPS or b.kind in ("function", "subshell?", "group?") for b in blocks)


def _condition(text: str, lexed: list, k: int) -> str:
    """The condition of the `if`/`elif` that heads lexed[k], as written: its and-or list whole (Compounds._tests)."""
    words, op, _ = lexed[k]
    start, end = words[1][0], words[-1][1]
    while op in ("&&", "||") and k + 1 < len(lexed) and lexed[k + 1][0]:
        k += 1
        words, op, _ = lexed[k]
        end = words[-1][1]
    return text[start:end]
