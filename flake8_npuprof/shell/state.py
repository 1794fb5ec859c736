"""What the interpreter keeps of a launcher: its bounds, a variable's setting and where it was made, each simple
command as the walk met it (words, environment, directory, ranks, conditions, how a failure ends it), the lazily
built environment a command sees, and the open compounds of a walk."""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Callable, Dict, FrozenSet, List, Mapping, NamedTuple, Optional, Set, Tuple, Union

from ..source.files import rel_path
from .words import MAX_LAUNCHER
from ..source.text import Run, SourceText, StrValue
from ..values.launch_args import Word

MAX_SOURCED = 8                 # nested `source` depth
MAX_BYTES = MAX_LAUNCHER        # a launcher or sourced script larger than this is not read
MAX_COMMANDS = 5000             # simple commands walked per launcher (sourced files included)
# words of the commands walked per launcher: more than a launcher of MAX_BYTES can write, reached only where
# expansions multiply them (`"$@"` in a loop over the arguments, `$X` of many words written many times)
MAX_WORDS = 200_000
MAX_SUBSTITUTIONS = 4           # `$(dirname $(readlink -f $0))`: nested command substitutions evaluated
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")     # `X=v`, and `X+=v`, which appends
# open compounds whose commands may not run ("group?"/"subshell?": one after `&&` or `||`)
_MAYBE = frozenset({"if", "while", "until", "case", "select", "function", "group?", "subshell?"})
_LOOPS = frozenset({"for", "while", "until", "select"})
_ALL_ARGS = frozenset({'"$@"', "$@", "$*", '"${@}"', "${@}", "${*}"})     # every argument, a word each


class _Block:
    """An open compound of the walk: if/case/loop/function, `{ group; }` or `( subshell )`."""

    __slots__ = ("kind", "ranks", "first", "end", "saved", "exit", "broken", "state", "bounds", "dirs", "anchor", "at",
                 "held", "name", "values", "known", "made", "later", "gone", "empty", "filled", "apart", "alone",
                 "opened")

    def __init__(self, kind: str, ranks: int, first: int, saved: Optional[tuple] = None, state: str = ""):
        self.kind, self.ranks, self.first, self.end, self.saved = kind, ranks, first, first, saved
        self.exit: Optional[Tuple[str, int, str]] = None   # (file, line, code) of the exit that ended it
        self.broken = False             # a loop with `break`/`continue`: how often it runs is not known
        # an `if` whose conditions are known: "take" its branch runs, "skip" it does not, "done" an earlier one ran
        self.state = state
        self.alone = False              # an `if` not after && or || nor piped: its own status is set -e's
        self.bounds: Dict[str, Optional[Setting]] = {}     # a `for ((...))` bound's parameters, as the loop began
        # an `if` whose branch being walked was decided: (file, line, `if`/`elif` and its condition as written, or
        # `else`) of the branch: what made an exit in it end its shell (Walk.end_branches)
        self.held: Optional[Tuple[str, int, str]] = None
        # a loop (its body walked once for all rounds): the directory as it began, the first command after a `cd` to an
        # absolute directory in its body (-1: none yet), and where it is (file, line)
        self.dirs: Tuple[str, ...] = ()
        self.anchor = -1
        self.at: Tuple[str, int] = ("", 0)
        # a counted `for` loop whose variable's value in each round is known (Walk._round_values): the variable and
        # those values, the variables its body sets from them (name -> (the Setting made, its value in each round)),
        # and the folders its body makes in every round, each as its paths round by round (the body is read once)
        self.name = ""
        self.values: Tuple[str, ...] = ()
        self.known: Dict[str, Tuple[Optional["Setting"], Tuple[str, ...]]] = {}
        self.made: Set[Tuple[str, ...]] = set()
        # the variables its body sets, each with where: a word before it reads the one a round before set, from round 2
        self.later: List[Tuple[str, int]] = []
        # the folders (round by round) certainly not there (`rm -rf ./d$i`: nor anything in them) and those certainly
        # empty (made by a `mkdir` without -p, which fails on one there): where a `mkdir` without -p cannot fail
        self.gone: Set[Tuple[str, ...]] = set()
        self.empty: Set[Tuple[str, ...]] = set()
        # ... and what a `cp` put in such a folder since: its entries' names (globs) round by round, each copy's
        self.filled: Dict[Tuple[str, ...], List[Tuple[Tuple[str, ...], ...]]] = {}
        self.apart = False      # a subshell, or a group run as one (`{ ...; } &`): an `exit` in it ends it alone
        # where it began, for its redirections (Walk._opening): the directory, the folders made, whether set -e acts on
        # it there, whether it is in a loop or after a `|`
        self.opened: Optional[Tuple[Tuple[str, ...], frozenset, bool, bool, bool]] = None


class Setting(NamedTuple):
    """One variable of the launch's environment and where it was set."""
    value: str                  # HOLE inside when not fully known
    path: str
    line: int
    start: int                  # offset of the name in that file
    how: str                    # "export", "inline", "set -a", "plain"
    runs: Tuple[Run, ...] = ()  # where the value's characters are in that file
    assumed: bool = False       # built from `$(pwd)` before the directory is known: the launcher's own, assumed
    computed: bool = False      # a part not known here is the launcher's computing (expand.COMPUTED), not the caller's

    def where(self, root: str) -> str:
        return f"{rel_path(self.path, root)}:{self.line}"


class Rounds(NamedTuple):
    """Where a command of a counted loop's body runs when that is a folder the round made (`mkdir ./d$i; cd ./d$i`):
    another one each round. The command's cwd is the first round's."""
    path: str                   # the loop's file and line
    line: int
    name: str                   # its variable, and its value in each round
    values: Tuple[str, ...]
    dirs: Tuple[str, ...]       # the folder the command runs in, round by round


class Command(NamedTuple):
    """One simple command as the walk met it."""
    words: Tuple[Word, ...]
    path: str                   # the file it is in (a sourced script, or the launcher)
    line: int
    column: int
    env: Mapping                # exported environment for this command (inline assignments included): EnvView
    cwd: Tuple[str, ...]        # where it may run (one entry once known; empty: not known)
    ranks: int                  # started this many times (per-rank loops, mpirun -np, torchrun)
    conditional: bool           # inside if/case/while or a function: may not run
    background: bool = False    # `cmd &`: the launcher goes on without waiting for it
    errexit: bool = False       # `set -e` is on: a failure stops its shell here (frames: how far that reaches)
    chained: bool = False       # `cmd && next`: a failure skips the next command
    settled: bool = True        # cwd is given (--cwd) or set by the launcher's `cd`, not taken as its own directory
    via: Tuple[Tuple[str, str, int], ...] = ()     # the shell scripts run on the way to it: (file, from file, line)
    seq: int = -1               # its place among the walk's commands (a child run twice has the same lines twice)
    # the child shells it runs in, outermost first: (one id per run of a child, whether a failure that stops that
    # child stops its caller too: the caller has `set -e` and runs it neither in the background nor before && / ||)
    frames: Tuple[Tuple[int, bool], ...] = ()
    lost: str = ""              # cwd not known: the `cd` that lost it and which part of it is not known
    under: Optional["Command"] = None   # the msprof command whose application (a shell script) runs this one
    rounds: Optional[Rounds] = None     # cwd is the first round's of folders a loop makes, one a round
    made: FrozenSet[str] = frozenset()  # the folders the walk made and the tree lacks (Walk.made_here), when met
    may_end: str = ""           # "file:line" of an `exit` in a branch before it, which may end its shell first


class EnvView(Mapping):
    """A command's environment, built when it is first read: the walk's changes up to the command, then
    the command's own inline assignments. Copying the environment into every command made a launcher of
    N exports and N commands cost N^2; most commands' environments are never read."""

    def __init__(self, log: List[Tuple[str, Optional[Setting]]], upto: int, inline: Dict[str, Setting]):
        self._log, self._upto, self._inline = log, upto, inline
        self._env: Optional[Dict[str, Setting]] = None

    def _built(self) -> Dict[str, Setting]:
        if self._env is None:
            env: Dict[str, Setting] = {}
            for name, setting in itertools.islice(self._log, self._upto):
                if setting is None:
                    env.pop(name, None)
                else:
                    env[name] = setting
            env.update(self._inline)
            self._env = env
            self._log = []
        return self._env

    @property
    def at(self) -> int:
        """How many of the walk's changes (Walk.log) the command sees: those made before it."""
        return self._upto

    def __getitem__(self, name: str) -> Setting:
        return self._built()[name]

    def __iter__(self):
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())

    def __repr__(self) -> str:
        return f"EnvView({self._built()!r})"




class WalkState:
    """What the walk's parts share: walk.py's Walk sets it, expand.py's Expander and control.py's Compounds read and
    change it. Declared here (annotations only: nothing at run time) so each part is type-checked on its own."""

    launcher: str
    root: str
    dirs: Tuple[str, ...]
    settled: bool
    errexit: bool
    pipefail: bool
    all_export: bool
    vars: Dict[str, Setting]
    exported: Dict[str, Setting]
    commands: List[Command]
    current: str
    script: str
    args: Optional[List[str]]
    ended: bool
    exited: Optional[Tuple[str, int]]
    child_end: Optional[Tuple[str, int]]
    exit_code: str
    parsed: List[Tuple[str, str, int]]
    # name -> (file, text, its SourceText, body start, body end)
    functions: Dict[str, Tuple[str, str, SourceText, int, int]]
    _chain: Tuple[str, ...]
    _assumed: bool
    _computed: bool
    _nested: int
    _called: Set[str]
    _calling: List[str]
    _local_saved: Dict[str, tuple]
    _acts: List[Union[bool, Callable[[], bool]]]
    _returned: bool
    _loop: Optional[str]
    _background: bool
    rounds: Optional[Rounds]
    loop_ends: Dict[Tuple[str, int], str]
    makers: list            # shell/redirects.Maker: the commands met that may make a folder

    if TYPE_CHECKING:
        @property
        def cwd(self) -> Optional[str]: ...

        def _changed(self, name: str) -> None: ...

        def _unknown_value(self, name: str) -> None: ...

        def _statements(self, text: str, src: SourceText, path: str, depth: int, inside: bool, start: int = 0,
                        stop: Optional[int] = None) -> None: ...

        def expand(self, text: str, i: int, end: int) -> StrValue: ...

        def _known_there(self, path: str, folder: bool) -> bool: ...
