"""A launch of MindSpeed-LLM's FSDP2 trainer (Ascend/MindSpeed-LLM: `torchrun ... train_fsdp2.py CONFIG.yaml
--section.key value ...`, examples/fsdp2/): its profiling is the ProfilerManager of
mindspeed_llm/fsdp2/utils/profiler.py, which Trainer.__init__ builds from the `training` section's `profile*` fields.
What that code does (c77308a1, run with python 3.11.7 against stub transformers, torch and torch_npu:
tests/data/mindspeed_llm_fsdp_runs.py, data/sources.json mindspeed_llm_fsdp.*):

- MindSpeedAutoTrainer._parse_args runs fsdp2_parse_args(Arguments): where the first word after the script ends in
  .yaml or .yml, the YAML is opened (from the process's folder; a missing file raises FileNotFoundError) and each
  non-null `KEY: VALUE` of each top-level mapping is appended as `--SECTION.KEY VALUE` (a list as one word an item)
  unless `--SECTION.KEY=` is in the words joined with `=` (a command-line word followed by its value); then an
  argparse parser whose options are the five sections' fields (data/mindspeed_llm_fsdp_options.json, run) parses
  them with parse_known_args: a word it does not know is logged and dropped, a value it refuses, an ambiguous
  abbreviation or a missing --model.model_name_or_path or --training.output_dir stops the run (exit status 2).
  TrainingArguments.__post_init__ refuses, where `profile` is true, a profile_step_start below 0 and a
  profile_step_end other than -1 not above it (ValueError).
- Trainer.__init__ builds ProfilerManager(ProfilerConfig(...)) from them: a rank profiles where `profile` is true and
  profile_ranks holds -1 or its rank; there the save path is made, a profile_level other than level_none/level0-2 or a
  profile_export_type other than text/db raises ValueError, and torch_npu's profile is built with schedule(wait=0,
  warmup=0 or 1 (start 0 or not), active=end-start (1000000 for end -1), repeat=1, skip_first=max(0, start-1)) and
  tensorboard_trace_handler(save path).
- Trainer.train starts it before the epoch loop, calls step() after each optimizer step and stop() after the loop.
  How many optimizer steps the run makes depends on the dataset's length (training.max_steps only bounds it).

Only code whose parts have the digests read (SHAPES, every string kept) is answered for; the answer then says what is
not known, never leaving the launch to a guess. Not followed: the other sections' __post_init__ checks and
_validate_cross_args (their refusals stop the run before training, as a model that does not load does): an answer
that profiling runs holds where the run gets to training. mindspeed_llm/__init__.py imports the Megatron adaptor unless
TRAINING_BACKEND is set to something other than mcore (examples/fsdp2/env_config.sh exports mindspeed_fsdp): such a
launch is not followed.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ..values.yaml_config import digest
from .mindspeed_fsdp import Fails, NotKnown, _lines, _yaml, launched, load_yaml, profiles
from .mindspeed_mm import _span, _world, shaped_parts

FACTS = ("mindspeed_llm_fsdp.arguments", "mindspeed_llm_fsdp.profiler")

SCRIPT = "train_fsdp2.py"
ARGS = "mindspeed_llm/fsdp2/utils/arguments.py"
PROFILER = "mindspeed_llm/fsdp2/utils/profiler.py"
TRAINER = "mindspeed_llm/fsdp2/train/trainer.py"
PACKAGE = "mindspeed_llm/__init__.py"
# the digests of the parts read and run (Ascend/MindSpeed-LLM at c77308a1), by file under the project's root
SHAPES = {
    (SCRIPT, "Arguments"): {"f52ca21116fef108"}, (SCRIPT, "MindSpeedAutoTrainer.__init__"): {"563b46391948727a"},
    (SCRIPT, "MindSpeedAutoTrainer._parse_args"): {"384f1f43e3b3235c"},
    (SCRIPT, "MindSpeedAutoTrainer.train"): {"9df88f4704e652d6"},
    (SCRIPT, "AutoTrainer.__init__"): {"bb56aac02168248c"}, (SCRIPT, "AutoTrainer.train"): {"36a047bf60474fda"},
    (SCRIPT, "main"): {"329460412107a668"}, (ARGS, "ModelArguments"): {"37a5197c32c02cd4"},
    (ARGS, "DataArguments"): {"fb7b27d8d0749080"}, (ARGS, "ParallelArguments"): {"30889025eb94c413"},
    (ARGS, "TrainingArguments"): {"e3b852027d22e5cd"}, (ARGS, "OptimizationArguments"): {"3de180e13224cb47"},
    (ARGS, "_string_to_bool"): {"2952d8f7fefb3618"}, (ARGS, "_make_choice_type_function"): {"bd7543c301a14a95"},
    (ARGS, "fsdp2_parse_args"): {"a320211f31b0f651"}, (ARGS, "_create_argument_parser"): {"d76cc03bb66f2cd0"},
    (ARGS, "_resolve_optional_type"): {"81edbd5ed1b00702"}, (ARGS, "_handle_literal_or_enum"): {"b20323c724056003"},
    (ARGS, "_handle_bool"): {"cc28d5a9475e658a"}, (ARGS, "_handle_list_of_dict"): {"2b5c142a2a0a7754"},
    (ARGS, "_handle_list_of_scalar"): {"b4917834d0e00c8a"}, (ARGS, "_handle_dict"): {"3cfb9c68b915b141"},
    (ARGS, "_handle_scalar"): {"c70711533e70a12d"}, (ARGS, "_load_yaml_if_provided"): {"4462abb0e4c48af2"},
    (ARGS, "_merge_yaml_into_cmd_args"): {"038f7b3b2f28e10a"}, (ARGS, "_postprocess_json_fields"): {"c116ae9cd0eda6af"},
    (ARGS, "_build_dataclass_instances"): {"a4ddcf7a3fc0486b"}, (PROFILER, "ProfilerConfig"): {"f3a6d4af6bc2a566"},
    (PROFILER, "ProfilerManager"): {"04fe8d8e0728b25b"}, (TRAINER, "Trainer.__init__"): {"4d0d741f1501d107"},
    (TRAINER, "Trainer.train"): {"9dd74f32ec5cfc0a"},
    ("mindspeed_llm/fsdp2/utils/coverage.py", "auto_coverage"): {"6fbc49a9c3c6e02b"},
}
# train_fsdp2.py's `if __name__ == "__main__":`; the package's body
MODULES = {SCRIPT: {"75cd6c25c03a2e06"}, PACKAGE: {"acc06bd03c5c8faf"}}
BACKEND = "TRAINING_BACKEND"
LEVELS = ("level_none", "level0", "level1", "level2")
EXPORTS = ("text", "db")


def part_digest(node: ast.AST) -> str:
    """The part's digest with every string it holds kept (defaults, option names and messages decide the run)."""
    return digest(node, tuple(n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and
                              isinstance(n.value, str)))


def module_digest(rel: str, tree: ast.AST) -> str:
    if rel == SCRIPT:
        mains = [s for s in getattr(tree, "body", []) if isinstance(s, ast.If) and
                 isinstance(s.test, ast.Compare) and getattr(s.test.left, "id", "") == "__name__"]
        return part_digest(mains[0]) if len(mains) == 1 else ""
    return part_digest(tree)


class Code(NamedTuple):
    """Where the parts are, as the answers name them (lines)."""
    built: int                  # `self.profiler_manager = ProfilerManager(prof_config)` in Trainer.__init__
    no_rank: int                # `if not config.is_profiling_rank():` in ProfilerManager.__init__
    raises: Tuple[int, int]     # ProfilerManager.__init__'s ValueErrors: level, export type
    checks: Tuple[int, int]     # TrainingArguments.__post_init__'s ValueErrors: start below 0, end not above start


def _raise_lines(func: ast.AST, words: Tuple[str, ...]) -> List[int]:
    """The line of each `raise` whose message holds each of `words`, in turn (0 where none or several do)."""
    raises = [n for n in ast.walk(func) if isinstance(n, ast.Raise)]
    out = []
    for w in words:
        found = [r.lineno for r in raises
                 if any(isinstance(c, ast.Constant) and isinstance(c.value, str) and w in c.value for c in ast.walk(r))]
        out.append(found[0] if len(found) == 1 else 0)
    return out


def recognise(ls) -> Optional[Tuple[str, Code]]:
    """(the project's root, where the parts are) where the launched script is the FSDP2 trainer of the shapes read."""
    from ..values.project import load
    path = ls.launch.script.replace(os.sep, "/")
    if not path.endswith("/" + SCRIPT) or module_digest(SCRIPT, ls.ctx.tree) not in MODULES[SCRIPT]:
        return None
    root = os.path.dirname(ls.launch.script)
    module = lambda rel: load(os.path.join(root, *rel.split("/")))      # noqa: E731
    parts = shaped_parts(SHAPES, lambda name, node: part_digest(node), module)
    package = module(PACKAGE)
    if parts is None or package is None or package.tree is None or \
            module_digest(PACKAGE, package.tree) not in MODULES[PACKAGE]:
        return None
    init = parts[TRAINER]["Trainer.__init__"]
    built = [n.lineno for n in ast.walk(init) if isinstance(n, ast.Assign) and
             any(getattr(t, "attr", "") == "profiler_manager" for t in n.targets)]
    manager = parts[PROFILER]["ProfilerManager.__init__"]
    tests = [n.lineno for n in ast.walk(manager) if isinstance(n, ast.If)]
    raises = _raise_lines(manager, ("Invalid profile_level", "Invalid profile_export_type"))
    checks = _raise_lines(parts[ARGS]["TrainingArguments.__post_init__"],
                          ("profile_step_start` must be", "profile_step_end` must be"))
    if len(built) != 1 or not tests or not all(raises) or not all(checks):
        return None
    return root, Code(built[0], min(tests), (raises[0], raises[1]), (checks[0], checks[1]))


# ---------------------------------------------------------------- the command line, as fsdp2_parse_args reads it

class Stop(Exception):
    """argparse's error: the run stops with exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise Stop(f"{self.prog}: error: {message}")

    def exit(self, status=0, message=None):
        raise Stop(f"{self.prog} exits ({status}){': ' + message.strip() if message else ''}")


class _From(str):
    """A word fsdp2_parse_args appends from the YAML: where it was."""
    where = ""


def _string_to_bool(value):
    """arguments.py's _string_to_bool (c77308a1)."""
    if isinstance(value, bool):
        return value
    if value.lower() in ("yes", "true", "t", "y", "1"):
        return True
    if value.lower() in ("no", "false", "f", "n", "0"):
        return False
    raise argparse.ArgumentTypeError(
        f"Truthy value expected: got {value} but expected one of yes/no, true/false, t/f, y/n, 1/0 (case insensitive).")


_OPTIONS: List[list] = []


def options() -> List[list]:
    """The options _create_argument_parser registers (data/mindspeed_llm_fsdp_options.json, run)."""
    if not _OPTIONS:
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                            "mindspeed_llm_fsdp_options.json")
        with open(path, encoding="utf-8") as f:
            _OPTIONS.extend(json.load(f)["options"])
    return _OPTIONS


def _parser(origins: Dict[str, str]) -> _Parser:
    """The parser _create_argument_parser builds, each value's origin noted in `origins` as its type converts it."""
    parser = _Parser(prog=SCRIPT)
    for option, nargs, kind, choices, required, const, _, default in options():
        convert: Any = {"int": int, "float": float, "str": str, "_string_to_bool": _string_to_bool}.get(kind)
        if kind == "<lambda>":      # (_make_choice_type_function)
            convert = (lambda table: lambda arg: table.get(arg, arg))({str(c): c for c in choices})
        dest = option[2:]

        def typed(arg, convert=convert, dest=dest, name=kind):
            origins[dest] = getattr(arg, "where", "")
            return convert(arg)
        typed.__name__ = {"<lambda>": "<lambda>", "_string_to_bool": "_string_to_bool"}.get(kind, kind)
        kwargs: Dict[str, Any] = dict(type=typed, default=default, required=required)
        if nargs is not None:
            kwargs["nargs"] = nargs
        if choices:
            kwargs["choices"] = choices
        if nargs == "?":
            kwargs["const"] = const
        parser.add_argument(option, **kwargs)
    return parser


def merged(words: List[str], config: dict, lines: Dict[Tuple[str, ...], int], shown: str) -> List[str]:
    """_merge_yaml_into_cmd_args (c77308a1): the YAML's keys appended as `--SECTION.KEY VALUE` words."""
    working = words[1:] if config else words[:]
    joined = "=".join(working)
    out: List[str] = list(working)
    for base, section in config.items():
        if not isinstance(section, dict):
            continue
        for name, value in section.items():
            if value is None or f"--{base}.{name}=" in joined:
                continue
            line = lines.get((str(base), str(name)), 0)
            where = f"{shown}:{line}" if line else shown
            out.append(f"--{base}.{name}")
            values = [str(x) for x in value] if isinstance(value, list) else \
                [json.dumps(value, ensure_ascii=False)] if isinstance(value, dict) else [str(value)]
            for v in values:
                word = _From(v)
                word.where = where
                out.append(word)
    return out


def _json_fields(ns: argparse.Namespace) -> None:
    """_postprocess_json_fields' refusals (ValueError): a dict field's JSON that json.loads refuses."""
    for option, nargs, *_, dict_field, _default in options():
        value = getattr(ns, option[2:])
        if not dict_field or value is None:
            continue
        items = value if isinstance(value, list) else [value.strip()] if isinstance(value, str) and \
            value.strip().startswith("{") and value.strip().endswith("}") else []
        for item in items:
            try:
                json.loads(item)
            except ValueError as e:
                raise Fails(f"`{option} {item}` is not JSON ({e}): _postprocess_json_fields raises ValueError")


# ---------------------------------------------------------------- the answer

def follow(w, launch, ls, target, environ):
    """imported.Followed for a launch of MindSpeed-LLM's FSDP2 trainer, None for any other script (or a copy
    modified)."""
    from .imported import Followed
    found = launched(launch, ls, SCRIPT, recognise)
    if found is None:
        return None
    root, code = found
    verdict, why = _answer(w, launch, code, environ)
    return Followed(verdict, f"{SCRIPT} (MindSpeed-LLM's FSDP2 trainer; mindspeed_llm as the project holds it): "
                             f"{why}", profiles(verdict))


def _backend(w, launch, environ) -> str:
    """Why the launch is not followed for its TRAINING_BACKEND, "" where it is set to another backend than mcore."""
    from ..source.text import HOLE
    s = launch.command.env.get(BACKEND)
    if s is not None and s.how != "set without export":
        if HOLE in s.value:
            return f"{BACKEND} ({s.where(w.root)}) is not known here"
        value, where = s.value, f" ({s.where(w.root)})"
    elif environ is not None and BACKEND in environ:
        value, where = environ[BACKEND], " (the environment given)"
    else:
        return (f"{BACKEND} is not set here, so mindspeed_llm/__init__.py imports the Megatron adaptor "
                "(mindspeed_llm.tasks.megatron_adaptor_v2), whose patches are not followed here "
                "(examples/fsdp2/env_config.sh exports TRAINING_BACKEND=mindspeed_fsdp)")
    if value.lower() == "mcore":
        return (f"{BACKEND}={value}{where}: mindspeed_llm/__init__.py imports the Megatron adaptor, whose patches "
                "are not followed here")
    return ""


def _answer(w, launch, code: Code, environ) -> Tuple[str, str]:
    from ..source import fence, observed
    from ..source.text import HOLE
    if launch.wrapper not in ("torchrun", "torch.distributed.run"):
        how = f"started by {launch.wrapper}" if launch.wrapper else "started without torchrun"
        return "unknown", (f"{how}: the words and the variables (RANK, WORLD_SIZE, LOCAL_RANK) the trainer reads "
                           "are followed here only under torchrun")
    backend = _backend(w, launch, environ)
    if backend:
        return "unknown", backend
    words, paths = _paths(launch)
    cwd = launch.command.cwd[0] if len(launch.command.cwd) == 1 else None
    if cwd is None:
        return "unknown", "the YAML is opened from the folder the job runs in, not known here"
    if not words:
        return "fails", "no word follows the script: fsdp2_parse_args raises ValueError (\"No arguments provided.\")"
    yaml = HOLE not in words[0] and words[0].endswith((".yaml", ".yml"))
    path = os.path.join(cwd, words[0])
    if yaml and observed.note(path)[0] != "file":       # (whatever the later words are)
        return "unknown", (f"{words[0]} is no file (from {cwd}) when the launcher is read: fsdp2_parse_args "
                           "opens it, which raises FileNotFoundError if it is still missing when the job starts")
    if any(HOLE in x for x in words):
        return "unknown", "the words after the script are not all known here: which YAML and options " \
                          "fsdp2_parse_args reads is not known"
    config: Any = {}
    lines: Dict[Tuple[str, ...], int] = {}
    shown = ""
    if yaml:
        if fence.outside(path):
            return "unknown", f"{words[0]} is outside the project, which --no-outside does not read"
        shown = os.path.relpath(os.path.realpath(path), os.path.realpath(cwd)).replace(os.sep, "/")
        try:
            doc, node = load_yaml(path, shown, "fsdp2_parse_args", ", which fsdp2_parse_args raises")
        except Fails as e:
            return "fails", f"{e}, before training"
        except NotKnown as e:
            return "unknown", str(e)
        config = doc or {}
        if not isinstance(config, dict):
            return "fails", (f"{shown} holds a {type(config).__name__}, not a mapping: _merge_yaml_into_cmd_args "
                             "raises AttributeError (it calls .items()), before training")
        _lines(node, (), lines)
    origins: Dict[str, str] = {}
    try:
        ns, _ = _parser(origins).parse_known_args(merged(words, config, lines, shown))
        _json_fields(ns)
    except Stop as e:
        return "fails", f"argparse stops the run (exit status 2) before training: {e}"
    except Fails as e:
        return "fails", f"{e}, before training"
    verdict, why = _profile(launch, code, ns, origins, cwd, shown)
    if not paths:
        return verdict, why
    named = " and ".join(f"`{o}`" for o in paths)
    if verdict == "no profiling" and not any(w.startswith("--training.prof") or "--training.profile".startswith(
            w.split("=")[0]) for w in words if w.startswith("--")):
        return verdict, f"{why} ({named} take{'s' if len(paths) == 1 else ''} a value not known here, which does " \
                        "not switch profiling on)"
    return "unknown", (f"{named} take{'s' if len(paths) == 1 else ''} a value not known here (one beginning with `-` "
                       f"stops argparse); where {'it is a path' if len(paths) == 1 else 'they are paths'}: "
                       f"{verdict}: {why}")


def _paths(launch) -> Tuple[List[str], List[str]]:
    """(the words after the script, redirections left out; the options given a value not known here that cannot
    decide profiling) where each such value is one double-quoted expansion of a named variable ("${MODEL_PATH}": one
    word) after an option taking one string (no choices, no JSON): such a word is read as "VALUE" (where no word may
    switch profiling on, `--training.prof...` or a prefix argparse may take for `--training.profile`, such a value
    decides nothing: it is read as a value, or stops argparse)."""
    import re
    from ..shell.parse import without_redirections
    from ..source.text import HOLE
    args = list(without_redirections(launch.args))      # (`2>&1` is bash's, not the script's)
    words = [x.text for x in args]
    if not any(HOLE in x for x in words):
        return words, []
    single = {o[0] for o in options() if o[1] is None and o[2] == "str" and not o[3] and not o[6]}
    try:
        with open(launch.command.path, encoding="utf-8", errors="replace") as f:
            source = f.read()
    except OSError:
        return words, []
    out, paths = list(words), []
    for i, word in enumerate(args):
        if HOLE not in word.text:
            continue
        written = source[word.start:word.end]
        if i == 0 or words[i - 1] not in single or HOLE in words[i - 1] or \
                not re.fullmatch(r'"[^"`$\\]*\$\{?[A-Za-z_][A-Za-z_0-9]*(:?-[^}"`$\\]*)?\}?[^"`$\\]*"', written):
            return words, []
        out[i] = "VALUE"
        paths.append(words[i - 1])
    return out, paths


def _profile(launch, code: Code, ns: argparse.Namespace, origins: Dict[str, str], cwd: str, shown: str) \
        -> Tuple[str, str]:
    get = lambda key: getattr(ns, "training." + key)        # noqa: E731

    def said(key: str) -> str:
        where = origins.get("training." + key)
        if where is None:       # (no value converted: the default, or `--training.X` alone, its const)
            where = "the default" if get(key) == _default(key) else "the command line"
        return f"`training.{key}: {_yaml(get(key))}` ({where or 'the command line'})"
    args = os.path.basename(ARGS)
    prof = os.path.basename(PROFILER)
    built = f"{os.path.basename(TRAINER)}:{code.built}"
    on, start, end = get("profile"), get("profile_step_start"), get("profile_step_end")
    if not on:
        given = origins.get("training.profile")
        how = "give `--training.profile true` on the command line" + (" instead" if given == "" else "") + (
            "" if given == "" or not shown else
            f" or set `profile: true` under `training` in {shown}" if given is None else
            f" or set `profile: true` at {given}")
        return "no profiling", (f"{said('profile')}: Trainer.__init__ builds a ProfilerManager ({built}) that builds "
                                f"no profiler ({prof}:{code.no_rank}); to profile, {how}")
    if start < 0:
        return "fails", (f"{said('profile_step_start')} with `profile` true: TrainingArguments.__post_init__ raises "
                         f"ValueError ({args}:{code.checks[0]}), before training")
    if end != -1 and end <= start:
        return "fails", (f"{said('profile_step_end')} is not above {said('profile_step_start')} (nor -1) with "
                         f"`profile` true: TrainingArguments.__post_init__ raises ValueError ({args}:{code.checks[1]}),"
                         " before training")
    head = f"{said('profile')} switches profiling on"
    ranks = get("profile_ranks")
    listed = said("profile_ranks")
    world, how = _world(launch)
    if -1 in ranks:
        who, any_rank = f"every rank ({listed})", True
    elif world is not None:
        mine = [r for r in range(world) if r in ranks]
        any_rank = bool(mine)
        who = f"{listed} names no rank of the {world} ({how})" if not mine else \
            (f"rank {mine[0]}" if len(mine) == 1 else f"ranks {_span(mine)}") + f" of the {world} ({listed}; {how})"
    elif all(r >= 0 for r in ranks) and launch.ranks > 0 and all(r < launch.ranks for r in ranks):
        mine = sorted(set(ranks))
        who = (f"{'rank' if len(mine) == 1 else 'ranks'} {_span(mine)} ({listed}; the job has at least the "
               f"{launch.ranks} processes of this node, and {how})")
        any_rank = True
    else:
        return "unknown", f"{head}, but which ranks {listed} names is not known here: {how}"
    if not any_rank:
        return "collects nothing", f"{head}, but {who}: no process builds a profiler"
    level, export = get("profile_level"), get("profile_export_type")
    if level not in LEVELS:
        return "fails", (f"{said('profile_level')}: ProfilerManager takes only level_none, level0, level1 or level2, "
                         f"so Trainer.__init__ ({built}) stops with ValueError ({prof}:{code.raises[0]}) on {who}")
    if export not in EXPORTS:
        return "fails", (f"{said('profile_export_type')}: ProfilerManager takes only text or db, so Trainer.__init__ "
                         f"({built}) stops with ValueError ({prof}:{code.raises[1]}) on {who}")
    folder = get("profile_save_path")
    saved = f"{folder} (in {cwd})" if not os.path.isabs(folder) else folder
    active = 1000000 if end == -1 else end - start
    skip, warmup = max(0, start - 1), (0 if start == 0 else 1)
    sched = f"schedule(warmup={warmup}, active={active}, skip_first={skip}) from {said('profile_step_start')} and " \
        f"{said('profile_step_end')}"
    cpu = " and CPU" if get("profile_with_cpu") else ""
    switches = ", ".join(k for k in ("profile_with_stack", "profile_with_memory", "profile_record_shapes",
                                     "profile_data_simplification") if get(k))
    what = f"{level}, export {export}, activities NPU{cpu}" + (f", {switches}" if switches else "")
    head = f"{head}: torch_npu's profiler is built in Trainer.__init__ ({built}) on {who}, started before the " \
        "training loop and stepped once an optimizer step"
    span = f"optimizer steps {start}-{end - 1}" if end != -1 and end - start > 1 else \
        f"optimizer step {start}" if end != -1 else f"every optimizer step from {start} to the end of training"
    resumed = get("resume_from_checkpoint")
    counted = " (0-based, counted from this run's first step: the profiler counts its own steps, also after " \
        f"training.resume_from_checkpoint {resumed})" if resumed else " (0-based)"
    if start == 0:
        until, when = ("", "at stop() after the loop") if end == -1 else \
            (", or until training ends before", "when that window ends or at stop() after the loop")
        return "collects", (f"{head}; its {sched} records {span}{counted}{until}; the trace is saved to {saved} "
                            f"({what}) {when}")
    steps = get("max_steps")
    if steps > 0 and steps <= start:
        return "collects nothing", (f"{head}, but its {sched} records from optimizer step {start}, and the run makes "
                                    f"at most {said('max_steps')} optimizer steps: nothing is recorded")
    bound = f"at most {said('max_steps')}, " if steps > 0 else ""
    return "unknown", (f"{head}; its {sched} records {span}{counted}, saved to {saved} ({what}); but whether the run "
                       f"makes more than {start} optimizer steps depends on the dataset's length ({bound}"
                       "num_train_epochs times the updates an epoch), not known here")


def _default(key: str) -> Any:
    return next(o[-1] for o in options() if o[0] == "--training." + key)
