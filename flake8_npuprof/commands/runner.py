"""What the CLI's commands share: their options, and the engine's target, selection and settings from them
(engine/ checks and fixes the text)."""

from __future__ import annotations

import argparse
import os
import sys

from ..engine.run import run_settings
from ..engine.selection import OPTIONS, selection_from as engine_selection
from ..engine.target import DEFAULTS, KINDS, auto_fallbacks, settle_target
from ..knowledge.targets import Target
from ..source.files import DEFAULT_EXCLUDE, Selection


def _add_target_options(p: argparse.ArgumentParser, front_end: str = "check") -> None:
    """--cann and --soc; the help names the command's default (engine/target.py DEFAULTS)."""
    default = DEFAULTS[front_end]

    def said(name: str, note: str = "") -> str:
        notes = [x for x in ("default" if name == default else "", note) if x]
        return f"{name} ({'; '.join(notes)})" if notes else name
    toolkit, chip = said("auto", "this machine's toolkit"), said("auto", "this machine's chip")
    p.add_argument("--cann", "--npuprof-cann", dest="cann", default=None,
                   help=f"CANN target: {said('any')}, {said('portable')}, {toolkit}, or a version "
                        "(7.0, 8.0, 8.5, 9.0, 9.1)")
    p.add_argument("--soc", "--npuprof-soc", dest="soc", default=None,
                   help=f"product target: {said('any')}, {chip}, 310, 910, 310P, 910B, 910C, 310B, 950")
    p.add_argument("--torch-npu", "--npuprof-torch-npu", dest="torch_npu", default=None,
                   help=f"torch_npu release target: {said('any')}, {said('portable')}, {said('auto', 'the installed torch-npu')}, "
                        "or a release (5.0, 6.0, 7.0, 7.1, 7.2, 7.3, 26.0, 26.1)")


def _add_selection_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--select", default=None, help="codes or prefixes to report (default: NPP)")
    p.add_argument("--extend-select", default=None, help="add codes, e.g. default-off NPP200")
    p.add_argument("--ignore", default=None, help="codes or prefixes not to report")
    p.add_argument("--extend-ignore", default=None, help="more codes not to report")


def _add_file_options(p: argparse.ArgumentParser) -> None:
    """Which files a run looks at: the paths, stdin, and what directory walks leave out."""
    p.add_argument("paths", nargs="*", help="files or directories (default: the current directory); - reads stdin")
    p.add_argument("--stdin-filename", default=None, metavar="PATH",
                   help="the name of the file read from stdin (-): its kind, per-file-ignores and the name shown")
    p.add_argument("--exclude", default=None, metavar="PATTERNS",
                   help="comma-separated globs of names or paths not to search, replacing the defaults "
                        f"({','.join(DEFAULT_EXCLUDE)})")
    p.add_argument("--extend-exclude", default=None, metavar="PATTERNS",
                   help="more globs not to search, added to --exclude")
    p.add_argument("--no-respect-gitignore", dest="respect_gitignore", action="store_false",
                   help="also search what .gitignore leaves out")
    p.add_argument("--force-exclude", action="store_true",
                   help="apply the exclude patterns (and .gitignore) to files named on the command line too, "
                        "as pre-commit names them")
    p.add_argument("--config", default=None, help="configuration file (pyproject.toml, setup.cfg, ...)")


def _add_output_options(p: argparse.ArgumentParser) -> None:
    """What a check or fix run prints, and its exit code."""
    p.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    p.add_argument("--output-file", "-o", default=None, metavar="FILE",
                   help="write the report to FILE instead of standard output")
    p.add_argument("--statistics", action="store_true",
                   help="print how often each code occurs instead of the findings")
    p.add_argument("--show-source", action="store_true",
                   help="print each finding's detail and its line with a caret under its column (text format)")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="print each finding's detail under it: the log lines, what each CANN version does, "
                        "the advice (text format; JSON and SARIF always carry it)")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="print the findings only: no summary line, hints, warnings or progress")


def _add_fix_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that change what is collected")
    p.add_argument("--show-fixes", action="store_true",
                   help="list what was fixed (or, without fixing, what `npuprof fix` would fix), per file and code")
    p.add_argument("--exit-non-zero-on-fix", action="store_true",
                   help="exit 1 when a fix was applied, even if no finding remains")


def _add_run_options(p: argparse.ArgumentParser) -> None:
    """How a run of many files goes: worker processes and the cache (commands/batch.py, commands/cache.py)."""
    p.add_argument("--jobs", "-j", type=_positive, default=None, metavar="N",
                   help="worker processes (default: the number of CPUs)")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument("--cache-dir", default=None, metavar="DIR",
                   help="where the cache lives (default: .npuprof_cache beside the configuration file, or in "
                        "the working directory; also $NPUPROF_CACHE_DIR)")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {value}")
    return value


def target_from(args, config=None) -> Target:
    """The target of a check, fix or validate run (engine/target.py; default `any`); a bad value names where it
    came from (the flag, or the file and its key). `auto` with nothing usable on the machine says so."""
    target, origins = settle_target({kind: getattr(args, kind, None) for kind in KINDS}, config, DEFAULTS["check"])
    for warning in auto_fallbacks(origins):
        print(f"npuprof: {warning}", file=sys.stderr)
    return target


def settings_from(args, config):
    """(target, selection, settings) of a check or fix run; --graph implies the preflight checks (NPP903 is one)."""
    target = target_from(args, config)
    selection = selection_from(args, config)
    settings = run_settings(target, config, getattr(args, "preflight", False), getattr(args, "graph", None))
    return target, selection, settings


def selection_from(args, config=None) -> Selection:
    """The selection of --select, --extend-select, --ignore and --extend-ignore with the configuration's."""
    select, extend_select, ignore, extend_ignore = (getattr(args, option, None) for option in OPTIONS)
    return engine_selection(config, select, extend_select, ignore, extend_ignore, quiet=getattr(args, "quiet", False))


def _display(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
