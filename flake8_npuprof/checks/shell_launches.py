"""`npuprof check` on a shell launcher: its own lines (shell_env.py, shell_syntax.py, msprof.py), what it passes the
scripts it starts (NPP205, the options problems of a profiling-options value on the command line), the
profiling option it takes and drops (NPP015, launcher_switch.py), NPP128 after a script msprof starts
(msprof_args.py), and NPP191 where the walk stopped at a bound. The walk and its launches are shell/'s.

Whether GE reads the launcher's PROFILING_OPTIONS in a launch that inherits them is the one question the replay of
the script answers (a script that switches profiling on with options of its own makes GE ignore them): it is
emulate's, so the engine passes it in (`ge_reads`); without it every assignment is judged as read.
"""

from __future__ import annotations

import bisect
import os
from typing import Callable, Optional

from ..shell.launches import MAX_LAUNCHES, Launch, launches, launches_in, steps
from ..shell.state import MAX_BYTES
from ..shell.walk import Walk
from ..source.files import rel_path
from ..source.text import HOLE, SourceText


# whether GE reads the launcher's PROFILING_OPTIONS in this launch (True, False, None: not shown), for a target
GeReads = Callable[[Walk, Launch, object], Optional[bool]]


# ---------------------------------------------------------------- check: a launcher's PROFILING_OPTIONS

def check_file(text: str, path: str, settings, ge_reads: Optional[GeReads] = None) -> list:
    """`npuprof check` on a shell launcher: its own lines (checks/shell_env.py, checks/msprof.py), what it passes
    the scripts it starts (check_launcher), and its PROFILING_OPTIONS judged as GE reads them in the launches that
    inherit them: a script that switches profiling on with options of its own makes GE ignore them (ge_reads,
    emulate's sequence.ge_reads, which the engine passes), so a problem in them does not abort that job."""
    return check_file_each(text, path, (settings,), ge_reads)[0]


def check_file_each(text: str, path: str, each, ge_reads: Optional[GeReads] = None) -> list:
    """check_file for each of several settings (the run's target and the wider one): the launcher is walked once
    (what GE reads of its options is decided with the first settings' target), and judged per target."""
    from .shell_env import analyse_shell_each
    from ..source.model import Finding
    from ..shell.words import MAX_LAUNCHER
    from .shell_scan import needs_walk
    if len(text) <= MAX_LAUNCHER and not needs_walk(text):
        # nothing the walk finds can depend on this text (shell_scan.py): only its own lines are checked
        return [sorted(f, key=Finding.sort_key) for f in analyse_shell_each(text, path, each, {})]
    w = Walk(path).run(text) if os.path.isfile(path) and len(text) <= MAX_LAUNCHER else None
    reads = options_read(text, path, each[0], ge_reads, w) if "PROFILING_OPTIONS" in text and ge_reads is not None \
        else {}
    found = [a + b for a, b in zip(analyse_shell_each(text, path, each, reads),
                                   check_launcher_each(text, path, each, w))]
    if w is not None and "msprof" in text:
        found = [f + _misplaced(text, w, s, Finding) for f, s in zip(found, each)]
    if w is not None and "PROFILE_TYPE" in text:
        found = [f + g for f, g in zip(found, _profile_type(text, w, each))]
    return [sorted(f, key=Finding.sort_key) for f in found]


def _misplaced(text: str, w: Walk, settings, Finding) -> list:
    """NPP128 after a Python script msprof starts (msprof_args: the script is read for its flags)."""
    from ..source.text import SourceText
    from .msprof_args import misplaced_in_scripts
    from .analysis import internal_error
    src = SourceText(text)
    try:
        hits = misplaced_in_scripts(w, settings.target)
    except Exception as exc:                # same contract as Python files
        return [internal_error(exc)]
    from ..source.model import finding
    return [finding("NPP128", m, s, e, *src.position(s), *src.position(max(s, e))) for s, e, m in hits]


def _profile_type(text: str, w: Walk, each) -> list:
    """NPP312/NPP313 at this launcher's `PROFILE_TYPE=...` where a script it starts with that variable from here
    reaches torch_npu.utils.profiler's Profile with profile_type=os.getenv("PROFILE_TYPE") (the model zoo's
    step-triggered profiler). Each assignment is judged by its own value: the branch it is in sets it when it runs."""
    from ..source.model import finding
    from ..shell.words import assignments
    from ..source.text import HOLE
    from .analysis import internal_error
    from .torch_npu_utils_profile import launcher_words, project_sites
    from ..source.files import ReadError, read_source
    src = SourceText(text)
    me = os.path.abspath(w.launcher)
    reached = None                          # (the Profile's place, whether the script's imports reach it)
    last = 0                                # the last line of this file that starts such a launch
    looked: dict = {}                       # script -> its Found (None: unreadable)
    try:
        for la in steps(w)[:MAX_LAUNCHES]:
            s = la.command.env.get("PROFILE_TYPE")
            if s is None or s.path != me or not la.script or la.msprof is not None:
                continue
            if la.script not in looked:     # a launch per rank starts the same script: its project is read once
                try:
                    looked[la.script] = project_sites(la.script, read_source(la.script).text)
                except (OSError, ReadError):
                    looked[la.script] = None
            project = looked[la.script]
            if project is None:
                continue
            sites = [x for x in project.sites if x.type_env == "PROFILE_TYPE"]
            if sites and la.command.path == me:
                last = max(last, la.command.line)
                if reached is None:
                    shown = os.path.relpath(sites[0].path, os.path.dirname(me)).replace(os.sep, "/")
                    reached = (f"{shown}:{sites[0].line}", project.imported)
    except Exception as exc:                # same contract as Python files
        return [[internal_error(exc)] for _ in each]
    if reached is None:
        return [[] for _ in each]
    # an assignment after the last launch it could reach sets nothing that launch reads
    sets = [a for a in assignments(text, ("PROFILE_TYPE",))
            if HOLE not in a.value.text and a.value.text and a.line <= last]
    out = []
    for settings in each:
        found = []
        for a in sets:
            said = launcher_words(a.value.text, reached[0], reached[1], settings.target)
            if said is not None:
                start, end = a.value.anchor, max(a.value.anchor, a.value.anchor_end)
                found.append(finding(said[0], said[1], start, end, *src.position(start), *src.position(end)))
        out.append(found)
    return out


def options_read(text: str, path: str, settings, ge_reads: GeReads, w: Optional[Walk] = None) -> dict:
    """{offset of a PROFILING_OPTIONS assignment in this launcher: (whether GE reads it in every launch that
    inherits it: True, False or None, the scripts of those launches, and why no launch gets it: "" when one may)}.
    ge_reads: whether GE reads them in one launch (emulate's replay decides it); w: the launcher's walk, when made."""
    if not os.path.isfile(path):
        return {}
    try:
        w = w or Walk(path).run(text)
        me = os.path.abspath(path)
        by_setting: dict = {}
        for la in steps(w)[:MAX_LAUNCHES]:
            s = la.command.env.get("PROFILING_OPTIONS")
            if s is None or s.path != me or la.command.conditional or la.app:
                continue                    # (what msprof's other applications do with it is not in the sources)
            if not la.script:               # a script that cannot be followed may set options of its own
                by_setting.setdefault(s.start, []).append((None, _named(la)))
                continue
            by_setting.setdefault(s.start, []).append((ge_reads(w, la, settings.target), rel_path(la.script, w.root)))
    except Exception:                       # judged as before: never a crash of check
        return {}
    out = {}
    for start, reads in by_setting.items():
        values = {r for r, _ in reads}
        verdict = True if True in values else False if values == {False} else None
        out[start] = (verdict, tuple(dict.fromkeys(name for _, name in reads)), "")
    if w.stopped or w.unread:
        return out                          # (what no launch gets is said only of a walk that read everything)
    from ..shell.words import assignments
    starts = [a.start for a in assignments(text, ("PROFILING_OPTIONS",)) if a.start not in by_setting]
    try:
        gone = _reaching_none(w, me, starts)
    except Exception:                       # judged as before: never a crash of check
        gone = {}
    out.update((start, (False, (), why)) for start, why in gone.items())
    return out


def _reaching_none(w: Walk, me: str, starts) -> dict:
    """{offset of a PROFILING_OPTIONS assignment of this launcher that no command of the walk that may start a
    script gets: why}. Only where that is certain: the walk reached its end with every file it sources read, and at
    least one launch, or command that may start what the walk cannot see (launches.opaque), runs after the
    assignment; each such command goes without it, a prefix taking it away (`env -i`, `env -u PROFILING_OPTIONS`,
    sudo without -E: sudoers' env_reset) or an `unset` before it (one in a branch leaves the value not known, so it
    is still met). A file whose assignments no launch follows may be sourced by one that launches: not said."""
    from ..shell.launches import _launch, opaque
    if not starts:
        return {}
    name = "PROFILING_OPTIONS"
    set_at: dict = {}       # where each exported assignment entered the walk's log (an inline one: never)
    copied: dict = {}       # ... and where its value's characters are written (a copy of it has them too)
    unsets = []             # where the log says the variable is gone: an `unset` (one in a branch leaves a value)
    for i, (n, s) in enumerate(w.log):
        if n != name:
            continue
        if s is None:
            unsets.append(i)
        elif s.path == me and s.start in starts and s.how in ("export", "set -a"):
            # (one set without export reaches a child if the caller exports the variable: not followed here)
            set_at.setdefault(s.start, i)
            copied.setdefault(s.start, {r.s for r in s.runs})
    hows: dict = {start: [] for start in starts}
    met = 0
    for cmd in w.commands:
        la = _launch(cmd, w.start)
        if la is None and opaque(cmd) is None:
            continue
        met += 1
        if met > MAX_LAUNCHES:
            return {}
        before = cmd.env.get(name)          # what the walk gives it, before its prefixes act
        after = la.command.env.get(name) if la is not None else before
        at = getattr(cmd.env, "at", -1)
        for start in starts:
            said = hows[start]
            own = before is not None and (before.path, before.start) == (me, start)
            if said is None or not own and (start not in set_at or at <= set_at[start]):
                continue                    # (it ran before the assignment)
            if after is not None and (after.path, after.start) == (me, start):
                hows[start] = None          # it gets this value
            elif after is None and la is not None and la.cleared:
                said.append(f"{la.cleared} starts it with an empty environment")
            elif after is None and la is not None and la.reset:
                said.append(f"{la.reset} resets the environment (env_reset, sudo's default without -E; env_keep lists "
                            "what stays)")
            elif after is None and la is not None and name in la.unset:
                said.append(f"{la.unset_by} unsets it")
            elif after is not None and (HOLE in after.value or after.path == me and
                                        any(r.s in copied.get(start, ()) for r in after.runs)):
                hows[start] = None          # `O=$PROFILING_OPTIONS; unset ...; PROFILING_OPTIONS=$O python3 ...`
            elif start in set_at and bisect.bisect_right(unsets, set_at[start]) < bisect.bisect_left(unsets, at):
                last = unsets[bisect.bisect_left(unsets, at) - 1]
                # (`export -n`, `declare +x`: still set, no longer exported; bash 5.2's env showed none of it)
                said.append(f"{w.unexports[last]} takes its export away" if w.unexports.get(last) else
                            f"it is unset before {rel_path(cmd.path, w.root)}:{cmd.line}")
            else:
                hows[start] = None          # another value, which may be set in a branch only
    out = {}
    for start, said in hows.items():
        if said:
            unique = list(dict.fromkeys(said))
            sudo = any("env_reset" in h for h in unique)
            out[start] = ("no launch gets it unless sudoers keeps it: " if sudo else "no launch gets it: ") + \
                "; ".join(unique[:3]) + ("; ..." if len(unique) > 3 else "")
    return out


def _named(launch: Launch) -> str:
    """How to name the Python script of a launch that cannot be followed."""
    return launch.named or "the script it starts"


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
    from .analysis import internal_error
    if not os.path.isfile(path) or len(text) > MAX_BYTES:
        return [[] for _ in each]           # over the bound: analyse_shell says it was not checked
    try:
        w, prepared = _prepared(text, path, each[0].target, w)
        undecided: list = []
        dropped: list = []
        if "prof" in text.lower():          # (launcher_switch's option is one by "prof": imported only then)
            from .launcher_switch import dropped_switches
            dropped = dropped_switches(text, path, each[0].target, undecided=undecided)
        return [_check(text, w, prepared, settings, Finding, dropped, undecided) for settings in each]
    except Exception as exc:                # same contract as Python files
        return [[internal_error(exc)] for _ in each]


def _prepared(text: str, path: str, target, w: Optional[Walk] = None):
    """The walk of the launcher, and each launch of its own lines with its script analysed."""
    w = w or Walk(path).run(text)
    me = os.path.abspath(path)
    if not _may_prepare(w, me):
        return w, []
    found = launches(w)
    prepared = []
    for launch in found:
        if launch.command.path != me:
            continue                        # a command of a sourced script: reported there
        if launch.msprof is not None:
            continue                        # under msprof the script's profiling options are not the collector's
        if not _may_have_setups(launch.script):
            continue                        # no setup to judge what the launch passes against: not analysed
        from . import launch_setup
        ls = launch_setup.prepare(launch, target, w.root)
        if ls is not None:
            prepared.append((launch, ls))
    return w, prepared


def _may_prepare(w: Walk, me: str) -> bool:
    """Whether any launch of the launcher's own lines is one _prepared analyses (a script that passes the prefilter,
    not under msprof). When none is, none is among the first MAX_LAUNCHES either, and the commands of the files it
    runs or sources (which count toward that bound only) are not asked what they start: in a launcher that runs
    another, most of its walk's commands are that file's."""
    return any(la.script and la.msprof is None and _may_have_setups(la.script) for la in launches_in(w, me))


def _may_have_setups(script: str) -> bool:
    """Whether a script may hold a profiling setup, by the prefilter the flake8 plugin runs (source/prefilter.py):
    one that fails it has none, so nothing a launch passes it can be judged (NPP205, an options value). A script
    that cannot be read is left to prepare (kept per file while it is unchanged: the scan before the walk,
    engine/launch_scan.py, read the same scripts)."""
    from .shell_scan import may_have_setups
    return may_have_setups(script)


def _check(text: str, w: "Walk", prepared, settings, Finding, dropped=(), undecided=()) -> list:
    from ..source.model import finding
    from ..source.said import aside, clause, said, so
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
        where = "" if file == me else f" in {rel_path(file, w.root)}, which it {how},"
        report("NPP191", offset if file == me else 0, offset if file == me else 0,
               said("analysis budget exhausted", clause(
                   f"the walk of this launcher stopped{where} at line {line}", aside(why),
                   so("the command lines from there on were not checked"),
                   aside("a finding may be missing; split the launcher"))))
    if dropped:
        from . import launcher_switch
        for d in dropped:
            report(launcher_switch.CODE, d.start, d.end, launcher_switch.message(d))
    for option, start, end, why in undecided:       # NPP015 not decided: never "All checks passed!"
        report("NPP191", start, end, said("analysis budget exhausted", clause(
            why, ", and without those values it reaches no launch",
            so(f"whether a launch gets {option} (NPP015) was not checked"),
            aside(f"a finding may be missing; `npuprof emulate LAUNCHER -- {option}=True` says where it goes"))))
    if prepared:                            # (the options' checks, imported for a launch that needs them)
        from .options import check_options, for_state
        from ..setups.state import from_setup
        from ..values.reader import place
    for launch, ls in prepared:
        script = rel_path(launch.script, w.root)
        for trap in ls.traps:
            g = trap.given
            if g.word.start is not None:
                report("NPP205", g.word.start, g.word.end,
                       said(f"{trap.said(script)} in this launch", "",
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
                       # (the setup's line is the script's: the finding is the launcher's)
                       for_state(issue.words, state).within(f"(passed to {script} at line {launch.command.line}, "
                                                           f"read by its {setup.route} setup at line {setup.line} of "
                                                           f"{script})"))
    return sorted(out, key=Finding.sort_key)
