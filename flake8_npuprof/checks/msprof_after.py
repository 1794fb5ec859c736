"""An msprof option written after the Python script msprof starts (NPP128): what the script does with it.

The word is the script's, and whether the script runs depends on how it reads its arguments (argv_reading):
argparse's `parse_args()` exits with status 2 on a word it does not define ("error: unrecognized arguments:
..."), absl's `app.run` with status 1 ("FATAL Flags parsing error: Unknown command line flag ..."), both before
the code after them runs; `parse_known_args()` and TF's `tf.app.run` (absl with known_only=True) leave it aside
and the script runs (data/sources.json "python.unknown_arguments"). Anything else (arguments parsed in another
module, under a condition or a `try`, after profiling may have started) is not known, and said so.

Both `npuprof check` (msprof_args) and emulate's msprof launch (emulate/msprof_launch.py) use it; it takes the script
prepared by the launcher walk and its flag table, and imports nothing of the walk.
"""

from __future__ import annotations

import os
from typing import List, NamedTuple, Tuple

from ..source import fence
from ..source.said import Said, Text, aside, clause, logged, said, so

# what a script does with a word it does not define, by how it reads its arguments
EXITS, IGNORED, UNKNOWN = "app_exits", "ignored", "unknown"


class Reading(NamedTuple):
    effect: str                 # EXITS, IGNORED or UNKNOWN
    line: int                   # the call that reads the arguments (0: none found)
    how: str                    # "parse_args()", "parse_known_args()", "absl's app.run", "tf.app.run"


def argv_reading(ls) -> Reading:
    """How the script reads its argv, as far as its own code shows: the call that parses it, reached from the entry
    point whatever the conditions (no `if` on the way, no `try` around it), with nothing that may start profiling
    (a GE initialisation, a profiling setup) before it. UNKNOWN when that is not shown."""
    from ..setups.reach import is_main_guard, reach_of
    sites = ls.ctx.sites
    reach = reach_of(sites)

    def sure(site) -> bool:
        path = reach.path(site.call)
        return bool(reach.of(site.call)) and not path.texts and not path.caught and \
            not sites.try_around(site.call) and all(is_main_guard(g) for g in site.guards)

    found, open_ = [], False
    for name in ("parse_args", "parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args"):
        for site in sites.calls_named(name):
            call = site.call
            reads_argv = not call.args and not any(k.arg == "args" for k in call.keywords)
            if reads_argv and sure(site):
                found.append((name, call))
            else:
                open_ = True
    for site in sites.calls_named("run"):
        kind = _app_run(site.name or "", sites)
        if kind is None:
            continue
        if kind and sure(site):
            found.append((kind, site.call))
        else:
            open_ = True
    if not found:
        return Reading(UNKNOWN, 0, "")
    rank = ls.order.of
    first = min(rank(c) or 0 for _, c in found)
    starts = [rank(i.call) for i in ls.inits] + [rank(s.anchor) for s in ls.setups]
    if not first or any(r is None or r < first for r in starts):
        return Reading(UNKNOWN, 0, "")      # profiling may start before the arguments are read
    exiting = [(n, c) for n, c in found if n in ("parse_args", "parse_intermixed_args", "absl")]
    if exiting:
        name, call = min(exiting, key=lambda nc: rank(nc[1]) or 0)
        return Reading(EXITS, call.lineno, "absl's app.run" if name == "absl" else f"{name}()")
    if open_:
        return Reading(UNKNOWN, 0, "")
    name, call = min(found, key=lambda nc: rank(nc[1]) or 0)
    return Reading(IGNORED, call.lineno, "tf.app.run" if name == "tf" else f"{name}()")


def _app_run(name: str, sites):
    """"absl" for absl's app.run, "tf" for TF's (which parses with known_only=True), "" for another app.run that
    may be either; None for a `run` that is no app.run."""
    head = name.split(".", 1)[0]
    full = name if head not in sites.imports else sites.imports[head] + name[len(head):]
    if not full.endswith("app.run"):
        return None
    if full.startswith("absl."):
        return "absl"
    if full.startswith(("tensorflow.", "tf.")) and full.endswith(("tensorflow.app.run", "tf.app.run",
                                                                  "compat.v1.app.run")):
        return "tf"
    return ""


def misplaced_after(launch, ls, table) -> List[Tuple[int, int, Said, str]]:
    """(start, end, words, effect) for each msprof option among the words after the script of a launch under
    msprof (ls: its script prepared, table: its flags), which the script does not define."""
    from .msprof_app import msprof_name
    candidates = [a for a in launch.args if msprof_name(a.text) is not None]
    if not candidates or not table:
        return []                           # a script without flags: what it does with its argv is not read here
    return _after_script(launch, candidates, table, launch.msprof.application, argv_reading(ls))


def _script_name(launch) -> str:
    from ..source.files import rel_path
    return rel_path(launch.script, os.path.dirname(launch.command.path) or ".")


def _after_script(launch, candidates, table, inside: bool, reading: Reading) -> List[Tuple[int, int, Said, str]]:
    """msprof options among the script's words, which the script does not define."""
    from .msprof_app import ENDS, hint, msprof_name
    out = []
    given = {o.name for o in launch.msprof.call.options}
    script = _script_name(launch)
    head = os.path.basename(launch.command.words[0].text) if launch.command.words else "python3"
    interpreter = next((x.text for x in launch.command.words if x.text.rsplit("/", 1)[-1].startswith("python")), head)
    for a in candidates:
        name = msprof_name(a.text)
        assert name is not None             # (the candidates are msprof's options: misplaced_after)
        option = a.text.partition("=")[0]
        if name in given or any(o.startswith(option) for o in table):
            continue
        start, end = a.start, a.end
        if inside:                          # a piece of --application's value: point at it in the word
            at = _piece_at(launch, a)
            if at is not None:
                start, end = at, at + len(a.text)
        where = ("is inside --application's value, after " if inside else "comes after ") + script
        advice = "move it out of the quotes, before --application" if inside else \
            f"{hint(a.text, name, interpreter)} {ENDS}"
        at = clause(reading.how, aside(f"{script}:{reading.line}"))
        what: Text
        if reading.effect == EXITS and reading.how.startswith("absl"):
            what = clause(f"{script} exits with status 1 at ", at,
                          logged(f' ("FATAL Flags parsing error: Unknown command line flag \'{option[2:]}\'")'),
                          " before anything is profiled")
        elif reading.effect == EXITS:
            what = clause(f"{script} exits with status 2 at ", at,
                          logged(f' ("{os.path.basename(script)}: error: unrecognized arguments: {a.text}")'),
                          " before anything is profiled")
        elif reading.effect == IGNORED:
            what = clause(f"{script} leaves it aside at ", at, " and runs", so("msprof collects without this setting"))
        else:
            what = (f"whether {script} runs with it is not known here: the script is not seen reading its arguments "
                    "with parse_args(), parse_known_args() or app.run before anything may be profiled")
        out.append((start, end,
                    said(f"{a.text} {where}, so it is the script's, which defines no {option} flag, and msprof does "
                         "not read it", what, advice), reading.effect))
    return out


def _piece_at(launch, a):
    """Where a piece of `--application="..."` is in the launcher (None: not written there as it reads)."""
    try:
        fence.check(launch.command.path)
        with open(launch.command.path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None
    at = text.find(a.text, a.start, a.end)
    return at if at >= 0 else None
