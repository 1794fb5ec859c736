"""A MindFormers YAML run configuration (`run_mindformer.py --config x.yaml`): the profiling keys its ProfileMonitor
reads (or does not), as MindFormers' own code does with them (data/mindformers.json, read at a dev commit, v1.6.0
and v1.7.0, and v1.5.0 where its ProfileMonitor differs: "checked"; sources: data/sources.json mindformers.*). Each
message names the releases it holds for; a project holding its own mindformers package is judged by the release its
copies are. The YAML is judged as it is written, with its base_config files merged under it: the overrides of a
launch (`--profile True`, `--options k=v`) are emulate's (emulate/mindformers_run.py).

A file is read as a run configuration only where its bytes name a profiling key at the start of a line
(source/files.RUN_CONFIG_KEYS) and its keys are MindFormers' (a run_mode, runner_config, parallel_config ... at the top:
data/mindformers.json "checked"); every other YAML is left alone. One that does not parse is NPP192. Where the
project holds its own mindformers package and its ProfileMonitor or Trainer._build_profile_cb is not a copy read,
nothing is said: what that code does is not known here.
"""

from __future__ import annotations

import ast
import os
import re
from functools import lru_cache
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ..knowledge import mindformers as K
from ..source.files import RUN_CONFIG_KEYS
from ..source.model import Edit, Finding, Fix, finding
from ..source.said import aside, clause, logged, said, so
from ..source.text import SourceText

_KEYS = re.compile(RUN_CONFIG_KEYS.pattern.decode("ascii"), re.M)


class Key(NamedTuple):
    """A top-level key of the file: its name, where its key and value are (character offsets), its value."""

    name: str
    start: int
    end: int
    value_start: int
    value_end: int
    value: Any
    node: Any                       # the value's YAML node


def check_file(text: str, path: str, settings=None) -> List[Finding]:
    """The findings of a YAML file for `npuprof check` and the language server: an internal error is NPP000,
    never a crash."""
    try:
        return check_text(text, path)
    except Exception as exc:            # same contract as Python files
        from .analysis import internal_error
        return [internal_error(exc)]


MAX_CHARS = 1_000_000       # a run configuration is a few kilobytes; PyYAML reads about 1 MB a second


def check_text(text: str, path: str) -> List[Finding]:
    if not _KEYS.search(text):
        return []                       # not a run configuration: never parsed
    if len(text) > MAX_CHARS:
        return [finding("NPP191", said("analysis budget exhausted", clause(
            f"this YAML file has {len(text):,} characters, over the {MAX_CHARS:,} a run configuration is read within",
            so("it was not checked"))), 0, 0, 1, 0, 1, 0)]
    from ..source.run_config import NotYaml, parse
    try:
        doc = parse(text)
    except NotYaml as e:
        return [_not_yaml(e, text)]
    keys = _top_keys(doc.node, doc.values)
    if not keys:
        return []
    cfg = _merged(path, text, doc.values)
    if not (set(cfg if cfg is not None else doc.values) & set(K.data()["checked"]["markers"])):
        return []                       # profile keys, but not MindFormers' keys: another program's YAML
    if not any(_KEYS.match(f"{k}:") for k in keys):
        return []                       # the profiling keys the text names are not the file's own (nested, quoted)
    releases = _releases_of(path)
    if not releases:
        return []                       # the project's own mindformers is none of the copies read
    found: List[Tuple[str, Any, int, int, Optional[Fix]]] = []
    found += _level_raises(keys, cfg, text, releases)
    found += _communication_raises(keys, cfg, text, releases)
    found += _switch_as_string(keys, cfg, text, releases)
    if cfg is not None and cfg.get("run_mode") in K.data()["profiled_run_modes"]:
        # what ProfileMonitor records matters in a train or finetune run only (it is a training callback; predict
        # runs profile text generation with settings of their own): a run mode given at launch is not known here
        for judge in (_level_unused, _ranks, _communication, _window):
            found.extend(judge(keys, cfg, text, releases))
    if not found:
        return []
    src = SourceText(text)
    out = []
    for code, words, start, end, fix in found:
        (l1, c1), (l2, c2) = src.position(start), src.position(max(end, start))
        out.append(finding(code, words, start, end, l1, c1, l2, c2, fix))
    return sorted(out, key=Finding.sort_key)


def _not_yaml(e, text: str) -> Finding:
    """NPP192: the file does not parse as YAML, at PyYAML's mark."""
    src = SourceText(text)
    start = min(max(e.index, 0), len(text))
    line, col = src.position(start)
    body = src.line_text(line).rstrip("\r\n")
    end = start + 1 if col < len(body) else start
    message = said("the file does not parse as YAML",
                   clause(e.problem, aside("PyYAML's SafeLoader, which MindFormers reads run configurations with"),
                          so("nothing in it was checked")))
    return finding("NPP192", message, start, end, line, col, line, col + (end - start))


def _top_keys(node, values) -> Dict[str, Key]:
    """The file's top-level keys with their values as yaml.safe_load builds them (of a repeated key, the last, which
    it keeps)."""
    import yaml
    if not isinstance(node, yaml.MappingNode) or not isinstance(values, dict):
        return {}
    out: Dict[str, Key] = {}
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.tag == "tag:yaml.org,2002:str" and k.value in values:
            out[k.value] = Key(k.value, k.start_mark.index, k.end_mark.index, v.start_mark.index,
                               v.end_mark.index, values[k.value], v)
    return out


def _merged(path: str, text: str, values: dict) -> Optional[dict]:
    """The configuration with its base_config files merged under it (None: one of them is not read, so a judgement
    that needs another key stays quiet)."""
    if "base_config" not in values:
        return values
    from ..source.run_config import Unread, load
    try:
        return load(path, text).values
    except Unread:
        return None


def _copies() -> Dict[str, Dict[str, Tuple[str, ...]]]:
    """The releases whose ProfileMonitor and Trainer._build_profile_cb were read: release -> name -> digests."""
    checked = K.data()["checked"]
    later = {e["name"]: tuple(e["digests"]) for e in K.data()["code"] if e["name"] in checked["code"]}
    out = {name: {k: tuple(v) for k, v in copy.items()} for name, copy in checked["earlier"].items()}
    out[checked["releases"]] = later
    return out


def _releases_of(path: str) -> Tuple[str, ...]:
    """The MindFormers releases the file's run may use: the one whose copies the project's own mindformers package
    holds (in a folder above the file), none where it holds other copies, every release read where the project
    has no package (the installed one runs, whichever it is)."""
    from ..source.observed import isfile         # (the cache then knows when a package appears or goes)
    files = {e["name"]: e["file"] for e in K.data()["code"]}
    folder = os.path.dirname(os.path.abspath(path))
    for _ in range(8):
        if isfile(os.path.join(folder, "mindformers", "core", "callback", "callback.py")):
            return tuple(release for release, copy in _copies().items()
                         if all(copy_read(os.path.join(folder, files[name]), name, digests)
                                for name, digests in copy.items()))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return tuple(_copies())


def copy_read(path: str, name: str, digests: Tuple[str, ...]) -> bool:
    """Whether the file at path is a copy whose part `name` has one of these digests (kept per path and stamp: the
    checks of MindFormers and MindSpeed-RL ask it of a project's copy once per file checked)."""
    from ..source.files import ReadError, read_source
    try:
        text = read_source(path).text
        stamp = os.stat(path).st_mtime_ns
    except (ReadError, OSError):
        return False
    return _same_copy(path, stamp, text, name, digests)


@lru_cache(maxsize=16)
def _same_copy(path: str, stamp: int, text: str, name: str, digests: Tuple[str, ...]) -> bool:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return bool(K.same(text, tree, name, digests))


# ---------------------------------------------------------------- what each key does

LATER = "1.6.0-1.7.0"       # data/mindformers.json checked.releases: ProfileMonitor with a schedule
EARLIER = "1.5.0"


def _scope(releases: Tuple[str, ...]) -> str:
    """The releases a statement holds for, as a message names them: "MindFormers 1.5.0-1.7.0" for both."""
    if len(releases) > 1:
        return f"MindFormers {releases[0].split('-')[0]}-{releases[-1].split('-')[-1]}"
    return f"MindFormers {releases[0]}"


def _default(cfg: Optional[dict], key: str):
    """A key of the merged configuration, the template's default where the YAML leaves it out."""
    if cfg is None:
        return None
    return cfg.get(key, K.data()["defaults"].get(key))


def _written(key: Key, text: str) -> str:
    return " ".join(text[key.value_start:key.value_end].split()) or "null"


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _level_unused(keys: Dict[str, Key], cfg: Optional[dict], text: str, releases: Tuple[str, ...]):
    """NPP357: a level ProfileMonitor does not use: `profile_level` in a train or finetune configuration that sets
    no `profiler_level`; a `profiler_level` out of ProfilerLevel's range (ProfileMonitor passes None: Level0)."""
    top = K.data()["profiler_level_members"] - 1
    level = keys.get("profiler_level")
    if level is not None and _int(level.value) and (level.value < 0 or level.value > top):
        yield ("NPP357",
               said(f"profiler_level {level.value} is out of range",
                    clause(f"{_scope(releases)}'s ProfileMonitor passes None instead",
                           logged(f' ("Invalid profiler_level: {level.value}, return None.")'),
                           so(f"MindSpore {K.data()['checked']['mindspore_levels']} profiles at Level0")),
                    "use 0, 1 or 2"),
               level.value_start, level.value_end, None)
    named = keys.get("profile_level")
    if named is None or cfg is None or "profiler_level" in cfg or named.value == 0 or named.value is None:
        return                          # 0 is Level0 as well
    wanted = f", not Level{named.value}" if _int(named.value) and 0 < named.value < top else ""
    fix = None
    if wanted and text[named.start:named.end] == "profile_level":
        fix = Fix((Edit(named.start, named.end, "profiler_level"),), False, "rename profile_level to profiler_level")
    yield ("NPP357",
           said("profile_level is not what ProfileMonitor reads",
                clause(f"{_scope(releases)}'s {cfg['run_mode']} runs read profiler_level, which is not set, "
                       f"so they profile at Level0{wanted}",
                       aside("profile_level is read only when generating text")),
                "rename it profiler_level"),
           named.start, named.end, fix)


def _level_raises(keys: Dict[str, Key], cfg: Optional[dict], text: str, releases: Tuple[str, ...]):
    """NPP358: a profiler_level ProfileMonitor raises on when Trainer is built with profile on: what
    `_get_profiler_level` does with it after `profile_communication` raised a level equal to 0 to 1: `level < 0`
    raises TypeError for a string, a list or a mapping; a level in range whose `ProfilerLevel.Level<n>` is no member
    (3, with MindSpore 2.7-2.10's four members; 1.0, True) raises AttributeError."""
    level = keys.get("profiler_level")
    if level is None or level.value is None:
        return
    value = level.value
    if not isinstance(value, (str, list, dict)) and value == 0:
        if cfg is None:
            return                      # whether profile_communication raises it to 1 is not known
        if _default(cfg, "profile_communication"):
            return                      # raised to the integer 1: Level1
    top = K.data()["profiler_level_members"] - 1
    shown = _written(level, text)
    on = "when Trainer is built with profile on"
    if isinstance(value, (str, list, dict)):
        what = f"profiler_level {shown} is not an integer"
        why = clause(f"{_scope(releases)}'s ProfileMonitor compares it with 0 and raises TypeError {on}",
                     so("the run stops before training"))
    elif not isinstance(value, (int, float)) or (value == value and (value < 0 or value > top)):
        return                          # out of range: None, so Level0 (NPP357 for an integer)
    elif _int(value) and value != top:
        return
    elif _int(value):
        what = f"profiler_level {value} is not a level"
        why = clause(f"{_scope(releases)}'s ProfileMonitor lets it through",
                     aside(f"MindSpore {K.data()['checked']['mindspore_levels']}'s ProfilerLevel has {top + 1} "
                           "members"),
                     f" and raises AttributeError for ProfilerLevel.Level{value} {on}",
                     so("the run stops before training"))
    else:                               # a float or a bool: no member is named Level1.0 or LevelTrue
        what = f"profiler_level {shown} is not an integer"
        why = clause(f"{_scope(releases)}'s ProfileMonitor looks up ProfilerLevel.Level{value} and raises "
                     f"AttributeError {on}", so("the run stops before training"))
    yield ("NPP358", said(what, why, "use 0, 1 or 2"), level.value_start, level.value_end, None)


def _level_converts(value) -> bool:
    """Whether `_get_profiler_level` returns for a level (None, an integer: a member or out of range, a float out of
    range) rather than raising TypeError or AttributeError."""
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    top = K.data()["profiler_level_members"] - 1
    return (_int(value) and value != top) or value < 0 or value > top


def _rank(x) -> bool:
    """Whether a list entry can equal a rank id (`rank_id in profile_rank_ids`: Python's ==, ranks from 0)."""
    return isinstance(x, (int, float)) and float(x).is_integer() and x >= 0


def _ranks(keys: Dict[str, Key], cfg: Optional[dict], text: str, releases: Tuple[str, ...]):
    """NPP359: profile_rank_ids that names other ranks than it seems to: 0 (every rank), a value that is not a
    list (no rank), a list none of whose entries equal a rank id (no rank), an entry that equals none."""
    import yaml
    key = keys.get("profile_rank_ids")
    if key is None or cfg is None:
        return
    value = key.value
    shown = _written(key, text)
    if _default(cfg, "profile_pipeline"):
        return                          # the pipeline stages' ranks are added: not worked out here
    if not value:
        if _int(value) and value == 0:
            yield ("NPP359",
                   said("profile_rank_ids 0 is not a list",
                        f"{_scope(releases)}'s ProfileMonitor takes 0 as no selection and profiles every rank, not "
                        "rank 0",
                        "write [0]"),
                   key.value_start, key.value_end,
                   Fix((Edit(key.value_start, key.value_end, "[0]"),), False, "write [0]"))
        return
    if not isinstance(value, list):
        fix = None
        if _int(value) and value > 0:
            fix = Fix((Edit(key.value_start, key.value_end, f"[{value}]"),), False, f"write [{value}]")
        yield ("NPP359",
               said(f"profile_rank_ids {shown} is not a list",
                    clause(f"{_scope(releases)}'s ProfileMonitor looks rank ids up only in a list",
                           so("no rank is profiled")),
                    f"write a list of rank ids: [{value}]" if _int(value) and value > 0 else
                    "write a list of rank ids: [0, 1]"),
               key.value_start, key.value_end, fix)
        return
    if not any(_rank(x) for x in value):
        yield ("NPP359",
               said(f"profile_rank_ids {shown} names no rank id",
                    clause(f"{_scope(releases)}'s ProfileMonitor compares each rank's integer id with its entries",
                           so("no rank is profiled")),
                    "write the ids as numbers: [0, 1]"),
               key.value_start, key.value_end, None)
        return
    entries = key.node.value if isinstance(key.node, yaml.SequenceNode) else []
    for x, node in zip(value, entries):
        if not _rank(x):
            written = " ".join(text[node.start_mark.index:node.end_mark.index].split())
            yield ("NPP359",
                   said(f"profile_rank_ids entry {written} equals no rank id",
                        f"{_scope(releases)}'s ProfileMonitor profiles only the ranks its entries equal",
                        "write the id as a number"),
                   node.start_mark.index, node.end_mark.index, None)


def _communication(keys: Dict[str, Key], cfg: Optional[dict], text: str, releases: Tuple[str, ...]):
    """NPP360: profile_communication on where no profiler_level is set: ProfileMonitor only raises a level of 0 to
    1 for it and passes it nowhere, so the run profiles at Level0 as without it."""
    key = keys.get("profile_communication")
    if LATER not in releases or key is None or cfg is None or not key.value or "profiler_level" in cfg:
        return
    yield ("NPP360",
           said(f"profile_communication changes nothing here on {_scope((LATER,))}",
                clause("its ProfileMonitor only raises a profiler_level of 0 to 1 for it and "
                       "passes it nowhere; profiler_level is not set",
                       # `profile: False` (most shipped configurations): no ProfileMonitor unless launched with it on
                       so("the run profiles at Level0" if _default(cfg, "profile") else
                          "a run with profile on (--profile True; it is off here) profiles at Level0")),
                "set profiler_level: 1 for the small communication operators too"),
           key.value_start, key.value_end, None)


def _communication_raises(keys: Dict[str, Key], cfg: Optional[dict], text: str, releases: Tuple[str, ...]):
    """NPP362: profile_communication on without init_start_profile: MindFormers 1.5.0's ProfileMonitor raises
    ValueError when Trainer builds it (1.6.0-1.7.0 have no such check)."""
    key = keys.get("profile_communication")
    if EARLIER not in releases or key is None or cfg is None or not key.value or _default(cfg, "init_start_profile"):
        return
    if not _level_converts(cfg.get("profiler_level")):
        return                          # 1.5.0 converts the level first: that raises before (NPP358)
    yield ("NPP362",
           said("profile_communication is on without init_start_profile",
                clause(f"{_scope((EARLIER,))}'s ProfileMonitor raises ValueError",
                       logged(' ("When profile_communication is True, start_profile must also be True")'),
                       " when Trainer is built with profile on", so("the run stops before training")),
                "set init_start_profile: True, or leave profile_communication out (1.6.0-1.7.0 do not raise here)"),
           key.value_start, key.value_end, None)


FALSE_WORDS = ("false", "no", "off", "0", "n", "none", "null")     # what a string that means "off" says


def _switch_as_string(keys: Dict[str, Key], cfg: Optional[dict], text: str, releases: Tuple[str, ...]):
    """NPP363: `profile: 'False'`, a quoted string that reads as off: Trainer tests `if self.config.profile:`, and a
    non-empty string is true, so it builds ProfileMonitor and profiling is on."""
    key = keys.get("profile")
    if key is None or not isinstance(key.value, str) or key.value.strip().lower() not in FALSE_WORDS or \
            not key.value:
        return
    shown = _written(key, text)
    yield ("NPP363",
           said(f"profile {shown} is a string, not false",
                clause(f"{_scope(releases)} tests it with `if config.profile:`, where a non-empty string is true",
                       so("profiling is on")),
                "write false, unquoted"),
           key.value_start, key.value_end,
           Fix((Edit(key.value_start, key.value_end, "False"),), False, "write False (a YAML boolean)"))


def _window(keys: Dict[str, Key], cfg: Optional[dict], text: str, releases: Tuple[str, ...]):
    """NPP361: a start/stop step window MindFormers resets: a negative step, or a start after the stop. Its checks
    reset the steps, but the schedule is built from the start step as written; the steps it records are worked out
    with MindSpore's schedule (a skip_first below 0 is 0, an active below 1 is 1). MindFormers 1.5.0 has no
    schedule: not said for it."""
    if cfg is None or LATER not in releases:
        return
    start, stop = _default(cfg, "profile_start_step"), _default(cfg, "profile_stop_step")
    if not (_int(start) and _int(stop)):
        return
    runner = cfg.get("runner_config") or {}
    if not isinstance(runner, dict):
        return
    runner = {**K.data()["runner_defaults"], **runner}
    if runner.get("sink_mode") and runner.get("sink_size") != 1:
        return                          # moved to multiples of sink_size, and a step-end is not one step: not said
    reset = K.data()["reset_steps"]
    checked_start = reset["start"] if start < 0 else start
    checked_stop = reset["stop"] if stop < 0 else stop
    if checked_start > checked_stop:
        checked_stop = reset["stop"]
    if start >= 0 and stop >= 0 and start <= stop:
        return
    skip, active = max(start, 0), max(checked_stop - start + 1, 1)
    records = f"training step {skip + 1} only" if active == 1 else f"training steps {skip + 1}-{skip + active}"
    kept = f" but builds its schedule from {start}"
    if start < 0:
        about = "profile_start_step"
        what, how = f"profile_start_step {start} is negative", f"resets it to {reset['start']}"
    elif stop < 0:
        about, kept = "profile_stop_step", ""
        what, how = f"profile_stop_step {stop} is negative", f"resets it to {reset['stop']}"
    else:
        about = "profile_start_step" if "profile_start_step" in keys else "profile_stop_step"
        what, how = (f"profile_start_step {start} is after profile_stop_step {stop}",
                     f"resets the steps to {reset['start']} and {reset['stop']}")
    key = keys.get(about)
    if key is None:
        return                          # set in a base file: said there
    yield ("NPP361",
           said(what, clause(f"{_scope((LATER,))} {how}", logged(" with a warning"), kept, so(f"it records {records}")),
                "give profile_start_step and profile_stop_step from 1 up, the start not after the stop"),
           key.value_start, key.value_end, None)


# ---------------------------------------------------------------- the rules' pages

from .rule import Rule  # noqa: E402

_CONFIG = """run_mode: 'finetune'
runner_config:
  epochs: 2
  batch_size: 1
profile: True
"""

_FACTS = ("mindformers.code", "mindformers.checked", "mindformers.defaults")

RULES = (
    Rule(
        code="NPP357",
        name="mindformers-profile-level-unused",
        summary="a MindFormers run configuration's profiling level its ProfileMonitor does not use: `profile_level` "
                "where it reads `profiler_level`, a `profiler_level` out of range (both profile at Level0)",
        default=True,
        level="warning",
        what="In a MindFormers YAML run configuration (`run_mindformer.py --config x.yaml`) of a train or finetune "
             "run: `profile_level: 2` where no `profiler_level` is set; a `profiler_level` below 0 or above 3.",
        why="MindFormers' training profiler, ProfileMonitor (built by Trainer when `profile` is on), is given the "
            "configuration's `profiler_level`, which no template sets: without it the run profiles at Level0. "
            "`profile_level` is a key of MindFormers' template too (default 1), but only its text-generation "
            "profiler reads it, so a train or finetune run ignores it without a word. A `profiler_level` out of "
            "range is passed on as None, with a warning in MindFormers' log, and MindSpore profiles at Level0. "
            "Read in MindFormers 1.5.0, 1.6.0, 1.7.0 and its dev branch (2025-07-24); MindSpore 2.7-2.10 takes None "
            "as Level0.",
        example=_CONFIG + "profile_level: 2\n",
        fixed=_CONFIG + "profiler_level: 2\n",
        fix_safety="unsafe",
        fix_note="`npuprof fix --unsafe-fixes` renames `profile_level` to `profiler_level` where its value is 1 or "
                 "2: unsafe, since the run then collects at that level, not Level0.",
        references=("MindFormers: mindformers/trainer/trainer.py Trainer._build_profile_cb, "
                    "mindformers/core/callback/callback.py ProfileMonitor",),
        group="mindspore",
        language="yaml",
        facts=_FACTS + ("mindformers.profiler_level_members",),
    ),
    Rule(
        code="NPP358",
        name="mindformers-profiler-level-raises",
        summary="a MindFormers run configuration's `profiler_level` ProfileMonitor raises on when Trainer is built "
                "with profile on: 3 (AttributeError), a string (TypeError), a float or a bool",
        default=True,
        level="error",
        what="In a MindFormers YAML run configuration: `profiler_level: 3`, `profiler_level: 'Level1'`, "
             "`profiler_level: 1.0` or `profiler_level: true`.",
        why="ProfileMonitor checks the level against the number of members of MindSpore's ProfilerLevel minus one "
            "(3 with MindSpore 2.7-2.10, whose ProfilerLevel has LevelNone, Level0, Level1 and Level2), then looks "
            "up `ProfilerLevel.Level<n>`: there is no Level3, Level1.0 or LevelTrue, so it raises AttributeError; a "
            "string cannot be compared with 0 and raises TypeError. Trainer builds ProfileMonitor when it is made "
            "(with `profile` on, in the YAML or `--profile True`), so the run stops before training. Read in "
            "MindFormers 1.5.0, 1.6.0, 1.7.0 and its dev branch (2025-07-24).",
        example=_CONFIG + "profiler_level: 3\n",
        fixed=_CONFIG + "profiler_level: 2\n",
        fix_safety="none",
        fix_note="No fix: which level was meant is the user's choice.",
        references=("MindFormers: mindformers/core/callback/callback.py ProfileMonitor._get_profiler_level",),
        group="mindspore",
        language="yaml",
        facts=_FACTS + ("mindformers.profiler_level_members",),
    ),
    Rule(
        code="NPP359",
        name="mindformers-rank-ids-not-a-list",
        summary="a MindFormers run configuration's `profile_rank_ids` that profiles other ranks than it names: not "
                "a list (no rank; 0: every rank), or entries no rank id equals",
        default=True,
        level="warning",
        what="In a MindFormers YAML run configuration without `profile_pipeline`: `profile_rank_ids: 1` or "
             "`'0,1'` (not a list), `profile_rank_ids: 0`, `profile_rank_ids: ['0', '1']` (strings), or an entry "
             "no rank id equals (`-1`, `'2'`).",
        why="ProfileMonitor profiles every rank when `profile_rank_ids` is empty (so 0, which Python takes as "
            "false, profiles every rank), and otherwise only the ranks whose integer id is in it, looked up only "
            "in a list: anything else profiles no rank, and a string entry equals no rank id. The job runs and "
            "collects nothing, or too much, without a word. Read in MindFormers 1.5.0, 1.6.0, 1.7.0 and its dev "
            "branch (2025-07-24).",
        example=_CONFIG + "profile_rank_ids: 1\n",
        fixed=_CONFIG + "profile_rank_ids: [1]\n",
        fix_safety="unsafe",
        fix_note="`npuprof fix --unsafe-fixes` writes an integer as a list of it (`1` as `[1]`, `0` as `[0]`): "
                 "unsafe, since that rank is then profiled (and, for 0, only it).",
        references=("MindFormers: mindformers/core/callback/callback.py ProfileMonitor._is_profile_required",),
        group="mindspore",
        language="yaml",
        facts=_FACTS,
    ),
    Rule(
        code="NPP360",
        name="mindformers-communication-without-level",
        summary="`profile_communication: True` in a MindFormers run configuration that sets no `profiler_level`: "
                "it changes nothing, the run profiles at Level0",
        default=True,
        level="warning",
        what="In a MindFormers YAML run configuration: `profile_communication: True` where no `profiler_level` is "
             "set.",
        why="ProfileMonitor does one thing with `profile_communication`: it raises a `profiler_level` of 0 to 1. It "
            "passes it to no profiler. Without a `profiler_level` the level is None, not 0, so nothing is raised "
            "and MindSpore profiles at Level0, which (ProfileMonitor's own documentation of the levels says) has "
            "basic data of the large communication operators only, Level1 adding the small ones: the run collects "
            "what it would without the key. Read in MindFormers 1.6.0, 1.7.0 and its dev branch "
            "(2025-07-24); 1.5.0 passes it to MindSpore's Profiler, and raises without `init_start_profile` "
            "(NPP362).",
        example=_CONFIG + "profile_communication: True\n",
        fixed=_CONFIG + "profile_communication: True\nprofiler_level: 1\ninit_start_profile: True\n",
        fix_safety="none",
        fix_note="No fix: a level is the user's choice (Level1 adds the small communication operators, and more).",
        references=("MindFormers: mindformers/core/callback/callback.py ProfileMonitor.__init__",),
        group="mindspore",
        language="yaml",
        facts=_FACTS,
    ),
    Rule(
        code="NPP361",
        name="mindformers-step-window-reset",
        summary="a MindFormers run configuration's profiling step window ProfileMonitor resets (a negative step, a "
                "start after the stop): it records other steps than written",
        default=True,
        level="warning",
        what="In a MindFormers YAML run configuration: `profile_start_step` or `profile_stop_step` below 0, or "
             "`profile_start_step` after `profile_stop_step` (`10` and `3`).",
        why="ProfileMonitor resets such steps (a negative start to 1, a negative stop to 10, both to 1 and 10 when "
            "the start is after the stop), with a warning, but builds its schedule from the start step as written: "
            "skip_first is the start, active the (reset) stop minus the start plus one, and MindSpore 2.7-2.10 "
            "takes an active below 1 as 1 and a skip_first below 0 as 0. So `10` and `3` records training step 11 "
            "only. Read in MindFormers 1.6.0, 1.7.0 and its dev branch (2025-07-24); not said in sink mode with a "
            "sink_size other than 1 (the steps move to its multiples), nor for 1.5.0, which has no schedule.",
        example=_CONFIG + "profile_start_step: 10\nprofile_stop_step: 3\n",
        fixed=_CONFIG + "profile_start_step: 3\nprofile_stop_step: 10\n",
        fix_safety="none",
        fix_note="No fix: which steps were meant is the user's choice.",
        references=("MindFormers: mindformers/core/callback/callback.py ProfileMonitor._check_step, _get_schedule",),
        group="mindspore",
        language="yaml",
        facts=_FACTS + ("mindformers.reset_steps", "mindformers.schedule", "mindformers.runner_defaults"),
    ),
    Rule(
        code="NPP363",
        name="mindformers-profile-as-string",
        summary="`profile: 'False'` in a MindFormers run configuration: a quoted string, which MindFormers takes as "
                "true, so profiling is on",
        default=True,
        level="warning",
        what="In a MindFormers YAML run configuration: a `profile` whose value is a quoted string that reads as off "
             "(`'False'`, `\"false\"`, `'no'`, `'0'`).",
        why="YAML reads `'False'` in quotes as the string False, not the boolean. MindFormers tests the switch "
            "with `if self.config.profile:` (Trainer._build_profile_cb, which builds ProfileMonitor, and the "
            "callbacks that add it), where a non-empty string is true: the run is profiled, with the time and disk "
            "that costs, though the file says it is off. Read in MindFormers 1.5.0, 1.6.0, 1.7.0 and its dev branch "
            "(2025-07-24); `--profile` on the command line replaces the value.",
        example=_CONFIG.replace("profile: True", "profile: 'False'"),
        fixed=_CONFIG.replace("profile: True", "profile: False"),
        fix_safety="unsafe",
        fix_note="`npuprof fix --unsafe-fixes` writes `False`: unsafe, since the run then profiles nothing where "
                 "it profiled before.",
        references=("MindFormers: mindformers/trainer/trainer.py Trainer._build_profile_cb",),
        group="mindspore",
        language="yaml",
        facts=_FACTS,
    ),
    Rule(
        code="NPP362",
        name="mindformers-communication-raises",
        summary="`profile_communication: True` without `init_start_profile` in a MindFormers run configuration: "
                "MindFormers 1.5.0 raises ValueError when Trainer is built with profile on",
        default=True,
        level="error",
        what="In a MindFormers YAML run configuration: `profile_communication: True` where `init_start_profile` is "
             "not set (its default is False) or false, said where the run may use MindFormers 1.5.0 (the "
             "project holds no `mindformers` package, or holds 1.5.0's).",
        why="MindFormers 1.5.0's ProfileMonitor raises ValueError(\"When profile_communication is True, "
            "start_profile must also be True\") when `profile_communication` is on and `init_start_profile` is "
            "not; Trainer builds it when it is made with `profile` on (in the YAML or `--profile True`), so the run "
            "stops before training, on every rank. MindFormers 1.6.0 and 1.7.0 have no such check (NPP360 says what "
            "they do with the key). Not said where 1.5.0 would raise first on the `profiler_level` (NPP358).",
        example=_CONFIG + "profile_communication: True\nprofiler_level: 1\n",
        fixed=_CONFIG + "profiler_level: 1\n",
        fix_safety="none",
        fix_note="No fix: starting the profiler at initialisation changes what 1.5.0 records, and leaving "
                 "communication out is the user's choice.",
        references=("MindFormers 1.5.0: mindformers/core/callback/callback.py ProfileMonitor.__init__",),
        group="mindspore",
        language="yaml",
        facts=_FACTS,
    ),
)
