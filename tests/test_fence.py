"""`npuprof emulate --no-outside` as an adversary tries it (a launcher from an untrusted pull request): every way a
launcher or a script may name a file outside the project (links, `cd` through a link, `..`, a relative PYTHONPATH
entry, a module imported by a module, msprof's --application, torchrun, a path from a variable, a sourced file,
torch_npu's dynamic profiling folder, PROF_CONFIG_PATH) leaves no byte of that file in the text or the JSON report.
Each outside file holds MARK; each case is first emulated without the flag, where the file is read and MARK shown
(so the case does reach it), then with it. `emulate SCRIPT.py` is fenced at the same root a launcher is (its
configuration file's folder, else its git work tree, else its own folder)."""

from __future__ import annotations

import json

import pytest

from flake8_npuprof.cli import main

MARK = "MARK_OUTSIDE_5e1d"
# a TF script whose profiling options name MARK: a report shows its output folder
TF = ('import tensorflow as tf\nfrom npu_bridge.npu_init import *\nconfig = tf.compat.v1.ConfigProto()\n'
      'custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\ncustom_op.name = "NpuOptimizer"\n'
      'custom_op.parameter_map["profiling_mode"].b = True\n'
      'custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(\'{"output":"/tmp/' + MARK +
      '","task_trace":"on"}\')\nsess = tf.compat.v1.Session(config=config)\n')
# torch_npu's dynamic profiling: the collection is read at run time from FOLDER/profiler_config.json
DYNAMIC = ("import torch\nimport torch_npu\nfrom torch_npu.profiler import dynamic_profile as dp\n"
           "dp.init({folder!r})\nfor step in range(10):\n    dp.step()\n")
# a profiler_config.json whose values npuprof validate quotes
CONFIG = json.dumps({"activities": [MARK], "prof_dir": "./x", "analyse": False, "active": 1, "start_step": 1,
                     "experimental_config": {"profiler_level": MARK, "aic_metrics": MARK}})
TARGET = ["--cann", "8.5", "--soc", "910B", "--torch-npu", "7.3"]
WHY = "outside the project, which --no-outside leaves unread"


@pytest.fixture
def places(tmp_path, monkeypatch):
    """(the project, a git work tree; a folder beside it, outside) with the outside files every case may name."""
    project, out = tmp_path / "p", tmp_path / "o"
    (project / ".git").mkdir(parents=True)
    out.mkdir()
    (out / "train.py").write_text(TF)
    (out / "outside_mod.py").write_text(TF)
    (out / "env.sh").write_text(f"export PROFILING_MODE=true\nexport PROFILING_OPTIONS='{{\"output\":\"/tmp/{MARK}\","
                                '"task_trace":"on"}\'\n')
    (out / "profiler_config.json").write_text(CONFIG)
    (project / "lnk").symlink_to(out)
    monkeypatch.chdir(project)
    return project, out


def _reports(*argv):
    """The text and the JSON report of `emulate ARGV` (as one string each), and the text's exit code."""
    import io
    from contextlib import redirect_stdout
    texts = []
    for fmt in ("text", "json"):
        buf = io.StringIO()
        with redirect_stdout(buf):
            code = main(["emulate", *TARGET, "--format", fmt, *argv])
        texts.append(buf.getvalue())
        if fmt == "text":
            first = code
    return texts[0], texts[1], first


def _fenced(*argv, shown: bool = True):
    """The text report under --no-outside, after checking MARK is shown without it (shown: msprof's configuration
    replaces the script's, whose values no report then shows) and in neither report with it."""
    text, doc, _ = _reports(*argv)
    assert (MARK in text + doc) == shown, "the case does not reach the outside file"
    text, doc, code = _reports("--no-outside", *argv)
    assert MARK not in text and MARK not in doc
    json.loads(doc)
    return text, code


LAUNCHES = {
    "a link to a script": ("ln", "python3 train.py"),
    "cd through a link": ("", "cd lnk && python3 train.py"),
    "cd through a link, then ..": ("", "cd lnk/../lnk && python3 ./train.py"),
    "..": ("", "python3 ../o/train.py"),
    "a path from a variable": ("", "D=../o\npython3 $D/train.py"),
    "a relative PYTHONPATH entry": ("mod", "export PYTHONPATH=../o\npython3 train2.py"),
    "a PYTHONPATH entry through a link": ("mod", "export PYTHONPATH=lnk\npython3 train2.py"),
    "a module imported by a module": ("deep", "export PYTHONPATH=../o\npython3 train3.py"),
    "msprof --application": ("", 'msprof --output=./prof --application="python3 ../o/train.py"'),
    "torchrun": ("", "torchrun --nproc_per_node=1 lnk/train.py"),
    "python3 -m through a link": ("", "cd lnk\npython3 -m train"),
    "a file sourced through a link": ("env", "source lnk/env.sh\npython3 train_env.py"),
}


@pytest.mark.parametrize("case", sorted(LAUNCHES))
def test_no_byte_of_an_outside_file_reaches_a_launchers_report(places, case):
    project, out = places
    how, line = LAUNCHES[case]
    if how == "ln":
        (project / "train.py").symlink_to(out / "train.py")
    elif how in ("mod", "deep"):
        (project / "train2.py").write_text("import outside_mod\n")
        (project / "train3.py").write_text("import inmod\n")
        (project / "inmod.py").write_text("import outside_mod\n")
    elif how == "env":
        (project / "train_env.py").write_text(TF.split("custom_op.parameter_map")[0] +
                                              "sess = tf.compat.v1.Session(config=config)\n")
    (project / "run.sh").write_text(f"#!/bin/bash\n{line}\n")
    text, code = _fenced("run.sh", shown="msprof" not in line)
    assert code == 1 and WHY in text, text


def test_a_dynamic_profiling_folder_outside_is_not_read(places):
    """dynamic_profile.init(FOLDER) outside the project: its profiler_config.json was read and its values quoted
    (NPP3xx findings) under --no-outside, for the script and for its launcher."""
    project, out = places
    (project / "train.py").write_text(DYNAMIC.format(folder=str(out)))
    (project / "run.sh").write_text("#!/bin/bash\npython3 train.py\n")
    why = f"dynamic profiling: what is collected, and when, is read at run time from {out / 'profiler_config.json'}: " \
        + WHY
    for argv in (["train.py"], ["run.sh"]):
        text, code = _fenced(*argv)
        assert code == 1 and why in text, text


def test_a_dynamic_profiling_folder_through_a_link_is_not_read(places):
    project, _ = places
    (project / "train.py").write_text(DYNAMIC.format(folder="lnk"))
    text, code = _fenced("--cwd", str(project), "--", "python3", "train.py")
    assert code == 1 and f"{project / 'lnk' / 'profiler_config.json'}: {WHY}" in text, text


def test_prof_config_path_from_the_launcher_is_not_read(places):
    """PROF_CONFIG_PATH, exported by the launcher, names the folder torch_npu reads at its import."""
    project, out = places
    (project / "train.py").write_text("import torch\nimport torch_npu\n")
    (project / "run.sh").write_text(f"#!/bin/bash\nexport PROF_CONFIG_PATH={out}\npython3 train.py\n")
    text, code = _fenced("run.sh")
    assert code == 1 and f"{out / 'profiler_config.json'}: {WHY}" in text, text


def test_a_script_imports_a_module_linked_out_of_its_project(places):
    """`emulate SCRIPT.py`: the fence stands at the script's git work tree; a module it imports, linked out of it, is
    neither replayed nor quoted."""
    project, out = places
    (project / "outside_mod.py").symlink_to(out / "outside_mod.py")
    (project / "train.py").write_text("import outside_mod\n")
    text, code = _fenced("train.py")
    assert code == 1 and f"train.py imports {project / 'outside_mod.py'}: {WHY}" in text, text


@pytest.mark.parametrize("how", ["import outside_mod|outside_mod.OUT", "from outside_mod import *|OUT",
                                 "from outside_mod import OUT|OUT"])
def test_a_value_from_a_module_linked_out_of_the_project(places, how):
    """The options a script takes from a module a link in the project leads out of: shown without the flag."""
    project, out = places
    (out / "outside_mod.py").write_text(f"OUT = '{{\"output\":\"/tmp/{MARK}\",\"task_trace\":\"on\"}}'\n")
    (project / "outside_mod.py").symlink_to(out / "outside_mod.py")
    imported, expr = how.split("|")
    (project / "train.py").write_text(TF.replace("import tensorflow as tf\n", f"import tensorflow as tf\n{imported}\n")
                                      .replace(f"'{{\"output\":\"/tmp/{MARK}\",\"task_trace\":\"on\"}}'", expr))
    (project / "run.sh").write_text("#!/bin/bash\npython3 train.py\n")
    for argv in (["train.py"], ["run.sh"]):
        text, code = _fenced(*argv)
        assert code == 1, text


def test_a_script_is_fenced_at_its_project_not_its_folder(places):
    """`emulate sub/train.py` in a git work tree: a folder above the script but in the project is read."""
    project, _ = places
    (project / "sub").mkdir()
    (project / "cfg").mkdir()
    (project / "cfg" / "profiler_config.json").write_text(CONFIG)
    (project / "sub" / "train.py").write_text(DYNAMIC.format(folder="../cfg"))
    text, _, _ = _reports("--no-outside", "--cwd", str(project / "sub"), "--", "python3", "train.py")
    assert MARK in text and WHY not in text


def test_a_script_outside_any_project_is_fenced_at_its_folder(tmp_path, monkeypatch):
    """No configuration file and no git work tree: the script's own folder is the project."""
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "profiler_config.json").write_text(CONFIG)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "train.py").write_text(DYNAMIC.format(folder="../cfg"))
    monkeypatch.chdir(tmp_path / "sub")
    text, code = _fenced("train.py")
    assert code == 1 and f"{tmp_path / 'cfg' / 'profiler_config.json'}: {WHY}" in text, text
