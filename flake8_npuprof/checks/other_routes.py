"""The other routes: ProfilingConfig / NPURunConfig / NPUEstimator, npu_resource_init,
environment variables set from Python, TF2 npu_device global options, and the Profiler scope.
Their options go through the same NPP1xx checks as the NpuOptimizer route."""

from __future__ import annotations

import ast
from typing import Dict, Optional

from ..source.code_edits import add_keyword, remove_argument
from ..source.model import Edit, Fix
from ..source.said import Text, aside, clause, logged, said, so
from ..values.ops import Opaque
from ..setups.routes import ENV_MODE, ENV_OPTIONS, RouteSetup, env_sets, last_values, profiler_scopes, profiling_configs, resource_inits, tf2_sets
from ..values.reader import truthy
from .common import check_options_expr, substituted_phrase
from ..source.text import HOLE, is_placeholder
from ..setups.env import mode_problem_text, no_options_in_env
from ..setups.state import NEVER_HANDED
from .wiring import in_profiling_branch
from ..knowledge.collection import substituted_defaults


def check(ctx) -> None:
    for setup in profiling_configs(ctx.sites):
        _estimator_route(ctx, setup)
    for setup in resource_inits(ctx.sites):
        _resource_init_route(ctx, setup)
    env_on = _environment(ctx)
    _tf2(ctx)
    dump_with_profiling(ctx)
    _profiler_scope(ctx, env_on)


def _bool_value(ctx, node, scope, pos):
    """(verdict True/False/None, candidates) for a switch expression."""
    values = ctx.values.scalars(node, scope, pos)
    if not values.candidates:
        return None, ()
    return truthy([v for v in values.candidates]), values.candidates


def _non_bool(candidates, allow_int: bool) -> Optional[object]:
    """The offending value when every candidate is of a type the switch rejects."""
    bad = []
    for v in candidates:
        if isinstance(v, bool):
            return None
        if isinstance(v, int) and allow_int:
            return None
        if isinstance(v, Opaque):
            # object: the flag's `type=` is a function of the script's (str2bool): what it returns is not known
            if v.py_type is bool or v.py_type is object or (allow_int and v.py_type is int):
                return None
            bad.append(v)
            continue
        bad.append(v)
    return bad[0] if bad else None


def _switch(ctx, setup: RouteSetup, allow_int: bool, consequence: Text, advice: str) -> Optional[bool]:
    """enable_profiling of a call route: True/False/None, reporting NPP010 for a value it rejects."""
    if setup.mode is None:
        return False                        # the parameter defaults to False
    verdict, cands = _bool_value(ctx, setup.mode.node, setup.scope, setup.pos)
    bad = _non_bool(cands, allow_int) if cands else None
    if bad is not None:
        ctx.report_node("NPP010", setup.mode.node, said(f"enable_profiling is given {_shown(bad)}", consequence, advice))
        return None
    return verdict


def _not_switched_on(setup: RouteSetup) -> bool:
    """NPP001 for a call route: enable_profiling never given, or False where profiling is evidently
    meant (inside `if args.profiling:`); an explicit, unconditional False parks the options on purpose."""
    return setup.mode is None or in_profiling_branch(setup)


def _shown(value) -> str:
    if isinstance(value, Opaque):
        return f"the value of {value.flag} (a {value.py_type.__name__})"
    return f"{value!r} ({type(value).__name__})"


# ---------------------------------------------------------------- Estimator route

def _estimator_route(ctx, setup: RouteSetup) -> None:
    call = setup.anchor
    legacy_fix = _legacy_fix(ctx, call, setup)
    for k in setup.legacy:
        ctx.report_node("NPP014", k,
                        said(f"ProfilingConfig({k.arg}=...) is the pre-2021 API",
                             "current adapters raise TypeError on it",
                             "describe what to collect in profiling_options (a JSON object) instead"), legacy_fix)
    verdict = _switch(ctx, setup, True, "NPUEstimator copies it into a protobuf bool and raises TypeError",
                      "pass True or False")
    state = ctx.state_of(call)
    if verdict and state is not None and state.why == "never_passed":
        verdict = None                  # NPUEstimator never sees it: NPP006 says so, and nothing else applies
    options = _options_value(setup)
    if options is not None:
        strings = check_options_expr(ctx, options.node, setup.scope, setup.pos, verdict)
        if verdict is False and _not_switched_on(setup):
            ctx.report_node("NPP001", setup.mode.anchor if setup.mode else call.func,
                            said("ProfilingConfig has profiling_options but enable_profiling is off",
                                 "NPUEstimator switches profiling off and the options are ignored",
                                 "pass enable_profiling=True"))
        elif verdict and strings.candidates and all(not c.text.strip() for c in strings.candidates):
            _no_options(ctx, call.func, "ProfilingConfig")
    elif verdict and not setup.legacy:
        assert setup.mode is not None       # (on: enable_profiling is given, it defaults to False)
        _no_options(ctx, setup.mode.anchor, "ProfilingConfig", call if setup.options is None else None)
    state = ctx.state_of(call)           # the model emulate uses (inventory deliveries)
    never = state.why == "never_passed" if state is not None else not ctx.flow.is_consumed(call)
    if never and state is not None and state.detail != NEVER_HANDED:
        ctx.report_node("NPP006", call.func,
                        said(f"this ProfilingConfig is passed to {state.detail}",
                             "the Estimator runs without it and collects nothing",
                             "hand the run config that carries it to the Estimator"))
    elif never:
        ctx.report_node("NPP006", call.func,
                        said("this ProfilingConfig is never passed as NPURunConfig(profiling_config=...)",
                             "the Estimator runs without it and collects nothing", "pass it to NPURunConfig"))


def _legacy_fix(ctx, call: ast.Call, setup: RouteSetup) -> Optional[Fix]:
    """enable_options=[...], fp_point=, bp_point= → the equivalent profiling_options JSON."""
    import json
    if setup.options is not None or not setup.legacy:
        return None
    values = {}
    for k in setup.legacy:
        try:
            values[k.arg] = ast.literal_eval(k.value)
        except (ValueError, SyntaxError):
            return None
    switches = values.get("enable_options", [])
    if isinstance(switches, str):
        switches = [p for p in switches.split(":") if p]
    if not isinstance(switches, (list, tuple)) or not all(isinstance(x, str) for x in switches):
        return None
    options = {"output": "./"}
    for name in switches:
        options["task_trace" if name == "op_trace" else name] = "on"
    if options.get("training_trace") == "on" or "fp_point" in values or "bp_point" in values:
        options["fp_point"] = str(values.get("fp_point", ""))
        options["bp_point"] = str(values.get("bp_point", ""))
    text = json.dumps(options, separators=(",", ":"))
    first, rest = setup.legacy[0], setup.legacy[1:]
    edits = [Edit(ctx.src.node_start(first), ctx.src.node_end(first), f"profiling_options={text!r}")]
    for k in rest:
        edit = remove_argument(ctx.src, call, k)
        if edit is None:
            return None
        edits.append(edit)
    return Fix(tuple(edits), False, "describe the collection in profiling_options")


def _options_value(setup: RouteSetup):
    if setup.options is None:
        return None
    node = setup.options.node
    if isinstance(node, ast.Constant) and node.value is None:
        return None
    return setup.options


def _no_options(ctx, anchor, route: str, call: Optional[ast.Call] = None) -> None:
    fix = None
    if call is not None:
        options, same = substituted_defaults(route, ctx.target.versions)
        edit = add_keyword(ctx.src, call, f"profiling_options='{options}'")
        fix = Fix((edit,), same, "write out the default options") if edit else None
    ctx.report_node("NPP002", anchor,
                    said(f"{route} switches profiling on without profiling_options",
                         substituted_phrase(route, ctx.target.versions), "give the options explicitly"), fix)


# ---------------------------------------------------------------- npu_resource_init

def _resource_init_route(ctx, setup: RouteSetup) -> None:
    call = setup.anchor
    for k in setup.legacy:
        ctx.report_node("NPP014", k,
                        said(f"npu_resource_init({k.arg}=...) is the pre-2021 API",
                             "current adapters raise TypeError on it", "pass profiling_options (a JSON object) instead"))
    verdict = _switch(ctx, setup, False, clause("npu_resource_init accepts only True or False and raises TypeError",
                                                logged(' ("enable_profiling must be True or False")')), "pass a bool")
    options = _options_value(setup)
    if options is not None:
        strings = check_options_expr(ctx, options.node, setup.scope, setup.pos, verdict)
        empty = strings.candidates and all(not c.text.strip() for c in strings.candidates)
        if verdict is False and _not_switched_on(setup):
            ctx.report_node("NPP001", setup.mode.anchor if setup.mode else call.func,
                            said("npu_resource_init gets profiling_options but enable_profiling is off",
                                 "GE is initialised without profiling and the options are ignored",
                                 "pass enable_profiling=True"))
        elif verdict and empty:
            ctx.report_node("NPP002", options.anchor,
                            said("npu_resource_init switches profiling on with empty profiling_options",
                                 "GE usually collects nothing",
                                 "there is no default here, GE falls back to PROFILING_MODE/PROFILING_OPTIONS",
                                 "give the options explicitly"))
    elif verdict:
        assert setup.mode is not None       # (on: enable_profiling is given, it defaults to False)
        ctx.report_node("NPP002", setup.mode.anchor,
                        said("npu_resource_init switches profiling on without profiling_options",
                             clause("it raises ValueError",
                                    logged(" ('profiling_options must be set when use profiling')")),
                             "give the options explicitly"))


# ---------------------------------------------------------------- environment variables

def _environment(ctx) -> bool:
    """Checks of PROFILING_MODE/PROFILING_OPTIONS set from Python; True when the mode is set on.

    The options set in a scope are judged with the mode set in that scope (else at module
    level); a mode the file never sets may come from the launcher, so nothing is assumed. A
    value written over later in the same scope (and whenever it runs) is judged by the last one.
    """
    every = env_sets(ctx.sites)
    sets = last_values(every)
    if not sets:
        return False
    verdict_of = {}                     # id(scope) -> True/False/None ("wrong value" counts as None)
    any_on = False
    modes_in: Dict[int, list] = {}      # id(scope) -> its PROFILING_MODE sets (grouped once: N scopes were N^2)
    for s in sets:
        if s.name == ENV_MODE and s.value is not None:
            modes_in.setdefault(id(s.scope), []).append(s)
    for scope_id, modes in modes_in.items():
        verdict_of[scope_id] = _env_mode(ctx, modes)
        any_on = any_on or verdict_of[scope_id] is True
    meant_in = {scope_id: any(in_profiling_branch(m) for m in modes) for scope_id, modes in modes_in.items()}
    module = id(ctx.sites.module)
    for s in sets:
        if s.name != ENV_OPTIONS or s.value is None:
            continue
        mode_on = verdict_of.get(id(s.scope), verdict_of.get(module))
        strings = check_options_expr(ctx, s.value, s.scope, s.pos, mode_on)
        if mode_on is False and _evidently_meant_on(ctx, s, meant_in):
            ctx.report_node("NPP001", s.anchor,
                            said("PROFILING_OPTIONS is set but PROFILING_MODE is not \"true\" in this profiling "
                                 "branch",
                                 clause("GE reads the options only with PROFILING_MODE=true",
                                        so("nothing is collected")),
                                 'set PROFILING_MODE to "true"'))
        elif mode_on and strings.candidates and all(not c.text.strip() for c in strings.candidates):
            ctx.report_node("NPP002", s.anchor,
                            said("PROFILING_MODE is true with empty PROFILING_OPTIONS",
                                 clause("recent GE substitutes its defaults", aside('output "./"'),
                                        ", older GE silently switches profiling off"), "give the options"))
    if any_on and not any(s.name == ENV_OPTIONS for s in sets) and "PROFILING_OPTIONS" not in ctx.src.text:
        mode = next(s for s in sets if s.name == ENV_MODE and verdict_of.get(id(s.scope)) is True)
        ctx.report_node("NPP002", mode.anchor, no_options_in_env("this script"))
    return any_on


def _evidently_meant_on(ctx, options, meant_in) -> bool:
    """PROFILING_MODE off where profiling is evidently meant (inside `if args.profiling:`). An explicit,
    unconditional off switch beside parked options is deliberate (RULES: not NPP001).
    meant_in: id(scope) -> whether a PROFILING_MODE set of that scope is in a profiling branch."""
    return in_profiling_branch(options) or meant_in.get(id(options.scope), False) or \
        meant_in.get(id(ctx.sites.module), False)


def _env_mode(ctx, modes) -> Optional[bool]:
    """True/False when the PROFILING_MODE values of one scope are known (NPP011 reported here)."""
    texts = set()
    for s in modes:
        strings = ctx.values.strings(s.value, s.scope, s.pos)
        if not strings.candidates:
            return None
        values = {c.text for c in strings.candidates}
        if any(HOLE in t or is_placeholder(t) for t in values):
            return None                 # a template left for a generator: not a value
        texts |= values
        problems = [mode_problem_text(t) for t in sorted(values)]
        if all(problems):
            fix = None
            lit = strings.candidates[0]
            if len(values) == 1 and lit.text.strip().lower() == "true" and lit.runs:
                from ..source.literal_edits import text_edits_to_source
                edits = text_edits_to_source(ctx.src, lit, [(0, len(lit.text), "true")])
                # unsafe: GE reads the written value as off, so the fix switches profiling on
                fix = Fix(tuple(edits), False, 'write "true"') if edits else None
            ctx.report_node("NPP011", s.value, problems[0], fix)
            return None                 # NPP011 already says the options are ignored
    if texts == {"true"}:
        return True
    if "true" not in texts and "dynamic" not in texts:
        return False
    return None


# ---------------------------------------------------------------- TF2 npu_device

def _tf2(ctx) -> None:
    sets = tf2_sets(ctx.sites)
    if not sets:
        return
    for s in sets:
        opened = ctx.model.late.get(id(s.target))      # the same order emulate uses
        if opened is not None:
            line = ctx.src.position(ctx.src.node_start(opened))[0]
            ctx.report_node("NPP012", s.target,
                            said(f"profiling_config.{s.attr} is set after npu.open() (line {line})",
                                 clause("the global options are read when the device opens",
                                        so("this setting is ignored")),
                                 "set it before that call (a later npu.open() for the same device returns the one "
                                 "already open)", lines=(line,)))
    enables = [s for s in sets if s.attr == "enable_profiling"]
    verdicts = set()
    for s in enables:
        verdict, cands = _bool_value(ctx, s.value, s.scope, s.pos)
        bad = _non_bool(cands, allow_int=True) if cands else None
        if bad is not None:
            ctx.report_node("NPP010", s.value,
                            said(f"enable_profiling is given {_shown(bad)}",
                                 clause("npu_device accepts only True or False",
                                        logged(' (TypeError "Expected bool, got ...")')),
                                 "pass a bool"))
            verdict = None
        verdicts.add(verdict)
    mode_on = verdicts.pop() if len(verdicts) == 1 else (False if not enables else None)
    options = [s for s in sets if s.attr == "profiling_options"]
    for s in options:
        strings = check_options_expr(ctx, s.value, s.scope, s.pos, mode_on)
        if mode_on is False and (not enables or any(in_profiling_branch(x) for x in sets)):
            ctx.report_node("NPP001", s.target,
                            said("profiling_config.profiling_options is set but enable_profiling is not switched "
                                 "on", "the options are ignored and nothing is collected",
                                 "set enable_profiling = True"))
        elif mode_on and strings.candidates and all(not c.text.strip() for c in strings.candidates):
            ctx.report_node("NPP002", s.target,
                            said("enable_profiling is on with empty profiling_options", "GE usually collects nothing",
                                 "npu_device has no default for an empty string, GE falls back to the environment",
                                 "give the options"))


# ---------------------------------------------------------------- Profiler scope

def _profiler_scope(ctx, env_on: bool) -> None:
    scopes = profiler_scopes(ctx.sites)
    if not scopes:
        return
    from ..setups.parameter_map import exclusive, npu_setups
    # the guards of every place that switches profiling_mode / PROFILING_MODE on
    switched_on = []                    # (scope, guards) of every place that switches the mode on
    for setup in npu_setups(ctx.sites):
        for p in setup.params.get("profiling_mode", []):
            if p.field != "b":
                continue
            values = ctx.values.scalars(p.value, p.scope, ctx.pos(p.stmt))
            if values.candidates and truthy(values.candidates):
                switched_on.append((p.scope, p.guards))
    if env_on:
        switched_on += [(s.scope, s.guards) for s in env_sets(ctx.sites) if s.name == ENV_MODE]
    for site in scopes:
        # only switches that run with this scope: same function, module level, or a function it
        # calls; and not in a branch that excludes the scope's own branch
        if any(_runs_with(ctx, scope, site.scope) and not exclusive(site.guards, guards)
               for scope, guards in switched_on):
            ctx.report_node("NPP013", site.call.func,
                            said("the Profiler scope is used while profiling_mode / PROFILING_MODE is on",
                                 clause("the adapter stops with InvalidArgument",
                                        logged(' ("profiling_mode ... cannot be set to true when using '
                                               'profiler.Profiler")')), "use one or the other"))


def _runs_with(ctx, scope, user_scope) -> bool:
    """Whether code in `scope` runs along with code in `user_scope` (one call level deep)."""
    if scope is user_scope or scope.kind == "module":
        return True
    func = scope.node
    name = getattr(func, "name", None)
    if name == "__init__" and scope.klass is not None:
        name = scope.klass.node.name        # Trainer() runs Trainer.__init__
    return bool(name) and any(c.scope is user_scope for c in ctx.sites.calls_named(name))


# ---------------------------------------------------------------- NPP202 across one NPURunConfig

def dump_with_profiling(ctx) -> None:
    """NPP202 where one NPURunConfig gets profiling (ProfilingConfig) and a data dump (DumpConfig).

    A dump switched on in the session_config's own NpuOptimizer entry does not count: NPUEstimator
    adds a later NpuOptimizer entry with enable_dump/enable_dump_debug from dump_config (False by
    default), and later entries overwrite earlier keys (tfadapter npu_estimator.py
    __load_graph_optimizers / __load_dump_config)."""
    for site in ctx.flow.consumer_calls():
        if (site.name or "").rsplit(".", 1)[-1] != "NPURunConfig":
            continue
        call, scope, pos = site.call, site.scope, ctx.pos(site.call)
        profiling = _call_arg(ctx, call, "profiling_config", scope, pos, "ProfilingConfig")
        if profiling is None:
            continue
        mode = next((k.value for k in profiling.keywords if k.arg == "enable_profiling"),
                    profiling.args[0] if profiling.args else None)
        if mode is None or _bool_value(ctx, mode, scope, pos)[0] is not True:
            continue
        line = ctx.src.position(ctx.src.node_start(profiling))[0]
        dumps = []
        dump = _call_arg(ctx, call, "dump_config", scope, pos, "DumpConfig")
        guards = ctx.sites.guards_of
        # certain only when the dump is on whenever profiling is (its guards are among profiling's)
        if dump is not None and set(guards.get(id(dump), ())) <= \
                set(guards.get(id(profiling), ())) | set(guards.get(id(call), ())):
            dumps += [(k.arg, k) for k in dump.keywords if k.arg in ("enable_dump", "enable_dump_debug")
                      and _bool_value(ctx, k.value, scope, pos)[0] is True]
        for key, node in dumps:
            ctx.report_node(
                "NPP202", node,
                said(clause("profiling", aside(f"the ProfilingConfig on line {line}"), " and data dump", aside(key),
                            " are both on in this NPURunConfig"), "dumping distorts the timings the profile measures",
                     "profile and dump in separate runs", lines=(line,)))


def _call_arg(ctx, call: ast.Call, keyword: str, scope, pos, callee: str) -> Optional[ast.Call]:
    """The `callee(...)` call given as `keyword=`, directly or through a name bound once to it."""
    from ..source.imports import is_npu
    value = next((k.value for k in call.keywords if k.arg == keyword), None)
    if isinstance(value, ast.Name):
        found = ctx.sites.bindings_at(value.id, scope, pos)
        value = found[0].value if len(found) == 1 else None
    if isinstance(value, ast.Call) and is_npu(ctx.sites, value.func, callee):
        return value
    return None


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    GOOD_OPTIONS, REF_ADAPTER_R111, REF_ENV_MODE, REF_GE_INIT, REF_INIT_SYSTEM, REF_INIT_SYSTEM_80,
    REF_LOCAL_PROFILER, REF_MODELZOO, REF_PROFILER, REF_PROFILING_CONFIG, REF_SESSION_OVERVIEW, REF_TF2, REF_TF2_API,
    REF_TF_APIS, _MODEL_FN, _NPU_ENTRY, _PROFILING, Rule)


def _estimator(profiling_config_line: str, run_config: str) -> str:
    return ("import tensorflow as tf\n"
            "from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig\n"
            "from npu_bridge.estimator.npu.npu_estimator import NPUEstimator\n" + _MODEL_FN +
            profiling_config_line +
            f"run_config = NPURunConfig(\n    model_dir=\"/tmp/model\",\n    save_checkpoints_steps=1000,\n{run_config})\n"
            "estimator = NPUEstimator(model_fn=model_fn, config=run_config)\n")


_PROFILING_CONFIG = ("profiling_config = ProfilingConfig(\n    enable_profiling=True,\n"
                     f"    profiling_options='{GOOD_OPTIONS}')\n")


def _env(mode: str) -> str:
    return ("import os\n\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n"
            f"os.environ[\"PROFILING_MODE\"] = \"{mode}\"\n"
            f"os.environ[\"PROFILING_OPTIONS\"] = '{GOOD_OPTIONS}'\n\n"
            "sess = tf.Session(config=npu_config_proto())\n")


_TF2_SETTINGS = ("npu.global_options().profiling_config.enable_profiling = True\n"
                 f"npu.global_options().profiling_config.profiling_options = '{GOOD_OPTIONS}'\n")


def _tf2_script(before_open: str, after_open: str) -> str:
    return ("import npu_device as npu\nimport tensorflow as tf\n\n" + before_open +
            "npu.open().as_default()\n" + after_open +
            "\nmodel = tf.keras.applications.ResNet50(weights=None)\n")


def _profiler_scope_script(config_lines: str) -> str:
    return ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n"
            "from npu_bridge.profiler.profiler import Profiler\n\n" + _NPU_ENTRY + config_lines +
            "train_op = tf.no_op(name=\"train_step\")\n\n"
            "with tf.Session(config=npu_config_proto(config_proto=config)) as sess:\n"
            "    with Profiler(level=\"L1\", aic_metrics=\"PipeUtilization\", output_path=\"/tmp/prof\"):\n"
            "        sess.run(train_op)\n")


RULES = (
    # also reported by wiring (an NpuOptimizer config handed to nothing)
    Rule(
        code="NPP006",
        name="profiling-config-not-passed",
        summary="a config carrying profiling is built but never handed to a Session / RunConfig / "
                "NPURunConfig / NPUEstimator / init_resource / npu_config_proto / "
                "set_keras_session_npu_config / initialize_system (or a `ProfilingConfig` never passed as "
                "`profiling_config=`)",
        default=True,
        level="warning",
        what="A `ConfigProto` with profiling settings, or a `ProfilingConfig`, that no session, run config, "
             "estimator or NPU helper in the file ever receives, typically because the `profiling_config=` "
             "argument was commented out.",
        why="Profiling settings are GE initialisation options, and GE only sees the config of the first "
            "session or `initialize_system`. A config that is never passed is simply dropped: training runs "
            "normally and no profiling data is written, with nothing in the log to say why.",
        example=_estimator(_PROFILING_CONFIG, "    # profiling_config=profiling_config,\n"),
        fixed=_estimator(_PROFILING_CONFIG, "    profiling_config=profiling_config,\n"),
        fix_safety="none",
        fix_note="No fix: which session or run config should receive the profiling config is a design "
                 "decision the checker cannot make.",
        references=(REF_PROFILING_CONFIG, REF_INIT_SYSTEM, REF_SESSION_OVERVIEW, REF_MODELZOO),
        group="wiring",
        facts=("collection.emulation.already_initialised",),
    ),
    # also reported by shell_env (launchers)
    Rule(
        code="NPP011",
        name="profiling-mode-env-not-true",
        summary="`PROFILING_MODE` environment value that means \"on\" to a reader but is not exactly `true` "
                "(`True`, `TRUE`, `1`, `on`, `yes` all mean off to GE). Values that mean off (`false`, `FALSE`, "
                "`0`, `off`) and unsubstituted template placeholders are not NPP011",
        default=True,
        level="warning",
        what="`PROFILING_MODE` set (from Python or in a shell launcher) to a value meant as on but not the "
             "exact lowercase `true`: `True`, `TRUE`, `1`, `on`, `yes`. Values meant as off (`false`, `FALSE`, "
             "`0`, `off`) are off to GE as well and are not reported; nor are template placeholders left for a "
             "generator (`{PROFILING_MODE}`, `@MODE@`, `${MODE}`), which are not values. A value written over "
             "later in the same scope is judged by the last one.",
        why="GE compares the variable with `true` byte for byte; every other value counts as off. The job "
            "runs normally and the `PROFILING_OPTIONS` next to it are never read, so no data is collected.",
        example=_env("True"),
        fixed=_env("true"),
        fix_safety="unsafe",
        fix_note="Rewrites `True`/`TRUE`-style values to `true` where a literal is assigned to "
                 "`os.environ[...]`: unsafe, since GE reads the written value as off, so the fix switches "
                 "profiling on: a job that collected nothing then profiles every run, and options that were latent "
                 "are read. Applied with `--unsafe-fixes`. No fix for `os.putenv(...)`, for values built at run time, or in a shell launcher "
                 "(`npuprof fix` rewrites Python files only).",
        references=(REF_ENV_MODE, REF_TF_APIS, REF_GE_INIT),
        group="wiring",
        facts=("ge.profiling_mode_env",),
    ),
    Rule(
        code="NPP012",
        name="tf2-profiling-after-npu-open",
        summary="TF2 `global_options().profiling_config` set after `npu.open()` — ignored",
        default=True,
        level="warning",
        what="In a TF2 (`npu_device`) script, `npu.global_options().profiling_config` fields assigned after "
             "`npu.open()` has already run — also when the device is opened at import and the options are set "
             "later in a function (the same execution order `npuprof emulate` follows).",
        why="`npu.open()` initialises the device and GE with the global options as they are at that moment. "
            "Later changes to the profiling config are never applied, so the run collects nothing although "
            "the script appears to enable profiling.",
        example=_tf2_script("", _TF2_SETTINGS),
        fixed=_tf2_script(_TF2_SETTINGS, ""),
        fix_safety="none",
        fix_note="No fix: moving the assignments above `npu.open()` may move them past code they depend on.",
        references=(REF_TF2, REF_TF2_API),
        group="wiring",
        facts=("adapter.tf2_open_reads_options",),
    ),
    Rule(
        code="NPP013",
        name="profiler-scope-with-profiling-mode",
        summary="`npu_bridge` `Profiler` scope used while `profiling_mode`/`PROFILING_MODE` is on — "
                "InvalidArgument at runtime",
        default=True,
        level="error",
        what="A `with Profiler(...)` block from `npu_bridge.profiler` in a script whose session config sets "
             "`profiling_mode` on or whose environment sets `PROFILING_MODE=true`.",
        why="Local (scoped) profiling and global profiling exclude each other: the adapter raises "
            "InvalidArgument (\"'profiling_mode' or env variables 'PROFILING_MODE' cannot be set to true when "
            "using 'profiler.Profiler'\") when the graph runs, and the training step fails.",
        example=_profiler_scope_script(_PROFILING),
        fixed=_profiler_scope_script(""),
        fix_safety="none",
        fix_note="No fix: whether to keep the scoped or the global collection is the user's choice.",
        references=(REF_PROFILER, REF_LOCAL_PROFILER),
        group="wiring",
        facts=("adapter.profiler_scope_exclusive",),
    ),
    # also reported by wiring (the legacy parameter_map keys)
    Rule(
        code="NPP014",
        name="legacy-profiling-api",
        summary="removed pre-2021 API: `ProfilingConfig(enable_options=…, fp_point=…, bp_point=…)`, "
                "`parameter_map[\"fp_point\"]`, …",
        default=True,
        level="error", tags=('deprecated',),
        what="Profiling configured through the interface the adapter dropped at the end of 2020: "
             "`ProfilingConfig` or `npu_resource_init` with `enable_options`, `fp_point`, `bp_point`, or "
             "`parameter_map[\"fp_point\"]`/`[\"bp_point\"]` on the NpuOptimizer.",
        why="Current adapters do not accept those arguments: the constructor raises TypeError for the removed "
            "keywords, and the stray parameter_map keys are no longer read, so the trace points are silently "
            "lost. Options must be one JSON string.",
        example=_estimator(
            "profiling_config = ProfilingConfig(\n    enable_profiling=True,\n"
            "    enable_options=[\"training_trace\", \"task_trace\"],\n"
            "    fp_point=\"resnet_model/conv2d/Conv2D\",\n    bp_point=\"gradients/AddN_70\")\n",
            "    profiling_config=profiling_config,\n"),
        fixed=_estimator(
            "profiling_config = ProfilingConfig(\n    enable_profiling=True,\n"
            "    profiling_options='{\"output\":\"/tmp/prof\",\"training_trace\":\"on\",\"task_trace\":\"on\",'\n"
            "                      '\"fp_point\":\"resnet_model/conv2d/Conv2D\",\"bp_point\":\"gradients/AddN_70\"}')\n",
            "    profiling_config=profiling_config,\n"),
        fix_safety="unsafe",
        fix_note="Rewrites the old arguments into one `profiling_options` JSON string with an `output` "
                 "directory. Unsafe: the output location has to be chosen, and `op_trace` maps only "
                 "approximately to `task_trace`.",
        references=(REF_ADAPTER_R111, REF_INIT_SYSTEM_80, REF_PROFILING_CONFIG, REF_MODELZOO),
        group="wiring",
        facts=("adapter.profiling_config_args", "option_keys.meaning.fp_point"),
    ),
)
