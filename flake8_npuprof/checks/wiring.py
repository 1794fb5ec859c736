"""NPP0xx wiring of the NpuOptimizer route: is the switch on, and does the config reach GE?"""

from __future__ import annotations

import ast
from typing import List, Optional

from ..setups.flow import HELPERS, Flow, has_keyword, helper_config_arg
from ..source.code_edits import add_keyword, insert_before, source_of
from ..source.model import Edit, Fix
from ..setups.parameter_map import Setup, npu_setups
from ..values.reader import truthy
from .npu_optimizer import mode_values

# parameter_map keys of the adapter before 2021-01 that it no longer reads
LEGACY_PARAMS = {"fp_point": "the point", "bp_point": "the point", "enable_options": "the option list"}


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
        entry = source_of(ctx.src, p.target.value.value.value)
        edit = insert_before(ctx.src, p.stmt, f'{entry}.parameter_map["profiling_mode"].b = True')
        ctx.report_node("NPP001", p.target,
                        "profiling_options are set but profiling_mode is never switched on for this config: "
                        "the adapter forwards no profiling, so the options are ignored and nothing is "
                        'collected; add parameter_map["profiling_mode"].b = True',
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
                    f"profiling_mode is off{where} while profiling_options are set: the adapter drops the "
                    "options and nothing is collected (environment variables can still switch profiling on "
                    "with other options); set it to True", fix)


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
                f'parameter_map["{key}"] is the pre-2021 API: current adapters never read it, so {what} '
                "silently does nothing; put it in the profiling_options JSON instead")


# ---------------------------------------------------------------- NPP006, NPP007, NPP008

def _delivery(ctx, flow: Flow, setups: List[Setup]) -> None:
    for setup in setups:
        if not carries_profiling(setup):
            continue
        kind, key = setup.config_key[0], setup.config_key
        if kind != "node":
            continue                    # a config that comes from elsewhere (a parameter, ...)
        value = _node_by_id(ctx, key[1])
        if value is None or not isinstance(value, ast.Call):
            continue
        anchor = _profiling_anchor(setup)
        state = ctx.state_of(anchor)        # the model emulate uses (inventory deliveries)
        if (state.why != "never_passed") if state is not None else flow.is_consumed(value):
            continue
        line = ctx.src.position(ctx.src.node_start(anchor))[0]
        scope = ctx.sites.scope_of.get(id(value))
        run_config = _run_config_without_session_config(ctx, flow, scope)
        if run_config is not None:
            ctx.report_node(
                "NPP007", run_config.func,
                f"this RunConfig has no session_config while the profiling config (line {line}) is passed "
                "nowhere: the Estimator runs with a fresh session config and collects nothing; add "
                "session_config=<the profiling config>",
                _pass_config_fix(ctx, flow, value, run_config, "session_config"))
            continue
        helper = _helper_without_config(ctx, flow, scope)
        if helper is not None:
            name, call = helper
            ctx.report_node(
                "NPP008", call.func,
                f"{name}() is called without the config that carries profiling (line {line}): it builds a "
                f"fresh one without profiling, so nothing is collected; pass {HELPERS[name][0]}=<that config>",
                _pass_config_fix(ctx, flow, value, call, HELPERS[name][0]) if name != "npu_run_config_init" else None)
            continue
        ctx.report_node(
            "NPP006", anchor,
            "this profiling config is never handed to a Session, RunConfig, NPURunConfig, init_resource or "
            "an NPU helper: the job runs without it and collects nothing; pass the config to the session "
            "(e.g. tf.Session(config=npu_config_proto(config_proto=config)))")


def _pass_config_fix(ctx, flow: Flow, value: ast.AST, call: ast.Call, keyword: str) -> Optional[Fix]:
    """Add `keyword=<name of the profiling config>` when that name is visible at the call."""
    scope = ctx.sites.scope_of.get(id(call))
    pos = ctx.pos(call)
    for _, key in flow.keys_bound_to(value):
        if scope is not None and any(b.value is value for b in ctx.sites.bindings_at(key, scope, pos)):
            edit = add_keyword(ctx.src, call, f"{keyword}={key}")
            if edit is not None:
                return Fix((edit,), False, f"pass {keyword}={key}")
    return None


def _node_by_id(ctx, ident: int) -> Optional[ast.AST]:
    return ctx.sites.nodes.get(ident)


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
        value = _node_by_id(ctx, setup.config_key[1])
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
        f"init_resource() initialises GE here with a config that has no profiling, while profiling is set on the "
        f"Keras session config (line {line}): GE reads profiling only at initialisation, so nothing is "
        "collected; set profiling on the config passed to init_resource")
