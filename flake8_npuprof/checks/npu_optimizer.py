"""Checks of the NpuOptimizer custom-optimizer route (ConfigProto parameter_map)."""

from __future__ import annotations

import ast
from typing import Optional

from ..source.code_edits import insert_after, source_of
from ..source.model import Edit, Fix
from ..source.said import Text, aside, clause, logged, said, so
from ..setups.parameter_map import (NPU_OPTIMIZER, NPU_PARAMS, Setup, entry_expr, entry_name, exclusive,
                                    is_npu_entry, npu_setups, precision_writes, PRECISION_REFUSED)
from ..source.sites import Entry, ParamSet
from ..values.ops import Opaque
from ..values.reader import truthy, unwrap
from .common import check_options_expr, substituted_phrase
from ..knowledge.collection import EXPLICIT_DEFAULTS, substituted_defaults


def check(ctx) -> None:
    for entry in ctx.sites.entries:
        _check_name(ctx, entry)
    for setup in npu_setups(ctx.sites):
        _check_duplicates(ctx, setup)
        _check_fields(ctx, setup)
        mode_on = _mode(ctx, setup)
        anchor = next((p.target for k in ("profiling_mode", "profiling_options") for p in setup.params.get(k, [])), None)
        state = ctx.state_of(anchor) if anchor is not None else None
        if state is not None and state.latent:
            mode_on = False             # GE never reads this config (never passed, ...): nothing is on now
        # every assignment is checked: an entry made by a helper is filled in by each caller
        empty = True
        for options in setup.params.get("profiling_options", []):
            if options.field != "s":
                continue
            if options.value is None:   # `.s += b"..."`: added to at run time, to a value not followed here
                empty = False
                continue
            _check_str_field(ctx, options)
            strings = check_options_expr(ctx, options.value, options.scope, ctx.pos(options.stmt), mode_on)
            if not strings.candidates or any(c.text.strip() for c in strings.candidates):
                empty = False
        mode = setup.last("profiling_mode")
        wrong_field = any(p.field != "s" for p in setup.params.get("profiling_options", []))
        # options through the wrong field: NPP004 already says the adapter falls back to its defaults; an entry
        # passed on may get its options where it goes (asked last: finding that costs an index of every load)
        if mode_on and empty and mode is not None and not wrong_field and \
                not any(e.used_elsewhere for e in setup.entries):
            fix = None
            if not setup.params.get("profiling_options"):
                entry = source_of(ctx.src, entry_expr(mode))
                defaults, same = substituted_defaults("NpuOptimizer", ctx.target.versions)
                edit = insert_after(ctx.src, mode.stmt,
                                    f'{entry}.parameter_map["profiling_options"].s = b\'{defaults}\'')
                fix = Fix((edit,), same, "write out the default options") if edit else None
            ctx.report_node(
                "NPP002", mode.target,
                said("profiling is switched on without profiling_options",
                     substituted_phrase('NpuOptimizer', ctx.target.versions), "set profiling_options explicitly"),
                fix)
        _check_dump(ctx, setup, mode_on)


def mode_values(ctx, setup: Setup) -> Optional[list]:
    """Candidate values of profiling_mode over all its assignments, or None when unknown.
    A switch written through a field other than .b reads as False."""
    out = []
    for p in setup.params.get("profiling_mode", []):
        if p.field != "b":
            out.append(False)
            continue
        values = ctx.values.scalars(p.value, p.scope, ctx.pos(p.stmt))
        if not values.candidates:
            return None
        out.extend(values.candidates)
    return out


def _mode(ctx, setup: Setup) -> Optional[bool]:
    """Whether profiling is on for this config: True/False when every assignment agrees."""
    values = mode_values(ctx, setup)
    return truthy(values) if values else None


# ---------------------------------------------------------------- NPP003

# NPU parameter names other custom optimizers take too: TF-TRT's TensorRTOptimizer reads
# precision_mode ("FP32"/"FP16"/"INT8"), and the rest are plain words any optimizer may use. Only the
# other names show that an entry was meant for the NPU.
SHARED_PARAMS = frozenset({"precision_mode", "deterministic", "jit_compile", "input_shape", "debug_dir",
                           "work_path", "experimental_config"})
NPU_ONLY_PARAMS = frozenset(NPU_PARAMS - SHARED_PARAMS)


def _near_miss(name: str) -> bool:
    """`NPUOptimizer`, `npu_optimizer`, `NpuOptimiser`: a name that can only mean the NPU optimizer."""
    plain = "".join(c for c in name.lower() if c.isalnum())
    if "npu" not in plain:
        return False
    import difflib      # asked only of entries not named NpuOptimizer
    return difflib.SequenceMatcher(None, plain, NPU_OPTIMIZER.lower()).ratio() >= 0.8


def _check_name(ctx, entry: Entry) -> None:
    if entry.orphan or not any(p.key in NPU_PARAMS for p in entry.params):
        return
    npu_only = any(p.key in NPU_ONLY_PARAMS for p in entry.params)
    name, node = entry_name(entry)
    if node is None:
        if entry.used_elsewhere or entry.bound_to is None and not entry.params or not npu_only:
            return
        ctx.report_node("NPP003", entry.call,
                        said("this custom optimizer gets NPU parameters but no name",
                             clause(f'the adapter reads only entries named "{NPU_OPTIMIZER}"',
                                    so("none of its settings apply")),
                             f'set .name = "{NPU_OPTIMIZER}"'))
        return
    if name is None:
        strings = ctx.values.strings(node, entry.scope, ctx.pos(node))
        texts = {c.text for c in strings.candidates}
        if len(texts) != 1 or not strings.candidates:
            return
        name = texts.pop()
        if name == NPU_OPTIMIZER or not (npu_only or _near_miss(name)):
            return
        ctx.report_node("NPP003", node, _name_message(name, entry))
        return
    if name == NPU_OPTIMIZER or not (npu_only or _near_miss(name)):
        return
    fix = None
    if _near_miss(name):
        from ..source.literal_edits import text_edits_to_source
        lit = ctx.values.strings(node, entry.scope, 0).candidates
        edits = text_edits_to_source(ctx.src, lit[0], [(0, len(lit[0].text), NPU_OPTIMIZER)]) if lit else None
        if edits:
            # unsafe: the adapter reads no setting of a misnamed entry, so the rename switches on what it holds
            fix = Fix(tuple(edits), False, f'rename to "{NPU_OPTIMIZER}"')
    ctx.report_node("NPP003", node, _name_message(name, entry), fix)


def _name_message(name: str, entry: Entry):
    profiling = any(p.key in ("profiling_mode", "profiling_options") for p in entry.params)
    return said(f'custom optimizer named "{name}" carries NPU parameters',
                clause("none of its settings", aside("profiling included") if profiling else "", " apply"),
                f'the adapter reads only entries named exactly "{NPU_OPTIMIZER}"', f'name it "{NPU_OPTIMIZER}"')


# ---------------------------------------------------------------- NPP009

def _check_duplicates(ctx, setup: Setup) -> None:
    entries = [e for e in setup.entries if is_npu_entry(e) and not e.orphan]
    for k, later in enumerate(entries[1:], 1):
        earlier = [e for e in entries[:k] if not exclusive(e.guards, later.guards)]
        if not earlier:
            continue
        first = earlier[0]
        line = ctx.src.position(ctx.src.node_start(first.call))[0]
        ctx.report_node(
            "NPP009", later.call,
            said(clause("a second NpuOptimizer entry on the same ConfigProto", aside(f"the first is on line {line}")),
                 "the adapter reads both in turn and later keys overwrite earlier ones",
                 "once profiling_mode is on, a later entry without profiling_options resets them to the adapter's "
                 "defaults", "set every parameter on one entry", lines=(line,)))


# ---------------------------------------------------------------- NPP004, NPP005, NPP010

def _check_fields(ctx, setup: Setup) -> None:
    for key, items in setup.params.items():
        for p in items:
            if key == "profiling_mode" and p.field != "b":
                ctx.report_node(
                    "NPP004", p.target,
                    said(f"profiling_mode is set through .{p.field}, but the adapter reads the bool field .b",
                         "profiling stays off", 'write parameter_map["profiling_mode"].b = True'),
                    _field_fix(ctx, p, "b"))
            elif key == "profiling_options" and p.field != "s":
                ctx.report_node(
                    "NPP004", p.target,
                    said(f"profiling_options is set through .{p.field}, but the adapter reads the bytes field .s",
                         "it sees empty options and falls back to its defaults",
                         'write parameter_map["profiling_options"].s = tf.compat.as_bytes(...)'))
            elif key == "profiling_mode" and p.field == "b":
                _check_bool_value(ctx, p)
    if "profiling_options" in setup.params and "profiling_mode" not in setup.params:
        _check_precision_b(ctx, setup)


def _check_precision_b(ctx, setup: Setup) -> None:
    """precision_mode.b next to profiling options: a slip for profiling_mode. What the .b does depends on
    what is written after it: s and b are one oneof, so the last write decides the member that is set."""
    p, later = precision_writes(setup, ctx.pos)
    if p is None:
        return
    # the adapter reads precision_mode with .s() on every NpuOptimizer entry of a session's config and
    # refuses a value outside its list; the empty string a .b leaves behind is outside it
    script_setup = ctx.model.setup_of(setup.params["profiling_options"][-1].target)
    delivered = script_setup.delivered if script_setup is not None else None
    refused: Text
    if delivered in ("never", "unknown"):
        where = "it reaches none here" if delivered == "never" else "this file does not show whether it gets one"
        refused = clause("the adapter", aside("TF Adapter r1.12+"), " would refuse the empty string",
                         logged(f' ("{PRECISION_REFUSED}")'), " in a session", aside(where))
    else:
        refused = clause("the adapter", aside("TF Adapter r1.12+"), " refuses the empty string",
                         logged(f' ("{PRECISION_REFUSED}")'), so("the session fails when its graph first runs"))
    # a later .s under no condition the .b's own conditions do not already hold runs whenever the .b does
    always = [q for q in later if p.guards[:len(q.guards)] == q.guards]
    line = 0
    if always:
        line = ctx.src.position(ctx.src.node_start(always[0].stmt))[0]
        effect = clause(f"the string set on line {line} replaces this .b", aside("s and b are one oneof"),
                        so("the .b does nothing"))
    elif later:
        line = ctx.src.position(ctx.src.node_start(later[0].stmt))[0]
        effect = clause(f"the string set on line {line} replaces this .b only when that line runs",
                        aside("s and b are one oneof"), ", otherwise the .b leaves the string empty and ", refused)
    else:
        effect = clause("this .b leaves it empty", aside("s and b are one oneof, the last write wins"), " and ",
                        refused)
    ctx.report_node(
        "NPP004", p.target,
        said("precision_mode is set through .b, but it is a string option read from .s", effect,
             'next to profiling options it is almost surely meant as parameter_map["profiling_mode"].b, which is '
             "never set, so profiling stays off", lines=(line,) if line else ()),
        _rename_key_fix(ctx, p, "profiling_mode"))


def _check_bool_value(ctx, p: ParamSet) -> None:
    values = ctx.values.scalars(p.value, p.scope, ctx.pos(p.stmt))
    if not values.candidates:
        return
    bad = [v for v in values.candidates if isinstance(v, (str, bytes, float)) or v is None or
           (isinstance(v, Opaque) and v.py_type in (str, float))]
    if len(bad) != len(values.candidates):
        return
    if isinstance(bad[0], Opaque):
        shown, kind = f"the value of {bad[0].flag}", f"a {bad[0].py_type.__name__} flag"
    else:
        shown, kind = repr(bad[0]), type(bad[0]).__name__
    fix = None
    if isinstance(bad[0], str) and bad[0].strip().lower() in ("true", "false") and isinstance(p.value, ast.Constant):
        word = "True" if bad[0].strip().lower() == "true" else "False"
        fix = Fix((Edit(ctx.src.node_start(p.value), ctx.src.node_end(p.value), word),), True, f"write {word}")
    ctx.report_node(
        "NPP010", p.value,
        said(clause(f"profiling_mode .b is given {shown}", aside(kind)),
             "protobuf raises TypeError when the config is built",
             "it accepts only a bool (or int) here", "pass True or False"), fix)


def _check_str_field(ctx, p: ParamSet) -> None:
    strings = ctx.values.strings(p.value, p.scope, ctx.pos(p.stmt))
    if strings.py_type != "str":
        return
    ctx.report_node(
        "NPP005", p.value,
        said("profiling_options .s is a bytes field but is given a str",
             "protobuf raises TypeError when the config is built", "wrap the value in tf.compat.as_bytes(...)"),
        _wrap_fix(ctx, p.value))


def _field_fix(ctx, p: ParamSet, field: str) -> Optional[Fix]:
    """`.s = b"true"` → `.b = True` when the value is a clear literal."""
    inner, _ = unwrap(p.value)
    if not isinstance(inner, ast.Constant):
        return None
    raw = inner.value.decode() if isinstance(inner.value, bytes) else inner.value
    if isinstance(raw, str) and raw.strip().lower() in ("true", "1", "on"):
        word = "True"
    elif isinstance(raw, str) and raw.strip().lower() in ("false", "0", "off"):
        word = "False"
    elif isinstance(raw, (bool, int)):
        word = "True" if raw else "False"
    else:
        return None
    attr_end = ctx.src.node_end(p.target)
    attr_start = attr_end - len(p.field)
    return Fix((Edit(attr_start, attr_end, field),
                Edit(ctx.src.node_start(p.value), ctx.src.node_end(p.value), word)),
               word == "False", f"write .{field} = {word}")     # True switches profiling on: unsafe


def _rename_key_fix(ctx, p: ParamSet, key: str) -> Optional[Fix]:
    node = p.key_node
    if not isinstance(node, ast.Constant):
        return None
    start, end = ctx.src.node_start(node), ctx.src.node_end(node)
    text = ctx.src.text[start:end]
    quote = text[-1]
    return Fix((Edit(start, end, f"{quote}{key}{quote}"),), False, f'set "{key}" instead')


def _wrap_fix(ctx, node) -> Optional[Fix]:
    start, end = ctx.src.node_start(node), ctx.src.node_end(node)
    if "tf" in ctx.sites.imports or any(k == "tf" for k in ctx.sites.module.bindings):
        return Fix((Edit(start, start, "tf.compat.as_bytes("), Edit(end, end, ")")), True,
                   "wrap in tf.compat.as_bytes(...)")
    return Fix((Edit(start, start, "("), Edit(end, end, ").encode()")), True, "encode the str to bytes")


# ---------------------------------------------------------------- NPP202

def _check_dump(ctx, setup: Setup, mode_on: Optional[bool]) -> None:
    if not mode_on:
        return
    mode = setup.last("profiling_mode")
    assert mode is not None                 # (profiling is on only through a profiling_mode)
    for key in ("enable_dump", "enable_dump_debug"):
        p = setup.last(key)
        if p is None or p.field != "b":
            continue
        values = ctx.values.scalars(p.value, p.scope, ctx.pos(p.stmt))
        if truthy(values.candidates) is not True or not values.candidates:
            continue
        mode_tests = {id(g.test): g.negated for g in mode.guards}
        dump_tests = {id(g.test): g.negated for g in p.guards}
        # certain only when the dump is on whenever profiling is (its guards are among profiling's)
        if not set(dump_tests.items()) <= set(mode_tests.items()):
            continue
        ctx.report_node(
            "NPP202", p.target,
            said(clause("profiling and data dump", aside(key), " are both on in this config"),
                 "dumping distorts the timings the profile measures", "profile and dump in separate runs"))


# ---------------------------------------------------------------- the pages of the codes reported here
# (gathered by checks/catalog.py: `npuprof explain`, docs/rules/ written by tools/gen_docs.py, SARIF)

from .rule import (  # noqa: E402
    GOOD_OPTIONS, REF_CONSTRAINTS, REF_ENV_OPTIONS, REF_ESTIMATOR, REF_MODELZOO, REF_NPU_ATTRS, REF_PROFILING_CONFIG,
    REF_SESSION, REF_TF2_API, _HEAD, _SET_OPTIONS, _TAIL, Rule, _opts)


RULES = (
    # also reported by other_routes (the other routes) and shell_env (launchers)
    Rule(
        code="NPP002",
        name="profiling-mode-without-options",
        summary="profiling switched on without options: the runtime substitutes its default set (output `./`, "
                "training/task trace, hccl, aicpu, PipeUtilization), or fails / collects nothing on some routes",
        default=True,
        level="warning",
        what="Profiling is switched on (`profiling_mode`, `enable_profiling`, `PROFILING_MODE=true`) but no "
             "options string is given, or it is empty. For `PROFILING_MODE=true` (in a launcher or from "
             "Python) it is reported only when the file never mentions `PROFILING_OPTIONS` at all, since the "
             "calling environment may provide them.",
        why="What happens then depends on the route and the adapter release: TF Adapter r1.8 and later "
            "quietly use a built-in set that writes to the current directory, r1.2-r1.7 stop with "
            "\"profiling_options must be set when use profiling\" (as `npu_resource_init` still does for "
            "`None`), and with TF2 or `npu_resource_init` an empty string makes GE fall back on the "
            "environment variables, so usually nothing is collected.",
        example=_HEAD + _TAIL,
        fixed=_opts(EXPLICIT_DEFAULTS),
        fix_safety="sometimes",
        fix_note="Where the switch is `profiling_mode.b = True` or `enable_profiling=True` beside no options, "
                 "writes out the option set the adapter substitutes, plus empty `fp_point`/`bp_point` (the "
                 "automatic search the runtime uses anyway, and what NPP104 asks for): safe when every version of "
                 "the target substitutes that same set (`--cann 8.5`: the r1.8+ set; `--cann 9.1`: the set with "
                 "`task_time`), so what is collected stays the same. Under a target whose versions differ (the "
                 "default `any`) it writes the 8.5 set and is unsafe: it changes what 9.x collects. No fix for `npu_resource_init` (it needs options of the user's "
                 "choosing), for a switch written `.b = 1`, or for empty PROFILING_OPTIONS in the environment.",
        references=(REF_SESSION, REF_PROFILING_CONFIG, REF_ENV_OPTIONS, REF_NPU_ATTRS),
        group="wiring",
        facts=("collection.runtime_default_options.", "collection.emulation.adapter_default",
               "collection.emulation.python_errors"),
    ),
    Rule(
        code="NPP003",
        name="npu-optimizer-misnamed",
        summary="a custom optimizer carries NPU parameters but its name is not exactly `NpuOptimizer` — "
                "the adapter never reads it",
        default=True,
        level="warning",
        what="A `custom_optimizers.add()` entry that receives NPU `parameter_map` settings while its "
             "`name` is something other than `NpuOptimizer` (or is never set). Only parameters no other "
             "optimizer takes count: TF-TRT's `TensorRTOptimizer` has its own `precision_mode`, so that "
             "name alone (or a few generic words such as `deterministic`) says nothing; a name that can only "
             "mean the NPU optimizer (`NPUOptimizer`, `npu_optimiser`) counts with any NPU parameter.",
        why="The TF adapter looks only for custom optimizers whose name is exactly `NpuOptimizer`. "
            "An entry called `NPUOptimizer` is silently skipped, so profiling, precision and every other "
            "NPU setting on it never reach the runtime.",
        example=_HEAD.replace('"NpuOptimizer"', '"NPUOptimizer"') +
        f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes('{GOOD_OPTIONS}')\n" + _TAIL,
        fixed=_HEAD + f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes('{GOOD_OPTIONS}')\n"
        + _TAIL,
        fix_safety="unsafe",
        fix_note="Renames a near-miss (`NPUOptimizer`, `npu_optimizer`) to `NpuOptimizer`: unsafe, since the "
                 "adapter reads none of a misnamed entry's settings, so the rename applies them all (profiling "
                 "included): a run that collected nothing then profiles. No fix for an entry with no name at all or with another "
                 "name (`MyOptimizer`): which entry was meant is the user's call.",
        references=(REF_SESSION, REF_NPU_ATTRS),
        group="wiring",
        facts=("adapter.npu_optimizer_name",),
    ),
    Rule(
        code="NPP004",
        name="wrong-attr-value-field",
        summary="wrong AttrValue field: `profiling_mode` must be set with `.b`, `profiling_options` with `.s` "
                "(others read as false/empty); `precision_mode.b = True` next to profiling options is almost "
                "surely meant as `profiling_mode`",
        default=True,
        level="warning",
        what="A `parameter_map` entry written through the wrong member of the AttrValue: "
             "`profiling_mode` through `.s`/`.i` instead of the bool `.b`, `profiling_options` through "
             "anything but the bytes `.s`, or `parameter_map[\"precision_mode\"].b = True` in a block that "
             "sets profiling options but no `profiling_mode`.",
        why="The adapter reads `profiling_mode` with the bool accessor and `profiling_options` with the bytes "
            "accessor; a value stored in another member reads as false or empty without any error. Profiling "
            "then stays off, or the adapter swaps in its default options. `precision_mode` is a string "
            "setting and `.s`/`.b` are one oneof, so the last write decides: a later `.s` replaces the `.b`, "
            "and a `.b` left last empties the string, which the adapter (TF Adapter r1.12 and later) refuses "
            "(`option precision_mode value '' is invalid`), failing the session's first run. Either way the "
            "intended switch, `profiling_mode`, is never set.",
        example=_HEAD.replace('["profiling_mode"].b = True', '["profiling_mode"].s = b"true"') + _SET_OPTIONS + _TAIL,
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="sometimes",
        fix_note="`profiling_mode.s = b\"true\"` becomes `profiling_mode.b = True`: unsafe, since the adapter "
                 "reads the string as off and the fix switches profiling on (`b\"false\"` becomes `.b = False`: "
                 "safe, profiling stays off). Renaming `precision_mode.b` to `profiling_mode.b` is unsafe: it is a guess that "
                 "switches profiling on.",
        references=(REF_SESSION, REF_NPU_ATTRS, REF_MODELZOO),
        group="wiring",
        facts=("adapter.profiling_attr_fields", "adapter.precision_mode_checked",
               "collection.runtime_default_options."),
    ),
    Rule(
        code="NPP005",
        name="profiling-options-str-not-bytes",
        summary="`profiling_options` `.s` assigned a `str`: protobuf raises TypeError — wrap in "
                "`tf.compat.as_bytes(...)`",
        default=True,
        level="error",
        what="`parameter_map[\"profiling_options\"].s = '{...}'` with a Python `str` (a plain or f-string "
             "literal, or a str-valued name) instead of bytes.",
        why="`.s` is a protobuf bytes field; assigning a str raises TypeError while the session config is "
            "being built, so the script stops before it ever reaches the NPU. The Ascend guide always wraps "
            "the JSON in `tf.compat.as_bytes`.",
        example=_HEAD + f"custom_op.parameter_map[\"profiling_options\"].s = '{GOOD_OPTIONS}'\n" + _TAIL,
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="safe",
        fix_note="Wraps the value in `tf.compat.as_bytes(...)` (or `.encode()` when `tf` is not imported); "
                 "the bytes carry the same text, so nothing else changes.",
        references=(REF_SESSION,),
        group="wiring",
        facts=("collection.emulation.python_errors",),
    ),
    Rule(
        code="NPP009",
        name="duplicate-npu-optimizer",
        summary="more than one `NpuOptimizer` entry on one ConfigProto (entries are read in turn; a later entry "
                "without profiling_options resets them to the defaults)",
        default=True,
        level="warning",
        what="Two or more `custom_optimizers.add()` entries named `NpuOptimizer` on the same ConfigProto, as "
             "produced by inlined migration helpers or by `NPUEstimator`, which always appends its own.",
        why="The adapter walks all entries and lets a later one overwrite each key an earlier one set. "
            "Profiling is worse: once an entry switched `profiling_mode` on, the flag stays on for the later "
            "entries, and each later entry re-reads its own `profiling_options`, so an entry without them (such "
            "as the one NPUEstimator appends) replaces the user's options with the adapter's default set. Which "
            "options GE finally gets depends on the order of the entries rather than on what the script seems "
            "to say.",
        example=_HEAD + _SET_OPTIONS + (
            "custom_op2 = config.graph_options.rewrite_options.custom_optimizers.add()\n"
            "custom_op2.name = \"NpuOptimizer\"\n"
            "custom_op2.parameter_map[\"precision_mode\"].s = tf.compat.as_bytes(\"allow_mix_precision\")\n") + _TAIL,
        fixed=_HEAD + _SET_OPTIONS +
        "custom_op.parameter_map[\"precision_mode\"].s = tf.compat.as_bytes(\"allow_mix_precision\")\n" + _TAIL,
        fix_safety="none",
        fix_note="No fix: merging entries changes which value wins for keys set on both.",
        references=(REF_NPU_ATTRS, REF_ESTIMATOR, REF_MODELZOO),
        group="wiring",
        facts=("adapter.optimizer_entries_in_turn", "adapter.estimator_appends_entry",
               "collection.runtime_default_options."),
    ),
    # also reported by other_routes (enable_profiling, PROFILING_MODE)
    Rule(
        code="NPP010",
        name="profiling-switch-not-bool",
        summary="`enable_profiling` / `profiling_mode` given a non-bool (a string like `\"True\"` raises or "
                "reads wrong)",
        default=True,
        level="error",
        what="`parameter_map[\"profiling_mode\"].b`, `ProfilingConfig(enable_profiling=...)`, "
             "`npu_resource_init(enable_profiling=...)` or TF2 `profiling_config.enable_profiling` given a "
             "string, float or None instead of True/False.",
        why="The switch is typed: the protobuf bool field and the TF2 option raise TypeError for a string, "
            "`npu_resource_init` refuses anything but a real bool, and the Estimator route fails when it "
            "copies the value into the session config. The job stops before training starts.",
        example=_HEAD.replace(".b = True", '.b = "True"') + _SET_OPTIONS + _TAIL,
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="sometimes",
        fix_note="Replaces a `\"True\"`/`\"False\"` literal written at the switch of a `parameter_map` entry "
                 "with the bool it spells: safe, the string could only ever have meant that bool. No fix where "
                 "the value comes from elsewhere (a flag, a constant, a variable), for `1`/`0`, or at "
                 "`ProfilingConfig(enable_profiling=...)`, `npu_resource_init(...)` and TF2's "
                 "`profiling_config.enable_profiling = \"True\"`: write the bool there.",
        references=(REF_SESSION, REF_PROFILING_CONFIG, REF_TF2_API),
        group="wiring",
        facts=("collection.emulation.python_errors",),
    ),
    # also reported by other_routes (NPURunConfig with a DumpConfig)
    Rule(
        code="NPP202",
        name="profiling-with-data-dump",
        summary="profiling and data dump (`enable_dump`, `enable_dump_debug`) both switched on in one config: "
                "dump distorts the timings",
        default=True,
        level="warning",
        what="A config that switches profiling on and also turns on `enable_dump` or `enable_dump_debug`, "
             "under the same conditions; or one `NPURunConfig` given a `ProfilingConfig` with profiling on and "
             "a `DumpConfig` with a dump on. (A dump set on the `session_config`'s own NpuOptimizer entry is "
             "not counted there: NPUEstimator adds a later entry with the `DumpConfig` values, False by default, "
             "which overwrites it.)",
        why="The runtime accepts the combination, but dumping tensors adds copies and file writes to every "
            "step, so the profile measures the dump rather than the model. The profiling documentation says "
            "not to use the two together.",
        example=_HEAD + _SET_OPTIONS + (
            "custom_op.parameter_map[\"enable_dump\"].b = True\n"
            "custom_op.parameter_map[\"dump_path\"].s = tf.compat.as_bytes(\"/tmp/dump\")\n"
            "custom_op.parameter_map[\"dump_step\"].s = tf.compat.as_bytes(\"0|5|10\")\n") + _TAIL,
        fixed=_HEAD + _SET_OPTIONS + _TAIL,
        fix_safety="none",
        fix_note="No fix: which of the two the run is for is the user's decision.",
        references=(REF_CONSTRAINTS, REF_MODELZOO),
        group="hygiene",
        facts=("guidance.no_dump_with_profiling",),
    ),
)
