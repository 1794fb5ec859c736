"""The npuprof command: check, validate, explain (fix and emulate have their own modules).

Exit codes (as Ruff): 0 nothing to report, 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence

from . import __version__
from .analysis import Settings, analyse
from .files import DEFAULT_EXCLUDE, Selection, file_noqa, noqa_lines, split_codes, suppressed
from .model import Finding
from .targets import Target, TargetError

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    pass


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="npuprof", description="Static checks for Ascend NPU profiling setup in TensorFlow scripts.")
    parser.add_argument("--version", action="version", version=f"npuprof {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="report NPP findings in files and directories")
    _add_file_options(check)
    check.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    check.add_argument("--output-file", "-o", default=None, metavar="FILE",
                       help="write the report to FILE instead of standard output")
    check.add_argument("--statistics", action="store_true",
                       help="print how often each code occurs instead of the findings")
    check.add_argument("--show-source", action="store_true",
                       help="print each finding's line with a caret under its column (text format)")
    check.add_argument("--quiet", "-q", action="store_true",
                       help="print the findings only: no summary line, hints or warnings")
    check.add_argument("--add-noqa", action="store_true",
                       help="add `# noqa: NPPxxx` to every line with a finding (adopt the tool on existing code)")
    check.add_argument("--preflight", "--npuprof-preflight", dest="preflight", action="store_true",
                       help="also check the output directories on this machine (NPP9xx)")
    check.add_argument("--graph", "--npuprof-graph", dest="graph", default=None,
                       help="graph dump to check fp_point/bp_point against (NPP903)")
    _add_target_options(check)
    _add_selection_options(check)

    validate = sub.add_parser("validate", help="check one profiling_options string")
    validate.add_argument("options", nargs="?", help="the options JSON text, or - to read it from stdin")
    src = validate.add_mutually_exclusive_group()
    src.add_argument("--file", help="read the options from this file (- for stdin)")
    src.add_argument("--env", action="store_true", help="read $PROFILING_OPTIONS (and $PROFILING_MODE)")
    validate.add_argument("--format", choices=("text", "json"), default="text")
    _add_target_options(validate)

    explain = sub.add_parser("explain", help="print a rule's page")
    explain.add_argument("code", nargs="?", help="an NPP code, e.g. NPP101")
    explain.add_argument("--list", action="store_true", help="list every rule")

    server = sub.add_parser("server", help="run the language server on stdio (needs pygls 2: the server extra)")
    server.add_argument("--stdio", action="store_true",
                        help="accepted for editors that pass it; stdio is the only transport")
    server.set_defaults(func=cmd_server)

    from . import emulate, fixcmd
    for mod in (fixcmd, emulate):
        mod.add_parser(sub, _add_target_options, _add_selection_options)
    return parser


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
    from .config import machine_target_value
    found, why = machine_target_value(kind, value)
    if found is None:
        if not quiet:
            print(f"npuprof: --{kind} auto: nothing usable on this machine ({why}); using any", file=sys.stderr)
        return "any"
    return found


def selection_from(args, config=None) -> Selection:
    from .config import ConfigError, check_codes
    given = {}
    for option in ("select", "extend_select", "ignore", "extend_ignore"):
        codes = split_codes(getattr(args, option, None))
        try:
            check_codes(codes, "--" + option.replace("_", "-"))
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
               per_file_ignores=()) -> List[Finding]:
    """Findings of one file's text, filtered by selection and noqa, as flake8 would show them."""
    if kind == "shell":
        from .launcher import check_launcher
        from .shell import analyse_shell
        findings = sorted(analyse_shell(text, path, settings) + check_launcher(text, path, settings),
                          key=Finding.sort_key)
    else:
        if file_noqa(text):
            return []
        findings = analyse(text, None, path, settings)
    noqa = noqa_lines(text) if kind == "python" else {}
    out = []
    for f in findings:
        if not selection.wants(f.code) or any(f.code.startswith(c) for c in per_file_ignores):
            continue
        if kind == "python" and suppressed(f.code, noqa.get(f.line)):
            continue
        out.append(f)
    return out


def cmd_check(args) -> int:
    from .checkcmd import run_check
    return run_check(args)


def _parses(path: str, text: str) -> bool:
    from .prefilter import might_configure_profiling
    if not might_configure_profiling(text):
        return True                     # nothing of ours in it: not our business
    import ast
    try:
        ast.parse(text, path)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:   # the last two: nested too deep
        where = f":{exc.lineno}:{(exc.offset or 1)}" if isinstance(exc, SyntaxError) and exc.lineno else ""
        from .output import warn
        reason = exc.msg if isinstance(exc, SyntaxError) else exc or type(exc).__name__
        warn(f"{path}{where}: cannot parse ({reason}); not checked")
        return False
    return True


def _display(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def cmd_validate(args) -> int:
    from .validate import run_validate
    target = target_from(args)
    return run_validate(args, target)


def cmd_explain(args) -> int:
    from .catalog import BY_CODE, RULES, render as render_rule
    if args.list or not args.code:
        for rule in RULES:
            state = "" if rule.default else "  (off by default)"
            print(f"{rule.code}  {rule.name}{state}")
        return EXIT_CLEAN
    code = args.code.strip().upper()
    rule = BY_CODE.get(code)
    if rule is None:
        raise UsageError(f"unknown rule {args.code!r}; `npuprof explain --list` shows them all")
    sys.stdout.write(render_rule(rule))
    return EXIT_CLEAN


def cmd_server(args) -> int:
    try:
        from .server import run
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol", "attrs", "cattrs"):
            raise
        # the package is installed from its repository, so name the dependency itself
        print("npuprof: error: the language server needs pygls 2: pip install 'pygls>=2.0,<3' "
              "(or, in the repository, pip install -e '.[server]')", file=sys.stderr)
        return EXIT_ERROR
    return run()


def main(argv: Optional[Sequence[str]] = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):      # a path or value no encoding can write is escaped, not fatal
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:           # argparse: --help/--version exit 0, usage errors 2
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_ERROR
    from .config import ConfigError
    from .output import flush_stdout, silence_stdout
    commands = {"check": cmd_check, "validate": cmd_validate, "explain": cmd_explain}
    try:
        if args.command in commands:
            return commands[args.command](args)
        if args.command and hasattr(args, "func"):
            return args.func(args)
        parser.print_help()
        return EXIT_ERROR
    except (UsageError, ConfigError) as exc:
        print(f"npuprof: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:             # the reader went away (`| head`): stop quietly
        silence_stdout()
        return EXIT_FINDINGS
    except KeyboardInterrupt:
        return EXIT_ERROR
    except Exception as exc:            # an internal error is exit 2 with a one-line reason
        print(f"npuprof: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    finally:
        flush_stdout()


if __name__ == "__main__":
    sys.exit(main())
