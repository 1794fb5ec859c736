"""`npuprof emulate LAUNCHER` of a project whose script calls, from a module it imports, the legacy profiler API
(emulate/legacy_api.py): ModelZoo-PyTorch's MAE and BEiT hold `torch.autograd.profiler.profile(use_npu=True)` in
engine_*.py's profiling() and `torch.npu.profile(path)` in cann_profiling(), which main.py calls only under
`if args.prof:` / `if args.cann_prof:`, beside the model zoo's Profile in train_one_epoch(). Before, every such
launch was unknown ("names another profiling API ..., which is not emulated here")."""

import pytest

from flake8_npuprof.cli import main

LAUNCHER = 'cd "$(dirname "$0")"/..\npython3 main.py --epochs 1 "$@"\n'
MAIN = """import argparse

from engine import cann_profiling, profiling, train_one_epoch


def main(args):
    if args.prof:
        profiling(args)
        return
    if args.cann_prof:
        cann_profiling(args)
        return
    train_one_epoch(args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--device", default="npu")
    parser.add_argument("--prof", action="store_true", default=False)
    parser.add_argument("--cann_prof", action="store_true", default=False)
    main(parser.parse_args())
"""
ENGINE = """import os
import torch
import torch_npu
from torch_npu.utils.profiler import Profile


def train_one_epoch(args):
    profile = Profile(start_step=int(os.getenv('PROFILE_START_STEP', 10)),
                      profile_type=os.getenv('PROFILE_TYPE'))
    for step in range(100):
        profile.start()
        profile.end()


def profiling(args):
    for step in range(200):
        if step < 100:
            continue
        if args.device == 'npu':
            with torch.autograd.profiler.profile(use_npu=True) as prof:
                pass
        else:
            with torch.autograd.profiler.profile(use_cuda=True) as prof:
                pass
        break


def cann_profiling(args):
    with torch.npu.profile('./cann_profiling'):
        pass
"""
PROFILE = ("Profile (engine.py:8) stays off: PROFILE_TYPE is not set in this launch (the caller's environment is not "
           "read without --env), so nothing is collected (PROFILE_TYPE=ASCEND_PROFILER switches it on from torch_npu "
           "6.0)")
HEAD = "engine.py, which main.py imports, profiles with the legacy profiler API: "
CUDA = "engine.py:23 `torch.autograd.profiler.profile(use_cuda=True)`"
NPU = "engine.py:20 `torch.autograd.profiler.profile(use_npu=True)`"
CANN = "engine.py:29 `torch.npu.profile('./cann_profiling')`"
OWN = "torch_npu's own profile (its builds for torch 1.8.1-2.0.1 put it in torch.autograd.profiler)"


@pytest.fixture()
def project(tmp_path):
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "train_performance_1p.sh").write_text(LAUNCHER)
    (tmp_path / "main.py").write_text(MAIN)
    (tmp_path / "engine.py").write_text(ENGINE)
    return tmp_path / "test" / "train_performance_1p.sh"


def _tail(capsys, *argv):
    code = main(["emulate", "--cann", "8.5", *argv])
    lines = capsys.readouterr().out.splitlines()
    return code, [ln for ln in lines if ln.startswith(("main.py:", "usable data:"))]


def test_calls_the_launch_never_makes_leave_the_answer_no(project, capsys):
    code, lines = _tail(capsys, str(project), "--")
    said = (f"{PROFILE}; {HEAD}{NPU} never runs in this launch: main.py calls profiling() only at line 8, where "
            "`args.prof` is false in this launch (the default of --prof, which the launcher does not pass; --prof would switch it on); "
            f"{CUDA} never runs in this launch: `not (args.device == 'npu')` (engine.py:19) is false with this "
            "launch's flags; "
            f"{CANN} never runs in this launch: main.py calls cann_profiling() only at line 11, where `args.cann_prof` "
            "is false in this launch (the default of --cann_prof, which the launcher does not pass; --cann_prof would switch it on)")
    assert (code, lines) == (1, [f"main.py: {said}", f"usable data: no ({said})"])


def test_a_call_the_launch_makes_in_a_loop_stops_the_job_if_it_gets_there(project, capsys):
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--prof")
    said = (f"{PROFILE}; {HEAD}{NPU} runs in this launch, in the loop on line 16 of engine.py, and raises TypeError on "
            f"torch_npu 7.3: only {OWN} takes use_npu: the "
            "job stops there if it gets that far (the passes it runs are not counted here); "
            f"{CUDA} never runs in this launch: `not (args.device == 'npu')` (engine.py:19) is false with this "
            f"launch's flags; {CANN} never runs in this launch: main.py calls cann_profiling() only at line 11, where "
            "`args.cann_prof` is false in this launch (the default of --cann_prof, which the launcher does not pass; --cann_prof would switch it on)")
    assert (code, lines) == (1, [f"main.py: {said}", f"usable data: unknown (train_performance_1p.sh:2: {said})"])
    # torch_npu 5.0's builds for torch 1.8.1-2.0.1 (and 6.0.rc1-rc2.1's for 1.11) put their own profile, which takes
    # use_npu, in torch.autograd.profiler: on any release the call does not stop every job (it said "raises TypeError
    # on torch_npu 5.0+ (use_npu is a keyword of the old torch 1.5/1.8 NPU forks only ...)")
    code, lines = _tail(capsys, str(project), "--", "--prof")
    assert lines[0].startswith(
        f"main.py: {PROFILE}; {HEAD}{NPU} raises TypeError on torch_npu 7.0+; depends on the build on torch_npu 5.0 "
        "(its builds for torch 1.8.1, 1.11.0 and 2.0.1 take it; its other builds raise TypeError); depends on the build "
        "on torch_npu 6.0 (6.0.rc1-6.0.rc2.1 for torch 1.11.0 take it; its other builds raise TypeError): only "
        f"{OWN} takes use_npu; {CUDA} never runs"), lines[0]
    # on a GPU the other profiler runs: torch's own, not emulated
    code, lines = _tail(capsys, str(project), "--", "--prof", "--device", "cuda")
    assert f"{NPU} never runs in this launch: `args.device == 'npu'` (engine.py:19) is false with this launch's " \
        f"flags; {CUDA} is torch's own autograd profiler, not torch_npu's: what it records is not emulated here; " \
        in lines[0]
    assert lines[1].startswith("usable data: unknown (")


def test_the_legacy_api_fails_where_it_is_gone_and_depends_under_any(project, capsys):
    code, lines = _tail(capsys, "--torch-npu", "7.3", str(project), "--", "--cann_prof")
    legacy = (f"{CANN} runs in this launch and raises AttributeError on torch_npu 7.3 (the legacy profiler API is "
              "gone after 5.0): the job stops there")
    assert lines[0].endswith(f"; {legacy}")
    assert lines[1].startswith("usable data: no (train_performance_1p.sh:2: fails: ") and code == 1
    code, lines = _tail(capsys, str(project), "--", "--cann_prof")
    assert lines[0].endswith(f"; {CANN} raises AttributeError on torch_npu 6.0+ (the legacy profiler API is gone "
                             "after 5.0); torch_npu 5.0 still has it (what it collects there is not replayed here)")
    assert lines[1].startswith("usable data: unknown (")


def test_a_module_without_the_zoo_profile_is_judged_too(project, capsys):
    # BEiT: run_class_finetuning_apex_npu.py imports engine_for_finetuning.py, which has no Profile. The answer was
    # "... names one (line 20: ...): a setup in a module it imports is not emulated here"
    engine = project.parent.parent / "engine.py"
    engine.write_text(ENGINE.replace("from torch_npu.utils.profiler import Profile\n", "").replace(
        "    profile = Profile(start_step=int(os.getenv('PROFILE_START_STEP', 10)),\n"
        "                      profile_type=os.getenv('PROFILE_TYPE'))\n", ""))
    code = main(["emulate", "--cann", "8.5", str(project), "--"])
    lines = capsys.readouterr().out.splitlines()[2:4]
    said = (f"{HEAD}{NPU.replace(':20', ':17')} never runs in this launch: main.py calls profiling() only at line 8, "
            "where `args.prof` is false in this launch (the default of --prof, which the launcher does not pass; --prof would switch it on); "
            f"{CUDA.replace(':23', ':20')} never runs in this launch: `not (args.device == 'npu')` (engine.py:16) is "
            f"false with this launch's flags; {CANN.replace(':29', ':26')} never runs in this launch: main.py calls "
            "cann_profiling() only at line 11, where `args.cann_prof` is false in this launch (the default of "
            "--cann_prof, which the launcher does not pass; --cann_prof would switch it on)")
    assert (code, lines) == (1, [said, f"usable data: no ({said})"])


def test_another_api_elsewhere_keeps_the_answer_unknown(project, capsys):
    (project.parent.parent / "tracing.py").write_text("import torch_npu\nprof = torch_npu.profiler.profile()\n")
    (project.parent.parent / "main.py").write_text("import tracing\n" + MAIN)
    code, lines = _tail(capsys, str(project), "--")
    assert lines[0].endswith("; but tracing.py names another profiling API (line 2: `prof = "
                             "torch_npu.profiler.profile()`), which is not emulated here")


def test_the_flags_rebound_from_the_parser_are_decided(project, capsys):
    # MAE's main_pretrain.py: `args = get_args_parser(); args = args.parse_args(); main(args)`: the second binding
    # alone reaches main(args) (the line before it in the same block), so the launch's flags decide; before, "whether
    # `args.prof` holds in this launch is not known: line 24 calls main() with a args that is not parse_args()'s
    # result" and the answer unknown
    (project.parent.parent / "main.py").write_text(MAIN.replace(
        "    main(parser.parse_args())\n", "    args = parser\n    args = args.parse_args()\n    main(args)\n"))
    code, lines = _tail(capsys, str(project), "--")
    assert lines[1].startswith(f"usable data: no ({PROFILE}; {HEAD}{NPU} never runs in this launch: main.py calls "
                               "profiling() only at line 8, where `args.prof` is false in this launch (the default of "
                               "--prof, which the launcher does not pass; --prof would switch it on); ") and code == 1


def test_a_flag_the_launch_leaves_open_says_why(project, capsys):
    # `args` rebound from something other than parse_args(): the call's sentence says why its test is not decided,
    # the line named with its file (the script's, in a sentence about the module; before, "line 24" alone)
    (project.parent.parent / "main.py").write_text(MAIN.replace(
        "    main(parser.parse_args())\n", "    args = parser.parse_args()\n    args = load(args)\n    main(args)\n"))
    code, lines = _tail(capsys, str(project), "--")
    why = "whether `args.cann_prof` holds in this launch is not known: line 24 of main.py calls main() with a args " \
        "that is not parse_args()'s result"
    assert lines[0].endswith(
        f"; {CANN} raises AttributeError on torch_npu 6.0+ (the legacy profiler API is gone after 5.0); torch_npu 5.0 "
        f"still has it (what it collects there is not replayed here); it runs when `main.py: args.cann_prof`, which "
        f"this launch does not decide ({why})")
    assert lines[1].startswith("usable data: unknown (") and code == 1
