"""`npuprof check`: which files a run reads (shared with fix), and the report it prints.

Ruff's and flake8's conventions: no path means the current directory, `-` reads standard input
(named by --stdin-filename), a path that does not exist or an unknown code is a usage error
(exit 2), findings go to standard output (or --output-file) one per line, and the summary
("Found 3 findings (2 fixable)." / "All checks passed!") with its hints goes to standard error,
so the report stays one finding per line for the tools that read it.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Sequence

from ..checks.analysis import Settings
from ..source.model import Finding
from .output import Report, warn
from ..source.text import SourceText
from .inputs import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, inputs, note, plural


def run_check(args) -> int:
    from ..source.config import UsageError, load_config
    from .runner import check_each, parse, rule_codes, selection_from, target_from
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError("--statistics prints text or JSON: use --format text or --format json")
    config = load_config(args.config, args.paths, rule_codes=rule_codes)
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
    # findings the default target holds back: what a portable check would add (text summary only),
    # judged from the same analysis of each file
    each = (settings,)
    if target.cann == "any" and args.format == "text" and not args.quiet:
        each += (settings._replace(target=target._replace(cann="portable")),)
    results = []
    errors = held = 0
    for item in inputs(args, config):
        if item.source is None:
            # a path that cannot be read must not pass a CI gate silently
            warn(f"{item.display}: {item.error}")
            errors += 1
            continue
        source = item.source
        tree = parse(item.display, source.text) if source.kind == "python" else None
        if tree is False:
            errors += 1                 # flake8 says E999; the gate must not pass it silently
            continue
        ignores = config.ignores_for(item.path) if config else ()
        findings, *wide = check_each(item.path, source.text, source.kind, each, selection, ignores, tree)
        errors += sum(1 for f in findings if f.code == "NPP000")
        if wide:
            held += sum((Counter(_where(wide[0])) - Counter(_where(findings))).values())
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
    from ..report import formats
    if args.statistics:
        return formats.statistics(results, args.format)
    if args.format == "json":
        return formats.json_report(results)
    if args.format in ("sarif", "github"):
        from ..report import ci as ci_formats
        return ci_formats.sarif(results) if args.format == "sarif" else ci_formats.github(results)
    return formats.text(results, show_source=args.show_source)
