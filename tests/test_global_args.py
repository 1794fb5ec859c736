"""A Megatron-style launch (MindSpeed-LLM's way to profile): `torchrun pretrain.py --profile --profile-step-start 5
...` where the script has no profiler of its own, and a module it imports builds torch_npu's profiler from
`args = get_args()`, the one namespace the framework parsed. The options come from a features module of the project
(`group.add_argument` in a method that takes the parser) and from Megatron-LM, which is not in the project: what the
launch passes is known, a Megatron default it does not pass is not (emulate/global_args.py)."""

import os

import pytest

from flake8_npuprof.cli import main

PRETRAIN = """\
from megatron.training import get_args
from core.training import pretrain


def model_provider():
    args = get_args()
    return args.hidden_size


if __name__ == "__main__":
    pretrain(model_provider)
"""

FEATURES = """\
class ProfilingFeature:
    def register_args(self, parser):
        group = parser.add_argument_group(title="profiling")
        group.add_argument("--profile-level", type=str, default="level0",
                           choices=["level_none", "level0", "level1", "level2"])
        group.add_argument("--profile-with-cpu", action="store_true")
        group.add_argument("--profile-save-path", type=str, default="./profile_dir")
"""

TRAINING = """\
import torch
import torch_npu
from megatron.training import get_args
from core.features import ProfilingFeature


def is_profile_enabled():
    args = get_args()
    if not args.profile:
        return False
    if args.profile_ranks == [-1]:
        return True
    if torch.distributed.get_rank() in args.profile_ranks:
        return True
    return False


def get_profiler():
    args = get_args()
    if args.profile_level == "level1":
        level = torch_npu.profiler.ProfilerLevel.Level1
    else:
        level = torch_npu.profiler.ProfilerLevel.Level0
    experimental_config = torch_npu.profiler._ExperimentalConfig(profiler_level=level)
    skip_first = args.profile_step_start - args.iteration - 2
    active = args.profile_step_end - args.profile_step_start
    if args.profile_step_start == args.iteration + 1:
        warmup = 0
    elif args.profile_step_start > args.iteration + 1:
        warmup = 1
    else:
        raise AssertionError("profile_step_start should be greater than the iteration")
    activities = [torch_npu.profiler.ProfilerActivity.NPU]
    if args.profile_with_cpu:
        activities.append(torch_npu.profiler.ProfilerActivity.CPU)
    prof = torch_npu.profiler.profile(
        activities=activities,
        schedule=torch_npu.profiler.schedule(wait=0, warmup=warmup, active=active, repeat=1, skip_first=skip_first),
        on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(args.profile_save_path),
        experimental_config=experimental_config)
    return prof


def train():
    args = get_args()
    iteration = args.iteration
    if is_profile_enabled():
        prof = get_profiler()
        prof.start()
    while iteration < args.train_iters:
        iteration += 1
        if is_profile_enabled():
            prof.step()
    if is_profile_enabled():
        prof.stop()


def pretrain(model_provider):
    model_provider()
    train()
"""

LAUNCHER = """\
#!/bin/bash
torchrun --nproc_per_node 8 pretrain.py --train-iters 20 "$@"
"""

PROFILE = ["--profile", "--profile-step-start", "5", "--profile-step-end", "6", "--profile-ranks", "0",
           "--profile-level", "level1", "--profile-with-cpu", "--profile-save-path", "./profile_dir"]


@pytest.fixture
def project(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "core" / "__init__.py").write_text("")
    (tmp_path / "core" / "features.py").write_text(FEATURES)
    (tmp_path / "core" / "training.py").write_text(TRAINING)
    (tmp_path / "pretrain.py").write_text(PRETRAIN)
    (tmp_path / "run.sh").write_text(LAUNCHER)
    return tmp_path


def _emulate(capsys, project, args):
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(project), "--",
          "bash", "run.sh"] + args)
    return capsys.readouterr().out.splitlines()[2:]       # after the target and the launch's command


def test_the_flags_reach_the_profiler_through_get_args(capsys, project):
    assert _emulate(capsys, project, PROFILE) == [
        "  started 8 times (one per rank, by torchrun)",
        "  `is_profile_enabled()` holds on rank 0 only (torch.distributed.get_rank()): the other ranks do not profile",
        "  training.py:36 profile: activities: CPU, NPU; profiler_level Level1; export_type text",
        "  training.py:36 profile: schedule: wait=0, active=1, warmup=1, repeat=1, skip_first=3 (line 38): records "
        "from step 4",
        "  training.py:36 profile: steps recorded: from step 4, if the loop runs more than 4 steps",
        f"  training.py:36 profile: output directory: {project}/profile_dir (tensorboard_trace_handler, line 39)",
        "  training.py:36 profile: steps recorded when the loop runs 5 steps or more: 4 (1 trace saved)",
        "core/training.py, which pretrain.py imports: line 36 of training.py, when is_profile_enabled(): on rank 0 only: the "
        "schedule records from step 4; whether the loop runs that long is not known here",
        "usable data: unknown (run.sh:2: core/training.py, which pretrain.py imports: line 36 of training.py, when "
        "is_profile_enabled(): on rank 0 only: the schedule records from step 4; whether the loop runs that long is "
        "not known here)"]


def test_the_steps_a_longer_window_records(capsys, project):
    # start 3, end 8: skip_first 1, warmup 1, active 5: steps 2-6, counted from 0 (the step before the first
    # prof.step() is step 0), once the loop runs 7 steps
    out = _emulate(capsys, project, PROFILE + ["--profile-step-start", "3", "--profile-step-end", "8"])
    assert "  training.py:36 profile: steps recorded when the loop runs 7 steps or more: 2-6 (1 trace saved)" in out


def test_every_rank_with_profile_ranks_minus_one(capsys, project):
    out = _emulate(capsys, project, PROFILE + ["--profile-ranks", "-1"])
    assert out[1] == "  `is_profile_enabled()` is true on every rank in this launch"
    assert out[-2].startswith("core/training.py, which pretrain.py imports: line 36 of training.py: the schedule records from step 4")


def test_a_megatron_default_is_not_guessed(capsys, project):
    # --profile-step-end is Megatron-LM's, whose code is not in the project: not passed, its default is unknown
    args = [a for a in PROFILE if a not in ("--profile-step-end", "6")]
    out = _emulate(capsys, project, args)
    assert "  training.py:36 profile: schedule: not known here (a value computed at run time, or one torch_npu " \
        "resets: see npuprof check)" in out
    assert "  training.py:36 profile: schedule's active is not known: --profile-step-end is not passed, and its " \
        "definition (Megatron-LM's) is not in this project: its default is not known here (the Megatron-LM release " \
        "the job runs with decides it, and the project pins none)" in out


def test_the_iteration_of_a_loaded_checkpoint_is_not_known(capsys, project):
    # Megatron-LM (core_v0.12.1, the release MindSpeed-LLM pins) reads DIR/latest_checkpointed_iteration.txt to find
    # the checkpoint, then takes the iteration saved in it: the answer names the file, and whether it is on disk here
    out = _emulate(capsys, project, PROFILE + ["--load", "/nonexistent/ckpt"])
    assert "  training.py:36 profile: schedule's skip_first is not known: args.iteration is set when the job loads a " \
        "checkpoint: Megatron-LM reads /nonexistent/ckpt/latest_checkpointed_iteration.txt (--load from run.sh:2; " \
        "not on disk here) to find it, then takes the iteration saved in the checkpoint; neither is read here" in out
    assert out[-2] == ("core/training.py, which pretrain.py imports: line 36 of training.py, when is_profile_enabled(): on rank 0 "
                       "only: the schedule's values are not known here")
    # a relative directory is the launch's; the tracker on disk is named, not read (the iteration is the checkpoint's)
    (project / "ckpt").mkdir()
    (project / "ckpt" / "latest_checkpointed_iteration.txt").write_text("12\n")
    out = _emulate(capsys, project, PROFILE + ["--load", "ckpt", "--pretrained-checkpoint", "/base"])
    assert "  training.py:36 profile: schedule's skip_first is not known: args.iteration is set when the job loads a " \
        f"checkpoint: Megatron-LM reads {project}/ckpt/latest_checkpointed_iteration.txt (--load from run.sh:2; on " \
        "disk here) or /base/latest_checkpointed_iteration.txt (--pretrained-checkpoint from run.sh:2; not on disk " \
        "here) to find it, then takes the iteration saved in the checkpoint; neither is read here" in out


def test_a_finetune_run_starts_at_iteration_0(capsys, project):
    # Megatron-LM's load_checkpoint: `if args.finetune or release: iteration = 0` (and 0 where no checkpoint is
    # found): MindSpeed-LLM's qwen2_moe_tp1_pp2_ep2_cp2_32k.sh passes --load and --finetune, and the answer said the
    # job "takes the iteration saved in the checkpoint", which a --finetune run does not
    out = _emulate(capsys, project, PROFILE + ["--load", "/nonexistent/ckpt", "--finetune"])
    assert "  training.py:36 profile: schedule: wait=0, active=1, warmup=1, repeat=1, skip_first=3 (line 38): records " \
        "from step 4" in out
    assert not any("iteration" in line and "not known" in line for line in out)
    # with an upcycling too, what it sets is not followed: still not known
    out = _emulate(capsys, project, PROFILE + ["--load", "/ckpt", "--finetune", "--moe-use-upcycling"])
    assert "  training.py:36 profile: schedule's skip_first is not known: args.iteration is the iteration of the " \
        "checkpoint it loads (or 1 after an upcycling), known only when the job starts (--load from run.sh:2)" in out


def test_the_iteration_after_an_upcycling_is_not_known(capsys, project):
    out = _emulate(capsys, project, PROFILE + ["--load", "/ckpt", "--moe-use-upcycling"])
    assert "  training.py:36 profile: schedule's skip_first is not known: args.iteration is the iteration of the " \
        "checkpoint it loads (or 1 after an upcycling), known only when the job starts (--load from run.sh:2)" in out


def test_a_start_step_the_run_has_passed_fails_before_the_profiler_is_made(capsys, project):
    # the line that raises is training.py's (the answer said a bare "line 32", read as pretrain.py's)
    args = [("0" if a == "5" else a) for a in PROFILE]
    out = _emulate(capsys, project, args)
    assert out[-1] == (
        "usable data: no (run.sh:2: fails: core/training.py, which pretrain.py imports: line 36 of training.py, when "
        "is_profile_enabled(): on rank 0 only: line 32 of training.py raises AssertionError before the profiler is "
        "made "
        "(`args.profile_step_start == args.iteration + 1` is false; `args.profile_step_start > args.iteration + 1` is "
        "false in this launch))")


def test_a_negative_active_is_what_torch_npu_resets(capsys, project):
    # torch_npu 6.0.rc3 to 26.2 resets active <= 0 to 1 with a warning (tests/oracle/torch_npu/records.jsonl,
    # schedule.active.negative): the replay keeps 1, and the launch's answer shows the check's finding on it
    args = [("4" if a == "6" else a) for a in PROFILE]
    out = _emulate(capsys, project, args)
    assert "  training.py:36 profile: schedule: wait=0, active=1, warmup=1, repeat=1, skip_first=3 (line 38): records " \
        "from step 4" in out
    assert "  training.py:36 profile: ! NPP300 active=-1 is not positive: torch_npu 26.1 resets it to 1 with a " \
        "warning on rank 0 only; write a whole number of at least 1" in out


def test_a_start_step_of_1_is_a_skip_first_torch_npu_resets(capsys, project):
    # MindSpeed-LLM's get_profiler: --profile-step-start 1 from iteration 0 gives skip_first=-1 and warmup=0, which
    # torch_npu 6.0.rc3 to 26.2 keeps as 0 with `Invalid parameter skip_first, reset it to 0.` (the record,
    # schedule.skip_first.negative): steps 0-1 are recorded. It said the schedule was not known
    args = [{"5": "1", "6": "3"}.get(a, a) for a in PROFILE]
    out = _emulate(capsys, project, args)
    assert out[2:8] == [
        "  training.py:36 profile: activities: CPU, NPU; profiler_level Level1; export_type text",
        "  training.py:36 profile: schedule: wait=0, active=2, repeat=1 (line 38): records from step 0",
        "  training.py:36 profile: steps recorded: from step 0 (the loop's length is not known here)",
        f"  training.py:36 profile: output directory: {project}/profile_dir (tensorboard_trace_handler, line 39)",
        "  training.py:36 profile: steps recorded when the loop runs 2 steps or more: 0-1 (1 trace saved)",
        "  training.py:36 profile: ! NPP300 skip_first=-1 is negative: torch_npu 26.1 resets it to 0 with a warning "
        "on rank 0 only; write a whole number of at least 0"]


def test_a_metric_the_launchs_level_drops_is_said(capsys, project):
    # MindSpeed-LLM's get_profiler asks for AiCMetrics.PipeUtilization at the level --profile-level picks: at
    # level0 (its default) torch_npu drops the metric with a warning on rank 0. The answer showed AiCoreNone only
    text = TRAINING.replace("_ExperimentalConfig(profiler_level=level)",
                            "_ExperimentalConfig(aic_metrics=torch_npu.profiler.AiCMetrics.PipeUtilization, "
                            "profiler_level=level)")
    (project / "core" / "training.py").write_text(text)
    out = _emulate(capsys, project, [{"level1": "level0"}.get(a, a) for a in PROFILE])
    assert out[2] == "  training.py:36 profile: activities: CPU, NPU; profiler_level Level0; aic_metrics AiCoreNone; " \
        "export_type text"
    assert out[7] == (
        "  training.py:36 profile: ! NPP302 aic_metrics PipeUtilization with profiler_level Level0: torch_npu 26.1 "
        "drops it with a warning on rank 0 only; AI Core metrics are collected at Level1 and Level2 only (it becomes "
        "AiCoreNone): add profiler_level=ProfilerLevel.Level1 to collect it")
    # at level1 the metric is kept: nothing is said
    out = _emulate(capsys, project, PROFILE)
    assert not any("!" in line for line in out)


def test_a_local_the_function_changes_is_not_decided(capsys, project):
    # `n` is changed after it is read from the namespace: the test on it is not decided, so the raise is not claimed
    text = TRAINING.replace('''    activities = [torch_npu.profiler.ProfilerActivity.NPU]
''', '''    n = args.iteration
    n += 1
    if n == 1:
        raise ValueError("not decided here")
    activities = [torch_npu.profiler.ProfilerActivity.NPU]
''')
    (project / "core" / "training.py").write_text(text)
    out = _emulate(capsys, project, PROFILE)
    assert out[-1].startswith("usable data: unknown (run.sh:2: core/training.py, which pretrain.py imports: line 40 of training.py, "
                              "when is_profile_enabled(): on rank 0 only: the schedule records from step 4")


def test_a_list_option_given_twice_or_with_an_equals_sign(capsys, project):
    assert _emulate(capsys, project, PROFILE + ["--profile-ranks", "1", "2"])[1] == (
        "  `is_profile_enabled()` holds on ranks 1, 2 only (torch.distributed.get_rank()): the other ranks do not "
        "profile")
    assert _emulate(capsys, project, PROFILE + ["--profile-ranks=3"])[1] == (
        "  `is_profile_enabled()` holds on rank 3 only (torch.distributed.get_rank()): the other ranks do not profile")


def test_without_profile_the_megatron_switch_is_not_guessed(capsys, project):
    # --profile is Megatron-LM's: not passed, whether it is on is not known (never "off")
    out = _emulate(capsys, project, PROFILE[1:])
    assert out[-1].startswith("usable data: unknown (run.sh:2: core/training.py, which pretrain.py imports: line 36 of training.py, "
                              "when is_profile_enabled(): the schedule records from step 4")


GLOBAL_VARS = """\
_GLOBAL_ARGS = None


def get_args():
    return _GLOBAL_ARGS


def set_args(args):
    global _GLOBAL_ARGS
    _GLOBAL_ARGS = args
"""

ARGUMENTS = """\
import argparse

from core.features import ProfilingFeature


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--profile-step-start", type=int, default=10)
    parser.add_argument("--profile-step-end", type=int, default=-1)
    parser.add_argument("--profile-ranks", nargs="+", type=int, default=[0])
    parser.add_argument("--train-iters", type=int, default=100)
    ProfilingFeature().register_args(parser)
    return parser.parse_args()
"""


@pytest.fixture
def own_accessor(project):
    # the project's own get_args() (a module global another function sets) and every option defined on disk
    (project / "core" / "global_vars.py").write_text(GLOBAL_VARS)
    (project / "core" / "arguments.py").write_text(ARGUMENTS)
    (project / "core" / "training.py").write_text(
        TRAINING.replace("from megatron.training import get_args", "from core.global_vars import get_args")
        .replace("args.iteration", "0"))
    (project / "pretrain.py").write_text(
        PRETRAIN.replace("from megatron.training import get_args",
                         "from core.global_vars import get_args, set_args\nfrom core.arguments import parse_args"))
    return project


def test_the_projects_own_accessor_and_defaults(capsys, own_accessor):
    out = _emulate(capsys, own_accessor, PROFILE)
    assert out[1:5] == [
        "  `is_profile_enabled()` holds on rank 0 only (torch.distributed.get_rank()): the other ranks do not profile",
        "  training.py:36 profile: activities: CPU, NPU; profiler_level Level1; export_type text",
        "  training.py:36 profile: schedule: wait=0, active=1, warmup=1, repeat=1, skip_first=3 (line 38): records "
        "from step 4",
        "  training.py:36 profile: steps recorded: from step 4, if the loop runs more than 4 steps"]
    # the project's default of --profile is False: nothing is profiled, on any rank
    out = _emulate(capsys, own_accessor, PROFILE[1:])
    assert out[1] == "  `is_profile_enabled()` is false in this launch"
    assert out[-1] == ("usable data: no (core/training.py, which pretrain.py imports: line 36 of training.py: not run in this "
                       "launch: `is_profile_enabled()` is false in this launch)")


def test_a_default_end_step_below_the_start_is_what_torch_npu_resets(capsys, own_accessor):
    # --profile-step-end defaults to -1 here: active = -1 - 5 = -6, which torch_npu resets to 1 with a warning
    # (tests/oracle/torch_npu/records.jsonl, schedule.active.negative): the job does not fail, and the schedule is
    # left to npuprof check
    out = _emulate(capsys, own_accessor, [a for a in PROFILE if a not in ("--profile-step-end", "6")])
    assert "  training.py:36 profile: schedule: not known here (a value computed at run time, or one torch_npu " \
        "resets: see npuprof check)" in out
    assert not any("FAILS" in line or line.startswith("usable data: no") for line in out)


def test_an_option_the_script_itself_defines(capsys, project):
    # the script registers --profile-save-path (the features module no longer does): its default is the script's
    (project / "core" / "features.py").write_text(FEATURES.replace(
        '        group.add_argument("--profile-save-path", type=str, default="./profile_dir")\n', ""))
    (project / "pretrain.py").write_text(PRETRAIN.replace("def model_provider", '''def add_args(parser):
    parser.add_argument("--profile-save-path", type=str, default="./from_script")


def model_provider'''))
    out = _emulate(capsys, project, [a for a in PROFILE if a not in ("--profile-save-path", "./profile_dir")])
    assert f"  training.py:36 profile: output directory: {project}/from_script (tensorboard_trace_handler, line 39)" \
        in out


AI_FRAMEWORK = """\
class FrameworkFeature:
    def register_args(self, parser):
        group = parser.add_argument_group(title="framework")
        group.add_argument("--ai-framework", type=str, default="pytorch")
"""


@pytest.fixture
def two_backends(project):
    # MindSpeed-LLM's --ai-framework: with mindspore, torch_npu is MindSpeed-Core-MS's adapter, whose code is not held
    (project / "core" / "framework.py").write_text(AI_FRAMEWORK)
    (project / "core" / "training.py").write_text(TRAINING.replace(
        "from core.features import ProfilingFeature", "from core.features import ProfilingFeature\n"
        "from core.framework import FrameworkFeature"))
    return project


def test_the_mindspore_backend_says_nothing_of_torch_npu(capsys, two_backends):
    said = ("core/training.py, which pretrain.py imports, builds torch_npu's profiler, but --ai-framework mindspore "
            "(run.sh:2) runs training over MindSpeed-Core-MS's MindSpore adapter of the torch and torch_npu APIs "
            "(msadapter), "
            "whose code is not held here: what it collects is not known")
    for spelt in (["--ai-framework", "mindspore"], ["--ai-framework=mindspore"]):
        assert _emulate(capsys, two_backends, PROFILE + spelt) == [
            "  started 8 times (one per rank, by torchrun)", said, f"usable data: unknown (run.sh:2: {said})"]


def test_the_pytorch_backend_is_replayed(capsys, two_backends):
    # passed or by the project's default, pytorch keeps torch_npu: the answer is the one without the option
    expected = _emulate(capsys, two_backends, PROFILE)
    assert expected[2] == "  training.py:37 profile: activities: CPU, NPU; profiler_level Level1; export_type text"
    assert _emulate(capsys, two_backends, PROFILE + ["--ai-framework", "pytorch"]) == expected
    # a default that is not a literal: the backend may be the adapter, so torch_npu's lines say they are torch_npu's
    # and a decided answer is not given
    (two_backends / "core" / "framework.py").write_text(AI_FRAMEWORK.replace('default="pytorch"', "default=BACKEND"))
    out = _emulate(capsys, two_backends, PROFILE)
    assert out[1] == (
        "  --ai-framework is not passed and its default is not read here; --ai-framework mindspore runs training over "
        "MindSpeed-Core-MS's MindSpore adapter of the torch and torch_npu APIs (msadapter), whose code is not held "
        "here: these lines are torch_npu's (--ai-framework pytorch)")
    assert out[2:] == expected[1:]
    # without --profile the project's own default of --profile says "no" for torch_npu: not for the adapter
    (two_backends / "core" / "framework.py").write_text(AI_FRAMEWORK.replace(
        'default="pytorch"', 'default=BACKEND)\n        group.add_argument("--profile", action="store_true"'))
    assert _emulate(capsys, two_backends, PROFILE[1:])[-1] == (
        "usable data: unknown (run.sh:2: core/training.py, which pretrain.py imports: line 37 of training.py: not run in this launch: "
        "`is_profile_enabled()` is false in this launch; but --ai-framework is not passed and its default is not read "
        "here; --ai-framework mindspore runs training over MindSpeed-Core-MS's MindSpore adapter of the torch and "
        "torch_npu APIs (msadapter), whose code is not held here)")


# The release the project pins as git submodules (MindSpeed-LLM: 3rdparty/Megatron-LM at core_v0.12.1's commit) gives
# Megatron-LM's defaults (data/global_args.json pins): --profile is store_true there, so a launch without it does not
# profile; a commit that is no recorded release, or no pin, leaves it unknown and says which release decides it
MEGATRON = "a845aa7e12b3a117e24c2352b9e3e60bad2e3a17"          # core_v0.12.1
MINDSPEED = "f620a78bb1e532eeb021a5399f36817e1b3cc94f"         # v2.3.0_core_r0.12.1
GITMODULES = """\
[submodule "3rdparty/MindSpeed"]
\tpath = 3rdparty/MindSpeed
\turl = https://gitcode.com/ascend/MindSpeed.git
[submodule "3rdparty/Megatron-LM"]
\tpath = 3rdparty/Megatron-LM
\turl = https://github.com/NVIDIA/Megatron-LM.git
"""


def _index(links):
    """A git index (version 2) holding these gitlinks, as git writes one."""
    import struct
    body = b""
    for path, sha in sorted(links.items()):
        name = path.encode()
        entry = struct.pack(">10I", 0, 0, 0, 0, 0, 0, 0o160000, 0, 0, 0) + bytes.fromhex(sha) + \
            struct.pack(">H", len(name)) + name
        body += entry + b"\0" * (8 - len(entry) % 8)
    return b"DIRC" + struct.pack(">II", 2, len(links)) + body


def _pinned(project, links, modules=GITMODULES):
    (project / ".gitmodules").write_text(modules)
    (project / ".git").mkdir()
    (project / ".git" / "index").write_bytes(_index(links))
    for path in links:
        (project / path).mkdir(parents=True)
    return project


PINNED = ("Megatron-LM core_v0.12.1 (3rdparty/Megatron-LM pins a845aa7e) and MindSpeed v2.3.0_core_r0.12.1 "
          "(3rdparty/MindSpeed pins f620a78b)")


def test_a_pinned_release_gives_the_default_of_profile(capsys, project):
    _pinned(project, {"3rdparty/Megatron-LM": MEGATRON, "3rdparty/MindSpeed": MINDSPEED})
    out = [line for line in _emulate(capsys, project, []) if " profile: " not in line]
    off = f"`is_profile_enabled()` is false in this launch (--profile is not passed: False by default in {PINNED})"
    assert out == ["  started 8 times (one per rank, by torchrun)", f"  {off}",
                   f"core/training.py, which pretrain.py imports: line 36 of training.py: not run in this launch: {off}",
                   f"usable data: no (core/training.py, which pretrain.py imports: line 36 of training.py: not run in this launch: "
                   f"{off})"]
    # a default the data does not hold for the releases pinned is still not known, and says which releases decide it
    assert "  training.py:36 profile: schedule's active is not known: --profile-step-end is not passed, and its " \
        "definition (Megatron-LM's) is not in this project: its default is not known here " \
        f"({PINNED} decide it, and its default there is not recorded here)" in _emulate(capsys, project, PROFILE[:1])


@pytest.mark.parametrize("links, extra, why", [
    ({}, None, "the Megatron-LM release the job runs with decides it, and the project pins none"),
    ({"3rdparty/Megatron-LM": MEGATRON, "3rdparty/MindSpeed": "1" * 40}, None,
     "the MindSpeed release 3rdparty/MindSpeed pins decides it: commit 111111111111, not a release recorded here"),
    ({"3rdparty/Megatron-LM": "2" * 40, "3rdparty/MindSpeed": MINDSPEED}, None,
     "the Megatron-LM release 3rdparty/Megatron-LM pins decides it: commit 222222222222, not a release recorded here"),
    # a checkout on disk may be at another commit than the one pinned
    ({"3rdparty/Megatron-LM": MEGATRON, "3rdparty/MindSpeed": MINDSPEED}, "3rdparty/Megatron-LM/setup.py",
     "the Megatron-LM checkout in 3rdparty/Megatron-LM decides it, and its release is not read here"),
])
def test_without_a_recorded_release_profile_stays_unknown(capsys, project, links, extra, why):
    if links:
        _pinned(project, links)
    if extra:
        (project / extra).write_text("")
    out = [line for line in _emulate(capsys, project, []) if " profile: " not in line]
    unknown = "its definition (Megatron-LM's) is not in this project: its default is not known here"
    assert out == ["  started 8 times (one per rank, by torchrun)",
                   f"  `is_profile_enabled()` is not decided in this launch: --profile is not passed, and {unknown} "
                   f"({why})",
                   f"  `is_profile_enabled()` is not decided in this launch: --profile-ranks is not passed, and "
                   f"{unknown} ({why})",
                   "core/training.py, which pretrain.py imports: line 36 of training.py, when is_profile_enabled(): the schedule's "
                   "values are not known here",
                   "usable data: unknown (run.sh:2: core/training.py, which pretrain.py imports: line 36 of training.py, when "
                   "is_profile_enabled(): the schedule's values are not known here)"]


def test_a_source_archive_says_it_records_no_pinned_commit(capsys, project):
    # MindSpeed-LLM exported without its .git (a release archive): there is no index at all, not one of an unread version
    (project / ".gitmodules").write_text(GITMODULES)
    why = ("the Megatron-LM release 3rdparty/Megatron-LM pins decides it, and the commit it pins is not read here (the "
           "project is not a git clone (no .git): a source archive does not record it)")
    assert f"its default is not known here ({why})" in "\n".join(_emulate(capsys, project, []))


def test_an_index_without_the_submodule_says_so(capsys, project):
    # .gitmodules names 3rdparty/Megatron-LM, and the index (version 2, read) holds a gitlink for MindSpeed only: it
    # said "no git index of version 2 or 3", and there is one
    _pinned(project, {"3rdparty/MindSpeed": MINDSPEED})
    why = ("the Megatron-LM release 3rdparty/Megatron-LM pins decides it, and the commit it pins is not read here (the "
           "project's git index records no commit at 3rdparty/Megatron-LM)")
    assert f"its default is not known here ({why})" in "\n".join(_emulate(capsys, project, []))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("fifo", [".gitmodules", ".git/index"])
def test_a_fifo_in_the_scanned_tree_is_not_waited_on(capsys, project, fifo):
    # the project's own files: a FIFO where .gitmodules or the index is would block a plain open() for ever
    _pinned(project, {"3rdparty/Megatron-LM": MEGATRON, "3rdparty/MindSpeed": MINDSPEED})
    (project / fifo).unlink()
    os.mkfifo(project / fifo)
    why = ("the Megatron-LM release the job runs with decides it, and the project pins none" if fifo == ".gitmodules"
           else "the Megatron-LM release 3rdparty/Megatron-LM pins decides it, and the commit it pins is not read here "
                "(no git index of version 2 or 3)")
    assert f"its default is not known here ({why})" in "\n".join(_emulate(capsys, project, []))


def test_the_index_is_read_as_git_writes_it():
    from flake8_npuprof.emulate.pinned import read_index
    links = {"3rdparty/Megatron-LM": MEGATRON, "a/b": MINDSPEED, "x" * 9: "3" * 40}      # (9 + 62: padded to 72)
    assert read_index(_index(links)) == links
    assert read_index(b"DIRC" + bytes([0, 0, 0, 4]) + _index(links)[8:]) == {}       # version 4: not read


REFUSED = ("usable data: no (core/training.py, which pretrain.py imports, builds torch_npu's profiler, but argparse "
           "stops the script in parse_args: --profile-level Level1 from run.sh:2 is not one of the choices of "
           "--profile-level (features.py:{line}), so argparse exits with status 2 (\"invalid choice\"))")


def test_a_level_the_projects_choices_refuse_stops_the_job(capsys, project):
    # MindSpeed-LLM's --profile-level (mindspeed_llm/features_manager/functional/profiling.py, c77308a1) takes
    # level_none, level0, level1, level2: `--profile-level Level1` stops the job in argparse (python 3.9.18-3.13.0:
    # "invalid choice", status 2, parse_known_args too), so nothing is profiled. It said unknown (the loop's length)
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    assert out[-1] == REFUSED.format(line=4)


@pytest.mark.parametrize("bound, said", [
    ("LEVELS = ('level_none', 'level0', 'level1', 'level2')\n", True),
    ("LEVELS = ['level_none', 'level0', 'level1', 'level2']\n", True),
    ("LEVELS = ['level_none', 'level0', 'level1', 'level2']\nLEVELS.append('Level1')\n", False),
    ("LEVELS = ['level_none', 'level0', 'level1', 'level2']\nLEVELS += ['Level1']\n", False),
    ("LEVELS = ['level_none', 'level0', 'level1', 'level2']\nLEVELS[0] = 'Level1'\n", False),
    ("LEVELS = ['level_none', 'level0', 'level1', 'level2']\nprint(LEVELS)\n", False),
    ("def levels():\n    return ['level0']\n\n\nLEVELS = levels()\n", False),
])
def test_choices_a_name_binds_are_read_where_nothing_changes_them(capsys, project, bound, said):
    # a list another statement changes (LEVELS.append('Level1') makes it a choice: python runs the job) is not read
    text = bound + "\n\n" + FEATURES.replace('choices=["level_none", "level0", "level1", "level2"]', "choices=LEVELS")
    (project / "core" / "features.py").write_text(text)
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    line = text.splitlines().index("class ProfilingFeature:") + 4
    assert (out[-1] == REFUSED.format(line=line)) is said
    assert out[-1].startswith("usable data: unknown") is not said


def test_a_choices_name_another_module_names_is_not_read(capsys, project):
    text = "LEVELS = ['level_none', 'level0', 'level1', 'level2']\n\n\n" + FEATURES.replace(
        'choices=["level_none", "level0", "level1", "level2"]', "choices=LEVELS")
    (project / "core" / "features.py").write_text(text)
    (project / "core" / "training.py").write_text("from core.features import LEVELS\nLEVELS.append('Level1')\n" +
                                                  TRAINING)
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    assert out[-1].startswith("usable data: unknown")


@pytest.mark.parametrize("where", ["features", "other"])
def test_a_choice_another_call_adds_is_not_refused(capsys, project, where):
    # MindSpeed-LLM c77308a1 defines --context-parallel-algo with choices megatron_cp_algo, hybrid_cp_algo and
    # kvallgather_cp_algo, and its mamba feature adds mamba_cp_algo at start-up (add_parser_argument_choices_value,
    # MindSpeed's, appends to the action's choices): its launchers' `--context-parallel-algo mamba_cp_algo` was said
    # to stop the job. Another place of the project naming the option may change its choices: not said
    adds = ('class LevelFeature:\n    def register_args(self, parser):\n'
            '        self.add_parser_argument_choices_value(parser, "--profile-level", "Level1")\n')
    if where == "features":
        (project / "core" / "features.py").write_text(FEATURES + "\n\n" + adds)
    else:
        (project / "core" / "levels.py").write_text(adds)
        (project / "core" / "training.py").write_text("import core.levels\n" + TRAINING)
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    assert out[-1].startswith("usable data: unknown")


def test_a_refusal_is_not_said_where_the_project_imports_mindspeed_it_does_not_hold(capsys, project):
    # MindSpeed registers its options into the same parser and adds choices to the project's (028de58c: ulysses_cp_algo
    # and adaptive_cp_algo to --context-parallel-algo, alibi to --position-embedding-type, ...): MindSpeed-LLM's
    # `--context-parallel-algo ulysses_cp_algo`, which its own choices lack, runs. Without MindSpeed's code in the
    # project, no refusal is said
    (project / "core" / "features.py").write_text(
        "from mindspeed.features_manager.feature import MindSpeedFeature\n\n\n" +
        FEATURES.replace("class ProfilingFeature:", "class ProfilingFeature(MindSpeedFeature):"))
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    assert out[-1].startswith("usable data: unknown")


def test_a_refused_level_after_a_word_not_known_is_not_said(capsys, project):
    # the launcher's `$(cat extra)` may be `--`, after which the words are positionals (not the option's value)
    (project / "run.sh").write_text(LAUNCHER.replace('"$@"', '$(cat extra) "$@"'))
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    assert out[-1].startswith("usable data: unknown")


def test_a_refused_level_is_not_said_where_another_definition_s_choices_differ(capsys, project):
    # two definitions alike in action, type and default, the second's choices holding Level1: with
    # conflict_handler="resolve" the second is the one argparse keeps (python 3.9.18 and 3.13.0 run
    # `--profile-level Level1`); which the parser keeps is not known here. It said "no" ("invalid choice")
    (project / "core" / "features.py").write_text(FEATURES + '''

class OverrideFeature:
    def register_args(self, parser):
        group = parser.add_argument_group(title="profiling")
        group.add_argument("--profile-level", type=str, default="level0",
                           choices=["level_none", "level0", "level1", "level2", "Level1"])
''')
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    assert out[-1].startswith("usable data: unknown")


@pytest.mark.parametrize("kept", ["a", "self.level"])
def test_a_definition_whose_action_is_kept_is_not_refused(capsys, project, kept):
    # review23: `a = group.add_argument("--profile-level", ..., choices=[...])` then `a.choices.append("Level1")`: python
    # 3.11.7's parse_known_args took `--profile-level Level1` (status 0); it was said to stop the job
    text = FEATURES.replace('        group.add_argument("--profile-level"', f'        {kept} = group.add_argument('
                            '"--profile-level"').replace('"level2"])\n', f'"level2"])\n        {kept}.choices.append('
                                                         '"Level1")\n', 1)
    (project / "core" / "features.py").write_text(text)
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    assert out[-1].startswith("usable data: unknown"), text
    # a definition as a statement of its own keeps the answer
    (project / "core" / "features.py").write_text(FEATURES)
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    assert out[-1] == REFUSED.format(line=4)


@pytest.mark.parametrize("where", ["features", "other"])
@pytest.mark.parametrize("reach", ["for act in parser._actions:\n            if act.dest == 'profile_level':\n"
                                   "                act.choices.append('Level1')\n",
                                   "parser._option_string_actions['--profile-level'].choices = None\n"])
def test_choices_reached_through_the_parsers_actions_are_not_refused(capsys, project, where, reach):
    # review23: register_args going on `for act in parser._actions: if act.dest == 'profile_level':
    # act.choices.append('Level1')` (or `group._group_actions[0].choices = None`): python 3.11.7's parse_known_args took
    # `--profile-level Level1` (status 0); it was said to stop the job. A module of the project that reaches an Action's
    # choices may change any option's
    if where == "features":
        (project / "core" / "features.py").write_text(FEATURES + "        " + reach)
    else:
        (project / "core" / "levels.py").write_text("def widen(parser):\n    if True:\n        " + reach)
        (project / "core" / "training.py").write_text("import core.levels\n" + TRAINING)
    out = _emulate(capsys, project, [{"level1": "Level1"}.get(a, a) for a in PROFILE])
    assert out[-1].startswith("usable data: unknown")
