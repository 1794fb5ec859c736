"""A MindSpeed-RL YAML training configuration (`python cli/train_grpo.py --config-name NAME`: configs/NAME.yaml; also
train_ppo.py and train_dapo.py): its `profiler_config: {integrated: {...}}`, as MindSpeed-RL's own code reacts to it
(data/mindspeed_rl.json, read and run at 05a90d77cb6c: tests/data/mindspeed_rl_runs.py; sources: data/sources.json
mindspeed_rl.*). train() builds ProfilerConfig from the mapping (BaseConfig.update: a key it has not raises
ValueError); each worker then calls profiler_start once in initialize() with the config's role (`integrated`) and
once a step for each stage role it runs, and get_grpo_profiler builds torch_npu's profiler where `profile` is true on
the ranks `profile_ranks` names.

A file is read as one only where a line starts with `profiler_config:` and its top-level keys are MindSpeed-RL's
trainers' (actor_config and rl_config: train_dpo.py reads the mapping otherwise). Where the project holds its own
mindspeed_rl package whose parts are not the copies read (digests), nothing is said.
"""

from __future__ import annotations

import difflib
import os
import re
from functools import lru_cache
from typing import Any, Iterator, List, Optional, Tuple

from ..source.files import RL_CONFIG_KEYS
from ..source.model import Finding, finding
from ..source.said import aside, clause, logged, said, so
from ..source.text import SourceText

PREFILTER = re.compile(RL_CONFIG_KEYS.pattern.decode("ascii"), re.M)     # (the file finder's, as text)
MAX_CHARS = 1_000_000
VERSION = "MindSpeed-RL 05a90d7"


@lru_cache(maxsize=1)
def data() -> dict:
    import json
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "mindspeed_rl.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check_file(text: str, path: str, settings=None) -> List[Finding]:
    """The findings of a YAML file: an internal error is NPP000, never a crash."""
    try:
        return check_text(text, path)
    except Exception as exc:            # same contract as Python files
        from .analysis import internal_error
        return [internal_error(exc)]


def check_text(text: str, path: str) -> List[Finding]:
    if not PREFILTER.search(text) or len(text) > MAX_CHARS:
        return []                       # (checks/mindformers.py reports a file over its budget)
    import yaml
    from ..source.run_config import NotYaml, parse
    try:
        doc = parse(text)
    except NotYaml:
        return []                       # (checks/mindformers.py reports NPP192 where it reads the file)
    top = _mapping(doc.node)
    if not all(m in top for m in data()["markers"]) or "profiler_config" not in top:
        return []
    integrated = _mapping(top["profiler_config"][1]).get("integrated")
    if integrated is None or not isinstance(integrated[1], yaml.MappingNode) or not _same_code(path):
        return []
    values = doc.values["profiler_config"]["integrated"]
    src = SourceText(text)
    out = []
    for code, words, node in _judge(_mapping(integrated[1]), values, "critic_config" in top):
        (l1, c1), (l2, c2) = src.position(node.start_mark.index), src.position(node.end_mark.index)
        out.append(finding(code, words, node.start_mark.index, node.end_mark.index, l1, c1, l2, c2))
    return sorted(out, key=Finding.sort_key)


def _mapping(node) -> dict:
    """A mapping node's string keys: name -> (key node, value node), the last of a repeated key (as yaml keeps)."""
    import yaml
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {k.value: (k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and
            k.tag == "tag:yaml.org,2002:str"}


# ---------------------------------------------------------------- the code read

def _same_code(path: str) -> bool:
    """Whether the code the file's run uses is the copy read: the project's own mindspeed_rl package (in a folder
    above the file) where it holds one, else the installed one (taken as the copy read: the messages name it)."""
    from ..source.observed import isfile
    from .mindformers import copy_read
    folder = os.path.dirname(os.path.abspath(path))
    for _ in range(8):
        if isfile(os.path.join(folder, "mindspeed_rl", "utils", "utils.py")):
            return all(copy_read(os.path.join(folder, *e["file"].split("/")), e["name"], tuple(e["digests"]))
                       for e in data()["code"])
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return True


# ---------------------------------------------------------------- what the code does with each key

def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _written(node) -> str:
    import yaml
    return node.value if isinstance(node, yaml.ScalarNode) and node.value else \
        {"tag:yaml.org,2002:seq": "a list", "tag:yaml.org,2002:map": "a mapping"}.get(node.tag, "null")


def roles(config: dict, ppo: bool) -> Tuple[str, ...]:
    """The roles profiler_start is called with: the config's own (initialize()) and each worker's stages (the
    critic's only in a PPO configuration, which has a critic_config)."""
    own = config.get("role", data()["role"])
    return tuple(([own] if isinstance(own, str) else []) +
                 [s for s in data()["stages"] if ppo or not s.startswith("critic_")])


def stage_roles(stage: Any, config: dict, ppo: bool) -> Optional[List[str]]:
    """The roles a `stage` lets profiler_start through (None: "all", the config's role alone)."""
    if stage == "all":
        return None
    if isinstance(stage, str):
        return [stage] if stage in roles(config, ppo) else []
    if isinstance(stage, (list, dict)):
        return [s for s in stage if s in roles(config, ppo)]
    return []                           # (list() of it raises TypeError: a warning, no stage)


def profiles_a_rank(ranks: Any) -> bool:
    """Whether `profile_ranks` names a rank for sure: "all", a value list() refuses (then [0]), or a list holding a
    rank (an integer from 0)."""
    if ranks == "all" or _int(ranks) or isinstance(ranks, float) or ranks is None or isinstance(ranks, bool):
        return True
    return isinstance(ranks, list) and any(_int(r) and r >= 0 for r in ranks)


def _judge(keys: dict, values: Any, ppo: bool) -> Iterator[Tuple[str, Any, Any]]:
    defaults = data()["defaults"]
    config = {k.replace("-", "_"): v for k, v in values.items()} if isinstance(values, dict) else {}
    for name, (knode, _) in keys.items():
        key = name.replace("-", "_")
        if key == "model":
            yield ("NPP318", said(
                "`model` is not a key of MindSpeed-RL's ProfilerConfig",
                clause(f"{VERSION}'s BaseConfig.update looks `model` up in a table of models it is not given and "
                       "raises TypeError when train() reads the configuration", so("the run stops before training")),
                "remove it"), knode)
        elif key not in defaults:
            near = difflib.get_close_matches(key, list(defaults), 2)
            yield ("NPP318", said(
                f"`{name}` is not a key of MindSpeed-RL's ProfilerConfig",
                clause(f"{VERSION}'s BaseConfig.update raises ValueError when train() reads the configuration",
                       logged(f' ("The key: {key} is missing, causing the setup to fail. ...")'),
                       so("the run stops before training")),
                f"use {' or '.join(sorted(near))}" if near else "remove it"), knode)
    get = lambda k: config.get(k, defaults[k])      # noqa: E731
    if not get("profile"):
        return
    node = lambda k: keys.get(k, keys.get(k.replace("_", "-"), (None, None)))[1]     # noqa: E731
    stage = get("stage")
    through = stage_roles(stage, config, ppo)
    yield from _stage(node("stage"), stage, through, roles(config, ppo))
    yield from _window(node, get, through, config)
    if through == [] or not profiles_a_rank(get("profile_ranks")):
        return                          # (no profiler is built: the level and the export type are never read)
    when = "when the worker starts its profiler in initialize(), after the models load" if through is None else \
        f"when the {' or '.join(through)} stage first runs in the profiled steps"
    level, export = get("profile_level"), get("profile_export_type")
    if level not in data()["levels"] and node("profile_level") is not None:
        yield ("NPP318", said(
            f"profile_level {_written(node('profile_level'))} is not a level MindSpeed-RL takes",
            clause(f"{VERSION}'s get_grpo_profiler takes only level_none, level0, level1 or level2 and raises "
                   f"ValueError on the ranks that profile {when}", so("the run stops")),
            f"use {level.lower()}" if isinstance(level, str) and level.lower() in data()["levels"] else
            "use level_none, level0, level1 or level2"), node("profile_level"))
    elif export not in data()["exports"] and node("profile_export_type") is not None:
        yield ("NPP318", said(
            f"profile_export_type {_written(node('profile_export_type'))} is neither text nor db",
            clause(f"{VERSION}'s get_grpo_profiler raises AttributeError for it on the ranks that profile {when}",
                   aside("its ValueError's message reads args.export_type, which ProfilerConfig has not"),
                   so("the run stops")),
            f"use {export.lower()}" if isinstance(export, str) and export.lower() in data()["exports"] else
            "use text or db"), node("profile_export_type"))


def _stage(node, stage: Any, through: Optional[List[str]], known: Tuple[str, ...]) -> Iterator[Tuple[str, Any, Any]]:
    import yaml
    if node is None or through is None:
        return
    named = ", ".join(known)
    if isinstance(node, yaml.SequenceNode) and through:
        for item in node.value:         # (a list some of whose stages are roles: the others are never profiled)
            if isinstance(item, yaml.ScalarNode) and item.value not in known:
                yield ("NPP319", said(
                    f"stage {item.value} is no role MindSpeed-RL's workers profile",
                    clause(f"{VERSION}'s profiler_start is called only for {named}", so("it is never profiled")),
                    "use one of them"), item)
        return
    if through:
        return
    if isinstance(stage, (str, list, dict)):
        what = f"stage {_written(node)} names no role MindSpeed-RL's workers profile"
        why = clause(f"{VERSION}'s profiler_start returns None for every role it is called with ({named}) and "
                     "all", so("nothing is profiled, without a word"))
    else:
        what = f"stage {_written(node)} is neither a role nor a list of roles"
        why = clause(f"{VERSION}'s profiler_start logs a warning", logged(
            ' ("profiler stage is not iterable, set stages to empty list")'), " and returns None",
            so("nothing is profiled"))
    yield ("NPP319", said(what, why, "use all or one of the roles"), node)


def _window(node, get, through: Optional[List[str]], config: dict) -> Iterator[Tuple[str, Any, Any]]:
    start, end = get("profile_step_start"), get("profile_step_end")
    if not (_int(start) and _int(end)) or end > start:
        return
    at = node("profile_step_end") or node("profile_step_start")
    if at is None:
        return
    shown = lambda k, v: f"{k} {v}" + ("" if node(k) is not None else " (the default)")     # noqa: E731
    what = f"{shown('profile_step_end', end)} is not above {shown('profile_step_start', start)}"
    if through is None:
        active = end - start
        yield ("NPP319", said(what, clause(
            f"with stage all, {VERSION}'s get_grpo_profiler builds schedule(active={active}), which torch_npu 6.0 "
            "and later reset to 1", logged(' with a warning ("Invalid parameter active, reset it to 1.")'),
            so(f"it records at most one step (step {max(start, 1)}, counted from 1)")),
            "give profile_step_end above profile_step_start"), at)
    elif [r for r in through if r in data()["stages"]]:
        yield ("NPP319", said(what, clause(
            f"{VERSION}'s profiler_start starts the {' or '.join(r for r in through if r in data()['stages'])} "
            "profiler only in the steps from profile_step_start to before profile_step_end",
            so("it never starts: nothing is profiled")),
            "give profile_step_end above profile_step_start"), at)


# ---------------------------------------------------------------- the rules' pages

from .rule import Rule  # noqa: E402

_CONFIG = """megatron_training:
  model: qwen25_7b
actor_config:
  micro_batch_size: 1
rl_config:
  use_integrated_worker: true
profiler_config:
  integrated:
    profile: true
"""

_FACTS = ("mindspeed_rl.",)
_REFS = ("MindSpeed-RL: mindspeed_rl/config_cls/base_config.py BaseConfig.update, "
         "mindspeed_rl/config_cls/mindstudio_config.py ProfilerConfig, mindspeed_rl/utils/utils.py profiler_start and "
         "get_grpo_profiler",)

RULES = (
    Rule(
        code="NPP318",
        name="mindspeed-rl-profiler-config-fails",
        summary="a MindSpeed-RL YAML `profiler_config.integrated` its code raises on: a key ProfilerConfig has not "
                "(ValueError), with profile on a `profile_level` (ValueError) or `profile_export_type` "
                "(AttributeError) it refuses",
        default=True,
        level="error",
        what="In a MindSpeed-RL training configuration (`python cli/train_grpo.py --config-name NAME`, also "
             "train_ppo.py and train_dapo.py): a key of `profiler_config.integrated` that ProfilerConfig has not "
             "(`profile_step: 3`); with `profile: true`, a `profile_level` other than level_none, level0, level1 or "
             "level2 (`Level1`), or a `profile_export_type` other than text or db.",
        why="train() builds ProfilerConfig from the mapping with BaseConfig.update, which raises ValueError (\"The "
            "key: X is missing, causing the setup to fail.\") for a key the class has not, whatever `profile` is: "
            "the run stops before training (a key `model` raises TypeError). The level and the export type are read "
            "only where a profiler is built: get_grpo_profiler, on the ranks `profile_ranks` names, when the worker "
            "starts its profiler (in initialize() after the models load, or in the stage named). A level it does "
            "not take raises ValueError; an export type other than text or db was meant to raise ValueError, but "
            "the message reads `args.export_type`, which ProfilerConfig has not, so AttributeError is raised "
            "instead. Read and run at MindSpeed-RL 05a90d7.",
        example=_CONFIG + "    profile_level: Level1\n",
        fixed=_CONFIG + "    profile_level: level1\n",
        fix_safety="none",
        fix_note="No fix: which key, level or export type was meant is the user's choice (the message names the "
                 "nearest).",
        references=_REFS,
        group="torch_npu",
        language="yaml",
        facts=_FACTS,
    ),
    Rule(
        code="NPP319",
        name="mindspeed-rl-profiler-profiles-nothing",
        summary="a MindSpeed-RL YAML `profiler_config.integrated` with profile on that profiles nothing or another "
                "step than written: a `stage` no worker role has, `profile_step_end` not above `profile_step_start`",
        default=True,
        level="warning",
        what="In a MindSpeed-RL training configuration with `profile: true` in `profiler_config.integrated`: a "
             "`stage` that is neither all nor a role the workers call profiler_start with (actor_generate, "
             "actor_compute_log_prob, actor_update, actor_image_embeds, reference_compute_log_prob, "
             "critic_compute_values, critic_update, integrated), or a list with such a member; a "
             "`profile_step_end` not above `profile_step_start`.",
        why="profiler_start returns None for a role the stage does not name, without a word: a misspelt stage "
            "profiles nothing. A stage role is profiled only in the steps from profile_step_start to before "
            "profile_step_end, so an end not above the start profiles nothing; with stage all the whole-step "
            "profiler is built with schedule(active=end-start), which torch_npu 6.0 and later reset to 1 with a "
            "warning, recording at most one step. Read and run at MindSpeed-RL 05a90d7; torch_npu's schedule: the oracle's "
            "records.",
        example=_CONFIG + "    stage: actor_train\n",
        fixed=_CONFIG + "    stage: actor_update\n",
        fix_safety="none",
        fix_note="No fix: which stage or window was meant is the user's choice.",
        references=_REFS,
        group="torch_npu",
        language="yaml",
        facts=_FACTS + ("torch_npu.schedule.values",),
    ),
)
