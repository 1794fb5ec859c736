"""torch_npu's dynamic-profiling file (`<dir>/profiler_config.json`), read as each release's ConfigContext reads it.

torch_npu never stops on this file: a value it does not take is reset or dropped, and what it says about the
top-level keys goes only to its log files under `<dir>/log/`; an `experimental_config` value is reset by
`_ExperimentalConfig`, with a warning printed on rank 0 only. The facts per release are data
(data/torch_npu_dynamic.json), held to each release's own code by tests/test_dynamic_json_oracle.py.

The file is checked by `npuprof check` (a file of that name, or the file in the folder a script's literal
`dynamic_profile.init(path)` names) and `npuprof validate --file`; the flake8 plugin reads no JSON.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Dict, List, Mapping, NamedTuple, Optional

from ..knowledge import torch_npu_dynamic as K
from ..knowledge.run_settings import Settings
from ..knowledge.targets import TORCH_NPU_RELEASES
from ..knowledge.torch_npu import span
from ..source import jsonscan
from ..source.model import Finding, finding
from ..source.said import Text, aside, clause, logged, said, so
from ..source.suggest import did_you_mean
from ..source.text import SourceText

CODE = "NPP311"
LOGGED = "says so only in its log under <dir>/log/"
PRINTED = "with a warning printed on rank 0 only"
_EVERY_RANK = so("every rank collects")


class Problem(NamedTuple):
    start: int
    end: int
    what: Text                      # the setting and what is wrong with it
    reactions: Mapping[str, Text]   # release -> what torch_npu does (releases that get it wrong only)
    advice: str = ""
    key: str = ""                   # the key it is about (an experimental_config value's: its own key)


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value) -> str:
    import json
    return json.dumps(value, ensure_ascii=False)


def _releases() -> tuple:
    return K.reading_releases()


def _start_step(doc: jsonscan.Doc, members: Dict[str, jsonscan.Member]) -> Optional[Problem]:
    floor = K.data()["start_step"]
    never = so("no collection ever starts")
    m = members.get("start_step")
    if m is None:
        return Problem(doc.start, doc.start + 1, "start_step is missing",
                       {r: clause(f"takes 0 and {LOGGED}", never) for r in _releases()},
                       "give the step to start at (-1: the step after the file is saved, on 7.2+)")
    if m.unknown or isinstance(m.value, bool):
        return None                     # true is an int to Python: what a release does with it is not recorded
    value = m.value
    if _int(value) and value == 0:
        return Problem(m.value_start, m.value_end, "start_step 0 never starts a collection",
                       {r: 'logs only "Start step will be set to 0." under <dir>/log/' for r in _releases()},
                       "give the step to start at")
    out = {}
    for r in _releases():
        if not _int(value) or value < floor[r]:
            out[r] = clause(f"resets it to 0 and {LOGGED}", never)
    if not out:
        return None
    kind = "a string" if isinstance(value, str) else ("not an integer" if not _int(value) else "out of range")
    return Problem(m.value_start, m.value_end, f"start_step {_show(value)} is {kind}", out,
                   "write a JSON integer: the step to start at")


def _is_rank(members) -> Optional[Problem]:
    m = members.get("is_rank")
    if m is None or m.unknown or m.value is False:
        return None
    entry = K.data()["keys"]["is_rank"]
    if m.value is not True:
        out = {r: clause(f"drops it and {LOGGED}" if K.reads(entry, r) else "does not read is_rank", _EVERY_RANK)
               for r in _releases()}
        return Problem(m.value_start, m.value_end, f"is_rank {_show(m.value)} is not a JSON boolean", out,
                       "write true or false")
    ranks = members.get("rank_list")
    if ranks is not None and (ranks.unknown or (isinstance(ranks.value, list) and ranks.value)):
        return None
    if ranks is None:
        what, where = "is_rank is true and rank_list is missing", m
    elif isinstance(ranks.value, list):
        what, where = "is_rank is true and rank_list is empty", ranks
    else:
        what, where = f"is_rank is true and rank_list {_show(ranks.value)} is not a list", ranks
    out = {r: (clause(f"collects on no rank and {LOGGED}", logged(' ("Rank N not in valid rank_list")'))
               if K.reads(entry, r)
               else clause("does not read is_rank", _EVERY_RANK)) for r in _releases()}
    return Problem(where.value_start if where is ranks else m.key_start, where.value_end, what, out,
                   "list the ranks to collect, e.g. [0]")


def _activities(members) -> Optional[Problem]:
    m = members.get("activities")
    if m is None or m.unknown:
        return None
    if isinstance(m.value, str):
        return Problem(m.value_start, m.value_end, f"activities {_show(m.value)} is a string",
                       {r: clause("reads only a list and ignores it without a word",
                                  so("its activity list stays empty")) for r in _releases()},
                       'write a list: ["CPU", "NPU"]')
    if not isinstance(m.value, list):
        return None
    bad = [v for v in m.value if not (isinstance(v, str) and v.upper() in ("CPU", "NPU"))]
    if not bad:
        return None
    first = K.data()["activity_warning_from"]
    out = {r: (clause(f"drops it and {LOGGED}", logged(' ("Set activity failed, activity must be CPU OR NPU!")'))
               if TORCH_NPU_RELEASES.index(r) >= TORCH_NPU_RELEASES.index(first) else "drops it without a word")
           for r in _releases()}
    return Problem(m.value_start, m.value_end, f"activities entry {_show(bad[0])} is not \"CPU\" or \"NPU\"", out)


def _count(members, key) -> Optional[Problem]:
    m = members.get(key)
    if m is None or m.unknown or isinstance(m.value, bool):
        return None                     # true is an int to Python: not recorded
    entry = K.data()["keys"][key]
    if _int(m.value) and m.value >= entry["minimum"]:
        return None
    out = {r: (f"resets it to {entry['reset']} and {LOGGED}" if K.reads(entry, r)
               else f"does not read {key}") for r in _releases()}
    return Problem(m.value_start, m.value_end,
                   f"{key} {_show(m.value)} is not an integer of at least {entry['minimum']}", out)


def _unknown(members) -> List[Problem]:
    keys = K.data()["keys"]
    out = []
    for name, m in members.items():
        entry = keys.get(name)
        if entry is None:
            if name == "is_valid":                     # what the monitor writes back
                continue
            out.append(Problem(m.key_start, m.key_end, f"unknown key {_show(name)}",
                               {r: "ignores it without a word" for r in _releases()},
                               did_you_mean(name, list(keys)), name))
        elif entry["from"] != K.data()["first_release"]:
            if name in ("is_rank", "rank_list"):
                continue                               # judged with is_rank
            older = {r: "ignores it without a word"
                     for r in _releases() if not K.reads(entry, r)}
            out.append(Problem(m.key_start, m.key_end, f"{name} needs torch_npu {entry['from']}+", older, key=name))
    return out


def _experimental(text: str, members) -> List[Problem]:
    m = members.get("experimental_config")
    if m is None or m.unknown or not isinstance(m.value, dict):
        return []
    sub = jsonscan.parse(text[m.value_start:m.value_end])
    if not sub.ok:
        return []
    facts = K.data()["experimental_config"]
    levels = [s for s in sub.members if s.key == "profiler_level"]
    level = (levels[-1].value if not levels[-1].unknown else None) if levels else "Level0"
    out = []
    for s in sub.members:
        entry = facts.get(s.key)
        if entry is None or s.unknown:
            continue                    # an unknown sub-key is not in the record: no claim
        i, j, v = m.value_start + s.value_start, m.value_start + s.value_end, s.value
        if s.key in ("aic_metrics", "host_sys"):
            found = _metric(v, level, entry) if s.key == "aic_metrics" else _host_sys(v, entry)
            if found is not None:
                out.append(found._replace(start=i, end=j, key=s.key))
            if s.key == "aic_metrics" or found is not None:
                continue
        reset, what = None, ""
        if "enum" in entry and not isinstance(v, (str, list)):
            continue                    # how a release converts a number or an object is not recorded
        if "enum" in entry and s.key == "export_type":
            def ok(r: str) -> bool:
                lists = TORCH_NPU_RELEASES.index(r) >= TORCH_NPU_RELEASES.index(entry["list_from"])
                if isinstance(v, list):
                    return lists and bool(v) and all(x in entry["enum"] for x in v)
                return v in entry["enum"]
            bad = [r for r in _releases() if not ok(r)]
            if bad:
                out.append(Problem(i, j, clause(f"export_type {_show(v)} is not \"text\" or \"db\"",
                                                aside("a list needs 7.0+") if isinstance(v, list) else ""),
                                   {r: f"resets it to text {PRINTED}" for r in bad},
                                   'write "text" or "db" (lower case)', s.key))
            continue
        if "enum" in entry:
            if v not in entry["enum"]:
                reset, what = entry["reset"], f"profiler_level {_show(v)} is not one of " + \
                    "/".join(entry["enum"])
        elif entry.get("type") == "boolean":
            if not isinstance(v, bool):
                reset, what = _show(entry["reset"]).replace("false", "False").replace("true", "True"), \
                    f"{s.key} {_show(v)} is not a JSON boolean"
        elif entry.get("type") == "array" and "reset" in entry:
            if not isinstance(v, list):
                reset, what = entry["reset"], f"{s.key} {_show(v)} is not a list"
        if reset is None:
            continue
        reactions = {r: (f"resets it to {reset} {PRINTED}" if K.reads(entry, r)
                         else f"does not read {s.key}") for r in _releases()}
        out.append(Problem(i, j, what, reactions, did_you_mean(str(v), entry["enum"]) if "enum" in entry
                           and isinstance(v, str) else "", s.key))
    return out


def _metric(v, level, entry) -> Optional[Problem]:
    """aic_metrics: the reader looks a name up in AiCMetrics and hands anything else on as it is; _ExperimentalConfig
    resets a string that is neither a name nor an ACL_AICORE_* value (at Level1/Level2: at Level0 every metric is
    dropped first). A member only some releases have (MemoryAccess, from 7.0) is not judged."""
    from ..knowledge import torch_npu as T
    known = T.data()["experimental_config"]["aic_metrics"]
    if not isinstance(v, str) or v in known or v in known.values() or level not in entry["reset_at"]:
        return None
    reset = entry["reset_at"][level]
    return Problem(0, 0, f"aic_metrics {_show(v)} is not an AiCMetrics name or ACL_AICORE_* value",
                   {r: f"resets it to {reset} {PRINTED}" for r in _releases()}, did_you_mean(v, list(known)))


def _host_sys(v, entry) -> Optional[Problem]:
    """host_sys: a list with an entry no release takes is emptied (7.1+; the releases before do not read it)."""
    if not isinstance(v, list):
        return None                     # judged as "not a list" with the other arrays
    bad = [x for x in v if not (isinstance(x, str) and x in entry["items"])]
    if not bad:
        return None
    reactions = {r: (f"resets it to {entry['reset']} {PRINTED}" if K.reads(entry, r) else "does not read host_sys")
                 for r in _releases()}
    return Problem(0, 0, f"host_sys {_show(v)} holds {_show(bad[0])}, not one of " + "/".join(entry["items"]),
                   reactions, did_you_mean(str(bad[0]), entry["items"]) if isinstance(bad[0], str) else "")


def problems(text: str) -> List[Problem]:
    """Everything torch_npu would reset or drop in the file, with the releases that do it."""
    doc = jsonscan.parse(text)
    if not doc.ok:
        return []                       # not an object torch_npu can read: judged by nobody here
    members = OrderedDict((m.key, m) for m in doc.members)     # the last of duplicate keys wins, as json.load
    found = [p._replace(key=key) for key, p in (
        ("start_step", _start_step(doc, members)), ("is_rank", _is_rank(members)), ("activities", _activities(members)),
        ("active", _count(members, "active")), ("warmup", _count(members, "warmup"))) if p is not None]
    # a key judged for its value already says what the releases that do not read it do
    judged = {p.start for p in found}
    unknown = [p for p in _unknown(members) if members[_key_at(members, p.start)].value_start not in judged]
    return found + unknown + _experimental(text, members)


def _key_at(members, start: int) -> str:
    return next(name for name, m in members.items() if m.key_start == start)


def _judged(target, bad) -> bool:
    """As Target.torch_npu_fails_on, over the releases that read the file."""
    relevant = _releases()
    if target.torch_npu == "any":
        return set(bad) >= set(relevant)
    if target.torch_npu == "portable":
        return bool(bad)
    return target.torch_npu in bad


def message(p: Problem, target):
    # the newest releases' reaction first: it is the one most users get
    chosen = [r for r in reversed(TORCH_NPU_RELEASES) if r in p.reactions
              and (target.torch_npu in ("any", "portable") or r == target.torch_npu)]
    groups: "OrderedDict[Text, List[str]]" = OrderedDict()
    for r in chosen:
        groups.setdefault(p.reactions[r], []).append(r)
    parts = []
    for reaction, rels in groups.items():
        if len(groups) == 1 and target.torch_npu == "any" and set(rels) == set(_releases()):
            parts.append(clause("torch_npu ", reaction))
        else:
            parts.append(clause(f"torch_npu {span(sorted(rels, key=TORCH_NPU_RELEASES.index))} ", reaction))
    return said(p.what, parts[0], *map(str, parts[1:]), p.advice)


def reported(p: Problem, target) -> bool:
    """Whether the target's torch_npu release hears of the problem."""
    return _judged(target, [r for r in p.reactions if r in _releases()])


def check_text(text: str, target) -> List[Finding]:
    """The NPP311 findings of a dynamic-profiling file's text, for the target's torch_npu release."""
    return findings([p for p in problems(text) if reported(p, target)], text, target)


def findings(found: List[Problem], text: str, target) -> List[Finding]:
    src = SourceText(text)
    out = []
    for p in found:
        (l1, c1), (l2, c2) = src.position(p.start), src.position(max(p.end, p.start))
        out.append(finding(CODE, message(p, target), p.start, p.end, l1, c1, l2, c2))
    return sorted(out, key=Finding.sort_key)


def check_file(text: str, path: str, settings: Settings) -> List[Finding]:
    """check_text for `npuprof check`, the language server and validate: an internal error is NPP000, as for
    Python files, never a crash."""
    try:
        return check_text(text, settings.target)
    except Exception as exc:            # same contract as Python files
        from .analysis import internal_error
        return [internal_error(exc)]


# ---------------------------------------------------------------- the folders scripts hand to dynamic_profile.init

def init_folders(text: str) -> List[str]:
    """The literal folders a script passes to `torch_npu.profiler.dynamic_profile.init(path)` (under any name
    the module is imported as), then those it sets PROF_CONFIG_PATH to (`os.environ["PROF_CONFIG_PATH"] = path`,
    in a script that names torch_npu): torch_npu reads `<path>/profiler_config.json` there."""
    import ast
    if "dynamic_profile" not in text and "PROF_CONFIG_PATH" not in text:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    from .torch_npu_report import env_assignments
    # PROF_CONFIG_PATH set by the script: torch_npu (6.0.rc3 on) reads <dir>/profiler_config.json from it too
    env = [v.value for _, v in env_assignments(tree, "PROF_CONFIG_PATH")
           if isinstance(v, ast.Constant) and isinstance(v.value, str) and v.value]
    names = {"torch_npu.profiler.dynamic_profile"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("torch_npu.profiler", "torch_npu.profiler.dynamic_profile"):
            for alias in node.names:
                if node.module == "torch_npu.profiler" and alias.name == "dynamic_profile":
                    names.add(alias.asname or alias.name)
                elif node.module.endswith("dynamic_profile") and alias.name == "init":
                    names.add("@" + (alias.asname or "init"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "torch_npu.profiler.dynamic_profile" and alias.asname:
                    names.add(alias.asname)
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "init":
            from ..source.sites import dotted
            head = dotted(func.value)
        elif isinstance(func, ast.Name):
            head = "@" + func.id
        else:
            continue
        if head in names or (head == "@init" and "@init" in names):
            out.append(node.args[0].value)
    return out + env if "torch_npu" in text else out


# ---------------------------------------------------------------- the rule's page

from .rule import Rule  # noqa: E402

_GOOD = """{
  "activities": ["CPU", "NPU"],
  "prof_dir": "./prof",
  "analyse": false,
  "record_shapes": false,
  "active": 2,
  "warmup": 1,
  "start_step": 10,
  "is_rank": true,
  "rank_list": [0],
  "experimental_config": {"profiler_level": "Level1", "aic_metrics": "PipeUtilization", "export_type": ["text"]}
}
"""

RULES = (
    Rule(
        code="NPP311",
        name="torch-npu-dynamic-config-dropped",
        summary="a setting in torch_npu's dynamic-profiling `profiler_config.json` that torch_npu resets or "
                "ignores, so that nothing or less is collected; it says so only in `<dir>/log/`",
        default=True,
        level="warning",
        what="In a `profiler_config.json` (dynamic profiling: `torch_npu.profiler.dynamic_profile.init(dir)`), a "
             "`start_step` that is 0, missing, a string or below the release's floor (-1 from 7.2, 0 before); "
             "`is_rank: true` with an empty, missing or non-list `rank_list`; `activities` written as a string "
             "or with an entry other than CPU/NPU; `active`/`warmup` that are not counts; an "
             "`experimental_config` value the release resets (`\"export_type\": \"Db\"`, a lower-case "
             "`profiler_level`, an `aic_metrics` at Level1/Level2 that is no AiCMetrics name or value such as "
             "`\"PipeUtilisation\"`, a `host_sys` entry no release takes, a string for a switch); keys the release "
             "does not read.",
        why="torch_npu never stops on this file. A `start_step` it cannot use becomes 0, and a collection "
            "never starts; `is_rank` with no ranks listed means no rank collects; a string `activities` is "
            "ignored; an unknown key is ignored without a word. What it says about the top-level keys goes only "
            "to its log files under `<dir>/log/` (`dp_<host>_<pid>_rank_<r>.log`), never the console; the "
            "`experimental_config` resets are printed on rank 0 only: the reader hands a value its enum does not "
            "name on as it is, `_ExperimentalConfig` resets it, and the start hands C++ what was kept. The job runs "
            "and the folder stays empty or holds less.",
        example="""{
  "activities": ["CPU", "NPU"],
  "prof_dir": "./prof",
  "analyse": false,
  "record_shapes": false,
  "active": 2,
  "warmup": 1,
  "start_step": "10",
  "is_rank": true,
  "rank_list": [],
  "experimental_config": {"profiler_level": "Level1", "aic_metrics": "PipeUtilization", "export_type": "Db"}
}
""",
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: which step to start at and which ranks to collect are the author's choice.",
        options=("The target's torch_npu release (`--torch-npu`, default `any`) decides what is reported: under "
                 "`any`, what every release that reads the file (6.0 to 26.1) gets wrong; a release such as `7.1`, "
                 "or `portable`. Where releases differ the message says which does what. The schemas "
                 "`schemas/profiler_config.torch_npu-<release>.schema.json` state the same keys for editors."),
        references=("Ascend PyTorch profiler user guide, dynamic profiling (Ascend/pytorch docs/zh/developer_notes/"
                    "ascend_pytorch_profiler_user_guide.md)",),
        group="torch_npu",
        language="json",
        facts=("torch_npu.dynamic_json.",),
    ),
)
