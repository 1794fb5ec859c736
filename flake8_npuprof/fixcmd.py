"""`npuprof fix`: apply the findings' fixes, one at a time, each re-checked before it is kept.

A fix is kept only when the file still parses, still encodes in its declared encoding, and
the finding it was made for is gone; otherwise it is refused and reported. Fixing repeats
until no applicable fix is left (bounded), so a second run changes nothing. Files with a
syntax error are never touched; writes are atomic and keep the encoding, BOM, line endings
and file mode.

Exit codes (as Ruff): 0 no finding remains, 1 findings remain or --diff would change
something, 2 usage or internal error.
"""

from __future__ import annotations

import ast
import difflib
import os
import sys
import tempfile
from collections import Counter
from typing import List, NamedTuple, Tuple

from .analysis import Settings
from .files import ReadError, Selection, discover, read_source
from .model import Finding

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
             encoding: str = "utf-8", newline: str = "\n") -> FixResult:
    from .cli import check_text
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return FixResult(text, [], [], [], "it has a syntax error")
    applied: List[Finding] = []
    refused: List[Tuple[Finding, str]] = []
    refused_keys = set()
    findings = check_text(path, text, "python", settings, selection)
    for _ in range(MAX_FIXES):
        candidates = [f for f in findings if f.fix is not None and (f.fix.safe or unsafe)
                      and _key(f) not in refused_keys]
        if not candidates:
            break
        finding = candidates[0]
        reason, new_text, new_findings = _try(text, finding, path, settings, selection, encoding, newline)
        if reason:
            refused_keys.add(_key(finding))
            refused.append((finding, reason))
            continue
        text, findings = new_text, new_findings
        applied.append(finding)
    return FixResult(text, applied, refused, findings)


def _key(f: Finding):
    return (f.code, f.message, tuple((e.start, e.end, e.text) for e in f.fix.edits) if f.fix else ())


def _try(text, finding, path, settings, selection, encoding, newline):
    from .cli import check_text
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
    before = Counter((f.code, f.message) for f in check_text(path, text, "python", settings, selection))
    after_findings = check_text(path, new, "python", settings, selection)
    after = Counter((f.code, f.message) for f in after_findings)
    if after[(finding.code, finding.message)] >= before[(finding.code, finding.message)]:
        return "the finding would not clear", text, None
    return "", new, after_findings


def write_atomic(path: str, text: str, encoding: str, bom: bool) -> None:
    data = text.encode(encoding)
    if bom and encoding.replace("-", "").lower() in ("utf8", "utf_8"):
        data = b"\xef\xbb\xbf" + data
    mode = os.stat(path).st_mode
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".npuprof-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------- command line

def add_parser(sub, add_target_options, add_selection_options) -> None:
    p = sub.add_parser("fix", help="apply safe fixes (and unsafe ones with --unsafe-fixes)")
    p.add_argument("paths", nargs="*", help="files or directories")
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that change what is collected")
    p.add_argument("--diff", action="store_true", help="print a unified diff and write nothing")
    p.add_argument("--config", default=None, help="configuration file (pyproject.toml, setup.cfg, ...)")
    add_target_options(p)
    add_selection_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from . import formats
    from .cli import selection_from, target_from
    from .config import load_config
    from .source import SourceText
    config = load_config(args.config, args.paths)
    settings = Settings(target=target_from(args, config))
    selection = selection_from(args, config)
    changed_any = False
    remaining_any = False
    errors = False
    for path in discover(args.paths):
        try:
            source = read_source(path)
        except ReadError as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            errors = True
            continue
        if source.kind != "python":
            # shell launchers are checked, not fixed: what remains is reported
            from .cli import check_text
            remaining = check_text(path, source.text, source.kind, settings, selection)
            if remaining:
                remaining_any = True
                if not args.diff:
                    sys.stdout.write(formats.text([(path, SourceText(source.text), remaining)]))
            continue
        result = fix_text(source.text, path, settings, selection, args.unsafe_fixes,
                          source.encoding, source.newline)
        if result.skipped:
            print(f"{path}: not fixed, {result.skipped}", file=sys.stderr)
            continue
        for finding, reason in result.refused:
            print(f"{path}:{finding.line}:{finding.col + 1}: {finding.code} fix refused: {reason}", file=sys.stderr)
        errors = errors or any(f.code == "NPP000" for f in result.remaining)
        if result.text != source.text:
            changed_any = True
            if args.diff:
                sys.stdout.writelines(difflib.unified_diff(
                    source.text.splitlines(keepends=True), result.text.splitlines(keepends=True),
                    fromfile=f"a/{path}", tofile=f"b/{path}"))
            else:
                write_atomic(path, result.text, source.encoding, source.bom)
                codes = ", ".join(sorted({f.code for f in result.applied}))
                print(f"{path}: fixed {len(result.applied)} ({codes})", file=sys.stderr)
        if result.remaining:
            remaining_any = True
            if not args.diff:
                sys.stdout.write(formats.text([(path, SourceText(result.text), result.remaining)]))
    if errors:
        return 2
    if args.diff:
        return 1 if (changed_any or remaining_any) else 0
    return 1 if remaining_any else 0
