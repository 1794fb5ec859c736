"""A launch of MindSpeed-MM's FSDP2 trainer (Ascend/MindSpeed-MM: `torchrun ... mindspeed_mm/fsdp/train/trainer.py
CONFIG.yaml`, examples/qwen3vl/finetune_qwen3vl_30B_v1.sh): its profiling is the Profiler of
mindspeed_mm/fsdp/tools/profiler.py, which TrainEngine.__init__ builds from the YAML's `tools.profile`. What that code
does (57069cd, run with python 3.11 and pydantic 2.13.4 against stub torch and torch_npu modules:
tests/data/mindspeed_fsdp_runs.py, data/sources.json mindspeed_fsdp.*):

- trainer.py's __main__ runs ConfigManager(config_class=Arguments).load_and_parse(): the first word after the script
  is the YAML where it ends in .yaml or .yml and is a file (from the process's folder); else no YAML is read and
  Arguments is built from its defaults (57069cd's data section then refuses them). A later word `KEY=VALUE` (not
  starting with `-`) is an override, nested at its dots; ConfigManager refuses it (ConfigValidationError) unless its
  first part is a field of the class or a scalar the YAML adds at its top, which no dotted key is in 57069cd (the
  class's fields are its sections): `tools.profile.enable=true` stops the run. Other words are not read.
- the YAML's `tools.profile` (each key missing takes its default: enable false, profile_type static, ranks [0];
  static_param level level1, start_step 10, end_step 11, save_path ./profiling, with_cpu false, ...) is checked by
  pydantic, which converts some values (a string "yes" for a bool) and refuses others; only values of the declared
  types are followed here.
- TrainEngine.__init__ sets the iteration to 0, or to the checkpoint's where training.load is set, then builds
  Profiler(args.tools.profile) and starts it. Profiler.__init__ raises ValueError for a profile_type other than
  static, a level other than level0-2 or an aic_metrics_type other than PipeUtilization/ArithmeticUtilization,
  whether `enable` is true or not, and builds torch_npu's profile with schedule(wait=0, warmup=0,
  active=end_step-start_step, repeat=1, skip_first=start_step) and tensorboard_trace_handler(save_path). start(),
  step() and stop() run it where `enable` is true and `ranks` is [-1] or holds the process's rank.
- TrainEngine.train's loop runs `while self.iteration < args.training.train_iters` (default 10000; train_epochs, where
  set, makes it the dataset's length times the epochs) and calls profiler.step() once an iteration.

Only code whose parts have the digests read (SHAPES, values/yaml_config.digest) and TrainEngine of the shape read
(_engine) is answered for; the answer then says what is not known, never leaving the launch to a guess.
"""

from __future__ import annotations

import ast
import json
import os
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from ..values.yaml_config import digest
from .mindspeed_mm import parts_of, shaped_parts

FACTS = ("mindspeed_fsdp.config", "mindspeed_fsdp.profiler")

SCRIPT = "mindspeed_mm/fsdp/train/trainer.py"
ENGINE = "mindspeed_mm/fsdp/train/train_engine.py"
PROFILER = "mindspeed_mm/fsdp/tools/profiler.py"
# the digests of the parts read and run (Ascend/MindSpeed-MM at 57069cd), by file under the project's root
SHAPES = {
    (PROFILER, "Profiler"): {"89838e122fe52d8d"},
    ("mindspeed_mm/fsdp/params/tools_args.py", "StaticParam"): {"be7da18fcd19d51a"},
    ("mindspeed_mm/fsdp/params/tools_args.py", "Profiler"): {"d080c9f89def3d0a"},
    ("mindspeed_mm/fsdp/params/tools_args.py", "ToolsArguments"): {"d45b61329bd86ff1"},
    ("mindspeed_mm/fsdp/params/argument.py", "Arguments"): {"3afaba143b9c9f2f"},
    ("mindspeed_mm/config/config_manager.py", "ConfigManager.__init__"): {"9773e72237a6504d"},
    ("mindspeed_mm/config/config_manager.py", "ConfigManager.get_config_file_path"): {"a0328e105434212d"},
    ("mindspeed_mm/config/config_manager.py", "ConfigManager.load_and_parse"): {"3094b251f794fba5"},
    ("mindspeed_mm/config/config_manager.py", "ConfigManager._load_yaml_config"): {"3e829973ca4314ac"},
    ("mindspeed_mm/config/config_manager.py", "ConfigManager._parse_cli_args"): {"cb48701545d884a7"},
    ("mindspeed_mm/config/config_manager.py", "ConfigManager._validate_cli_args"): {"0e3cbabc150d0e52"},
    (SCRIPT, "Trainer.train"): {"36a047bf60474fda"},
}
MAIN = {"272cc7073662cb7e"}     # trainer.py's `if __name__ == "__main__":`
KEEP = ("static", "level0", "level1", "level2", "PipeUtilization", "ArithmeticUtilization", "./profiling", ".yaml",
        ".yml", "=", "-", ".", "__main__", "utf-8", "r")
# the defaults of tools.profile (tools_args.py at 57069cd; run: tests/data/mindspeed_fsdp_runs.json) and the type
# each key is declared with
DEFAULTS: Dict[Tuple[str, ...], Any] = {
    ("enable",): False, ("profile_type",): "static", ("ranks",): [0],
    ("static_param", "level"): "level1", ("static_param", "with_stack"): False,
    ("static_param", "with_memory"): False, ("static_param", "record_shapes"): False,
    ("static_param", "with_cpu"): False, ("static_param", "save_path"): "./profiling",
    ("static_param", "start_step"): 10, ("static_param", "end_step"): 11,
    ("static_param", "data_simplification"): False, ("static_param", "aic_metrics_type"): "PipeUtilization",
    ("static_param", "analyse_flag"): True,
}
TRAIN_ITERS = 10000         # training.train_iters' default (training_args.py)


class Engine(NamedTuple):
    """Where the parts are, as the answers name them."""
    built: int              # line of `self.profiler = Profiler(args.tools.profile)` in TrainEngine.__init__
    raises: Tuple[int, int, int]    # Profiler.__init__'s ValueErrors: level, aic_metrics_type, profile_type
    enable_test: int        # line of `if not self.enable:` in Profiler._enable_profile


def _same(node: ast.AST, text: str) -> bool:
    """Whether a statement or an expression is the one written."""
    parsed: ast.AST = ast.parse(text).body[0]
    if isinstance(node, ast.expr) and isinstance(parsed, ast.Expr):
        parsed = parsed.value
    return ast.dump(node) == ast.dump(parsed)


def _main_digest(tree: ast.AST) -> str:
    mains = [s for s in getattr(tree, "body", []) if isinstance(s, ast.If) and isinstance(s.test, ast.Compare) and
             getattr(s.test.left, "id", "") == "__name__"]
    return digest(mains[0], KEEP) if len(mains) == 1 else ""


def _escapes(body: List[ast.stmt]) -> bool:
    """A break, continue, return, raise or yield in the loop's own code (not in a function it defines)."""
    todo: List[ast.AST] = list(body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.Break, ast.Continue, ast.Return, ast.Raise, ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(n))
    return False


def _engine(engine_parts, profiler_parts) -> Optional[Engine]:
    """TrainEngine of the shape read: __init__ sets the iteration to 0 (or the checkpoint's where training.load is
    set), then builds and starts the Profiler; train() loops while the iteration is below train_iters, adding one
    and calling profiler.step() in the loop's own body, nothing leaving it early, and stops the profiler after it."""
    init, train = engine_parts.get("TrainEngine.__init__"), engine_parts.get("TrainEngine.train")
    prof_init, enable = profiler_parts.get("Profiler.__init__"), profiler_parts.get("Profiler._enable_profile")
    if not all(isinstance(f, ast.FunctionDef) for f in (init, train, prof_init, enable)):
        return None
    body = init.body
    sets = [i for i, s in enumerate(body) if _same(s, "self.iteration, self.consumed_train_samples = 0, 0")]
    loads = [i for i, s in enumerate(body) if isinstance(s, ast.If) and _same(s.test, "args.training.load") and
             len(s.body) == 1 and not s.orelse and
             _same(s.body[0], "self.iteration, self.consumed_train_samples = self.load()")]
    if len(body) < 2 or not _same(body[-2], "self.profiler = Profiler(args.tools.profile)") or \
            not _same(body[-1], "self.profiler.start()") or len(sets) != 1 or len(loads) != 1 or \
            not sets[0] < loads[0]:
        return None
    # (nothing else in __init__ sets the iteration)
    if sum(1 for n in ast.walk(init) for t in getattr(n, "targets", []) for x in ast.walk(t)
           if isinstance(x, ast.Attribute) and x.attr == "iteration") != 2:
        return None
    loops = [s for s in train.body if isinstance(s, ast.While)]
    if len(loops) != 1 or not _same(loops[0].test, "self.iteration < args.training.train_iters") or \
            loops[0].orelse or _escapes(loops[0].body):
        return None
    loop = loops[0]
    steps = [s for s in loop.body if _same(s, "self.profiler.step()")]
    adds = [s for s in loop.body if _same(s, "self.iteration += 1")]
    uses = [n for n in ast.walk(loop) if isinstance(n, ast.Attribute) and n.attr in ("profiler", "iteration") and
            not isinstance(n.ctx, ast.Load)]
    after = train.body[train.body.index(loop) + 1:]
    if len(steps) != 1 or len(adds) != 1 or len(uses) != 1 or \
            sum(1 for n in ast.walk(loop) if isinstance(n, ast.Attribute) and n.attr == "profiler") != 1 or \
            not after or not _same(after[0], "self.profiler.stop()"):
        return None
    raises = sorted(n.lineno for n in ast.walk(prof_init) if isinstance(n, ast.Raise))
    tests = [n.lineno for n in ast.walk(enable) if isinstance(n, ast.If)]
    if len(raises) != 3 or not tests:
        return None
    return Engine(body[-2].lineno, (raises[0], raises[1], raises[2]), min(tests))


def recognise(ls) -> Optional[Tuple[str, Engine]]:
    """(the project's root, the parts read) where the launched script is the FSDP2 trainer of the shapes read."""
    from ..values.project import load
    path = ls.launch.script.replace(os.sep, "/")
    if not path.endswith("/" + SCRIPT) or _main_digest(ls.ctx.tree) not in MAIN:
        return None
    root = ls.launch.script[:-len(SCRIPT) - 1]
    parts = shaped_parts(SHAPES, lambda name, node: digest(node, KEEP), lambda rel: load(os.path.join(
        root, *rel.split("/"))))
    engine = load(os.path.join(root, *ENGINE.split("/")))
    if parts is None or engine is None or engine.tree is None:
        return None
    code = _engine(parts_of(engine.tree), parts[PROFILER])
    return (root, code) if code is not None else None


# ---------------------------------------------------------------- the YAML

class NotKnown(Exception):
    """What the run does is not known here: why."""


class Fails(Exception):
    """The run stops before any profiler is built: why."""


def _lines(node, path: Tuple[str, ...], lines: Dict[Tuple[str, ...], int]) -> None:
    import yaml
    if isinstance(node, yaml.MappingNode) and len(path) < 4:
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                lines[path + (k.value,)] = k.start_mark.line + 1
                _lines(v, path + (k.value,), lines)


def _kind_ok(value: Any, default: Any) -> bool:
    """A value of the type the key is declared with (bool, int, str, List[int]), as pydantic keeps it."""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return type(value) is int
    if isinstance(default, str):
        return isinstance(value, str)
    return isinstance(value, list) and all(type(r) is int for r in value)


def load_yaml(path: str, shown: str, reader: str, then: str) -> Tuple[Any, Any]:
    """(the document as yaml.safe_load makes it, its node tree) of a YAML the trainer's `reader` opens as UTF-8;
    Fails where that fails (`then`: what the trainer does with PyYAML's error), NotKnown where it cannot be read."""
    import yaml
    from ..source import fence
    try:
        fence.check(path)
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise NotKnown(f"{shown} cannot be read ({e.strerror})")
    try:
        text = data.decode("utf-8")
        return yaml.safe_load(text), yaml.compose(text, Loader=yaml.SafeLoader)
    except UnicodeDecodeError:
        raise Fails(f"{shown} is not UTF-8, which {reader} opens it as")
    except (yaml.YAMLError, RecursionError, ValueError, TypeError) as e:
        raise Fails(f"{shown} is not valid YAML ({str(e).splitlines()[0] if str(e) else type(e).__name__}){then}")


def read_config(path: str, shown: str) -> Tuple[Dict[Tuple[str, ...], Any], Dict[Tuple[str, ...], int], dict,
                                               Tuple[str, ...]]:
    """(tools.profile's values, each with its default where the YAML has none; the line of each key the YAML has;
    its `training` mapping; its top keys that are not mappings) as ConfigManager and pydantic make them."""
    doc, node = load_yaml(path, shown, "ConfigManager", ", so ConfigManager raises ConfigValidationError (\"YAML "
                          "parsing failed\")")
    doc = doc or {}
    if not isinstance(doc, dict):
        raise NotKnown(f"{shown} holds a {type(doc).__name__}, not a mapping: what ConfigManager makes of it is not "
                       "followed here")
    lines: Dict[Tuple[str, ...], int] = {}
    _lines(node, (), lines)
    values: Dict[Tuple[str, ...], Any] = {}
    profile = doc.get("tools", {}) if isinstance(doc.get("tools", {}), dict) else None
    profile = profile.get("profile", {}) if isinstance(profile, dict) else None
    if not isinstance(profile, dict) or not isinstance(profile.get("static_param", {}), dict):
        raise NotKnown(f"{shown}'s `tools.profile` is not a mapping of keys: what pydantic makes of it is not "
                       "followed here")
    for key, default in DEFAULTS.items():
        here: Any = profile
        for k in key:
            here = here.get(k, default) if isinstance(here, dict) else default
        given = profile.get(key[0], {}) if len(key) > 1 else profile
        if isinstance(given, dict) and key[-1] in given:
            # (a key a merge (`<<: *x`) brings has no line of its own: the file is named)
            lines.setdefault(("tools", "profile") + key, 0)
        if not _kind_ok(here, default):
            at = lines.get(("tools", "profile") + key)
            raise NotKnown(f"{shown}{f':{at}' if at else ''} `{key[-1]}: {json.dumps(here)}` is not of the type tools_args.py declares "
                           f"({type(default).__name__}): pydantic converts or refuses it, which is not followed here")
        values[key] = here
    if any(isinstance(v, dict) for k, v in profile.items() if k != "static_param") or \
            any(isinstance(v, dict) for v in profile.get("static_param", {}).values()):
        raise NotKnown(f"{shown}'s `tools.profile` holds a mapping of keys the Profiler does not declare, which "
                       "ConfigManager adds as fields of its own: not followed here")
    training = doc.get("training", {})
    if not isinstance(training, dict):
        raise NotKnown(f"{shown}'s `training` is not a mapping of keys: what pydantic makes of it is not followed here")
    scalars = tuple(str(k) for k, v in doc.items() if not isinstance(v, dict))
    return values, lines, training, scalars


# ---------------------------------------------------------------- the answer

def launched(launch, ls, script: str, recognise) -> Optional[tuple]:
    """What `recognise` finds of the project's code for a launch of `script` (a trainer's path's end), None for any
    other script, a copy modified, or a launch under msprof (whose collector's own answer decides: msprof_launch.py);
    MindSpeed-MM's and MindSpeed-LLM's FSDP2 trainers are followed alike."""
    if launch.msprof is not None or ls is None or ls.ctx.tree is None or \
            not launch.script.replace(os.sep, "/").endswith("/" + script):
        return None
    return recognise(ls)


def profiles(verdict: str) -> Optional[bool]:
    """imported.Followed's `profiles` of an answer: False for no profiling, None where it is not known."""
    return {"no profiling": False, "unknown": None}.get(verdict, True)


def follow(w, launch, ls, target, environ):
    """imported.Followed for a launch of MindSpeed-MM's FSDP2 trainer, None for any other script (or a copy
    modified)."""
    from .imported import Followed
    found = launched(launch, ls, SCRIPT, recognise)
    if found is None:
        return None
    root, code = found
    verdict, why = _answer(launch, root, code)
    name = os.path.relpath(launch.script, root).replace(os.sep, "/")
    return Followed(verdict, f"{name} (MindSpeed-MM's FSDP2 trainer; mindspeed_mm as the project holds it, "
                             f"installed with `pip install -e .`): {why}", profiles(verdict))


def _answer(launch, root: str, code: Engine) -> Tuple[str, str]:
    from ..source import fence, observed
    from ..source.text import HOLE
    if launch.wrapper not in ("torchrun", "torch.distributed.run"):
        # (torchrun sets WORLD_SIZE, RANK and LOCAL_RANK, which Arguments reads as it is built, and passes the
        # script's words as given; torch.distributed.launch and deepspeed put --local-rank first)
        how = f"started by {launch.wrapper}" if launch.wrapper else "started without torchrun"
        return "unknown", (f"{how}: the words and the variables (WORLD_SIZE, RANK, LOCAL_RANK) ConfigManager and "
                           "Arguments read are followed here only under torchrun")
    words = [x.text for x in launch.args]
    if any(HOLE in x for x in words):
        return "unknown", "the words after the script are not all known here: which YAML and overrides " \
                          "ConfigManager reads is not known"
    cwd = launch.command.cwd[0] if len(launch.command.cwd) == 1 else None
    if cwd is None:
        return "unknown", "the YAML is taken from the folder the job runs in, not known here"
    first = words[0] if words else None
    path = os.path.join(cwd, first) if first else ""
    if first is None or not first.endswith((".yaml", ".yml")) or observed.note(path)[0] != "file":
        named = "no word follows the script" if first is None else \
            f"`{first}` is {'not a .yaml or .yml file name' if not first.endswith(('.yaml', '.yml')) else 'no file'}"
        return "unknown", (f"{named} (from {cwd}), so ConfigManager reads no YAML and builds Arguments from its "
                           "defaults and the command line, which is not followed here (57069cd's data section "
                           "refuses its defaults: ConfigValidationError)")
    if fence.outside(path):
        return "unknown", f"{first} is outside the project, which --no-outside does not read"
    shown = os.path.relpath(os.path.realpath(path), os.path.realpath(cwd)).replace(os.sep, "/")
    try:
        values, lines, training, scalars = read_config(path, shown)
    except Fails as e:
        return "fails", f"{e}, before training"
    except NotKnown as e:
        return "unknown", str(e)
    for x in words[1:]:
        if x.startswith("-") or "=" not in x or x.endswith((".yaml", ".yml")) or not x.split("=", 1)[0].strip():
            continue            # (ConfigManager's _parse_cli_args reads none of these)
        key = x.split("=", 1)[0].strip()
        head = key.split(".")[0]
        if "." in key and head in ("parallel", "model", "data", "training", "tools", "features") and \
                head not in scalars:        # (a scalar at the YAML's top is a field ConfigManager adds)
            return "fails", (f"the override `{x}`: ConfigManager nests it under `{head}`, which is not a field it "
                             f"lets the command line set (\"Command-line argument '{head}' is not defined in the "
                             "configuration class\"), and raises ConfigValidationError before training")
        return "unknown", f"the override `{x}` is not followed here"
    at = lambda key: "the default" if ("tools", "profile") + key not in lines else \
        f"{shown}:{lines[('tools', 'profile') + key]}" if lines[("tools", "profile") + key] else shown  # noqa: E731
    said = lambda *key: f"`{key[-1]}: {_yaml(values[key])}` ({at(key)})"     # noqa: E731
    engine = f"{os.path.basename(ENGINE)}:{code.built}"
    prof = os.path.basename(PROFILER)
    even = "" if values[("enable",)] else f", even with {said('enable')}"
    kind, level, aic = values[("profile_type",)], values[("static_param", "level")], \
        values[("static_param", "aic_metrics_type")]
    if kind != "static":
        return "fails", (f"{said('profile_type')}: the Profiler takes only static, so TrainEngine.__init__ stops "
                         f"({engine}) with ValueError ({prof}:{code.raises[2]}){even}")
    if level not in ("level0", "level1", "level2"):
        return "fails", (f"{said('static_param', 'level')}: the Profiler takes only level0, level1 or level2, so "
                         f"TrainEngine.__init__ stops ({engine}) with ValueError ({prof}:{code.raises[0]}){even}")
    if aic not in ("PipeUtilization", "ArithmeticUtilization"):
        return "fails", (f"{said('static_param', 'aic_metrics_type')}: the Profiler takes only PipeUtilization or "
                         f"ArithmeticUtilization, so TrainEngine.__init__ stops ({engine}) with ValueError "
                         f"({prof}:{code.raises[1]}){even}")
    start, end = values[("static_param", "start_step")], values[("static_param", "end_step")]
    folder = values[("static_param", "save_path")]
    saved = f"{folder} (in {cwd})" if not os.path.isabs(folder) else folder
    window = f"start_step {start} and end_step {end} ({at(('static_param', 'start_step'))})"
    settings = f"ranks {json.dumps(values[('ranks',)])} ({at(('ranks',))}), {window}, {level}, save_path {saved}"
    if not values[("enable",)]:
        return "no profiling", (f"{said('enable')}: MindSpeed-MM's Profiler is built in TrainEngine.__init__ "
                                f"({engine}) but starts no profiler ({prof}:{code.enable_test}); to profile, set "
                                f"`enable: true` in `tools.profile` (its settings there: {settings})")
    from .mindspeed_mm import _ranks
    ranks = _ranks(launch, values[("ranks",)], at(("ranks",)))
    head = f"{said('enable')} switches profiling on"
    if isinstance(ranks, str):
        return "unknown", f"{head}, but {ranks}"
    on, any_rank = ranks
    if not any_rank:
        return "collects nothing", f"{head}, but {on}: no process starts the profiler"
    head = f"{head}: torch_npu's profiler starts in TrainEngine.__init__ ({engine}) on {on}"
    if start < 0 or end - start < 1:
        return "unknown", (f"{head}, with schedule(skip_first={start}, active={end - start}) from {window}, values "
                           "torch_npu resets or refuses: what it records is not followed here")
    return _window(head, values, training, start, end, window, saved, shown)


def _yaml(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _window(head: str, values, training: dict, start: int, end: int, window: str, saved: str, shown: str) \
        -> Tuple[str, str]:
    from . import schedule_run as S
    sched = f"schedule(skip_first={start}, active={end - start}) from {window}"
    cpu = " and CPU" if values[("static_param", "with_cpu")] else ""
    switches = ", ".join(k[-1] for k in (("static_param", "with_stack"), ("static_param", "with_memory"),
                                         ("static_param", "record_shapes"), ("static_param", "data_simplification"))
                         if values[k])
    what = f"level L{values[('static_param', 'level')][-1]}, aic_metrics " \
        f"{values[('static_param', 'aic_metrics_type')]}, activities NPU{cpu}" + \
        (f", {switches}" if switches else "") + \
        f", analyse_flag {values[('static_param', 'analyse_flag')]}"
    span = f"iteration{'s' if end - start > 1 else ''} {start}{'-' + str(end - 1) if end - start > 1 else ''}"
    iters = training.get("train_iters", TRAIN_ITERS)
    epochs, load = training.get("train_epochs"), training.get("load")
    if epochs is not None or type(iters) is not int or load:
        why = (f"training.train_epochs ({json.dumps(epochs)}) sets the run's length from the dataset's"
               if epochs is not None else f"training.train_iters ({json.dumps(iters)}) is not a whole number"
               if type(iters) is not int else
               f"training.load ({json.dumps(load)}) starts the loop at the checkpoint's iteration")
        return "unknown", (f"{head}; its {sched} records {span} of TrainEngine.train's loop (0-based, one "
                           f"profiler.step() each), saved to {saved} ({what}); but {why}, not known here")
    run = S.replay({"wait": 0, "warmup": 0, "active": end - start, "repeat": 1, "skip_first": start}, iters)
    length = f"training.train_iters {iters}" + ("" if "train_iters" in training else ", the default")
    if not run.recorded:
        return "collects nothing", (f"{head}, but its {sched} records from iteration {start}, and the run trains "
                                    f"{iters} ({length} in {shown}): nothing is recorded")
    recorded = f"iteration{'s' if len(run.recorded) > 1 else ''} {S.spans(run.recorded)} of {iters}"
    traces = len(run.traces)
    if training.get("val_interval", 0) != 0:
        # (train_engine.py at 57069cd: `val_interval > 0` with no val_dataloader raises before the loop; trainer.py
        # builds one only from data.val_dataset_param or a dataset that gives a second part)
        return "unknown", (f"{head}; its {sched} would record {recorded}, saved to {saved}; but training.val_interval "
                           f"({json.dumps(training['val_interval'])}) makes TrainEngine.train raise ValueError before "
                           "its loop where no validation dataloader was built, which is not followed here")
    return "collects", (f"{head}; its {sched} records {recorded} (0-based, one profiler.step() each; {length}; the "
                        f"loop starts at 0, no training.load), {traces} trace{'s' if traces != 1 else ''} saved to "
                        f"{saved} ({what})")
