"""A launch whose project profiles with torch_npu.utils.profiler.Profile, the model zoo's step-triggered
profiler: what the launch's environment (PROFILE_TYPE, PROFILE_START_STEP) makes of it.

About 75 ModelZoo-PyTorch projects build `Profile(start_step=int(os.getenv("PROFILE_START_STEP", 10)),
profile_type=os.getenv("PROFILE_TYPE"))`, often in a trainer module the script reaches through a sys.path set at
run time, and their launchers export PROFILE_TYPE only for some arguments (`--profiling=CANN`). So the Profile
calls are looked for in the script, the modules it imports, and then the other Python files under the script's
folder; the outcome per release is the oracle's (checks/torch_npu_utils_profile.py). What torch_npu collects in the
profiled step is not replayed here: a Profile that switches on is said to, with the step and the folder.
"""

from __future__ import annotations

import os
from typing import Dict, List, Optional, Tuple

from ..checks.torch_npu_utils_profile import UNKNOWN, Site, knows, launch_outcome, project_sites
from ..knowledge import torch_npu as T, utils_profile
from ..knowledge.targets import TORCH_NPU_RELEASES
from ..source.imports import qualified
from ..source.text import HOLE



FOUND = " (found under the script's folder, not reached through the imports emulate follows)"


def judge(w, launch, ls, target, environ=None, beside=False) -> Optional[Tuple[str, str, Optional[bool]]]:
    """(verdict, why, profiles) as sequence.Run has them, None when the launch's project builds no Profile or what
    its profile_type is here is not known. environ: the caller's environment (--env), which the launcher inherits.
    A certain answer ("no", "fails") needs the Profile reached through the script's imports for "fails", and no
    other profiling API in the files read for "no"; else the answer is unknown and says why. beside: the script's
    other profiler was replayed (off), so "no" stays "no"."""
    sites, imported, other = project_sites(ls.ctx.filename, ls.ctx.src.text, ls.ctx.tree)
    answer = _judge(w, launch, ls, target, environ, sites, imported) if sites else None
    if answer is None and sites:
        # a Profile whose profile_type this launch leaves open (PROFILE_TYPE set in a branch not decided, a
        # value computed at run time): it may switch on, so never "no profiling setup found"
        here = os.path.dirname(os.path.abspath(ls.ctx.filename))
        at = f"Profile ({_rel(sites[0].path, here)}:{sites[0].line})" + ("" if imported else FOUND)
        return "unknown", f"{at} switches on or not by its profile_type, which is not known in this launch", None
    if answer is None:
        return None
    verdict, why, profiles = answer
    if verdict == "fails" and not imported:
        return "unknown", why, None
    if verdict == "no profiling" and other is not None and not beside:
        # the legacy API in a module the script imports (MAE's engine_pretrain.py): judged with the launch's flags
        from .legacy_api import judge as legacy_judge
        legacy = legacy_judge(ls, other, target, zoo=True) if other else None
        if legacy is not None:
            return legacy[0], f"{why}; {legacy[1]}", legacy[2] if legacy[0] != "no profiling" else profiles
        named = os.path.relpath(other, os.path.dirname(os.path.abspath(ls.ctx.filename))).replace(os.sep, "/") \
            if os.path.isabs(other) else other
        from .launcher import named_line
        return "unknown", f"{why}; but {named} names another profiling API{named_line(other)}, which is not emulated " \
            "here", None
    return verdict, why, profiles


def _judge(w, launch, ls, target, environ, sites: List[Site], imported: bool
           ) -> Optional[Tuple[str, str, Optional[bool]]]:
    kinds, setting, inherited = set(), None, False
    for s in sites:
        if s.type_env is not None:
            setting = launch.command.env.get(s.type_env)
            if setting is not None and HOLE in setting.value:
                return None
            if setting is None and environ is not None and s.type_env in environ:
                inherited = True
                kinds.add(environ[s.type_env])
                continue
            kinds.add(None if setting is None else setting.value)
        elif s.type_value is UNKNOWN:
            return None
        else:
            kinds.add(s.type_value)
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    site = sites[0]
    here = os.path.dirname(os.path.abspath(ls.ctx.filename))
    at = f"Profile ({_rel(site.path, here)}:{site.line}{'' if len(sites) == 1 else f' and {len(sites) - 1} more'})"
    env = site.type_env or "profile_type"
    given = f"{env}={kind}" + (f" ({setting.where(w.root)})" if setting is not None else
                               " (from the environment)" if inherited else "")
    releases = target.torch_npu_releases
    outcome = launch_outcome(kind, releases)
    states = set(outcome.values())
    runs = "" if imported else ", if the code that builds it runs (it is not reached through the imports emulate follows)"
    # a Profile found only by the walk of the script's folder may belong to another program of the project (MindSpeed-MM's
    # evaluate_vlm.py was said to leave an sdxl example's Profile off): the answer says where it was found
    found = "" if imported else FOUND
    if kind is None:
        unset = "in this launch or the environment (--env)" if environ is not None else \
            "in this launch (the caller's environment is not read without --env)"
        return ("no profiling", f"{at}{found} stays off: {env} is not set {unset}, so nothing is collected "
                f"({env}=ASCEND_PROFILER switches it on from torch_npu 6.0)", False)
    if states == {"off"}:
        on_any = [r for r in TORCH_NPU_RELEASES if kind in utils_profile.types(r)]
        if not on_any:
            return ("no profiling", f"{given} reaches {at}{found}, which no torch_npu release switches on for "
                    f"(profile_type is compared exactly): nothing is collected", False)
        return ("no profiling", f"{given} reaches {at}{found}, which torch_npu {T.span(releases)} never switches on for (it "
                f"knows only {knows(releases)}): nothing is collected", False)
    if states == {"raises"}:
        return ("fails", f"{given} makes {at} raise TypeError (it builds torch.autograd.profiler.profile with "
                "use_npu=, which torch's profiler does not take): the job stops there" + runs, True)
    if states <= {"raises", "build"}:
        from ..knowledge.torch_npu import use_npu_builds
        kept = use_npu_builds()
        builds = "; ".join(f"on torch_npu {r}, {kept[r]} take it" for r in releases if outcome[r] == "build")
        failing = [r for r in releases if outcome[r] == "raises"]
        return ("unknown", f"depends on the torch_npu build: {given} makes {at} build torch.autograd.profiler.profile "
                f"with use_npu=, which only torch_npu's own profile takes ({builds}); stock torch's profile, on "
                + (f"torch_npu {T.span(failing)} and " if failing else "") + "the other builds, raises TypeError and "
                "the job stops there" + runs, None)
    if states == {"on"}:
        step = _step(site, launch, w, environ)
        # the script may stop first (DynamicUNet: `if iteration > self.args.stop_step and ...: sys.exit()` before
        # profiler.start(), with --stop_step 5: Profile's step 10 never comes)
        first = ends_first(ls.ctx, site, launch, environ) if len(sites) == 1 else None
        if first:
            return ("no profiling", f"{at} switches on with {given}{runs} to profile {step}, but {first}: nothing is "
                    "collected", False)
        return ("unknown", f"{at} switches on with {given}{runs}: it profiles {step} into "
                f"{_folder(site)} if the job gets that far (the steps it runs are not counted here), then ends the "
                "job with sys.exit(); what torch_npu collects in that step is not replayed here", True)
    on = [r for r in releases if outcome[r] == "on"]
    off = [r for r in releases if outcome[r] != "on"]
    return ("unknown", f"depends on the torch_npu release: {at}{found} with {given} switches on with torch_npu "
            f"{T.span(on)} and never with torch_npu {T.span(off)} (it knows only {knows(off)})", None)


def _step(site: Site, launch, w, environ=None) -> str:
    if site.step_env is not None:
        setting = launch.command.env.get(site.step_env)
        if setting is None and environ is not None and site.step_env in environ:
            value = environ[site.step_env]
            return f"its step {int(value)} ({site.step_env}, from the environment)" if value.strip().isdigit() \
                else f"the step {site.step_env} names"
        if setting is None:
            return f"its step 10 ({site.step_env} is not set: its default)"
        if HOLE not in setting.value and setting.value.strip().isdigit():
            return f"its step {int(setting.value)} ({site.step_env}, {setting.where(w.root)})"
        return f"the step {site.step_env} names"
    if isinstance(site.step_value, int) and not isinstance(site.step_value, bool):
        return f"its step {site.step_value} (start() calls counted from 1)"
    return "the step its start_step names"


def _step_number(ctx, call, launch, environ=None) -> Optional[int]:
    """The start() call the Profile built by `call` profiles (counted from 1), as _step says it: its start_step, a
    constant or `int(os.getenv("PROFILE_START_STEP", 10))` read from the launch (the caller's environment only with
    --env, else taken as not setting it); None when not known or when the default written is not Profile's own 10."""
    import ast
    node = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "start_step"), None)
    if node is None:
        return utils_profile.data()["defaults"]["start_step"]
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, int) and not isinstance(node.value, bool) else None
    read = node.args[0] if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int" \
        and len(node.args) == 1 and not node.keywords else None
    if not (isinstance(read, ast.Call) and len(read.args) == 2 and not read.keywords and
            isinstance(read.args[0], ast.Constant) and isinstance(read.args[0].value, str) and
            isinstance(read.args[1], ast.Constant) and
            read.args[1].value in (utils_profile.data()["defaults"]["start_step"], "10") and
            qualified(ctx.sites, read.func) in ("os.getenv", "os.environ.get")):
        return None
    name = read.args[0].value
    setting = launch.command.env.get(name)
    text = setting.value if setting is not None else environ[name] if environ is not None and name in environ \
        else str(read.args[1].value)
    return int(text) if HOLE not in text and text.strip().isdigit() else None


def ends_first(ctx, site: Site, launch, environ=None) -> str:
    """How the launched script ends the job before Profile's `step`-th start() call, said as a clause; "" when it is
    not shown to. Shown only for the loop the model zoo writes: the Profile built in a function of the launched
    script and started once per pass of one `for i, ... in enumerate(...)` loop at that function's top level (its
    name used only for start() and end()), where a test at the loop body's top level, before the start(), calls
    sys.exit() when `i > N` (or `i >= N`, `i` counted from enumerate's start, maybe plus one first) and terms the
    launch makes true: the start() calls before it are fewer than `step`, whatever else the loop skips."""
    import ast
    from ..checks.launch_setup import scalars
    from ..values.ops import Opaque
    if ctx.resolver.given is None or os.path.abspath(site.path) != os.path.abspath(ctx.filename):
        return ""
    made = next((n for n in ast.walk(ctx.tree) if isinstance(n, ast.Assign) and n.lineno == site.line and
                 len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Call)), None)
    func = next((f for f in ast.walk(ctx.tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and
                 made in f.body), None) if made is not None else None
    step = _step_number(ctx, made.value, launch, environ) if func is not None and made is not None else None
    if func is None or made is None or step is None:
        return ""
    var = made.targets[0].id                            # type: ignore[attr-defined]
    uses = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == var]
    parents: Dict[int, ast.AST] = {id(c): p for p in ast.walk(func) for c in ast.iter_child_nodes(p)}

    def method_call(n: ast.AST, names: Tuple[str, ...]) -> Optional[ast.AST]:
        """The call `var.start()` (a method in names) that the use `n` of the name is the receiver of, else None."""
        up = parents.get(id(n))
        if isinstance(up, ast.Attribute) and up.attr in names and isinstance(parents.get(id(up)), ast.Call):
            return parents[id(up)]
        return None
    starts = [c for c in (method_call(n, ("start",)) for n in uses) if c is not None]
    others = [n for n in uses if n is not made.targets[0] and method_call(n, ("start", "end")) is None]
    loop = next((s for s in func.body[func.body.index(made) + 1:] if isinstance(s, ast.For) and
                 any(isinstance(b, ast.Expr) and b.value in starts for b in s.body)), None)
    if others or len(starts) != 1 or loop is None:
        return ""       # (the loop is a statement of the function's body: no try or with of it holds the exit)
    counted = _counter(loop)
    if counted is None:
        return ""
    name, first_value, bumped = counted
    k_start = next(k for k, b in enumerate(loop.body) if isinstance(b, ast.Expr) and b.value in starts)
    for stmt in loop.body[bumped:k_start]:
        if not (isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1 and
                isinstance(stmt.body[0], ast.Expr) and _exits(ctx, stmt.body[0].value)):
            continue
        test = stmt.test
        terms = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
        bound = terms[0]
        if not (isinstance(bound, ast.Compare) and len(bound.ops) == 1 and isinstance(bound.ops[0], (ast.Gt, ast.GtE))
                and isinstance(bound.left, ast.Name) and bound.left.id == name):
            continue
        pos = ctx.pos(stmt)
        scope = ctx.sites.scope_of.at(bound.left, ctx.sites.module)    # (an expression's: the function's)
        limit = ctx.values.scalars(bound.comparators[0], scope, pos).candidates
        if len(limit) != 1 or not isinstance(limit[0], int) or isinstance(limit[0], bool):
            continue
        held = [scalars(ctx, t, scope, pos) for t in terms[1:]]
        if not all(v and all(x is not None and not isinstance(x, Opaque) and bool(x) for x in v) for v in held):
            continue
        # pass k (from 1) has i = first + k - 1 + bumped; it ends the job at the first k where the bound holds
        k_exit = limit[0] - first_value - bumped + (2 if isinstance(bound.ops[0], ast.Gt) else 1)
        k_exit = max(k_exit, 1)
        if step < k_exit:
            return ""
        text = ast.get_source_segment(ctx.src.text, test) or ast.unparse(test)
        return (f"{os.path.basename(ctx.filename)}:{stmt.lineno} ends the job with sys.exit() before the start() of "
                f"pass {k_exit} of the loop on line {loop.lineno} (`{text}` holds there in this launch, "
                f"{_bound_origin(ctx, bound.comparators[0], limit[0])}), so start() is called at most "
                f"{k_exit - 1} time{'s' if k_exit != 2 else ''}")
    return ""


def _counter(loop) -> Optional[Tuple[str, int, int]]:
    """(name, its value in the first pass, 1 when the body's first statement adds one to it) for
    `for i, ... in enumerate(x[, start])`, the name bound nowhere else in the loop; else None."""
    import ast
    it, target = loop.iter, loop.target
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate" and
            1 <= len(it.args) <= 2 and not any(k.arg != "start" for k in it.keywords)):
        return None
    start = it.args[1] if len(it.args) > 1 else next((k.value for k in it.keywords), None)
    if start is not None and not (isinstance(start, ast.Constant) and isinstance(start.value, int) and
                                  not isinstance(start.value, bool)):
        return None
    first = start.value if isinstance(start, ast.Constant) and isinstance(start.value, int) else 0
    name = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
    if not isinstance(name, ast.Name):
        return None
    head = loop.body[0] if loop.body else None
    bumped = 0
    if isinstance(head, ast.Assign) and len(head.targets) == 1 and isinstance(head.targets[0], ast.Name) and \
            head.targets[0].id == name.id and ast.dump(head.value) in (
                ast.dump(ast.BinOp(ast.Name(name.id, ast.Load()), ast.Add(), ast.Constant(1))),
                ast.dump(ast.BinOp(ast.Constant(1), ast.Add(), ast.Name(name.id, ast.Load())))) or \
            isinstance(head, ast.AugAssign) and isinstance(head.target, ast.Name) and head.target.id == name.id and \
            isinstance(head.op, ast.Add) and isinstance(head.value, ast.Constant) and head.value.value == 1 and \
            type(head.value.value) is int:
        bumped = 1
    for stmt in loop.body[bumped:]:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and n.id == name.id and not isinstance(n.ctx, ast.Load) or \
                    isinstance(n, (ast.Global, ast.Nonlocal)) and name.id in n.names:
                return None
    return name.id, first, bumped


def _exits(ctx, call) -> bool:
    """`sys.exit(...)`, sys the module."""
    import ast
    return isinstance(call, ast.Call) and qualified(ctx.sites, call.func) == "sys.exit"


def _bound_origin(ctx, expr, value: int) -> str:
    """Where the loop's bound comes from: the flag the launch passes (or its default), else its value."""
    import ast
    given = ctx.resolver.given or {}
    attr = expr.attr if isinstance(expr, ast.Attribute) else None
    g = given.get(attr) if attr else None
    if g is not None:
        return f"{ast.unparse(expr)} is {value}: {g.option} {g.text} from {g.where}"
    return f"{ast.unparse(expr)} is {value}"


def _folder(site: Site) -> str:
    if isinstance(site.save_path, str):
        return f"{site.save_path} (under the job's working directory)" if not os.path.isabs(site.save_path) \
            else site.save_path
    return "its save_path"


def _rel(path: str, folder: str) -> str:
    """A path as seen from the script's folder (the project's modules are below it)."""
    rel = os.path.relpath(path, folder)
    return (path if rel.startswith("..") else rel).replace(os.sep, "/")
