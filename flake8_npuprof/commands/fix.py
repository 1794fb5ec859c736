"""`npuprof fix`: apply the findings' fixes, one at a time, each re-checked before it is kept.

Each file's text is fixed by the engine (engine/fix.py: a fix is kept only when the file still
parses, still encodes in its declared encoding, and the finding it was made for is gone; otherwise
it is refused and reported; fixing repeats until no applicable fix is left, bounded). Files with a
syntax error are never touched; writes keep the encoding, BOM, line endings, file mode and
links (see write_file); a file that cannot be read or written is reported and skipped while
the others are still fixed (exit 2).

Exit codes (as Ruff): 0 no finding remains, 1 findings remain or --diff would change
something, 2 usage or internal error.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Optional

from ..engine.fix import FixResult, fix_text
from ..source.writes import WriteError, write_bytes
from .output import warn


def encoded(text: str, encoding: str, bom: bool) -> bytes:
    """The bytes a file with this text has: its own encoding, and its BOM when it had one."""
    data = text.encode(encoding)
    if bom and encoding.replace("-", "").lower() in ("utf8", "utf_8"):
        data = b"\xef\xbb\xbf" + data
    return data


def write_file(path: str, text: str, encoding: str, bom: bool, expected: Optional[bytes] = None,
               within: Optional[str] = None) -> str:
    """Write the fixed text to the file `path` resolves to, keeping what the user owns: all or nothing
    (source/writes.py), not at all when the file no longer holds `expected` (what was read), nor when it
    is outside `within` (the folder whose walk found it)."""
    return write_bytes(path, encoded(text, encoding, bom), expected, within)


def writable(path: str) -> str:
    """Why the file `path` resolves to cannot be fixed ("" when it can), for --diff."""
    real = os.path.realpath(path)
    if not os.access(real, os.W_OK):
        return "cannot write: permission denied"
    return ""


def diff_name(display: str) -> str:
    """git's names: `a/dir/x.py` for a file under the working directory, the absolute path otherwise."""
    rel = os.path.normpath(display)
    if os.path.isabs(rel) or rel.startswith(".."):
        return os.path.abspath(display)
    return rel.replace(os.sep, "/")


# ---------------------------------------------------------------- command line

def add_parser(sub, add_target_options, add_selection_options) -> None:
    from .runner import _add_file_options, _add_fix_options, _add_output_options, _add_run_options
    p = sub.add_parser("fix", help="apply safe fixes (and unsafe ones with --unsafe-fixes)")
    _add_file_options(p)
    p.add_argument("--diff", action="store_true", help="print a unified diff and write nothing")
    _add_fix_options(p)
    _add_output_options(p)
    _add_run_options(p)
    add_target_options(p)
    add_selection_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..engine.selection import rule_codes
    from .runner import settings_from
    from ..source.config import load_config
    config = load_config(args.config, args.paths, rule_codes=rule_codes)
    _, selection, settings = settings_from(args, config)
    return run_fix(args, config, settings, selection)


def fix_items(args, config, paths, settings, selection):
    """(input, its FixResult) for each input, in their order (None: it could not be read). A file the cache
    knows to hold nothing this run would fix is answered from the cache; the others are fixed in worker
    processes (the writing stays with the caller). A file is read when its turn comes and batch.ordered holds
    a bounded window, so memory does not grow with the number of files."""
    from . import batch, cache as caches
    from .inputs import note
    unsafe = getattr(args, "unsafe_fixes", False)
    store = caches.for_run(args, config, settings, warn=lambda text: note(args, text))

    def entries():
        for item, job, cached in batch.read_jobs(args, config, paths, store, (settings,), selection):
            if job is None:
                yield (item, None, None), None
            elif cached is not None and not any(f.code == "NPP192" or (f.fix is not None and (f.fix.safe or unsafe))
                                                for f in cached[0]):
                yield (item, None, FixResult(job.text, [], [], cached[0])), None
            elif job.kind not in ("python", "yaml"):    # launchers are checked, not fixed: what remains is reported
                yield (item, job, None), (batch.check_job, (job, (settings,), selection))
            else:
                yield (item, job, None), (fix_job, (job, settings, selection, unsafe, item.source.encoding,
                                                    item.source.newline))

    progress = batch.Progress(len(paths), "fixing", enabled=None if not getattr(args, "quiet", False) else False)
    try:
        processes = min(batch.workers(args), len(paths))
        for (item, job, cached), done in batch.ordered(_call, entries(), processes, progress):
            if job is None:                 # answered by the cache, or unreadable (None)
                yield item, cached
                continue
            result, deps = done
            if job.kind not in ("python", "yaml"):
                result = FixResult(job.text, [], [], result[0])
            if store is not None and not item.stdin and result.text == job.text and not result.skipped:
                store.put(job.path, job.text, job.kind, (settings,), selection, job.ignores, [result.remaining], deps,
                          job.within)
            yield item, result
    finally:
        progress.close()
        if store is not None:
            store.close()


def _call(fn, task):
    return fn(*task)


def fix_job(job, settings, selection, unsafe: bool, encoding: str, newline: str):
    """One file's fix in a worker (commands/batch.py), and what its analyses depended on."""
    from ..source import observed
    from ..values.project import walked_from
    with observed.recording() as seen, walked_from(job.within):
        result = fix_text(job.text, job.path, settings, selection, unsafe, encoding, newline, job.ignores, job.kind)
    return result, (seen.paths if seen.complete else None)


def run_fix(args, config, settings, selection) -> int:
    """`npuprof fix` and `npuprof check --fix`: fix, write (or print the diff), then report what remains in
    the format asked for, with the totals."""
    from .inputs import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, input_paths, note, plural, walk_root
    from .output import Report, render
    from ..report import formats
    from ..source.text import SourceText
    diff = getattr(args, "diff", False)
    paths = input_paths(args, config)
    out = Report()                          # diffs, and the fixed text of standard input
    rows, applied_rows = [], []
    writes: list = []                       # (shown, path, new bytes, bytes read, fixes applied, report row)
    changed_any = errors = False
    remaining = 0
    for item, result in fix_items(args, config, paths, settings, selection):
        path, shown, source = item.path, item.display, item.source
        if result is None and item.undecodable is not None:
            remaining += 1                  # a finding: nothing to fix
            if item.stdin and not diff:
                out.write_bytes(item.data)  # unchanged: its own bytes, as for any other file
                warn(formats.text([(shown, SourceText(item.text), [item.undecodable])],
                                  verbose=getattr(args, "verbose", False)).rstrip("\n"))
            else:
                rows.append((shown, SourceText(item.text), [item.undecodable]))
            continue
        if result is None:
            warn(f"{shown}: {item.error}")
            errors = True
            continue
        if result.skipped:
            warn(f"{shown}: not fixed, {result.skipped}")
        for finding, reason in result.refused:
            warn(f"{shown}:{finding.line}:{finding.col + 1}: {finding.code} fix refused: {reason}")
        errors = errors or any(f.code == "NPP000" for f in result.remaining)
        if result.text != source.text:
            problem = "" if item.stdin else writable(path)
            if problem:
                warn(f"{shown}: not fixed, {problem}")
                errors = True
                continue
            changed_any = True
            new = encoded(result.text, source.encoding, source.bom)
            if diff:
                from .diff import unified
                name = diff_name(shown)
                a, b = (f"a/{name}", f"b/{name}") if not os.path.isabs(name) else (name, name)
                out.write_bytes(unified(source.data, new, a, b))
            elif item.stdin:
                out.write_bytes(new)        # as Ruff: the fixed file on stdout (its own bytes), the rest on stderr
            else:
                # written once every file is analysed: a file's analysis may read a sibling module, and must
                # see it as it was, whatever order the workers finish in
                row = (shown, SourceText(result.text), result.remaining) if result.remaining else None
                writes.append((shown, path, new, source.data, result.applied, row))
                remaining += len(result.remaining)
                if row is not None:
                    rows.append(row)
                continue
            applied_rows.append((shown, result.applied))
        elif item.stdin and not diff:
            out.write_bytes(source.data)    # unchanged: its own bytes
        remaining += len(result.remaining)
        if result.remaining and item.stdin and not diff:
            warn(formats.text([(shown, SourceText(result.text), result.remaining)],
                              verbose=getattr(args, "verbose", False)).rstrip("\n"))
        elif result.remaining:
            rows.append((shown, SourceText(result.text), result.remaining))
    out.close()
    for shown, path, new, data, applied, row in writes:
        try:
            left = write_bytes(path, new, data, walk_root(args, path))       # within: the folder walked
        except WriteError as exc:
            # the file keeps every finding: those the fixes would have removed and the rest (whose places were
            # found in the text that could not be written, so only their number is said)
            kept = len(applied) + (len(row[2]) if row is not None else 0)
            warn(f"{shown}: not fixed, {exc}")
            warn(f"{shown}: {plural(kept, 'finding')} {'remains' if kept == 1 else 'remain'} in it (`npuprof check` "
                 "lists them)")
            errors = True
            if row is not None:
                rows.remove(row)
                remaining -= len(row[2])
            remaining += kept
            continue
        if left:
            warn(f"{shown}: fixed{left}")
        applied_rows.append((shown, applied))
    if not diff:
        report = Report(getattr(args, "output_file", None))
        try:
            report.write(render(args, rows, settings.target))
        finally:
            report.close()
    applied = sum(len(a) for _, a in applied_rows)
    if getattr(args, "format", "text") == "text" and not getattr(args, "statistics", False):
        if applied or remaining:
            verb = "would be fixed" if diff else "fixed"
            note(args, f"Found {plural(applied + remaining, 'finding')} ({applied} {verb}, {remaining} remaining).")
        elif not errors and paths:
            note(args, "All checks passed!")
        if errors:
            note(args, "Some files could not be fixed or checked (see above).")
        if getattr(args, "show_fixes", False):
            text = enumerate_fixes(applied_rows, "Would fix" if diff else "Fixed")
            if text:
                note(args, text)
    if errors:
        return EXIT_ERROR
    if getattr(args, "exit_zero", False):
        return EXIT_CLEAN               # as Ruff: over --diff and --exit-non-zero-on-fix too
    if getattr(args, "exit_non_zero_on_fix", False) and changed_any:
        return EXIT_FINDINGS
    if diff:
        return EXIT_FINDINGS if (changed_any or remaining) else EXIT_CLEAN
    return EXIT_FINDINGS if remaining else EXIT_CLEAN


def enumerate_fixes(rows, verb: str) -> str:
    """Ruff's --show-fixes: `Fixed 3 findings:`, then each file with how often each code was fixed."""
    from ..checks.catalog import BY_CODE
    from .inputs import plural
    rows = [(path, findings) for path, findings in rows if findings]
    if not rows:
        return ""
    total = sum(len(findings) for _, findings in rows)
    lines = [f"{verb} {plural(total, 'finding')}:"]
    for path, findings in rows:
        lines.append(f"- {path}:")
        for code, n in sorted(Counter(f.code for f in findings).items()):
            name = BY_CODE[code].name if code in BY_CODE else ""
            lines.append(f"    {n} \u00d7 {code} ({name})" if name else f"    {n} \u00d7 {code}")
    return "\n".join(lines)
