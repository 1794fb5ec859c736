"""A launch of MindFormers' `run_mindformer.py --config x.yaml ...`: what its ProfileMonitor collects, read from the
YAML run configuration the launch names (source/run_config.py) with the command-line overrides run_mindformer.py
applies, as the MindFormers code read at data/mindformers.json "read_at" (a dev commit, v1.6.0, v1.7.0) does it
(sources: data/sources.json, mindformers.*):

- run_mindformer.py: argparse's `parse_known_args` (its options as the script defines them), `--config` relative to
  the script's folder, `--run_mode` before the template, then `--profile`, `--options k=v` (ActionDict), the run mode
  check, `--sink_mode`, `--output_dir`, and every other `--a.b value` pair (parse_value);
- the template's defaults (GeneralConfig, RunnerConfig) for keys the YAML leaves out;
- Trainer._build_profile_cb (sink_size rounding) and ProfileMonitor (its step checks, ranks, level, output folder and
  the MindSpore schedule it builds), a callback of train and finetune runs only.

The project's own copies of those functions are compared with the ones read (by digest); where one differs, or the
mindformers package is not in the project, the answer is unknown and names it. How many steps the run trains is
not worked out, so a run that profiles is `unknown` with what it would record; `no profiling` where `profile` is
off and nothing else profiles; `fails` where the code read raises before training.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
from typing import Dict, List, Optional, Tuple

from ..knowledge import mindformers as K
from ..source import fence
from ..source.text import HOLE
from . import schedule_run as S
from .mindspore_run import UNREAD

FACTS = ("mindformers.repository", "mindformers.read_at", "mindformers.code", "mindformers.defaults",
         "mindformers.runner_defaults", "mindformers.run_modes", "mindformers.profiled_run_modes",
         "mindformers.overrides", "mindformers.output", "mindformers.schedule", "mindformers.reset_steps",
         "mindformers.profiler_level_members")     # data/sources.json


class Answer(Exception):
    """The launch's answer, decided before the end: (verdict, why)."""

    def __init__(self, verdict: str, why: str):
        super().__init__(why)
        self.verdict, self.why = verdict, why


def follow(w, launch, ls, target, environ):
    """imported.Followed for a launch of run_mindformer.py, None for any other script."""
    from .imported import Followed
    if not is_run_mindformer(ls.ctx.tree) or launch.msprof is not None:
        return None             # (under msprof the collector's own answer decides: msprof_launch.py)
    decided: List[str] = []
    try:
        verdict, why = _answer(launch, ls, decided)
    except Answer as a:
        verdict, why = a.verdict, a.why
    env = launch.command.env.get("MS_PROFILER_OPTIONS")
    if verdict == "no profiling" and (env is not None or (environ is not None and "MS_PROFILER_OPTIONS" in environ)):
        # mindformers imports mindspore, whose EnvProfiler starts from this variable (sequence._ms_env_start)
        verdict, why = "unknown", (f"{why}; but MS_PROFILER_OPTIONS is set, and MindSpore's EnvProfiler, which "
                                   "importing mindspore may start from it, is not followed for MindFormers here")
    profiles = {"no profiling": False, "unknown": None}.get(verdict, True)
    return Followed(verdict, why, profiles, None, tuple(decided))


def is_run_mindformer(tree: ast.AST) -> bool:
    """A script that builds MindFormerConfig and Trainer from the mindformers package (run_mindformer.py and its
    copies)."""
    names: set = set()
    for node in getattr(tree, "body", ()):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "mindformers":
            names.update(a.name for a in node.names)
    return {"MindFormerConfig", "Trainer"} <= names


# ---------------------------------------------------------------- the code the answers stand on

def _check_code(launch, ls) -> None:
    """Answer unknown where the script or the mindformers package it imports is not the code read."""
    from ..values.project import load, on_path
    from .sys_path import launch_path
    read_at = ", ".join(K.data()["read_at"])
    script = os.path.basename(launch.script)
    paths = launch_path(launch)
    root = os.path.dirname(os.path.realpath(launch.script))
    for entry in K.data()["code"]:
        if entry["file"] == "run_mindformer.py":
            text, tree, shown = ls.ctx.src.text, ls.ctx.tree, script
        else:
            parts = entry["file"][:-3].split("/")
            path = on_path(paths + (root,), parts)
            module = load(path) if path is not None else None
            if module is None:
                raise Answer("unknown", f"{script} imports the mindformers package, which is not in the project "
                             f"({entry['file']} not found on the launch's sys.path): an installed one is not read")
            assert path is not None         # (module is None otherwise)
            text, tree, shown = module.src.text, module.tree, os.path.relpath(path, root).replace(os.sep, "/")
        same = K.same(text, tree, entry["name"], entry["digests"])
        if not same and entry["file"] == "run_mindformer.py":
            raise Answer("unknown", f"{shown} is not MindFormers' run_mindformer.py as read ({read_at}): what it "
                         "does with a YAML configuration and its command line is not known here")
        if not same:
            how = f"has no {entry['name']}" if same is None else f"{entry['name']} is none of the copies read"
            raise Answer("unknown", f"{shown}: {how} (MindFormers {read_at}): what the launch does with the "
                         "profiling keys of its YAML configuration is not known here")


# ---------------------------------------------------------------- run_mindformer.py's command line

class _Rejected(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _Rejected(message)

    def exit(self, status=0, message=None):
        raise _Rejected(message or f"exit {status}")


def _str2bool(b: str):
    """mindformers/tools/utils.py str2bool: "false"/"true" in any case, else a bare Exception (which argparse does
    not catch: the script stops with a traceback)."""
    if b.lower() == "false":
        return False
    if b.lower() == "true":
        return True
    raise Answer("fails", f"run_mindformer.py's str2bool raises \"Invalid Bool Value\" for {b!r}")


def _str2bool_or_str(b: str):
    return {"false": False, "true": True}.get(b.lower(), b)


def _scalar(val: str):
    """ActionDict._parse_int_float_bool: int, else float; "true"/"false" in any case become False (it compares the
    method `val.upper`, not its result, with 'TRUE'), anything else stays a string."""
    for kind in (int, float):
        try:
            return kind(val)
        except ValueError:
            pass
    return False if val.upper() in ("TRUE", "FALSE") else val


def _action_value(val: str):
    """ActionDict._parse_value_iter: quotes and blanks dropped, (..) a tuple, [..] or a comma a list."""
    val = val.strip("'\"").replace(" ", "")
    is_tuple = val.startswith("(") and val.endswith(")")
    if is_tuple or (val.startswith("[") and val.endswith("]")):
        val = val[1:-1]
    elif "," not in val:
        return _scalar(val)
    if val.count("(") != val.count(")") or val.count("[") != val.count("]"):
        raise Answer("fails", "run_mindformer.py's --options raises ValueError: ( and ) or [ and ] must appear in "
                     "pairs")
    out = []
    while val:
        end = len(val)
        for i, c in enumerate(val):
            pre = val[:i]
            if c == "," and pre.count("(") == pre.count(")") and pre.count("[") == pre.count("]"):
                end = i
                break
        out.append(_action_value(val[:end]))
        val = val[end + 1:]
    return tuple(out) if is_tuple else out


class _ActionDict(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        options = {}
        for kv in values:
            if "=" not in kv:
                raise Answer("fails", f"run_mindformer.py's --options raises ValueError for {kv!r} (no '=')")
            key, value = kv.split("=", 1)
            options[key] = _action_value(value)
        setattr(namespace, self.dest, options)
        setattr(namespace, "options_text", dict(kv.split("=", 1) for kv in values))


def _parse_value(value: str):
    """mindformers/tools/utils.py parse_value, for `--key value` pairs argparse leaves over."""
    try:
        a: Optional[float] = float(value)
    except ValueError:
        a = None
    whole = False
    if a is not None:
        try:
            whole = a == int(a)             # isint: nan is not (ValueError), inf raises OverflowError
        except ValueError:
            pass
        except OverflowError:
            raise Answer("fails", f"run_mindformer.py's parse_value raises OverflowError for {value!r}") from None
    if whole:
        try:
            return int(value)
        except ValueError:
            raise Answer("fails", f"run_mindformer.py's parse_value raises ValueError for {value!r} "
                         "(int() of a float's text)") from None
    if a is not None:
        return float(value)
    if value in ("True", "False"):
        return value == "True"
    try:
        return json.loads(value)
    except ValueError:
        return value


_TYPES = {"int": int, "str": str, "float": float, "str2bool": _str2bool, "str2bool_or_str": _str2bool_or_str}


def _parser(tree: ast.AST) -> argparse.ArgumentParser:
    """The script's argparse options, as its `parser.add_argument(...)` calls in the main block define them."""
    main = K.node(tree, "__main__")
    parser = _Parser(prog="run_mindformer.py")
    for call in (n for n in ast.walk(main) if isinstance(n, ast.Call)):
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument"):
            continue
        flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        kw: Dict[str, object] = {}
        for k in call.keywords:
            if k.arg == "type" and isinstance(k.value, ast.Name) and k.value.id in _TYPES:
                kw["type"] = _TYPES[k.value.id]
            elif k.arg == "action" and isinstance(k.value, ast.Name) and k.value.id == "ActionDict":
                kw["action"] = _ActionDict
            elif k.arg in ("nargs", "default", "required") and isinstance(k.value, ast.Constant):
                kw[k.arg] = k.value.value
        parser.add_argument(*flags, **kw)          # type: ignore[arg-type]
    return parser


# ---------------------------------------------------------------- the configuration

def _answer(launch, ls, decided: List[str]) -> Tuple[str, str]:
    from ..source.run_config import Outside, Unread, load
    script = os.path.basename(launch.script)
    _check_code(launch, ls)
    words = [w.text for w in launch.args]
    if any(HOLE in x or not w.known for x, w in zip(words, launch.args)):
        raise Answer("unknown", f"the arguments of {script} are not all known statically, so the YAML configuration "
                     "and its overrides are not known here")
    try:
        args, rest = _parser(ls.ctx.tree).parse_known_args(words)
    except _Rejected as e:
        raise Answer("fails", f"{script}'s argument parser rejects its arguments: {e}") from None
    rest = [part for item in rest for part in item.split("=")]
    if len(rest) % 2:
        raise Answer("fails", f"{script} raises ValueError: input arg key-values are not in pair ({' '.join(rest)})")
    folder = os.path.dirname(launch.script)
    path = args.config if os.path.isabs(args.config) else os.path.join(folder, args.config)
    shown = os.path.relpath(path, folder).replace(os.sep, "/")
    if not os.path.isfile(path):
        raise Answer("unknown", f"{shown}, the --config {script} reads (from its own folder), is not there now")
    if fence.outside(path):
        # (--no-outside: a launcher from an untrusted pull request names what is read; its sourced files alike)
        raise Answer("unknown", f"{shown}, the --config {script} reads, is {fence.WHY}")
    try:
        config = load(path)
    except Outside as e:            # (a base_config it names, or one of those names)
        raise Answer("unknown", f"{shown} builds on {e.path}: {fence.WHY}") from None
    except Unread as e:
        raise Answer("unknown", f"the configuration is not read: {str(e).replace(folder + os.sep, '')}") from None
    where: Dict[str, str] = {k: f"{os.path.relpath(f, folder).replace(os.sep, '/')}:{n}"
                             for k, (f, n) in config.where.items()}
    values = _configured(config.values, args, rest, where, script)
    for key, text in getattr(args, "options_text", {}).items():
        if text.strip("'\"").replace(" ", "").upper() in ("TRUE", "FALSE"):
            decided.append(f"--options {key}={text} sets {key} to False: MindFormers' ActionDict reads True and "
                           "False alike as False (it compares the method val.upper, not its result, with 'TRUE')")
    return _profiled(values, where, launch, decided, shown)


def _configured(values: dict, args, rest: List[str], where: Dict[str, str], script: str) -> dict:
    """The configuration run_mindformer.py hands Trainer: the template's defaults, then its overrides in order."""
    data = K.data()
    cfg = dict(values)
    _override(cfg, where, args, "run_mode")         # MindFormerConfig(config, run_mode=...): before the template
    for key, value in data["defaults"].items():
        if key not in cfg:
            cfg[key] = value
            where.setdefault(key, "the template's default")
    runner = cfg.get("runner_config")
    if runner is None or runner == {}:
        runner = {}
    if not isinstance(runner, dict):
        raise Answer("unknown", "runner_config is not a mapping: what MindFormers makes of it is not worked out here")
    if "is_legacy" in runner:       # v1.6.0 then leaves the defaults out, the others raise KeyError: not followed
        raise Answer("unknown", "runner_config sets is_legacy, which the MindFormers releases read treat differently")
    cfg["runner_config"] = {**data["runner_defaults"], **runner}
    _override(cfg, where, args, "profile")
    for key, value in (args.options or {}).items():
        _set(cfg, key.split("."), value, script, merge=True)
        where[key.split(".")[0]] = "--options"
    if cfg.get("run_mode") not in data["run_modes"]:
        raise Answer("fails", f"{script} raises TypeError: run status must be in {data['run_modes']}, but "
                     f"{cfg.get('run_mode')} (run_mode, {where.get('run_mode', 'not set')})")
    _override(cfg, where, args, "sink_mode")
    _override(cfg, where, args, "output_dir")
    while rest:
        key, value = rest.pop(0), rest.pop(0)
        if not key.startswith("--"):
            raise Answer("fails", f"{script} raises ValueError: Custom config key need to start with -- ({key})")
        _set(cfg, key[2:].split("."), _parse_value(value), script, merge=False)
        where[key[2:].split(".")[0]] = key
    return cfg


def _override(cfg: dict, where: Dict[str, str], args, option: str) -> None:
    """run_mindformer.py's `if args_.X is not None: config_.<key> = args_.X` (data/mindformers.json overrides)."""
    value = getattr(args, option, None)
    if value is None:
        return
    keys = K.data()["overrides"][option].split(".")
    node = cfg
    for k in keys[:-1]:
        node = node[k]          # (runner_config: always there, with the template's defaults)
    node[keys[-1]] = value
    where[keys[0]] = f"--{option}"


def _set(cfg: dict, keys: List[str], value, script: str, merge: bool) -> None:
    node = cfg
    for k in keys[:-1]:
        if not isinstance(node.get(k), dict):
            if not merge:       # the template adds sections the YAML leaves out: whether it has this one is not read
                raise Answer("unknown", f"--{'.'.join(keys)}: {k} is not a section of the YAML, and whether "
                             f"MindFormers' template adds it (else {script} raises ValueError) is not worked out here")
            node[k] = {}
        node[k] = dict(node[k])
        node = node[k]
    node[keys[-1]] = value


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value) -> str:
    return repr(value)          # as YAML's True/False/None read in Python


def _profiled(cfg: dict, where: Dict[str, str], launch, decided: List[str], shown: str) -> Tuple[str, str]:
    data = K.data()
    at = lambda key: where.get(key, shown)         # noqa: E731
    profile = cfg.get("profile")
    callbacks = cfg.get("callbacks") or []
    named = [c for c in callbacks if isinstance(c, dict) and c.get("type") == "ProfileMonitor"] \
        if isinstance(callbacks, list) else []
    if named:
        return "unknown", (f"callbacks in {shown} name a ProfileMonitor of their own, which is not emulated here")
    if cfg["run_mode"] not in data["profiled_run_modes"]:
        return "unknown", (f"run_mode {cfg['run_mode']} ({at('run_mode')}): ProfileMonitor is a training callback; "
                           "what MindFormers profiles in eval and predict runs is not followed here")
    if not profile:
        return "no profiling", (f"profile is {_shown(profile)} ({at('profile')}): MindFormers builds no "
                                "ProfileMonitor, the profiler of its training runs")
    if isinstance(profile, str):
        decided.append(f"profile is the string {profile!r} ({at('profile')}), which Python takes as true")
    # Trainer._build_profile_cb: in sink mode the steps are moved to multiples of sink_size
    start, stop = cfg["profile_start_step"], cfg["profile_stop_step"]
    runner = cfg["runner_config"]
    if not (_int(start) and _int(stop)):
        return "unknown", (f"profile_start_step {_shown(start)} ({at('profile_start_step')}) or profile_stop_step "
                           f"{_shown(stop)} ({at('profile_stop_step')}) is not an integer: what MindFormers does "
                           "with it is not worked out here")
    sink_size = runner.get("sink_size")
    if runner.get("sink_mode"):
        if not _int(sink_size) or sink_size < 1:
            return "unknown", f"runner_config.sink_size {_shown(sink_size)} is not a positive integer"
        if start % sink_size:
            new = max(start - start % sink_size, sink_size)
            decided.append(f"profile_start_step {start} is not a multiple of sink_size {sink_size}: MindFormers "
                           f"moves it to {new} (with a warning)")
            start = new
        if stop % sink_size:
            new = max(stop + stop % sink_size, start + sink_size)
            decided.append(f"profile_stop_step {stop} is not a multiple of sink_size {sink_size}: MindFormers "
                           f"moves it to {new} (with a warning)")
            stop = new
    # ProfileMonitor.__init__
    start_profile = cfg.get("init_start_profile")
    if start != 1 and start_profile:
        decided.append(f"init_start_profile is ignored ({at('init_start_profile')}): profile_start_step is {start}, "
                       "not 1 (MindFormers resets it to False, with a warning)")
        start_profile = False
    # _check_step resets the steps it keeps, but _get_schedule is given the start step as configured
    reset = data["reset_steps"]
    checked_start, checked_stop = start, stop
    if start < 0:
        checked_start = reset["start"]
        decided.append(f"profile_start_step {start} is negative: MindFormers resets it to {checked_start} (with a "
                       f"warning), but builds its schedule from {start} still")
    if stop < 0:
        checked_stop = reset["stop"]
        decided.append(f"profile_stop_step {stop} is negative: MindFormers resets it to {checked_stop} (with a "
                       "warning)")
    if checked_start > checked_stop:
        decided.append(f"profile_start_step {checked_start} is after profile_stop_step {checked_stop}: MindFormers "
                       f"resets the steps to {reset['start']} and {reset['stop']} (with a warning), but builds its "
                       f"schedule from profile_start_step {start} still")
        checked_stop = reset["stop"]
    level = cfg.get("profiler_level")
    if cfg.get("profile_communication") and level == 0:
        decided.append("profile_communication raises profiler_level 0 to 1; it is not passed to MindSpore's profiler")
        level = 1
    elif cfg.get("profile_communication"):
        decided.append(f"profile_communication ({at('profile_communication')}) is not passed to MindSpore's "
                       "profiler: it only raises a profiler_level of 0 to 1")
    if "profile_level" in where and where["profile_level"] != "the template's default" and "profiler_level" not in cfg:
        decided.append(f"profile_level ({at('profile_level')}) is not what ProfileMonitor reads (profiler_level)")
    if level is None:
        level_text = "Level0 (profiler_level not set)"
    elif isinstance(level, bool) or not isinstance(level, int):
        if isinstance(level, str):
            return "fails", (f"profiler_level {level!r} ({at('profiler_level')}) is a string: ProfileMonitor "
                             "compares it with 0 and raises TypeError when Trainer is built")
        return "unknown", f"profiler_level {_shown(level)} ({at('profiler_level')}) is not an integer"
    elif level < 0 or level > data["profiler_level_members"] - 1:
        level_text = (f"Level0 (profiler_level {level} is out of range: ProfileMonitor passes None, with a "
                      "warning, and MindSpore takes Level0)")
    elif level == data["profiler_level_members"] - 1:
        return "fails", (f"profiler_level {level} ({at('profiler_level')}): ProfileMonitor accepts it (MindSpore's "
                         f"ProfilerLevel has {level + 1} members) but ProfilerLevel has no Level{level}, so it raises "
                         "AttributeError when Trainer is built")
    else:
        level_text = f"Level{level}"
    # which ranks
    ranks = cfg.get("profile_rank_ids")
    if cfg.get("profile_pipeline"):
        # `rank_id in profile_ids or rank_id in pipeline_ids`: the ranks listed are profiled too
        listed = sorted({int(r) for r in ranks if isinstance(r, (int, float)) and not isinstance(r, bool) and
                         float(r).is_integer() and r >= 0}) if isinstance(ranks, list) else []
        rank_text = f"rank{'s' if len(listed) > 1 else ''} {', '.join(map(str, listed))} and the pipeline ranks" \
            if listed else None
        decided.append(f"ranks: profile_pipeline ({at('profile_pipeline')}) adds one rank per pipeline stage, from "
                       "the parallel layout, which is not worked out here")
    elif not ranks:
        rank_text = "every rank"
    elif isinstance(ranks, list):
        # `rank_id in profile_ids`: Python's ==, so True is rank 1 and 2.0 rank 2; a string is no rank
        ints = sorted({int(r) for r in ranks if isinstance(r, (int, float)) and float(r).is_integer() and r >= 0})
        if not ints:
            return "collects nothing", (f"profile_rank_ids {_shown(ranks)} ({at('profile_rank_ids')}) equals no "
                                        "rank id: ProfileMonitor looks each rank's integer id up in it and profiles "
                                        "no rank")
        never = [r for r in ranks if not (isinstance(r, (int, float)) and float(r).is_integer() and r >= 0)]
        if never:
            decided.append(f"profile_rank_ids: {', '.join(_shown(r) for r in never)} equal no rank id")
        rank_text = "rank" + ("s " if len(ints) > 1 else " ") + ", ".join(map(str, ints))
    else:
        return "collects nothing", (f"profile_rank_ids {_shown(ranks)} ({at('profile_rank_ids')}) is not a list: "
                                    "ProfileMonitor profiles no rank (it looks ranks up in a list only)")
    # the schedule (_get_schedule, from the start step before _check_step) and what MindSpore makes of it
    if start_profile:       # only with a start step of 1, whose schedule is this one too
        skip, active = 1, checked_stop
        decided.append(f"init_start_profile ({at('init_start_profile')}) changes nothing: its schedule skips the "
                       "first step as profile_start_step 1 does (skip_first=1)")
    else:
        skip, active = start, checked_stop - start + 1
    sched = dict(data["schedule"], skip_first=skip if skip >= 0 else 0, active=active if active >= 1 else 1)
    if skip < 0 or active < 1:
        decided.append(f"MindSpore resets the schedule's {'skip_first' if skip < 0 else 'active'} "
                       f"({skip if skip < 0 else active}) to {0 if skip < 0 else 1}, with a warning")
    first = S.first_record(sched)
    last = first + sched["active"] - 1
    # in sink mode with sink_size > 1 a step-end callback is not one training step
    unit = "training step" if not (runner.get("sink_mode") and sink_size != 1) else "step-end callback"
    steps_text = f"{unit}s {first + 1}-{last + 1}" if last > first else f"{unit} {first + 1}"
    decided.append(f"schedule: skip_first={sched['skip_first']}, active={sched['active']}, repeat=1: records "
                   f"{steps_text} (counted from 1; {S.spans(tuple(range(first, last + 1)))} from 0), one trace")
    if runner.get("sink_mode") and sink_size != 1:
        decided.append(f"sink_mode with sink_size {sink_size}: ProfileMonitor steps the profiler once per step-end "
                       "callback; which training steps a callback covers in sink mode is not worked out here")
    # the folder (get_output_subpath, or profile_output)
    out = cfg.get("profile_output")
    below = f"{data['output']['sub']}/{data['output']['rank'].format(rank='<N>')}"
    if out:
        folder = f"{out.rstrip('/')}/{below}" if isinstance(out, str) else None
        how = "profile_output"
    else:
        root = cfg.get("output_dir")
        # a null or a value of another type: what set_output_path's type check makes of it is not worked out
        folder = f"{os.path.expanduser(root).rstrip('/')}/{below}" if isinstance(root, str) and root else None
        how = f"output_dir, {at('output_dir')}"
    cwd = launch.command.cwd[0] if len(launch.command.cwd) == 1 else None
    if folder is not None and not os.path.isabs(folder) and cwd is not None:
        folder = os.path.normpath(os.path.join(cwd, folder))
    elif folder is not None and not os.path.isabs(folder):
        folder = f"{folder} (from the directory the launch runs in)"
    memory = cfg.get("profile_memory")
    stack = cfg.get("with_stack")
    memory_text = str(memory) if isinstance(memory, bool) else f"False ({_shown(memory)} is not a bool: MindSpore " \
        "resets it to False, with a warning)"
    decided.append(f"ProfileMonitor on {rank_text or 'the pipeline ranks'}: {level_text}, profile_memory="
                   f"{memory_text}, with_stack="
                   f"{stack if isinstance(stack, bool) else 'False'}, "
                   f"into {folder or 'a folder not known here'} ({how}), "
                   "a <hostname>_<pid>_<timestamp>_ascend_ms folder per run")
    where_text = f" into {folder}" if folder else ""
    why = (f"MindFormers' ProfileMonitor (profile, {at('profile')}) records {steps_text} on "
           f"{rank_text or 'the pipeline ranks'}{where_text}, if the run trains that long: how many steps it trains "
           f"is not worked out here (ProfileMonitor never stops the profiler itself: if the run ends first, {UNREAD})")
    return "unknown", why
