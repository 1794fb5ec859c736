"""The report of `npuprof emulate` on a torch_npu or MindSpore script (torch_run.py, mindspore_run.py): the
target line, one headline per profiler with what makes its data less useful, the usable-data line, then each
profiler's details; and the same as JSON. The layout follows the TensorFlow report (render.py, docs/emulate.md).
"""

from __future__ import annotations

import os
from typing import List, Optional, Tuple

from ..setups.reach import all_of

EXIT_OK, EXIT_PROBLEM = 0, 1
NOT_50 = ("torch_npu 5.0: not replayed (its one recorded build, 5.0.rc3, never called on_trace_ready in the "
          "execution record); the lines here are torch_npu 6.0 and later's: give --torch-npu for one release")
FRAMEWORKS = {"torch_npu": "torch_npu.profiler", "mindspore": "MindSpore's profiler"}


def finish(path: str, framework: str, profilers: list, target, cwd: Optional[str], use_env: bool) -> dict:
    """The report: the profilers and the run's answer (usable: True, False, None for unknown; why)."""
    usable, why = answer(profilers)
    return {"file": path, "framework": framework, "target": {"cann": target.cann, "soc": target.soc,
                                                            "torch_npu": target.torch_npu},
            "cwd": cwd, "env": use_env, "profilers": profilers, "usable": usable, "why": why,
            "exit": EXIT_OK if usable is True else EXIT_PROBLEM}


def answer(profilers: list) -> Tuple[Optional[bool], str]:
    """yes when every profiler collects; no when one certainly keeps nothing; unknown otherwise."""
    if not profilers:
        return False, "no profiler of this framework is started in this file"
    read = [p for p in profilers if not p.unreached]
    if not read:
        return False, f"line {profilers[0].line}: {profilers[0].why}"
    # a profiler that is off keeps nothing of its own; another that runs decides (PROF_CONFIG_PATH's dynamic
    # profiling beside a profile() under a flag the launch does not pass)
    read = [p for p in read if p.verdict != "off"] or read
    bad = [p for p in read if p.verdict in ("fails", "off", "collects_nothing")]
    good = [p for p in read if p.verdict == "collects" and p.conditions != bad[0].conditions] if bad else []
    if bad and good:                    # different branches of the script: which one runs decides
        return None, (f"it depends on which branch runs: line {good[0].line} collects{_when(good[0])}; line "
                      f"{bad[0].line}{_when(bad[0])}: {bad[0].why}")
    for p in bad:
        return False, f"line {p.line}{_when(p)}: {p.why}"
    for p in read:
        if p.verdict != "collects":
            return None, f"line {p.line}{_when(p)}: {p.why}"
    return True, ""


def _when(p) -> str:
    """The conditions a verdict holds under, for the answer (the run emulated is the one where they hold)."""
    return f", when {all_of(p.conditions)}" if p.conditions else ""


def headline(name: str, p) -> str:
    verdict = {"collects": "COLLECTS", "fails": "FAILS", "off": "OFF", "collects_nothing": "COLLECTS NOTHING",
               "unknown": "UNKNOWN"}[p.verdict]
    when = f" (when {all_of(p.conditions)})" if p.conditions else ""
    route = p.data.get("route", "profile")
    return f"{name}:{p.line} {route}: {verdict} {p.why}{when}" if p.verdict == "collects" else \
        f"{name}:{p.line} {route}: {verdict}: {p.why}{when}"


def render_text(report: dict) -> str:
    name = os.path.basename(report["file"])
    profilers = report["profilers"]
    from .render import target_line
    lines = [target_line(report)]
    if not profilers:
        lines.append(f"{name}: no {FRAMEWORKS[report['framework']]} is started in this file: a run collects no "
                     "profiling data")
    for p in profilers:
        lines.append(headline(name, p))
        if p.verdict == "collects":
            lines.extend(f"  ! {c}" for c in p.caveats)
    lines.append(usable_line(report))
    if report["framework"] == "torch_npu" and report["target"]["torch_npu"] in ("any", "portable", "5.0"):
        lines.append(NOT_50)
    for p in profilers:
        when = f" (when {all_of(p.conditions)})" if p.conditions else ""
        lines.append(f"{name}:{p.line} {p.data.get('route', 'profile')}: {p.verdict.replace('_', ' ')}{when}")
        lines.extend(f"  {d}" for d in p.details)
        if p.verdict != "collects":
            lines.extend(f"  ! {c}" for c in p.caveats)
    return "\n".join(lines) + "\n"


def usable_line(report: dict) -> str:
    profilers = report["profilers"]
    if report["usable"] is True:
        cond = " (where its conditions hold)" if any(p.conditions for p in profilers) else ""
        codes = sorted({c.code for p in profilers for c in p.caveats})
        less = f"; less useful: {', '.join(codes)} (see above)" if codes else ""
        return f"usable data: yes{cond}{less}"
    if report["usable"] is False:
        return f"usable data: no ({report['why']})"
    return f"usable data: unknown ({report['why']})"


def report_json(report: dict) -> dict:
    from .render import origin_json
    target = dict(report["target"])
    origins = dict(report.get("target_origin") or {})
    if report.get("torch_npu_origin") is not None:
        origins["torch_npu"] = report["torch_npu_origin"]
    if origins:
        target["origin"] = origin_json(origins)
    out = {"file": report["file"], "framework": report["framework"], "target": target, "cwd": report["cwd"],
           "env": report["env"], "usable": report["usable"], "why": report["why"] or None,
           "profilers": [profiler_json(p) for p in report["profilers"]]}
    return out


def profiler_json(p) -> dict:
    out = {"line": p.line, "column": p.column, "verdict": p.verdict, "why": p.why,
           "conditions": list(p.conditions), "caveats": [str(c) for c in p.caveats], "details": list(p.details)}
    out.update(p.data)
    return out


def lines_for_launch(report: dict) -> List[str]:
    """The headlines alone, for a caller that shows one line per profiler."""
    name = os.path.basename(report["file"])
    return [headline(name, p) for p in report["profilers"]]
