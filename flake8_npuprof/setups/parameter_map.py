"""Profiling setups: one object per profiling configuration, whatever route built it."""

from __future__ import annotations

import ast
from typing import Dict, List, Optional, Tuple

from ..source.sites import Entry, Guard, ParamSet, Scope, Sites, dotted

NPU_OPTIMIZER = "NpuOptimizer"
# parameter_map keys of the NpuOptimizer (tfadapter npu_attrs.cc); used to tell NPU entries
# from other custom optimizers.
NPU_PARAMS = {
    "profiling_mode", "profiling_options", "use_off_line", "precision_mode", "enable_dump",
    "enable_dump_debug", "dump_path", "dump_step", "dump_mode", "dump_debug_mode", "mix_compile_mode",
    "iterations_per_loop", "graph_run_mode", "enable_data_pre_proc", "hcom_parallel", "op_debug_level",
    "op_select_implmode", "optypelist_for_implmode", "variable_memory_max_size", "graph_memory_max_size",
    "enable_exception_dump", "modify_mixlist", "customize_dtypes", "op_compiler_cache_mode",
    "op_compiler_cache_dir", "debug_dir", "dynamic_input", "dynamic_graph_execute_mode", "auto_tune_mode",
    "fusion_switch_file", "enable_scope_fusion_passes", "buffer_optimize", "input_shape", "dynamic_dims",
    "dynamic_node_type", "stream_max_parallel_num", "is_tailing_optimization", "enable_small_channel",
    "lower_functional_ops", "local_rank_id", "local_device_list", "jit_compile", "graph_exec_timeout",
    "hccl_timeout", "op_wait_timeout", "op_execute_timeout", "aoe_mode", "work_path", "session_device_id",
    "fp_point", "bp_point", "enable_profiling", "precision_mode_v2", "deterministic", "external_weight",
    "memory_optimization_policy", "atomic_clean_policy", "topo_sorting_mode", "ac_parallel_enable",
    "compile_dynamic_mode", "static_memory_policy", "experimental_config",
}
PROFILING_PARAMS = {"profiling_mode", "profiling_options"}


class Setup:
    """A profiling configuration built on one ConfigProto through NpuOptimizer entries."""

    route = "NpuOptimizer"

    def __init__(self, config_key, entries: List[Entry]):
        self.config_key = config_key
        self.entries = entries                     # NpuOptimizer entries on this config, in order
        self.params: Dict[str, List[ParamSet]] = {}
        for entry in entries:
            for p in entry.params:
                self.params.setdefault(p.key, []).append(p)

    @property
    def anchor(self) -> ast.AST:
        return self.entries[0].call

    def last(self, key: str) -> Optional[ParamSet]:
        """The assignment the adapter ends up reading for key (later entries overwrite)."""
        items = self.params.get(key)
        return items[-1] if items else None


def entry_name(entry: Entry) -> Tuple[Optional[str], Optional[ast.AST]]:
    """The literal name given to an entry (the last assignment), with its node."""
    if not entry.names:
        return None, None
    ns = entry.names[-1]
    if isinstance(ns.value, ast.Constant) and isinstance(ns.value.value, str):
        return ns.value.value, ns.value
    return None, ns.value


def is_npu_entry(entry: Entry) -> bool:
    if entry.orphan:
        return any(p.key in NPU_PARAMS for p in entry.params)
    name, node = entry_name(entry)
    if name == NPU_OPTIMIZER:
        return True
    if name is None and node is not None:
        return any(p.key in NPU_PARAMS for p in entry.params)    # computed name: judge by content
    return False


def config_key(sites: Sites, entry: Entry):
    """An identity for the ConfigProto an entry belongs to: ("node", id, the node) for a config made by an
    expression of this file."""
    expr = entry.config_expr
    if expr is None:
        return ("entry", id(entry.call))      # orphans: one config each, nothing shared
    if isinstance(expr, ast.Call):
        return ("node", id(expr), expr)
    key = dotted(expr)
    if key is None:
        return ("node", id(expr), expr)
    pos = sites.pos.at(entry.call, 0)
    value = sites.lookup(key, entry.scope, pos)
    if value is not None and not isinstance(value, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        if isinstance(value, ast.Attribute) and value.attr == "rewrite_options":
            inner = dotted(value.value.value) if isinstance(value.value, ast.Attribute) else None
            if inner:
                v2 = sites.lookup(inner, entry.scope, pos)
                return ("node", id(v2), v2) if v2 is not None else ("name", id(entry.scope), inner)
        return ("node", id(value), value)
    return ("name", id(_binding_scope(sites, key, entry.scope)), key)


def entry_expr(p: ParamSet) -> ast.expr:
    """The entry `E` in the target `E.parameter_map["key"].field` the parameter is set through."""
    target = p.target
    assert isinstance(target, ast.Attribute) and isinstance(target.value, ast.Subscript) and \
        isinstance(target.value.value, ast.Attribute)   # (the only shape source/sites.py takes as a ParamSet)
    return target.value.value.value


def _binding_scope(sites: Sites, key: str, scope: Scope) -> Scope:
    s: Optional[Scope] = scope
    while s is not None:
        if key in s.bindings:
            return s
        s = s.parent
    return scope


# what the adapter logs when precision_mode's string is outside its list (TF Adapter r1.12+, npu_attrs.cc
# CheckValueAllowed), as for the empty string a precision_mode.b leaves behind
PRECISION_REFUSED = "option precision_mode value '' is invalid"


def precision_writes(setup, pos):
    """The last precision_mode.b of an entry and the .s writes after it that can run with it: s and b are
    one oneof, so the last write decides. (None, []) when no .b is written. pos: the position of a node."""
    bools = [p for p in setup.params.get("precision_mode", []) if p.field == "b"]
    if not bools:
        return None, []
    last = bools[-1]
    at = pos(last.stmt)
    later = [q for q in setup.params["precision_mode"]
             if q.field == "s" and pos(q.stmt) > at and not exclusive(q.guards, last.guards)]
    return last, later


def exclusive(a: Tuple[Guard, ...], b: Tuple[Guard, ...]) -> bool:
    """Whether two guard chains can never hold together: the if/else branches of one test, or
    `x == "global"` against `x == "local"` (one value compared with two different constants)."""
    tests = {id(g.test): g.negated for g in a}
    if any(id(g.test) in tests and tests[id(g.test)] != g.negated for g in b):
        return True
    eq_a = {e for g in a if not g.negated for e in [_equality(g.test)] if e is not None}
    eq_b = {e for g in b if not g.negated for e in [_equality(g.test)] if e is not None}
    return any(x[0] == y[0] and x[1] != y[1] for x in eq_a for y in eq_b)


def _equality(test) -> Optional[Tuple[str, object]]:
    """(subject, constant) for a test `subject == constant`."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) and \
            isinstance(test.comparators[0], ast.Constant) and not isinstance(test.left, ast.Constant):
        return ast.dump(test.left), test.comparators[0].value
    return None


def npu_setups(sites: Sites) -> List[Setup]:
    groups: Dict[object, List[Entry]] = {}
    for entry in sites.entries:
        if not entry.params and not entry.names:
            continue
        groups.setdefault(config_key(sites, entry), []).append(entry)
    setups = []
    for key, entries in groups.items():
        # a misnamed entry with NPU parameters (NPP003) is still checked as the user meant it
        npu = [e for e in entries if is_npu_entry(e) or any(p.key in NPU_PARAMS for p in e.params)]
        if npu:
            setups.append(Setup(key, npu))
    return setups
