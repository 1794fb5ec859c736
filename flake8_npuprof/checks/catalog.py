"""The rule catalog: every NPP rule's page, gathered from the check modules that report the codes.

A rule's page (checks/rule.py: Rule) lives in the module whose check reports it, in that module's
RULES; a code that several modules report is documented once, in the module whose check the
example exercises, and the entry names the others. This module only gathers them, sorted by code.

`npuprof explain`, the generated docs (tools/gen_docs.py), SARIF and GitHub rule metadata, the
language server's hovers and the check of the codes a user names read them here. It imports every
check module: the analysis never imports it.
"""

from __future__ import annotations

from typing import Dict, Tuple

from . import (analysis, common, hand_built, hygiene, msprof, noqa_comments, npu_optimizer, options, other_routes,
               preflight, torch_npu, wiring)
from .rule import Rule, render  # noqa: F401  (render: re-exported, catalog.render)

# The check modules that document rules (shell_env reports codes documented elsewhere).
MODULES = (analysis, common, hand_built, hygiene, msprof, noqa_comments, npu_optimizer, options, other_routes, preflight,
           torch_npu, wiring)

RULES: Tuple[Rule, ...] = tuple(sorted((rule for module in MODULES for rule in module.RULES), key=lambda r: r.code))
BY_CODE: Dict[str, Rule] = {r.code: r for r in RULES}
CODES: Tuple[str, ...] = tuple(BY_CODE)
