"""A launch whose project profiles with torch_npu.utils.profiler.Profile, the model zoo's step-triggered
profiler: what the launch's environment (PROFILE_TYPE, PROFILE_START_STEP) makes of it.

About 75 ModelZoo-PyTorch projects build `Profile(start_step=int(os.getenv("PROFILE_START_STEP", 10)),
profile_type=os.getenv("PROFILE_TYPE"))`, often in a trainer module the script reaches through a sys.path set at
run time, and their launchers export PROFILE_TYPE only for some arguments (`--profiling=CANN`). So the Profile
calls are looked for in the script, the modules it imports, and then the other Python files under the script's
folder; the outcome per release is the oracle's (checks/torch_npu_utils_profile.py). What torch_npu collects in the
profiled step is not replayed here: a Profile that switches on is said to, with the step and the folder.
"""

from __future__ import annotations

import os
from typing import List, Optional, Tuple

from ..checks.torch_npu_utils_profile import UNKNOWN, Site, knows, launch_outcome, project_sites
from ..knowledge import torch_npu as T, utils_profile
from ..knowledge.targets import TORCH_NPU_RELEASES
from ..source.text import HOLE



FOUND = " (found under the script's folder, not reached through the imports emulate follows)"


def judge(w, launch, ls, target, environ=None, beside=False) -> Optional[Tuple[str, str, Optional[bool]]]:
    """(verdict, why, profiles) as sequence.Run has them, None when the launch's project builds no Profile or what
    its profile_type is here is not known. environ: the caller's environment (--env), which the launcher inherits.
    A certain answer ("no", "fails") needs the Profile reached through the script's imports for "fails", and no
    other profiling API in the files read for "no"; else the answer is unknown and says why. beside: the script's
    other profiler was replayed (off), so "no" stays "no"."""
    sites, imported, other = project_sites(ls.ctx.filename, ls.ctx.src.text, ls.ctx.tree)
    answer = _judge(w, launch, ls, target, environ, sites, imported) if sites else None
    if answer is None and sites:
        # a Profile whose profile_type this launch leaves open (PROFILE_TYPE set in a branch not decided, a
        # value computed at run time): it may switch on, so never "no profiling setup found"
        here = os.path.dirname(os.path.abspath(ls.ctx.filename))
        at = f"Profile ({_rel(sites[0].path, here)}:{sites[0].line})" + ("" if imported else FOUND)
        return "unknown", f"{at} switches on or not by its profile_type, which is not known in this launch", None
    if answer is None:
        return None
    verdict, why, profiles = answer
    if verdict == "fails" and not imported:
        return "unknown", why, None
    if verdict == "no profiling" and other is not None and not beside:
        named = os.path.relpath(other, os.path.dirname(os.path.abspath(ls.ctx.filename))).replace(os.sep, "/") \
            if os.path.isabs(other) else other
        return "unknown", f"{why}; but {named} names another profiling API, which is not emulated here", None
    return verdict, why, profiles


def _judge(w, launch, ls, target, environ, sites: List[Site], imported: bool
           ) -> Optional[Tuple[str, str, Optional[bool]]]:
    kinds, setting, inherited = set(), None, False
    for s in sites:
        if s.type_env is not None:
            setting = launch.command.env.get(s.type_env)
            if setting is not None and HOLE in setting.value:
                return None
            if setting is None and environ is not None and s.type_env in environ:
                inherited = True
                kinds.add(environ[s.type_env])
                continue
            kinds.add(None if setting is None else setting.value)
        elif s.type_value is UNKNOWN:
            return None
        else:
            kinds.add(s.type_value)
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    site = sites[0]
    here = os.path.dirname(os.path.abspath(ls.ctx.filename))
    at = f"Profile ({_rel(site.path, here)}:{site.line}{'' if len(sites) == 1 else f' and {len(sites) - 1} more'})"
    env = site.type_env or "profile_type"
    given = f"{env}={kind}" + (f" ({setting.where(w.root)})" if setting is not None else
                               " (from the environment)" if inherited else "")
    releases = target.torch_npu_releases
    outcome = launch_outcome(kind, releases)
    states = set(outcome.values())
    runs = "" if imported else ", if the code that builds it runs (it is not reached through the imports emulate follows)"
    # a Profile found only by the walk of the script's folder may belong to another program of the project (MindSpeed-MM's
    # evaluate_vlm.py was said to leave an sdxl example's Profile off): the answer says where it was found
    found = "" if imported else FOUND
    if kind is None:
        unset = "in this launch or the environment (--env)" if environ is not None else \
            "in this launch (the caller's environment is not read without --env)"
        return ("no profiling", f"{at}{found} stays off: {env} is not set {unset}, so nothing is collected "
                f"({env}=ASCEND_PROFILER switches it on from torch_npu 6.0)", False)
    if states == {"off"}:
        on_any = [r for r in TORCH_NPU_RELEASES if kind in utils_profile.types(r)]
        if not on_any:
            return ("no profiling", f"{given} reaches {at}{found}, which no torch_npu release switches on for "
                    f"(profile_type is compared exactly): nothing is collected", False)
        return ("no profiling", f"{given} reaches {at}{found}, which torch_npu {T.span(releases)} never switches on for (it "
                f"knows only {knows(releases)}): nothing is collected", False)
    if states == {"raises"}:
        return ("fails", f"{given} makes {at} raise TypeError (it builds torch.autograd.profiler.profile with "
                "use_npu=, which torch's profiler does not take): the job stops there" + runs, True)
    if states == {"on"}:
        return ("unknown", f"{at} switches on with {given}{runs}: it profiles {_step(site, launch, w, environ)} into "
                # the script may stop first (DynamicUNet: `if iteration > args.stop_step: sys.exit()`, stop_step 5)
                f"{_folder(site)} if the job gets that far (the steps it runs are not counted here), then ends the "
                "job with sys.exit(); what torch_npu collects in that step is not replayed here", True)
    on = [r for r in releases if outcome[r] == "on"]
    off = [r for r in releases if outcome[r] != "on"]
    return ("unknown", f"depends on the torch_npu release: {at}{found} with {given} switches on with torch_npu "
            f"{T.span(on)} and never with torch_npu {T.span(off)} (it knows only {knows(off)})", None)


def _step(site: Site, launch, w, environ=None) -> str:
    if site.step_env is not None:
        setting = launch.command.env.get(site.step_env)
        if setting is None and environ is not None and site.step_env in environ:
            value = environ[site.step_env]
            return f"its step {int(value)} ({site.step_env}, from the environment)" if value.strip().isdigit() \
                else f"the step {site.step_env} names"
        if setting is None:
            return f"its step 10 ({site.step_env} is not set: its default)"
        if HOLE not in setting.value and setting.value.strip().isdigit():
            return f"its step {int(setting.value)} ({site.step_env}, {setting.where(w.root)})"
        return f"the step {site.step_env} names"
    if isinstance(site.step_value, int) and not isinstance(site.step_value, bool):
        return f"its step {site.step_value} (start() calls counted from 1)"
    return "the step its start_step names"


def _folder(site: Site) -> str:
    if isinstance(site.save_path, str):
        return f"{site.save_path} (under the job's working directory)" if not os.path.isabs(site.save_path) \
            else site.save_path
    return "its save_path"


def _rel(path: str, folder: str) -> str:
    """A path as seen from the script's folder (the project's modules are below it)."""
    rel = os.path.relpath(path, folder)
    return (path if rel.startswith("..") else rel).replace(os.sep, "/")
