"""MindSpeed's profile feature (emulate/mindspeed_profile.py): a launch of a Megatron-LM script run through
`import mindspeed.megatron_adaptor` is answered from its --profile words. Before, every such launch was "unknown
(... megatron/training/training.py, which it imports, names one ...: a setup in a module it imports is not emulated
here)"."""

import pytest

from flake8_npuprof.cli import main

# the parts' syntax as Ascend/MindSpeed has it at 028de58c and Megatron-LM at core_v0.12.1 (strings, docstrings and
# the code around them are ours)
ADAPTOR = '''\
from functools import wraps

import torch
import torch_npu

from mindspeed.args_utils import get_full_args

PROFILE_RECORD = None


def train_wrapper(train):
    @wraps(train)
    def wrapper(*args, **kwargs):
        args_ = get_full_args()
        if args_.profile:
            args_.profile_npu = True
            args_.profile = False
        else:
            args_.profile_npu = False

        is_profile = hasattr(args_, 'profile_npu') and args_.profile_npu \\
                and ((torch.distributed.get_rank() in args_.profile_ranks) or (-1 in args_.profile_ranks))
        if is_profile:
            global PROFILE_RECORD
            active = args_.profile_step_end - args_.profile_step_start
            skip_first = args_.profile_step_start

            if args_.profile_with_cpu:
                activities = [torch_npu.profiler.ProfilerActivity.NPU, torch_npu.profiler.ProfilerActivity.CPU]
            else:
                activities = [torch_npu.profiler.ProfilerActivity.NPU]

            level2level = {
                'level0': torch_npu.profiler.ProfilerLevel.Level0,
                'level1': torch_npu.profiler.ProfilerLevel.Level1,
                'level2': torch_npu.profiler.ProfilerLevel.Level2
            }
            profiler_level = level2level[args_.profile_level]

            experimental_config = torch_npu.profiler._ExperimentalConfig(
                aic_metrics=torch_npu.profiler.AiCMetrics.PipeUtilization,
                profiler_level=profiler_level,
                l2_cache=False
            )

            with torch_npu.profiler.profile(
                activities=activities,
                record_shapes=args_.profile_record_shapes,
                profile_memory=args_.profile_with_memory,
                with_stack=args_.profile_with_stack,
                experimental_config=experimental_config,
                schedule=torch_npu.profiler.schedule(wait=0, warmup=0, active=active, repeat=1, skip_first=skip_first),
                on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(args_.profile_save_path)
            ) as prof:
                PROFILE_RECORD = prof
                return train(*args, **kwargs)
        return train(*args, **kwargs)

    return wrapper


def train_step_wrapper(train_step):
    @wraps(train_step)
    def wrapper(*args, **kwargs):
        args_ = get_full_args()
        ret = train_step(*args, **kwargs)
        is_profile = args_.profile_npu and (
                (torch.distributed.get_rank() in args_.profile_ranks)
                or (-1 in args_.profile_ranks)
        )
        if is_profile:
            global PROFILE_RECORD
            PROFILE_RECORD.step()
        return ret

    return wrapper
'''

FEATURE = '''\
from argparse import ArgumentParser, Namespace


class MindSpeedFeature:
    """Ours."""

    def __init__(self, feature_name: str, optimization_level: int = 2):
        self.feature_name = feature_name.lower().strip().replace('-', '_')
        self.optimization_level = optimization_level
        self.default_patches = self.optimization_level == 0

    def is_need_apply(self, args):
        """Ours."""
        return (self.optimization_level <= args.optimization_level and getattr(args, self.feature_name, None)) \\
            or self.default_patches
'''

PROFILE_FEATURE = '''\
from argparse import ArgumentParser

from mindspeed.features_manager.feature import MindSpeedFeature


class ProfileFeature(MindSpeedFeature):

    def __init__(self):
        super().__init__('profile', optimization_level=2)

    def register_args(self, parser: ArgumentParser):
        group = parser.add_argument_group(title=self.feature_name)
        group.add_argument("--profile-level", type=str, default='level0',
                           choices=['level0', 'level1', 'level2'],
                           help="ours")
        group.add_argument("--profile-with-cpu", action='store_true', default=False,
                           help="ours")
        group.add_argument("--profile-with-stack", action='store_true', default=False,
                           help="ours")
        group.add_argument("--profile-with-memory", action='store_true', default=False,
                           help="ours")
        group.add_argument("--profile-record-shapes", action='store_true', default=False,
                           help="ours")
        group.add_argument("--profile-save-path", type=str, default='./profile_dir',
                           help="ours")

    def register_patches(self, patch_manager, args):
        from mindspeed.functional.profile.adaptor import train_wrapper, train_step_wrapper
        patch_manager.register_patch('megatron.training.training.train', train_wrapper)
        patch_manager.register_patch('megatron.training.training.train_step', train_step_wrapper)
'''

AUTO_SETTINGS = '''\
import os

from mindspeed.features_manager.feature import MindSpeedFeature


class AutoSettingsFeature(MindSpeedFeature):

    def is_need_apply(self, args):
        return args.auto_settings or os.getenv("OOTB_OPTIMIZER_PARSE_ARGS", "FALSE") == "TRUE" \\
            or os.getenv("OOTB_OPTIMIZER_PARSE_MODEL", "FALSE") == "TRUE" \\
            or os.getenv("OOTB_OPTIMIZER_PROFILING", "FALSE") == "TRUE"

    def register_args(self, parser):
        parser.add_argument("--auto-settings", action="store_true")
'''

ARGS_UTILS = '''\
def add_args(args, key, value):
    if key is not None:
        key = key[2:].replace('-', '_')
        if value is None:
            value = True
        elif len(value) == 1:
            value = value[0]
        args[key] = value


def parser_unknown_args(args, unknown):
    i = 0
    key = value = None
    while i < len(unknown):
        if unknown[i].startswith('-'):
            add_args(args, key, value)
            splits = unknown[i].split('=', maxsplit=1)
            key, value = (unknown[i], None) if len(splits) == 1 else (splits[0], [splits[1]])
        else:
            if value is None:
                value = [unknown[i]]
            else:
                value.append(unknown[i])
        i += 1
    add_args(args, key, value)
    return args


def get_full_args():
    return None
'''

TRAINING = '''\
import torch


def train_step(step_func):
    return step_func()


def train(step_func, args, iteration):
    prof = None
    if args.profile and torch.distributed.get_rank() in args.profile_ranks and args.use_pytorch_profiler:
        prof = torch.profiler.profile(
        schedule=torch.profiler.schedule(
            wait=max(args.profile_step_start-1, 0),
            warmup=1 if args.profile_step_start > 0 else 0,
            active=args.profile_step_end-args.profile_step_start,
            repeat=1),
        on_trace_ready=torch.profiler.tensorboard_trace_handler(args.tensorboard_dir),
        record_shapes=True,
        with_stack=True)
        prof.start()
    while iteration < args.train_iters:
        if args.profile and torch.distributed.get_rank() in args.profile_ranks:
            if args.use_pytorch_profiler:
                prof.step()
            elif iteration == args.profile_step_start:
                torch.cuda.cudart().cudaProfilerStart()
                torch.autograd.profiler.emit_nvtx(record_shapes=True).__enter__()
        train_step(step_func)
        iteration += 1


def pretrain(step_func):
    pass
'''

ARGUMENTS = '''\
def _add_training_args(parser):
    group = parser.add_argument_group(title='ours')
    group.add_argument('--train-iters', type=int, default=None)
    group.add_argument('--exit-interval', type=int, default=None)
    group.add_argument('--load', type=str, default=None)
    group.add_argument('--profile', action='store_true',
                       help='ours')
    group.add_argument('--profile-step-start', type=int, default=10,
                       help='ours')
    group.add_argument('--profile-step-end', type=int, default=12,
                       help='ours')
    group.add_argument('--use-pytorch-profiler', action='store_true',
                       help='ours',
                       dest='use_pytorch_profiler')
    group.add_argument('--profile-ranks', nargs='+', type=int, default=[0],
                       help='ours')
    return parser
'''

SCRIPT = '''\
import torch
import mindspeed.megatron_adaptor
from megatron.training import pretrain


def step():
    return None


if __name__ == "__main__":
    pretrain(step)
'''

FILES = {
    "mindspeed/__init__.py": "",
    "mindspeed/megatron_adaptor.py": "from torch_npu.contrib import transfer_to_npu\n",
    "mindspeed/args_utils.py": ARGS_UTILS,
    "mindspeed/features_manager/__init__.py": "",
    "mindspeed/features_manager/feature.py": FEATURE,
    "mindspeed/features_manager/megatron_basic/requirements_basic.py":
        "def register_args(parser):\n    parser.add_argument('--optimization-level', type=int, choices=[0, 1, 2])\n",
    "mindspeed/features_manager/functional/__init__.py": "",
    "mindspeed/features_manager/functional/profile.py": PROFILE_FEATURE,
    "mindspeed/features_manager/auto_settings/__init__.py": "",
    "mindspeed/features_manager/auto_settings/auto_settings_feature.py": AUTO_SETTINGS,
    "mindspeed/functional/__init__.py": "",
    "mindspeed/functional/profile/__init__.py": "",
    "mindspeed/functional/profile/adaptor.py": ADAPTOR,
    "megatron/__init__.py": "",
    "megatron/training/__init__.py": "from .training import pretrain\n",
    "megatron/training/training.py": TRAINING,
    "megatron/training/arguments.py": ARGUMENTS,
    "pretrain_gpt.py": SCRIPT,
}

HEAD = "mindspeed/functional/profile/adaptor.py, which pretrain_gpt.py reaches through mindspeed.megatron_adaptor: "
# the answer given before (and where the parts are not the shapes read)
BEFORE = ("pretrain_gpt.py has no profiling setup of its own, but megatron/training/training.py, which it imports, "
          "names one (line 11: `prof = torch.profiler.profile(`): a setup in a module it imports is not emulated "
          "here")


def _answer(capsys, tmp_path, flags="", launcher="torchrun --nproc_per_node 2 --nnodes 1", env="", files=None):
    for rel, text in dict(FILES, **(files or {})).items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (tmp_path / "run.sh").write_text(f"{env}{launcher} pretrain_gpt.py --train-iters 20 {flags}\n")
    main(["emulate", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    out = capsys.readouterr().out.splitlines()
    return next((line for line in out if line.startswith((HEAD, "pretrain_gpt.py has"))), None), \
        [x for x in out if x.startswith("usable")][0]


NO = ("the launch passes no --profile, so MindSpeed applies no profile feature (ProfileFeature registers its train "
      "wrapper only where args.profile is true, mindspeed/features_manager/functional/profile.py:29) and Megatron's "
      "train() starts no profiler of its own (`if args.profile`, megatron/training/training.py:10): nothing is "
      "profiled; to profile, pass --profile (with --profile-step-start, --profile-step-end, --profile-ranks)")


def test_no_profile_is_no(capsys, tmp_path):
    assert _answer(capsys, tmp_path, "--profile-level level1") == (HEAD + NO, f"usable data: no ({HEAD}{NO})")


ON = ("--profile: MindSpeed's train wrapper builds torch_npu's profiler (mindspeed/functional/profile/adaptor.py:46) "
      "on {}; its schedule(skip_first=2, active=3) from --profile-step-start 2 and --profile-step-end 5 records "
      "iterations 2-4 of {} (0-based, one prof.step() after each train_step; the loop starts at 0: no checkpoint "
      "is loaded), 1 trace saved to ./prof (in {}) (level L1, aic_metrics PipeUtilization, activities NPU and CPU, "
      "with_stack)")
STEPS = "--profile --profile-step-start 2 --profile-step-end 5 --profile-level level1 --profile-with-cpu " \
    "--profile-with-stack --profile-save-path ./prof"


def test_profile_collects_on_rank_0_by_default(capsys, tmp_path):
    on = "rank 0 of the 2 (--profile-ranks is not passed: Megatron's default, [0]; torchrun --nnodes 1 " \
        "--nproc_per_node 2)"
    assert _answer(capsys, tmp_path, STEPS) == (HEAD + ON.format(on, "20 (--train-iters 20)", tmp_path),
                                                "usable data: yes")


def test_profile_ranks_minus_1_is_every_rank(capsys, tmp_path):
    on = "every rank (--profile-ranks -1)"
    assert _answer(capsys, tmp_path, STEPS + " --profile-ranks -1")[0] == \
        HEAD + ON.format(on, "20 (--train-iters 20)", tmp_path)


def test_profile_ranks_of_the_job(capsys, tmp_path):
    on = "rank 1 of the 2 (--profile-ranks 1 7; torchrun --nnodes 1 --nproc_per_node 2)"
    assert _answer(capsys, tmp_path, STEPS + " --profile-ranks 1 7")[0] == \
        HEAD + ON.format(on, "20 (--train-iters 20)", tmp_path)
    assert _answer(capsys, tmp_path, STEPS + " --profile-ranks 7") == (
        HEAD + "--profile: MindSpeed's train wrapper builds torch_npu's profiler (mindspeed/functional/profile/"
        "adaptor.py:46) only on the ranks --profile-ranks names (7), none of the 2 (torchrun --nnodes 1 "
        "--nproc_per_node 2): no process starts it", f"usable data: no (run.sh:1: collects nothing: {HEAD}--profile: "
        "MindSpeed's train wrapper "
        "builds torch_npu's profiler (mindspeed/functional/profile/adaptor.py:46) only on the ranks --profile-ranks "
        "names (7), none of the 2 (torchrun --nnodes 1 --nproc_per_node 2): no process starts it)")


def test_profile_ranks_past_this_node_are_unknown_on_more_nodes(capsys, tmp_path):
    line, verdict = _answer(capsys, tmp_path, STEPS + " --profile-ranks 7", launcher="torchrun --nproc_per_node 2")
    assert line == HEAD + (
        "--profile: MindSpeed's train wrapper builds torch_npu's profiler (mindspeed/functional/profile/adaptor.py:46)"
        " only on the ranks --profile-ranks names (7), where the job has them, and the job's size is not known here "
        "(torchrun without --nnodes 1)")
    assert verdict.startswith("usable data: unknown")


def test_exit_interval_ends_the_loop(capsys, tmp_path):
    assert _answer(capsys, tmp_path, STEPS + " --exit-interval 6")[0] == \
        HEAD + ON.format("rank 0 of the 2 (--profile-ranks is not passed: Megatron's default, [0]; torchrun "
                         "--nnodes 1 --nproc_per_node 2)",
                         "6 (--exit-interval 6 of --train-iters 20)", tmp_path)
    line, verdict = _answer(capsys, tmp_path, STEPS + " --exit-interval 2")
    assert verdict.startswith("usable data: no") and line.endswith(
        "records from iteration 2, and the run trains 2 (--exit-interval 2 of --train-iters 20): nothing is recorded")


def test_default_window_past_the_run_collects_nothing(capsys, tmp_path):
    line, verdict = _answer(capsys, tmp_path, "--profile --train-iters 8")
    assert line == HEAD + (
        "--profile: MindSpeed's train wrapper builds torch_npu's profiler (mindspeed/functional/profile/adaptor.py:46)"
        " on rank 0 of the 2 (--profile-ranks is not passed: Megatron's default, [0]; torchrun --nnodes 1 "
        "--nproc_per_node 2), but its schedule(skip_first=10, "
        "active=2) from --profile-step-start 10 and --profile-step-end 12 records from iteration 10, and the run "
        "trains 8 (--train-iters 8): nothing is recorded")
    assert verdict == f"usable data: no (run.sh:1: collects nothing: {line})"


def test_a_checkpoint_loaded_leaves_it_unknown(capsys, tmp_path):
    line, verdict = _answer(capsys, tmp_path, STEPS + " --load ckpt")
    assert line.endswith("stepped once an iteration from args.iteration, but --load may load a checkpoint, whose "
                         "iteration is not read here")
    assert verdict.startswith("usable data: unknown")


def test_optimization_level_below_2_is_unknown(capsys, tmp_path):
    line, verdict = _answer(capsys, tmp_path, "--profile --optimization-level 1")
    assert line == HEAD + (
        "--optimization-level 1: MindSpeed applies its profile feature only at level 2 (mindspeed/features_manager/"
        "functional/profile.py:29), so Megatron's train() runs its own profiler (torch.profiler or cudaProfilerStart, "
        "megatron/training/training.py:10) under torch_npu's transfer_to_npu, not followed here")
    assert verdict.startswith("usable data: unknown")


@pytest.mark.parametrize("files,flags", [
    # a modified copy of the train wrapper, another profiler in the packages, core/training.py's decorator registered
    ({"mindspeed/functional/profile/adaptor.py": ADAPTOR.replace("repeat=1", "repeat=2")}, STEPS),
    ({"mindspeed/core/other.py": "import torch_npu\nprof = torch_npu.profiler.profile()\n"}, ""),
    ({"mindspeed/core/patch.py": "from mindspeed.core.training import train_decorator\n"}, ""),
    # args.profile set elsewhere: in the packages, in the script
    ({"megatron/training/initialize.py": "def init(args):\n    args.profile = True\n"}, ""),
    ({"pretrain_gpt.py": SCRIPT.replace("    return None", "    get_args().profile = True")}, ""),
    # an option no parser defines stops the job: a "yes" is not said
    ({}, STEPS + " --no-such-option"),
    # AutoSettingsFeature wraps pretrain
    ({}, "--auto-settings"),
])
def test_what_is_not_read_keeps_the_answer_it_had(capsys, tmp_path, files, flags):
    assert _answer(capsys, tmp_path, flags, files=files) == (BEFORE, f"usable data: unknown (run.sh:1: {BEFORE})")


def test_an_ootb_variable_keeps_the_answer_it_had(capsys, tmp_path):
    assert _answer(capsys, tmp_path, env="OOTB_OPTIMIZER_PROFILING=TRUE ")[0] == BEFORE


def _runs():
    import json
    import os
    with open(os.path.join(os.path.dirname(__file__), "data", "mindspeed_profile_runs.json")) as f:
        runs = json.load(f)["runs"]
    by: dict = {}
    for run in runs:
        by.setdefault(tuple(run["words"]), []).append(run)
    return sorted(by.items())


@pytest.mark.parametrize("words,runs", _runs())
def test_answers_agree_with_what_mindspeed_did(capsys, tmp_path, words, runs):
    # tests/data/mindspeed_profile_runs.py ran MindSpeed 028de58c's parts on these words, rank 0 and rank 1 of 2
    import ast
    import re
    line, verdict = _answer(capsys, tmp_path, " ".join(words))
    profiled = [r["rank"] for r in runs if r["calls"]]
    if not any(r["applied"] or r["args.profile in train()"] for r in runs):
        assert verdict.startswith("usable data: no") and "passes no --profile" in line
        return
    if not runs[0]["applied"]:           # Megatron's own profiler (--optimization-level 1): not followed
        assert verdict.startswith("usable data: unknown") and "--optimization-level 1" in line
        return
    assert verdict == "usable data: yes"
    on = re.search(r"\) on (every rank|rank (\d+) of the 2)", line)
    assert on and (profiled == [0, 1] if on.group(1) == "every rank" else profiled == [int(on.group(2))])
    calls = {c[0]: c for c in next(r for r in runs if r["calls"])["calls"]}
    s = calls["schedule"][2]
    assert (s["wait"], s["warmup"], s["repeat"]) == (0, 0, 1)
    assert f"schedule(skip_first={s['skip_first']}, active={s['active']})" in line
    level = calls["_ExperimentalConfig"][2]["profiler_level"]
    assert f"level L{level[-1]}, aic_metrics {calls['_ExperimentalConfig'][2]['aic_metrics']}, activities NPU" + \
        (" and CPU" if "CPU" in calls["profile"][2]["activities"] else "") in line
    assert f"saved to {ast.literal_eval(calls['tensorboard_trace_handler'][1][0])} (in " in line
    # one step() after each of the 20 train_steps on the profiled ranks
    assert {r["steps"] for r in runs if r["calls"]} == {20}
