"""Generate docs/rules/*.md and the README rule table from the rule catalog.

Run `python tools/gen_docs.py` after editing a rule's page (the RULES at the end of its module in
flake8_npuprof/checks/, gathered by checks/catalog.py); tests/test_docs.py fails when the committed
docs drift from the catalog.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flake8_npuprof.checks.catalog import RULES, render  # noqa: E402

DOCS = ROOT / "docs" / "rules"
README = ROOT / "README.md"
START, END = "<!-- rules:start -->", "<!-- rules:end -->"
GROUPS = {"wiring": "NPP0xx: does the setting reach the runtime?", "options": "NPP1xx: the options JSON",
          "msprof": "NPP12x: msprof command lines",
          "hygiene": "NPP2xx: hygiene", "preflight": "NPP9xx: environment preflight"}


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
    for group, title in GROUPS.items():
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
    return files


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
