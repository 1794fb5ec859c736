"""The profiling routes other than the NpuOptimizer parameter_map, found in the sites.

Each route yields RouteSetup records: where profiling is switched on and where its options
come from. ProfilingConfig, npu_resource_init and npu_device are matched through the imports;
environment variables through `os.environ` / `os.putenv` (with the usual aliases).
"""

from __future__ import annotations

import ast
from functools import wraps
from typing import Dict, List, NamedTuple, Optional, Tuple, cast

from ..source.imports import NPU_INIT_EXPORTS, is_npu_device, qualified
from ..source.sites import CallSite, Guard, Scope, Sites, dotted

ENV_MODE, ENV_OPTIONS = "PROFILING_MODE", "PROFILING_OPTIONS"


class Arg(NamedTuple):
    node: ast.AST               # the value expression
    anchor: ast.AST             # where to report (the keyword or the value)


class RouteSetup(NamedTuple):
    route: str                  # "ProfilingConfig", "npu_resource_init", "env", "npu_device"
    anchor: ast.Call            # the call that configures profiling
    scope: Scope
    pos: int
    guards: Tuple[Guard, ...]
    mode: Optional[Arg]         # enable_profiling / PROFILING_MODE value
    options: Optional[Arg]      # profiling_options / PROFILING_OPTIONS value
    legacy: Tuple[ast.keyword, ...] = ()    # removed pre-2021 arguments
    extra: tuple = ()


def argument(call: ast.Call, name: str, index: Optional[int]) -> Optional[Arg]:
    for k in call.keywords:
        if k.arg == name:
            return Arg(k.value, k)
    if index is not None and index < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
        return Arg(call.args[index], call.args[index])
    return None


LEGACY_ARGS = ("enable_options", "fp_point", "bp_point")   # removed from the adapter in 2020-12


def per_file(route):
    """Each route is read several times per file (checks, inventory, hygiene): found once per
    sites, handed out as a fresh list so that no caller can change another's."""
    @wraps(route)
    def cached(sites: Sites) -> list:
        found = cast("Optional[list]", sites.memo.get(route))     # (a string: typing would build Optional[list] at each call)
        if found is None:
            found = sites.memo[route] = route(sites)
        return list(found)
    return cached


def _npu_calls(sites: Sites, name: str) -> List[CallSite]:
    """Calls of the adapter object `name` (is_npu on the called expression), by one index per file."""
    index = cast("Optional[Dict[str, List[CallSite]]]", sites.memo.get(_npu_calls))
    if index is None:
        index = {}
        sites.memo[_npu_calls] = index
        # a call taken below is named from its head: an import of the adapter, or a name npu_init exports
        # when it is imported with `*` (qualified)
        heads = [local for local, path in sites.imports.items() if path.startswith("npu_bridge")]
        if any(s.startswith("npu_bridge") for s in sites.star_imports):
            heads += NPU_INIT_EXPORTS
        for site in sites.calls_for(heads, whole=True):
            # qualified() names only a dotted call whose head is imported or an npu_init export: others are
            # passed over on the name the walk already made
            head = (site.name or "?").partition(".")[0]
            imported = sites.imports.get(head)
            if imported is None and head not in NPU_INIT_EXPORTS:
                continue
            if imported is not None and not imported.startswith("npu_bridge"):
                continue                    # qualified() would name it from that import: not the adapter
            q = qualified(sites, site.call.func)
            if q and q.startswith("npu_bridge"):
                index.setdefault(q.rsplit(".", 1)[-1], []).append(site)
    return index.get(name, [])


def _call_routes(sites: Sites, name: str, positional: bool) -> List[RouteSetup]:
    """Calls of an adapter function taking (enable_profiling, profiling_options)."""
    out = []
    for site in _npu_calls(sites, name):
        call = site.call
        legacy = tuple(k for k in call.keywords if k.arg in LEGACY_ARGS)
        out.append(RouteSetup(name, call, site.scope, _pos(sites, call), site.guards,
                              argument(call, "enable_profiling", 0 if positional else None),
                              argument(call, "profiling_options", 1 if positional else None), legacy))
    return out


@per_file
def profiling_configs(sites: Sites) -> List[RouteSetup]:
    return _call_routes(sites, "ProfilingConfig", positional=True)


@per_file
def resource_inits(sites: Sites) -> List[RouteSetup]:
    return _call_routes(sites, "npu_resource_init", positional=False)


# ---------------------------------------------------------------- environment variables

class EnvSet(NamedTuple):
    name: str                   # PROFILING_MODE or PROFILING_OPTIONS
    value: Optional[ast.AST]    # None when deleted / unknown
    anchor: ast.AST
    scope: Scope
    pos: int
    guards: Tuple[Guard, ...]


def _is_environ(sites: Sites, node) -> bool:
    name = dotted(node)
    if name in ("os.environ", "environ"):
        return name == "os.environ" or sites.imports.get("environ") == "os.environ"
    return qualified(sites, node) == "os.environ"


@per_file
def env_sets(sites: Sites) -> List[EnvSet]:
    """Assignments of PROFILING_MODE / PROFILING_OPTIONS made from Python."""
    # the variable's name is tested first: it is cheap and rare, resolving os.environ is neither
    names = (ENV_MODE, ENV_OPTIONS)
    out = []
    Subscript = ast.Subscript           # (every assignment of the file is looked at: the test is kept cheap)
    for target, value, stmt, scope, guards in [a for a in sites.assigns if type(a[0]) is Subscript]:
        target = cast(ast.Subscript, target)
        key = _const(target.slice)
        if key in names and _is_environ(sites, target.value):
            out.append(EnvSet(key, value, stmt, scope, _pos(sites, stmt), guards))
    # a call taken below is named pop, update, setdefault or putenv (or an import of os.putenv) in its own
    # text; the variable's name may not be (`"\x50ROFILING_MODE"`, `"PROF" "ILING_MODE"`)
    # A file that spells neither environ nor putenv sets nothing so (each set below is made on what names
    # os.environ or os.putenv, and no name leads there without spelling it): its pop/update calls, often many,
    # are not searched for and walked
    words = ["pop", "update", "setdefault", "putenv"] if sites.may_hold("environ") or sites.may_hold("putenv") else []
    words += [local for local, path in sites.imports.items() if path == "os.putenv"]
    for site in sites.calls_for(words, whole=True) if words else ():
        call = site.call
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "pop" and call.args:
            key = _const(call.args[0])          # os.environ.pop(K): from here the variable is gone
            if key in names and _is_environ(sites, func.value):
                out.append(EnvSet(key, None, call, site.scope, _pos(sites, call), site.guards))
        elif isinstance(func, ast.Attribute) and func.attr in ("update", "setdefault"):
            if func.attr == "setdefault":
                key = _const(call.args[0]) if len(call.args) == 2 else None
                if key in names and _is_environ(sites, func.value):
                    out.append(EnvSet(key, call.args[1], call, site.scope, _pos(sites, call), site.guards))
            else:
                items = []
                if call.args and isinstance(call.args[0], ast.Dict):
                    items = [(_const(k), v) for k, v in zip(call.args[0].keys, call.args[0].values) if k is not None]
                items += [(k.arg, k.value) for k in call.keywords if k.arg]
                named = [(key, v) for key, v in items if key is not None and key in names]
                if named and _is_environ(sites, func.value):
                    for key, v in named:
                        out.append(EnvSet(key, v, call, site.scope, _pos(sites, call), site.guards))
        elif len(call.args) == 2 and type(call.args[0]) is ast.Constant and call.args[0].value in names and \
                (dotted(func) in ("os.putenv", "putenv") or qualified(sites, func) == "os.putenv"):
            key = _const(call.args[0])
            assert key is not None              # (a str constant: one of names)
            out.append(EnvSet(key, call.args[1], call, site.scope, _pos(sites, call), site.guards))
    for target, stmt, scope, guards in sites.deletes:      # `del os.environ[K]`: gone from here
        if type(target) is ast.Subscript:
            key = _const(target.slice)
            if key is not None and key in names and _is_environ(sites, target.value):
                out.append(EnvSet(key, None, stmt, scope, _pos(sites, stmt), guards))
    return out


def last_values(sets: List[EnvSet]) -> List[EnvSet]:
    """The sets whose value is not replaced later in the same scope by a set of the same variable that
    runs whenever this one does (its guards are among this one's), in their order.

    Guards accumulate down the tree, so within one scope a set's guards are among another's exactly
    when they are a prefix of them: each set looks its own prefixes up among the guards of the sets
    after it, instead of comparing itself with every one of them (N sets of one variable were N^2).
    """
    later: Dict[Tuple[str, int], set] = {}      # (variable, scope) -> guard tuples of the sets after, by prefix id
    keep = [True] * len(sets)
    ids: Dict[tuple, int] = {}
    prefixes = [_prefix_ids(s.guards, ids) for s in sets]
    order = sorted(range(len(sets)), key=lambda k: sets[k].pos, reverse=True)
    k = 0
    while k < len(order):
        same = [order[k]]                       # sets at one position do not replace each other
        while k + len(same) < len(order) and sets[order[k + len(same)]].pos == sets[order[k]].pos:
            same.append(order[k + len(same)])
        for i in same:
            s = sets[i]
            seen = later.get((s.name, id(s.scope)))
            keep[i] = not seen or not any(p in seen for p in prefixes[i])
        for i in same:
            s = sets[i]
            later.setdefault((s.name, id(s.scope)), set()).add(prefixes[i][-1])
        k += len(same)
    return [s for s, kept in zip(sets, keep) if kept]


def _prefix_ids(guards, ids: Dict[tuple, int]) -> List[int]:
    """A number for each prefix of `guards` (the empty one first), equal for equal prefixes: comparing
    prefixes by number costs one step each, where slicing and hashing a tuple of k guards costs k."""
    out, cur = [0], 0
    for g in guards:
        cur = ids.setdefault((cur, id(g.test), g.negated), len(ids) + 1)
        out.append(cur)
    return out


# ---------------------------------------------------------------- TF2 npu_device

class Tf2Set(NamedTuple):
    attr: str                   # "enable_profiling" or "profiling_options"
    value: Optional[ast.AST]    # None: an augmented assignment
    target: ast.AST
    stmt: ast.AST
    scope: Scope
    pos: int
    guards: Tuple[Guard, ...]


def _global_options_call(sites: Sites, node, scope, pos, depth=0) -> bool:
    """Whether node evaluates to npu.global_options() (directly or through a variable)."""
    if depth > 4:
        return False
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr == "global_options" and \
            (is_npu_device(sites, node.func.value) or is_npu_device(sites, node.func))
    key = dotted(node)
    if key:
        for b in sites.bindings_at(key, scope, pos):
            if b.value is not None and _global_options_call(sites, b.value, b.scope, b.pos, depth + 1):
                return True
    return False


@per_file
def tf2_sets(sites: Sites) -> List[Tf2Set]:
    out = []
    Attribute, attrs = ast.Attribute, ("enable_profiling", "profiling_options")     # (as in env_sets)
    for target, value, stmt, scope, guards in [a for a in sites.assigns if type(a[0]) is Attribute and
                                               a[0].attr in attrs]:
        target = cast(ast.Attribute, target)
        holder = target.value       # ...profiling_config
        pos = _pos(sites, stmt)
        if isinstance(holder, ast.Attribute) and holder.attr == "profiling_config":
            if not _global_options_call(sites, holder.value, scope, pos):
                continue
        elif not _is_profiling_config_var(sites, holder, scope, pos):
            continue
        out.append(Tf2Set(target.attr, value, target, stmt, scope, pos, guards))
    return out


def _is_profiling_config_var(sites, node, scope, pos) -> bool:
    key = dotted(node)
    if not key:
        return False
    for b in sites.bindings_at(key, scope, pos):
        v = b.value
        if isinstance(v, ast.Attribute) and v.attr == "profiling_config" and \
                _global_options_call(sites, v.value, b.scope, b.pos):
            return True
    return False


@per_file
def npu_opens(sites: Sites) -> List[CallSite]:
    # is_npu_device holds only for a name imported from npu_device (qualified() through the imports): without
    # one, no `open(` is looked for
    if not any(path.split(".")[0] == "npu_device" for path in sites.imports.values()):
        return []
    return [s for s in sites.calls_for(("open",), whole=True)
            if isinstance(s.call.func, ast.Attribute) and s.call.func.attr == "open"
            and is_npu_device(sites, s.call.func.value)]


@per_file
def profiler_scopes(sites: Sites) -> List[CallSite]:
    return list(_npu_calls(sites, "Profiler"))


# ---------------------------------------------------------------- helpers

def _const(node) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _pos(sites: Sites, node) -> int:
    return sites.pos.at(node, 0)
