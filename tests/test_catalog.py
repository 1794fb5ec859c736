"""Every rule has its page, and every page's example does what the page says."""

import ast
import re
from pathlib import Path

import pytest

from flake8_npuprof.checks import catalog
from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.checks.catalog import BY_CODE, RULES, render
from flake8_npuprof.checks.shell_env import analyse_shell
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.source.files import DEFAULT_OFF

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
    return Settings(target=Target.parse(opts.get("cann", "any"), opts.get("soc", "any"), opts.get("torch-npu", "any")),
                    preflight=rule.group == "preflight",
                    graph=str(GRAPHS / opts["graph"]) if "graph" in opts else None)


def _codes(rule, text):
    if rule.language == "yaml":             # a MindFormers run configuration, checked as `npuprof check` reads it
        from flake8_npuprof.checks.run_configs import check_file as check_yaml
        return {f.code for f in check_yaml(text, "finetune.yaml")}
    if rule.language == "json":             # a dynamic-profiling file, checked as `npuprof check` reads it
        from flake8_npuprof.checks.dynamic_files import check_file
        return {f.code for f in check_file(text, "profiler_config.json", _settings(rule))}
    if rule.language == "shell":
        # the launcher's own lines, then the launcher as check walks it, beside the script it starts
        # (checks/launcher_switch.py: EXAMPLE_SCRIPT, as src/train.py of a model-zoo project)
        import tempfile
        from flake8_npuprof.checks.launcher_switch import EXAMPLE_SCRIPT
        from flake8_npuprof.engine.run import check_shell as check_file
        codes = {f.code for f in analyse_shell(text, "example.sh", _settings(rule))}
        with tempfile.TemporaryDirectory() as root:
            (Path(root) / "test").mkdir()
            (Path(root) / "src").mkdir()
            (Path(root) / "src" / "train.py").write_text(EXAMPLE_SCRIPT)
            path = Path(root) / "test" / "example.sh"
            path.write_text(text)
            return codes | {f.code for f in check_file(text, str(path), _settings(rule))}
    return {f.code for f in analyse(text, None, "example.py", _settings(rule))}


@pytest.mark.parametrize("rule", [r for r in RULES if r.code != "NPP000"],
                         ids=[r.code for r in RULES if r.code != "NPP000"])
def test_example_fires_and_fixed_example_does_not(rule):
    assert rule.code in _codes(rule, rule.example)
    fixed = _codes(rule, rule.fixed)
    assert rule.code not in fixed
    assert not {c for c in fixed if BY_CODE[c].default}, fixed


# ---------------------------------------------------------------- each page lives next to the check that reports it

CHECKS = Path(__file__).resolve().parent.parent / "flake8_npuprof" / "checks"


def _reported(path: Path) -> set:
    """The NPP codes a check module names outside its RULES (the codes its checks report)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pages = [n for n in tree.body if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "RULES" for t in n.targets)]
    inside = {id(n) for page in pages for n in ast.walk(page)}
    return {n.value for n in ast.walk(tree) if id(n) not in inside and isinstance(n, ast.Constant)
            and isinstance(n.value, str) and re.fullmatch(r"NPP\d{3}", n.value)}


def test_no_code_is_documented_twice():
    codes = [r.code for module in catalog.MODULES for r in module.RULES]
    assert len(codes) == len(set(codes)) == len(RULES)


@pytest.mark.parametrize("module", catalog.MODULES, ids=[m.__name__.rpartition(".")[2] for m in catalog.MODULES])
def test_a_module_documents_only_codes_it_reports(module):
    documented = {r.code for r in module.RULES}
    assert documented <= _reported(Path(module.__file__)), documented - _reported(Path(module.__file__))


def test_every_code_a_check_reports_has_a_page():
    reported = set().union(*(_reported(p) for p in CHECKS.glob("*.py")))
    assert reported == set(BY_CODE)


def test_every_module_with_pages_is_gathered():
    with_pages = {p.stem for p in CHECKS.glob("*.py") if re.search(r"^RULES = \(", p.read_text(encoding="utf-8"), re.M)}
    assert with_pages == {m.__name__.rpartition(".")[2] for m in catalog.MODULES}


def test_the_rules_off_by_default_are_the_ones_selection_holds_back():
    # source/files.py keeps its own copy (flake8 reads it at startup, without importing the rules)
    expected = {r.code: r.enabled_by for r in RULES if not r.default and r.group != "preflight"}
    assert DEFAULT_OFF == expected, (
        "DEFAULT_OFF in flake8_npuprof/source/files.py is a copy of the rules' pages (default=False, enabled_by): "
        f"run `python tools/gen_docs.py`, which rewrites it to {expected!r}")


@pytest.mark.parametrize("rule", RULES, ids=[r.code for r in RULES])
def test_the_page_holds_the_rules_metadata(rule):
    from flake8_npuprof.checks.rule import GROUPS, LEVELS, TAGS
    assert rule.level in LEVELS, f"{rule.code}: give its page a level, one of {LEVELS} (what the runtime does)"
    assert set(rule.tags) <= set(TAGS), f"{rule.code}: tags are among {TAGS}"
    assert rule.group in GROUPS, f"{rule.code}: group is one of {tuple(GROUPS)} (checks/rule.py GROUPS)"
    if rule.default or rule.group == "preflight":
        assert not rule.enabled_by, f"{rule.code}: enabled_by is only for a rule off by default"
    else:
        assert rule.enabled_by and rule.code.startswith(rule.enabled_by), \
            f"{rule.code}: off by default, so its page names the prefix that turns it on (enabled_by)"


def test_the_fatal_rules_are_the_options_judges():
    # checks/options.py reads FATAL from the pages of the options checks (its own and its PARTS'): a fatal
    # code documented elsewhere would be missed
    from flake8_npuprof.checks import options
    assert {r.code for r in RULES if r.fatal} == options.FATAL, \
        "a page marked fatal belongs in checks/options.py or a module of its PARTS, whose judge reports those codes"
    assert options.FATAL == {"NPP100", "NPP101", "NPP102", "NPP103", "NPP106", "NPP108", "NPP109",
                             "NPP112", "NPP113", "NPP115"}
