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


def _typed(tmp_path, capsys, *words):
    import json
    from flake8_npuprof.cli import main
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--format", "json", "--cwd", str(tmp_path), "--", *words])
    return json.loads(capsys.readouterr().out)


def test_a_launcher_typed_with_a_relative_path_has_that_path_as_its_dollar_0(tmp_path, capsys):
    # mindspore-ai/models' DBNet (47 launchers there): `BASE_PATH=$(cd ./"`dirname $0`" || exit; pwd)`, then
    # `python $BASE_PATH/../train.py`, started as its usage says (`bash scripts/run_standalone_train.sh ...`). bash 5.2:
    # $0 is scripts/run.sh, BASE_PATH is TOP/scripts, train.py is found. $0 was the launcher's absolute path, so the cd
    # went to ./TOP/scripts: "cannot find TOP/TOP/scripts/../train.py: no such file here"
    (tmp_path / "scripts").mkdir()
    (tmp_path / "train.py").write_text("import torch\n")
    (tmp_path / "scripts" / "run.sh").write_text('B=$(cd ./"`dirname $0`"; pwd)\npython $B/../train.py\n')
    doc = _typed(tmp_path, capsys, "bash", "scripts/run.sh")
    assert doc["launch"]["unknown"] is None and doc["usable"] is False
    assert doc["launch"]["command"] == ["python", f"{tmp_path}/scripts/../train.py"]
    # typed as an absolute path, bash's cd to .//TOP/scripts fails (no such folder in the tree; the run may make
    # one): which folder pwd prints is not known here. It said "cannot find TOP/TOP/scripts/../train.py"
    doc = _typed(tmp_path, capsys, "bash", str(tmp_path / "scripts" / "run.sh"))
    assert doc["launch"]["unknown"] == "the script is named by a value not known statically (<unknown>/../train.py)"
    # `|| exit` after a cd to a folder that is there: the cd succeeds, exit does not run (it was not followed)
    (tmp_path / "scripts" / "run.sh").write_text('B=$(cd ./"`dirname $0`" || exit; pwd)\npython $B/../train.py\n')
    doc = _typed(tmp_path, capsys, "bash", "scripts/run.sh")
    assert doc["launch"]["command"] == ["python", f"{tmp_path}/scripts/../train.py"]
    assert doc["launch"]["unknown"] is None
    doc = _typed(tmp_path, capsys, "bash", str(tmp_path / "scripts" / "run.sh"))
    assert doc["launch"]["unknown"] == "the script is named by a value not known statically (<unknown>/../train.py)"


def test_a_child_script_run_by_a_relative_path_has_that_path_as_its_dollar_0(tmp_path):
    # run.sh runs `bash scripts/child.sh` from the folder it is started in; child.sh is DBNet's launcher. bash 5.2: the
    # child's $0 is scripts/child.sh, so its BASE_PATH is TOP/scripts and TOP/train.py runs
    (tmp_path / "scripts").mkdir()
    (tmp_path / "train.py").write_text("import torch\n")
    (tmp_path / "scripts" / "child.sh").write_text('B=$(cd ./"`dirname $0`" || exit; pwd)\npython $B/../train.py\n')
    (tmp_path / "run.sh").write_text("bash scripts/child.sh\n")
    report = emulate_path(str(tmp_path / "run.sh"), T, cwd=str(tmp_path), use_env=False, environ={})
    assert report["launch"]["unknown"] is None and report["usable"] is False
    assert report["launch"]["lines"][0] == f"launch: scripts/child.sh:2 python {tmp_path}/scripts/../train.py"
