"""check, the flake8 plugin and emulate hold one picture of each setup (issue 11).

Every example (examples/), every eval file (tests/eval_files/) and every emulate fixture goes
through the three front-ends. The plugin and `npuprof check` must give the same findings; each finding that states
a setup's state (NPP001 not switched on, NPP006 never passed, NPP012 too late) must sit in a setup
that emulate calls off for that reason; no finding in a setup emulate calls off may claim that the
job aborts now, and a finding worded as latent must sit in a setup that is off.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from evalfiles import all_files, parse_options
from flake8_npuprof.checks.analysis import Context, Settings, analyse
from flake8_npuprof.checks.options import ABORT
from flake8_npuprof.emulate.script import base_env, emulate_text
from flake8_npuprof.setups.inventory import Inventory, shell_setups
from flake8_npuprof.plugin import NpuProfChecker
from flake8_npuprof.checks.shell_env import analyse_shell
from flake8_npuprof.source.text import SourceText
from flake8_npuprof.setups.state import from_setup
from flake8_npuprof.knowledge.targets import Target

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.py")) + sorted((ROOT / "examples").rglob("*.sh"))
EVALS = {ef.path: ef.options for ef in all_files()}
EMULATE_DATA = sorted((ROOT / "tests" / "data" / "emulate").glob("*.py")) + \
    sorted((ROOT / "tests" / "data" / "emulate").glob("*.sh")) + [ROOT / "tests" / "data" / "launcher_mistakes.sh"]
PROJECTS = sorted((ROOT / "tests" / "data" / "projects").rglob("*.py")) + \
    sorted((ROOT / "tests" / "data" / "projects").rglob("*.sh"))         # values from sibling modules (issue 12)
FILES = EXAMPLES + sorted(EVALS) + EMULATE_DATA + PROJECTS

# a finding with one of these codes says the setup it sits in is off, and why
STATE_CODES = {"NPP001": ("not_switched", "switch"), "NPP006": ("never_passed",), "NPP012": ("late",)}


def _target(path: Path) -> Target:
    opts = parse_options(EVALS.get(path, ()))
    return Target.parse(opts.get("npuprof-cann", "any"), opts.get("npuprof-soc", "any"))


def _node_lines(tree: ast.AST):
    out = {}
    for node in ast.walk(tree):
        if hasattr(node, "lineno"):
            out[id(node)] = (node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno)
    return out


def _setups_at(setups, lines, line):
    """The setups one of whose nodes spans `line`."""
    found = []
    for s in setups:
        spans = [lines[i] for i in s.nodes if i in lines]
        if any(a <= line <= b for a, b in spans):
            found.append(s)
    return found


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_check_flake8_and_emulate_agree(path: Path, tmp_path):
    text = path.read_text(encoding="utf-8")
    target = _target(path)
    settings = Settings(target=target)
    kind = "shell" if path.suffix == ".sh" else "python"
    results = emulate_text(text, kind, str(path), target, str(tmp_path), base_env(False, {}))
    if kind == "shell":
        findings = analyse_shell(text, str(path), settings)
        (setup,) = shell_setups(text) or (None,)
        state = from_setup(setup) if setup is not None else None
        for f in findings:
            if state is not None and state.latent:
                assert ABORT not in f.message, f
            assert not f.message.startswith("latent") or (state is not None and state.latent), f
            assert f.code != "NPP001" or state is None or state.why != "switch", f
        return
    tree = ast.parse(text)
    findings = analyse(text, tree, str(path), settings)
    # the flake8 plugin says exactly what check says
    checker = NpuProfChecker(tree, text.splitlines(keepends=True), str(path))
    checker.settings = settings
    checker.selected = ("NPP",) + tuple(f.code for f in findings)
    plugin = sorted((line, col, re.sub(r" \(fixable: [^)]*\)$", "", message))
                    for line, col, message, _ in checker.run())
    assert plugin == sorted((f.line, f.col, f"{f.code} {f.message}") for f in findings)
    # one model: the same setups, in the same state, as emulate sees them
    ctx = Context(SourceText(text), tree, str(path), settings)
    model = ctx.model
    inventory = Inventory(ctx)
    assert [(s.route, s.line, s.column, s.delivered, s.mode.state) for s in model.setups] == \
        [(s.route, s.line, s.column, s.delivered, s.mode.state) for s in inventory.setups]
    by_place = {(r.setup.route, r.setup.line, r.setup.column): r for r in results}
    assert set(by_place) == {(s.route, s.line, s.column) for s in model.setups}
    lines = _node_lines(tree)
    for f in findings:
        here = _setups_at(model.setups, lines, f.line)
        states = [model.states[model.setups.index(s)] for s in here]
        verdicts = [by_place[(s.route, s.line, s.column)].verdict for s in here]
        if f.code == "NPP012":
            # one setting after npu.open(): the same execution order marks it late in the model
            assert f.line in {lines[i][0] for i in model.late if i in lines}, f
        elif f.code in STATE_CODES and f.code != "NPP001" and here:
            # never passed / too late: emulate calls the same setup off, for the same reason
            assert any(st.why in STATE_CODES[f.code] and v == "off" for st, v in zip(states, verdicts)), \
                (f, states, verdicts)
        if f.code == "NPP001" and here:
            assert any(s.mode.state == "off" for s in here), (f, [s.mode for s in here])
        if here and all(st.latent for st in states):
            assert ABORT not in f.message, f            # GE does not read these options now
        if f.message.startswith("latent"):
            assert here and any(st.latent for st in states), (f, states)


PY_FILES = [p for p in FILES if p.suffix == ".py"]


@pytest.mark.parametrize("path", PY_FILES, ids=[str(p.relative_to(ROOT)) for p in PY_FILES])
def test_crlf_endings_give_the_same_findings(path: Path):
    # check reads a CRLF file as it is; flake8 hands the plugin lines with universal newlines
    text = path.read_text(encoding="utf-8")
    crlf = text.replace("\n", "\r\n")
    settings = Settings(target=_target(path))
    lf_findings = analyse(text, ast.parse(text), str(path), settings)
    crlf_findings = analyse(crlf, ast.parse(crlf), str(path), settings)
    assert [(f.line, f.col, f.code) for f in crlf_findings] == [(f.line, f.col, f.code) for f in lf_findings]
