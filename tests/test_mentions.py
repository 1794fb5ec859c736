"""A script that only mentions profiling is not one that profiles: emulate answered "unknown" for scripts whose
profiler sits in a comment or in code parked in a triple-quoted string (a model zoo's `'''` around a
`torch.autograd.profiler.profile(use_npu=True)` block, a commented-out `parameter_map["profiling_mode"]`), and for
a script importing a module that calls `torch._C._jit_set_profiling_mode(False)` (TorchScript's executor, no
profiler at all), saying they name "a profiling API emulate does not model"."""

from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.source.prefilter import PROFILING_WORDS, code_only

T = Target.parse("8.0", "910B")

PARKED = '''import torch
import torch_npu


def train(model, batch):
    """Steps once; profile with torch.autograd.profiler.profile(use_npu=True) when asked."""
    loss = model(batch)  # torch_npu.profiler.profile(...) was here
    \'\'\'
    with torch.autograd.profiler.profile(use_npu=True) as prof:
        loss = model(batch)
    prof.export_chrome_trace("out.prof")
    \'\'\'
    return loss


if __name__ == "__main__":
    train(lambda b: b, torch.ones(1))
'''


def test_code_only_blanks_comments_and_bare_strings_and_keeps_the_rest():
    text = 'x = "use torch_npu.profiler"  # profile\n"""a docstring"""\ny = ("a"\n     "b")\n'
    assert code_only(text) == 'x = "use torch_npu.profiler"' + " " * 11 + '\n                 \ny = ("a"\n     "b")\n'
    assert code_only(PARKED).count("\n") == PARKED.count("\n")
    assert "profile" not in code_only(PARKED).replace("import", "")
    assert code_only("def f(:\n  '''x'''\n") == "def f(:\n  '''x'''\n"     # does not tokenize: as it is


def test_a_profiler_in_a_parked_string_is_no_profiler(tmp_path):
    (tmp_path / "train.py").write_text(PARKED)
    report = emulate_path(str(tmp_path / "train.py"), T, cwd=str(tmp_path), use_env=False, environ={})
    # it said "unknown (it names a torch_npu or torch profiler, but no call emulate replays ...)"
    assert report["usable"] is False
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    # it said "train.py names a profiling API emulate does not model (...): what it collects is not known here"
    assert report["usable"] is False and report["answer"]["why"] == "no launch switches profiling on"


COMMENTED = '''import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
# if FLAGS.profiling:
#     custom_op.parameter_map["profiling_mode"].b = True
with tf.Session(config=config) as sess:
    sess.run(tf.no_op())
'''


def test_a_launch_of_a_script_whose_setup_is_commented_out_collects_nothing(tmp_path):
    (tmp_path / "validate.py").write_text(COMMENTED)
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 validate.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is False and report["answer"]["why"] == "no launch switches profiling on"


def test_torchscripts_profiling_executor_is_no_profiling_setting(tmp_path):
    assert not PROFILING_WORDS.search("torch._C._jit_set_profiling_mode(False)")
    assert PROFILING_WORDS.search('custom_op.parameter_map["profiling_mode"].b = True')
    assert PROFILING_WORDS.search("os.environ['PROFILING_MODE'] = 'true'")
    (tmp_path / "jit.py").write_text("import torch\n\n\ndef legacy():\n    torch._C._jit_set_profiling_mode(False)\n")
    (tmp_path / "train.py").write_text("import torch\nimport jit\n\njit.legacy()\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    # it said "train.py has no profiling setup of its own, but jit.py, which it imports, names one"
    assert report["usable"] is False and report["answer"]["why"] == "no launch switches profiling on"


def test_a_ge_name_without_a_setup_is_said_as_such(tmp_path):
    # AmoebaNet-D's amoeba_net.py imports ProfilingConfig and never builds one: it was "names a profiling API
    # emulate does not model (torch_npu, torch or MindSpore profiler, msprof through a subprocess)"
    (tmp_path / "train.py").write_text("import tensorflow as tf\n# profiling, some day\n"
                                       "from npu_bridge.estimator.npu.npu_config import ProfilingConfig\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:3: train.py names ProfilingConfig (line 3), but no profiling setup emulate can follow is built from "
        "it: what it collects is not known here")


TRAINER = """import tensorflow as tf
from npu_bridge.estimator.npu.npu_config import NPURunConfig
from npu_bridge.estimator.npu.npu_config import ProfilingConfig


def make_config(model_dir):
    # profiling_config = ProfilingConfig(enable_profiling=True, enable_options=['task_trace'])
    return NPURunConfig(model_dir=model_dir, save_checkpoints_steps=100)
    # profiling_config=profiling_config)
"""


def test_a_module_that_imports_profilingconfig_and_never_uses_it_names_no_setup(tmp_path):
    # ResnetVariant (ModelZoo-TensorFlow): vega's trainer.py imports ProfilingConfig and builds its NPURunConfig
    # without one (the profiling_config lines are comments); emulate said "run_example.py has no profiling setup of
    # its own, but ../vega/core/trainer/trainer.py, which it imports, names one"
    (tmp_path / "trainer.py").write_text(TRAINER)
    (tmp_path / "train.py").write_text("import trainer\n\ntrainer.make_config('/tmp/m')\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is False and report["answer"]["why"] == "no launch switches profiling on"
    # imported under another name, the name it is used by is not one looked for: still named, never "no"
    (tmp_path / "trainer.py").write_text(TRAINER.replace("import ProfilingConfig", "import ProfilingConfig as PC"))
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None and "but trainer.py, which it imports, names one" in report["answer"]["why"]


def test_a_profiler_parked_in_a_module_the_script_imports_is_no_profiler(tmp_path):
    # GPT-NeoX (ModelZoo-PyTorch): megatron/training.py holds its torch_npu profiler in a ''' string and comments;
    # emulate said "deepy.py has no profiling setup of its own, but megatron/training.py, which it imports, names one"
    (tmp_path / "helper.py").write_text(PARKED.replace('if __name__ == "__main__":\n    train(lambda b: b, '
                                                       'torch.ones(1))\n', ""))
    (tmp_path / "train.py").write_text("import torch\nimport helper\n\nhelper.train(lambda b: b, torch.ones(1))\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is False and report["answer"]["why"] == "no launch switches profiling on"
    # the same call live in the module: train.py calls it at its top level, so the job stops there
    # (emulate/legacy_api.py; it was "unknown: ... names one (line 5: ...)")
    (tmp_path / "helper.py").write_text("import torch\n\n\ndef train(model, batch):\n"
                                        "    with torch.autograd.profiler.profile(use_npu=True):\n"
                                        "        return model(batch)\n")
    report = emulate_path(str(tmp_path / "run.sh"), Target.parse("8.0", "910B", "7.3"), use_env=False, environ={})
    assert report["usable"] is False and report["answer"]["why"] == (
        "run.sh:3: fails: helper.py, which train.py imports, profiles with the legacy profiler API: helper.py:5 "
        "`torch.autograd.profiler.profile(use_npu=True)` runs in this launch and raises TypeError on torch_npu 7.3: "
        "only torch_npu's own profile (its builds for torch 1.8.1-2.0.1 put it in torch.autograd.profiler) takes "
        "use_npu: the job stops there")
    # a profiler emulate does not judge there: unknown, naming it. A form feed (a page break, as GNU-style sources
    # hold) or U+2028 in a string ends no line for python: the line shown is python's line 5 (str.splitlines ends a
    # line at each and showed `` and `b"`)
    for extra in ("", "\x0c\n", "x = 'a\u2028b'\n"):
        (tmp_path / "helper.py").write_text("import torch\n" + (extra or "\n") + "\ndef train(model, batch):\n"
                                            "    with torch.profiler.profile():\n"
                                            "        return model(batch)\n", encoding="utf-8")
        report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
        assert report["usable"] is None and report["answer"]["why"] == (
            "run.sh:3: train.py has no profiling setup of its own, but helper.py, which it imports, names one "
            "(line 5: `with torch.profiler.profile():`): a setup in a module it imports is not emulated here"), extra


def test_a_module_naming_a_profiler_in_code_goes_before_one_listing_its_name(tmp_path):
    # mindformers' run_mindformer.py: "mindformers/trainer/config_args.py, which it imports, names one"; that
    # module only lists 'enable_profiling' among the context keywords it takes, callback.py builds the profiler
    assert code_only("k = ['enable_profiling', x]  # c\n", strings=True) == "k = [" + " " * 18 + ", x]" + " " * 5 + "\n"
    assert not PROFILING_WORDS.search(code_only("names = ['enable_profiling', 'profiling_options']\n", strings=True))
    assert PROFILING_WORDS.search(code_only("names = ['enable_profiling', 'profiling_options']\n"))
    (tmp_path / "config_args.py").write_text("SUPPORTED = [\n    'enable_profiling',\n    'profiling_options',\n]\n")
    (tmp_path / "callback.py").write_text("from mindspore.profiler import profile\n\n\ndef monitor():\n"
                                          "    return profile(start_profile=False)\n")
    (tmp_path / "train.py").write_text("import config_args\nimport callback\n\ncallback.monitor()\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\npython3 train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:3: train.py has no profiling setup of its own, but callback.py, which it imports, names one "
        "(line 1: `from mindspore.profiler import profile`): a setup "
        "in a module it imports is not emulated here")
    # only the list: still named, never "no" (a GE name in a string may be a setting: parameter_map["profiling_mode"])
    (tmp_path / "train.py").write_text("import config_args\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None and "but config_args.py, which it imports, names one" in report["answer"]["why"]


VLLM = 'from vllm import LLM\n\nllm = LLM(model="m")\nllm.start_profile()\nllm.generate("hi")\nllm.stop_profile()\n'


def test_vllms_profiler_is_a_profiling_api_not_no_setup(tmp_path):
    # vllm-ascend before #5928 (worker_v1.py _init_profiler) runs torch_npu's profiler between start_profile() and
    # stop_profile() where VLLM_TORCH_PROFILER_DIR is set: "usable data: no" was false; emulate does not model it
    (tmp_path / "offline.py").write_text(VLLM)
    report = emulate_path(str(tmp_path / "offline.py"), T, use_env=False, environ={})
    # (the names the file holds: it said "(start_profile, VLLM_TORCH_PROFILER_DIR)" of a file without the variable)
    assert report["usable"] is None and report["answer"]["why"] == (
        "it names vLLM's profiler (start_profile), which emulate does not model: what it collects is not known here")
    (tmp_path / "env.py").write_text("import os\nos.environ['VLLM_TORCH_PROFILER_DIR'] = './p'\n" + VLLM)
    assert emulate_path(str(tmp_path / "env.py"), T, use_env=False, environ={})["answer"]["why"] == (
        "it names vLLM's profiler (start_profile, VLLM_TORCH_PROFILER_DIR), which emulate does not model: what it "
        "collects is not known here")
    (tmp_path / "run.sh").write_text("#!/bin/bash\ncd $(dirname $0)\nVLLM_TORCH_PROFILER_DIR=./p python3 offline.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:3: offline.py names a profiling API emulate does not model (torch_npu, torch, MindSpore or vLLM "
        "profiler, msprof through a subprocess): what it collects is not known here")
    # a script that only mentions it in a comment is still no setup
    (tmp_path / "offline.py").write_text("from vllm import LLM\n# llm.start_profile()\nLLM(model='m')\n")
    report = emulate_path(str(tmp_path / "offline.py"), T, use_env=False, environ={})
    assert report["usable"] is False
    # and its advice is vLLM's profiler, not GE's PROFILING_MODE/PROFILING_OPTIONS (which it named)
    from flake8_npuprof.emulate.render import render_text
    assert render_text(report).splitlines()[1] == (
        f"{tmp_path}/offline.py: no profiling setup found: a run collects no profiling data (vLLM profiles with its own "
        "profiler, which emulate does not model: profiler_config (--profiler-config; VLLM_TORCH_PROFILER_DIR before "
        "vllm-ascend's #5928), started and stopped by start_profile() and stop_profile())")


def test_a_project_profiler_the_script_builds_is_unknown_not_no(tmp_path):
    # MindSpeed-MM: `npuprof emulate mindspeed_mm/models/ae/training/training.py` (`from mindspeed_mm.tools.profiler
    # import Profiler`, `prof = Profiler(args.tool.profile)`, prof.start()/step()/stop()) said "no profiling setup
    # found: a run collects no profiling data", "usable data: no"; a launch of the script says unknown
    (tmp_path / "pkg" / "tools").mkdir(parents=True)
    (tmp_path / "pkg" / "train").mkdir()
    for folder in ("pkg", "pkg/tools", "pkg/train"):
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "pkg" / "tools" / "profiler.py").write_text(
        "import torch_npu\n\n\nclass Profiler:\n    def __init__(self, config):\n"
        "        self.prof = torch_npu.profiler.profile()\n")
    (tmp_path / "pkg" / "train" / "training.py").write_text(
        "from pkg.tools.profiler import Profiler\n\n\ndef train(args):\n    prof = Profiler(args.profile)\n"
        "    prof.start()\n    prof.stop()\n")
    report = emulate_path(str(tmp_path / "pkg" / "train" / "training.py"), T, use_env=False, environ={})
    assert report["usable"] is None and report["answer"]["why"] == (
        "training.py names a profiling API emulate does not model (torch_npu, torch, MindSpore or vLLM profiler, "
        "msprof through a subprocess): what it collects is not known here")
