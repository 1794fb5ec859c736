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


def test_cwd_launcher_starts_a_test_launcher_from_its_own_folder(monkeypatch):
    # the model-zoo READMEs' `cd test; bash train_full_1p.sh`, against launch_truth's default `bash test/X.sh`
    rel = "PyTorch/nlp/M/test/train_full_1p.sh"
    assert launch_truth.project("/c", rel) == ("/c/PyTorch/nlp/M", ["bash", "test/train_full_1p.sh"])
    monkeypatch.setattr(launch_truth, "CWD", "launcher")
    assert launch_truth.project("/c", rel) == ("/c/PyTorch/nlp/M/test", ["bash", "train_full_1p.sh"])
    assert launch_truth.project("/c", "M/scripts/run.sh") == ("/c/M/scripts", ["bash", "run.sh"])


def test_the_taskset_stub_runs_its_command_whatever_the_cpus(tmp_path):
    # `taskset -c 0-23 python3 x.py` on a machine with fewer CPUs: taskset fails and bash starts no python; the stub
    # runs the command, as taskset does on the 8p machine the launcher is written for
    import subprocess
    stub = tmp_path / "taskset"
    stub.write_text(launch_truth.TASKSET)
    for argv in (["-c", "0-23"], ["--cpu-list", "0-3"], ["0xff"], ["-a", "-c", "1"]):
        out = subprocess.run(["/bin/bash", str(stub), *argv, "echo", "ran", "x.py"], capture_output=True, text=True)
        assert out.stdout == "ran x.py\n", argv
