"""A launch whose project profiles with torch's or torch_npu's legacy profiler API in a module its script imports
(ModelZoo-PyTorch's MAE and BEiT: `with torch.autograd.profiler.profile(use_npu=True)` in engine_*.py's profiling(),
`with torch.npu.profile(path)` in cann_profiling(), which the script calls under `if args.prof:`): what each such
call does on the target's torch_npu releases when it runs, and whether it runs in this launch.

What a call does is what NPP308 says (checks/torch_npu.py, data/torch_npu.json "legacy"): `use_npu` is a keyword
of the profile torch_npu's builds for torch 1.8.1-2.0.1 put in torch.autograd.profiler, so it raises TypeError on
7.0+ and depends on the build on 5.0 and 6.0 (stock torch's profile takes none); the legacy
`torch.npu.profile` family is in torch_npu 5.0 and gone from 6.0 (AttributeError). What 5.0's legacy profiler
collects is not replayed here (as torch_run.py does not replay 5.0). Whether the call runs is imported.py's
reading of the module with the launch's flags: the script's call of the function that holds it, and the `if`s on
the way; where that is not known, the answer is unknown and says where the call runs.
"""

from __future__ import annotations

import ast
import os
import re
from typing import List, Optional, Tuple

from ..knowledge import torch_npu as K
from .message import in_file

# the facts this module's claims rest on (data/sources.json; tests/test_audit.py holds them)
FACTS = ("torch_npu.legacy", "torch_npu.utils_profile.torch")
# the model zoo's Profile, judged by zoo_profile.py: its import is not another API
_PROFILE_IMPORT = re.compile(r"torch_npu\.utils\.profiler\b")
_AUTOGRAD = "torch.autograd.profiler.profile"


def judge(ls, path: str, target, zoo: bool = False) -> Optional[Tuple[str, str, Optional[bool]]]:
    """(verdict, why, profiles) for the legacy calls of `path`, a project module the launch's script imports and
    the only one of the script's modules that names another profiling API; None where that module names anything
    else (a profiler emulate does not judge here) or is not one the script imports. zoo: the caller judges the
    model zoo's Profile (zoo_profile.py), whose import the module may hold too."""
    from ..checks.torch_npu_report import Names
    from ..checks.torch_npu_utils_profile import names_other_api
    from ..source.prefilter import PROFILING_WORDS, code_only
    from ..values.project import load
    from .imported import module_context, runs_in_launch
    from .sys_path import launch_lookup
    lookup = launch_lookup(ls)
    if lookup is None or os.path.abspath(path) == os.path.abspath(ls.ctx.filename):
        return None
    modules = lookup.imported_modules()
    module = next((m for m in modules if os.path.abspath(m.path) == os.path.abspath(path)), None)
    if module is None or any((names_other_api if zoo else _names_profiling)(m.src.text) for m in [load(ls.ctx.filename)] + modules
                             if m is not None and m is not module):
        return None
    made = module_context(ls, module, lookup, target, ls.launch.command.cwd[0] if ls.launch.command.cwd else None)
    if made is None:
        return None
    ctx = made[0]
    names = Names(ctx.tree)
    # (torch's own autograd profiler beside it, MAE's `profile(use_cuda=True)` for a GPU: judged for where it runs)
    calls = [c for c in ast.walk(ctx.tree) if isinstance(c, ast.Call) and
             (_legacy(names.of(c.func) or "", c) or names.of(c.func) == _AUTOGRAD)]
    if not calls:
        return None
    # every profiling word of the module's code is one of these calls, or the import of the zoo's Profile
    spans = [(ctx.src.node_start(c.func), ctx.src.node_end(c)) for c in calls]
    code = code_only(module.src.text)
    for m in PROFILING_WORDS.finditer(code):
        if not any(a <= m.start() < b for a, b in spans) and not (zoo and _PROFILE_IMPORT.search(m.group(0))):
            return None
    where = os.path.relpath(module.path, os.path.dirname(ls.ctx.filename)).replace(os.sep, "/")
    script = os.path.basename(ls.ctx.filename)
    said: List[str] = []
    verdicts = set()
    off: dict = {}                      # why -> the calls it keeps from running (one sentence for a function's calls)
    for c in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):
        text = ast.get_source_segment(ctx.src.text, c) or ast.unparse(c)
        at = f"{where}:{c.lineno} `{text}`"
        runs, conditions, why = runs_in_launch(ls, module, lookup, ctx, c)
        loop = _loop_line(ctx, c)
        if runs is False:
            verdicts.add("no profiling")
            if why not in off:
                said.append(why)
            off.setdefault(why, []).append(at)
            continue
        stops, outcome = _outcome(names.of(c.func) or "", c, target)
        if runs is None:
            verdicts.add("unknown")
            said.append(f"{at} {outcome}; whether it runs in this launch is not known here ({why})")
        elif conditions or not stops:
            verdicts.add("unknown")
            when = " and ".join(f"`{t}`" for t in conditions)
            # (why a test of the script's is open names the script's lines: the module is the subject here)
            said.append(f"{at} {outcome}" + (f"; it runs when {when}, which this launch does not decide" +
                                             (f" ({in_file(why, script)})" if why else "") if when else ""))
        elif loop is not None:
            # (a loop's passes depend on the data: MAE profiles its 101st batch, if the loader has that many)
            verdicts.add("unknown")
            said.append(f"{at} runs in this launch, in the loop on line {loop} of {where}, and {outcome}: the job "
                        "stops there if it gets that far (the passes it runs are not counted here)")
        else:
            verdicts.add("fails")
            said.append(f"{at} runs in this launch and {outcome}: the job stops there")
    said = [f"{' and '.join(off[s])} never run{'s' if len(off[s]) == 1 else ''} in this launch: {s}" if s in off
            else s for s in said]
    verdict = "fails" if "fails" in verdicts else "unknown" if "unknown" in verdicts else "no profiling"
    head = f"{where}, which {script} imports, profiles with the legacy profiler API: "
    return verdict, head + "; ".join(said), {"fails": True, "unknown": None}.get(verdict, False)


def _names_profiling(text: str) -> bool:
    """Whether a module's code names any profiling API, the model zoo's Profile too."""
    from ..source.prefilter import PROFILING_WORDS, code_only
    return bool(PROFILING_WORDS.search(code_only(text)))


def _loop_line(ctx, call: ast.Call) -> Optional[int]:
    """The line of the innermost `for`/`while` of the call's function that holds it, else None."""
    found = None
    for n in ast.walk(ctx.tree):
        if isinstance(n, (ast.For, ast.AsyncFor, ast.While)) and any(x is call for x in ast.walk(n)):
            if found is None or n.lineno > found.lineno:
                found = n
    return found.lineno if found is not None else None


def _legacy(full: str, call: ast.Call) -> bool:
    """NPP308's calls: torch.autograd.profiler.profile(use_npu=...), torch.npu.profile and its family."""
    module, _, name = full.rpartition(".")
    if full == _AUTOGRAD:
        return any(k.arg == "use_npu" for k in call.keywords)
    return module in ("torch.npu", "torch_npu.npu") and name in K.data()["legacy"]["names"]


def use_npu_outcome(releases) -> Tuple[bool, str]:
    """(every build of these releases raises, what `torch.autograd.profiler.profile(use_npu=...)` does on them): torch
    takes no use_npu; torch_npu's builds for torch 1.8.1-2.0.1 put their own profile, which does, in its place."""
    kept = K.use_npu_builds()
    failing = [r for r in releases if r not in kept]
    parts = [f"raises TypeError on torch_npu {K.span(failing)}"] if failing else []
    parts += [f"depends on the build on torch_npu {r} ({kept[r]} take it; its other builds raise TypeError)"
              for r in releases if r in kept]
    return len(failing) == len(releases), f"{'; '.join(parts)}: only {K.USE_NPU_TAKEN} takes use_npu"


def _outcome(full: str, call: ast.Call, target) -> Tuple[bool, str]:
    """(it stops the job on every release of the target, what it does there, said per release)."""
    from ..knowledge.targets import TORCH_NPU_RELEASES
    releases = target.torch_npu_releases
    if full == _AUTOGRAD and not _legacy(full, call):
        return False, "is torch's own autograd profiler, not torch_npu's: what it records is not emulated here"
    if full == _AUTOGRAD:
        return use_npu_outcome(releases)
    last = K.data()["legacy"]["last"]
    kept = [r for r in releases if TORCH_NPU_RELEASES.index(r) <= TORCH_NPU_RELEASES.index(last)]
    gone = [r for r in releases if r not in kept]
    parts = ([f"raises AttributeError on torch_npu {K.span(gone)} (the legacy profiler API is gone after {last})"]
             if gone else []) + \
        ([f"torch_npu {K.span(kept)} still has it (what it collects there is not replayed here)"] if kept else [])
    return not kept, "; ".join(parts)
