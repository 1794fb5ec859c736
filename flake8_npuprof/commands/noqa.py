"""`npuprof check --add-noqa`: adopt the tool on existing code by suppressing what it finds today.

Each finding gets `# noqa: NPPxxx` where flake8 looks for it: at the end of the last physical line
of its logical line (a multi-line string or a backslash continuation counts as one line; inside
brackets each physical line is its own, as flake8 reads them). An existing `# noqa: X` gets the
new codes added; other comments are kept. Encoding, BOM and line endings are kept, the result
must parse and check clean, and a second run changes nothing.
"""

from __future__ import annotations

import ast
import tokenize
from typing import Dict, List

from flake8.defaults import NOQA_INLINE_REGEXP

from ..source.files import logical_reader, physical_lines
from .inputs import EXIT_CLEAN, EXIT_ERROR, inputs, note, plural, walk_root
from .output import warn


def comment_lines(text: str) -> Dict[int, int]:
    """Each line → the line whose end carries the comment flake8 reads for it."""
    lines = physical_lines(text)
    mapping: Dict[int, int] = {}
    try:
        tokens = list(tokenize.generate_tokens(logical_reader(text)))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return {}
    lo, hi = len(lines) + 2, -1
    for tok in tokens:
        if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        lo, hi = min(lo, tok.start[0]), max(hi, tok.end[0])
        if tok.type in (tokenize.NL, tokenize.NEWLINE):
            for n in range(lo, hi + 1):
                mapping[n] = hi
            lo, hi = len(lines) + 2, -1
    return mapping


def add_codes(line: str, codes: List[str]) -> str:
    """`line` (with its line ending) with `codes` added to its noqa comment, or a new one."""
    body = line.rstrip("\r\n")
    ending = line[len(body):]
    m = NOQA_INLINE_REGEXP.search(body)
    if m is not None and m.group("codes"):
        listed = {c for c in m.group("codes").replace(",", " ").split()}
        new = [c for c in codes if not any(c.startswith(old) for old in listed)]
        if not new:
            return line
        end = m.start("codes") + len(m.group("codes").rstrip())
        return body[:end] + ", " + ", ".join(new) + body[end:] + ending
    if m is not None:                   # a bare `# noqa` already silences everything
        return line
    return body.rstrip() + "  # noqa: " + ", ".join(codes) + ending


def with_noqa(text: str, findings, kind: str = "python") -> str:
    where = comment_lines(text) if kind == "python" else {}     # a YAML comment is its own line's
    wanted: Dict[int, List[str]] = {}
    for f in findings:
        if f.code == "NPP000":
            continue                    # an internal error is ours to fix, not the user's to silence
        line = where.get(f.line, f.line)
        codes = wanted.setdefault(line, [])
        if f.code not in codes:
            codes.append(f.code)
    lines = physical_lines(text)
    for line, codes in wanted.items():
        if 1 <= line <= len(lines):
            lines[line - 1] = add_codes(lines[line - 1], sorted(codes))
    return "".join(lines)


def _parses(text: str, kind: str) -> None:
    """ValueError (or SyntaxError) where the text with its noqa comments no longer parses."""
    if kind == "yaml":
        from ..source.run_config import NotYaml, parse
        try:
            parse(text)
        except NotYaml as exc:
            raise ValueError(exc.problem) from None
    else:
        ast.parse(text)


def run_add_noqa(args, config, settings, selection) -> int:
    from ..engine.run import check_text
    from .fix import write_file
    from ..source.writes import WriteError
    added = files = 0
    errors = 0
    for item in inputs(args, config):
        if item.source is None:
            warn(f"{item.display}: {item.error}")
            errors += 1
            continue
        source = item.source
        if item.stdin:
            warn(f"{item.display}: --add-noqa edits files, not standard input")
            errors += 1
            continue
        if source.kind not in ("python", "yaml"):
            continue                    # shell launchers and JSON have no noqa comments
        ignores = config.ignores_for(item.path) if config else ()
        findings = check_text(item.path, source.text, source.kind, settings, selection, ignores)
        if not [f for f in findings if f.code != "NPP000"]:
            continue
        new = with_noqa(source.text, findings, source.kind)
        if new == source.text:
            continue
        left: List[object]          # the findings left, or [None] when the new text does not parse
        try:
            _parses(new, source.kind)
            left = [f for f in check_text(item.path, new, source.kind, settings, selection, ignores)
                    if f.code != "NPP000"]
        except (SyntaxError, ValueError):
            left = [None]
        if left:
            warn(f"{item.display}: not changed, the noqa comments would not silence every finding")
            errors += 1
            continue
        try:
            leftover = write_file(item.path, new, source.encoding, source.bom, source.data,
                                  walk_root(args, item.path))
        except WriteError as exc:
            warn(f"{item.display}: not changed, {exc}")
            errors += 1
            continue
        if leftover:
            warn(f"{item.display}: changed{leftover}")
        count = sum(1 for a, b in zip(physical_lines(source.text), physical_lines(new)) if a != b)
        added += count
        files += 1
    note(args, f"Added {plural(added, 'noqa directive')} to {plural(files, 'file')}.")
    return EXIT_ERROR if errors else EXIT_CLEAN
