"""The project's own web addresses, and nothing else: `[project.urls]` of pyproject.toml, as the installed
package's metadata carries them (`Project-URL`).

A rule's page is linked only under a `Rules` entry, a template with `{code}`:

    [project.urls]
    Homepage = "https://example.org/flake8-npuprof"
    Rules = "https://example.org/flake8-npuprof/docs/rules/{code}.md"

Without one there is no web link at all (SARIF gets no helpUri, the language server's diagnostics no
href): a guessed address, such as a package-index page nobody registered, would be owned by whoever
registers it. The language server may still link the page in the source tree it runs from (a file: URI
to docs/rules/, which exists there), and an editor may give its own template (`ruleUrl`).
"""

from __future__ import annotations

import os
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional

DISTRIBUTION = "flake8-npuprof"
HOME_LABELS = ("homepage", "home", "source", "repository", "documentation")    # the first one found
RULES_LABEL = "rules"


def _label(text: str) -> str:
    """PEP 753's normalisation of a [project.urls] label: lower case, no punctuation or spaces."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@lru_cache(maxsize=None)
def project_urls() -> Dict[str, str]:
    """{normalised label: URL} of the installed distribution (empty when it has none, or is not installed)."""
    entries = _project_url_headers()
    if entries is None:                     # not in a folder on sys.path: wherever importlib.metadata finds it
        from importlib.metadata import PackageNotFoundError, metadata
        try:
            entries = metadata(DISTRIBUTION).get_all("Project-URL") or []
        except PackageNotFoundError:
            return {}
    out: Dict[str, str] = {}
    for entry in entries:
        label, _, url = entry.partition(",")
        url = url.strip()
        if url.startswith("https://") or url.startswith("http://"):
            out.setdefault(_label(label), url)
    return out


def _project_url_headers() -> Optional[List[str]]:
    """The Project-URL headers of the first `flake8_npuprof-*.dist-info` (or `.egg-info`) in a folder on sys.path,
    where importlib.metadata finds it first; None when no folder holds one. Read here because importing
    importlib.metadata (email, zipfile, csv) took 20 ms of the language server's first diagnostics."""
    wanted = _normal(DISTRIBUTION)
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:                     # a zip file, a folder that is gone
            continue
        for name in names:
            stem, ext = os.path.splitext(name)
            if ext not in (".dist-info", ".egg-info") or _normal(stem.split("-")[0]) != wanted:
                continue
            path = os.path.join(entry or ".", name)
            if os.path.isdir(path):
                path = os.path.join(path, "METADATA" if ext == ".dist-info" else "PKG-INFO")
            try:
                with open(path, encoding="utf-8") as fh:
                    return _headers(fh, "project-url")
            except (OSError, UnicodeDecodeError):
                continue
    return None


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _headers(lines, wanted: str) -> List[str]:
    """The values of one header of a core-metadata file (RFC 822 headers, up to the first blank line)."""
    values: List[str] = []
    name = ""
    for line in lines:
        line = line.rstrip("\r\n")
        if not line:
            break
        if line[0] in " \t":               # a folded line continues the header before it
            if name == wanted and values:
                values[-1] += " " + line.strip()
            continue
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == wanted:
            values.append(value.strip())
    return values


def home() -> Optional[str]:
    urls = project_urls()
    return next((urls[label] for label in HOME_LABELS if label in urls), None)


def rule_page(code: str) -> Optional[str]:
    """The web page of a rule under the project's own `Rules` URL, or None."""
    template = project_urls().get(RULES_LABEL)
    if not template or "{code}" not in template:
        return None
    return template.replace("{code}", code)


def local_rule_page(code: str) -> Optional[str]:
    """The rule's page in the source tree the package runs from (a file: URI), when it is there."""
    page = Path(__file__).resolve().parent.parent / "docs" / "rules" / f"{code}.md"
    return page.as_uri() if page.is_file() else None
