"""PROFILING_MODE / PROFILING_OPTIONS as GE reads them (values, not where they are set)."""

from __future__ import annotations

from typing import Optional, Tuple

# PROFILING_MODE values GE or msprof understand: GE compares with "true" (strcmp); msprof
# handles "dynamic" (attach mode) itself; "false" and "" mean off.
MODE_VALUES = ("true", "false", "", "dynamic")


def mode_problem(mode: Optional[str], options: Optional[str]) -> Optional[Tuple[str, str]]:
    """(code, message) for the PROFILING_MODE value, or None when it is fine."""
    if mode is not None and mode not in MODE_VALUES:
        meant = "true" if mode.strip().lower() in ("true", "1", "yes", "on") else "false"
        return ("NPP011", f"PROFILING_MODE is {mode!r}, but GE switches profiling on only for exactly "
                          f"\"true\" (lower case): {mode!r} means off and PROFILING_OPTIONS are ignored; "
                          f"set PROFILING_MODE=\"{meant}\"")
    if options is not None and options.strip() and mode not in ("true", "dynamic"):
        state = "unset" if mode is None else f'"{mode}"'
        return ("NPP001", f"PROFILING_OPTIONS is set but PROFILING_MODE is {state}: GE reads the options "
                          "only when PROFILING_MODE is \"true\", so nothing is collected; export "
                          "PROFILING_MODE=true")
    return None
