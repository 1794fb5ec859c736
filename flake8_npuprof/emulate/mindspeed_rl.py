"""A launch of a MindSpeed-RL trainer (Ascend/MindSpeed-RL: `python cli/train_grpo.py --config-name NAME [KEY=VALUE
...]`, also train_dapo.py and train_ppo.py; examples/*/*.sh): its profiling is the `profiler_config.integrated`
mapping of the hydra configuration, read by ProfilerConfig and then by profiler_start / get_grpo_profiler in the
workers. What that code does (05a90d77cb6c, run with python 3.11.7 against stand-in torch and torch_npu:
tests/data/mindspeed_rl_runs.py; hydra 1.3.8 run on the same configurations: data/sources.json mindspeed_rl.*):

- hydra.main(config_path='../configs', config_name=DEFAULT) reads configs/NAME.yaml (NAME from `--config-name`, with
  or without .yaml), its defaults list's `model` entries under `model`. A word `a.b=v` sets a key the configuration
  has (else hydra stops: "Could not override 'a.b'."), `+a.b=v` adds one it has not (else hydra stops), `++a.b=v`
  sets or adds; `true`/`True` is a bool, `1` an int, `yes` a string.
- train() builds ProfilerConfig from the mapping (a key it has not: ValueError; `model`: TypeError) and passes it to
  the integrated worker only (rl_config.use_integrated_worker, default true; train_ppo.py also to the critic
  worker). Where `profile` is true, each worker calls profiler_start in initialize() with role `integrated` (stage
  all: the whole-step profiler, stepped at the end of each actor update) and, for a stage role, once an iteration
  within [profile_step_start, profile_step_end); get_grpo_profiler builds torch_npu's profiler on the ranks
  profile_ranks names, raising on a level or export type it refuses, with schedule(skip_first=start-1,
  active=end-start) for stage all (active 1, skip_first 0 for a stage) and its traces in
  os.path.join(profile_save_path, role).

Only code whose parts have the digests read (data/mindspeed_rl.json: the trainer's main, train and
parse_training_config; ProfilerConfig, BaseConfig.update, profiler_start, get_grpo_profiler; the worker's initialize
and update; RayGRPOTrainer.fit; RLConfig) is answered for. train_dapo.py's and train_ppo.py's loops are not followed:
where profiling is on and nothing fails first, their answer is unknown.
"""

from __future__ import annotations

import ast
import json
import os
import re
from typing import Any, Dict, List, Optional, Tuple

FACTS = ("mindspeed_rl.config", "mindspeed_rl.profiler", "mindspeed_rl.workers", "mindspeed_rl.hydra")
SCRIPTS = ("cli/train_grpo.py", "cli/train_dapo.py", "cli/train_ppo.py")
WORD = r"[A-Za-z_./][A-Za-z0-9_./-]*"


class NotKnown(Exception):
    """What the run does is not known here: why."""


def _same(path: str, parts) -> bool:
    from ..knowledge.mindformers import same
    from ..values.project import load
    module = load(path)
    if module is None:
        return False
    try:
        tree = ast.parse(module.src.text)
    except (SyntaxError, ValueError):
        return False
    return all(same(module.src.text, tree, name, tuple(digests)) for name, digests in parts)


def recognise(ls) -> Optional[Tuple[str, str, str]]:
    """(the project's root, the configurations' folder, the default configuration's name) where the launched script is
    one of MindSpeed-RL's trainers and the parts it reaches are the ones read."""
    from ..checks.mindspeed_rl import data
    path = ls.launch.script.replace(os.sep, "/")
    rel = next((s for s in SCRIPTS if path.endswith("/" + s)), None)
    if rel is None:
        return None
    root = ls.launch.script[:-len(rel) - 1]
    if not _same(ls.launch.script, [(name, [d]) for name, d in data()["trainers"][rel]]):
        return None
    code = [e for e in data()["code"] + data()["run_code"]
            if rel == "cli/train_grpo.py" or not e["file"].endswith("grpo_trainer_hybrid.py")]
    if not all(_same(os.path.join(root, *e["file"].split("/")), [(e["name"], e["digests"])]) for e in code):
        return None
    main = next((s for s in ls.ctx.tree.body if isinstance(s, ast.FunctionDef) and s.name == "main"), None)
    calls = [d for d in getattr(main, "decorator_list", []) if isinstance(d, ast.Call)]
    if len(calls) != 1 or ast.unparse(calls[0].func) != "hydra.main":
        return None
    given = {k.arg: k.value.value for k in calls[0].keywords if isinstance(k.value, ast.Constant)}
    path, name = given.get("config_path"), given.get("config_name")
    if not isinstance(path, str) or not isinstance(name, str):
        return None
    return root, os.path.normpath(os.path.join(os.path.dirname(ls.launch.script), path)), name


# ---------------------------------------------------------------- the configuration hydra makes

def _value(text: str) -> Any:
    """A hydra override's value, for the forms whose reading was run (else NotKnown)."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if text == "null":
        return None
    if re.fullmatch(r"-?(0|[1-9][0-9]*)", text):
        return int(text)
    if re.fullmatch(WORD, text):
        return text
    if re.fullmatch(rf"\[({WORD}|-?[0-9]+)?(,({WORD}|-?[0-9]+))*\]", text):
        return [_value(x) for x in text[1:-1].split(",") if x]
    raise NotKnown(f"how hydra reads the value `{text}` is not followed here")


def _words(words: List[str], default: str) -> Tuple[str, List[Tuple[str, str, Any, str]]]:
    """(the configuration's name, the overrides: (how, dotted key, value, as written)) of the words after the
    script."""
    name, out, k = default, [], 0
    while k < len(words):
        w = words[k]
        k += 1
        if w == "--config-name" or w == "-cn":
            if k >= len(words):
                raise NotKnown(f"`{w}` without a value: what hydra does is not followed here")
            name, k = words[k], k + 1
        elif w.startswith("--config-name="):
            name = w.partition("=")[2]
        elif w.startswith("-"):
            raise NotKnown(f"`{w}` is a hydra option not followed here")
        else:
            m = re.fullmatch(r"(\+{0,2})([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)=(.*)", w)
            if m is None:
                raise NotKnown(f"the word `{w}` is not an override followed here")
            out.append((m.group(1), m.group(2), _value(m.group(3)), m.group(3)))
    return name, out


def _compose(folder: str, name: str, shown: str) -> Tuple[dict, Dict[Tuple[str, ...], int]]:
    """(the primary configuration, the line of each key of its profiler_config.integrated), where its defaults list
    puts nothing but `model` files under `model`."""
    from ..source import observed
    from .mindspeed_fsdp import Fails, _lines, load_yaml
    path = os.path.join(folder, name if name.endswith(".yaml") else name + ".yaml")
    if observed.note(path)[0] != "file":
        raise NotKnown(f"{shown} is no file when the launcher is read: hydra stops the run (\"Cannot find primary "
                       "config\") if it is still missing when the job starts")
    try:
        doc, node = load_yaml(path, shown, "hydra", "")
    except Fails as e:
        raise NotKnown(f"{e}: what hydra says then is not followed here")
    if not isinstance(doc, dict):
        raise NotKnown(f"{shown} is not a mapping: what hydra makes of it is not followed here")
    for entry in doc.get("defaults") or []:
        if entry == "_self_":
            continue
        models = entry.get("model") if isinstance(entry, dict) and list(entry) == ["model"] else None
        models = [models] if isinstance(models, str) else models
        if not isinstance(models, list) or not all(isinstance(m, str) for m in models):
            raise NotKnown(f"{shown}'s defaults list has `{entry}`, whose composition is not followed here")
        for m in models:
            model = os.path.join(folder, "model", m + ".yaml")
            try:
                with open(model, encoding="utf-8", errors="replace") as f:
                    if "@package" in f.read():
                        raise NotKnown(f"model/{m}.yaml names a package: where hydra puts it is not followed here")
            except OSError:
                raise NotKnown(f"model/{m}.yaml, which {shown}'s defaults list names, cannot be read here")
    lines: Dict[Tuple[str, ...], int] = {}
    _lines(node, (), lines)
    return doc, lines


def _override(doc: dict, how: str, key: str, value: Any, text: str) -> None:
    """An override applied as hydra applies it (the configuration's mappings from the YAML; `model` is composed)."""
    *parents, last = key.split(".")
    if parents[:1] == ["model"] or key == "model" or key == "defaults" or key.startswith("hydra"):
        raise NotKnown(f"the override `{how}{key}=...` reaches what hydra composes, not followed here")
    at: Any = doc
    for p in parents:
        if p not in at and how:
            at[p] = {}                  # (`+a.b.c=v` adds the mappings on its way)
        elif p not in at:
            at = {}
            break
        if not isinstance(at[p], dict):
            raise NotKnown(f"the override `{how}{key}=...`: whether hydra takes it is not followed here")
        at = at[p]
    there = last in at
    if how == "" and not there:
        raise _Stops(f"`{key}={text}` names a key the configuration has not: hydra stops the run (\"Could not "
                     f"override '{key}'. To append to your config use +{key}={text}\")")
    if how == "+" and there:
        raise _Stops(f"`+{key}={text}` adds a key the configuration has: hydra stops the run (\"Could not append "
                     f"to config. An item is already at '{key}'.\")")
    at[last] = value


class _Stops(Exception):
    """hydra stops the run before training: why."""


# ---------------------------------------------------------------- the answer

def follow(w, launch, ls, target, environ):
    """imported.Followed for a launch of a MindSpeed-RL trainer, None for any other script (or a copy modified)."""
    from .imported import Followed
    from .mindspeed_fsdp import profiles
    if launch.msprof is not None or ls is None or ls.ctx.tree is None:
        return None
    found = recognise(ls)
    if found is None:
        return None
    root, folder, default = found
    try:
        verdict, why = _answer(launch, root, folder, default)
    except NotKnown as e:
        verdict, why = "unknown", str(e)
    name = os.path.relpath(launch.script, root).replace(os.sep, "/")
    return Followed(verdict, f"{name} (MindSpeed-RL's trainer; mindspeed_rl as the project holds it): {why}",
                    profiles(verdict))


def _answer(launch, root: str, folder: str, default: str) -> Tuple[str, str]:
    from ..checks.mindspeed_rl import data, profiles_a_rank, roles, stage_roles
    from ..shell.parse import without_redirections
    from ..source.text import HOLE
    words = [x.text for x in without_redirections(launch.args)]
    if any(HOLE in x for x in words):
        raise NotKnown("the words after the script are not all known here: which configuration and overrides hydra "
                       "reads is not known")
    name, overrides = _words(words, default)
    rel = os.path.relpath(folder, root).replace(os.sep, "/")
    shown = f"{rel}/{name if name.endswith('.yaml') else name + '.yaml'}"
    doc, lines = _compose(folder, name, shown)
    try:
        for how, key, value, text in overrides:
            _override(doc, how, key, value, text)
    except _Stops as e:
        return "fails", f"{e}, before training"
    script = os.path.basename(launch.script)
    given = [o for o in overrides if o[1].startswith("profiler_config.")]

    def where(key: str) -> str:
        if any(k == "profiler_config.integrated." + key for _, k, _, _ in given):
            return "the command line"
        line = lines.get(("profiler_config", "integrated", key)) or \
            lines.get(("profiler_config", "integrated", key.replace("_", "-")))      # (BaseConfig.update's '-')
        return f"{shown}:{line}" if line else "the default"
    section = doc.get("profiler_config", {})
    mapping = section.get("integrated", {}) if isinstance(section, dict) else None
    if not isinstance(mapping, dict):
        raise NotKnown(f"{shown}'s profiler_config.integrated is not a mapping: what ProfilerConfig does with it is "
                       "not followed here")
    defaults = data()["defaults"]
    config = {k.replace("-", "_") if isinstance(k, str) else k: v for k, v in mapping.items()}
    for key in config:
        if key == "model":
            return "fails", (f"`model` in profiler_config.integrated ({where('model')}): BaseConfig.update raises "
                             "TypeError when train() builds ProfilerConfig, before training")
        if key not in defaults:
            return "fails", (f"`{key}` ({where(key)}) is not a key of ProfilerConfig: BaseConfig.update raises "
                             f"ValueError (\"The key: {key} is missing, causing the setup to fail. ...\") when train() "
                             "builds it, before training")
    get = lambda k: config.get(k, defaults[k])      # noqa: E731

    def said(k: str) -> str:
        import yaml
        v = get(k)      # (a string YAML would read as another type is shown quoted, as it must be written)
        plain = isinstance(v, str) and v and yaml.safe_load(v) == v
        return f"`{k}: {v if plain else json.dumps(v)}` ({where(k)})"
    if not get("profile"):
        return "no profiling", (f"{said('profile')}: ProfilerConfig is built with profile off, so get_grpo_profiler "
                                "builds no profiler; to profile, set `profile: true` under profiler_config.integrated "
                                f"in {shown} or add `++profiler_config.integrated.profile=true` to the command line")
    rl = doc.get("rl_config") or {}
    if isinstance(rl, dict) and rl.get("use_integrated_worker", True) is False and script != "train_ppo.py":
        return "no profiling", (f"{said('profile')}, but `use_integrated_worker: false` in rl_config: {script}'s "
                                "train() passes profiler_config to the integrated worker only, so no worker gets it "
                                "and none builds a profiler")
    ppo = "critic_config" in doc
    stage = get("stage")
    through = stage_roles(stage, config, ppo)
    ranks = get("profile_ranks")
    if through == []:
        return "collects nothing", (f"{said('profile')}, but {said('stage')} names no role the workers call "
                                    f"profiler_start with ({', '.join(roles(config, ppo))} and all): no profiler "
                                    "starts, without a word")
    if not profiles_a_rank(ranks):
        if isinstance(ranks, list) and all(isinstance(r, (int, str)) and not isinstance(r, bool) for r in ranks):
            return "collects nothing", (f"{said('profile')}, but {said('profile_ranks')} holds no rank (an integer "
                                        "from 0): get_grpo_profiler builds no profiler on any rank")
        if isinstance(ranks, str):
            return "collects nothing", (f"{said('profile')}, but {said('profile_ranks')} is a string other than "
                                        "all: get_grpo_profiler takes its characters as the ranks, none of which is a "
                                        "rank number, and builds no profiler")
        raise NotKnown(f"which ranks {said('profile_ranks')} names is not followed here")
    own = config.get("role", data()["role"])
    if not isinstance(own, str):
        raise NotKnown(f"{said('role')} is not a string: not followed here")
    if through is not None and own in through:
        raise NotKnown(f"{said('stage')} names the configuration's own role ({own}), whose profiler initialize() "
                       "builds outside the step window: not followed here")
    who = "every rank" if ranks == "all" else \
        "rank 0 (list() refuses it: [0])" if not isinstance(ranks, list) else \
        "rank" + ("s " if len([r for r in ranks if isinstance(r, int)]) > 1 else " ") + \
        ", ".join(str(r) for r in ranks if isinstance(r, int) and not isinstance(r, bool) and r >= 0) + \
        " where the job has them"
    who = f"{who} ({said('profile_ranks')})"
    start, end = get("profile_step_start"), get("profile_step_end")
    when = "in the worker's initialize(), after the models load" if through is None else \
        f"in the first {' or '.join(through)} stage of iterations {start} to {end - 1}" \
        if isinstance(start, int) and isinstance(end, int) and end > start else ""
    level, export = get("profile_level"), get("profile_export_type")
    if when and level not in data()["levels"]:
        return "fails", (f"{said('profile_level')}: get_grpo_profiler takes only level_none, level0, level1 or "
                         f"level2 and raises ValueError on {who} {when}")
    if when and export not in data()["exports"]:
        return "fails", (f"{said('profile_export_type')}: get_grpo_profiler raises AttributeError on {who} {when} "
                         "(its ValueError's message reads args.export_type, which ProfilerConfig has not)")
    if not (isinstance(start, int) and isinstance(end, int)) or isinstance(start, bool) or isinstance(end, bool):
        raise NotKnown(f"{said('profile_step_start')} and {said('profile_step_end')} are not both integers: what "
                       "they give is not followed here")
    base = get("profile_save_path")
    if not isinstance(base, str):
        raise NotKnown(f"{said('profile_save_path')} is not a string: not followed here")
    folders = [os.path.join(base, r) for r in ([own] if through is None else through)]
    saved = " and ".join(folders) + ("" if all(os.path.isabs(f) for f in folders) else
                                     " (relative to the folder the Ray worker runs in, not known here)")
    acts = "+".join(a for a, k in (("NPU", "profile_with_npu"), ("CPU", "profile_with_cpu")) if get(k))
    what = f"{level}, export {export}, activities {acts or 'none'}"
    head = f"{said('profile')} switches profiling on: get_grpo_profiler builds torch_npu's profiler on {who}"
    if through is None:
        active, skip = end - start, start - 1
        shown_sched = f"schedule(skip_first={skip}, active={active})"
        if active <= 0 or skip < 0:
            return "unknown", (f"{head} in the worker's initialize(), with {shown_sched} from "
                               f"{said('profile_step_start')} and {said('profile_step_end')}, values torch_npu resets "
                               "with a warning (see npuprof "
                               "check): what it records is not followed here")
        span = f"iteration {start}" if active == 1 else f"iterations {start}-{end - 1}"
        head = (f"{head} in the worker's initialize() and steps it at the end of each actor update; its {shown_sched} "
                f"records {span} (counted from 1), saved to {saved} ({what})")
        first = start
    else:
        if end <= start:
            return "collects nothing", (f"{head} only in iterations from {said('profile_step_start')} to before "
                                        f"{said('profile_step_end')}: none, so no profiler starts")
        span = f"iteration {start}" if end - start == 1 else f"iterations {start}-{end - 1}"
        head = (f"{head} for the {' and '.join(through)} stage{'s' if len(through) > 1 else ''} of {span} (counted "
                f"from 1), one trace each, saved to {saved} ({what})")
        first = start
        sometimes = [r for r in through if r not in data()["always"]]
        if sometimes and script == "train_grpo.py":
            return "unknown", (f"{head}; but whether RayGRPOTrainer.fit runs the {' and '.join(sometimes)} stage "
                               "depends on settings not followed here")
    if script != "train_grpo.py":
        return "unknown", f"{head}; but {script}'s training loop is not followed here: whether the run reaches it"
    train = {**(doc.get("megatron_training") or {}), **(doc.get("actor_config") or {})}
    iters, load = train.get("train_iters"), train.get("load")
    if load is not None:
        return "unknown", (f"{head}; but `load: {load}` may resume from a checkpoint, after which the run makes fewer "
                           "iterations than train_iters: whether it reaches iteration "
                           f"{first} is not known here")
    if not isinstance(iters, int) or isinstance(iters, bool):
        raise NotKnown(f"{head}; but how many iterations the run makes (train_iters) is not known here")
    if iters < first:
        return "collects nothing", (f"{head}, but the run makes {iters} iterations (`train_iters: {iters}`; "
                                    "RayGRPOTrainer.fit loops while the iteration is below it)")
    return "collects", f"{head}; the run makes {iters} iterations (`train_iters: {iters}`)"
