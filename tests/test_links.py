"""Links that work (issue 28, item 3): a rule's page only under the project's own address ([project.urls]),
or no link at all; a helpUri for every SARIF rule when there is one. Any other address in a link field of
any front-end's output fails here."""

import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

import pytest

from flake8_npuprof import links
from flake8_npuprof.checks.catalog import RULES
from flake8_npuprof.cli import main
from flake8_npuprof import lsp_analysis as A

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "examples" / "mistakes" / "typos_in_options.py"
OWN = {"homepage": "https://npuprof.example/", "rules": "https://npuprof.example/rules/{code}.html"}
# The fields of SARIF and LSP that are links a user follows (SARIF's $schema names the format, it is not one).
LINK_FIELDS = ("informationUri", "helpUri", "downloadUri", "href")
MARKDOWN_LINK = re.compile(r"\]\(([^)]+)\)")


def link_values(node, out=None):
    out = [] if out is None else out
    if isinstance(node, dict):
        for key, value in node.items():
            if key in LINK_FIELDS and isinstance(value, str):
                out.append(value)
            link_values(value, out)
    elif isinstance(node, list):
        for value in node:
            link_values(value, out)
    return out


def foreign(urls, own=()):
    """The addresses that are not the project's own: not under one of its [project.urls], and not a file: URI
    of a page that exists in this source tree."""
    bad = []
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme == "file":
            path = Path(url2pathname(parts.path))
            if path.is_file() and ROOT in path.parents:
                continue
        elif any(url.startswith(base.split("{code}")[0]) for base in own):
            continue
        bad.append(url)
    return bad


@pytest.fixture
def own_urls(monkeypatch):
    monkeypatch.setattr(links, "project_urls", lambda: dict(OWN))
    A._default_rule_url.cache_clear()
    yield
    A._default_rule_url.cache_clear()


def sarif(capsys):
    assert main(["check", "--format", "sarif", str(BAD)]) == 1
    return json.loads(capsys.readouterr().out)


def flake8_sarif(tmp_path, extra_env=None):
    out = tmp_path / "flake8.sarif"
    subprocess.run([sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", "--format=npuprof-sarif",
                    f"--output-file={out}", str(BAD)], capture_output=True, text=True)
    return json.loads(out.read_text())


def test_this_repository_has_no_web_address_so_nothing_links_to_one(capsys, tmp_path):
    assert links.project_urls() == {}           # pyproject.toml has no [project.urls]: no link may be guessed
    log = sarif(capsys)
    assert foreign(link_values(log)) == [] and link_values(log) == []
    assert all("helpUri" not in r for r in log["runs"][0]["tool"]["driver"]["rules"])
    assert link_values(flake8_sarif(tmp_path)) == []
    # the language server: the page in this source tree, which exists
    url = A.rule_url("NPP101", A.Overrides())
    assert url == (ROOT / "docs" / "rules" / "NPP101.md").as_uri() and foreign([url]) == []


def test_with_the_projects_own_address_every_rule_links_its_page(capsys, own_urls, monkeypatch):
    log = sarif(capsys)
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://npuprof.example/"
    assert [r["helpUri"] for r in driver["rules"]] == [f"https://npuprof.example/rules/{r.code}.html" for r in RULES]
    assert foreign(link_values(log), OWN.values()) == []
    assert A.rule_url("NPP101", A.Overrides()) == "https://npuprof.example/rules/NPP101.html"
    hover = A.finding_hover(A.analyse_document(BAD.read_text(), str(BAD), "python", A.doc_settings(
        str(BAD), A.Overrides(), A.ConfigCache())).findings[0], A.Overrides())
    assert MARKDOWN_LINK.findall(hover) == ["https://npuprof.example/rules/NPP101.html"]


def test_the_check_fails_on_an_address_that_is_not_the_projects_own():
    assert foreign(["https://pypi.org/project/flake8-npuprof/"], OWN.values()) == \
        ["https://pypi.org/project/flake8-npuprof/"]
    assert foreign([(ROOT / "docs" / "rules" / "NPP999.md").as_uri()]) != []        # a page that is not there


METADATA = ("Metadata-Version: 2.1\nName: flake8-npuprof\nVersion: 0.1.0\n"
            "Project-URL: Home-page, https://npuprof.example/\n"
            "Project-URL: Rules, https://npuprof.example/rules/{code}.html\nProject-URL: Chat, irc://example\n"
            "Summary: a long\n  folded line\n\nProject-URL: Body, https://not.a.header/\n")
OWN_READ = {"homepage": "https://npuprof.example/", "rules": "https://npuprof.example/rules/{code}.html"}


@pytest.mark.parametrize("folder", ["flake8_npuprof-0.1.0.dist-info/METADATA", "flake8_npuprof.egg-info/PKG-INFO"])
def test_the_projects_urls_come_from_its_metadata(monkeypatch, tmp_path, folder):
    # read from the distribution's folder on sys.path, where importlib.metadata finds it too, and agreeing with it
    import importlib.metadata
    (tmp_path / folder).parent.mkdir()
    (tmp_path / folder).write_text(METADATA, encoding="utf-8")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(tmp_path)] + sys.path)
    links.project_urls.cache_clear()
    try:
        assert links.project_urls() == OWN_READ
        assert links.home() == "https://npuprof.example/"
        assert links.rule_page("NPP101") == "https://npuprof.example/rules/NPP101.html"
        assert links._project_url_headers() == importlib.metadata.metadata("flake8-npuprof").get_all("Project-URL")
    finally:
        links.project_urls.cache_clear()


def test_a_distribution_outside_a_folder_is_asked_of_importlib_metadata(monkeypatch):
    class Meta:
        def get_all(self, name):
            assert name == "Project-URL"
            return ["Home-page, https://npuprof.example/", "Rules, https://npuprof.example/rules/{code}.html",
                    "Chat, irc://example"]
    monkeypatch.setattr(links, "_project_url_headers", lambda: None)
    monkeypatch.setattr("importlib.metadata.metadata", lambda name: Meta())
    links.project_urls.cache_clear()
    try:
        assert links.project_urls() == OWN_READ
    finally:
        links.project_urls.cache_clear()


def test_docs_name_no_package_index_page():
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        assert "pypi.org" not in page.read_text(encoding="utf-8"), page
