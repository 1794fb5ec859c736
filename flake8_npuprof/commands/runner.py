"""What the CLI's commands share: target and selection options, and checking one file's text."""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Sequence, Tuple

from ..knowledge.run_settings import Settings
from ..source.config import UsageError
from ..source.files import DEFAULT_EXCLUDE, Selection, file_noqa, noqa_lines, split_codes, suppressed
from ..source.model import Finding
from ..knowledge.targets import Target, TargetError


def _add_target_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cann", "--npuprof-cann", dest="cann", default=None,
                   help="CANN target: any (default), portable, auto (this machine's toolkit), or a version "
                        "(7.0, 8.0, 8.5, 9.0, 9.1)")
    p.add_argument("--soc", "--npuprof-soc", dest="soc", default=None,
                   help="product target: any (default), auto (this machine's chip), 310, 910, 310P, 910B, 910C, "
                        "310B, 950")
    p.add_argument("--torch-npu", "--npuprof-torch-npu", dest="torch_npu", default=None,
                   help="torch_npu release target: any (default), portable, auto (the installed torch-npu), or a "
                        "release (5.0, 6.0, 7.0, 7.1, 7.2, 7.3, 26.0, 26.1)")


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
    """The target of a run; a bad value names where it came from (the flag, or the file and its key)."""
    values = {}
    for kind in ("cann", "soc", "torch_npu"):
        flag = getattr(args, kind, None)
        configured = getattr(config, kind, None) if config else None
        spelt = kind.replace("_", "-")
        if flag is not None:
            value, origin = flag, f"--{spelt}"
        elif configured is not None:
            value, origin = configured, f"{config.path}: {config.key(spelt)}"
        else:
            value, origin = "any", ""
        value = auto_value(kind, value)
        try:
            Target.parse(**{kind: value})
        except TargetError as exc:
            raise UsageError(f"{origin}: {exc}" if origin else str(exc)) from None
        values[kind] = value
    return Target.parse(values["cann"], values["soc"], values["torch_npu"])


def auto_value(kind: str, value: str, quiet: bool = False) -> str:
    """`auto` (opt-in: results then depend on the machine) becomes what this machine has, else `any`."""
    from ..source.config import machine_target_value
    found, why = machine_target_value(kind, value)
    if found is None:
        if not quiet:
            print(f"npuprof: --{kind.replace('_', '-')} auto: nothing usable on this machine ({why}); using any", file=sys.stderr)
        return "any"
    return found


def settings_from(args, config):
    """(target, selection, settings) of a check or fix run; --graph implies the preflight checks (NPP903 is one)."""
    target = target_from(args, config)
    selection = selection_from(args, config)
    graph = getattr(args, "graph", None) or (config.graph_path() if config else None)
    if graph and not os.path.isfile(graph):
        origin = "--graph" if getattr(args, "graph", None) else f"{config.path}: {config.key('graph')}"
        raise UsageError(f"{origin}: graph dump not found: {graph}")
    preflight = bool(getattr(args, "preflight", False) or (config and config.preflight) or graph)
    return target, selection, Settings(target=target, preflight=preflight, graph=graph)


def rule_codes() -> Tuple[str, ...]:
    """The rules' codes, for checking the codes a user names; source/config.py asks for them only
    when there is a code to check (the catalog imports every check module, with the rules' pages)."""
    from ..checks.catalog import CODES
    return CODES


def selection_from(args, config=None) -> Selection:
    from ..source.config import ConfigError, check_codes
    given = {}
    for option in ("select", "extend_select", "ignore", "extend_ignore"):
        codes = split_codes(getattr(args, option, None))
        try:
            check_codes(codes, "--" + option.replace("_", "-"), rule_codes)
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
        given[option] = codes
    explicit = given["select"] or (config.select if config else ())
    select = explicit or ("NPP",)
    if config is not None and not config.path.endswith(".toml"):
        _warn_wide_ignore(args, config)
    return Selection(
        select=select,
        extend_select=given["extend_select"] + ((config.extend_select if config else ()) or ()),
        ignore=given["ignore"] or ((config.ignore if config else ()) or ()),
        extend_ignore=given["extend_ignore"] + ((config.extend_ignore if config else ()) or ()),
        default_off=(config.extend_default_ignore if config else ()) or (),
        explicit_select=bool(explicit or given["extend_select"] or (config and config.extend_select)))


def _warn_wide_ignore(args, config) -> None:
    """`ignore = N` under [flake8] (meant for pep8-naming's N8xx) also ignores every NPP code, there and here."""
    for key in ("ignore", "extend_ignore"):
        wide = [c for c in getattr(config, key) if "NPP".startswith(c) and c != "NPP"]
        if wide and not getattr(args, "quiet", False):
            print(f"npuprof: warning: {config.path}: {key.replace('_', '-')} = {', '.join(wide)} also ignores "
                       "every NPP code (flake8 matches codes by prefix); write the prefix of the codes you mean, "
                       "e.g. N8 for pep8-naming", file=sys.stderr)


def check_text(path: str, text: str, kind: str, settings: Settings, selection: Selection,
               per_file_ignores=(), tree=None) -> List[Finding]:
    """Findings of one file's text, filtered by selection and noqa, as flake8 would show them."""
    return check_each(path, text, kind, (settings,), selection, per_file_ignores, tree)[0]


def check_each(path: str, text: str, kind: str, each: Sequence[Settings], selection: Selection,
               per_file_ignores=(), tree=None, compiled: bool = False) -> List[List[Finding]]:
    """check_text for each of several settings, from one analysis of the file (tree: already parsed).
    A file that does not parse (NPP192) is reported whatever the selection and comments say: it was
    not checked. The noqa comments are read only for a file with findings to filter. compiled: the file's
    bytecode cache proves the text parses (analyse_each)."""
    if kind == "shell":
        from ..emulate.sequence import check_file_each
        found = check_file_each(text, path, each)
    else:
        if file_noqa(text):
            return [[] for _ in each]
        from ..checks.analysis import analyse_each      # (not imported by a run the cache answers)
        found = analyse_each(text, tree, path, each, compiled)
    noqa = None                         # tokenized only for a file with a finding to filter
    out = []
    for findings in found:
        kept = []
        for f in findings:
            if f.code in ALWAYS:
                kept.append(f)
                continue
            if not selection.wants(f.code) or any(f.code.startswith(c) for c in per_file_ignores):
                continue
            if kind == "python":
                if noqa is None:
                    noqa = noqa_lines(text, upto=max(g.line for group in found for g in group))
                if suppressed(f.code, noqa.get(f.line)):
                    continue
            kept.append(f)
        out.append(kept)
    return out


ALWAYS = ("NPP192",)        # reported whatever selection, per-file-ignores and noqa say (as Ruff's syntax errors)


def _display(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
