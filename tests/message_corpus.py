"""The committed corpora whose messages issue 28 (item 4) measures: the eval files (each with its own
target), the examples (every target) and the real options strings (`validate`, every target).

`messages()` yields one row per finding: where it is (corpus, file, line, column, code), the target it
was judged for, and the finding itself, so a test can compare what a front-end shows with a snapshot."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Iterator, NamedTuple

from evalfiles import all_files, parse_options
from flake8_npuprof.engine.run import check_text
from flake8_npuprof.commands.validate import _findings as options_findings
from flake8_npuprof.knowledge.run_settings import Settings
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.source.files import Selection, split_codes
from flake8_npuprof.source.model import Finding

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TARGETS = ("any", "portable", "7.0", "8.0", "8.5", "9.0", "9.1")
EVERY_CODE = Selection(select=("NPP",), extend_select=("NPP2", "NPP9"), explicit_select=True)


class Row(NamedTuple):
    corpus: str
    file: str
    line: int
    col: int
    code: str
    target: str
    finding: Finding


def _eval_rows() -> Iterator[Row]:
    for ef in all_files():
        opts = parse_options(ef.options)
        cann, soc = opts.get("npuprof-cann", "any"), opts.get("npuprof-soc", "any")
        selection = Selection(select=split_codes(opts.get("select")) or ("NPP",),
                              extend_select=split_codes(opts.get("extend-select")))
        text = ef.path.read_text(encoding="utf-8")
        for f in check_text(str(ef.path), text, "python", Settings(target=Target.parse(cann, soc)), selection):
            yield Row("eval", ef.path.name, f.line, f.col, f.code, f"{cann}/{soc}", f)


def _example_rows() -> Iterator[Row]:
    for path in sorted((ROOT / "examples").rglob("*")):
        if path.suffix not in (".py", ".sh"):
            continue
        text = path.read_text(encoding="utf-8")
        kind = "shell" if path.suffix == ".sh" else "python"
        for cann in TARGETS:
            for f in check_text(str(path), text, kind, Settings(target=Target.parse(cann, "any")), EVERY_CODE):
                yield Row("examples", path.relative_to(ROOT).as_posix(), f.line, f.col, f.code, cann, f)


def _options_rows() -> Iterator[Row]:
    with open(HERE / "data" / "real_options_strings.tsv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    for row in rows:
        for cann in TARGETS:
            for f in options_findings(row["options_string"], Target.parse(cann, "any")):
                yield Row("options", row["where"], f.line, f.col, f.code, cann, f)


def messages() -> Iterator[Row]:
    yield from _eval_rows()
    yield from _example_rows()
    yield from _options_rows()
