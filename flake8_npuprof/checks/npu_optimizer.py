"""Checks of the NpuOptimizer custom-optimizer route (ConfigProto parameter_map)."""

from __future__ import annotations

import ast
import difflib
from typing import Optional

from ..source.code_edits import insert_after, source_of
from ..source.model import Edit, Fix
from ..setups.parameter_map import NPU_OPTIMIZER, NPU_PARAMS, Setup, entry_name, exclusive, is_npu_entry, npu_setups
from ..source.sites import Entry, ParamSet
from ..values.ops import Opaque
from ..values.reader import truthy, unwrap
from .common import check_options_expr
from ..knowledge.collection import EXPLICIT_DEFAULTS


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
            _check_str_field(ctx, options)
            strings = check_options_expr(ctx, options.value, options.scope, ctx.pos(options.stmt), mode_on)
            if not strings.candidates or any(c.text.strip() for c in strings.candidates):
                empty = False
        mode = setup.last("profiling_mode")
        escaped = any(e.used_elsewhere for e in setup.entries)
        wrong_field = any(p.field != "s" for p in setup.params.get("profiling_options", []))
        # options through the wrong field: NPP004 already says the adapter falls back to its defaults
        if mode_on and empty and mode is not None and not escaped and not wrong_field:
            fix = None
            if not setup.params.get("profiling_options"):
                entry = source_of(ctx.src, mode.target.value.value.value)
                edit = insert_after(ctx.src, mode.stmt,
                                    f'{entry}.parameter_map["profiling_options"].s = b\'{EXPLICIT_DEFAULTS}\'')
                fix = Fix((edit,), True, "write out the default options") if edit else None
            ctx.report_node(
                "NPP002", mode.target,
                "profiling is switched on without profiling_options: the adapter (r1.8+) substitutes its "
                'defaults (output "./", training/task trace, hccl, aicpu, PipeUtilization) and r1.2-r1.7 '
                'abort ("profiling_options must be set when use profiling"); set profiling_options '
                "explicitly", fix)
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
    return "npu" in plain and difflib.SequenceMatcher(None, plain, NPU_OPTIMIZER.lower()).ratio() >= 0.8


def _check_name(ctx, entry: Entry) -> None:
    if entry.orphan or not any(p.key in NPU_PARAMS for p in entry.params):
        return
    npu_only = any(p.key in NPU_ONLY_PARAMS for p in entry.params)
    name, node = entry_name(entry)
    if node is None:
        if entry.used_elsewhere or entry.bound_to is None and not entry.params or not npu_only:
            return
        ctx.report_node("NPP003", entry.call,
                        "this custom optimizer gets NPU parameters but no name: the adapter reads only "
                        f'entries named "{NPU_OPTIMIZER}", so none of its settings apply; set '
                        f'.name = "{NPU_OPTIMIZER}"')
        return
    if name is None:
        strings = ctx.values.strings(node, entry.scope, ctx.pos(node))
        texts = {c.text for c in strings.candidates}
        if len(texts) != 1 or not strings.candidates:
            return
        name = texts.pop()
        if name == NPU_OPTIMIZER or not (npu_only or _near_miss(name)):
            return
        ctx.report_node("NPP003", node, _name_message(name))
        return
    if name == NPU_OPTIMIZER or not (npu_only or _near_miss(name)):
        return
    fix = None
    if _near_miss(name):
        from ..source.literal_edits import text_edits_to_source
        lit = ctx.values.strings(node, entry.scope, 0).candidates
        edits = text_edits_to_source(ctx.src, lit[0], [(0, len(lit[0].text), NPU_OPTIMIZER)]) if lit else None
        if edits:
            fix = Fix(tuple(edits), True, f'rename to "{NPU_OPTIMIZER}"')
    ctx.report_node("NPP003", node, _name_message(name), fix)


def _name_message(name: str) -> str:
    return (f'custom optimizer named "{name}" carries NPU parameters, but the adapter reads only entries '
            f'named exactly "{NPU_OPTIMIZER}": none of its settings (profiling included) apply; '
            f'name it "{NPU_OPTIMIZER}"')


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
            f"a second NpuOptimizer entry on the same ConfigProto (the first is on line {line}): the "
            "adapter reads both in turn and later keys overwrite earlier ones; once profiling_mode is on, a "
            "later entry without profiling_options resets them to the adapter's defaults; set every parameter "
            "on one entry")


# ---------------------------------------------------------------- NPP004, NPP005, NPP010

def _check_fields(ctx, setup: Setup) -> None:
    for key, items in setup.params.items():
        for p in items:
            if key == "profiling_mode" and p.field != "b":
                ctx.report_node(
                    "NPP004", p.target,
                    f'profiling_mode is set through .{p.field}, but the adapter reads the bool field .b: '
                    "profiling stays off; write parameter_map[\"profiling_mode\"].b = True",
                    _field_fix(ctx, p, "b"))
            elif key == "profiling_options" and p.field != "s":
                ctx.report_node(
                    "NPP004", p.target,
                    f"profiling_options is set through .{p.field}, but the adapter reads the bytes field .s: "
                    "it sees empty options and falls back to its defaults; write "
                    'parameter_map["profiling_options"].s = tf.compat.as_bytes(...)')
            elif key == "profiling_mode" and p.field == "b":
                _check_bool_value(ctx, p)
    precision = [p for p in setup.params.get("precision_mode", []) if p.field == "b"]
    if precision and "profiling_options" in setup.params and "profiling_mode" not in setup.params:
        p = precision[-1]
        ctx.report_node(
            "NPP004", p.target,
            'precision_mode is a string option read from .s, so this .b is ignored; next to profiling '
            'options it is almost surely meant as parameter_map["profiling_mode"].b, and as written '
            "profiling stays off",
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
        f"profiling_mode .b is given {shown} ({kind}): protobuf accepts only a bool (or int) here and "
        "raises TypeError when the config is built; pass True or False", fix)


def _check_str_field(ctx, p: ParamSet) -> None:
    strings = ctx.values.strings(p.value, p.scope, ctx.pos(p.stmt))
    if strings.py_type != "str":
        return
    ctx.report_node(
        "NPP005", p.value,
        "profiling_options .s is a bytes field but is given a str: protobuf raises TypeError when the "
        "config is built; wrap the value in tf.compat.as_bytes(...)",
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
               True, f"write .{field} = {word}")


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
            f"profiling and data dump ({key}) are both on in this config: dumping distorts the timings "
            "the profile measures; profile and dump in separate runs")
