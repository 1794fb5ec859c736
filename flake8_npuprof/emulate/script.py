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

from ..setups.inventory import Inventory, Mode, ScriptSetup, shell_setups
from .runtime import Env, Outcome, dumps
from ..setups.state import switch_flag
from ..source.text import HOLE
from ..knowledge.targets import Target, TargetError
from .replay import EXIT_ERROR, EXIT_OK, Planner, Result, UsageError, cells_phrase, finish, may_collect, shown


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
    p.add_argument("--no-outside", dest="outside", action="store_false", default=None,
                   help="do not read scripts a launcher sources from outside the project (its configuration file's "
                        "folder, else its git work tree, else the launcher's folder); for untrusted launchers in CI")
    p.add_argument("--outside", dest="outside", action="store_true", default=None,
                   help="read them (the default; overrides `outside = false` in the configuration)")
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
                                  against=args.against, environ=os.environ, inside=inside_root(args, path))
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
    from ..checks.catalog import CODES
    from ..source.config import ConfigError, UsageError as ConfigUsageError, load_config
    start = os.path.dirname(os.path.abspath(path))
    try:
        config = load_config(getattr(args, "config", None), start=start, rule_codes=lambda: CODES)
    except (ConfigUsageError, ConfigError) as exc:
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


def inside_root(args, path: str) -> Optional[str]:
    """The folder sourced scripts must stay in (--no-outside, or `outside = false` in the configuration):
    the configuration file's folder, else the git work tree the launcher is in, else the launcher's
    folder. None: any script is read."""
    from ..checks.catalog import CODES
    from ..source.config import ConfigError, UsageError as ConfigUsageError, load_config
    start = os.path.dirname(os.path.abspath(path))
    try:
        config = load_config(getattr(args, "config", None), start=start, rule_codes=lambda: CODES)
    except (ConfigUsageError, ConfigError) as exc:
        raise UsageError(str(exc)) from None
    outside = getattr(args, "outside", None)
    if outside is None:
        outside = config.outside if config else True
    if outside:
        return None
    if config is not None:
        return config.base()
    from pathlib import Path
    for folder in [start, *map(str, Path(start).parents)]:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
    return start


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
    from ..knowledge import detect
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
                 graph: Optional[str] = None, against: Optional[str] = None, environ=None,
                 inside: Optional[str] = None) -> dict:
    from ..source.files import ReadError, read_source
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
        report = emulate_launcher(path, target, cwd, env, caller, inside)
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
        from ..checks.analysis import Context, Settings
        from ..source.prefilter import MAX_WORDS, words_over_budget
        from ..source.text import SourceText
        words = words_over_budget(text)
        if words:
            raise UsageError(f"{path}: not emulated: about {words:,} words and symbols, over the {MAX_WORDS:,} one "
                             "file may have")
        try:
            tree = ast.parse(text, path)
        except (SyntaxError, ValueError) as exc:
            raise UsageError(f"{path}: cannot parse: {exc}") from None
        ctx = Context(SourceText(text), tree, path, Settings(target=target, cwd=cwd))
        inventory = Inventory(ctx)
        setups, inits, order = inventory.setups, inventory.inits, inventory.order
    if not setups and env.mode is not None:
        from ..setups.inventory import OptionsArg       # only the environment configures profiling
        setups = [ScriptSetup("env", 0, 0, Mode("inherit"), OptionsArg("absent"), None, "yes", ())]
    return Planner(setups, inits, order, target, cwd, env, origin).results()


# ---------------------------------------------------------------- summarising the targets


# ---------------------------------------------------------------- preflight, comparison, exit code


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
    from ..checks.preflight import resolve_output
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
    flag = switch_flag(s.mode)
    return list(s.conditions) + ([flag] if flag else [])


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
