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
from .files import ReadError, Selection, discover, file_noqa, noqa_lines, read_source, split_codes, suppressed
from .model import Finding
from .source import SourceText
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="npuprof", description="Static checks for Ascend NPU profiling setup in TensorFlow scripts.")
    parser.add_argument("--version", action="version", version=f"npuprof {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="report NPP findings in files and directories")
    check.add_argument("paths", nargs="*", help="files or directories (Python scripts and shell launchers)")
    check.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    check.add_argument("--config", default=None, help="configuration file (pyproject.toml, setup.cfg, ...)")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    check.add_argument("--preflight", "--npuprof-preflight", dest="preflight", action="store_true",
                       help="also check the output directories on this machine (NPP9xx)")
    check.add_argument("--graph", "--npuprof-graph", dest="graph", default=None,
                       help="graph dump to check fp_point/bp_point against (NPP903)")
    _add_target_options(check)
    _add_selection_options(check)

    validate = sub.add_parser("validate", help="check one profiling_options string")
    validate.add_argument("options", nargs="?", help="the options JSON text")
    src = validate.add_mutually_exclusive_group()
    src.add_argument("--file", help="read the options from this file")
    src.add_argument("--env", action="store_true", help="read $PROFILING_OPTIONS (and $PROFILING_MODE)")
    validate.add_argument("--format", choices=("text", "json"), default="text")
    _add_target_options(validate)

    explain = sub.add_parser("explain", help="print a rule's page")
    explain.add_argument("code", nargs="?", help="an NPP code, e.g. NPP101")
    explain.add_argument("--list", action="store_true", help="list every rule")

    server = sub.add_parser("server", help="run the language server on stdio (needs flake8-npuprof[server])")
    server.add_argument("--stdio", action="store_true",
                        help="accepted for editors that pass it; stdio is the only transport")
    server.set_defaults(func=cmd_server)

    from . import emulate, fixcmd
    for mod in (fixcmd, emulate):
        mod.add_parser(sub, _add_target_options, _add_selection_options)
    return parser


def target_from(args, config=None) -> Target:
    cann = args.cann or (config.cann if config else None) or "any"
    soc = args.soc or (config.soc if config else None) or "any"
    cann, soc = auto_value("cann", cann), auto_value("soc", soc)
    try:
        return Target.parse(cann, soc)
    except TargetError as exc:
        raise UsageError(str(exc)) from None


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
    explicit = split_codes(args.select) or (config.select if config else ())
    select = explicit or ("NPP",)
    return Selection(
        select=select,
        extend_select=split_codes(args.extend_select) + ((config.extend_select if config else ()) or ()),
        ignore=split_codes(args.ignore) or ((config.ignore if config else ()) or ()),
        extend_ignore=split_codes(args.extend_ignore) + ((config.extend_ignore if config else ()) or ()),
        default_off=(config.extend_default_ignore if config else ()) or (),
        explicit_select=bool(explicit or split_codes(args.extend_select) or (config and config.extend_select)))


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
    from .config import load_config
    config = load_config(args.config, args.paths)
    target = target_from(args, config)
    selection = selection_from(args, config)
    settings = Settings(target=target, preflight=args.preflight or bool(config and config.preflight),
                        graph=args.graph or (config.graph_path() if config else None))
    results = []
    errors = 0
    for path in discover(args.paths):
        try:
            source = read_source(path)
        except ReadError as exc:
            # a path that cannot be read must not pass a CI gate silently
            print(f"{path}: {exc}", file=sys.stderr)
            errors += 1
            continue
        if source.kind == "python" and not _parses(path, source.text):
            errors += 1                 # flake8 says E999; the gate must not pass it silently
            continue
        ignores = config.ignores_for(path) if config else ()
        findings = check_text(path, source.text, source.kind, settings, selection, ignores)
        errors += sum(1 for f in findings if f.code == "NPP000")
        results.append((_display(path), SourceText(source.text), findings))
    sys.stdout.write(render(args.format, results, target))
    found = sum(len(r[2]) for r in results)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if found and not args.exit_zero else EXIT_CLEAN


def _parses(path: str, text: str) -> bool:
    from .prefilter import might_configure_profiling
    if not might_configure_profiling(text):
        return True                     # nothing of ours in it: not our business
    import ast
    try:
        ast.parse(text, path)
    except (SyntaxError, ValueError) as exc:
        where = f":{exc.lineno}:{(exc.offset or 1)}" if isinstance(exc, SyntaxError) and exc.lineno else ""
        print(f"{path}{where}: cannot parse ({exc.msg if isinstance(exc, SyntaxError) else exc}); "
              "not checked", file=sys.stderr)
        return False
    return True


def render(fmt: str, results, target: Target) -> str:
    from . import formats
    if fmt == "json":
        return formats.json_report(results)
    if fmt in ("sarif", "github"):
        from . import ci_formats
        return ci_formats.sarif(results) if fmt == "sarif" else ci_formats.github(results)
    return formats.text(results)


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
        print("npuprof: error: the language server needs the server extra: "
              "pip install 'flake8-npuprof[server]'", file=sys.stderr)
        return EXIT_ERROR
    return run()


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:           # argparse: --help/--version exit 0, usage errors 2
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_ERROR
    commands = {"check": cmd_check, "validate": cmd_validate, "explain": cmd_explain}
    try:
        if args.command in commands:
            return commands[args.command](args)
        if args.command and hasattr(args, "func"):
            return args.func(args)
        parser.print_help()
        return EXIT_ERROR
    except UsageError as exc:
        print(f"npuprof: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_ERROR
    except Exception as exc:            # an internal error is exit 2 with a one-line reason
        print(f"npuprof: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
