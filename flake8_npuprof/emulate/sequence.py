"""A shell launcher as the sequence of launches it runs: every Python run, every msprof run (of a script or
of any other application), per-rank loops and background ranks, in order, each with its own verdict.

The run's answer is the one emulate gives for the setups of one script, over the launches that switch
profiling on: usable data when every one of them collects; no when one of them certainly does not (it
fails, or collects nothing); unknown when a launch cannot be followed (a script that cannot be named or
found: "cannot find train.py (looked in ...)", never "no") or its outcome hangs on a value not known
statically. A launch that switches nothing on (a warm-up, a data preparation) does not decide it. A launch
that certainly fails stops the launches after it when the launcher runs with `set -e` (or chains the next
one with `&&`): those are "not run", and the failure is the answer. Otherwise bash goes on, and when every
launch after the last certain failure collects, the run has their data: yes.
"""

from __future__ import annotations

import os
import re
from typing import List, NamedTuple, Optional, Tuple

from ..checks.launcher_switch import options_setting
from ..shell.launches import MAX_LAUNCHES, Launch, opaque, passer, steps
from ..shell.parse import without_redirections
from ..shell.redirects import Unopened, unopened
from ..shell.state import MAX_BYTES
from ..shell.walk import Walk
from ..source import fence
from ..source.files import ReadError, decode_shell, read_bytes
from ..source.text import HOLE
from .environment import Environment
from .launcher import emulate_launch, imported_profiling, launch_info, named_line
from .message import in_file
from .replay import EXIT_OK, EXIT_PROBLEM, Result, _rel, changes_directory, finish, may_collect


class Run(NamedTuple):
    launch: Launch
    index: int  # type: ignore[assignment]  # 1-based, in the launcher's order (mypy: it shadows tuple.index)
    report: dict                # finish() over this launch's results
    info: dict                  # launch_info (its text lines included)
    verdict: str                # collects, fails, collects nothing, no profiling, unknown, not run
    why: str                    # one phrase: the cause of the verdict
    profiles: Optional[bool]    # switches profiling on (None: cannot tell)
    named: bool = False         # `why` names this launch's own cause (the run's answer quotes it)
    stopped_by: int = 0         # "not run": the index of the launch whose failure stops or skips it
    switch: bool = False        # `why` says what would switch profiling on, or that the launcher drops it
    stops: str = ""             # its failure stops this (set -e): "the launcher", or the child script it ends

    @property
    def where(self) -> str:
        return self.info["at"]

    @property
    def certain(self) -> bool:
        """Whether this launch runs whenever the launcher does (not inside a branch or a function)."""
        return not self.launch.command.conditional


def emulate_launcher(path: str, target, cwd: Optional[str], base, environ=None, args=None,
                     text: Optional[str] = None, typed: Optional[str] = None) -> Optional[dict]:
    """`npuprof emulate LAUNCHER.sh [-- ARG...]`: the report over every launch it runs (None: it runs none).
    args: the launcher's arguments (None: not known); text: the launcher's text when it is not a file (a command line);
    typed: its path as typed (`emulate -- bash scripts/run.sh`: its `$0`)."""
    w = Walk(path, cwd, args, typed).run(text)
    w.found_from = _found_from_own_folder(w, path, args, text, typed)
    w.dropped = []
    w.ignored = []
    if args is not None:
        from ..checks.launcher_switch import dropped_switches
        w.dropped = dropped_switches(w.launcher_text(), path, target, args, cwd, unreaching=w.unreaching)
        w.ignored = _changes_nothing(w, path, cwd, args, text, typed)
    report = _emulate_walk(w, path, target, base, environ)
    if w.stopped:
        report = _stopped(w, path, report, target, base)
    if report is not None and w.crlf:
        # bash reads `python3 train.py\r` and `PROFILING_MODE=true\r`: what each line does is not what it says
        names = ", ".join(_rel(f, w.root) for f in w.crlf)
        why = (f"{names} {'has' if len(w.crlf) == 1 else 'have'} Windows line endings (CRLF): bash keeps a carriage "
               "return at the end of every line (`python3 train.py` asks for 'train.py\\r', `export X=true` "
               "sets 'true\\r'); convert with dos2unix")
        report.update(usable=None, exit=EXIT_PROBLEM, answer={"usable": None, "why": why,
                                                              "decider": (report.get("answer") or {}).get("decider")})
        report["launch"] = dict(report.get("launch") or {}, crlf=why)
        shown = list(report["launch"].get("lines") or [])
        report["launch"]["lines"] = shown[:1] + [f"  ! {why}"] + shown[1:]
    return report


def _changes_nothing(w: Walk, path: str, cwd, args, text, typed=None) -> List[str]:
    """The profiling arguments given to the launcher (a word with "prof" in its option's name) that its argument
    loop does not test (NPP015's walks judge those), and without which, or with its value turned, every launch is the
    same (ResNet101's launcher documents --profiling in its help text and reads only --data_path and --device_id)."""
    from ..checks.launcher_switch import launches_seen, launcher_options
    if w.stopped or not steps(w):
        return []
    text = w.launcher_text()
    tested = {name for name, _, _, _ in launcher_options(text)}
    covered = {d.option for d in w.dropped} | {option for _, option in w.unreaching} | tested
    out = []
    for k, arg in enumerate(args):
        name = arg.partition("=")[0]
        if not name.startswith("-") or "prof" not in name.lower() or name in covered or not _only_shown(text, name) \
                or _arguments_kept(text):
            continue
        # without it, and with its value turned (`--profiling=False` is the same as none where False is the default)
        others = [list(args[:k]) + list(args[k + 1:])]
        if "=" in arg:
            value = arg.partition("=")[2]
            turned = "True" if value.lower() in ("", "false", "0", "no", "off", "none") else "False"
            others.append(list(args[:k]) + [f"{name}={turned}"] + list(args[k + 1:]))
        seen = launches_seen(w)
        walks = (Walk(path, cwd, a, typed).run(text) for a in others)
        if all(not o.stopped and launches_seen(o) == seen for o in walks):
            out.append(arg)
    return out


def _only_shown(text: str, name: str) -> bool:
    """Whether every place of the launcher naming the option is a comment or a word of an echo/printf command (a help
    text, one line or a quoted string over several: `echo "parameter explain: ... --profiling ..."`): a line that tests
    it (`[[ "$*" == *--profiling=True* ]] && sed -i ...`) may do what the walks do not compare (write a file), so the
    launches being the same would not make the option idle. A word holding a substitution (`echo "$(grep ...)"`), or a
    place no command's word holds (a here-document), is not a help text."""
    spelled = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    places = [m.start() for m in spelled.finditer(text)
              if not text[text.rfind("\n", 0, m.start()) + 1:m.start()].lstrip().startswith("#")]
    if not places:
        return True
    from ..shell.parse import lexed_commands
    shown: list = []
    for words, _, _ in lexed_commands(text):
        heads = [text[a:b] for a, b in words[:3]]
        k = next((j for j, h in enumerate(heads) if h not in _KEYWORDS), len(heads))
        if k < len(heads) and heads[k] in ("echo", "printf") and not (
                heads[k] == "printf" and k + 1 < len(words) and text[words[k + 1][0]:words[k + 1][1]].startswith("-v")):
            # (`printf -v P ...` sets P, which the launcher may test: bash 5.2)
            shown.extend((a, b) for a, b in words[k + 1:] if "$(" not in text[a:b] and "`" not in text[a:b])
    return all(any(a <= i < b for a, b in shown) for i in places)


_KEYWORDS = frozenset(("then", "do", "else", "{", "!"))


_ARGS = r"\$(?:[@*]|[1-9]|\{[@*1-9])"                # "$@", $*, $1, ${1}, ${@:2}: the launcher's arguments
_LOOP_OVER_ARGS = re.compile(rf"\bfor\s+(\w+)\s*(?:;|\n|do\b|in\s+[^;\n]*{_ARGS})")
_SET_FROM_ARGS = re.compile(rf"\s*(?:export\s+|local\s+)?(\w+)=.*{_ARGS}")
_KEEPS = re.compile(r"(?<![<>2])>>?(?!&)|\b(?:tee|eval|source)\b|\bsed\s+-i")    # 2> writes no argument


def _arguments_kept(text: str) -> bool:
    """Whether a line of the launcher may keep its arguments where the walks do not look: a file written from them
    (`echo "$@" > args.txt`, a loop's `echo $para >> args`, `sed -i`), or an `eval`. The walks compare launches (words,
    environment, folder), so an option that reaches only a file would look idle when it is not.
    A variable set from the whole list (`ARGS="$@"`) is followed once."""
    lines = [line for line in map(_unquoted, text.splitlines()) if not line.lstrip().startswith("#")]
    names = set(_LOOP_OVER_ARGS.findall("\n".join(lines)))
    names.update(m.group(1) for m in map(_SET_FROM_ARGS.match, lines) if m)
    used = re.compile(_ARGS + (rf"|\$\{{?(?:{'|'.join(map(re.escape, sorted(names)))})\b" if names else ""))
    return any(_KEEPS.search(line) for line in lines if used.search(line))


def _unquoted(line: str) -> str:
    """The line without what its single quotes hold (`awk '{print $2}'`: bash expands nothing there); a `'` inside
    double quotes or after a backslash is a character."""
    out, i, double = [], 0, False
    while i < len(line):
        ch = line[i]
        if ch == "\\":
            out.append(line[i:i + 2])
            i += 2
            continue
        if ch == "'" and not double:
            end = line.find("'", i + 1)
            i = len(line) if end < 0 else end + 1
            continue
        double ^= ch == '"'
        out.append(ch)
        i += 1
    return "".join(out)


def _found_from_own_folder(w: Walk, path: str, args, text, typed: Optional[str] = None) -> dict:
    """(file, line) of each launch whose script is not found where its launcher was started (--cwd, or the
    current directory of a typed command) -> (that script, found when the launcher is started in its own folder
    instead; that folder). Model-zoo launchers take their paths from `pwd` and are meant to be started in their own
    `test/`; started from the project's root, `python3 $cur_path/../train.py` names a file that is not there. The
    same holds of a launcher a typed command runs (`msprof --application="bash test/train_full_1p.sh"`). One started
    in its own folder is tried from the folder above it: mindspore-ai/models' `scripts/` launchers are started from
    the project's root (`bash scripts/run_distributed_pretrain_ascend.sh`, whose `pwd` must be the root)."""
    launches = [la for la in steps(w) if la.unfound]
    unfound = {(la.command.path, la.command.line) for la in launches}
    if not unfound:
        return {}
    found: dict = {}
    above = os.path.dirname(w.root)
    # (from above, not those launches.py's _further_up already places: a relative name where no `cd` settled the
    # folder, "give --cwd UP")
    settled = {(la.command.path, la.command.line) for la in launches
               if la.command.settled or os.path.isabs(la.named)}
    walks: List[Tuple[str, Optional[list], Optional[str], Optional[str], Optional[str], set]] = \
        [(path, args, text, None, None, unfound)] if w.start != w.root else \
        [(path, args, text, above, os.path.relpath(w.launcher, above), settled)] \
        if settled and above != w.root and not fence.outside(above) else []
    walks += [(full, None if given is None else list(given), None, None, None, unfound) for full, given, _ in
              w.children_elsewhere if any(p == full for p, _ in unfound)]
    for launcher, given, given_text, cwd, as_typed, wanted in walks:
        own = Walk(launcher, cwd, given, as_typed).run(given_text)
        for la in map(lambda la: _copied(own, la), steps(own)):
            if la.script and (la.command.path, la.command.line) in wanted:
                found.setdefault((la.command.path, la.command.line), (la.script, own.start))
    return found


def _copied(w: Walk, launch: Launch) -> Launch:
    """An unfound launch's script as the launcher copies it to where it runs it (emulate/copied.py)."""
    from .copied import copied
    found = copied(w, launch) if launch.unfound else None
    if found is None:
        return launch
    if found[1]:
        w.copied[launch.command.seq] = found[1]
    return found[0]


def _moved(w: Walk, launch: Launch) -> Launch:
    """An unfound launch's script as found from its launcher's own folder, said where the launch is unknown."""
    found = w.found_from.get((launch.command.path, launch.command.line)) if launch.unfound else None
    if found is None:
        return launch
    script, folder = found
    there = os.path.relpath(folder, os.getcwd())
    if folder == os.path.dirname(launch.command.path):
        return launch._replace(missing=f"{launch.missing}; started in the launcher's own folder ({there}) it runs "
                                       f"{os.path.relpath(script, os.getcwd())}: start it from there (cd {there})",
                               found_from=folder)
    return launch._replace(missing=f"{launch.missing}; started in the folder above the launcher's ({there}) it runs "
                                   f"{os.path.relpath(script, os.getcwd())}: start it from there (cd {there}; bash "
                                   f"{os.path.relpath(launch.command.path, folder)})", found_from=folder)


def _emulate_walk(w: Walk, path: str, target, base, environ) -> Optional[dict]:
    found = steps(w)
    truncated = len(found) > MAX_LAUNCHES
    found = found[:MAX_LAUNCHES]
    found = [_copied(w, la) for la in found]
    if w.found_from:
        found = [_moved(w, la) for la in found]
    if not found:
        if w.exited:
            return _exits_first(w, target, base)
        unknown = _unknown_command(w)
        if not unknown and w.msprof_apps:
            return _idle_msprof(w, target, base)
        return _runs_unknown(w, target, base, unknown) if unknown else None
    runs: List[Run] = []
    # failures under `set -e`, each with the shells it ends (a prefix of frames; () the whole launcher): a stop
    # inside a child run without the caller's `set -e` ends that child only, so later ones may stop too
    stops: List[Tuple[Run, tuple]] = []
    skip = None                     # the command a failing `cmd && next` skips
    for i, launch in enumerate(found, 1):
        by = next((run for run, within in stops if launch.command.frames[:len(within)] == within), None)
        if by is not None or (skip is not None and _place(launch.command) == _place(skip)):
            runs.append(_not_run(w, launch, i, by or runs[-1], target, base))
            continue
        shut = unopened(w, launch.command, _walked_text(w, launch.command.path))
        run = _unopened(w, launch, i, shut, target, base) if shut is not None and shut.sure else \
            _run(w, launch, i, target, base, environ)
        if shut is not None and not shut.sure:
            run = _may_not_start(run, shut)
        runs.append(run)
        if shut is not None and shut.sure and shut.by is not None:
            # a call's, child run's or compound's redirection: bash opened it in the shell the call is in, whose set -e
            # decides (the child's own never starts), certain or not whichever launch in it this is
            if shut.by.errexit:
                within = _stopped_within(launch.command.frames[:shut.by.depth])
                runs[-1] = run._replace(stops=_stopper(launch.command, within))
                stops.append((runs[-1], within))
        elif (run.verdict == "fails" or run.verdict == "not run") and run.certain and not launch.command.background:
            if launch.command.errexit:
                within = _stopped_within(launch.command.frames)
                runs[-1] = run._replace(stops=_stopper(launch.command, within))
                stops.append((runs[-1], within))
            elif launch.command.chained:
                skip = _next_command(w, launch.command)
    return _answer(w, path, runs, truncated, target, base)


def _stopped(w: Walk, path: str, report: Optional[dict], target, base) -> dict:
    """The walk stopped at a bound (shell/state.MAX_COMMANDS, its size): launches past that point were not seen, so
    the answer is unknown and says so, unless a launch before it certainly fails (that stays the answer, with
    where the walk stopped). A launcher that ran none before the stop is emulated on its own variables."""
    where = "; ".join(f"the walk of {_rel(f, w.root)} stopped at line {line} ({why})"
                      for f, (_, line, why) in w.stopped.items())
    stop = f"{where}: the commands from there on were not emulated"
    if report is None:
        report = finish(_rel(w.launcher, os.getcwd()), _own_variables(w, path, target, base, w.start), target,
                        w.start, base, None, None, False)
        report.update(launch={"lines": [f"no launch found before {where}"], "unseen": True}, answer={})
    answer = report.get("answer") or {}
    if answer.get("usable") is False and answer.get("decider") is not None:
        answer = dict(answer, why=f"{answer['why']}; {stop}")
    else:
        answer = {"usable": None, "why": stop + (f"; before that, {answer['why']}" if answer.get("why") else ""),
                  "decider": answer.get("decider")}
        report.update(usable=None, exit=EXIT_PROBLEM)
    report["answer"] = answer
    report["launch"] = dict(report.get("launch") or {}, stopped=where)
    return report


def _exits_first(w: Walk, target, base) -> dict:
    """A launcher whose shell ends (`exit`, `exec cmd`) before it starts any launch: no process of its own reads
    its PROFILING_* (a launcher that runs none and goes on is emulated on its own variables instead)."""
    assert w.exited is not None         # (the caller asks only then)
    file, line = w.exited
    where = f"{_rel(file, w.root)}:{line}"
    report = finish(_rel(w.launcher, os.getcwd()), [], target, w.start, base, None, None, False)
    ended = _ended_by(w, file, line, "the launcher")
    why = f"no launch found before the launcher ends at {where}" + (f": {ended}" if ended else "")
    launch = {"lines": [f"no launch: none found before the launcher ends at {where}" + (f": {ended}" if ended else "")],
              "exits_at": where}
    report.update(usable=False, exit=EXIT_PROBLEM, launch=launch, answer={"usable": False, "why": why, "decider": None})
    return report


def _ended_by(w: Walk, file: str, line: int, who: str) -> str:
    """What made a shell end at file:line: the decided `if` branches its exit is in, what it echoes there first (the
    usage or error line), and the options of the launcher that set a variable a condition reads (`if [[
    $data_path == "" ]]` after `--data_path*) data_path=...`, on who: the launcher, the application msprof runs); ""
    when it is in none."""
    branches = w.end_branches.get((file, line))
    if not branches:
        return ""
    path, at, _ = branches[-1]
    out = ", then ".join(f"`{b}` ({_rel(p, w.root)}:{n})" for p, n, b in branches) + \
        (" holds" if branches[-1][2] != "else" else " runs") + " in this launch"
    printed = [_echoed(c) for c in w.commands if c.path == file and at <= c.line <= line and c.ranks and c.words and
               c.words[0].text == "echo" and not _into_file(c)]
    if printed:
        out += f"; it prints `{printed[0][:200]}`" + (f" and {len(printed) - 1} more line(s)" if printed[1:] else "")
    setting = options_setting(_walked_text(w, path))
    read = [v for _, _, b in branches for v in re.findall(r"\$\{?([A-Za-z_]\w*)", b)]
    options = list(dict.fromkeys(setting[v][0] + {"=": "=VALUE", " ": " VALUE"}.get(setting[v][1], "")
                                 for v in read if v in setting))
    if options:
        out += f"; {' or '.join(options)} on {who} sets what the condition reads"
    return out


def _echoed(c) -> str:
    """What an echo prints: its words after its options (-n, -e, -E), a blank between (a printf's output is its
    format's, not its words: not said)."""
    words = [x.text for x in without_redirections(c.words)][1:]
    while words and re.fullmatch(r"-[neE]+", words[0]):
        words.pop(0)
    return " ".join(words).replace(HOLE, "<unknown>")


def _into_file(c) -> bool:
    """An echo whose output goes to a file (`> log`, `&>> log`), not where the user sees it (`>&2`, /dev/stderr)."""
    words = [x.text for x in c.words[1:]]
    return any(w in _TO_FILE and (words[k + 1] if k + 1 < len(words) else "") not in ("2", "/dev/stderr", "/dev/tty")
               for k, w in enumerate(words))


_TO_FILE = frozenset((">", ">>", ">|", "1>", "1>>", "1>|", "&>", "&>>", ">&", "1>&"))


def _idle_msprof(w: Walk, target, base) -> dict:
    """A launcher (or typed command) whose only run is msprof of a shell script that starts no launch: its
    `[ -z "$data_path" ] && exit 1` ends it first, so msprof profiles no process (not "it starts no msprof run")."""
    app, path, line, end = w.msprof_apps[0]
    where = f"{_rel(end[0], w.root)}:{end[1]}" if end else f"{_rel(path, w.root)}:{line}"
    ended = _ended_by(w, *end, os.path.basename(end[0])) if end else ""
    what = (f"ends at {where} before it starts one" + (f" ({ended})" if ended else "")) if end else "starts none"
    why = f"msprof at {_rel(path, w.root)}:{line} runs {app}, which {what}: no training process starts under msprof"
    report = finish(_rel(w.launcher, os.getcwd()), [], target, w.start, base, None, None, False)
    launch = {"lines": [f"no launch: {why}"], "exits_at": where}
    report.update(usable=False, exit=EXIT_PROBLEM, launch=launch, answer={"usable": False, "why": why, "decider": None})
    return report


def _unknown_command(w: Walk, sourced: bool = True) -> str:
    """Where a launcher runs a command whose start the walk cannot read (shell/launches.opaque: `$PY train.py`,
    `eval`, `./main`), or sources a script it does not read ("": none). A program found on PATH, `python -m` of an
    installed module and `python -c` are named after those, and a script sourced and not read last: it mostly sets
    the environment (the toolkit's set_env.sh), where such a program starts the training (Scaling-nmt's
    `fairseq-train`: the answer named the toolkit's set_env.sh)."""
    found = [(cmd, o) for cmd, o in ((cmd, opaque(cmd)) for cmd in w.commands) if o is not None]
    for cmd, o in found:
        if o.kind in ("unknown", "eval", "script") or (o.kind == "program" and "/" in o.word.text):
            return _runs(w, cmd, o)
    if found:
        return _runs(w, *found[0])
    for name, by, line in (w.unread if sourced else ()):
        return f"{_rel(by, w.root)}:{line} sources {name.replace(HOLE, '<unknown>')}, which is not read"
    return ""


def _runs(w: Walk, cmd, found) -> str:
    """What a command opaque() names runs, at its line."""
    at = f"{_rel(cmd.path, w.root)}:{cmd.line}"
    name = found.word.text.rsplit("/", 1)[-1]
    if found.kind == "program":
        return f"{at} runs the program {found.word.text}, which emulate does not follow"
    if found.kind == "script":
        return f"{at} runs {name} with {found.script.replace(HOLE, '<unknown>')}, which emulate does not follow"
    if found.kind == "module":
        held = _held_below(cmd, found.script)
        if held is not None:
            return (f"{at} runs {name} -m {found.script}, not found on the launch's sys.path (the folder it runs in, "
                    f"PYTHONPATH): the project's {_rel(held[0], cmd.cwd[0])} is that module where {held[1]} is on "
                    "sys.path (installed with pip, or on PYTHONPATH), which emulate does not follow")
        return f"{at} runs {name} -m {found.script}, a module the project does not hold, which emulate does not follow"
    if found.kind == "code":
        return f"{at} runs `{name} {found.script or '-c'}`, whose code is not read"
    shown = _written(w, cmd.path, found.word) or found.word.text.replace(HOLE, "<unknown>")
    what = "`eval`, whose command is not read" if found.kind == "eval" else f"`{shown}`, not known statically"
    return f"{at} runs {what}"


def _held_below(cmd, module: str) -> Optional[Tuple[str, str]]:
    """(the file, its folder's name) of `python -m module` in a folder right below the one the launch runs in, which
    does not hold it itself (OpenCLIP's src/open_clip_train/main.py, run from the project's top once installed), else
    None. At most 64 folders are looked in."""
    from ..values.project import on_path
    if len(cmd.cwd) != 1 or HOLE in module or "<unknown>" in module or fence.outside(cmd.cwd[0]):
        return None             # (--no-outside: a folder outside the project is not listed either)
    try:
        with os.scandir(cmd.cwd[0]) as it:
            subs = sorted(e.name for e in it if e.is_dir() and not e.name.startswith("."))[:64]
    except OSError:
        return None
    for sub in subs:
        path = on_path((os.path.join(cmd.cwd[0], sub),), module.split("."))
        if path is not None:
            return path, sub
    return None


def _walked_text(w: Walk, path: str) -> str:
    """A file's text as the walk decoded it ("" when it cannot be read): the offsets of its words are in that text,
    which a text-mode UTF-8 read shifts (a carriage return dropped, a GB18030 character read as several)."""
    if path == w.launcher:
        return w.launcher_text()
    try:
        return decode_shell(read_bytes(path, MAX_BYTES))
    except (OSError, ReadError):
        return ""


def _written(w: Walk, path: str, word) -> str:
    """A word as the file writes it (`$PY`), "" when that is not at hand."""
    written = _walked_text(w, path)[word.start:word.end]
    return written if 0 < len(written) <= 80 and "\n" not in written else ""


def _runs_unknown(w: Walk, target, base, where: str) -> dict:
    """A launcher that starts no launch the walk can name, but runs a command it cannot read: what that starts,
    and so whether anything collects, is not known (never "no")."""
    report = finish(_rel(w.launcher, os.getcwd()), [], target, w.start, base, None, None, False)
    why = f"no launch found, but {where}: what it starts is not known here"
    report.update(usable=None, exit=EXIT_PROBLEM, launch={"lines": [f"no launch: {why}"], "unseen": True},
                  answer={"usable": None, "why": why, "decider": None})
    return report


def _run(w: Walk, launch: Launch, index: int, target, base, environ) -> Run:
    ls, results, env = emulate_launch(w, launch, target, base, environ)
    cmd = launch.command
    cwd = cmd.cwd[0] if len(cmd.cwd) == 1 else None        # None: after a `cd` the walk could not follow
    if ls is not None and changes_directory(ls.ctx.sites):
        cwd = None                                          # the script moves itself (os.chdir)
    name = _rel(launch.script, os.getcwd()) if launch.script else _rel(w.launcher, os.getcwd())
    report = finish(name, results, target, cwd, env, None, None, False)
    if ls is not None and not results:
        report["env_hint"] = ms_env_hint(ls.ctx.src.text)
    info = launch_info(w, launch, ls, w.root)
    if launch.script and ls is None:
        launch = launch._replace(missing=f"cannot read {_rel(launch.script, w.root)} ({_unread(launch.script)})")
        info["lines"].insert(1, f"  unknown: {launch.missing}")
    verdict, why, profiles = _verdict(launch, report)
    if launch.script and ls is not None and not any(r.setup.route in ("env", "msprof") for r in results):
        # the script's lines (its own setups': a launcher's variables and msprof are the launcher's lines), in an
        # answer whose subject is the launcher
        why = in_file(why, os.path.basename(launch.script))
    cause = launch.refused                                  # `why` names this launch's own cause
    off = ""                                                # what would switch it on (_off_unless)
    if verdict == "no profiling" and ls is not None:
        off = _off_unless(w, launch, ls)
        why = off or why
        env_only = not ls.setups and all(r.setup.route == "env" for r in results)
        # the script's own torch_npu or MindSpore profiler, replayed with the launch's environment (a
        # PROFILING_MODE the launcher exports is that profiler's business, not GE's, in such a script)
        replayed = _framework_replay(launch, ls, target, environ, cwd) if env_only else None
        if replayed is not None:            # (the script's lines: named, as the launcher's answer quotes them)
            replayed = (replayed[0], in_file(replayed[1], os.path.basename(launch.script))) + tuple(replayed[2:])
        if replayed is not None and replayed[0] == "no profiling" and not results:
            # a profiler that stays off beside the model zoo's Profile, which the launch's PROFILE_TYPE may switch
            # on (UNet_for_PyTorch: an unreached autograd profile() and a Profile in train()): the Profile decides
            from .zoo_profile import judge as zoo_judge
            zoo = zoo_judge(w, launch, ls, target, environ, beside=True)
            if zoo is not None and zoo[0] != "no profiling":
                replayed = None
            elif zoo is not None:           # both off: each says why (PROFILE_TYPE, which the caller may export)
                v, why, profiles, line, note = replayed
                replayed = v, f"{why}; {zoo[1]}", profiles, f"{line}; {zoo[1]}", note
        if replayed is not None:
            verdict, why, profiles, line, note = replayed
            cause = True
            report = dict(report, results=[], unmodelled=line, note=note)
            if verdict == "collects":
                report.update(usable=True, conditional=" (when " in line)
            elif verdict in ("fails", "collects nothing"):
                report.update(usable=False, exit=EXIT_PROBLEM)
        elif not ls.setups and not any(r.setup.route == "env" for r in results):
            from .zoo_profile import judge as zoo_judge
            zoo = zoo_judge(w, launch, ls, target, environ)
            other = imported_profiling(ls) if zoo is None else None
            if zoo is not None:
                # the model zoo's Profile, switched by the launch's PROFILE_TYPE (emulate/zoo_profile.py)
                verdict, why, profiles = zoo
                cause = True
                report = dict(report, unmodelled=f"{os.path.basename(launch.script)}: {why}")
                if verdict == "fails":
                    report.update(usable=False, exit=EXIT_PROBLEM)
            found = _imported(w, launch, ls, other, report, target, base, environ)
            if found is not None:
                verdict, why, profiles, report, decided, followed = found
                cause = cause or followed                   # a module's replay says this launch's own cause
                info["lines"].extend(f"  {d}" for d in decided)
                info["decided"] = list(info["decided"]) + list(decided)     # the JSON report's too
    if launch.msprof is not None and ls is not None and verdict == "collects" and not ls.setups:
        # msprof collects, but the script's own torch_npu or MindSpore profiler call still raises (a TypeError in
        # Python, whatever msprof configures): the run ends there, which the user must hear (MnasNet's use_npu=True);
        # and torch_npu 26.1+ turns its own profiler into a no-op under msprof: its folders stay empty
        outer = launch.msprof.command or cmd
        replayed = _framework_replay(launch, ls, target, environ, cwd, f"{_rel(outer.path, w.root)}:{outer.line}")
        name = os.path.basename(launch.script)
        said = ""
        if replayed is not None and replayed[0] == "fails":
            said = f"under msprof too, {name} stops with this error: {replayed[1]}: msprof collects the run until then"
        elif replayed is not None and "PROFILER_SAMPLECONFIG is set by msprof" in replayed[1]:
            import re
            noop = re.search(r"^(line \d+)\b.*?(torch_npu \S+ turns every profiler call into a no-op)", replayed[1])
            if noop:        # (what the other releases do beside msprof is not read: not said)
                said = (f"{name}'s own profiler ({noop.group(1)}): msprof sets PROFILER_SAMPLECONFIG, and "
                        f"{noop.group(2)}, so that profiler keeps nothing")
        if said:            # a warning of this launch, as a string-flag trap is (the JSON report's too)
            info["lines"].append(f"  ! {said}")
            info["traps"] = list(info["traps"]) + [said]
    if verdict == "no profiling" and ls is not None:
        # a copy to install in the project that the job may import names profiling (SOLOv2's mmcv/)
        from .develop_copy import launch_top, profiling_copy
        copy = profiling_copy(ls, launch_top(launch.script, w.root))
        if copy:
            verdict, why, profiles, cause = "unknown", copy, None, False
            report = dict(report, unmodelled=copy)
    if verdict == "unknown" and report["usable"] is not None:
        report = dict(report, usable=None, exit=EXIT_PROBLEM)
    own = launch.command.env.get("PROFILING_OPTIONS")
    reader = _script_reader(results)
    if own is not None and env_read(results) is False and reader is not None:
        info["lines"].append(f"  PROFILING_OPTIONS from {passer(launch.command)} is not read: "
                             f"{_rel(launch.script, w.root)}:{reader.setup.line} {reader.setup.route} switches "
                             "profiling on with its own options, which GE uses instead")
    return Run(launch, index, report, info, verdict, why, profiles, cause, switch=bool(off) and why == off)


def _imported(w: Walk, launch: Launch, ls, other: Optional[str], report: dict, target, base, environ):
    """(verdict, why, profiles, report, decided, followed) of a launch whose script has no setup of its own but names
    profiling (other == its script) or imports a project module that does (other: that module, "": too many
    imports), None where it names none: the setups of those modules replayed with the launch's flags
    (emulate/imported.py), else unknown, never "no". `emulate SCRIPT.py` asks the same of `python3 SCRIPT.py`
    (follow_script)."""
    from .mindformers_run import follow as follow_mindformers
    # MindFormers' run_mindformer.py: its YAML run configuration decides (emulate/mindformers_run.py)
    followed = follow_mindformers(w, launch, ls, target, environ)
    if followed is None:
        from .mindspeed_fsdp import follow as follow_fsdp
        # MindSpeed-MM's FSDP2 trainer: its YAML's tools.profile decides (emulate/mindspeed_fsdp.py)
        followed = follow_fsdp(w, launch, ls, target, environ)
    if followed is None:
        from .mindspeed_llm_fsdp import follow as follow_llm_fsdp
        # MindSpeed-LLM's FSDP2 trainer: its YAML's and command line's training.profile* decide
        followed = follow_llm_fsdp(w, launch, ls, target, environ)
    if followed is None:
        from .mindspeed_rl import follow as follow_rl
        # MindSpeed-RL's trainers: their hydra configuration's profiler_config.integrated decides
        followed = follow_rl(w, launch, ls, target, environ)
    if followed is None and other and other != launch.script:
        from .mindspeed_mm import follow as follow_mindspeed_mm
        # MindSpeed-MM's Profiler, switched by the --mm-tool JSON (emulate/mindspeed_mm.py)
        followed = follow_mindspeed_mm(w, launch, ls, target, environ)
    if followed is None and other and other != launch.script:
        from .mindspeed_profile import follow as follow_mindspeed
        # MindSpeed's profile feature over Megatron-LM, switched by --profile (emulate/mindspeed_profile.py)
        followed = follow_mindspeed(w, launch, ls, target, environ)
    if other is None and followed is None:
        return None
    if other and other != launch.script and followed is None and fence.outside(other):
        # --no-outside: a module outside the project is neither replayed nor quoted (as a sourced file is not read)
        why = f"{os.path.basename(launch.script)} imports {other}: {fence.WHY}"
        return "unknown", why, None, dict(report, unmodelled=why), (), False
    if other and other != launch.script and followed is None:
        from .imported import follow
        followed = follow(w, launch, ls, target, base, environ, (_verdict, _cause))
        if followed is None:        # a torch_npu profiler reading a global accessor (emulate/global_args.py)
            from .global_args import follow as follow_accessor
            followed = follow_accessor(w, launch, ls, target, environ)
    if followed is not None:
        verdict, why, profiles = followed[:3]
        # the module's replay, shown as a script's is, when one module decides; else the one line
        report = dict(followed.report) if followed.report is not None else dict(report, unmodelled=why)
        if verdict in ("fails", "collects nothing"):
            report.update(usable=False, exit=EXIT_PROBLEM)
        elif verdict == "collects":
            report.update(usable=True)
        return verdict, why, profiles, report, followed.decided, True
    # a setup in a module it imports that cannot be followed (imported.py): never "no" then
    name = os.path.basename(launch.script)
    from .legacy_api import judge as legacy_judge
    legacy = legacy_judge(ls, other, target) if other and other != launch.script else None
    if legacy is not None:          # the legacy profiler API there, judged with the launch's flags (BEiT)
        verdict, why, profiles = legacy
        report = dict(report, unmodelled=why)
        if verdict == "fails":
            report.update(usable=False, exit=EXIT_PROBLEM)
        return verdict, why, profiles, report, (), True
    from .mindspore_run import import_fails
    fails = import_fails(ls.ctx.tree) if other == launch.script and ls.ctx.tree is not None else None
    off = _import_off(ls) if fails else ""
    if off:         # ... but only where it runs: CycleGAN's `if args.need_profiler:`, which its launcher leaves false
        why = f"{name}: {off}"
        return "no profiling", why, False, dict(report, unmodelled=why), (), True
    if fails:       # (the first import this launch runs: one after an import it skips)
        from ..checks.launch_setup import false_in_launch
        fails = import_fails(ls.ctx.tree, lambda stmt: bool(false_in_launch(ls.ctx, stmt))) or fails
    if fails:       # NPP364: the import of its profiler stops the job, whether it profiles or not (as emulate SCRIPT)
        return "fails", f"{name}: {fails}", True, dict(report, usable=False, exit=EXIT_PROBLEM,
                                                       unmodelled=f"{name}: MindSpore's profiler: fails: {fails}"), \
            (), True
    if other == launch.script:
        why = _named(ls, name)
    else:
        # from the script's folder, as imported.py says a module (not from the launcher's)
        shown = os.path.relpath(other, os.path.dirname(launch.script)).replace(os.sep, "/") if other else ""
        from .added_path import MayImport
        how = "which it may import from a folder it adds to sys.path" if isinstance(other, MayImport) else \
            "which it imports"
        naming = f"{shown}, {how}, names one{named_line(other)}" if other else \
            "it imports more modules than are followed here"
        why = (f"{name} has no profiling setup of its own, but {naming}: a setup in a module it imports is not "
               "emulated here")
    # the script's line says the same, never "no profiling setup found" (emulate SCRIPT agrees)
    return "unknown", why, None, dict(report, unmodelled=_unmodelled(ls, name, why) if other == launch.script
                                      else why), (), False


def _import_off(ls) -> str:
    """Why the script's imports of a mindspore.profiler module 2.7-2.10 lack (NPP364) do not run in this launch, said
    with the first: an `if` on the way of each that the launch's flags make false; "" where one has none (a later
    import the launch runs stops the job all the same)."""
    from ..checks.launch_setup import false_in_launch
    from ..checks.mindspore import missing_modules
    found = missing_modules(ls.ctx.tree)
    offs = [false_in_launch(ls.ctx, stmt) for stmt, _, _ in found]
    if not offs or not all(offs):
        return ""
    return f"line {found[0][0].lineno} imports MindSpore's profiler only where the tests it is under hold, and " \
        f"{offs[0]}: the import does not run and nothing is profiled"


def follow_script(path: str, target, cwd: Optional[str], base, environ=None) -> Optional[dict]:
    """`emulate SCRIPT.py` of a script with no profiling setup of its own that imports a project module naming one:
    the launch `python3 SCRIPT.py` in cwd, with flags not known (each test on them stays a condition), followed into
    those modules as a launcher's launch of it is (_imported); None where it imports none."""
    import shlex
    from ..checks.launch_setup import prepare
    from ..shell.launches import TYPED, launches
    from ..source.files import ReadError, read_source
    from ..source.prefilter import PROFILING_WORDS, code_only
    try:
        if PROFILING_WORDS.search(code_only(read_source(path).text)):
            return None         # it names profiling itself (a framework's profiler): the script's own report says
    except ReadError:
        return None
    cwd = cwd or os.path.dirname(os.path.abspath(path))    # (a script that moves itself: its imports are not moved)
    w = Walk(os.path.join(cwd, TYPED), cwd).run(f"python3 {shlex.quote(os.path.abspath(path))} \"$@\"\n")
    found = launches(w)
    ls = prepare(found[0], target, w.root) if len(found) == 1 else None
    other = imported_profiling(ls) if ls is not None and not ls.setups else None
    if ls is not None and other is None:
        # a copy to install in the project that the job may import names profiling (as a launch of it says)
        from .develop_copy import profiling_copy, script_top
        why = profiling_copy(ls, script_top(path))
        if why:
            report = finish(_rel(path, os.getcwd()), [], target, cwd, base, None, None, False)
            report.update(usable=None, exit=EXIT_PROBLEM, unmodelled=why,
                          answer={"usable": None, "why": why, "decider": None})
            return report
    if ls is None or other is None or other == ls.launch.script:
        return None             # ("": more imports than are followed, unknown as a launch of it says)
    report = finish(_rel(path, os.getcwd()), [], target, cwd, base, None, None, False)
    verdict, why, _, report, _, _ = _imported(w, ls.launch, ls, other, report, target, base, environ)
    if verdict == "unknown":
        report.update(usable=None, exit=EXIT_PROBLEM, answer={"usable": None, "why": why, "decider": None})
    return report


# the variables the frameworks' replays read (torch_run.py, mindspore_run.py): with a launcher that sets one, the
# launch's environment is handed over even without --env
_FRAMEWORK_ENV = ("PROFILING_MODE", "PROFILER_SAMPLECONFIG", "ASCEND_WORK_PATH", "MS_PROFILER_OPTIONS", "PROF_CONFIG_PATH")


def _framework_replay(launch: Launch, ls, target, environ, cwd: Optional[str], msprof_at: str = ""):
    """(verdict, why, profiles, the script's line, a note on the releases replayed) of a launch whose script profiles with torch_npu's or MindSpore's
    profiler, from emulate's replay of that script (emulate/torch_run.py, mindspore_run.py) with the environment
    the launch gives it (the launcher's exports over the caller's, with --env); None where neither is replayed."""
    from ..source.prefilter import names_mindspore, names_torch_npu
    from ..setups.reach import all_of
    from .framework_render import NOT_50
    from .framework_replay import emulate_framework
    text = ls.ctx.src.text
    values, origins = dict(environ or {}), {}
    for k, v in launch.command.env.items():
        if HOLE not in v.value:
            values[k] = v.value
            origins[k] = f"by {passer(launch.command)} ({v.how} at {v.where(os.path.dirname(launch.command.path))})"
    if msprof_at:
        # msprof hands its application its configuration in this variable (msprof_launch.py)
        values["PROFILER_SAMPLECONFIG"], origins["PROFILER_SAMPLECONFIG"] = "<msprof's>", f"by msprof at {msprof_at}"
    # without --env the caller's environment is not known: as for a script
    given = None if environ is None and not any(k in values for k in _FRAMEWORK_ENV) else Environment(values, origins)
    started = _ms_env_start(values.get("MS_PROFILER_OPTIONS"), text)
    if started:
        name = os.path.basename(launch.script)
        where = origins.get("MS_PROFILER_OPTIONS", "in the environment (--env)")
        why = (f"MS_PROFILER_OPTIONS, set {where}, has \"start\": true: MindSpore starts its profiler when {name} "
               "imports mindspore (EnvProfiler); when it stops and what it keeps is not followed here")
        return "unknown", why, None, f"{name}: MindSpore's profiler: unknown: {why}", ""
    from .torch_run import reads_env_config
    for framework, named in (("torch_npu", names_torch_npu), ("mindspore", names_mindspore)):
        if not named(text) and not (framework == "torch_npu" and reads_env_config(text, given)):
            continue
        rep = emulate_framework(text, launch.script, framework, target, cwd, True, given, ls.ctx.resolver.given)
        if rep is None:
            continue
        name = os.path.basename(launch.script)
        shown = "torch_npu's profiler" if framework == "torch_npu" else "MindSpore's profiler"
        # the replay is 6.0 and later's: the script's own report says so, and so does the launch's
        note = NOT_50 if framework == "torch_npu" and rep["target"]["torch_npu"] in ("any", "portable", "5.0") else ""
        if rep["usable"] is True:
            # under an `if` the launch does not decide (a value from a config file): where that holds, as for GE
            conditions = [c for p in rep["profilers"] if p.verdict == "collects" for c in p.conditions]
            when = f" (when {all_of(tuple(dict.fromkeys(conditions)))})" if conditions else ""
            # what it resets or drops in this launch (an aic_metrics at Level0): less than the script asks for
            below = "".join(f"\n  ! {c}" for p in rep["profilers"] if p.verdict == "collects" for c in p.caveats)
            return "collects", f"{name} collects with {shown}{when}", True, f"{name}: {shown} collects{when} " \
                f"(emulate {name} for its steps and folders){below}", note
        if rep["usable"] is None:
            # what the replay found wrong in a file it reads (a dynamic-profiling JSON with a string start_step that
            # never starts): shown under the line, as `emulate SCRIPT` shows it
            below = "".join(f"\n  ! {c}" for p in rep["profilers"] if p.verdict == "unknown" for c in p.caveats)
            return "unknown", rep["why"], None, f"{name}: {shown}: unknown: {rep['why']}{below}", note
        verdicts = {p.verdict for p in rep["profilers"]}
        if verdicts <= {"off"}:
            return "no profiling", rep["why"], False, f"{name}: {shown} is off: {rep['why']}", note
        verdict = "fails" if "fails" in verdicts else "collects nothing"
        return verdict, rep["why"], True, f"{name}: {shown} {verdict}: {rep['why']}", note
    return None


def _ms_env_start(options: Optional[str], text: str) -> bool:
    """Whether MS_PROFILER_OPTIONS starts MindSpore's profiler in a script that imports mindspore: `import
    mindspore` imports mindspore.profiler, whose EnvProfiler.init_profiler() builds and starts a profiler when the
    variable's JSON object has a true "start" (data/sources.json mindspore.env.options)."""
    import json
    import re
    if not options or not re.search(r"^\s*(?:import|from)\s+mindspore\b", text, re.M):
        return False
    try:
        parsed = json.loads(options)
    except ValueError:
        return False
    return isinstance(parsed, dict) and bool(parsed.get("start"))


def ms_env_hint(text: str) -> str:
    """How a script with no profiling setup is profiled from outside, where that is not GE's PROFILING_MODE/
    PROFILING_OPTIONS: a MindSpore script by MS_PROFILER_OPTIONS (EnvProfiler), a torch_npu one under msprof; "" for
    the others."""
    import re
    from .replay import other_framework
    if other_framework(text) == "torch_npu":     # GE's variables are not shown to reach a torch_npu process
        return ("torch_npu collects with torch_npu.profiler, or under msprof: emulate the run as "
                "`npuprof emulate -- msprof --output=DIR python3 SCRIPT ...`")
    if re.search(r"^\s*(?:import|from)\s+vllm\b", text, re.M):         # data/sources.json runtime.vllm_profiler
        return ("vLLM profiles with its own profiler, which emulate does not model: profiler_config (--profiler-config"
                "; VLLM_TORCH_PROFILER_DIR before vllm-ascend's #5928), started and stopped by start_profile() and "
                "stop_profile()")
    if not re.search(r"^\s*(?:import|from)\s+mindspore\b", text, re.M):
        return ""
    return ("MindSpore starts its profiler at `import mindspore` when MS_PROFILER_OPTIONS holds {\"start\": true, "
            "...}: set it and use --env to emulate the environment")


def _unread(script: str) -> str:
    """Why checks/launch_setup.prepare could not analyse a script: over the work budget, or not Python."""
    from ..source.files import ReadError, read_source
    from ..source.prefilter import MAX_WORDS, words_over_budget
    try:
        words = words_over_budget(read_source(script).text)
    except (OSError, ReadError):
        return "it cannot be read"
    if words:
        return f"it has about {words:,} words and symbols, over the {MAX_WORDS:,} one file may have"
    return "it does not parse as Python"


# the names of the GE routes' setups, which emulate models (source/prefilter.PROFILING_WORDS' first names)
GE_NAMES = {"profiling_mode", "profiling_options", "ProfilingConfig", "enable_profiling", "PROFILING_MODE",
            "PROFILING_OPTIONS", "npu_resource_init", "profiling_config"}


def _named(ls, name: str) -> str:
    """Why a script with no setup emulate follows is unknown, though it names a profiling setting: the name and its
    line. A GE route's name (an unused `import ProfilingConfig`, options built where they are not followed) is one
    emulate models, so only the others are "a profiling API emulate does not model"."""
    return named_in(ls.ctx.src.text, name)


def named_in(text: str, name: str) -> str:
    """_named's words for a script's text (`npuprof emulate SCRIPT` says what its launch says)."""
    from ..source.prefilter import PROFILING_WORDS, code_only
    m = PROFILING_WORDS.search(code_only(text))
    if m is not None and m.group(0) in GE_NAMES:
        return f"{name} names {m.group(0)} (line {text.count(chr(10), 0, m.start()) + 1}), but no profiling setup " \
            "emulate can follow is built from it: what it collects is not known here"
    return (f"{name} names a profiling API emulate does not model (torch_npu, torch, MindSpore or vLLM profiler, "
            "msprof through a subprocess): what it collects is not known here")


def _unmodelled(ls, name: str, why: str) -> str:
    """The script's line for a profiling API emulate does not model: as `npuprof emulate SCRIPT` says it."""
    from ..source.prefilter import code_only, names_mindspore, names_torch_npu
    from .render import not_replayed
    for framework, named in (("a torch_npu or torch profiler", names_torch_npu), ("MindSpore's profiler", names_mindspore)):
        if named(code_only(ls.ctx.src.text)):
            return not_replayed(name, framework)
    return why


def _off_unless(w: Walk, launch: Launch, ls) -> str:
    """Why a launch collects nothing when its script's profiling hangs on a flag left at an off default: what would
    switch it on, and whether the launcher takes that option and drops it (checks/launcher_switch.dropped_switches, NPP015)."""
    import ast
    from ..checks.launch_setup import flag_table
    script = os.path.relpath(launch.script, w.root).replace(os.sep, "/")
    for d in w.dropped:
        if d.script == script and not d.flag and not ls.setups:
            return (f"{d.spelled} on this launcher goes nowhere: no launch gets {d.option} or anything made from it, "
                    f"and {script} has no profiling setup (no Python file of the project names one)")
    for s in ls.setups:
        off_by = s.mode.off_by if s.mode.state == "off" else None
        if off_by is None:
            continue
        table = flag_table(ls.ctx)
        flag = table.get(off_by[1]) or table.get("--" + off_by[1].lstrip("-"))
        if flag is None or flag.default is None:
            return ""
        script = os.path.relpath(launch.script, w.root).replace(os.sep, "/")
        for d in w.dropped:
            if d.script == script:
                return (f"{d.spelled} on this launcher goes nowhere: no launch gets {d.option} or anything made from "
                        f"it, so {script} reads its own {d.flag} at its default {d.default} ({d.flag_at}) and its "
                        f"profiling setup under `{d.guard}` ({d.setup_at}) does not run")
        return (f"profiling is off unless {flag.option}=True is passed to {script}: {passer(launch.command)} does "
                f"not pass it, and its default is {ast.unparse(flag.default)} ({os.path.basename(launch.script)}:"
                f"{flag.call.lineno})")
    return ""


def env_read(results: List[Result]) -> Optional[bool]:
    """Whether GE reads PROFILING_MODE / PROFILING_OPTIONS in this launch: False when the script stops before GE
    starts, or the setup GE reads first switches profiling on with options of its own (adapter defaults
    included). GE uses the options it is given only when profilingMode is "1" and they are not empty, and
    falls back to the environment otherwise (hicann/ge runtime/v1/common/profiling/profiling_init.cc,
    profiling_options_facts.md section 1 [S13], confirmed in knowledge_audit.md; the collector reads no
    PROFILING_OPTIONS itself). None: the file does not show which (a condition, a launch under msprof)."""
    live = [r for r in results if r.read_by_ge is not False]
    if any(r.source in ("environment", "GE default") for r in live):
        return True
    if any(r.stops and r.read_by_ge for r in live) or _script_reader(results) is not None:
        return False
    return None


def ge_reads(w: Walk, launch: Launch, target) -> Optional[bool]:
    """Whether GE reads the launcher's PROFILING_OPTIONS in this launch (env_read of its replay, with the output
    directory left unknown): what `check` needs of emulate to judge them (checks/shell_launches.py; the engine
    passes it in)."""
    from .runtime import Env
    _, results, _ = emulate_launch(w, launch, target, Env(work_path_known=False))
    return env_read(results)


def _script_reader(results: List[Result]) -> Optional[Result]:
    """The setup GE certainly reads first with the script's own options (or the adapter's defaults), if any."""
    from .render import _conditions
    return next((r for r in results if r.read_by_ge is True and r.source in ("script", "adapter default") and
                 r.verdict not in ("off", "unknown") and not _conditions(r.setup)), None)


def _not_run(w: Walk, launch: Launch, index: int, by: Run, target, base) -> Run:
    report = finish(_rel(w.launcher, os.getcwd()), [], target, w.start, base, None, None, False)
    info = launch_info(w, launch, None, w.root)
    how = f"stops {by.stops} (set -e)" if by.stops else "skips it (&&)"
    why = f"launch {by.index} at {by.where} fails first and {how}"
    info["lines"].insert(1, f"  not run: {why}")
    return Run(launch, index, dict(report, usable=False), info, "not run", why, False, stopped_by=by.index)


def _unopened(w: Walk, launch: Launch, index: int, shut: Unopened, target, base) -> Run:
    """A launch bash does not start: a redirection of it names a folder that is not there (shell/redirects.py)."""
    report = finish(_rel(w.launcher, os.getcwd()), [], target, w.start, base, None, None, False)
    info = launch_info(w, launch, None, w.root)
    info["lines"].insert(1, f"  not run: {shut.why}")
    info["redirection"] = {"starts": False, "why": shut.why}
    return Run(launch, index, dict(report, usable=False, exit=EXIT_PROBLEM), info, "not run", shut.why, False,
               named=True)


def _may_not_start(run: Run, shut: Unopened) -> Run:
    """A launch whose redirection names a folder the tree lacks that a command before it may make: whether bash
    starts it is not known (a launch that profiles nothing stays so: started or not, it collects nothing)."""
    info = dict(run.info, redirection={"starts": None, "why": shut.why})
    info["lines"] = run.info["lines"][:1] + [f"  unknown: whether bash starts it: {shut.why}"] + run.info["lines"][1:]
    if run.verdict in ("no profiling", "not run"):
        return run._replace(info=info)
    return run._replace(info=info, verdict="unknown", why=shut.why,
                        report=dict(run.report, usable=None, exit=EXIT_PROBLEM), named=True)


def _stopper(cmd, within: tuple) -> str:
    """Who a failure under `set -e` stops (within: what it stops, _stopped_within): the launcher, or the child
    script it ends in."""
    return "the launcher" if not within else os.path.basename(cmd.via[len(within) - 1][0])


def _stopped_within(frames) -> tuple:
    """What a failure under `set -e` stops, as the prefix of the frames of the launches it stops: its own shell,
    and each caller that runs that shell under `set -e` (frame[1]), up to the first that does not."""
    for j in range(len(frames) - 1, -1, -1):
        if not frames[j][1]:
            return frames[:j + 1]       # that child exits; its caller goes on
    return ()                           # it reaches the launcher itself: everything after stops


def _next_command(w: Walk, cmd):
    """The command the walk met right after this one (the one `cmd && next` skips when cmd fails)."""
    at = cmd.seq
    return w.commands[at + 1] if 0 <= at and at + 1 < len(w.commands) else None


def _place(cmd) -> int:
    return cmd.seq


def _verdict(launch: Launch, report: dict):
    """(verdict, why, profiles) of one launch from its report."""
    from .render import unknown_reasons
    if launch.missing:
        own = [r for r in report["results"] if r.setup.route == "msprof"]
        if own and may_collect(own[0]) is False:        # msprof itself refuses its command line
            return "fails", _cause(report, own[0]), True
        if launch.refused:
            return "no profiling", launch.missing, False
        return "unknown", launch.missing, None
    results: List[Result] = report["results"]
    read = [r for r in results if r.read_by_ge is not False]
    if not any(r.verdict != "off" for r in read):
        off = next((r for r in results if r.messages), None)
        name = os.path.basename(launch.script) if launch.script else "it"
        why = str(off.messages[0]) if off is not None else f"{name} has no profiling setup: it collects no profiling data"
        return "no profiling", why, False
    usable = report["usable"]
    if usable is True:
        first = next(r for r in read if r.verdict == "collects")
        return "collects", _cause(report, first), True
    if usable is None:
        # whether it profiles at all is open when every setup GE may read is itself unknown (PROFILING_MODE from
        # a value not known statically, a switch decided at run time)
        profiles = True if any(r.verdict != "unknown" or any(v == "collects" for v, _, _ in r.spread)
                               for r in read if r.verdict != "off") else None
        return "unknown", "; ".join(unknown_reasons(results)) or "a value is not known statically", profiles
    if any(p["code"] == "NPP901" for p in report["preflight"]):
        return "fails", next(p["message"] for p in report["preflight"] if p["code"] == "NPP901"), True
    bad = next(r for r in read if may_collect(r) is False and r.verdict != "off") \
        if any(may_collect(r) is False and r.verdict != "off" for r in read) else read[0]
    if bad.verdict == "off" and any(r.verdict == "collects" for r in read):
        # one setup off, another collecting: which one GE reads is what decides, and the file does not settle it
        on = next(r for r in read if r.verdict == "collects")
        return "unknown", (f"{_rel(launch.script, os.getcwd()) if launch.script else 'the script'} has a setup that is "
                           f"off (line {bad.setup.line}) and one that collects (line {on.setup.line}): which one GE "
                           "reads is not settled here"), None
    verdict = "collects nothing" if bad.verdict == "collects_nothing" else "fails"
    return verdict, _cause(report, bad), True


def _cause(report: dict, r: Result) -> str:
    """The headline of a result without its place and verdict word: "NPP122 --aic-metrics=...", "task_trace into
    /tmp/p"."""
    from .render import headline
    if r.verdict == "fails":
        failure = next((m for m in r.messages if m.code), None)
        if failure is not None:
            return str(failure)
    text = headline(report, r).split(": ", 1)[1]
    word = r.verdict.replace("_", " ").upper()
    return text[len(word):].lstrip(": ") if text.startswith(word) else text


def _answer(w: Walk, path: str, runs: List[Run], truncated: bool, target, base) -> dict:
    """The report over the sequence: the deciding launch's results, every launch, and the run's answer."""
    ran = [r for r in runs if r.verdict != "not run"]
    profiling = [r for r in ran if r.profiles]
    # a launch after an `exit` that may end the launcher (may_end): where it does not run, neither does any after it,
    # so its failure is the run's answer unless a launch before it may have collected (then it is open, as a launch in a
    # branch is)
    ended_before = [r for r in profiling if r.launch.command.may_end and any(
        o.index < r.index and o.verdict not in ("fails", "collects nothing") for o in profiling)]
    certain_no = [r for r in profiling if r.verdict in ("fails", "collects nothing") and r.certain and
                  r not in ended_before]
    open_ = [r for r in ran if r.verdict == "unknown" or
             (r.profiles and (not r.certain or r in ended_before) and r.verdict in ("fails", "collects nothing"))]
    n = len(runs)
    label = (lambda r: f"launch {r.index} of {n} at {r.where}") if n > 1 else (lambda r: r.where)
    # bash goes on after a failure it is not told to stop at (no `set -e`, no `&&`): launches after the last
    # certain failure that all collect leave the run with their data
    after = [r for r in profiling if certain_no and r.index > certain_no[-1].index]
    recovered = certain_no and after and all(r.verdict == "collects" for r in after) and \
        not any(r.index > certain_no[-1].index for r in open_) and not truncated
    decider: Optional[Run]
    if recovered:
        failed = certain_no[-1]
        decider, usable = after[-1], True
        why = (f"from {', '.join(f'launch {r.index} at {r.where}' for r in after)}: the launcher goes on after "
               f"{label(failed)}, which {failed.verdict}: {failed.why}")
    elif certain_no:
        decider, usable = certain_no[0], False
        why = f"{label(decider)}: {decider.verdict}: {decider.why}"
        stopped = [r for r in runs if r.verdict == "not run" and r.stopped_by == decider.index]
        if stopped:
            which = f"launch{'es' if len(stopped) > 1 else ''} {', '.join(str(r.index) for r in stopped)}"
            why += f"; {decider.stops} stops there (set -e): {which} never run" \
                if decider.stops \
                else f"; `&&` skips {which}"
    elif open_ or truncated:
        decider, usable = (open_[0] if open_ else None), None
        why = f"{label(decider)}: {decider.why}" if decider else \
            f"the launcher runs more than {MAX_LAUNCHES} launches; the rest are not followed"
        # whatever the launches do, the option the user passed is certainly lost (MindSpeed-MM's finetune_ocr2.sh
        # passes none of its arguments on; the answer, unknown for an imported module's setup, read as if it did)
        why += _lost_arguments(w)
    elif profiling:
        decider, usable, why = profiling[-1], True, ""
    else:
        decider, usable = None, False
        why = "no launch switches profiling on"
        reasons = list(dict.fromkeys(r.why for r in ran if r.verdict == "no profiling" and
                                     (r.named or r.switch)))
        unopened_ = [f"{label(r)} is not run: {r.why}" for r in runs if r.verdict == "not run" and not r.stopped_by]
        if unopened_ and not ran:
            why = "; ".join(unopened_) + _lost_arguments(w)
        elif reasons:
            # (XLM's launcher reads --profiling into a variable no launch gets: the reason was said, the option not)
            why = "; ".join(reasons) + _lost_arguments(w)
        else:
            # what the user switched on changes no launch (the project names profiling elsewhere, so NPP015's
            # "collects nothing" is not claimed, but the option itself is certainly lost)
            why += _lost_arguments(w)
            # ... and where no file of the project names profiling (NPP015), as one launch says it (_off_unless)
            why += "".join(f"; {d.spelled} on this launcher goes nowhere: no launch gets {d.option} or anything made "
                           f"from it, and {d.script} {'have' if ', ' in d.script else 'has'} no profiling setup (no "
                           "Python file of the project names one)" for d in w.dropped if not d.flag)
        # another command may start what profiles: never "no" (a script it sources and does not read, such as
        # the toolkit's set_env.sh, is left to the launches it is sourced for)
        unknown = _unknown_command(w, sourced=False)
        if unknown:
            usable, why = None, f"{why}; but {unknown}: what it starts is not known here"
    top = decider or runs[0]
    report = dict(top.report)
    if n == 1 and top.launch.missing and not report["results"]:
        report["results"] = _own_variables(w, path, target, base, report["cwd"])
    preflight: list = []
    checked: list = []
    seen: set = set()
    for r in ran:
        for p in r.report["preflight"]:
            if p["message"] not in seen:
                seen.add(p["message"])
                preflight.append(p)
        checked.extend(c for c in r.report["checked"] if c not in checked)
    ok = usable is True and not preflight
    report.update(usable=usable, exit=EXIT_OK if ok else EXIT_PROBLEM, preflight=preflight, checked=checked,
                  launch=top.info, launches=runs, answer={"usable": usable, "why": why,
                                                          "decider": decider.index if decider else None})
    if n > 1:
        report["file"] = _rel(w.launcher, os.getcwd())
    return report


def _lost_arguments(w: Walk) -> str:
    """The clauses ("; --profiling=True on this launcher changes no launch: ...") for the profiling arguments given
    to the launcher that no launch gets: those its argument loop reads and drops (w.unreaching), those it never
    reads (w.ignored). NPP015's own claim (w.dropped) is said by the launches' reasons."""
    return "".join(f"; {spelled} on this launcher changes no launch: none gets {option} or anything made from it"
                   for spelled, option in w.unreaching) + \
        "".join(f"; {arg} on this launcher changes no launch: each is the same without it" for arg in w.ignored)


def _own_variables(w: Walk, path: str, target, base, cwd: Optional[str]) -> List[Result]:
    """The launcher's own PROFILING_* emulated, when the one script it starts cannot be followed: what GE reads
    from them if that script sets no profiling options of its own (the answer stays unknown). cwd: where that
    launch runs (a relative output directory is found from there), None when not known."""
    from .replay import emulate_text
    text = w.launcher_text()
    return emulate_text(text, "shell", path, target, cwd, base) if text else []
