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
    why = "line 11: not run in this launch: `args.prof` is false in this launch (the default of --prof, which the " \
        "launcher does not pass)"
    assert report["usable"] is False and report["answer"]["why"] == why
    assert report["unmodelled"] == f"main.py: torch_npu's profiler is off: {why}"


def test_a_profiler_under_a_flag_the_launch_passes_collects(tmp_path):
    report = _run(tmp_path, "--prof")
    assert report["usable"] is True
    assert report["unmodelled"] == "main.py: torch_npu's profiler collects (emulate main.py for its steps and folders)"
