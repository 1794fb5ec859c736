"""Checks: the rules (small functions over the setups of one file, each owning its codes) and
the one-file pipeline that runs them (analysis.py).

May import: setups, values, source, knowledge.
"""

from __future__ import annotations


def run_all(ctx) -> None:
    from . import hygiene, npu_optimizer, other_routes, preflight, wiring
    from .msprof import check_python
    npu_optimizer.check(ctx)
    wiring.check(ctx)
    other_routes.check(ctx)
    hygiene.check(ctx)
    preflight.check(ctx)
    check_python(ctx)
