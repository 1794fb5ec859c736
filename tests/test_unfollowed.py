"""A launcher with no launch emulate follows is not one that starts nothing: mindformers' launchers build their
`msrun` command and `eval` it, others start through `deepspeed`, and emulate answered "no profiling setup found: a run collects no profiling data", "usable data: no"."""

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
    ("#!/bin/bash\ndeepspeed --num_gpus 8 train.py --epochs 1 > log 2>&1\n",
     "no launch found, but run.sh:2 runs deepspeed with train.py, which emulate does not follow: what it starts is "
     "not known here"),
    ('#!/bin/bash\nCMD="msrun --worker_num=8 $1"\neval $CMD\n',
     "no launch found, but run.sh:3 runs `eval`, whose command is not read: what it starts is not known here"),
    ("#!/bin/bash\necho start train.py\n$PYTHON_BIN train.py\n",
     "no launch found, but run.sh:3 runs `$PYTHON_BIN`, not known statically: what it starts is not known here"),
    ("#!/bin/bash\npython3 -m deepspeed.launcher.runner --num_gpus 8 train.py\n",
     "no launch found, but run.sh:2 runs python3 with train.py, which emulate does not follow: what it starts is "
     "not known here"),
    # vllm-ascend: vLLM's server profiles with torch_npu's profiler when VLLM_TORCH_PROFILER_DIR is set; emulate
    # said "it starts no Python script or msprof run, so a run of it collects nothing"
    ("#!/bin/bash\nexport VLLM_TORCH_PROFILER_DIR=./prof\npython3 -m vllm.entrypoints.openai.api_server --model m\n",
     "no launch found, but run.sh:3 runs python3 with vllm.entrypoints.openai.api_server, which emulate does not "
     "follow: what it starts is not known here"),
])
def test_a_command_that_may_start_a_script_makes_the_answer_unknown(tmp_path, launcher, why):
    report = _emulate(tmp_path, launcher, ["train.py"])
    assert report["usable"] is None and report["answer"]["why"] == why
    assert render_text(report).splitlines()[1:] == [f"no launch: {why}", f"usable data: unknown ({why})"]


def test_a_launcher_that_only_names_a_script_still_starts_nothing(tmp_path):
    report = _emulate(tmp_path, "#!/bin/bash\necho usage: run.sh train.py\ncp train.py /tmp/x/\n"
                                "python3 -c 'import train'\npython3 msprof.py import -dir train.py\n"
                                "scp train.py host:/tmp/\nrsync -a train.py /backup/\n"
                                "python3 -m pip install -r requirements.txt\npython -m json.tool cfg.json\n")
    assert report["usable"] is False
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
