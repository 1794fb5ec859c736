"""What a called name refers to, through the file's imports (aliases and star imports).

Only names that really come from the Ascend adapter are matched: another library's own
`ProfilingConfig(enable_profiling=...)` is not ours, while `from npu_bridge.npu_init import *`
and `import npu_device as npu` are.
"""

from __future__ import annotations

import ast
from typing import Optional

from .sites import Sites, dotted

# What `from npu_bridge.npu_init import *` brings in that we care about.
NPU_INIT_EXPORTS = {
    "ProfilingConfig": "npu_bridge.estimator.npu.npu_config.ProfilingConfig",
    "NPURunConfig": "npu_bridge.estimator.npu.npu_config.NPURunConfig",
    "DumpConfig": "npu_bridge.estimator.npu.npu_config.DumpConfig",
    "NPUEstimator": "npu_bridge.estimator.npu.npu_estimator.NPUEstimator",
    "npu_config_proto": "npu_bridge.npu_init.npu_config_proto",
    "npu_run_config_init": "npu_bridge.npu_init.npu_run_config_init",
    "init_resource": "npu_bridge.npu_init.init_resource",
    "set_keras_session_npu_config": "npu_bridge.npu_init.set_keras_session_npu_config",
    "npu_resource_init": "npu_bridge.estimator.npu.npu_plugin.npu_resource_init",
    "npu_ops": "npu_bridge.estimator.npu_ops",
    "Profiler": "npu_bridge.profiler.profiler.Profiler",
}


def qualified(sites: Sites, node: ast.AST) -> Optional[str]:
    """The imported dotted path an expression names, or None when it is local or unknown."""
    cache = sites.qualified_cache
    if id(node) not in cache:
        cache[id(node)] = _qualified(sites, node)
    return cache[id(node)]


def _qualified(sites: Sites, node: ast.AST) -> Optional[str]:
    name = dotted(node)
    if not name:
        return None
    head, _, rest = name.partition(".")
    target = sites.imports.get(head)
    if target is not None:
        # a name rebound in the module after the import is no longer the import
        binds = sites.module.bindings.get(head, [])
        if binds and not isinstance(binds[-1].stmt, (ast.Import, ast.ImportFrom)):
            return None
        return target + ("." + rest if rest else "")
    if head in NPU_INIT_EXPORTS and any(s.startswith("npu_bridge") for s in sites.star_imports):
        if head in sites.module.bindings:
            return None
        return NPU_INIT_EXPORTS[head] + ("." + rest if rest else "")
    return None


def is_npu(sites: Sites, node: ast.AST, *names: str) -> bool:
    """Whether node names one of the adapter's objects (by final name, from npu_bridge)."""
    q = qualified(sites, node)
    if not q or not q.startswith("npu_bridge"):
        return False
    return q.rsplit(".", 1)[-1] in names


def is_npu_device(sites: Sites, node: ast.AST) -> bool:
    q = qualified(sites, node)
    return q is not None and q.split(".")[0] == "npu_device"
