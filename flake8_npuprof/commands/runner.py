"""What the CLI's commands share: target and selection options, and checking one file's text."""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Sequence, Tuple

from ..checks.analysis import Settings, analyse_each
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
    p.add_argument("--config", default=None, help="configuration file (pyproject.toml, setup.cfg, ...)")


def target_from(args, config=None) -> Target:
    """The target of a run; a bad value names where it came from (the flag, or the file and its key)."""
    values = {}
    for kind in ("cann", "soc"):
        flag = getattr(args, kind, None)
        configured = getattr(config, kind, None) if config else None
        if flag is not None:
            value, origin = flag, f"--{kind}"
        elif configured is not None:
            value, origin = configured, f"{config.path}: {config.key(kind)}"
        else:
            value, origin = "any", ""
        value = auto_value(kind, value)
        try:
            Target.parse(value, "any") if kind == "cann" else Target.parse("any", value)
        except TargetError as exc:
            raise UsageError(f"{origin}: {exc}" if origin else str(exc)) from None
        values[kind] = value
    return Target.parse(values["cann"], values["soc"])


def auto_value(kind: str, value: str, quiet: bool = False) -> str:
    """`auto` (opt-in: results then depend on the machine) becomes what this machine has, else `any`."""
    from ..source.config import machine_target_value
    found, why = machine_target_value(kind, value)
    if found is None:
        if not quiet:
            print(f"npuprof: --{kind} auto: nothing usable on this machine ({why}); using any", file=sys.stderr)
        return "any"
    return found


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
    return Selection(
        select=select,
        extend_select=given["extend_select"] + ((config.extend_select if config else ()) or ()),
        ignore=given["ignore"] or ((config.ignore if config else ()) or ()),
        extend_ignore=given["extend_ignore"] + ((config.extend_ignore if config else ()) or ()),
        default_off=(config.extend_default_ignore if config else ()) or (),
        explicit_select=bool(explicit or given["extend_select"] or (config and config.extend_select)))


def check_text(path: str, text: str, kind: str, settings: Settings, selection: Selection,
               per_file_ignores=(), tree=None) -> List[Finding]:
    """Findings of one file's text, filtered by selection and noqa, as flake8 would show them."""
    return check_each(path, text, kind, (settings,), selection, per_file_ignores, tree)[0]


def check_each(path: str, text: str, kind: str, each: Sequence[Settings], selection: Selection,
               per_file_ignores=(), tree=None) -> List[List[Finding]]:
    """check_text for each of several settings, from one analysis of the file (tree: already parsed).
    The noqa comments are read only for a file with findings to filter."""
    if kind == "shell":
        from ..emulate.sequence import check_file_each
        found = check_file_each(text, path, each)
    else:
        if file_noqa(text):
            return [[] for _ in each]
        found = analyse_each(text, tree, path, each)
    wanted = [[f for f in findings if selection.wants(f.code) and not any(f.code.startswith(c) for c in per_file_ignores)]
              for findings in found]
    if kind != "python" or not any(wanted):
        return wanted
    noqa = noqa_lines(text, upto=max(f.line for findings in wanted for f in findings))
    return [[f for f in findings if not suppressed(f.code, noqa.get(f.line))] for findings in wanted]


def parse(path: str, text: str):
    """The tree of a Python file that may configure profiling (None: nothing of ours in it, or over the
    work budget, which the analysis reports itself); False after saying why it cannot be parsed."""
    from ..source.prefilter import might_configure_profiling, words_over_budget
    if not might_configure_profiling(text) or words_over_budget(text):
        return None
    import ast
    try:
        return ast.parse(text, path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:   # the last two: nested too deep
        where = f":{exc.lineno}:{(exc.offset or 1)}" if isinstance(exc, SyntaxError) and exc.lineno else ""
        from .output import warn
        reason = exc.msg if isinstance(exc, SyntaxError) else exc or type(exc).__name__
        warn(f"{path}{where}: cannot parse ({reason}); not checked")
        return False


def _display(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel
