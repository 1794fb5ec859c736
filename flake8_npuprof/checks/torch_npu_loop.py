"""The training loop around torch_npu's profiler (NPP305, NPP306): a scheduled profiler that is never stepped,
and a schedule whose record steps come after the last step of a loop of known length. One walk of the file
indexes what these checks ask (`index`), whatever the number of profilers.
"""

from __future__ import annotations

import ast
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..knowledge import torch_npu as K
from ..source.said import aside, clause, so
from .framework_values import known as _known
from .torch_npu_report import (CHECKED as _CHECKED, GOOD as _GOOD, PROFILE_EXAMPLE as _PROFILE, REF_GUIDE, SCHEDULE, Names,
                               every as _every, report as _report, script as _script)


def _schedule_of(ctx, names: Names, node: ast.AST) -> Optional[ast.Call]:
    if isinstance(node, ast.Call) and names.of(node.func) == SCHEDULE:
        return node
    if isinstance(node, ast.Name):
        found = index(ctx.tree).assigned.get(node.id, [])
        if len(found) == 1 and isinstance(found[0], ast.Call) and names.of(found[0].func) == SCHEDULE:
            return found[0]
    return None


def _steps(ctx, names: Names, sched: ast.Call) -> Optional[Dict[str, int]]:
    """The schedule's values as ints (defaults filled in), or None when one is unknown or gets reset."""
    data = K.data()["schedule"]
    if any(k.arg is None or k.arg == "skip_first_wait" for k in sched.keywords) or len(sched.args) > 5:
        return None
    given = dict(zip(data["positional"], sched.args))
    given.update((k.arg, k.value) for k in sched.keywords)
    out = {"wait": 0, "active": 1, "warmup": 0, "repeat": 0, "skip_first": 0}
    for name, node in given.items():
        values = _known(ctx, names, node)
        if not values or len(set(map(repr, values))) != 1 or not isinstance(values[0], int) or \
                isinstance(values[0], bool) or values[0] < (1 if name == "active" else 0):
            return None
        out[name] = values[0]
    return out if "wait" in given and "active" in given else None


NOTHING = clause("collects nothing and says nothing", aside("the schedule never leaves its wait steps"))
DELETED = "ends in its warmup steps and deletes the data, with a warning"
# 6.0.rc1 starts collecting at the warmup steps (6.0.rc3 on, at the record steps): its run ends collecting
# 5.0.rc3 too starts collecting at the warmup steps; it is not counted as failing (the data it keeps was not read)
WARMUP_50 = {"5.0": clause("starts collecting in the warmup steps and stops at exit, with a Python warning",
                           aside("5.0.rc3; later 5.0 builds were not recorded"))}
DELETED_60 = clause("depends on the build", aside("6.0.rc1 starts collecting in the warmup steps and stops at exit "
                                                  "without calling on_trace_ready, with a warning; 6.0.rc3 and 6.0.0 "
                                                  "end in their warmup steps and delete the data, with a warning"))


def _steps_of(ctx, names: Names, call: ast.Call) -> Optional[Dict[str, int]]:
    kw = next((k for k in call.keywords if k.arg == "schedule"), None)
    sched = _schedule_of(ctx, names, kw.value) if kw else None
    return _steps(ctx, names, sched) if sched is not None else None


def _no_step(ctx, call: ast.Call, var: Optional[str], first: int, record: int, started: bool) -> None:
    """NPP305 for a scheduled profiler never stepped. started: it is run by start()/stop(), which 5.0 ran
    whatever the schedule said; with `with`, 5.0 too asked the schedule (what it did in warmup was not read)."""
    if first > 0:
        reactions = _every(NOTHING)
    elif record > 0:
        reactions = _every(DELETED)
        reactions["5.0"] = None
        reactions["6.0"] = DELETED_60
    else:
        return
    if started:
        reactions["5.0"] = None
    name = var or "prof"
    _report(ctx, "NPP305", call, f"profile(schedule=...) whose {'run' if started else 'loop'} never calls "
            f"{name}.step()", reactions, f"call {name}.step() at the end of each training step" +
            ("" if var else " (bind the profiler with `as prof`)"),
            fine_as=WARMUP_50 if first == 0 and record > 0 and not started else None)


def loops(ctx, names: Names, profiles: List[ast.Call]) -> None:
    """NPP305 (no prof.step() for a scheduled profiler) and NPP306 (the loop ends before the active steps)."""
    ids = {id(p) for p in profiles}
    for item, withnode in _with_items(ctx.tree):
        call = item.context_expr
        if id(call) not in ids:
            continue
        steps = _steps_of(ctx, names, call)
        if steps is None:
            continue
        first = steps["skip_first"] + steps["wait"]
        record = first + steps["warmup"]
        var = item.optional_vars.id if isinstance(item.optional_vars, ast.Name) else None
        loops = [n for stmt in withnode.body for n in ast.walk(stmt) if isinstance(n, (ast.For, ast.While,
                                                                                       ast.AsyncFor))]
        if not loops:
            continue
        if var is None or not _stepped(ctx.tree, var):
            if var is None or not escapes(ctx.tree, var):
                _no_step(ctx, call, var, first, record, started=False)
            continue
        _reach(ctx, names, var, withnode, steps, first, record)
    # `prof = profile(schedule=...)` run by prof.start() ... prof.stop()
    for var, values in index(ctx.tree).assigned.items():
        for value in values:
            if id(value) in ids:
                _started_no_step(ctx, names, var, value)
                _never_started(ctx, var, value)


# how a `prof = profile(...)` that is never started runs (lifetime()): the record's lifecycle.never_started_*
NEVER = "never"                         # not started, and nothing it does starts it: nothing is collected
STEPPED = "stepped"                     # not started, stepped with a schedule: step() runs the schedule's actions
STARTED = "started"                     # start(), __enter__() or `with` in this file
ELSEWHERE = "elsewhere"                 # passed on, an attribute taken, or a name other modules reach: not known


def lifetime(ctx, var: str, call: ast.Call) -> str:
    """How `var = profile(...)` runs. Never started (no `var.start()`, `var.__enter__()` or `with var:`, no
    attribute of it but calls such as `var.step()`, not passed on, stored or returned, and local to a function or
    to a script with a main guard, so no other module can start it): torch_npu never initialises its
    collector, so nothing is collected; `var.step()` alone starts nothing when profile() has no schedule
    (every step is RECORD: step() moves RECORD to RECORD, which does nothing), but with a schedule step() runs
    its actions (init at the warmup step, start at the record step) as a started profiler's would."""
    tree = ctx.tree
    if _started(tree, var):
        return STARTED
    if escapes(tree, var) or not _owned_here(tree, var, call) or _attribute_taken(tree, var):
        return ELSEWHERE
    if not _stepped(tree, var):
        return NEVER
    if any(k.arg is None for k in call.keywords) or call.args:
        return ELSEWHERE                # a schedule may come in **kwargs: not known
    sched = next((k.value for k in call.keywords if k.arg == "schedule"), None)
    if sched is None or (isinstance(sched, ast.Constant) and sched.value is None):
        return NEVER
    return STEPPED


def _owned_here(tree, var: str, call: ast.Call) -> bool:
    """Whether the name the profiler is bound to is no other module's: a function's local (no `global` or
    `nonlocal` for it), or a module-level name of a script with a main guard."""
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(n is call for n in ast.walk(fn)):
            return not any(isinstance(n, (ast.Global, ast.Nonlocal)) and var in n.names for n in ast.walk(fn))
    return any(isinstance(n, ast.If) and _main_guard(n.test) for n in getattr(tree, "body", ()))


def _main_guard(test) -> bool:
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__" and \
        len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant) and \
        test.comparators[0].value == "__main__"


def _attribute_taken(tree, var: str) -> bool:
    """Whether an attribute of the profiler is read other than to be called (`hooks.append(prof.start)`: then
    someone may start it)."""
    parents = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == var:
            parents[id(n)] = n
    if not parents:
        return False
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return any(key not in called for key in parents)


def _never_started(ctx, var: str, call: ast.Call) -> None:
    """NPP315: `var = profile(...)` that nothing starts."""
    if lifetime(ctx, var, call) != NEVER:
        return
    stepped = _stepped(ctx.tree, var)
    head = clause(f"{var} = profile(...) is never started", aside(f"no {var}.start(), no `with {var}:`"),
                  f"; {var}.step() alone does not start a profiler without a schedule" if stepped else "")
    _report(ctx, "NPP315", call, head, _every(STARTS_NOTHING),
            f"profile with `with torch_npu.profiler.profile(...) as {var}:` around the training loop, or call "
            f"{var}.start() before it and {var}.stop() after it")


STARTS_NOTHING = clause("never initialises its collector", so("nothing is collected"))


def _started_no_step(ctx, names: Names, var: str, call: ast.Call) -> None:
    """NPP305 for `var = profile(schedule=...)` run by var.start() and never stepped."""
    if _stepped(ctx.tree, var) or escapes(ctx.tree, var) or not _started(ctx.tree, var):
        return
    steps = _steps_of(ctx, names, call)
    if steps is not None:
        first = steps["skip_first"] + steps["wait"]
        _no_step(ctx, call, var, first, first + steps["warmup"], started=True)


class _Index(NamedTuple):
    """What the loop and lifetime checks ask of a file, from one walk: per name, whether `name.step` appears,
    whether `name.start()`/`name.__enter__()` is called, whether a load of it escapes; the with items; the
    single-name assignments; and where each call is used (with item or assignment)."""
    stepped: set
    started: set
    escaping: set
    withs: list                         # (item, with node) whose context is a call
    assigned: Dict[str, list]           # name -> the values assigned to it alone
    owner: Dict[int, ast.AST]           # id(call) -> the with item or the Assign that holds it


_LAST: list = [None, None]              # the last tree indexed and its index (one file at a time)


def index(tree) -> _Index:
    if _LAST[0] is tree:
        return _LAST[1]
    stepped, started, escaping, withs = set(), set(), set(), []
    assigned: Dict[str, list] = {}
    owner: Dict[int, ast.AST] = {}
    parents: Dict[ast.AST, ast.AST] = {}
    nodes = []
    for n in ast.walk(tree):
        nodes.append(n)
        for c in ast.iter_child_nodes(n):
            parents[c] = n
    for n in nodes:
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.attr == "step":
            stepped.add(n.value.id)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                n.func.attr in ("start", "__enter__") and isinstance(n.func.value, ast.Name):
            started.add(n.func.value.id)
        elif isinstance(n, (ast.With, ast.AsyncWith)):
            for item in n.items:
                if isinstance(item.context_expr, ast.Call):
                    withs.append((item, n))
                owner.setdefault(id(item.context_expr), item)
        elif isinstance(n, ast.Assign):
            owner.setdefault(id(n.value), n)
            if len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                assigned.setdefault(n.targets[0].id, []).append(n.value)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in escaping:
            up = parents.get(n)
            if not isinstance(up, _TESTS) or (isinstance(up, ast.IfExp) and n is not up.test):
                escaping.add(n.id)
    _LAST[:] = [tree, _Index(stepped, started, escaping, withs, assigned, owner)]
    return _LAST[1]


def _with_items(tree):
    yield from index(tree).withs


def _step_call(node, var: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "step" and \
        isinstance(node.func.value, ast.Name) and node.func.value.id == var


def _stepped(tree, var: str) -> bool:
    """Whether `var.step` appears anywhere in the file (any scope: quiet when in doubt)."""
    return var in index(tree).stepped


def _started(tree, var: str) -> bool:
    return var in index(tree).started


# where a load of the profiler's name only tests it (`if prof:`, `prof is not None`): it stays here
_TESTS = (ast.Attribute, ast.Compare, ast.If, ast.While, ast.BoolOp, ast.UnaryOp, ast.IfExp, ast.Assert)


def escapes(tree, var: str) -> bool:
    """Whether the profiler's name is used other than as `var.attr` or in a test (passed on, stored,
    returned: then someone else may step it)."""
    return var in index(tree).escaping


def _reach(ctx, names: Names, var: str, withnode, steps: Dict[str, int], first: int, record: int) -> None:
    """NPP306: a `for ... in range(N)` that steps the profiler once per iteration ends before the record steps."""
    for stmt in withnode.body:
        for loop in ast.walk(stmt):
            if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call) or \
                    not isinstance(loop.iter.func, ast.Name) or loop.iter.func.id != "range":
                continue
            if _inside_loop(withnode, loop):
                continue
            direct, nested = _step_calls(loop, var)
            if direct != 1 or nested:
                continue
            bounds = [_known(ctx, names, a) for a in loop.iter.args]
            if not bounds or len(bounds) > 2 or loop.iter.keywords or any(
                    not b or len(b) != 1 or not isinstance(b[0], int) or isinstance(b[0], bool) for b in bounds):
                continue
            ints = [b[0] for b in bounds if b]     # (every one is: checked above)
            n = max(0, ints[-1] - (ints[0] if len(ints) == 2 else 0))
            if n >= record:
                continue
            sched = (f"skip_first={steps['skip_first']} + wait={steps['wait']}" +
                     (f" + warmup={steps['warmup']}" if steps["warmup"] else ""))
            reactions = _every("collects nothing and says nothing" if n < first else DELETED)
            if n >= first:
                reactions["5.0"] = None         # what 5.0 did when stopped in warmup was not read
                reactions["6.0"] = DELETED_60
            _report(ctx, "NPP306", loop.iter, clause(f"the schedule records from step {record}", aside(sched),
                                                     f", but this loop calls {var}.step() only {n} "
                                                     f"time{'s' if n != 1 else ''}"), reactions,
                    "lower wait/skip_first/warmup or run more steps", fine_as=WARMUP_50 if n >= first else None)


def _inside_loop(withnode, loop) -> bool:
    """Whether `loop` is nested in another loop inside the with block (its step count would multiply)."""
    for stmt in withnode.body:
        for outer in ast.walk(stmt):
            if outer is not loop and isinstance(outer, (ast.For, ast.While, ast.AsyncFor)) and \
                    any(n is loop for n in ast.walk(outer)):
                return True
    return False


def _step_calls(loop, var: str) -> Tuple[int, bool]:
    """(prof.step() calls directly in the loop's body, whether any sits in a nested loop or function)."""
    direct, nested = 0, False
    stack = [(s, False) for s in loop.body + loop.orelse]
    while stack:
        node, deep = stack.pop()
        if _step_call(node, var):
            if deep:
                nested = True
            else:
                direct += 1
        inner = deep or isinstance(node, (ast.For, ast.While, ast.AsyncFor, ast.FunctionDef, ast.AsyncFunctionDef,
                                          ast.Lambda, ast.ListComp, ast.GeneratorExp))
        stack.extend((c, inner) for c in ast.iter_child_nodes(node))
    return direct, nested



# ---------------------------------------------------------------- the pages of the codes reported here

from .rule import Rule  # noqa: E402

_NEVER_STARTED = """\
def train(steps):
    prof = torch_npu.profiler.profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.NPU],
        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"),
        experimental_config=experimental_config)
    for step in range(steps):
        train_one_step()
"""
_STARTED = _NEVER_STARTED.replace("    for step", "    prof.start()\n    for step") + "    prof.stop()\n"
_LEVEL1 = "    profiler_level=ProfilerLevel.Level1,\n    aic_metrics=AiCMetrics.PipeUtilization,\n"

RULES = (
    Rule(
        code="NPP315",
        name="torch-npu-never-started",
        summary="`prof = torch_npu.profiler.profile(...)` that is never started (no `prof.start()`, no `with`): "
                "torch_npu collects nothing",
        default=True,
        level="warning",
        what="A `torch_npu.profiler.profile(...)` bound to a name that nothing starts: no `prof.start()`, "
             "`prof.__enter__()` or `with prof:` anywhere in the file, the profiler not passed on, stored or "
             "returned, no attribute of it taken other than to call it, and the name local to a function (or a "
             "script's, with a main guard), so no other module can start it. A `prof.step()` with a `schedule` "
             "runs the schedule's actions, which start it: that is not reported.",
        why="Building the profiler configures it; only `start()` (which `with` calls) or a scheduled `step()` "
            "initialises the collector. A profiler that is only built collects nothing, and torch_npu says "
            "nothing about it; without a schedule, `prof.step()` moves from one record step to the next and starts "
            "nothing either. When the object is freed, torch_npu stops the profiler it never started and calls "
            "on_trace_ready on no data (with a warning that the data may be incomplete, where warnings show).",
        example=_script(_LEVEL1, _NEVER_STARTED),
        fixed=_script(_LEVEL1, _STARTED),
        fix_safety="none",
        fix_note="No fix: where profiling starts and stops is the author's to say.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.profile.lifecycle",),
    ),
    Rule(
        code="NPP305",
        name="torch-npu-no-step",
        summary="`with profile(schedule=...)` around a loop that never calls `prof.step()`: torch_npu collects "
                "nothing and says nothing",
        default=True,
        level="warning",
        what="A `with torch_npu.profiler.profile(schedule=...) as prof:` block with a loop in it, or a "
             "`prof = profile(schedule=...)` run by `prof.start()`/`prof.stop()`, where `prof.step()` is called "
             "nowhere in the file and the profiler is not passed on, and the schedule starts with wait (or "
             "skip_first) or warmup steps.",
        why="The schedule advances only on `prof.step()`. Without it the profiler stays at step 0: in its wait "
            "steps nothing is ever recorded and nothing is printed; in its warmup steps (6.0+) it warns at exit "
            "and deletes the data. (5.0's `start()` started collecting whatever the schedule said, so the "
            "start()/stop() form is reported for 6.0 and later.)",
        example=_script("    profiler_level=ProfilerLevel.Level1,\n", _PROFILE.replace("        prof.step()\n", "")),
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: where a training step ends is the author's to say.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.schedule.actions",),
    ),
    Rule(
        code="NPP306",
        name="torch-npu-schedule-never-records",
        summary="a schedule whose record steps come after the last step of a loop of known length: torch_npu "
                "collects nothing and says nothing",
        default=True,
        level="warning",
        what="A `for ... in range(N)` loop inside `with profile(schedule=...) as prof:` that calls `prof.step()` "
             "once per iteration, where N (a constant, a name or an argparse default) is at most "
             "skip_first + wait + warmup.",
        why="The profiler starts recording only at step skip_first + wait + warmup. A loop that ends first "
            "leaves it in its wait steps (no data, no message) or in its warmup steps (a warning at exit, and the "
            "data is deleted).",
        example=_script("    profiler_level=ProfilerLevel.Level1,\n",
                        _PROFILE.replace("range(10)", "range(5)").replace("wait=1", "wait=5")),
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: shorten the schedule or run more steps.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="torch_npu",
        facts=("torch_npu.schedule.actions",),
    ),
)
