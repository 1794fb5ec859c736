"""Every suggested replacement is itself clean (issue 11): applying any one fix that a finding
offers adds no finding of another kind, and each catalog rule's "Use instead" example is clean."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from evalfiles import all_files, parse_options
from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.checks.catalog import RULES
from flake8_npuprof.checks.options import check_options
from flake8_npuprof.engine.fix import apply_edits
from flake8_npuprof.source.files import DEFAULT_OFF
from flake8_npuprof.knowledge.targets import Target

ROOT = Path(__file__).resolve().parent.parent


def _rule_settings(rule) -> Settings:
    s = dict(rule.settings)
    return Settings(target=Target.parse(s.get("cann", "any"), s.get("soc", "any")))


def _cases():
    for rule in RULES:
        if rule.code != "NPP000":
            yield f"catalog:{rule.code}", rule.example, _rule_settings(rule)
    for ef in all_files():
        opts = parse_options(ef.options)
        target = Target.parse(opts.get("npuprof-cann", "any"), opts.get("npuprof-soc", "any"))
        yield f"eval:{ef.path.name}", ef.path.read_text(encoding="utf-8"), Settings(target=target)
    for path in sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "tests" / "fix_pairs").glob("*.in.py")):
        yield f"file:{path.name}", path.read_text(encoding="utf-8"), Settings()


CASES = list(_cases())


def _on(code: str) -> bool:
    return code not in DEFAULT_OFF


def _with_held_back(text, settings):
    """The findings, with those a fatal one holds back (later runtime behaviour) counted as well:
    fixing the fatal one reveals them, which is not a finding the fix introduced."""
    from flake8_npuprof.checks import options
    saved = options.LATER
    options.LATER = frozenset()
    options._cached.cache_clear()
    try:
        return analyse(text, None, "t.py", settings)
    finally:
        options.LATER = saved
        options._cached.cache_clear()


@pytest.mark.parametrize("name, text, settings", CASES, ids=[c[0] for c in CASES])
def test_each_fix_introduces_no_other_finding(name, text, settings):
    before = analyse(text, None, "t.py", settings)
    counts = Counter(f.code for f in _with_held_back(text, settings) if _on(f.code))
    for finding in [f for f in before if f.fix is not None]:
        new = apply_edits(text, finding.fix.edits)
        after = Counter(f.code for f in analyse(new, None, "t.py", settings) if _on(f.code))
        added = {code: n - counts[code] for code, n in after.items() if n > counts[code]}
        assert not added, (finding.code, finding.fix.title, added)


@pytest.mark.parametrize("rule", [r for r in RULES if r.code != "NPP000"], ids=[r.code for r in RULES if r.code != "NPP000"])
def test_use_instead_example_has_no_default_finding(rule):
    if rule.language == "shell":        # a launcher (read as Python it would be one NPP192)
        from flake8_npuprof.checks.shell_env import analyse_shell
        found = [f for f in analyse_shell(rule.fixed, "t.sh", _rule_settings(rule)) if _on(f.code)]
    elif rule.language == "yaml":       # a MindFormers run configuration
        from flake8_npuprof.checks.mindformers import check_file
        found = [f for f in check_file(rule.fixed, "t.yaml") if _on(f.code)]
    else:
        found = [f for f in analyse(rule.fixed, None, "t.py", _rule_settings(rule)) if _on(f.code)]
    assert found == []


@pytest.mark.parametrize("options", ["training_trace:task_trace", "task_trace", "{'output': './p', 'task_trace': 'on'}"])
def test_hint_examples_in_messages_are_clean(options):
    (issue,) = [i for i in check_options(options, Target()).issues if i.code == "NPP100"]
    for example in re.findall(r"(\{.*?\})(?:;|$| )", issue.message):
        if example.startswith('{"') and ":" in example:
            assert check_options(example, Target()).issues == [], example
