"""PROFILING_MODE / PROFILING_OPTIONS as GE reads them (values, not where they are set)."""

from __future__ import annotations

from typing import Optional

from ..source.text import HOLE, is_placeholder
from .state import OFF_WORDS, ON_WORDS

# PROFILING_MODE values GE or msprof understand: GE compares with "true" (strcmp); msprof
# handles "dynamic" (attach mode) itself; "false" and "" mean off.
MODE_VALUES = ("true", "false", "", "dynamic")

def no_options_in_env(where: str):
    """NPP002 for PROFILING_MODE=true with no PROFILING_OPTIONS set anywhere in `where`."""
    from ..source.said import aside, clause, said
    return said(f"PROFILING_MODE is true but {where} never sets PROFILING_OPTIONS",
                clause("unless the calling environment does, the GE of CANN 8.5 and later substitutes its default "
                       "options", aside('output "./", training/task trace, hccl, aicpu, PipeUtilization; executed, and '
                                        "`npuprof emulate` shows what that gives on each target"),
                       ", while for 7.0/8.0 no GE source shows it",
                       aside("the only older one found leaves profiling off")),
                "set PROFILING_OPTIONS explicitly")


def means_off(value: str) -> bool:
    """A value a person writes to switch profiling off (`false`, `FALSE`, `0`, `off`): deliberate."""
    return value.strip().lower() in OFF_WORDS


def mode_problem_text(value: str):
    """The NPP011 message for a PROFILING_MODE value that means "on" to a reader but is off to GE,
    or None (exact values, values that mean off, and unsubstituted placeholders are fine)."""
    if value in MODE_VALUES or HOLE in value or is_placeholder(value) or means_off(value):
        return None
    if value.strip().lower() not in ON_WORDS:
        return None                     # not evidently meant as "on": say nothing
    from ..source.said import said
    return said(f"PROFILING_MODE is set to {value!r}, but GE switches profiling on only for exactly \"true\"",
                f"{value!r} means off and PROFILING_OPTIONS are ignored", 'set it to "true"')


def mode_problem(mode: Optional[str], options: Optional[str]):
    """(code, message) for the PROFILING_MODE value in an environment, or None when it is fine.
    An explicit off value beside options is a deliberate off switch, not NPP001."""
    if mode is not None:
        text = mode_problem_text(mode)
        if text:
            return ("NPP011", text)
    if options is not None and options.strip() and mode is None:
        from ..source.said import clause, said, so
        return ("NPP001", said("PROFILING_OPTIONS is set but PROFILING_MODE is unset",
                               clause("GE reads the options only when PROFILING_MODE is \"true\"",
                                      so("nothing is collected")),
                               "export PROFILING_MODE=true"))
    return None
