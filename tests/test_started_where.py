"""A launcher that never `cd`s and starts a script by a relative path is meant to be started from the folder that
holds the script: ModelZoo-PyTorch's VOLO runs `python3 main.py` from test/train_performance_1p.sh and
MindSpeed-LLM's tests run `torchrun ... pretrain_gpt.py` from tests/pipeline/..., both with the script at the
project's top. emulate looked in the launcher's own folder only: "cannot find main.py (looked in .../test)",
with nothing said about where it is."""

from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target

T = Target.parse("8.0", "910B")


def test_a_script_in_a_folder_above_says_which_cwd_finds_it(tmp_path):
    (tmp_path / "test").mkdir()
    (tmp_path / "main.py").write_text("import torch\n")
    (tmp_path / "test" / "run.sh").write_text("#!/bin/bash\npython3 main.py --epochs 1\n")
    report = emulate_path(str(tmp_path / "test" / "run.sh"), T, use_env=False, environ={})
    assert report["usable"] is None
    assert report["answer"]["why"] == (
        f"run.sh:2: cannot find main.py (looked in {tmp_path / 'test'}; main.py is in {tmp_path}: give --cwd "
        f"{tmp_path} if the launcher is started there)")
    # given that --cwd, the script is found and followed
    report = emulate_path(str(tmp_path / "test" / "run.sh"), T, cwd=str(tmp_path), use_env=False, environ={})
    assert report["launch"]["script"] == "main.py" and report["usable"] is False


def test_a_launcher_that_cds_or_a_script_nowhere_above_gets_no_hint(tmp_path):
    (tmp_path / "test").mkdir()
    (tmp_path / "main.py").write_text("import torch\n")
    # it `cd`s to its own folder: where it runs is settled, the script is missing there
    (tmp_path / "test" / "run.sh").write_text('#!/bin/bash\ncd "$(dirname "$0")"\npython3 main.py\n')
    report = emulate_path(str(tmp_path / "test" / "run.sh"), T, use_env=False, environ={})
    assert report["answer"]["why"] == f"run.sh:3: cannot find main.py (looked in {tmp_path / 'test'})"
    (tmp_path / "test" / "run.sh").write_text("#!/bin/bash\npython3 other.py\n")
    report = emulate_path(str(tmp_path / "test" / "run.sh"), T, use_env=False, environ={})
    assert report["answer"]["why"] == f"run.sh:2: cannot find other.py (looked in {tmp_path / 'test'})"


def test_after_a_relative_cd_the_hint_names_the_cwd_that_finds_the_script_through_that_cd(tmp_path):
    # `cd src; python3 main.py` with main.py at the project's top: started there, the launcher runs src/main.py, not
    # main.py. It said "main.py is in TOP: give --cwd TOP if the launcher is started there", which finds nothing
    (tmp_path / "test").mkdir()
    (tmp_path / "main.py").write_text("import torch\n")
    (tmp_path / "test" / "run.sh").write_text("#!/bin/bash\ncd src\npython3 main.py\n")
    report = emulate_path(str(tmp_path / "test" / "run.sh"), T, use_env=False, environ={})
    assert report["answer"]["why"] == f"run.sh:3: cannot find main.py (looked in {tmp_path / 'test' / 'src'})"
    report = emulate_path(str(tmp_path / "test" / "run.sh"), T, cwd=str(tmp_path), use_env=False, environ={})
    assert report["answer"]["why"] == f"run.sh:3: cannot find main.py (looked in {tmp_path / 'src'})"
    # where the folder the cd names holds it, the --cwd that reaches it through the cd is named
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.py").write_text("import torch\n")
    report = emulate_path(str(tmp_path / "test" / "run.sh"), T, use_env=False, environ={})
    assert report["answer"]["why"] == (
        f"run.sh:3: cannot find main.py (looked in {tmp_path / 'test' / 'src'}; main.py is in {tmp_path / 'src'}: "
        f"give --cwd {tmp_path} if the launcher is started there)")
    report = emulate_path(str(tmp_path / "test" / "run.sh"), T, cwd=str(tmp_path), use_env=False, environ={})
    assert report["launch"]["script"] == "main.py" and report["cwd"] == str(tmp_path / "src")
    assert report["usable"] is False
