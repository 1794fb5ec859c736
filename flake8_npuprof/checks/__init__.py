"""Checks: the rules (small functions over the setups of one file, each owning its codes) and
the one-file pipeline that runs them (analysis.py).

Each rule's page (its documentation and examples) sits in the module that reports its code, in
that module's RULES; rule.py says what a page is made of, catalog.py gathers them for the
front-ends. The analysis never imports the catalog.

May import: shell, setups, values, source, knowledge.
"""

from __future__ import annotations

from functools import lru_cache


def run_all(ctx) -> None:
    for rule in _rules():
        rule.check(ctx)
    # the msprof checks and their tables load only for a file naming it (the sites walk searched the text for it)
    if ctx.sites.may_hold("msprof"):
        from .msprof import check_python
        check_python(ctx)


@lru_cache(maxsize=None)
def _rules() -> tuple:
    """The modules whose `check` run_all runs, in order: imported on the first analysis, once (an import statement
    in run_all went through the import machinery at every file)."""
    from . import hygiene, mindspore, mindspore_members, npu_optimizer, other_routes, preflight, torch_npu, torch_npu_members, torch_npu_utils_profile, wiring
    return (npu_optimizer, wiring, other_routes, hygiene, preflight, torch_npu, torch_npu_members, torch_npu_utils_profile,
            mindspore, mindspore_members)
