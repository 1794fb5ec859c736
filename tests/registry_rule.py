"""A rule that exists only in tests: NPP299 (a free number of no rule), its check and its page, added to a
running npuprof the way a rule module of checks/ is (its page in the catalog, its check called with the
others). tests/test_rule_registry.py runs every front-end on it: nothing but this module names the code."""

from __future__ import annotations

from flake8_npuprof.checks.rule import Rule
from flake8_npuprof.source.model import Edit, Fix

CODE = "NPP299"
MARKER = "# registry-marker"
MESSAGE = "the registry test's marker is on this line"

EXAMPLE = """\
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True  # registry-marker
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
    '{"output":"/tmp/prof","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}')
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""
FIXED = EXAMPLE.replace("  " + MARKER, "")

RULE = Rule(
    code=CODE,
    name="registry-test-marker",
    summary="a line carries the registry test's marker",
    default=True,
    level="warning", tags=("unnecessary",),
    what="The comment `# registry-marker`.",
    why="It exists to show that a rule added in one place reaches every front-end.",
    example=EXAMPLE,
    fixed=FIXED,
    fix_safety="safe",
    fix_note="The fix removes the comment.",
    group="hygiene",
)


def check(ctx) -> None:
    text = ctx.src.text
    at = text.find(MARKER)
    while at >= 0:
        start = at - 2 if text[at - 2:at] == "  " else at
        fix = Fix((Edit(start, at + len(MARKER), ""),), True, "remove the marker")
        ctx.report(CODE, at, at + len(MARKER), MESSAGE, fix)
        at = text.find(MARKER, at + 1)


def install(monkeypatch=None) -> None:
    """Add the page and the check to this process (undone by monkeypatch when one is given)."""
    from flake8_npuprof import checks
    from flake8_npuprof.checks import catalog
    if monkeypatch is not None:
        for name in ("RULES", "CODES"):
            monkeypatch.setattr(catalog, name, getattr(catalog, name))
        monkeypatch.setitem(catalog.BY_CODE, CODE, RULE)
    catalog.register(RULE)
    run_all = checks.run_all

    def run_all_and_this(ctx) -> None:
        run_all(ctx)
        check(ctx)
    if monkeypatch is not None:
        monkeypatch.setattr(checks, "run_all", run_all_and_this)
    else:
        checks.run_all = run_all_and_this
