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
