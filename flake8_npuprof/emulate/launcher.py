"""One launch of a shell launcher as emulate runs it: the environment GE sees in it (the launcher's exports over
the caller's), its script's setups replayed with the flags it passes, and what the report says about it (the
command line, where the environment and flags come from, what it sources and runs, how often it starts).

The walk and the launches are shell/'s (shell/walk.py, shell/launches.py); the script prepared with its flags is
checks/launch_setup.py's, which `check` reads too.
"""

from __future__ import annotations

import os
import shlex
from typing import TYPE_CHECKING, Dict, Optional, Tuple

from ..checks.launch_setup import LaunchSetup, flag_table, prepare
from ..source.prefilter import PROFILING_WORDS, code_only, profiler_imports_by_name
from ..shell.launches import Launch, passer
from ..shell.parse import without_redirections
from ..shell.state import Setting
from ..shell.walk import Walk
from ..source.text import HOLE
from ..values.launch_args import OPEN
from .message import Message
from .replay import _rel

if TYPE_CHECKING:
    from .runtime import Env


def launch_env(launch: Launch, base, root: str, environ=None):
    """The environment GE sees in this launch: the launcher's exports over the caller's (base), and why a
    value is not known. environ: the caller's environment when it is known (--env), else None."""
    env = launch.command.env
    out, unknown = base, []
    settings = {}
    if launch.cleared or launch.reset:
        # nothing of the caller's reaches the script (`env -i`), or what does is sudoers' choice (sudo without -E)
        out = base._replace(mode=None, options=None, work_path=None, work_path_known=True)
    caller = {"PROFILING_MODE": base.mode, "PROFILING_OPTIONS": base.options, "ASCEND_WORK_PATH": base.work_path}
    for name in ("PROFILING_MODE", "PROFILING_OPTIONS", "ASCEND_WORK_PATH"):
        s = env.get(name)
        # (sudo removes what sudoers does not keep and adds nothing: a name neither the launcher nor the caller set
        # stays as it was, unset or, without --env, the caller's ASCEND_WORK_PATH not known)
        if s is None and launch.reset and name == "ASCEND_WORK_PATH" and not base.work_path_known:
            out = out._replace(work_path_known=False)
        if s is None and launch.reset and (name in launch.held or caller[name] is not None):
            if name == "ASCEND_WORK_PATH":
                out = out._replace(work_path_known=False)
            unknown.append(f"{name} reaches the script only if sudoers keeps it: {launch.reset} resets the environment "
                           "(env_reset, sudo's default; env_keep lists what stays: sudo's manual, sudo not run here)")
            s = Setting(HOLE, launch.command.path, launch.command.line, 0, "sudo's policy")
        elif s is None and name in launch.unset:
            out = out._replace(mode=None) if name == "PROFILING_MODE" else out._replace(options=None) \
                if name == "PROFILING_OPTIONS" else out._replace(work_path=None, work_path_known=True)
        if s is not None and s.how == "set without export":
            if environ is None:
                unknown.append(f"{name} is set at {s.where(root)} without export: the script sees it only if "
                               "the caller exports it (give --env to use this environment)")
                s = s._replace(value=HOLE)
            elif name not in environ:
                s = None                    # not in the environment, so not exported: the script never sees it
            else:
                s = s._replace(how="set (exported by the caller)")
        elif s is not None and HOLE in s.value and s.how != "sudo's policy":     # (said above)
            unknown.append(f"{name} is set at {s.where(root)} to a value not known statically")
        settings[name] = s
    mode, opts, work = settings["PROFILING_MODE"], settings["PROFILING_OPTIONS"], settings["ASCEND_WORK_PATH"]
    by = passer(launch.command)             # the launcher, or the command as typed
    if opts is not None:
        out = out._replace(options=opts.value, label=f"{by} ({opts.how} at {opts.where(root)})")
    if mode is not None:
        out = out._replace(mode=mode.value, mode_label=f"{by} ({mode.how} at {mode.where(root)})")
    if work is not None and HOLE not in work.value:
        out = out._replace(work_path=work.value, work_path_known=True)
    return out, unknown


def emulate_launch(w: Walk, launch: Launch, target, base, environ=None) -> Tuple[Optional[LaunchSetup], list, Env]:
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
        from ..shell.launches import msprof_timeout, outlives_msprof, unjoined_msrun
        from .msprof_launch import outlived, timed_out, unjoined
        if outlives_msprof(w, launch):
            results = [outlived(results[0], launch, root)] + results[1:]
        elif unjoined_msrun(launch):
            results = [unjoined(results[0], unjoined_msrun(launch))] + results[1:]
        elif msprof_timeout(launch)[0]:
            results = [timed_out(results[0], *msprof_timeout(launch))] + results[1:]
    return ls, results, env


def _environment_lines(launch: Launch) -> list:
    """What a prefix does to the environment the script starts with (`env -i`, `env -u X`, sudo without -E)."""
    lines = []
    given = ", ".join(sorted(launch.command.env)) or "no variable"
    if launch.cleared:
        lines.append(f"  environment: {launch.cleared} starts it with an empty environment: it gets {given} alone (the "
                     "launcher's exports and the caller's environment are gone)")
    if launch.unset:
        lines.append(f"  environment: {', '.join(launch.unset)} unset for it (`env -u`), whatever the caller exports")
    if launch.reset:
        lines.append(f"  environment: {launch.reset} resets it (env_reset, sudo's default without -E): what of the "
                     "launcher's exports and the caller's environment reaches the script is sudoers' env_keep, not "
                     "known here (sudo's manual; sudo is not run here)" +
                     (f"; it gets {given}" if launch.command.env else ""))
    return [ln.replace(HOLE, "<unknown>") for ln in lines]


def _unknown_env(r, why: str):
    """A result that depends on PROFILING_MODE when the launch leaves it unknown: unknown, and why."""
    if r.source in ("script", "adapter default") or r.read_by_ge is False:
        return r
    return r._replace(verdict="unknown", messages=[Message(why)] + [m for m in r.messages if HOLE not in m.text],
                      spread=[])


_ESCAPES = {"\\": "\\\\", "'": "\\'", "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f",
            "\r": "\\r", "\x1b": "\\E"}


def _read_back(word: str) -> str:
    """A word as a shell reads it back: quoted where needed, and as `$'...'` where it holds a character that does
    not print (a `\\` before a CRLF line's CR makes the word `\\r`, which in plain quotes shows as `''`)."""
    if word.replace(HOLE, "").isprintable():
        return shlex.quote(word)
    return "$'" + "".join(_ESCAPES.get(c) or (c if c.isprintable() or c == HOLE else f"\\x{ord(c):02x}" if ord(c) < 0x80
                                              else f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
                          for c in word) + "'"


def _after_deepspeed(cmd) -> int:
    """The index of the first of deepspeed's own options in the launch's command (after `deepspeed`, or after
    `-m deepspeed.launcher.runner`)."""
    texts = [w.text for w in cmd.words]
    for k, t in enumerate(texts):
        if t.rsplit("/", 1)[-1] == "deepspeed" or t.endswith("deepspeed.launcher.runner"):
            return k + 1
    return len(texts)


def launch_info(w: Walk, launch: Launch, ls: Optional[LaunchSetup], root: str) -> dict:
    """What the report says about the launch: the command line, where the environment and flags come from."""
    cmd = launch.command
    where = f"{_rel(cmd.path, root)}:{cmd.line}"
    env = {name: {"value": s.value, "set": f"{s.how} at {s.where(root)}"} for name, s in sorted(cmd.env.items())
           if name.startswith(("PROFILING_", "ASCEND_WORK_PATH"))}
    flags = {g.option: {"value": g.text, "at": g.where} for d, g in ls.given.items() if d != OPEN} if ls else {}
    # as a shell reads it back (an empty word is one the command gets: the walk drops an unquoted expansion of nothing)
    shown = " ".join(_read_back(x.text) for x in without_redirections(cmd.words))
    lines = [f"launch: {where} {shown}".replace(HOLE, "<unknown>")]
    if launch.missing:
        lines.append(f"  {'no script' if launch.refused else 'unknown'}: {launch.missing}".replace(HOLE, "<unknown>"))
    lines.extend(_environment_lines(launch))
    if cmd.seq in w.copied:
        lines.append(f"  {w.copied[cmd.seq]}")
    if cmd.rounds is not None:
        lines.extend(_round_lines(w, cmd, root, bool(launch.script)))
    elif launch.moved and cmd.cwd:
        lines.append(f"  runs in {cmd.cwd[0]}: {launch.moved} runs it there" + (
            "" if cmd.settled else " (from the launcher's own directory, where it is meant to be started; give --cwd "
            "for another)"))
    elif not cmd.settled and cmd.cwd and (launch.script or launch.unfound):
        if cmd.cwd[0] == w.start:
            lines.append(f"  runs in {cmd.cwd[0]}: the launcher's own directory, where it is meant to be started (it "
                         "sets none with `cd`; give --cwd for another)")
        else:
            lines.append(f"  runs in {cmd.cwd[0]}: a relative `cd` from the launcher's own directory, where it is meant "
                         "to be started (give --cwd for another)")
    # a loop's rounds not put in the background (`for m in ...; do msprof ... --aic-metrics=$m; done`) are not
    # ranks of one job (bash waits for each, unless the list it ends is put there: `a && b &`, not told apart here)
    rounds = cmd.ranks if cmd.ranks > 1 and not cmd.background else 0
    if rounds and launch.ranks == rounds:
        lines.append(f"  started {rounds} times (the rounds of a loop)")
    elif rounds and launch.ranks > rounds and launch.ranks % rounds == 0:
        lines.append(f"  started {launch.ranks} times ({rounds} rounds of a loop, each {launch.ranks // rounds} ranks"
                     f"{' by ' + launch.wrapper if launch.wrapper else ''})")
    elif launch.ranks > 1:
        lines.append(f"  started {launch.ranks} times (one per rank"
                     f"{', by ' + launch.wrapper if launch.wrapper else ''})")
    elif launch.ranks == 0:     # a loop over files or "$@", `-np $NP`: how often, and whether per rank, is unknown
        lines.append("  started an unknown number of times (a loop, or a process count not known statically); "
                     "each run emulated alike")
    if launch.wrapper == "deepspeed" and launch.script:
        from ..shell import deepspeed
        lines.append(deepspeed.nodes(deepspeed.read([w.text for w in cmd.words], _after_deepspeed(cmd)).options))
    if cmd.conditional:
        lines.append("  inside a branch, loop condition or function: this command may not run")
    elif cmd.may_end:
        lines.append(f"  after an `exit` in a branch or loop ({cmd.may_end}): the launcher may end before it, so this "
                     "command may not run")
    if cmd.background:
        # `python3 train.py ... &` then `wait` (most ModelZoo launchers): the launcher does wait for it
        joined = next((c for c in w.commands if c.seq > cmd.seq and c.frames == cmd.frames and c.words
                       and c.words[0].text == "wait"), None)
        lines.append(f"  in the background (&), waited for by `wait` at {_rel(joined.path, root)}:{joined.line}"
                     if joined else "  in the background (&): the launcher goes on without waiting for it")
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
        outer = launch.msprof.command               # msprof's own line, when the launch is inside its application
        lines.extend(launch_lines(launch, f"{_rel(outer.path, root)}:{outer.line}" if outer is not None else where))
    decided = ls.decided if ls else []
    traps = ls.traps if ls else []
    for d in decided:
        lines.append(f"  {d}")
    for trap in traps:
        lines.append(f"  ! {trap.said()}")
    return {"command": [x.text for x in cmd.words], "at": where,
            "script": _rel(launch.script, root) if launch.script else None,
            "application": list(launch.app) or None, "unknown": launch.missing or None,
            "found_from": launch.found_from or None,
            "ranks": launch.ranks, "conditional": cmd.conditional, "may_end": cmd.may_end or None,
            "background": cmd.background,
            "environment": env, "flags": flags,
            "sourced": list(dict.fromkeys(_rel(s, root) for k, (s, _, _) in enumerate(w.sourced)
                                          if mine(k, w.sourced_in))),             # each once (self-sourcing)
            "runs": [_rel(c, root) for c, _, _ in cmd.via],
            "not_read": list(dict.fromkeys(n for k, (n, _, _) in enumerate(w.unread) if mine(k, w.unread_in))),
            "outside": [n for k, (n, _, _) in enumerate(w.unread)
                        if mine(k, w.unread_in) and "--no-outside" in w.why_unread.get(k, "")],
            "decided": decided, "msprof": msprof_json(launch, f"{_rel(launch.msprof.command.path, root)}:{launch.msprof.command.line}"
                                  if launch.msprof.command is not None else where) if launch.msprof is not None else None,
            "traps": [trap.said() for trap in traps], "redirection": None, "lines": lines,
            **({"rounds": _rounds_json(w, cmd, root)} if cmd.rounds is not None else {})}


def _series(values) -> str:
    """`0, 1, ... 7`: a round's values, the first two and the last where there are more than three."""
    return ", ".join(values) if len(values) <= 3 else f"{values[0]}, {values[1]}, ... {values[-1]}"


def _relative(path: str, root: str) -> str:
    """A folder as named from root (`../work/device0` too: rel_path would give its base name alone)."""
    return os.path.relpath(path, root).replace(os.sep, "/")


def _round_variables(w: Walk, cmd) -> list:
    """(name, its setting, its value round by round) of each exported variable the loop's body sets from its variable
    (`export DEVICE_ID=$i`), as the command sees it."""
    at = (cmd.rounds.path, cmd.rounds.line)
    return [(name, s, found[1]) for name, s in sorted(cmd.env.items())
            for found in [w.round_values.get((s.path, s.start))] if found is not None and found[0] == at]


def _round_lines(w: Walk, cmd, root: str, found: bool) -> list:
    """Where a launch in a folder its loop makes each round runs (`mkdir ./d$i; cd ./d$i`), and with which of the
    variables the round sets."""
    r = cmd.rounds
    lines = [f"  runs in {_series([_relative(d, root) for d in r.dirs])}: the folder each round of the loop at "
             f"{_rel(r.path, root)}:{r.line} makes (${r.name} = {_series(r.values)}), where the round's relative paths "
             f"are (an output folder among them){'; emulated in the first one' if found else ''}"]
    if not cmd.settled:
        lines.append("  (those folders are relative to the launcher's own directory, where it is meant to be started: "
                     "give --cwd for another)")
    for name, s, values in _round_variables(w, cmd):
        lines.append(f"  {name}={_series(values)}, one a round ({s.how} at {s.where(root)})")
    return lines


def _rounds_json(w: Walk, cmd, root: str) -> dict:
    r = cmd.rounds
    return {"loop": f"{_rel(r.path, root)}:{r.line}", "variable": r.name, "values": list(r.values),
            "folders": [_relative(d, root) for d in r.dirs],
            "environment": {name: list(values) for name, _, values in _round_variables(w, cmd)}}


def _names_in_code(text: str) -> bool:
    """Whether text's code (code_only) names profiling, not counting a name a `from ... import NAME` binds that the
    code never names again: nothing can be built from it (vega's trainer.py imports ProfilingConfig and builds its
    NPURunConfig without one; ResnetVariant's launch was unknown). Text Python cannot parse names what it names."""
    import ast
    import re
    code = code_only(text)
    found = [m.group(0) for m in PROFILING_WORDS.finditer(code)]
    if not found or not all(w.isidentifier() for w in found):
        return bool(found)
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    imported: Dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.asname is None:
                    imported[alias.name] = imported.get(alias.name, 0) + 1
    return any(len(re.findall(rf"(?<!\w){w}(?!\w)", code)) > imported.get(w, 0) for w in set(found))


def named_line(path: str) -> str:
    """Where a module names profiling, for an answer that does not follow it (" (line 484: `prof = Profiler(...)`)"):
    its first line naming it in code outside a string, else in a string, that is not an import (an import names no
    setup), else its first import of one, else its first import of one by name in a string; "" where it cannot be
    read or names none."""
    import re
    from ..source.files import ReadError, read_source
    try:
        text = read_source(path).text
    except (OSError, ReadError):
        return ""
    lines = text.split("\n")          # (as the line is counted: splitlines also ends one at a form feed or U+2028)
    found = 0
    for code in (code_only(text, strings=True), code_only(text)):
        for m in PROFILING_WORDS.finditer(code):
            n = code.count("\n", 0, m.start()) + 1
            if n <= len(lines) and not re.match(r"\s*(?:from|import)\s", lines[n - 1]):
                found = n
                break
            found = found or n
        if found and not re.match(r"\s*(?:from|import)\s", lines[found - 1]):
            break
    if not found:       # a profiling module imported by its name in a string (`importlib.import_module("...")`)
        found = next((text.count("\n", 0, k) + 1 for k in profiler_imports_by_name(code_only(text))), 0)
    if not found or found > len(lines):
        return ""
    shown = lines[found - 1].strip()
    return f" (line {found}: `{shown if len(shown) <= 80 else shown[:77] + '...'}`)"


def imported_profiling(ls: "LaunchSetup") -> Optional[str]:
    """For a script with no setup emulate models: the script itself when it names a profiling setting anyway (a
    torch_npu or MindSpore profiler, msprof through a subprocess), else the first module of the project it imports
    (transitively) that names one (a setup there is not emulated: emulate reads one file). "" when the imports are
    too many to follow, None for none."""
    from ..values.project import MAX_IMPORTED
    from .sys_path import launch_lookup
    if not ls.setups and PROFILING_WORDS.search(code_only(ls.ctx.src.text)):
        return ls.ctx.filename
    lookup = launch_lookup(ls)          # as the launch's Python finds its imports
    if lookup is None:
        return None
    modules = lookup.imported_modules()
    if len(modules) >= MAX_IMPORTED:
        # a package's worth (mindcv's train.py imports its 300 modules): read further before saying unknown
        modules = lookup.imported_modules(MAX_IMPORTED * 16)
    # as for the script: a profiler in a comment or a parked string is no setup (GPT-NeoX's megatron/training.py);
    # a module naming one in code goes before one naming it only in a string (mindformers' config_args.py lists
    # 'enable_profiling' among the names it takes; callback.py builds the profiler)
    named = [m for m in modules if PROFILING_WORDS.search(m.src.text) and _names_in_code(m.src.text)]
    hit = next((m.path for m in named if PROFILING_WORDS.search(code_only(m.src.text, strings=True))),
               named[0].path if named else None)
    if hit is None and lookup.outside:
        return lookup.outside[0]        # (--no-outside: a module found outside the project may name one, unread)
    if hit is None:                     # a module on a folder the script (or a module) adds to sys.path itself
        from ..values.project import import_refs
        from .added_path import named_on_added_path
        own = import_refs(ls.ctx.tree) if ls.ctx.tree is not None else []
        importers = [(ls.ctx.filename, ls.ctx.src.text, own)] + [(m.path, m.src.text, m.refs) for m in modules]
        hit = named_on_added_path(importers, lambda importer, parts: lookup.module(importer, 0, parts))
    return hit if hit is not None or len(modules) < MAX_IMPORTED * 16 else ""
