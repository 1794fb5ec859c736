"""Every rule has its page, and every page's example does what the page says."""

import re
from pathlib import Path

import pytest

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.checks.catalog import BY_CODE, RULES, render
from flake8_npuprof.checks.shell_env import analyse_shell
from flake8_npuprof.knowledge.targets import Target

RULES_MD = Path(__file__).resolve().parent / "data" / "RULES.md"
CONTRACT = sorted(set(re.findall(r"^\| (NPP\d{3}) \|", RULES_MD.read_text(encoding="utf-8"), re.M)))
GRAPHS = Path(__file__).resolve().parent / "data" / "emulate"


def test_every_contract_code_has_exactly_one_rule():
    assert [r.code for r in RULES] == CONTRACT


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_page_is_complete(rule):
    page = render(rule)
    for section in ("## What it finds", "## Why it matters on Ascend", "## Example", "## Use instead",
                    "## Fix safety"):
        assert section in page
    assert rule.fix_safety in ("safe", "unsafe", "sometimes", "none")
    assert re.match(r"^[a-z0-9]+(-[a-z0-9]+)*$", rule.name)
    assert rule.what and rule.why and rule.fix_note


def _settings(rule):
    opts = dict(rule.settings)
    return Settings(target=Target.parse(opts.get("cann", "any"), opts.get("soc", "any")),
                    preflight=rule.group == "preflight",
                    graph=str(GRAPHS / opts["graph"]) if "graph" in opts else None)


def _codes(rule, text):
    if rule.language == "shell":
        return {f.code for f in analyse_shell(text, "example.sh", _settings(rule))}
    return {f.code for f in analyse(text, None, "example.py", _settings(rule))}


@pytest.mark.parametrize("rule", [r for r in RULES if r.code != "NPP000"],
                         ids=[r.code for r in RULES if r.code != "NPP000"])
def test_example_fires_and_fixed_example_does_not(rule):
    assert rule.code in _codes(rule, rule.example)
    fixed = _codes(rule, rule.fixed)
    assert rule.code not in fixed
    assert not {c for c in fixed if BY_CODE[c].default}, fixed
