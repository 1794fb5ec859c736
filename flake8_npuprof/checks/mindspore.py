"""MindSpore's profiler setup (NPP350-NPP355, NPP364): `mindspore.Profiler(**kwargs)`, `mindspore.profiler.profile`,
`_ExperimentalConfig`, `schedule`, the `MS_PROFILER_OPTIONS` variable, and the `mindspore.profiler` modules imported.

MindSpore does not stop on a bad profiling setting either: `ProfilerParameters` resets a value of the wrong
type to its default with a warning in MindSpore's log (`profiler_level="Level1"`, a string, becomes Level0:
MindSpore wants the enum member), another setting overrides it with a UserWarning, and `Profiler(**kwargs)`
drops a keyword it does not know without a word. Each message says what MindSpore does; the validation is the
same code in 2.7-2.10 (tests/oracle/mindspore/records.jsonl), so there is no release axis. The knowledge is
data/mindspore.json (knowledge/mindspore.py); values are followed as the torch_npu checks follow them
(checks/framework_values.py).
"""

from __future__ import annotations

import ast
import json
import re
from typing import Dict, List, Optional, Set, Tuple

from ..knowledge import mindspore as K
from ..source.model import Edit, Fix
from ..source import said as S
from ..source.sites import dotted
from ..source.suggest import close_matches
from .framework_values import EnumRef, Items, Names as FrameworkNames, aside, known, plain, show

MODULE = "mindspore.profiler"
PROFILERS = ("mindspore.Profiler", MODULE + ".Profiler")
PROFILE = MODULE + ".profile"
EXPERIMENTAL = MODULE + "._ExperimentalConfig"
SCHEDULE = MODULE + ".schedule"
ENV = "MS_PROFILER_OPTIONS"
LOG = "with a warning in its log"
WARN = "with a UserWarning"
UNEXPECTED = S.clause("MindSpore raises TypeError", S.aside("unexpected keyword argument"), " when the script starts")
UNSET = object()                        # a keyword not given, or given None: its default


def mentions_mindspore(text: str) -> bool:
    """Whether a file may set up MindSpore's profiler (cheap, before any walk)."""
    return "mindspore" in text or ENV in text


def _enum_of(owner: str, member: str) -> Optional[EnumRef]:
    prefix, _, name = owner.rpartition(".")
    table = K.data()["enums"].get(name) if prefix == MODULE else None
    if table is None or member not in table["members"]:
        return None
    return EnumRef(table["kind"], member, table["members"][member])


class Names(FrameworkNames):
    """The file's names for mindspore's objects, with the submodules that re-export them."""

    def __init__(self, tree: ast.AST):
        super().__init__(tree, ("mindspore",), tuple((f"{MODULE}.{sub}.", MODULE + ".") for sub in (
            "profiler", "experimental_config", "common.constant")), _enum_of)


def _report(ctx, names: Names, code: str, node: ast.AST, words: S.Said, fix: Optional[Fix] = None) -> None:
    ctx.report_node(code, node, words.closed_with(aside(names, node)), fix)


def _spelled(names: Names, enum: str, member: str) -> Optional[str]:
    """How this file can write an enum member through its own imports (ProfilerLevel.Level1, mp.ProfilerLevel...),
    or None when it imports none of the names it would need."""
    ways = []
    for alias, path in sorted(names.aliases.items()):
        if path == f"{MODULE}.{enum}":
            ways.append(f"{alias}.{member}")
        elif path == MODULE:
            ways.append(f"{alias}.{enum}.{member}")
        elif path == "mindspore":
            ways.append(f"{alias}.profiler.{enum}.{member}")
    return min(ways, key=len) if ways else None


def _a(word: str) -> str:
    return ("an " if word[0] in "AEIOU" else "a ") + word


def _one(ctx, names: Names, node: Optional[ast.AST]):
    """The one value an argument has, or None when it is unknown or may be one of several."""
    values = known(ctx, names, node)
    if not values or len({repr(v) for v in values}) != 1:
        return None
    return values[0]


# ---------------------------------------------------------------- the checks

def check(ctx) -> None:
    text = ctx.src.text
    if not mentions_mindspore(text):
        return
    names = Names(ctx.tree)
    if names.aliases:
        for call in (n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call)):
            full = names.of(call.func)
            if full in PROFILERS:
                _parameters(ctx, names, call, "Profiler")
            elif full == PROFILE:
                _parameters(ctx, names, call, "profile")
            elif full == EXPERIMENTAL:
                _experimental(ctx, names, call)
            elif full == SCHEDULE:
                _schedule(ctx, names, call)
    if ENV in text:
        _environment(ctx, names)
    if MODULE + "." in text:
        _modules(ctx)


def _modules(ctx) -> None:
    for stmt, module, imported in missing_modules(ctx.tree):
        start, end = ctx.src.node_start(stmt), ctx.src.node_end(stmt)
        at = re.compile(rf"(?<![\w.]){re.escape(module)}(?![\w.])").search(ctx.src.text, start, end)
        if at is not None:
            start, end = at.start(), at.end()
        ctx.report("NPP364", start, end, missing_module_words(module, imported))


def missing_modules(tree: ast.AST) -> List[Tuple[ast.stmt, str, Tuple[str, ...]]]:
    """NPP364: the imports of a mindspore.profiler module 2.7-2.10 do not have (older releases'
    mindspore.profiler.profiling, where Profiler was), each (statement, module, names imported from it): they raise
    ModuleNotFoundError. An import a `try` guards with a handler of ImportError (or wider) is the script's own
    fallback, and so is one under an `if` on a release (`if is_version_ge(ms.__version__, "2.3.0"):`: for the
    releases that run it) or on `TYPE_CHECKING` (never run)."""
    have = {MODULE} | {f"{MODULE}.{name}" for name in K.data()["modules"]["names"]}
    guarded: Set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(_catches_import_error(h) for h in node.handlers):
            guarded.update(id(n) for stmt in node.body for n in ast.walk(stmt))
        elif isinstance(node, ast.If) and any(_names_a_release(n.id if isinstance(n, ast.Name) else
                                                               n.attr if isinstance(n, ast.Attribute) else "")
                                              for n in ast.walk(node.test)):
            guarded.update(id(n) for stmt in node.body + node.orelse for n in ast.walk(stmt))
    out: List[Tuple[ast.stmt, str, Tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if id(node) in guarded:
            continue
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            modules = [(node.module, tuple(a.name for a in node.names))]
        elif isinstance(node, ast.Import):
            modules = [(a.name, ()) for a in node.names]
        else:
            continue
        out.extend((node, module, imported) for module, imported in modules
                   if module.startswith(MODULE + ".") and module not in have)
    return sorted(out, key=lambda found: (found[0].lineno, found[0].col_offset))


def _names_a_release(name: str) -> bool:
    """A name an `if` tests to pick code per release (`ms.__version__`), or that never runs (`TYPE_CHECKING`)."""
    return "version" in name.lower() or name == "TYPE_CHECKING"


def missing_module_words(module: str, imported: Tuple[str, ...]) -> S.Said:
    names = [n for n in imported if n != "*"]
    advice = (f"import {', '.join(names)} from {MODULE}, which exports {'it' if len(names) == 1 else 'them'}"
              if names and all(n in K.data()["modules"]["exports"] for n in names) else "")
    return S.said(f"{module} is not a module of MindSpore {K.data()['releases']}",
                  "the import raises ModuleNotFoundError and the job stops", advice)


def _catches_import_error(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any((t.id if isinstance(t, ast.Name) else t.attr) in ("ImportError", "ModuleNotFoundError", "Exception",
                                                                 "BaseException")
               for t in types if isinstance(t, (ast.Name, ast.Attribute)))


def _keywords(call: ast.Call) -> Dict[str, ast.keyword]:
    return {kw.arg: kw for kw in call.keywords if kw.arg}


def _parameters(ctx, names: Names, call: ast.Call, what: str) -> None:
    data = K.data()
    params = data["parameters"]
    kws = _keywords(call)
    if what == "Profiler":
        known_words = set(params) | set(data["deprecated_ignored"]) | set(data["deprecated_warned"]) | \
            set(data["profiler_extra_keywords"])
        for name, kw in kws.items():
            if name in data["deprecated_ignored"]:
                _report(ctx, names, "NPP354", kw, S.said(f"Profiler's keyword {name} is deprecated",
                                                         f"MindSpore 2.7-2.10 ignores it, {WARN}",
                                                         f"use {data['deprecated_ignored'][name]}"))
            elif name not in known_words:
                guess = close_matches(name, sorted(params))
                _report(ctx, names, "NPP352", kw, S.said(
                    f"Profiler has no keyword {name}",
                    S.clause("MindSpore 2.7-2.10 ignores it silently",
                             S.aside("nothing is collected differently and nothing says so")),
                    f"did you mean {guess[0]}=?" if guess else "see mindspore.Profiler's parameters"))
    elif any(name not in data["profile_keywords"] for name in kws):
        return                          # profile() raises TypeError: not judged (the record has no such case)
    # an experimental_config's fields override the same-named keywords (ProfilerContext), and **kwargs may hold
    # any: what is overridden, or in effect by default, is not known then
    config = "experimental_config" in kws
    overridden = set(data["experimental_config_keywords"]) if config else set()
    values = {name: _value(ctx, names, name, kw.value) for name, kw in kws.items()
              if name in params and name not in overridden}
    if not config and not any(kw.arg is None for kw in call.keywords):
        _combinations(ctx, names, kws, values)


def _experimental(ctx, names: Names, call: ast.Call) -> None:
    """_ExperimentalConfig takes its keywords by name and checks nothing itself: the profiler it is given to
    checks its values as it checks its own keywords (ProfilerParameters)."""
    data = K.data()
    kws = _keywords(call)
    allowed = data["experimental_config_keywords"]
    for name, kw in kws.items():
        if name not in allowed:
            guess = close_matches(name, sorted(allowed))
            _report(ctx, names, "NPP353", kw, S.said(
                f"_ExperimentalConfig has no keyword {name}",
                UNEXPECTED,
                f"did you mean {guess[0]}=?" if guess else f"it takes {', '.join(allowed)}"))
    if call.args or any(name not in allowed for name in kws) or any(kw.arg is None for kw in call.keywords):
        return
    values = {name: _value(ctx, names, name, kw.value) for name, kw in kws.items()}
    _combinations(ctx, names, kws, values)


def _value(ctx, names: Names, name: str, node: ast.AST):
    """NPP350 for a value ProfilerParameters resets; returns the value in effect (an enum member's name, a
    constant, UNSET for the default, None when unknown)."""
    spec = K.data()["parameters"][name]
    kind, reset = spec["type"], spec["reset"]
    if kind == "schedule" and isinstance(node, ast.Dict):
        _report(ctx, names, "NPP350", node, S.said("schedule is a dict, not a schedule(...)",
                                                   f"MindSpore resets it to {reset} {LOG}",
                                                   "write schedule=mindspore.profiler.schedule(wait=..., active=...)"))
        return UNSET
    value = _one(ctx, names, node)
    if value is None and isinstance(node, ast.Constant):
        return UNSET                    # None: the default, without a word
    if value is None:
        return None
    said = f"{name}={show(value)}"
    if kind == "enum":
        if isinstance(value, EnumRef) and value.kind == name:
            return value.name
        enum = next(e for e, t in K.data()["enums"].items() if t["kind"] == name)
        members = K.data()["enums"][enum]["members"]
        if isinstance(value, str) and reset in (value, members.get(value)) or members.get(reset) == value:
            return reset                # "Level0", "AiCoreNone": the default it becomes is what was meant
        fix = None
        if isinstance(value, str):
            guess = [m for m, v in members.items() if value in (m, v)] or close_matches(value, sorted(members))
            what: S.Text = f"{said} is a string, not {_a(enum)} member"
            advice = f"write {enum}.{guess[0]}" if guess else f"write {_a(enum)} member"
            if name == "profiler_level":
                what = S.clause(what, S.aside("unlike torch_npu, where the string works"))
            # only the level: a metric's member at Level0 (the default) would trade this finding for NPP351's
            spelled = _spelled(names, enum, guess[0]) if guess and name == "profiler_level" else None
            if spelled and isinstance(node, ast.Constant):
                # unsafe: the run collected Level0 before, and collects the level asked for after
                fix = Fix((Edit(ctx.src.node_start(node), ctx.src.node_end(node), spelled),), False,
                          f"{name} {spelled} (collects {guess[0]} instead of {reset})")
        else:
            what, advice = f"{said} is not {_a(enum)} member", f"write {_a(enum)} member"
        _report(ctx, names, "NPP350", node, S.said(what, f"MindSpore resets it to {reset} {LOG}", advice), fix)
        return reset
    if kind in ("bool", "str"):
        if (kind == "bool" and isinstance(value, bool)) or (kind == "str" and isinstance(value, str)):
            return value
        if kind == "bool" and _meant_bool(value) == (reset == "True"):
            return reset == "True"      # 1 or "True" where the default is True: it becomes what was meant
        advice = f"write {name}=True or {name}=False" if kind == "bool" else "give the path as a string"
        _report(ctx, names, "NPP350", node, S.said(f"{said} is not a {kind}", f"MindSpore resets it to {reset} {LOG}",
                                                   advice))
        return reset == "True" if kind == "bool" else reset
    if kind == "enum_list":
        enum = next(e for e, t in K.data()["enums"].items() if t["kind"] == name)
        if isinstance(value, Items) and all(isinstance(v, EnumRef) and v.kind == name for v in value):
            return value
        strings = isinstance(value, str) or (isinstance(value, Items) and any(isinstance(v, str) for v in value))
        bare = isinstance(value, EnumRef) and value.kind == name and name == "activities"
        if strings or bare:
            what = "holds strings" if isinstance(value, Items) else "is not a list"
            _report(ctx, names, "NPP350", node, S.said(
                f"{said} {what}", f"MindSpore resets it to {reset} {LOG}",
                f"write a list of {enum} members ([{enum}.{next(iter(K.data()['enums'][enum]['members']))}, ...])"))
            return reset
        return None
    if kind == "export_type":
        return _export_type(ctx, names, node, value, said, reset)
    if kind == "callable" and isinstance(value, str):
        _report(ctx, names, "NPP350", node, S.said(
            f"{said} is not callable",
            S.clause(f"MindSpore resets it to {reset} {LOG}", S.aside("nothing is written out")),
            "write on_trace_ready=mindspore.profiler.tensorboard_trace_handler(\"<dir>\")"))
        return reset
    return None


def _meant_bool(value) -> Optional[bool]:
    """What a switch given as 0/1 or "True"/"False" evidently means (None: anything else)."""
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return {"True": True, "False": False}.get(value) if isinstance(value, str) else None


def _export_type(ctx, names: Names, node: ast.AST, value, said: str, reset: str):
    """A list of ExportType members, one member, or the string "text"/"db" is accepted; anything else is reset."""
    if isinstance(value, EnumRef) and value.kind == "export_type":
        return (value.value,)
    if isinstance(value, str) and value in ("text", "db"):
        return (value,)
    if isinstance(value, Items) and all(isinstance(v, EnumRef) and v.kind == "export_type" for v in value):
        return tuple(v.value for v in value)
    if isinstance(value, Items) and not value:
        return (reset,)
    if isinstance(value, str) or (isinstance(value, Items) and any(isinstance(v, str) for v in value)):
        guess = close_matches(str(plain(value[0] if isinstance(value, Items) else value)), ["db", "text"])
        advice = "write [ExportType.Text, ExportType.Db] or the single string \"db\"" if isinstance(value, Items) \
            else (f"did you mean {guess[0]!r}?" if guess else "write ExportType.Text or ExportType.Db")
        _report(ctx, names, "NPP350", node, S.said(f"{said} is not accepted", f"MindSpore resets it to {reset} {LOG}",
                                                   advice))
        return (reset,)
    return None


def _combinations(ctx, names: Names, kws: Dict[str, ast.keyword], values: dict) -> None:
    """NPP351: a valid setting another one overrides (ProfilerParameters._handle_compatibility)."""
    level = values.get("profiler_level", UNSET)
    level_given = "profiler_level" in kws and level is not UNSET
    level = "Level0" if level is UNSET else level
    mstx = values.get("mstx", UNSET)
    if level == "LevelNone" and level_given and (mstx is UNSET or mstx is False):
        _report(ctx, names, "NPP351", kws["profiler_level"].value, S.said(
            "profiler_level LevelNone without mstx=True", f"MindSpore resets it to Level0 {WARN}",
            "add mstx=True (LevelNone collects mstx marks only)"))
        level = "Level0"
    member = _one(ctx, names, kws["aic_metrics"].value) if "aic_metrics" in kws else None
    # only a metric written as a member: a string was reset to AiCoreNone already (NPP350)
    if isinstance(member, EnumRef) and member.kind == "aic_metrics":
        metric = member.name
        if metric != "AiCoreNone" and level in ("Level0", "LevelNone"):
            where = f"with profiler_level {level}" if level_given else S.clause("at profiler_level Level0",
                                                                                S.aside("the default"))
            _report(ctx, names, "NPP351", kws["aic_metrics"].value, S.said(
                S.clause(f"aic_metrics {metric} ", where), f"MindSpore resets it to AiCoreNone {WARN}",
                "AI Core metrics are collected at Level1 and Level2 only: add profiler_level=ProfilerLevel.Level1 to "
                "collect it"))
        elif metric == "AiCoreNone" and level in ("Level1", "Level2"):
            _report(ctx, names, "NPP351", kws["aic_metrics"].value, S.said(
                f"aic_metrics AiCoreNone with profiler_level {level}",
                S.clause(f"MindSpore collects PipeUtilization instead, {WARN}",
                         S.aside("at Level1 and Level2 a metric cannot be turned off")),
                "drop aic_metrics, or use profiler_level=ProfilerLevel.Level0"))
    activities = values.get("activities", UNSET)
    if values.get("record_shapes") is True and isinstance(activities, Items) and \
            not any(v.name == "CPU" for v in activities):
        _report(ctx, names, "NPP351", kws["record_shapes"].value, S.said(
            "record_shapes=True without ProfilerActivity.CPU in activities", f"MindSpore resets it to False {WARN}",
            "add ProfilerActivity.CPU to activities"))
    if "data_process" in kws and values.get("data_process") is True and "schedule" in kws and \
            _is_schedule(names, kws["schedule"].value):
        _report(ctx, names, "NPP351", kws["data_process"].value, S.said(
            "data_process=True with a schedule", f"MindSpore sets it to False {WARN}",
            "drop data_process (it is not collected under a schedule)"))


def _is_schedule(names: Names, node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and names.of(node.func) == SCHEDULE


def _schedule(ctx, names: Names, call: ast.Call) -> None:
    data = K.data()["schedule"]
    kws = _keywords(call)
    if call.args:
        _report(ctx, names, "NPP353", call.args[0], S.said(
            "schedule() given a positional argument",
            S.clause("MindSpore raises TypeError", S.aside("its arguments are keyword-only"),
                     " when the script starts"),
            "name them: schedule(wait=..., active=..., warmup=..., repeat=..., skip_first=...)"))
        return
    for name, kw in kws.items():
        if name not in data["keywords"]:
            guess = close_matches(name, data["keywords"])
            _report(ctx, names, "NPP353", kw, S.said(
                f"schedule has no keyword {name}",
                UNEXPECTED,
                f"did you mean {guess[0]}=?" if guess else f"it takes {', '.join(data['keywords'])}"))
    if any(kw.arg is None for kw in call.keywords):
        return
    missing = [k for k in data["required"] if k not in kws]
    if missing:
        _report(ctx, names, "NPP353", call, S.said(
            f"schedule() without {' and '.join(missing)}",
            S.clause("MindSpore raises TypeError", S.aside("missing required keyword-only argument"),
                     " when the script starts"),
            f"give {', '.join(m + '=' for m in missing)}"))
    for name, kw in kws.items():
        if name not in data["keywords"]:
            continue
        values = known(ctx, names, kw.value)
        if not values or len({repr(v) for v in values}) != 1:
            continue
        value = values[0]
        floor = data["floor"].get(name, 0)
        integer = isinstance(value, int) and not isinstance(value, bool)
        if integer and value >= floor:
            continue
        what = "is not an int" if not integer else "is not positive" if floor else "is negative"
        _report(ctx, names, "NPP350", kw.value, S.said(f"{name}={show(value)} {what}",
                                                       f"MindSpore resets it to {floor} {LOG}",
                                                       f"write a whole number of at least {floor}"))


# ---------------------------------------------------------------- MS_PROFILER_OPTIONS

def _environment(ctx, names: Names) -> None:
    """NPP355: MS_PROFILER_OPTIONS set in Python to JSON MindSpore cannot use."""
    for node in ast.walk(ctx.tree):
        at: Optional[ast.AST] = None
        value: Optional[ast.AST] = None
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Subscript) and dotted(t.value) in ("os.environ", "environ") and \
                        isinstance(t.slice, ast.Constant) and t.slice.value == ENV:
                    at, value = t, node.value
        elif isinstance(node, ast.Call) and len(node.args) == 2 and isinstance(node.args[0], ast.Constant) and \
                node.args[0].value == ENV and dotted(node.func) in ("os.environ.setdefault", "environ.setdefault",
                                                                    "os.putenv"):
            at, value = node, node.args[1]
        if at is None or value is None:     # (value is set with at)
            continue
        options = _options_text(ctx, names, value)
        if options is None:
            continue
        for message in options_findings(options):
            _report(ctx, names, "NPP355", value, message)


def _options_text(ctx, names: Names, node: ast.AST) -> Optional[str]:
    """The variable's value as JSON text: a string, or json.dumps of a literal dict."""
    if isinstance(node, ast.Call) and dotted(node.func) in ("json.dumps", "dumps") and len(node.args) == 1:
        try:
            return json.dumps(ast.literal_eval(node.args[0]))
        except (ValueError, TypeError, SyntaxError):
            return None
    value = _one(ctx, names, node)
    return value if isinstance(value, str) else None


# what EnvProfiler does with text it cannot read as options: a log line (left out of the short sentence) and no profile
_DECODE_ERROR = S.clause("MindSpore ", S.logged(f'logs "Failed to load {ENV}, json decode error." and '),
                         "does not profile")


def options_findings(text: str):
    """What MindSpore (EnvProfiler) does with MS_PROFILER_OPTIONS set to text, where it is not what the text
    asks for: the messages of NPP355."""
    for message, _, _ in options_spots(text):
        yield message


def options_spots(text: str):
    """options_findings with where each is in text: (message, start, end), at the character JSON stops reading, the
    value of the key at fault, or the whole text (`validate --env` points there)."""
    from ..source.jsonscan import parse
    head = f"{ENV}"
    try:
        options = json.loads(text)
    except ValueError as exc:
        at = min(getattr(exc, "pos", 0), max(len(text) - 1, 0))
        yield S.said(f"{head} is not valid JSON", _DECODE_ERROR,
                     "write a JSON object such as {\"start\": true, \"profiler_level\": \"Level1\"}"), at, at + 1
        return
    if not isinstance(options, dict):
        return
    members = {m.key: m for m in parse(text).members}     # the last of a key written twice, as json.loads keeps
    if not options:
        yield S.said(f"{head} is an empty object", _DECODE_ERROR, "add \"start\": true"), 0, len(text)
        return
    if not options.get("start"):
        said = "\"start\": false" if "start" in options else "no \"start\": true"
        m = members.get("start")
        yield S.said(f"{head} has {said}", "MindSpore does not profile, and says so only in an INFO line of its log",
                     "add \"start\": true"), *((m.value_start, m.value_end) if m else (0, len(text)))
        return
    env = K.data()["env"]
    for key, enum in env["enums"].items():
        if key not in options:
            continue
        members_ = K.data()["enums"][enum]["members"]
        accepted = set(members_.values())
        given = options[key]
        items = given if isinstance(given, list) and key in ("activities", "export_type") else [given]
        bad = [v for v in items if isinstance(v, str) and v not in accepted]
        meant = [members_.get(v, v) for v in items]
        if not bad or sorted(meant) == sorted(env["default_values"][key]):
            continue                    # the default it is reset to is what the member names meant ("Text")
        guess = close_matches(bad[0], sorted(accepted)) or [v for v in accepted if v.lower() == bad[0].lower()]
        m = members.get(key)
        start, end = (m.value_start, m.value_end) if m else (0, len(text))
        item = text.find(json.dumps(bad[0]), start, end) if m and isinstance(given, list) else -1
        if item >= 0:                   # the item of a list at fault
            start, end = item, item + len(json.dumps(bad[0]))
        yield S.said(f"{head}'s {key} {bad[0]!r} is not {_a(enum)} value",
                     f"MindSpore resets {key} to {env['defaults'][key]} {LOG}",
                     f"did you mean {guess[0]!r}?" if guess else f"use one of {', '.join(sorted(accepted))}"), \
            start, end


# ---------------------------------------------------------------- the pages of the codes reported here

from .rule import Rule  # noqa: E402

_MS = """\
import mindspore
from mindspore.profiler import ProfilerActivity, ProfilerLevel, AicoreMetrics, ExportType

"""
_LOOP = """\
for step in range(10):
    train_one_step()
    prof.step()
prof.stop()
"""


def _profiler(arguments: str) -> str:
    return _MS + "prof = mindspore.Profiler(\n" + arguments + "    output_path=\"./prof\")\n" + _LOOP


_GOOD = _profiler("    profiler_level=ProfilerLevel.Level1,\n    aic_metrics=AicoreMetrics.PipeUtilization,\n")
REF_GUIDE = "MindSpore profiler API (mindspore.Profiler, mindspore.profiler.profile; MindSpore docs, 2.7-2.10)"
_CHECKED = ("One rule for MindSpore 2.7 to 2.10: their profiler configuration code is the same, and the oracle's "
            "record (tests/oracle/mindspore/records.jsonl) has the same outcome for every case on all four, so "
            "there is no MindSpore release target. Releases before 2.7 are not checked against.")
_EXP_NOTE = (" `_ExperimentalConfig` checks nothing itself: the profiler it is given to checks its values as it "
             "checks its own keywords, so its values are reported the same way.")

RULES = (
    Rule(
        code="NPP350",
        name="mindspore-value-reset",
        summary="a MindSpore profiler setting of the wrong type (`profiler_level=\"Level1\"`, a string): MindSpore "
                "resets it to its default with a warning in its log",
        default=True,
        level="warning",
        what="A value `mindspore.Profiler`, `mindspore.profiler.profile` or `_ExperimentalConfig` resets: a "
             "`profiler_level` or `aic_metrics` that is not an enum member (a string such as \"Level1\" or "
             "\"PipeUtilization\", an int), a non-bool switch (`with_stack=1`, `l2_cache=\"True\"`), `activities` or "
             "`host_sys` holding strings, an `export_type` other than ExportType members or \"text\"/\"db\", a "
             "`schedule` that is a dict, an `on_trace_ready` that is a string; and a `schedule(...)` value that is "
             "not a whole number (or a negative one, or `active` below 1). Values built in code are followed "
             "(names, constants, argparse defaults); what cannot be known stays quiet." + _EXP_NOTE,
        why="MindSpore's ProfilerParameters checks each value's type and replaces a wrong one by the default, with "
            "one warning in MindSpore's log. Unlike torch_npu, the profiler level must be the enum member: "
            "`profiler_level=\"Level1\"` collects Level0 data, and `aic_metrics=\"PipeUtilization\"` collects no "
            "AI Core metric. The run looks fine and the data is not what was asked for.",
        example=_profiler("    profiler_level=\"Level1\",\n"),
        fixed=_profiler("    profiler_level=ProfilerLevel.Level1,\n"),
        fix_safety="unsafe",
        fix_note="A `profiler_level` string written in place is replaced by the enum member it names "
                 "(`\"Level1\"` → `ProfilerLevel.Level1`), spelled through the file's own imports of "
                 "`mindspore.profiler` (no fix where it imports none); unsafe, since it changes what is collected "
                 "(the run collected the default before).",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="mindspore",
        facts=("mindspore.parameters.", "mindspore.schedule.values"),
    ),
    Rule(
        code="NPP351",
        name="mindspore-setting-overridden",
        summary="a MindSpore profiler setting another one overrides (a metric at Level0, AiCoreNone at Level1/2, "
                "LevelNone without mstx, record_shapes without CPU): changed with a UserWarning",
        default=True,
        level="warning",
        what="An `aic_metrics` member with `profiler_level` Level0 (the default) or LevelNone; "
             "`aic_metrics=AicoreMetrics.AiCoreNone` with Level1 or Level2; `profiler_level=ProfilerLevel.LevelNone` "
             "without `mstx=True`; `record_shapes=True` while `activities` has no `ProfilerActivity.CPU`; "
             "`data_process=True` with a `schedule`." + _EXP_NOTE,
        why="MindSpore changes the setting with a UserWarning: AI Core metrics are collected at Level1 and Level2 "
            "only (the metric becomes AiCoreNone), and there a metric cannot be turned off (AiCoreNone becomes "
            "PipeUtilization); LevelNone becomes Level0, record_shapes and data_process become False. The run "
            "collects something other than the script says.",
        example=_profiler("    aic_metrics=AicoreMetrics.PipeUtilization,\n"),
        fixed=_GOOD,
        fix_safety="none",
        fix_note="No fix: whether to raise the level or drop the metric is the author's choice.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="mindspore",
        facts=("mindspore.compatibility",),
    ),
    Rule(
        code="NPP352",
        name="mindspore-unknown-keyword-ignored",
        summary="a keyword `mindspore.Profiler(**kwargs)` does not know (`aicore_metrics=`): ignored silently",
        default=True,
        level="warning",
        what="A keyword of `mindspore.Profiler(...)` that is neither one of its parameters, `experimental_config`, "
             "nor a deprecated one (NPP354): a typo such as `aicore_metrics=` or `level=`, or a keyword of an older "
             "MindSpore.",
        why="`mindspore.Profiler` takes `**kwargs` and reads only the names it knows: anything else is dropped "
            "without a warning. Nothing is collected differently and nothing says so.",
        example=_profiler("    profiler_level=ProfilerLevel.Level1,\n    aicore_metrics=AicoreMetrics.Memory,\n"),
        fixed=_profiler("    profiler_level=ProfilerLevel.Level1,\n    aic_metrics=AicoreMetrics.Memory,\n"),
        fix_safety="none",
        fix_note="No fix: the intended keyword is the author's to choose (the message suggests one).",
        options=_CHECKED + " `mindspore.profiler.profile(...)` has an explicit signature; its unknown keywords are "
                           "not reported here (the oracle's record has no case of them).",
        references=(REF_GUIDE,),
        group="mindspore",
        facts=("mindspore.profiler.kwargs",),
    ),
    Rule(
        code="NPP353",
        name="mindspore-type-error",
        summary="`schedule` called positionally or without `wait`/`active`, or a keyword `schedule` or "
                "`_ExperimentalConfig` does not have: TypeError when the script starts",
        default=True,
        level="error",
        what="A `mindspore.profiler.schedule(1, 2)` call (its arguments are keyword-only), a `schedule()` without "
             "`wait` or `active`, `schedule(skip_first_wait=...)` (torch_npu's, not MindSpore's), and an "
             "`_ExperimentalConfig` keyword it does not have (`aicore_metrics=`, torch_npu's `op_attr=`).",
        why="These are plain Python signature errors: the script stops at start-up with a TypeError.",
        example=_MS + "sched = mindspore.profiler.schedule(1, 2)\n",
        fixed=_MS + "sched = mindspore.profiler.schedule(wait=1, active=2)\n",
        fix_safety="none",
        fix_note="No fix: MindSpore never read the positional order, so which value is which is the author's to say.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="mindspore",
        facts=("mindspore.schedule.keywords", "mindspore.experimental_config.keywords"),
    ),
    Rule(
        code="NPP354",
        name="mindspore-deprecated-keyword",
        summary="a deprecated `mindspore.Profiler` keyword (`profile_communication`, `op_time`, `timeline_limit`): "
                "ignored, with a UserWarning",
        default=True,
        level="warning",
        what="`profile_communication=`, `op_time=` or `timeline_limit=` given to `mindspore.Profiler(...)`, as "
             "scripts written for MindSpore 2.2 and earlier do.",
        why="MindSpore 2.7-2.10 warns that the keyword is deprecated and ignores it: `profile_communication=True` "
            "no longer collects communication (Level1 does), and `op_time` no longer switches anything.",
        example=_profiler("    profile_communication=True,\n"),
        fixed=_profiler("    profiler_level=ProfilerLevel.Level1,\n"),
        fix_safety="none",
        fix_note="No fix: the replacement setting changes what is collected.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="mindspore",
        facts=("mindspore.deprecated",),
    ),
    Rule(
        code="NPP355",
        name="mindspore-profiler-options-env",
        summary="`MS_PROFILER_OPTIONS` (in Python or a launcher) that MindSpore cannot use: invalid JSON or no "
                "`\"start\": true` (nothing is profiled), or an enum string it resets",
        default=True,
        level="warning",
        what="`os.environ[\"MS_PROFILER_OPTIONS\"] = ...` (or `setdefault`, `os.putenv`, a `json.dumps` of a "
             "literal dict), or `export MS_PROFILER_OPTIONS='...'` in a shell launcher, whose value is not JSON, is "
             "an empty object, lacks `\"start\": true`, or has a "
             "`profiler_level`, `aic_metrics`, `activities` or `export_type` string that is not the enum's value "
             "(names are case-sensitive: \"level1\", [\"npu\"], \"ACL_AICORE_PIPE_UTILIZATION\").",
        why="MindSpore reads the variable when it starts: without `\"start\": true` it does nothing (one INFO "
            "line); invalid JSON logs \"Failed to load MS_PROFILER_OPTIONS, json decode error.\" and profiles "
            "nothing; an unknown enum string is replaced by the default with a warning in its log.",
        example=_MS + "import os\nos.environ[\"MS_PROFILER_OPTIONS\"] = '{\"profiler_level\": \"Level1\"}'\n",
        fixed=_MS + "import os\nos.environ[\"MS_PROFILER_OPTIONS\"] = '{\"start\": true, \"profiler_level\": "
                    "\"Level1\"}'\n",
        fix_safety="none",
        fix_note="No fix: starting the profiler changes the run.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="mindspore",
        facts=("mindspore.env.",),
    ),
    Rule(
        code="NPP364",
        name="mindspore-no-such-profiler-module",
        summary="an import of a `mindspore.profiler` module MindSpore 2.7-2.10 do not have (older releases' "
                "`mindspore.profiler.profiling`): ModuleNotFoundError, the job stops",
        default=True,
        level="error",
        what="`from mindspore.profiler.profiling import Profiler`, `import mindspore.profiler.profiling`, or any "
             "other `mindspore.profiler.*` module that is not among the 2.7-2.10 wheels' modules (the same 83 in "
             "each), as scripts written for older releases import them (mindspore-ai/models' YOLOv4, YOLOX, VIT, "
             "CycleGAN...). An import inside a `try` whose handler catches ImportError (or wider), or under an `if` "
             "that tests a release (a name or attribute with `version` in it) or `TYPE_CHECKING`, is left alone.",
        why="MindSpore 2.7-2.10 have no `mindspore/profiler/profiling.py`: `Profiler` lives in "
            "`mindspore/profiler/profiler.py` and the package exports it. Importing a module that is not there "
            "raises ModuleNotFoundError: a script that imports it at the top stops before training, with or "
            "without profiling; one that imports it under `if args.profiling:` stops when profiling is asked "
            "for. The `Profiler(...)` call after it is never reached, so its keywords are not judged.",
        example=_MS + "from mindspore.profiler.profiling import Profiler\n\nprof = Profiler(output_path=\"./prof\")\n",
        fixed=_MS + "from mindspore.profiler import Profiler\n\nprof = Profiler(output_path=\"./prof\")\n",
        fix_safety="none",
        fix_note="No fix: the message names the module to import from when the names imported are ones "
                 "`mindspore.profiler` exports.",
        options=_CHECKED,
        references=(REF_GUIDE,),
        group="mindspore",
        facts=("mindspore.modules",),
    ),
)
