"""benchmarks/launch_truth.py's reading of emulate's answer."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import launch_truth  # noqa: E402


def test_a_word_that_starts_with_an_unknown_part_is_no_redirection():
    # emulate's `-c '<unknown>/tacotron2_statedict.pt'` (a ckpt_path not known): a word of the command, which bash
    # gives as `/tacotron2_statedict.pt`; `2>&` `1` and `>log` are redirections
    command = ["python3", "train.py", "-c", "<unknown>/x.pt", "--name", "<unknown>/<unknown>", "<unknown>", ">log",
               "2>&", "1"]
    assert launch_truth.words(command) == ["python3", "train.py", "-c", "<unknown>/x.pt", "--name",
                                           "<unknown>/<unknown>", "<unknown>"]
    assert launch_truth.same_argv(launch_truth.words(command)[:4], ["python3", "train.py", "-c", "/x.pt"])


def test_the_script_a_rank_launcher_is_given_is_its_first_py_word():
    # `deepspeed --num_gpus=8 --master_port 29500 main.py ...` (bash's stub records it): the port is a value, not the
    # script (it was taken for one, and emulate's main.py said false); torchrun's `--nproc_per_node 8` alike
    argv = ["deepspeed", "--num_gpus=8", "--master_port", "29500", "main.py", "--do_train"]
    assert launch_truth.script_of(argv, "/p") == "/p/main.py"
    assert launch_truth.script_of(["torchrun", "--nproc_per_node", "8", "t.py"], "/p") == "/p/t.py"
    assert launch_truth.script_of(["deepspeed", "--module", "pkg.train"], "/p") is None
    assert launch_truth.script_of(["python3", "-u", "t.py"], "/p") == "/p/t.py"
