"""flake8 report formatters: `flake8 --format=npuprof-sarif` and `flake8 --format=npuprof-github`.

They take every code flake8 reports, not only NPP: a CI job runs flake8 once and uploads one
SARIF file or gets one set of annotations. NPP codes carry the catalog's rule metadata and
levels; other codes get a generic rule entry.
"""

from __future__ import annotations

import linecache
import os
from typing import TYPE_CHECKING, List

import flake8
from flake8.formatting.base import BaseFormatter
from flake8.violation import Violation


if TYPE_CHECKING:
    from .report.ci import Problem

# flake8 imports every report formatter on every run, whichever format is chosen: the SARIF and
# GitHub machinery (ci_formats, and through it the rule catalog) is imported only when used.


def _line_text(error: Violation) -> str:
    if error.physical_line is not None:
        return error.physical_line
    return linecache.getline(error.filename, error.line_number)


class SarifFormatter(BaseFormatter):
    """Collects the violations and writes one SARIF log when flake8 is done."""

    def after_init(self) -> None:
        self.problems: List[Problem] = []

    def start(self) -> None:
        # flake8 opens --output-file for appending; a second run would then leave two JSON
        # documents in one file, which no SARIF reader accepts.
        if self.filename:
            os.makedirs(os.path.dirname(os.path.abspath(self.filename)), exist_ok=True)
            self.output_fd = open(self.filename, "w", encoding="utf-8")

    def handle(self, error: Violation) -> None:
        from .report.ci import Problem, region
        self.problems.append(Problem(error.filename, error.code, error.text,
                                     region(error.line_number, error.column_number - 1),
                                     _line_text(error)))

    def format(self, error: Violation) -> None:
        return None                     # handle() collects; nothing is printed per violation

    # --statistics / --benchmark lines would corrupt the JSON document.
    def show_statistics(self, statistics) -> None:
        pass

    def show_benchmarks(self, benchmarks) -> None:
        pass

    def stop(self) -> None:
        from .report.ci import dumps, sarif_log, tool_component
        driver = {"name": "flake8", "version": flake8.__version__}      # (no address: only our own are given)
        reporters = _reporters({p.code for p in self.problems if not p.code.startswith("NPP")})
        self._write(dumps(sarif_log(self.problems, driver, [tool_component("flake8-npuprof")], reporters)))
        super().stop()


# codes flake8 reports itself: a file it cannot read (E902) or parse (E999)
FLAKE8_OWN = ("E902", "E999")


def _reporters(codes) -> dict:
    """Each code's plugin and version, as flake8's plugin list names them ("pyflakes 3.2.0"): the plugin whose
    code prefix is the longest that the code starts with. Empty where flake8 does not say."""
    if not codes:
        return {}
    try:
        import configparser
        from flake8.plugins import finder
        plugins = [p for p in finder.find_plugins(configparser.RawConfigParser(), finder.PluginOptions.blank())
                   if p.entry_point.group == "flake8.extension"]
    except Exception:                   # another flake8's internals: no names rather than no report
        return {}
    out = {}
    for code in codes:
        if code in FLAKE8_OWN:
            out[code] = f"flake8 {flake8.__version__}"
            continue
        owners = [p for p in plugins if code.startswith(p.entry_point.name)]
        if owners:
            owner = max(owners, key=lambda p: len(p.entry_point.name))
            out[code] = f"{owner.package} {owner.version}"
    return out


class GithubFormatter(BaseFormatter):
    """One `::error`/`::warning`/`::notice` workflow command per violation."""

    def format(self, error: Violation) -> str:
        from .report.ci import workflow_command
        return workflow_command(error.code, error.filename, error.text, error.line_number, error.column_number)

    def show_source(self, error: Violation) -> str:
        return ""                       # a source line starting with "::" would read as a command
