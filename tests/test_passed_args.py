"""A launch's flags handed to a function: `def train(args): if args.prof:` called as `train(args)` with
`args = parser.parse_args()`, directly or through other functions (values/passed_args.py). Decided where every call
hands the parameter parse_args()'s result; otherwise the launch's answer is unknown, with why (before, the launcher's
--prof decided `args.prof` whatever train() was called with)."""

import ast
import re

import pytest

from flake8_npuprof.cli import main

TRAIN = """\
import argparse

import torch_npu


def train(args, model):
    if args.prof:
        prof = torch_npu.profiler.profile(
            activities=[torch_npu.profiler.ProfilerActivity.NPU],
            on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(args.prof_dir))
        prof.start()
        for step in range(10):
            prof.step()
        prof.stop()


def main(args):
    train(args, None)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--prof", action="store_true")
    parser.add_argument("--prof-dir", default="./prof")
    main(parser.parse_args())
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


# (the launcher's answer names the script's lines with the script: its subject is the launcher; the flag that
# would switch the store_true on is said)
OFF = ["train.py: torch_npu's profiler is off: line 8: not run in this launch: `args.prof` is false in this launch "
       "(the default of --prof, which the launcher does not pass; --prof would switch it on)",
       "usable data: no (line 8 of train.py: not run in this launch: `args.prof` is false in this launch (the "
       "default of --prof, which the launcher does not pass; --prof would switch it on))"]
ON = ["train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)", "usable data: yes"]


def _of_train(why):
    """The reason as the launcher's answer quotes it: each line of the script it names said with the script."""
    return re.sub(r"\b(lines? \d+)(?!\d)(?! of )", r"\1 of train.py", why)


def _unknown(why, line=8):
    return [f"train.py: torch_npu's profiler: unknown: line {line}, when args.prof: steps 0-9; but whether "
            f"`args.prof` holds in this launch is not known: {why}",
            f"usable data: unknown (run.sh:1: line {line} of train.py, when args.prof: steps 0-9; but whether "
            f"`args.prof` holds in this launch is not known: {_of_train(why)})"]


def test_the_flag_decides_the_profiler_through_two_calls(capsys, project):
    assert _answer(capsys, project) == OFF
    assert _answer(capsys, project, "--prof") == ON


@pytest.mark.parametrize("edit", [
    # by keyword
    ("    train(args, None)", "    train(model=None, args=args)"),
    # parse_known_args()'s namespace, named at the call
    ("    main(parser.parse_args())", "    flags, _ = parser.parse_known_args()\n    main(flags)"),
    # sys.argv[1:] is what parse_args() reads when given nothing
    ("    main(parser.parse_args())", "    main(parser.parse_args(sys.argv[1:]))"),
    # a function of the file that returns the namespace, given the command line
    ("    main(parser.parse_args())",
     "    def get_args(argv):\n        ns, rest = parser.parse_known_args(argv)\n        return ns\n"
     "    main(get_args(sys.argv[1:]))"),
    # a function of the file whose parameter defaults to None, called without it: parse_args(None) reads the command
    # line (ModelZoo-PyTorch's RotatE: `def parse_args(args=None): ... return parser.parse_args(args)`, called as
    # `main(parse_args())`; before, "line 699 calls main() with a args that is not parse_args()'s result")
    ("    main(parser.parse_args())",
     "    def get_args(argv=None):\n        return parser.parse_args(argv)\n    main(get_args())"),
    ("    main(parser.parse_args())",
     "    def get_args(argv=None, *, rest=None):\n        return parser.parse_args(args=argv)\n    main(get_args(rest=1))"),
])
def test_the_flags_are_followed_through_what_shows_them(capsys, project, edit):
    text = TRAIN.replace(*edit).replace("import argparse\n", "import argparse\nimport sys\n")
    (project / "train.py").write_text(text)
    assert _answer(capsys, project) == [s.replace("line 8", "line 9") for s in OFF]
    assert _answer(capsys, project, "--prof") == ON


def test_a_process_torch_spawns_gets_the_flags_in_the_tuple(capsys, project):
    # torch.multiprocessing.spawn(fn, args=t) runs fn(i, *t) in each process (pytorch spawn.py _wrap)
    (project / "train.py").write_text(TRAIN.replace("import torch_npu\n", "import torch.multiprocessing as mp\n"
                                                    "import torch_npu\n")
                                      .replace("def main(args):", "def main(gpu, args):")
                                      .replace("    main(parser.parse_args())",
                                               "    mp.spawn(main, nprocs=8, args=(parser.parse_args(),))"))
    assert _answer(capsys, project) == [s.replace("line 8", "line 9") for s in OFF]
    assert _answer(capsys, project, "--prof") == ON


@pytest.mark.parametrize("edit, why", [
    # a call that hands the function something else
    (("    train(args, None)", "    train(args, None)\n    train(load(), None)"),
     "line 19 calls train() with a args that is not parse_args()'s result"),
    # ... further up the chain
    (("    main(parser.parse_args())", "    main(load())"),
     "line 18 calls train() with a args (args of main()) that is not shown to be parse_args()'s result: line 25 "
     "calls main() with a args that is not parse_args()'s result"),
    # its default taken
    (("def train(args, model):\n", "def train(model, args=None):\n", "    train(args, None)", "    train(None)"),
     "line 18 calls train() without args, which then takes its default"),
    (("    train(args, None)", "    train(*[args, None])"), "line 18 calls train() with unpacked arguments"),
    # the function reaches code this file does not show
    (("    train(args, None)", "    train(args, None)\n    return train"),
     "line 19 uses train other than by calling it"),
    (("def main(args):", "__all__ = ['train']\n\n\ndef main(args):"),
     "train is exported in __all__ (line 17): other modules may call it"),
    (("def train(args, model):", "@profiled\ndef train(args, model):"),
     "train() has a decorator, which may call it with other arguments"),
    # the name or the parameter bound again
    (("def main(args):", "def train(x):\n    pass\n\n\ndef main(args):"), "train is defined again on line 17"),
    (("import torch_npu\n", "import torch_npu\nfrom tools import train\n"), "line 4 binds train again"),
    (("    train(args, None)", "    global train\n    train(args, None)"), "line 18 may bind train again"),
    (("        prof.stop()\n", "        prof.stop()\n    args = None\n"), "line 15 rebinds args in train()"),
    # a process spawned with the process index where the flags are expected
    (("    main(parser.parse_args())",
      "    import torch.multiprocessing as mp\n    mp.spawn(main, args=(parser.parse_args(),))"),
     "line 18 calls train() with a args (args of main()) that is not shown to be parse_args()'s result: line 26 "
     "spawns processes that call main() with a args that is not parse_args()'s result"),
    # parse_args() given words that are not the launch's
    (("    main(parser.parse_args())", "    main(parser.parse_args(['--prof']))"),
     "line 18 calls train() with a args (args of main()) that is not shown to be parse_args()'s result: line 25 "
     "calls main() with a args that is not parse_args()'s result"),
    # a call that leads back to the function
    (("    train(args, None)", "    train(args, None)\n    main(args)"),
     "line 18 calls train() with a args (args of main()) that is not shown to be parse_args()'s result: line 19 "
     "calls main() with a args (args) from a call that leads back to it, not followed"),
])
def test_a_parameter_that_may_hold_something_else_is_unknown(capsys, project, edit, why):
    text = TRAIN
    for k in range(0, len(edit), 2):
        text = text.replace(edit[k], edit[k + 1])
    (project / "train.py").write_text(text)
    line = next(k for k, s in enumerate(text.splitlines(), 1) if "profile(" in s)
    assert _answer(capsys, project, "--prof") == _unknown(why, line)


def _why(text):
    """why_not_passed for the `args` of the file's `if args.prof:`."""
    from flake8_npuprof.checks.analysis import Context, Settings
    from flake8_npuprof.knowledge.targets import Target
    from flake8_npuprof.source.text import SourceText
    from flake8_npuprof.values.passed_args import why_not_passed
    tree = ast.parse(text)
    ctx = Context(SourceText(text), tree, "train.py", Settings(target=Target.parse("8.0", "910B")))
    use = next(n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and ast.unparse(n) == "args.prof")
    scope = ctx.sites.scope_of.at(use, ctx.sites.module)
    return why_not_passed(ctx.resolver, use.value, scope, ctx.pos(use))


@pytest.mark.parametrize("edit, why", [
    (("def train(args, model):\n    if", "class Trainer:\n  def train(self, args, model):\n    if"),
     "train() is a method, whose callers are not followed"),
    (("def train(args, model):", "def train(*args):"), "args collects train()'s extra arguments"),
    # (the entry point does not reach it either: emulate says that first)
    (("    train(args, None)", "    pass"), "train() is not called in this file"),
])
def test_why_a_parameter_is_not_read_as_the_flags(edit, why):
    assert _why(TRAIN) == ""
    assert _why(TRAIN.replace(*edit)) == why


def test_a_lambda_parameter_is_not_read_as_the_flags():
    assert _why("import argparse\nparser = argparse.ArgumentParser()\nshow = lambda args: args.prof\n"
                "show(parser.parse_args())\n") == "args is a parameter of a lambda, whose callers are not followed"


def test_the_script_alone_keeps_the_condition(capsys, project):
    # without a launch nothing is decided: the condition is said, as before
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(project),
          str(project / "train.py")])
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == [f"train.py:8 profile: COLLECTS steps 0-9 into {project}/prof (when args.prof)",
                        "usable data: yes (where its conditions hold)"]


# ModelZoo-TensorFlow2 (Densenet, ghostnet): an argparse namespace named FLAGS, handed to npu_config(FLAGS) from
# `args = get_args()`; it was taken for absl's FLAGS, found no absl flag, and the launch's --profiling decided nothing
TF2 = """\
import argparse
import ast

import npu_device as npu


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profiling", type=ast.literal_eval, default=False)
    parser.add_argument("--profiling_dump_path", default="/home/data")
    args = parser.parse_args()
    return args


def npu_config(FLAGS):
    if FLAGS.profiling:
        npu.global_options().profiling_config.enable_profiling = True
        npu.global_options().profiling_config.profiling_options = \\
            '{"output":"' + FLAGS.profiling_dump_path + '","training_trace":"on"}'
    npu.open().as_default()


args = get_args()
npu_config(args)
"""


@pytest.mark.parametrize("given, lines", [
    ("False", ["  `FLAGS.profiling` is false in this launch (--profiling=False from run.sh:5)",
               "train.py:17 npu_device: OFF: not run in this launch: `FLAGS.profiling` is false in this launch "
               "(--profiling=False from run.sh:5): the adapter forwards profiling off, so GE falls back to "
               "PROFILING_MODE/PROFILING_OPTIONS (profiling_mode=False does not switch off profiling enabled there)",
               "usable data: no (no launch switches profiling on)"]),
    ("True", ["  `FLAGS.profiling` is true in this launch (--profiling=True from run.sh:5)",
              "train.py:17 npu_device: COLLECTS training_trace into /tmp/out"]),
])
def test_an_argparse_namespace_named_flags_is_decided_by_the_launch(capsys, tmp_path, given, lines):
    (tmp_path / "train.py").write_text(TF2)
    (tmp_path / "run.sh").write_text("profiling=False\nfor p in \"$@\"; do\n  case $p in --profiling=*) "
                                     "profiling=${p#*=};; esac\ndone\n"
                                     "python3 train.py --profiling=$profiling --profiling_dump_path=/tmp/out\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), "--", "bash", "run.sh",
          f"--profiling={given}"])
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"launch: run.sh:5 python3 train.py --profiling={given} --profiling_dump_path=/tmp/out"
    assert out[2:2 + len(lines)] == lines


# ModelZoo-TensorFlow2 (AttRec, mnist_convnet): a global `args = parse_args()` from the script's own function, read
# directly in npu_config(); `args.profiling` was no flag at all, so the launch left the setup "(conditional)"
ATTREC = """\
import argparse
import ast

import npu_device


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profiling", dest="profiling", type=ast.literal_eval)
    parser.add_argument("--profiling_dump_path", default="/home/data")
    args, unknown_args = parser.parse_known_args()
    if len(unknown_args) > 0:
        raise ValueError("Invalid command line arg(s)")
    return args


args = parse_args()
def npu_config():
    if args.profiling:
        npu_device.global_options().profiling_config.enable_profiling = True
        npu_device.global_options().profiling_config.profiling_options = \\
            '{"output":"' + args.profiling_dump_path + '","training_trace":"on"}'
    npu_device.open().as_default()


npu_config()
"""


@pytest.mark.parametrize("edit, given, lines", [
    ("", "True", ["  `args.profiling` is true in this launch (--profiling=True from run.sh:1)",
                  "train.py:20 npu_device: COLLECTS training_trace into /tmp/out"]),
    ("", "False", ["  `args.profiling` is false in this launch (--profiling=False from run.sh:1)",
                   "train.py:20 npu_device: OFF: not run in this launch: `args.profiling` is false in this launch "
                   "(--profiling=False from run.sh:1): the adapter forwards profiling off, so GE falls back to "
                   "PROFILING_MODE/PROFILING_OPTIONS (profiling_mode=False does not switch off profiling enabled "
                   "there)"]),
    # a second definition: which one runs is not shown, so the flag stays undecided
    ("def parse_args():\n    return None\n\n\n", "True",
     ["line 24 npu_device: COLLECTS training_trace into a directory known only at run time (conditional)"]),
])
def test_a_global_from_the_scripts_own_parse_function_is_decided_by_the_launch(capsys, tmp_path, edit, given,
                                                                               lines):
    (tmp_path / "train.py").write_text(ATTREC.replace("args = parse_args()", edit + "args = parse_args()"))
    (tmp_path / "run.sh").write_text(f"python3 train.py --profiling={given} --profiling_dump_path=/tmp/out\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"launch: run.sh:1 python3 train.py --profiling={given} --profiling_dump_path=/tmp/out"
    assert out[2:2 + len(lines)] == lines


@pytest.mark.parametrize("edit, lines", [
    # (type=ast.literal_eval: "True" is True)
    ("", ["  `args.profiling` is false in this launch (the default of --profiling, which the launcher does not pass;"
          " --profiling True would switch it on)",
          "train.py:20 npu_device: OFF: not run in this launch: `args.profiling` is false in this launch (the default "
          "of --profiling, which the launcher does not pass; --profiling True would switch it on): the adapter "
          "forwards profiling off, so GE falls back to PROFILING_MODE/PROFILING_OPTIONS (profiling_mode=False does "
          "not switch off profiling enabled there)"]),
    # set_defaults may give it another default: not decided
    ("    parser.set_defaults(**{})\n",
     ["train.py:21 npu_device: COLLECTS training_trace into /tmp/out (when args.profiling)"]),
])
def test_an_argparse_option_without_a_default_is_none_where_the_launch_leaves_it_out(capsys, tmp_path, edit, lines):
    # ModelZoo-TensorFlow2 involution: `--profiling` with type=ast.literal_eval and no default, which its launcher
    # never passes: argparse gives None, so the setup does not run (it said "COLLECTS ... (conditional)", "usable
    # data: yes (where its conditions hold)")
    (tmp_path / "train.py").write_text(ATTREC.replace("    args, unknown_args", edit + "    args, unknown_args"))
    (tmp_path / "run.sh").write_text("python3 train.py --profiling_dump_path=/tmp/out\n")
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    out = capsys.readouterr().out.splitlines()
    assert out[2:2 + len(lines)] == lines


# the function in a module the script imports (AnimeFaceGAN's utils.session_config(args)): emulate follows the
# module's setups (emulate/imported.py); the script's own calls are the parameter's callers only where no other code
# of the launch names the function
MAIN = """\
import argparse

import tensorflow as tf

from utils import session_config

parser = argparse.ArgumentParser()
parser.add_argument("--profiling", action="store_true")
args = parser.parse_args()
with tf.compat.v1.Session(config=session_config(args)) as sess:
    sess.run(tf.constant(1))
"""
UTILS = """\
import tensorflow as tf
from npu_bridge.npu_init import *


def session_config(args):
    config = tf.compat.v1.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if args.profiling:
        custom_op.parameter_map["profiling_mode"].b = True
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
            '{"output":"/tmp/prof","task_trace":"on"}')
    return config
"""
OPEN = ("utils.py:10 NpuOptimizer: MAY COLLECT task_trace into /tmp/prof (when args.profiling) — unknown: run.sh:1: "
        "utils.py, which main.py imports: line 10 of utils.py NpuOptimizer collects when `args.profiling` (MAY COLLECT task_trace "
        "into /tmp/prof); whether that holds in this launch is not known here")


def _imported(capsys, tmp_path, main_py, utils_py, *args, other=""):
    (tmp_path / "main.py").write_text(main_py)
    (tmp_path / "utils.py").write_text(utils_py)
    if other:
        (tmp_path / "other.py").write_text(other)
    (tmp_path / "run.sh").write_text('python3 main.py "$@"\n')
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), "--", "bash", "run.sh"] + list(args))
    return capsys.readouterr().out.splitlines()[2]


def test_a_function_of_an_imported_module_gets_the_flags_of_the_script(capsys, tmp_path):
    assert _imported(capsys, tmp_path, MAIN, UTILS) == (
        "  utils.py: `args.profiling` is false in this launch (the default of --profiling, which the launcher does "
        "not pass)")
    assert _imported(capsys, tmp_path, MAIN, UTILS, "--profiling") == (
        "  utils.py: `args.profiling` is true in this launch (--profiling from run.sh:1)")


@pytest.mark.parametrize("main_edit, utils_edit, other, why", [
    (("session_config(args)", "session_config(load())"), None, "",
     "line 10 of main.py calls session_config() with a args that is not parse_args()'s result"),
    (("args = parser.parse_args()", "args = parser.parse_args()\nmake = session_config"), None, "",
     "line 10 of main.py uses session_config other than by calling it"),
    (("from utils import session_config", "import other\nfrom utils import session_config"), None,
     "from utils import session_config\n\nsession_config(None)\n",
     "line 1 of other.py, which main.py imports, names session_config too: it may call it"),
    (None, ("    return config\n", "    return config\n\n\ndef eval_config():\n    return session_config(None)\n"), "",
     "line 17 of utils.py uses session_config itself"),
    (None, ("def session_config(args):", "@cached\ndef session_config(args):"), "",
     "session_config() has a decorator, which may call it with other arguments"),
])
def test_a_function_of_an_imported_module_called_otherwise_is_unknown(capsys, tmp_path, main_edit, utils_edit, other,
                                                                      why):
    main_py = MAIN.replace(*main_edit) if main_edit else MAIN
    utils_py = UTILS.replace(*utils_edit) if utils_edit else UTILS
    line = _imported(capsys, tmp_path, main_py, utils_py, "--profiling", other=other)
    assert line == OPEN.replace("line 10", f"line {11 if '@cached' in utils_py else 10}").replace(
        "utils.py:10", f"utils.py:{11 if '@cached' in utils_py else 10}") + f": {why}"


def test_is_true_of_a_switch_is_decided(capsys, project):
    # `if args.profiling is True:` (AnimeFaceGAN): store_true gives the bool singletons, compared by identity
    (project / "train.py").write_text(TRAIN.replace("    if args.prof:", "    if args.prof is True:"))
    assert _answer(capsys, project) == [s.replace("`args.prof` is false", "`args.prof is True` is false")
                                        .replace("; --prof would switch it on", "") for s in OFF]
    assert _answer(capsys, project, "--prof") == ON
    (project / "train.py").write_text(TRAIN.replace("    if args.prof:", "    if args.prof is not None:"))
    assert _answer(capsys, project) == ON   # False is not None: the profiler runs without --prof too


def test_a_name_bound_again_after_the_call_is_not_the_flags(capsys, project):
    # round a loop, the later assignment reaches the call: `args` is not parse_args()'s result on every run
    (project / "train.py").write_text(TRAIN.replace("    main(parser.parse_args())",
                                                    "    args = parser.parse_args()\n    for k in range(2):\n"
                                                    "        main(args)\n        args = load(k)"))
    assert _answer(capsys, project, "--prof") == _unknown(
        "line 18 calls train() with a args (args of main()) that is not shown to be parse_args()'s result: line 27 "
        "calls main() with a args that is not parse_args()'s result on every run: line 28 binds args again")


# ModelZoo-PyTorch's MAE (`args = get_args_parser(); args = args.parse_args(); main(args)`) and BEiT (`opts, ds_init =
# get_args()`, which ends in `return parser.parse_args(), ds_init`): the launch's flags reach main(); before, "line 24
# calls main() with a args that is not parse_args()'s result" and the answer unknown
@pytest.mark.parametrize("edit", [
    (("    main(parser.parse_args())", "    args = parser\n    args = args.parse_args()\n    main(args)"),),
    (("def main(args):", "def get_args(parser):\n    return parser.parse_args(), None\n\n\ndef main(args):"),
     ("    main(parser.parse_args())", "    opts, ds_init = get_args(parser)\n    main(opts)")),
    (("def main(args):", "def get_args(parser):\n    return parser.parse_known_args()\n\n\ndef main(args):"),
     ("    main(parser.parse_args())", "    args, unknown = get_args(parser)\n    main(args)")),
])
def test_the_flags_rebound_or_returned_in_a_tuple_are_decided(capsys, project, edit):
    text = TRAIN
    for old, new in edit:
        text = text.replace(old, new)
    (project / "train.py").write_text(text)
    assert _answer(capsys, project) == OFF
    assert _answer(capsys, project, "--prof") == ON


@pytest.mark.parametrize("edit, why", [
    # the rebinding may not run before the call
    (("    main(parser.parse_args())",
      "    args = parser\n    if len(sys.argv) > 1:\n        args = args.parse_args()\n    main(args)"),
     "line 29 calls main() with a args that is not parse_args()'s result"),
    (("    main(parser.parse_args())", "    args = parser\n    for _ in range(1):\n        args = args.parse_args()\n"
      "    main(args)"), "line 29 calls main() with a args that is not parse_args()'s result"),
    # a function called in between may bind it again
    (("    main(parser.parse_args())", "    args = parser\n    args = args.parse_args()\n    reset()\n    main(args)",
      "def main(args):", "def reset():\n    global args\n    args = None\n\n\ndef main(args):"),
     "line 34 calls main() with a args that is not parse_args()'s result"),
    # the other item of the returned tuple
    (("def main(args):", "def get_args(parser):\n    return None, parser.parse_args()\n\n\ndef main(args):",
      "    main(parser.parse_args())", "    opts, ds_init = get_args(parser)\n    main(opts)"),
     "line 31 calls main() with a args that is not parse_args()'s result"),
    # a namespace built from the flags is not argparse's reading of this launch
    (("    main(parser.parse_args())",
      "    args = parser.parse_args()\n    args = argparse.Namespace(**vars(args))\n    main(args)"),
     "line 28 calls main() with a args that is not parse_args()'s result"),
    # a default that is not None, or a parameter bound again before parse_args() reads it
    (("    main(parser.parse_args())",
      "    def get_args(argv=['--prof']):\n        return parser.parse_args(argv)\n    main(get_args())"),
     "line 28 calls main() with a args that is not parse_args()'s result"),
    (("    main(parser.parse_args())",
      "    def get_args(argv=None):\n        argv = ['--prof']\n        return parser.parse_args(argv)\n"
      "    main(get_args())"),
     "line 29 calls main() with a args that is not parse_args()'s result"),
])
def test_the_flags_rebound_where_it_may_not_reach_the_call_are_unknown(capsys, project, edit, why):
    text = TRAIN.replace("import argparse\n", "import argparse\nimport sys\n")
    for k in range(0, len(edit), 2):
        text = text.replace(edit[k], edit[k + 1])
    (project / "train.py").write_text(text)
    line = next(k for k, s in enumerate(text.splitlines(), 1) if "profile(" in s)
    train = next(k for k, s in enumerate(text.splitlines(), 1) if s == "    train(args, None)")
    assert _answer(capsys, project, "--prof") == _unknown(
        f"line {train} calls train() with a args (args of main()) that is not shown to be parse_args()'s result: "
        f"{why}", line)
