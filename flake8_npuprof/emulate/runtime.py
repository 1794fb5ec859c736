"""The runtime pipeline for one setup on one CANN version and product, as the runtime runs it.

Stages (profiling_options_facts.md §0): the Python API and the TF adapter (switch types,
default options), GE (config or environment, JSON object, training_trace), the msprof
collector of that version (whitelist, values, ranges), then the product (dropped switches,
metric remaps). A rejection anywhere is a GE init failure that aborts the job; it is reported
with the text the runtime logs (collection.json "emulation.messages") and its NPP code. The
NPP1xx checks themselves come from checks/options.py: this module only decides, per issue,
what the runtime does with it and says it in the runtime's words.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import List, NamedTuple, Optional, Tuple

from ..knowledge import datafiles as K
from ..checks.options import ABORT, check_options, snake
from ..knowledge.collection import data as collection_data, effective_switches
from ..setups.inventory import Mode
from ..setups.state import python_error_code
from ..source.jsonscan import Unknown, with_holes
from ..source.text import HOLE
from ..knowledge.targets import Target
from .message import Message

# Values of these keys do not decide what is collected: a hole in them still lets us emulate.
FREE_TEXT_KEYS = ("output", "fp_point", "bp_point", "storage_limit")


class Env(NamedTuple):
    """PROFILING_MODE / PROFILING_OPTIONS (None: unset) as GE would read them, and where from."""
    mode: Optional[str] = None
    options: Optional[str] = None
    label: str = "the environment"       # where PROFILING_OPTIONS comes from, for messages
    work_path: Optional[str] = None      # ASCEND_WORK_PATH (8.5+ output fallback)
    work_path_known: bool = True         # False without --env: ASCEND_WORK_PATH may or may not be set
    mode_label: str = ""                 # where PROFILING_MODE comes from, when not `label`


class Request(NamedTuple):
    route: str
    mode: Mode
    options_state: str          # absent, none, empty, given, error
    text: Optional[str] = None  # the options text when given
    origin: str = "the script"  # env route: who sets the variables ("the script", "the launcher")


class Outcome(NamedTuple):
    verdict: str                # collects, fails, off, collects_nothing, unknown
    messages: Tuple[Message, ...] = ()
    options: Optional[dict] = None       # effective options (known members)
    text: Optional[str] = None           # effective options text
    source: str = ""            # script, adapter default, environment, GE default
    collected: Tuple[str, ...] = ()
    dropped: Tuple[Tuple[str, str], ...] = ()
    output: Optional[str] = None         # the output value as the collector gets it
    notes: Tuple[Message, ...] = ()      # non-fatal remarks (warnings the runtime logs, remaps)
    condition: str = ""         # unknown verdicts: what the outcome hangs on, in a few words
    codes: Tuple[str, ...] = ()  # the codes of the findings a failure comes from (what `messages` words)


# the condition of an outcome no source can decide: the chip's collector of that version is not open
CLOSED = "the collector for this chip is not open source"


def emu() -> dict:
    return collection_data()["emulation"]


def generation(version: str) -> str:
    return emu()["generation"][version]


def default_options(route: str, version: str) -> Optional[dict]:
    table = emu()["adapter_default"].get(route, {})
    name = table.get(version, table.get("*", "none"))
    if name in ("none", "unknown"):
        return None
    return dict(collection_data()["runtime_default_options"][name])


def dumps(options: dict) -> str:
    return json.dumps(options, separators=(",", ":"), ensure_ascii=False)


@lru_cache(maxsize=4096)
def _report(text: str, version: str, product: str):
    return check_options(text, Target(version, product), True)


# ---------------------------------------------------------------- stage 1: Python API and adapter

PYTHON_ERRORS = {  # route → key in emulation.python_errors for a switch of the wrong type
    "NpuOptimizer": "NpuOptimizer.mode_type", "ProfilingConfig": "ProfilingConfig.mode_type",
    "npu_resource_init": "npu_resource_init.mode_type", "npu_device": "npu_device.mode_type",
}


def python_error(req: Request, caught: int = 0) -> Optional[Outcome]:
    """The exception Python raises for this setup before GE starts, on every target, or None. caught: the
    line of a `try` around the setup that may catch it; then the verdict is unknown (its handler decides)."""
    code = python_error_code(req.route, req.mode, req.options_state)
    if code is None:
        return None
    errors = emu()["python_errors"]
    if code == "NPP014":
        what = "TypeError: the pre-2021 arguments enable_options/fp_point/bp_point no longer exist"
    elif code == "NPP010":
        key = PYTHON_ERRORS.get(req.route)
        what = (errors[key].format(value=repr(req.mode.value), type=type(req.mode.value).__name__)
                if key else "")
    elif code == "NPP005":
        what = errors['NpuOptimizer.options_str']
    else:
        what = errors['npu_resource_init.no_options']
    if caught:
        return Outcome("unknown", (Message(f"{what}; the `try` at line {caught} may catch it: the line then has no "
                                           "effect, and whether the script goes on is its handler's to decide", code),))
    stop = "the script stops while building the config" if code == "NPP005" else "the script stops before GE starts"
    return Outcome("fails", (Message(f"{what}{'; ' if code == 'NPP014' else ': '}{stop}", code),), codes=(code,))


def run(req: Request, env: Env, version: str, product: str) -> Outcome:
    """The outcome of one setup on one (CANN version, product)."""
    stop = python_error(req)
    if stop is not None:
        return stop
    if req.mode.state == "unknown":
        return Outcome("unknown", (Message(f"{req.mode.detail}: whether profiling is on is decided at run time"),))
    if req.mode.stops:                  # the script ends before the setup's guard is read: it never runs
        return Outcome("off", (Message(f"{req.mode.detail}: nothing after that runs"),))
    if req.route == "env":
        mode = env.mode if req.mode.state == "inherit" else ("true" if req.mode.state == "on" else "false")
        given = req.options_state == "given"
        own = env._replace(mode=mode, options=req.text if given else env.options,
                           label=req.origin if given else env.label,
                           mode_label=f"{req.origin} or {env.mode_label or env.label}" if req.mode.state == "inherit" else req.origin)
        if req.mode.state != "inherit" and req.mode.state != "on":
            return Outcome("off", (Message(f"{req.mode.detail or 'PROFILING_MODE is not true'}: GE starts no "
                                           "profiling from the environment"),))
        return _ge_env(own, version, product, (), req.route)
    if req.mode.state != "on":
        why = req.mode.detail or "profiling is switched off"
        lead = Message(f"{why}: the adapter forwards profiling off, so GE falls back to PROFILING_MODE/"
                       "PROFILING_OPTIONS (profiling_mode=False does not switch off profiling enabled there)")
        return _ge_env(env, version, product, (lead,), req.route)
    empty = req.options_state in ("absent", "none", "empty") or not (req.text or "").strip()
    if not empty and req.text is not None:
        return _collector(req.text, "script", version, product, env, (), req.route)
    if req.route == "npu_resource_init":
        lead = Message("npu_resource_init has no default for empty profiling_options: GE falls back to "
                       "PROFILING_MODE/PROFILING_OPTIONS")
        return _ge_env(env, version, product, (lead,), req.route)
    if req.route == "npu_device" and req.options_state == "given":
        lead = Message("npu_device has no default for empty profiling_options: GE falls back to "
                       "PROFILING_MODE/PROFILING_OPTIONS")
        return _ge_env(env, version, product, (lead,), req.route)
    defaults = default_options(req.route, version)
    assert defaults is not None             # (collection.json: every route left here has a default on every version)
    why = req.mode.detail and f" ({req.mode.detail})"
    lead = Message(f"profiling is on{why} without profiling_options: the adapter substitutes its default "
                   f"options {dumps(defaults)}", "NPP002")
    return _collector(dumps(defaults), "adapter default", version, product, env, (lead,), req.route)


# ---------------------------------------------------------------- stage 2: GE, options or environment

def _ge_env(env: Env, version: str, product: str, lead: Tuple[Message, ...], route: str = "") -> Outcome:
    if env.mode == "true":
        if env.options is not None and env.options.strip():
            return _collector(env.options, "environment", version, product, env,
                              lead + (Message(f"GE reads PROFILING_OPTIONS from {env.label}"),), route)
        defaults = default_options("env", version)
        if defaults is None:
            # GE 8.5+ substitutes its defaults (hicann/ge profiling_init.cc, executed); no GE source of
            # 2023-2025 is open, and the only older one leaves profiling off
            return Outcome("unknown", lead + (Message(f"PROFILING_MODE=true with empty PROFILING_OPTIONS in "
                                                      f"{env.label}: no source shows whether the GE of CANN {version} "
                                                      "substitutes default options or leaves profiling off"),),
                           condition="no source for this version's GE")
        return _collector(dumps(defaults), "GE default", version, product, env,
                          lead + (Message(f"PROFILING_MODE=true with empty PROFILING_OPTIONS in {env.label}: GE "
                                          f"uses its default options {dumps(defaults)}"),), route)
    if env.mode is not None and HOLE in env.mode:
        return Outcome("unknown", lead + (Message(f"PROFILING_MODE is set in {env.mode_label or env.label} to a value "
                                                  "not known statically: whether GE switches profiling on is decided "
                                                  "at run time"),))
    if env.mode == "dynamic":
        state = "PROFILING_MODE=dynamic (msprof attach mode): GE starts no collection from these options"
    elif env.mode is None:
        state = f"PROFILING_MODE is not set in {env.mode_label or env.label}"
    else:
        state = (f"PROFILING_MODE is {env.mode!r} in {env.mode_label or env.label}, and GE switches profiling on "
                 'only for exactly "true"')
    return Outcome("off", lead + (Message(f"{state}: no profiling data is collected"),))


# ---------------------------------------------------------------- stage 3: GE and collector checks

def _collector(text: str, source: str, version: str, product: str, env: Env, lead: Tuple[Message, ...],
               route: str = "") -> Outcome:
    report = _report(text, version, product)
    if report.unknown:
        return Outcome("unknown", lead + (Message("the options JSON depends on a value that cannot be determined "
                                                  "statically: " + shorten(text, 160)),), text=text, source=source)
    doc = report.doc
    raw = doc.as_dict() if doc is not None and doc.ok else None
    # what the collector gets, unknown values included (their unknown pieces stay HOLE characters)
    given = {m.key: with_holes(m.value) for m in doc.members} if raw is not None else None
    # what only some builds of the version do is a note, not the outcome
    # (a failure that hangs on $ASCEND_WORK_PATH is decided below, with the environment emulated)
    fatal = [i for i in report.issues if i.stops and not i.partial and i.effect != "env"]
    # GE checks its part before it calls the collector: a GE rejection is all the runtime says
    ge_fatal = [i for i in fatal if i.code in emu()["ge_checks"]]
    fatal = ge_fatal or fatal
    notes = tuple(Message(i.message, i.code) for i in report.issues if i not in fatal and i.code != "NPP116"
                  and i.effect != "env"
                  and not (i.code == "NPP114" and version in K.LEGACY_VERSIONS)
                  and not (ge_fatal and i.code not in emu()["ge_checks"])
                  and not (i.code == "NPP104" and source.endswith("default")))   # not the user's to fix
    if fatal:
        messages = _failure_messages(fatal, doc, text, version, product, route)
        later = [i for i in report.issues if i not in fatal and i.code not in emu()["ge_checks"]
                 and i.stops] if ge_fatal else []
        if later:           # what the user meets next; `npuprof check` gives the details
            shown = ", ".join(f"{i.code} ({i.key})" if i.key else i.code for i in later)
            messages.append(Message(f"once GE accepts the options, the msprof collector still rejects them: {shown}"))
        return Outcome("fails", lead + tuple(messages), given, text, source, notes=notes,
                       codes=tuple(i.code for i in fatal))
    # a free-text key's partly known string is followed below; a list or object holding one is not
    unknown = [m for m in doc.members if m.unknown and (snake(m.key) not in FREE_TEXT_KEYS
                                                        or not isinstance(m.value, Unknown))]
    if unknown:
        m = unknown[0]
        shown = f'"{m.value.text}"' if isinstance(m.value, Unknown) else text[m.value_start:m.value_end]
        partly = f' ("{m.key}":{shown})' if shown.replace(HOLE, "").strip('"') else ""
        return Outcome("unknown", lead + (Message(f'the value of "{m.key}" cannot be determined statically{partly}'),),
                       given, text, source, notes=notes)
    assert raw is not None                  # (JSON that does not parse is fatal above)
    options = canonical(raw, version)
    output, problem = _output(doc, options, version, env)
    if problem:
        return Outcome("fails", lead + (problem,), given, text, source, notes=notes, codes=("NPP108",))
    if output is None and _work_path_fallback(doc, options, version, env):
        return _conditional_output(options, text, source, version, product, lead, notes)._replace(options=given)
    return _product(options, text, source, version, product, output, lead, notes)._replace(options=given)


def shorten(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "…"


def canonical(raw: dict, version: str) -> dict:
    """Keys as the collector means them: protobuf-era lowerCamelCase spellings in snake_case."""
    keys = K.keys_of(version)
    return {(snake(k) if k != snake(k) and snake(k) in keys else k): v for k, v in raw.items()}


def _failure_messages(issues, doc, text: str, version: str, product: str, route: str = "") -> List[Message]:
    out, collector = [], False
    members = {m.key: m for m in doc.members} if doc is not None else {}
    for issue in issues:
        runtime = _runtime_text(issue, members.get(issue.key), version, product)
        layer = "GE" if issue.code in emu()["ge_checks"] else "msprof collector"
        collector = collector or layer != "GE"
        out.append(Message(f'{layer}: "{runtime}"' if runtime else issue.message, issue.code))
    shown = shorten(text)
    chain = []
    if collector:
        chain.append(f'GE: "{emu()["collector_call_failed"]}"')
    chain.append(f'GE error {_e10001(version).format(options=shown)}')
    if route == "npu_device":       # the facts give the TF1 adapter's abort text only
        chain.append(f"npu_device: {ABORT} at npu.open(), where GE is initialised")
    elif route == "env":            # GE reads the environment for TF1 and TF2 alike
        chain.append(f'TF adapter: "{emu()["adapter_abort"]}" (TF1): {ABORT} at the first session / '
                     "initialize_system (npu.open() with TF2)")
    else:
        chain.append(f'TF adapter: "{emu()["adapter_abort"]}": {ABORT} at the first session / initialize_system')
    return out + [Message(c) for c in chain]


def _e10001(version: str) -> str:
    """GE's E10001 report, with the reason the GE of that version gives (8.5: "value is unsupported")."""
    from ..knowledge import ge_options as G
    text = emu()["e10001"]
    if version in G.versions():
        return text.replace("The current value is not within the valid range.", G.facts(version)["e10001_reason"])
    # 7.0/8.0: no GE source of those versions is open (sources.json collection.emulation.e10001 says "inferred")
    return text + " (inferred: CANN 9.x's wording; the GE code of this version is not open)"


def _runtime_text(issue, member, version: str, product: str) -> Optional[str]:
    if version not in K.LEGACY_VERSIONS:
        # 8.5+: the line the runtime's own code logs, as the check quotes it (knowledge/ge_options.py)
        logged = dict(issue.facts).get("logged")
        if logged:
            return logged
    code = issue.code
    if code == "NPP113" and issue.key in K.keys_of(version):
        code = "NPP114"     # whitelisted (9.x task_time) but refused as "not supported"
    table = emu()["messages"].get(code)
    if not table:
        return None
    gen = generation(version)
    entry = table.get(gen, table.get("legacy") if version in K.LEGACY_VERSIONS else None)
    entry = entry if entry is not None else table.get("*")
    key = issue.key or ""
    value = member.value if member is not None else ""
    if isinstance(entry, dict):
        sub = key
        if issue.code == "NPP108":     # up to 8.0 a long path has its own message (param_validation.cpp)
            sub = "missing" if member is None else "long" if ("case", "long") in issue.facts else "*"
        elif issue.code == "NPP107":
            sub = "not_mb" if isinstance(value, str) and not value.endswith("MB") else "*"
        entry = entry.get(sub, entry.get("*"))
    if entry is None:
        return None
    lo, hi = _range(issue, version, snake(key))
    fields = {"key": key, "value": value if isinstance(value, str) else json.dumps(with_holes(value)),
              "dashed": snake(key).replace("_", "-"), "lo": lo, "hi": hi,
              "allowed": "|".join(K.aic_metrics_for(product)),
              "platform": emu()["platform_type"].get(product, "…")}
    return entry.format(**fields)


def _range(issue, version: str, key: str) -> Tuple[str, str]:
    sub = K.property_schema(version, key)
    if "minimum" in sub:
        return str(sub["minimum"]), str(sub["maximum"])
    facts = dict(issue.facts)
    return facts.get("lo", "…"), facts.get("hi", "…")


def _output(doc, options: dict, version: str, env: Env) -> Tuple[Optional[str], Optional[Message]]:
    """(output as the collector gets it, or None when unknown; failure message or None)."""
    member = next((m for m in reversed(doc.members) if snake(m.key) == "output"), None)
    if member is not None and member.unknown:
        return member.value.text, None  # partly known: the HOLEs stay, output_dir is null
    value = options.get("output")
    if isinstance(value, str) and value:
        return value, None
    if version in K.LEGACY_VERSIONS:
        return None, Message('msprof collector: "Result path is empty" — profiling init fails', "NPP108")
    if env.work_path:
        return env.work_path, None
    if not env.work_path_known:
        return None, None               # ASCEND_WORK_PATH decides: _conditional_output
    text = emu()["messages"]["NPP108"]["oam"]["missing"]
    return None, Message(f'msprof collector: "{text}" — no "output" and ASCEND_WORK_PATH is not set '
                         f"in {env.label}, so profiling init fails", "NPP108")


def _work_path_fallback(doc, options: dict, version: str, env: Env) -> bool:
    """8.5+ without "output", ASCEND_WORK_PATH not known (no --env): the outcome hangs on it."""
    member = next((m for m in reversed(doc.members) if snake(m.key) == "output"), None)
    value = options.get("output")
    return (version not in K.LEGACY_VERSIONS and not (member is not None and member.unknown)
            and not (isinstance(value, str) and value) and not env.work_path and not env.work_path_known)


def _conditional_output(options: dict, text: str, source: str, version: str, product: str,
                        lead: Tuple[Message, ...], notes: Tuple[Message, ...]) -> Outcome:
    """No "output" on 8.5+ and the environment unknown: collects into $ASCEND_WORK_PATH if set, fails otherwise."""
    would = _product(options, text, source, version, product, None, (), ())
    what = f"collects {', '.join(would.collected)}" if would.collected else "starts but collects nothing"
    missing = emu()["messages"]["NPP108"]["oam"]["missing"]
    condition = f"{what} into $ASCEND_WORK_PATH/PROF_* if ASCEND_WORK_PATH is set (else fails)"
    message = (f'no "output": the CANN 8.5+ collector then writes into $ASCEND_WORK_PATH if it is set when the job '
               f'starts ({what} there), and fails otherwise (NPP108 msprof collector: "{missing}"); without --env '
               "the job's environment is not known (give --env to emulate with the current one)")
    return Outcome("unknown", lead + (Message(message),), None, text, source, notes=notes, condition=condition)


# ---------------------------------------------------------------- stage 4: the product

def _product(options: dict, text: str, source: str, version: str, product: str, output: Optional[str],
             lead: Tuple[Message, ...], notes: Tuple[Message, ...]) -> Outcome:
    data = K.product(product)
    collected, dropped = effective_switches(options, version, product)
    unknown = [key for key, _ in dropped if K.unsupported(product, version).get(key, ("",))[0] == K.UNKNOWN]
    if unknown and version not in K.LEGACY_VERSIONS:
        # from 8.5 a switch the chip lacks is refused, not dropped: with no source for this chip's
        # platform class, the collector either takes these switches or rejects the options
        msg = (f"whether the CANN {version} collector for Ascend {product} takes {', '.join(unknown)} is not known "
               "(its platform class is not open source): it either collects them or rejects the options")
        return Outcome("unknown", lead + (Message(msg),), options, text, source, tuple(collected), (), output,
                       tuple(notes), CLOSED)
    platform = emu()["platform_type"].get(product, "…")
    warned = emu()["messages"]["NPP114"]["legacy"]
    unsupported = K.unsupported(product, version)
    extra = list(notes)
    for key, why in dropped:
        if unsupported.get(key, ("",))[0] == "warn":
            logged = warned.get(key, warned["*"]).format(key=key, platform=platform)
            extra.append(Message(f'{key} is dropped: {why} (plog warning "{logged}")', "NPP114"))
        else:   # up to 8.0 the sampling frequencies are dropped without a message
            extra.append(Message(f"{key} is dropped: {why} (without a message)", "NPP114"))
    metric = options.get("aic_metrics")
    if "aic_metrics" in collected:
        if version not in K.LEGACY_VERSIONS and metric == "":
            metric = "PipeUtilization"
        remap = data.get("aic_remap", {}).get(metric)
        if remap:
            extra.append(Message(f'aic_metrics "{metric}" is collected as "{remap}" on Ascend {product} '
                                 "(op_summary gets that set's columns)"))
        if data.get("aiv_follows_aic"):
            extra.append(Message(f"AI Vector Core metrics follow aic_metrics on Ascend {product} (aiv_ columns in "
                                 "op_summary)"))
    if "training_trace" in collected and options.get("fp_point", "") == "" and options.get("bp_point", "") == "":
        extra.append(Message('fp_point and bp_point are "": GE searches for the FP/BP points itself (not for dynamic '
                             'shape)'))
    if not collected:
        msg = ("profiling starts but no switch collects anything on this target: the PROF_* directory holds only "
               "bookkeeping files")
        return Outcome("collects_nothing", lead + (Message(msg),), options, text, source, (), tuple(dropped), output,
                       tuple(extra))
    return Outcome("collects", lead, options, text, source, tuple(collected), tuple(dropped), output, tuple(extra))
