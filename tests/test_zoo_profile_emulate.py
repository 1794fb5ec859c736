"""`npuprof emulate LAUNCHER -- ARG...` on a model-zoo project that profiles with torch_npu.utils.profiler.Profile:
what the launch's PROFILE_TYPE makes of it, per torch_npu release (emulate/zoo_profile.py; the outcomes are the
oracle's, tests/test_torch_npu_utils_profile.py).

The project is shaped as the model zoo's are: test/train_performance_1p.sh parses `--profiling=...`, exports
PROFILE_TYPE for one value, cds to the project and starts main.py, which reaches its trainer through a sys.path
set at run time (emulate cannot follow that import), and the trainer builds the Profile."""

import pytest

from flake8_npuprof.cli import main

LAUNCHER = """#!/bin/bash
profiling=False
for para in $*
do
    if [[ $para == --profiling* ]];then
        profiling=`echo ${para#*=}`
    fi
done
if [[ $profiling == "CANN" ]];then
    export PROFILE_TYPE=CANN
elif [[ $profiling == "ASCEND_PROFILER" ]];then
    export PROFILE_TYPE=ASCEND_PROFILER
    export PROFILE_START_STEP=20
elif [[ $profiling == "TORCH" ]];then
    export PROFILE_TYPE=TORCH
fi
cd "$(dirname "$0")"/..
python3 main.py --epochs 1
"""
MAIN = "import sys\nsys.path.insert(0, 'lib')\nfrom trainer import train\n\ntrain()\n"
TRAINER = ("import os\nimport torch\nimport torch_npu\nfrom torch_npu.utils.profiler import Profile\n\n\n"
           "def train():\n    profiler = Profile(start_step=int(os.getenv('PROFILE_START_STEP', 10)),\n"
           "                       profile_type=os.getenv('PROFILE_TYPE'))\n"
           "    for step in range(100):\n        profiler.start()\n        profiler.end()\n")
AT = "PROFILE_TYPE=CANN (train_performance_1p.sh:10) reaches Profile (lib/trainer.py:8)"
# main.py reaches lib/trainer.py through a sys.path set at run time: the Profile is found by the walk of its folder
FOUND = " (found under the script's folder, not reached through the imports emulate follows)"


@pytest.fixture()
def project(tmp_path):
    (tmp_path / "test").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "test" / "train_performance_1p.sh").write_text(LAUNCHER)
    (tmp_path / "main.py").write_text(MAIN)
    (tmp_path / "lib" / "trainer.py").write_text(TRAINER)
    return tmp_path / "test" / "train_performance_1p.sh"


def _tail(capsys, *argv):
    code = main(["emulate", "--cann", "8.5", *argv])
    lines = capsys.readouterr().out.splitlines()
    return code, [ln for ln in lines if ln.startswith(("main.py:", "usable data:"))]


def test_a_type_6_0_no_longer_knows_collects_nothing(project, capsys):
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=CANN")
    said = (f'{AT}{FOUND}, which torch_npu 7.3 never switches on for (it knows only "TORCH" and "ASCEND_PROFILER"): '
            "nothing is collected")
    assert (code, lines) == (1, [f"main.py: {said}", f"usable data: no ({said})"])


def test_under_any_release_it_depends(project, capsys):
    code, lines = _tail(capsys, "--torch-npu", "any", str(project), "--", "--profiling=CANN")
    said = (f"depends on the torch_npu release: Profile (lib/trainer.py:8){FOUND} with PROFILE_TYPE=CANN "
            "(train_performance_1p.sh:10) switches on with torch_npu 5.0 and never with torch_npu 6.0+ (it knows only "
            '"TORCH" and "ASCEND_PROFILER")')
    assert lines[0] == f"main.py: {said}"
    assert lines[1].startswith("usable data: unknown (") and code == 1


def test_the_type_it_knows_profiles_one_step_then_ends_the_job(project, capsys):
    code, lines = _tail(capsys, "--torch-npu", "26.1", str(project), "--", "--profiling=ASCEND_PROFILER")
    assert lines[0] == (
        "main.py: Profile (lib/trainer.py:8) switches on with PROFILE_TYPE=ASCEND_PROFILER (train_performance_1p.sh:12), "
        "if the code that builds it runs (it is not reached through the imports emulate follows): it profiles its "
        "step 20 (PROFILE_START_STEP, train_performance_1p.sh:13) into ./npu_profiling (under the job's working "
        "directory) if the job gets that far (the steps it runs are not counted here), then ends the job with "
        "sys.exit(); what torch_npu collects in that step is not replayed here")
    # (before: no "if the job gets that far": DynamicUNet's launcher with --stop_step 5 exits at its iteration 6, so
    # its Profile never reaches step 10, which the answer said it profiled)
    assert lines[1].startswith("usable data: unknown (") and code == 1


def test_torch_type_fails_at_construction(project, capsys):
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=TORCH")
    assert lines[0] == (
        "main.py: PROFILE_TYPE=TORCH (train_performance_1p.sh:15) makes Profile (lib/trainer.py:8) raise TypeError (it "
        "builds torch.autograd.profiler.profile with use_npu=, which torch's profiler does not take): the job stops "
        "there, if the code that builds it runs (it is not reached through the imports emulate follows)")
    assert code == 1 and lines[1].startswith("usable data: unknown (")       # the code may never run
    # torch_npu 5.0's builds for torch 1.8.1-2.0.1 (6.0.rc1-rc2.1's for 1.11) put their own profile, which takes
    # use_npu, in torch.autograd.profiler: on a target that holds them it depends on the build (it said "raise
    # TypeError" on any release)
    code, lines = _tail(capsys, "--torch-npu", "5.0", str(project), "--", "--profiling=TORCH")
    assert lines[0] == (
        "main.py: depends on the torch_npu build: PROFILE_TYPE=TORCH (train_performance_1p.sh:15) makes Profile "
        "(lib/trainer.py:8) build torch.autograd.profiler.profile with use_npu=, which only torch_npu's own profile "
        "takes (on torch_npu 5.0, its builds for torch 1.8.1, 1.11.0 and 2.0.1 take it); stock torch's profile, on the "
        "other builds, raises TypeError and the job stops there, if the code that builds it runs (it is not reached "
        "through the imports emulate follows)")
    code, lines = _tail(capsys, str(project), "--", "--profiling=TORCH")
    assert lines[0].startswith(
        "main.py: depends on the torch_npu build: PROFILE_TYPE=TORCH (train_performance_1p.sh:15) makes Profile "
        "(lib/trainer.py:8) build torch.autograd.profiler.profile with use_npu=, which only torch_npu's own profile "
        "takes (on torch_npu 5.0, its builds for torch 1.8.1, 1.11.0 and 2.0.1 take it; on torch_npu 6.0, "
        "6.0.rc1-6.0.rc2.1 for torch 1.11.0 take it); stock torch's profile, on torch_npu 7.0+ and the other builds, "
        "raises TypeError and the job stops there"), lines[0]


def test_no_type_leaves_it_off(project, capsys):
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=True")
    said = (f"Profile (lib/trainer.py:8){FOUND} stays off: PROFILE_TYPE is not set in this launch (the caller's environment "
            "is not read without --env), so nothing is collected (PROFILE_TYPE=ASCEND_PROFILER switches it on from "
            "torch_npu 6.0)")
    assert (code, lines) == (1, [f"main.py: {said}", f"usable data: no ({said})"])


def test_the_callers_environment_with_env(project, capsys, monkeypatch):
    monkeypatch.setenv("PROFILE_TYPE", "ASCEND_PROFILER")
    monkeypatch.setenv("PROFILE_START_STEP", "5")
    code, lines = _tail(capsys, "--env", "--torch-npu", "7.3", str(project), "--", "--profiling=True")
    assert lines[0].startswith(
        "main.py: Profile (lib/trainer.py:8) switches on with PROFILE_TYPE=ASCEND_PROFILER (from the environment), if "
        "the code that builds it runs (it is not reached through the imports emulate follows): it profiles its step 5 "
        "(PROFILE_START_STEP, from the environment) into ./npu_profiling")
    monkeypatch.delenv("PROFILE_TYPE")
    code, lines = _tail(capsys, "--env", "--torch-npu", "7.3", str(project), "--", "--profiling=True")
    assert "PROFILE_TYPE is not set in this launch or the environment (--env)" in lines[0]


def test_check_on_the_launcher_reports_the_assignment(project, capsys):
    assert main(["check", "--torch-npu", "7.3", "--no-cache", str(project)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        f"{project}:10:25: NPP312 PROFILE_TYPE=CANN reaches Profile at ../lib/trainer.py:8, found under the script's "
        "folder: nothing is collected and nothing is said")
    # TORCH's crash is claimed only for a Profile the script's imports reach: one found under the folder may
    # never be built
    assert len(out) == 1
    (project.parent.parent / "main.py").write_text("from lib.trainer import train\n\ntrain()\n")
    (project.parent.parent / "lib" / "__init__.py").write_text("")
    assert main(["check", "--no-cache", str(project)]) == 1          # any: TORCH fails on 7.0+
    assert capsys.readouterr().out.splitlines() == [
        f"{project}:15:25: NPP313 PROFILE_TYPE=TORCH reaches Profile at ../lib/trainer.py:8: it raises TypeError and "
        "the job stops"]
    assert main(["check", "--no-cache", "--torch-npu", "5.0", str(project)]) == 1
    assert [s for s in capsys.readouterr().out.splitlines() if "NPP313" in s] == [
        f"{project}:15:25: NPP313 PROFILE_TYPE=TORCH reaches Profile at ../lib/trainer.py:8: torch_npu 5.0 depends on "
        "the build"]


def test_an_assignment_after_the_launch_is_not_judged(project, capsys):
    text = project.read_text().replace("python3 main.py --epochs 1\n", "python3 main.py --epochs 1\nexport PROFILE_TYPE=GE\n")
    project.write_text(text)
    assert main(["check", "--torch-npu", "7.3", "--no-cache", str(project)]) == 1
    assert [ln.split(":")[1] for ln in capsys.readouterr().out.splitlines()] == ["10"]      # CANN only, not GE


def test_another_profiling_api_in_the_project_makes_the_answer_unknown(project, capsys):
    (project.parent.parent / "lib" / "tracing.py").write_text(
        "import torch_npu\nprof = torch_npu.profiler.profile()\n")
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=CANN")
    assert lines[0] == (
        f'main.py: {AT}{FOUND}, which torch_npu 7.3 never switches on for (it knows only "TORCH" and "ASCEND_PROFILER"): '
        "nothing is collected; but lib/tracing.py names another profiling API "
        "(line 2: `prof = torch_npu.profiler.profile()`), which is not emulated here")
    assert lines[1].startswith("usable data: unknown (")


def test_a_profiling_api_only_a_help_text_or_a_comment_names_leaves_the_answer_no(project, capsys):
    # Bert-text-classification's vendored transformers holds research_projects/rag/finetune_rag.py, whose --profile
    # help says "use pytorch_lightning.profiler.AdvancedProfiler": the answer, no, turned unknown "but
    # .../finetune_rag.py names another profiling API (line 612: `help=...`)"; a help text or a comment runs nothing
    (project.parent.parent / "lib" / "rag.py").write_text(
        "import argparse\n# prof = torch_npu.profiler.profile()\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--profile', action='store_true',\n"
        "                    help='If True, use pytorch_lightning.profiler.AdvancedProfiler to profile the Trainer.')\n"
        '"""torch.npu.profile(profiler_result_path="./p")"""\n')
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=CANN")
    said = (f'{AT}{FOUND}, which torch_npu 7.3 never switches on for (it knows only "TORCH" and "ASCEND_PROFILER"): '
            "nothing is collected")
    assert (code, lines) == (1, [f"main.py: {said}", f"usable data: no ({said})"])
    # a setting's name is a string by nature: the environment that switches GE's profiling on still counts
    (project.parent.parent / "lib" / "rag.py").write_text("import os\nos.environ['PROFILING_MODE'] = 'true'\n")
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=CANN")
    assert lines[0] == (f"main.py: {said}; but lib/rag.py names another profiling API (line 2: "
                        "`os.environ['PROFILING_MODE'] = 'true'`), which is not emulated here")


def test_a_profiler_module_imported_by_its_name_in_a_string_is_another_profiling_api(project, capsys):
    # `importlib.import_module("torch_npu.profiler")` (and `__import__`) imports the profiler a run then builds: the
    # string names the module imported, not a mention as a help text does. The answer was "no"
    said = (f'{AT}{FOUND}, which torch_npu 7.3 never switches on for (it knows only "TORCH" and "ASCEND_PROFILER"): '
            "nothing is collected")
    for line in ('prof = importlib.import_module("torch_npu.profiler")', "prof = __import__('torch.profiler')",
                 'prof = import_module(".profiler", package="lib")'):
        (project.parent.parent / "lib" / "tracing.py").write_text(
            f"import importlib\nfrom importlib import import_module\n{line}\n")
        code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=CANN")
        assert lines[0] == (f"main.py: {said}; but lib/tracing.py names another profiling API (line 3: `{line}`), "
                            "which is not emulated here")
    # a string naming another module, or a profiler module in a string that is not imported, is no API
    (project.parent.parent / "lib" / "tracing.py").write_text(
        'import importlib\nnp = importlib.import_module("numpy")\nhelp = "see torch.profiler"\n')
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=CANN")
    assert (code, lines) == (1, [f"main.py: {said}", f"usable data: no ({said})"])


def test_a_file_linked_from_outside_the_folder_is_not_read(project, tmp_path_factory, capsys):
    outside = tmp_path_factory.mktemp("outside") / "trainer.py"
    outside.write_text(TRAINER)
    (project.parent.parent / "lib" / "trainer.py").unlink()
    (project.parent.parent / "lib" / "trainer.py").symlink_to(outside)
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=CANN")
    assert not any("Profile" in ln for ln in lines)


def test_a_profile_the_script_imports_needs_no_caveat(project, capsys):
    (project.parent.parent / "main.py").write_text("from lib.trainer import train\n\ntrain()\n")
    (project.parent.parent / "lib" / "__init__.py").write_text("")
    code, lines = _tail(capsys, "--torch-npu", "26.1", str(project), "--", "--profiling=ASCEND_PROFILER")
    assert lines[0].startswith("main.py: Profile (lib/trainer.py:8) switches on with PROFILE_TYPE=ASCEND_PROFILER "
                               "(train_performance_1p.sh:12): it profiles its step 20")


LEGACY_TOO = TRAINER + ("\n\ndef step(args, model, data):\n    if args.profiling == 'CANN':\n"
                        "        with torch.npu.profile(profiler_result_path='./CANN_prof'):\n"
                        "            model(data)\n")


def test_a_trainer_that_also_runs_another_profiler_is_not_answered_by_profile_alone(project, capsys):
    # ModelZoo-PyTorch's ST-GCN: processor/recognition.py builds a Profile and, for --profiling CANN or GE, runs
    # the legacy torch.npu.profile; emulate said "usable data: no (Profile ... stays off ...: nothing is
    # collected)", as if the file held no other profiler (torch.npu.profile collects on torch_npu 5.0)
    (project.parent.parent / "lib" / "trainer.py").write_text(LEGACY_TOO)
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=NONE")
    said = (f"Profile (lib/trainer.py:8){FOUND} stays off: PROFILE_TYPE is not set in this launch (the caller's environment "
            "is not read without --env), so nothing is collected (PROFILE_TYPE=ASCEND_PROFILER switches it on from "
            "torch_npu 6.0); but lib/trainer.py names another profiling API "
            "(line 17: `with torch.npu.profile(profiler_result_path='./CANN_prof'):`), which is not emulated here")
    assert (code, lines) == (1, [f"main.py: {said}", f"usable data: unknown (train_performance_1p.sh:18: {said})"])


def test_profiles_own_names_in_its_file_are_no_other_api(project, capsys):
    # Bert-CRF's models.py reads `prof_type = os.getenv("PROFILE_TYPE", None)` beside its Profile
    (project.parent.parent / "lib" / "trainer.py").write_text(
        TRAINER.replace("def train():\n", "def train():\n    prof_type = os.getenv('PROFILE_TYPE', None)\n"))
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=NONE")
    assert code == 1 and lines[1].startswith(f"usable data: no (Profile (lib/trainer.py:9){FOUND} stays off")


def test_a_launch_that_leaves_profile_type_open_is_unknown(project, capsys):
    # without the launcher's arguments, `export PROFILE_TYPE=CANN` (or another) may run: it said "main.py: no
    # profiling setup found: a run collects no profiling data", "usable data: no (no launch switches profiling on)"
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project))
    said = f"Profile (lib/trainer.py:8){FOUND} switches on or not by its profile_type, which is not known in this launch"
    assert (code, lines) == (1, [f"main.py: {said}", f"usable data: unknown (train_performance_1p.sh:18: {said})"])


BESIDE_UNREACHED = ("import os\nimport torch\nimport torch_npu\nfrom torch_npu.utils.profiler import Profile\n\n\n"
                    "def profiling(model):\n    with torch.autograd.profiler.profile(use_npu=True) as prof:\n"
                    "        model()\n\n\n" + TRAINER.split("\n\n\n", 1)[1] + "\n\nif __name__ == '__main__':\n"
                    "    train()\n")


def test_a_profiler_that_stays_off_does_not_hide_the_profile_beside_it(project, capsys):
    # ModelZoo-PyTorch's UNet_for_PyTorch: train.py has a profiling() (autograd's profile, use_npu=True) that nothing
    # calls, and a Profile in train(); with PROFILE_TYPE=ASCEND_PROFILER emulate said "usable data: no (line 219: not
    # reached from this file's entry point ...)", the Profile never looked at
    (project.parent.parent / "main.py").write_text(BESIDE_UNREACHED)
    code, lines = _tail(capsys, "--torch-npu", "26.1", str(project), "--", "--profiling=ASCEND_PROFILER")
    assert lines[0].startswith("main.py: Profile (main.py:13) switches on with PROFILE_TYPE=ASCEND_PROFILER "
                               "(train_performance_1p.sh:12): it profiles its step 20")
    assert code == 1 and lines[1].startswith("usable data: unknown (")
    # both off: each says why (a PROFILE_TYPE the caller exports is read only with --env)
    code, lines = _tail(capsys, "--torch-npu", "26.1", str(project), "--", "--profiling=NONE")
    said = ("line 8: not reached from this file's entry point (line 20 if __name__ == \"__main__\":); Profile (main.py:13) "
            "stays off: PROFILE_TYPE is not set in this launch (the caller's environment is not read without --env), "
            "so nothing is collected (PROFILE_TYPE=ASCEND_PROFILER switches it on from torch_npu 6.0)")
    # (the launcher's answer names the script with its lines)
    named = said.replace("line 8:", "line 8 of main.py:").replace("(line 20 ", "(line 20 of main.py ")
    assert (code, lines) == (1, [f"main.py: torch_npu's profiler is off: {said}", f"usable data: no ({named})"])


# DynamicUNet's runner.py: the Profile is built in the launched script, whose loop ends the job before start() once
# the pass passes --stop_step (when --profiling is not "None"): with --stop_step 5 its step 10 never comes
RUNNER = """\
import argparse
import os
import sys

from torch_npu.utils.profiler import Profile


class Trainer(object):
    def __init__(self, args):
        self.args = args

    def train(self, loader):
        profiler = Profile(start_step=int(os.getenv("PROFILE_START_STEP", 10)),
                           profile_type=os.getenv("PROFILE_TYPE"))
        for iteration, batch in enumerate(loader):
            iteration = iteration + 1
            if iteration > self.args.stop_step and self.args.profiling != "None":
                sys.exit()
            profiler.start()
            profiler.end()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--profiling", type=str, default="None")
    parser.add_argument("--stop_step", type=int, default=100)
    args = parser.parse_args()
    Trainer(args).train(range(100))
"""
STEP10 = "Profile (runner.py:13) switches on with PROFILE_TYPE=ASCEND_PROFILER (run.sh:1)"


def _runner(tmp_path, capsys, text, *args):
    (tmp_path / "runner.py").write_text(text)
    (tmp_path / "run.sh").write_text('export PROFILE_TYPE=ASCEND_PROFILER\npython3 runner.py "$@"\n')
    code = main(["emulate", "--cann", "8.5", "--torch-npu", "26.1", str(tmp_path / "run.sh"), "--", *args])
    lines = capsys.readouterr().out.splitlines()
    return code, [ln for ln in lines if ln.startswith(("runner.py:", "usable data:"))]


@pytest.mark.parametrize("edit, stop, last", [
    (("", ""), "5", 6),
    (("", ""), "9", 10),
    # `>=`, enumerate counted from 1 and no `+ 1`
    (("            iteration = iteration + 1\n", ""), "7", 8),
    (("iteration > self", "iteration >= self"), "9", 9),
])
def test_a_loop_that_ends_the_job_first_collects_nothing(tmp_path, capsys, edit, stop, last):
    text = RUNNER.replace(*edit) if edit[0] else RUNNER
    if not edit[1] and edit[0]:
        text = text.replace("enumerate(loader)", "enumerate(loader, 1)")
    code, lines = _runner(tmp_path, capsys, text, "--profiling=CANN", f"--stop_step={stop}")
    op = ">=" if ">=" in text else ">"
    said = (f"{STEP10} to profile its step 10 (PROFILE_START_STEP is not set: its default), but runner.py:17 ends the "
            f"job with sys.exit() before the start() of pass {last} of the loop on line 15 (`iteration {op} "
            f"self.args.stop_step and self.args.profiling != \"None\"` holds there in this launch, self.args.stop_step "
            f"is {stop}: --stop_step {stop} from run.sh:2), so start() is called at most {last - 1} times: nothing is "
            "collected")
    if not edit[1] and edit[0]:
        said = said.replace("runner.py:17", "runner.py:16")
    assert (code, lines) == (1, [f"runner.py: {said}", f"usable data: no ({said})"])


@pytest.mark.parametrize("args, edit", [
    (("--profiling=CANN", "--stop_step=10"), ("", "")),          # step 10 runs, then Profile ends the job
    (("--stop_step=5",), ("", "")),                              # --profiling None: the loop does not stop
    (("--profiling=CANN", "--stop_step=5"), ("profiler.end()\n", "profiler.end()\n        profiler.start()\n")),
    (("--profiling=CANN", "--stop_step=5"), ("        for iteration", "        profiler.start()\n        for iteration")),
    (("--profiling=CANN", "--stop_step=5"), ('os.getenv("PROFILE_START_STEP", 10)', 'os.getenv("PROFILE_START_STEP", 3)')),
])
def test_a_loop_not_shown_to_end_the_job_first_stays_unknown(tmp_path, capsys, args, edit):
    text = RUNNER.replace(*edit) if edit[0] else RUNNER
    code, lines = _runner(tmp_path, capsys, text, *args)
    assert code == 1 and lines[0].startswith(f"runner.py: {STEP10}: it profiles its step ")
    assert lines[0].endswith("if the job gets that far (the steps it runs are not counted here), then ends the job "
                             "with sys.exit(); what torch_npu collects in that step is not replayed here")
def test_a_module_the_script_imports_with_another_profiler_is_its_profiler(project, capsys):
    # MindSpeed-MM: pretrain_omni.py (at the project's top) reaches torch_npu.profiler.profile through
    # mindspeed_mm/training.py; the folder walk found an sdxl example's Profile and said "pretrain_omni.py: Profile
    # (examples/diffusers/sdxl/...:1008) stays off: PROFILE_TYPE is not set ...", a file the launch never runs
    (project.parent.parent / "main.py").write_text("from pkg.training import train\n\ntrain()\n")
    (project.parent.parent / "pkg").mkdir()
    (project.parent.parent / "pkg" / "__init__.py").write_text("")
    (project.parent.parent / "pkg" / "training.py").write_text(
        "import torch_npu\n\n\ndef train():\n    prof = torch_npu.profiler.profile()\n")
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--profiling=NONE")
    said = ("main.py has no profiling setup of its own, but pkg/training.py, which it imports, names one "
            "(line 5: `prof = torch_npu.profiler.profile()`): a setup in "
            "a module it imports is not emulated here")
    assert (code, lines) == (1, [f"usable data: unknown (train_performance_1p.sh:18: {said})"])
    # nor does the launcher's PROFILE_TYPE reach that other file's Profile
    assert main(["check", "--torch-npu", "7.3", "--no-cache", str(project)]) == 0
