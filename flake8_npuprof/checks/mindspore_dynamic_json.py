"""MindSpore's dynamic-profiling file (`<cfg_path>/profiler_config.json`, read by
`mindspore.profiler.DynamicProfilerMonitor(cfg_path=...)`), read as DynamicProfilerConfigContext reads it.

MindSpore never stops on this file either: a value of the wrong type is reset to its default, an enum string that
is no member's value resets the whole setting, each with a warning in MindSpore's log (not a file beside the
JSON, as torch_npu's); a key it does not read is ignored without a word. The facts are data
(data/mindspore_dynamic.json), the same code in MindSpore 2.7-2.10, held to its execution by
tests/test_mindspore_dynamic_oracle.py. schemas/profiler_config.mindspore.schema.json states the same.
Which framework a file is for: checks/dynamic_files.py.
"""

from __future__ import annotations

import ast
from collections import OrderedDict
from typing import List, NamedTuple, Set

from ..knowledge import mindspore_dynamic as K
from ..source import jsonscan
from ..source.model import Finding, finding
from ..source.said import Text, clause, logged, said
from ..source.suggest import did_you_mean
from ..source.text import SourceText

CODE = "NPP356"
MONITOR = "DynamicProfilerMonitor"
# where mindspore exports the monitor (mindspore/profiler/__init__.py and the module that defines it)
MONITOR_MODULES = ("mindspore.profiler", "mindspore.profiler.dynamic_profiler")
LOG = "with a warning in its log"


class Problem(NamedTuple):
    start: int
    end: int
    key: str
    what: str                       # the setting and what is wrong with it
    reaction: Text                  # what MindSpore does: "resets it to ..." (the message names it and its releases)
    advice: str = ""


def _type_name(value) -> str:
    """The name MindSpore's warning gives a JSON value's Python type."""
    return type(value).__name__


def _py(value) -> str:
    """A value as MindSpore's warning prints it (str() of the Python value)."""
    return str(value)


def _show(value) -> str:
    import json
    return json.dumps(value, ensure_ascii=False)


_KIND = {"int": "an integer", "bool": "true or false", "list": "a list"}


def _is(kind: str, value) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, {"bool": bool, "list": list}[kind])


NEVER = "which its documentation says never starts a collection"


def _logged(reaction: str, warning: str) -> Text:
    """A reaction MindSpore logs, with the line it writes."""
    return clause(reaction, logged(f' ("{warning}")'))


def _typed(m: jsonscan.Member, entry: dict) -> List[Problem]:
    if _is(entry["type"], m.value):
        return []
    default = entry["default"]
    warning = (f"'{m.key}' should be {entry['type']}, but got {_type_name(m.value)}. will be reset to default "
               f"value: '{_py(default)}'.")
    never = f", {NEVER}" if m.key in K.data()["required"] else ""
    return [Problem(m.value_start, m.value_end, m.key, f"{m.key} {_show(m.value)} is not {_KIND[entry['type']]}",
                    clause(_logged(f"resets it to {_show(default)} {LOG}", warning), never),
                    f"write {_KIND[entry['type']]}")]


def _missing(doc: jsonscan.Doc, key: str) -> Problem:
    return Problem(doc.start, doc.start + 1, key, f"{key} is missing",
                   f"takes {K.data()['never']} without a word, {NEVER}",
                   f"give the step to {'start' if key == 'start_step' else 'stop'} at (the first step is 1)")


def _enum(m: jsonscan.Member, entry: dict) -> List[Problem]:
    v = m.value
    if isinstance(v, int) and not isinstance(v, bool):
        return []                   # the int forms: converted, with a warning that they will go (no reset claimed)
    members = entry["members"]
    if entry["shape"] == "one":
        if not isinstance(v, str):
            warning = entry["wrong_type"].format(type=_type_name(v))
            return [Problem(m.value_start, m.value_end, m.key, f"{m.key} {_show(v)} is not a string",
                            _logged(f"resets it to {entry['reset']} {LOG}", warning),
                            f"write one of {'/'.join(members)}")]
        if v in members:
            return []
        warning = entry["bad_member"].format(value=_py(v))
        return [Problem(m.value_start, m.value_end, m.key, f"{m.key} {_show(v)} is not one of {'/'.join(members)}",
                        _logged(f"resets it to {entry['reset']} {LOG}", warning),
                        did_you_mean(v, members))]
    if not isinstance(v, list):
        if "wrong_type" not in entry:
            return []               # host_sys: its type is checked as a typed key
        warning = entry["wrong_type"].format(type=_type_name(v))
        return [Problem(m.value_start, m.value_end, m.key, f"{m.key} {_show(v)} is not a list",
                        _logged(f"resets it to {entry['reset']} {LOG}", warning),
                        f"write a list: {_show(members[:2] if m.key == 'activities' else members[:1])}")]
    wrong = [x for x in v if not (isinstance(x, str) and x in members)]
    if not wrong:
        return []
    bad = wrong[0]                  # the conversion stops at the first and resets the whole list
    warning = entry["bad_member"].format(value=_py(bad))
    return [Problem(m.value_start, m.value_end, m.key,
                    f"{m.key} entry {_show(bad)} is not one of {'/'.join(members)}",
                    _logged(f"resets the whole list to {entry['reset']} {LOG}", warning),
                    did_you_mean(bad, members) if isinstance(bad, str) else "")]


def _has_float(value) -> bool:
    """A float where MindSpore wants an int: JSON Schema takes 5.0 as the integer 5, MindSpore resets it."""
    return isinstance(value, float) or (isinstance(value, list) and any(isinstance(x, float) for x in value))


def problems(text: str) -> List[Problem]:
    """Everything MindSpore would reset or ignore in the file: the keys and values its schema
    (schemas/profiler_config.mindspore.schema.json) rejects, each said as MindSpore reacts."""
    doc = jsonscan.parse(text)
    if not doc.ok:
        return []                   # not an object MindSpore can read: judged by nobody here
    d = K.data()
    members = OrderedDict((m.key, m) for m in doc.members)     # the last of duplicate keys wins, as json.load
    known = K.schema()["properties"]
    obj = {name: m.value for name, m in members.items() if name in known and not m.unknown}
    errors = list(K.validator().iter_errors(obj))
    rejected = {e.absolute_path[0] for e in errors if e.absolute_path}
    out: List[Problem] = [_missing(doc, key) for key in d["required"]
                          if any(e.validator == "required" for e in errors) and key not in members]
    for name, m in members.items():
        if name not in known:
            out.append(Problem(m.key_start, m.key_end, name, f"unknown key {_show(name)}",
                               "ignores it without a word", did_you_mean(name, sorted(K.keys()))))
            continue
        if name not in rejected and not (name in obj and _has_float(m.value)):
            continue
        found = _typed(m, d["typed"][name]) if name in d["typed"] else []
        if not found and name in d["enums"]:
            found = _enum(m, d["enums"][name])
        out.extend(found)
    return out


def message(p: Problem):
    return said(p.what, clause(f"MindSpore {K.data()['releases']} ", p.reaction), p.advice)


def findings(found: List[Problem], text: str) -> List[Finding]:
    src = SourceText(text)
    out = []
    for p in found:
        (l1, c1), (l2, c2) = src.position(p.start), src.position(max(p.end, p.start))
        out.append(finding(CODE, message(p), p.start, p.end, l1, c1, l2, c2))
    return sorted(out, key=Finding.sort_key)


def check_text(text: str) -> List[Finding]:
    """The NPP356 findings of a MindSpore dynamic-profiling file's text."""
    return findings(problems(text), text)


# ---------------------------------------------------------------- the folders scripts hand to DynamicProfilerMonitor

def monitor_folders(text: str) -> List[str]:
    """The literal folders a script passes to `mindspore.profiler.DynamicProfilerMonitor(cfg_path=...)` (or as its
    first argument), under any name it is imported as: MindSpore reads `<cfg_path>/profiler_config.json` there."""
    if MONITOR not in text:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    names = monitor_names(tree)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not _named(node.func, names):
            continue
        arg = next((k.value for k in node.keywords if k.arg == "cfg_path"), node.args[0] if node.args else None)
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            out.append(arg.value)
    return out


def monitor_names(tree: ast.AST) -> Set[str]:
    """The dotted names under which a module reaches mindspore's DynamicProfilerMonitor."""
    names = {f"{m}.{MONITOR}" for m in MONITOR_MODULES}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in MONITOR_MODULES:
            names.update(a.asname or a.name for a in node.names if a.name == MONITOR)
        elif isinstance(node, ast.ImportFrom) and node.module == "mindspore":
            names.update(f"{a.asname or a.name}.{MONITOR}" for a in node.names if a.name == "profiler")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname and a.name in ("mindspore",) + MONITOR_MODULES:
                    rest = "profiler." if a.name == "mindspore" else ""
                    names.add(f"{a.asname}.{rest}{MONITOR}")
    return names


def _named(func, names) -> bool:
    from ..source.site_records import dotted
    return dotted(func) in names


# ---------------------------------------------------------------- the rule's page

from .rule import Rule  # noqa: E402

RULES = (
    Rule(
        code="NPP356",
        name="mindspore-dynamic-config-reset",
        summary="a setting in MindSpore's dynamic-profiling `profiler_config.json` that MindSpore resets or "
                "ignores, with at most a warning in its log",
        default=True,
        level="warning",
        what="In the `profiler_config.json` that `mindspore.profiler.DynamicProfilerMonitor(cfg_path=dir)` reads "
             "from `dir`: a missing `start_step` or `stop_step`; a `start_step`/`stop_step`/`analyse_mode` that is "
             "not a JSON integer (`\"5\"`), a switch "
             "that is not `true`/`false` (`\"true\"`), a list setting that is not a list; a `profiler_level` or "
             "`aic_metrics` string that is no member's value (`\"level1\"`, `\"ACL_AICORE_PIPE_UTILIZATION\"`); an "
             "`activities`, `export_type` or `host_sys` entry that is no member's value (`\"cpu\"`, `\"Text\"`), or "
             "a string where MindSpore wants a list (`\"export_type\": \"db\"`); keys MindSpore does not read "
             "(torch_npu's `prof_dir`, `warmup`, `experimental_config`).",
        why="MindSpore never stops on this file. A value of the wrong type is reset to its default and an enum "
            "name it does not know resets the whole setting (one bad entry resets the whole `activities` list), "
            "each with one warning in MindSpore's log. A string `start_step` or `stop_step` becomes -1, as a missing "
            "one does without a word, and -1 is documented as never starting a collection. Names are case-sensitive "
            "(`\"Level1\"`, `[\"CPU\"]`, `[\"text\"]`; torch_npu's file takes `activities` in any case). "
            "An unknown key is ignored "
            "without a word. The job runs and collects something other than what the file says.",
        example="""{
  "start_step": "5",
  "stop_step": 8,
  "profiler_level": "level1",
  "aic_metrics": "PipeUtilization",
  "activities": ["CPU", "NPU"],
  "export_type": "db",
  "with_stack": "true",
  "prof_path": "./dyn_prof"
}
""",
        fixed="""{
  "start_step": 5,
  "stop_step": 8,
  "profiler_level": "Level1",
  "aic_metrics": "PipeUtilization",
  "activities": ["CPU", "NPU"],
  "export_type": ["db"],
  "with_stack": true,
  "prof_path": "./dyn_prof"
}
""",
        fix_safety="none",
        fix_note="No fix: a reset value is what MindSpore runs with today, so changing the file changes what is "
                 "collected; the author chooses.",
        options=("Which framework's file it is: a `profiler_config.json` in the folder a script's literal "
                 "`DynamicProfilerMonitor(cfg_path=...)` names, or beside a script that uses it, is MindSpore's "
                 "(NPP356); one `torch_npu.profiler.dynamic_profile.init(...)` points at is torch_npu's (NPP311). "
                 "A file alone is decided by its keys: MindSpore's own are `stop_step`, `prof_path`, "
                 "`profiler_level`, `aic_metrics`, `analyse_mode`, `export_type`, `l2_cache`, `mstx`, "
                 "`mstx_domain_include`, `mstx_domain_exclude`, `parallel_strategy`, `data_simplification`, "
                 "`host_sys`, `sys_io`, `sys_interconnection`; torch_npu's own are `prof_dir`, `active`, `warmup`, "
                 "`experimental_config`, `metadata`, `async_mode`, `is_rank`, `rank_list`, `with_flops`, "
                 "`with_modules` (both read `start_step`, `activities`, `analyse`, `record_shapes`, "
                 "`profile_memory`, `with_stack`). A file with keys of neither or of both is reported only where "
                 "both frameworks lose the setting, each code saying what its framework does. "
                 "`npuprof validate --file F --framework mindspore` names the framework. The schema "
                 "`schemas/profiler_config.mindspore.schema.json` states the same keys for editors."),
        references=("MindSpore dynamic profiling: mindspore.profiler.DynamicProfilerMonitor "
                    "(mindspore/python/mindspore/profiler/dynamic_profiler.py, "
                    "dynamic_profile/dynamic_profiler_config_context.py)",),
        group="mindspore",
        language="json",
        facts=("mindspore.dynamic_json.",),
    ),
)
