"""`npuprof emulate`'s command line: which target, which scripts, and the reports (the emulation itself is
emulate/script.py; what it does and its exit codes are said there)."""

from __future__ import annotations

import json
import os
import sys
from typing import Dict, Optional, Tuple

from ..emulate import script
from ..emulate import framework_render
from ..emulate.render import render_text, report_json
from ..emulate.replay import EXIT_ERROR, UsageError
from ..engine.target import DEFAULTS, KINDS, Origin, settle_target
from ..knowledge.targets import Target, TargetError


def add_parser(sub, add_target_options, add_selection_options) -> None:
    p = sub.add_parser("emulate", help="predict what a profiling run of a script does (no NPU needed)",
                       description="Replay the Ascend profiling pipeline for each profiling setup of a script: "
                                   "effective configuration, runtime checks, product, output tree, preflight.")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="the training script (or a shell launcher); several give one report each (a JSON array "
                        "with --format json). `PATH -- ARG...` gives a launcher its arguments; `-- COMMAND...` "
                        "without PATH emulates the command as typed, started in the current directory or --cwd "
                        "(`-- bash test/train_full_1p.sh --profiling=True`, `-- python3 train.py`, `-- msprof ...`)")
    add_target_options(p, "emulate")
    p.add_argument("--config", default=None, help="configuration file (default: the nearest pyproject.toml / "
                                                  "setup.cfg / tox.ini / .flake8 above the script)")
    p.add_argument("--cwd", default=None, help="directory the job starts in (default: the current directory)")
    p.add_argument("--graph", default=None, help="graph dump (.pbtxt GraphDef or GE ge_proto_*_Build.txt) to check "
                                                 "fp_point/bp_point against")
    p.add_argument("--env", action="store_true", help="read PROFILING_MODE/PROFILING_OPTIONS/ASCEND_WORK_PATH from "
                                                      "the current environment")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--no-outside", dest="outside", action="store_false", default=None,
                   help="read no file outside the project (the configuration file's folder, else the git work tree, "
                        "else the folder of the launcher or script given): no script a launcher sources or starts, "
                        "module it imports, configuration it names; for untrusted launchers in CI")
    p.add_argument("--outside", dest="outside", action="store_true", default=None,
                   help="read them (the default; overrides `outside = false` in the configuration)")
    p.add_argument("--against", metavar="PROF_DIR", default=None,
                   help="compare a real collection (a PROF_* directory or the output directory) with the prediction")
    p.set_defaults(func=main_args)


def main_args(args) -> int:
    given = getattr(args, "launcher_args", None)
    if not args.paths and given is None:
        print("npuprof emulate: error: give a script, a launcher, or the command after -- (npuprof emulate -- bash "
              "train_full_1p.sh --profiling=True)", file=sys.stderr)
        return EXIT_ERROR
    if not args.paths:
        return _command(args, given)
    if given is not None and len(args.paths) != 1:
        print("npuprof emulate: error: arguments after -- are the launcher's: give one launcher before them",
              file=sys.stderr)
        return EXIT_ERROR
    progress = Progress(len(args.paths), sys.stderr)
    exits, texts, docs = [], [], []
    machine: dict = {}                  # what detection found, asked once for all the files
    for i, path in enumerate(args.paths):
        progress.show(i, path)
        try:
            target, origin = resolve_target(args, path, os.environ, machine)
            report = script.emulate_path(path, target, cwd=args.cwd, use_env=args.env, graph=args.graph,
                                         against=args.against, environ=os.environ, inside=inside_root(args, path),
                                         launcher_args=given)
            report["target_origin"] = {k: o for k, o in origin.items() if k in ("cann", "soc")}
            report["torch_npu_origin"] = origin.get("torch_npu")
            framework = report.get("framework")        # a torch_npu or MindSpore script
            _launches_release(report, target)
            if args.format == "json":
                docs.append(framework_render.report_json(report) if framework else report_json(report))
            else:
                texts.append(framework_render.render_text(report) if framework else render_text(report))
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
    text = "\n".join(texts)
    if texts and _isatty(sys.stdout):
        import shutil
        from ..emulate.render import wrapped
        text = wrapped(text, max(shutil.get_terminal_size((100, 24)).columns - 1, 40))
    sys.stdout.write(text)
    return max(exits)


def _launches_release(report: dict, target) -> None:
    """A launcher's report names the torch_npu release its launches are replayed for, when one is given or found
    (a script's report has its own)."""
    if not report.get("framework") and target.torch_npu != "any":
        report["target"]["torch_npu"] = target.torch_npu


def _command(args, words) -> int:
    """`emulate -- COMMAND...`: one report, as for a launcher."""
    start = os.path.abspath(args.cwd) if args.cwd else os.getcwd()
    try:
        target, origin = resolve_target(args, os.path.join(start, script.COMMAND), os.environ, {})
        report = script.emulate_command(words, target, cwd=args.cwd, use_env=args.env, environ=os.environ,
                                        inside=inside_root(args, os.path.join(start, script.COMMAND)))
    except (UsageError, TargetError) as exc:
        print(f"npuprof emulate: error: {_first_line(exc)}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:            # never a traceback: one line, exit 2
        print(f"npuprof emulate: internal error: {type(exc).__name__}: {_first_line(exc)}", file=sys.stderr)
        return EXIT_ERROR
    report["target_origin"] = {k: o for k, o in origin.items() if k in ("cann", "soc")}
    report["torch_npu_origin"] = origin.get("torch_npu")
    framework = report.get("framework")
    _launches_release(report, target)
    if args.format == "json":
        sys.stdout.write(json.dumps(framework_render.report_json(report) if framework else report_json(report),
                                    indent=2, ensure_ascii=False) + "\n")
    else:
        text = framework_render.render_text(report) if framework else render_text(report)
        if _isatty(sys.stdout):
            import shutil
            from ..emulate.render import wrapped
            text = wrapped(text, max(shutil.get_terminal_size((100, 24)).columns - 1, 40))
        sys.stdout.write(text)
    return int(report["exit"])


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


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

def resolve_target(args, path: str, environ, machine: Optional[dict] = None) -> Tuple[Target, Dict[str, Origin]]:
    """Each of --cann / --soc / --torch-npu from, in order: the flag; the project's configuration (the same settings
    `npuprof check` reads, found from the script's directory); the machine (emulate's default is `auto`,
    engine/target.py); then any."""
    from ..engine.selection import rule_codes
    from ..source.config import ConfigError, UsageError as ConfigUsageError, load_config
    start = os.path.dirname(os.path.abspath(path))
    try:
        config = load_config(getattr(args, "config", None), start=start, rule_codes=rule_codes)
    except (ConfigUsageError, ConfigError) as exc:
        raise UsageError(str(exc)) from None
    flags = {kind: getattr(args, kind, None) for kind in KINDS}
    try:
        target, origins = settle_target(flags, config, DEFAULTS["emulate"], environ, machine)
    except ConfigUsageError as exc:
        raise UsageError(str(exc)) from None
    # the report says where the CANN version and the chip came from, and for a torch_npu script the release
    return target, dict(origins)


def inside_root(args, path: str) -> Optional[str]:
    """The folder every file the emulation reads must stay in (--no-outside, or `outside = false` in the
    configuration; source/fence.py): the configuration file's folder, else the git work tree the launcher (or the
    Python script: `emulate SCRIPT.py` is fenced alike) is in, else its folder. None: any file is read."""
    from ..engine.selection import rule_codes
    from ..source.config import ConfigError, UsageError as ConfigUsageError, load_config
    start = os.path.dirname(os.path.abspath(path))
    try:
        config = load_config(getattr(args, "config", None), start=start, rule_codes=rule_codes)
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


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""
