"""Which codes a run reports: the selection from the given codes and the configuration, as flake8 decides."""

from __future__ import annotations

import sys
from typing import Optional, Tuple

from ..source.config import UsageError
from ..source.files import Selection, split_codes

OPTIONS = ("select", "extend_select", "ignore", "extend_ignore")


def rule_codes() -> Tuple[str, ...]:
    """The rules' codes, for checking the codes a user names; source/config.py asks for them only
    when there is a code to check (the catalog imports every check module, with the rules' pages)."""
    from ..checks.catalog import CODES
    return CODES


def selection_from(config=None, select: Optional[str] = None, extend_select: Optional[str] = None,
                   ignore: Optional[str] = None, extend_ignore: Optional[str] = None,
                   quiet: bool = False) -> Selection:
    """The selection of the codes given as flags (comma- or space-separated, None: not given) and the
    configuration's; an unknown code is a UsageError naming the flag."""
    from ..source.config import ConfigError, check_codes
    given = {}
    for option, value in zip(OPTIONS, (select, extend_select, ignore, extend_ignore)):
        codes = split_codes(value)
        try:
            check_codes(codes, "--" + option.replace("_", "-"), rule_codes)
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
        given[option] = codes
    explicit = given["select"] or (config.select if config else ())
    chosen = explicit or ("NPP",)
    if config is not None and not config.path.endswith(".toml") and not quiet:
        _warn_wide_ignore(config)
    return Selection(
        select=chosen,
        extend_select=given["extend_select"] + ((config.extend_select if config else ()) or ()),
        ignore=given["ignore"] or ((config.ignore if config else ()) or ()),
        extend_ignore=given["extend_ignore"] + ((config.extend_ignore if config else ()) or ()),
        default_off=(config.extend_default_ignore if config else ()) or (),
        explicit_select=bool(explicit or given["extend_select"] or (config and config.extend_select)))


def _warn_wide_ignore(config) -> None:
    """`ignore = N` under [flake8] (meant for pep8-naming's N8xx) also ignores every NPP code, there and here."""
    for key in ("ignore", "extend_ignore"):
        wide = [c for c in getattr(config, key) if "NPP".startswith(c) and c != "NPP"]
        if wide:
            print(f"npuprof: warning: {config.path}: {key.replace('_', '-')} = {', '.join(wide)} also ignores "
                       "every NPP code (flake8 matches codes by prefix); write the prefix of the codes you mean, "
                       "e.g. N8 for pep8-naming", file=sys.stderr)
