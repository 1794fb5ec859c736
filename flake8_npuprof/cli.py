"""The npuprof command: check, validate, explain (fix and emulate have their own modules).

Exit codes (as Ruff): 0 nothing to report, 1 findings, 2 usage or internal error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Mapping, Optional, Sequence

from . import __version__

# Nothing heavy at import time: `npuprof server` answers the editor's `initialize` before the analysis
# (or the language-server libraries) is imported (server_start.py).

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class Parser(argparse.ArgumentParser):
    """npuprof's parser, which also keeps its commands' parsers by name (for usage errors)."""
    subcommands: Mapping[str, argparse.ArgumentParser]


def build_parser(command: Optional[str] = None) -> Parser:
    """The parser; with a command, emulate's part is added only when that is the command (it imports the
    emulator, which a warm `check` over the cache does not otherwise need)."""
    from .commands.runner import (_add_file_options, _add_fix_options, _add_output_options, _add_run_options,
                                  _add_selection_options, _add_target_options)
    parser = Parser(
        prog="npuprof", description="Static checks for Ascend NPU profiling setup in TensorFlow, torch_npu and "
                    "MindSpore scripts and their shell launchers.")
    parser.add_argument("--version", action="version", version=f"npuprof {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="report NPP findings in files and directories")
    _add_file_options(check)
    _add_output_options(check)
    check.add_argument("--fix", action="store_true", help="apply the safe fixes first, as `npuprof fix` does, "
                       "then report what remains")
    _add_fix_options(check)
    check.add_argument("--add-noqa", action="store_true",
                       help="add `# noqa: NPPxxx` to every line with a finding (adopt the tool on existing code)")
    check.add_argument("--show-settings", action="store_true",
                       help="print the settings this run would use (and which configuration file) and exit")
    check.add_argument("--show-files", action="store_true", help="list the files this run would check and exit")
    check.add_argument("--preflight", "--npuprof-preflight", dest="preflight", action="store_true",
                       help="also check the output directories on this machine (NPP9xx)")
    check.add_argument("--graph", "--npuprof-graph", dest="graph", default=None,
                       help="graph dump to check fp_point/bp_point against (NPP903; implies --preflight)")
    _add_run_options(check)
    _add_target_options(check)
    _add_selection_options(check)

    validate = sub.add_parser("validate", help="check one profiling_options string, or a dynamic-profiling "
                                               "profiler_config.json (torch_npu's or MindSpore's)")
    validate.add_argument("options", nargs="?", help="the options JSON text, or - to read it from stdin")
    src = validate.add_mutually_exclusive_group()
    src.add_argument("--file", help="read the options from this file (- for stdin); a dynamic-profiling file "
                                    "(profiler_config.json, by its name or its keys) is checked as its framework "
                                    "reads it")
    src.add_argument("--env", action="store_true",
                     help="read $PROFILING_OPTIONS (and $PROFILING_MODE), and MindSpore's $MS_PROFILER_OPTIONS")
    validate.add_argument("--format", choices=("text", "json"), default="text")
    validate.add_argument("--framework", choices=("mindspore", "torch_npu"),
                          help="whose dynamic-profiling file it is (default: its keys decide where they can, else "
                               "only what both frameworks lose is reported)")
    validate.add_argument("--verbose", "-v", action="store_true",
                          help="print each finding's detail under it: the log lines, what each CANN version does, "
                               "the advice (the JSON always carries it)")
    _add_target_options(validate)

    explain = sub.add_parser("explain", help="print a rule's page")
    explain.add_argument("code", nargs="?", help="an NPP code or a rule's name, e.g. NPP101 or unknown-options-key")
    explain.add_argument("--list", action="store_true", help="list every rule")

    server = sub.add_parser("server", help="run the language server on stdio (needs pygls 2: the server extra)")
    server.add_argument("--stdio", action="store_true",
                        help="accepted for editors that pass it; stdio is the only transport")
    server.set_defaults(func=cmd_server)

    from .commands import fix as fixcmd
    fixcmd.add_parser(sub, _add_target_options, _add_selection_options)
    if command in (None, "emulate") or command not in sub.choices:
        from .commands import emulate
        emulate.add_parser(sub, _add_target_options, _add_selection_options)
    parser.subcommands = sub.choices    # name -> its parser, for usage errors
    return parser


def cmd_check(args) -> int:
    from .commands.check import run_check
    return run_check(args)


def cmd_validate(args) -> int:
    from .commands.runner import target_from
    from .commands.validate import run_validate
    target = target_from(args)
    return run_validate(args, target)


def cmd_explain(args) -> int:
    from .checks.catalog import BY_CODE, RULES, render as render_rule
    from .source.config import UsageError
    if args.list or not args.code:
        for each in RULES:
            state = "" if each.default else "  (off by default)"
            print(f"{each.code}  {each.name}{state}")
        return EXIT_CLEAN
    wanted = args.code.strip()
    rule = BY_CODE.get(wanted.upper()) or next((r for r in RULES if r.name == wanted.lower().replace("_", "-")), None)
    if rule is None:
        from .source.suggest import close_matches
        guess = close_matches(wanted.lower().replace("_", "-"), [r.name for r in RULES]) or \
            close_matches(wanted.upper(), list(BY_CODE))
        hint = f" (did you mean {' or '.join(guess[:2])}?)" if guess else ""
        raise UsageError(f"unknown rule {args.code!r}{hint}; `npuprof explain --list` shows them all")
    sys.stdout.write(render_rule(rule))
    return EXIT_CLEAN


def cmd_server(args) -> int:
    from .server_start import run
    return run()


def _usage_error(prog: str, problem: str, word: str, known: Sequence[str], then: str = "") -> int:
    """A mistyped command or flag: one line with a did-you-mean and where the usage is, not the whole usage."""
    from .source.suggest import close_matches
    guess = close_matches(word, known) if word else []
    hint = f" (did you mean {' or '.join(guess[:2])}?)" if guess else ""
    print(f"{prog}: error: {problem}{hint}{then}\n`{prog} --help` lists what it takes", file=sys.stderr)
    return EXIT_ERROR


def _with_dashes(argv: Sequence[str], extra: Sequence[str], sub) -> str:
    """The command retyped with the launcher's words after `--`: from the first word argparse did not take on, all
    but emulate's own options (`--profiling True` leaves `True` as a PATH, so words are moved by place, not by
    what argparse kept)."""
    import shlex
    takes = {o: a.nargs != 0 for a in sub._actions for o in a.option_strings}
    at = argv.index(extra[0])
    kept, moved, i = list(argv[:at]), [], at
    while i < len(argv):
        word = argv[i]
        if word.split("=", 1)[0] in takes:
            value = takes[word.split("=", 1)[0]] and "=" not in word and i + 1 < len(argv)
            kept += argv[i:i + 1 + value]
            i += 1 + value
        else:
            moved.append(word)
            i += 1
    return " ".join(shlex.quote(w) for w in ["npuprof", *kept, "--", *moved])


def main(argv: Optional[Sequence[str]] = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):      # a path or value no encoding can write is escaped, not fatal
            stream.reconfigure(errors="backslashreplace")
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["server"] and set(argv[1:]) <= {"--stdio"}:
        return cmd_server(None)         # as an editor starts it: nothing else is imported before `initialize`
    launcher_args = None
    if argv[:1] == ["emulate"] and "--" in argv:    # `emulate LAUNCHER -- ARG...`: the launcher's own arguments
        at = argv.index("--")
        argv, launcher_args = argv[:at], argv[at + 1:]
    parser = build_parser(argv[0] if argv else None)
    if argv and not argv[0].startswith("-") and argv[0] not in parser.subcommands:
        return _usage_error("npuprof", f"unknown command {argv[0]!r}", argv[0], list(parser.subcommands))
    try:
        args, extra = parser.parse_known_args(argv)
        if args.command == "emulate":
            args.launcher_args = launcher_args
    except SystemExit as exc:           # argparse: --help/--version exit 0, usage errors 2
        return int(exc.code or 0) if isinstance(exc.code, int) else EXIT_ERROR
    if args.command == "emulate" and launcher_args is None and len(args.paths or ()) > 1:
        # argparse takes `--data_path=/my data` (a space in it) for a PATH: a launcher's word as well
        import os
        odd = [p for p in args.paths[1:] if p.startswith("-") and not os.path.exists(p)]
        extra = sorted([*extra, *odd], key=argv.index)
    if extra:
        sub = parser.subcommands.get(args.command, parser)
        flags = [o for a in sub._actions for o in a.option_strings if o.startswith("--")]
        paths = getattr(args, "paths", None) if args.command == "emulate" else None
        after = f"; a launcher's or script's own arguments go after `--`: {_with_dashes(argv, extra, sub)}" \
            if paths and argv.index(extra[0]) > argv.index(paths[0]) else ""
        return _usage_error(sub.prog, f"unrecognized arguments: {' '.join(extra)}",
                            next((x.split("=", 1)[0] for x in extra if x.startswith("--")), ""), flags, after)
    import warnings
    warnings.simplefilter("ignore", SyntaxWarning)      # the user's code is parsed, never run
    from .source.config import ConfigError, UsageError
    from .commands.output import flush_stdout, silence_stdout
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
