"""The astroid fallback: what the evaluator cannot see itself, inferred inside one file.

Bounded by work, never by time, so a file gives the same answer on any machine under any
load: files above MAX_BYTES are not parsed a second time, a file gets at most MAX_CALLS
inferences, and they may infer MAX_NODES nodes in all (astroid counts them per context).

astroid keeps process-wide state: its module cache and denylist, the inference caches, and
lru caches keyed by nodes. Another astroid user in the same process (pylint in an editor's
language server) must neither lose inference on the modules we deny nor see our trees, so
each of our calls runs inside `_isolated()`, which installs this file's own caches and
denylist and puts the process's back afterwards, also on an exception. Everything of ours
lives on the Fallback object and goes when the file is done.
"""

from __future__ import annotations

import collections
import functools
import importlib
from contextlib import contextmanager
from typing import Any, Dict, Iterable, List, Optional, Tuple

MAX_BYTES = 512 * 1024      # larger files are not parsed by astroid
MAX_CALLS = 40              # inferences per file
MAX_NODES = 4000            # nodes astroid may infer per file, over all calls

# lru caches keyed by nodes: (module, class, method); swapped for this file's own while we run
_NODE_LRU_CACHES = (
    ("astroid.nodes._base_nodes", "LookupMixIn", "lookup"),
    ("astroid.interpreter.objectmodel", "ObjectModel", "attributes"),
    ("astroid.nodes.scoped_nodes.scoped_nodes", "ClassDef", "_metaclass_lookup_attribute"),
)

NodeKey = Tuple[str, int, int, Optional[int], Optional[int]]


def _lru_owners() -> List[Tuple[type, str, Any]]:
    out = []
    for module, cls, attr in _NODE_LRU_CACHES:
        try:
            owner = getattr(importlib.import_module(module), cls)
        except (ImportError, AttributeError):
            continue
        wrapped = owner.__dict__.get(attr)
        if hasattr(wrapped, "cache_clear") and hasattr(wrapped, "__wrapped__"):
            out.append((owner, attr, wrapped))
    return out


class Fallback:
    """One file's astroid tree, caches and budget."""

    def __init__(self, text: str, filename: str, deny: Iterable[str]):
        self.text = text
        self.filename = filename
        self.deny = {d for d in deny if d}
        self.calls = 0
        self.nodes = 0
        self.exhausted = False              # a call was refused or cut short for lack of budget
        self._index: Optional[Dict[NodeKey, Any]] = None     # astroid nodes (astroid has no type stubs)
        self._modules: Dict[str, object] = {}         # what our calls put in astroid's module cache
        self._inference_cache: dict = {}
        self._tip_cache: collections.OrderedDict = collections.OrderedDict()
        self._lru: Dict[Tuple[type, str], object] = {}

    def infer(self, key: NodeKey) -> Optional[List[object]]:
        """The constant values astroid infers for the node at key (None: unknown)."""
        if len(self.text) > MAX_BYTES or self.calls >= MAX_CALLS or self.nodes >= MAX_NODES:
            self.exhausted = True
            return None
        self.calls += 1
        try:
            with self._isolated():
                return self._infer(key)
        except Exception:                   # astroid failures are "unknown", never an error
            return None

    def _infer(self, key: NodeKey) -> Optional[List[object]]:
        import astroid
        from astroid import util
        from astroid.context import InferenceContext
        index = self._tree_index()
        anode = index.get(key)
        if anode is None:
            return None
        context = InferenceContext()
        out = []
        try:
            for value in anode.infer(context=context):
                if value is util.Uninferable or not isinstance(value, astroid.nodes.Const):
                    return None
                out.append(value.value)
        finally:
            self.nodes += context.nodes_inferred
            if context.nodes_inferred > context.max_inferred or self.nodes > MAX_NODES:
                self.exhausted = True       # astroid stopped for the budget: the answer is partial
                out = []
        return out or None

    def _tree_index(self) -> Dict[NodeKey, Any]:
        if self._index is not None:
            return self._index
        import astroid
        self._index = {}
        tree = astroid.parse(self.text, module_name="__npuprof_checked__", path=self.filename)
        for n in tree.nodes_of_class(astroid.nodes.NodeNG):
            if getattr(n, "lineno", None) is None:
                continue
            self._index[(type(n).__name__, n.lineno, n.col_offset, n.end_lineno, n.end_col_offset)] = n
        return self._index

    @contextmanager
    def _isolated(self):
        from astroid import MANAGER
        # by module path: `astroid.inference_tip` is also the name of a function astroid exports
        context: Any = importlib.import_module("astroid.context")
        inference_tip: Any = importlib.import_module("astroid.inference_tip")
        modules = MANAGER.astroid_cache
        denylist = MANAGER.module_denylist
        before = dict(modules)
        added_deny = self.deny - denylist
        saved_cache = getattr(context, "_INFERENCE_CACHE", None)
        saved_tip = getattr(inference_tip, "_cache", None)
        owners = _lru_owners()
        try:
            denylist.update(added_deny)
            modules.update(self._modules)
            if saved_cache is not None:
                context._INFERENCE_CACHE = self._inference_cache
            if saved_tip is not None:
                inference_tip._cache = self._tip_cache
            for owner, attr, wrapped in owners:
                mine = self._lru.get((owner, attr))
                if mine is None:
                    size = wrapped.cache_parameters().get("maxsize") if hasattr(wrapped, "cache_parameters") \
                        else 128
                    mine = self._lru[(owner, attr)] = functools.lru_cache(maxsize=size)(wrapped.__wrapped__)
                setattr(owner, attr, mine)
            yield
        finally:
            for owner, attr, wrapped in owners:
                setattr(owner, attr, wrapped)
            if saved_tip is not None:
                inference_tip._cache = saved_tip
            if saved_cache is not None:
                context._INFERENCE_CACHE = saved_cache
            denylist.difference_update(added_deny)
            for name in [m for m in modules if before.get(m) is not modules[m]]:
                self._modules[name] = modules.pop(name)
            modules.update(before)
