"""Generate docs/rules/*.md, the README rule table and source/files.py's DEFAULT_OFF from the rule catalog.

Run `python tools/gen_docs.py` after editing a rule's page (the RULES at the end of its module in
flake8_npuprof/checks/, gathered by checks/catalog.py); tests/test_docs.py fails when the committed
docs drift from the catalog.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flake8_npuprof.checks.catalog import RULES, render  # noqa: E402
from flake8_npuprof.checks.rule import GROUPS  # noqa: E402

DOCS = ROOT / "docs" / "rules"
README = ROOT / "README.md"
START, END = "<!-- rules:start -->", "<!-- rules:end -->"
FILES = ROOT / "flake8_npuprof" / "source" / "files.py"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def rule_table(link_prefix: str) -> str:
    rows = ["| code | name | finds | default | fix |", "|---|---|---|---|---|"]
    for r in RULES:
        default = "on" if r.default else ("preflight" if r.group == "preflight" else "off")
        rows.append(f"| [{r.code}]({link_prefix}{r.code}.md) | {r.name} | {_cell(r.summary)} | {default} | "
                    f"{r.fix_safety} |")
    return "\n".join(rows)


def index_page() -> str:
    parts = ["# NPP rules", "",
             "Generated from the rules' pages in `flake8_npuprof/checks/` (gathered by `checks/catalog.py`) by "
             "`tools/gen_docs.py`; `npuprof explain NPPxxx` prints the same pages.", ""]
    for group, (title, _) in GROUPS.items():
        parts += [f"## {title}", "", "| code | name | finds | fix |", "|---|---|---|---|"]
        for r in RULES:
            if r.group == group:
                off = "" if r.default else " (off by default)"
                parts.append(f"| [{r.code}]({r.code}.md) | {r.name}{off} | {_cell(r.summary)} | {r.fix_safety} |")
        parts.append("")
    return "\n".join(parts)


def outputs() -> dict:
    files = {DOCS / f"{r.code}.md": render(r) for r in RULES}
    files[DOCS / "index.md"] = index_page()
    text = README.read_text(encoding="utf-8")
    if START in text and END in text:
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        files[README] = head + START + "\n" + rule_table("docs/rules/") + "\n" + END + tail
    text = FILES.read_text(encoding="utf-8")
    files[FILES] = re.sub(r"^DEFAULT_OFF = \{.*?\}\n", lambda _: default_off(), text, count=1, flags=re.M | re.S)
    return files


def default_off() -> str:
    """The DEFAULT_OFF of source/files.py: the rules off by default (preflight aside: those run only when asked
    for) and the prefix that turns each on. flake8 reads it at start-up, before any rule is imported."""
    entries = [f'"{r.code}": "{r.enabled_by}"' for r in RULES if not r.default and r.group != "preflight"]
    head = "DEFAULT_OFF = {"
    lines, line = [], head
    for i, entry in enumerate(entries):
        piece = entry + ("}" if i == len(entries) - 1 else ",")
        if line != head and len(line) + 1 + len(piece) > 119:
            lines.append(line)
            line = " " * len(head) + piece
        else:
            line += ("" if line == head else " ") + piece
    return "\n".join(lines + [line if entries else head + "}"]) + "\n"


def main(argv=None) -> int:
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    stale = []
    expected = outputs()
    for path, text in expected.items():
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path.relative_to(ROOT)))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if not check:
        for old in DOCS.glob("NPP*.md"):
            if old not in expected:
                old.unlink()
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python tools/gen_docs.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
