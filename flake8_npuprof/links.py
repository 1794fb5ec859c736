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

import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, Optional

DISTRIBUTION = "flake8-npuprof"
HOME_LABELS = ("homepage", "home", "source", "repository", "documentation")    # the first one found
RULES_LABEL = "rules"


def _label(text: str) -> str:
    """PEP 753's normalisation of a [project.urls] label: lower case, no punctuation or spaces."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@lru_cache(maxsize=None)
def project_urls() -> Dict[str, str]:
    """{normalised label: URL} of the installed distribution (empty when it has none, or is not installed)."""
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
