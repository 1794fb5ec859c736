"""A launcher with no launch emulate follows is not one that starts nothing: mindformers' launchers build their
`msrun` command and `eval` it, others start through `accelerate`, and emulate answered "no profiling setup found: a run
collects no profiling data", "usable data: no"."""

import shutil
import subprocess

import pytest

from flake8_npuprof.emulate.render import render_text
from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target

T = Target.parse("8.0", "910B")


def _emulate(tmp_path, launcher, args=None):
    (tmp_path / "train.py").write_text("import mindspore\n")
    (tmp_path / "run.sh").write_text(launcher)
    return emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={}, launcher_args=args)


@pytest.mark.parametrize("launcher, why", [
    # (deepspeed itself is followed: tests/test_deepspeed_launch.py)
    ("#!/bin/bash\naccelerate launch --num_processes 8 train.py --epochs 1 > log 2>&1\n",
     "no launch found, but run.sh:2 runs accelerate with train.py, which emulate does not follow: what it starts is "
     "not known here"),
    # an eval of plain words is walked as its command (tests/test_emulate_mindformers.py); a redirection is read again
    ('#!/bin/bash\nCMD="msrun --worker_num=8 $1 > log"\neval $CMD\n',
     "no launch found, but run.sh:3 runs `eval`, whose command is not read: what it starts is not known here"),
    ("#!/bin/bash\necho start train.py\n$PYTHON_BIN train.py\n",
     "no launch found, but run.sh:3 runs `$PYTHON_BIN`, not known statically: what it starts is not known here"),
    ("#!/bin/bash\npython3 -m deepspeed.launcher.launch --world_info=e30= train.py\n",
     "no launch found, but run.sh:2 runs python3 with train.py, which emulate does not follow: what it starts is "
     "not known here"),
    # vllm-ascend: vLLM's server profiles with torch_npu's profiler when VLLM_TORCH_PROFILER_DIR is set; emulate
    # said "it starts no Python script or msprof run, so a run of it collects nothing"
    ("#!/bin/bash\nexport VLLM_TORCH_PROFILER_DIR=./prof\npython3 -m vllm.entrypoints.openai.api_server --model m\n",
     "no launch found, but run.sh:3 runs python3 -m vllm.entrypoints.openai.api_server, a module the project does "
     "not hold, which emulate does not follow: what it starts is not known here"),
    # training started without a .py: a program on PATH (a console script), an installed module, inline code; each
    # was "no launch: it starts no Python script or msprof run", "usable data: no"
    ("#!/bin/bash\nnohup vega ./configs/sr_ea.yml -b t -d NPU > log 2>&1 &\n",
     "no launch found, but run.sh:2 runs the program vega, which emulate does not follow: what it starts is not "
     "known here"),
    ("#!/bin/bash\nllamafactory-cli train examples/qwen_lora_sft.yaml\n",
     "no launch found, but run.sh:2 runs the program llamafactory-cli, which emulate does not follow: what it "
     "starts is not known here"),
    ("#!/bin/bash\npython3 -m verl.trainer.main_ppo trainer.n_gpus_per_node=8\n",
     "no launch found, but run.sh:2 runs python3 -m verl.trainer.main_ppo, a module the project does not hold, "
     "which emulate does not follow: what it starts is not known here"),
    ("#!/bin/bash\npython3 -c 'import train'\n",
     "no launch found, but run.sh:2 runs `python3 -c`, whose code is not read: what it starts is not known here"),
    ("#!/bin/bash\npython3 - <<EOF\nimport train\nEOF\n",
     "no launch found, but run.sh:2 runs `python3 -`, whose code is not read: what it starts is not known here"),
    ("#!/bin/bash\ndocker run --device=/dev/davinci0 img bash /w/train.sh\n",
     "no launch found, but run.sh:2 runs the program docker, which emulate does not follow: what it starts is not "
     "known here"),
])
def test_a_command_that_may_start_a_script_makes_the_answer_unknown(tmp_path, launcher, why):
    report = _emulate(tmp_path, launcher, ["train.py"])
    assert report["usable"] is None and report["answer"]["why"] == why
    assert render_text(report).splitlines()[1:] == [f"no launch: {why}", f"usable data: unknown ({why})"]


@pytest.mark.parametrize("env, line", [
    # offsets into the file as the walk decodes it: a UTF-8 text-mode read shifted them (GB18030 comments read as
    # several characters each, CRLF lines read without their carriage returns) and the answer quoted other bytes
    ("# 训练脚本的环境变量设置\n$RUNNER train.py\n".encode("gb18030"), 2),
    (b"# x\r\n# y\r\n$RUNNER train.py\r\n", 3),
])
def test_a_sourced_file_s_unknown_command_is_quoted_as_written(tmp_path, env, line):
    (tmp_path / "env.sh").write_bytes(env)
    report = _emulate(tmp_path, "#!/bin/bash\nsource ./env.sh\n", [])
    assert render_text(report).splitlines()[1] == (f"no launch: no launch found, but env.sh:{line} runs `$RUNNER`, "
                                                   "not known statically: what it starts is not known here")


def test_a_module_the_project_holds_below_the_folder_it_runs_in_is_not_said_not_held(tmp_path):
    # OpenCLIP's shape: src/training/main.py, run as `python -m training.main` from the project's top (installed with
    # `pip install -e .`, or with src on PYTHONPATH). It said "a module the project does not hold"
    (tmp_path / "src" / "training").mkdir(parents=True)
    (tmp_path / "src" / "training" / "__init__.py").write_text("")
    (tmp_path / "src" / "training" / "main.py").write_text("import torch\n")
    report = _emulate(tmp_path, "#!/bin/bash\npython3 -m training.main --epochs 1\n", [])
    assert report["usable"] is None and report["answer"]["why"] == (
        "no launch found, but run.sh:2 runs python3 -m training.main, not found on the launch's sys.path (the folder "
        "it runs in, PYTHONPATH): the project's src/training/main.py is that module where src is on sys.path "
        "(installed with pip, or on PYTHONPATH), which emulate does not follow: what it starts is not known here")


def test_python_m_finds_its_module_on_the_pythonpath_the_launcher_exports(tmp_path):
    # `export PYTHONPATH=$PWD/src; python3 -m training.main`: Python 3.11 runs src/training/main.py (sys.path is the
    # folder it runs in, then PYTHONPATH). It said "a module the project does not hold"
    (tmp_path / "src" / "training").mkdir(parents=True)
    (tmp_path / "src" / "training" / "__init__.py").write_text("")
    (tmp_path / "src" / "training" / "main.py").write_text("import torch\n")
    for exported in ("export PYTHONPATH=$PWD/src:$PYTHONPATH", "export PYTHONPATH=src"):
        report = _emulate(tmp_path, f"#!/bin/bash\n{exported}\npython3 -m training.main --epochs 1\n", [])
        assert report["launch"]["lines"][0] == "launch: run.sh:3 python3 -m training.main --epochs 1"
        assert report["launch"]["unknown"] is None and report["usable"] is False
    # not exported, Python does not see it
    report = _emulate(tmp_path, "#!/bin/bash\nPYTHONPATH=src\npython3 -m training.main --epochs 1\n", [])
    assert report["launch"] == {"lines": [f"no launch: {report['answer']['why']}"], "unseen": True}


def test_a_launcher_that_only_names_a_script_still_starts_nothing(tmp_path):
    report = _emulate(tmp_path, "#!/bin/bash\necho usage: run.sh train.py\ncp train.py /tmp/x/\n"
                                "python3 msprof.py import -dir train.py\n"
                                "scp train.py host:/tmp/\nrsync -a train.py /backup/\n")
    assert report["usable"] is False
    # the shell's builtins, the system's and the toolkit's tools, `python -m` of the installer: known to start none
    report = _emulate(tmp_path, "#!/bin/bash\nulimit -n 65535\nsleep 1\nnpu-smi info\nmsnpureport -f\n"
                                "atc --model=x.pb --framework=3 --output=x\npython3 -m pip install -r req.txt\n"
                                "python -m json.tool cfg.json\npip3 install torch\nps -ef | grep train | awk '{print $2}' | xargs kill -9\n"
                                "docker build -t img .\nperl multi-bleu.perl ref.txt < out.txt\n"
                                "julia evales.jl\nwait\n")
    assert report["usable"] is False and report["unmodelled"] == (
        "run.sh: no launch: it starts no training script or msprof run (the Python it names runs only tools "
        "that train nothing: -m pip (line 7), -m json.tool (line 8)), so a run of it collects nothing")
    # the branch that would start it does not run with these arguments: nothing is started
    report = _emulate(tmp_path, '#!/bin/bash\nif [ "$1" = go ]; then msrun --worker_num=8 train.py; fi\n', ["no"])
    assert report["usable"] is False


# MindSpore's documented way to profile without a code change: `export MS_PROFILER_OPTIONS='{"start": true, ...}'`
# before the script; `import mindspore` imports mindspore.profiler, whose EnvProfiler starts a profiler then.
# emulate said "train.py: no profiling setup found: a run collects no profiling data", "usable data: no".
MS_SCRIPT = "import mindspore as ms\n\n\ndef main():\n    ms.set_context(mode=ms.GRAPH_MODE)\n\n\n" \
    "if __name__ == \"__main__\":\n    main()\n"


@pytest.mark.parametrize("options, usable", [('{"start": true, "output_path": "/tmp/ms_prof"}', None),
                                             ('{"start": false}', False), ('{"profiler_level": "Level1"}', False),
                                             ("{start: true}", False)])
def test_ms_profiler_options_that_start_make_a_mindspore_launch_unknown(tmp_path, options, usable):
    (tmp_path / "train.py").write_text(MS_SCRIPT)
    (tmp_path / "run.sh").write_text(f"#!/bin/bash\nexport MS_PROFILER_OPTIONS='{options}'\npython train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is usable
    if usable is None:
        assert report["answer"]["why"] == (
            'run.sh:3: MS_PROFILER_OPTIONS, set by the launcher (export at run.sh:2), has "start": true: MindSpore '
            "starts its profiler when train.py imports mindspore (EnvProfiler); when it stops and what it keeps is "
            "not followed here")


@pytest.mark.parametrize("options, usable", [('{"start": true}', None), ('{"start": false}', False)])
def test_ms_profiler_options_from_env_make_a_mindspore_script_unknown(tmp_path, options, usable):
    # `MS_PROFILER_OPTIONS='{"start": true}' npuprof emulate --env train.py` on a MindSpore script without a profiler
    # of its own (mindcv's train.py) said "no profiling setup found: a run collects no profiling data"; the same
    # variable through a launcher or `emulate --env -- python train.py` said unknown
    (tmp_path / "train.py").write_text(MS_SCRIPT)
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=True, environ={"MS_PROFILER_OPTIONS": options})
    assert report["usable"] is usable
    if usable is None:
        why = ('MS_PROFILER_OPTIONS, set in the environment (--env), has "start": true: MindSpore starts its profiler '
               "when train.py imports mindspore (EnvProfiler); when it stops and what it keeps is not followed here")
        assert report["answer"]["why"] == why
        assert render_text(report).splitlines()[1:3] == [f"train.py: MindSpore's profiler: unknown: {why}",
                                                         f"usable data: unknown ({why})"]
    # without --env the caller's environment is not read; the way to profile it from outside is MindSpore's
    # variable, not GE's PROFILING_MODE/PROFILING_OPTIONS (which the advice named)
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={"MS_PROFILER_OPTIONS": options})
    assert report["usable"] is False and render_text(report).splitlines()[1] == (
        f"{tmp_path}/train.py: no profiling setup found: a run collects no profiling data (MindSpore starts its "
        'profiler at `import mindspore` when MS_PROFILER_OPTIONS holds {"start": true, ...}: set it and use --env to emulate the '
        "environment)")


def test_an_unused_profiler_import_is_no_setup(tmp_path):
    # mindrlhf's scripts/test_actor_inference.py imports MindSpore's Profiler and never calls it: `emulate` of the
    # script said "names MindSpore's profiler, but no call emulate replays", usable data unknown, where a launch of it
    # said "no profiling setup found"
    (tmp_path / "train.py").write_text("import mindspore\nfrom mindspore import Profiler\n\nmindspore.set_context()\n")
    hint = ('(MindSpore starts its profiler at `import mindspore` when MS_PROFILER_OPTIONS holds {"start": true, '
            "...}: set it and use --env to emulate the environment)")
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})
    assert report["usable"] is False and render_text(report).splitlines()[1] == (
        f"{tmp_path}/train.py: no profiling setup found: a run collects no profiling data {hint}")
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is False and render_text(report).splitlines()[3].endswith(
        f"train.py: no profiling setup found: a run collects no profiling data {hint}")
    # called, it is MindSpore's profiler, replayed
    (tmp_path / "train.py").write_text("import mindspore\nfrom mindspore import Profiler\n\np = Profiler()\n")
    assert emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})["usable"] is not False


def test_a_profiler_import_under_a_test_the_launch_makes_false_is_no_failure(tmp_path):
    # mindspore-ai/models' CycleGAN: `if args.need_profiler:` (argparse, default False) then the import NPP364 names;
    # its run_train_ascend.sh passes no --need_profiler, and the launch's answer was "fails: line 8, when
    # args.need_profiler: ... the job stops": python never runs that import in this launch
    (tmp_path / "train.py").write_text(
        "import argparse\nimport mindspore\np = argparse.ArgumentParser()\n"
        "p.add_argument('--need_profiler', type=int, default=0)\nargs = p.parse_args()\n\nif args.need_profiler:\n"
        "    from mindspore.profiler.profiling import Profiler\n    profiler = Profiler(output_path='./prof')\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert (report["usable"], report["answer"]["why"]) == (False, (
        "train.py: line 8 imports MindSpore's profiler only where the tests it is under hold, and "
        "`args.need_profiler` is false in this launch (the default of --need_profiler, which the launcher does not "
        "pass; --need_profiler 1 would switch it on): the import does not run and nothing is profiled"))
    # passed, the import runs and stops the job
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython train.py --need_profiler 1\n")
    assert emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})["answer"]["why"].startswith(
        "run.sh:2: fails: train.py: line 8, when args.need_profiler: mindspore.profiler.profiling is not a module")


def test_a_profiler_import_the_launch_runs_after_one_it_skips_still_fails(tmp_path):
    # a second import NPP364 names, at the top level, runs in every launch (python stops there with
    # ModuleNotFoundError on MindSpore 2.7-2.10): the answer said "the import does not run and nothing is profiled"
    (tmp_path / "train.py").write_text(
        "import argparse\nimport mindspore\np = argparse.ArgumentParser()\n"
        "p.add_argument('--need_profiler', type=int, default=0)\nargs = p.parse_args()\n\nif args.need_profiler:\n"
        "    from mindspore.profiler.profiling import Profiler\n    profiler = Profiler(output_path='./prof')\n"
        "from mindspore.profiler.profiling import ProfilerLevel\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["answer"]["why"].startswith("run.sh:2: fails: train.py: line 10: mindspore.profiler.profiling is not "
                                              "a module of MindSpore 2.7-2.10")


def test_a_profiler_imported_from_a_module_mindspore_no_longer_has(tmp_path):
    # mindspore-ai/models' YOLOv4 train.py: `from mindspore.profiler.profiling import Profiler` (NPP364) stops the
    # job on MindSpore 2.7-2.10; emulate said "names MindSpore's profiler, but no call emulate replays (npuprof
    # check judges it)", usable data unknown, the script and its launch alike
    (tmp_path / "train.py").write_text("import mindspore\nfrom mindspore.profiler.profiling import Profiler\n\n"
                                       "if need_profiler:\n    profiler = Profiler(output_path='./prof')\n")
    why = ("line 2: mindspore.profiler.profiling is not a module of MindSpore 2.7-2.10: the import raises "
           "ModuleNotFoundError and the job stops; import Profiler from mindspore.profiler, which exports it")
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})
    assert (report["usable"], report["answer"]["why"]) == (False, why)
    assert render_text(report).splitlines()[1:3] == [f"train.py: MindSpore's profiler: fails: {why}",
                                                     f"usable data: no ({why})"]
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert (report["usable"], report["answer"]["why"]) == (False, f"run.sh:2: fails: train.py: {why}")
    assert render_text(report).splitlines()[3:5] == [f"train.py: MindSpore's profiler: fails: {why}",
                                                     f"usable data: no (run.sh:2: fails: train.py: {why})"]
    # an import under an `if` stops the job only when its test holds (mindspore-ai/models' CycleGAN: `if
    # args.need_profiler:` then the import, in main(); its run_train_ascend.sh passes no --need_profiler, and the answer
    # was "fails: line 54: ... the job stops"): the test is said
    (tmp_path / "train.py").write_text("import mindspore\n\n\ndef main(args):\n    if args.need_profiler:\n"
                                       "        from mindspore.profiler.profiling import Profiler\n"
                                       "        profiler = Profiler(output_path='./prof')\n    elif args.x:\n"
                                       "        import mindspore.profiler.profiling\n")
    when = ("line 6, when args.need_profiler: mindspore.profiler.profiling is not a module of MindSpore 2.7-2.10: the "
            "import raises ModuleNotFoundError and the job stops; import Profiler from mindspore.profiler, which "
            "exports it")
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})
    assert (report["usable"], report["answer"]["why"]) == (False, when)
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert (report["usable"], report["answer"]["why"]) == (False, f"run.sh:2: fails: train.py: {when}")
    (tmp_path / "train.py").write_text("import mindspore\nif a:\n    pass\nelse:\n    if b:\n        x = 1\n"
                                       "    elif c:\n        import mindspore.profiler.profiling\n")
    assert emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})["answer"]["why"].startswith(
        "line 8, when not (a) and not (b) and c: mindspore.profiler.profiling is not a module")
    # where a try falls back to the module 2.7-2.10 have, it is no failure: the call is replayed
    (tmp_path / "train.py").write_text("import mindspore\ntry:\n    from mindspore.profiler.profiling import Profiler\n"
                                       "except ImportError:\n    from mindspore.profiler import Profiler\n\n"
                                       "profiler = Profiler(output_path='./prof')\n")
    assert emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})["usable"] is True


SESSION = ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n\nconfig = tf.ConfigProto()\n"
           "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
           "op.parameter_map['profiling_mode'].b = True\n"
           "op.parameter_map['profiling_options'].s = tf.compat.as_bytes('{\"output\": \"/tmp/prof\", "
           "\"task_trace\": \"on\"}')\nsess = tf.Session(config=config)\n")


def test_python_m_of_a_package_of_the_project_runs_its_main(tmp_path):
    # `python -m trainer` runs trainer/__main__.py; emulate took trainer/__init__.py for the script ("no profiling")
    (tmp_path / "trainer").mkdir()
    (tmp_path / "trainer" / "__init__.py").write_text("")
    (tmp_path / "trainer" / "__main__.py").write_text(SESSION)
    report = _emulate(tmp_path, "#!/bin/bash\npython3 -m trainer --epochs 1\n")
    assert (report["usable"], report["launch"]["script"]) == (True, "trainer/__main__.py")
    # without a __main__.py, Python cannot run the package: not "no"
    (tmp_path / "trainer" / "__main__.py").unlink()
    report = _emulate(tmp_path, "#!/bin/bash\npython3 -m trainer --epochs 1\n")
    assert report["usable"] is None and report["answer"]["why"] == (
        "run.sh:2: trainer is a package of the project without a __main__.py, which `python -m` runs: what it "
        "starts is not known here")


def test_mpirun_s_mca_takes_a_name_and_a_value(tmp_path):
    # `-mca plm_rsh_agent ssh`: the walk took plm_rsh_agent for mpirun's command, and the launch for none ("no");
    # `-bind-to socket` (Open MPI's one-dash spelling, GPT-3's run_8p.sh): socket
    (tmp_path / "train.py").write_text(SESSION)
    (tmp_path / "run.sh").write_text("#!/bin/bash\nmpirun --allow-run-as-root -np 8 -mca plm_rsh_agent ssh "
                                     "--mca btl ^openib -bind-to socket -map-by slot -x NCCL_DEBUG=INFO "
                                     "python3 train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert (report["usable"], report["launch"]["script"], report["launch"]["ranks"]) == (True, "train.py", 8)


def test_a_here_document_glued_to_its_command_is_data(tmp_path):
    # `:<<COM` (a block comment) and `cat<<EOF`: the walk read their bodies as commands, so `COM` was "the program
    # COM" and the python3 line in the body a launch; bash reads them as data
    report = _emulate(tmp_path, "#!/bin/bash\n:<<COM\nexport HCCL_X=1\nCOM\ncat<<EOF > go.sh\npython3 train.py\nEOF\n")
    assert (report["usable"], report["unmodelled"]) == (
        False, "run.sh: no launch: it starts no Python script or msprof run, so a run of it collects nothing")
    bash = shutil.which("bash")
    if bash is not None:
        r = subprocess.run([bash, "-c", ":<<COM\necho inside\nCOM\ncat<<EOF\nbody\nEOF\n"], capture_output=True,
                           text=True, timeout=30)
        assert r.stdout == "body\n"


def test_a_script_importing_a_package_s_worth_of_modules_reads_them_all(tmp_path):
    # mindcv's train.py imports 108 modules of the project, none naming profiling: `emulate train.py` and
    # `msrun ... train.py` said unknown ("it imports more modules than are followed here", 64 were read)
    for i in range(70):
        (tmp_path / f"m{i}.py").write_text(f"import m{i + 1}\n" if i < 69 else "X = 1\n")
    (tmp_path / "train.py").write_text("import m0\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython3 train.py\n")
    for path in ("train.py", "run.sh"):
        assert emulate_path(str(tmp_path / path), T, use_env=False, environ={})["usable"] is False
    # the last of them names a profiler: unknown, naming it
    (tmp_path / "m69.py").write_text("import mindspore\nprof = mindspore.Profiler()\n")
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})
    assert report["usable"] is None and report["answer"]["why"] == (
        "train.py has no profiling setup of its own, but m69.py, which it imports, names one "
        "(line 2: `prof = mindspore.Profiler()`): a setup in a module it "
        "imports is not emulated here")


def test_a_script_importing_more_modules_than_are_followed_is_unknown_alone_as_in_a_launch(tmp_path):
    # past the bound (1,024 modules) a module may hold a setup: `emulate train.py` said "no profiling setup found",
    # usable data no, where a launch of it said unknown
    for i in range(1030):
        (tmp_path / f"m{i}.py").write_text("X = 1\n")
    (tmp_path / "train.py").write_text("".join(f"import m{i}\n" for i in range(1030)))
    why = ("train.py has no profiling setup of its own, but it imports more modules than are followed here: a setup "
           "in a module it imports is not emulated here")
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})
    assert report["usable"] is None and report["answer"]["why"] == why
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython3 train.py\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None and report["answer"]["why"] == f"run.sh:2: {why}"
    # MS_PROFILER_OPTIONS with "start": true (--env) decides first, as in a launch: EnvProfiler starts at the import
    (tmp_path / "train.py").write_text("import mindspore\n" + "".join(f"import m{i}\n" for i in range(70)))
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=True,
                          environ={"MS_PROFILER_OPTIONS": '{"start": true}'})
    assert report["usable"] is None and "(EnvProfiler)" in report["answer"]["why"]


def test_a_module_using_memory_profiler_names_no_npu_profiler(tmp_path):
    # YOLOX's mmdet/core/hook/memory_profiler_hook.py (`from memory_profiler import memory_usage`, the pip package
    # that samples host memory) was "names one": the launch unknown, where no file of the project profiles the NPU
    (tmp_path / "hook.py").write_text("def usage():\n    from memory_profiler import memory_usage\n    return memory_usage()\n")
    (tmp_path / "train.py").write_text("import hook\n\nhook.usage()\n")
    (tmp_path / "run.sh").write_text("#!/bin/bash\npython3 train.py\n")
    for path in ("train.py", "run.sh"):
        assert emulate_path(str(tmp_path / path), T, use_env=False, environ={})["usable"] is False
    # a module named profiler is one
    (tmp_path / "hook.py").write_text("from .utils.profiler import start\n")
    assert emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})["usable"] is None


PT_SCRIPT = "import torch\nimport torch_npu\n\nprint(torch.ones(2).npu() * 2)\n"
def test_ge_variables_on_a_torch_npu_script_are_unknown_not_yes(tmp_path):
    out = tmp_path / "p"        # (an output folder of the test's own: the preflight's words depend on whether it exists)
    out.mkdir()
    GE_ENV = {"PROFILING_MODE": "true", "PROFILING_OPTIONS": '{"output":"%s","task_trace":"on"}' % out}
    # a torch_npu script (ModelZoo-PyTorch) with GE's PROFILING_MODE/PROFILING_OPTIONS in the environment said
    # "train.py:0 env: COLLECTS task_trace into /tmp/p", "usable data: yes": torch_npu starts the collector through
    # aclprofStart, and no source read shows GE reading those variables in its process
    (tmp_path / "train.py").write_text(PT_SCRIPT)
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=True, environ=GE_ENV)
    why = ("a torch_npu script without TensorFlow: whether GE reads PROFILING_MODE/PROFILING_OPTIONS in its process is "
           "not known here (torch_npu profiles with its own profiler, or under msprof)")
    assert report["usable"] is None and render_text(report).splitlines()[1:4] == [
        f"train.py:0 env: UNKNOWN: {why}", f"preflight: ok ({out} is writable)",
        f"usable data: unknown (line 0 env: {why})"]
    # the same variables exported by its launcher
    (tmp_path / "run.sh").write_text("#!/bin/bash\nexport PROFILING_MODE=true\n"
                                     "export PROFILING_OPTIONS='{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"
                                     "python3 train.py\n")
    assert emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})["usable"] is None
    # vLLM on Ascend runs torch_npu: the same
    (tmp_path / "train.py").write_text("from vllm import LLM\n\nLLM(model='m').generate('hi')\n")
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=True, environ=GE_ENV)
    assert report["usable"] is None and render_text(report).splitlines()[3] == (
        "usable data: unknown (line 0 env: a vLLM script without TensorFlow: whether GE reads PROFILING_MODE/"
        "PROFILING_OPTIONS in its process is not known here (vLLM profiles with its own profiler, or under msprof))")
    # beside TensorFlow it stays GE's route
    (tmp_path / "train.py").write_text("import tensorflow as tf\n" + PT_SCRIPT)
    assert emulate_path(str(tmp_path / "train.py"), T, use_env=True, environ=GE_ENV)["usable"] is True
    # and the advice for a torch_npu script without a setup is not GE's variables
    (tmp_path / "train.py").write_text(PT_SCRIPT)
    report = emulate_path(str(tmp_path / "train.py"), T, use_env=False, environ={})
    assert report["usable"] is False and render_text(report).splitlines()[1] == (
        f"{tmp_path}/train.py: no profiling setup found: a run collects no profiling data (torch_npu collects with "
        "torch_npu.profiler, or under msprof: emulate the run as `npuprof emulate -- msprof --output=DIR python3 "
        "SCRIPT ...`)")


def test_a_launcher_that_runs_only_python_tools_is_not_said_to_start_no_python(tmp_path):
    # bash 5.2 (launch_truth's stubs) ran `python3 -m build` and `python3 -m twine upload dist/*` of a packaging
    # launcher this said "starts no Python script" of; they train nothing, so nothing is collected
    report = _emulate(tmp_path, "rm -rf dist\npython3 -m build\n# python3 -m pip list\n"
                                "python3 -m twine upload dist/*\n")
    assert report["usable"] is False and report["unmodelled"] == (
        "run.sh: no launch: it starts no training script or msprof run (the Python it names runs only tools "
        "that train nothing: -m build (line 2), -m twine (line 4)), so a run of it collects nothing")
