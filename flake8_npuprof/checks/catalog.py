"""The rule catalog: every NPP rule's page, gathered from the check modules that report the codes.

A rule's page (checks/rule.py: Rule) lives in the module whose check reports it, in that module's
RULES; a code that several modules report is documented once, in the module whose check the
example exercises, and the entry names the others. This module only gathers them, sorted by code.

`npuprof explain`, the generated docs (tools/gen_docs.py), SARIF and GitHub rule metadata and levels, the
language server's diagnostics and hovers and the check of the codes a user names read them here, when they
run: a page `register` adds is known to every front-end at once (tests/test_rule_registry.py). It imports every
check module: the analysis never imports it.
"""

from __future__ import annotations

from typing import Dict, Tuple

from . import (analysis, common, dynamic_json, hand_built, hygiene, launcher_switch, mindformers, mindspeed_rl,
               mindspore, mindspore_dynamic_json, mindspore_members, msprof, msprof_app, noqa_comments, npu_optimizer,
               options, options_chips, options_json, options_keys, options_output, options_schema, options_trace,
               options_values, other_routes, preflight, shell_syntax, torch_npu, torch_npu_config, torch_npu_loop,
               torch_npu_members, torch_npu_report, torch_npu_utils_profile, wiring)
from .rule import Rule, render  # noqa: F401  (render: re-exported, catalog.render)

# The check modules that document rules (shell_env reports codes documented elsewhere).
MODULES = (analysis, common, dynamic_json, hand_built, hygiene, launcher_switch, mindformers, mindspeed_rl, mindspore,
           mindspore_dynamic_json, mindspore_members, msprof, msprof_app, noqa_comments, npu_optimizer, options,
           options_chips, options_json, options_keys, options_output, options_schema, options_trace, options_values,
           other_routes, preflight, shell_syntax, torch_npu, torch_npu_config, torch_npu_loop, torch_npu_members,
           torch_npu_report, torch_npu_utils_profile, wiring)

RULES: Tuple[Rule, ...] = tuple(sorted((rule for module in MODULES for rule in module.RULES), key=lambda r: r.code))
BY_CODE: Dict[str, Rule] = {r.code: r for r in RULES}
CODES: Tuple[str, ...] = tuple(BY_CODE)


def register(*rules: Rule) -> None:
    """Add pages to the catalog of this process (a test's rule: tests/test_rule_registry.py); a code already
    documented is replaced."""
    global RULES, CODES
    for rule in rules:
        BY_CODE[rule.code] = rule
    RULES = tuple(sorted(BY_CODE.values(), key=lambda r: r.code))
    CODES = tuple(r.code for r in RULES)
