"""Rules: small functions over the setups of one file, each owning its codes."""

from __future__ import annotations


def run_all(ctx) -> None:
    from . import npu_optimizer
    npu_optimizer.check(ctx)
