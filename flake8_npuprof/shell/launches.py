"""Launch recognition: which of the walk's commands start a Python script or msprof, with which words.

`python`/`python3` (with `-m`, behind `nohup`/`taskset`/`mpirun`/`horovodrun`/`torchrun`/`msrun`/
`torch.distributed.launch`/`deepspeed`, ranks from `-np`/`--nproc_per_node`/`--local_worker_num`/`--num_gpus` and
per-rank loops), msprof
and the application it starts (read as msprof reads its argv, msprof_words.py), and a shell script the walk could not
follow (its launch is unknown, never nothing). A script that cannot be named or found is a launch with `missing`
saying why. Each Launch keeps its command line (argv with the source range of every word), so the checks of the
launcher's lines and emulate read the same words.
"""

from __future__ import annotations

import collections
import os
import re
from typing import TYPE_CHECKING, Iterator, List, MutableMapping, NamedTuple, Optional, Sequence, Tuple, cast

from ..source import fence
from ..source.observed import isfile
from ..source.text import HOLE, StrValue
from ..values.launch_args import Word
from .command_line import NOT_STARTING, PREFIXES, PYTHON, SHELLS, _SCRIPT_PATH, Prefix, _after_prefix, _dropped, \
    _shell_operand, grammar_of, read_prefix
from .command_words import DEEPSPEED, DEEPSPEED_RUNNER
from .state import Command, Setting
from .walk import Walk, as_written

if TYPE_CHECKING:       # (imported where msprof is met: 1.5 M instructions of a walk's first import without it)
    from .msprof_run import MsprofRun



MAX_LAUNCHES = 16               # Python command lines followed per launcher
WRAPPERS_WITH_SCRIPT = {"torchrun", "msrun"}                # start a .py themselves
PY_LAUNCH_MODULES = {"torch.distributed.launch", "torch.distributed.run", "horovod.runner.launch"}
# it passes the script --local-rank (_with_local_rank; data/sources.json shell.torch_distributed_launch)
LAUNCH_MODULE = "torch.distributed.launch"
LOCAL_RANK = "--local-rank=0"
USE_ENV = ("--use-env", "--use_env")
MSPROF_PY_MODES = {"import", "query", "export", "analyze"}      # the CANN toolkit's msprof.py, over collected data
RANK_OPTIONS = {"-np", "-n", "--nproc_per_node", "--nproc-per-node"}
# msrun starts `python SCRIPT ARGS` once per --local_worker_num (8 when not given) in its own directory;
# --sim_level may start one (data/sources.json shell.msrun)
MSRUN_RANKS, MSRUN_DEFAULT, MSRUN_SIMULATION = "--local_worker_num", 8, "--sim_level"
MSRUN_TOTAL = "--worker_num"
RANK_PREFIXES = ("mpirun", "mpiexec", "horovodrun", "srun")     # start the command after their options, n times
FACTS = ("shell.msrun", "shell.background_status", "shell.list_split",   # data/sources.json (tests/test_audit.py)
         "shell.torch_distributed_launch", "shell.deepspeed")


TYPED = "<command line>"        # the name a typed command (`emulate -- COMMAND...`) is shown under, as a file's is


def passer(cmd: Command) -> str:
    """Who gives a command its words, as the answers say it: a launcher's line, or the command a user typed."""
    return "the command as typed" if os.path.basename(cmd.path) == TYPED else "the launcher"


class Launch(NamedTuple):
    """A Python training script started by a launcher, or an application msprof starts."""
    command: Command
    script: str                 # absolute path of the script ("" when there is none, or it is not known)
    args: Tuple[Word, ...]      # the words after the script: its own flags
    wrapper: str                # "", "mpirun", "torchrun", ...
    ranks: int
    msprof: Optional[MsprofRun] = None     # when the script is msprof's application
    missing: str = ""           # why the script is not known ("cannot find train.py (looked in /a)")
    named: str = ""             # ... the script as the command names it, when it names one
    unfound: bool = False       # ... because no file of that name is found (in the directories it may run in)
    app: Tuple[str, ...] = ()   # msprof's application when it is not a Python script (a benchmark binary)
    found_from: str = ""        # ... unfound, but found when the launcher is started in this folder (its own)
    module: str = ""            # the module `python -m` runs (its file is `script`): sys.path starts at the cwd
    refused: bool = False       # missing because the interpreter refuses its own command line: certainly no script
    # what a prefix does to the environment the script gets (data/prefix_commands.json), as the prefix at file:line:
    cleared: str = ""           # `env -i`, `exec -c`: it holds command.env alone, any other variable is unset
    unset: Tuple[str, ...] = ()     # `env -u X`: these are unset, whatever the caller exports
    reset: str = ""             # sudo without -E: sudoers' (env_reset): a variable not in command.env is not known
    held: Tuple[str, ...] = ()  # the names the environment held before that reset (what sudoers may keep)
    moved: str = ""             # `env -C DIR`, `sudo -D DIR`: the prefix that runs it in command.cwd
    unset_by: str = ""          # ... the prefix that unset the names of `unset`


# ---------------------------------------------------------------- Python launches

def steps(walk: Walk) -> List[Launch]:
    """Every launch the walk runs, in order: Python scripts (a script that cannot be named or found is kept,
    with `missing` saying why) and msprof runs of a script or of any other application. At most
    MAX_LAUNCHES + 1 are returned: one more than that says the rest was not followed."""
    out = []
    for cmd in walk.commands:
        found = _launch(cmd, walk.start)
        if found is not None:
            out.append(found)
            if len(out) > MAX_LAUNCHES:
                break
    return out


def launches(walk: Walk) -> List[Launch]:
    """The Python scripts the walk starts and names, in order (at most MAX_LAUNCHES: each is analysed)."""
    return [la for la in steps(walk)[:MAX_LAUNCHES] if la.script]


def launches_in(walk: Walk, path: str) -> Iterator[Launch]:
    """The launches of the commands of one file the walk read (path: absolute), in order, however many (steps
    stops at MAX_LAUNCHES + 1 of all files')."""
    for cmd in walk.commands:
        if cmd.path == path:
            found = _launch(cmd, walk.start)
            if found is not None:
                yield found


def _launch(cmd: Command, start: str) -> Optional[Launch]:
    found = _launch_of(cmd, start)
    if found is not None and found.script and fence.outside(found.script):
        # --no-outside: a script outside the project is not read, as a sourced file is not (its values would be shown)
        found = found._replace(script="", args=(), module="", missing=f"{found.script} is {fence.WHY}",
                               named=found.script)
    if found is not None and cmd.under is not None and found.msprof is None:
        # inside a shell script msprof started: msprof's configuration reaches it through the environment
        from .msprof_run import msprof_application
        outer = msprof_application(cmd.under)
        if outer is not None:
            found = found._replace(msprof=outer[0])
    return found


def _launch_of(cmd: Command, start: str = "") -> Optional[Launch]:
    # start: where the walk started the shell (for where a script not found would be: _further_up)
    done: dict = {}             # what the prefixes do to the script's environment (Launch.cleared, unset, reset)
    found = _launch_words(cmd, start, done)
    return found._replace(**done) if found is not None and done else found


def _launch_words(cmd: Command, start: str, done: dict) -> Optional[Launch]:
    words = list(cmd.words)
    ranks, wrapper = cmd.ranks, ""
    changed = ""                # the prefix that changed the environment or the folder (`env -i` at run.sh:4)
    k = 0
    # `env A=b` adds to this command's own layer (a ChainMap writes to its first map only: cmd.env is not changed)
    env = collections.ChainMap({}, cast("MutableMapping[str, Setting]", cmd.env))
    while k < len(words):
        if _dropped(words, k):
            k += 1
            continue
        w = words[k].text
        base = w.rsplit("/", 1)[-1]
        if PYTHON.match(w):
            return _python(cmd, words, k + 1, env, ranks, wrapper, start)
        if base == "msprof":
            return _under_msprof(cmd, words, k, env, ranks, wrapper, start)
        if base == DEEPSPEED:
            return _deepspeed(cmd, words, k + 1, env, ranks, start)
        if base in WRAPPERS_WITH_SCRIPT:
            n, script_at = _ranks_of(words, k + 1, base)
            if script_at == len(words) and k + 1 < len(words):
                # `torchrun $SCRIPT`, `msrun --no_python ./bin`: it starts something, never nothing
                return _unknown(cmd, env, _times(ranks, n), base, f"it runs {base} without a .py script named "
                                f"statically: what {base} starts is not known here")
            return _script(cmd, words, script_at, env, _times(ranks, n), base, start)
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
            if changed:
                return _unknown(cmd, env, ranks, wrapper, f"it runs the shell script {shown} in the environment or "
                                f"folder {changed} gives it, which the walk does not follow: emulate "
                                f"{shown.rsplit('/', 1)[-1]} itself")
            if _itself(cmd, child):
                typed = " ".join(w.text for w in words[k:]).replace(HOLE, "<unknown>")
                return _unknown(cmd, env, ranks, wrapper, f"it runs {shown} again, the file this command is in, which "
                                "the walk does not follow into itself: what that run starts is not known here "
                                f"(emulate `{typed}` to see it)")
            return _unknown(cmd, env, ranks, wrapper, f"it runs the shell script {shown}, which is not read from "
                            f"here ({_not_read(cmd, child)}): emulate {shown.rsplit('/', 1)[-1]} itself")
        if base in PREFIXES:
            if base in RANK_PREFIXES:
                wrapper = base
                n, _ = _ranks_of(words, k + 1)
                ranks = _times(ranks, n)
            grammar = grammar_of(words, k, base)
            if grammar is not None:
                p = read_prefix(words, k, grammar)
                if p.nothing or (p.builtins and p.at < len(words) and words[p.at].text not in BUILTINS):
                    return None         # `command -v python3`, `taskset -p 3 700`, `builtin python3`: it starts none
                if p.unknown:
                    return _unknown(cmd, env, ranks, wrapper, p.unknown)
                cmd, env, changed = _prefixed(cmd, env, words, k, p, done, changed)
                if p.split is not None:
                    if any(c in p.split for c in "\\'\"$#" + HOLE):
                        return _unknown(cmd, env, ranks, wrapper, f"it runs `{w} -S`, whose string env splits with "
                                        "its own quoting and expansions, which are not read here")
                    # env reads the string's words where the option was, its options first (`env -S '-i python3'`)
                    w0 = words[k]
                    words[k + 1:p.at] = [Word(StrValue(part, [], w0.start, w0.end, origin="shell"), w0.start, w0.end)
                                         for part in p.split.split()]
                    continue
                k = p.at
                continue
            # options of the prefix and `env A=b`: skip until the next command word
            k = _after_prefix(words, k, base, env, cmd.path, cmd.line)
            continue
        return None
    return None


def _prefixed(cmd: Command, env, words: List[Word], k: int, p: Prefix, done: dict, changed: str):
    """The command and environment after a prefix: `env -i`/`exec -c` empty it, `env -u X` removes X, sudo without -E
    leaves sudoers' (env_reset, by default: sudo's manual), then its NAME=VALUE words; `env -C DIR`/`sudo -D DIR` run
    it in DIR, `sudo -i` in the target user's home. changed: the prefix that did any of this, as it is written."""
    at = f"`{' '.join(w.text for w in words[k:p.at])}` at {os.path.basename(cmd.path)}:{cmd.line}".replace(
        HOLE, "<unknown>")
    if p.resets:
        done["held"] = tuple(sorted(set(done.get("held", ())) | {n for n in env if n not in done.get("unset", ())}))
    if p.clears or p.resets:
        env = collections.ChainMap({n: env[n] for n in p.kept if n in env})    # (sudo --preserve-env=LIST)
        done.pop("unset", None)
        done.pop("unset_by", None)
        done["cleared" if p.clears else "reset"] = at
    if p.unsets:
        env = collections.ChainMap({n: s for n, s in env.items() if n not in p.unsets})
        done["unset"] = tuple(sorted(set(done.get("unset", ())) | set(p.unsets)))
        done["unset_by"] = at
    for name, w in p.given:
        env[name] = Setting(w.text[len(name) + 1:], cmd.path, cmd.line, w.start, "inline")
    if p.login:
        cmd = cmd._replace(cwd=(), rounds=None, lost=f"{at}: the target user's login shell runs it in that user's home "
                           "folder (sudo's manual), not known here")
    elif p.chdir is not None and (HOLE in p.chdir or not p.chdir):
        cmd = cmd._replace(cwd=(), rounds=None, lost=f"{at}: a folder not known statically")
    elif p.chdir is not None:
        cwd = tuple(dict.fromkeys(os.path.normpath(os.path.join(d, os.path.expanduser(p.chdir))) for d in cmd.cwd))
        rounds = cmd.rounds and cmd.rounds._replace(dirs=tuple(os.path.normpath(os.path.join(d, p.chdir))
                                                               for d in cmd.rounds.dirs))
        cmd = cmd._replace(cwd=cwd, rounds=None if os.path.isabs(p.chdir) else rounds,
                           settled=cmd.settled or os.path.isabs(p.chdir))
        done["moved"] = at
    alters = p.clears or p.resets or p.unsets or p.login or p.chdir is not None
    return cmd, env, at if alters else changed


def _under_msprof(cmd: Command, words: List[Word], k: int, env: MutableMapping[str, Setting], ranks: int,
                  wrapper: str, start: str = "") -> Optional[Launch]:
    """msprof and the application it starts, read as msprof reads its argv (msprof.parse): a Python script is
    followed, another application (a benchmark binary) is msprof's alone; None when msprof starts nothing (its
    export and query modes). A shell script as the application is walked as the child it is (Walk): the launches
    in it run under msprof."""
    from .msprof_run import MsprofRun, _spanned, msprof_application
    found = msprof_application(cmd)
    if found is None:
        from . import msprof_words as M
        call = M.parse(_spanned(words[k]), [_spanned(w) for w in words[k + 1:]])
        run = MsprofRun(call, words[k], any(o.name == "application" and o.value for o in call.options))
        if not call.complete:
            return _unknown(cmd, env, ranks, wrapper, "msprof's words are not all known statically (a variable from "
                            "the caller?): its options and application cannot be read", run)
        return _unknown(cmd, env, ranks, wrapper, "the application msprof starts is not known statically", run)
    run, app = found
    run = run._replace(command=None, app=())
    if not app:
        return None
    base = app[0].text.rsplit("/", 1)[-1]
    if base in WRAPPERS_WITH_SCRIPT or base in RANK_PREFIXES or base == DEEPSPEED:
        # a rank launcher (`msprof torchrun --nproc_per_node=8 train.py`): its processes inherit msprof's
        # environment, so each rank's script runs under this msprof
        inner = _launch_of(cmd._replace(words=tuple(app), env=env), start)
        if inner is not None and inner.msprof is None:
            return inner._replace(command=inner.command._replace(words=cmd.words),
                                  msprof=run._replace(app=tuple(a.text for a in app)))
    if not PYTHON.match(app[0].text):
        if not app[0].known:
            return _unknown(cmd, env, ranks, wrapper, "the application msprof starts is not known statically", run)
        return Launch(cmd._replace(env=env), "", (), wrapper, ranks, run, app=tuple(a.text for a in app))
    # (an option python3 does not know is msprof's own check here, NPP128, which says what python does)
    found_py = _python(cmd, list(words[:k + 1]) + app, k + 2, env, ranks, wrapper, start, refuse=False)
    if found_py is None:
        return _unknown(cmd, env, ranks, wrapper, "the Python application msprof starts is not a script that can "
                        "be read (python -c, or a module not in the project)", run)
    return found_py._replace(msprof=run)


# ---------------------------------------------------------------- commands whose start is not read

# the system's tools and the CANN driver's and toolkit's (msnpureport; msprof from there is a launch): not an app
SYSTEM_TOOLS = ("/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/", "/usr/local/Ascend/")
SETTERS = {"set", "export", "local", "declare", "readonly", "echo", "printf", "shift"}    # builtins: start nothing


# Commands known to start no training, by their bare name (a word without `/`, looked up on PATH): the shell's
# builtins, the system's tools, and the CANN driver's and toolkit's (an NPU's model converters and reports). Any other
# bare name is a program that may start one (`vega config.yml`, `llamafactory-cli train x.yaml`, a console script),
# so a launcher that runs one is not said to start nothing.
BUILTINS = {":", "true", "false", "cd", "pushd", "popd", "dirs", "source", ".", "exit", "return", "break", "continue",
            "shift", "set", "unset", "export", "local", "declare", "typeset", "readonly", "trap", "ulimit", "umask",
            "wait", "read", "getopts", "hash", "type", "alias", "unalias", "shopt", "jobs", "bg", "fg", "disown",
            "printf", "echo", "test", "times", "history", "help", "mapfile", "readarray", "caller", "complete",
            "kill", "pwd", "let", "logout", "which"}
TOOLS = {"rmdir", "chgrp", "gzip", "gunzip", "bzip2", "xz", "date", "sleep", "hostname", "uname", "whoami", "id",
         "pgrep", "killall", "free", "top", "lscpu", "nproc", "uptime", "printenv", "mktemp", "seq", "expr", "bc",
         "yes", "clear", "sync", "iconv", "apt", "apt-get", "yum", "dnf", "pip", "pip3", "conda", "ldd", "ldconfig",
         "ifconfig", "ip", "ping", "netstat", "ss", "lsof", "mount", "umount", "logger", "strings", "base64", "column",
         "envsubst", "jq", "tput", "stty", "locale", "sysctl", "dmesg", "tree", "split", "paste", "join", "comm", "od",
         "xxd", "tr", "uniq", "fgrep", "gawk", "cmp", "sha1sum", "sha512sum", "nvidia-smi", "lspci", "dmidecode",
         "gsutil", "protoc", "unrar", "7z", "lz4", "zstd", "nano", "nvcc", "gcc", "g++", "cc", "ar", "strip", "objdump",
         "nm", "cmake", "pylint", "flake8", "black", "isort", "mypy", "clang-format", "shellcheck",
         # other languages' interpreters, which have no Ascend training adapter: the model zoos' scoring and
         # tokenising scripts (conlleval.pl, multi-bleu.perl, T2vec's evales.jl)
         "perl", "julia", "Rscript", "ruby",
         # the CANN driver's and toolkit's: reports, the NPU's own tool, model converters
         "msnpureport", "npu-smi", "hccn_tool", "ascend-dmi", "atc", "omg", "ada"}
# `python -m` of these starts no training: the installer, virtual environments, the standard library's tools
PY_TOOLS = {"pip", "ensurepip", "venv", "virtualenv", "json.tool", "http.server", "compileall", "py_compile", "site",
            "pydoc", "zipfile", "tarfile", "timeit", "pip._internal", "sysconfig", "platform", "uuid", "base64",
            "calendar", "tokenize", "tabnanny", "pyclbr", "webbrowser", "mimetypes", "gzip", "wheel", "build", "twine",
            "setuptools", "unittest"}
_COMMAND_NAME = r"[A-Za-z_][\w.+-]*"        # (compiled where first asked)
# the interpreter's options that print and exit, whatever follows (python 3.13 --help-all; the three --help-* from
# 3.11, unknown options before it, which exit too), and the long option that takes a value
PY_EXITS = frozenset(("--help", "--version", "--help-env", "--help-xoptions", "--help-all", "-h", "-V", "-VV", "-?"))
PY_LONG_OPTIONS = PY_EXITS | {"--check-hash-based-pycs"}
_PY_VALUED = "cmWXQ"        # the interpreter's options that take a value (-Q: Python 2's `-Qnew`)


class Opaque(NamedTuple):
    """A command that may start what the walk cannot see (opaque)."""
    word: Word                  # its command word
    kind: str                   # unknown, eval, program, script, module, code
    script: str = ""            # the .py it is given (kind script), the module it runs (module), -c or - (code)


def _itself(cmd: Command, child: str) -> bool:
    """Whether the shell script a command runs is the file the command is in (`sh -x train_full_1p.sh --autotune=...`
    in train_full_1p.sh), where the command's folder is known."""
    if HOLE in child or not (len(cmd.cwd) == 1 and cmd.settled or os.path.isabs(child)):
        return False
    full = os.path.normpath(os.path.join(cmd.cwd[0] if cmd.cwd else "/", child))
    return full == os.path.normpath(cmd.path)


def _not_read(cmd: Command, child: str) -> str:
    """Why the walk did not read a shell script a command runs (Walk._run_child), as far as the command tells: not
    there where it runs, or named by a value; else it is there, outside the project, too deep or running itself."""
    if HOLE in child:
        return "its name holds a value not known statically"
    if len(cmd.cwd) == 1 and cmd.settled or os.path.isabs(child):
        full = os.path.normpath(os.path.join(cmd.cwd[0] if cmd.cwd else "/", child))
        if not isfile(full):
            return f"there is no {full}" if os.path.isabs(child) else f"there is no {child} in {cmd.cwd[0]}"
    return "not found, outside the project, nested too deep or run from itself"


def opaque(cmd: Command) -> Optional[Opaque]:
    """A command, not a launch, that may start what the walk cannot see: "unknown", a command word not known
    statically (`$PY train.py`, `"$@"`); "eval" (`eval "$CMD"`); "program", a program of the project (`./main`,
    `out/infer`: an application may profile itself through acl.json) or one found on PATH that is not known to start
    nothing (`vega config.yml`, a console script); "script", another command given a .py (`accelerate launch train.py`,
    `python3 -m deepspeed.launcher.launch train.py`); "module", `python -m` of a
    module the project does not hold (`python3 -m verl.trainer.main_ppo`); "code", `python -c CODE`.
    None for any other command: a test, an assignment through eval (`eval $name=$value`, `eval set -- "$args"`),
    a builtin, a system or toolkit tool, one that only names a file (`cp train.py out/`), a launch."""
    words, k = list(cmd.words), 0
    while k < len(words) and (_dropped(words, k) or words[k].text.rsplit("/", 1)[-1] in PREFIXES):
        k = k + 1 if _dropped(words, k) else _after_prefix(words, k, words[k].text.rsplit("/", 1)[-1], {},
                                                           cmd.path, cmd.line)
    if k >= len(words):
        return None
    word = words[k].text
    head = word.rsplit("/", 1)[-1]
    if word.startswith(("[[", "[", "((")) or word in ("test", "let"):
        return None                             # a test or an arithmetic
    if word == "eval":
        rest = words[k + 1:]
        if rest and (rest[0].text in SETTERS or (len(rest) == 1 and _assignment(rest[0].text))):
            return None
        return Opaque(words[k], "eval")
    script = next((x.text for x in words[k + 1:] if x.text.endswith(".py") and not x.text.startswith("-")), "")
    found: Optional[Opaque]
    if not words[k].known:
        found = Opaque(words[k], "unknown")
    elif script and head not in NOT_STARTING and head not in SHELLS and head != "msprof" and \
            (not PYTHON.match(word) or "-m" in (x.text for x in words[k + 1:]) or _runs_module(words, k)):
        found = Opaque(words[k], "script", script)
    elif "/" in word and not word.startswith(SYSTEM_TOOLS) and not word.endswith((".sh", ".py")) and \
            not any(c.isspace() or c == ":" for c in word):         # `echo"usage: ./x.sh"` names no program
        found = Opaque(words[k], "program")
    elif PYTHON.match(word):
        found = _python_opaque(words, k)
    elif "/" not in word and re.fullmatch(_COMMAND_NAME, word) and word not in BUILTINS and word not in TOOLS and \
            word not in NOT_STARTING and word not in SHELLS and word not in PREFIXES and word != "msprof" and \
            not _WRAPS_TOOL.get(word, lambda rest: False)(words[k + 1:]):
        found = Opaque(words[k], "program")
    else:
        found = None
    if found is None:
        return None
    # steps' own (python, msprof, torchrun, a child script, `$DIR/run.sh` unread): asked only of a candidate
    return None if _launch_of(cmd) is not None else found


def _python_opaque(words: List[Word], k: int) -> Optional[Opaque]:
    """`python -m MODULE` (a module the project does not hold: launches say None for it), `python -c CODE` and
    `python -` (its code from stdin, a here-document): what they run is not read here. None for the interpreter's
    own (`python3 --version`) and PY_TOOLS."""
    j = k + 1
    while j < len(words):
        letter, module, after = _python_option(words, j)
        if letter == "c" or words[j].text == "-":
            # `python3 -c CODE`, `python3 - <<EOF`: code not read here
            return Opaque(words[k], "code", "-c" if letter == "c" else "-")
        if letter == "m":
            if not module or module in PY_TOOLS or module.split(".")[0] in PY_TOOLS:
                return None
            return Opaque(words[k], "module", module.replace(HOLE, "<unknown>"))
        if not letter:
            return None                 # a script (a launch, or a .py steps says is not found)
        j = after
    return None


# programs found on PATH that run another command: known to start nothing when that command is a tool
def _xargs_tool(rest: List[Word]) -> bool:
    """`xargs [options] CMD ...`: whether CMD is a tool (`xargs kill -9`, `xargs rm -rf`); options that take a value
    (`-I {}`, `-n 1`) are skipped with it."""
    j = 0
    while j < len(rest) and rest[j].text.startswith("-"):
        j += 2 if rest[j].text in ("-I", "-n", "-P", "-d", "-L", "-s", "-E", "-a") else 1
    head = rest[j].text if j < len(rest) else "echo"       # xargs alone runs echo
    return head in BUILTINS or head in TOOLS or head in NOT_STARTING


def _docker_tool(rest: List[Word]) -> bool:
    """`docker build|pull|push|...`: no container is started (`docker run`/`exec`/`start` may start a training)."""
    sub = next((w.text for w in rest if not w.text.startswith("-")), "")
    return sub in ("build", "pull", "push", "tag", "images", "image", "rmi", "rm", "login", "logout", "save", "load",
                   "inspect", "ps", "stop", "kill", "network", "volume", "commit", "cp", "logs", "info", "version")


_WRAPS_TOOL = {"xargs": _xargs_tool, "docker": _docker_tool, "nvidia-docker": _docker_tool}


def _assignment(text: str) -> bool:
    """Whether a word assigns (`$name=$value`, `x_${i}=1`): a name part before `=` with no blank or quote."""
    name, eq, _ = text.partition("=")
    return bool(eq and name) and not any(c.isspace() or c in "'\"`;&|()<>" for c in name)


def _unknown(cmd, env, ranks, wrapper, why: str, msprof=None, named: str = "", unfound: bool = False) -> Launch:
    """A launch whose script cannot be named or found: its verdict is unknown, with why."""
    return Launch(cmd._replace(env=env), "", (), wrapper, ranks, msprof, missing=why, named=named, unfound=unfound)


def _ranks_of(words, k, wrapper: str = "") -> Tuple[int, int]:
    """(process count from -np / --nproc_per_node, or msrun's --local_worker_num, index of the first .py word)
    after index k; what follows the script is the script's own. The count is 0 when none is given, -1 when it
    is given by a value not known statically (`-np $NP`)."""
    options = {MSRUN_RANKS} if wrapper == "msrun" else RANK_OPTIONS
    n, script_at = (MSRUN_DEFAULT if wrapper == "msrun" else 0), len(words)
    local = total = None                # msrun's --local_worker_num and --worker_num as given
    for j in range(k, len(words)):
        w = words[j].text
        if w.endswith(".py"):
            script_at = j
            break
        opt, _, val = w.partition("=")
        if opt in options:
            val = val or (words[j + 1].text if j + 1 < len(words) else "")
            n = local = int(val) if val.isdigit() else -1
        elif wrapper == "msrun" and opt == MSRUN_SIMULATION:
            n = -1                      # a dry run: one process or each, by release
        elif wrapper == "msrun" and opt == MSRUN_TOTAL:
            val = val or (words[j + 1].text if j + 1 < len(words) else "")
            total = int(val) if val.isdigit() else -1
    if wrapper == "msrun" and local is None and total is not None and total < MSRUN_DEFAULT:
        # `--worker_num 4` alone: the default --local_worker_num 8 exceeds it, which msrun's code read here refuses
        # (ValueError) and later releases may settle otherwise: not known (data/sources.json shell.msrun)
        n = -1
    return n, script_at


def _times(ranks: int, n: int) -> int:
    """How often a command runs when a launcher asks for n processes of it (0: not known)."""
    return 0 if ranks <= 0 or n < 0 else ranks * (n or 1)


def _python_option(words, k: int) -> Tuple[str, str, int]:
    """The interpreter's option at words[k] as CPython reads its command line (Python/getopt.c): short options may be
    joined (`-um tools.t`, `-Bc CODE`) and the value of -c, -m, -W, -X glued to its letter (`-mtools.t`, `-Wignore`)
    or the next word (python 3.11: `python3 -mtools.t a` and `python3 -um tools.t a` run tools/t.py with argv
    [..., 'a']). (letter, its value, the index after it): letter "c" or "m" ends the options; "" for the first word
    that is not an option (the script; `-` too, the code read from stdin), "-" for one that takes no value."""
    w = words[k].text
    if w == "-" or not w.startswith("-"):
        return "", "", k
    if w.startswith("--"):
        return "-", "", k + (2 if w == "--check-hash-based-pycs" else 1)
    for i in range(1, len(w)):
        if w[i] in _PY_VALUED:
            if i + 1 < len(w):
                return w[i], w[i + 1:], k + 1
            return w[i], words[k + 1].text if k + 1 < len(words) else "", k + 2
    return "-", "", k + 1


def _runs_module(words, k: int) -> bool:
    """Whether the interpreter at words[k] is given a module to run (`-m mod`, `-um mod`, `-mmod`)."""
    j = k + 1
    while j < len(words):
        letter, _, after = _python_option(words, j)
        if letter in ("", "c", "m"):
            return letter == "m"
        j = after
    return False


def _python(cmd, words, k, env, ranks, wrapper, start="", refuse: bool = True) -> Optional[Launch]:
    while k < len(words):
        if not words[k].known:
            return _script(cmd, words, k, env, ranks, wrapper, start)
        letter, module, after = _python_option(words, k)
        if letter == "c" or words[k].text == "-":
            return None                 # inline code, or code read from stdin (`python3 - x.py <<EOF`): no script
        if letter == "m" and after <= len(words):
            if module in PY_LAUNCH_MODULES:
                n, script_at = _ranks_of(words, after)
                launched = _script(cmd, words, script_at, env, _times(ranks, n), module, start)
                return _with_local_rank(launched, words[after:script_at]) if module == LAUNCH_MODULE else launched
            if module == DEEPSPEED_RUNNER:
                return _deepspeed(cmd, words, after, env, ranks, start)
            from ..values.project import find_module
            found = (find_module(os.path.join(d, "_"), 0, module.split(".")) for d in cmd.cwd)
            paths = {p for p in found if p is not None}
            if not paths and len(cmd.cwd) == 1:
                paths = _on_pythonpath(env, cmd.cwd[0], module)
            if len(paths) != 1:
                return None             # an installed module (pip, a tool): not the project's to read
            path = paths.pop()
            here = next((d for d in cmd.cwd if find_module(os.path.join(d, "_"), 0, module.split(".")) == path),
                        cmd.cwd[0])
            if os.path.basename(path) == "__init__.py":
                # a package: Python runs its __main__ (after importing the package)
                main = os.path.join(os.path.dirname(path), "__main__.py")
                if not isfile(main):
                    return _unknown(cmd, env, ranks, wrapper, f"{module} is a package of the project without a "
                                    "__main__.py, which `python -m` runs: what it starts is not known here")
                path = main
            return Launch(cmd._replace(env=env, cwd=(here,)), os.path.abspath(path), tuple(words[after:]),
                          wrapper, ranks, module=module)
        if words[k].text in PY_EXITS:
            return None                 # `python3 --version x.py`: it prints and exits
        if refuse and letter == "-" and words[k].text.startswith("--") and words[k].text[2:] and \
                words[k].text not in PY_LONG_OPTIONS:     # (`-uB`: short options joined, which python reads)
            # CPython 3.7-3.13 stop at a long option they do not know, before any script (Python/getopt.c: "unknown
            # option --data_path=/d", status 2): a flag meant for the launcher given where it runs `python3 $1/x.py`
            return _unknown(cmd, env, ranks, wrapper, f"python stops at {words[k].text}, which is not an option of the "
                            f'interpreter ("unknown option {words[k].text}", status 2): it runs no script')._replace(
                refused=True)
        if letter:
            k = after
            continue
        return _script(cmd, words, k, env, ranks, wrapper, start)
    return None


def _with_local_rank(found: Optional[Launch], options: Sequence[Word]) -> Optional[Launch]:
    """The words torch.distributed.launch gives its script: `--local-rank=<rank>` first (torch 2.0 and later; 1.x gave
    `--local_rank`), unless --use-env is among its own options (torch/distributed/run.py config_from_args; torchrun
    has no use_env and passes none). Rank 0's is said; where a word that may be an option is not known statically
    (`$OPTS`; not `--master_port $PORT`, nor `--nproc_per_node=$N`), none is added."""
    if found is None or not found.script or any(
            _use_env(w.text) or HOLE in w.text.partition("=")[0] and not (
                k and options[k - 1].known and options[k - 1].text.startswith("--") and "=" not in options[k - 1].text)
            for k, w in enumerate(options)):
        return found
    at = options[0] if options else found.command.words[0]
    rank = Word(StrValue(LOCAL_RANK, [], at.start, at.end, origin=LAUNCH_MODULE), at.start, at.end)
    return found._replace(args=(rank,) + found.args)


def _deepspeed(cmd, words, k, env, ranks, start="") -> Optional[Launch]:
    """What DeepSpeed's launcher given words[k:] starts on a node: its script (`--module`: the module, run as
    `python -m` runs it), --num_gpus times, each given `--local_rank=<its local rank>` before its own words unless
    --no_local_rank (deepspeed.py). None where it starts nothing (--help, no script named)."""
    from . import deepspeed         # (imported where a deepspeed word is met: 1.8M instructions at import)
    got = deepspeed.read([w.text for w in words], k)
    n = _times(ranks, deepspeed.ranks(got.options))
    if got.why:
        return _unknown(cmd, env, n, deepspeed.COMMAND, got.why)
    if "--help" in got.options or got.script_at >= len(words):
        return None
    j = got.script_at
    if "--module" in got.options and words[j].known:
        w = words[j]
        dash_m = Word(StrValue("-m", [], w.start, w.start, origin=deepspeed.COMMAND), w.start, w.start)
        found = _python(cmd, list(words[:j]) + [dash_m] + list(words[j:]), j, env, n, deepspeed.COMMAND, start)
        if found is None:
            return _unknown(cmd, env, n, deepspeed.COMMAND, f"deepspeed --module runs {w.text}, a module the project "
                            "does not hold, which emulate does not follow: what it starts is not known here")
    else:
        found = _script(cmd, words, j, env, n, deepspeed.COMMAND, start)
        if found is None:
            return _unknown(cmd, env, n, deepspeed.COMMAND, f"deepspeed runs {words[j].text} with python, which is "
                            "not a .py script here: what it starts is not known here")
    if not found.script or "--no_local_rank" in got.options:
        return found
    at = words[k] if k < j else words[j]
    rank = Word(StrValue(deepspeed.RANK_WORD, [], at.start, at.end, origin=deepspeed.COMMAND), at.start, at.end)
    return found._replace(args=(rank,) + found.args)


def _use_env(word: str) -> bool:
    """Whether torch.distributed.launch's argparse may read the word as --use-env: it or an abbreviation of it
    (python 3.9-3.13 read `--use_en` and `--use-e` as it; `--use` is ambiguous, and exits)."""
    return word in USE_ENV or len(word) > 2 and word.startswith("--") and any(o.startswith(word) for o in USE_ENV)


def _on_pythonpath(env, cwd: str, module: str) -> set:
    """The file of `python -m module` on the PYTHONPATH the launch exports, which Python puts after the directory it
    runs in (a relative entry, or an empty one, from that directory; emulate/sys_path.launch_path reads it alike):
    `export PYTHONPATH=src; python3 -m training.main` runs src/training/main.py."""
    from ..values.project import on_path
    setting = env.get("PYTHONPATH")
    if setting is None or setting.how == "set without export":
        return set()
    entries = [os.path.normpath(os.path.join(cwd, e)) for e in setting.value.split(":") if HOLE not in e]
    found = on_path(tuple(dict.fromkeys(entries)), module.split("."))
    return set() if found is None else {found}


def _script(cmd, words, k, env, ranks, wrapper, start="") -> Optional[Launch]:
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
        return _unknown(cmd, env, ranks, wrapper, f"cannot find {word.text}: no such file here", None, word.text,
                        True)
    if not cmd.cwd:
        # an absolute path is found without the directory; what the script writes to relative paths is not
        where = f"{word.text} is there, but" if os.path.isabs(word.text) else f"cannot find {word.text}:"
        why = cmd.lost or "a `cd` to a value not known statically, or inside a branch"
        return _unknown(cmd, env, ranks, wrapper, f"{where} the directory the launcher runs it in is not known here "
                        f"({why})", None, word.text, not os.path.isabs(word.text))
    if cmd.rounds is not None:
        # a folder the run makes, one a round (not in the tree): a path through it is read as written, `../train.py`
        # from ./d0 (made by mkdir: no link)
        path = os.path.normpath(os.path.join(cmd.cwd[0], word.text))
        path = path if isfile(path) else None
    else:
        # (through a folder the launcher made, as written: `mkdir ./d; cd ./d; python3 ../train.py`)
        path = Walk.find(word.text, cmd.cwd, cmd.made)
    if path is None:
        return _unknown(cmd, env, ranks, wrapper, f"cannot find {word.text} (looked in {', '.join(cmd.cwd)}"
                        f"{_further_up(word.text, cmd, start)})", None, word.text, True)
    here = cmd.cwd[0] if cmd.rounds is not None else \
        next((d for d in cmd.cwd if os.path.isfile(os.path.join(d, word.text))), None) or \
        next(d for d in cmd.cwd if as_written(d, word.text, cmd.made) == path)
    return Launch(cmd._replace(env=env, cwd=(here,)), path, tuple(words[k + 1:]), wrapper, ranks)


def _further_up(script: str, cmd: Command, start: str) -> str:
    """Where a relative script not found where the launch runs it is, found when the launcher is started in a folder
    above the one it was taken to start in: a launcher whose directory is that one, or reached from it by relative
    `cd`s only (not settled), is meant to be started there (`bash test/train.sh` from the project's folder), which
    only --cwd can say. Started in UP, its relative `cd`s lead to UP/REL (REL: from the start to where it runs), so
    the script must be in UP/REL: `cd src; python3 main.py` started at the top runs src/main.py, not main.py."""
    if cmd.settled or os.path.isabs(script) or not start:
        return ""
    for d in cmd.cwd:
        rel = os.path.relpath(d, start)
        up = start
        for _ in range(4):
            up = os.path.dirname(up)
            there = os.path.normpath(os.path.join(up, rel))
            if isfile(os.path.join(there, script)):       # recorded, as the walk's own lookups (source/observed)
                return f"; {script} is in {there}: give --cwd {up} if the launcher is started there"
    return ""


def outlives_msprof(w: Walk, launch: Launch) -> bool:
    """Whether a launch inside msprof's shell-script application runs in the background (`python3 train.py &`) and
    that shell does not `wait` after it: msprof waits for its application's own process alone, so it may end, and
    export, while the launch is still running (data/msprof_cli.json "waits_for_app_only")."""
    cmd = launch.command
    if launch.msprof is None or launch.msprof.command is None or not cmd.background:
        return False
    return not any(c.seq > cmd.seq and c.frames == cmd.frames and c.words and c.words[0].text == "wait"
                   for c in w.commands)


def unjoined_msrun(launch: Launch) -> str:
    """msrun's --join value ("False", its default, or as given; "" when joined) when msrun is msprof's application:
    without --join=True msrun returns once it has started its workers (data/sources.json shell.msrun), and msprof
    waits for its application alone (data/msprof_cli.json "waits_for_app_only")."""
    run = launch.msprof
    if run is None or run.command is not None or launch.wrapper != "msrun" or not run.app:
        return ""
    value = option_value(run.app, "--join")
    return "" if value == "True" else value or "False"


def option_value(words: Sequence[str], option: str) -> Optional[str]:
    """The value a wrapper's option is given before the script (`--nnodes 1`, `--join=True`; the last one given), None
    where it is not given."""
    value = None
    for j, w in enumerate(words):
        if w.endswith(".py"):
            break
        opt, eq, val = w.partition("=")
        if opt == option:
            value = val if eq else (words[j + 1] if j + 1 < len(words) else "")
    return value


def msprof_timeout(launch: Launch) -> Tuple[str, str]:
    """(duration, signal) of a `timeout` msprof runs under (`timeout 3600 msprof ... python3 train.py`, `timeout -s INT
    10m msprof ...`; TERM when none is given), ("", "") for none: when it elapses, timeout signals msprof and its
    application (data/msprof_cli.json "stops_on_sigint_only")."""
    if launch.msprof is None:
        return "", ""
    cmd = launch.msprof.command or launch.command
    words = list(cmd.words)
    for k, w in enumerate(words):
        if w.text.rsplit("/", 1)[-1] == "msprof":
            break
        if w.text.rsplit("/", 1)[-1] == "timeout":
            j = _after_prefix(words, k, "timeout", {}, cmd.path, cmd.line)
            opts = [x.text for x in words[k + 1:j - 1]]
            sig = next((v.partition("=")[2] or (opts[i + 1] if i + 1 < len(opts) else "") for i, v in enumerate(opts)
                        if v in ("-s", "--signal") or v.startswith("--signal=")), "") or \
                next((v[2:] for v in opts if v.startswith("-s") and len(v) > 2), "") or "TERM"
            sig = sig.upper().replace(HOLE, "<unknown>")
            return (words[j - 1].text.replace(HOLE, "<unknown>") if j - 1 > k else "?",
                    {"2": "INT", "9": "KILL", "15": "TERM"}.get(sig, sig[3:] if sig.startswith("SIG") else sig))
    return "", ""


def walk(launcher: str, cwd: Optional[str] = None, text: Optional[str] = None) -> Tuple[Walk, List[Launch]]:
    """The walk of a launcher (its commands, sourced files) and the Python scripts it starts."""
    w = Walk(launcher, cwd).run(text)
    return w, launches(w)


def command_lines(launcher: str, cwd: Optional[str] = None) -> List[Command]:
    """Every simple command a launcher runs (sourced scripts included), in order: for checks of other
    command lines (msprof). Each has its argv as Words (decoded text, HOLE for what is unknown, and the
    source range of each word in `path`), its line and column, the exported environment and the directory."""
    return Walk(launcher, cwd).run().commands
