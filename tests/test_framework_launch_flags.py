"""A launch's flags decide the `if`s on the way to a torch_npu (or MindSpore) profiler, as they decide a TF
setup's. ModelZoo-PyTorch's ResNet101 profiles only under `if args.prof:` (store_true) in main_worker(args);
its launcher does not pass --prof, yet emulate said "usable data: no (fails: line 473, when ... args.prof ...:
torch.autograd.profiler.profile(use_npu=...) ... TypeError)": a failure of code this launch never runs."""

from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target

T = Target.parse("8.0", "910B", torch_npu="7.2")

SCRIPT = '''import argparse
import torch
import torch_npu

parser = argparse.ArgumentParser()
parser.add_argument("--prof", default=False, action="store_true")


def worker(gpu, args):
    if args.prof:
        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("/tmp/tp")):
            torch.ones(1)


def main():
    args = parser.parse_args()
    worker(0, args)


if __name__ == "__main__":
    main()
'''


def _run(tmp_path, words):
    (tmp_path / "main.py").write_text(SCRIPT)
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\ncd $(dirname $0)\npython3 main.py {words}\n")
    return emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})


def test_a_profiler_under_a_flag_the_launch_does_not_pass_is_off(tmp_path):
    report = _run(tmp_path, "")
    # (the launcher's answer names the script with its line; the flag that switches the store_true on is said)
    why = "not run in this launch: `args.prof` is false in this launch (the default of --prof, which the launcher " \
        "does not pass; --prof would switch it on)"
    assert report["usable"] is False and report["answer"]["why"] == f"line 11 of main.py: {why}"
    assert report["unmodelled"] == f"main.py: torch_npu's profiler is off: line 11: {why}"


def test_a_profiler_under_a_flag_the_launch_passes_collects(tmp_path):
    report = _run(tmp_path, "--prof")
    assert report["usable"] is True
    assert report["unmodelled"] == "main.py: torch_npu's profiler collects (emulate main.py for its steps and folders)"
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["unmodelled"] == "main.py: torch_npu's profiler collects (emulate main.py for its steps and folders)"


# EfficientNet-B0 (ModelZoo-PyTorch) profiles under `if args.prof and args.rank == 1:`; launched without --prof,
# emulate said the profiler "collects nothing: ... prof.step() is never called", as if it ran. One false term of
# an `and` is enough; the `or` of an else branch likewise.
COMPOUND = '''import argparse
import torch_npu

parser = argparse.ArgumentParser()
parser.add_argument("--prof", action="store_true")
parser.add_argument("--rank", type=int, default=0)


def train(args):
    {guard}
        with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("/tmp/tp")):
            pass


if __name__ == "__main__":
    train(parser.parse_args())
'''
AND = "if args.prof and args.rank == 1:"
ELSE = "if not args.prof or args.rank != 0:\n        pass\n    else:"


def _compound(tmp_path, guard, words):
    (tmp_path / "main.py").write_text(COMPOUND.format(guard=guard))
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\ncd $(dirname $0)\npython3 main.py {words}\n")
    return emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})


def test_one_false_term_of_an_and_makes_the_profiler_off(tmp_path):
    report = _compound(tmp_path, AND, "")
    off = "not run in this launch: `args.prof` is false in this launch (the default of --prof, which the launcher " \
        "does not pass; --prof would switch it on)"
    assert report["usable"] is False and report["answer"]["why"] == f"line 11 of main.py: {off}"
    assert report["unmodelled"] == f"main.py: torch_npu's profiler is off: line 11: {off}"
    # --prof given: `args.rank == 1` is decided too (the default of --rank is 0), and both hold with --rank 1
    report = _compound(tmp_path, AND, "--prof")
    assert report["usable"] is False and report["answer"]["why"] == "line 11 of main.py: not run in this launch: " \
        "`args.rank == 1` is false in this launch (the default of --rank, which the launcher does not pass)"
    # both terms decided true: no longer a condition (before: "collects (when args.prof and args.rank == 1)" and
    # "usable data: yes (where its conditions hold)", though this launch passes --prof --rank 1)
    report = _compound(tmp_path, AND, "--prof --rank 1")
    assert report["usable"] is True and report["conditional"] is False
    assert report["unmodelled"] == "main.py: torch_npu's profiler collects (emulate main.py for its steps and folders)"
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["unmodelled"] == "main.py: torch_npu's profiler collects (emulate main.py for its steps and folders)"


def test_one_true_term_of_an_or_makes_its_else_branch_off(tmp_path):
    report = _compound(tmp_path, ELSE, "")
    # (the test is the else branch's: no option is said to switch it on)
    assert report["answer"]["why"] == "line 13 of main.py: not run in this launch: `args.prof` is false in this " \
        "launch (the default of --prof, which the launcher does not pass)"
    assert _compound(tmp_path, ELSE, "--prof")["usable"] is True


def test_prof_config_path_beside_a_profiler_the_launch_leaves_off_is_unknown(tmp_path):
    # EfficientNetV2-B0 (ModelZoo-PyTorch) has a profile() under `if ... args.prof`; launched without --prof but with
    # PROF_CONFIG_PATH exported, emulate said "no (line 1039: not run in this launch ...)": torch_npu's dynamic
    # profiling, started at `import torch_npu` by PROF_CONFIG_PATH, was not looked at beside a profile() call
    (tmp_path / "main.py").write_text(SCRIPT)
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\nexport PROF_CONFIG_PATH=/tmp/cfg\npython3 main.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:4: line 3 of main.py: dynamic profiling (PROF_CONFIG_PATH): what is collected, and when, is read at run time "
        "from /tmp/cfg/profiler_config.json")
    # the profile() run, PROF_CONFIG_PATH not set: off beside nothing else is no, as before
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 main.py\n")
    assert emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})["usable"] is False


def test_a_framework_profiler_under_a_condition_the_launch_does_not_decide_collects_where_it_holds(tmp_path):
    # marigold (mindspore-lab/models): `if cfg.profile: profiler = Profiler(...)` with cfg read from the YAML the
    # launch names; `python train_graph.py --train_config x.yaml` said "MindSpore's profiler collects" and
    # "usable data: yes", dropping the condition the script's own report keeps
    from flake8_npuprof.emulate.render import render_text
    (tmp_path / "train.py").write_text(
        "import sys\nimport yaml\nimport mindspore as ms\nfrom mindspore import Profiler\n\n"
        "cfg = yaml.safe_load(open(sys.argv[1]))\nif cfg.profile:\n    profiler = Profiler(output_path='./prof')\n"
        "ms.set_context(mode=0)\nif cfg.profile:\n    profiler.analyse()\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 train.py c.yaml\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is True
    assert report["unmodelled"] == ("train.py: MindSpore's profiler collects (when cfg.profile) (emulate train.py "
                                    "for its steps and folders)")
    assert "usable data: yes (where its conditions hold)" in render_text(report).splitlines()


def test_the_default_a_launch_leaves_is_said_as_the_option_the_user_types(tmp_path):
    # MnasNet (ModelZoo-PyTorch): `--run-prof`, read as `args.run_prof`; its launcher said "the default of
    # --run_prof", an option argparse refuses
    (tmp_path / "main.py").write_text(SCRIPT.replace('"--prof", default=False', '"--run-prof"')
                                      .replace("args.prof", "args.run_prof"))
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 main.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is False and report["answer"]["why"] == (
        "line 11 of main.py: not run in this launch: `args.run_prof` is false in this launch (the default of "
        "--run-prof, which the launcher does not pass; --run-prof would switch it on)")



def test_a_launch_replayed_for_every_torch_npu_release_says_which_releases_its_lines_are(tmp_path):
    # BertNER (ModelZoo-PyTorch) launched by its profiling launcher: "fails: torch.npu.profile() is the legacy
    # profiler API, gone after torch_npu 5.0" with no word that the replay is 6.0 and later's, which the script's own
    # report says (torch_npu 5.0: not replayed ...)
    from flake8_npuprof.emulate.framework_render import NOT_50
    from flake8_npuprof.emulate.render import render_text
    (tmp_path / "main.py").write_text(SCRIPT)
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 main.py --prof\n")
    report = emulate_path(str(tmp_path / "run.sh"), Target.parse("8.0", "910B"), use_env=False, environ={})
    lines = render_text(report).splitlines()
    assert lines[lines.index(report["unmodelled"]) + 1] == NOT_50
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 main.py --prof\npython3 main.py\n")
    lines = render_text(emulate_path(str(tmp_path / "run.sh"), Target.parse("8.0", "910B"), use_env=False,
                                     environ={})).splitlines()
    assert lines.count(NOT_50) == 1 and lines[lines.index(NOT_50) - 1].startswith("usable data: ")
    # for one release given, nothing to say
    assert NOT_50 not in render_text(_run(tmp_path, "--prof"))


def test_a_flag_the_script_assigns_is_not_decided_by_the_launch(tmp_path):
    # EfficientNet-B0's main_worker sets `args.rank = args.rank * npus_per_node + npu` before
    # `if args.prof and args.rank == 1:`; the default of --rank is not the value tested there
    report = _compound(tmp_path, "args.rank = args.rank * 8 + 1\n    " + AND, "--prof")
    assert report["usable"] is True
    assert report["unmodelled"] == ("main.py: torch_npu's profiler collects (when args.prof and args.rank == 1) "
                                    "(emulate main.py for its steps and folders)")
    # a switch set in code (`args.prof = True`) is not the default the launcher leaves either
    report = _compound(tmp_path, "args.prof = True\n    if args.prof:", "")
    assert report["usable"] is True


# MindSpeed-LLM-style: the level is a flag, the metric is written; at the flag's default torch_npu drops the metric
# with a warning on rank 0 (NPP302 on the launch's values). The launch's answer said only "collects".
LEVEL_FLAG = '''import argparse
import torch_npu

parser = argparse.ArgumentParser()
parser.add_argument("--level", default="Level0")
args = parser.parse_args()
cfg = torch_npu.profiler._ExperimentalConfig(profiler_level=args.level,
                                             aic_metrics=torch_npu.profiler.AiCMetrics.PipeUtilization)
with torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("/tmp/tp"),
                                experimental_config=cfg):
    pass
'''


def test_a_metric_the_launchs_level_drops_is_said_below_the_script(tmp_path):
    (tmp_path / "main.py").write_text(LEVEL_FLAG)
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 main.py \"$@\"\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={}, launcher_args=[])
    assert report["usable"] is True
    assert report["unmodelled"] == (
        "main.py: torch_npu's profiler collects (emulate main.py for its steps and folders)\n"
        "  ! NPP302 aic_metrics PipeUtilization with profiler_level Level0: torch_npu 7.2 drops it with a warning "
        "on rank 0 only; AI Core metrics are collected at Level1 and Level2 only (it becomes AiCoreNone): add "
        "profiler_level=ProfilerLevel.Level1 to collect it")
    # at Level1 the metric is kept: nothing below the line (the checks judged the script's default, Level0, and
    # this line said so); started with arguments not known, the level is not known either
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={}, launcher_args=["--level", "Level1"])
    assert report["unmodelled"] == "main.py: torch_npu's profiler collects (emulate main.py for its steps and folders)"
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["unmodelled"] == "main.py: torch_npu's profiler collects (emulate main.py for its steps and folders)"
