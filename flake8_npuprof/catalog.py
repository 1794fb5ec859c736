"""The rule catalog: one entry per NPP code, the single source of each rule's page.

`npuprof explain`, the generated docs (docs/rules/), SARIF rule metadata and the
tests of examples all read these entries. Each entry carries a bad example that must
produce its code and a fixed example that must not (tests/test_catalog.py runs both
through the analyser, with the entry's target settings).
"""

from __future__ import annotations

from typing import Dict, NamedTuple, Tuple


class Rule(NamedTuple):
    code: str
    name: str                 # kebab-case slug naming the bad pattern
    summary: str              # one line, as in RULES.md
    default: bool             # reported without --select/--extend-select of the code
    what: str                 # what it finds
    why: str                  # why it matters on Ascend (what the runtime does)
    example: str              # a small script that triggers the rule
    fixed: str                # the same script written correctly
    fix_safety: str           # "safe", "unsafe", "sometimes" or "none"
    fix_note: str             # what the automatic fix does and why it has that safety
    options: str = ""         # settings that change the rule
    references: Tuple[str, ...] = ()
    settings: Tuple[Tuple[str, str], ...] = ()   # e.g. (("cann", "8.0"),) for the examples
    group: str = ""


_HEAD = """\
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
"""
_TAIL = """\
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""


def _opts(options: str) -> str:
    """A sess.run script whose profiling options are the given JSON text."""
    return _HEAD + f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes(\n    '{options}')\n" + _TAIL


GOOD_OPTIONS = '{"output":"/tmp/prof","training_trace":"on","task_trace":"on","fp_point":"","bp_point":""}'

RULES: Tuple[Rule, ...] = (
    Rule(
        code="NPP101",
        name="unknown-options-key",
        summary="unknown key, with did-you-mean (L2→l2, result_path→output) — whole profiling init fails",
        default=True,
        what="A key in profiling_options that no supported CANN version knows, such as `L2`, "
             "`result_path` or `aicpu_trace`.",
        why="Keys are matched exactly, case included. Every collector generation keeps a whitelist and "
            "refuses the whole options string when one key is not on it, so GE initialisation fails at "
            "the first session and the job aborts before the first step.",
        example=_opts('{"output":"/tmp/prof","task_trace":"on","L2":"on"}'),
        fixed=_opts('{"output":"/tmp/prof","task_trace":"on","l2":"on"}'),
        fix_safety="sometimes",
        fix_note="Renames the key when exactly one known key is close. A rename that only changes case "
                 "(`L2` → `l2`) is safe; other renames guess what was meant and are unsafe.",
        references=("CANN PROFILING_OPTIONS environment variable reference (key list)",),
        group="options",
    ),
    Rule(
        code="NPP003",
        name="npu-optimizer-misnamed",
        summary="a custom optimizer carries NPU parameters but its name is not exactly `NpuOptimizer` — "
                "the adapter never reads it",
        default=True,
        what="A `custom_optimizers.add()` entry that receives NPU `parameter_map` settings while its "
             "`name` is something other than `NpuOptimizer` (or is never set).",
        why="The TF adapter looks only for custom optimizers whose name is exactly `NpuOptimizer`. "
            "An entry called `NPUOptimizer` is silently skipped, so profiling, precision and every other "
            "NPU setting on it never reach the runtime.",
        example=_HEAD.replace('"NpuOptimizer"', '"NPUOptimizer"') +
        f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes('{GOOD_OPTIONS}')\n" + _TAIL,
        fixed=_HEAD + f"custom_op.parameter_map[\"profiling_options\"].s = tf.compat.as_bytes('{GOOD_OPTIONS}')\n"
        + _TAIL,
        fix_safety="safe",
        fix_note="Renames a near-miss (`NPUOptimizer`, `npu_optimizer`) to `NpuOptimizer`: the user "
                 "evidently meant the NPU optimizer.",
        group="wiring",
    ),
)

BY_CODE: Dict[str, Rule] = {r.code: r for r in RULES}


def render(rule: Rule) -> str:
    """The rule's page in Markdown (also what `npuprof explain` prints)."""
    state = "on by default" if rule.default else f"off by default (enable with --extend-select {rule.code})"
    parts = [f"# {rule.code} {rule.name}", "", rule.summary, "", f"*{state}; fix: {rule.fix_safety}*", "",
             "## What it finds", "", rule.what, "", "## Why it matters on Ascend", "", rule.why, "",
             "## Example", "", "```python", rule.example.rstrip(), "```", "",
             "## Use instead", "", "```python", rule.fixed.rstrip(), "```", "",
             "## Fix safety", "", f"{rule.fix_safety.capitalize()}. {rule.fix_note}".rstrip()]
    if rule.options:
        parts += ["", "## Options", "", rule.options]
    if rule.settings:
        parts += ["", "The examples assume " + ", ".join(f"--npuprof-{k} {v}" for k, v in rule.settings) + "."]
    if rule.references:
        parts += ["", "## References", ""] + [f"- {r}" for r in rule.references]
    return "\n".join(parts) + "\n"
