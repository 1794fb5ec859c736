"""NPP2xx checks on the content of an options string (hygiene, not runtime failures)."""

from __future__ import annotations

import ast
import re
from typing import Any, Dict, List, Optional

from ..source.jsonscan import Doc
from ..source.model import Issue
from ..source.said import aside, clause, said, so
from ..setups.parameter_map import npu_setups
from ..setups.routes import ENV_MODE, env_sets, profiling_configs, resource_inits, tf2_sets
from ..setups.state import raised_error
from ..values.ops import NONE_NOTE

# Prefixes of paths that only exist on one person's or one platform's machine.
_HOST_SPECIFIC = re.compile(
    r"^(/home/[^/]+|/root|/cache|/autotest|/npu/[a-z]\d{6,}|/Users/[^/]+|/mnt/[^/]+/[a-z]\d{6,})(/|$)")
# The Ascend guide's ResNet-50 example fp_point (a fused GE node of that model).
_DOC_EXAMPLE_FP = "resnet_model/conv2d/Conv2Dresnet_model/batch_normalization/FusedBatchNormV3_Reduce"


def check_option_hygiene(text: str, doc: Optional[Doc], context: Optional[str] = None) -> List[Issue]:
    """NPP203/NPP204 on an options string; `context` is the text of the file it comes from."""
    if doc is None or not doc.ok:
        return []
    out: List[Issue] = []
    members = {m.key: m for m in doc.members}
    output = members.get("output")
    if output is not None and isinstance(output.value, str) and _HOST_SPECIFIC.match(output.value):
        out.append(Issue("NPP203", output.value_start, output.value_end,
                         said(clause('"output" is a host- or person-specific absolute path', aside(output.value)),
                              "on any other machine the PROF_* data goes nowhere",
                              "there the directory is missing or not writable",
                              "take it from a flag or use a path relative to the launch directory"),
                         None, "output"))
    for key in ("fp_point", "bp_point"):
        m = members.get(key)
        if m is None or not isinstance(m.value, str) or not m.value:
            continue
        why = point_problem(m.value, text, context)
        if why:
            out.append(Issue("NPP204", m.value_start, m.value_end,
                             said(clause(f'"{key}" cannot be one op name of this model', aside(why)),
                                  "GE finds no such node, warns and the step trace loses its FP/BP marks",
                                  'take the name from your own graph dump or use "" for the automatic search'),
                             None, key))
    return out


def point_problem(name: str, options: str, context: Optional[str]) -> str:
    """Why an fp/bp point cannot name a node, or "".

    GE names a fused node by gluing the names it fused, so a glued-looking name taken from a
    build dump is real; only what cannot be a node name of this model is reported: whitespace
    inside, or the guide's ResNet-50 example in a file with no ResNet in it."""
    if re.search(r"\s", name):
        return "it contains whitespace"
    if name == _DOC_EXAMPLE_FP and context is not None and \
            context.lower().count("resnet") <= options.lower().count("resnet"):
        return "it is the Ascend guide's ResNet-50 example and this file builds no ResNet"
    return _other_model(name, options, context)


# Model families whose scope names appear in trace points copied between model-zoo scripts.
_FAMILIES = ("resnet", "bert", "vgg", "inception", "mobilenet", "densenet", "efficientnet", "yolo", "gpt",
             "unet", "deeplab", "alexnet", "squeezenet", "shufflenet", "xception", "transformer", "wide_deep")


def _other_model(name: str, options: str, context: Optional[str]) -> str:
    """A point whose top scope names one model family while the file, apart from the options, only
    mentions another family: copied from that other model's script. A file that names no family (its
    model may come from elsewhere) is not judged."""
    if context is None or "/" not in name:
        return ""
    top = name.split("/", 1)[0].lower()
    own = [f for f in _FAMILIES if f in top]
    if not own:                     # (before the file's text is lowered: a whole file's copy per point)
        return ""
    rest = context.lower().replace(options.lower(), " ")
    if any(f in rest for f in own) or top in rest:
        return ""
    others = [f for f in _FAMILIES if f not in top and re.search(rf"\b{f}", rest)]
    if not others:
        return ""
    return (f"its top scope {name.split('/', 1)[0]!r} is from a {own[0]} model, and this file mentions "
            f"{others[0]} but no {own[0]}")


# ---------------------------------------------------------------- code hygiene (NPP201, NPP205)

def check(ctx) -> None:
    switches = list(_switches_on(ctx))
    for node, scope, guards in switches:
        if _unconditional(ctx, scope, guards):
            ctx.report_node("NPP201", node,
                            said("profiling is switched on unconditionally",
                                 "every run of this script pays the profiling overhead and writes PROF_* data",
                                 "put it behind a flag or condition"))
    # the attributes the conditions of profiling test for truth first: only a flag named like one of them can be
    # risky here, and a file without any asks for none of its flags
    conditions = [(node, sub) for node in _profiling_conditions(ctx) for sub in _truth_tested(node)
                  if isinstance(sub, ast.Attribute)]
    if not conditions:
        return
    attrs = {sub.attr for _, sub in conditions}
    risky = {f.dest: f for f in ctx.resolver.flags
             if f.dest in attrs and (_string_meant_as_bool(f) or _absl_string_switch(ctx, f))}
    if not risky:
        return
    hand_overs = list(_delivery_conditions(ctx, with_values=True))
    guards = {id(g) for g in _profiling_guards(ctx)} | {id(c) for c, _ in hand_overs}
    tested: Dict[str, list] = {}        # flag -> the conditions that test it, first one first
    for node, sub in conditions:
        if sub.attr in risky:
            if risky[sub.attr].kind == "absl" and id(node) not in guards:
                continue                # a string given to a bool switch is NPP010's, not a truth test
            tested.setdefault(sub.attr, []).append(node)
    stopped = _stopped_hand_overs(ctx, hand_overs) if tested else {}
    for dest, nodes in tested.items():
        flag = risky[dest]
        # every config the flag hands over raises where it is written, before the flag is tested
        stops = [stopped.get(id(n)) for n in nodes]
        first = min((s for s in stops if s is not None), key=lambda s: s.line) if all(stops) else None
        ctx.report_node("NPP205", flag.call.args[0] if flag.call.args else flag.call,
                        _npp205_message(flag, first, _unread(ctx, nodes, hand_overs)))


def _string_meant_as_bool(flag) -> bool:
    """A flag that reaches the script as a string but is tested for truth as a switch: argparse
    without a type (or type=bool), or an absl string flag whose default is a bool or "True"/"False"."""
    if flag.kind == "argparse":
        return flag.action in ("", "store") and \
            (flag.type_node is None or getattr(flag.type_node, "id", None) == "bool")
    if flag.kind == "absl" and flag.py_type is str and isinstance(flag.default, ast.Constant):
        value = flag.default.value
        return isinstance(value, bool) or (isinstance(value, str) and value.strip().lower() in
                                           ("true", "false", "0", "1"))
    return False


def _absl_string_switch(ctx, flag) -> bool:
    """An absl string flag without a value of its own (default None or "") whose every read is a truth
    test: its text is never used, so it is a switch, and `--x=False` passes the true string 'False'."""
    default = flag.default
    if flag.kind != "absl" or flag.py_type is not str or not (
            default is None or (isinstance(default, ast.Constant) and default.value in (None, ""))):
        return False
    if any(word in flag.dest.lower() for word in ("dir", "path", "output", "file")):
        return False                    # named for a value it holds (other modules may read it)
    # `x.dest` for any x (a dotted dest is never the last part of a name)
    reads = [] if "." in flag.dest else [n for _, nodes in ctx.sites.loads_ending(flag.dest) for n in nodes]
    return bool(reads) and all(_in_truth_test(ctx.sites.parent, n) for n in reads)


def _in_truth_test(parent, node) -> bool:
    """Whether only the truth of node's value is used: an if/while/ternary test, through not/and/or/bool()."""
    while True:
        up = parent.at(node)
        if isinstance(up, (ast.If, ast.While, ast.IfExp, ast.Assert)) and up.test is node:
            return True
        if isinstance(up, ast.UnaryOp) and isinstance(up.op, ast.Not) or isinstance(up, ast.BoolOp):
            node = up
            continue
        if isinstance(up, ast.Call) and isinstance(up.func, ast.Name) and up.func.id == "bool" and \
                up.args == [node]:
            node = up
            continue
        return False


def _stopped_hand_overs(ctx, hand_overs) -> Dict[int, Any]:
    """id(test of `cfg if flag else None`) -> cfg's setup, for a cfg whose own line raises (state.raised_error)
    whenever the test is reached: built earlier in the same scope, under no condition the test is not under."""
    sites = ctx.sites
    out: Dict[int, Any] = {}                # (setups of the model: inventory.ScriptSetup)
    for cond, value in hand_overs:
        setup = ctx.model.setup_of(value)
        if setup is None or not raised_error(setup) or setup.reached is False:
            continue
        anchor = setup.anchor
        if sites.scope_of.at(anchor) is sites.scope_of.at(cond) and ctx.pos(anchor) < ctx.pos(cond) and \
                set(sites.guards_of.at(anchor, ())) <= set(sites.guards_of.at(cond, ())):
            out.setdefault(id(cond), setup)
    return out


def _delivery_conditions(ctx, with_values: bool = False):
    """The tests of `cfg if flag else None` that decide whether a profiling config is handed over
    (with the config, if asked)."""
    values = [r.anchor for r in profiling_configs(ctx.sites)]
    values += [ctx.sites.nodes.at(s.config_key[2]) for s in npu_setups(ctx.sites) if s.config_key[0] == "node"]
    for value in values:
        if value is not None:
            for use in ctx.flow.uses_of(value):
                if use.condition is not None:
                    yield (use.condition, value) if with_values else use.condition


def _unread(ctx, tests, hand_overs) -> str:
    """Why GE may never read any config these tests switch (each is handed to code this file does not show),
    or "" when one of them does reach GE here, or when the tests cannot be tied to a setup."""
    ids = {id(t) for t in tests}
    setup_of = {id(c): ctx.model.setup_of(v) for c, v in hand_overs}
    related = [setup_of[i] for i in ids if setup_of.get(i) is not None]
    guards_of = ctx.sites.guards_of
    for setup in ctx.model.setups:
        if setup.route != "env" and any(n in ids or any(id(g.test) in ids for g in guards_of.get(n, ()))
                                        for n in setup.nodes):
            related.append(setup)
    related = [s for s in related if s.reached is not False]
    if not related or any(s.delivered != "unknown" for s in related):
        return ""
    return next((s.unseen for s in related if s.unseen), "") or "it is handed to code outside this file"


def _npp205_message(flag, stop=None, unread: str = ""):
    """stop: the setup whose Python error is raised before the flag is ever tested, if any (it stops the script
    unless a `try` around it catches it). unread: why GE may never read the config the flag switches."""
    given = f"`{flag.option}=False`" if flag.kind == "absl" else f"`{flag.option} False`"
    # the short sentence keeps the last clause: it names the run that profiles, so it never reads as "always"
    turns_on, why = f"{given} turns profiling on", ""
    if stop is not None:
        turns_on = f"{given} would turn profiling on once line {stop.line} no longer raises"
        why = f"{raised_error(stop)}; " + (f"the `try` at line {stop.caught} may catch it" if stop.caught else
                                           "it stops the script first")
    elif unread:
        turns_on, why = f"{given} switches profiling on in a config this file does not show GE reading", unread
    outcome = clause(so(turns_on), aside(why) if why else "")
    if flag.kind == "absl":
        return said(f"{flag.option} guards profiling but is a string flag",
                    clause(f"{given} gives the non-empty string 'False', which is true", outcome),
                    "define it with flags.DEFINE_bool (which parses --x=False as False)")
    how = "type=bool" if flag.type_node is not None else "no type"
    # not action="store_true": launchers that pass `--profiling=False` would then stop with a usage error
    return said(f"{flag.option} guards profiling but is parsed with {how}",
                clause(f"{given} gives the non-empty string 'False', which is true", outcome),
                "parse it with type=ast.literal_eval or a str-to-bool converter (launchers passing --x=False keep "
                "working)")


def _truth_tested(expr):
    """The sub-expressions whose truth value decides expr (`x`, `not x`, `x and y`, `bool(x)`);
    a comparison such as `x == "True"` tests a string on purpose and yields nothing."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        yield from _truth_tested(expr.operand)
    elif isinstance(expr, ast.BoolOp):
        for value in expr.values:
            yield from _truth_tested(value)
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "bool" and \
            len(expr.args) == 1:
        yield from _truth_tested(expr.args[0])
    else:
        yield expr


def _switches_on(ctx):
    """(node, scope, guards) of switches set to a constant true value, on every route."""
    for setup in npu_setups(ctx.sites):
        for p in setup.params.get("profiling_mode", []):
            if p.field == "b" and isinstance(p.value, ast.Constant) and p.value.value is True:
                yield p.target, p.scope, p.guards
    for s in env_sets(ctx.sites):
        if s.name == ENV_MODE and isinstance(s.value, ast.Constant) and s.value.value == "true":
            yield s.anchor, s.scope, s.guards
    for r in profiling_configs(ctx.sites) + resource_inits(ctx.sites):
        if r.mode is not None and isinstance(r.mode.node, ast.Constant) and r.mode.node.value is True:
            yield r.mode.anchor, r.scope, r.guards
    for s in tf2_sets(ctx.sites):
        if s.attr == "enable_profiling" and isinstance(s.value, ast.Constant) and s.value.value is True:
            yield s.target, s.scope, s.guards


def _is_main_guard(test) -> bool:
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"


def _unconditional(ctx, scope, guards, depth: int = 0) -> bool:
    if any(not _is_main_guard(g.test) for g in guards):
        return False
    if scope.kind == "module" or depth > 4:
        return scope.kind == "module"
    if scope.kind == "class":
        return _unconditional(ctx, scope.parent, (), depth + 1)
    func = scope.node
    name = getattr(func, "name", "")
    if "prof" in name.lower():
        return False                        # a helper that exists to switch profiling on
    calls = [c for c in ctx.sites.calls_named(name) if c.name == name or c.name.endswith("." + name)]
    if not calls:
        return name in ("main", "train", "run", "__init__") or scope.parent.kind == "module" and \
            not any(isinstance(a, ast.arg) for a in getattr(func.args, "args", []))
    return all(_unconditional(ctx, c.scope, c.guards, depth + 1) for c in calls)


def _profiling_guards(ctx):
    """The `if` tests around profiling settings (truth-tested by Python itself)."""
    for setup in npu_setups(ctx.sites):
        for key in ("profiling_mode", "profiling_options"):
            for p in setup.params.get(key, []):
                yield from (g.test for g in p.guards)
    for r in profiling_configs(ctx.sites) + resource_inits(ctx.sites):
        yield from (g.test for g in r.guards)
    for s in tf2_sets(ctx.sites):
        yield from (g.test for g in s.guards)


def _profiling_conditions(ctx):
    """Expressions that decide whether profiling is on: guards of switches, switch values and the
    conditions a config is handed over under."""
    yield from _delivery_conditions(ctx)
    for setup in npu_setups(ctx.sites):
        for key in ("profiling_mode", "profiling_options"):
            for p in setup.params.get(key, []):
                for g in p.guards:
                    yield g.test
                if key == "profiling_mode":
                    yield p.value
    for r in profiling_configs(ctx.sites) + resource_inits(ctx.sites):
        if r.mode is not None:
            yield r.mode.node
        for g in r.guards:
            yield g.test
    for s in tf2_sets(ctx.sites):
        if s.attr == "enable_profiling":
            yield s.value
        for g in s.guards:
            yield g.test


def none_in_output(value, doc: Optional[Doc]) -> List[Issue]:
    """NPP108 for an "output" that holds a Python None formatted as text (`"%s" % None`, f"{x}" with
    x None): the collector accepts "None" as a relative directory name, so the data lands in ./None."""
    if doc is None or not doc.ok:
        return []
    for m in doc.members:
        if m.key != "output" or not isinstance(m.value, str):
            continue
        if any(note == NONE_NOTE and a < m.value_end and b > m.value_start for a, b, note in value.notes):
            return [Issue("NPP108", m.value_start, m.value_end,
                          said(f'"output" is {m.value!r}, made from a Python None formatted as text',
                               'the collector takes "None" as a directory name', "it writes the PROF_* data there",
                               "give the directory a value (a flag default, or a path)"), None, "output")]
    return []


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    GOOD_OPTIONS, REF_FP_BP, REF_GLOBAL_VOLUME, REF_MODELZOO, REF_OPTIONS_80, REF_PROFILING_CONFIG_601, _PROFILING,
    _STORE_TRUE, Rule, _flagged, _opts)


RULES = (
    Rule(
        code="NPP201",
        name="unconditional-profiling",
        summary="profiling switched on unconditionally in a training script (not behind a flag or condition)",
        default=False,
        level="warning", enabled_by="NPP2",
        what="`profiling_mode`, `enable_profiling` or `PROFILING_MODE` turned on at the top level of a "
             "training script, with no command-line flag or other condition around it.",
        why="Profiling is a debugging aid: every run of the committed script then pays the collection "
            "overhead and fills the output directory with PROF_* data, and the timings of normal training "
            "runs are distorted.",
        example=_opts(GOOD_OPTIONS),
        fixed=_flagged(_STORE_TRUE, _PROFILING),
        fix_safety="none",
        fix_note="No fix: the flag name and how the script parses options are project conventions.",
        references=(REF_GLOBAL_VOLUME, REF_MODELZOO),
        group="hygiene",
        facts=("guidance.global_collection_volume",),
    ),
    Rule(
        code="NPP203",
        name="host-specific-output-path",
        summary="host- or person-specific absolute `output` (`/home/<user>/…`, `/cache/…`) in committed code",
        default=False,
        level="warning", enabled_by="NPP2",
        what="An `output` directory under a home directory, `/root`, the ModelArts `/cache` mount or a "
             "personal work area, written into the script.",
        why="On another machine or for another user the directory is missing or not writable; depending on "
            "the CANN version the collector then fails to start or writes nothing, and the run ends without "
            "profiling data.",
        example=_opts('{"output":"/home/HwHiAiUser/prof","training_trace":"on","task_trace":"on",'
                      '"fp_point":"","bp_point":""}'),
        fixed=_opts('{"output":"./prof","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'),
        fix_safety="none",
        fix_note="No fix: a portable location (a flag, a relative path) is the user's choice.",
        references=(REF_PROFILING_CONFIG_601, REF_OPTIONS_80, REF_MODELZOO),
        group="hygiene",
        facts=("collection.emulation.output_not_accessible", "collection.emulation.messages.NPP108"),
    ),
    Rule(
        code="NPP204",
        name="trace-point-not-one-op-name",
        summary="`fp_point`/`bp_point` that cannot be one op name: copied from the documentation's ResNet "
                "example into another model, or several op names glued together",
        default=True,
        level="warning",
        what="A trace point that contains whitespace, or that is the Ascend guide's ResNet-50 example value "
             "in a file that builds no ResNet, or whose top scope names one model family (`resnet_model/...`) "
             "while the rest of the file mentions only another family (a BERT script): copied from another "
             "model. A file that names no model family is not judged (its model may come from elsewhere). Names that merely look glued are not reported: GE names a "
             "fused node by joining the names it fused, so such a name copied from a build dump is real.",
        why="GE looks the point up by exact node name (or a recorded pre-fusion name). No node of this model "
            "has such a name, so GE only logs that the forward or backward op cannot be found; the run goes "
            "on but the step trace lacks its FP/BP marks.",
        example=_opts('{"output":"/tmp/prof","training_trace":"on","task_trace":"on",'
                      f'"fp_point":"{_DOC_EXAMPLE_FP}","bp_point":""}}'),
        fixed=_opts(GOOD_OPTIONS),
        fix_safety="none",
        fix_note="No fix: the right names come from the model's graph dump (or use `\"\"` for the automatic "
                 "search).",
        references=(REF_FP_BP, REF_MODELZOO),
        group="hygiene",
        facts=("collection.emulation.trace_point_warnings",),
    ),
    Rule(
        code="NPP205",
        name="untyped-profiling-flag",
        summary="profiling guarded by an argparse option with no `type` (or `type=bool`): `--profiling False` "
                "is a non-empty string, so profiling turns on",
        default=True,
        level="warning",
        what="An `if args.profiling:` (or similar) around the profiling settings, where the argparse option "
             "has a default but no `type`, or `type=bool`; likewise an absl `flags.DEFINE_string` whose "
             "default is a bool or `\"True\"`/`\"False\"`, or that has no value of its own (default `None` or "
             "`\"\"`) and is only ever tested for truth: a string flag meant as a switch. When every config the "
             "flag hands over already raises where it is built (NPP014, NPP010, NPP005), the message says "
             "profiling would turn on once that line is fixed. `npuprof check` also reports it on the line of a "
             "shell launcher that passes `--profiling=False` (or `0`) to such a flag of the script it starts, "
             "where that launch then profiles.",
        why="argparse (and an absl string flag) hands over the command-line text unchanged, and "
            "`bool(\"False\")` is True, so passing `--profiling False` switches profiling on: the run slows "
            "down and writes PROF_* data the user asked not to collect.",
        example=_flagged("default=False", _PROFILING),
        fixed=_flagged("type=ast.literal_eval, default=False", _PROFILING, "import ast\n"),
        fix_safety="none",
        fix_note="No fix: the advice is `type=ast.literal_eval` (or a str-to-bool converter), which keeps "
                 "launchers that pass `--profiling=False` or `--profiling True` working; "
                 "`action=\"store_true\"` would make them stop with a usage error. For absl, "
                 "`flags.DEFINE_bool` parses `--profiling=False` as False.",
        references=(REF_MODELZOO,),
        group="hygiene",
        facts=("python.string_flags",),
    ),
)
