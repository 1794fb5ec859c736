"""A path through a folder the launcher itself made (`mkdir ./d; cd ./d; python ../train.py`): bash runs the
script beside the launcher (bash 5.2: "ran .../d/../train.py"), but the folder is not in the tree the walk reads,
and the file system, asked about d/../train.py, said there was none ("cannot find ../train.py"). Through a folder
the walk made, the path is read as written; through one it only `cd`s into (bash 5.2: "cd: ./d: No such file or
directory", and the shell stays where it was), or one a `mkdir` without -p cannot make (its parent is missing: bash
5.2 "cannot create directory"), or one removed again, it is not."""

import pytest

from flake8_npuprof.shell.launches import launches, steps
from flake8_npuprof.shell.walk import Walk


def _walk(tmp_path, body):
    (tmp_path / "train.py").write_text("print('ran')\n")
    (tmp_path / "env.sh").write_text("export RANK_SIZE=1\n")
    launcher = tmp_path / "run.sh"
    launcher.write_text(body)
    return Walk(str(launcher)).run()


@pytest.mark.parametrize("body", [
    "mkdir ./d\ncd ./d\npython3 ../train.py\n",
    "mkdir -p ./x/d\ncd ./x/d\npython3 ../../train.py\n",            # -p makes x too
    "mkdir -p ./x/d\ncd ./x\npython3 ../train.py\n",
    "mkdir --parents x/d\ncd x/d\npython3 .././../train.py\n",
    "mkdir ./d ./d/e\ncd ./d/e\npython3 ../../train.py\n",             # d made first: d/e needs no -p
    "mkdir -m 755 ./d\ncd ./d\npython3 ../train.py\n",                # (755: the mode, no folder)
    "mkdir ./d\npython3 ./d/../train.py\n",                            # from a folder of the tree, through d
    "mkdir -pm 755 ./x/d\ncd ./x/d\npython3 ../../train.py\n",
])
def test_a_script_found_through_a_folder_the_launcher_made(tmp_path, body):
    found = steps(_walk(tmp_path, body))
    # it said "cannot find ../train.py (looked in .../d)"
    assert [(la.script, la.missing) for la in found] == [(str(tmp_path / "train.py"), "")]


def test_a_file_sourced_through_a_folder_the_launcher_made(tmp_path):
    w = _walk(tmp_path, "mkdir ./d\ncd ./d\nsource ../env.sh\npython3 ../train.py\n")
    assert [s[0] for s in w.sourced] == [str(tmp_path / "env.sh")] and w.unread == []
    assert launches(w)[0].command.env["RANK_SIZE"].value == "1"


@pytest.mark.parametrize("body", [
    "cd ./d\npython3 ../train.py\n",                                  # cd fails: bash stays put
    "python3 ./d/../train.py\n",                                      # no d
    "mkdir ./x/d\ncd ./x/d\npython3 ../../train.py\n",                # no -p, no x: mkdir and cd fail
    "mkdir ./d\nrm -rf ./d\ncd ./d\npython3 ../train.py\n",           # removed again
    "if [ -n \"$1\" ]; then mkdir ./d; fi\ncd ./d\npython3 ../train.py\n",   # may not be made
    "mkdir ./d &\ncd ./d\npython3 ../train.py\n",                     # made in the background: maybe not yet
    "mkdir -m 755\ncd ./755\npython3 ../train.py\n",                   # (mkdir: missing operand)
])
def test_not_through_a_folder_the_launcher_did_not_certainly_make(tmp_path, body):
    found = steps(_walk(tmp_path, body))
    assert len(found) == 1 and found[0].missing.startswith("cannot find ")


def test_the_way_back_from_a_folder_made_under_a_link_is_the_link_targets(tmp_path):
    # bash 5.2: `mkdir ./lnk/d; cd ./lnk/d; python3 ../../train.py`, lnk -> sub/deep, ran sub/train.py (d is made in
    # sub/deep; its `..` is sub/deep, whose `..` is sub)
    (tmp_path / "sub" / "deep").mkdir(parents=True)
    (tmp_path / "sub" / "train.py").write_text("print('ran sub')\n")
    (tmp_path / "lnk").symlink_to("sub/deep")
    found = steps(_walk(tmp_path, "mkdir ./lnk/d\ncd ./lnk/d\npython3 ../../train.py\n"))
    assert [(la.script, la.missing) for la in found] == [(str(tmp_path / "sub" / "train.py"), "")]
