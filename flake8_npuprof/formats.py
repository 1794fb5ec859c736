"""Renderings of findings for the CLI: text and JSON (SARIF and GitHub live in their own module)."""

from __future__ import annotations

import json
from typing import Dict, List, Sequence, Tuple

from .model import Finding, printable
from .plugin import fix_marker
from .source import SourceText

# A checked file's findings: (display path, its text positions, findings)
FileResult = Tuple[str, SourceText, List[Finding]]


def text(results: Sequence[FileResult]) -> str:
    out = []
    for path, _, findings in results:
        for f in findings:
            out.append(f"{printable(path)}:{f.line}:{f.col + 1}: {f.code} {f.message}{fix_marker(f)}")
    return "\n".join(out) + ("\n" if out else "")


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
        "message": f.message,
        "location": {"line": f.line, "column": f.col + 1},
        "end_location": {"line": f.end_line, "column": f.end_col + 1},
        "fix": fix,
        "doc": f"docs/rules/{f.code}.md",
    }


def json_report(results: Sequence[FileResult]) -> str:
    rows = [finding_dict(path, src, f) for path, src, findings in results for f in findings]
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
