"""`npuprof fix`: apply the findings' fixes, one at a time, each re-checked before it is kept.

A fix is kept only when the file still parses, still encodes in its declared encoding, and
the finding it was made for is gone; otherwise it is refused and reported. Fixing repeats
until no applicable fix is left (bounded), so a second run changes nothing. Files with a
syntax error are never touched; writes keep the encoding, BOM, line endings, file mode and
links (see write_file); a file that cannot be read or written is reported and skipped while
the others are still fixed (exit 2).

Exit codes (as Ruff): 0 no finding remains, 1 findings remain or --diff would change
something, 2 usage or internal error.
"""

from __future__ import annotations

import ast
import os
from collections import Counter
from typing import List, NamedTuple, Optional, Tuple

from ..checks.analysis import Settings
from ..source.files import Selection
from ..source.model import Finding
from ..source.prefilter import words_over_budget
from ..source.writes import WriteError, write_bytes
from .output import warn

MAX_FIXES = 200         # per file; each one re-checks the whole file


class FixResult(NamedTuple):
    text: str
    applied: List[Finding]
    refused: List[Tuple[Finding, str]]
    remaining: List[Finding]
    skipped: str = ""       # why the file was not fixed at all


def apply_edits(text: str, edits, newline: str = "\n") -> str:
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        insert = e.text.replace("\n", newline) if newline != "\n" else e.text
        text = text[:e.start] + insert + text[e.end:]
    return text


def _overlaps(edits) -> bool:
    spans = sorted((e.start, e.end) for e in edits)
    return any(b[0] < a[1] for a, b in zip(spans, spans[1:]))


def fix_text(text: str, path: str, settings: Settings, selection: Selection, unsafe: bool,
             encoding: str = "utf-8", newline: str = "\n", ignores=()) -> FixResult:
    from .runner import check_text
    tree = None                         # a file over the work budget is not parsed: its NPP191 remains
    if not words_over_budget(text):
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return FixResult(text, [], [], [], "it has a syntax error")
    applied: List[Finding] = []
    refused: List[Tuple[Finding, str]] = []
    refused_keys = set()
    findings = check_text(path, text, "python", settings, selection, ignores, tree)
    for _ in range(MAX_FIXES):
        candidates = [f for f in findings if f.fix is not None and (f.fix.safe or unsafe)
                      and _key(f) not in refused_keys]
        if not candidates:
            break
        finding = candidates[0]
        reason, new_text, new_findings = _try(text, findings, finding, path, settings, selection, encoding, newline,
                                              ignores)
        if reason:
            refused_keys.add(_key(finding))
            refused.append((finding, reason))
            continue
        text, findings = new_text, new_findings
        applied.append(finding)
    return FixResult(text, applied, refused, findings)


def _key(f: Finding):
    return (f.code, f.message, tuple((e.start, e.end, e.text) for e in f.fix.edits) if f.fix else ())


def _try(text, findings, finding, path, settings, selection, encoding, newline, ignores=()):
    from .runner import check_text
    if _overlaps(finding.fix.edits):
        return "its edits overlap", text, None
    new = apply_edits(text, finding.fix.edits, newline)
    try:
        ast.parse(new)
    except (SyntaxError, ValueError) as exc:
        return f"the result would not parse ({exc.msg if hasattr(exc, 'msg') else exc})", text, None
    try:
        new.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return f"the result cannot be written as {encoding}", text, None
    before = Counter((f.code, f.message) for f in findings)     # the findings of `text`, already known
    after_findings = check_text(path, new, "python", settings, selection, ignores)
    after = Counter((f.code, f.message) for f in after_findings)
    if after[(finding.code, finding.message)] >= before[(finding.code, finding.message)]:
        return "the finding would not clear", text, None
    return "", new, after_findings


def encoded(text: str, encoding: str, bom: bool) -> bytes:
    """The bytes a file with this text has: its own encoding, and its BOM when it had one."""
    data = text.encode(encoding)
    if bom and encoding.replace("-", "").lower() in ("utf8", "utf_8"):
        data = b"\xef\xbb\xbf" + data
    return data


def write_file(path: str, text: str, encoding: str, bom: bool, expected: Optional[bytes] = None) -> str:
    """Write the fixed text to the file `path` resolves to, keeping what the user owns: all or nothing
    (source/writes.py), and not at all when the file no longer holds `expected` (what was read)."""
    return write_bytes(path, encoded(text, encoding, bom), expected)


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
    from .runner import _add_file_options
    p = sub.add_parser("fix", help="apply safe fixes (and unsafe ones with --unsafe-fixes)")
    _add_file_options(p)
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that change what is collected")
    p.add_argument("--diff", action="store_true", help="print a unified diff and write nothing")
    add_target_options(p)
    add_selection_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..report import formats
    from .inputs import inputs
    from .runner import check_text, rule_codes, selection_from, target_from
    from ..source.config import load_config
    from .output import Report
    from ..source.text import SourceText
    config = load_config(args.config, args.paths, rule_codes=rule_codes)
    settings = Settings(target=target_from(args, config))
    selection = selection_from(args, config)
    out = Report()
    changed_any = False
    remaining_any = False
    errors = False
    for item in inputs(args, config):
        path, shown, source = item.path, item.display, item.source
        if source is None:
            warn(f"{shown}: {item.error}")
            errors = True
            continue
        ignores = config.ignores_for(path) if config else ()
        # standard input's fixed text goes to standard output as it is, so the rest goes to standard error
        report_remaining = (lambda text: warn(text.rstrip("\n"))) if item.stdin else out.write
        if source.kind != "python":
            # shell launchers are checked, not fixed: what remains is reported
            remaining = check_text(path, source.text, source.kind, settings, selection, ignores)
            if remaining:
                remaining_any = True
                if not args.diff:
                    report_remaining(formats.text([(shown, SourceText(source.text), remaining)]))
            if item.stdin and not args.diff:
                out.write_bytes(source.data)
            continue
        result = fix_text(source.text, path, settings, selection, args.unsafe_fixes,
                          source.encoding, source.newline, ignores)
        if result.skipped:
            warn(f"{shown}: not fixed, {result.skipped}")
            if item.stdin and not args.diff:
                out.write_bytes(source.data)
            continue
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
            if args.diff:
                from .diff import unified
                name = diff_name(shown)
                a, b = (f"a/{name}", f"b/{name}") if not os.path.isabs(name) else (name, name)
                out.write_bytes(unified(source.data, new, a, b))
            elif item.stdin:
                out.write_bytes(new)        # as Ruff: the fixed file on stdout (its own bytes), the rest on stderr
            else:
                try:
                    left = write_bytes(path, new, source.data)
                except WriteError as exc:
                    warn(f"{shown}: not fixed, {exc}")
                    errors = True
                    continue
                codes = ", ".join(sorted({f.code for f in result.applied}))
                warn(f"{shown}: fixed {len(result.applied)} ({codes}){left}")
        elif item.stdin and not args.diff:
            out.write_bytes(source.data)
        if result.remaining:
            remaining_any = True
            if not args.diff:
                report_remaining(formats.text([(shown, SourceText(result.text), result.remaining)]))
    out.close()
    if errors:
        return 2
    if args.diff:
        return 1 if (changed_any or remaining_any) else 0
    return 1 if remaining_any else 0
