"""The replay of one script's setups: which setup GE reads, the runtime's verdict per target,
preflight of the output directory and graph, and the report they make."""

from __future__ import annotations

import ast
import json
import os
import sys
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from ..knowledge import datafiles as K
from ..checks.options import versions_phrase
from ..setups.inventory import GeInit, Inventory, Mode, ScriptSetup, shell_setups
from .message import Message
from .runtime import Env, Outcome, Request, python_error, run
from ..setups.state import raised_error, stopping_error
from ..source.files import rel_path as _rel  # noqa: F401  (emulate's modules import it from here)
from ..source.text import HOLE
from ..knowledge.targets import Target


EXIT_OK, EXIT_PROBLEM, EXIT_ERROR = 0, 1, 2
VERDICTS = ("collects", "fails", "off", "collects_nothing", "unknown")


NO_ENTRY = ("the file shows no entry point (no `if __name__ == \"__main__\":`, app.run, main() or argument "
            "parsing at its top level) and nothing at its top level calls this code: whether it runs depends on "
            "the code that imports it; emulated as if it ran")


def no_entry(setup: ScriptSetup) -> Message:
    """Why whether a setup runs is not known: no entry point, or code run by a name computed at run time."""
    if setup.entry and setup.unknown_reach:
        return Message(f"{setup.unknown_reach}, so whether this code runs is not known here; emulated as if it ran")
    return Message(NO_ENTRY)


class UsageError(Exception):
    pass


class Result(NamedTuple):
    setup: ScriptSetup
    read_by_ge: Optional[bool]      # None: the file does not show whether GE reads it first
    verdict: str
    messages: List[Message]
    effective_options: Optional[dict]
    source: str
    collected: List[str]
    dropped: List[Tuple[str, str]]
    output_dir: Optional[str]
    layout: List[str]
    export_command: str
    groups: List[dict]              # per target group: cann, soc, verdict, collected, messages
    outcomes: Dict[Tuple[str, str], Outcome]
    spread: List[Tuple[str, str, str]] = []   # (verdict, where, condition) when the targets disagree
    path: str = ""                  # the file of the setup when not the report's (a launcher's msprof line)
    raised: bool = False            # a Python error where the setup is written, whatever the flag or hand-over
    stops: bool = False             # ... and nothing around it catches it: the script stops there
    caveats: List[Message] = []     # what makes the collected data less useful (NPP findings that do not abort)


FACTS = ("torch_npu.ge_variables",)     # data/sources.json: why GE's variables on a torch_npu script are unknown


def other_framework(text: str) -> Optional[str]:
    """"torch_npu", "MindSpore" or "vLLM" (a torch_npu process on Ascend) for a script that imports it and no
    TensorFlow (GE's own framework), else None."""
    import re
    if re.search(r"^\s*(?:import|from)\s+(?:tensorflow|npu_bridge)\b", text, re.M):
        return None
    found = re.search(r"^\s*(?:import|from)\s+(torch_npu|mindspore|vllm)\b", text, re.M)
    return None if found is None else {"torch_npu": "torch_npu", "mindspore": "MindSpore", "vllm": "vLLM"}[found.group(1)]


class Planner:
    """Decides which setup GE reads, with which environment, and emulates each on the targets."""

    def __init__(self, setups, inits: List[GeInit], order, target: Target, cwd: Optional[str], env: Env,
                 origin: str = "the script", context: Optional[str] = None):
        self.setups = setups
        self.context = context          # the script's text: what a trace point can name (NPP204)
        self.origin = origin            # who sets PROFILING_* for the env route: the script or the launcher
        self.target = target
        self.cwd = cwd
        self.env = env
        self.order = order
        from ..setups.state import first_init       # the same rule as the model check uses
        self.first: Optional[GeInit] = first_init(inits, order)

    def _rank(self, node) -> Optional[int]:
        return self.order.of(node) if self.order is not None and node is not None else None

    def results(self) -> List[Result]:
        configs = [self._config(s) for s in self.setups if s.route != "env"]
        reader = next((r for r in configs if r.read_by_ge and r.verdict != "off"), None)
        envs = [self._env_setup(s, reader) for s in self.setups if s.route == "env"]
        return sorted(configs + envs, key=lambda r: (r.setup.line, r.setup.column))

    # ---- which environment GE sees at an initialisation

    def env_at(self, rank: Optional[int]) -> Env:
        env = self.env
        for s in self.setups:
            if s.route != "env" or s.anchor is None or s.reached is False:
                continue
            r = self._rank(s.anchor)
            if rank is not None and r is not None and r > rank:
                continue                # set after GE has started
            here = f"the environment set by the script (line {s.line})"
            mode, mode_label = env.mode, env.mode_label or env.label
            if s.mode.state in ("on", "off") and isinstance(s.mode.value, str):
                mode, mode_label = s.mode.value, here
            options, label = env.options, env.label
            if s.options.state == "given" and s.options.strings and len(s.options.strings.candidates) == 1:
                options, label = s.options.strings.candidates[0].text, here
            env = env._replace(mode=mode, options=options, label=label,
                               mode_label="" if mode_label == label else mode_label)
        return env

    # ---- config routes

    def _config(self, setup: ScriptSetup) -> Result:
        if setup.reached is False:
            return self._unreached(setup)
        if setup.caught and raised_error(setup):
            # raised where written, inside a `try` that may catch it: the handler decides, not GE
            read = True if self._rank(setup.anchor) is not None and setup.reached else None
            caught = python_error(Request(setup.route, setup.mode, setup.options.state), setup.caught)
            assert caught is not None           # (raised_error: Python raises for this setup)
            return self._fixed(setup, read, caught.verdict, list(caught.messages))._replace(raised=True)
        if stopping_error(setup):
            # certain wherever the line runs: neither who initialises GE nor whether it gets the config matters
            read = True if self._rank(setup.anchor) is not None and setup.reached else None
            notes = [no_entry(setup)] if setup.reached is None else []
            return self._emulate(setup, read, self.env, notes)._replace(raised=True, stops=True)
        if setup.delivered == "replaced":       # (a launch's flags decide it: checks/launch_setup.py)
            return self._fixed(setup, False, "off", [Message(setup.lost)])
        if setup.delivered == "never":
            how = f"is passed to {setup.lost}" if setup.lost else \
                "is never handed to a Session, RunConfig, NPURunConfig, init_resource or NPU helper"
            return self._fixed(setup, False, "off", [Message(f"this {_what(setup)} {how}: GE never reads it", "NPP006")])
        if setup.refused and setup.delivered == "yes":
            # the adapter refuses the entry when the session's graph first runs: before GE reads anything
            read = True if self._rank(setup.delivery) is not None and setup.reached else None
            return self._fixed(setup, read, "fails", [Message(setup.refused, "NPP004")])
        if setup.delivered == "late":
            return self._fixed(setup, False, "off", [Message(
                f"set after npu.open() (line {_line(setup.delivery)}): npu_device reads the global options "
                "when the device opens, so these settings are ignored", "NPP012")])
        from ..setups.state import overridden_by
        rank = self._rank(setup.delivery)
        first = self.first
        if first is not None and overridden_by(setup, first, self.order):
            who = f"the {first.setup.route} setup on line {first.setup.line}" if first.setup else first.what
            return self._fixed(setup, False, "off", [Message(
                f"not read: GE is initialised first at line {first.line} by {who}; GE takes its init options only "
                f'once ("{_runtime_data()["already_initialised"]}"), so this setup is ignored')])
        read = True if (first is not None and rank is not None) else None
        env = self.env_at(rank)
        notes = []
        if setup.reached is None:
            notes.append(no_entry(setup))
        if read is None and setup.unseen:
            notes.append(Message(f"{setup.unseen}: emulated as if something outside this file ran it"))
        elif read is None and (setup.reached is not None or setup.delivered == "unknown"):
            notes.append(Message("the file does not show when this runs (not reached from module level, or handed to "
                                 "code outside this file): emulated as if it initialised GE"))
        return self._emulate(setup, read, env, notes)

    def _unreached(self, setup: ScriptSetup) -> Result:
        """A setup no path from the entry point reaches: it does not decide the verdict (check still lints it)."""
        return self._fixed(setup, False, "off", [Message(
            f"not reached from this file's entry point (line {setup.entry}): nothing on the way from it calls this code, "
            "so this run never meets it")])

    def _env_setup(self, setup: ScriptSetup, reader: Optional[Result]) -> Result:
        if setup.reached is False:
            return self._unreached(setup)
        if reader is not None and reader.source in ("script", "adapter default") and reader.verdict != "unknown":
            return self._fixed(setup, False, "off", [Message(
                f"not read: the {reader.setup.route} setup on line {reader.setup.line} switches profiling on with "
                "options, and GE then uses those instead of PROFILING_MODE/PROFILING_OPTIONS")])
        first = self.first
        rank = self._rank(setup.anchor)
        first_rank = self._rank(first.call) if first is not None else None    # (first_init ranks it)
        if first is not None and rank is not None and first_rank is not None and first_rank < rank:
            return self._fixed(setup, False, "off", [Message(
                f"not read: set after GE is initialised at line {first.line}; GE reads the environment only then")])
        read = True if first is not None and rank is not None else None
        r = self._emulate(setup, read, self.env, [no_entry(setup)] if setup.reached is None else [])
        other = other_framework(self.context or "") if read is None and r.verdict != "off" else None
        if other is not None:
            # torch_npu (and MindSpore) start the collector through aclprofStart, not GE's variables; no source read
            # shows GE reading PROFILING_MODE/PROFILING_OPTIONS in such a process: never "yes" on it
            return r._replace(verdict="unknown", spread=[], outcomes={}, export_command="", messages=[Message(
                f"a {other} script without TensorFlow: whether GE reads PROFILING_MODE/PROFILING_OPTIONS in its "
                f"process is not known here ({other} profiles with its own profiler, or under msprof)")])
        return r

    # ---- emulation over the targets

    def _fixed(self, setup, read, verdict, messages) -> Result:
        return Result(setup, read, verdict, messages, None, "", [], [], None, [], "", [], {})

    def _emulate(self, setup: ScriptSetup, read, env: Env, notes: List[Message]) -> Result:
        cells = [(v, p) for v in self.target.versions for p in self.target.products]
        outcomes = {cell: self._cell(setup, env, *cell) for cell in cells}
        points = self._trace_points(outcomes)
        r = summarise(setup, read, outcomes, self.target, self.cwd, notes + points)
        return r._replace(caveats=caveats(r, self.target, points))

    def _trace_points(self, outcomes) -> List[Message]:
        """NPP204, as check reports it: a trace point that cannot name a node of this model leaves the step
        trace without its FP/BP marks (GE only warns)."""
        from ..checks.hygiene import check_option_hygiene
        from .runtime import _report
        for (version, product), o in outcomes.items():
            if o.verdict == "collects" and "training_trace" in o.collected and o.text:
                doc = _report(o.text, version, product).doc
                return [Message(i.message, i.code) for i in check_option_hygiene(o.text, doc, self.context)
                        if i.code == "NPP204"]
        return []

    def _cell(self, setup: ScriptSetup, env: Env, version: str, product: str) -> Outcome:
        opts = setup.options
        texts: List[Optional[str]] = [None]
        if opts.state == "given":
            cands = opts.strings.candidates if opts.strings else ()
            if not cands:
                reason = f" ({opts.strings.reason})" if opts.strings and opts.strings.reason else ""
                return Outcome("unknown", (Message(f"profiling_options cannot be determined statically{reason}"),))
            texts = [c.text for c in cands]
        outs = [run(Request(setup.route, setup.mode, opts.state, t, self.origin), env, version, product)
                for t in texts]
        first = outs[0]
        if len(outs) == 1:
            return first
        if all((o.verdict, o.collected) == (first.verdict, first.collected) for o in outs[1:]):
            same = first._replace(notes=first.notes + (Message(f"the options can take {len(outs)} values; all give "
                                                               "this result"),))
            if len({o.text for o in outs}) > 1:     # say nothing one value alone would claim
                same = same._replace(options=None, text=None)
            if len({o.output for o in outs}) > 1:
                same = same._replace(output=None, notes=same.notes + (
                    Message("output is one of " + ", ".join(sorted(str(o.output) for o in outs))),))
            return same
        shown = "; ".join(f"{o.verdict} ({', '.join(o.collected) or _cause(o)})" for o in outs)
        return Outcome("unknown", (Message(f"the options can take {len(outs)} values with different results: {shown}"),))


def caveats(r: Result, target: Target, extra: Sequence[Message] = ()) -> List[Message]:
    """What makes the data a setup collects less useful, beside its verdict: on the targets where it collects, the
    findings check reports on it that do not abort the job (a trace point no node has, a switch the chip drops,
    a storage limit the collector reads otherwise, ...). Those of only some of the targets stay in the details,
    with the per-target table."""
    collecting = {cell: o._replace(messages=()) for cell, o in r.outcomes.items() if o.verdict == "collects"}
    if not collecting or r.stops:
        return []
    return list(extra) + [m for m in tagged_messages(collecting, target) if m.code and m.where is None]


def _cause(o: Outcome) -> str:
    """The message that says why an outcome is what it is (the NPP failure, not the abort chain after it)."""
    if o.condition:
        return o.condition
    if o.verdict == "fails":
        return str(next((m for m in o.messages if m.code), o.messages[0] if o.messages else ""))
    return str(o.messages[-1]) if o.messages else ""


def _runtime_data() -> dict:
    from .runtime import emu
    return emu()


def _line(node) -> int:
    return getattr(node, "lineno", 0)


def _what(setup: ScriptSetup) -> str:
    return {"NpuOptimizer": "profiling config", "ProfilingConfig": "ProfilingConfig"}.get(setup.route, "setup")


def cells_phrase(cells, target: Target) -> str:
    """'CANN 8.5 and 9.0 / Ascend 310' style description of a set of (version, product) cells."""
    by_version: Dict[str, set] = {}
    for v, p in cells:
        by_version.setdefault(v, set()).add(p)
    groups: Dict[frozenset, List[str]] = {}
    for v in K.VERSIONS:
        if v in by_version:
            groups.setdefault(frozenset(by_version[v]), []).append(v)
    parts = []
    every_version = set(target.versions)
    for prods, versions in groups.items():
        vs = "every CANN version" if set(versions) == every_version and len(every_version) > 1 else \
            versions_phrase(versions)
        parts.append(f"{vs} / {products_phrase(prods, target)}")
    return " and ".join(parts)


def products_phrase(prods, target: Target) -> str:
    allp = list(target.products)
    chosen = [p for p in allp if p in prods]
    if len(chosen) == len(allp):
        return "every product" if len(allp) > 1 else f"Ascend {allp[0]}"
    missing = [p for p in allp if p not in prods]
    if len(chosen) > len(missing):
        return "every product but Ascend " + ", ".join(missing)
    return "Ascend " + ", ".join(chosen)


def summarise(setup: ScriptSetup, read, outcomes: Dict[Tuple[str, str], Outcome], target: Target, cwd: Optional[str],
              notes: List[Message]) -> Result:
    """One result for the setup from its outcome on every targeted (version, product)."""
    from .layout import export_command, predict
    verdict, spread = _verdict(outcomes, target)
    messages: List[Message] = []
    if spread:
        messages.append(depends(spread))
    known, closed = _open(outcomes, target)
    if closed:
        from .runtime import CLOSED
        messages.append(Message(f"not known on {cells_phrase(closed, target)} ({CLOSED}): not counted in the answer"))
    messages += tagged_messages(known, target) + notes
    collecting = [o for o in outcomes.values() if o.verdict == "collects"]
    collected = [k for k in collecting[0].collected if all(k in o.collected for o in collecting)] if collecting else []
    first = next(iter(outcomes.values()))
    same_text = len({o.text for o in outcomes.values()}) == 1
    effective = first.options if same_text else None
    sources = {o.source for o in outcomes.values()}
    output_dir = _output_dir(outcomes, cwd)
    layout = predict(collected, target.products) if verdict in ("collects", "unknown") and collected else []
    command = export_command(output_dir or "") if layout else ""
    return Result(setup, read, verdict, messages, effective, sources.pop() if len(sources) == 1 else "",
                  collected, _dropped(outcomes, target), output_dir, layout, command, _groups(outcomes, target),
                  outcomes, spread)


def depends(spread: List[Tuple[str, str, str]]) -> Message:
    """What a result whose targets disagree says first (the table of the targets says it too)."""
    shown = "; ".join(f"{v.replace('_', ' ')} on {where}" + (f" ({cond})" if cond else "") for v, where, cond in spread)
    return Message(f"depends on the target: {shown}; give --cann and --soc for one answer")


def _open(outcomes, target: Target):
    """The targets whose collector's source is known, when the target spans several and some are not
    (CANN 8.5 on chips without an open platform class): those are said apart, not counted."""
    from .runtime import CLOSED
    known = {c: o for c, o in outcomes.items() if not (o.verdict == "unknown" and o.condition == CLOSED)}
    if known and len(known) < len(outcomes) and (target.cann in ("any", "portable") or target.soc == "any"):
        return known, [c for c in outcomes if c not in known]
    return outcomes, []


def _verdict(outcomes, target: Target) -> Tuple[str, List[Tuple[str, str, str]]]:
    """The common verdict, or "unknown" with (verdict, where, condition) for each verdict the targets give
    (unknown targets split by what they hang on, when that is known)."""
    outcomes, _ = _open(outcomes, target)
    per: Dict[Tuple[str, str], list] = {}
    for cell, o in outcomes.items():
        per.setdefault((o.verdict, o.condition if o.verdict == "unknown" else ""), []).append(cell)
    if len(per) == 1:
        return next(iter(per))[0], []
    order = sorted(per.items(), key=lambda kv: (VERDICTS.index(kv[0][0]), kv[0][1]))
    return "unknown", [(v, cells_phrase(cells, target), cond) for (v, cond), cells in order]


def _groups(outcomes, target: Target) -> List[dict]:
    """The targets grouped by identical outcome, for the JSON report."""
    by_sig: Dict[tuple, List[Tuple[str, str]]] = {}
    for cell, o in outcomes.items():
        by_sig.setdefault((o.verdict, o.collected, o.messages + o.notes), []).append(cell)
    return [{"cann": sorted({v for v, _ in where}, key=K.VERSIONS.index),
             "soc": [p for p in target.products if any(p == q for _, q in where)],
             "where": cells_phrase(where, target), "verdict": verdict, "collected": list(collected),
             "messages": list(messages)}
            for (verdict, collected, messages), where in by_sig.items()]


def _output_dir(outcomes, cwd: Optional[str]) -> Optional[str]:
    """The absolute output directory when every target that starts profiling agrees on it."""
    outputs = {o.output for o in outcomes.values() if o.verdict in ("collects", "collects_nothing")}
    if len(outputs) != 1:
        return None
    value = outputs.pop()
    return located(value, cwd) if value is not None and HOLE not in value else None


def located(output: str, cwd: Optional[str]) -> Optional[str]:
    """The absolute directory the collector writes to; None for a relative one when where the process runs is
    not known (cwd None: a launch after a `cd` the walk cannot follow)."""
    from ..checks.preflight import resolve_output
    if cwd is None and not os.path.isabs(os.path.expanduser(output)):
        return None
    return resolve_output(output, cwd)


def tagged_messages(outcomes: Dict[Tuple[str, str], Outcome], target: Target) -> List[Message]:
    """Each distinct message once, tagged with the targets it applies to unless it applies to all."""
    where: Dict[Message, List[Tuple[str, str]]] = {}
    for cell, o in outcomes.items():
        for m in o.messages + o.notes:
            where.setdefault(m, []).append(cell)
    common = [m for m, cells in where.items() if len(cells) == len(outcomes)]
    tagged = [m._replace(where=cells_phrase(cells, target)) for m, cells in where.items() if len(cells) != len(outcomes)]
    return common + tagged


def _dropped(outcomes, target: Target) -> List[Tuple[str, str]]:
    where: Dict[Tuple[str, str], List[Tuple[str, str]]] = {}
    for cell, o in outcomes.items():
        for key, why in o.dropped:
            where.setdefault((key, why), []).append(cell)
    out = []
    for (key, why), cells in where.items():
        if len(cells) == len(outcomes):
            out.append((key, why))
        else:
            out.append((key, f"on {cells_phrase(cells, target)}: {why}"))
    return out


def preflight(results: List[Result], cwd: Optional[str], graph_path: Optional[str]) -> Tuple[List[dict], List[str]]:
    """(NPP9xx problems, what was checked and passed) for the setups GE may read."""
    from ..checks.preflight import load_graph, options_problems
    graph = None
    out, checked, seen = [], [], set()
    if graph_path:
        graph, error = load_graph(graph_path)
        if error:
            raise UsageError(f"--graph {graph_path}: {error}")
    for r in results:
        if r.read_by_ge is False or r.verdict == "off" or r.setup.route == "msprof":
            continue                    # msprof checks its own --output (NPP125), in its own words
        options = r.effective_options if r.effective_options is not None else _common_options(r)
        if not options:
            continue
        if not options.get("output") and r.output_dir:      # 8.5+: $ASCEND_WORK_PATH (--env)
            options = dict(options, output=r.output_dir)
        output = options.get("output")
        here = not isinstance(output, str) or located(output, cwd) is not None     # can be looked at
        problems = options_problems(options, cwd, graph, machine=here)
        for key, problem in problems:
            if problem.message not in seen:
                seen.add(problem.message)
                out.append({"code": problem.code, "message": problem.message, "line": r.setup.line, "key": key})
        for note in _passed(options, cwd, graph, {k for k, _ in problems}):
            if note not in checked:
                checked.append(note)
    return out, checked


def _passed(options: dict, cwd: Optional[str], graph, failed: set) -> List[str]:
    """Short descriptions of the preflight checks that passed."""
    from ..checks.preflight import free_mb
    out = []
    output = options.get("output")
    path = located(output, cwd) if isinstance(output, str) and output and HOLE not in output else None
    if path is not None:
        if "output" not in failed:
            out.append(f"{path} is writable" if os.path.isdir(path) else f"{path} can be created")
        limit = options.get("storage_limit")
        if isinstance(limit, str) and limit.endswith("MB") and HOLE not in limit and "storage_limit" not in failed:
            free = free_mb(path)
            if free is not None:
                out.append(f"storage_limit {limit} fits in {free}MB free")
    if graph is not None and options.get("training_trace") == "on":
        for key in ("fp_point", "bp_point"):
            name = options.get(key)
            if isinstance(name, str) and HOLE not in name and key not in failed:
                out.append(f'{key} "{name}" found in {os.path.basename(graph.path)}' if name else
                           f'{key} "" (automatic search)')
    return out


def _common_options(r: Result) -> Optional[dict]:
    """Options that agree on output / storage_limit / trace points across targets (defaults differ by version)."""
    dicts = [o.options for o in r.outcomes.values() if o.options is not None]
    if not dicts:
        return None
    keys = ("output", "storage_limit", "training_trace", "fp_point", "bp_point")
    common = {}
    for k in keys:
        values = {json.dumps(d.get(k)) for d in dicts}
        if len(values) == 1 and dicts[0].get(k) is not None:
            common[k] = dicts[0][k]
    return common


def against_report(results: List[Result], path: str, target: Target) -> dict:
    from .layout import compare, find_prof_dir
    prof = find_prof_dir(path)
    if prof is None:
        raise UsageError(f"--against {path}: no PROF_* directory there")
    chosen = next((r for r in results if r.read_by_ge and r.verdict in ("collects", "collects_nothing", "unknown")),
                  None) or next((r for r in results if r.read_by_ge is None and r.verdict != "off"), None)
    expected = list(chosen.collected) if chosen else []
    maybe: List[str] = []
    off: Dict[str, str] = {}
    dropped: Dict[str, str] = {}
    if chosen:
        for o in chosen.outcomes.values():
            maybe.extend(k for k in o.collected if k not in expected and k not in maybe)
        dropped = {k: why for k, why in chosen.dropped}
        options = chosen.effective_options or {}
        for key in ("training_trace", "task_trace", "task_time", "aic_metrics", "aicpu", "hccl", "l2"):
            if key in options:
                off[key] = f'is "{options[key]}"' if isinstance(options[key], str) and HOLE not in options[key] \
                    else "is not switched on"
            else:
                off[key] = "is not set"
    comp = compare(prof, expected, maybe, off, dropped, target.products)
    gap = lambda g: {"family": g.family, "switches": list(g.switches), "cause": g.cause}  # noqa: E731
    return {"prof_dir": os.path.abspath(comp.prof_dir), "setup_line": chosen.setup.line if chosen else None,
            "exported": comp.exported, "missing": [gap(g) for g in comp.missing],
            "explained": [gap(g) for g in comp.explained], "extra": [gap(g) for g in comp.extra],
            "notes": comp.notes}


def finish(path: str, results: List[Result], target: Target, cwd: Optional[str], env: Env, graph: Optional[str],
           against: Optional[str], use_env: bool) -> dict:
    checks, checked = preflight(results, cwd, graph)
    comparison = against_report(results, against, target) if against else None
    if comparison and comparison["prof_dir"]:
        prof = comparison["prof_dir"]
        from .layout import export_command
        results = [r._replace(export_command=export_command("", prof)) if r.setup.line == comparison["setup_line"]
                   and r.export_command else r for r in results]
    read = [r for r in results if r.read_by_ge is not False]
    # code whose running the file does not show (no entry point), or a config GE may or may not read,
    # decides nothing for certain
    states = [None if r.setup.reached is None or handed_away(r) else may_collect(r) for r in read]
    usable: Optional[bool] = bool(read) and all(states)
    if read and False not in states and None in states:
        usable = None                   # collects on some targets only, or hangs on a value unknown statically
    if any(p["code"] == "NPP901" for p in checks):
        usable = False                  # the collector cannot write where it is told to
    ok = usable is True and not checks and not (comparison and (comparison["missing"] or comparison["extra"]))
    return {"file": path, "target": {"cann": target.cann, "soc": target.soc}, "cwd": cwd, "env": use_env,
            "results": results, "preflight": checks, "checked": checked, "against": comparison, "usable": usable,
            "exit": EXIT_OK if ok else EXIT_PROBLEM}


def handed_away(r: Result) -> bool:
    """A config whose reading by GE is up to code this file does not show (it leaves the file, or goes to
    a Keras session the file never runs): what it would collect is known, whether it does is not."""
    return r.read_by_ge is None and r.setup.delivered == "unknown"


def may_collect(r: Result) -> Optional[bool]:
    """True: this setup collects; False: it certainly does not; None: on some targets only, or unknown."""
    if r.verdict == "collects":
        return True
    if r.verdict != "unknown":
        return False
    if r.spread and not any(v in ("collects", "unknown") for v, _, _ in r.spread):
        return False                    # fails / off / collects nothing, depending on the target
    return None


UNKNOWN_TEXT = "<unknown>"      # how an unknown piece of a value (a HOLE) is shown, everywhere


def shown(value):
    """`value` with every HOLE (a piece not known statically) written as <unknown>, recursively."""
    if isinstance(value, str):
        return value.replace(HOLE, UNKNOWN_TEXT)
    if isinstance(value, dict):
        return {shown(k): shown(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [shown(v) for v in value]
    return value


def changes_directory(sites) -> bool:
    """The script calls os.chdir: where a relative output directory lands is not known statically."""
    return any(site.name in ("os.chdir", "chdir") for site in sites.calls_named("chdir"))


def run_dir(text: str, kind: str, cwd: Optional[str]) -> Optional[str]:
    """cwd for a Python script that may change its directory before GE starts (os.chdir): None."""
    if kind != "python" or "chdir" not in text:
        return cwd
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):     # the last two: nested too deep to parse
        return cwd
    from ..source.sites import collect
    return None if changes_directory(collect(tree)) else cwd


_SPAWNS = frozenset({"run", "Popen", "call", "check_call", "check_output", "system", "spawnv", "spawnve", "execv",
                     "execve", "execvp", "execvpe"})


def starts_python(text: str) -> int:
    """The line of a call that starts another Python process (`subprocess.run(["python3", "train.py"], env=env)`,
    `os.system("python3 ...")`), 0 if none: what that process collects is not followed from here."""
    if "python" not in text or not any(w in text for w in ("subprocess", "os.system", "Popen", "os.exec", "spawn")):
        return 0
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", "")) in _SPAWNS:
            words = [n.value for a in node.args for n in ast.walk(a) if isinstance(n, ast.Constant)
                     and isinstance(n.value, str)]
            if any("python" in w or w.endswith(".py") for w in words) or \
                    any(isinstance(n, ast.Attribute) and n.attr == "executable" for a in node.args for n in ast.walk(a)):
                return node.lineno
    return 0


def parse_script(text: str, path: str) -> ast.Module:
    """A script's tree; one Python cannot parse is a usage error, also one nested deeper than its parser goes
    (RecursionError, or MemoryError from 3.11's parser stack)."""
    try:
        return ast.parse(text, path)
    except (SyntaxError, ValueError) as exc:
        raise UsageError(f"{path}: cannot parse: {exc}") from None
    except (RecursionError, MemoryError):
        raise UsageError(f"{path}: cannot parse: nested too deeply (Python %d.%d's parser)" % sys.version_info[:2]) \
            from None


def emulate_text(text: str, kind: str, path: str, target: Target, cwd: Optional[str], env: Env) -> List[Result]:
    """The results of every setup of one script's text (or a shell launcher's own PROFILING_* variables)."""
    origin = "the script"
    if kind == "shell":
        from ..shell.words import assignments
        setups, inits, order, origin = shell_setups(text, assignments(text)), [], None, "the launcher"
    else:
        from ..checks.analysis import Context, Settings
        from ..source.prefilter import MAX_WORDS, words_over_budget
        from ..source.text import SourceText
        words = words_over_budget(text)
        if words:
            raise UsageError(f"{path}: not emulated: about {words:,} words and symbols, over the {MAX_WORDS:,} one "
                             "file may have")
        tree = parse_script(text, path)
        ctx = Context(SourceText(text), tree, path, Settings(target=target, cwd=cwd))
        inventory = Inventory(ctx)
        setups, inits, order = inventory.setups, inventory.inits, inventory.order
    if not setups and env.mode is not None:
        from ..setups.inventory import OptionsArg       # only the environment configures profiling
        setups = [ScriptSetup("env", 0, 0, Mode("inherit"), OptionsArg("absent"), None, "yes", ())]
    return Planner(setups, inits, order, target, cwd, env, origin, context=text).results()
