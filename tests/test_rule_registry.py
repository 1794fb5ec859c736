"""A rule is one page and one check: added in a test (tests/registry_rule.py, NPP299, a code no table of the
package names), it is reported, described and fixed by every front-end: the text, JSON, SARIF and GitHub
reports of `npuprof check`, `npuprof fix`, `npuprof explain`, the flake8 plugin and its SARIF formatter, and
the language server's diagnostics, hover and quick fix."""

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

import registry_rule as R
from flake8_npuprof.checks.rule import render
from flake8_npuprof.cli import main

TESTS = Path(__file__).resolve().parent
HAVE_PYGLS = importlib.util.find_spec("pygls") is not None
LINE = R.EXAMPLE.splitlines()[6]
COL = LINE.index(R.MARKER)          # 0-based
SHOWN = f"x.py:7:{COL + 1}: {R.CODE} {R.MESSAGE} (fixable: npuprof fix)"


@pytest.fixture
def project(tmp_path, monkeypatch):
    from flake8_npuprof.plugin import NpuProfChecker
    R.install(monkeypatch)
    for name in ("settings", "selected"):           # what flake8's parse_options sets on the class
        monkeypatch.setattr(NpuProfChecker, name, getattr(NpuProfChecker, name))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.py").write_text(R.EXAMPLE)
    return tmp_path


def run(capsys, *argv):
    code = main(["check", "--no-cache", *argv] if argv[0] not in ("fix", "explain") else list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_text_report(project, capsys):
    code, out, err = run(capsys, "x.py")
    assert code == 1 and out.splitlines()[0] == SHOWN, (out, err)
    assert run(capsys, "--select", R.CODE, "x.py")[1].splitlines()[0] == SHOWN    # a code the user may name
    assert run(capsys, "--ignore", R.CODE, "x.py")[0] == 0


def test_the_json_report(project, capsys):
    code, out, _ = run(capsys, "--format", "json", "x.py")
    [finding] = [f for f in json.loads(out) if f["code"] == R.CODE]
    assert (finding["location"], finding["message"]) == ({"line": 7, "column": COL + 1}, R.MESSAGE)
    assert finding["fix"]["applicability"] == "safe" and finding["doc"] == f"npuprof explain {R.CODE}"


def _sarif_parts(log):
    [run_] = log["runs"]
    [result] = [r for r in run_["results"] if r["ruleId"] == R.CODE]
    descriptor = run_["tool"]["driver"]["rules"][result["ruleIndex"]]
    return result, descriptor


def _check_sarif(log, message=R.MESSAGE):
    result, descriptor = _sarif_parts(log)
    assert descriptor["id"] == R.CODE and descriptor["name"] == R.RULE.name
    assert descriptor["defaultConfiguration"] == {"level": "warning"}
    assert descriptor["properties"]["tags"] == ["npuprof", "hygiene", "maintainability"]
    assert descriptor["help"]["markdown"] == render(R.RULE)
    assert result["level"] == "warning" and result["message"]["text"] == message
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 7
    return result


def test_the_sarif_report_of_npuprof(project, capsys):
    code, out, err = run(capsys, "--format", "sarif", "x.py")
    result = _check_sarif(json.loads(out))
    assert result["fixes"][0]["description"]["text"] == "remove the marker"


def test_the_sarif_report_of_flake8(project, capsys):
    from flake8.main.cli import main as flake8_main
    flake8_main(["--select", "NPP", "--format=npuprof-sarif", "--jobs", "1", "x.py"])
    # flake8 hands the formatter its one-line message, the fix's command included
    _check_sarif(json.loads(capsys.readouterr().out), R.MESSAGE + " (fixable: npuprof fix)")


def test_the_flake8_plugin(project, capsys):
    from flake8.main.cli import main as flake8_main
    flake8_main(["--select", "NPP", "--jobs", "1", "x.py"])
    assert capsys.readouterr().out.splitlines() == [SHOWN]


def test_the_github_annotations(project, capsys):
    code, out, _ = run(capsys, "--format", "github", "x.py")
    [line] = [x for x in out.splitlines() if R.CODE in x]
    assert line == (f"::warning file=x.py,line=7,col={COL + 1},endLine=7,endColumn={COL + 1 + len(R.MARKER)},"
                    f"title={R.CODE} {R.RULE.name}::{R.MESSAGE} (fixable: npuprof fix)")


def test_fix_and_explain(project, capsys):
    assert run(capsys, "fix", "x.py")[0] == 0
    assert (project / "x.py").read_text() == R.FIXED
    code, out, _ = run(capsys, "explain", R.CODE)
    assert code == 0 and out == render(R.RULE)
    assert run(capsys, "explain", R.RULE.name)[1] == out
    assert f"{R.CODE}  {R.RULE.name}" in run(capsys, "explain", "--list")[1].splitlines()


BOOT = ("import sys; sys.path.insert(0, {tests!r}); import registry_rule; registry_rule.install(); "
        "from flake8_npuprof.cli import main; sys.exit(main(['server']))")


@pytest.mark.skipif(not HAVE_PYGLS, reason="pygls not installed (pip install 'pygls>=2.0,<3')")
def test_the_language_server(tmp_path):
    from lspclient import LspClient
    client = LspClient(cwd=str(tmp_path), command=[sys.executable, "-c", BOOT.format(tests=str(TESTS))],
                       env=dict(os.environ))
    try:
        client.initialize(tmp_path)
        uri = client.open(tmp_path / "x.py", R.EXAMPLE)
        [diag] = client.diagnostics(uri, 1)
        assert (diag["code"], diag["severity"], diag["message"]) == (R.CODE, 2, R.MESSAGE)      # 2: Warning
        assert diag["tags"] == [1]                  # Unnecessary: the page's tags
        assert diag["range"] == {"start": {"line": 6, "character": COL},
                                 "end": {"line": 6, "character": COL + len(R.MARKER)}}
        hover = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                      "position": {"line": 6, "character": COL + 2}})
        assert hover["contents"]["value"].startswith(f"**{R.CODE}** `{R.RULE.name}`")
        actions = client.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}})
        fix = next(a for a in actions if a["kind"] == "quickfix" and "noqa" not in a["title"])
        assert fix["title"].startswith("remove the marker") or "remove the marker" in fix["title"]
        assert client.close() == 0
        assert b"Traceback" not in b"".join(client.stderr)
    finally:
        client.kill()


def test_no_table_outside_the_rules_names_codes():
    # what the package knows about a code is on its page; outside checks/ a literal that lists codes is one
    # of these two (the runtime's own texts per code stay in data/collection.json: facts about the runtime)
    import ast
    import re
    package = TESTS.parent / "flake8_npuprof"
    found = {}
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(package).as_posix()
        if name.startswith("checks/"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Dict, ast.Set, ast.Tuple, ast.List)):
                items = node.keys if isinstance(node, ast.Dict) else node.elts
                codes = [x.value for x in items if isinstance(x, ast.Constant) and isinstance(x.value, str)
                         and re.fullmatch(r"NPP\d{3}", x.value)]
                if len(codes) > 1:
                    found[name] = codes
    from flake8_npuprof.source.files import DEFAULT_OFF
    assert found == {
        "source/files.py": list(DEFAULT_OFF),       # tools/gen_docs.py writes it from the pages
        "lsp_analysis.py": ["NPP000", "NPP192"],    # not offered a noqa: the file was not checked
    }
