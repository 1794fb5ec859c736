"""Which framework a dynamic-profiling `profiler_config.json` is for, and its check: torch_npu's (NPP311,
checks/dynamic_json.py) or MindSpore's (NPP356, checks/mindspore_dynamic_json.py). Both frameworks read a file of
that name from a folder a script names, and their keys overlap.

The framework is the script's where one says it (`npuprof check` passes it in: the file in the folder a script's
literal `dynamic_profile.init(dir)` or `DynamicProfilerMonitor(cfg_path=dir)` names, or beside a script using
either), or the one `--framework` names; else the file's keys decide where they can (a key only one framework
reads: knowledge/mindspore_dynamic.deciding_keys). A file they do not decide is reported only where both
frameworks lose the same setting, each code saying what its own framework does: nothing is guessed.
"""

from __future__ import annotations

import ast
from typing import List, Optional, Set

from ..knowledge import mindspore_dynamic as K
from ..knowledge.run_settings import Settings
from ..source import jsonscan
from ..source.model import Finding


def framework_of(text: str) -> Optional[str]:
    """The framework a file's keys decide (None: they do not)."""
    doc = jsonscan.parse(text)
    if not doc.ok:
        return None
    return K.framework_by_keys(m.key for m in doc.members)


def check_text(text: str, target, framework: Optional[str] = None) -> List[Finding]:
    from . import dynamic_json, mindspore_dynamic_json
    framework = framework or framework_of(text)
    if framework == K.MINDSPORE:
        return mindspore_dynamic_json.check_text(text)
    if framework == K.TORCH_NPU:
        return dynamic_json.check_text(text, target)
    # undecided: what both lose, at the same key or value (a missing key: the same key, at the object)
    torch = [p for p in dynamic_json.problems(text) if dynamic_json.reported(p, target)]
    ms = mindspore_dynamic_json.problems(text)

    def same(t: dynamic_json.Problem, p: mindspore_dynamic_json.Problem) -> bool:
        return t.start == p.start and t.key == p.key
    agreed = dynamic_json.findings([t for t in torch if any(same(t, p) for p in ms)], text, target)
    agreed += mindspore_dynamic_json.findings([p for p in ms if any(same(t, p) for t in torch)], text)
    return sorted(agreed, key=Finding.sort_key)


def check_file(text: str, path: str, settings: Settings, framework: Optional[str] = None) -> List[Finding]:
    """check_text for `npuprof check`, the language server and validate: an internal error is NPP000, as for
    Python files, never a crash."""
    try:
        return check_text(text, settings.target, framework)
    except Exception as exc:            # same contract as Python files
        from .analysis import internal_error
        return [internal_error(exc)]


# ---------------------------------------------------------------- what a script says about the file

def script_frameworks(text: str) -> Set[str]:
    """The frameworks whose dynamic profiling a script starts (`dynamic_profile.init(...)`,
    `DynamicProfilerMonitor(...)`), whatever folder it names."""
    out: Set[str] = set()
    if "dynamic_profile" not in text and "DynamicProfilerMonitor" not in text and "PROF_CONFIG_PATH" not in text:
        return out
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return out
    from .dynamic_json import init_folders
    from .mindspore_dynamic_json import monitor_names
    from ..source.site_records import dotted
    ms = monitor_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and dotted(node.func) in ms:
            out.add(K.MINDSPORE)
    if ("dynamic_profile" in text or "PROF_CONFIG_PATH" in text) and (init_folders(text) or _torch_init_called(tree)):
        out.add(K.TORCH_NPU)
    return out


def _torch_init_called(tree: ast.AST) -> bool:
    """A `dynamic_profile.init(x)` call with any argument (init_folders takes only literal folders)."""
    from ..source.site_records import dotted
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = dotted(node.func) or ""
            if name.endswith("dynamic_profile.init"):
                return True
    return False


def pointed_folders(text: str):
    """(framework, folder) for each literal folder a script hands either framework's dynamic profiling."""
    from .dynamic_json import init_folders
    from .mindspore_dynamic_json import monitor_folders
    return [(K.TORCH_NPU, f) for f in init_folders(text)] + [(K.MINDSPORE, f) for f in monitor_folders(text)]
