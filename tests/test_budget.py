"""A budget that runs out is reported on the setup it cut short (NPP191, on by default), never
turned into the off-by-default NPP190; and the budgets grow with the file, so many setups fit."""

from __future__ import annotations

import ast

from flake8_npuprof.values import resolve
from flake8_npuprof.checks.analysis import analyse
from flake8_npuprof.plugin import NpuProfChecker

SETUP = '''
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(OPTS)
sess = tf.Session(config=config)
'''


def _doubling(levels: int) -> str:
    """Names each defined as the previous one twice: evaluating the last takes 2**levels steps."""
    lines = ['p0 = "/tmp"'] + [f"p{k} = p{k - 1} + p{k - 1}" for k in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def _codes(text):
    return [(f.line, f.code) for f in analyse(text, None, "x.py")]


def test_spent_budget_is_reported_on_the_setup_not_hidden_as_npp190():
    opts = f"""'{{"output":"' + p16 + '","task_trace":"on","L2":"on"}}'"""
    text = "import tensorflow as tf\n" + _doubling(16) + SETUP.replace("OPTS", opts)
    found = _codes(text)
    options_line = text.splitlines().index(next(l for l in text.splitlines() if "profiling_options" in l)) + 1
    assert (options_line, "NPP191") in found
    assert "NPP190" not in {c for _, c in found}
    message = next(f.message for f in analyse(text, None, "x.py") if f.code == "NPP191")
    assert message.startswith(f"analysis budget exhausted: the setup at line {options_line - 1} was not fully checked")
    # flake8 reports it without being asked for
    checker = NpuProfChecker(ast.parse(text), text.splitlines(True), "x.py")
    assert any(m.startswith("NPP191 ") for _, _, m, _ in checker.run())


def test_within_budget_the_real_finding_is_there():
    opts = f"""'{{"output":"' + p6 + '","task_trace":"on","L2":"on"}}'"""
    text = "import tensorflow as tf\n" + _doubling(6) + SETUP.replace("OPTS", opts)
    codes = {c for _, c in _codes(text)}
    assert "NPP101" in codes and "NPP191" not in codes


def test_depth_budget_is_reported_too():
    chain = ['q0 = "/tmp"'] + [f"q{k} = q{k - 1}" for k in range(1, resolve.MAX_DEPTH + 5)]
    last = f"q{resolve.MAX_DEPTH + 4}"
    opts = f"""'{{"output":"' + {last} + '","L2":"on"}}'"""
    text = "import tensorflow as tf\n" + "\n".join(chain) + "\n" + SETUP.replace("OPTS", opts)
    assert "NPP191" in {c for _, c in _codes(text)}


def test_the_step_budget_grows_with_the_file(monkeypatch):
    """300 setups with computed options, against a fixed part of the budget made small: without the
    part that grows with the file the later setups get NPP191; with it, every one keeps its NPP101."""
    parts = ["import tensorflow as tf\n"]
    for k in range(300):
        parts.append(f'prof_dir = "/tmp/prof{k}"\n')
        parts.append(SETUP.replace("OPTS", """'{"output":"%s","L2":"on"}' % prof_dir"""))
    text = "".join(parts)
    monkeypatch.setattr(resolve, "MAX_STEPS", 2000)
    monkeypatch.setattr(resolve, "STEPS_PER_NODE", 0)
    assert "NPP191" in [c for _, c in _codes(text)]
    monkeypatch.undo()
    monkeypatch.setattr(resolve, "MAX_STEPS", 2000)
    codes = [c for _, c in _codes(text)]
    assert codes.count("NPP101") == 300
    assert "NPP191" not in codes


def test_astroid_budget_spent_is_reported(monkeypatch):
    from evalfiles import EVAL_DIR
    from flake8_npuprof.values import astroid_fallback
    text = (EVAL_DIR / "resolve_astroid.py").read_text(encoding="utf-8")
    assert "NPP101" in {c for _, c in _codes(text)}
    monkeypatch.setattr(astroid_fallback, "MAX_CALLS", 0)
    codes = {c for _, c in _codes(text)}
    assert "NPP191" in codes and "NPP101" not in codes
