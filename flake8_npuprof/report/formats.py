"""Renderings of findings for the CLI: text and JSON (SARIF and GitHub live in their own module)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Dict, List, Sequence, Tuple

from ..source.model import Finding, printable
from ..engine.fix import fix_marker
from ..source.text import SourceText

# A checked file's findings: (display path, its text positions, findings)
FileResult = Tuple[str, SourceText, List[Finding]]


BOLD, RED, CYAN, RESET = "\x1b[1m", "\x1b[31m", "\x1b[36m", "\x1b[0m"


def use_color(output_file=None, stream=None, environ=None) -> bool:
    """Colour for a terminal: never into a file, never with NO_COLOR set (no-color.org), always with
    FORCE_COLOR set, else when standard output is a terminal."""
    import os
    import sys
    env = os.environ if environ is None else environ
    if output_file or env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    stream = sys.stdout if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def text(results: Sequence[FileResult], show_source: bool = False, color: bool = False,
         verbose: bool = False) -> str:
    """One line per finding (its short message); with --show-source the source line and a caret under it,
    and with --show-source or --verbose the finding's detail, indented."""
    out = []
    for path, src, findings in results:
        for f in findings:
            if color:               # Ruff's colours: the path bold, the separators cyan, the code bold red
                colon = f"{CYAN}:{RESET}"
                out.append(f"{BOLD}{printable(path)}{RESET}{colon}{f.line}{colon}{f.col + 1}{colon} "
                           f"{BOLD}{RED}{f.code}{RESET} {f.short}{fix_marker(f)}")
            else:
                out.append(f"{printable(path)}:{f.line}:{f.col + 1}: {f.code} {f.short}{fix_marker(f)}")
            if show_source:         # flake8's layout first: the line and its caret, right under the finding
                out.extend(source_lines(src, f))
            if show_source or verbose:
                out.extend(detail_lines(f))
    return "\n".join(out) + ("\n" if out else "")


def detail_lines(f: Finding, indent: str = "    ") -> List[str]:
    """The finding's detail (source/said.py), one indented line per part."""
    return [indent + line for line in f.detail_lines]


def source_lines(src: SourceText, f: Finding) -> List[str]:
    """flake8's --show-source: the line, then a caret under the column (tabs kept so it lines up)."""
    line = src.line_text(f.line).rstrip("\r\n")
    if not line:
        return []
    pad = "".join(c if c.isspace() else " " for c in line[:f.col])
    return [line, pad + "^"]


def statistics(results: Sequence[FileResult], fmt: str = "text") -> str:
    """How often each code occurs, most frequent first (Ruff's --statistics)."""
    from ..checks.catalog import BY_CODE
    counts = Counter(f.code for _, _, findings in results for f in findings)
    fixable = {f.code for _, _, findings in results for f in findings if f.fix is not None and f.fix.safe}
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    name = lambda code: BY_CODE[code].name if code in BY_CODE else ""  # noqa: E731
    if fmt == "json":
        return json.dumps([{"code": c, "name": name(c), "count": n, "fixable": c in fixable} for c, n in rows],
                          indent=2) + "\n"
    width = max((len(str(n)) for _, n in rows), default=1)
    return "".join(f"{n:>{width}}\t{c}\t{'[*] ' if c in fixable else ''}{name(c)}\n" for c, n in rows)


def finding_dict(path: str, src: SourceText, f: Finding) -> Dict:
    fix = None
    if f.fix is not None:
        edits = []
        for e in f.fix.edits:
            (l1, c1), (l2, c2) = src.position(e.start), src.position(e.end)
            edits.append({"content": e.text, "location": {"line": l1, "column": c1 + 1},
                          "end_location": {"line": l2, "column": c2 + 1}})
        fix = {"applicability": "safe" if f.fix.safe else "unsafe", "message": f.fix.title, "edits": edits}
    return {
        "filename": path,
        "code": f.code,
        "message": f.short,
        "detail": f.detail,                         # log lines, per-version consequences, advice ("" if none)
        "location": {"line": f.line, "column": f.col + 1},
        "end_location": {"line": f.end_line, "column": f.end_col + 1},
        "fix": fix,
        "doc": f"npuprof explain {f.code}",          # the rule's page, wherever the package is installed
    }


def json_report(results: Sequence[FileResult]) -> str:
    rows = [finding_dict(path, src, f) for path, src, findings in results for f in findings]
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
