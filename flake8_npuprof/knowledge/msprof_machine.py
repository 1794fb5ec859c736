"""The chip and the machine msprof runs on: what PreCheckPlatform and the Platform answer on a chip
(`chip`: its black list, features, metric sets), and what the machine would answer (`Machine`: nothing,
for a static check; tests/test_oracle.py models the machine the record ran on).
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple, overload

from .msprof_tables import data, facts

# the features msprof's parser asks the Platform about (data/msprof_parser.json "chips")
FEATURES = frozenset({"PLATFORM_TASK_TRACE_L3", "PLATFORM_TASK_BLOCK", "PLATFORM_TASK_INSTR_PROFILING",
                      "PLATFORM_SYS_DEVICE_DVPP", "PLATFORM_SYS_DEVICE_DVPP_EX", "PLATFORM_SYS_DEVICE_US",
                      "PLATFORM_TASK_SCALE", "PLATFORM_TASK_L2_CACHE_PMU", "PLATFORM_TASK_RCR_PMU",
                      "PLATFORM_TASK_PEU_PMU", "PLATFORM_TASK_MEMORY_ACCESS_PMU"})


class Chip(NamedTuple):
    """What PreCheckPlatform and the Platform answer on one chip (None: not in the version's source)."""
    platform_type: str
    number: int
    black_list: Tuple[str, ...]
    features: frozenset
    metrics: frozenset
    max_monitor: int


@overload
def chip(version: str, product: str) -> Optional[Chip]: ...
@overload
def chip(version: str, product: str, hypothetical: bool) -> Chip: ...
@overload
def chip(version: str, product: str, hypothetical: None) -> Optional[Chip]: ...


def chip(version: str, product: str, hypothetical: Optional[bool] = None) -> Optional[Chip]:
    """The chip as that version's msprof knows it; the 910C is checked as the 910B (inferred).
    hypothetical: for a chip without a platform class in the version's source, one with every feature
    and metric set any chip has (True) or none (False), and no black list (the open source has none
    for it)."""
    product = "910B" if product == "910C" else product
    ptype, number = data()["platform_types"].get(product, ("", -1))
    known = data()["chips"].get(version, {}).get(product)
    black = tuple(facts(version)["black_lists"].get(ptype, ()))
    if known is not None:
        return Chip(ptype, number, black, frozenset(known["features"]), frozenset(known["metrics"]),
                    known["max_monitor"])
    if hypothetical is None:
        return None
    every = [c for table in data()["chips"].values() for c in table.values()]
    return Chip(ptype, number, black, FEATURES if hypothetical else frozenset(),
                frozenset(m for c in every for m in c["metrics"]) if hypothetical else frozenset(),
                max(c["max_monitor"] for c in every) if hypothetical else min(c["max_monitor"] for c in every))


class Machine:
    """What the machine msprof runs on would answer. This one knows nothing (a static check): every
    question is answered None, and the step that asks it is MACHINE. tests/test_oracle.py models the
    machine the record ran on."""

    cwd: Optional[str] = None
    home: Optional[str] = None

    def env(self, name: str) -> Optional[str]:
        """The variable's value, "" when unset, None when not known."""
        return None

    def exists(self, path: str) -> Optional[bool]:
        return None

    def make_dir(self, path: str) -> Optional[str]:
        """CreateDir then IsDir and write access: "" when it works, else the line msprof prints."""
        return None

    def file(self, path: str) -> Optional[str]:
        """What an absolute path names: "missing", "dir", "file" (may not run) or "exec"."""
        return None

    def real(self, path: str) -> str:
        """realpath(3) of a path that exists."""
        return path

    def tool(self, name: str) -> Optional[bool]:
        """Whether `sudo msprof_data_collection.sh get-version NAME` answers NAME (perf, ltrace, iotop)."""
        return None

    def process(self, pid: int) -> Optional[bool]:
        return None


UNKNOWN_MACHINE = Machine()
