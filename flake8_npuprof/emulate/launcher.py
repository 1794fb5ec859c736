"""Shell launchers as entry points: what `bash run_1p.sh` starts, with which environment and flags.

The launcher is walked in order, as the shell would run it, without running anything: `export`
and inline assignments (`PROFILING_MODE=true python3 train.py`, `env A=b ...`), plain variables
and `set -a`, `source`/`.` of another script of the project, `cd`, and the command lines that
start Python (`python`/`python3`, `-m`, behind `nohup`/`taskset`/`mpirun`/`horovodrun`/`torchrun`/
`torch.distributed.launch`), also inside per-rank loops (`for i in $(seq 0 7)`, `for ((i=0;i<8;i++))`,
`for i in {0..7}`). Whatever the walk cannot know (a command substitution, a variable from the
caller, a branch of `if`/`case`) is a hole: an unknown script, directory or value is never guessed.

Each Launch keeps its command line (argv with the source range of every word) so other checks
(msprof command lines) can read it; `bind` ties the script's flags to the script's argparse / absl
definitions (its own, or a sibling module's through project.py), as the parser will read them.
"""

from __future__ import annotations

import collections
import itertools
import os
import re
import shlex
from typing import Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from ..source.shell_words import HEREDOC_TAG, MAX_LAUNCHER, add_run, heredoc_end
from ..source.text import HOLE, Run, SourceText, StrValue
from ..values.launch_args import Given, OPEN, Word
from .replay import _rel

MAX_SOURCED = 8                 # nested `source` depth
MAX_BYTES = MAX_LAUNCHER        # a launcher or sourced script larger than this is not read
MAX_COMMANDS = 5000             # simple commands walked per launcher (sourced files included)
MAX_LAUNCHES = 16               # Python command lines followed per launcher
MAX_SUBSTITUTIONS = 4           # `$(dirname $(readlink -f $0))`: nested command substitutions evaluated

PYTHON = re.compile(r"(?:.*/)?python(?:\d(?:\.\d+)?)?$")
WRAPPERS_WITH_SCRIPT = {"torchrun"}                         # start a .py themselves
PY_LAUNCH_MODULES = {"torch.distributed.launch", "torch.distributed.run", "horovod.runner.launch"}
PREFIXES = {"nohup", "exec", "time", "command", "builtin", "stdbuf", "nice", "ionice", "env", "sudo",
            "taskset", "numactl", "mpirun", "mpiexec", "horovodrun", "srun", "timeout"}
SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}
MSPROF_PY_MODES = {"import", "query", "export", "analyze"}      # the CANN toolkit's msprof.py, over collected data
_POSITIONAL = re.compile(r"\d+(?:\.\d+)?[smhd]?|0x[0-9a-fA-F]+")      # timeout's duration, taskset's mask
# a path to a shell script, parts of it maybe unknown (HOLE), not a word such as `echo"usage:./x.sh"`
_SCRIPT_PATH = re.compile(r"[\w./~+" + HOLE + r"-]*\.sh")
RANK_OPTIONS = {"-np": "mpirun", "-n": "mpirun", "--nproc_per_node": "torchrun", "--nproc-per-node": "torchrun"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")     # `X=v`, and `X+=v`, which appends
# `for ((i=0; i<8; i++))`: counted only with a step of one (`i++`, `++i`, `i+=1`, `i=i+1`)
_FOR_C = re.compile(r"for\s*\(\(\s*(\w+)\s*=\s*(\d+)\s*;\s*\1\s*(<=|<)\s*(\d+)\s*;\s*"
                    r"(?:\1\s*\+\+|\+\+\s*\1|\1\s*\+=\s*1|\1\s*=\s*\1\s*\+\s*1)\s*\)\)")
_OPERATORS = ("&&", "||", ";;", ";", "|", "&", "\n", "(", ")")
_AFTER_SUBSHELL = ("&&", "||", "|", "&")       # what a `( ... )` is followed by decides for its commands
# open compounds whose commands may not run ("group?"/"subshell?": one after `&&` or `||`)
_MAYBE = frozenset({"if", "while", "until", "case", "select", "function", "group?", "subshell?"})
_LOOPS = frozenset({"for", "while", "until", "select"})

_ALL_ARGS = frozenset({'"$@"', "$@", "$*", '"${@}"', "${@}", "${*}"})     # every argument, a word each
_PLAIN_WORD = re.compile(r"[^'\"\\$`]+")      # what expand copies as it is, outside double quotes
_PLAIN_QUOTED = re.compile(r'[^"\\$`]+')       # ... inside them


class _Block:
    """An open compound of the walk: if/case/loop/function, `{ group; }` or `( subshell )`."""

    __slots__ = ("kind", "ranks", "first", "end", "saved", "exit", "broken", "state")

    def __init__(self, kind: str, ranks: int, first: int, saved: Optional[tuple] = None, state: str = ""):
        self.kind, self.ranks, self.first, self.end, self.saved = kind, ranks, first, first, saved
        self.exit: Optional[Tuple[str, int, str]] = None   # (file, line, code) of the exit that ended it
        self.broken = False             # a loop with `break`/`continue`: how often it runs is not known
        # an `if` whose conditions are known: "take" its branch runs, "skip" it does not, "done" an earlier one ran
        self.state = state


class Setting(NamedTuple):
    """One variable of the launch's environment and where it was set."""
    value: str                  # HOLE inside when not fully known
    path: str
    line: int
    start: int                  # offset of the name in that file
    how: str                    # "export", "inline", "set -a", "plain"
    runs: Tuple[Run, ...] = ()  # where the value's characters are in that file
    assumed: bool = False       # built from `$(pwd)` before the directory is known: the launcher's own, assumed

    def where(self, root: str) -> str:
        return f"{_rel(self.path, root)}:{self.line}"


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

    def __getitem__(self, name: str) -> Setting:
        return self._built()[name]

    def __iter__(self):
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())

    def __repr__(self) -> str:
        return f"EnvView({self._built()!r})"


class Launch(NamedTuple):
    """A Python training script started by a launcher, or an application msprof starts."""
    command: Command
    script: str                 # absolute path of the script ("" when there is none, or it is not known)
    args: Tuple[Word, ...]      # the words after the script: its own flags
    wrapper: str                # "", "mpirun", "torchrun", ...
    ranks: int
    msprof: object = None       # MsprofRun when the script is msprof's application
    missing: str = ""           # why the script is not known ("cannot find train.py (looked in /a)")
    app: Tuple[str, ...] = ()   # msprof's application when it is not a Python script (a benchmark binary)


class MsprofRun(NamedTuple):
    """msprof starting the launch's script: `msprof [opts] python3 train.py` or `--application="..."`."""
    call: object                # msprof.Call
    word: Word                  # the word that runs msprof
    application: bool           # the script is named by --application (msprof then splits it at spaces)


# ---------------------------------------------------------------- the walk

def _within(path: str, root: str) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


class Walk:
    def __init__(self, launcher: str, cwd: Optional[str] = None, inside: Optional[str] = None,
                 args: Optional[Sequence[str]] = None):
        """inside: the project's root, when sourced scripts outside it must not be read (--no-outside); args: the
        launcher's arguments (`emulate LAUNCHER -- ARG...`), None when not known (check, the language server)."""
        self.launcher = os.path.abspath(launcher)
        self.inside = inside
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
        self.current = self.launcher    # the file being walked
        self.script = self.launcher     # what `$0` names
        self._calls = 0                 # runs of child scripts so far (Command.frames)
        self.log: List[Tuple[str, Optional[Setting]]] = []    # each change of what commands see (EnvView)
        self.stopped: Dict[str, Tuple[int, int, str]] = {}    # file -> (offset, line, why) where its walk stopped
        self.ended = False              # `exit` or `exec cmd` ended the shell being walked (and what sourced it)
        self.exited: Optional[Tuple[str, int]] = None     # (file, line) where the launcher's own shell ended
        self.exit_code = ""             # the code of the exit that ended a shell ("": not a literal one)
        self._stop_code = ""            # the code a command that ends this shell ends it with (exec, source, child)
        self.pipefail = False           # `set -o pipefail`: a pipeline fails when any of its commands does
        self.crlf: List[str] = []       # the walked files written with Windows line endings
        # the positional parameters `$1`..`$N` of the shell being walked (None: not known, e.g. the caller's)
        self.args: Optional[List[str]] = None if args is None else list(args)
        self._assumed = False           # an expansion used the assumed start directory (`$(pwd)` before a `cd`)
        self._nested = 0                # command substitutions being evaluated, one inside the other
        self.lost = ""                  # why the directory is not known (the `cd` that lost it), once it is not
        # functions defined in plain code: name -> (file, text, its SourceText, body start, body end), walked where
        # they are called (with their arguments as $1..), those never called once at the end as before (may run)
        self.functions: Dict[str, tuple] = {}
        self._called: set = set()
        self._calling: List[str] = []   # the functions being walked, outermost first
        self._returned = False          # a `return` ended the function being walked
        self._loop: Optional[str] = None    # in an evaluated loop's body: "" running, "break"/"continue" met
        self.dropped: list = []         # the profiling options it takes and drops (dropped_switches), for emulate
        self.parsed: List[Tuple[str, str, int]] = []  # (option pattern, file, offset) an argument matched

    def _changed(self, name: str) -> None:
        """Log what a command now sees of `name`: its export, or a PROFILING_* variable set without one
        (seen only if the caller exports it), or nothing."""
        s = self.exported.get(name)
        if s is None and name.startswith("PROFILING_") and name in self.vars:
            s = self.vars[name]._replace(how="set without export")
        self.log.append((name, s))

    @property
    def cwd(self) -> Optional[str]:
        """The current directory, for `$(pwd)` / `$PWD`: the given one (--cwd) or where the launcher's own `cd`s put
        it; before any `cd`, the launcher's own directory, where it is meant to be started (a value built from it
        is marked assumed, so a `cd` to it keeps the launch's note that the directory was taken as the launcher's)."""
        if len(self.dirs) != 1:
            return None
        if not self.settled:
            self._assumed = True
        return self.dirs[0]

    @staticmethod
    def find(name: str, dirs) -> Optional[str]:
        """The one file `name` is from these directories (None: in none, or in several different ones)."""
        from ..source.observed import isfile     # recorded: a cached check depends on what is found here
        found = {os.path.realpath(os.path.join(d, name)) for d in dirs if isfile(os.path.join(d, name))}
        return os.path.normpath(os.path.join(next(d for d in dirs if isfile(os.path.join(d, name))), name)) \
            if len(found) == 1 else None

    # ---- words

    def expand(self, text: str, i: int, end: int) -> StrValue:
        """Decode one shell word of text[i:end] with the variables known at this point."""
        parts: List[str] = []
        runs: List[Run] = []
        t = 0
        start = i

        def put(s: str, at: Optional[int] = None, slen: int = -1):
            nonlocal t
            if at is None:
                parts.append(s)
                t += len(s)
            else:
                t = add_run(parts, runs, t, s, at, len(s) if slen < 0 else slen)

        def expansion(k: int) -> int:
            nonlocal t
            j, value = self._expansion(text, k, end)
            if value is None or HOLE in value:
                if not (parts and parts[-1] == HOLE):
                    put(HOLE)
            elif value:
                setting = self._setting(text[k:j])
                if setting is not None and setting.path == self.current and setting.value == value:
                    runs.extend(r._replace(t=r.t + t) for r in setting.runs)    # `"$OPTS"`: map to OPTS=...
                parts.append(value)
                t += len(value)
            return j

        quoted = False
        while i < end:
            c = text[i]
            if c == "'" and not quoted:
                close = text.find("'", i + 1, end)
                close = end if close < 0 else close
                if close > i + 1:
                    put(text[i + 1:close], i + 1)
                i = close + 1
            elif c == '"':
                quoted = not quoted
                i += 1
            elif c == "\\" and text.startswith("\n", i + 1):
                i += 2                      # a line continuation, also inside double quotes: nothing
            elif c == "\\" and i + 1 < end:
                if not quoted or text[i + 1] in '$`"\\':
                    put(text[i + 1], i, 2)
                else:
                    put(text[i:i + 2], i)
                i += 2
            elif c in "$`":
                i = expansion(i)
            else:                           # a stretch of characters that stand for themselves
                m = (_PLAIN_QUOTED if quoted else _PLAIN_WORD).match(text, i, end)
                j = m.end() if m else i + 1
                put(text[i:j], i)
                i = j
        return StrValue("".join(parts), runs, start, end, origin="shell")

    def _setting(self, body: str) -> Optional[Setting]:
        m = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", body)
        return (self.vars.get(m.group(1)) or self.exported.get(m.group(1))) if m else None

    def _value(self, name: str) -> Optional[str]:
        """A parameter's value as this shell has it (None: not known, e.g. a variable from the caller)."""
        if name == "PWD":
            return self.cwd
        if name in ("BASH_SOURCE", "BASH_SOURCE[0]"):
            return self.current             # the file being read: a sourced script's own path
        if name == "0":
            return self.script
        if name.isdigit() or name in ("#", "*", "@"):
            if self.args is None:
                return None
            if name == "#":
                return str(len(self.args))
            if name in ("*", "@"):
                return " ".join(self.args)
            k = int(name)
            return self.args[k - 1] if 0 < k <= len(self.args) else ""
        s = self.vars.get(name) or self.exported.get(name)
        if s is not None and s.assumed:
            self._assumed = True
        return None if s is None else s.value

    def _expansion(self, text: str, i: int, end: int) -> Tuple[int, Optional[str]]:
        from ..source.shell_words import _skip_expansion
        j = min(_skip_expansion(text, i), end)
        body = text[i:j]
        m = re.fullmatch(r"\$(?:([A-Za-z_][A-Za-z0-9_]*|[0-9#*@])|\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#*@]|"
                         r"BASH_SOURCE\[0\])\})", body)
        if m:
            return j, self._value(m.group(1) or m.group(2))
        if body.startswith("${") and body.endswith("}"):
            return j, self._parameter(text, i + 2, j - 1)
        if body.startswith("$((") and body.endswith("))"):
            return j, self._arithmetic(text, i + 3, j - 2)
        if body.startswith("$(") and body.endswith(")"):
            return j, self._substitute(text, i + 2, j - 1)
        if body.startswith("`") and body.endswith("`") and len(body) > 1:
            return j, self._substitute(text, i + 1, j - 1)
        return j, None

    def _parameter(self, text: str, a: int, b: int) -> Optional[str]:
        """`${x#pat}`, `${x##pat}`, `${x%pat}`, `${x%%pat}` (pattern removal), `${x:-word}`, `${x-word}` (a default);
        None for any other form, or when what it depends on is not known."""
        import fnmatch
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#*@])(##?|%%?|:?-)", text[a:b])
        if not m:
            return None
        value = self._value(m.group(1))
        word = self.expand(text, a + m.end(), b).text
        op = m.group(2)
        if op in (":-", "-"):
            if value is None or HOLE in word and not value:
                return None
            return word if value == "" and (op == ":-" or self._unset(m.group(1))) else value
        if value is None or HOLE in value or HOLE in word:
            return None
        # a pattern: as fnmatch reads it (`*`, `?`, `[...]`); the shortest or longest match removed
        cuts = range(len(value) + 1) if op in ("#", "%") else range(len(value), -1, -1)
        for k in cuts:
            piece = value[:k] if op.startswith("#") else value[len(value) - k:]
            if fnmatch.fnmatchcase(piece, word):
                return value[k:] if op.startswith("#") else value[:len(value) - k]
        return value

    def _unset(self, name: str) -> bool:
        """Whether a parameter whose value is "" is unset (`${x-word}` takes the word only then)."""
        if name.isdigit():
            return self.args is not None and int(name) > len(self.args)
        return False

    def _arithmetic(self, text: str, a: int, b: int) -> Optional[str]:
        """`$((OPTIND - 1))`, `$(($# - 1))`: integers and + - * of parameters known here, else None."""
        # `$1`, `${#}`, `$x` and a bare name `x` are parameters; a bare digit is a number
        body = re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*|[#0-9])\}?|\b([A-Za-z_][A-Za-z0-9_]*)\b",
                      lambda m: self._value(m.group(1) or m.group(2)) or "?", text[a:b])
        if not re.fullmatch(r"[\d\s+*()-]+", body):
            return None
        try:
            return str(int(eval(body, {"__builtins__": {}}, {})))       # digits and + - * ( ) only
        except Exception:
            return None

    def _substitute(self, text: str, a: int, b: int) -> Optional[str]:
        """The output of a command substitution made of the commands launchers use to name their own directory:
        `dirname`, `readlink -f`, `realpath`, `basename`, `pwd`, `cd X; pwd`, `echo`; None for anything else
        (its output is not known statically)."""
        if self._nested >= MAX_SUBSTITUTIONS:
            return None
        self._nested += 1
        try:
            return self._output(text, a, b)
        finally:
            self._nested -= 1

    def _output(self, text: str, a: int, b: int) -> Optional[str]:
        here = self.dirs[0] if len(self.dirs) == 1 else None
        assumed = not self.settled
        out: Optional[str] = None
        for spans, op, _ in _commands(text, a, b):
            if op not in (";", "&&", "\n", ""):
                return None
            words = [self.expand(text, s, e).text for s, e in spans]
            if any(HOLE in w for w in words):
                return None
            head, rest = words[0], [w for w in words[1:] if not w.startswith("-")]
            if head == "cd" and len(rest) <= 1:
                target = rest[0] if rest else None
                if target is None or (here is None and not os.path.isabs(target)):
                    return None
                here = os.path.normpath(os.path.join(here or "/", target))
                assumed = assumed and not os.path.isabs(target)
                continue
            if out is not None or head not in ("pwd", "dirname", "readlink", "realpath", "basename", "echo"):
                return None
            if head == "pwd":
                if here is None:
                    return None
                self._assumed = self._assumed or assumed
                out = here
            elif head == "echo":
                out = " ".join(words[1:])
            elif len(rest) != 1:
                return None
            elif head == "dirname":
                out = os.path.dirname(rest[0].rstrip("/")) or "."
            elif head == "basename":
                out = os.path.basename(rest[0].rstrip("/"))
            elif head == "readlink" and "-f" not in words and "-e" not in words and "-m" not in words:
                return None             # plain readlink prints a link's target, not the path
            elif os.path.isabs(rest[0]):
                out = os.path.normpath(rest[0])
            elif here is None:
                return None
            else:
                self._assumed = self._assumed or assumed
                out = os.path.normpath(os.path.join(here, rest[0]))
        return out

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
        function = False                            # `name()` seen: its `{` or `(` opens a function body
        # `a && b`, `a || b`: b runs depending on a, and so does a `{ group; }` or `( subshell )` in b's place
        chained, after = False, "\n"
        closed: Optional[_Block] = None             # the last `( ... )` or `{ ... }` closed: what follows applies
        pending: Optional[Tuple[_Block, str]] = None    # one that an exit ended, and the operator after it
        for words, op, at in _lexed(text, start, stop):
            if at < resume:
                continue
            if self._loop or self._returned:
                return                              # `break`/`continue` of the evaluated loop, a function's `return`
            piped = after == "|"
            chained = after in ("&&", "||") or (piped and chained)
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
                    function = False
                elif op == ")" and not function and any(b.kind.startswith("subshell") for b in blocks):
                    closed = self._close(blocks, "subshell")
                    pending = (closed, "")
                elif op in _AFTER_SUBSHELL and closed is not None:
                    self._after_block(closed, op)
                    if pending is not None:
                        pending = (pending[0], op)
                continue                            # `name()`: the `)` of a definition (function stays set)
            dead = next((b for b in reversed(blocks) if b.exit is not None), None)
            if dead is not None:                    # after an `exit` in this subshell or group: nothing runs in it
                head = text[words[0][0]:words[0][1]]
                if op == ")" and dead.kind.startswith("subshell"):
                    closed = self._close(blocks, "subshell")
                    pending = (closed, "")
                elif head == "}" and dead.kind.startswith("group"):
                    closed = self._close(blocks, "group", restore=op in ("&", "|"))
                    pending = (closed, op)
                    if op in _AFTER_SUBSHELL:
                        self._after_block(closed, op)
                continue
            self.steps += 1
            if self.steps > MAX_COMMANDS:
                self.stopped.setdefault(path, (words[0][0], src.position(words[0][0])[0],
                                               f"after {MAX_COMMANDS:,} commands"))
                return
            head = text[words[0][0]:words[0][1]]
            skipping = any(b.state in ("skip", "done") for b in blocks)
            plain = all(b.kind == "if" and b.state == "take" for b in blocks)    # no loop, function, subshell open
            if not skipping and plain and head in ("for", "while", "case"):
                end = self._evaluated(text, src, path, depth, inside or chained, words, op, at)
                if end is not None:
                    if self.ended:
                        return
                    resume = end
                    continue
            if head == "if":
                known = self._test(text, words[1:], op) if not skipping and _decidable(blocks) else None
                blocks.append(_Block(head, 1, len(self.commands), state="" if known is None else
                                     "take" if known else "skip"))
                words = words[1:]
            elif head in ("while", "until", "case", "select"):
                blocks.append(_Block(head, 1, len(self.commands)))
                words = words[1:]
            elif head == "for":
                blocks.append(_Block("for", _loop_count(text, words, _FOR_C.match(text, words[0][0])),
                                     len(self.commands)))
                continue
            elif head in ("fi", "done", "esac"):
                self._close(blocks, {"fi": "if", "done": "loop", "esac": "case"}[head])
                continue
            elif head == "}":
                block = self._close(blocks, "brace", restore=op in ("&", "|"))
                if block is not None and block.kind.startswith("group"):
                    closed = block
                    if op in _AFTER_SUBSHELL:
                        self._after_block(block, op)
                continue
            elif head in ("then", "else", "do", "{", "elif"):
                branch = next((b for b in reversed(blocks) if b.kind == "if"), None) \
                    if head in ("else", "elif") else None
                if branch is not None and branch.state:
                    if branch.state == "take":
                        branch.state = "done"
                    elif branch.state == "skip":
                        known = True if head == "else" else self._test(text, words[1:], op)
                        branch.state = "" if known is None else "take" if known else "skip"
                if head == "{" and isinstance(function, str) and plain and not skipping:
                    end = self._define(function, text, src, path, words[0][0])
                    function = False
                    if end is not None:
                        resume = end            # walked where it is called, with its arguments
                        continue
                if head == "{":
                    blocks.append(_Block("function" if function else "group?" if chained else "group", 1,
                                         len(self.commands), None if function else self._state()))
                    function = False
                    chained = False             # the group's first command runs whenever the group does
                words = words[1:] if head != "elif" else []
            elif head == "function":
                # `function name {` / `function name { cmd; }`: the body runs only when called
                brace = next((k for k, (a, b) in enumerate(words) if text[a:b] == "{"), None)
                name = text[words[1][0]:words[1][1]] if len(words) > 1 else ""
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
            elif len(words) == 1 and op == "(":
                function = text[words[0][0]:words[0][1]]    # a definition: its body runs only when called
                continue
            if any(b.state in ("skip", "done") for b in blocks):
                continue                            # a branch that certainly does not run
            negated = bool(words) and text[words[0][0]:words[0][1]] == "!"
            if negated:
                words = words[1:]                   # `! cmd`: cmd runs; its status is inverted (set -e ignores it)
            if not words:
                continue
            conditional = inside or chained or any(b.kind in _MAYBE and b.state != "take" for b in blocks)
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
            ranks = 0 if any(b.broken for b in blocks) else 1
            for b in blocks:
                ranks = ranks * b.ranks if b.ranks > 0 and ranks > 0 else 0
            ends = self._simple(text, src, path, words, depth, conditional, ranks, "||" if negated else op)
            if ends and op != "&":
                self._cut_short(blocks)             # `exit` in a loop: it may end in its first round
            # an exit in a loop may never run; a pipeline's commands run in subshells of their own
            if ends and not conditional and op not in ("&", "|") and not piped and \
                    not any(b.kind in _LOOPS for b in blocks):
                line = src.position(words[0][0])[0]
                code = text[words[1][0]:words[1][1]] if first == "exit" and len(words) > 1 else \
                    self._stop_code if first != "exit" else ""
                inner = next((b for b in reversed(blocks) if b.kind.startswith(("subshell", "group"))), None)
                if inner is not None:
                    inner.exit = (path, line, code)     # it ends there: a subshell at its `)`, a group its shell
                    self.ended = False
                    if op == ")" and inner.kind.startswith("subshell"):
                        closed = self._close(blocks, "subshell")
                        pending = (closed, "")
                    continue
                self._end(path, line, code)
                return
            if op == ")" and any(b.kind.startswith("subshell") for b in blocks):
                closed = self._close(blocks, "subshell")
                pending = (closed, "")

    def _define(self, name: str, text: str, src, path: str, brace: int) -> Optional[int]:
        """Record a function whose body starts at the `{` at brace; where the walk goes on (after its `}`), or None when
        its end is not found (it is then walked where it is defined, as a body that may run)."""
        found = _brace_body(text, brace)
        if found is None or not _NAME.fullmatch(name.replace("-", "_").replace(".", "_")):
            return None
        body, stop, after = found
        self.functions[name] = (path, text, src, body, stop)
        return after

    def _call(self, name: str, words, depth: int, conditional: bool) -> None:
        """Walk a function's body where it is called: `$1`.. are its arguments (`$0` stays the script's)."""
        path, text, src, body, stop = self.functions[name]
        self._called.add(name)
        saved, outer = self.args, self.current
        self.args = [w.text for w in words[1:]] if all(w.text != HOLE for w in words[1:]) else None
        self._calling.append(name)
        self.current = path
        try:
            self._statements(text, src, path, depth, conditional, body, stop)
        finally:
            self._calling.pop()
            self._returned = False
            self.current = outer
            self.args = saved

    def uncalled(self) -> None:
        """The functions no call the walk saw: walked once as bodies that may run (a call it cannot see, such as
        `"$@"` naming one, may run them), with arguments not known."""
        for name, (path, text, src, body, stop) in list(self.functions.items()):
            if name not in self._called and not self.ended:
                self._called.add(name)
                saved, self.args = self.args, None
                self._calling.append(name)
                outer, self.current = self.current, path
                try:
                    self._statements(text, src, path, 0, True, body, stop)
                finally:
                    self._calling.pop()
                    self._returned = False
                    self.current, self.args = outer, saved

    # ---- what the walk evaluates: known tests, the launcher's argument loops, `case` on a known word

    def _test(self, text: str, spans, op: str) -> Optional[bool]:
        """The outcome of an `if`/`elif`/`while` condition when it is a test of values known here (`[[ $1 == --x* ]]`,
        `[ -n "$1" ]`, `[ $# -gt 0 ]`, `test ...`); None for anything else."""
        if not spans or op not in (";", "\n"):
            return None             # `if a && b`: a list, not one test
        head = text[spans[0][0]:spans[0][1]]
        if len(spans) == 1 and head.startswith("[[") and head.endswith("]]"):
            inner = [(a, min(b, spans[0][1] - 2)) for a, b, _ in _words_in(text, spans[0][0] + 2, spans[0][1] - 2)]
            return self._expr(text, inner, True)
        if head == "[" and text[spans[-1][0]:spans[-1][1]] == "]":
            return self._expr(text, spans[1:-1], False)
        if head == "test":
            return self._expr(text, spans[1:], False)
        return None

    def _expr(self, text: str, spans, double: bool) -> Optional[bool]:
        import fnmatch
        raw = [text[a:b] for a, b in spans]
        for joiner, either in (("||", True), ("-o", True), ("&&", False), ("-a", False)):
            if joiner in raw and (double or joiner.startswith("-")):
                k = raw.index(joiner)
                left, right = self._expr(text, spans[:k], double), self._expr(text, spans[k + 1:], double)
                if either:
                    return True if True in (left, right) else None if None in (left, right) else False
                return False if False in (left, right) else None if None in (left, right) else True
        if raw[:1] == ["!"]:
            inner = self._expr(text, spans[1:], double)
            return None if inner is None else not inner
        values = [self.expand(text, a, b).text for a, b in spans]
        if any(HOLE in v for v in values) or "(" in raw or ")" in raw:
            return None
        if len(values) == 1:
            return values[0] != ""
        if len(values) == 2 and raw[0] in ("-n", "-z"):
            return (values[1] != "") == (raw[0] == "-n")
        if len(values) != 3:
            return None
        left, how, right = values[0], raw[1], values[2]
        if how in ("==", "=", "!="):
            # in [[ ]] an unquoted right side is a pattern; a quoted one (or [ ]) is compared as it is
            same = fnmatch.fnmatchcase(left, right) if double and not re.search(r"['\"\\]", raw[2]) else left == right
            if same and right.startswith("-"):
                self.parsed.append((right, self.current, spans[2][0]))
            return same if how != "!=" else not same
        ints = {"-eq": int.__eq__, "-ne": int.__ne__, "-gt": int.__gt__, "-ge": int.__ge__, "-lt": int.__lt__,
                "-le": int.__le__}
        if how in ints and re.fullmatch(r"-?\d+", left) and re.fullmatch(r"-?\d+", right):
            return ints[how](int(left), int(right))
        return None

    def _evaluated(self, text, src, path, depth, inside, words, op, at) -> Optional[int]:
        """Walk a `for`/`while` loop over the launcher's arguments (`for para in $*`, `while [ -n "$1" ]`,
        `while [[ $# -gt 0 ]]`, `while getopts`), or a `case` of a word known here, as bash runs it: each round with
        its values, each `if`/`case` inside decided. Returns where the walk goes on (after `done`/`esac`), or None
        when the compound is not one of these (it is walked as before: its body may or may not run)."""
        head = text[words[0][0]:words[0][1]]
        if head == "case":
            return self._case(text, src, path, depth, inside, words, at)
        found = _loop_body(text, at)
        if found is None or self.args is None:
            return None
        body, stop, end = found
        rounds = 0
        if head == "for":
            items = [text[a:b] for a, b in words[1:]]
            if not (len(items) == 1 or (len(items) >= 3 and items[1] == "in" and len(items) == 3 and
                                        items[2] in ("$*", "$@", '"$@"', '"$*"', "${@}", '"${@}"', "${*}"))):
                return None
            name = items[0]
            if not _NAME.fullmatch(name):
                return None
            values = list(self.args) if items[2:] != ['"$*"'] else [" ".join(self.args)]
            line = src.position(words[0][0])[0]
            for value in values:
                self.vars[name] = Setting(value, path, line, words[0][0], "plain")
                self._changed(name)
                if not self._round(text, src, path, depth, inside, body, stop):
                    break
            return end
        if head != "while" or len(words) < 2:
            return None
        cond = words[1:]
        if text[cond[0][0]:cond[0][1]] == "getopts":
            return self._getopts(text, src, path, depth, inside, cond, body, stop, end)
        conds = [text[a:b] for a, b in cond]
        if not any(re.search(r"\$\{?[1#]", c) for c in conds):
            return None             # only loops over the arguments: any other is walked as before
        while rounds <= len(self.args) + 1:
            rounds += 1
            holds = self._test(text, cond, op)
            if holds is None:
                return None if rounds == 1 else self._lost(end)
            if not holds or not self._round(text, src, path, depth, inside, body, stop):
                return end
            if self.args is None:
                return self._lost(end)
        return self._lost(end)      # it does not consume its arguments: bash would loop for ever

    def _round(self, text, src, path, depth, inside, body, stop) -> bool:
        """One round of an evaluated loop's body; False when the loop ends there (`break`, `exit`, or a way out that
        may or may not be taken)."""
        outer, self._loop = self._loop, ""
        try:
            self._statements(text, src, path, depth, inside, body, stop)
            how = self._loop
        finally:
            self._loop = outer
        if how == "unknown":
            self.args = None
        return how in ("", "continue") and not self.ended

    def _lost(self, end: int) -> int:
        """An evaluated loop whose end cannot be followed: the arguments are no longer known after it."""
        self.args = None
        return end

    def _getopts(self, text, src, path, depth, inside, cond, body, stop, end) -> Optional[int]:
        """`while getopts "ab:" opt; do case $opt in ...`: each option in turn, with its OPTARG, as getopts gives
        them (it stops at the first word that is not an option, or at `--`)."""
        if len(cond) < 3:
            return None
        spec = self.expand(text, *cond[1]).text
        name = text[cond[2][0]:cond[2][1]]
        if HOLE in spec or not _NAME.fullmatch(name):
            return None
        line = src.position(cond[0][0])[0]
        args, k = list(self.args or []), 0
        rounds = []
        while k < len(args) and args[k].startswith("-") and args[k] not in ("-", "--"):
            word, k = args[k], k + 1
            j = 1
            while j < len(word):
                letter = word[j]
                at = spec.find(letter)
                if letter == ":" or at < 0:
                    rounds.append(("?", None))
                    j += 1
                    continue
                if spec[at + 1:at + 2] == ":":
                    value = word[j + 1:] if j + 1 < len(word) else (args[k] if k < len(args) else None)
                    if j + 1 >= len(word):
                        k += 1
                    rounds.append((letter, value) if value is not None else ("?", None))
                    break
                rounds.append((letter, None))
                j += 1
        if args[k:k + 1] == ["--"]:
            k += 1
        for letter, value in rounds:
            self.vars[name] = Setting(letter, path, line, cond[0][0], "plain")
            self._changed(name)
            if value is not None:
                self.vars["OPTARG"] = Setting(value, path, line, cond[0][0], "plain")
                self._changed("OPTARG")
            if not self._round(text, src, path, depth, inside, body, stop):
                return end
        self.vars["OPTIND"] = Setting(str(k + 1), path, line, cond[0][0], "plain")
        self._changed("OPTIND")
        return end

    def _case(self, text, src, path, depth, inside, words, at) -> Optional[int]:
        """`case WORD in ... esac` with WORD known: only the arm whose pattern matches runs (and, after `;&`, the
        next one)."""
        import fnmatch
        if len(words) != 3 or text[words[2][0]:words[2][1]] != "in":
            return None
        word = self.expand(text, *words[1]).text
        arms = _case_arms(text, at)
        if HOLE in word or arms is None:
            return None
        items, end = arms
        for patterns, body, stop, _ in items:
            if any(HOLE in p or "$" in p for p in patterns):
                return None         # a pattern built from a variable: not followed
        falling = False
        for patterns, body, stop, how in items:
            if falling or any(fnmatch.fnmatchcase(word, p) for p in patterns):
                self.parsed.extend((p, self.current, body) for p in patterns
                                   if p.startswith("-") and fnmatch.fnmatchcase(word, p))
                self._statements(text, src, path, depth, inside, body, stop)
                if self.ended or self._loop:
                    return end
                falling = how == ";&"
                if how != ";;&" and not falling:
                    break
        return end

    def _cut_short(self, blocks: List["_Block"]) -> None:
        """`break`, `continue` or `exit` in a loop: it may stop early, so how often its body runs is not known."""
        loop = next((b for b in reversed(blocks) if b.kind in _LOOPS), None)
        if loop is not None and not loop.broken:        # once broken, later commands get 0 where they are made
            loop.broken = True
            for i in range(loop.first, len(self.commands)):
                self.commands[i] = self.commands[i]._replace(ranks=0)

    def _end(self, path: str, line: int, code: str) -> None:
        """This shell ends at path:line (`exit code`, `exec cmd`, or a failure under set -e)."""
        self.ended = True
        self.exit_code = code
        if not self._chain and self.exited is None:
            self.exited = (path, line)

    def _ends_after(self, block: "_Block", op: str, piped: bool) -> bool:
        """After `)` or `}` of a block an exit ended: whether this shell ends too (and the walk of this file). A
        group runs in this shell, unless it is piped or in the background; a subshell's failing exit stops this
        shell under set -e, unless what follows handles it (`|| x`, `&& x`, a pipe, `&`)."""
        if block.exit is None or op == "&" or piped or op == "|":
            return False
        path, line, code = block.exit
        if block.kind.startswith("group"):
            self._end(path, line, code)
            return True
        if self.errexit and op not in ("&&", "||") and code not in ("", "0"):
            self._end(path, line, code)
            return True
        return False

    def _after_block(self, block: "_Block", op: str) -> None:
        """`( ... ) &`, `{ ...; } || x`, `( ... ) | tee log`: the block's commands run in the background, or a failure
        in them does not stop this shell (set -e is off inside a list before && / ||)."""
        pipe_exempt = op == "|" and not self.pipefail       # a piped block runs in a subshell: its stops stay there
        for i in range(block.first, block.end):
            c = self.commands[i]
            if op == "&":
                self.commands[i] = c._replace(background=True)
            elif op in ("&&", "||") or pipe_exempt:
                self.commands[i] = c._replace(errexit=False, chained=op == "&&" and i == block.end - 1)

    def _state(self) -> tuple:
        """What a subshell gets as a copy (the shell's variables are changed in place)."""
        return (dict(self.vars), dict(self.exported), self.dirs, self.settled, self.all_export, self.errexit,
                self.pipefail)

    def _close(self, blocks: List["_Block"], kind: str, restore: bool = False) -> Optional["_Block"]:
        """Close the innermost open block of this kind ("loop": for/while/until/select); blocks left open inside it
        (a parse we do not follow) close with it. A subshell's settings, exports and `cd` do not come back, nor
        (restore) those of a group run in the background or piped, which bash runs in a subshell too."""
        kinds = _LOOPS if kind == "loop" else ("group", "group?", "function") if kind == "brace" else \
            (kind, kind + "?")
        at = next((k for k in range(len(blocks) - 1, -1, -1) if blocks[k].kind in kinds), None)
        if at is None:
            return None
        block = blocks[at]
        del blocks[at:]
        block.end = len(self.commands)
        if block.saved is not None and (restore or block.kind.startswith("subshell")):
            saved = block.saved
            # logged again only what the block changed (the log is replayed for every later command's environment)
            names = {n for table, old in ((self.vars, saved[0]), (self.exported, saved[1]))
                     for n in set(table) | set(old) if table.get(n) is not old.get(n)}
            self.vars, self.exported, self.dirs, self.settled, self.all_export, self.errexit, self.pipefail = saved
            for name in names:
                self._changed(name)
        return block

    def _simple(self, text, src, path, spans, depth, conditional, ranks, op: str = "") -> bool:
        """Record one simple command; True when it ends the shell: `exit`, `exec cmd` (which replaces it; not
        `exec >log 2>&1`, which only redirects its output), or a sourced script that ends it."""
        words = []
        inline: Dict[str, Setting] = {}
        k = 0
        # leading assignments: inline environment for this command (or shell variables without a command), made
        # left to right: `OUT=/p OPTS="$OUT/x" cmd` reads the new OUT
        shadowed: Dict[str, Optional[Setting]] = {}
        while k < len(spans):
            a, b = spans[k]
            m = _ASSIGN.match(text, a, b)
            if not m:
                break
            self._assumed = False
            value = self.expand(text, m.end(), b)
            line = src.position(a)[0]
            name = m.group(1)
            s = Setting(self._appended(name, value.text) if m.group(2) else value.text, path, line, a, "inline",
                        () if m.group(2) else tuple(value.runs), self._assumed)
            inline[name] = s
            shadowed.setdefault(name, self.vars.get(name))
            self.vars[name] = s
            k += 1
        for name, old in shadowed.items():
            if old is None:
                del self.vars[name]
            else:
                self.vars[name] = old
        assumed = []                    # per word: built from the assumed start directory
        for a, b in spans[k:]:
            self._assumed = False
            if self.args is not None and text[a:b] in _ALL_ARGS:
                # `"$@"`: one word per argument (none when there are none); `$*` unquoted: split alike
                words.extend(Word(StrValue(arg, [], a, b, origin="shell"), a, b) for arg in self.args)
                continue
            words.append(Word(self.expand(text, a, b), a, b))
            assumed.append(self._assumed)
        if not words:
            for name, s in inline.items():
                if conditional:
                    s = s._replace(value=HOLE)
                exported = self.all_export or name in self.exported
                self.vars[name] = s._replace(how="plain")
                if exported:
                    self.exported[name] = s._replace(how="set -a" if self.all_export else "export")
                self._changed(name)
            return
        head = words[0].text
        if head in ("export", "declare", "typeset", "readonly", "local") and not inline:
            self._export(text, src, path, spans[k + 1:], head, conditional)
            return
        if head == "unset":
            for w in words[1:]:
                if conditional:             # unset in one branch only: the value is no longer known
                    for table in (self.vars, self.exported):
                        if w.text in table:
                            table[w.text] = table[w.text]._replace(value=HOLE)
                else:
                    self.vars.pop(w.text, None)
                    self.exported.pop(w.text, None)
                self._changed(w.text)
            return
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
            return
        if head in ("cd", "pushd", "popd"):
            target = words[1] if len(words) > 1 and head != "popd" else None
            if not conditional and target is not None and target.known and os.path.isabs(target.text):
                self.dirs = (os.path.normpath(target.text),)
                self.lost = ""
                # `cd $cur_path/..` after `cur_path=$(pwd)`: still relative to where the launcher was started
                self.settled = self.settled or not (len(assumed) > 1 and assumed[1])
            elif conditional or target is None or not target.known or target.text == "-" or not self.dirs:
                if self.dirs and (target is None or target.text != "."):
                    self.lost = self._lost_why(text, src, head, target, conditional)
                self.dirs = () if target is None or target.text != "." else self.dirs
            else:
                moved = os.path.expanduser(target.text)
                self.dirs = tuple(dict.fromkeys(os.path.normpath(os.path.join(d, moved)) for d in self.dirs))
            return
        if head in ("source", ".") and len(words) > 1:
            target = words[1]
            full = self.find(target.text, self.dirs or (self.root,)) if target.known else None
            line = src.position(spans[0][0])[0]
            why = ""
            if full is not None and self.inside is not None and not _within(full, self.inside):
                why = "outside the project, which --no-outside leaves unread"
            elif full is not None and depth < MAX_SOURCED:
                why = self._file(full, depth + 1, conditional)
                if full in self.stopped:
                    self.sourced_stopped.add(full)
                if not why:
                    self.sourced.append((full, path, line))
                    self.sourced_in.append(self._chain)
            if full is None or depth >= MAX_SOURCED or why:     # assumed to set no PROFILING_* (the report lists it)
                self.unread.append((target.text, path, line))
                self.unread_in.append(self._chain)
                if why:
                    self.why_unread[len(self.unread) - 1] = why
            self._stop_code = self.exit_code
            return self.ended               # a sourced script runs in this shell: its `exit` ends this one too
        if head == "exit":
            return True
        if head == "shift":
            n = words[1].text if len(words) > 1 else "1"
            if self.args is not None:
                # bash leaves them as they are when there are fewer than n
                self.args = None if conditional or not n.isdigit() else \
                    self.args[int(n):] if int(n) <= len(self.args) else self.args
            return False
        self._stop_code = ""
        if head in self.functions and head not in self._calling and not inline:
            self._call(head, list(_without_redirections(words)), depth, conditional)
            return self.ended
        line, col = src.position(words[0].start)
        replaced = head == "exec" and any(True for _ in _without_redirections(words[1:]))
        child, by_shell, given = _child_script(words, path, line)
        if child is not None and depth < MAX_SOURCED and ("/" in child.text or by_shell) and \
                self._run_child(child, depth, conditional, ranks, op, path, line, {**inline, **given},
                                _shell_errexit(words, child) if by_shell else None,
                                self._arguments(text, words, child)):
            return replaced or bool(self._stop_code)        # the child exits failing, under this shell's set -e
        # set -e does not act on a command before && or ||, nor on one whose status a pipe drops (no pipefail)
        errexit = self.errexit and op not in ("&&", "||") and (op != "|" or self.pipefail)
        self.commands.append(Command(tuple(words), path, line, col, EnvView(self.log, len(self.log), inline),
                                     self.dirs, ranks, conditional, op == "&", errexit, op == "&&", self.settled,
                                     seq=len(self.commands), lost="" if self.dirs else self.lost))
        return replaced

    def _run_child(self, word: "Word", depth: int, conditional: bool, ranks: int, op: str, by: str,
                   line: int, given: Dict[str, "Setting"], errexit: Optional[bool] = None,
                   child_args: Optional[List[str]] = None) -> bool:
        """Walk a shell script this one runs (not sources) as the process it is: a new shell that sees only
        the exported variables (and `A=b ./x.sh`, `env A=b ./x.sh`), whose own settings, `cd` and `set -e` do
        not come back. Its commands are this command's: started as often, under the same conditions, in the
        background if it is. False when it cannot be walked (not found, outside the project under
        --no-outside, unreadable, or already running: `bash $0` per device): unknown then."""
        full = self.find(word.text, self.dirs or (self.root,)) if word.known else None
        if full is None or (self.inside is not None and not _within(full, self.inside)) or \
                full in self._chain or full == self.launcher:
            return False
        background = op == "&"
        saved = (self.vars, self.exported, self.dirs, self.settled, self.all_export, self.errexit, self.script,
                 self.pipefail, self.args, self.functions)
        parent_errexit = self.errexit
        names = set(self.vars) | set(self.exported) | set(given)
        exported = dict(self.exported)
        exported.update((name, s._replace(how="export" if s.how == "inline" else s.how)) for name, s in given.items())
        self.vars, self.exported = dict(exported), exported
        # `bash x.sh` reads x.sh's first line as a comment: only its own options (`bash -e x.sh`) set -e
        self.all_export, self.errexit = False, _errexit_shebang(full) if errexit is None else errexit
        self.pipefail = False
        self.script = full
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
            why = self._file(full, depth + 1, False)
            if not why and not self.ended:
                self.uncalled()             # the child's own functions no call of it names, before they are gone
        finally:
            # the child's `exit` ends the child; a failing one (`exit 1`) stops this shell too under its set -e
            failing = self.ended and self.exit_code not in ("", "0") and frame[1] and not conditional
            self._stop_code = self.exit_code if failing else ""
            self.ended = False
            self._chain = outer_chain
            names |= set(self.vars) | set(self.exported)
            (self.vars, self.exported, self.dirs, self.settled, self.all_export, self.errexit, self.script,
             self.pipefail, self.args, self.functions) = saved
            for name in names:
                self._changed(name)
        if why:
            return False
        for i in range(first, len(self.commands)):
            c = self.commands[i]
            # errexit stays the child's own `set -e`; whether a stop reaches this script is in the frame
            self.commands[i] = c._replace(ranks=c.ranks * ranks if c.ranks > 0 and ranks > 0 else 0,
                                          conditional=c.conditional or conditional,
                                          background=c.background or background,
                                          via=((full, by, line),) + c.via, frames=(frame,) + c.frames)
        if len(self.commands) > first:
            # the child's status is its last command's: `child.sh && next` skips next when it fails, and under this
            # script's `set -e` a failing last command stops this script too (frame[1] carries it outward)
            last = self.commands[-1]
            self.commands[-1] = last._replace(chained=op == "&&" if op in ("&&", "||") else last.chained,
                                              errexit=last.errexit or frame[1])
        return True

    def _lost_why(self, text: str, src, head: str, target, conditional: bool) -> str:
        """Which part of a `cd` makes the directory unknown: its branch, a variable from the caller, a command's
        output."""
        raw = text[target.start:target.end] if target is not None else ""
        where = f"{_rel(self.current, self.root)}:{src.position(target.start if target else 0)[0]}"
        shown = f"`{head}{' ' + raw if raw else ''}` at {where}"
        if conditional:
            return f"{shown} is in a branch, loop or function that may not run"
        if target is None:
            return f"{shown} goes to $HOME, which is not known here"
        if target.text == "-":
            return f"{shown} goes back to a directory not followed here"
        names = [n for n in dict.fromkeys(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9])", raw))
                 if self._value(n) is None or HOLE in (self._value(n) or "")]
        if names:
            unknown = ", ".join("$" + n for n in names)
            return f"{shown}: {unknown} not known here (not set by the launcher; the caller's)"
        return f"{shown}: the output of a command in it is not known statically"

    def _arguments(self, text: str, words, child: "Word") -> Optional[List[str]]:
        """The arguments a child script is given (the words after it, redirections left out: one each, a value not
        known here kept as such, `$i` of a loop); None when how many there are is not known (`"$@"` of a launcher whose
        arguments are not known)."""
        at = next(i for i, w in enumerate(words) if w is child)
        out = []
        for w in _without_redirections(words[at + 1:]):
            if self.args is None and text[w.start:w.end] in _ALL_ARGS:
                return None
            out.append(w.text)
        return out

    def _export(self, text, src, path, spans, head, conditional) -> None:
        flags = "".join(text[a + 1:b] for a, b in spans if text[a] == "-")
        if head == "export" and "n" in flags:            # `export -n NAME`: a shell variable again, not exported
            for a, b in spans:
                name = text[a:b]
                if text[a] != "-" and name in self.exported:
                    if conditional:
                        self.exported[name] = self.exported[name]._replace(value=HOLE)
                    else:
                        del self.exported[name]
                    self._changed(name)
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
                value = self.expand(text, m.end(), b)
                new = self._appended(name, value.text) if m.group(2) else value.text
                # `declare X=v` of an exported X changes what is exported: the attribute stays
                kept = exporting or name in self.exported
                s = Setting(HOLE if conditional else new, path, line, a, "export" if kept else "plain",
                            () if m.group(2) else tuple(value.runs), self._assumed)
                self.vars[name] = s
                if kept:
                    self.exported[name] = s
                self._changed(name)
            elif exporting and _NAME.fullmatch(text[a:b]):
                name = text[a:b]
                if name in self.vars:
                    self.exported[name] = self.vars[name]._replace(how="export")
                    self._changed(name)

    def _appended(self, name: str, more: str) -> str:
        """`X+=more`: X's value (empty when unset) with more after it; unknown when X's value is."""
        s = self.vars.get(name) or self.exported.get(name)
        if s is None:
            return more
        return HOLE if s.value is None or HOLE in s.value else s.value + more


def _loop_count(text: str, words, m) -> int:
    """How many times a `for` loop runs its body (0: not known)."""
    if m is not None:
        lo, op, hi = int(m.group(2)), m.group(3), int(m.group(4))
        return max(0, hi - lo + (1 if op == "<=" else 0))
    items = [text[a:b] for a, b in words[1:]]
    if len(items) < 2 or items[1] != "in":
        return 0
    rest = [w for w in items[2:] if w not in (";", "do")]
    if len(rest) == 1:
        seq = re.fullmatch(r"\$\(\s*seq\s+(?:(\d+)\s+)?(\d+)\s*\)|`seq\s+(?:(\d+)\s+)?(\d+)`", rest[0])
        if seq:
            lo = int(seq.group(1) or seq.group(3) or 1)
            hi = int(seq.group(2) or seq.group(4))
            return max(0, hi - lo + 1)
        brace = re.fullmatch(r"\{(\d+)\.\.(\d+)\}", rest[0])
        if brace:
            return max(0, int(brace.group(2)) - int(brace.group(1)) + 1)
    if rest and all(re.fullmatch(r"[\w.-]+", w) for w in rest):
        return len(rest)
    return 0


_LEXED: Dict[str, Dict[tuple, list]] = {}     # text -> (start, stop) -> commands, for the last few texts
MAX_LEXED_TEXTS = 8


def _lexed(text: str, start: int, stop: Optional[int]) -> list:
    """The commands of text[start:stop] (_pipelines of _commands), kept for the last few texts read: an evaluated
    loop's body is walked once per argument, and NPP015 walks a launcher several times."""
    table = _LEXED.get(text)
    if table is None:
        if len(_LEXED) >= MAX_LEXED_TEXTS:
            del _LEXED[next(iter(_LEXED))]
        table = _LEXED[text] = {}
    found = table.get((start, stop))
    if found is None:
        found = table[(start, stop)] = list(_pipelines(_commands(text, start, stop)))
    return found


def _pipelines(commands):
    """The commands, with the `&` that ends a pipeline given to each of its commands: in `python3 x.py | tee log &`
    the whole pipeline, python3 included, runs in the background. Any other operator after a pipeline (`&&`,
    `;`) stays its last command's: the pipeline's status is that command's."""
    pending: List[Tuple[list, str, int]] = []
    for words, op, at in commands:
        pending.append((words, op, at))
        if op != "|":
            for w, own, where in pending[:-1]:
                yield w, "&" if op == "&" else own, where
            yield words, op, at
            pending = []
    yield from pending


def _commands(text: str, start: int = 0, stop: Optional[int] = None):
    """Simple commands of text[start:stop] as (word spans, the operator after them, the operator's offset), split
    at operators and newlines; comments skipped.

    `for ((...))` is kept as one command; the words after `in` in a `for` stay with it."""
    i, n = start, len(text) if stop is None else stop
    words: List[Tuple[int, int]] = []
    heredocs: List[Tuple[str, bool]] = []          # (delimiter, <<- strips tabs) whose bodies follow this line
    closed = False                                  # the last thing read was a `)`
    after_close = False                             # these words follow a `)`: redirections of the subshell
    pattern = False                                 # in a `case`, where a pattern ends at its `)`
    while i < n:
        c = text[i]
        if c in " \t\r":
            i += 1
            continue
        if pattern and c != "\n":
            if not (text.startswith("esac", i) and _ends_word(text, i + 4)):
                i = _pattern_end(text, i)          # `a|b)`, `*)`: not a command, not the end of a subshell
            pattern = False
            continue
        if c == "\\" and text.startswith("\n", i + 1):
            i += 2
            continue
        if c == "#":
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        if c == "(" and text.startswith("((", i) and (not words or text[words[0][0]:words[0][1]] == "for"):
            close = text.find("))", i)             # `(( i++ ))`, `for ((...))`: arithmetic, one word
            close = n if close < 0 else close + 2
            words.append((i, close))
            i = close
            continue
        if c == "(" and words and words[-1][1] == i and text[words[-1][1] - 1] == "=":
            words[-1] = (words[-1][0], _array_end(text, i))     # `ids=(0 1 2)`: one assignment word
            i = words[-1][1]
            continue
        if c == "[" and text.startswith("[[", i) and _ends_word(text, i + 2) and \
                (not words or text[words[-1][0]:words[-1][1]] in ("if", "elif", "while", "until", "!")):
            close = text.find("]]", i + 2)         # `[[ $x =~ ^(a|b)$ ]]`: its parentheses are no subshell
            close = n if close < 0 else close + 2
            words.append((i, close))
            i = close
            continue
        if c == "&" and text.startswith("&>", i):
            j = i + 2 + (text.startswith(">", i + 2))
            words.append((i, j))                    # `&> log`, `&>> log`: a redirection, not `&`
            i = j
            continue
        if c == "\n" and heredocs:
            if words:
                yield words, "\n", i
            words = []
            i = heredoc_end(text, i + 1, heredocs)       # the bodies are data, not commands
            heredocs = []
            continue
        op = next((o for o in _OPERATORS if text.startswith(o, i)), None)
        if op is not None:
            if words and after_close and _redirections_only(text, words):
                words = []                          # `( ... ) > log 2>&1 &`: the subshell's redirections
                closed = True
            if words or op in "()" or op == ";;" or (op in _AFTER_SUBSHELL and closed):
                # ([], "("): a subshell opens; ([], ")"): one closes after `;`; ([], "&&"): what follows `( ... )`
                yield words, op, i
            if op in (";;", ";&", ";;&") or (words and text[words[0][0]:words[0][1]] == "case"):
                pattern = True                      # a pattern comes next
            closed = op == ")"
            after_close = False
            words = []
            # `cmd |& tee log` pipes both outputs: a pipe, not `&`
            i += 2 if text.startswith("|&", i) else len(op)
            continue
        if not words:
            after_close = closed
        closed = False
        j = min(_word_end(text, i, n), n)
        if text[i:j] == "<<" and not text.startswith("<", j):
            # `<<EOF`, `<<- 'EOF'`, `<<"EOF">out`: the delimiter, quotes removed; `-` strips leading tabs
            m = HEREDOC_TAG.match(text, j)
            if m and m.group(2):
                heredocs.append((m.group(2).replace("\\", ""), bool(m.group(1))))
        words.append((i, j))
        i = j
        if len(words) > 2 and text[i - 2:i] == "in" and j - words[-1][0] == 2 and \
                text[words[0][0]:words[0][1]] == "case":
            yield words, "\n", i                    # `case $x in a) ...` on one line: the pattern follows
            words, pattern = [], True
    if words:
        yield words, "", n


def _decidable(blocks) -> bool:
    """Whether an `if` here can be decided by the values known: not inside a loop walked once for all its rounds, nor a
    function's body (walked where it is defined, with the values there)."""
    return not any(b.kind in _LOOPS or b.kind in ("function", "subshell?", "group?") for b in blocks)


def _brace_body(text: str, brace: int) -> Optional[Tuple[int, int, int]]:
    """For the `{` at brace that opens a function's body: (body start, start of its `}`, just after the operator
    that follows the `}`), or None."""
    depth = 0
    for words, op, where in _commands(text, brace + 1):
        heads = [text[a:b] for a, b in words]
        if not heads:
            continue
        depth += heads.count("{") if heads[0] in ("{", "function") or (len(heads) > 1 and heads[1] == "{") else 0
        if heads[0] == "}":
            if depth == 0:
                return brace + 1, words[0][0], where + 1
            depth -= 1
    return None


def _words_in(text: str, a: int, b: int):
    """The words of text[a:b] (inside `[[ ]]`), as (start, end, text)."""
    out, i = [], a
    while i < b:
        if text[i] in " \t\r\n\\":
            i += 1 if text[i] != "\\" else 2
            continue
        if text.startswith(("&&", "||"), i):
            out.append((i, i + 2, text[i:i + 2]))
            i += 2
            continue
        j = min(_word_end(text, i, b), b)
        if j <= i:
            j = i + 1
        out.append((i, j, text[i:j]))
        i = j
    return out


def _loop_body(text: str, at: int) -> Optional[Tuple[int, int, int]]:
    """For a loop header whose operator is at `at`: (start of its body after `do`, start of its `done`, end of
    `done`), or None when they are not found."""
    depth, body = 0, None
    for words, op, where in _commands(text, at + (1 if at < len(text) else 0)):
        if not words:
            continue
        head = text[words[0][0]:words[0][1]]
        if body is None:
            if head != "do":
                return None
            body = words[0][1]
            words = words[1:]
            if not words:
                continue
            head = text[words[0][0]:words[0][1]]
        if head in ("for", "while", "until", "select"):
            depth += 1
        elif head == "done":
            if depth == 0:
                return body, words[0][0], words[0][1]
            depth -= 1
    return None


def _case_arms(text: str, at: int):
    """The arms of a `case` whose `in` ends at `at`: ([(patterns, body start, body end, terminator)], end of
    `esac`), or None when its shape is not followed."""
    arms, i, n = [], at, len(text)
    while True:
        while i < n and (text[i] in " \t\r\n;" or text[i] == "#"):
            if text[i] == "#":
                nl = text.find("\n", i)
                i = n if nl < 0 else nl
            else:
                i += 1
        if i >= n:
            return None
        if text.startswith("esac", i) and _ends_word(text, i + 4):
            return arms, i + 4
        if text[i] == "(":
            i += 1
        close = _pattern_end(text, i)
        if close <= i or text[close - 1] != ")":
            return None
        patterns = [_unquoted(p.strip()) for p in _split_patterns(text[i:close - 1])]
        body, depth, stop, how = close, 0, None, ""
        for words, op, where in _commands(text, close):
            head = text[words[0][0]:words[0][1]] if words else ""
            if head == "case":
                depth += 1
            elif head == "esac":
                if depth == 0:
                    stop, how, i = words[0][0], "", words[0][0]
                    break
                depth -= 1
            if op in (";;", ";&", ";;&") and depth == 0:
                stop, how = where, op
                i = where + len(op)
                if text.startswith(";;&", where):
                    how, i = ";;&", where + 3
                elif text.startswith(";&", where):
                    how, i = ";&", where + 2
                break
        if stop is None:
            return None
        arms.append((patterns, body, stop, how))


def _split_patterns(text: str) -> List[str]:
    """`a|"b c"|--x=*`: the alternatives of a case pattern (a `|` inside quotes is not one)."""
    out, cur, quote = [], "", ""
    for c in text:
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "|":
            out.append(cur)
            cur = ""
            continue
        cur += c
    return out + [cur]


def _unquoted(pattern: str) -> str:
    """A case pattern as fnmatch reads it: quoted parts are literal (their `*` escaped)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c in "'\"":
            close = pattern.find(c, i + 1)
            close = len(pattern) if close < 0 else close
            out.append("".join(f"[{ch}]" if ch in "*?[" else ch for ch in pattern[i + 1:close]))
            i = close + 1
        elif c == "\\" and i + 1 < len(pattern):
            ch = pattern[i + 1]
            out.append(f"[{ch}]" if ch in "*?[" else ch)
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


_REDIRECTION = re.compile(r"(?:\d*|&)[<>]+&?\S*")


def _ends_word(text: str, i: int) -> bool:
    return i >= len(text) or text[i] in " \t\r\n;&|)"


def _pattern_end(text: str, i: int) -> int:
    """After the `)` that ends a case pattern starting at i (quotes skipped)."""
    n = len(text)
    while i < n and text[i] != ")":
        if text[i] in "'\"":
            close = text.find(text[i], i + 1)
            i = n if close < 0 else close + 1
        elif text[i] == "\n":
            return i                        # no `)` on this line: not a pattern after all
        else:
            i += 1
    return min(i + 1, n)


def _redirections_only(text: str, words) -> bool:
    """Whether these words are only redirections (`> log 2>&1`, `&>> log`)."""
    k = 0
    while k < len(words):
        w = text[words[k][0]:words[k][1]]
        if not _REDIRECTION.fullmatch(w):
            return False
        k += 2 if re.fullmatch(r"(?:\d*|&)[<>]+&?", w) else 1      # a bare operator: its target follows
    return True


def _array_end(text: str, i: int) -> int:
    """The end of `(...)` at i, an array's values (quotes and expansions skipped)."""
    depth, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "(":
            depth += 1
            i += 1
        elif c == ")":
            depth -= 1
            i += 1
            if depth == 0:
                return i
        elif c == "#" and text[i - 1] in " \t\n(":
            nl = text.find("\n", i)         # a comment inside the list (`ids=( 0 1 # the dev's ids`)
            i = n if nl < 0 else nl
        elif c in "'\"$`\\":
            i = _word_end(text, i) if c != "\\" else i + 2
        else:
            i += 1
    return n


def _word_end(text: str, i: int, stop: Optional[int] = None) -> int:
    """The end of the word at i (stop: the end of the text read, e.g. a command substitution's body)."""
    from ..source.shell_words import _skip_expansion
    n = len(text) if stop is None else stop
    while i < n:
        c = text[i]
        if c in " \t\r\n;&|<>()":
            if c in "<>":
                i += 1              # a redirection: its own word
                while i < n and text[i] in "<>&":
                    i += 1
                return i
            return i
        if c == "'":
            close = text.find("'", i + 1)
            i = n if close < 0 else close + 1
        elif c == '"':
            k = i + 1
            while k < n and text[k] != '"':
                if text[k] == "\\":
                    k += 1
                elif text[k] in "$`":
                    k = _skip_expansion(text, k) - 1
                k += 1
            i = k + 1
        elif c == "\\":
            i += 2
        elif c in "$`":
            i = _skip_expansion(text, i)
        else:
            i += 1
    return min(i, n)


# ---------------------------------------------------------------- Python launches

def steps(walk: Walk) -> List[Launch]:
    """Every launch the walk runs, in order: Python scripts (a script that cannot be named or found is kept,
    with `missing` saying why) and msprof runs of a script or of any other application. At most
    MAX_LAUNCHES + 1 are returned: one more than that says the rest was not followed."""
    out = []
    for cmd in walk.commands:
        found = _launch(cmd)
        if found is not None:
            out.append(found)
            if len(out) > MAX_LAUNCHES:
                break
    return out


def launches(walk: Walk) -> List[Launch]:
    """The Python scripts the walk starts and names, in order (at most MAX_LAUNCHES: each is analysed)."""
    return [la for la in steps(walk)[:MAX_LAUNCHES] if la.script]


def _child_script(words, path: str, line: int) -> Tuple[Optional["Word"], bool, Dict[str, "Setting"]]:
    """The shell script a command runs (`./x.sh`, `bash -x x.sh`, behind taskset/nohup/env A=b/...), or None;
    whether a shell is named for it (`bash x.sh` reads x.sh from the current directory; a bare `x.sh` is looked
    up on PATH); and what `env A=b` gives it."""
    k, given = 0, {}
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


def _after_prefix(words, k: int, base: str, given: Dict[str, "Setting"], path: str, line: int) -> int:
    """The index of the command word after a prefix command (`nohup`, `taskset -c 0-3`, `env A=b`, `timeout 60`)
    and its options; `env`'s assignments go to `given`, as set at path:line."""
    k += 1
    while k < len(words) and (words[k].text.startswith("-") or _ASSIGN.match(words[k].text) or
                              _takes_value(words[k - 1].text)):
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
    return first.startswith("#!") and bool(re.search(r"\s-[a-z]*e", first))


def _dropped(words, k: int) -> bool:
    """A word the command line does not run: an unquoted expansion that is empty (the shell drops it), or one not
    known statically in front of python (`${bind_core} python3 x.py`: a wrapper such as taskset, kept in a
    variable)."""
    w = words[k]
    return not w.text or (not w.known and k + 1 < len(words) and bool(PYTHON.match(words[k + 1].text)))


def _launch(cmd: Command) -> Optional[Launch]:
    words = list(cmd.words)
    ranks, wrapper = cmd.ranks, ""
    k = 0
    env = collections.ChainMap({}, cmd.env)    # `env A=b` adds to this command's own layer
    while k < len(words):
        if _dropped(words, k):
            k += 1
            continue
        w = words[k].text
        base = w.rsplit("/", 1)[-1]
        if PYTHON.match(w):
            return _python(cmd, words, k + 1, env, ranks, wrapper)
        if base == "msprof":
            return _under_msprof(cmd, words, k, env, ranks, wrapper)
        if base in WRAPPERS_WITH_SCRIPT:
            n, script_at = _ranks_of(words, k + 1)
            return _script(cmd, words, script_at, env, _times(ranks, n), base)
        child = w
        if base in SHELLS:
            j = _shell_operand(words, k)
            if j < len(words) and words[j].text == "-c":
                return _unknown(cmd, env, ranks, wrapper, f"it runs a command string with `{base} -c`, which is not "
                                "read here")
            child = words[j].text if j < len(words) else ""
        if _SCRIPT_PATH.fullmatch(child):
            # a shell script run (not sourced) that the walk could not read (Walk._run_child): what it starts
            # is not known, so it is not "nothing"
            shown = child.replace(HOLE, "<unknown>")
            if "/" not in child and base not in SHELLS:
                return _unknown(cmd, env, ranks, wrapper, f"it runs {shown} by its bare name, which the shell looks "
                                "up on PATH, not in the current directory: what that starts is not known here")
            if wrapper:
                return _unknown(cmd, env, ranks, wrapper, f"it runs the shell script {shown} under {wrapper}, which "
                                f"is not followed: emulate {shown.rsplit('/', 1)[-1]} itself")
            return _unknown(cmd, env, ranks, wrapper, f"it runs the shell script {shown}, which is not read from "
                            "here (not found, named by a value not known statically, outside the project, nested "
                            f"too deep or run from itself): emulate {shown.rsplit('/', 1)[-1]} itself")
        if base in PREFIXES:
            if base in ("mpirun", "mpiexec", "horovodrun", "srun"):
                wrapper = base
                n, _ = _ranks_of(words, k + 1)
                ranks = _times(ranks, n)
            # options of the prefix and `env A=b`: skip until the next command word
            k = _after_prefix(words, k, base, env, cmd.path, cmd.line)
            continue
        return None
    return None


def _under_msprof(cmd, words, k, env, ranks, wrapper) -> Optional[Launch]:
    """msprof and the application it starts, read as msprof reads its argv (msprof.parse): a Python script is
    followed, another application (a benchmark binary) is msprof's alone; None when msprof starts nothing (its
    export and query modes)."""
    from ..checks import msprof as M
    rest = words[k + 1:]
    call = M.parse(M.Word(words[k].text, lambda i, j: (words[k].start, words[k].end)),
                   [M.Word(w.text, lambda i, j, w=w: (w.start, w.end)) for w in rest])
    run = MsprofRun(call, words[k], any(o.name == "application" and o.value for o in call.options))
    if not call.complete:
        return _unknown(cmd, env, ranks, wrapper, "msprof's words are not all known statically (a variable from the "
                        "caller?): its options and application cannot be read", run)
    named = [o for o in call.options if o.name == "application" and o.value]
    if named:
        value = named[-1].value
        at = next(w for w in reversed(rest) if w.text == named[-1].word.text)
        if HOLE in value:
            return _unknown(cmd, env, ranks, wrapper, "the application msprof starts is not known statically", run)
        # msprof splits --application at spaces (no shell quoting); the pieces keep the option word's place
        app = [Word(StrValue(t, [], at.start, at.end, origin="shell"), at.start, at.end)
               for t in value.split(" ") if t]
    else:
        app = list(rest[len(rest) - len(call.app):]) if call.app else []
    if not app:
        return None
    if not PYTHON.match(app[0].text):
        if not app[0].known:
            return _unknown(cmd, env, ranks, wrapper, "the application msprof starts is not known statically", run)
        return Launch(cmd._replace(env=env), "", (), wrapper, ranks, run, app=tuple(a.text for a in app))
    found = _python(cmd, list(words[:k + 1]) + app, k + 2, env, ranks, wrapper)
    if found is None:
        return _unknown(cmd, env, ranks, wrapper, "the Python application msprof starts is not a script that can "
                        "be read (python -c, or a module not in the project)", run)
    return found._replace(msprof=run)


def _unknown(cmd, env, ranks, wrapper, why: str, msprof=None) -> Launch:
    """A launch whose script cannot be named or found: its verdict is unknown, with why."""
    return Launch(cmd._replace(env=env), "", (), wrapper, ranks, msprof, missing=why)


def _takes_value(option: str) -> bool:
    return option in ("-np", "-n", "-N", "-c", "-H", "-x", "--host", "-hostfile", "--hostfile", "-C", "-m",
                      "--cpunodebind", "--membind", "--physcpubind", "-p", "--map-by", "--bind-to", "-k", "-s")


def _ranks_of(words, k) -> Tuple[int, int]:
    """(process count from -np / --nproc_per_node, index of the first .py word) after index k. The count is 0
    when none is given, -1 when it is given by a value not known statically (`-np $NP`)."""
    n, script_at = 0, len(words)
    for j in range(k, len(words)):
        w = words[j].text
        opt, _, val = w.partition("=")
        if opt in RANK_OPTIONS:
            val = val or (words[j + 1].text if j + 1 < len(words) else "")
            n = int(val) if val.isdigit() else -1
        if w.endswith(".py") and script_at == len(words):
            script_at = j
    return n, script_at


def _times(ranks: int, n: int) -> int:
    """How often a command runs when a launcher asks for n processes of it (0: not known)."""
    return 0 if ranks <= 0 or n < 0 else ranks * (n or 1)


def _python(cmd, words, k, env, ranks, wrapper) -> Optional[Launch]:
    while k < len(words):
        w = words[k].text
        if w in ("-W", "-X", "-Q"):
            k += 2
            continue
        if w == "-c":
            return None                 # inline code: no script to read
        if not words[k].known:
            return _script(cmd, words, k, env, ranks, wrapper)
        if w == "-m" and k + 1 < len(words):
            module = words[k + 1].text
            if module in PY_LAUNCH_MODULES:
                n, script_at = _ranks_of(words, k + 2)
                return _script(cmd, words, script_at, env, _times(ranks, n), module)
            from ..values.project import find_module
            paths = {find_module(os.path.join(d, "_"), 0, module.split(".")) for d in cmd.cwd}
            paths.discard(None)
            if len(paths) != 1:
                return None             # an installed module (pip, a tool): not the project's to read
            path = paths.pop()
            here = next(d for d in cmd.cwd if find_module(os.path.join(d, "_"), 0, module.split(".")) == path)
            return Launch(cmd._replace(env=env, cwd=(here,)), os.path.abspath(path), tuple(words[k + 2:]),
                          wrapper, ranks)
        if w.startswith("-"):
            k += 1
            continue
        return _script(cmd, words, k, env, ranks, wrapper)
    return None


def _script(cmd, words, k, env, ranks, wrapper) -> Optional[Launch]:
    if k >= len(words):
        return None
    word = words[k]
    if not word.known:
        shown = word.value.text.replace(HOLE, "<unknown>")
        return _unknown(cmd, env, ranks, wrapper, f"the script is named by a value not known statically ({shown})")
    if not word.text.endswith(".py"):
        return None
    if word.text.rsplit("/", 1)[-1] == "msprof.py" and k + 1 < len(words) and words[k + 1].text in MSPROF_PY_MODES:
        return None                     # the toolkit's analysis of data collected earlier: it starts no training
    if os.path.isabs(word.text) and not os.path.isfile(word.text):
        return _unknown(cmd, env, ranks, wrapper, f"cannot find {word.text}: no such file here")
    if not cmd.cwd:
        # an absolute path is found without the directory; what the script writes to relative paths is not
        where = f"{word.text} is there, but" if os.path.isabs(word.text) else f"cannot find {word.text}:"
        why = cmd.lost or "a `cd` to a value not known statically, or inside a branch"
        return _unknown(cmd, env, ranks, wrapper, f"{where} the directory the launcher runs it in is not known here "
                        f"({why})")
    path = Walk.find(word.text, cmd.cwd)
    if path is None:
        return _unknown(cmd, env, ranks, wrapper, f"cannot find {word.text} (looked in {', '.join(cmd.cwd)})")
    here = next(d for d in cmd.cwd if os.path.isfile(os.path.join(d, word.text)))
    return Launch(cmd._replace(env=env, cwd=(here,)), path, tuple(words[k + 1:]), wrapper, ranks)


def walk(launcher: str, cwd: Optional[str] = None, text: Optional[str] = None,
         inside: Optional[str] = None) -> Tuple[Walk, List[Launch]]:
    """The walk of a launcher (its commands, sourced files) and the Python scripts it starts."""
    w = Walk(launcher, cwd, inside).run(text)
    return w, launches(w)


def command_lines(launcher: str, cwd: Optional[str] = None) -> List[Command]:
    """Every simple command a launcher runs (sourced scripts included), in order: for checks of other
    command lines (msprof). Each has its argv as Words (decoded text, HOLE for what is unknown, and the
    source range of each word in `path`), its line and column, the exported environment and the directory."""
    return Walk(launcher, cwd).run().commands


# ---------------------------------------------------------------- the script's flags


def flag_table(ctx) -> Dict[str, object]:
    """Option string -> FlagDef for every flag the script (or a module it imports) defines."""
    import ast as _ast
    flags = list(ctx.resolver.flags)
    from ..values.project import for_file
    lookup = for_file(ctx.filename, ctx.tree)
    if lookup is not None:
        for module in lookup.imported_modules():
            if module.may_define_flags:         # else it defines none, and is not indexed to learn that
                flags.extend(module.resolver.flags)
    table: Dict[str, object] = {}
    for f in flags:
        if f.kind == "absl":
            table.setdefault(f"--{f.dest}", f)
            table.setdefault(f"-{f.dest}", f)
            if f.py_type is bool:
                table.setdefault(f"--no{f.dest}", f)
                table.setdefault(f"-no{f.dest}", f)
        else:
            for a in f.call.args:
                if isinstance(a, _ast.Constant) and isinstance(a.value, str) and a.value.startswith("-"):
                    table.setdefault(a.value, f)
    return table


def bind(launch: Launch, table: Dict[str, object], root: str) -> Tuple[Dict[str, Given], List[Word]]:
    """The launch's words bound to the script's flags: ({dest: Given}, words of options it does not define)."""
    given: Dict[str, Given] = {}
    unknown: List[Word] = []
    words = [w for w in _without_redirections(launch.args)]
    k = 0
    where = f"{_rel(launch.command.path, root)}:{launch.command.line}"
    while k < len(words):
        w = words[k]
        text = w.text
        k += 1
        if text == "--":
            break
        if not w.known and text.startswith(HOLE):
            # `"$@"`, `$EXTRA_ARGS`: more flags may come from the caller, so a flag not seen is not its default
            given.setdefault(OPEN, Given(w.value.text, HOLE, w, None, where))
            continue
        if not text.startswith("-") or not w.known and "=" not in text:
            continue
        option, eq, value = text.partition("=")
        flag = table.get(option)
        if flag is None:
            unknown.append(w)
            continue
        takes_value = not (flag.kind == "argparse" and flag.action in ("store_true", "store_false")) and \
            not (flag.kind == "absl" and flag.py_type is bool)
        if _nargs(flag):
            given[flag.dest] = Given(option, HOLE, w, None, where)     # lists: not followed
            continue
        if eq:
            given[flag.dest] = Given(option, value, w, w, where)
        elif takes_value and k < len(words):
            given[flag.dest] = Given(option, words[k].text, w, words[k], where)
            k += 1
        elif flag.kind == "absl" and flag.py_type is bool:
            given[flag.dest] = Given(option, "false" if option.lstrip("-").startswith("no") and
                                     option.lstrip("-") != flag.dest else "true", w, None, where)
        else:
            given[flag.dest] = Given(option, None, w, None, where)
    return given, unknown


def _nargs(flag) -> bool:
    return flag.kind == "argparse" and any(k.arg == "nargs" for k in flag.call.keywords)


def _without_redirections(words):
    skip = False
    for w in words:
        if skip:
            skip = False
            continue
        if re.fullmatch(r"(?:\d*|&)[<>]+&?", w.text):      # `> log`, `2>&1`, `&> log`
            skip = True
            continue
        if re.fullmatch(r"(?:\d*|&)[<>]+&?\S+", w.text):
            continue
        yield w


# ---------------------------------------------------------------- one launch, as emulate and check see it

class LaunchSetup(NamedTuple):
    """A launch with its script's setups as they are for these flags and this environment."""
    launch: Launch
    ctx: object                 # the script's analysis.Context, its resolver bound to the flags
    given: Dict[str, Given]
    unknown: List[Word]
    setups: list                # inventory.ScriptSetup, guards on the flags decided
    inits: list
    order: object
    decided: List[str]          # how flags decided the script's conditions, for messages
    traps: List[Tuple[Given, str]]  # (flag given, what it does): a "False" read as a true string


def prepare(launch: Launch, target, root: str) -> Optional[LaunchSetup]:
    """The script of a launch analysed with the flags the launch passes (None: it cannot be read)."""
    import ast
    from ..checks.analysis import Context, Settings
    from ..source.files import ReadError, read_source
    from ..setups.inventory import Inventory
    from ..source.prefilter import words_over_budget
    try:
        source = read_source(launch.script)
        if words_over_budget(source.text):
            return None                     # over the work budget: checking it says so (NPP191)
        tree = ast.parse(source.text, launch.script)
    except (ReadError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    ctx = Context(SourceText(source.text), tree, launch.script, Settings(target=target, cwd=launch.command.cwd[0]))
    given, unknown = bind(launch, flag_table(ctx), root)
    ctx.resolver.given = given
    inventory = Inventory(ctx)
    setups, decided, traps = [], [], []
    for s in inventory.setups:
        s, why, trap = _decide(ctx, s, given)
        setups.append(s)
        decided.extend(why)
        traps.extend(trap)
    return LaunchSetup(launch, ctx, given, unknown, setups, inventory.inits, inventory.order, decided, traps)


def _decide(ctx, setup, given: Dict[str, Given]):
    """A setup's `if` conditions with this launch's flags: all true (the setup runs), one false (it does not), or
    left as they are when any is not known."""
    import ast
    from ..setups.inventory import Mode, guard_text
    from ..setups.state import is_main_guard
    from ..values.ops import Opaque
    scope = ctx.sites.scope_of.at(setup.anchor, ctx.sites.module)
    # the setup's own `if`s, then those on the way from the entry point to its function (reach.py)
    items = [(g, scope, ctx.pos(setup.anchor)) for g in ctx.sites.guards_of.at(setup.anchor, ())
             if not isinstance(g.test, ast.Constant)]
    own = guard_text(tuple(g for g, _, _ in items))
    items += [(g, sc, p) for g, sc, p in setup.path if guard_text((g,))[0] not in own]
    if not setup.conditions or not items or guard_text(tuple(g for g, _, _ in items)) != tuple(
            c for c in setup.conditions if c != setup.condition):
        return setup, [], []
    truths, why, traps = [], [], []
    for g, scope, pos in items:
        if is_main_guard(g):
            continue
        values = ctx.values.scalars(g.test, scope, pos).candidates
        if not values or any(isinstance(v, Opaque) for v in values):
            return setup, [], []
        truth = {bool(v) for v in values}
        if len(truth) != 1:
            return setup, [], []
        holds = truth.pop() != g.negated
        text = guard_text((g,))[0] if guard_text((g,)) else "the condition"
        attrs = [n.attr for n in ast.walk(g.test) if isinstance(n, ast.Attribute)]
        flags = [d for d in attrs if d in given]
        origin = "; ".join(f"{given[d].option}{'=' + given[d].text if given[d].text else ''} from {given[d].where}"
                           for d in flags) or \
            "; ".join(f"the default of --{d}, which the launcher does not pass" for d in attrs[:1]) or "defaults"
        why.append(f"`{text}` is {'true' if holds else 'false'} in this launch ({origin})")
        for d in flags:
            g_ = given[d]
            if holds and isinstance(values[0], str) and (g_.text or "").strip().lower() in ("false", "0", "no", "off"):
                traps.append((g_, f"{g_.option}={g_.text} reaches the script as the non-empty string "
                              f"{g_.text!r}, which is true: `{text}` holds and profiling is switched on"))
        truths.append(holds)
    if not truths:
        return setup, [], []
    if all(truths):
        return setup._replace(conditions=(setup.condition,) if setup.condition else ()), why, traps
    off = Mode("off", "not run in this launch: " + next(w for w, t in zip(why, truths) if not t))
    return setup._replace(mode=off, conditions=()), why, traps


def launch_env(launch: Launch, base, root: str, environ=None):
    """The environment GE sees in this launch: the launcher's exports over the caller's (base), and why a
    value is not known. environ: the caller's environment when it is known (--env), else None."""
    env = launch.command.env
    out, unknown = base, []
    settings = {}
    for name in ("PROFILING_MODE", "PROFILING_OPTIONS", "ASCEND_WORK_PATH"):
        s = env.get(name)
        if s is not None and s.how == "set without export":
            if environ is None:
                unknown.append(f"{name} is set at {s.where(root)} without export: the script sees it only if "
                               "the caller exports it (give --env to use this environment)")
                s = s._replace(value=HOLE)
            elif name not in environ:
                s = None                    # not in the environment, so not exported: the script never sees it
            else:
                s = s._replace(how="set (exported by the caller)")
        elif s is not None and HOLE in s.value:
            unknown.append(f"{name} is set at {s.where(root)} to a value not known statically")
        settings[name] = s
    mode, opts, work = settings["PROFILING_MODE"], settings["PROFILING_OPTIONS"], settings["ASCEND_WORK_PATH"]
    if opts is not None:
        out = out._replace(options=opts.value, label=f"the launcher ({opts.how} at {opts.where(root)})")
    if mode is not None:
        out = out._replace(mode=mode.value, mode_label=f"the launcher ({mode.how} at {mode.where(root)})")
    if work is not None and HOLE not in work.value:
        out = out._replace(work_path=work.value, work_path_known=True)
    return out, unknown


def emulate_launch(w: Walk, launch: Launch, target, base, environ=None) -> Tuple[Optional[LaunchSetup], list, object]:
    """One launch's results (and the LaunchSetup of its script, None for an application msprof starts that is not
    a Python script we read), with the environment GE sees in it."""
    from .replay import Planner
    from ..setups.inventory import Mode, OptionsArg, ScriptSetup
    root = w.root
    env, unknown = launch_env(launch, base, root, environ)
    ls = prepare(launch, target, root) if launch.script else None
    results: list = []
    if ls is not None:
        from .replay import changes_directory
        run_cwd = None if changes_directory(ls.ctx.sites) else launch.command.cwd[0]
        setups = list(ls.setups)
        if not setups and env.mode is not None:
            setups = [ScriptSetup("env", 0, 0, Mode("inherit"), OptionsArg("absent"), None, "yes", ())]
        results = Planner(setups, ls.inits, ls.order, target, run_cwd, env, context=ls.ctx.src.text).results()
        if env.mode is not None and HOLE in env.mode and launch.msprof is None:
            results = [_unknown_env(r, unknown[0] if unknown else "PROFILING_MODE is not known statically")
                       for r in results]
    if launch.msprof is not None and launch.msprof.call.complete and (ls is not None or not launch.script):
        from .msprof_launch import under_msprof
        results = under_msprof(launch, results, target, env, unknown, root, ls, flag_table(ls.ctx) if ls else {})
    return ls, results, env


def _unknown_env(r, why: str):
    """A result that depends on PROFILING_MODE when the launch leaves it unknown: unknown, and why."""
    if r.source in ("script", "adapter default") or r.read_by_ge is False:
        return r
    return r._replace(verdict="unknown", messages=[why] + [m for m in r.messages if HOLE not in m], spread=[])


def launch_info(w: Walk, launch: Launch, ls: Optional[LaunchSetup], root: str) -> dict:
    """What the report says about the launch: the command line, where the environment and flags come from."""
    cmd = launch.command
    where = f"{_rel(cmd.path, root)}:{cmd.line}"
    env = {name: {"value": s.value, "set": f"{s.how} at {s.where(root)}"} for name, s in sorted(cmd.env.items())
           if name.startswith(("PROFILING_", "ASCEND_WORK_PATH"))}
    flags = {g.option: {"value": g.text, "at": g.where} for d, g in ls.given.items() if d != OPEN} if ls else {}
    # as a shell reads it back (an empty unquoted expansion is no word at all)
    shown = " ".join(shlex.quote(x.text) for x in _without_redirections(cmd.words) if x.text)
    lines = [f"launch: {where} {shown}".replace(HOLE, "<unknown>")]
    if launch.missing:
        lines.append(f"  unknown: {launch.missing}".replace(HOLE, "<unknown>"))
    if not cmd.settled and cmd.cwd and (launch.script or launch.missing.startswith("cannot find")):
        if cmd.cwd[0] == w.start:
            lines.append(f"  runs in {cmd.cwd[0]}: the launcher's own directory, where it is meant to be started (it "
                         "sets none with `cd`; give --cwd for another)")
        else:
            lines.append(f"  runs in {cmd.cwd[0]}: a relative `cd` from the launcher's own directory, where it is meant "
                         "to be started (give --cwd for another)")
    if launch.ranks > 1:
        lines.append(f"  started {launch.ranks} times (one per rank"
                     f"{', by ' + launch.wrapper if launch.wrapper else ''}); each rank emulated alike")
    elif launch.ranks == 0:     # a loop over files or "$@", `-np $NP`: how often, and whether per rank, is unknown
        lines.append("  started an unknown number of times (a loop, or a process count not known statically); "
                     "each run emulated alike")
    if cmd.conditional:
        lines.append("  inside a branch, loop condition or function: this command may not run")
    if cmd.background:
        lines.append("  in the background (&): the launcher goes on without waiting for it")
    for name, e in env.items():
        lines.append(f"  {name}={e['value']} ({e['set']})".replace(HOLE, "<unknown>"))
    chain = tuple(f for f, _, _ in cmd.via)
    mine = lambda k, table: table[k] == chain[:len(table[k])]      # noqa: E731  (sourced in its own shells)
    # each distinct line once, with how often the walk met it (a launcher that sources itself meets the same
    # `source` line at every depth, in every branch: 1 MB of repeats for a 6-line launcher)
    met: Dict[str, int] = {}
    for k, (src, by, line) in enumerate(w.sourced):
        if mine(k, w.sourced_in):
            key = f"  sources {_rel(src, root)} ({_rel(by, root)}:{line})"
            met[key] = met.get(key, 0) + 1
    for child, by, line in cmd.via:
        key = f"  runs {_rel(child, root)} ({_rel(by, root)}:{line})"
        met[key] = met.get(key, 0) + 1
    for k, (name, by, line) in enumerate(w.unread):
        if not mine(k, w.unread_in):
            continue
        why = f" ({w.why_unread[k]})" if k in w.why_unread else ""
        key = (f"  sources {name} ({_rel(by, root)}:{line}): not read here{why}, taken as setting no PROFILING_* "
               "variable".replace(HOLE, "<unknown>"))
        met[key] = met.get(key, 0) + 1
    lines.extend(key if n == 1 else f"{key} [{n} times]" for key, n in met.items())
    for file, (_, line, why) in w.stopped.items():
        lines.append(f"  ! the walk of {_rel(file, root)} stopped at line {line} ({why}): "
                     "the commands from there on were not read")
    from .msprof_launch import launch_json as msprof_json, launch_lines
    if launch.msprof is not None:
        lines.extend(launch_lines(launch, where))
    decided = ls.decided if ls else []
    traps = ls.traps if ls else []
    for d in decided:
        lines.append(f"  {d}")
    for g, what in traps:
        lines.append(f"  ! {what}")
    return {"command": [x.text for x in cmd.words], "at": where,
            "script": _rel(launch.script, root) if launch.script else None,
            "application": list(launch.app) or None, "unknown": launch.missing or None,
            "ranks": launch.ranks, "conditional": cmd.conditional, "background": cmd.background,
            "environment": env, "flags": flags,
            "sourced": list(dict.fromkeys(_rel(s, root) for k, (s, _, _) in enumerate(w.sourced)
                                          if mine(k, w.sourced_in))),             # each once (self-sourcing)
            "runs": [_rel(c, root) for c, _, _ in cmd.via],
            "not_read": list(dict.fromkeys(n for k, (n, _, _) in enumerate(w.unread) if mine(k, w.unread_in))),
            "outside": [n for k, (n, _, _) in enumerate(w.unread)
                        if mine(k, w.unread_in) and "--no-outside" in w.why_unread.get(k, "")],
            "decided": decided, "msprof": msprof_json(launch, where) if launch.msprof is not None else None,
            "traps": [what for _, what in traps], "lines": lines}


# ---------------------------------------------------------------- check: findings on the launcher's lines

def check_launcher(text: str, path: str, settings) -> list:
    """Findings a launcher's own lines carry for the scripts it starts (the same model as emulate):
    NPP205 where it passes `--x=False` to a string flag that guards profiling, and the options problems
    (NPP1xx) of a profiling-options value it passes on the command line."""
    return check_launcher_each(text, path, (settings,))[0]


def check_launcher_each(text: str, path: str, each, w: Optional[Walk] = None) -> list:
    """check_launcher for each of several settings: the launcher is walked and its scripts analysed once
    (w: its walk, when the caller made it)."""
    from ..source.model import Finding
    from ..checks.analysis import internal_error
    if not os.path.isfile(path) or len(text) > MAX_BYTES:
        return [[] for _ in each]           # over the bound: analyse_shell says it was not checked
    try:
        w, prepared = _prepared(text, path, each[0].target, w)
        undecided: list = []
        dropped = dropped_switches(text, path, each[0].target, undecided=undecided)
        return [_check(text, w, prepared, settings, Finding, dropped, undecided) for settings in each]
    except Exception as exc:                # same contract as Python files
        return [[internal_error(exc)] for _ in each]


def _prepared(text: str, path: str, target, w: Optional[Walk] = None):
    """The walk of the launcher, and each launch of its own lines with its script analysed."""
    w = w or Walk(path).run(text)
    found = launches(w)
    me = os.path.abspath(path)
    prepared = []
    for launch in found:
        if launch.command.path != me:
            continue                        # a command of a sourced script: reported there
        if launch.msprof is not None:
            continue                        # under msprof the script's profiling options are not the collector's
        if not _may_have_setups(launch.script):
            continue                        # no setup to judge what the launch passes against: not analysed
        ls = prepare(launch, target, w.root)
        if ls is not None:
            prepared.append((launch, ls))
    return w, prepared


def _may_have_setups(script: str) -> bool:
    """Whether a script may hold a profiling setup, by the prefilter the flake8 plugin runs (source/prefilter.py):
    one that fails it has none, so nothing a launch passes it can be judged (NPP205, an options value). A script
    that cannot be read is left to prepare."""
    from ..source.files import ReadError, read_source
    from ..source.prefilter import might_configure_profiling
    try:
        return might_configure_profiling(read_source(script).text)
    except (OSError, ReadError, ValueError):
        return True


def _check(text: str, w: "Walk", prepared, settings, Finding, dropped=(), undecided=()) -> list:
    from ..checks import launcher_switch
    from ..checks.options import check_options, for_state
    from ..source.model import finding
    from ..source.said import said
    from ..setups.state import from_setup
    from ..values.reader import place
    src = SourceText(text)
    out, seen = [], set()

    def report(code, start, end, message):
        if (code, start) in seen:
            return
        seen.add((code, start))
        (l1, c1), (l2, c2) = src.position(start), src.position(max(start, end))
        out.append(finding(code, message, start, end, l1, c1, l2, c2))

    me = os.path.abspath(w.launcher)
    for file, (offset, line, why) in w.stopped.items():
        # a walk cut short must never pass as "All checks passed!": what it did not reach is unchecked
        # a file the walk stopped in is the launcher, one it sources (listed once its walk returns) or one it runs
        how = "sources" if file in w.sourced_stopped or any(s == file for s, _, _ in w.sourced) else "runs"
        where = "" if file == me else f" in {_rel(file, w.root)}, which it {how},"
        report("NPP191", offset if file == me else 0, offset if file == me else 0,
               said("analysis budget exhausted", f"the walk of this launcher stopped{where} at line {line} ({why}), "
                    "so the command lines from there on were not checked (a finding may be missing; split the "
                    "launcher)"))
    for d in dropped:
        report(launcher_switch.CODE, d.start, d.end, launcher_switch.message(d))
    for option, start, end, why in undecided:       # NPP015 not decided: never "All checks passed!"
        report("NPP191", start, end, said("analysis budget exhausted", f"{why}, and without those values it reaches "
                                          f"no launch, so whether a launch gets {option} (NPP015) was not checked (a "
                                          "finding may be missing; `npuprof emulate LAUNCHER -- "
                                          f"{option}=True` says where it goes)"))
    for launch, ls in prepared:
        script = _rel(launch.script, w.root)
        for g, what in ls.traps:
            if g.word.start is not None:
                report("NPP205", g.word.start, g.word.end,
                       said(f"{what.replace('the script', script, 1)} in this launch", "",
                            "pass nothing to leave it off, or parse the flag with a str-to-bool converter in the "
                            "script"))
        for setup in ls.setups:
            strings = setup.options.strings if setup.options.state == "given" else None
            if strings is None or len(strings.candidates) != 1:
                continue
            value = strings.candidates[0]
            if value.origin != "launcher" or not value.runs:
                continue                    # options built in the script: the script's findings
            state = from_setup(setup)
            mode_on = True if state.status == "on" else False if state.latent else None
            result = check_options(value.text, settings.target, mode_on)
            for issue in result.issues:
                start, end = place(value, issue.i, issue.j)
                report(issue.code, start, end,
                       for_state(issue.words, state).within(f"(passed to {script} at line {launch.command.line}, "
                                                           f"read by its {setup.route} setup at line {setup.line})"))
    return sorted(out, key=Finding.sort_key)


# ---------------------------------------------------------------- a launcher switch that goes nowhere (NPP015)

# `[[ $para == --profiling* ]]`, `[ "$1" = "--profiling" ]`: an option the launcher's argument loop compares with
_TESTED_OPTION = re.compile(r"\[\[?\s*\"?\$\{?\w+\}?\"?\s*==?\s*[\"']?(--[A-Za-z][\w-]*)(=?\*?)[\"']?")
# `--profiling=*)`, `-p|--profiling)`: a case pattern of one
_CASE_OPTION = re.compile(r"^[ \t]*\(?[ \t]*((?:[\"']?-{1,2}[A-Za-z][\w-]*[=*]*[\"']?[ \t]*\|[ \t]*)*"
                          r"[\"']?-{1,2}[A-Za-z][\w-]*[=*]*[\"']?)[ \t]*\)", re.M)


class Dropped(NamedTuple):
    """A profiling option the launcher takes and no launch gets anything of (check_launcher: NPP015)."""
    option: str                 # as the launcher takes it: --profiling
    spelled: str                # as a user switches it on: --profiling=True
    start: int                  # where the launcher parses it
    end: int
    script: str                 # the script a launch starts, relative to the launcher's folder
    launch_line: int            # the launch's line in the launcher
    flag: str                   # the script's own option: --profiling
    default: str                # its default as written: False
    flag_at: str                # where the script defines it: train.py:8
    guard: str                  # `args.profiling`, the condition profiling hangs on
    setup_at: str               # train.py:15


def launcher_options(text: str) -> List[Tuple[str, str, int, int]]:
    """The options a launcher's argument loop tests for: (name, how it takes a value: "=" for `--x=v`, " " for
    `--x v`, "" for a switch, where the test is, its end)."""
    out: Dict[str, Tuple[str, str, int, int]] = {}
    for m in _TESTED_OPTION.finditer(text):
        name, tail = m.group(1), m.group(2)
        out.setdefault(name, (name, "=" if tail else _valued(text, m.end()), m.start(1), m.end(1)))
    for m in _CASE_OPTION.finditer(text):
        for raw in m.group(1).split("|"):
            word = raw.strip().strip("\"'")
            name = word.rstrip("=*")
            if name.startswith("--"):
                how = "=" if word.endswith(("=*", "*")) else _valued(text, m.end())
                at = m.start(1) + m.group(1).index(raw.strip())
                out.setdefault(name, (name, how, at, at + len(raw.strip())))
    return list(out.values())


def _valued(text: str, i: int) -> str:
    """How a `--x` matched whole takes its value, read from its branch (up to `;;`, `elif`, `fi`): `$2`, `shift 2`,
    `$OPTARG` mean a separate word."""
    branch = re.split(r";;|\belif\b|\bfi\b|\belse\b", text[i:i + 600], maxsplit=1)[0]
    return " " if re.search(r"\$\{?2\b|shift\s+2|OPTARG", branch) else ""


def _profiling_option(text: str, name: str, at: int) -> bool:
    """A profiling option by its name, the folder its branch makes, or the help text that names it."""
    if "prof" in name.lower():
        return True
    branch = re.split(r";;|\belif\b|\bfi\b|\belse\b", text[at:at + 600], maxsplit=1)[0]
    if re.search(r"mkdir[^\n]*prof", branch, re.I):
        return True
    return any("profil" in line.lower() and name in line for line in text.splitlines() if "echo" in line)


def _values_tested(text: str, at: int) -> List[str]:
    """The values an option may be given that the launcher could tell apart: `true` and `1`, and each word it compares
    a variable with that the option's branch (at `at`) sets, or that is made from one (`[ "$PROF" == "enable" ]`, a
    `case $prof in on)` pattern)."""
    branch = re.split(r";;|\belif\b|\bfi\b|\belse\b", text[at:at + 600], maxsplit=1)[0]
    names = set(re.findall(r"\b([A-Za-z_]\w*)\+?=", branch))
    for _ in range(2):                  # what is made from them: `prof=$profiling`, `OPTS="--x=${prof}"`
        names |= {m for n in list(names) for m in re.findall(r"\b([A-Za-z_]\w*)\+?=[^\n;]*\$\{?" + re.escape(n) + r"\b",
                                                               text)}
    words = ["true", "1"]
    used = [line for line in text.splitlines()
            if any(re.search(r"\$\{?" + re.escape(n) + r"\b", line) for n in names)]
    for line in used:
        words += re.findall(r"!?==?\s*[\"']?([\w.+-]{1,40})[\"']?\s*\]", line)
    if any(re.match(r"\s*case\b", line) for line in used):
        words += re.findall(r"^[ \t]*\(?[\"']?([\w.+-]{1,40})[\"']?[ \t]*\)", text, re.M)
    return list(dict.fromkeys(w for w in words if w not in ("True", "False")))[:16]


def _given(name: str, how: str, value: str) -> List[str]:
    if how == "=":
        return [f"{name}={value}"]
    if how == " ":
        return [name, value]
    return [name] if value == "True" else []


def _seen(w: "Walk") -> List[tuple]:
    """What the launches of a walk get: script, words, exported environment (compared between two walks)."""
    return [(la.script, la.missing, tuple(x.text for x in la.command.words),
             tuple(sorted((k, v.value) for k, v in la.command.env.items())), la.command.cwd)
            for la in steps(w)[:MAX_LAUNCHES]]


def dropped_switches(text: str, path: str, target, given: Optional[Sequence[str]] = None,
                     cwd: Optional[str] = None, undecided: Optional[list] = None) -> List[Dropped]:
    """The profiling options of a launcher that no launch gets anything of: walked with the option on and off (the
    other options it tests given a placeholder, so a required `--data_path` does not end it first), its launches
    are the same, each starts a script read here, and each script's profiling hangs on a flag of its own that is
    off by default. given: the arguments `emulate -- ARG...` names (the option as the user spells it is judged
    with them); None for check. undecided: gets (option, start, end, why) for each option whose walks stop at
    a bound with the placeholders and reach no launch without them (check says so: NPP191)."""
    if "\r\n" in text or "prof" not in text.lower():
        # bash reads every line with a carriage return: not what its lines say; and a profiling option is one by
        # "prof" in its name, its branch's `mkdir` or its help line (_profiling_option)
        return []
    options = launcher_options(text)
    found = []
    for name, how, start, end in options:
        if not _profiling_option(text, name, start):
            continue
        if given is not None:
            mine = [a for a in given if a == name or a.startswith(name + "=")]
            if not mine:
                continue
            k = list(given).index(mine[0])
            value = mine[0].partition("=")[2] or (given[k + 1] if how == " " and k + 1 < len(given) else "True")
            base = [a for a in given if a not in mine]
            on, off = list(given), base + _given(name, how, "False" if value.lower() != "false" else "True")
        else:
            base = [a for other, h, _, _ in options if other != name for a in _given(other, h, "npuprof_x")
                    if h]
            on, off = base + _given(name, how, "True"), base + _given(name, how, "False")
        a, b = Walk(path, cwd, args=on).run(text), None
        if given is None and a.stopped:
            a, b, base = _alone(text, path, cwd, name, how, a.stopped, start, end, undecided)
            if a is None:
                continue
        if not any(p.lstrip("-").rstrip("=*").startswith(name.lstrip("-")) for p, _, _ in a.parsed):
            continue                    # the loop that reads it was not followed: nothing is known of it
        if b is None:                   # (the off walk only once the on walk shows the option is read)
            b = Walk(path, cwd, args=off).run(text)
            if given is None and b.stopped:
                a, b, base = _alone(text, path, cwd, name, how, b.stopped, start, end, undecided)
                if a is None:
                    continue
        if _seen(a) != _seen(b):
            continue                    # it reaches a launch (its words, its environment, where it runs)
        if how and any(
                _seen(Walk(path, cwd, args=base + _given(name, how, value)).run(text)) != _seen(b)
                for value in _values_tested(text, start)):
            continue                    # another spelling (`true`, `1`, a word the launcher compares with) reaches one
        hit = _off_by_default(a, target)
        if hit is None:
            continue
        spelled = next((x for x in on if x.startswith(name)), name) if given is not None else \
            " ".join(_given(name, how, "True")) or name
        found.append(Dropped(name, spelled, start, end, *hit))
    return found


def _alone(text: str, path: str, cwd, name: str, how: str, stopped, start: int, end: int, undecided):
    """The walks of an option without the other options' placeholders, whose walks stopped at a bound (N options
    through an N-branch loop): (on, off, base []) when they are conclusive, as `emulate -- --profiling=True` walks
    it; else (None, None, None), and why it was not decided goes to undecided."""
    a, b = Walk(path, cwd, args=_given(name, how, "True")).run(text), \
        Walk(path, cwd, args=_given(name, how, "False")).run(text)
    if not a.stopped and not b.stopped and steps(a):
        return a, b, []
    _, line, why = next(iter(stopped.values()))
    if undecided is not None:
        undecided.append((name, start, end, f"the walk of this launcher with a value for each of its options stopped "
                                            f"at line {line} ({why})"))
    return None, None, None


def _off_by_default(w: "Walk", target) -> Optional[tuple]:
    """(script, launch line, flag, default, flag at, guard, setup at) when every launch of the walk starts a script
    read here whose profiling setups are all off because a flag of its own is off by default, or that has none while
    no Python file of the project names a profiling setting (flag, default, ... are "" then); None otherwise."""
    import ast
    found = steps(w)[:MAX_LAUNCHES]
    if not found or any(la.msprof is not None or not la.script for la in found):
        return None
    if any(name in la.command.env for la in found for name in ("PROFILING_MODE", "PROFILING_OPTIONS")):
        return None                     # GE may profile from the launcher's environment whatever the option says
    hit, bare = None, []
    for la in found:
        ls = prepare(la, target, w.root)
        if ls is None:
            return None
        shown = os.path.relpath(la.script, w.root).replace(os.sep, "/")
        if not ls.setups:
            if not _no_profiling_code(w.root, la.script):
                return None             # a setup may be in a module it imports: not this finding's claim
            bare.append((shown, la.command.line))
            continue
        for s in ls.setups:
            m = re.search(r"`([^`]+)` is false in this launch \(the default of (--?\w+), which the launcher does not "
                          r"pass\)", s.mode.detail or "") if s.mode.state == "off" else None
            if m is None:
                return None             # a setup that is on, or off for another reason: not this finding's claim
            if hit is None:
                table = flag_table(ls.ctx)
                flag = table.get(m.group(2)) or table.get("--" + m.group(2).lstrip("-"))
                if flag is None or flag.default is None:
                    return None
                own = flag in ls.ctx.resolver.flags
                name = os.path.basename(la.script)
                at = f"{shown}:{flag.call.lineno}" if own else f"a module {name} imports"
                hit = (shown, la.command.line, flag.option, ast.unparse(flag.default), at, m.group(1),
                       f"{shown}:{s.line}")
    if hit is not None or not bare:
        return hit
    scripts = list(dict.fromkeys(name for name, _ in bare))
    return (", ".join(scripts), bare[0][1], "", "", "", "", "")


# what any profiling setup of a TF/GE/msprof route names: a project with none of these in any .py file has none
_PROFILING_WORDS = re.compile(r"profiling_mode|profiling_options|ProfilingConfig|enable_profiling|PROFILING_MODE|"
                              r"PROFILING_OPTIONS|npu_resource_init|profiling_config|msprof|\bProfiler\(|"
                              # the routes emulate does not model: torch_npu / torch and MindSpore profilers
                              r"torch[\w.]*\.profiler|torch\.npu\.profile|autograd\.profiler|npu\.profile\(|"
                              r"(?:from|import)\s+[\w.]*profiler\b|mindspore\.profiler|E2E_PROF|prof_type")
MAX_PROJECT_FILES = 3000


def imported_profiling(ls: "LaunchSetup") -> Optional[str]:
    """For a script with no setup emulate models: the script itself when it names a profiling setting anyway (a
    torch_npu or MindSpore profiler, msprof through a subprocess), else the first module of the project it imports
    (transitively) that names one (a setup there is not emulated: emulate reads one file). "" when the imports are
    too many to follow, None for none."""
    from ..values.project import MAX_IMPORTED, for_file
    if _PROFILING_WORDS.search(ls.ctx.src.text) and not ls.setups:
        return ls.ctx.filename
    lookup = for_file(ls.ctx.filename, ls.ctx.tree)
    if lookup is None:
        return None
    modules = lookup.imported_modules()
    hit = next((m.path for m in modules if _PROFILING_WORDS.search(m.src.text)), None)
    return hit if hit is not None or len(modules) < MAX_IMPORTED else ""


def _no_profiling_code(root: str, script: str) -> bool:
    """Whether no .py file of the project (the folder holding the launcher's folder and the script) names a
    profiling setting; False also when the project is too large to read here."""
    return profiling_code(root, script) is None


def profiling_code(root: str, script: str, skip: str = "") -> Optional[str]:
    """The first .py file of the project (the folder holding the launcher's folder and the script) that names a
    profiling setting, other than skip; "" when the project is too large or unreadable to tell, None for none."""
    from ..source import observed
    from ..source.files import ReadError, read_source
    observed.incomplete()       # a file added to the project later would change the answer: a result not cached
    # the launcher's folder when the script is in it, else the folder above (the model zoo's test/ beside the code)
    top = root if _within(script, root) else os.path.commonpath([os.path.dirname(root), os.path.dirname(script)])
    count = 0
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = os.path.join(folder, name)
            if not name.endswith(".py") or path == skip:
                continue
            count += 1
            if count > MAX_PROJECT_FILES:
                return ""
            try:
                st = os.stat(path)
                key = (path, st.st_mtime_ns, st.st_size)
                if key not in _NAMES_PROFILING:
                    if len(_NAMES_PROFILING) > 50_000:
                        _NAMES_PROFILING.clear()
                    _NAMES_PROFILING[key] = bool(_PROFILING_WORDS.search(read_source(path).text))
                if _NAMES_PROFILING[key]:
                    return path
            except (OSError, ReadError):
                return ""
    return None


# (path, mtime, size) -> whether the file names a profiling setting: the launchers of one project share its files
_NAMES_PROFILING: Dict[tuple, bool] = {}
