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

import os
import re
import shlex
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..shell.launches import MAX_LAUNCHES, Launch, launches, steps
from ..shell.parse import _without_redirections
from ..shell.state import MAX_BYTES, _within
from ..shell.walk import Walk
from ..source.text import HOLE, SourceText
from ..values.launch_args import Given, OPEN, Word
from .replay import _rel


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
    from ..setups.state import from_setup
    from ..values.reader import place
    src = SourceText(text)
    out, seen = [], set()

    def report(code, start, end, message):
        if (code, start) in seen:
            return
        seen.add((code, start))
        (l1, c1), (l2, c2) = src.position(start), src.position(max(start, end))
        out.append(Finding(code, message, start, end, l1, c1, l2, c2))

    me = os.path.abspath(w.launcher)
    for file, (offset, line, why) in w.stopped.items():
        # a walk cut short must never pass as "All checks passed!": what it did not reach is unchecked
        # a file the walk stopped in is the launcher, one it sources (listed once its walk returns) or one it runs
        how = "sources" if file in w.sourced_stopped or any(s == file for s, _, _ in w.sourced) else "runs"
        where = "" if file == me else f" in {_rel(file, w.root)}, which it {how},"
        report("NPP191", offset if file == me else 0, offset if file == me else 0,
               f"analysis budget exhausted: the walk of this launcher stopped{where} at line {line} ({why}), so the "
               "command lines from there on were not checked (a finding may be missing; split the launcher)")
    for d in dropped:
        report(launcher_switch.CODE, d.start, d.end, launcher_switch.message(d))
    for option, start, end, why in undecided:       # NPP015 not decided: never "All checks passed!"
        report("NPP191", start, end, f"analysis budget exhausted: {why}, and without those values it reaches no "
               f"launch, so whether a launch gets {option} (NPP015) was not checked (a finding may be missing; "
               f"`npuprof emulate LAUNCHER -- {option}=True` says where it goes)")
    for launch, ls in prepared:
        script = _rel(launch.script, w.root)
        for g, what in ls.traps:
            if g.word.start is not None:
                report("NPP205", g.word.start, g.word.end,
                       f"{what.replace('the script', script, 1)} in this launch; pass nothing to leave it off, or "
                       "parse the flag with a str-to-bool converter in the script")
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
                       f"{for_state(issue.message, state)} (passed to {script} at line {launch.command.line}, "
                       f"read by its {setup.route} setup at line {setup.line})")
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
