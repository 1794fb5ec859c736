"""What GE and the collector of CANN 8.5 and later do with a profiling_options string.

The steps follow the code that runs: GE's ProfilingInit::InitProfOptions/ParseOptions (hicann/ge,
nlohmann::json), then the collector's ProfAclMgr::MsprofInitGeOptions (hicann/runtime libprofimpl,
its own NanoJson reader): the key whitelist, each key's checker, the result path, the storage limit,
instruction sampling and the metric events. data/ge_options.json holds what differs per version and
per chip; tests/test_oracle.py holds these steps to the record of the real code run on each chip.

A step says what the runtime does with one key (or the whole string): "reject" (the options are
refused, GE initialisation fails), "log" (an error or warning is logged and the value is read as
something else or ignored), "env" (the outcome depends on an environment variable), "unknown".
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from pathlib import Path

HERE = Path(__file__).resolve().parent.parent          # the package folder (data/)

REJECT, LOG, ENV, UNKNOWN, OFF = "reject", "log", "env", "unknown", "off"
BUFFER = 2048           # MsprofOptions.options (profiling_init.h)


@lru_cache(maxsize=None)
def data() -> dict:
    with open(HERE / "data" / "ge_options.json", encoding="utf-8") as fh:
        return json.load(fh)


def versions() -> Tuple[str, ...]:
    return tuple(data()["versions"])


def facts(version: str) -> dict:
    return data()["versions"][version]


def platform(version: str, product: str) -> Optional[dict]:
    """What the collector's Platform answers on this chip (None: no platform class for it in the
    source of that version, so no answer is known)."""
    return data()["platforms"].get(version, {}).get("chips", {}).get(product)


class Step(NamedTuple):
    key: Optional[str]  # the JSON key (None for the whole string)
    action: str         # REJECT, LOG, ENV or UNKNOWN
    stage: str          # "ge" or "collector"
    line: str           # what the runtime logs (the first line, as written)
    kind: str           # what is wrong: json, object, type, value, unknown_key, unsupported, level, l3,
                        # range, llc, items, empty, metrics, output, storage, instr, env_output, op_filter


# ---------------------------------------------------------------- GE: nlohmann::json, strict

def _strict(text: str):
    """The document as nlohmann::json reads it, or None (nlohmann refuses what json.loads refuses,
    and also NaN/Infinity and unpaired surrogate escapes; it skips a UTF-8 byte-order mark, and reads
    any depth: GE's copy is at most 2047 bytes, so the recursion limit is raised to cover it)."""
    def no_constant(name):
        raise ValueError(name)
    body = text[1:] if text.startswith("\ufeff") else text
    if _lone_surrogate(body):
        return None
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 2 * BUFFER + 100))
        return json.loads(body, parse_constant=no_constant)
    except (ValueError, RecursionError):
        return None
    finally:
        sys.setrecursionlimit(limit)


_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.S)


def _lone_surrogate(text: str) -> bool:
    """An escaped surrogate half without its partner (nlohmann refuses it; json.loads does not)."""
    pending = False
    last = -1
    for m in _ESCAPE.finditer(text):
        code = int(m.group(1)[1:], 16) if m.group(1)[0] == "u" and len(m.group(1)) == 5 else None
        adjacent = m.start() == last
        if pending and not (adjacent and code is not None and 0xDC00 <= code <= 0xDFFF):
            return True
        if pending:
            pending = False
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return True
        else:
            pending = code is not None and 0xD800 <= code <= 0xDBFF
        last = m.end()
    return pending


_NL_TYPES = {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object",
             type(None): "null"}


def ge_steps(text: str) -> List[Step]:
    """GE's ParseOptions: the string must be a JSON object; training_trace (looked for only when its
    name occurs anywhere in the text) must be the string "on" or ""; with "on", fp_point and bp_point
    must be strings."""
    doc = _strict(text)
    if doc is None:
        return [Step(None, REJECT, "ge", "Json prof_conf options is invalid, catch exception:"
                     "[json.exception.parse_error.101] parse error", "json")]
    if not isinstance(doc, dict):
        # GE_ASSERT_TRUE(v) is GE_ASSERT((v)), which logs "Assert %s failed" with #exp: the parenthesised
        # expression (metadef pkg_inc/common/checker.h)
        return [Step(None, REJECT, "ge", "Assert (prof_options.is_object()) failed", "object")]
    if "training_trace" not in text or "training_trace" not in doc:
        return []
    value = doc["training_trace"]
    if not isinstance(value, str):
        return [Step("training_trace", REJECT, "ge", "Json prof_conf options is invalid, catch exception:"
                     f"[json.exception.type_error.302] type must be string, but is {_NL_TYPES[type(value)]}",
                     "type")]
    if value == "":
        return []
    if value != "on":
        return [Step("training_trace", REJECT, "ge", f"Training trace param:{value} is invalid.", "value")]
    out = []
    for key in ("fp_point", "bp_point"):
        if key in doc and not isinstance(doc[key], str):
            out.append(Step(key, REJECT, "ge", "Json prof_conf options is invalid, catch exception:"
                            f"[json.exception.type_error.302] type must be string, but is "
                            f"{_NL_TYPES[type(doc[key])]}", "type"))
            break           # the first exception ends the parse
    return out


# ---------------------------------------------------------------- the collector: NanoJson

class Nano(NamedTuple):
    """One value as NanoJson holds it: kind is string, uint, int, double, bool, null, array, object."""
    kind: str
    value: Any          # as the kind says: str, int, float, bool, None, a list of Nano, a dict of them


class _Bad(Exception):
    """NanoJson fails here: why, and the top-level key whose value it was reading (None: elsewhere)."""

    def __init__(self, why: str = "syntax", key: Optional[str] = None):
        super().__init__(why)
        self.why, self.key = why, key


_WS = " \r\n\t\v\f"
WHITESPACE = _WS              # what the collector's reader skips before a key or value


def nano_parse(text: str) -> Optional[Dict[str, Nano]]:
    obj, _ = nano_read(text)
    return obj


def nano_read(text: str) -> Tuple[Optional[Dict[str, Nano]], Optional[_Bad]]:
    """nano_read_once's answer in a dict of the caller's own: the collector is asked once per CANN version and
    chip (over a hundred times for one options string), and its reading depends on the text alone."""
    obj, bad = _nano_read_once(text)
    return (dict(obj) if obj is not None else None), bad


@lru_cache(maxsize=64)
def _nano_read_once(text: str) -> Tuple[Optional[Dict[str, Nano]], Optional[_Bad]]:
    """The top-level object as the collector's NanoJson reads it, or None when it fails to parse.

    NanoJson does not decode escapes (a string ends at the next '"', so `\\"` cuts it short), drops
    whitespace at the start of a key or string value, reads a number with strtod/stoi (an integer
    part beyond int32 fails), keeps the last of repeated keys, and ignores what follows the object."""
    text = text.lstrip(_WS)
    if not text.startswith("{"):
        return None, _Bad()
    try:
        value, _ = _nano_object(text, 0)
    except _Bad as bad:
        return None, bad
    return value.value, None


def _skip(text: str, i: int, chars: str) -> int:
    """The index of the first character from i that is not in chars (i itself past the end)."""
    if i >= len(text) or text[i] not in chars:
        return i                            # (no run here: most calls, and no match made for them)
    found = _RUNS[chars](text, i)           # (a run of one character class: a match, never None)
    return found.end() if found is not None else i


# _skip's runs, one pattern per set of characters it is asked to skip (a loop over characters took about 6 % of
# the Python steps of an options string's judgement)
_RUNS = {chars: re.compile("[" + re.escape(chars) + "]*").match for chars in (_WS, _WS + ",", _WS + ":")}


def _nano_value(s: str, i: int) -> Tuple[Nano, int]:
    """One value; a nested array or object is read without recursion (the runtime recurses, but the
    options are at most 2047 bytes, and Python's stack is shallower than that)."""
    i = _skip(s, i, _WS)
    if i >= len(s):
        raise _Bad()
    c = s[i]
    if c in "{[":
        kind = "object" if c == "{" else "array"
        return Nano(kind, None), _nano_nested(s, i)
    if c == '"':
        i = _skip(s, i + 1, _WS)
        end = s.find('"', i)
        if end < 0:
            raise _Bad()
        return Nano("string", s[i:end]), _skip(s, end + 1, _WS + ",")
    if s.startswith("true", i) or s.startswith("false", i):
        word = "true" if s.startswith("true", i) else "false"
        return Nano("bool", word == "true"), _skip(s, i + len(word), _WS + ",")
    if c == "t" or c == "f":
        raise _Bad()
    if c == "n":
        return Nano("null", None), _skip(s, i + 4, _WS + ",")
    if c in "-0123456789":
        return _nano_number(s, i)
    raise _Bad()


def _nano_nested(s: str, i: int) -> int:
    """The index after a nested array or object, read by NanoJson's rules (GetJsonArray/GetJsonObj)."""
    stack: List[str] = []
    while True:
        if stack and stack[-1] == "{" and i < len(s) and s[i] != "}":
            if s[i] != '"':                     # a member: its key, then its value
                raise _Bad()
            end = s.find('"', _skip(s, i + 1, _WS))
            if end < 0:
                raise _Bad()
            i = _skip(s, end + 1, _WS + ":")
            if i < len(s) and s[i] == ",":
                i = _skip(s, i, _WS + ",")
                continue
        i = _skip(s, i, _WS) if stack else i
        if i >= len(s):
            raise _Bad()
        c = s[i]
        if stack and c == ("}" if stack[-1] == "{" else "]"):
            stack.pop()
            i = _skip(s, _skip(s, i, _WS) + 1, _WS + ",")
            if not stack:
                return i
            continue
        if c in "{[":
            stack.append(c)
            i = _skip(s, i + 1, _WS)
            continue
        if not stack:
            raise _Bad()
        _, i = _nano_value(s, i)                 # a scalar: never nested
        if i >= len(s):
            raise _Bad()


def _nano_object(s: str, i: int) -> Tuple[Nano, int]:
    i = _skip(s, i + 1, _WS)
    members: Dict[str, Nano] = {}
    while True:
        if i >= len(s):
            raise _Bad()
        if s[i] == "}":
            break
        if s[i] != '"':
            raise _Bad()
        i = _skip(s, i + 1, _WS)
        end = s.find('"', i)
        if end < 0:
            raise _Bad()
        key = s[i:end]
        i = _skip(s, end + 1, _WS + ":")
        if i < len(s) and s[i] == ",":
            i = _skip(s, i, _WS + ",")
            continue
        try:
            value, i = _nano_value(s, i)
        except _Bad as bad:
            raise _Bad(bad.why, key if bad.key is None else bad.key) from None
        if i < len(s) and s[i] not in '"}':
            # a string value ended early at an escaped quote: what follows is no key
            raise _Bad("quote", key)
        members[key] = value
    i = _skip(s, i, _WS)
    return Nano("object", members), _skip(s, i + 1, _WS + ",")


_STRTOD = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)")
_STOI = re.compile(r"[+-]?\d+")


def _nano_number(s: str, i: int) -> Tuple[Nano, int]:
    m = _STRTOD.match(s, i)
    if not m:
        raise _Bad()            # std::stod throws invalid_argument (the runtime would terminate)
    token = m.group()
    if len(token) > 1 and (token.endswith(".") or token.startswith("00") or token.startswith("-.")):
        raise _Bad()
    end = m.end()
    if "." in token:
        return Nano("double", float(token)), _skip(s, end, _WS + ",")
    digits = _STOI.match(s, i)
    assert digits is not None           # (the number matched above starts so)
    whole = int(digits.group())
    if not -2 ** 31 <= whole < 2 ** 31:     # std::stoi: out_of_range, "Failed to transfer json ..."
        raise _Bad("integer")
    return Nano("int" if s[i] == "-" else "uint", whole), _skip(s, end, _WS + ",")


def as_string(v: Nano) -> Tuple[str, bool]:
    """GetValue<std::string>: (the text, whether an error was logged for another type)."""
    return (v.value, False) if v.kind == "string" else ("", True)


def as_uint32(v: Nano) -> Tuple[Optional[int], bool]:
    """GetValue<uint32_t>: (the number, logged) -- None for a JSON boolean, whose other bytes are
    left over from the previous value (undefined: in practice out of every range)."""
    if v.kind == "uint":
        return v.value & 0xFFFFFFFF, False
    if v.kind == "int":
        return v.value & 0xFFFFFFFF, False
    if v.kind == "bool":
        return None, False
    return 0, True


def as_int32(v: Nano) -> Tuple[Optional[int], bool]:
    """GetValue<int32_t> (read as uint32 by the frequency check it feeds)."""
    if v.kind in ("uint", "int"):
        return v.value & 0xFFFFFFFF, False
    if v.kind == "bool":
        return None, False
    return 0, True


# ---------------------------------------------------------------- the collector's checks

def collector_steps(text: str, version: str, product: str, env: Optional[Dict[str, str]] = None) -> List[Step]:
    """The collector's steps for these options on one chip. An empty list: accepted without a word.

    For a chip whose platform class is not in that version's source, a check counts only when it
    gives the same answer on a chip with every feature and on a chip with none."""
    obj, bad = _nano_read_once(text)
    if env is not None:
        return _collector_steps(obj, bad, version, product, env)
    # what the collector does depends on what it reads, not on how the text spells it: options strings that
    # differ only in spacing or order of a script's literals, or share every member, are judged once
    if obj is not None:
        # and the result path, which changes from script to script, apart from the other members (on the 40-file
        # setup sample, 252 readings of the others for 414 of the whole object)
        output = obj.get("output")
        around = _steps_around_output(tuple(item for item in obj.items() if item[0] != "output"), version, product)
        if around is not None:
            return [*around[0], *_output_steps(output, version), *around[1]]
        return list(_collector_steps_of(("object", tuple(obj.items())), version, product))
    assert bad is not None              # (_nano_read_once gives one of them)
    return list(_collector_steps_of(("bad", bad.why, bad.key), version, product))


@lru_cache(maxsize=512)
def _collector_steps_of(read: tuple, version: str, product: str) -> Tuple[Step, ...]:
    """collector_steps without an environment, for one reading (nano_read's object as its items, or its failure)."""
    if read[0] == "object":
        return tuple(_collector_steps(dict(read[1]), None, version, product, None))
    return tuple(_collector_steps(None, _Bad(read[1], read[2]), version, product, None))


@lru_cache(maxsize=512)
def _steps_around_output(rest: tuple, version: str, product: str) -> Optional[Tuple[Tuple[Step, ...], Tuple[Step, ...]]]:
    """The steps before and after the result path's (_output_steps) for an object of the members `rest` (its items
    without "output") and any "output", or None when they cannot be told apart. The collector checks no member
    named "output" (it is in every version's `unchecked`) and reads its value only in _output_steps, whose steps
    (key "output", the same on every platform) come after the members' and before the construction's; a chip
    without a platform class merges its two platforms' steps key by key, in the keys' order, and the path's,
    equal on both, stay whole in their place. So the steps with any path are those without one (its steps:
    never none) with the path's in the place of those."""
    steps = _collector_steps(dict(rest), None, version, product, None)
    at = [k for k, step in enumerate(steps) if step.key == "output"]
    absent = _output_steps(None, version)
    if "output" not in facts(version)["unchecked"] or not at or at != list(range(at[0], at[0] + len(absent))) or \
            tuple(steps[at[0]:at[-1] + 1]) != absent:
        return None                     # (another step keyed "output": take the whole object as before)
    return tuple(steps[:at[0]]), tuple(steps[at[-1] + 1:])


def _collector_steps(obj: Optional[Dict[str, Nano]], bad: Optional[_Bad], version: str, product: str,
                     env: Optional[Dict[str, str]]) -> List[Step]:
    if platform(version, product) is not None:
        return _collector(obj, bad, version, product, None, env)
    both: Tuple[Dict[Optional[str], List[Step]], ...] = ({}, {})     # each platform's steps by key, in order
    for on, by_key in zip((True, False), both):
        for step in _collector(obj, bad, version, product, on, env):
            by_key.setdefault(step.key, []).append(step)
    out = []
    for key in sorted(both[0].keys() | both[1].keys(), key=lambda k: (k is not None, k or "")):
        a, b = both[0].get(key, []), both[1].get(key, [])
        same = 0                     # the steps both give (a type error logged, say) are known
        while same < min(len(a), len(b)) and a[same][1:] == b[same][1:]:
            same += 1
        out.extend(a[:same])
        if a[same:] or b[same:]:
            if _outcome(a[same:]) == _outcome(b[same:]):
                out.extend(a[same:])
            else:
                out.append(Step(key, UNKNOWN, "collector", "", "platform"))
    return out


def _outcome(steps: List[Step]) -> Tuple[str, ...]:
    return tuple(sorted({s.action for s in steps}))


@lru_cache(maxsize=None)
def _hypothetical(version: str, on: bool) -> dict:
    """A platform with every feature (on) or none, bounded by what the known chips of the version have."""
    table = data()["platforms"].get(version, {})
    known = list(table.get("chips", {}).values())
    return {
        # a name PLATFORM_FEATURE_MAP lacks is unsupported on every chip
        "switch": {n: on for n in table.get("switch_names", ())},
        "feature": {f: on for f in ("PLATFORM_TASK_TRACE_L3", "PLATFORM_SYS_DEVICE_US",
                                    "PLATFORM_TASK_INSTR_PROFILING", "PLATFORM_TASK_BLOCK",
                                    "PLATFORM_TASK_SCALE", "PLATFORM_SYS_MEM_SERVICEFLOW")},
        "metric": {m: True for p in known for m in p["metric"]} if on else {},
        "max_monitor": max((p["max_monitor"] for p in known), default=8) if on else
        min((p["max_monitor"] for p in known), default=8),
    }


def _collector(obj: Optional[Dict[str, Nano]], bad: Optional[_Bad], version: str, product: str,
               hypothetical: Optional[bool], env) -> List[Step]:
    """The steps on one platform (the chip's, or _hypothetical's), from nano_read's answer (obj, or bad when it
    failed; neither is changed). Each member's steps and the construction's are kept: options strings repeat
    their members from script to script, and each is judged for every version and chip."""
    if obj is None:
        assert bad is not None          # (nano_read gives one of them)
        return [Step(bad.key, REJECT, "collector", "Failed to parse geoption configs. Error reason: "
                     "Input json string error", "json_" + bad.why)]
    steps: List[Step] = []
    for key, value in obj.items():
        steps.extend(_member_steps(key, value, version, product, hypothetical))
    # the code stops at the first refusal; the steps go on, so that each problem is found on its own
    if env is not None:
        steps.extend(_construct(obj, version, product, _platform_of(version, product, hypothetical), env))
    else:                               # (the result path's steps kept apart: it changes from script to script)
        steps.extend(_output_steps(obj.get("output"), version))
        steps.extend(_construct_steps(tuple(obj.get(k) for k in _CONSTRUCT_READS) +
                                      (obj.get(facts(version)["op_filter_key"]),), version, product, hypothetical))
    return steps


def _platform_of(version: str, product: str, hypothetical: Optional[bool]) -> dict:
    """The chip's platform (hypothetical None), or the one with every feature (True) or none (False)."""
    if hypothetical is None:
        plat = platform(version, product)
        assert plat is not None         # (asked for a chip with a platform class only)
        return plat
    return _hypothetical(version, hypothetical)


@lru_cache(maxsize=2048)
def _member_steps(key: str, value: Nano, version: str, product: str,
                  hypothetical: Optional[bool]) -> Tuple[Step, ...]:
    """What the collector's loop over the members does with one of them."""
    f = facts(version)
    if key not in f["whitelist"]:
        return (Step(key, REJECT, "collector", f"Invalid geoption config: {key}", "unknown_key"),)
    steps: List[Step] = []
    if key == "hccl":
        steps.append(Step(key, LOG, "collector", "[Note] [hccl] This option will be discarded in later versions.",
                          "deprecated"))
    elif key == "task_trace":
        steps.append(Step(key, LOG, "collector", "[Note] [task_trace] This option will be discarded in later "
                          "versions.Use task_time instead", "deprecated"))
    if key not in f["unchecked"]:
        steps.extend(_check(key, value, version, product, _platform_of(version, product, hypothetical)))
    return tuple(steps)


# the members _construct_rest reads, with the version's op filter key after them
_CONSTRUCT_READS = ("storage_limit", "instr_profiling", "instr_profiling_freq")


@lru_cache(maxsize=1024)
def _output_steps(value: Optional[Nano], version: str) -> Tuple[Step, ...]:
    """_output without an environment."""
    return tuple(_output(value, facts(version), None))


@lru_cache(maxsize=1024)
def _construct_steps(values: tuple, version: str, product: str, hypothetical: Optional[bool]) -> Tuple[Step, ...]:
    """_construct_rest, from the values of the members it reads (_CONSTRUCT_READS and the op filter key; None:
    absent)."""
    keys = _CONSTRUCT_READS + (facts(version)["op_filter_key"],)
    obj = {k: v for k, v in zip(keys, values) if v is not None}
    return tuple(_construct_rest(obj, version, product, _platform_of(version, product, hypothetical)))


@lru_cache(maxsize=None)
def supported_anywhere(version: str, key: str) -> bool:
    """Whether any chip of the version's source supports the key (a key no chip supports is
    refused everywhere: in effect not a key of that version). From the data alone: worked out once."""
    chips = data()["platforms"].get(version, {}).get("chips", {}).values()
    feature = {"task_block": "PLATFORM_TASK_BLOCK", "sys_mem_serviceflow": "PLATFORM_SYS_MEM_SERVICEFLOW",
               "scale": "PLATFORM_TASK_SCALE", "optype": "PLATFORM_TASK_SCALE"}.get(key)
    return any(p["switch"].get(key) or (feature and p["feature"].get(feature)) for p in chips)


# what a chip without a key's platform feature does with it: the switch names go through CheckIfSupport
_GATED = {"task_block": "PLATFORM_TASK_BLOCK", "sys_mem_serviceflow": "PLATFORM_SYS_MEM_SERVICEFLOW"}


@lru_cache(maxsize=None)
def gated(version: str, key: str) -> bool:
    """Whether the collector of the version checks the chip's support before the key's value (from the data
    alone: worked out once; _unsupported asks it for every key of the whitelist, a list)."""
    f = facts(version)
    kind = f["checkers"].get(key, "freq" if key in data()["freq_keys"] else "switch")
    return key in f["whitelist"] and key not in f["unchecked"] and kind in ("switch", "level", "freq") \
        or key in _GATED


def accepted_key(version: str, key: str) -> bool:
    """Whether some chip's collector of the version takes the key with a value other than "" ."""
    if key not in facts(version)["whitelist"]:
        return False
    return not gated(version, key) or supported_anywhere(version, key)


def unsupported(product: str, version: str) -> Dict[str, Tuple[str, str]]:
    """{key: ("error" or "unknown", why)} for the whitelisted keys this chip's collector refuses."""
    return dict(_unsupported(product, version))


@lru_cache(maxsize=None)
def _unsupported(product: str, version: str) -> Dict[str, Tuple[str, str]]:
    # from the data alone, asked for every options value checked: worked out once per chip and version
    plat = platform(version, _runtime_product(product))
    out = {}
    for key in facts(version)["whitelist"]:
        if not gated(version, key) or not supported_anywhere(version, key):
            continue
        if plat is None:
            out[key] = ("unknown", "the collector of this version for this chip is not open source")
        elif not (plat["switch"].get(key) or (key in _GATED and plat["feature"].get(_GATED[key]))):
            out[key] = ("error", "this chip's platform lacks the feature the collector checks for it")
    if _runtime_product(product) in facts(version)["llc_refused_on"]:
        out["llc_profiling"] = ("error", "this chip's LLC is profiled only through the msprof command line")
    return out


def _runtime_product(product: str) -> str:
    return "910B" if product == "910C" else product


def _supported(plat: dict, name: str) -> bool:
    return plat["switch"].get(name, False)


def _check(key: str, value: Nano, version: str, product: str, plat: dict) -> List[Step]:
    f = facts(version)
    kind = f["checkers"].get(key, "freq" if key in data()["freq_keys"] else "switch")
    if kind == "freq":
        number, logged = as_uint32(value)
        out = [Step(key, LOG, "collector", "Invalid data type for uint variable", "type")] if logged else []
        if not _supported(plat, key):
            return out + [Step(key, REJECT, "collector", f"Argument [{key}] is not supported.", "unsupported")]
        lo, hi = data()["freq_ranges"][key]
        if key == "sys_hardware_mem_freq" and plat["feature"].get("PLATFORM_SYS_DEVICE_US"):
            hi = data()["hardware_mem_max_on_us_chips"]
        if number is None or not lo <= number <= hi:
            shown = "…" if number is None else number        # a boolean: leftover bytes, whatever they hold
            return out + [Step(key, REJECT, "collector", f"Argument {key}: invalid value: {shown}. Please input an "
                               f"integer value in {lo}-{hi}.", "range" if value.kind != "bool" else "type")]
        return out
    text, logged = as_string(value)
    out = [Step(key, LOG, "collector", "Invalid data type for string variable", "type")] if logged else []
    if kind == "metrics":
        return out + _metrics(key, text, plat)
    if kind == "level":
        return out + _level(key, text, version, plat)
    if kind == "llc":
        if product in f["llc_refused_on"]:
            return out + [Step(key, REJECT, "collector", "1910 llc is supported only in the msprof command line tool",
                               "unsupported")]
        if text not in ("read", "write"):
            return out + [Step(key, REJECT, "collector", f"Argument llc config: invalid value: {text}. Please input in "
                               "the range of 'read|write'", "value" if not logged else "type")]
        return out
    if kind in ("host_sys", "host_sys_usage"):
        allowed = f["host_sys"] if kind == "host_sys" else data()["host_sys_usage"]
        for item in _split(text, ","):
            if item not in allowed:
                line = (f"hostSysOptions[{item}] is invalid" if kind == "host_sys" else
                        f"hostSysUsageOptions[{item}] is invalid.") if item else \
                    f"Argument --host-sys: invalid value:{item}. Please input in the range of 'cpu|mem'"
                return out + [Step(key, REJECT, "collector", line, "items")]
        return out
    if kind == "task_block":
        if not plat["feature"].get("PLATFORM_TASK_BLOCK"):
            return out + [Step(key, REJECT, "collector", f"Argument {key} is not supported", "unsupported")]
        if not text:
            return out + [Step(key, REJECT, "collector", f"Argument {key} is empty.", "empty" if not logged else "type")]
        if text not in ("on", "off"):
            return out + [Step(key, REJECT, "collector", f"Argument {key}: invalid value: {text}. "
                               f"{f['task_block_hint']}", "value")]
        if text == "on" and f["task_block_on_only"] and product not in f["task_block_on_only"]:
            return out + [Step(key, REJECT, "collector", "The on option is not supported on this platform, please "
                               "use all to collect block data.", "unsupported")]
        return out
    if kind == "serviceflow":
        if not plat["feature"].get("PLATFORM_SYS_MEM_SERVICEFLOW"):
            return out + [Step(key, REJECT, "collector", f"Argument {key} is not supported", "unsupported")]
        if not text:
            return out + [Step(key, REJECT, "collector", f"Argument {key} is empty.", "empty" if not logged else "type")]
        return out
    # CheckParamEmptyInvalid: the chip first, then "", "on" or "off"
    if not _supported(plat, key):
        return out + [Step(key, REJECT, "collector", f"Argument [{key}] is not supported.", "unsupported")]
    if text not in ("", "on", "off"):
        return out + [Step(key, REJECT, "collector", f"Argument {key}: invalid value: {text}. Please input 'on' or "
                           "'off'.", "value")]
    return out


def _level(key: str, text: str, version: str, plat: dict) -> List[Step]:
    """CheckParamL0L1Invalid: "" passes before anything is checked."""
    f = facts(version)
    if not text:
        return []
    if not _supported(plat, key):
        return [Step(key, REJECT, "collector", f"Argument [{key}] is not supported.", "unsupported")]
    l3 = plat["feature"].get("PLATFORM_TASK_TRACE_L3", False)
    if text == "l3" and f["l3_check"] and not l3:
        return [Step(key, REJECT, "collector", "l3 is not supported on this platform.", "l3")]
    if key == "ge_api":
        if text in f["levels"]["ge_api"]:
            return []
        hint = "Please input 'l0', 'l1' or 'off'."
    else:
        if text in f["levels"]["task"]:
            return []
        hint = ("Please input 'on', 'off', 'l0', 'l1', 'l2' or 'l3'." if f["l3_check"] and l3 else
                "Please input 'on', 'off', 'l0', 'l1' or 'l2'.")
    return [Step(key, REJECT, "collector", f"Argument {key}: invalid value: {text}. {hint}", "value")]


def _split(text: str, sep: str) -> List[str]:
    """Utils::Split without filtering: "" gives no item, "a," gives ["a"], "a,,b" gives ["a", "", "b"]."""
    if not text:
        return []
    parts = (text + sep).split(sep)
    return parts[:-1]


def _metrics(key: str, text: str, plat: dict) -> List[Step]:
    """CheckAicoreMetricsIsValid."""
    if not text:
        return []
    limit = data()["metrics_max_len"]
    if len(text.encode("utf-8", "surrogatepass")) > limit:
        return [Step(key, REJECT, "collector", f"The parameter length exceeds the specified value of {limit}.",
                     "metrics")]
    if text.startswith("Custom:"):
        events = text[len("Custom:"):].lower()
        if not events:
            return [Step(key, REJECT, "collector", "Custom PMU event is empty.", "metrics")]
        items = _split(events, ",")
        if len(items) > plat["max_monitor"]:
            return [Step(key, REJECT, "collector", f"check event monitor size({len(items)}) is bigger than "
                         f"{plat['max_monitor']}", "metrics")]
        for item in items:
            if not (_hex(item) or _dec(item)):
                # CheckHexOrDec drops a leading "0x" in place before it fails: the line shows the rest
                shown = item.strip()
                shown = shown[2:] if len(shown) > 2 and shown.startswith("0x") else shown
                return [Step(key, REJECT, "collector", f"0x{shown} is invalid, hexadecimal or decimal "
                             "parameters are allowed.", "metrics")]
        return []
    if plat["metric"].get(text):
        return []
    return [Step(key, REJECT, "collector", f"The aic_metrics[{text}] of input config is invalid", "metrics")]


def _hex(event: str) -> bool:
    event = event.strip()
    return len(event) > 2 and event.startswith("0x") and all(c in "0123456789abcdef" for c in event[2:])


def _dec(event: str) -> bool:
    """Decimal digits that std::stoi reads without overflow."""
    event = event.strip()
    return bool(event) and event.isdigit() and event.isascii() and int(event) < 2 ** 31


def _construct(obj: Dict[str, Nano], version: str, product: str, plat: dict, env) -> List[Step]:
    """MsprofGeOptionsParamConstruct: result path, storage limit, instruction sampling, the op filter."""
    return _output(obj.get("output"), facts(version), env) + _construct_rest(obj, version, product, plat)


def _construct_rest(obj: Dict[str, Nano], version: str, product: str, plat: dict) -> List[Step]:
    """_construct after the result path (which alone reads the environment)."""
    f = facts(version)
    out: List[Step] = []
    storage = obj.get("storage_limit")
    if storage is not None:
        text, logged = as_string(storage)
        if logged:
            out.append(Step("storage_limit", LOG, "collector", "Invalid data type for string variable", "type"))
        problem = storage_problem(text)
        if problem:
            out.append(Step("storage_limit", LOG, "collector", problem, "storage"))
    instr_chip = plat["feature"].get("PLATFORM_TASK_INSTR_PROFILING", False)
    instr = obj.get("instr_profiling")
    instr_on = instr is not None and instr.kind == "string" and instr.value == "on"
    if instr_chip and f["instr_freq_useless_on_instr_chips"] and (version != "8.5" or instr_on):
        out.append(Step("instr_profiling_freq", LOG, "collector",
                        "The argument: instr_profiling_freq is useless on the platform.", "instr"))
    else:
        freq = obj.get("instr_profiling_freq")
        number: Optional[int] = 1000
        if freq is not None:
            number, logged = as_int32(freq)
            if logged:
                out.append(Step("instr_profiling_freq", LOG, "collector", "Invalid data type for int variable",
                                "type"))
        lo, hi = data()["instr_freq_range"]
        if instr_on and (number is None or not lo <= number <= hi):
            shown = "…" if number is None else number
            out.append(Step("instr_profiling_freq", REJECT, "collector",
                            f"instr_profiling_freq {shown} cycle is invalid ({lo}~{hi}).", "instr"))
    op_key = f["op_filter_key"]
    op = obj.get(op_key)
    if op is not None:
        text, _ = as_string(op)
        if text and not plat["feature"].get("PLATFORM_TASK_SCALE"):
            line = "Scale not support on this platform." if op_key == "scale" else \
                "OpType not supported on this platform."
            out.append(Step(op_key, REJECT, "collector", line, "op_filter"))
        elif text:
            out.append(Step(op_key, UNKNOWN, "collector", "", "op_filter"))
    return out


def _output(value: Optional[Nano], f: dict, env) -> List[Step]:
    """MsprofResultPathAdapter."""
    text, logged = as_string(value) if value is not None else ("", False)
    out = [Step("output", LOG, "collector", "Invalid data type for string variable", "type")] if logged else []
    if not text:
        work = (env or {}).get("ASCEND_WORK_PATH") if env is not None else None
        if env is not None and not work:
            return out + [Step("output", REJECT, "collector", "Result path and ASCEND_WORK_PATH env is empty",
                               "env_output")]
        if env is None:
            return out + [Step("output", ENV, "collector", "Result path and ASCEND_WORK_PATH env is empty",
                               "env_output")]
        assert work                     # (env is given and holds it: checked above)
        text = work.rstrip("/") + "/profiling_data"
    bad = next((c for c in f["output_invalid_chars"] if c in text), None)
    if bad is not None:
        # the path checked (and logged) is RelativePathToAbsolutePath's: a relative one after the job's
        # working directory, which a static reading does not know ("…"); one whose start is not in the
        # source may be either, and is shown as it is
        shown = text if text.startswith(("/", _UNKNOWN)) else "…/" + text
        return out + [Step("output", REJECT, "collector", f"The path {shown} contains invalid character "
                           f"{_SHOWN.get(bad, bad)}.", "output")]
    too_long = [p for p in text.split("/") if len(p.encode("utf-8", "surrogatepass")) > data()["name_max"]]
    if too_long or len(text.encode("utf-8", "surrogatepass")) >= data()["path_max"]:
        return out + [Step("output", REJECT, "collector", "Result path is empty or not accessible, result path: ",
                           "output")]
    return out


_UNKNOWN = "\ue000"      # source/text.py's HOLE (knowledge imports no other layer): a stretch not in the source
_SHOWN = {"\n": "\\n", "\f": "\\f", "\r": "\\r", "\b": "\\b", "\t": "\\t", "\v": "\\v", "\x7f": "\\u007f",
          '"': '\\"', "'": "'", "\\": "\\\\", "%": "\\%", ">": "\\>", "<": "\\<", "|": "\\|", "&": "\\&",
          "$": "\\$", ";": "\\;", "`": "\\`"}


def storage_problem(text: str) -> Optional[str]:
    """CheckStorageLimit's first error line, or None (8.5+: a warning only, the text is kept)."""
    if not text:
        return None
    if len(text) <= 2:
        return f"storage_limit:{text}, length is less than 3"
    if not text.endswith("MB"):
        return f"storage_limit:{text}, not end with MB"
    digits = text[:-2]
    if not digits.isdigit() or not digits.isascii():
        return f"storage_limit:{text}, invalid numbers"
    if len(digits) > 10:
        return f"storage_limit:{text}, valid range is 200~4294967296"
    n = int(digits)
    if n < 200:
        return f"storage_limit:{text}, min value is 200MB"
    if n > 0xFFFFFFFF:
        return f"storage_limit:{text}, max value is 4294967295MB"
    return None


def steps(text: str, version: str, product: str, env: Optional[Dict[str, str]] = None,
          cut: bool = True) -> List[Step]:
    """GE's steps, then (when GE passes the options on) the collector's. env: the environment the
    collector reads ($ASCEND_WORK_PATH), None when it is not known; cut: the options as GE's buffer
    holds them (False: as written, for what each key does once the string is short enough)."""
    if not text:
        # GE takes empty options for "not set" and turns to $PROFILING_MODE/$PROFILING_OPTIONS
        return [Step(None, OFF, "ge", "", "empty")]
    raw = text.encode("utf-8", "surrogatepass")
    if cut and len(raw) > BUFFER - 1:
        # GE copies the options into its 2048-byte MsprofOptions buffer: the rest is cut off
        text = raw[:BUFFER - 1].decode("utf-8", "ignore")
    # GE runs first and a refusal there ends the run; the collector's steps are listed as well, as
    # what each of its checks would do once GE lets the options through
    return ge_steps(text) + collector_steps(text, version, product, env)


def verdict(all_steps: List[Step]) -> str:
    """'rejected', 'unknown', 'env' or 'accepted' for a whole run of steps."""
    actions = {s.action for s in all_steps}
    if REJECT in actions:
        return "rejected"
    if UNKNOWN in actions:
        return "unknown"
    if ENV in actions:
        return "env"
    if OFF in actions:
        return "off"
    return "accepted"

