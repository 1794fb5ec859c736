"""DeepSpeed's launcher, `deepspeed [OPTIONS] SCRIPT ARGS` (or `python -m deepspeed.launcher.runner`), read as its
runner reads its command line (deepspeed/launcher/runner.py parse_args, v0.16.4) and as its launch.py starts each
rank: `python -u SCRIPT --local_rank=<local rank> ARGS` (no --local_rank with --no_local_rank; `python -u -m` with
--module), once per --num_gpus on a node. emulate said "usable data: unknown (no launch found, but run.sh:1 runs
deepspeed with train.py, which emulate does not follow ...)" for the LLM fine-tuning launchers of ModelZoo-PyTorch
(ChatGLM-6B ptuning/ds_train_finetune.sh). tests/data/deepspeed_runs.json records what DeepSpeed's own code answered
(its runner and launch run with python 3.9-3.13, an 8-device node stubbed in: tests/data/deepspeed_runs.py)."""

import json
import os

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.shell.launches import _launch_of
from flake8_npuprof.shell.walk import Walk

TRAIN = '''import argparse
import torch_npu

parser = argparse.ArgumentParser()
parser.add_argument({options}, type=int, default=0)
parser.add_argument("--prof", action="store_true")
args = parser.parse_args()

if args.prof:
    prof = torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"))
    prof.start()
    for step in range(10):
        prof.step()
    prof.stop()
'''

HOSTFILE = ("  deepspeed starts it on this node alone where its hostfile (/job/hostfile) is not there or names one "
            "host; one that names more starts it on each of their nodes (through pdsh or --launcher): which, is not "
            "known here")
YES = ["train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def _emulate(capsys, tmp_path, launcher, options='"--local_rank"', fmt="text"):
    (tmp_path / "train.py").write_text(TRAIN.format(options=options))
    (tmp_path / "run.sh").write_text(launcher)
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--format", fmt, "--cwd", str(tmp_path),
          "--", "bash", "run.sh"])
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else out.splitlines()


def test_a_deepspeed_launch_is_followed_into_its_script(capsys, tmp_path):
    lines = _emulate(capsys, tmp_path, "deepspeed --num_gpus=8 --master_port $PORT train.py --prof\n")
    at = lines.index("launch: run.sh:1 deepspeed --num_gpus=8 --master_port '<unknown>' train.py --prof")
    assert lines[at + 1:at + 3] == ["  started 8 times (one per rank, by deepspeed)", HOSTFILE]
    assert [line for line in lines if line.startswith(("train.py", "usable"))] == YES


def test_its_json_says_the_script_its_words_and_ranks(capsys, tmp_path):
    report = _emulate(capsys, tmp_path, "deepspeed --num_gpus 2 train.py --prof\n", fmt="json")
    launch = report["launches"][0]
    assert (launch["script"], launch["ranks"], launch["flags"]["--prof"]["value"]) == ("train.py", 2, None)
    assert report["usable"] is True


@pytest.mark.parametrize("launcher", ["deepspeed --num_gpus=2 train.py --prof\n",
                                      "python3 -m deepspeed.launcher.runner --num_gpus 2 train.py --prof\n",
                                      "deepspeed --num_g=2 --master_port 29501 -- train.py --prof\n"])
def test_a_script_without_local_rank_stops_in_parse_args(capsys, tmp_path, launcher):
    # DeepSpeed's launch.py gives each rank `--local_rank=<its local rank>` before the script's words; argparse (python
    # 3.9-3.13) exits with status 2 on it ("error: unrecognized arguments: --local_rank=0")
    why = ("line 10: not run in this launch: argparse stops the script in parse_args: --local_rank=0 (which deepspeed "
           "passes each rank before the script's own words, its value the rank's local rank: without --no_local_rank) "
           "from run.sh:1 is no option train.py defines, so argparse exits with status 2 (\"error: unrecognized "
           "arguments\", naming --local_rank=0)")
    lines = _emulate(capsys, tmp_path, launcher, options='"--seed"')
    assert [line for line in lines if line.startswith(("train.py", "usable"))] == [
        f"train.py: torch_npu's profiler is off: {why}",
        f"usable data: no ({why.replace('line 10:', 'line 10 of train.py:')})"]


@pytest.mark.parametrize("launcher, options", [
    ("deepspeed --no_local_rank --num_gpus 2 train.py --prof\n", '"--seed"'),
    ("deepspeed --num_gpus 2 train.py --prof\n", '"--local_rank"'),
    ("deepspeed --num_gpus 2 train.py --prof\n", '"--local_rank", "--local-rank"'),
])
def test_a_script_that_takes_the_words_it_is_given_collects(capsys, tmp_path, launcher, options):
    lines = _emulate(capsys, tmp_path, launcher, options=options)
    assert [line for line in lines if line.startswith(("train.py", "usable"))] == YES


@pytest.mark.parametrize("launcher", ["deepspeed train.py --prof\n", "deepspeed --num_gpus $N train.py --prof\n",
                                      "deepspeed --include localhost:0,1 train.py --prof\n"])
def test_a_rank_count_not_given_or_not_known_is_unknown(capsys, tmp_path, launcher):
    # without --num_gpus (or with -1, 0) each of the node's devices (or ASCEND_RT_VISIBLE_DEVICES') is a rank
    lines = _emulate(capsys, tmp_path, launcher)
    assert "  started an unknown number of times (a loop, or a process count not known statically); each run " \
        "emulated alike" in lines
    assert [line for line in lines if line.startswith(("train.py", "usable"))] == YES


def test_one_node_given_is_said(capsys, tmp_path):
    lines = _emulate(capsys, tmp_path, "deepspeed --num_nodes 1 --num_gpus 2 train.py --prof\n")
    at = lines.index("  started 2 times (one per rank, by deepspeed)")
    assert lines[at + 1] == "  deepspeed starts it on this node alone (--num_nodes 1)"


@pytest.mark.parametrize("launcher, why", [
    ("deepspeed --foo --num_gpus 2 train.py --prof\n",
     "run.sh:1: deepspeed's runner (v0.16.4) has no option --foo: its argparse exits with status 2 there (\"error: "
     "unrecognized arguments\"), and a release that has one is not known here"),
    ("deepspeed --num 2 train.py --prof\n",
     "run.sh:1: deepspeed's runner (v0.16.4) reads --num as an abbreviation of more than one of its options "
     "(--num_accelerators, --num_gpus, --num_nodes): its argparse exits with status 2 there (\"error: ambiguous "
     "option\")"),
    ("deepspeed --num_gpus two train.py --prof\n",
     "run.sh:1: deepspeed's runner (v0.16.4) takes an integer for --num_gpus, not 'two': its argparse exits with "
     "status 2 there (\"error: argument --num_gpus/--num_accelerators: invalid int value\")"),
    ("deepspeed $DS_ARGS train.py --prof\n",
     "run.sh:1: deepspeed's options hold a word not known statically (<unknown>): which options it gives, and "
     "where its script starts, are not known here"),
    ("deepspeed --no_python --num_gpus 2 ./train.py --prof\n",
     "run.sh:1: deepspeed --no_python starts ./train.py itself, not with python: what that starts is not known "
     "here"),
    ("deepspeed --autotuning tune --num_gpus 2 train.py --prof\n",
     "run.sh:1: deepspeed --autotuning runs DeepSpeed's autotuner, which starts its own experiments: not followed "
     "here"),
    ("deepspeed --elastic_training --num_gpus 2 train.py --prof\n",
     "run.sh:1: deepspeed --elastic_training starts the ranks through its elastic agent, which is not followed here"),
    ("deepspeed --num_gpus 2 --include localhost:0 train.py --prof\n",
     "run.sh:1: deepspeed's runner (v0.16.4) raises ValueError for --num_nodes or --num_gpus given with --include "
     "or --exclude (\"Cannot specify num_nodes/gpus with include/exclude\"): it starts no script there"),
])
def test_what_its_runner_refuses_or_emulate_does_not_follow_is_unknown(capsys, tmp_path, launcher, why):
    lines = _emulate(capsys, tmp_path, launcher)
    assert lines[-1] == f"usable data: unknown ({why})"


def test_help_starts_nothing(capsys, tmp_path):
    lines = _emulate(capsys, tmp_path, "deepspeed --num_gpus 2 -h train.py --prof\n")
    assert not any(line.startswith("launch:") for line in lines)


def test_a_module_is_run_as_python_m_runs_it(capsys, tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "train.py").write_text(TRAIN.format(options='"--local_rank"'))
    (tmp_path / "train.py").write_text("")
    (tmp_path / "run.sh").write_text("deepspeed --module --num_gpus 2 pkg.train --prof\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--format", "json", "--cwd",
          str(tmp_path), "--", "bash", "run.sh"])
    report = json.loads(capsys.readouterr().out)
    assert (report["launches"][0]["script"], report["launches"][0]["ranks"], report["usable"]) == \
        ("pkg/train.py", 2, True)


RUNS = os.path.join(os.path.dirname(__file__), "data", "deepspeed_runs.json")


@pytest.mark.parametrize("run", json.load(open(RUNS))["runs"], ids=lambda r: " ".join(r["argv"]))
def test_the_reading_agrees_with_what_deepspeed_s_own_code_did(tmp_path, run):
    # each recorded run of DeepSpeed v0.16.4's runner.main and launch.main (python 3.9-3.13 alike), on a node with no
    # hostfile or one that names hosts (-H): what the hostfile holds is the machine's, never read here
    argv = run["argv"]
    (tmp_path / "train.py").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text("")
    (tmp_path / "pkg" / "__init__.py").write_text("")
    launcher = "deepspeed " + " ".join("'%s'" % w for w in argv) + "\n"
    w = Walk(str(tmp_path / "run.sh")).run(launcher)
    launch = _launch_of(w.commands[0])
    status, ranks, parsed = run["status"], run["ranks"], run["parsed"]
    if status == ["exit", 0]:
        assert launch is None                               # --help
    elif status[0] == "exit" or status[0] == "raise" and "include" in status[1]:
        assert launch is None or not launch.script and launch.missing      # never a script
    elif status[0] == "raise":
        # --num_nodes 2 without a hostfile (DeepSpeed's default /job/hostfile, or -H's): with one, it runs
        assert "no extra nodes available via hostfile" in status[1] and launch.script
    elif status[0] == "multi-node":
        # the hostfile's hosts, through pdsh: each node's launch.py starts --num_gpus ranks, as on one node
        assert launch.script and launch.ranks == parsed["num_gpus"]
    elif "python" not in ranks[0][0]:
        assert parsed["no_python"] and not launch.script and launch.missing
    else:
        words = ranks[0][0]
        first = words.index("python") + 2                   # python -u
        script = words[first + 1] if words[first] == "-m" else words[first]
        assert os.path.relpath(launch.script, str(tmp_path)) in (script, script.replace(".", "/") + ".py")
        assert [a.text for a in launch.args] == words[words.index(script) + 1:]
        # each rank its own local rank; rank 0's is said
        assert all(r[0][words.index(script) + 1:] == [f"--local_rank={k}"] + parsed["user_args"]
                   for k, r in enumerate(ranks)) or parsed["no_local_rank"]
        # --num_gpus N > 0: N ranks; else the node's devices (8 on the stub node; --include/--exclude's): not known
        given = parsed["num_gpus"] > 0 and not parsed["include"] and not parsed["exclude"]
        assert launch.ranks == (len(ranks) if given else 0)
        assert not given or len(ranks) == parsed["num_gpus"]


def test_an_hf_argument_parser_is_not_said_to_stop_on_local_rank(capsys, tmp_path):
    # HfArgumentParser adds an option for each field of its dataclasses (transformers' TrainingArguments has
    # local_rank), which are not read here: whether --local_rank=0 is one of them is not said
    (tmp_path / "train.py").write_text('''from dataclasses import dataclass, field
import torch_npu
from transformers import HfArgumentParser, TrainingArguments


@dataclass
class Args:
    prof: bool = field(default=False)


parser = HfArgumentParser((Args, TrainingArguments))
args, training_args = parser.parse_args_into_dataclasses()
if args.prof:
    prof = torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"))
    prof.start()
    for step in range(10):
        prof.step()
    prof.stop()
''')
    (tmp_path / "run.sh").write_text("deepspeed --num_gpus 2 train.py --prof True --output_dir out\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--", "bash",
          "run.sh"])
    out = capsys.readouterr().out
    assert "argparse stops" not in out and "--local_rank=0" not in out.replace("launch: run.sh", "")
    assert out.splitlines()[-2:] == [
        "train.py: torch_npu's profiler collects (when args.prof) (emulate train.py for its steps and folders)",
        "usable data: yes (where its conditions hold)"]
