"""`npuprof emulate` of a script that profiles with MindSpore's profiler: each `mindspore.profiler.profile(...)`
and `mindspore.Profiler(...)` (and each `DynamicProfilerMonitor(cfg_path=...)`, whose file is checked as it is
now), with what the checks resolve (checks/mindspore.py): which steps its schedule
records against the loop that steps it (schedule_run.py, held to the schedule cases of
tests/oracle/mindspore/records.jsonl), the folder it is given, and the checks' findings on it.

The folder it makes under the output path is the 2.7-2.10 wheels' path code (data/mindspore.json "run",
sources `mindspore.run.layout`); what start, step and stop do, and a folder that cannot be made, are the record's
lifecycle and profiler cases (the wheels' own profiler.py run, the collector stood in for). What this replay does
not claim: what the C++ collector keeps when Python never stops it. Where the answer hangs on that, it is
`unknown` and says so; `no` only where the record or a check finds nothing is collected or the job fails.
"""

from __future__ import annotations

import ast
import os
from typing import Dict, List, Optional, Tuple, Union

from ..knowledge.targets import Target
from ..source.text import HOLE
from . import schedule_run as S
from .environment import Environment
from .message import Message
from .torch_run import CHDIR, Profiler, _conditions, _joined, _parents, dynamic_config, reached, stop_called

UNREAD = "what MindSpore keeps then was not read here"      # (mindformers_run: a profiler nothing stops)
FACTS = ("mindspore.run.schedule", "mindspore.run.lifecycle", "mindspore.run.folder",    # data/sources.json
         "mindspore.run.layout", "mindspore.run.activities", "mindspore.run.stop",          # (tests/test_audit.py)
         "mindspore.run.unmade")
# a run that ends in these states never started the collector: the action controller starts it only on entering a
# RECORD state (tests/oracle/mindspore/records.jsonl lifecycle cases, 2.7.0-2.10.0); what each does at the end
UNSTARTED = {S.NONE: ("wait", "nothing is collected, with no warning at the end"),
             S.WARMUP: ("warmup", "nothing is recorded, and when the profiler stops MindSpore deletes what it "
                                  "prepared, with a warning (\"Incorrect schedule: Stop profiler while current state "
                                  "is WARMUP which will result in empty parsed data.\")")}
# a run that stops in these states saves the trace the collector holds, with a warning (the record's profiler cases:
# profile_no_step_*, *_stepped_ends_at_*)
ENDED = {S.RECORD: "Incorrect schedule: Stop profiler while current state is RECORD which may result in incomplete "
                   "parsed data.",
         S.SAVE: "Stop profiler while current state is RECORD_AND_SAVE, perhaps the scheduling cycle has not yet "
                 "completed."}
# mindspore.Profiler never stepped: stop(), __exit__ and __del__ return after this warning (Profiler_no_step_*)
NO_STEP = "The profiler has schedule. Please use step() to collect data."


def replay(ctx, target: Target, cwd: Optional[str], environ: Optional[Environment]) -> list:
    from ..checks.mindspore import PROFILE, PROFILERS, Names
    names = Names(ctx.tree)
    if not names.aliases:
        return []
    parents = _parents(ctx.tree)
    out = []
    for call in (n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call)):
        full = names.of(call.func)
        if full == PROFILE or full in PROFILERS:
            out.append(_profiler(ctx, names, call, parents, cwd, "profile" if full == PROFILE else "Profiler"))
        elif full in MONITORS:
            out.append(_monitor(ctx, names, call, parents, cwd))
    return sorted((reached(ctx, p) for p in out), key=lambda p: (p.line, p.column))


def _profiler(ctx, names, call: ast.Call, parents, cwd: Optional[str], route: str) -> Profiler:
    from .torch_run import _bound_name, _loop
    kws = {k.arg: k.value for k in call.keywords if k.arg}
    start, end = ctx.src.node_start(call), ctx.src.node_end(call)
    own = [f for f in ctx.findings if start <= f.start < end or _ours(f.code) and _made_in(ctx, f, kws)]
    caveats = tuple(Message(f.message, f.code) for f in own)
    conditions = _conditions(ctx, call, parents)
    data: dict = {"route": route}
    details = []
    out_dir, how = _folder(ctx, names, kws, cwd)
    data["output_dir"] = out_dir if out_dir and HOLE not in out_dir else None
    sched, at = _schedule(ctx, names, kws.get("schedule"))
    var, form = _bound_name(call, parents)
    stepped, bound, loop_at = _loop(ctx, names, call, var, form, parents)
    data.update(schedule=sched if isinstance(sched, dict) else None, loop_steps=bound, stepped=stepped)
    if sched is None:
        details.append("schedule: none")
    elif sched == "unknown":
        details.append("schedule: not known here (a value computed at run time, or one MindSpore resets: see "
                       "npuprof check)")
    else:
        assert isinstance(sched, dict)      # _schedule's third kind
        shown = ", ".join(f"{k}={v}" for k, v in sched.items() if v or k in ("wait", "active"))
        details.append(f"schedule: {shown} ({at}): records from step {S.first_record(sched)}")
    verdict, why = "unknown", ""
    if stepped is True and bound == 0:      # a loop of no steps: step() never runs
        stepped = False
    if isinstance(sched, dict) and stepped is True and bound is not None:
        answers = [S.action(sched, i) for i in range(min(bound, S.MAX_STEPS))]
        recorded = tuple(i for i, a in enumerate(answers) if a in (S.RECORD, S.SAVE))
        data["recorded"] = list(recorded)
        loop = f"the loop ({loop_at}) runs {bound} step{'s' if bound != 1 else ''}, calling {var}.step() once each"
        if recorded:
            verdict, why = "collects", f"steps {S.spans(recorded, 3)}"
            details.append(f"steps recorded: {S.spans(recorded)} of {bound} ({loop})")
        else:
            end = S.replay(sched, bound, True).exit_state
            why = f"the schedule records from step {S.first_record(sched)}, but {loop}: "
            if end in UNSTARTED:
                verdict, why = "collects_nothing", why + "it ends in its {} steps: {}".format(*UNSTARTED[end])
            else:       # the last step() starts the collector: the trace saved at stop holds what follows the loop
                verdict, why = "collects_nothing", why + (
                    f"no training step is recorded (the last {var}.step() enters a {end} step: the one trace, saved "
                    f"when the profiler stops, holds only what runs after the loop, with a warning (\"{ENDED[end]}\"))")
            details.append(f"steps recorded: none ({loop})")
    elif isinstance(sched, dict) and stepped is False:
        verdict, why, saved = _never_stepped(ctx, sched, var or "the profiler", form, route)
        if saved:
            details.append(saved)
    elif sched is None and route == "Profiler":
        start_profile = _one(ctx, names, kws.get("start_profile"))
        if start_profile is False:
            why = "start_profile=False: it collects from its start() call, which is not followed here"
        else:
            verdict, why = "collects", "from its construction until stop()/analyse()"
    else:
        why = "the steps it records are not known here (a loop of unknown length, or a profiler stepped elsewhere)"
    details.append(f"output directory: {how}")
    fatal = [f for f in own if _stops(f.code)]
    unmade = _unmade(out_dir, cwd, how, route) if out_dir and HOLE not in out_dir else None
    if fatal:                           # a TypeError (NPP353) or an AttributeError (NPP365) at start-up, every release
        verdict, why = "fails", fatal[0].message
        caveats = tuple(c for c in caveats if c != Message(fatal[0].message, fatal[0].code))
    elif unmade is not None:
        if unmade[0] != "collects_nothing" or verdict != "collects_nothing":     # (one that never starts stays)
            verdict, why = unmade
    elif not how.startswith(("on_trace_ready is the script's own", "on_trace_ready is a value not known")):
        data["layout"] = _layout(ctx, names, kws)
        details.extend("  " + row for row in data["layout"])
    if verdict == "collects" and data["output_dir"]:
        why += f" into {data['output_dir']}"
    if verdict == "collects":
        verdict, why = _activities(ctx, names, kws) or (verdict, why)
    # a member the enums lack named elsewhere: the job stops where it is evaluated, not placed against this profiler
    elsewhere = [f for f in ctx.findings if f.code == "NPP365" and f not in own]
    if elsewhere and verdict == "collects":
        verdict, why = "unknown", (f"{elsewhere[0].message} (line {elsewhere[0].line}; whether it is evaluated "
                                   "before this profiler collects is not followed here)")
    return Profiler(call.lineno, call.col_offset + 1, verdict, why, tuple(details), caveats, conditions, data)


def import_fails(tree: ast.AST, skipped=lambda stmt: False) -> Optional[str]:
    """The first import of a mindspore.profiler module 2.7-2.10 do not have (NPP364, checks/mindspore.py), as
    "line N: <its message>": the job stops there (a script that profiles through it, the YOLOv4 of
    mindspore-ai/models, collects nothing); None where there is none. skipped(stmt): an import a launch does not run."""
    from ..checks.mindspore import missing_module_words, missing_modules
    found = [f for f in missing_modules(tree) if not skipped(f[0])]
    if not found:
        return None
    stmt, module, imported = found[0]
    tests = _if_tests(tree, stmt)
    when = f", when {' and '.join(tests)}" if tests else ""
    return f"line {stmt.lineno}{when}: {missing_module_words(module, imported).message}"


def _if_tests(tree: ast.AST, node: ast.AST) -> List[str]:
    """The tests of the `if`s `node` sits under, outermost first, as `ast.unparse` writes them (`not (t)` in an
    else branch): the import runs, and stops the job, only where they hold (CycleGAN's `if args.need_profiler:`,
    which its launcher leaves false). `if __name__ == "__main__":` holds whenever the script is launched."""
    parents = {id(c): n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    out: List[str] = []
    child, up = node, parents.get(id(node))
    while up is not None:
        if isinstance(up, ast.If) and child is not up.test and not _main_guard(up.test):
            test = ast.unparse(up.test)
            out.append(test if child in up.body else f"not ({test})")
        child, up = up, parents.get(id(up))
    return out[::-1]


def _main_guard(test: ast.AST) -> bool:
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" and \
        len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant) and \
        test.comparators[0].value == "__main__"


MONITORS = ("mindspore.profiler.DynamicProfilerMonitor", "mindspore.profiler.dynamic_profiler.DynamicProfilerMonitor")


def _monitor(ctx, names, call: ast.Call, parents, cwd: Optional[str]) -> Profiler:
    """DynamicProfilerMonitor(cfg_path=dir): what is collected, and when, is read at run time from
    dir/profiler_config.json; the file as it is on this machine now is checked as `npuprof validate --framework
    mindspore` checks it (NPP356)."""
    from ..checks.mindspore_dynamic_json import check_text
    node = next((k.value for k in call.keywords if k.arg == "cfg_path"), call.args[0] if call.args else None)
    return dynamic_config(ctx, names, call, node, parents, cwd, "DynamicProfilerMonitor", check_text)


def _made_in(ctx, finding, kws) -> bool:
    """Whether a finding sits in the call a keyword's value is built by (a schedule or config made elsewhere)."""
    from .torch_run import _made_by
    for node in kws.values():
        made = _made_by(ctx, node)
        if made is not None and ctx.src.node_start(made) <= finding.start < ctx.src.node_end(made):
            return True
    return False


def _never_stepped(ctx, sched: Dict[str, int], var: str, form: str, route: str) -> Tuple[str, str, str]:
    """(verdict, why, steps line) of a scheduled profiler whose step() never runs (the record's profiler cases
    *_no_step_*): the profiler stays at step 0 from its start to its stop."""
    first = S.action(sched, 0)
    if first in UNSTARTED:
        return "collects_nothing", (f"{var}.step() is never called, so the profiler stays at step 0, a "
                                    f"{UNSTARTED[first][0]} step, and never starts collecting"), ""
    if route == "Profiler":
        return "unknown", (f"{var}.step() is never called: MindSpore's Profiler.stop() then only warns (\"{NO_STEP}\") "
                           "and returns, as the end of its with block and its __del__ do, so the collector it started "
                           f"at step 0 (a {first} step) is never stopped and on_trace_ready never runs; what the C++ "
                           "collector leaves at exit is not read here"), ""
    if form != "with" and not stop_called(ctx.tree, var):
        return "unknown", (f"{var}.step() is never called, so the profiler stays at step 0 ({first}), and nothing in "
                           f"this file stops it (no {var}.stop(), no with block): whether MindSpore saves the trace is "
                           "not followed here"), ""
    return "collects", "the whole run as one trace", (
        f"steps recorded: the whole run, as one trace saved when the profiler stops ({var}.step() is never called), "
        f"with a warning (\"{ENDED[first]}\")")


def _unmade(path: str, cwd: Optional[str], how: str, route: str) -> Optional[Tuple[str, str]]:
    """(verdict, why) for a folder MindSpore cannot make, known here: under /proc or /sys, or an existing file (or
    under one) below the launch folder (the record's profiler cases Profiler_output_*, profile_handler_*); None
    otherwise. Where the folder could be made is not known here (permissions are the run's), nothing is said."""
    reason = next((f"under {fs}" for fs in ("/proc", "/sys") if path == fs or path.startswith(fs + "/")), None)
    top = os.path.abspath(cwd) if cwd is not None else None
    if reason is None and top is not None and os.path.commonpath([path, top]) == top:
        step = path
        while step != top and reason is None:
            if os.path.isfile(step):
                reason = "a file" if step == path else f"{step} is a file"
            step = os.path.dirname(step)
    if reason is None:
        return None
    if reason == "a file":
        if f"{path} (output_path" in how:
            if route != "Profiler":     # (profile's own keywords hold no output_path: not a case of the record)
                return None
            return "fails", (f"output_path {path} is a file: mindspore.Profiler raises ProfilerPathErrorException "
                             f"(\"Invalid input path is a file path: {path}\") when it is built")
        return "unknown", (f"tensorboard_trace_handler's dir_name {path} is a file: the handler raises "
                           "ProfilerPathErrorException (\"Invalid input path is a file path\"), which stops the job "
                           "on MindSpore 2.7.0; on 2.8-2.10 it is logged as an error and the profiler gets no "
                           "on_trace_ready, so its data goes to output_path (./data by default), unanalysed; which "
                           "release runs is not known here")
    return "collects_nothing", (f"MindSpore cannot make its folder in {path} ({reason}): making "
                                "<hostname>_<pid>_<timestamp>_ascend_ms there when the collector starts raises "
                                "ProfilerPathErrorException (\"Failed to make directory\"), which stops the job on "
                                "MindSpore 2.7.0 and is logged as an error on 2.8-2.10, where the job goes on "
                                "collecting nothing")


def _ours(code: str) -> bool:
    """Whether a finding is one of MindSpore's own rules (the catalog's group), which a keyword's value made
    elsewhere carries to the profiler."""
    from ..checks.catalog import BY_CODE
    rule = BY_CODE.get(code)
    return rule is not None and rule.group == "mindspore"


def _stops(code: str) -> bool:
    """Whether a finding on the profiler's arguments stops the job, as its page says: an error of MindSpore's own
    rules (not the preflight's NPP901 on its folder, nor an internal error)."""
    from ..checks.catalog import BY_CODE
    return _ours(code) and BY_CODE[code].level == "error"


def _activities(ctx, names, kws) -> Optional[Tuple[str, str]]:
    """("unknown", why) for activities that hold neither NPU nor CPU (`[ProfilerActivity.GPU]`, `[]`), which
    ProfilerParameters keeps as given (the record's params.activities cases): on an Ascend device the NPU platform
    profiler enables the framework's data only for CPU and reads the collector's only for NPU
    (platform/npu_profiler.py); what its C++ backend records then is not read here."""
    from ..checks.framework_values import EnumRef, Items
    value = _one(ctx, names, kws.get("activities"))
    if not isinstance(value, Items) or not all(isinstance(v, EnumRef) and v.kind == "activities" for v in value) or \
            {v.name for v in value} & {"CPU", "NPU"}:
        return None
    shown = "[" + ", ".join(f"ProfilerActivity.{v.name}" for v in value) + "]"
    return "unknown", (f"activities={shown} holds neither NPU nor CPU: on an Ascend device MindSpore's profiler "
                       "enables the framework's data only for CPU and reads the collector's only for NPU "
                       "(platform/npu_profiler.py); what its C++ backend records without either is not read here")


def _one(ctx, names, node):
    from ..checks.framework_values import known
    if node is None:
        return None
    values = known(ctx, names, node)
    return values[0] if values and len(values) == 1 else "unknown"


def _layout(ctx, names, kws) -> List[str]:
    """The folder a started profiler makes under the output directory and what is inside (data/mindspore.json
    "run"): {worker}_<pid>_<timestamp>_ascend_ms, the worker tensorboard_trace_handler's worker_name (a str under
    226 characters), else the hostname."""
    from ..checks.mindspore import MODULE
    from ..knowledge.mindspore import data
    from .torch_run import _made_by
    run = data()["run"]
    worker = run["worker"]
    handler = _made_by(ctx, kws.get("on_trace_ready"))
    if handler is not None and names.of(handler.func) == MODULE + ".tensorboard_trace_handler":
        node = handler.args[1] if len(handler.args) > 1 else next(
            (k.value for k in handler.keywords if k.arg == "worker_name"), None)
        if node is not None:        # any other value is reset to the default (the hostname), with a warning
            value = _one(ctx, names, node)
            if value == "unknown" or (isinstance(value, str) and HOLE in value):
                worker = "<unknown>"
            elif isinstance(value, str) and 0 < len(value) < 226:
                worker = value
    # read on the 2.7-2.10 wheels only: an older release (mindspore-lab/models' marigold pins 2.2.14) is not vouched for
    return [run["folder"].format(worker=worker) + f"  made when the profiler starts (MindSpore {data()['releases']}; "
            "other releases' layout is not read here)",
            f"  {run['prof_dir']}  the collector's NPU data (with NPU among the activities)",
            f"  {run['framework_dir']}  MindSpore's own raw data",
            f"  {run['info']}  the run's settings (with NPU among the activities)",
            f"  {run['output_dir']}  the analysis's output"]


def _folder(ctx, names, kws, cwd: Optional[str]) -> Tuple[Optional[str], str]:
    """The directory the profiler is given: on_trace_ready's dir_name wins over output_path (with a warning),
    output_path defaults to ./data (data/mindspore.json)."""
    from ..checks.mindspore import MODULE
    from .torch_run import _made_by, own_handler
    handler = _made_by(ctx, kws.get("on_trace_ready"))
    if handler is not None and names.of(handler.func) == MODULE + ".tensorboard_trace_handler":
        node = handler.args[0] if handler.args else next((k.value for k in handler.keywords if k.arg == "dir_name"),
                                                         None)
        source = f"tensorboard_trace_handler, line {handler.lineno}"
    elif "on_trace_ready" in kws:
        named = names.of(handler.func) if handler is not None else None
        if named and named.startswith(MODULE + ".") and named.endswith(".tensor_board_trace_handler"):  # 2.5's
            return None, (f"on_trace_ready is {named}, which MindSpore 2.7-2.10 do not have: what it does with the "
                          "data is not followed")
        return None, f"{own_handler(ctx, kws['on_trace_ready'], handler)}: what it does with the data is not followed"
    else:
        node = kws.get("output_path")
        source = "output_path" if node is not None else "output_path's default ./data"
    value = _one(ctx, names, node) if node is not None else "./data"
    if not isinstance(value, str) or value == "unknown":
        return None, f"not known here ({source})"
    if HOLE in value:
        return value, f"{value.replace(HOLE, '<unknown>')} ({source}: partly known only at run time)"
    path = _joined(cwd, value)
    if path is None:
        return None, f"{value} ({source}), relative to {CHDIR}"
    return path, f"{path} ({source})"


def _schedule(ctx, names, node) -> Tuple[Union[None, str, Dict[str, int]], str]:
    """MindSpore's schedule is keyword-only (a positional call raises TypeError: checks/mindspore.py)."""
    from ..checks.framework_values import known
    from ..checks.mindspore import SCHEDULE
    from .torch_run import _made_by
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return None, ""
    made = _made_by(ctx, node)
    if made is None or names.of(made.func) != SCHEDULE or made.args or any(k.arg is None for k in made.keywords):
        return "unknown", ""
    out = {"wait": 0, "active": 1, "warmup": 0, "repeat": 0, "skip_first": 0}
    given = {k.arg: k.value for k in made.keywords if k.arg is not None}     # (none is: checked above)
    if not {"wait", "active"} <= set(given) or not set(given) <= set(out):
        return "unknown", ""
    for name, value_node in given.items():
        values = known(ctx, names, value_node)
        if not values or len(set(map(repr, values))) != 1 or not isinstance(values[0], int) or \
                isinstance(values[0], bool) or values[0] < (1 if name == "active" else 0):
            return "unknown", ""
        out[name] = values[0]
    return out, f"line {made.lineno}"
