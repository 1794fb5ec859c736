"""`npuprof emulate`: what a profiling run of this script would do, without an NPU.

For each profiling setup of the script (every route), the runtime pipeline is replayed in order
(inventory.py finds the setups and the order GE meets them, runtime.py replays the adapter, GE
and the collector, layout.py predicts the PROF_* tree): which setup GE actually reads, script
vs environment, default options, the checks the runtime makes (with its own messages), what
the product drops or remaps, where the data lands, the preflight of this machine (NPP901-903)
and, with --against, what a real collection directory lacks and why. Only the code that runs from
the script's entry point decides (setups/reach.py); a shell launcher is followed launch by launch
(sequence.py). The reports are written by render.py.

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

import json
import os
import sys
from typing import Dict, NamedTuple, Optional, Tuple

from .runtime import Env
from ..knowledge.targets import Target, TargetError
from .replay import EXIT_ERROR, EXIT_PROBLEM, UsageError, emulate_text, finish, run_dir, starts_python
from .render import (HEADLINE_WIDTH, _conditions, _display, headline, render_json, render_text,  # noqa: F401
                     report_json, result_json, target_line, unknown_reasons)


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


def _machine(kind: str, environ, asked: Origin) -> Tuple[str, Origin]:
    from ..knowledge import detect
    found = detect.detect_cann(environ) if kind == "cann" else detect.detect_soc(environ)
    if found.value is not None:
        return found.value, Origin("machine", found.origin, found.notes)
    how = f"{asked.detail} auto" if asked.source in ("flag", "config") else ""
    return "any", Origin("default", how, found.notes)


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
    given_cwd = os.path.abspath(cwd) if cwd else None       # a launcher starts in its own directory otherwise
    cwd = given_cwd or os.getcwd()
    if graph is not None and not os.path.isfile(graph):
        raise UsageError(f"--graph {graph}: no such file")
    if against is not None and not os.path.isdir(against):
        raise UsageError(f"--against {against}: no such directory")
    env = base_env(use_env, environ if environ is not None else os.environ)
    if source.kind == "shell":
        cwd = given_cwd or os.path.dirname(os.path.abspath(path))     # never the caller's directory
    if source.kind == "shell" and graph is None and against is None:
        from .sequence import emulate_launcher      # every launch it runs, with its env and flags
        caller = (environ if environ is not None else os.environ) if use_env else None
        report = emulate_launcher(path, target, given_cwd, env, caller, inside)
        if report is not None:
            report["env"] = use_env
            return report
    cwd = run_dir(source.text, source.kind, cwd)
    results = emulate_text(source.text, source.kind, path, target, cwd, env)
    report = finish(path, results, target, cwd, env, graph, against, use_env)
    spawn = starts_python(source.text) if source.kind == "python" and not results else 0
    if spawn:
        why = f"it starts another Python process at line {spawn}, which emulate does not follow: emulate that script"
        report.update(usable=None, exit=EXIT_PROBLEM, launch={"lines": [f"no launch followed: {why}"], "unseen": True},
                      answer={"usable": None, "why": why, "decider": None})
    if source.kind == "python" and not results and not spawn:
        from ..source.prefilter import names_torch_npu
        if names_torch_npu(source.text):
            # its own profiler, which this replay does not model: never "no profiling setup found"
            why = "it profiles with torch_npu.profiler, which emulate does not replay yet (npuprof check judges it)"
            report.update(usable=None, exit=EXIT_PROBLEM, answer={"usable": None, "why": why, "decider": None},
                          launch={"lines": [f"{os.path.basename(path)}: torch_npu.profiler is not replayed by "
                                            "emulate yet (npuprof check judges it)"], "unseen": True})
    if source.kind == "shell" and results and report["usable"] is not False:
        # its own PROFILING_* as GE would read them, but no process the walk sees reads them: never "yes"
        why = "the launcher starts no python3 script or msprof run that emulate can follow"
        report.update(usable=None, exit=EXIT_PROBLEM, launch={"lines": [f"no launch: {why}"], "unseen": True},
                      answer={"usable": None, "why": why, "decider": None})
    return report
