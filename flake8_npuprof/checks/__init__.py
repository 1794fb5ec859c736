"""Checks: the rules (small functions over the setups of one file, each owning its codes) and
the one-file pipeline that runs them (analysis.py).

Each rule's page (its documentation and examples) sits in the module that reports its code, in
that module's RULES; rule.py says what a page is made of, catalog.py gathers them for the
front-ends. The analysis never imports the catalog.

May import: shell, setups, values, source, knowledge.
"""

from __future__ import annotations


def run_all(ctx) -> None:
    from . import hygiene, mindspore, npu_optimizer, other_routes, preflight, torch_npu, torch_npu_members, torch_npu_utils_profile, wiring
    npu_optimizer.check(ctx)
    wiring.check(ctx)
    other_routes.check(ctx)
    hygiene.check(ctx)
    preflight.check(ctx)
    torch_npu.check(ctx)
    torch_npu_members.check(ctx)
    torch_npu_utils_profile.check(ctx)
    mindspore.check(ctx)
    if "msprof" in ctx.src.text:        # the msprof checks and their tables load only for a file naming it
        from .msprof import check_python
        check_python(ctx)
