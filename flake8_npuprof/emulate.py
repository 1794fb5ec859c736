"""`npuprof emulate`: what a profiling run of this script would do, without an NPU.

For each profiling setup of the script (every route), the runtime pipeline is replayed in order
(inventory.py finds the setups and the order GE meets them, runtime.py replays the adapter, GE
and the collector, layout.py predicts the PROF_* tree): which setup GE actually reads, script
vs environment, default options, the checks the runtime makes (with its own messages), what
the product drops or remaps, where the data lands, the preflight of this machine (NPP901-903)
and, with --against, what a real collection directory lacks and why.

Default targets (`--cann any --soc any`): every supported (version, product) pair is emulated
and nothing is claimed beyond what all of them agree on. When they agree, the verdict is
theirs; when they do not, the verdict is "unknown" and the first message names, per verdict,
the versions and products it holds for ("depends on the target: collects on ...; fails on
..."), with the messages of each group tagged by where they apply. `collected` lists what is
collected on every target that collects; `dropped` names where each drop happens.

The environment: without --env, PROFILING_MODE / PROFILING_OPTIONS are taken as unset apart from
what the script itself sets, and ASCEND_WORK_PATH is unknown (8.5+ without "output": collects into
it if set, fails otherwise, so the verdict is "unknown" with that condition); with --env they are
read from the current environment (the script's own assignments, when they run before GE starts,
still win).

Unknown pieces of values (source.HOLE) are kept as HOLE characters inside the emulation and
written "<unknown>" in every rendered string (text and JSON); output_dir is null then. `usable`
is None (text "usable data: unknown (why)") when the outcome hangs on such a value.

Exit codes: 0 when every setup GE would read collects data, preflight passes and (with
--against) the directory has every predicted file family and nothing unexpected; 1 otherwise
(also when the script has no profiling setup); 2 on usage or internal error.
"""

from __future__ import annotations

import ast
import json
import os
import sys
from typing import Dict, List, NamedTuple, Optional, Tuple

from . import knowledge as K
from .checks.options import versions_phrase
from .inventory import GeInit, Inventory, Mode, ScriptSetup, shell_setups
from .runtime import Env, Outcome, Request, dumps, run
from .source import HOLE
from .targets import Target, TargetError

EXIT_OK, EXIT_PROBLEM, EXIT_ERROR = 0, 1, 2
VERDICTS = ("collects", "fails", "off", "collects_nothing", "unknown")


class UsageError(Exception):
    pass


class Result(NamedTuple):
    setup: ScriptSetup
    read_by_ge: Optional[bool]      # None: the file does not show whether GE reads it first
    verdict: str
    messages: List[str]
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


# ---------------------------------------------------------------- CLI

def add_parser(sub, add_target_options, add_selection_options) -> None:
    p = sub.add_parser("emulate", help="predict what a profiling run of a script does (no NPU needed)",
                       description="Replay the Ascend profiling pipeline for each profiling setup of a script: "
                                   "effective configuration, runtime checks, product, output tree, preflight.")
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="the training script (or a shell launcher); several give one report each (a JSON array "
                        "with --format json)")
    add_target_options(p)
    p.add_argument("--config", default=None, help="configuration file (default: the nearest pyproject.toml / "
                                                  "setup.cfg / tox.ini / .flake8 above the script)")
    p.add_argument("--cwd", default=None, help="directory the job starts in (default: the current directory)")
    p.add_argument("--graph", default=None, help="graph dump (.pbtxt GraphDef or GE ge_proto_*_Build.txt) to check "
                                                 "fp_point/bp_point against")
    p.add_argument("--env", action="store_true", help="read PROFILING_MODE/PROFILING_OPTIONS/ASCEND_WORK_PATH from "
                                                      "the current environment")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--against", metavar="PROF_DIR", default=None,
                   help="compare a real collection (a PROF_* directory or the output directory) with the prediction")
    p.set_defaults(func=main_args)


def main_args(args) -> int:
    progress = Progress(len(args.paths), sys.stderr)
    exits, texts, docs = [], [], []
    machine: dict = {}                  # what detection found, asked once for all the files
    for i, path in enumerate(args.paths):
        progress.show(i, path)
        try:
            target, origin = resolve_target(args, path, os.environ, machine)
            report = emulate_path(path, target, cwd=args.cwd, use_env=args.env, graph=args.graph,
                                  against=args.against, environ=os.environ)
            report["target_origin"] = origin
            if args.format == "json":
                docs.append(report_json(report))
            else:
                texts.append(render_text(report))
        except (UsageError, TargetError) as exc:
            progress.clear()
            print(f"npuprof emulate: error: {_first_line(exc)}", file=sys.stderr)
            exits.append(EXIT_ERROR)
            continue
        except Exception as exc:            # never a traceback: one line, exit 2
            progress.clear()
            print(f"npuprof emulate: internal error: {type(exc).__name__}: {_first_line(exc)}", file=sys.stderr)
            exits.append(EXIT_ERROR)
            continue
        exits.append(report["exit"])
    progress.clear()
    if docs:
        sys.stdout.write(json.dumps(docs[0] if len(args.paths) == 1 else docs, indent=2, ensure_ascii=False) + "\n")
    sys.stdout.write("\n".join(texts))
    return max(exits)


class Progress:
    """`[3/120] path` on one stderr line rewritten in place, while several files are emulated for a terminal;
    nothing otherwise (a pipe or a log file gets only the reports)."""

    def __init__(self, total: int, stream):
        self.total, self.stream = total, stream
        try:
            self.on = total > 1 and stream.isatty()
        except (AttributeError, ValueError):
            self.on = False
        self.shown = False

    def show(self, index: int, path: str) -> None:
        if not self.on:
            return
        import shutil
        width = max(shutil.get_terminal_size((80, 24)).columns - 1, 20)
        head = f"[{index + 1}/{self.total}] emulating "
        room = max(width - len(head), 10)
        tail = path if len(path) <= room else "…" + path[len(path) - room + 1:]     # keep the file's name
        self.stream.write("\r\x1b[K" + head + tail)
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


# ---------------------------------------------------------------- which target

class Origin(NamedTuple):
    source: str         # flag, config, machine or default
    detail: str         # the flag, the configuration file, the file or command detected from
    notes: Tuple[str, ...] = ()     # what detection tried and could not use


def resolve_target(args, path: str, environ, machine: Optional[dict] = None) -> Tuple[Target, Dict[str, Origin]]:
    """Each of --cann / --soc from, in order: the flag; the project's configuration (the same settings
    `npuprof check` reads, found from the script's directory); the machine (detect.py); then any.
    `auto`, as a flag or in the configuration, asks for the machine explicitly."""
    from .config import ConfigError, load_config
    from . import cli
    start = os.path.dirname(os.path.abspath(path))
    try:
        config = load_config(getattr(args, "config", None), start=start)
    except (cli.UsageError, ConfigError) as exc:
        raise UsageError(str(exc)) from None
    values, origins = {}, {}
    for kind in ("cann", "soc"):
        flag = getattr(args, kind, None)
        configured = getattr(config, kind, None) if config else None
        if flag is not None:            # `--cann ""` is refused like any unknown target
            value, origin = flag, Origin("flag", f"--{kind}")
        elif configured:
            value, origin = configured, Origin("config", _config_label(config.path))
        else:
            value, origin = "auto", Origin("default", "")
        if value.strip().lower() == "auto":
            cache = machine if machine is not None else {}
            if (kind, origin) not in cache:
                cache[(kind, origin)] = _machine(kind, environ, origin)
            value, origin = cache[(kind, origin)]
        values[kind], origins[kind] = value, origin
    return Target.parse(values["cann"], values["soc"]), origins


def _config_label(path: str) -> str:
    section = "[tool.npuprof]" if path.endswith(".toml") else "[flake8]"
    return f"{_display(path)} {section}"


def _display(path: str) -> str:
    """A path as short as it can be said: relative to the current directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") or len(rel) >= len(path) else rel


def _machine(kind: str, environ, asked: Origin) -> Tuple[str, Origin]:
    from . import detect
    found = detect.detect_cann(environ) if kind == "cann" else detect.detect_soc(environ)
    if found.value is not None:
        return found.value, Origin("machine", found.origin, found.notes)
    how = f"{asked.detail} auto" if asked.source in ("flag", "config") else ""
    return "any", Origin("default", how, found.notes)


def target_line(report: dict) -> str:
    """The first line: the target and where each half of it came from."""
    target = Target(report["target"]["cann"], report["target"]["soc"])
    origin = report.get("target_origin") or {}
    cann = "every CANN version" if target.cann in ("any", "portable") else f"CANN {target.cann}"
    soc = "every product" if target.soc == "any" else f"Ascend {target.soc}"
    a, b = origin.get("cann"), origin.get("soc")
    if a is not None and a == b and a.source == "config":      # both from the same file: say it once
        return f"target: {cann} / {soc} ({a.detail})"
    parts = []
    for kind, text in (("cann", cann), ("soc", soc)):
        o = origin.get(kind)
        if o is None:
            parts.append(text)
        elif o.source == "machine":
            parts.append(f"{text} (this machine: {o.detail})")
        elif o.source == "default":
            parts.append(f"{text} ({o.detail + ' found nothing' if o.detail else 'none given or detected'})")
        else:
            parts.append(f"{text} ({o.detail})")
    return "target: " + " / ".join(parts)


def origin_json(origin: Dict[str, Origin]) -> dict:
    return {kind: {"source": o.source, "detail": o.detail or None, "notes": list(o.notes)}
            for kind, o in origin.items()}


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


# ---------------------------------------------------------------- the emulation

def base_env(use_env: bool, environ) -> Env:
    """Without --env, PROFILING_MODE/PROFILING_OPTIONS are taken as unset (the emulation is of what the script
    configures) but ASCEND_WORK_PATH is unknown: on 8.5+ it decides whether a setup without "output" collects."""
    if not use_env:
        return Env(label="the environment (taken as empty without --env)", work_path_known=False)
    return Env(environ.get("PROFILING_MODE"), environ.get("PROFILING_OPTIONS"), "the environment (--env)",
               environ.get("ASCEND_WORK_PATH") or None, True)


def emulate_path(path: str, target: Target, cwd: Optional[str] = None, use_env: bool = False,
                 graph: Optional[str] = None, against: Optional[str] = None, environ=None) -> dict:
    from .files import ReadError, read_source
    if os.path.isdir(path):
        raise UsageError(f"{path} is a directory: give one script (npuprof check takes directories)")
    try:
        source = read_source(path)
    except ReadError as exc:
        raise UsageError(f"{path}: {exc}") from None
    cwd = os.path.abspath(cwd) if cwd else os.getcwd()
    if graph is not None and not os.path.isfile(graph):
        raise UsageError(f"--graph {graph}: no such file")
    if against is not None and not os.path.isdir(against):
        raise UsageError(f"--against {against}: no such directory")
    env = base_env(use_env, environ if environ is not None else os.environ)
    if source.kind == "shell" and graph is None and against is None:
        from .launcher import emulate_launcher      # the Python script the launcher starts, with its env and flags
        caller = (environ if environ is not None else os.environ) if use_env else None
        report = emulate_launcher(path, target, cwd, env, caller)
        if report is not None:
            report["env"] = use_env
            return report
    results = emulate_text(source.text, source.kind, path, target, cwd, env)
    return finish(path, results, target, cwd, env, graph, against, use_env)


def emulate_text(text: str, kind: str, path: str, target: Target, cwd: str, env: Env) -> List[Result]:
    origin = "the script"
    if kind == "shell":
        setups, inits, order, origin = shell_setups(text), [], None, "the launcher"
    else:
        from .analysis import Context, Settings
        from .source import SourceText
        try:
            tree = ast.parse(text, path)
        except (SyntaxError, ValueError) as exc:
            raise UsageError(f"{path}: cannot parse: {exc}") from None
        ctx = Context(SourceText(text), tree, path, Settings(target=target, cwd=cwd))
        inventory = Inventory(ctx)
        setups, inits, order = inventory.setups, inventory.inits, inventory.order
    if not setups and env.mode is not None:
        from .inventory import OptionsArg       # only the environment configures profiling
        setups = [ScriptSetup("env", 0, 0, Mode("inherit"), OptionsArg("absent"), None, "yes", ())]
    return Planner(setups, inits, order, target, cwd, env, origin).results()


class Planner:
    """Decides which setup GE reads, with which environment, and emulates each on the targets."""

    def __init__(self, setups, inits: List[GeInit], order, target: Target, cwd: str, env: Env,
                 origin: str = "the script"):
        self.setups = setups
        self.origin = origin            # who sets PROFILING_* for the env route: the script or the launcher
        self.target = target
        self.cwd = cwd
        self.env = env
        self.order = order
        from .state import first_init       # the same rule as the model check uses
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
            if s.route != "env" or s.anchor is None:
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
        if setup.delivered == "never":
            return self._fixed(setup, False, "off", [
                f"NPP006 this {_what(setup)} is never handed to a Session, RunConfig, NPURunConfig, init_resource or "
                "NPU helper: GE never reads it"])
        if setup.delivered == "late":
            return self._fixed(setup, False, "off", [
                f"NPP012 set after npu.open() (line {_line(setup.delivery)}): npu_device reads the global options "
                "when the device opens, so these settings are ignored"])
        from .state import overridden_by
        rank = self._rank(setup.delivery)
        first = self.first
        if overridden_by(setup, first, self.order):
            who = f"the {first.setup.route} setup on line {first.setup.line}" if first.setup else first.what
            return self._fixed(setup, False, "off", [
                f"not read: GE is initialised first at line {first.line} by {who}; GE takes its init options only "
                f'once ("{_runtime_data()["already_initialised"]}"), so this setup is ignored'])
        read = True if (first is not None and rank is not None) else None
        env = self.env_at(rank)
        notes = []
        if read is None:
            notes.append("the file does not show when this runs (not reached from module level, or handed to code "
                         "outside this file): emulated as if it initialised GE")
        return self._emulate(setup, read, env, notes)

    def _env_setup(self, setup: ScriptSetup, reader: Optional[Result]) -> Result:
        if reader is not None and reader.source in ("script", "adapter default") and reader.verdict != "unknown":
            return self._fixed(setup, False, "off", [
                f"not read: the {reader.setup.route} setup on line {reader.setup.line} switches profiling on with "
                "options, and GE then uses those instead of PROFILING_MODE/PROFILING_OPTIONS"])
        first = self.first
        rank = self._rank(setup.anchor)
        if first is not None and rank is not None and self._rank(first.call) < rank:
            return self._fixed(setup, False, "off", [
                f"not read: set after GE is initialised at line {first.line}; GE reads the environment only then"])
        read = True if first is not None and rank is not None else None
        return self._emulate(setup, read, self.env, [])

    # ---- emulation over the targets

    def _fixed(self, setup, read, verdict, messages) -> Result:
        return Result(setup, read, verdict, messages, None, "", [], [], None, [], "", [], {})

    def _emulate(self, setup: ScriptSetup, read, env: Env, notes: List[str]) -> Result:
        cells = [(v, p) for v in self.target.versions for p in self.target.products]
        outcomes = {cell: self._cell(setup, env, *cell) for cell in cells}
        return summarise(setup, read, outcomes, self.target, self.cwd, notes)

    def _cell(self, setup: ScriptSetup, env: Env, version: str, product: str) -> Outcome:
        opts = setup.options
        texts: List[Optional[str]] = [None]
        if opts.state == "given":
            cands = opts.strings.candidates if opts.strings else ()
            if not cands:
                reason = f" ({opts.strings.reason})" if opts.strings and opts.strings.reason else ""
                return Outcome("unknown", (f"profiling_options cannot be determined statically{reason}",))
            texts = [c.text for c in cands]
        outs = [run(Request(setup.route, setup.mode, opts.state, t, self.origin), env, version, product)
                for t in texts]
        first = outs[0]
        if len(outs) == 1:
            return first
        if all((o.verdict, o.collected) == (first.verdict, first.collected) for o in outs[1:]):
            same = first._replace(notes=first.notes + (f"the options can take {len(outs)} values; all give this "
                                                       "result",))
            if len({o.text for o in outs}) > 1:     # say nothing one value alone would claim
                same = same._replace(options=None, text=None)
            if len({o.output for o in outs}) > 1:
                same = same._replace(output=None, notes=same.notes + (
                    "output is one of " + ", ".join(sorted(str(o.output) for o in outs)),))
            return same
        shown = "; ".join(f"{o.verdict} ({', '.join(o.collected) or _cause(o)})" for o in outs)
        return Outcome("unknown", (f"the options can take {len(outs)} values with different results: {shown}",))


def _cause(o: Outcome) -> str:
    """The message that says why an outcome is what it is (the NPP failure, not the abort chain after it)."""
    if o.condition:
        return o.condition
    if o.verdict == "fails":
        return next((m for m in o.messages if m.startswith("NPP")), o.messages[0] if o.messages else "")
    return o.messages[-1] if o.messages else ""


def _runtime_data() -> dict:
    from .runtime import emu
    return emu()


def _line(node) -> int:
    return getattr(node, "lineno", 0)


def _what(setup: ScriptSetup) -> str:
    return {"NpuOptimizer": "profiling config", "ProfilingConfig": "ProfilingConfig"}.get(setup.route, "setup")


# ---------------------------------------------------------------- summarising the targets

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


def summarise(setup: ScriptSetup, read, outcomes: Dict[Tuple[str, str], Outcome], target: Target, cwd: str,
              notes: List[str]) -> Result:
    """One result for the setup from its outcome on every targeted (version, product)."""
    from .layout import export_command, predict
    verdict, spread = _verdict(outcomes, target)
    messages: List[str] = []
    if spread:
        shown = "; ".join(f"{v.replace('_', ' ')} on {where}" + (f" ({cond})" if cond else "")
                          for v, where, cond in spread)
        messages.append(f"depends on the target: {shown}; give --cann and --soc for one answer")
    messages += tagged_messages(outcomes, target) + notes
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


def _verdict(outcomes, target: Target) -> Tuple[str, List[Tuple[str, str, str]]]:
    """The common verdict, or "unknown" with (verdict, where, condition) for each verdict the targets give
    (unknown targets split by what they hang on, when that is known)."""
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


def _output_dir(outcomes, cwd: str) -> Optional[str]:
    """The absolute output directory when every target that starts profiling agrees on it."""
    from .checks.preflight import resolve_output
    outputs = {o.output for o in outcomes.values() if o.verdict in ("collects", "collects_nothing")}
    if len(outputs) != 1:
        return None
    value = outputs.pop()
    return resolve_output(value, cwd) if value is not None and HOLE not in value else None


def tagged_messages(outcomes: Dict[Tuple[str, str], Outcome], target: Target) -> List[str]:
    """Each distinct message once, tagged with the targets it applies to unless it applies to all."""
    where: Dict[str, List[Tuple[str, str]]] = {}
    for cell, o in outcomes.items():
        for m in o.messages + o.notes:
            where.setdefault(m, []).append(cell)
    common = [m for m, cells in where.items() if len(cells) == len(outcomes)]
    tagged = [f"[{cells_phrase(cells, target)}] {m}" for m, cells in where.items() if len(cells) != len(outcomes)]
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


# ---------------------------------------------------------------- preflight, comparison, exit code

def preflight(results: List[Result], cwd: str, graph_path: Optional[str]) -> Tuple[List[dict], List[str]]:
    """(NPP9xx problems, what was checked and passed) for the setups GE may read."""
    from .checks.preflight import load_graph, options_problems
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
        problems = options_problems(options, cwd, graph)
        for key, problem in problems:
            if problem.message not in seen:
                seen.add(problem.message)
                out.append({"code": problem.code, "message": problem.message, "line": r.setup.line, "key": key})
        for note in _passed(options, cwd, graph, {k for k, _ in problems}):
            if note not in checked:
                checked.append(note)
    return out, checked


def _passed(options: dict, cwd: str, graph, failed: set) -> List[str]:
    """Short descriptions of the preflight checks that passed."""
    from .checks.preflight import free_mb, resolve_output
    out = []
    output = options.get("output")
    if isinstance(output, str) and output and HOLE not in output:
        path = resolve_output(output, cwd)
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
    maybe, off, dropped = [], {}, {}
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


def finish(path: str, results: List[Result], target: Target, cwd: str, env: Env, graph: Optional[str],
           against: Optional[str], use_env: bool) -> dict:
    checks, checked = preflight(results, cwd, graph)
    comparison = against_report(results, against, target) if against else None
    if comparison and comparison["prof_dir"]:
        prof = comparison["prof_dir"]
        from .layout import export_command
        results = [r._replace(export_command=export_command("", prof)) if r.setup.line == comparison["setup_line"]
                   and r.export_command else r for r in results]
    read = [r for r in results if r.read_by_ge is not False]
    states = [may_collect(r) for r in read]
    usable: Optional[bool] = bool(read) and all(states)
    if read and False not in states and None in states:
        usable = None                   # collects on some targets only, or hangs on a value unknown statically
    if any(p["code"] == "NPP901" for p in checks):
        usable = False                  # the collector cannot write where it is told to
    ok = usable is True and not checks and not (comparison and (comparison["missing"] or comparison["extra"]))
    return {"file": path, "target": {"cann": target.cann, "soc": target.soc}, "cwd": cwd, "env": use_env,
            "results": results, "preflight": checks, "checked": checked, "against": comparison, "usable": usable,
            "exit": EXIT_OK if ok else EXIT_PROBLEM}


def may_collect(r: Result) -> Optional[bool]:
    """True: this setup collects; False: it certainly does not; None: on some targets only, or unknown."""
    if r.verdict == "collects":
        return True
    if r.verdict != "unknown":
        return False
    if r.spread and not any(v in ("collects", "unknown") for v, _, _ in r.spread):
        return False                    # fails / off / collects nothing, depending on the target
    return None


def unknown_reasons(results: List[Result]) -> List[str]:
    """Why the usability of the data is unknown, one phrase per setup GE may read that leaves it open."""
    out = []
    for r in results:
        if r.read_by_ge is False or may_collect(r) is not None:
            continue
        if r.spread:
            why = "; ".join(f"{cond or v.replace('_', ' ')} on {where}" for v, where, cond in r.spread)
        else:
            why = next((o.condition for o in r.outcomes.values() if o.condition), "") or \
                (r.messages[0] if r.messages else "a value cannot be determined statically")
        out.append(f"line {r.setup.line} {r.setup.route}: {why}")
    return out


# ---------------------------------------------------------------- rendering

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


def result_json(r: Result) -> dict:
    s = r.setup
    where = {"file": r.path} if r.path else {}      # a setup outside the report's file (a launcher's msprof line)
    return {**where, "line": s.line, "column": s.column + 1, "route": s.route, "verdict": r.verdict,
            "messages": r.messages,
            "effective_options": r.effective_options, "collected": r.collected,
            "dropped": [{"option": k, "reason": why} for k, why in r.dropped], "output_dir": r.output_dir,
            "prof_layout": r.layout, "export_command": r.export_command, "read_by_ge": r.read_by_ge,
            "conditions": _conditions(s), "options_source": r.source or None, "targets": r.groups}


def render_json(report: dict) -> str:
    return json.dumps(report_json(report), indent=2, ensure_ascii=False) + "\n"


def report_json(report: dict) -> dict:
    target = dict(report["target"])
    if report.get("target_origin"):
        target["origin"] = origin_json(report["target_origin"])
    out = {"file": report["file"], "target": target, "cwd": report["cwd"], "env": report["env"],
           "usable": report["usable"], "setups": [result_json(r) for r in report["results"]],
           "preflight": [{"code": p["code"], "message": p["message"], "line": p["line"]} for p in report["preflight"]]}
    if report["against"] is not None:
        out["against"] = report["against"]
    if report.get("launch"):
        out["launch"] = {k: v for k, v in report["launch"].items() if k != "lines"}
    return shown(out)


def output_text(r: Result, cwd: str) -> str:
    """The output directory for the text report: known, partly known (with HOLEs, shown as <unknown>), or ""."""
    if r.output_dir:
        return r.output_dir
    outs = {o.output for o in r.outcomes.values() if o.verdict in ("collects", "collects_nothing")}
    value = outs.pop() if len(outs) == 1 else None
    if not value or HOLE not in value or not value.replace(HOLE, "").strip("/"):
        return ""                       # known (then output_dir has it) or nothing of it known
    from .checks.preflight import resolve_output
    return value if value.startswith(HOLE) else resolve_output(value, cwd)


# ---------------------------------------------------------------- text: headline, table, details

HEADLINE_WIDTH = 100        # one terminal line


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:max(width - 1, 0)] + "…"


def _short_path(path: str, width: int) -> str:
    """A directory said in at most `width` characters: relative to the current directory when inside it, else
    its last components after "…/"."""
    path = _display(path)
    if len(path) <= width:
        return path
    parts = path.split("/")
    for i in range(1, len(parts)):
        tail = "…/" + "/".join(parts[i:])
        if len(tail) <= width:
            return tail
    return _cut(parts[-1], width)


def _code_of(o: Outcome) -> str:
    return next((m.split()[0] for m in o.messages if m.startswith("NPP")), "")


def target_rows(r: Result, target: Target) -> List[Tuple[str, str, str, str]]:
    """(targets, verdict, collected, dropped) per group of targets with the same answer, the most common first."""
    groups: Dict[tuple, List[Tuple[str, str]]] = {}
    for cell, o in r.outcomes.items():
        verdict = o.verdict.replace("_", " ")
        if o.verdict == "fails" and _code_of(o):
            verdict += f" ({_code_of(o)})"
        key = (verdict, tuple(o.collected) if o.verdict == "collects" else (), tuple(k for k, _ in o.dropped))
        groups.setdefault(key, []).append(cell)
    order = sorted(groups.items(), key=lambda kv: -len(kv[1]))
    return [(cells_phrase(cells, target), verdict, ", ".join(collected) or "-", ", ".join(dropped) or "-")
            for (verdict, collected, dropped), cells in order]


def _table(rows: List[Tuple[str, ...]], header: Tuple[str, ...], indent: str = "  ") -> List[str]:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    out = []
    for row in [header, *rows]:
        cells = [c.ljust(w) for c, w in zip(row, widths)] + [row[-1]]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def headline(report: dict, r: Result) -> str:
    """One line (at most HEADLINE_WIDTH characters) per setup: where, the verdict, what is collected and where to.
    Detail is given up in steps until it fits: the output directory's leading part, the list of switches; a
    message is cut. The full path, the conditions and the messages follow in the details."""
    s = r.setup
    target = Target(report["target"]["cann"], report["target"]["soc"])
    rows = target_rows(r, target) if r.outcomes else []
    locs = (f"{os.path.basename(r.path or report['file'])}:{s.line} {s.route}", f"line {s.line} {s.route}")
    options = {loc: shown(_verdict_texts(report, r, rows, HEADLINE_WIDTH - len(loc) - 2)) for loc in locs}
    conds = _conditions(s)
    if conds and r.verdict in ("collects", "fails"):
        # a verdict that holds only under a condition says so: in full where it fits, else in one word
        when = f" (when {' and '.join(conds)})"
        options = {loc: [t + when for t in texts[:2]] + [t + " (conditional)" for t in texts]
                   for loc, texts in options.items()}
    if len(options[locs[0]]) == 1:     # a message: keep the file's name if that leaves room, and cut it
        loc = locs[0] if HEADLINE_WIDTH - len(locs[0]) >= 60 else locs[1]
        return _cut(f"{loc}: {options[loc][0]}", HEADLINE_WIDTH)
    for i in range(len(options[locs[0]])):      # the most detail first, then the file's name
        for loc in locs:
            if len(loc) + 2 + len(options[loc][i]) <= HEADLINE_WIDTH:
                return f"{loc}: {options[loc][i]}"
    return _cut(f"{locs[1]}: {options[locs[1]][-1]}", HEADLINE_WIDTH)


def _verdict_texts(report: dict, r: Result, rows, room: int) -> List[str]:
    """The verdict part of the headline, from the most to the least detailed."""
    first = r.messages[0] if r.messages else ""
    if r.verdict == "collects" or any(v == "collects" for v, _, _ in r.spread):
        out_dir = shown(output_text(r, report["cwd"]))       # measured as printed
        more = " (+ more)" if any(row[1] == "collects" and row[2] != ", ".join(r.collected) for row in rows) else ""
        keys = (", ".join(r.collected) + more) if r.collected else "data"
        count = f"{len(r.collected)} switches{more}" if r.collected else "data"
        if r.verdict == "collects":
            source = f" ({r.source} options)" if r.source and r.source != "script" else ""
            if not out_dir:
                return [f"COLLECTS {keys} into a directory known only at run time{source}",
                        f"COLLECTS {keys} into a directory known only at run time", f"COLLECTS {keys}",
                        f"COLLECTS {count}"]
            whole = _display(out_dir)
            out = [f"COLLECTS {keys} into {whole}{source}", f"COLLECTS {keys} into {whole}"]
            for what in (keys, count):
                head = f"COLLECTS {what} into "
                out.append(head + _short_path(out_dir, max(room - len(head), 12)))
            return out + [f"COLLECTS {keys}", f"COLLECTS {count}"]
        others = " or ".join(dict.fromkeys(v.replace("_", " ") for v, _, _ in r.spread if v != "collects"))
        return [f"DEPENDS ON TARGET: collects {what} or {others} (see table)" for what in (keys, count, "data")]
    if r.spread:
        verdicts = " / ".join(dict.fromkeys(v.replace("_", " ") for v, _, _ in r.spread))
        return [f"DEPENDS ON TARGET: {verdicts} (see table)"]
    if r.verdict == "fails":
        failure = next((m for m in r.messages if m.startswith("NPP")), None)
        per_target = [m for m in r.messages if m.startswith("[") and "] NPP" in m]
        if failure is None and len(per_target) > 1:
            # every target fails (no spread), each with its own runtime message: one of them alone
            # would read as if only its targets failed
            codes = " / ".join(dict.fromkeys(m.split("] ", 1)[1].split(" ", 1)[0] for m in per_target))
            return [f"FAILS: {codes} on every target (per-version messages below)",
                    f"FAILS: {codes} on every target"]
        return [f"FAILS: {failure or (per_target[0] if per_target else first)}"]
    if r.verdict == "collects_nothing":
        return [f"COLLECTS NOTHING: {r.messages[-1] if r.messages else ''}"]
    return [f"{r.verdict.upper()}: {first}"]


def render_text(report: dict) -> str:
    results: List[Result] = report["results"]
    lines = [target_line(report)] + [ln for ln in (report.get("launch") or {}).get("lines", [])]
    lines.extend(headline(report, r) for r in results)
    if not results:
        lines.append(f"{report['file']}: no profiling setup found: a run collects no profiling data "
                     "(set PROFILING_MODE/PROFILING_OPTIONS and use --env to emulate the environment)")
    for p in report["preflight"]:
        lines.append(f"{report['file']}:{p['line']} preflight {p['code']} {p['message']}")
    if not report["preflight"] and report["checked"]:
        lines.append(f"preflight: ok ({'; '.join(report['checked'])})")
    ok = report["exit"] == EXIT_OK
    reader = next((r for r in results if r.read_by_ge is not False and r.export_command), None)
    then = f"; afterwards run: {reader.export_command}" if reader else ""
    if report["usable"]:
        conditional = any(_conditions(r.setup) for r in results if r.read_by_ge is not False)
        lines.append(f"usable data: yes{' (where its conditions hold)' if conditional else ''}"
                     f"{'' if ok else ' (but see the problems above)'}{then}")
    elif any(p["code"] == "NPP901" for p in report["preflight"]):
        lines.append("usable data: no (the output directory cannot be used on this machine)")
    elif report["usable"] is None:
        open_ = [r for r in results if r.read_by_ge is not False and may_collect(r) is None]
        if all({v for v, _, _ in r.spread} & {"collects"} and "unknown" not in {v for v, _, _ in r.spread}
               for r in open_):
            lines.append(f"usable data: only on some targets (see the table; give --cann and --soc, or set cann "
                         f"and soc in [tool.npuprof]){then}")
        else:               # hangs on a value not known statically: say which, never "no"
            lines.append(f"usable data: unknown ({'; '.join(unknown_reasons(results))}){then}")
    else:
        lines.append("usable data: no")
    notes = [n for o in (report.get("target_origin") or {}).values() if o.source == "default" for n in o.notes]
    if notes:
        lines.append(f"target detection: {'; '.join(dict.fromkeys(notes))}")
    for r in results:
        lines.append("")
        lines.extend(_details(report, r))
    if report["against"] is not None:
        lines.append("")
        lines.extend(_against_text(report["against"]))
    return shown("\n".join(lines) + "\n")


def _conditions(s) -> List[str]:
    """What a setup needs to be read: its guards, and a flag that is its switch (state.py's "flag")."""
    conds = list(s.conditions)
    if s.mode.state == "on" and s.mode.detail.startswith("when "):
        conds.append(s.mode.detail[len("when "):])
    return conds


def _details(report: dict, r: Result) -> List[str]:
    s = r.setup
    target = Target(report["target"]["cann"], report["target"]["soc"])
    out = [f"{r.path or report['file']}:{s.line} {s.route}: {r.verdict}" +
           ("" if r.read_by_ge is not None else " (if GE reads it)") +
           (f" (when {' and '.join(_conditions(s))})" if _conditions(s) else "")]
    if r.effective_options is not None:
        out.append(f"  effective options ({r.source}): {dumps(r.effective_options)}")
    rows = target_rows(r, target) if r.outcomes else []
    messages = r.messages
    if len(rows) > 1:
        out.append("  per target:")
        out.extend(_table(rows, ("targets", "verdict", "collected", "dropped"), "    "))
        messages = [m for m in messages if not m.startswith("depends on the target: ")]   # the table says it
    out.extend(f"  - {m}" for m in messages)
    for key, why in r.dropped:
        out.append(f"  dropped {key}: {why}")
    out_dir = output_text(r, report["cwd"])
    if r.output_dir:
        out.append(f"  output directory: {r.output_dir}")
    elif out_dir:
        out.append(f"  output directory: {out_dir} (partly known only at run time)")
    if r.layout:
        some = [k for row in rows if row[1] == "collects" for k in row[2].split(", ") if k not in r.collected]
        partial = (f"; the files of {', '.join(dict.fromkeys(some))}, collected on some targets only, are not listed"
                   if some else "")
        out.append("  predicted tree (files appear only for data actually collected; "
                   f"mindstudio_profiler_output after export{partial}):")
        out.extend(f"    {p}" for p in r.layout)
    if r.export_command:
        out.append(f"  then run: {r.export_command}")
    return out


def _against_text(a: dict) -> List[str]:
    out = [f"against {a['prof_dir']}:"]
    for note in a["notes"]:
        out.append(f"  ! {note}")
    for g in a["missing"]:
        out.append(f"  MISSING {g['family']}: {g['cause']}")
    for g in a["extra"]:
        out.append(f"  UNEXPECTED {g['family']}: {g['cause']}")
    if not (a["missing"] or a["extra"]):
        out.append("  every predicted file family is there")
    for g in a["explained"]:
        out.append(f"  no {g['family']}: {g['cause']}")
    return out
