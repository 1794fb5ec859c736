"""Which switches of a set of options collect data on a given CANN version and product."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

from . import datafiles as K


@lru_cache(maxsize=None)
def data() -> dict:
    with open(K.HERE / "data" / "collection.json", encoding="utf-8") as fh:
        return json.load(fh)


# The adapter's own default set (r1.8+, data/collection.json), written out with the points the
# guide asks for (NPP104).
EXPLICIT_DEFAULTS = json.dumps(dict(data()["runtime_default_options"]["tf1"], fp_point="", bp_point=""),
                               separators=(",", ":"))


def substituted_defaults(route: str, versions) -> Tuple[str, bool]:
    """The options to write out for a switch left without them, and whether they are what the runtime
    substitutes on every one of `versions` (the fix that writes them is then safe). Otherwise the 8.5
    set, which changes what some version collects (9.x's adapter substitutes `task_time`, r1.2-r1.7
    have no default)."""
    table = data()["emulation"]["adapter_default"].get(route, {})
    names = {table.get(v, table.get("*", "none")) for v in versions}
    name = names.pop() if len(names) == 1 else ""
    if name in ("", "none", "unknown"):
        return EXPLICIT_DEFAULTS, False
    return json.dumps(dict(data()["runtime_default_options"][name], fp_point="", bp_point=""),
                      separators=(",", ":")), True


def substituted_sets(route: str, versions) -> str:
    """What the TF adapters of `versions` do with profiling on and no options, from `adapter_default`: every
    adapter these CANN versions ship substitutes a default set (the r1.2-r1.7 adapters that stopped instead
    predate CANN 7.0, data/sources.json collection.emulation.adapter_default): the sets, per version where they differ
    ("" when not known)."""
    table = data()["emulation"]["adapter_default"].get(route, {})
    groups: Dict[str, List[str]] = {}
    for v in versions:
        groups.setdefault(table.get(v, table.get("*", "none")), []).append(v)

    def described(name: str) -> str:
        opts = data()["runtime_default_options"][name]
        on = [k for k, v in opts.items() if v == "on"]
        metrics = opts.get("aic_metrics")
        return f'output "{opts["output"]}", ' + ", ".join(on) + (f", aic_metrics {metrics}" if metrics else "")
    known = {n: vs for n, vs in groups.items() if n in data()["runtime_default_options"]}
    if not known:
        return ""
    if len(known) == 1 and len(groups) == 1:
        return described(next(iter(known)))
    return "; ".join(f"CANN {', '.join(vs)}: {described(n)}" for n, vs in known.items())


def switches() -> Dict[str, dict]:
    return data()["switches"]


def _at_least(version: str, first: str) -> bool:
    return K.VERSIONS.index(version) >= K.VERSIONS.index(first)


def active(key: str, value) -> bool:
    """Whether a key's value asks for something (a switch on, a frequency set, ...)."""
    spec = switches().get(key)
    if isinstance(value, bool) or value is None:
        return False
    if spec is None:
        return value not in ("", "off", 0)
    kind = spec["kind"]
    if kind == "switch":
        return value in spec["on"]
    if kind == "freq":
        try:
            return int(str(value).strip()) > 0
        except ValueError:
            return False
    return isinstance(value, str) and value != ""


def effective_switches(options: dict, version: str, product: str) -> Tuple[List[str], List[Tuple[str, str]]]:
    """(keys that collect, [(key, why dropped)]) for options the version accepts."""
    unsupported = K.unsupported(product, version)
    collected, dropped = [], []
    for key in _switched_on(options, version):
        if key in unsupported:
            behaviour, why = unsupported[key]
            if behaviour == K.UNKNOWN:
                why = f"may not be collected: the CANN {version} collector for this chip is not open source"
            dropped.append((key, why))
            continue
        collected.append(key)
    return collected, dropped


def _switched_on(options: dict, version: str) -> List[str]:
    """The keys the options switch on for the version, on any chip (what the chip drops: effective_switches)."""
    keys = K.keys_of(version)
    override = switches().get("task_time", {}).get("overrides_task_trace_from", "")
    overridden = bool(override) and _at_least(version, override)
    out = []
    for key, spec in switches().items():
        if key not in keys:
            continue
        if overridden and key == ("task_time" if "task_trace" in options else "task_trace"):
            # the collector reads task_time last (default on): the task trace is on whatever
            # task_trace says; it is listed once, under the key the options name
            continue
        if key in options:
            value = options[key]
            on = active(key, value)
            if key == "aic_metrics" and value == "" and version not in K.LEGACY_VERSIONS:
                on = True           # 8.5+: present but empty means PipeUtilization
        else:
            first = spec.get("default_on_from", "")
            on = bool(first) and _at_least(version, first)
        if overridden and key in ("task_trace", "task_time"):
            on = True               # "" and "off" alike: only task_time decides, and it defaults to on
        if on and key == "instr_profiling_freq" and version not in K.LEGACY_VERSIONS:
            on = options.get("instr_profiling") == "on"     # 8.5+ reads it only with instr_profiling on
        if on:
            out.append(key)
    return out


def collects_anything(options: dict, version: str, product: str, on: Optional[List[str]] = None) -> bool:
    """Whether something is (or may be: the chip's collector is not open source) collected. on: the keys
    _switched_on gives for the version, when the caller asks for several products."""
    unsupported = K.unsupported_table(product, version)
    keys = _switched_on(options, version) if on is None else on
    # (effective_switches collects the keys the chip has and drops the others, saying why)
    return any(key not in unsupported or unsupported[key][0] == K.UNKNOWN for key in keys)


def silent_pairs(options: dict, pairs: Tuple[Tuple[str, str], ...]) -> Tuple[Tuple[str, str], ...]:
    """The (version, product) pairs, in their order, on which these options collect nothing."""
    # Kept per the members effective_switches reads, with the type beside each value (True == 1 == 1.0, which a
    # switch and a frequency read apart): options strings repeat their switches from script to script, and the
    # output directory, which changes, is not read
    read = _read_keys()
    members = tuple((key, type(options[key]), options[key]) for key in sorted(read.intersection(options)))
    try:
        hash(members)
    except TypeError:                   # a list or an object among the values
        return tuple(pair for pair in pairs if not collects_anything(options, *pair))
    return _silent_pairs(members, pairs)


@lru_cache(maxsize=None)
def _read_keys() -> frozenset:
    """The keys of the options effective_switches reads."""
    return frozenset(switches()) | {"task_trace", "instr_profiling"}


@lru_cache(maxsize=512)
def _silent_pairs(members: tuple, pairs: Tuple[Tuple[str, str], ...]) -> Tuple[Tuple[str, str], ...]:
    options = {key: value for key, _, value in members}
    on: Dict[str, List[str]] = {}       # what is switched on depends on the version only
    for version, _ in pairs:
        if version not in on:
            on[version] = _switched_on(options, version)
    return tuple(pair for pair in pairs if not collects_anything(options, *pair, on=on[pair[0]]))
