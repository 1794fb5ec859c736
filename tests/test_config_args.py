"""A launch's flag copied into a config object: `cfg.prof = args.prof`, then `if cfg.prof:` (values/config_args.py).
Decided by the launch where `cfg.prof` can hold nothing else when it is read; otherwise the answer is unknown, with
why. Before, any test of an attribute named like a flag the file assigns was left a condition ("yes (where its
conditions hold)" without --prof)."""

import re

import pytest

from flake8_npuprof.cli import main

TRAIN = """\
import argparse

import torch_npu


class Config:
    pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prof", action="store_true")
    args = parser.parse_args()
    cfg = Config()
    cfg.prof = args.prof
    cfg.lr = 0.1
    if cfg.prof:
        prof = torch_npu.profiler.profile(
            activities=[torch_npu.profiler.ProfilerActivity.NPU],
            on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"))
        prof.start()
        for step in range(10):
            prof.step()
        prof.stop()


if __name__ == "__main__":
    main()
"""


def _answer(capsys, tmp_path, text, *args):
    (tmp_path / "train.py").write_text(text)
    (tmp_path / "run.sh").write_text('python3 train.py "$@"\n')
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--",
          "bash", "run.sh"] + list(args))
    return capsys.readouterr().out.splitlines()[2:]


OFF = ["train.py: torch_npu's profiler is off: line 18: not run in this launch: `cfg.prof` is false in this launch "
       "(the default of --prof, which the launcher does not pass; --prof would switch it on)",
       "usable data: no (line 18 of train.py: not run in this launch: `cfg.prof` is false in this launch (the default "
       "of --prof, which the launcher does not pass; --prof would switch it on))"]
ON = ["train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def _unknown(tmp_path, why, line=18):
    into = f"steps 0-9 into {tmp_path}/prof"
    return [f"train.py: torch_npu's profiler: unknown: line {line}, when cfg.prof: {into}; but whether "
            f"`cfg.prof` holds in this launch is not known: {why}",
            f"usable data: unknown (run.sh:1: line {line} of train.py, when cfg.prof: {into}; but whether `cfg.prof` "
            f"holds in this launch is not known: {_of_train(why)})"]


def _of_train(why):
    """The reason as the launcher's answer quotes it: each line of the script it names said with the script."""
    return re.sub(r"\b(lines? \d+(?:(?:, | to line )\d+)*)(?!\d)", r"\1 of train.py", why)


@pytest.mark.parametrize("edit", [
    ("", ""),
    # in a tuple assignment (YoloV3: `cfg.profiling, cfg.stop_step = args.profiling, args.stop_step`)
    ("    cfg.prof = args.prof\n", "    cfg.prof, cfg.steps = args.prof, 10\n"),
    # other attributes assigned and read, the object read whole nowhere
    ("    cfg.lr = 0.1\n", "    cfg.lr = 0.1\n    cfg.opt = {}\n    cfg.opt['lr'] = cfg.lr\n"),
    # module level
    ("module", ""),
])
def test_the_copy_is_decided_by_the_launch(capsys, tmp_path, edit):
    text = TRAIN.replace(*edit) if edit[0] else TRAIN
    if edit[0] == "module":
        head, body = TRAIN.split("def main():\n")
        body = body.split("\n\n\nif __name__")[0]
        text = head + "\n".join(line[4:] for line in body.split("\n")) + "\n"
    off = _answer(capsys, tmp_path, text)
    on = _answer(capsys, tmp_path, text, "--prof")
    line = text[:text.index("if cfg.prof:")].count("\n") + 2
    assert off == [s.replace("line 18", f"line {line}") for s in OFF]
    assert on == ON


@pytest.mark.parametrize("edit, why", [
    # mmcv's Config.merge_from_dict may set any key, prof too (YoloV3, PSPNet)
    (("    cfg.lr = 0.1\n", "    cfg.merge_from_dict(args.options)\n"),
     "line 16 uses `cfg` other than by its attributes (`cfg.merge_from_dict(args.options)`), which may set "
     "`cfg.prof`"),
    (("    cfg.lr = 0.1\n", "    update(cfg)\n"),
     "line 16 uses `cfg` other than by its attributes (`update(cfg)`), which may set `cfg.prof`"),
    # an EasyDict's item is its attribute
    (("    cfg.lr = 0.1\n", "    cfg['prof'] = False\n"),
     "line 16 uses `cfg` other than by its attributes (`cfg['prof']`), which may set `cfg.prof`"),
    (("    cfg.lr = 0.1\n", "    other = cfg\n"),
     "line 16 uses `cfg` other than by its attributes (`other = cfg`), which may set `cfg.prof`"),
    (("    cfg.lr = 0.1\n", "    cfg.prof = True\n"),
     "`.prof` is assigned on lines 15, 16: which value `cfg.prof` holds here is not followed"),
    (("    cfg.lr = 0.1\n", "    args.prof = True\n"),
     "`.prof` is assigned on lines 15, 16: which value `cfg.prof` holds here is not followed"),
    (("    cfg.lr = 0.1\n", "    setattr(cfg, name, True)\n"),
     "line 16 sets an attribute with setattr(), which may set `cfg.prof`"),
    (("    cfg.lr = 0.1\n", "    print(vars(args))\n"),
     "line 16 reaches an object's attributes through vars(), which may set `cfg.prof`"),
    (("    cfg.lr = 0.1\n", "    print(cfg.__dict__)\n"),
     "line 16 reaches an object's attributes through __dict__, which may set `cfg.prof`"),
    (("    pass\n", "    def __setattr__(self, k, v):\n        pass\n"),
     "line 7 defines Config.__setattr__, which may change what `cfg.prof` gives"),
    # PSPNet: `if args.prof is not None: cfg.prof = args.prof`
    (("    cfg.prof = args.prof\n", "    if args.lr:\n        cfg.prof = args.prof\n"),
     "line 16 assigns `cfg.prof` inside an `if`, so not on every path to line 18"),
    # mindspore-ai/models' JDE: the copy is made in a function the reading scope defines ("inside a compound statement")
    (("    cfg.prof = args.prof\n", "    def fill():\n        cfg.prof = args.prof\n"),
     "line 16 assigns `cfg.prof` inside function `fill` (line 15), which runs only where it is called, so not on "
     "every path to line 18"),
    (("    cfg.lr = 0.1\n", "    cfg = Config()\n"),
     "`cfg` is bound on lines 14, 16: not one object from before line 15 to line 17"),
    (("    cfg = Config()\n", "    global cfg\n    cfg = Config()\n"),
     "line 14 declares `cfg` global"),
    # a module is one object per process: any module importing it may set its attributes
    (("    cfg = Config()\n", "    import config as cfg\n"),
     "`cfg` is a module (line 14), whose attributes other modules may set"),
])
def test_a_copy_that_may_change_leaves_the_launch_unknown(capsys, tmp_path, edit, why):
    text = TRAIN.replace(*edit)
    line = 18 + text[:text.index("    if cfg.prof:")].count("\n") - 16
    assert _answer(capsys, tmp_path, text) == _unknown(tmp_path, why, line)
    assert _answer(capsys, tmp_path, text, "--prof") == _unknown(tmp_path, why, line)


def test_a_copy_made_after_the_read_or_elsewhere_is_not_followed(capsys, tmp_path):
    text = TRAIN.replace("    cfg.prof = args.prof\n", "").replace("        prof.stop()\n",
                                                                     "        prof.stop()\n    cfg.prof = args.prof\n")
    assert _answer(capsys, tmp_path, text) == _unknown(tmp_path, "line 24 assigns `cfg.prof` after line 16 reads it", 17)
    text = TRAIN.replace("    cfg.prof = args.prof\n", "").replace(
        "class Config:\n    pass\n", "class Config:\n    pass\n\n\ndef fill(cfg, args):\n    cfg.prof = args.prof\n")
    assert _answer(capsys, tmp_path, text) == _unknown(tmp_path, "line 11 assigns `cfg.prof` outside the function that reads it", 21)


# TensorFlow 2 (npu_device), the copy made in a tuple assignment (YoloV3's shape): GE's profiling is decided the same way
TF2 = """\
import argparse
import ast

import npu_device


class Config:
    pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profiling", type=ast.literal_eval, default=False)
    args = parser.parse_args()
    cfg = Config()
    cfg.profiling, cfg.dump = args.profiling, "/tmp/out"
    if cfg.profiling:
        npu_device.global_options().profiling_config.enable_profiling = True
        npu_device.global_options().profiling_config.profiling_options = \\
            '{"output":"' + cfg.dump + '","training_trace":"on","fp_point":"","bp_point":""}'
    npu_device.open().as_default()


main()
"""


@pytest.mark.parametrize("given, lines", [
    ("", ["  `cfg.profiling` is false in this launch (the default of --profiling, which the launcher does not pass;"
          " --profiling True would switch it on)",
          "train.py:18 npu_device: OFF: not run in this launch: `cfg.profiling` is false in this launch (the default "
          "of --profiling, which the launcher does not pass; --profiling True would switch it on): the adapter "
          "forwards profiling off, so GE falls back to PROFILING_MODE/PROFILING_OPTIONS (profiling_mode=False does "
          "not switch off profiling enabled there)"]),
    ("--profiling=True", ["  `cfg.profiling` is true in this launch (--profiling=True from run.sh:1)",
                          "train.py:18 npu_device: COLLECTS training_trace into /tmp/out"]),
])
def test_a_copy_decides_ge_profiling_too(capsys, tmp_path, given, lines):
    (tmp_path / "train.py").write_text(TF2)
    (tmp_path / "run.sh").write_text('python3 train.py "$@"\n')
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), "--", "bash", "run.sh"] +
         ([given] if given else []))
    out = capsys.readouterr().out.splitlines()
    assert out[2:2 + len(lines)] == lines
    # with the object handed on first, the test stays a condition of the launch
    (tmp_path / "train.py").write_text(TF2.replace("    if cfg.profiling:", "    print(cfg)\n    if cfg.profiling:"))
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), "--", "bash", "run.sh"] +
         ([given] if given else []))
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("train.py:19 npu_device: COLLECTS training_trace into /tmp/out (when cfg.profiling)")
