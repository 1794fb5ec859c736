"""Fixing one text: each finding's fix applied alone, kept only when the text still parses, still encodes in
its encoding and the finding it was made for is gone (checked again with run.check_text); repeated until no
applicable fix is left (bounded), so a second run changes nothing. Writing the result is the caller's."""

from __future__ import annotations

import ast
from collections import Counter
from typing import List, NamedTuple, Tuple

from ..knowledge.run_settings import Settings
from ..source.files import Wants
from ..source.model import Finding
from ..source.prefilter import words_over_budget


def fix_marker(finding) -> str:
    """What a one-line report adds to a finding with a fix: the command that applies it."""
    if finding.fix is None:
        return ""
    return " (fixable: npuprof fix)" if finding.fix.safe else " (fixable: npuprof fix --unsafe-fixes)"


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


def fix_text(text: str, path: str, settings: Settings, selection: Wants, unsafe: bool,
             encoding: str = "utf-8", newline: str = "\n", ignores=(), kind: str = "python") -> FixResult:
    """A Python file's fixes (or a YAML run configuration's, kind "yaml"), each applied alone and re-checked."""
    from .run import check_text
    from ..checks.analysis import parse
    tree = None                         # a file over the work budget is not parsed: its NPP191 remains
    if kind == "python" and not words_over_budget(text):
        tree = parse(text)
        if isinstance(tree, Finding):   # never touched; its NPP192 is what remains
            return FixResult(text, [], [], check_text(path, text, "python", settings, selection, ignores),
                             "it has a syntax error")
    applied: List[Finding] = []
    refused: List[Tuple[Finding, str]] = []
    refused_keys = set()
    findings = check_text(path, text, kind, settings, selection, ignores, tree)
    for _ in range(MAX_FIXES):
        candidates = [f for f in findings if f.fix is not None and (f.fix.safe or unsafe)
                      and _key(f) not in refused_keys]
        if not candidates:
            break
        finding = candidates[0]
        reason, new_text, new_findings = _try(text, findings, finding, path, settings, selection, encoding, newline,
                                              ignores, kind)
        if reason:
            refused_keys.add(_key(finding))
            refused.append((finding, reason))
            continue
        text, findings = new_text, new_findings
        applied.append(finding)
    else:                               # the limit: say so, or a second run would silently fix more
        for f in findings:
            if f.fix is not None and (f.fix.safe or unsafe) and _key(f) not in refused_keys:
                refused_keys.add(_key(f))
                # the limit counts attempts, refused ones too: say what it is, not "N fixes were made"
                refused.append((f, f"not tried: one run stops after {MAX_FIXES} attempt{'' if MAX_FIXES == 1 else 's'} at fixing a file "
                                   f"({len(applied)} made a fix here); run `npuprof fix` again"))
    # a fix that was refused is not offered again in the report ("fixable" would be untrue)
    remaining = [f._replace(fix=None) if f.fix is not None and _key(f) in refused_keys else f for f in findings]
    return FixResult(text, applied, refused, remaining)


def _key(f: Finding):
    return (f.code, f.message, tuple((e.start, e.end, e.text) for e in f.fix.edits) if f.fix else ())


def _try(text, findings, finding, path, settings, selection, encoding, newline, ignores=(), kind="python"):
    from .run import check_text
    if _overlaps(finding.fix.edits):
        return "its edits overlap", text, None
    new = apply_edits(text, finding.fix.edits, newline)
    if kind == "yaml":
        from ..source.run_config import NotYaml, parse as parse_yaml
        try:
            parse_yaml(new)
        except NotYaml as exc:
            return f"the result would not parse ({exc.problem})", text, None
    else:
        try:
            ast.parse(new)
        except (SyntaxError, ValueError) as exc:
            return f"the result would not parse ({exc.msg if hasattr(exc, 'msg') else exc})", text, None
    try:
        new.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return f"the result cannot be written as {encoding}", text, None
    before = Counter((f.code, f.message) for f in findings)     # the findings of `text`, already known
    after_findings = check_text(path, new, kind, settings, selection, ignores)
    after = Counter((f.code, f.message) for f in after_findings)
    if after[(finding.code, finding.message)] >= before[(finding.code, finding.message)]:
        return "the finding would not clear", text, None
    return "", new, after_findings
