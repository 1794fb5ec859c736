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
import difflib
import os
import tempfile
from collections import Counter
from typing import List, NamedTuple, Tuple

from ..checks.analysis import Settings
from ..source.files import Selection
from ..source.model import Finding
from ..source.prefilter import words_over_budget
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


class WriteError(Exception):
    pass


def write_file(path: str, text: str, encoding: str, bom: bool) -> None:
    """Write the fixed text to the file `path` resolves to, keeping what the user owns.

    A symlink is followed (the link stays a link, its target is fixed). A file with one name is
    replaced atomically by a temporary copy beside it (mode and owner kept). A file with other
    hard links, or in a folder we cannot write, is rewritten in place, so every name sees the fix:
    the old bytes are kept aside first and put back if the write cannot be verified.
    """
    data = text.encode(encoding)
    if bom and encoding.replace("-", "").lower() in ("utf8", "utf_8"):
        data = b"\xef\xbb\xbf" + data
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError as exc:
        raise WriteError(f"cannot write: {exc.strerror or exc}") from None
    if st.st_nlink == 1:
        try:
            _replace(real, data, st)
            return
        except PermissionError:
            pass                        # the folder is not writable: the file itself may be
        except OSError as exc:
            raise WriteError(f"cannot write: {exc.strerror or exc}") from None
    _in_place(real, data)


def writable(path: str) -> str:
    """Why the file `path` resolves to cannot be fixed ("" when it can), for --diff."""
    real = os.path.realpath(path)
    if not os.access(real, os.W_OK):
        return "cannot write: permission denied"
    return ""


def _replace(real: str, data: bytes, st: os.stat_result) -> None:
    fd, tmp = tempfile.mkstemp(prefix=".npuprof-", dir=os.path.dirname(real))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, st.st_mode & 0o7777)
        if hasattr(os, "chown") and (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(tmp, st.st_uid, st.st_gid)
            except OSError:
                pass
        os.replace(tmp, real)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _in_place(real: str, data: bytes) -> None:
    try:
        fh = open(real, "r+b")
    except OSError as exc:
        raise WriteError(f"cannot write: {exc.strerror or exc}") from None
    with fh:
        original = fh.read()
        try:
            fh.seek(0)
            fh.write(data)
            fh.truncate()
            fh.flush()
            os.fsync(fh.fileno())
            fh.seek(0)
            if fh.read() == data:
                return
            problem = "the written file did not read back the same"
        except OSError as exc:
            problem = f"cannot write: {exc.strerror or exc}"
        try:                            # put the old text back
            fh.seek(0)
            fh.write(original)
            fh.truncate()
            fh.flush()
        except OSError:
            kept = _keep(original, real)
            problem += f"; the file may be damaged, its old text is in {kept}"
    raise WriteError(problem)


def _keep(data: bytes, real: str) -> str:
    fd, kept = tempfile.mkstemp(prefix=os.path.basename(real) + ".", suffix=".orig")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return kept


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
        if source.kind != "python":
            # shell launchers are checked, not fixed: what remains is reported
            remaining = check_text(path, source.text, source.kind, settings, selection, ignores)
            if remaining:
                remaining_any = True
                if not args.diff:
                    out.write(formats.text([(shown, SourceText(source.text), remaining)]))
            if item.stdin and not args.diff:
                out.write(source.text)
            continue
        result = fix_text(source.text, path, settings, selection, args.unsafe_fixes,
                          source.encoding, source.newline, ignores)
        if result.skipped:
            warn(f"{shown}: not fixed, {result.skipped}")
            if item.stdin and not args.diff:
                out.write(source.text)
            continue
        for finding, reason in result.refused:
            warn(f"{shown}:{finding.line}:{finding.col + 1}: {finding.code} fix refused: {reason}")
        errors = errors or any(f.code == "NPP000" for f in result.remaining)
        report_remaining = (lambda text: warn(text.rstrip("\n"))) if item.stdin else out.write
        if result.text != source.text:
            problem = "" if item.stdin else writable(path)
            if problem:
                warn(f"{shown}: not fixed, {problem}")
                errors = True
                continue
            changed_any = True
            if args.diff:
                name = diff_name(shown)
                a, b = (f"a/{name}", f"b/{name}") if not os.path.isabs(name) else (name, name)
                out.write("".join(difflib.unified_diff(
                    source.text.splitlines(keepends=True), result.text.splitlines(keepends=True),
                    fromfile=a, tofile=b)))
            elif item.stdin:
                out.write(result.text)      # as Ruff: the fixed text on stdout, the rest on stderr
            else:
                try:
                    write_file(path, result.text, source.encoding, source.bom)
                except WriteError as exc:
                    warn(f"{shown}: not fixed, {exc}")
                    errors = True
                    continue
                codes = ", ".join(sorted({f.code for f in result.applied}))
                warn(f"{shown}: fixed {len(result.applied)} ({codes})")
        elif item.stdin and not args.diff:
            out.write(source.text)
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
