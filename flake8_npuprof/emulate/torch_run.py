"""`npuprof emulate` of a script that profiles with torch_npu's profiler: each `torch_npu.profiler.profile(...)`
replayed from what the checks resolve (checks/torch_npu*.py): its schedule against the loop that steps it
(schedule_run.py), the trace handler's folder and the `*_ascend_pt` folders under it, what is exported, and
why nothing is kept where nothing is. The facts and their sources: data/torch_npu.json "run" (the folder names
per release, the layout) and data/sources.json `torch_npu.run.*`; the schedule is held to the execution record.

The replay is of torch_npu 6.0 and later (every recorded build from 6.0.rc1 on saves its traces as below). The
one 5.0 build recorded (5.0.rc3) never called on_trace_ready in the record, so a target including 5.0 says that
5.0 is not replayed. mindspore_run.py does the same for MindSpore; framework_render.py writes both reports.
"""

from __future__ import annotations

import ast
import os
from typing import Callable, Dict, List, Mapping, NamedTuple, Optional, Tuple

from ..knowledge import torch_npu as K
from ..knowledge.targets import Target
from ..source import fence
from ..source.text import HOLE
from . import schedule_run as S
from .environment import Environment
from .message import Message

UNKNOWN = "unknown"
# the facts this replay's claims rest on (data/sources.json; tests/test_audit.py holds them)
FACTS = ("torch_npu.run.schedule", "torch_npu.run.folder", "torch_npu.run.layout", "torch_npu.wheels",
         "torch_npu.prof_config_path", "torch_npu.profile.lifecycle")


class Profiler(NamedTuple):
    """One profile() call, replayed."""
    line: int
    column: int
    verdict: str                        # collects, collects_nothing, fails, off, unknown
    why: str                            # the headline's reason (what it collects, or why not)
    details: Tuple[str, ...]            # the lines under it
    caveats: Tuple[Message, ...]        # findings that make the data less useful (NPP301, ...)
    conditions: Tuple[str, ...]         # the `if` tests it runs under
    data: dict                          # the JSON fields (schedule, steps, output_dir, layout, ...)
    unreached: bool = False             # not reached from the file's entry point (why says so)


# ---------------------------------------------------------------- the script

def replay(ctx, target: Target, cwd: Optional[str], environ: Optional[Environment]) -> List[Profiler]:
    """Every profile() call of the file (ctx: checks.analysis.Context, its checks already run). environ: the
    environment with --env, None without (PROFILING_MODE unset, ASCEND_WORK_PATH not known)."""
    from ..checks.torch_npu_report import HANDLER, PROFILE, Names
    names = Names(ctx.tree)
    if not names.aliases:
        return []
    parents = _parents(ctx.tree)
    out = []
    calls = [n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call)]
    for call in calls:
        full = names.of(call.func)
        if full == PROFILE:
            out.append(_profiler(ctx, names, call, parents, target, cwd, environ, HANDLER))
    out.extend(_legacy_setup(ctx, c, parents, target) for c in calls if names.of(c.func) and
               _legacy(names.of(c.func) or "", c))
    for c in calls:
        if names.of(c.func) == "torch.autograd.profiler.profile" and not _legacy("torch.autograd.profiler.profile", c):
            from ..checks.torch_npu_kwargs import star_keyword
            found = star_keyword(ctx, c, "use_npu")         # profile(**prof_kwargs), the dict giving use_npu
            if found is not None:
                out.append(_legacy_setup(ctx, c, parents, target, found[1]))
    if not out:
        out.extend(_dynamic(ctx, names, c, parents, target, cwd) for c in calls
                   if names.of(c.func) == "torch_npu.profiler.dynamic_profile.init")
    # PROF_CONFIG_PATH starts torch_npu's dynamic profiling at its import, whatever profilers the script has too
    out.extend(_prof_config_path(ctx, names, parents, target, cwd, environ))
    return sorted((reached(ctx, p) for p in out), key=lambda p: (p.line, p.column))


def reached(ctx, p: Profiler) -> Profiler:
    """The replay as the run from the file's entry point sees it (setups/reach.py, as for TF setups): not reached
    is off; a file with no entry point (a module others import) cannot say whether the code runs, so its answer
    is unknown; the conditions on the way are the function's callers' `if`s, then the call's own."""
    from ..setups.reach import pytest_mark, reach_of
    node = _node_at(ctx, p)
    if node is None:
        return p
    reach = reach_of(ctx.sites)
    state = reach.of(node)
    conditions = tuple(dict.fromkeys(reach.path(node).texts + p.conditions))
    if state is False:
        at = f" (line {reach.entry.line} {reach.entry.what})" if reach.entry else ""
        skip = reach.skipped_by(node)
        why = f"not reached from this file's entry point{at}" if skip is None else \
            (f"skipped: `@{ast.unparse(skip)}` (line {skip.lineno}): pytest skips the test, so this code never runs"
             if pytest_mark(ctx.sites, skip) else
             f"skipped: `@{ast.unparse(skip)}` (line {skip.lineno}) puts a function that raises SkipTest in its "
             "place, so this code never runs")
        return p._replace(verdict="off", why=why, conditions=conditions, unreached=True)
    if state is None and p.verdict != UNKNOWN:
        return p._replace(verdict=UNKNOWN, conditions=conditions, why=f"{p.why}; but {reach.unknown_why()}: whether "
                          "this code runs is not known here")
    from ..checks.launch_setup import false_in_launch, true_in_launch
    false = false_in_launch(ctx, node)      # a launch's script: its flags decide an `if` on the way
    if false:
        return p._replace(verdict="off", why=f"not run in this launch: {false}", conditions=())
    held = true_in_launch(ctx, node)    # `if`s the launch's flags make true are no longer conditions
    conditions = tuple(c for c in conditions if c not in held)
    from ..checks.launch_setup import unsettled_in_launch
    unsettled = unsettled_in_launch(ctx, node)  # `if self.args.prof:` where self.args is not shown to be the flags
    if unsettled and p.verdict not in (UNKNOWN, "off"):
        return p._replace(verdict=UNKNOWN, conditions=conditions, why=f"{p.why}; but {unsettled}")
    # a profile() its settings do not stop, started only where the launch's flags say (`if self.config.profiling:`)
    # (torch_npu's profile() only: MindSpore's Profiler starts when it is built unless told otherwise)
    started = _started_in_launch(ctx, node) if p.verdict in ("collects", UNKNOWN) and \
        (p.data or {}).get("route") == "profile" and "releases" in p.data and not p.data.get("stopped") else None
    if started is not None:
        verdict, why = started
        return p._replace(verdict=verdict, why=why if verdict == "off" else f"{p.why}; but {why}",
                          conditions=() if verdict == "off" else conditions)
    return p._replace(conditions=conditions)


def _started_in_launch(ctx, call) -> Optional[Tuple[str, str]]:
    """For `prof = profile(...)` in a function, started only by `prof.start()` calls of that function, in a launch's
    script: ("off", why) when the launch's flags make every one of them not run (`if self.config.profiling:
    prof.start()` without --profiling: torch_npu never initialises its collector), (unknown, why) when one is under a
    test of a flag the launch leaves open; None otherwise."""
    from ..checks.launch_setup import false_in_launch, unsettled_in_launch
    from ..checks.torch_npu_loop import _attribute_taken, _owned_here, escapes
    if ctx.resolver.given is None or not isinstance(call, ast.Call):
        return None
    var, form = _bound_name(call, _parents(ctx.tree))
    if form != "start" or var is None or escapes(ctx.tree, var) or _attribute_taken(ctx.tree, var) or \
            not _owned_here(ctx.tree, var, call):
        return None
    holder = next((f for f in ast.walk(ctx.tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and
                   any(n is call for n in ast.walk(f))), None)
    if holder is None:
        return None
    entered = [n for n in ast.walk(holder) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and
               n.value.id == var and n.attr in ("start", "__enter__")]
    if any(isinstance(w, ast.withitem) and isinstance(w.context_expr, ast.Name) and w.context_expr.id == var
           for w in ast.walk(holder)) or not entered:
        return None
    starts = [n for n in ast.walk(holder) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
              n.func in entered]
    if len(starts) != len(entered):
        return None                     # `prof.start` taken but not called here
    for s in starts:
        open_ = unsettled_in_launch(ctx, s)
        if open_:
            return UNKNOWN, f"{var}.{getattr(s.func, 'attr', '')}() (line {s.lineno}) is under a test: {open_}"
    falses = [false_in_launch(ctx, s) for s in starts]
    # step() of a profiler never started runs its schedule's actions (checks/torch_npu_loop.lifetime): every step()
    # must not run either
    steps = [n for n in ast.walk(holder) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
             isinstance(n.func.value, ast.Name) and n.func.value.id == var and n.func.attr == "step"]
    if all(falses) and all(false_in_launch(ctx, s) for s in steps):
        at = ", ".join(str(s.lineno) for s in starts)
        return "off", (f"not run in this launch: {var}.{getattr(starts[0].func, 'attr', '')}() "
                       f"(line{'s' if len(starts) > 1 else ''} "
                       f"{at}) is not run: {falses[0]}, so torch_npu never starts collecting")
    return None


def _node_at(ctx, p: Profiler) -> Optional[ast.AST]:
    for n in ast.walk(ctx.tree):
        if isinstance(n, ast.Call) and n.lineno == p.line and n.col_offset + 1 == p.column:
            return n
    return None


def _dynamic(ctx, names, call: ast.Call, parents, target: Target, cwd: Optional[str]) -> Profiler:
    """dynamic_profile.init(dir): what is collected, and when, is read at run time from dir/profiler_config.json;
    the file as it is on this machine now is checked as `npuprof validate` checks it."""
    from ..checks.dynamic_json import check_text
    return dynamic_config(ctx, names, call, call.args[0] if call.args else None, parents, cwd, "dynamic_profile",
                          lambda text: check_text(text, target))


def dynamic_config(ctx, names, call: ast.stmt | ast.expr, folder_node: Optional[ast.AST], parents, cwd: Optional[str],
                   route: str, check_text: Callable[[str], list], given: Optional[str] = None) -> Profiler:
    """A dynamic-profiling call (torch_npu's dynamic_profile.init, MindSpore's DynamicProfilerMonitor) or the
    import that reads PROF_CONFIG_PATH: unknown, as its collection is read at run time from
    folder/profiler_config.json; the file as it is now is listed with the findings `check_text` gives it. given:
    the folder itself (from the environment) in place of the node that names it."""
    from ..checks.framework_values import known
    values = known(ctx, names, folder_node) if folder_node is not None else [given] if given else None
    folder = values[0] if values and len(values) == 1 and isinstance(values[0], str) and HOLE not in values[0] \
        else None
    data: dict = {"route": route, "config": None}
    details: List[str] = []
    caveats: Tuple[Message, ...] = ()
    path = _joined(cwd, os.path.join(folder, "profiler_config.json")) if folder is not None else None
    # the environment's route names the variable the folder comes from
    head = f"dynamic profiling ({ENV_CONFIG}):" if route == ENV_CONFIG else "dynamic profiling:"
    if folder is None:
        why = f"{head} what is collected, and when, is read at run time from a profiler_config.json in a folder " \
              "not known here"
    elif path is None:
        why = f"{head} what is collected, and when, is read at run time from " \
              f"{os.path.join(folder, 'profiler_config.json')}, relative to {CHDIR}"
    else:
        data["config"] = path
        why = f"{head} what is collected, and when, is read at run time from {path}"
        if fence.outside(path):         # (--no-outside: the script, or the launcher, names the folder)
            why = f"{why}: {fence.WHY}"
        elif os.path.isfile(path):
            try:
                with open(path, encoding="utf-8") as fh:
                    found = check_text(fh.read())
            except (OSError, UnicodeDecodeError) as exc:
                found, details = [], [f"{path} cannot be read here: {exc}"]
            caveats = tuple(Message(f"{os.path.basename(path)}:{f.line}:{f.col + 1} {f.message}", f.code)
                            for f in found)
            details.append(f"{path} as it is now: " + (f"{len(found)} problem(s), below" if found else
                                                       "no problem npuprof validate knows"))
        else:
            details.append(f"{path} is not there now (npuprof validate checks it once it is)")
    return Profiler(call.lineno, call.col_offset + 1, UNKNOWN, why, tuple(details), caveats,
                    _conditions(ctx, call, parents), data)


# ---------------------------------------------------------------- PROF_CONFIG_PATH

ENV_CONFIG = "PROF_CONFIG_PATH"


def _prof_config_path(ctx, names, parents, target: Target, cwd: Optional[str], environ) -> List[Profiler]:
    """Dynamic profiling through PROF_CONFIG_PATH (data/torch_npu.json "prof_config_path"): torch_npu reads it once,
    with os.getenv, when it is imported, so the script's own `os.environ["PROF_CONFIG_PATH"] = dir` counts only
    above its first `import torch_npu` (and above `import torch`, which imports torch_npu too where torch autoloads
    its device backends, 2.5 and later); else the environment's (the launcher's export, --env)."""
    from ..checks.dynamic_json import check_text
    from ..checks.torch_npu_report import env_assignments, first_import
    imported = first_import(ctx.tree, "torch_npu")
    if imported is None:
        return []
    from ..checks.framework_values import known
    torch = first_import(ctx.tree, "torch")
    sets = [(node, value) for node, value in env_assignments(ctx.tree, ENV_CONFIG)
            if not _empty(known(ctx, names, value))]        # an empty value starts nothing
    info = K.data()["prof_config_path"]
    reads = [r for r in _replayed(target) if r in K.releases_from(info["from"])]
    none_read = not reads and not ("5.0" in target.torch_npu_releases and len(target.torch_npu_releases) > 1)

    def at(node: ast.stmt, verdict: str, why: str) -> Profiler:
        return Profiler(node.lineno, node.col_offset + 1, verdict, why, (), (), _conditions(ctx, node, parents),
                        {"route": ENV_CONFIG, "config": None})
    if sets:
        node, value = sets[0]
        if node.lineno > imported.lineno:
            return [at(node, "collects_nothing", f"{ENV_CONFIG} is set at line {node.lineno}, after torch_npu is "
                       f"imported (line {imported.lineno}): torch_npu reads it once, when it is imported, so dynamic "
                       "profiling does not start")]
        if torch is not None and torch.lineno < node.lineno:
            return [at(node, UNKNOWN, f"{ENV_CONFIG} is set at line {node.lineno}, after `import torch` (line "
                       f"{torch.lineno}): a torch that autoloads its device backends (2.5 and later) imports "
                       "torch_npu there, which reads it first; whether torch_npu sees it depends on the torch")]
        if none_read:
            return [at(node, "collects_nothing", f"{ENV_CONFIG} is set at line {node.lineno}, but torch_npu "
                       f"{target.torch_npu} does not read it (from {info['first_build'][1]} on)")]
        p = dynamic_config(ctx, names, node, value, parents, cwd, ENV_CONFIG, lambda text: check_text(text, target))
        return [_env_read(p, f"{ENV_CONFIG} set at line {node.lineno}, read when torch_npu is imported (line "
                          f"{imported.lineno})", info, target)]
    folder = (environ or {}).get(ENV_CONFIG) if environ is not None else None
    if not folder:
        return []
    how = getattr(environ, "origins", {}).get(ENV_CONFIG, "in this environment (--env)")
    if none_read:
        return [at(imported, "collects_nothing", f"{ENV_CONFIG} is set {how}, but torch_npu {target.torch_npu} does "
                   f"not read it (from {info['first_build'][1]} on)")]
    p = dynamic_config(ctx, names, imported, None, parents, cwd, ENV_CONFIG, lambda text: check_text(text, target),
                       given=folder)
    return [_env_read(p, f"{ENV_CONFIG} set {how}, read when torch_npu is imported (line {imported.lineno})", info,
                      target)]


def _empty(values) -> bool:
    return bool(values) and all(v == "" for v in values)


def reads_env_config(text: str, environ) -> bool:
    """Whether a script that names torch_npu runs with PROF_CONFIG_PATH in its environment (a launcher's export,
    --env): torch_npu's dynamic profiling, replayed here even where the script names no profiler."""
    return environ is not None and bool(environ.get(ENV_CONFIG)) and "torch_npu" in text


def _env_read(p: Profiler, how: str, info: dict, target: Target) -> Profiler:
    """The dynamic-profiling answer with where the folder came from and which releases read it."""
    old, first = info["first_build"]
    lines = [how + "; torch_npu hooks Optimizer.step to step it, so only a training loop that calls "
             "optimizer.step() is profiled"]
    if target.torch_npu in ("any", "portable", "5.0", info["from"]):
        lines.append(f"read by torch_npu {first} and later ({old} and earlier do not read it)")
    return p._replace(details=tuple(lines) + p.details)


def _legacy(full: str, call: ast.Call) -> bool:
    module, _, name = full.rpartition(".")
    if full == "torch.autograd.profiler.profile":
        return any(k.arg == "use_npu" for k in call.keywords)
    return module in ("torch.npu", "torch_npu.npu") and name in K.data()["legacy"]["names"]


def _legacy_setup(ctx, call: ast.Call, parents, target: Target, spread=None) -> Profiler:
    """spread: where a `**name` argument gives the call use_npu (checks/torch_npu_kwargs.py), on some branches
    only when not `every` (they are then the call's conditions)."""
    last = K.data()["legacy"]["last"]
    releases = _replayed(target)
    name = ast.get_source_segment(ctx.src.text, call.func) or "torch.npu.profile"
    conditions = _conditions(ctx, call, parents)
    every = bool(releases)
    if spread is not None or name.endswith("autograd.profiler.profile"):
        from .legacy_api import use_npu_outcome
        every, outcome = use_npu_outcome(releases)
        how = f"{name}(use_npu=...)"
        if spread is not None:
            at = ", ".join(str(n) for n in spread.lines)
            how = f"{name}(**{spread.name}) passes use_npu (line{'s' if len(spread.lines) > 1 else ''} {at}), which"
            if not spread.every:
                ways = [" and ".join(texts) for texts in spread.ways]
                conditions += (ways[0] if len(ways) == 1 else " or ".join(f"({w})" for w in ways),)
        why = f"{how} {outcome}"
    else:
        why = f"{name}() is the legacy profiler API, gone after torch_npu {last}: AttributeError when it runs"
    data = {"route": "legacy", "releases": list(releases)}
    verdict = "fails" if releases and every else UNKNOWN
    return Profiler(call.lineno, call.col_offset + 1, verdict, why, (), (), conditions, data)


def _profiler(ctx, names, call: ast.Call, parents, target: Target, cwd: Optional[str], environ,
              handler_name: str) -> Profiler:
    from ..checks.framework_values import known
    kws = {k.arg: k.value for k in call.keywords if k.arg}
    releases = _replayed(target)
    details: List[str] = []
    data: dict = {"route": "profile", "releases": list(releases)}
    conditions = _conditions(ctx, call, parents)
    own = _findings(ctx, call, kws, names)
    members = _members(ctx, target)
    fatal = [f for f in own if f.code == "NPP303"] or _findings(ctx, call, kws, names, members)
    lacked = _lacked(ctx, call, kws, releases) if not fatal and target.torch_npu == "any" else ""
    if lacked:
        return Profiler(call.lineno, call.col_offset + 1, UNKNOWN, lacked, (), (), conditions, data)
    spread = any(k.arg is None for k in call.keywords) or bool(call.args)
    # a TypeError or AttributeError on some of the releases only: the others get the replay's own answer (_split)
    # (one that stops none for certain, a release whose builds differ, stays unknown as a whole)
    partial = fatal[0] if fatal and not spread and not _every_release(fatal[0], target) and \
        set(fatal[0].words.fails_on) & set(target.torch_npu_releases) else None
    fatal = [] if partial is not None else fatal
    if fatal or spread:
        why = fatal[0].message if fatal else "profile() takes its arguments from code not followed here"
        verdict = "fails" if fatal and _every_release(fatal[0], target) else UNKNOWN
        return Profiler(call.lineno, call.col_offset + 1, verdict, why, (), (), conditions, data)
    caveats = tuple(Message(f.message, f.code) for f in own if _level(f.code) != "error")
    # what is collected
    activities = _activities(ctx, names, kws.get("activities"))
    config = _experimental(ctx, names, kws.get("experimental_config"), releases)
    data.update(activities=sorted(activities) if activities else None, **config)
    details.append(_what_line(activities, config))
    # the schedule against the loop
    sched, sched_at = _schedule(ctx, names, kws.get("schedule"))
    var, form = _bound_name(call, parents)
    stepped, bound, loop_at = _loop(ctx, names, call, var, form, parents)
    data.update(schedule=sched if sched != UNKNOWN else None, loop_steps=bound, stepped=stepped)
    details.append(_schedule_line(sched, sched_at))
    # where the data goes
    where = _handler(ctx, names, kws.get("on_trace_ready"), cwd, environ, handler_name, known)
    data.update(output_dir=where["dir"], handler=where["kind"])
    verdict, why, steps_line = _steps_verdict(sched, stepped, bound, loop_at, var)
    around = _enclosing_loop(call, parents) if why == "the whole run as one trace" else None
    if around is not None:
        # Retinaface (ModelZoo-PyTorch) builds `with profile(...)` in each pass of its training loop: not one trace
        why = f"one trace per pass of the loop at line {around}, which builds a profiler in each"
        steps_line = (f"steps recorded: what each pass of the loop (line {around}) runs, as its own trace saved when "
                      f"its profiler stops ({var or 'prof'}.step() is never called), with a warning that the data may "
                      "be incomplete")
    life = _unstarted(ctx, call, var, form, sched)
    if life is not None:
        verdict, why, steps_line = life
    elif form == "start" and var is not None and ctx.resolver.given is None:   # (a launch decides them: below)
        conditions += _start_conditions(ctx, call, var, parents, conditions)
    if steps_line:
        details.append(steps_line)
    data.update(recorded=None, traces=None, exit_state=None)
    if sched != UNKNOWN and stepped is not None and (bound is not None or stepped is False):
        run = S.replay(sched if isinstance(sched, dict) else None, bound or 0, stepped)
        data.update(recorded=list(run.recorded), traces=[list(t) for t in run.traces], exit_state=run.exit_state)
        if verdict == "collects" and life is None and form == "start" and var is not None and run.traces and \
                all(end == run.steps for _, end in run.traces) and _never_stopped(ctx.tree, var):
            verdict, why = UNKNOWN, (
                f"{var}.start() is never followed by {var}.stop() (nor a `with`), and the trace is saved only when "
                f"the profiler stops: then only when Python frees {var} (profile.__del__ stops a profiler never "
                "stopped, on torch_npu 6.0.rc3+), which for a profiler alive when the script ends is not certain")
    # what stops it
    # where a stopper holds on some releases only, the others get this replay's own answer
    rest = "collects" if verdict == "collects" else f"{verdict.replace('_', ' ')}: {why}"
    stop = _stoppers(ctx, own, activities, config, where, environ, releases, rest)
    if stop is not None and not (life and life[0] == "collects_nothing"):     # never started: nothing else matters
        verdict, why = stop
        data["stopped"] = True          # by the profiler's own settings, started or not (_started_in_launch)
    elif verdict == "collects":
        why = f"{why} into {where['shown']}" if where["shown"] else why
    # a member the release lacks named elsewhere in the script: the job stops where it is evaluated, which is not
    # placed against this profiler here (`level = ProfilerLevel.Level3` before the call, or in a function)
    elsewhere = [f for f in members if f not in fatal and f is not partial and
                 (partial is None or set(f.words.fails_on) - set(partial.words.fails_on))]   # (_split: the others')
    if elsewhere and verdict == "collects":
        verdict, why = UNKNOWN, (f"{elsewhere[0].message} (line {elsewhere[0].line}; whether it is evaluated before "
                                 "this profiler collects is not followed here)")
    if verdict in ("collects", UNKNOWN) and where["kind"] not in ("none_deleted",):
        details.append(f"output directory: {where['shown'] or '<unknown>'} ({where['how']})")
        layout = _layout(where, config, activities, releases, kws)
        data["layout"] = layout
        details.extend("  " + row for row in layout)
    elif where["kind"] == "none_deleted":
        details.append(f"output directory: {where['how']}")
    if partial is not None:
        verdict, why = _split(partial, target, call, verdict, why)
    return Profiler(call.lineno, call.col_offset + 1, verdict, why, tuple(details), caveats, conditions, data)


def stop_called(tree, var: str) -> bool:
    """Whether the file calls `var.stop()` or `var.__exit__()` (torch_npu's and MindSpore's profilers alike)."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("stop", "__exit__")
               and isinstance(n.func.value, ast.Name) and n.func.value.id == var for n in ast.walk(tree))


def _never_stopped(tree, var: str) -> bool:
    """Whether the file never stops `var` and hands it to no other code that might."""
    from ..checks.torch_npu_loop import escapes
    return not escapes(tree, var) and not stop_called(tree, var)


def _split(fatal, target: Target, call: ast.Call, verdict: str, why: str) -> Tuple[str, str]:
    """(verdict, why) where a finding stops the job on some of the target's releases (its fails_on) and the replay
    answers for the others: no data on any of them is "collects nothing" (the job stopping is said first), data on
    some is unknown (the release decides). The t1 of the QA scripts: ExportType stops 5.0, and 6.0+ collect nothing
    (a schedule past the loop), which "unknown" hid."""
    stops = [r for r in target.torch_npu_releases if r in fatal.words.fails_on]
    others = K.span([r for r in target.torch_npu_releases if r not in stops])
    said = fatal.message if fatal.line == call.lineno else f"{fatal.message} (line {fatal.line})"
    rest = f"torch_npu {others} collects" if verdict == "collects" else \
        f"on torch_npu {others}, {verdict.replace('_', ' ')}: {why}"
    if verdict in ("fails", "off", "collects_nothing"):
        return "collects_nothing", f"{said}; {rest}"
    return UNKNOWN, f"{said}; {rest} (give --torch-npu)"


def _level(code: str) -> str:
    """A code's level on its page: an error is what the replay says failed; the others make the data less useful."""
    from ..checks.catalog import BY_CODE
    rule = BY_CODE.get(code)
    return rule.level if rule else "error"


def _replayed(target: Target) -> Tuple[str, ...]:
    return tuple(r for r in target.torch_npu_releases if r != "5.0")


def _lacked(ctx, call: ast.Call, kws: Mapping[str, ast.AST], releases: Tuple[str, ...]) -> str:
    """Under every release (where NPP303 is said only of what every release lacks): why the answer depends on the
    release, where this profile() or the _ExperimentalConfig or schedule it is given names a keyword that some of the
    replayed releases lack (TypeError when the script starts), or one only builds after the releases recorded
    take, or one the first builds of a replayed release lack (6.0.rc1: msprof_tx, op_attr, gc_detect_threshold);
    "" for none."""
    data = K.data()
    builds = ""                         # a keyword some builds lack, said where no release lacks one
    calls = [(call, "profile")] + [(made, what) for made, what in (
        (_made_by(ctx, kws.get("experimental_config")), "_ExperimentalConfig"),
        (_made_by(ctx, kws.get("schedule")), "schedule")) if made is not None]
    for made, what in calls:
        table = data[K.TABLES[what]]["keywords"]
        for kw in made.keywords:
            later = K.after_recorded(what).get(kw.arg or "")
            first = table.get(kw.arg or "")
            lack = list(releases) if later is not None else \
                [r for r in releases if first is not None and r in K.releases_before(first)]
            build = data.get("first_build", {}).get(what, {}).get(kw.arg or "")
            if not lack and build and first in releases and not builds:
                builds = (f"depends on the torch_npu build: {what}'s keyword {kw.arg} is new in torch_npu {build[1]}: "
                          f"torch_npu {build[0]} raises TypeError when the script starts")
            if not lack:
                continue
            said = K.newer_keyword(what, str(kw.arg), later) if later is not None else \
                f"{what}'s keyword {kw.arg} is new in torch_npu {first}"
            shown = lack[0] if len(lack) == 1 else f"{lack[0]}-{lack[-1]}"
            return f"depends on the torch_npu release: {said}: torch_npu {shown} raises TypeError when the script starts"
    return builds


def _every_release(fatal, target: Target) -> bool:
    """Whether an NPP303 finding (a TypeError when the script starts) holds on every release of the target: under
    `portable` it may hold on some only ("...; torch_npu 7.2+ accepts it"), which its `fails_on` leaves out."""
    return set(target.torch_npu_releases) <= set(fatal.words.fails_on)


# ---------------------------------------------------------------- what the checks found on this profiler

def _findings(ctx, call: ast.Call, kws: Mapping[str, ast.AST], names, found: Optional[list] = None) -> list:
    """The checks' findings (or those `found`) inside this profile() call and the calls its keywords name (schedule,
    handler, experimental_config built elsewhere in the file)."""
    spans = [(ctx.src.node_start(call), ctx.src.node_end(call))]
    for key in ("schedule", "on_trace_ready", "experimental_config"):
        made = _made_by(ctx, kws.get(key))
        if made is not None:
            spans.append((ctx.src.node_start(made), ctx.src.node_end(made)))
    return [f for f in (ctx.findings if found is None else found) if any(a <= f.start < b for a, b in spans)]


def _members(ctx, target: Target) -> list:
    """NPP317: the members of torch_npu's enums the releases lack, each an AttributeError (an ImportError for a class)
    where it is evaluated, which stops the job. Under every release the check says those every release lacks; here
    also those some lack (`AiCMetrics.MemoryAccess`, new in 7.0, stops the job on 6.0), as under `portable`."""
    if target.torch_npu != "any":
        return [f for f in ctx.findings if f.code == "NPP317"]
    from ..checks import torch_npu_members
    other = ctx.judged_for(ctx.settings._replace(target=ctx.target._replace(torch_npu="portable")))
    torch_npu_members.check(other)
    return [f for f in other.findings if f.code == "NPP317"]


# where a relative path goes when the script changes its directory (emulate/replay.run_dir)
CHDIR = "the directory the script changes to with os.chdir, not known here"


def _joined(cwd: Optional[str], value: str) -> Optional[str]:
    """value as a path from cwd; None when it is relative and cwd is not known (the script calls os.chdir)."""
    value = os.path.expanduser(value)
    if cwd is None and not os.path.isabs(value):
        return None
    return os.path.normpath(os.path.join(cwd or os.sep, value))


def _made_by(ctx, node: Optional[ast.AST]) -> Optional[ast.Call]:
    """The call that builds a keyword's value: the call itself, or the one call assigned to its name."""
    if isinstance(node, ast.Call):
        return node
    if isinstance(node, ast.Name):
        from ..checks.torch_npu_loop import index
        found = index(ctx.tree).assigned.get(node.id, [])
        if len(found) == 1 and isinstance(found[0], ast.Call):
            return found[0]
    return None


def own_handler(ctx, node, made: Optional[ast.Call]) -> str:
    """What an on_trace_ready that is not the framework's handler is: a function or lambda of the script, else a
    value not known here (a parameter, an unpacked tuple, what a call returns: it may be the framework's own)."""
    if isinstance(node, ast.Lambda) or made is None and isinstance(node, ast.Name) and any(
            isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == node.id for n in ast.walk(ctx.tree)):
        return "on_trace_ready is the script's own callable"
    return "on_trace_ready is a value not known here"


def _stoppers(ctx, own, activities, config, where, environ: Optional[Environment], releases,
              rest: str = "collects") -> Optional[Tuple[str, str]]:
    """(verdict, why) when something makes the run keep no NPU data whatever the schedule does."""
    env = K.data()["env_noop"]
    noop_from = K.releases_from(env["from"])
    for f in _noop_findings(ctx, env["from"]):
            off = _by_release(releases, noop_from, "off", f"{f.words.what}: torch_npu {env['from']}+ turns "
                              "every profiler call into a no-op (only a warning that the api is not effective)", rest)
            if off:
                return off
    if environ is not None:
        for name in env["names"]:
            if environ.get(name):
                given = environ.origin(name)
                off = _by_release(releases, noop_from, "off", f"{name} is set {given}: torch_npu "
                                  f"{env['from']}+ turns every profiler call into a no-op", rest)
                if off:
                    return off
    chip = [f for f in own if f.code == "NPP309"]
    if chip and activities and "NPU" in activities:
        if config.get("aic_metrics") == "MemoryAccess" and config.get("l2_cache") is not True:
            return UNKNOWN, (f"{chip[0].words.what}: torch_npu falls back to PipeUtilization where CANN's "
                             "feature list lacks MemoryAccess, else aclprofStart fails (no NPU data)")
        return "collects_nothing", (f"{chip[0].words.what}: aclprofStart fails, so no NPU data is "
                                    "collected (only \"Profiling start failed\" in the CANN log); framework data only")
    if where["kind"] == "none_deleted":
        return "collects_nothing", where["how"]
    if where["kind"] == "file":
        return "collects_nothing", where["how"]
    if where["kind"] == "unmade":
        return "collects_nothing", _unmade_why(where, releases)
    return None


def _noop_findings(ctx, first: str) -> list:
    """NPP310 as the check reports it for the first release the variable switches the profiler off on (the
    file's own findings follow the target, which under `any` does not report it)."""
    from ..checks.torch_npu import _environment
    from ..checks.torch_npu_report import Names
    other = ctx.judged_for(ctx.settings._replace(target=ctx.target._replace(torch_npu=first)))
    _environment(other, Names(ctx.tree))
    return [f for f in other.findings if f.code == "NPP310"]


def _by_release(releases, bad, verdict: str, why: str, rest: str = "collects") -> Optional[Tuple[str, str]]:
    """(verdict, why) where the releases in `bad` all meet it; unknown where only some do, the others' answer
    being `rest` (the replay's own: "collects", or its verdict and why)."""
    hit = [r for r in releases if r in bad]
    if not hit:
        return None
    if len(hit) == len(releases):
        return verdict, why
    others = K.span([r for r in releases if r not in bad])
    said = f"torch_npu {others} collects" if rest == "collects" else f"on torch_npu {others}, {rest}"
    return UNKNOWN, f"{why}; {said} (give --torch-npu)"


# ---------------------------------------------------------------- the values

def _activities(ctx, names, node) -> Optional[set]:
    """The activities in effect ({CPU, NPU} by default, and when torch_npu resets a bad list); None: unknown."""
    from ..checks.framework_values import EnumRef, Items, known
    if node is None:
        return {"CPU", "NPU"}
    values = known(ctx, names, node)
    if not values or len(values) != 1 or not isinstance(values[0], (Items, str)):
        return None
    items = values[0] if isinstance(values[0], Items) else Items((values[0],))
    if not items or any(isinstance(v, str) for v in items):
        return {"CPU", "NPU"}           # empty: the default; a string: reset to both
    if all(isinstance(v, EnumRef) and v.kind == "activities" for v in items):
        return {v.name for v in items}
    return None


def _experimental(ctx, names, node, releases: Tuple[str, ...] = ()) -> dict:
    """profiler_level, aic_metrics, export_type and l2_cache as torch_npu keeps them (None: not known; an
    export_type list is reset to text before 7.0, so it is not known where the target spans both)."""
    from ..checks.framework_values import EnumRef, Items, known, plain
    from ..checks.torch_npu_report import EXPERIMENTAL
    out = {"profiler_level": "Level0", "aic_metrics": None, "export_type": ["text"], "l2_cache": False}
    made = _made_by(ctx, node) if node is not None else None
    if node is None:
        return out
    if made is None or names.of(made.func) != EXPERIMENTAL or made.args or any(k.arg is None for k in made.keywords):
        return {k: None for k in out}
    table = K.data()["experimental_config"]
    for kw in made.keywords:
        values = known(ctx, names, kw.value)
        value = values[0] if values and len(values) == 1 else None
        if kw.arg == "profiler_level":
            level = plain(value) if value is not None else None
            out["profiler_level"] = level if level in table["profiler_level"].values() else (
                "Level0" if value is not None else None)
        elif kw.arg == "aic_metrics":
            out["aic_metrics"] = value.name if isinstance(value, EnumRef) else (
                {v: k for k, v in table["aic_metrics"].items() if v}.get(value) if isinstance(value, str) else None)
        elif kw.arg == "export_type":
            items = [plain(v) for v in value] if isinstance(value, Items) else [plain(value)] if value is not None else None
            out["export_type"] = sorted(set(items)) if items and set(items) <= {"text", "db"} else (
                ["text"] if items is not None else None)
            early = [r for r in releases if r in K.releases_before(table["export_type_list_from"])]
            if isinstance(value, Items) and early:
                out["export_type"] = ["text"] if len(early) == len(releases) else None
        elif kw.arg == "l2_cache":
            out["l2_cache"] = value if isinstance(value, bool) else None
    if out["profiler_level"] in ("Level0", "Level_none"):
        out["aic_metrics"] = "AiCoreNone" if out["aic_metrics"] is not None or "aic_metrics" not in \
            {k.arg for k in made.keywords} else out["aic_metrics"]
    elif out["profiler_level"] is None and out["aic_metrics"] != "AiCoreNone":
        out["aic_metrics"] = None       # a metric is kept at Level1 and Level2 only: the unknown level decides
    elif out["profiler_level"] and out["aic_metrics"] == "AiCoreNone":
        # Level1/Level2 with AiCoreNone: PipeUtilization before 26.0, which keeps AiCoreNone (the record)
        kept = set(K.releases_from(table["aic_none_kept_from"]))
        out["aic_metrics"] = None if not releases or 0 < len(kept & set(releases)) < len(releases) else \
            "AiCoreNone" if kept & set(releases) else "PipeUtilization"
    return out


def _what_line(activities, config) -> str:
    acts = ", ".join(sorted(activities)) if activities else "<unknown>"
    parts = [f"activities: {acts}", f"profiler_level {config['profiler_level'] or '<unknown>'}"]
    if config.get("aic_metrics"):
        parts.append(f"aic_metrics {config['aic_metrics']}")
    parts.append(f"export_type {' and '.join(config['export_type']) if config['export_type'] else '<unknown>'}")
    if config.get("l2_cache"):
        parts.append("l2_cache")
    return "; ".join(parts)


def _schedule(ctx, names, node) -> Tuple[object, str]:
    """The schedule's values ({wait, active, ...}) as torch_npu 6.0+ keeps them (a negative wait, warmup, repeat or
    skip_first is 0, an active below 1 is 1, with the warning the checks report: MindSpeed-LLM's skip_first is -1 for
    --profile-step-start 1), None without one, UNKNOWN when they are not all known; and where it is written."""
    from ..checks.framework_values import known
    from ..checks.torch_npu_report import SCHEDULE
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return None, ""
    made = _made_by(ctx, node)
    if made is None or names.of(made.func) != SCHEDULE or any(k.arg is None for k in made.keywords):
        return UNKNOWN, ""
    data = K.data()["schedule"]
    given = dict(zip(data["positional"], made.args))
    given.update((k.arg, k.value) for k in made.keywords)
    if len(made.args) > len(data["positional"]) or not {"wait", "active"} <= set(given):
        return UNKNOWN, ""
    out = {"wait": 0, "active": 1, "warmup": 0, "repeat": 0, "skip_first": 0}
    for name, value_node in given.items():
        values = known(ctx, names, value_node)
        floor = 1 if name == "active" else 0
        if not values or len(set(map(repr, values))) != 1 or not isinstance(values[0], int) or \
                isinstance(values[0], bool) or (name == "skip_first_wait" and values[0] < floor):
            return UNKNOWN, ""          # (a negative skip_first_wait is kept as written: only its type is checked)
        out[name] = max(values[0], floor)
    return out, f"line {made.lineno}"


def _schedule_line(sched, at: str) -> str:
    if sched is None:
        return "schedule: none (every step is recorded, as one trace saved when the profiler stops)"
    if sched == UNKNOWN:
        return "schedule: not known here (a value computed at run time, or one torch_npu resets: see npuprof check)"
    shown = ", ".join(f"{k}={v}" for k, v in sched.items() if v or k in ("wait", "active"))
    return f"schedule: {shown} ({at}): records from step {S.first_record(sched)}"


# ---------------------------------------------------------------- the loop

def _bound_name(call: ast.Call, parents) -> Tuple[Optional[str], str]:
    """The profiler's name and how it runs: ("prof", "with") for `with profile() as prof`, ("prof", "start")
    for `prof = profile()`, (None, ...) otherwise."""
    up = parents.get(id(call))
    if isinstance(up, ast.withitem):
        var = up.optional_vars
        return (var.id if isinstance(var, ast.Name) else None), "with"
    if isinstance(up, ast.Assign) and len(up.targets) == 1 and isinstance(up.targets[0], ast.Name):
        return up.targets[0].id, "start"
    return None, "other"


def _loop(ctx, names, call, var, form, parents) -> Tuple[Optional[bool], Optional[int], str]:
    """(stepped, the loop's number of steps, where): stepped None when the profiler leaves the file (someone
    else may step it); the bound None when no `for ... in range(N)` of known N steps it once per iteration."""
    from ..checks.framework_values import known
    from ..checks.torch_npu_loop import _inside_loop, _step_calls, escapes, index
    if var is None:
        return (False if form == "with" else None), None, ""
    if var not in index(ctx.tree).stepped:
        return (None if escapes(ctx.tree, var) else False), None, ""
    if form == "with":
        withnode = parents.get(id(parents.get(id(call))))
        scope = [withnode] if withnode is not None else []
    else:
        scope = [ctx.tree]
    found = []
    for root in scope:
        for loop in ast.walk(root):
            if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call) or \
                    not isinstance(loop.iter.func, ast.Name) or loop.iter.func.id != "range":
                continue
            direct, nested = _step_calls(loop, var)
            if direct == 1 and not nested and not (form == "with" and _inside_loop(root, loop)):
                found.append(loop)
    if len(found) != 1:
        return True, None, ""
    loop = found[0]
    assert isinstance(loop.iter, ast.Call)      # (found: range() loops only)
    bounds = [known(ctx, names, a) for a in loop.iter.args]
    if not bounds or len(bounds) > 2 or loop.iter.keywords or any(
            not b or len(b) != 1 or not isinstance(b[0], int) or isinstance(b[0], bool) for b in bounds):
        return True, None, f"line {loop.lineno}"
    ints = [b[0] for b in bounds if b]     # (every one is: checked above)
    return True, max(0, ints[-1] - (ints[0] if len(ints) == 2 else 0)), f"line {loop.lineno}"


def _start_conditions(ctx, call: ast.Call, var: str, parents, built: Tuple[str, ...]) -> Tuple[str, ...]:
    """The `if`s around the one `var.start()` of the profiler's function beyond those around its construction, where
    that start() runs once (no loop around it there): MindSpeed-MM's finetune_ocr.py builds `prof = profile(...)`
    always and starts it under `if self.config.profiling:`, which the answer did not say."""
    scope: Optional[ast.AST] = call
    while scope is not None and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        scope = parents.get(id(scope))
    if scope is None:
        return ()
    starts = [n for n in ast.walk(scope) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
              n.func.attr == "start" and isinstance(n.func.value, ast.Name) and n.func.value.id == var]
    if len(starts) != 1 or _enclosing_loop(starts[0], parents) is not None:
        return ()
    around = _conditions(ctx, starts[0], parents)
    if around[:len(built)] != built:
        return ()
    return around[len(built):]


def _enclosing_loop(call: ast.Call, parents) -> Optional[int]:
    """The line of the loop the profiler is built in, within its function (each pass builds a new one), else None."""
    child: ast.AST = call
    node = parents.get(id(call))
    while node is not None and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and any(child is b for b in node.body):
            return node.lineno          # (its `else:` and its header run once)
        child, node = node, parents.get(id(node))
    return None


def _steps_verdict(sched, stepped, bound, at: str, var) -> Tuple[str, str, str]:
    """(verdict, headline, the steps line) from the schedule and the loop."""
    name = var or "prof"
    if sched == UNKNOWN:
        return UNKNOWN, "the schedule's values are not known here", ""
    first = S.first_record(sched if isinstance(sched, dict) else None)
    if stepped is None and sched is None:   # without a schedule step() decides nothing: start() and stop() do
        return UNKNOWN, (f"{var} leaves this file" if var else "the profiler leaves this file (returned or passed on)") \
            + ": who starts and stops it is not known here", ""
    if stepped is None:
        return UNKNOWN, f"{name} leaves this file: who calls {name}.step() is not known here", ""
    if stepped is False:
        run = S.replay(sched if isinstance(sched, dict) else None, 0, stepped=False)
        if run.exit_state == S.NONE:
            return "collects_nothing", (f"{name}.step() is never called: the profiler stays at step 0, in the "
                                        "schedule's wait steps, and collects nothing, silently"), \
                f"steps recorded: none ({name}.step() is never called; step 0 is a wait step)"
        if run.exit_state == S.WARMUP:
            return "collects_nothing", (f"{name}.step() is never called: the profiler stays at step 0, a warmup "
                                        "step, and deletes the data when it stops, with a warning"), \
                f"steps recorded: none ({name}.step() is never called; step 0 is a warmup step)"
        return "collects", "the whole run as one trace", (f"steps recorded: the whole run, as one trace saved when the "
                                                          f"profiler stops ({name}.step() is never called), with a "
                                                          "warning that the data may be incomplete")
    if bound is None:
        if first == 0:
            return "collects", "from step 0", "steps recorded: from step 0 (the loop's length is not known here)"
        return UNKNOWN, (f"the schedule records from step {first}; whether the loop runs that long is not "
                         "known here"), f"steps recorded: from step {first}, if the loop runs more than {first} steps"
    run = S.replay(sched if isinstance(sched, dict) else None, bound, True)
    loop = f"the loop ({at}) runs {bound} step{'s' if bound != 1 else ''}, calling {name}.step() once each"
    if not run.recorded and not run.traces:
        ends = "its wait steps: nothing is collected and nothing is said" if run.exit_state == S.NONE else \
            "its warmup steps: the data is deleted, with a warning"
        return "collects_nothing", f"the schedule records from step {first}, but {loop}: it ends in {ends}", \
            f"steps recorded: none ({loop})"
    if not run.recorded:
        return "collects_nothing", (f"the schedule records from step {first}, but {loop}: no training step is "
                                    "recorded (the one trace, saved when the profiler stops, holds only what runs "
                                    "after the loop)"), f"steps recorded: none ({loop})"
    saved = len(run.traces)
    tail = ""
    if run.traces and run.traces[-1][1] == run.steps:
        tail = "; the last is saved when the profiler stops, with a warning" + (
            " (it covers no training step)" if run.traces[-1][0] == run.steps else "")
    if run.exit_state == S.WARMUP:
        tail += "; the run ends in warmup steps, whose preparation is deleted with a warning"
    steps = S.spans(run.recorded) if run.recorded else "none"
    cut = f" (the first {S.MAX_STEPS:,} replayed)" if run.cut else ""
    short = S.spans(run.recorded, 3) if run.recorded else "none"
    return "collects", f"steps {short}", (f"steps recorded: {steps} of {run.steps}{cut} ({loop}); {saved} trace"
                                          f"{'s' if saved != 1 else ''} saved{tail}")


def _unstarted(ctx, call: ast.Call, var, form: str, sched) -> Optional[Tuple[str, str, str]]:
    """(verdict, headline, steps line) of `var = profile(...)` that this file does not start (checks/torch_npu_loop
    .lifetime, NPP315), None when it does: never started, nothing is collected; passed on or reachable from other
    modules, who starts it is not known; stepped with a schedule, step() runs the schedule's actions as a started
    profiler's, which the record holds for a schedule whose step 0 is a wait step
    (lifecycle.never_started_schedule_stepped)."""
    from ..checks.torch_npu_loop import ELSEWHERE, NEVER, STEPPED, lifetime
    if form != "start" or var is None:
        return None
    life = lifetime(ctx, var, call)
    back = _returned_by(ctx.tree, var, call) if life == ELSEWHERE else None
    if back is not None:
        # `with create_profiler() as prof:` may start it in this very file: never "not started in this file"
        return (UNKNOWN, f"{var} = profile(...) is returned by {back[0]}() (line {back[1]}): how its caller starts "
                "and steps it is not followed here", "")
    if life == ELSEWHERE:
        return (UNKNOWN, f"{var} = profile(...) is not started in this file, and {var} can be reached from outside "
                "it (passed on, an attribute taken, or a name other modules may import): who starts it is not "
                "known here", "")
    if life == NEVER:
        return ("collects_nothing", f"{var} = profile(...) is never started (no {var}.start(), no `with {var}:`): "
                "torch_npu never initialises its collector, so nothing is collected",
                "steps recorded: none (the profiler is never started)")
    if life == STEPPED and (not isinstance(sched, dict) or S.action(sched, 0) != S.NONE):
        return (UNKNOWN, f"{var} = profile(...) is never started, only stepped: step() runs the schedule's actions, "
                "which for a schedule that does not wait at step 0 were not replayed", "")
    return None


def _returned_by(tree, var: str, call: ast.Call) -> Optional[Tuple[str, int]]:
    """(the function, the line) where the function that builds the profiler returns it by its name (`return prof`)."""
    fns = [fn for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and
           any(n is call for n in ast.walk(fn))]
    if not fns:
        return None
    fn = fns[-1]                                        # the innermost (ast.walk goes outside in)
    back = next((n for n in ast.walk(fn) if isinstance(n, ast.Return) and isinstance(n.value, ast.Name) and
                 n.value.id == var), None)
    return None if back is None else (fn.name, back.lineno)


# ---------------------------------------------------------------- where the data goes

def _handler(ctx, names, node, cwd: Optional[str], environ, handler_name: str, known) -> dict:
    """Where the traces go: kind tensorboard / own / none_deleted / file / unknown, the directory (absolute, None
    when not known), how it is shown, and the handler's worker_name and analyse_flag."""
    from ..checks.torch_npu import _exports
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        if _exports(ctx, K.data()["profile"]["exports"]):
            return {"kind": "exports", "dir": None, "shown": "", "how": "no on_trace_ready: the script exports the "
                    "data itself (an export_* call): where it writes is the script's"}
        return {"kind": "none_deleted", "dir": None, "shown": "", "how": "no on_trace_ready and no export call: the "
                "raw data goes to a temporary folder (./export_only_prof_dir) and is deleted when the profiler "
                "object goes away"}
    made = _made_by(ctx, node)
    if made is None or names.of(made.func) != handler_name:
        return {"kind": "own", "dir": None, "shown": "", "how": f"{own_handler(ctx, node, made)}: what it does with "
                "the data is not followed"}
    args = dict(zip(("dir_name", "worker_name", "analyse_flag", "async_mode"), made.args))
    args.update((k.arg, k.value) for k in made.keywords if k.arg)
    out = {"kind": "tensorboard", "worker": None, "analyse": True}
    for key in ("worker_name", "analyse_flag"):
        if key in args:
            values = known(ctx, names, args[key])
            value = values[0] if values and len(values) == 1 else UNKNOWN
            if key == "worker_name":
                out["worker"] = value if isinstance(value, str) and 0 < len(value) < 226 else (
                    UNKNOWN if value == UNKNOWN else None)
            else:
                out["analyse"] = value if isinstance(value, bool) else (True if value != UNKNOWN else None)
    at = f"tensorboard_trace_handler, line {made.lineno}"
    raw = args.get("dir_name")
    values = known(ctx, names, raw) if raw is not None else (None,)
    if not values or len(values) != 1:
        out.update(dir=None, shown="", how=f"{at}: its dir_name is not known here")
        return out
    value = values[0]
    if not isinstance(value, str) or not value:
        work = (environ or {}).get("ASCEND_WORK_PATH") if environ is not None else None
        if work:
            path = os.path.join(os.path.abspath(work), "profiling_data")
            out.update(dir=path, shown=path, how=f"{at}: no dir_name, so $ASCEND_WORK_PATH/profiling_data")
        elif environ is not None:
            out.update(dir=cwd, shown=cwd if cwd is not None else CHDIR,
                       how=f"{at}: no dir_name and no ASCEND_WORK_PATH, so the working directory")
        else:
            out.update(dir=None, shown=f"{cwd if cwd is not None else CHDIR} (or $ASCEND_WORK_PATH/profiling_data "
                                       "when it is set)",
                       how=f"{at}: no dir_name, so the working directory, or $ASCEND_WORK_PATH/profiling_data "
                           "when ASCEND_WORK_PATH is set (give --env)")
        return out
    if HOLE in value:
        out.update(dir=None, shown=value.replace(HOLE, "<unknown>"), how=f"{at}: partly known only at run time")
        return out
    full = _joined(cwd, value)
    if full is None:
        out.update(dir=None, shown=value, how=f"{at}: {value} is relative to {CHDIR}")
        return out
    unmade = _unmade(full)
    if unmade:
        out.update(kind="unmade", dir=full, shown=full, how=f"{at}: {full} cannot be made ({unmade})")
        return out
    if os.path.isfile(full):
        out.update(kind="file", dir=full, shown=full, how=(
            f"{at}: {full} is a file on this machine: torch_npu prints \"Call tensorboard_trace_handler failed\", "
            "the handler is None, and the data is deleted when the profiler object goes away"))
        return out
    out.update(dir=full, shown=full, how=f"{at}")
    return out


def _unmade(full: str) -> str:
    """Why the handler's folder cannot be made, known before the run: it is under a kernel filesystem (mkdir there
    fails even for root) or under a file on this machine; "" otherwise (a folder that is not writable is not
    known before the run: root writes it all the same)."""
    for root in K.data()["run"]["unmade"]["under"]:
        if full == root or full.startswith(root + os.sep):
            return f"it is under {root}"
    parent = os.path.dirname(full)
    while parent and parent != os.path.dirname(parent):
        if not fence.outside(parent) and os.path.isfile(parent):
            return f"{parent} is a file on this machine"
        parent = os.path.dirname(parent)
    return ""


def _unmade_why(where: dict, releases) -> str:
    """What the records show when the folder cannot be made (lifecycle.handler_*): the start prints the error and
    goes on, the C++ profiler never initialised; the one build that raises it instead ends the job there."""
    facts = K.data()["run"]["unmade"]
    raised = facts["raised_by"]
    rc1 = f" ({raised} raises it, which ends the job)" if raised.rsplit(".", 1)[0] in releases else ""
    return (f"{where['how']}: when the profiler starts, torch_npu prints \"Failed to make directory: {where['dir']}/"
            f"...\"{rc1} and never initialises its C++ profiler, so nothing is saved there")


def _layout(where: dict, config: dict, activities, releases, kws) -> List[str]:
    """The `*_ascend_pt` folders and what is inside, per the sourced names (data/torch_npu.json "run")."""
    run = K.data()["run"]
    worker = where.get("worker")
    names = []
    new = [r for r in releases if r != "6.0" or not isinstance(worker, str)]     # 6.0 differs only with a name
    if new:
        who = worker if isinstance(worker, str) and worker != UNKNOWN else "<hostname>" if worker is None else "<unknown>"
        names.append(f"{who}_<pid>_<timestamp>_ascend_pt/" + ("" if len(new) == len(releases) else
                                                             f"   (torch_npu {K.span(new)})"))
    if "6.0" in releases and "6.0" not in new:
        who = f"{worker}_" if isinstance(worker, str) and worker != UNKNOWN else \
            "<hostname>_<pid>_" if worker is None else "<unknown>_"
        names.append(f"{who}<timestamp>_ascend_pt/   (torch_npu 6.0)" if len(releases) > 1 else f"{who}<timestamp>_ascend_pt/")
    rows = [f"{n}  one per saved trace" if i == 0 else n for i, n in enumerate(names)]
    inside = []
    if activities is None or "NPU" in activities:
        inside.append(f"{run['prof_dir']}  the collector's NPU data" + ("" if activities else " (if NPU is among the activities)"))
    inside.append(f"{run['framework_dir']}  torch_npu's own raw data")
    inside.append(f"{run['info']}  the run's settings")
    analyse = where.get("analyse")
    if analyse is False:
        inside.append(f"no {run['output_dir']}: analyse_flag=False, run {run['offline']} on the folder afterwards")
    else:
        exports = config.get("export_type")
        if exports is None:
            inside.append(f"{run['output_dir']}  the analysis's output (export_type not known here)")
        else:
            if "text" in exports:
                inside.append(f"{run['output_dir']}{run['text']}")
            if "db" in exports:
                inside.append(f"{run['output_dir']}{run['db']}")
        if analyse is None:
            inside[-1] += " (if analyse_flag is true)"
    return rows + ["  " + i for i in inside]


# ---------------------------------------------------------------- the file's structure

def _parents(tree) -> Dict[int, ast.AST]:
    out: Dict[int, ast.AST] = {}
    for n in ast.walk(tree):
        for c in ast.iter_child_nodes(n):
            out[id(c)] = n
    return out


def _conditions(ctx, node: ast.AST, parents) -> Tuple[str, ...]:
    """The tests of the `if`s the call sits under (innermost last), as written."""
    from ..setups.reach import _main_test
    out = []
    child, up = node, parents.get(id(node))
    while up is not None:
        if isinstance(up, ast.If) and child in up.body and _main_test(up.test):
            pass            # `if __name__ == "__main__":` holds whenever the script is launched (a def inside it)
        elif isinstance(up, ast.If) and child is not up.test:
            test = ast.get_source_segment(ctx.src.text, up.test) or "..."
            out.append(test if child in up.body else f"not ({test})")
        child, up = up, parents.get(id(up))
    return tuple(reversed(out))
