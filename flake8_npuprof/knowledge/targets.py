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


# The torch_npu releases the torch_npu checks know (data/torch_npu.json "releases"; tests hold the two equal).
# A release is Ascend's name for a torch_npu line (tag v7.3.1-pytorch2.9.0 is 7.3), not the wheel's version.
TORCH_NPU_RELEASES = ("5.0", "6.0", "7.0", "7.1", "7.2", "7.3", "26.0", "26.1")
_TORCH_NPU_NAME = re.compile(r"v?(\d+)\.(\d+)(?:\.(?:rc)?\d+)*(?:-pytorch[\d.]+)?")


def parse_torch_npu(text: str, accepts_auto: bool = False) -> str:
    """A torch_npu release target: any, portable, or a release such as 6.0, 7.3, 26.1 (also its tag name,
    v7.3.1-pytorch2.9.0, or a release candidate, 6.0.rc3); accepts_auto: as parse_cann."""
    value = ("any" if text is None else text).strip().lower()
    if value in ("any", "portable"):
        return value
    m = _TORCH_NPU_NAME.fullmatch(value)
    if m and f"{m.group(1)}.{m.group(2)}" in TORCH_NPU_RELEASES:
        return f"{m.group(1)}.{m.group(2)}"
    also = "auto (the installed torch-npu), " if accepts_auto else ""
    raise TargetError(f"unknown torch_npu release {text!r}: use any, portable, {also}or one of "
                      f"{', '.join(TORCH_NPU_RELEASES)}")


class Target(NamedTuple):
    cann: str = "any"
    soc: str = "any"
    torch_npu: str = "any"      # the torch_npu release (the torch_npu checks only)

    @classmethod
    def parse(cls, cann: str = "any", soc: str = "any", torch_npu: str = "any") -> "Target":
        return cls(parse_cann(cann), parse_soc(soc), parse_torch_npu(torch_npu))

    @property
    def torch_npu_releases(self) -> Tuple[str, ...]:
        return TORCH_NPU_RELEASES if self.torch_npu in ("any", "portable") else (self.torch_npu,)

    def torch_npu_fails_on(self, bad_releases: Iterable[str]) -> bool:
        """Whether a problem on these torch_npu releases is reported for this target (as fails_on for CANN)."""
        bad = set(bad_releases)
        if self.torch_npu == "any":
            return bad.issuperset(TORCH_NPU_RELEASES)
        if self.torch_npu == "portable":
            return bool(bad)
        return self.torch_npu in bad

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
        if self.torch_npu == "any":
            return f"{cann}, {soc}"
        torch = "every torch_npu release" if self.torch_npu == "portable" else f"torch_npu {self.torch_npu}"
        return f"{cann}, {soc}, {torch}"


DEFAULT = Target()
