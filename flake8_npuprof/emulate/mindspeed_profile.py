"""A launch of a Megatron-LM training script run through MindSpeed (`import mindspeed.megatron_adaptor`, then Megatron's
pretrain(): MindSpeed's tests_extend/system_tests, pretrain_gpt.py): its profiling is MindSpeed's profile feature,
switched by `--profile`. What that code does (Ascend/MindSpeed at 028de58c on Megatron-LM core_v0.12.1, run with
python 3.11 on the parts taken from the files against stub torch and torch_npu: data/sources.json mindspeed.*):

- mindspeed.megatron_adaptor applies each feature whose is_need_apply holds for the arguments MindSpeed parses at
  import (args_utils: parse_known_args, allow_abbrev=False, words its parser does not know kept by their names, so
  `--profile` is true): ProfileFeature registers train_wrapper and train_step_wrapper over Megatron's train and
  train_step only where args.profile is true and --optimization-level (default 2) is 2.
- train_wrapper sets args.profile = False (Megatron's own profiler in train() then never starts) and, on the ranks
  --profile-ranks names (Megatron's option: default [0]; -1 in it means every rank), builds torch_npu's profiler:
  activities NPU (+CPU with --profile-with-cpu), profiler_level from --profile-level (level0-level2, default
  level0), aic_metrics PipeUtilization, schedule(wait=0, warmup=0, active=end-start, repeat=1, skip_first=start) from
  --profile-step-start/-end (Megatron's: 10 and 12), traces to --profile-save-path (./profile_dir); train_step_wrapper
  steps it after each train_step, once an iteration of train()'s loop from args.iteration to --train-iters.
- Without --profile no feature profiles, and Megatron's train() starts its profiler only `if args.profile`.

Only code whose parts have the digests read (SHAPES) is answered for, and only where no other file of the two packages
names a profiler (ROUTE) outside the files read; else the answer given before stands. Where the launch's words leave
the outcome open (a run that may end early, a checkpoint loaded, the job's size), the answer says so.
"""

from __future__ import annotations

import ast
import os
import re
from typing import Dict, List, Optional, Tuple

from ..values.yaml_config import digest
from .mindspeed_mm import shaped_parts

FACTS = ("mindspeed.profile_feature", "mindspeed.train_wrapper", "mindspeed.megatron_profile")

# the digests of the parts read and run (Ascend/MindSpeed 028de58c; Megatron-LM core_v0.12.1 a845aa7e), by file under
# the folder holding the two packages: a part is a function, a class, or (`train`'s `if`s on args.profile, the
# `--profile...` definitions of _add_training_args) the statements named
SHAPES = {
    ("mindspeed/functional/profile/adaptor.py", "train_wrapper"): {"78a509ee51dc32ad"},
    ("mindspeed/functional/profile/adaptor.py", "train_step_wrapper"): {"c5718cefafe11a7d"},
    ("mindspeed/features_manager/functional/profile.py", "ProfileFeature"): {"7e6d03842f002518"},
    ("mindspeed/features_manager/feature.py", "MindSpeedFeature.is_need_apply"): {"9d80d770444f5340"},
    ("mindspeed/features_manager/auto_settings/auto_settings_feature.py", "AutoSettingsFeature.is_need_apply"):
        {"b090d6c07a43d689"},
    ("mindspeed/args_utils.py", "add_args"): {"49a023982ae981c8"},
    ("mindspeed/args_utils.py", "parser_unknown_args"): {"3ccc1077b99b5eb5"},
    ("megatron/training/training.py", "train"): {"ad10683bbc50abb0"},
    ("megatron/training/arguments.py", "_add_training_args"): {"29f04bfdfc82326a"},
}
KEEP = ("level0", "level1", "level2", "profile", "--profile-level", "--profile-with-cpu", "--profile-with-stack",
        "--profile-with-memory", "--profile-record-shapes", "--profile-save-path", "./profile_dir", "--profile",
        "--profile-step-start", "--profile-step-end", "--profile-ranks", "--use-pytorch-profiler",
        "use_pytorch_profiler", "megatron.training.training.train", "megatron.training.training.train_step",
        "-", "=", "_", "OOTB_OPTIMIZER_PARSE_ARGS", "OOTB_OPTIMIZER_PARSE_MODEL", "OOTB_OPTIMIZER_PROFILING",
        "FALSE", "TRUE", "store_true", "+", "profile_npu")
# a profiler started in a file: every file of the two packages naming one must be among these (the others name
# record_function only); auto_settings/ and core/training.py run theirs only under --auto-settings or OOTB_* (below)
ROUTE = re.compile(r"profiler\.profile\(|dynamic_profile|npu\.profile\(|cudaProfilerStart|emit_nvtx|"
                   r"_ExperimentalConfig|\.start_profile|profiler\.start\(")
ROUTED = ("megatron/training/training.py", "mindspeed/functional/profile/adaptor.py", "mindspeed/core/training.py",
          "mindspeed/auto_settings/")
# names that register core/training.py's decorators (auto_settings_feature.py: pretrain_decorator under
# --auto-settings); a file naming them elsewhere is not read here
DECORATORS = re.compile(r"\b(?:train_decorator|train_step_decorator|pretrain_decorator)\b")
DECORATED = ("mindspeed/core/training.py", "mindspeed/features_manager/auto_settings/auto_settings_feature.py")
# an assignment of args.profile (the train wrapper's and core/training.py's set it false; auto_settings/ its own
# configuration's): one elsewhere, or in the launched script, is not read here
SETS = re.compile(r"\.profile\s*=[^=]|setattr\([^)]*['\"]profile['\"]")
SETTERS = ("mindspeed/functional/profile/adaptor.py", "mindspeed/core/training.py", "mindspeed/auto_settings/")
# the launch's words on which the loop runs fewer iterations than --train-iters, or skips train_step, or training
# stops before it: left unknown where the profiler is on
ENDS_EARLY = ("--skip-train", "--exit-duration-in-mins", "--iterations-to-skip",
              "--exit-signal-handler", "--retro-project-dir")
OOTB = ("OOTB_OPTIMIZER_PARSE_ARGS", "OOTB_OPTIMIZER_PARSE_MODEL", "OOTB_OPTIMIZER_PROFILING")
MEGATRON = "Megatron-LM"
STARTS = ("load", "pretrained_checkpoint", "moe_use_upcycling", "finetune")
MAX_FILES = 4000            # files of the two packages scanned for a profiler


def _names_profile(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "profile" and getattr(n.value, "id", "") == "args"
               for n in ast.walk(node))


def _profile_ifs(func: ast.AST) -> List[ast.If]:
    """train()'s `if`s whose test reads args.profile, in order."""
    return sorted((n for n in ast.walk(func) if isinstance(n, ast.If) and _names_profile(n.test)),
                  key=lambda n: n.lineno)


def _definitions(func: ast.AST) -> List[ast.Call]:
    """_add_training_args()'s `add_argument` calls whose first word begins --profile or names the pytorch profiler."""
    return [n for n in ast.walk(func) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "add_argument"
            and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str) and
            n.args[0].value.startswith(("--profile", "--use-pytorch-profiler"))]


def part_digest(name: str, node: ast.AST) -> str:
    """The digest of a part as SHAPES holds it."""
    if name == "train":
        return digest(ast.Module(body=list(_profile_ifs(node)), type_ignores=[]), KEEP)
    if name == "_add_training_args":
        return digest(ast.Module(body=[ast.Expr(c) for c in _definitions(node)], type_ignores=[]), KEEP)
    return digest(node, KEEP)


class Code:
    """Where the parts are, as the answers name them."""

    def __init__(self, top: str, parts: Dict[str, Dict[str, ast.AST]]):
        self.top = top
        self.parts = parts
        train = parts["megatron/training/training.py"]["train"]
        self.ifs = _profile_ifs(train)
        wrapper = parts["mindspeed/functional/profile/adaptor.py"]["train_wrapper"]
        self.built = min((n.lineno for n in ast.walk(wrapper) if isinstance(n, ast.With)), default=0)
        feature = parts["mindspeed/features_manager/functional/profile.py"]["ProfileFeature"]
        self.registered = min((n.lineno for n in ast.walk(feature) if isinstance(n, ast.Call) and
                               getattr(n.func, "attr", "") == "register_patch"), default=0)


def _calls_pretrain(tree: ast.AST) -> bool:
    from .mindspeed_mm import _calls_pretrain as calls
    return calls(tree)


def _imports_adaptor(tree: ast.AST) -> bool:
    return any(isinstance(s, ast.Import) and any(a.name == "mindspeed.megatron_adaptor" and a.asname is None
                                                 for a in s.names) for s in getattr(tree, "body", []))


def _imports_pretrain(tree: ast.AST) -> bool:
    return any(isinstance(s, ast.ImportFrom) and s.module == "megatron.training" and not s.level and
               any(a.name == "pretrain" and a.asname is None for a in s.names) for s in getattr(tree, "body", []))


def recognise(ls, lookup) -> Optional[Code]:
    """The parts of MindSpeed and Megatron-LM a launched script reaches, where they are the shapes read; else None."""
    from ..values.project import load
    tree = ls.ctx.tree
    if not (_imports_adaptor(tree) and _imports_pretrain(tree) and _calls_pretrain(tree)) or \
            SETS.search(ls.ctx.src.text):
        return None
    adaptor = lookup.module(ls.ctx.filename, 0, ["mindspeed", "megatron_adaptor"])
    training = lookup.module(ls.ctx.filename, 0, ["megatron", "training", "training"])
    if adaptor is None or training is None:
        return None
    top = os.path.dirname(os.path.dirname(adaptor.path))
    if os.path.dirname(os.path.dirname(os.path.dirname(training.path))) != top:
        return None
    parts = shaped_parts(SHAPES, part_digest, lambda rel: load(os.path.join(top, *rel.split("/"))))
    if parts is None:
        return None
    if not _only_routes(top) or not _guarded(parts["megatron/training/training.py"]):
        return None
    return Code(top, parts)


def _guarded(training: Dict[str, ast.AST]) -> bool:
    """Whether every profiler training.py starts is in train(), under one of its `if`s on args.profile (which
    MindSpeed's train wrapper sets false, and which are false without --profile)."""
    train = training["train"]
    spans = [(n.lineno, getattr(n, "end_lineno", n.lineno)) for n in _profile_ifs(train)]
    starts = [n for part in training.values() for n in ast.walk(part) if isinstance(n, ast.Call) and
              ROUTE.search(ast.unparse(n.func) + "(")]
    in_train = {id(n) for n in ast.walk(train)}
    return all(id(n) in in_train and any(a <= n.lineno <= b for a, b in spans) for n in starts)


def _only_routes(top: str) -> bool:
    """Whether no file of mindspeed/ and megatron/ starts a profiler, or registers core/training.py's decorators,
    outside the files read."""
    from ..source import fence
    seen = 0
    for package in ("mindspeed", "megatron"):
        for folder, dirs, files in os.walk(os.path.join(top, package)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                seen += 1
                if seen > MAX_FILES:
                    return False
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, top).replace(os.sep, "/")
                try:
                    fence.check(path)
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                except OSError:
                    return False
                if ROUTE.search(text) and not rel.startswith(ROUTED):
                    return False
                if DECORATORS.search(text) and rel not in DECORATED or SETS.search(text) and \
                        not rel.startswith(SETTERS):
                    return False
    return True


# ---------------------------------------------------------------- the launch's words

def _defined(top: str) -> frozenset:
    """The `--` options Megatron's arguments.py and MindSpeed's features define (a word of another stops the job
    with status 2: Megatron's parse_args, allow_abbrev=False; a feature not in MindSpeed's list counts here too)."""
    from ..values.project import load
    paths = [os.path.join(top, "megatron", "training", "arguments.py")]
    for folder, dirs, files in os.walk(os.path.join(top, "mindspeed", "features_manager")):
        dirs.sort()
        paths += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".py")]
    out: set = set()
    for path in paths:
        module = load(path)
        for n in ast.walk(module.tree) if module is not None and module.tree is not None else ():
            if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "add_argument":
                out.update(a.value for a in n.args if isinstance(a, ast.Constant) and isinstance(a.value, str) and
                           a.value.startswith("--"))
    return frozenset(out)


def _words(launch) -> Optional[List[str]]:
    """The launch's words, where each is known."""
    from ..shell.parse import without_redirections
    from ..source.text import HOLE
    words = [x.text for x in without_redirections(launch.args)]
    if any(x is None or HOLE in x for x in words) or "--" in words:
        return None
    return words


def _options(words: List[str]) -> Dict[str, List[List[str]]]:
    """Each `--x` word's values, by option, as often as it is given (`--x=v`: one value; argparse reads `-1` as a
    value where no option looks like a negative number, as none of Megatron's does)."""
    out: Dict[str, List[List[str]]] = {}
    k = 0
    while k < len(words):
        w = words[k]
        k += 1
        if not w.startswith("-") or re.fullmatch(r"-\d+(\.\d*)?", w):
            continue
        option, eq, value = w.partition("=")
        values = [value] if eq else []
        while not eq and k < len(words) and (not words[k].startswith("-") or re.fullmatch(r"-\d+(\.\d*)?", words[k])):
            values.append(words[k])
            k += 1
        out.setdefault(option, []).append(values)
    return out


def _without_ranks(words: List[str]) -> List[str]:
    """The words without the values of --profile-ranks (nargs='+', which takes them all)."""
    out: List[str] = []
    skipping = False
    for w in words:
        if w.startswith("-") and not re.fullmatch(r"-\d+", w):
            skipping = w == "--profile-ranks"
        elif skipping:
            continue
        out.append(w)
    return out


def _int(values: List[str]) -> Optional[int]:
    if len(values) != 1:
        return None
    try:
        return int(values[0])
    except ValueError:
        return None


# ---------------------------------------------------------------- the answer

def follow(w, launch, ls, target, environ):
    """imported.Followed for a launch of a Megatron-LM script through MindSpeed, None for any other."""
    from .imported import Followed
    from .sys_path import launch_lookup
    if launch.msprof is not None or ls is None or ls.ctx.tree is None:
        return None
    lookup = launch_lookup(ls)
    code = recognise(ls, lookup) if lookup is not None else None
    if code is None:
        return None
    words = _words(launch)
    if words is None or any(n in launch.command.env or (environ is not None and n in environ) for n in OOTB) or \
            any(n in ls.ctx.src.text for n in OOTB) or "--auto-settings" in words:
        return None             # (AutoSettingsFeature wraps pretrain under these)
    answer = _answer(launch, code, words, _options(words))
    if answer is None:
        return None
    verdict, why = answer
    from .mindspeed_mm import _loose
    if verdict != "no profiling" and (_loose(_without_ranks(words)) or not set(_options(words)) <= _defined(code.top)):
        return None             # (where Megatron stops at the words, nothing is collected either: "no" holds)
    adaptor = os.path.relpath(os.path.join(code.top, "mindspeed", "functional", "profile", "adaptor.py"),
                              os.path.dirname(launch.script)).replace(os.sep, "/")
    profiles = {"no profiling": False, "unknown": None}.get(verdict, True)
    return Followed(verdict, f"{adaptor}, which {os.path.basename(launch.script)} reaches through "
                             f"mindspeed.megatron_adaptor: {why}", profiles)


def _answer(launch, code: Code, words: List[str], given: Dict[str, List[List[str]]]) -> Optional[Tuple[str, str]]:
    feature = f"mindspeed/features_manager/functional/profile.py:{code.registered}"
    train = f"megatron/training/training.py:{code.ifs[0].lineno}" if code.ifs else "megatron/training/training.py"
    profile = given.get("--profile")
    if profile is None:
        return "no profiling", ("the launch passes no --profile, so MindSpeed applies no profile feature "
                                "(ProfileFeature registers its train wrapper only where args.profile is true, "
                                f"{feature}) and Megatron's train() starts no profiler of its own (`if args.profile`, "
                                f"{train}): "
                                "nothing is profiled; to profile, pass --profile (with --profile-step-start, "
                                "--profile-step-end, --profile-ranks)")
    if any(v for v in profile):
        return None             # (`--profile=x`: Megatron's store_true refuses it, exit 2)
    level = given.get("--optimization-level")
    if level is not None:
        n = _int(level[-1])
        if n is None or n not in (0, 1, 2):
            return None
        if n < 2:
            return "unknown", (f"--optimization-level {n}: MindSpeed applies its profile feature only at level 2 "
                               f"({feature}), so Megatron's train() runs its own profiler (torch.profiler or "
                               f"cudaProfilerStart, {train}) under torch_npu's transfer_to_npu, not followed here")
    return _on(launch, code, given)


def _on(launch, code: Code, given) -> Optional[Tuple[str, str]]:
    from . import schedule_run as S
    from .mindspeed_mm import _span, _world

    def last_int(option: str, default: int) -> Optional[int]:
        got = given.get(option)
        return default if got is None else _int(got[-1])
    start, end = last_int("--profile-step-start", 10), last_int("--profile-step-end", 12)
    iters = last_int("--train-iters", -1)
    if "--train-samples" in given:
        return None             # (the iterations are then counted from samples, or validate_args refuses both)
    lv = given.get("--profile-level")
    level = "level0" if lv is None else (lv[-1][0] if len(lv[-1]) == 1 else None)
    if start is None or end is None or iters is None or level not in ("level0", "level1", "level2"):
        return None             # (argparse refuses them: exit 2)
    ranks_given = given.get("--profile-ranks")
    ranks: List[int] = [0]
    if ranks_given is not None:
        try:
            ranks = [int(x) for x in ranks_given[-1]]
        except ValueError:
            return None
        if not ranks:
            return None
    for switch in ("--profile-with-cpu", "--profile-with-stack", "--profile-with-memory", "--profile-record-shapes"):
        if any(v for v in given.get(switch, [])):
            return None
    saved = given.get("--profile-save-path")
    folder = "./profile_dir" if saved is None else (saved[-1][0] if len(saved[-1]) == 1 else None)
    if folder is None:
        return None
    head = f"--profile: MindSpeed's train wrapper builds torch_npu's profiler (mindspeed/functional/profile/" \
        f"adaptor.py:{code.built})"
    world, how = _world(launch)
    listed = f"--profile-ranks {' '.join(map(str, ranks))}" if ranks_given is not None else \
        "--profile-ranks is not passed: Megatron's default, [0]"
    if -1 in ranks:
        on = f"every rank ({listed})"
    elif world is not None:
        hit = sorted({r for r in ranks if 0 <= r < world})
        if not hit:
            return "collects nothing", (f"{head} only on the ranks --profile-ranks names "
                                        f"({' '.join(map(str, ranks))}), none of the {world} ({how}): no process "
                                        "starts it")
        on = f"{'rank ' + str(hit[0]) if len(hit) == 1 else 'ranks ' + _span(hit)} of the {world} ({listed}; {how})"
    elif ranks_given is None:
        on = f"rank 0 ({listed})"
    elif not any(r >= 0 for r in ranks):
        return "collects nothing", (f"{head} only on the ranks --profile-ranks names ({' '.join(map(str, ranks))}), "
                                    "none of which is a rank (a rank is 0 or more; only -1 means every rank)")
    else:
        # (rank 0 and this node's processes are there whatever the job's size)
        sure = sorted({r for r in ranks if 0 <= r < max(1, launch.ranks)})
        if not sure:
            return "unknown", (f"{head} only on the ranks --profile-ranks names ({' '.join(map(str, ranks))}), "
                               f"where the job has them, and {how}")
        on = f"{'rank ' + str(sure[0]) if len(sure) == 1 else 'ranks ' + _span(sure)} (--profile-ranks " \
            f"{' '.join(map(str, ranks))}; {how})"
    if any(o in given for o in ENDS_EARLY):
        word = next(o for o in ENDS_EARLY if o in given)
        return "unknown", (f"{head} on {on}, but {word} may end the run or skip steps before its window: what it "
                           "records is not followed here")
    if start < 0 or end - start < 1:
        return "unknown", (f"{head} on {on} with schedule(skip_first={start}, active={end - start}) from "
                           f"--profile-step-start {start} and --profile-step-end {end}, values torch_npu resets or "
                           "refuses: what it records is not followed here")
    if iters < 0:
        return "unknown", f"{head} on {on}; how many iterations the run trains (--train-iters) is not known here"
    if iters == 0:
        return None             # (Megatron core_v0.12.1 stops such a job earlier)
    trains = f"--train-iters {iters}"
    stop = last_int("--exit-interval", 0) if "--exit-interval" in given else 0
    if stop is None or stop < 0:
        return None
    if 0 < stop < iters:        # (checkpoint_and_decide_exit: the loop breaks at the first iteration it divides)
        iters, trains = stop, f"--exit-interval {stop} of --train-iters {iters}"
    first = _first(launch)
    if first:
        return "unknown", f"{head} on {on}, stepped once an iteration from args.iteration, but {first}"
    s = {"wait": 0, "warmup": 0, "active": end - start, "repeat": 1, "skip_first": start}
    run = S.replay(s, iters)
    sched = f"schedule(skip_first={start}, active={end - start}) from --profile-step-start {start} and " \
        f"--profile-step-end {end}"
    if not run.recorded:
        return "collects nothing", (f"{head} on {on}, but its {sched} records from iteration {start}, and the run "
                                    f"trains {iters} ({trains}): nothing is recorded")
    cpu = " and CPU" if "--profile-with-cpu" in given else ""
    extra = [n for o, n in (("--profile-with-stack", "with_stack"), ("--profile-with-memory", "profile_memory"),
                            ("--profile-record-shapes", "record_shapes")) if o in given]
    what = f"level L{level[-1]}, aic_metrics PipeUtilization, activities NPU{cpu}" + \
        (f", {', '.join(extra)}" if extra else "")
    cwd = launch.command.cwd[0] if len(launch.command.cwd) == 1 else None
    where = f"{folder} (in {cwd})" if cwd and not os.path.isabs(folder) else folder
    traces = len(run.traces)
    recorded = f"iteration{'s' if len(run.recorded) > 1 else ''} {S.spans(run.recorded)} of {iters} ({trains})"
    return "collects", (f"{head} on {on}; its {sched} records {recorded} (0-based, one prof.step() after each "
                        f"train_step; the loop starts at 0: no checkpoint is loaded), {traces} "
                        f"trace{'s' if traces != 1 else ''} saved to {where} ({what})")


def _first(launch) -> str:
    """Why args.iteration, where train()'s loop starts, may not be 0 ("" where it is): Megatron's
    setup_model_and_optimizer takes it from a checkpoint (--load, --pretrained-checkpoint), or 1 after upcycling."""
    from ..knowledge import global_args as K
    opts = {a["option"] for d, a in K.arguments(MEGATRON).items() if d in STARTS}
    words = [x.text for x in launch.args]
    used = sorted({w.split("=", 1)[0] for w in words if w.split("=", 1)[0] in opts})
    return f"{', '.join(used)} may load a checkpoint, whose iteration is not read here" if used else ""
