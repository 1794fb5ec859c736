"""Where a config object goes: consumed by a session or helper, escaping the file's view, or nowhere.

A config counts as consumed when it is passed to any call (a consumer, or a function this file
cannot see into), returned, stored on an object or in a container, or aliased: only a config
that provably stays inside its function unused is "never handed over".
"""

from __future__ import annotations

import ast
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..source.imports import is_npu
from ..source.sites import CallSite, Scope, Sites

# the session creators make a tf.Session with the config they are given when a MonitoredSession starts
SESSIONS = ("Session", "InteractiveSession", "MonitoredTrainingSession", "ChiefSessionCreator", "WorkerSessionCreator")
RUN_CONFIGS = ("RunConfig", "NPURunConfig")
HELPERS = {  # helper → (keyword, position) of the config it takes
    "npu_config_proto": ("config_proto", 0),
    "set_keras_session_npu_config": ("config", 0),
    "init_resource": ("config", 0),
    "npu_run_config_init": ("run_config", 0),
}
_CONSUMER_NAMES = (*SESSIONS, *RUN_CONFIGS, *HELPERS, "NPUEstimator")      # every last name kind_of knows


class Use(NamedTuple):
    node: ast.AST
    how: str                    # "call", "return", "store", "container", "alias", "attribute", "other"
    call: Optional[ast.Call] = None
    condition: Optional[ast.AST] = None     # handed over only when this holds (`x if cond else None`)
    negated: bool = False


class Flow:
    def __init__(self, sites: Sites):
        self.sites = sites
        self.parent = sites.parent          # recorded by the sites walk
        self.keys_bound_to = sites.keys_bound_to
        self._consumers: Optional[List[CallSite]] = None
        self._uses: Dict[int, Tuple[ast.AST, Tuple[Use, ...]]] = {}

    def uses_of(self, value: ast.AST) -> Tuple[Use, ...]:
        """How the object created by `value` is used, through the names bound to it (found once per value:
        the inventory, the wiring and hygiene checks all ask)."""
        found = self._uses.get(id(value))
        if found is None:       # the value is kept with its uses, so its id is not reused meanwhile
            found = self._uses[id(value)] = (value, tuple(self._uses_of(value)))
        return found[1]

    def _uses_of(self, value: ast.AST) -> List[Use]:
        out = []
        sites = self.sites
        slots: Dict[Tuple[int, str], Tuple[Scope, str, int]] = {}
        for scope, key, i in sites.slots_of(value):            # a value bound twice to one key: once
            slots.setdefault((id(scope), key), (scope, key, i))
        for scope, key, i in slots.values():
            if key.startswith("self."):
                methods = [s for s in sites.scopes if s.klass is scope and s.self_name]
                for where, name in [(inner, f"{m.self_name}.{key[5:]}") for m in methods for inner in sites.within(m)]:
                    for node in sites.loads_in(where, name):
                        # only loads that can see this binding (same scope, or one that reads it)
                        if sites.sees(name, where, sites.pos.at(node, 0), value):
                            out.append(self._classify(node))
            else:
                out.extend(self._classify(node) for node in self._loads_seeing(scope, key, i))
            if key.startswith("self."):
                # an instance attribute read from outside the class (`trainer.config`)
                attr = key[5:]
                selves = {s.self_name for s in sites.scopes if s.klass is scope}
                for name, nodes in sites.loads_ending(attr):
                    if name.split(".", 1)[0] not in selves:
                        out.extend(self._classify(node) for node in nodes)
        # the creation itself, unless it is just being bound to its name
        if not isinstance(self.parent.at(value), (ast.Assign, ast.AnnAssign)):
            out.append(self._classify(value))
        return out

    def _loads_seeing(self, scope, key: str, i: int) -> List[ast.AST]:
        """The loads that see binding i of key, in walk order (nested scopes after their parent's)."""
        loads = self.sites.loads_seeing(scope, key, i)
        pos = self.sites.pos
        if scope.kind == "module":
            return sorted(loads, key=lambda n: pos.at(n, 0))
        rank = {id(s): k for k, s in enumerate(self.sites.within(scope))}
        scope_of = self.sites.scope_of
        return sorted(loads, key=lambda n: (rank.get(id(scope_of.at(n)), 0), pos.at(n, 0)))

    def _classify(self, node: ast.AST) -> Use:
        parent = self.parent.at(node)
        if parent is None:
            return Use(node, "other")
        if isinstance(parent, ast.IfExp) and node is not parent.test:
            # `cfg if flags.profiling else None`: handed over wherever the expression goes, conditionally
            use = self._classify(parent)
            return use._replace(node=node, condition=parent.test, negated=node is parent.orelse)
        if isinstance(parent, ast.Attribute) and parent.value is node:
            return Use(node, "attribute")
        if isinstance(parent, ast.keyword):
            call = self.parent.at(parent)
            return Use(node, "call", call if isinstance(call, ast.Call) else None)
        if isinstance(parent, ast.Call) and node is not parent.func:
            return Use(node, "call", parent)
        if isinstance(parent, ast.Starred):
            return Use(node, "container")
        if isinstance(parent, (ast.Return, ast.Yield, ast.YieldFrom, ast.Lambda)):
            return Use(node, "return")
        if isinstance(parent, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            return Use(node, "container")
        if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and getattr(parent, "value", None) is node:
            return Use(node, "alias")
        return Use(node, "other")

    def is_consumed(self, value: ast.AST) -> bool:
        """Whether the object is handed over anywhere (or escapes the file's view)."""
        return any(use.how in ("call", "return", "container", "alias") for use in self.uses_of(value))

    # ---- consumers by kind

    def consumer_calls(self) -> List[CallSite]:
        # asked once per config followed: found once per file, handed out as a fresh list
        if self._consumers is None:
            # only calls named like a consumer can be one (kind_of reads the last name): from the index of
            # calls by last name, back in walk order
            sites = self.sites
            sites.force_names(_CONSUMER_NAMES)     # (the sessions' in one search)
            named = [s for last in _CONSUMER_NAMES for s in sites.calls_named(last) if self.kind_of(s) is not None]
            self._consumers = sorted(named, key=lambda s: sites.pos.at(s.call))
        return list(self._consumers)

    def kind_of(self, site: CallSite) -> Optional[str]:
        name = site.name or ""
        last = name.rsplit(".", 1)[-1]
        if last in SESSIONS:
            return "session"
        if last in RUN_CONFIGS:
            return "run_config"
        if last in HELPERS and (is_npu(self.sites, site.call.func, last) or last not in self.sites.functions):
            return last
        if last == "NPUEstimator":
            return "npu_estimator"
        return None


def helper_config_arg(call: ast.Call, helper: str) -> Optional[ast.AST]:
    keyword, index = HELPERS[helper]
    for k in call.keywords:
        if k.arg == keyword:
            return k.value
    if len(call.args) > index:
        return call.args[index]
    return None


def has_keyword(call: ast.Call, *names: str) -> bool:
    return any(k.arg in names or k.arg is None for k in call.keywords)
