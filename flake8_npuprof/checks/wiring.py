"""NPP0xx wiring of the NpuOptimizer route: is the switch on, and does the config reach GE?"""

from __future__ import annotations

import ast
from typing import List, Optional

from ..setups.flow import HELPERS, Flow, has_keyword, helper_config_arg
from ..source.code_edits import add_keyword, insert_before, source_of
from ..source.model import Edit, Fix
from ..source.said import clause, said, so
from ..setups.parameter_map import Setup, entry_expr, npu_setups
from ..setups.state import NEVER_HANDED
from ..values.reader import truthy
from .npu_optimizer import mode_values

# parameter_map keys of the adapter before 2021-01 that it no longer reads
LEGACY_PARAMS = {"fp_point": "the point", "bp_point": "the point", "enable_options": "the option list"}
POINT_KEYS = ("fp_point", "bp_point")


def check(ctx) -> None:
    flow = ctx.flow
    setups = [s for s in npu_setups(ctx.sites) if not all(e.orphan for e in s.entries)]
    for setup in setups:
        _switch_off(ctx, setup)
        _legacy_params(ctx, setup)
    _delivery(ctx, flow, setups)
    _keras_vs_init_resource(ctx, flow, setups)


def carries_profiling(setup: Setup) -> bool:
    return bool(setup.params.get("profiling_mode") or setup.params.get("profiling_options"))


# ---------------------------------------------------------------- NPP001

def _switch_off(ctx, setup: Setup) -> None:
    options = [p for p in setup.params.get("profiling_options", []) if p.field == "s"]
    if not options or any(p.field == "b" for p in setup.params.get("precision_mode", [])):
        return                          # NPP004 already says precision_mode.b was meant as the switch
    modes = setup.params.get("profiling_mode", [])
    if not modes:
        if any(e.used_elsewhere for e in setup.entries):
            return                      # the switch may be set where the entry went
        p = options[-1]
        entry = source_of(ctx.src, entry_expr(p))
        edit = insert_before(ctx.src, p.stmt, f'{entry}.parameter_map["profiling_mode"].b = True')
        ctx.report_node("NPP001", p.target,
                        said("profiling_options are set but profiling_mode is never switched on for this config",
                             clause("the adapter forwards no profiling",
                                    so("the options are ignored and nothing is collected")),
                             'add parameter_map["profiling_mode"].b = True'),
                        Fix((edit,), False, "switch profiling_mode on") if edit else None)
        return
    values = mode_values(ctx, setup)
    if values is None or truthy(values) is not False:
        return
    p = modes[-1]
    inside = in_profiling_branch(p)
    if not inside and p.field == "b" and not any(in_profiling_branch(o) for o in options):
        return                          # an explicit off switch beside parked options: deliberate
    where = " inside the profiling branch" if inside else ""
    fix = None
    if isinstance(p.value, ast.Constant) and p.field == "b":
        fix = Fix((Edit(ctx.src.node_start(p.value), ctx.src.node_end(p.value), "True"),), False,
                  "switch profiling_mode on")
    ctx.report_node("NPP001", p.value if p.field == "b" else p.target,
                    said(f"profiling_mode is off{where} while profiling_options are set", "nothing is collected",
                         "the adapter drops the options (environment variables can still switch profiling on with "
                         "other options)", "set it to True"), fix)


def in_profiling_branch(p) -> bool:
    """Whether a setting sits in a branch taken when profiling is wanted (`if args.profiling:`)."""
    for g in p.guards:
        if not g.negated and "profil" in ast.dump(g.test).lower():
            return True
    return False


def _legacy_params(ctx, setup: Setup) -> None:
    for key, what in LEGACY_PARAMS.items():
        for p in setup.params.get(key, []):
            ctx.report_node(
                "NPP014", p.target,
                said(f'parameter_map["{key}"] is the pre-2021 API',
                     clause("current adapters never read it", so(f"{what} silently does nothing")),
                     "put it in the profiling_options JSON instead" +
                     (' next to "training_trace":"on" (GE reads the points only then)' if key in POINT_KEYS else "")))


# ---------------------------------------------------------------- NPP006, NPP007, NPP008

def _delivery(ctx, flow: Flow, setups: List[Setup]) -> None:
    for setup in setups:
        if not carries_profiling(setup):
            continue
        kind, key = setup.config_key[0], setup.config_key
        if kind != "node":
            continue                    # a config that comes from elsewhere (a parameter, ...)
        value = ctx.sites.nodes.at(key[2])
        if value is None or not isinstance(value, ast.Call):
            continue
        anchor = _profiling_anchor(setup)
        state = ctx.state_of(anchor)        # the model emulate uses (inventory deliveries)
        if (state.why != "never_passed") if state is not None else flow.is_consumed(value):
            continue
        line = ctx.src.position(ctx.src.node_start(anchor))[0]
        scope = ctx.sites.scope_of.at(value)
        run_config = _run_config_without_session_config(ctx, flow, scope)
        if run_config is not None:
            ctx.report_node(
                "NPP007", run_config.func,
                said(f"this RunConfig has no session_config while the profiling config (line {line}) is passed "
                     "nowhere", "the Estimator collects nothing", "it runs with a fresh session config",
                     "add session_config=<the profiling config>", lines=(line,)),
                _pass_config_fix(ctx, flow, value, run_config, "session_config"))
            continue
        helper = _helper_without_config(ctx, flow, scope)
        if helper is not None:
            name, call = helper
            ctx.report_node(
                "NPP008", call.func,
                said(f"{name}() is called without the config that carries profiling (line {line})",
                     clause("it builds a fresh one without profiling", so("nothing is collected")),
                     f"pass {HELPERS[name][0]}=<that config>", lines=(line,)),
                _pass_config_fix(ctx, flow, value, call, HELPERS[name][0]) if name != "npu_run_config_init" else None)
            continue
        if state is not None and state.detail != NEVER_HANDED:
            ctx.report_node(
                "NPP006", anchor,
                said(f"this profiling config is passed to {state.detail}",
                     "the job runs without it and collects nothing",
                     "hand that result to the session (or whatever initialises GE)"))
            continue
        ctx.report_node(
            "NPP006", anchor,
            said("this profiling config never reaches GE", "the job runs without it and collects nothing",
                 "it is never handed to a Session, RunConfig, NPURunConfig, init_resource or an NPU helper",
                 "pass the config to the session (e.g. tf.Session(config=npu_config_proto(config_proto=config)))"))


def _pass_config_fix(ctx, flow: Flow, value: ast.AST, call: ast.Call, keyword: str) -> Optional[Fix]:
    """Add `keyword=<name of the profiling config>` when that name is visible at the call."""
    scope = ctx.sites.scope_of.at(call)
    pos = ctx.pos(call)
    for _, key in flow.keys_bound_to(value):
        if scope is not None and any(b.value is value for b in ctx.sites.bindings_at(key, scope, pos)):
            edit = add_keyword(ctx.src, call, f"{keyword}={key}")
            if edit is not None:
                return Fix((edit,), False, f"pass {keyword}={key}")
    return None


def _profiling_anchor(setup: Setup) -> ast.AST:
    for key in ("profiling_mode", "profiling_options"):
        if setup.params.get(key):
            return setup.params[key][0].target
    return setup.anchor


def _near(site, scope) -> bool:
    """A call in the config's own function (or anywhere, for a module-level config)."""
    return scope is None or scope.kind == "module" or site.scope is scope


def _run_config_without_session_config(ctx, flow: Flow, scope=None) -> Optional[ast.Call]:
    for site in flow.consumer_calls():
        if not _near(site, scope):
            continue
        if flow.kind_of(site) == "run_config" and not has_keyword(site.call, "session_config"):
            name = site.name or ""
            if name.endswith("RunConfig") and len(site.call.args) < 7:
                return site.call
    return None


def _helper_without_config(ctx, flow: Flow, scope=None):
    for site in flow.consumer_calls():
        if not _near(site, scope):
            continue
        kind = flow.kind_of(site)
        if kind in HELPERS and helper_config_arg(site.call, kind) is None and \
                not any(k.arg is None for k in site.call.keywords):
            return kind, site.call
    return None


def _keras_vs_init_resource(ctx, flow: Flow, setups: List[Setup]) -> None:
    """Profiling on the Keras session config while init_resource initialises GE with another."""
    inits = [s for s in flow.consumer_calls() if flow.kind_of(s) == "init_resource"]
    if not inits:
        return
    profiled = []
    for setup in setups:
        if setup.config_key[0] != "node" or not setup.params.get("profiling_mode"):
            continue
        value = ctx.sites.nodes.at(setup.config_key[2])
        if value is None:
            continue
        targets = {u.call for u in flow.uses_of(value) if u.how == "call" and u.call is not None}
        keras = [c for c in targets if (getattr(c.func, "attr", None) or getattr(c.func, "id", "")) ==
                 "set_keras_session_npu_config"]
        given_to_init = [c for c in targets if any(c is s.call for s in inits)]
        if keras and not given_to_init:
            profiled.append(setup)
    if not profiled:
        return
    line = ctx.src.position(ctx.src.node_start(_profiling_anchor(profiled[0])))[0]
    site = inits[0]
    ctx.report_node(
        "NPP008", site.call.func,
        said("init_resource() initialises GE here with a config that has no profiling", "nothing is collected",
             "GE reads profiling only at initialisation, while profiling is set on the Keras session config (line "
             f"{line})", "set profiling on the config passed to init_resource", lines=(line,)))


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    REF_ESTIMATOR, REF_GE_INIT, REF_INIT_SYSTEM, REF_KERAS, REF_MODELZOO, REF_NPU_INIT, REF_SESSION,
    REF_SESSION_OVERVIEW, REF_TF_APIS, _MODEL_FN, _NPU_ENTRY, _PROFILING, _SET_OPTIONS, _STORE_TRUE, Rule, _flagged)


def _tf_estimator(run_config_args: str) -> str:
    return ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n" + _MODEL_FN + _NPU_ENTRY + _PROFILING +
            f"run_config = tf.estimator.RunConfig(\n{run_config_args})\n"
            "estimator = tf.estimator.Estimator(model_fn=model_fn, config=npu_run_config_init(run_config=run_config))\n")


def _keras(init_resource_args: str) -> str:
    return ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\n" + _NPU_ENTRY + _PROFILING +
            f"init_sess, npu_init = init_resource({init_resource_args})\n"
            "npu_keras_sess = set_keras_session_npu_config(config=config)\n"
            "model = tf.keras.applications.ResNet50(weights=None)\n")


RULES = (
    # also reported by other_routes (ProfilingConfig, npu_resource_init, environment variables)
    Rule(
        code="NPP001",
        name="profiling-options-without-mode",
        summary="profiling options are set but profiling is not switched on for that config (`profiling_mode` "
                "absent, or False where profiling is evidently meant — e.g. inside `if args.profiling:`; "
                "`enable_profiling` False/absent likewise; `PROFILING_OPTIONS` without `PROFILING_MODE`) — the "
                "options are ignored. An explicit, unconditional off switch beside parked options "
                "(`PROFILING_MODE=false  # true to profile`) is deliberate: not NPP001",
        default=True,
        level="warning",
        what="A config that carries profiling options while its on-switch is missing, or false where "
             "profiling is evidently meant: `profiling_options` without any `profiling_mode`, "
             "`profiling_mode = False` inside an `if args.profiling:` branch, `ProfilingConfig(profiling_options=...)` "
             "without `enable_profiling`, or `PROFILING_OPTIONS` in an environment without `PROFILING_MODE`. "
             "An explicit, unconditional off switch next to the options (`PROFILING_MODE=false  # true to "
             "profile`, `enable_profiling=False`) parks them on purpose and is not reported; problems in such "
             "parked options are still reported, worded as latent (\"latent (profiling is switched off here); "
             "once GE reads these options: ...\"), because they break the run the day the switch is turned on.",
        why="The adapter forwards the options only together with the switch, and GE reads them only when "
            "the mode is on, so the string is never used: no PROF_* directory appears and nothing is logged. "
            "Environment variables still win in that case, so a stray `PROFILING_MODE` can profile with "
            "other options than the script shows.",
        example=_flagged(_STORE_TRUE, 'custom_op.parameter_map["profiling_mode"].b = False\n' + _SET_OPTIONS),
        fixed=_flagged(_STORE_TRUE, _PROFILING),
        fix_safety="unsafe",
        fix_note="Sets the switch to on (`profiling_mode.b = True`, `enable_profiling=True`) when the options "
                 "sit inside a branch that is clearly meant for profiling. Unsafe: it starts collection, "
                 "which slows the job and writes data, and the `False` might have been deliberate.",
        references=(REF_SESSION, REF_TF_APIS, REF_GE_INIT, REF_MODELZOO),
        group="wiring",
        facts=("adapter.options_need_mode", "ge.profiling_mode_env"),
    ),
    Rule(
        code="NPP007",
        name="run-config-without-session-config",
        summary="an Estimator `RunConfig` is built without `session_config` while the file builds a profiling "
                "session config",
        default=True,
        level="warning",
        what="`tf.estimator.RunConfig(...)` (usually wrapped by `npu_run_config_init`) with no "
             "`session_config=` argument, in a file that prepares a `ConfigProto` with profiling settings.",
        why="`npu_run_config_init` turns a missing session config into a fresh ConfigProto with an empty "
            "`NpuOptimizer` entry, so the estimator initialises GE with profiling off and the prepared "
            "options are never used; the run finishes without profiling data.",
        example=_tf_estimator('    model_dir="/tmp/model",\n    save_checkpoints_steps=1000'),
        fixed=_tf_estimator('    model_dir="/tmp/model",\n    save_checkpoints_steps=1000,\n    session_config=config'),
        fix_safety="unsafe",
        fix_note="Adds `session_config=<the profiling config>` to the RunConfig. Unsafe: it switches profiling "
                 "on for the estimator and brings along every other setting of that config.",
        references=(REF_NPU_INIT, REF_SESSION_OVERVIEW, REF_ESTIMATOR),
        group="wiring",
        facts=("adapter.helpers_fresh_config",),
    ),
    Rule(
        code="NPP008",
        name="npu-helper-without-profiling-config",
        summary="an NPU helper (`npu_config_proto`, `set_keras_session_npu_config`, `init_resource`, "
                "`npu_run_config_init`) is called without the config that carries profiling, so it builds a "
                "fresh one without it; or profiling is set on the Keras session config while `init_resource` "
                "initialises GE",
        default=True,
        level="warning",
        what="A call of one of the migration helpers without the profiling config as its argument while the "
             "file builds one, or a Keras script where `init_resource()` initialises GE with a bare config "
             "and the profiling settings only go to `set_keras_session_npu_config`.",
        why="Without a ConfigProto argument these helpers create a new one with a bare `NpuOptimizer` "
            "entry. GE takes its profiling options only at initialisation, which `init_resource` performs, "
            "so profiling set on a later session is ignored (\"Ge has already initialized\") and no data is "
            "collected.",
        example=_keras(""),
        fixed=_keras("config=config"),
        fix_safety="unsafe",
        fix_note="Passes the profiling config to the helper (`init_resource(config=config)`, "
                 "`npu_config_proto(config_proto=config)`). Unsafe: the helper then also receives every other "
                 "setting of that config.",
        references=(REF_KERAS, REF_INIT_SYSTEM, REF_NPU_INIT),
        group="wiring",
        facts=("adapter.helpers_fresh_config", "collection.emulation.already_initialised"),
    ),
)
