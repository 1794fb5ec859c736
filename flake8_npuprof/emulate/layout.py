"""The PROF_* tree a collection writes, and the comparison of a real one with the prediction.

File families come from collection.json: per switch, the raw files in `host/data` and
`device_<id>/data` (per task engine, HWTS or STARS, where the chip decides) and the files
`msprof --export=on` writes to `mindstudio_profiler_output/`. A family is a name pattern with
placeholders (`<dev>`, `<n>`, `<ts>`, `<kind>`); real names are matched against it.
"""

from __future__ import annotations

import os
import re
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

from ..knowledge import datafiles as K
from ..knowledge.collection import data as collection_data, switches


class Family(NamedTuple):
    where: str                  # "host", "device" or "export"
    patterns: Tuple[str, ...]   # alternatives (HWTS or STARS when the chip is not known)
    switches: Tuple[str, ...]   # the switches that produce it

    @property
    def label(self) -> str:
        return " or ".join(glob(p) for p in self.patterns)


def emu() -> dict:
    return collection_data()["emulation"]


def glob(pattern: str) -> str:
    """`ts_track.data.<dev>.slice_<n>` → `ts_track.data.*.slice_*`; notes in parentheses dropped."""
    return re.sub(r"<[^>]+>", "*", _bare(pattern))


def _bare(pattern: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", pattern)


def _regex(pattern: str) -> "re.Pattern":
    parts = re.split(r"(<[^>]+>)", _bare(pattern))
    out = []
    for part in parts:
        if part in ("<dev>", "<n>", "<id>"):
            out.append(r"\d+")
        elif part == "<ts>":
            out.append(r"[0-9_]+")
        elif part.startswith("<"):
            out.append(r"[A-Za-z0-9_]+")
        else:
            out.append(re.escape(part))
    body = "".join(out)
    if body.startswith(r"aging\."):
        body = "(?:un)?" + body             # host files age out: aging.* and unaging.*
    return re.compile(rf"^{body}(?:\..*)?$")


def _engines(products: Sequence[str]) -> Tuple[str, ...]:
    return tuple(sorted({K.product(p).get("task_engine", "hwts") for p in products}))


def families(keys: Iterable[str], products: Sequence[str]) -> List[Family]:
    """File families of the given switches on any of the products (engines merged as alternatives)."""
    merged: Dict[Tuple[str, Tuple[str, ...]], List[str]] = {}
    engines = _engines(products)
    for key in keys:
        spec = switches().get(key)
        if spec is None:
            continue
        for where in ("host", "device"):
            raw = spec.get("raw", {}).get(where)
            if raw is None:
                continue
            if isinstance(raw, dict):   # per task engine: one family per position, engines as alternatives
                lists = [raw.get(e, []) for e in engines]
                for k in range(max(len(x) for x in lists)):
                    alts = tuple(dict.fromkeys(x[k] for x in lists if k < len(x)))
                    merged.setdefault((where, alts), []).append(key)
            else:
                for pattern in raw:
                    merged.setdefault((where, (pattern,)), []).append(key)
        for pattern in spec.get("exported", []):
            merged.setdefault(("export", (_bare(pattern),)), []).append(key)
    return [Family(where, pats, tuple(dict.fromkeys(keys))) for (where, pats), keys in merged.items()]


def predict(collected: Sequence[str], products: Sequence[str]) -> List[str]:
    """The tree, as paths relative to the output directory."""
    prof = emu()["prof_dir"]
    book = collection_data()["bookkeeping"]
    fams = families(collected, products)
    host = list(book["host"]) + [p for f in fams if f.where == "host" for p in f.patterns]
    device = list(book["device"]) + [p for f in fams if f.where == "device" for p in f.patterns]
    export = [p for f in fams if f.where == "export" for p in f.patterns] + list(emu()["export_always"])
    out = [f"{prof}/"]
    out += [f"{prof}/host/data/{p}" for p in dict.fromkeys(host)]
    out += [f"{prof}/device_<id>/data/{p}" for p in dict.fromkeys(device)]
    out.append(f"{prof}/{emu()['export_db']}")
    out += [f"{prof}/{emu()['export_dir']}/{p}" for p in dict.fromkeys(export)]
    return out


def export_command(output_dir: str, prof_dir: str = "") -> str:
    """The export command for a known PROF_* directory, else for `<output>/PROF_*` (one run there)."""
    import shlex
    if prof_dir:
        return emu()["export_command"].format(prof_dir=shlex.quote(prof_dir))
    if output_dir:
        return emu()["export_command"].format(prof_dir=shlex.quote(output_dir.rstrip("/") or "/") + "/PROF_*")
    return emu()["export_command"].format(prof_dir="<output>/PROF_*")


# ---------------------------------------------------------------- post-run comparison

class Gap(NamedTuple):
    family: str                 # glob of the family
    switches: Tuple[str, ...]
    cause: str
    expected: bool              # the prediction said it should be there


class Comparison(NamedTuple):
    prof_dir: str
    exported: bool
    missing: List[Gap]          # expected but absent (unexplained by the configuration)
    explained: List[Gap]        # absent, and the configuration or product says why
    extra: List[Gap]            # present but not predicted
    notes: List[str]


def find_prof_dir(path: str) -> Optional[str]:
    """The PROF_* directory itself, or the newest one inside an output directory."""
    pattern = re.compile(emu()["prof_dir_pattern"])
    base = os.path.basename(os.path.normpath(path))
    path = os.path.abspath(path)
    if pattern.match(base) or os.path.isdir(os.path.join(path, "host")):
        return path
    try:
        found = sorted(d for d in os.listdir(path) if d.startswith("PROF_") and os.path.isdir(os.path.join(path, d)))
    except OSError:
        return None
    return os.path.join(path, found[-1]) if found else None


def _listing(prof: str) -> Dict[str, List[str]]:
    """File names per area: host, device (all device_* merged), export."""
    out: Dict[str, List[str]] = {"host": [], "device": [], "export": []}
    try:
        entries = os.listdir(prof)
    except OSError:
        return out
    for entry in entries:
        full = os.path.join(prof, entry)
        if entry == "host":
            out["host"] += _files(os.path.join(full, "data"))
        elif entry.startswith("device_"):
            out["device"] += _files(os.path.join(full, "data"))
        elif entry == emu()["export_dir"]:
            out["export"] += _files(full)
    return out


def _files(path: str) -> List[str]:
    try:
        return [f for f in os.listdir(path) if os.path.isfile(os.path.join(path, f))]
    except OSError:
        return []


def _present(fam: Family, names: List[str]) -> bool:
    regexes = [_regex(p) for p in fam.patterns]
    return any(r.match(n) for r in regexes for n in names)


def compare(prof: str, expected: Sequence[str], maybe: Sequence[str], off: Dict[str, str],
            dropped: Dict[str, str], products: Sequence[str]) -> Comparison:
    """Compare a PROF_* directory with a prediction.

    expected: switches collected on every target; maybe: collected on some targets only;
    off: switch → why it is not collected (not set, off); dropped: switch → product reason.
    """
    listing = _listing(prof)
    exported = bool(listing["export"])
    missing, explained, extra, notes = [], [], [], []
    if not any(os.path.isdir(os.path.join(prof, d)) for d in os.listdir(prof) if d.startswith("device_")):
        notes.append("no device_<id> directory: the collector never started on a device (check plog in ~/ascend/log)")
    command = export_command("", prof)
    if not exported:
        explained.append(Gap(emu()["export_dir"] + "/", (), f"nothing exported: run {command}", False))
    wanted = set(expected) | set(maybe)
    users_expect = emu()["users_expect"]
    every = list(switches())
    for fam in families(every, products):
        if fam.where == "export" and not exported:
            continue
        names = listing[fam.where]
        present = _present(fam, names)
        producers = fam.switches
        if present:
            if not wanted.intersection(producers):
                extra.append(Gap(fam.label, producers, _extra_cause(producers, off, dropped), False))
            continue
        if set(expected).intersection(producers):
            on = tuple(k for k in producers if k in expected)
            missing.append(Gap(fam.label, on, _missing_cause(fam, on), True))
        elif set(maybe).intersection(producers):
            explained.append(Gap(fam.label, producers, "collected only on some of the targeted products/versions "
                                 "(give --cann and --soc)", False))
        elif any(k in users_expect for k in producers) and fam.where != "host":
            explained.append(Gap(fam.label, producers, _absent_cause(producers, off, dropped), False))
    return Comparison(prof, exported, missing, _dedupe(explained), extra, notes)


def _dedupe(gaps: List[Gap]) -> List[Gap]:
    seen, out = set(), []
    for g in gaps:
        if g.family not in seen:
            seen.add(g.family)
            out.append(g)
    return out


def _absent_cause(producers, off: Dict[str, str], dropped: Dict[str, str]) -> str:
    for key in producers:
        if key in dropped:
            return f"{key} dropped: {dropped[key]}"
    key = producers[0]
    return f"{key} {off.get(key, 'is not switched on')}"


def _missing_cause(fam: Family, producers) -> str:
    names = " and ".join(producers) + (" are" if len(producers) > 1 else " is")
    if fam.where == "export":
        return (f"{names} on but the export has no such file: the raw data was empty (the job stopped before "
                "the first step, or GE found no trace points) or the export failed; check the msprof export log")
    return (f"{names} on but nothing was written: profiling did not start with this configuration (GE init "
            "failed, another configuration was in effect, or the job stopped early); check plog in ~/ascend/log")


def _extra_cause(producers, off: Dict[str, str], dropped: Dict[str, str]) -> str:
    names = ", ".join(producers)
    return (f"written by {names}, which the configuration does not collect: the run used other options "
            "(PROFILING_OPTIONS in the environment, the msprof command line, or an older version of the script)")
