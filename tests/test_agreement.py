"""check, the flake8 plugin and emulate hold one picture of each setup (issues 11 and 25).

Every example (examples/), every eval file (tests/eval_files/), every emulate fixture and one synthetic case per
problem of issue 25 (tests/data/agreement/) goes through the three front-ends. The plugin and `npuprof check` must
give the same findings; each finding that states a setup's state (NPP001 not switched on, NPP006 never passed,
NPP012 too late) must sit in a setup that emulate calls off for that reason (or fails before GE starts); no
finding in a setup emulate calls off may claim that the job aborts now, and a finding worded as latent must sit
in a setup that is off; a finding says "not reached from this file's entry point" exactly where emulate says so.

Every shell launcher under examples/ and tests/ goes through `npuprof check` and `npuprof emulate` launch by
launch: an msprof line check says msprof refuses is a launch emulate fails, and the reverse; an options problem
check reports on what the launcher passes a script aborts that launch in emulate; a launcher's PROFILING_OPTIONS
are latent in check exactly where emulate shows GE does not read them (the script sets its own), and abort only
where a launch reads them.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from evalfiles import all_files, parse_options
from flake8_npuprof.checks.analysis import Context, Settings, analyse
from flake8_npuprof.checks.options import ABORT
from flake8_npuprof.emulate.script import base_env, emulate_text
from flake8_npuprof.setups.inventory import Inventory, shell_setups
from flake8_npuprof.shell.words import assignments
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
AGREEMENT = sorted((ROOT / "tests" / "data" / "agreement").rglob("*.py"))          # issue 25, one per problem
FILES = EXAMPLES + sorted(EVALS) + EMULATE_DATA + PROJECTS + AGREEMENT

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
        (setup,) = shell_setups(text, assignments(text)) or (None,)
        state = from_setup(setup) if setup is not None else None
        for f in findings:
            if state is not None and state.latent:
                assert ABORT not in f.message, f
            assert not f.message.startswith("latent") or (state is not None and state.latent), f
            assert f.code != "NPP001" or state is None or state.why != "switch", f
        return
    tree = ast.parse(text)
    findings = analyse(text, tree, str(path), settings)
    # the flake8 plugin says exactly what check says (its one line: the short message)
    checker = NpuProfChecker(tree, text.splitlines(keepends=True), str(path))
    checker.settings = settings
    checker.selected = ("NPP",) + tuple(f.code for f in findings)
    plugin = sorted((line, col, re.sub(r" \(fixable: [^)]*\)$", "", message))
                    for line, col, message, _ in checker.run())
    assert plugin == sorted((f.line, f.col, f"{f.code} {f.short}") for f in findings)
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
            # never passed / too late: emulate calls the same setup off, for the same reason, unless Python stops
            # at the setup's own line before any of that matters (issue 25: the failure is the verdict)
            stops = [by_place[(s.route, s.line, s.column)].stops for s in here]
            assert any(st.why in STATE_CODES[f.code] and (v == "off" or stop)
                       for st, v, stop in zip(states, verdicts, stops)), (f, states, verdicts)
        if f.code == "NPP001" and here:
            assert any(s.mode.state == "off" for s in here), (f, [s.mode for s in here])
        if here and all(st.latent for st in states):
            assert ABORT not in f.message, f            # GE does not read these options now
        if f.message.startswith("latent"):
            assert here and any(st.latent for st in states), (f, states)
        # code the entry point does not reach: check says so where emulate does, and claims no abort there
        unreached = [s for s in here if by_place[(s.route, s.line, s.column)].setup.reached is False]
        if f.message.startswith("not reached from this file's entry point"):
            assert ABORT not in f.message and all(by_place[(s.route, s.line, s.column)].verdict == "off"
                                                  for s in here), f
        if unreached and len(unreached) == len(here):
            assert f.message.startswith("not reached from this file's entry point"), f


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


# ---------------------------------------------------------------- launchers: check and emulate, launch by launch

LAUNCHERS = sorted((ROOT / "examples").rglob("*.sh")) + sorted((ROOT / "tests").rglob("*.sh"))
MSPROF_EXITS = "exits before the application starts"


@pytest.mark.parametrize("path", LAUNCHERS, ids=[str(p.relative_to(ROOT)) for p in LAUNCHERS])
def test_launcher_check_and_emulate_agree(path: Path):
    from flake8_npuprof.emulate.script import emulate_path
    from flake8_npuprof.emulate.sequence import env_read
    from flake8_npuprof.engine.run import check_shell as check_file
    text = path.read_text(encoding="utf-8")
    target = Target()
    findings = check_file(text, str(path), Settings(target=target))
    report = emulate_path(str(path), target, use_env=False, environ={})
    me = str(path.resolve())
    runs = [r for r in report.get("launches") or () if os.path.realpath(r.launch.command.path) == me]

    def run_at(line: int):
        """The launch whose command holds this line of the launcher (a command may go on over several lines)."""
        before = [r for r in runs if r.launch.command.line <= line]
        return max(before, key=lambda r: r.launch.command.line) if before else None

    msprof_lines = set()
    for f in findings:
        if f.code.startswith("NPP12") and MSPROF_EXITS in f.message:
            run = run_at(f.line)
            assert run is not None and run.launch.msprof is not None, f
            assert run.verdict in ("fails", "not run") or (run.verdict == "unknown" and run.launch.missing), (f, run)
            msprof_lines.add(run.index)
        if f.code == "NPP205":
            assert run_at(f.line) is not None and run_at(f.line).profiles, f      # the trap switches profiling on
        passed = re.search(r"\(passed to \S+ at line (\d+), read by", f.message)
        if passed and ABORT in f.message:
            run = run_at(int(passed.group(1)))
            assert run is not None and run.verdict in ("fails", "not run"), (f, run)
    for run in runs:
        own = [r for r in run.report["results"] if r.setup.route == "msprof"]
        if own and own[0].verdict == "fails":
            assert run.index in msprof_lines, run                # check reports the line msprof refuses
    # the launcher's own PROFILING_OPTIONS: latent exactly where no launch that inherits them has GE read them
    for s in assignments(text):
        if s.name != "PROFILING_OPTIONS":
            continue
        heirs = [r for r in runs if r.verdict != "not run" and not r.launch.command.conditional and not r.launch.app
                 and _inherits(r.launch, s, me)]
        reads = {env_read(r.report["results"]) if r.launch.script else None for r in heirs}
        mine = [f for f in findings if f.code.startswith("NPP1") and s.start <= f.start <= s.value.anchor_end]
        for f in mine:
            if "switches profiling on with its own options" in f.message:
                assert heirs and reads == {False}, (f, reads)
            elif f.message.startswith("if GE reads these options"):
                assert heirs and None in reads and True not in reads, (f, reads)
            elif ABORT in f.message and heirs:
                assert True in reads, (f, reads)


def _inherits(launch, assignment, me: str) -> bool:
    """Whether a launch gets this PROFILING_OPTIONS assignment of the launcher in its environment."""
    setting = launch.command.env.get("PROFILING_OPTIONS")
    return setting is not None and os.path.realpath(setting.path) == me and setting.start == assignment.start


def test_the_launcher_agreement_is_not_vacuous():
    """The synthetic launchers exercise each rule above at least once."""
    from flake8_npuprof.engine.run import check_shell as check_file
    data = ROOT / "tests" / "data" / "agreement"
    codes = {name: [(f.code, f.message.split(" ", 1)[0]) for f in
                    check_file((data / name / "run.sh").read_text(), str(data / name / "run.sh"), Settings())]
             for name in ("warm_up", "ranks", "env_options", "typo", "benchmark")}
    assert codes["warm_up"] == [("NPP122", "--aic-metrics=PipeUtilisation")]
    assert [c for c, _ in codes["ranks"]] == ["NPP120", "NPP122"]
    assert codes["env_options"] == [("NPP101", "latent")]
    assert codes["typo"] == [] and codes["benchmark"] == []


def test_check_on_a_launcher_takes_whether_ge_reads_its_options_from_emulate():
    """checks/shell_launches.check_file judges a launcher's PROFILING_OPTIONS by the answer it is handed (the engine
    hands it emulate's replay); without one it judges them as read: the job aborts, never latent."""
    from flake8_npuprof.checks.shell_launches import check_file
    from flake8_npuprof.engine.run import check_shell
    path = ROOT / "tests" / "data" / "agreement" / "env_options" / "run.sh"
    text = path.read_text()
    (alone,) = check_file(text, str(path), Settings())
    assert alone.code == "NPP101" and alone.message.startswith('unknown profiling_options key "L2"')
    (unread,) = check_file(text, str(path), Settings(), lambda w, launch, target: False)
    assert unread.message.startswith("latent (train.py switches profiling on with its own options")
    assert check_shell(text, str(path), Settings()) == [unread]
