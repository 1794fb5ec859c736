"""`python -m torch.distributed.launch` passes each rank `--local-rank=<rank>` before the script's own words
(torch/distributed/run.py config_from_args: `if not use_env: cmd_args.append(f"--local-rank=...")`, torch 2.0 and
later; 1.x passed `--local_rank`); with --use-env (`--use_env`) it passes none, and torchrun never does (it has no
use_env). A script whose parser does not take it stops in parse_args (python 3.11: "error: unrecognized arguments:
--local-rank=0", status 2): the answer said "usable data: yes" for a script that defines `--local_rank` alone."""

import pytest

from flake8_npuprof.cli import main

TRAIN = '''import argparse
import torch_npu

parser = argparse.ArgumentParser()
parser.add_argument({options}, type=int, default=0)
parser.add_argument("--prof", action="store_true")
args = parser.{parse}()

if args.prof:
    prof = torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"))
    prof.start()
    for step in range(10):
        prof.step()
    prof.stop()
'''

LAUNCH = "python3 -m torch.distributed.launch --nproc_per_node=2 train.py --prof\n"


def _answer(capsys, tmp_path, launcher=LAUNCH, options='"--local_rank"', parse="parse_args", release="26.1"):
    (tmp_path / "train.py").write_text(TRAIN.format(options=options, parse=parse))
    (tmp_path / "run.sh").write_text(launcher)
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", release, "--cwd", str(tmp_path), "--", "bash",
          "run.sh"])
    return [line for line in capsys.readouterr().out.splitlines() if line.startswith(("train.py", "usable"))]


@pytest.mark.parametrize("launcher", [LAUNCH, LAUNCH.replace("=2", "=$N"),
                                      LAUNCH.replace("launch", "launch --master_port $PORT")])
def test_a_script_that_takes_local_rank_with_an_underscore_alone_stops_in_parse_args(capsys, tmp_path, launcher):
    # (an option of torch.distributed.launch given a value not known statically, the caller's $N or $PORT, is none
    # of --use-env)
    line = "run.sh:1"
    why = ("line 10: not run in this launch: argparse stops the script in parse_args: --local-rank=0 (which "
           "torch.distributed.launch passes each rank before the script's own words, its value the rank's: torch 2.0 "
           f"and later, without --use-env) from {line} is no option train.py defines, so argparse exits with status 2 "
           "(\"error: unrecognized arguments\", naming --local-rank=0)")
    said = why.replace("line 10:", "line 10 of train.py:")
    assert _answer(capsys, tmp_path, launcher) == [f"train.py: torch_npu's profiler is off: {why}",
                                                   f"usable data: no ({said})"]


YES = ["train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


@pytest.mark.parametrize("launcher, options, parse", [
    (LAUNCH, '"--local-rank", "--local_rank"', "parse_args"),        # the spelling torch's documentation gives
    (LAUNCH, '"--local_rank"', "parse_known_args"),                 # (parse_known_args leaves it aside)
    (LAUNCH.replace("launch ", "launch --use_env "), '"--seed"', "parse_args"),
    (LAUNCH.replace("launch ", "launch --use-env "), '"--seed"', "parse_args"),
    # (python 3.9.18, 3.11.7, 3.13.0: an argparse with `--use-env`, `--use_env` reads --use_en and --use-e as it)
    (LAUNCH.replace("launch ", "launch --use_en "), '"--seed"', "parse_args"),
    (LAUNCH.replace("launch ", "launch --use-e "), '"--seed"', "parse_args"),
    ("torchrun --nproc_per_node=2 train.py --prof\n", '"--seed"', "parse_args"),
    (LAUNCH.replace("launch", "run"), '"--seed"', "parse_args"),     # torch.distributed.run: torchrun's own
])
def test_a_script_that_takes_it_or_a_launch_that_passes_none_runs(capsys, tmp_path, launcher, options, parse):
    assert _answer(capsys, tmp_path, launcher, options, parse) == YES


@pytest.mark.parametrize("release", ["6.0", "5.0", "any"])
def test_where_torch_may_be_1_x_a_script_that_takes_local_rank_with_an_underscore_may_run(capsys, tmp_path, release):
    # torch 1.x's torch.distributed.launch passes `--local_rank=<rank>` (torch/distributed/run.py config_from_args:
    # `cmd_args.append(f"--local_rank={macros.local_rank}")`), which the script takes; torch_npu 5.0 and 6.0 have
    # builds for torch 1.11. It said "usable data: no" for these releases
    said = _answer(capsys, tmp_path, release=release)[-1]
    assert said.startswith("usable data: unknown (run.sh:1: line 10 of train.py, when args.prof: steps 0-9 into ")
    assert said.endswith("but whether it runs in this launch is not known: argparse stops the script in "
                         "parse_args: --local-rank=0 (which torch.distributed.launch passes each rank before the "
                         "script's own words, its value the rank's: torch 2.0 and later, without --use-env) from "
                         "run.sh:1 is no option train.py defines, so argparse exits with status 2 (\"error: "
                         "unrecognized arguments\", naming --local-rank=0); torch 1.x passes --local_rank=0 instead, "
                         "which train.py takes (torch_npu 5.0 and 6.0 have builds for torch 1.11): whether it stops "
                         "depends on the torch release)")


def test_a_script_that_takes_neither_spelling_stops_whatever_the_torch_release(capsys, tmp_path):
    assert _answer(capsys, tmp_path, options='"--seed"', release="6.0")[-1].startswith(
        "usable data: no (line 10 of train.py: not run in this launch: argparse stops the script in parse_args: "
        "--local-rank=0 (")
