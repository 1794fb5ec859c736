"""Generate schemas/*.schema.json from the per-version key tables below, and torch_npu's dynamic-profiling
`profiler_config.json` schemas per release from flake8_npuprof/data/torch_npu_dynamic.json, and MindSpore's (one for
2.7-2.10, whose config context is the same code) from flake8_npuprof/data/mindspore_dynamic.json.

The tables are the project's knowledge of which keys and values each collector generation
accepts (profiling_options_facts.md sections 3-5). Run `python tools/gen_schemas.py` after
editing them; tests/test_schemas.py fails when the committed schemas are out of date.

Each key's domain is a small descriptor; per-version schemas are rendered from the
descriptors, `any` is their per-key union (accept what some version accepts) and
`portable` their intersection (accept what every version accepts).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "schemas"
ID_BASE = "https://flake8-npuprof.invalid/schemas/"

BASE_METRICS = ["ArithmeticUtilization", "PipeUtilization", "Memory", "MemoryL0", "MemoryUB",
                "ResourceConflictRatio"]
# Names some product accepts on top of the base list (per-product lists: data/products.json).
EXTRA_METRICS = ["L2Cache", "MemoryAccess", "PipeUtilizationExct", "PipelineExecuteUtilization"]
ALL_METRICS = BASE_METRICS + EXTRA_METRICS

# Characters some CANN 8.0 collector builds refuse in `output` (Ascend/msprof param_validation.cpp):
# none before 2024-03-12 (d1462ced3), control characters from then, the full list from 2024-11-04
# (91be296e6). The 7.0 (protobuf era) and 8.5+ (oam-tools) collectors check no characters.
CONTROL_CHARS = "\n\f\r\b\t\v\x7f"
OUTPUT_FORBIDDEN = CONTROL_CHARS + "\"'\\%><|&$;`"
OUTPUT_BUILDS_8_0 = [
    {"builds": "collectors built 2024-03 to 2025-12", "chars": CONTROL_CHARS},
    {"builds": "collectors built 2024-11 to 2025-12", "chars": OUTPUT_FORBIDDEN},
]

FREQ_RANGES = {
    "sys_hardware_mem_freq": (1, 100),
    "sys_io_sampling_freq": (1, 100),
    "sys_interconnection_freq": (1, 50),
    "dvpp_freq": (1, 100),
    "host_sys_usage_freq": (1, 50),
    "instr_profiling_freq": (300, 30000),
}
OAM_FREQ_RANGES = dict(FREQ_RANGES, sys_lp_freq=(1, 100))


def switch(*extra):
    return {"kind": "enum", "values": ["on", "off", ""] + list(extra)}


def enum(*values):
    return {"kind": "enum", "values": list(values)}


def freq(key, types, hi=None, lo=None):
    low, top = OAM_FREQ_RANGES.get(key, (1, 50))
    return {"kind": "freq", "types": sorted(types), "min": lo or low, "max": hi or top}


def metrics(custom_max_events, custom_max_event, custom_max_len):
    return {"kind": "metrics", "names": ALL_METRICS + [""],
            "custom": {"max_events": custom_max_events, "max_event": custom_max_event,
                       "max_len": custom_max_len}}


def comma_list(*items):
    return {"kind": "list", "items": list(items)}


STRING = {"kind": "string"}
NONEMPTY = {"kind": "nonempty"}
ANY = {"kind": "any"}
STORAGE = {"kind": "storage"}


def path(some_builds=()):
    """`output` up to 8.0: required, not empty, at most 1024 characters (measured on the absolute path);
    some_builds: character checks only part of the version's builds make."""
    return {"kind": "path", "some_builds": list(some_builds)}
TRAINING_TRACE = {"kind": "enum", "values": ["on", ""]}  # GE: anything else non-empty is an error


def legacy_generation(freq_types, output):
    """Keys of the 2022-09 → 2025-12 collectors (protobuf era and the nlohmann rewrite)."""
    keys = {
        "output": output,
        "storage_limit": STORAGE,
        "training_trace": TRAINING_TRACE,
        # code accepts on/off only; docs 7.0+ list l0/l1 too: accept them (no false positive)
        "task_trace": switch("l0", "l1"),
        "task_time": switch("l0", "l1"),
        "aicpu": switch(),
        "hccl": switch(),
        "l2": switch(),
        "msproftx": switch(),
        "runtime_api": switch(),
        "power": STRING,
        "fp_point": STRING,
        "bp_point": STRING,
        "aic_metrics": metrics(8, 0x6E, 70),
        "aiv_metrics": metrics(8, 0x6E, 70),
        "host_sys": comma_list("cpu", "mem"),
        "host_sys_usage": comma_list("cpu", "mem"),
        # Ascend 310 takes capacity/bandwidth instead of read/write (product data narrows it)
        "llc_profiling": enum("read", "write", "capacity", "bandwidth", ""),
    }
    for key in FREQ_RANGES:
        keys[key] = freq(key, freq_types)
    return keys


GE_OPTIONS = json.loads((ROOT / "flake8_npuprof" / "data" / "ge_options.json").read_text(encoding="utf-8"))


def runtime_generation(version: str):
    """Keys of the collectors built from hicann/runtime (8.5.0, 9.0.0, 9.1.0), as data/ge_options.json
    describes their whitelist and checkers. A schema states the values written plainly; the collector
    also drops whitespace before a string value and reads a value of another JSON type as empty
    (knowledge/ge_options.py follows those steps)."""
    facts = GE_OPTIONS["versions"][version]
    ranges = GE_OPTIONS["freq_ranges"]
    keys = {}
    for key in facts["whitelist"]:
        kind = facts["checkers"].get(key, "freq" if key in GE_OPTIONS["freq_keys"] else "switch")
        if key in ("output", "fp_point", "bp_point", facts["op_filter_key"]):
            keys[key] = STRING       # output: no length check; "" falls back to $ASCEND_WORK_PATH
        elif key == "storage_limit":
            keys[key] = STORAGE      # only warned about
        elif key == "training_trace":
            keys[key] = TRAINING_TRACE
        elif key == "instr_profiling_freq":
            keys[key] = ANY          # range-checked only when instr_profiling is "on" (CONDITIONAL below)
        elif kind == "level":
            levels = facts["levels"]["ge_api" if key == "ge_api" else "task"]
            keys[key] = enum(*(["on", "off"] if "on" in levels else []), "",
                             *[v for v in levels if v not in ("on", "off")], *(["off"] if key == "ge_api" else []))
        elif kind == "metrics":
            keys[key] = metrics(None, None, GE_OPTIONS["metrics_max_len"])
        elif kind == "host_sys":
            keys[key] = comma_list(*facts["host_sys"])
        elif kind == "host_sys_usage":
            keys[key] = comma_list(*GE_OPTIONS["host_sys_usage"])
        elif kind == "llc":
            keys[key] = enum("read", "write")          # checked whenever present: "" is refused too
        elif kind == "task_block":
            keys[key] = enum("on", "off")               # its own checker refuses "" as well
        elif kind == "serviceflow":
            keys[key] = NONEMPTY
        elif kind == "freq":
            lo, hi = ranges[key]
            keys[key] = freq(key, ["integer"], hi=GE_OPTIONS["hardware_mem_max_on_us_chips"]
                             if key == "sys_hardware_mem_freq" else hi, lo=lo)
        elif key == "task_time" and version == "8.5":
            keys[key] = {"kind": "never"}   # no feature-table entry: "not supported" on every chip, "" included
        else:
            keys[key] = switch()
    return keys


# Protobuf JSON parsing (collector up to 2023-12) also accepts lowerCamelCase field names.
def camel(key):
    head, *rest = key.split("_")
    return head + "".join(part.title() for part in rest)


VERSIONS = {
    "7.0": {
        "title": "CANN 7.0 (protobuf-era collector, 2022-09 to 2023-12)",
        "keys": legacy_generation(["integer", "string"], path()),
        "camel_aliases": True,
        "output_required": True,
        "instr_exclusive": True,
        "conditional_instr": False,
    },
    "8.0": {
        "title": "CANN 8.0 to 8.3 (nlohmann collector, 2024-01 to 2025-12)",
        "keys": legacy_generation(["string"], path(OUTPUT_BUILDS_8_0)),
        "camel_aliases": False,
        "output_required": True,
        "instr_exclusive": True,
        "conditional_instr": False,
    },
    "8.5": {
        "title": "CANN 8.5 (hicann/runtime 8.5.0 collector)",
        "keys": runtime_generation("8.5"),
        "camel_aliases": False,
        "output_required": False,
        "instr_exclusive": False,
        "conditional_instr": True,
    },
    "9.0": {
        "title": "CANN 9.0 (hicann/runtime 9.0.0 collector)",
        "keys": runtime_generation("9.0"),
        "camel_aliases": False,
        "output_required": False,
        "instr_exclusive": False,
        "conditional_instr": True,
    },
    "9.1": {
        "title": "CANN 9.1 (hicann/runtime 9.1.0 collector)",
        "keys": runtime_generation("9.1"),
        "camel_aliases": False,
        "output_required": False,
        "instr_exclusive": False,
        "conditional_instr": True,
    },
}

# Switches that may not be on together with instr_profiling_freq before 8.5
# (CheckInstrAndTaskParamBothSet).
INSTR_CONFLICTS = ["task_time", "task_trace", "training_trace", "aicpu", "l2", "hccl", "runtime_api",
                   "aic_metrics", "aiv_metrics"]


# ---------------------------------------------------------------- regex helpers

def _range_regex(lo: int, hi: int) -> str:
    """Regex for the decimal integers lo..hi (no sign, no leading zeros)."""
    parts = []

    def span(a: str, b: str) -> str:
        # a and b have equal length; digits-wise range
        if a == b:
            return a
        if len(a) == 1:
            return f"[{a}-{b}]"
        if a[0] == b[0]:
            return a[0] + "(?:" + span(a[1:], b[1:]) + ")"
        out = []
        if a[1:] != "0" * (len(a) - 1):
            out.append(a[0] + "(?:" + span(a[1:], "9" * (len(a) - 1)) + ")")
            first = int(a[0]) + 1
        else:
            first = int(a[0])
        if b[1:] != "9" * (len(b) - 1):
            last = int(b[0]) - 1
            tail = b[0] + "(?:" + span("0" * (len(b) - 1), b[1:]) + ")"
        else:
            last = int(b[0])
            tail = None
        if first <= last:
            digit = str(first) if first == last else f"[{first}-{last}]"
            rest = len(a) - 1
            out.append(digit + ("[0-9]" if rest == 1 else "[0-9]{%d}" % rest))
        if tail:
            out.append(tail)
        return "(?:" + "|".join(out) + ")"

    for width in range(len(str(lo)), len(str(hi)) + 1):
        a = max(lo, 10 ** (width - 1) if width > 1 else 0)
        b = min(hi, 10 ** width - 1)
        if a <= b:
            parts.append(span(str(a), str(b)))
    return "(?:" + "|".join(parts) + ")"


def _hex_range_regex(lo: int, hi: int) -> str:
    """Regex for hex numbers lo..hi without prefix (case-insensitive digits, lo >= 1)."""
    alts = []
    for n in range(lo, hi + 1):
        alts.append(format(n, "x"))
    # compact enough for the small ranges used here: group by first digit
    by_len = {}
    for a in alts:
        by_len.setdefault(len(a), []).append(a)
    out = []
    for width, items in sorted(by_len.items()):
        if width == 1:
            out.append("[" + "".join(i for i in items) + "]")
        else:
            heads = {}
            for i in items:
                heads.setdefault(i[0], []).append(i[1])
            for h, tails in heads.items():
                out.append(h + "[" + "".join(tails) + "]")
    pattern = "(?:" + "|".join(out) + ")"
    # accept upper-case hex digits too
    for digit in "abcdef":
        pattern = pattern.replace(digit, digit + digit.upper())
    return pattern


def _custom_pattern(custom) -> str:
    if custom["max_event"] is None:
        event = "(?:0[xX][0-9a-fA-F]+|[0-9]+)"
    else:
        event = ("(?:0[xX]0*" + _hex_range_regex(1, custom["max_event"]) + "|0*"
                 + _range_regex(1, custom["max_event"]) + ")")
    rep = "*" if custom["max_events"] is None else "{0,%d}" % (custom["max_events"] - 1)
    return "^Custom:" + event + "(?:," + event + ")" + rep + "$"


def _list_pattern(items) -> str:
    item = "(?:" + "|".join(items) + ")"
    return "^" + item + "(?:," + item + ")*$"


STORAGE_PATTERN = "^0*" + _range_regex(200, 4294967295) + "MB$"


def _no_chars_pattern(chars: str) -> str:
    return "^[^" + "".join(
        {"\n": "\\n", "\f": "\\f", "\r": "\\r", "\b": "\\x08", "\t": "\\t", "\v": "\\v",
         "\x7f": "\\x7f", "\\": "\\\\", "]": "\\]", "^": "\\^", "-": "\\-"}.get(c, c)
        for c in chars) + "]*$"


# ---------------------------------------------------------------- rendering

def render(desc) -> dict:
    kind = desc["kind"]
    if kind == "enum":
        return {"type": "string", "enum": desc["values"]}
    if kind == "string":
        return {"type": "string"}
    if kind == "any":
        return {}
    if kind == "never":
        return {"not": {}}
    if kind == "nonempty":
        return {"type": "string", "minLength": 1}
    if kind == "path":
        out = {"type": "string", "minLength": 1, "maxLength": 1024}
        if desc.get("strict"):      # portable: what every build of every version accepts
            out["pattern"] = _no_chars_pattern(OUTPUT_FORBIDDEN)
        if desc["some_builds"]:
            # annotation (ignored by validators): checks that only part of this version's builds make
            out["x-npuprof-some-builds"] = [{"builds": b["builds"], "pattern": _no_chars_pattern(b["chars"])}
                                            for b in desc["some_builds"]]
        return out
    if kind == "storage":
        # "" means no limit and passes every version's check
        return {"type": "string", "anyOf": [{"const": ""}, {"pattern": STORAGE_PATTERN}]}
    if kind == "list":
        return {"type": "string", "anyOf": [{"const": ""}, {"pattern": _list_pattern(desc["items"])}]}
    if kind == "freq":
        out = {"type": desc["types"][0] if len(desc["types"]) == 1 else desc["types"]}
        # the range applies to numbers; it is stated for string-only versions too, where it
        # validates nothing but tells readers (and the checker's messages) the allowed values
        out["minimum"] = desc["min"]
        out["maximum"] = desc["max"]
        if "string" in desc["types"]:
            out["pattern"] = "^0*" + _range_regex(desc["min"], desc["max"]) + "$"
        return out
    if kind == "metrics":
        custom = {"type": "string", "pattern": _custom_pattern(desc["custom"])}
        if desc["custom"]["max_len"]:
            custom["maxLength"] = desc["custom"]["max_len"]
        return {"type": "string", "anyOf": [{"enum": desc["names"]}, custom]}
    raise ValueError(kind)


def merge(a, b, union: bool):
    """Union or intersection of two key domains."""
    if a == b:
        return a
    if union and (a["kind"] == "any" or b["kind"] == "any"):
        return {"kind": "any"}
    if not union and a["kind"] == "any":
        return b
    if not union and b["kind"] == "any":
        return a
    if {a["kind"], b["kind"]} == {"path", "string"}:
        # union: any string; intersection: the legacy checks plus every build's character check
        return STRING if union else dict(a if a["kind"] == "path" else b, strict=True, some_builds=[])
    if {a["kind"], b["kind"]} == {"enum", "nonempty"}:
        return {"kind": "any"} if union else {"kind": "enum", "values": [v for v in (a.get("values") or b["values"]) if v]}
    if a["kind"] != b["kind"]:
        if union:
            return {"kind": "any"}
        return {"kind": "never"}
    kind = a["kind"]
    pick = (lambda x, y: sorted(set(x) | set(y), key=(list(x) + list(y)).index)) if union else \
        (lambda x, y: [v for v in x if v in y])
    if kind in ("enum",):
        return {"kind": kind, "values": pick(a["values"], b["values"])}
    if kind == "path":
        if union:
            return dict(a, some_builds=[])
        return dict(a, strict=a.get("strict") or b.get("strict") or bool(a["some_builds"] or b["some_builds"]),
                    some_builds=[])
    if kind == "list":
        return {"kind": kind, "items": pick(a["items"], b["items"])}
    if kind == "freq":
        types = pick(a["types"], b["types"])
        if not types:
            return {"kind": "never"}
        lo = min if union else max
        hi = max if union else min
        return {"kind": "freq", "types": sorted(types), "min": lo(a["min"], b["min"]),
                "max": hi(a["max"], b["max"])}
    if kind == "metrics":
        def lax(x, y):
            if x is None or y is None:
                return None if union else (x if y is None else y)
            return max(x, y) if union else min(x, y)
        custom = {k: lax(a["custom"][k], b["custom"][k]) for k in a["custom"]}
        return {"kind": kind, "names": pick(a["names"], b["names"]), "custom": custom}
    raise ValueError(kind)


SOURCES = json.loads((ROOT / "flake8_npuprof" / "data" / "sources.json").read_text(encoding="utf-8"))["facts"]


def sources_of(key, version):
    """The refs behind a key's domain on a version (data/sources.json "schema.<key>"); any: all of them."""
    return [f'{e["ref"]} ({e["standing"]})' for e in SOURCES[f"schema.{key}"]
            if version in ("any", "portable") or version in e.get("versions", [version])]


def version_schema(name, spec) -> dict:
    props = {}
    for key, desc in spec["keys"].items():
        props[key] = dict(render(desc), **{"x-sources": sources_of(key, name)})
        if spec["camel_aliases"] and camel(key) != key:
            props[camel(key)] = render(desc)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ID_BASE + f"profiling_options.cann-{name}.schema.json",
        "title": f"Ascend profiling_options for {spec['title']}",
        "description": ("The JSON object given as profiling_options / PROFILING_OPTIONS to the "
                        "Ascend TensorFlow adapter, as GE and the msprof collector of this "
                        "version accept it. Product-specific limits (aic_metrics per chip, "
                        "switches a chip drops) are in flake8_npuprof/data/products.json."),
        "type": "object",
        "properties": props,
        "additionalProperties": False,
    }
    if spec["output_required"]:
        schema["required"] = ["output"]
    if spec["instr_exclusive"]:
        schema["dependentSchemas"] = {"instr_profiling_freq": instr_exclusive_schema(props)}
    if spec["conditional_instr"]:
        schema["if"] = {"required": ["instr_profiling"], "properties": {"instr_profiling": {"const": "on"}}}
        schema["then"] = {"properties": {"instr_profiling_freq": render(
            {"kind": "freq", "types": ["integer"], "min": 300, "max": 30000})}}
    schema["x-npuprof"] = {"target": name, "generated_by": "tools/gen_schemas.py"}
    return schema


def instr_exclusive_schema(props) -> dict:
    off = {}
    for key in INSTR_CONFLICTS:
        if key in props:
            off[key] = {"enum": [""]} if key.endswith("_metrics") else {"enum": ["off", ""]}
    return {"properties": off}


def combined(name, union: bool) -> dict:
    specs = list(VERSIONS.values())
    keys = {}
    for spec in specs:
        for key, desc in spec["keys"].items():
            if key in keys:
                keys[key] = merge(keys[key], desc, union)
            else:
                keys[key] = desc
    if not union:
        keys = {k: d for k, d in keys.items() if all(k in s["keys"] for s in specs)}
        for spec in specs:
            for key in keys:
                keys[key] = merge(keys[key], spec["keys"][key], union)
    spec = {
        "title": ("any supported CANN version (accepts what at least one version accepts)" if union
                  else "every supported CANN version (accepts only what all versions accept)"),
        "keys": keys,
        "camel_aliases": False,
        "output_required": not union,
        "instr_exclusive": not union,
        "conditional_instr": False,
    }
    schema = version_schema(name, spec)
    if union:
        # the protobuf-era collector (7.0) also took lowerCamelCase field names
        for key, desc in VERSIONS["7.0"]["keys"].items():
            if camel(key) != key:
                schema["properties"][camel(key)] = render(desc)
    schema["$id"] = ID_BASE + f"profiling_options.{name}.schema.json"
    schema["x-npuprof"]["versions"] = list(VERSIONS)
    return schema


# ---------------------------------------------------------------- torch_npu's profiler_config.json

DYNAMIC = json.loads((ROOT / "flake8_npuprof" / "data" / "torch_npu_dynamic.json").read_text(encoding="utf-8"))
TORCH_NPU = json.loads((ROOT / "flake8_npuprof" / "data" / "torch_npu.json").read_text(encoding="utf-8"))
TORCH_NPU_RELEASES = TORCH_NPU["releases"]


def _reads(entry, release) -> bool:
    return TORCH_NPU_RELEASES.index(release) >= TORCH_NPU_RELEASES.index(entry["from"])


def _dynamic_key(key, entry, release) -> dict:
    """A top-level key as the release keeps it (data/torch_npu_dynamic.json)."""
    if key == "start_step":
        floor = DYNAMIC["start_step"][release]
        # 0 (also what torch_npu resets a bad value to) never starts a collection
        return {"type": "integer", "minimum": floor, "not": {"const": 0}} if floor < 0 else \
            {"type": "integer", "minimum": 1}
    if key == "activities":
        return {"type": "array", "items": {"type": "string", "pattern": "^(?:[Cc][Pp][Uu]|[Nn][Pp][Uu])$"}}
    if key == "rank_list":
        return {"type": "array", "items": {"type": "integer", "minimum": 0}}
    if key == "experimental_config":
        return _experimental_schema(release)
    out = {"type": entry["type"]}
    if "minimum" in entry:
        out["minimum"] = entry["minimum"]
    return out


def _experimental_schema(release) -> dict:
    props = {}
    for key, entry in DYNAMIC["experimental_config"].items():
        if not _reads(entry, release):
            continue
        if key == "export_type":
            one = {"type": "string", "enum": entry["enum"]}
            props[key] = one if not _reads({"from": entry["list_from"]}, release) else \
                {"anyOf": [one, {"type": "array", "items": one, "minItems": 1}]}
        elif key == "aic_metrics":
            # the enum member's name; its raw ACL_AICORE_* value also passes unchanged
            values = list(TORCH_NPU["experimental_config"]["aic_metrics"].values())
            props[key] = {"type": "string", "anyOf": [{"enum": entry["enum"]}, {"enum": values}]}
        elif key == "host_sys":
            props[key] = {"type": "array", "items": {"type": "string", "enum": entry["items"]}}
        elif "enum" in entry:
            props[key] = {"type": "string", "enum": entry["enum"]}
        elif entry["type"] == "array":
            props[key] = {"type": "array", "items": {"type": "string"}}
        else:
            props[key] = {"type": entry["type"]}
    return {"type": "object", "properties": props, "additionalProperties": False}


def dynamic_schema(release) -> dict:
    keys = {k: e for k, e in DYNAMIC["keys"].items() if _reads(e, release)}
    props = {k: _dynamic_key(k, e, release) for k, e in keys.items()}
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ID_BASE + f"profiler_config.torch_npu-{release}.schema.json",
        "title": f"torch_npu {release} dynamic-profiling profiler_config.json",
        "description": ("The file torch_npu.profiler.dynamic_profile.init(dir) reads from dir, as this release's "
                        "ConfigContext keeps it: a value outside this schema is reset or ignored, said only in "
                        "<dir>/log/ (experimental_config: a warning on rank 0). start_step 0 never starts a "
                        "collection. Generated from flake8_npuprof/data/torch_npu_dynamic.json."),
        "type": "object",
        "properties": props,
        "required": ["start_step"],
        "additionalProperties": False,
    }
    if "is_rank" in props:
        # is_rank true with no ranks listed: no rank collects
        schema["if"] = {"required": ["is_rank"], "properties": {"is_rank": {"const": True}}}
        schema["then"] = {"required": ["rank_list"], "properties": {"rank_list": {"minItems": 1}}}
    schema["x-npuprof"] = {"torch_npu": release, "generated_by": "tools/gen_schemas.py"}
    return schema


def dynamic_schemas() -> dict:
    first = TORCH_NPU_RELEASES.index(DYNAMIC["first_release"])
    return {f"profiler_config.torch_npu-{r}.schema.json": dynamic_schema(r) for r in TORCH_NPU_RELEASES[first:]}


# ---------------------------------------------------------------- MindSpore's profiler_config.json

MS_DYNAMIC = json.loads((ROOT / "flake8_npuprof" / "data" / "mindspore_dynamic.json").read_text(encoding="utf-8"))
MS_TYPES = {"int": "integer", "bool": "boolean", "list": "array"}


def _ms_key(key) -> dict:
    """A top-level key as DynamicProfilerConfigContext keeps it (data/mindspore_dynamic.json): a value outside
    is reset (NPP356 says to what); the int forms of the enum settings are kept, with a warning that they will go."""
    typed, enum = MS_DYNAMIC["typed"].get(key), MS_DYNAMIC["enums"].get(key)
    if enum is not None and enum["shape"] == "one":
        return {"anyOf": [{"type": "string", "enum": enum["members"]}, {"type": "integer"}]}
    if enum is not None and typed is None:
        return {"anyOf": [{"type": "array", "items": {"type": "string", "enum": enum["members"]}},
                          {"type": "integer"}]}
    if enum is not None:
        return {"type": "array", "items": {"type": "string", "enum": enum["members"]}}
    if typed is not None:
        return {"type": MS_TYPES[typed["type"]]}
    if key in MS_DYNAMIC["written_back"]:
        return {"description": "written back by DynamicProfilerMonitor once it has read the file"}
    return {"description": "read as written: MindSpore's config context does not check it"}


def mindspore_dynamic_schema() -> dict:
    d = MS_DYNAMIC
    names = list(d["typed"]) + [k for k in d["enums"] if k not in d["typed"]] + d["untyped"] + d["written_back"]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ID_BASE + "profiler_config.mindspore.schema.json",
        "title": f"MindSpore {d['releases']} dynamic-profiling profiler_config.json",
        "description": ("The file mindspore.profiler.DynamicProfilerMonitor(cfg_path=dir) reads from dir, as "
                        "DynamicProfilerConfigContext keeps it (the same code in MindSpore 2.7-2.10): a value outside "
                        "this schema is reset to its default with a warning in MindSpore's log, a key outside it is "
                        "ignored without a word. start_step and stop_step are required: missing, each is -1, "
                        "which never starts a collection. Names are case-sensitive. A whole number written with a "
                        "fraction (5.0) is an integer to JSON Schema and a float to MindSpore, which resets it: NPP356 says so. "
                        "Generated from flake8_npuprof/data/mindspore_dynamic.json."),
        "type": "object",
        "properties": {k: _ms_key(k) for k in sorted(names)},
        "required": d["required"],
        "additionalProperties": False,
        "x-npuprof": {"mindspore": d["releases"], "generated_by": "tools/gen_schemas.py"},
    }


def all_schemas() -> dict:
    out = {f"profiling_options.cann-{v}.schema.json": version_schema(v, spec) for v, spec in VERSIONS.items()}
    out.update(dynamic_schemas())
    out["profiler_config.mindspore.schema.json"] = mindspore_dynamic_schema()
    out["profiling_options.any.schema.json"] = combined("any", union=True)
    out["profiling_options.portable.schema.json"] = combined("portable", union=False)
    return out


def dump(schema) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv=None) -> int:
    check = "--check" in (argv or sys.argv[1:])
    stale = []
    for fname, schema in all_schemas().items():
        path = SCHEMA_DIR / fname
        text = dump(schema)
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(fname)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print("stale schemas: " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
