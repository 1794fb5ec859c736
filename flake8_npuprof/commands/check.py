"""`npuprof check`: which files a run reads (shared with fix), and the report it prints.

Ruff's and flake8's conventions: no path means the current directory, `-` reads standard input
(named by --stdin-filename), a path that does not exist or an unknown code is a usage error
(exit 2), findings go to standard output (or --output-file) one per line, and the summary
("Found 3 findings (2 fixable)." / "All checks passed!") with its hints goes to standard error,
so the report stays one finding per line for the tools that read it. Every file read is either
checked or reported: one that cannot be read is an error (exit 2), one that does not parse is a
finding (NPP192). Files are checked through the cache and in worker processes (commands/batch.py).
"""

from __future__ import annotations

import zlib
from collections import Counter
from typing import Iterator, List, Optional, Sequence, Tuple

from ..knowledge.run_settings import Settings
from ..source import observed
from ..source.model import Finding
from .output import Report, render, warn
from ..source.text import SourceText
from .inputs import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, Input, input_paths, note, plural


def run_check(args) -> int:
    from ..source.config import UsageError, load_config
    from ..engine.selection import rule_codes
    from .runner import settings_from
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError("--statistics prints text or JSON: use --format text or --format json")
    config = load_config(args.config, args.paths, rule_codes=rule_codes)
    target, selection, settings = settings_from(args, config)
    if args.show_settings:
        from .show import show_settings
        return show_settings(args, config, settings, selection)
    if args.show_files:
        from .show import show_files
        return show_files(args, config)
    if args.add_noqa:
        from .noqa import run_add_noqa
        return run_add_noqa(args, config, settings, selection)
    if args.fix:
        from .fix import run_fix
        return run_fix(args, config, settings, selection)
    # findings the default target holds back: what a portable check would add (text summary only)
    each: Tuple[Settings, ...] = (settings,)
    if target.cann == "any" and args.format == "text" and not args.quiet:
        each += (settings._replace(target=target._replace(cann="portable")),)
    results: List[Tuple[str, Optional[SourceText], List[Finding]]] = []
    unreadable = []
    errors = held = checked = 0
    for item, per_settings in check_items(args, config, input_paths(args, config), each, selection):
        checked += 1
        if per_settings is None and item.undecodable is not None:
            results.append((item.display, SourceText(item.text), [item.undecodable]))
            continue
        if per_settings is None:
            unreadable.append(item)
            continue
        findings = per_settings[0]
        errors += sum(1 for f in findings if f.code == "NPP000")
        if len(per_settings) > 1:
            held += sum((Counter(_where(per_settings[1])) - Counter(_where(findings))).values())
        # positions are worked out only for a file with findings (line tables of every file cost as much as
        # a warm run's whole reading), and only such a file is kept: a report shows nothing of the others
        # (their path and empty list were 3 MB of the model zoo's 16,218 files)
        assert item.source is not None          # (it was read: it has findings for each settings)
        if findings:
            results.append((item.display, PackedText(item.source.text), findings))
    for item in unreadable:
        # a path that cannot be read must not pass a CI gate silently
        warn(f"{item.display}: {item.error}")
        errors += 1
    report = Report(args.output_file)
    try:
        report.write(render(args, results, target))
    finally:
        report.close()
    found_any = sum(len(r[2]) for r in results)
    if args.format == "text" and not args.statistics:
        summary(args, results, errors, held, checked)
        if getattr(args, "show_fixes", False):
            show_fixable(args, results)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if found_any and not args.exit_zero else EXIT_CLEAN


def check_items(args, config, paths: Sequence[str], each,
                selection) -> Iterator[Tuple[Input, Optional[List[List[Finding]]]]]:
    """Each input with its findings for each settings (None: it could not be read), from the cache where it
    holds them and from worker processes for the rest, in the inputs' order. A file is read when its turn
    comes and nothing of it is kept here once it is handed on (batch.ordered holds a bounded window), so a
    run's memory does not grow with the number of files."""
    from . import batch, cache as caches
    from ..source import bytecode
    store = caches.for_run(args, config, each[0], warn=lambda text: note(args, text))

    def entries():
        for item, job, cached in batch.read_jobs(args, config, paths, store, each, selection):
            if job is None or cached is not None:
                yield (item, None, cached), None
                continue
            if not item.stdin and job.kind == "python":     # the file's own bytes, read just now
                job = job._replace(compiled=bytecode.compiled(item.path, item.source.data))
            yield (item, job, None), (job, each, selection)

    progress = batch.Progress(len(paths), "checking", enabled=None if not getattr(args, "quiet", False) else False)
    try:
        processes = min(batch.workers(args), len(paths))
        with observed.one_run():        # (workers forked in it check inside it, each its own run's memo)
            for (item, job, cached), result in batch.ordered(batch.check_job, entries(), processes, progress):
                if job is None:                     # answered by the cache, or unreadable (None)
                    yield item, cached
                    continue
                found, deps = result
                if store is not None and not item.stdin:
                    store.put(job.path, job.text, job.kind, each, selection, job.ignores, found, deps, job.within)
                yield item, found
    finally:
        progress.close()
        if store is not None:
            store.close()


class PackedText(SourceText):
    """The text of a file with findings while the run goes on: the report reads it only once every file is
    checked, so it is held compressed until then (the texts of the 539 files with findings among the model
    zoo's 16,218 were 4.4 MB, a share of the memory that grew with the tree), and read back when asked."""

    def __init__(self, text: str):          # (no SourceText.__init__: `text` is the property below)
        self.packed = zlib.compress(text.encode("utf-8", "surrogatepass"), 1)

    @property
    def text(self) -> str:  # type: ignore[override]   # decompressed on each use, not kept: a few lines a finding
        return zlib.decompress(self.packed).decode("utf-8", "surrogatepass")


def _where(findings: Sequence[Finding]):
    return [(f.code, f.line, f.col) for f in findings]


def summary(args, results, errors: int, held: int, checked: int) -> None:
    findings = [f for _, _, fs in results for f in fs]
    safe = sum(1 for f in findings if f.fix is not None and f.fix.safe)
    unsafe = sum(1 for f in findings if f.fix is not None and not f.fix.safe)
    if findings:
        fixable = [f"{safe} fixable with `npuprof fix`"] if safe else []
        if unsafe:
            fixable.append(f"{unsafe} fixable with `npuprof fix --unsafe-fixes`")
        note(args, f"Found {plural(len(findings), 'finding')}" + (f" ({', '.join(fixable)})" if fixable else "") + ".")
    elif not errors and checked:
        note(args, "All checks passed!")
    if errors:
        note(args, f"{plural(errors, 'file')} could not be checked (see above).")
    if held:
        note(args, f"{plural(held, 'more finding')} on some targets "
                   "(use --cann portable or name your target, e.g. --cann 8.0).")


def show_fixable(args, results) -> None:
    """--show-fixes without --fix: what `npuprof fix` would fix, per file and code."""
    from .fix import enumerate_fixes
    rows = [(path, [f for f in findings if f.fix is not None and f.fix.safe]) for path, _, findings in results]
    text = enumerate_fixes(rows, "Would fix")
    if text:
        note(args, text)
