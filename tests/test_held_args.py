"""A launch's flags read through an attribute: `self.args = args` in `__init__`, then `if self.args.prof:` in another
method (values/held_args.py). Decided where the attribute can hold nothing but parse_args()'s result; otherwise the
launch's answer is unknown, with why (never the "yes" the profiler's own replay gives where its conditions hold)."""

import re

import pytest

from flake8_npuprof.cli import main

TRAIN = """\
import argparse

import torch_npu


class Trainer:
    def __init__(self, args, model):
        self.args = args
        self.model = model

    def train(self):
        if self.args.prof:
            prof = torch_npu.profiler.profile(
                activities=[torch_npu.profiler.ProfilerActivity.NPU],
                on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(self.args.prof_dir))
            prof.start()
            for step in range(10):
                prof.step()
            prof.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prof", action="store_true")
    parser.add_argument("--prof-dir", default="./prof")
    args = parser.parse_args()
    Trainer(args, None).train()


if __name__ == "__main__":
    main()
"""


@pytest.fixture
def project(tmp_path):
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "run.sh").write_text('python3 train.py "$@"\n')
    return tmp_path


def _answer(capsys, project, *args):
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(project), "--",
          "bash", "run.sh"] + list(args))
    return capsys.readouterr().out.splitlines()[2:]


def _unknown(why, into=""):
    return [f"train.py: torch_npu's profiler: unknown: line 13, when self.args.prof: steps 0-9{into}; but whether "
            f"`self.args.prof` holds in this launch is not known: {why}",
            f"usable data: unknown (run.sh:1: line 13 of train.py, when self.args.prof: steps 0-9{into}; but whether "
            f"`self.args.prof` holds in this launch is not known: {_of_train(why)})"]


def _of_train(why):
    """The reason as the launcher's answer quotes it: each line of the script it names said with the script."""
    return re.sub(r"\b(lines? \d+)(?!\d)(?! of )", r"\1 of train.py", why)


def test_the_flag_decides_the_profiler_through_the_attribute(capsys, project):
    assert _answer(capsys, project) == [
        "train.py: torch_npu's profiler is off: line 13: not run in this launch: `self.args.prof` is false in this "
        "launch (the default of --prof, which the launcher does not pass; --prof would switch it on)",
        "usable data: no (line 13 of train.py: not run in this launch: `self.args.prof` is false in this launch (the "
        "default of --prof, which the launcher does not pass; --prof would switch it on))"]
    assert _answer(capsys, project, "--prof") == [
        "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def test_a_class_based_on_object_is_read_as_one_without_a_base(capsys, project):
    # Python 3's `class Trainer(object):` is `class Trainer:` (DynamicUNet's runner.py); before, "has a base"
    (project / "train.py").write_text(TRAIN.replace("class Trainer:", "class Trainer(object):"))
    assert _answer(capsys, project)[1] == (
        "usable data: no (line 13 of train.py: not run in this launch: `self.args.prof` is false in this launch (the "
        "default of --prof, which the launcher does not pass; --prof would switch it on))")
    # unless the file binds the name object to something else
    (project / "train.py").write_text(TRAIN.replace("class Trainer:", "object = dict\n\n\nclass Trainer(object):"))
    assert _answer(capsys, project)[1].endswith(
        "but whether `self.args.prof` holds in this launch is not known: class Trainer has a base or a decorator, "
        "which may set self.args)")


@pytest.mark.parametrize("edit, why", [
    # another assignment of the attribute: it may hold something else when train() runs
    (("            prof.stop()\n",
      "            prof.stop()\n\n    def reset(self, other):\n        self.args = other\n"),
     "self.args is also set on line 22"),
    # a subclass may set it, or build the object another way
    (("\n\ndef main():", "\n\nclass Tuned(Trainer):\n    pass\n\n\ndef main():"),
     "class Tuned (line 22) subclasses Trainer"),
    # built with something that is not parse_args()'s result
    (("Trainer(args, None)", "Trainer(vars(args), None)"),
     "line 27 may set attributes by a computed name"),
    (("Trainer(args, None)", "Trainer(load_config(), None)"),
     "line 27 builds Trainer with a args that is not parse_args()'s result"),
    # the class passed on rather than built here
    (("    Trainer(args, None).train()", "    make = Trainer\n    make(args, None).train()"),
     "line 27 uses Trainer other than by building it"),
    # a flag changed through the attribute
    (("            prof.stop()\n", "            prof.stop()\n\n    def quiet(self):\n        self.args.prof = False\n"),
     "line 22 changes self.args.prof"),
    # set by a computed name
    (("        self.model = model", "        name = 'model'\n        setattr(self, name, model)"),
     "line 10 may set attributes by a computed name"),
    # set under a condition of __init__, not at its top level
    (("        self.args = args", "        if model is None:\n            self.args = args"),
     "self.args is not set from a parameter of Trainer.__init__ at its top level"),
])
def test_an_attribute_that_may_hold_something_else_is_unknown(capsys, project, edit, why):
    (project / "train.py").write_text(TRAIN.replace(*edit))
    line = 14 if "if model is None" in edit[1] or "name = " in edit[1] else 13
    # a flag changed through the attribute leaves the others read as the launch's: --prof-dir's default is the folder
    into = f" into {project}/prof" if "changes" in why else ""
    assert _answer(capsys, project) == [s.replace("line 13", f"line {line}", 1) for s in _unknown(why, into)]


def test_the_script_alone_keeps_the_condition(capsys, project):
    # without a launch the flags are not known: the condition is said, as for any `if`
    # (the folder is --prof-dir's default, as for `args.prof_dir`)
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(project),
          str(project / "train.py")])
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == [f"train.py:13 profile: COLLECTS steps 0-9 into {project}/prof (when self.args.prof)",
                        "usable data: yes (where its conditions hold)"]


GATED = """\
import argparse

import torch_npu


class Trainer:
    def __init__(self, config):
        self.config = config
        setattr(self.config, "accumulation", 2)

    @staticmethod
    def setup():
        pass

    def train(self):
        prof = torch_npu.profiler.profile(
            activities=[torch_npu.profiler.ProfilerActivity.NPU],
            on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"))
        if self.config.profiling:
            prof.start()
        for step in range(10):
            if self.config.profiling:
                prof.step()
        if self.config.profiling:
            prof.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profiling", action="store_true")
    Trainer.setup()
    Trainer(parser.parse_args()).train()


if __name__ == "__main__":
    main()
"""


def test_a_profiler_started_only_under_the_flag(capsys, project):
    # the profiler is built on every run, started (and stepped) only with --profiling: without it torch_npu never
    # initialises its collector (checks/torch_npu_loop.lifetime); a @staticmethod's call and a setattr of another
    # name leave self.config the parsed flags
    (project / "train.py").write_text(GATED)
    assert _answer(capsys, project) == [
        "train.py: torch_npu's profiler is off: line 16: not run in this launch: prof.start() (line 20) is not run: "
        "`self.config.profiling` is false in this launch (the default of --profiling, which the launcher does not "
        "pass; --profiling would switch it on), so torch_npu never starts collecting",
        "usable data: no (line 16 of train.py: not run in this launch: prof.start() (line 20 of train.py) is not run: "
        "`self.config.profiling` is false in this launch (the default of --profiling, which the launcher does not "
        "pass; --profiling would switch it on), so torch_npu never starts collecting)"]
    assert _answer(capsys, project, "--profiling")[-1] == "usable data: yes"
    # step() unguarded: a profiler never started but stepped runs its schedule's actions, so the flag's absence does
    # not settle it here (the replay's own answer stands)
    (project / "train.py").write_text(GATED.replace(
        "            if self.config.profiling:\n                prof.step()", "            prof.step()"))
    assert not _answer(capsys, project)[-1].startswith("usable data: no (line 16 of train.py: not run in this")


def test_a_start_under_an_attribute_not_shown_to_hold_the_flags(capsys, project):
    (project / "train.py").write_text(GATED.replace('"accumulation"', '"profiling"'))
    assert _answer(capsys, project)[-1] == (
        f"usable data: unknown (run.sh:1: line 16 of train.py: steps 0-9 into {project}/prof; but prof.start() "
        "(line 20 of train.py) is under a test: whether `self.config.profiling` holds in this launch is not known: "
        "line 9 of train.py changes self.config.profiling)")


def test_mindspores_profiler_is_not_judged_by_its_start(capsys, project):
    # MindSpore's Profiler starts when built unless start_profile=False, and what its start() does is not replayed:
    # the flag on start() decides nothing here
    (project / "train.py").write_text(GATED.replace("import torch_npu", "from mindspore import Profiler").replace(
        """torch_npu.profiler.profile(
            activities=[torch_npu.profiler.ProfilerActivity.NPU],
            on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"))""",
        """Profiler(output_path="./prof", start_profile=False)"""))
    assert _answer(capsys, project) == [
        "train.py: MindSpore's profiler: unknown: line 16: start_profile=False: it collects from its start() call, "
        "which is not followed here",
        "usable data: unknown (run.sh:1: line 16 of train.py: start_profile=False: it collects from its start() call, "
        "which is not followed here)"]


def test_a_flag_set_on_the_parsed_namespace_before_it_is_held(capsys, project):
    # args.prof = True before Trainer(args): the attribute holds the namespace, but not the launch's --prof
    (project / "train.py").write_text(TRAIN.replace("    Trainer(args, None)",
                                                    "    args.prof = True\n    Trainer(args, None)"))
    assert _answer(capsys, project) == _unknown("line 27 changes self.args.prof", f" into {project}/prof")
