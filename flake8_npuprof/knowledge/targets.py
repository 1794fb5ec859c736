"""The CANN version and product a check is made for, and how a finding is judged against them.

A check computes the set of versions (and products) on which something goes wrong; the
target decides whether that is reported:
  any       - only when every supported version (product) goes wrong (the default: no
              finding claims a failure that some real target would accept),
  portable  - when at least one version goes wrong,
  <version> - when that version goes wrong.
"""

from __future__ import annotations

import re
from typing import Iterable, NamedTuple, Tuple

from .datafiles import PRODUCTS, VERSIONS, product_aliases

_VERSION_ALIASES = {"7": "7.0", "8": "8.0", "8.1": "8.0", "8.2": "8.0", "8.3": "8.0", "9": "9.0"}


class TargetError(ValueError):
    pass


# a release name beyond major.minor: 8.0.RC1, 9.1.0, 7.0.0.alpha003
_CANN_NAME = re.compile(r"(?:cann[-_ ]?)?(\d+)(?:\.(\d+)(?:\.(?:rc|alpha|beta|t)?\d+[.\w]*)?)?")


def parse_cann(text: str, accepts_auto: bool = False) -> str:
    """A CANN target; accepts_auto: the caller resolves `auto` (this machine's toolkit) itself, so the error
    names it among the accepted values."""
    value = ("any" if text is None else text).strip().lower()
    if value in ("any", "portable"):
        return value
    m = _CANN_NAME.fullmatch(value)
    if m:               # only the versions the knowledge data describes: no guess for 7.1 or 8.4
        short = m.group(1) + ("." + m.group(2) if m.group(2) else "")
        short = _VERSION_ALIASES.get(short, short)
        if short in VERSIONS:
            return short
    also = "auto (this machine's toolkit), " if accepts_auto else ""
    raise TargetError(f"unknown CANN target {text!r}: use any, portable, {also}or one of {', '.join(VERSIONS)} "
                      "(8.1-8.3 share the 8.0 collector)")


def parse_soc(text: str, accepts_auto: bool = False) -> str:
    value = (text or "any").strip()
    if value.lower() == "any":
        return "any"
    if value in PRODUCTS:
        return value
    key = re.sub(r"[\s\-]", "", value.lower())
    key = key[len("ascend"):] if key.startswith("ascend") and key[len("ascend"):] in product_aliases() else key
    for name in PRODUCTS:
        if key == name.lower():
            return name
    alias = product_aliases().get(key)
    if alias:
        return alias
    also = "auto (this machine's chip), " if accepts_auto else ""
    raise TargetError(f"unknown product {text!r}: use any, {also}or one of {', '.join(PRODUCTS)}")


class Target(NamedTuple):
    cann: str = "any"
    soc: str = "any"

    @classmethod
    def parse(cls, cann: str = "any", soc: str = "any") -> "Target":
        return cls(parse_cann(cann), parse_soc(soc))

    @property
    def versions(self) -> Tuple[str, ...]:
        return VERSIONS if self.cann in ("any", "portable") else (self.cann,)

    @property
    def products(self) -> Tuple[str, ...]:
        return PRODUCTS if self.soc == "any" else (self.soc,)

    def fails_on(self, bad_versions: Iterable[str]) -> bool:
        """Whether a problem on these versions is reported for this target."""
        bad = set(bad_versions)
        if self.cann == "any":
            return bad.issuperset(VERSIONS)
        if self.cann == "portable":
            return bool(bad)
        return self.cann in bad

    def describe(self) -> str:
        cann = {"any": "any CANN version", "portable": "every CANN version"}.get(self.cann, f"CANN {self.cann}")
        soc = "any product" if self.soc == "any" else f"Ascend {self.soc}"
        return f"{cann}, {soc}"


DEFAULT = Target()
