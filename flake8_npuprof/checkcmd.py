"""`npuprof check`: which files a run reads (shared with fix), and the report it prints.

Ruff's and flake8's conventions: no path means the current directory, `-` reads standard input
(named by --stdin-filename), a path that does not exist or an unknown code is a usage error
(exit 2), findings go to standard output (or --output-file) one per line, and the summary
("Found 3 findings (2 fixable)." / "All checks passed!") with its hints goes to standard error,
so the report stays one finding per line for the tools that read it.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from typing import Iterator, List, NamedTuple, Optional, Sequence, Tuple

from .analysis import Settings
from .files import DEFAULT_EXCLUDE, MAX_BYTES, ReadError, SourceFile, discover, read_source
from .model import Finding
from .output import Report, warn
from .source import SourceText

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class Input(NamedTuple):
    path: str                           # what per-file-ignores and kind detection see
    display: str                        # what the report shows
    source: Optional[SourceFile]
    error: str = ""                     # why it could not be read
    stdin: bool = False


def note(args, text: str) -> None:
    """A summary line, hint or warning: standard error, silenced by --quiet."""
    if not getattr(args, "quiet", False):
        warn(text)


def display(path: str) -> str:
    from .cli import _display
    return _display(path)


def given_paths(args) -> List[str]:
    from .cli import UsageError
    paths = list(args.paths) or (["-"] if getattr(args, "stdin_filename", None) else ["."])
    if paths.count("-") > 1:
        raise UsageError("standard input (-) can be read once")
    for path in paths:
        if path != "-" and not os.path.lexists(path):
            raise UsageError(f"{path}: no such file or directory")
    if getattr(args, "stdin_filename", None) and "-" not in paths:
        raise UsageError("--stdin-filename names standard input: give - among the paths (or no path)")
    return paths


def _patterns(text: Optional[str]) -> Tuple[str, ...]:
    return tuple(p.strip() for p in (text or "").split(",") if p.strip())


def exclude_patterns(args, config) -> Tuple[str, ...]:
    """--exclude replaces the defaults and --extend-exclude adds to them, as in flake8; a pattern with
    a `/` is a path, relative to the configuration file's folder (from the file) or the working
    directory (from the command line)."""
    def rooted(patterns, base):
        return tuple(os.path.join(base, p) if "/" in p else p for p in patterns)
    cwd = os.getcwd()
    if getattr(args, "exclude", None) is not None:
        base = rooted(_patterns(args.exclude), cwd)
    elif config is not None and config.exclude is not None:
        base = rooted(config.exclude, config.base())
    else:
        base = DEFAULT_EXCLUDE
    extend = rooted(config.extend_exclude, config.base()) if config is not None else ()
    return base + extend + rooted(_patterns(getattr(args, "extend_exclude", None)), cwd)


def inputs(args, config) -> Iterator[Input]:
    paths = given_paths(args)
    found = False
    for path in discover(paths, exclude=exclude_patterns(args, config),
                         gitignore=getattr(args, "respect_gitignore", True)):
        found = True
        if path == "-":
            name = args.stdin_filename or "-"
            data = sys.stdin.buffer.read(MAX_BYTES + 1)     # bounded like files (a pipe of /dev/zero ends)
            shown = display(name) if name != "-" else "-"
            try:
                if len(data) > MAX_BYTES:
                    raise ReadError(f"not read: more than the {MAX_BYTES:,}-byte limit for a source file")
                yield Input(name, shown, read_source(name, data), stdin=True)
            except ReadError as exc:
                yield Input(name, shown, None, str(exc), stdin=True)
            continue
        try:
            yield Input(path, display(path), read_source(path))
        except ReadError as exc:
            yield Input(path, display(path), None, str(exc))
    if not found:
        note(args, f"npuprof: warning: no Python files or shell launchers found in {', '.join(paths)}; "
                   "nothing was checked")


def run_check(args) -> int:
    from .cli import UsageError, _parses, check_text, selection_from, target_from
    from .config import load_config
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError("--statistics prints text or JSON: use --format text or --format json")
    config = load_config(args.config, args.paths)
    target = target_from(args, config)
    selection = selection_from(args, config)
    graph = args.graph or (config.graph_path() if config else None)
    if graph and not os.path.isfile(graph):
        origin = "--graph" if args.graph else f"{config.path}: {config.key('graph')}"
        raise UsageError(f"{origin}: graph dump not found: {graph}")
    settings = Settings(target=target, preflight=args.preflight or bool(config and config.preflight), graph=graph)
    if args.add_noqa:
        from .noqa import run_add_noqa
        return run_add_noqa(args, config, settings, selection)
    # findings the default target holds back: what a portable check would add (text summary only)
    wide = None
    if target.cann == "any" and args.format == "text" and not args.quiet:
        wide = settings._replace(target=target._replace(cann="portable"))
    results = []
    errors = held = 0
    for item in inputs(args, config):
        if item.source is None:
            # a path that cannot be read must not pass a CI gate silently
            warn(f"{item.display}: {item.error}")
            errors += 1
            continue
        source = item.source
        if source.kind == "python" and not _parses(item.display, source.text):
            errors += 1                 # flake8 says E999; the gate must not pass it silently
            continue
        ignores = config.ignores_for(item.path) if config else ()
        findings = check_text(item.path, source.text, source.kind, settings, selection, ignores)
        errors += sum(1 for f in findings if f.code == "NPP000")
        if wide is not None:
            extra = check_text(item.path, source.text, source.kind, wide, selection, ignores)
            held += sum((Counter(_where(extra)) - Counter(_where(findings))).values())
        results.append((item.display, SourceText(source.text), findings))
    report = Report(args.output_file)
    try:
        report.write(render(args, results, target))
    finally:
        report.close()
    found = sum(len(r[2]) for r in results)
    if args.format == "text" and not args.statistics:
        summary(args, results, errors, held)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if found and not args.exit_zero else EXIT_CLEAN


def _where(findings: Sequence[Finding]):
    return [(f.code, f.line, f.col) for f in findings]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(args, results, errors: int, held: int) -> None:
    findings = [f for _, _, fs in results for f in fs]
    safe = sum(1 for f in findings if f.fix is not None and f.fix.safe)
    unsafe = sum(1 for f in findings if f.fix is not None and not f.fix.safe)
    if findings:
        fixable = [f"{safe} fixable with `npuprof fix`"] if safe else []
        if unsafe:
            fixable.append(f"{unsafe} more with `npuprof fix --unsafe-fixes`")
        note(args, f"Found {plural(len(findings), 'finding')}" + (f" ({', '.join(fixable)})" if fixable else "") + ".")
    elif not errors and results:
        note(args, "All checks passed!")
    if errors:
        note(args, f"{plural(errors, 'file')} could not be checked (see above).")
    if held:
        note(args, f"{plural(held, 'more finding')} on some targets "
                   "(use --cann portable or name your target, e.g. --cann 8.0).")


def render(args, results, target) -> str:
    from . import formats
    if args.statistics:
        return formats.statistics(results, args.format)
    if args.format == "json":
        return formats.json_report(results)
    if args.format in ("sarif", "github"):
        from . import ci_formats
        return ci_formats.sarif(results) if args.format == "sarif" else ci_formats.github(results)
    return formats.text(results, show_source=args.show_source)
