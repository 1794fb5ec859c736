"""A counted loop that makes a folder per rank and starts the script from it (about a third of mindspore-ai/models'
distributed launchers, YOLOv5's scripts/run_distribute_train.sh among them): `for((i=0; i<${DEVICE_NUM}; i++))`,
`mkdir ./train_parallel$i`, `cp ../*.py ./train_parallel$i`, `cd ./train_parallel$i || exit`, `python train.py &`,
`cd ..`. emulate said "cannot find train.py: the directory the launcher runs it in is not known here (`cd
./train_parallel$i` ...: $i not known here ...)" and "started an unknown number of times" (the `|| exit`).

What bash does was checked by running small launchers of these shapes with bash 5.2 and a train.py that prints its
folder, DEVICE_ID, RANK_ID and __file__: each round makes its folder, copies ../*.py there and starts the copy there
(train_parallel0 with DEVICE_ID=0 ... train_parallel3 with DEVICE_ID=3), and the loop ends where it began."""

import pytest

from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.shell.launches import steps
from flake8_npuprof.shell.walk import Walk

T = Target.parse("8.0", "910B")
TRAIN = 'import mindspore as ms\n\nprofiler = ms.Profiler(output_path="./prof")\nprofiler.analyse()\n'
LAUNCHER = """#!/bin/bash
export DEVICE_NUM=8
export RANK_SIZE=8
for((i=0; i<${DEVICE_NUM}; i++))
do
    export DEVICE_ID=$i
    export RANK_ID=$i
    rm -rf ./train_parallel$i
    mkdir ./train_parallel$i
    cp ../*.py ./train_parallel$i
    cp -r ../src ./train_parallel$i
    cd ./train_parallel$i || exit
    python train.py --device_id=$i > log.txt 2>&1 &
    cd ..
done
"""
ROUNDS = ("  runs in train_parallel0, train_parallel1, ... train_parallel7: the folder each round of the loop at "
          "run_distribute_train.sh:4 makes ($i = 0, 1, ... 7), where the round's relative paths are (an output folder "
          "among them); emulated in the first one")


def _project(tmp_path, launcher=LAUNCHER):
    (tmp_path / "scripts").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "scripts" / "run_distribute_train.sh").write_text(launcher)
    return tmp_path / "scripts" / "run_distribute_train.sh"


def _emulate(path):
    return emulate_path(str(path), T, use_env=False, environ={}, launcher_args=[])


def test_each_round_starts_the_copy_of_the_script_in_the_folder_it_made(tmp_path):
    report = _emulate(_project(tmp_path))
    launch = report["launch"]
    assert launch["lines"] == [
        "launch: run_distribute_train.sh:13 python train.py '--device_id=<unknown>'",
        "  the launcher copies train.py into train_parallel0 from ../train.py (`cp ../*.py ./train_parallel$i`, "
        "run_distribute_train.sh:10): emulated from that file",
        ROUNDS,
        "  (those folders are relative to the launcher's own directory, where it is meant to be started: give --cwd "
        "for another)",
        "  DEVICE_ID=0, 1, ... 7, one a round (export at run_distribute_train.sh:6)",
        "  RANK_ID=0, 1, ... 7, one a round (export at run_distribute_train.sh:7)",
        "  started 8 times (one per rank)",
        "  in the background (&): the launcher goes on without waiting for it"]
    # (the script named from the project's folder, as emulate names the launcher: the file the copy is made from)
    assert (launch["script"], launch["ranks"], launch["unknown"]) == ("train.py", 8, None)
    assert launch["rounds"] == {
        "loop": "run_distribute_train.sh:4", "variable": "i", "values": [str(i) for i in range(8)],
        "folders": [f"train_parallel{i}" for i in range(8)],
        "environment": {"DEVICE_ID": [str(i) for i in range(8)], "RANK_ID": [str(i) for i in range(8)]}}
    assert report["cwd"] == str(tmp_path / "scripts" / "train_parallel0")
    assert report["usable"] is True


@pytest.mark.parametrize("loop, first", [("for((i=0;i<4;i++))", "0"), ("for i in $(seq 0 3)", "0"),
                                         ("for i in {2..5}", "2"), ("for i in 0 1 2 3", "0"),
                                         ("for ((i = 1; i <= 4; i++))", "1"), ("for i in `seq 4`", "1")])
def test_the_walk_reads_the_first_round_of_a_counted_loop(tmp_path, loop, first):
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"{loop}\ndo\n    mkdir -p ./d$i\n    cd ./d$i || exit\n"
                                     "    python ../train.py &\n    cd ../\ndone\npython3 train.py --after\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    inside, after = steps(w)
    assert (inside.script, inside.command.cwd, inside.ranks) == (str(tmp_path / "train.py"),
                                                                 (str(tmp_path / f"d{first}"),), 4)
    assert inside.command.rounds.dirs == tuple(str(tmp_path / f"d{int(first) + r}") for r in range(4))
    assert (inside.command.rounds.line, inside.command.rounds.name) == (1, "i")
    # the loop ends where it began: what follows runs there, in no round
    assert (after.command.cwd, after.command.rounds, w.dirs) == ((str(tmp_path),), None, (str(tmp_path),))


def test_a_folder_named_from_a_variable_the_round_sets_and_an_absolute_one(tmp_path):
    # bash 5.2: `export DEVICE_ID=$((i+4)); mkdir ${cur}/dev${DEVICE_ID}; cd ${cur}/dev${DEVICE_ID} || exit; ...;
    # cd ${cur} || exit` runs in dev4 ... dev7 and comes back each round (the `|| exit`s do not run)
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text("cur=$(pwd)\nfor((i=0;i<4;i++))\ndo\n    export DEVICE_ID=$((i+4))\n"
                                     "    mkdir ${cur}/dev${DEVICE_ID}\n    cd ${cur}/dev${DEVICE_ID} || exit\n"
                                     "    python ../train.py &\n    cd ${cur} || exit\ndone\n")
    (launch,) = steps(Walk(str(tmp_path / "run.sh"), str(tmp_path)).run())
    assert (launch.script, launch.command.cwd, launch.ranks) == (str(tmp_path / "train.py"),
                                                                 (str(tmp_path / "dev4"),), 4)
    assert launch.command.rounds.dirs == tuple(str(tmp_path / f"dev{d}") for d in range(4, 8))


MOVED = ("the loop at run.sh:1 changes the directory, and the walk reads its body once: each round starts where the "
         "one before left it")
NOT_KNOWN = ("`cd ./d$i` at run.sh:{}: $i not known here (the variable of the `for` loop at run.sh:1: each round's "
             "value, the last one after it)")


@pytest.mark.parametrize("body, lost", [
    # no way back: round 2 makes ./d1 inside d0 (bash 5.2: d0/d1/d2/d3, each train.py missing but the first's)
    ("mkdir ./d$i\ncp ../*.py ./d$i\ncd ./d$i\npython3 train.py &\n", MOVED),
    # the body sets what the loop tests: the rounds are not alike
    ("mkdir ./d$i\ncd ./d$i\npython3 train.py &\ni=$((i+1))\ncd ..\n", NOT_KNOWN.format(3)),
    # the folder made is removed before the cd (bash: `cd: ./d0: No such file or directory`)
    ("mkdir ./d$i\nrm -rf ./d$i\ncd ./d$i\npython3 train.py &\ncd ..\n", NOT_KNOWN.format(4)),
    # no folder made by the round: whether ./d$i is there is not known
    ("cd ./d$i\npython3 train.py &\ncd ..\n", NOT_KNOWN.format(2)),
    # made in a branch
    ("if [ -n \"$X\" ]; then mkdir ./d$i; fi\ncd ./d$i\npython3 train.py &\ncd ..\n", NOT_KNOWN.format(3)),
    # a removal the walk does not follow: under a condition, by a glob, mv, rmdir (bash 5.2: `cd: ./d0: No such file
    # or directory` after each)
    *((f"mkdir ./d$i\n{rm}\ncd ./d$i\npython3 train.py &\ncd ..\n", NOT_KNOWN.format(4))
      for rm in ("[ $i -ge 0 ] && rm -rf ./d$i", "rm -rf ./d*", "mv ./d$i ./e$i", "rmdir ./d$i")),
    # a `continue` that skips the way back (bash 5.2: round 0 stays in d0, round 1 makes d0/d1, whose cp of ../*.py
    # finds none: only round 0's folder was right, and it started nothing)
    ("mkdir ./d$i\ncd ./d$i || exit\n[ $i -eq 0 ] && continue\npython3 train.py &\ncd ..\n", NOT_KNOWN.format(3)),
    # a `break`: the rounds after it do not run (bash 5.2: d0 and d1 only, not the d3 the rounds would name)
    ("mkdir ./d$i\ncd ./d$i || exit\npython3 train.py &\ncd ..\n[ $i -eq 1 ] && break\n", NOT_KNOWN.format(3)),
])
def test_where_the_rounds_are_not_alike_the_folder_stays_unknown(tmp_path, body, lost):
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"for((i=0;i<4;i++)); do\n{body}done\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    (cmd,) = [c for c in w.commands if c.words[0].text == "python3"]
    assert (cmd.cwd, cmd.rounds, cmd.lost) == ((), None, lost)


@pytest.mark.parametrize("loop, values", [
    ("for i in {3..1}", ("3", "2", "1")),      # bash 5.2: d3, d2, d1 (it said d3 alone, started once)
    ("for i in {00..02}", None),                # bash 5.2: d00, d01, d02 (it said d0, d1, d2)
])
def test_a_brace_range_counted_down_or_zero_padded(tmp_path, loop, values):
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"{loop}; do\nmkdir ./d$i\ncd ./d$i || exit\npython3 train.py &\ncd ..\ndone\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    (cmd,) = [c for c in w.commands if c.words[0].text == "python3"]
    if values is None:      # (the folder not known, the `|| exit` may run: how often is not known either)
        assert (cmd.cwd, cmd.rounds, cmd.ranks) == ((), None, 0)
    else:
        assert (cmd.rounds.values, cmd.rounds.dirs, cmd.ranks) == (
            values, tuple(str(tmp_path / f"d{v}") for v in values), 3)


@pytest.mark.parametrize("sets", ["OFF=4", "((OFF+=4))", "read OFF < /dev/null"])
def test_a_value_the_body_sets_after_the_word_reading_it_is_not_said_round_by_round(tmp_path, sets):
    # bash 5.2 (OFF=4): DEVICE_ID 0, 5, 6 in d0, d1, d2 (round 2 reads the OFF round 1 set); it said 0, 1, 2
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"OFF=0\nfor((i=0;i<3;i++)); do\nexport DEVICE_ID=$((i+OFF))\n{sets}\n"
                                     "mkdir ./d$i\ncd ./d$i || exit\npython3 train.py &\ncd ..\ndone\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    (cmd,) = [c for c in w.commands if c.words[0].text == "python3"]
    assert cmd.rounds is not None and cmd.rounds.values == ("0", "1", "2")
    assert w.round_values == {}


def test_a_function_called_in_the_round_may_remove_its_folder(tmp_path):
    # bash 5.2: `clean ./d$i` (rm -rf $1) removes d0, and `cd ./d0` fails
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text("clean() { rm -rf $1; }\nfor((i=0;i<4;i++)); do\nmkdir ./d$i\nclean ./d$i\n"
                                     "cd ./d$i\npython3 train.py &\ncd ..\ndone\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    (cmd,) = [c for c in w.commands if c.words[0].text == "python3"]
    assert (cmd.cwd, cmd.rounds) == ((), None)
    assert cmd.lost == NOT_KNOWN.format(5).replace("run.sh:1", "run.sh:2")


def test_a_loop_that_may_exit_early_names_no_folder_of_its_rounds(tmp_path):
    # bash 5.2: rounds 0 and 1 start train.py in d0 and d1, then the launcher exits: d2 and d3 are never entered
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text("for((i=0;i<4;i++)); do\nmkdir ./d$i\ncd ./d$i || exit\npython3 train.py &\n"
                                     "cd ..\nif [ $i -eq 1 ]; then exit 0; fi\ndone\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    (cmd,) = [c for c in w.commands if c.words[0].text == "python3"]
    assert (cmd.cwd, cmd.rounds, cmd.ranks, cmd.lost) == (
        (), None, 0, "the loop at run.sh:1 may end early (`break`, `continue` or `exit` in it): not each folder its "
        "rounds make is entered")


def test_a_copy_of_another_file_each_round_is_not_followed_and_the_answer_says_so(tmp_path):
    # bash 5.2: `cp ../cfg$i.py ./d$i/train.py` starts cfg0.py's copy in d0, cfg1.py's in d1: no one script
    launcher = _project(tmp_path, LAUNCHER.replace("cp ../*.py ./train_parallel$i",
                                                   "cp ../cfg$i.py ./train_parallel$i/train.py"))
    (tmp_path / "cfg0.py").write_text(TRAIN)
    report = _emulate(launcher)
    assert report["launch"]["unknown"] == (
        f"cannot find train.py (looked in {tmp_path}/scripts/train_parallel0); the launcher's "
        "`cp ../cfg$i.py ./train_parallel$i/train.py` (run_distribute_train.sh:10) may copy it there, but it copies "
        "another file each round of the loop at run_distribute_train.sh:4: not followed")
    assert report["launch"]["lines"][2] == ROUNDS.replace("; emulated in the first one", "")
    assert report["usable"] is None


def test_a_child_script_run_in_a_rounds_folder_is_looked_for_as_before(tmp_path):
    # the walk does not follow the rounds' folders into a child script: it is looked for in the launcher's folder,
    # and its commands' folder is not known, as before
    (tmp_path / "child.sh").write_text("python3 train.py\n")
    (tmp_path / "run.sh").write_text("for((i=0;i<2;i++)); do\nmkdir ./d$i\ncd ./d$i\nbash child.sh\ncd ..\ndone\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    (cmd,) = w.commands[1:]
    assert (cmd.path, cmd.cwd, cmd.rounds) == (str(tmp_path / "child.sh"), (), None)
    assert cmd.lost == ("it runs in a folder the loop at run.sh:1 makes, another each round, which the walk does not "
                        "follow into a child script")
    assert w.children_elsewhere == []


def test_a_round_that_goes_to_an_absolute_folder_of_its_own_needs_no_way_back(tmp_path):
    # FaceAttribute's and DeepLabv3's launchers: `mkdir ${cur}/device$i; cd ${cur}/device$i || exit; python ... &` and
    # no `cd` back. bash 5.2 runs round k in device$k whatever folder it began in, and leaves the shell in device3
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text("cur=$(pwd)\nfor((i=0;i<4;i++))\ndo\n    mkdir ${cur}/device$i\n"
                                     "    cd ${cur}/device$i || exit\n    python3 ../train.py &\ndone\n"
                                     "python3 ../train.py --after\n")
    w = Walk(str(tmp_path / "run.sh"), str(tmp_path)).run()
    inside, after = [c for c in w.commands if c.words[0].text == "python3"]
    assert (inside.cwd, inside.ranks, inside.rounds.dirs) == (
        (str(tmp_path / "device0"),), 4, tuple(str(tmp_path / f"device{d}") for d in range(4)))
    # the folder the last round made is not in the tree to look in
    assert (after.cwd, after.rounds, after.lost) == (
        (), None, "the loop at run.sh:2 leaves the shell in the folder its last round makes (device3)")


def test_a_copy_from_a_path_not_known_is_not_followed_and_the_answer_says_so(tmp_path):
    # ResNet golden_stick's `cp ${PYTHON_PATH}/*.py ./train_parallel$i`, PYTHON_PATH from an argument
    launcher = _project(tmp_path, LAUNCHER.replace("cp ../*.py ./train_parallel$i", "cp $1/*.py ./train_parallel$i"))
    report = emulate_path(str(launcher), T, use_env=False, environ={}, launcher_args=None)
    assert report["launch"]["unknown"] == (
        f"cannot find train.py (looked in {tmp_path}/scripts/train_parallel0); the launcher's "
        "`cp $1/*.py ./train_parallel$i` (run_distribute_train.sh:10) may copy it there, but what it copies is named "
        "by a value not known statically: not followed")


@pytest.mark.parametrize("body, copied", [
    # Neighbor2Neighbor: absolute paths alone, before a cd with no way back (bash 5.2: work/device0/./train.py ...)
    ('    mkdir -p $DIR/../work/device$i\n    cp $DIR/../train.py $DIR/../work/device$i\n'
     '    cd $DIR/../work/device$i || exit\n    python ./train.py &\n',
     "  the launcher copies ./train.py into ../work/device0 from ../train.py (`cp $DIR/../train.py "
     "$DIR/../work/device$i`, run.sh:6): emulated from that file"),
    # LSTM: the copy made from inside the round's folder (bash 5.2: scripts/device0/train.py, from the project's)
    ('    mkdir ${DIR}/device$i\n    cd ${DIR}/device$i || exit\n    cp ../../*.py ./\n    python train.py &\n',
     "  the launcher copies train.py into . from ../../train.py (`cp ../../*.py ./`, run.sh:7): emulated from that "
     "file")])
def test_a_copy_made_by_absolute_paths_or_from_inside_the_rounds_folder(tmp_path, body, copied):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "train.py").write_text(TRAIN)
    launcher = tmp_path / "scripts" / "run.sh"
    launcher.write_text(f'DIR="$( cd "$( dirname "$0"  )" && pwd  )"\nfor((i=0;i<2;i++))\ndo\n'
                        f'    export DEVICE_ID=$i RANK_ID=$i\n{body}done\n')
    launch = _emulate(launcher)["launch"]
    assert launch["lines"][1] == copied
    assert (launch["unknown"], launch["ranks"], launch["rounds"]["environment"]) == (
        None, 2, {"DEVICE_ID": ["0", "1"], "RANK_ID": ["0", "1"]})


def test_a_folder_whose_parent_is_not_there_is_not_made_by_mkdir_without_p(tmp_path):
    # bash 5.2: `mkdir ./work/d0` without ./work fails ("No such file or directory"), and so does `cd ./work/d0`
    (tmp_path / "train.py").write_text("print(1)\n")
    for mkdir, known in (("mkdir ./work/d$i", False), ("mkdir -p ./work/d$i", True),
                         ("mkdir ./work\nfor((i=0;i<2;i++)); do mkdir ./work/d$i", True)):
        head = "" if "\n" in mkdir else "for((i=0;i<2;i++)); do "
        (tmp_path / "run.sh").write_text(f"{head}{mkdir}\ncd ./work/d$i\npython3 ../../train.py &\ncd ../..\ndone\n")
        (launch,) = steps(Walk(str(tmp_path / "run.sh")).run())
        assert bool(launch.script) == known, mkdir


@pytest.mark.parametrize("line", ["cd ./sub && python3 train.py --a &", "cd ./sub || exit 1 && python3 train.py --a &"])
def test_a_cd_in_a_list_put_in_the_background_leaves_the_shell_where_it_was(tmp_path, line):
    # bash 5.2: the list runs in a background subshell; `python3 train.py --b` after it runs in the launcher's folder
    # (`can't open file .../train.py`), where the walk had it in sub
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"{line}\npython3 train.py --b\nwait\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    a, b = [c for c in w.commands if c.words[0].text == "python3"]
    assert (a.cwd, b.cwd) == ((str(tmp_path / "sub"),), (str(tmp_path),))


def test_a_loop_body_is_read_in_time_that_grows_with_its_length():
    # the variables a counted loop's body sets were searched with two blank runs side by side after `((`: a body
    # holding `((` and 30,000 blanks took 8.7 s to walk (the square of the blanks); now linear
    from evalfiles import deadline
    from flake8_npuprof.shell.walk import Walk
    text = ("for i in 0 1; do\n  mkdir ./d$i; cd ./d$i || exit\n  python3 train.py\n  cd ..\n  echo \"((" +
            " " * 100000 + "!\"\ndone\n")
    with deadline(2, "a walk of a loop body holding `((` and 100,000 blanks"):
        w = Walk("run.sh").run(text)
    assert [c.line for c in w.commands if c.words and c.words[0].text == "python3"] == [3]


@pytest.mark.parametrize("open_, close", [("{", "} &"), ("(", ") &"), ("{", "}")])
def test_a_group_or_subshell_of_the_round_is_read_through_the_rounds_too(tmp_path, open_, close):
    # E-NET's and erfnet's `{ mkdir ./log$i; cd ./log$i; ...; python -u ../../train.py > log 2>&1; cd ../; } &`:
    # bash 5.2 ran each round's group in log0, log1, log2 (in the background); the walk said "$i not known here"
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"for((i=0;i<3;i++))\ndo\n{open_}\n  mkdir ./log$i\n  cd ./log$i\n"
                                     f"  python3 ../train.py > log 2>&1\n  cd ../\n{close}\ndone\npython3 train.py --a\n")
    w = Walk(str(tmp_path / "run.sh")).run()
    inside, after = [c for c in w.commands if c.words[0].text == "python3"]
    assert (inside.cwd, inside.rounds.dirs, inside.ranks, inside.background) == (
        (str(tmp_path / "log0"),), tuple(str(tmp_path / f"log{r}") for r in range(3)), 3, close.endswith("&"))
    assert after.cwd == (str(tmp_path),)


def test_an_exit_in_a_subshell_of_the_round_ends_that_subshell_alone(tmp_path):
    # bash 5.2 with a train.py that fails: `{ ... || { echo failed; exit 1; }; } &`, `( ... || exit 1 ) &` and
    # `( ... || exit 1 )` ran every round (d0, d1, d2); the same group in the foreground, or `python3 ... || exit 1`,
    # ended the launcher in round 0
    (tmp_path / "train.py").write_text("print(1)\n")
    seen = {}
    for line in ("{ python3 ../train.py || { echo failed; exit 1; }; } &", "(python3 ../train.py || exit 1) &",
                 "(python3 ../train.py || exit 1)", "{ python3 ../train.py || { echo failed; exit 1; }; }",
                 "python3 ../train.py || exit 1"):
        (tmp_path / "run.sh").write_text(f"for((i=0;i<3;i++)); do\n    mkdir ./d$i\n    cd ./d$i || exit\n    {line}\n"
                                         "    cd ..\ndone\n")
        w = Walk(str(tmp_path / "run.sh")).run()
        (cmd,) = [c for c in w.commands if c.words[0].text == "python3"]
        seen[line] = (cmd.cwd, cmd.ranks)
    kept, cut = ((str(tmp_path / "d0"),), 3), ((), 0)
    assert list(seen.values()) == [kept, kept, kept, cut, cut]


@pytest.mark.parametrize("loop, cd, known", [
    # bash 5.2: each round made its folder, and `cd ./d2` after the loop ran train.py in d2
    ("for ((i=0; i<3; i++)); do mkdir ./d$i; done", "cd ./d2", True),
    ("for i in 0 1 2; do mkdir -p ./d$i; done", "cd ./d1", True),
    # the body steps i too: d0 and d2 alone (bash 5.2: `cd: ./d1: No such file or directory`)
    ("for ((i=0; i<3; i++)); do mkdir -p ./d$i; i=$((i+1)); done", "cd ./d1", False),
    # rounds from the caller's argument (none given: no round; bash 5.2 ran train.py in the launcher's folder)
    ("N=$1\nfor ((i=0; i<N; i++)); do mkdir -p ./d$i; done", "cd ./d1", False),
    # no round makes d2 (bash 5.2: the cd failed, train.py ran in the launcher's folder)
    ("for i in 0 1; do mkdir -p ./d$i; done", "cd ./d2", False),
])
def test_a_cd_after_the_loop_into_a_folder_its_rounds_made(tmp_path, loop, cd, known):
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"{loop}\n{cd}\npython3 ../train.py\n")
    (cmd,) = [c for c in Walk(str(tmp_path / "run.sh")).run().commands if c.words[0].text == "python3"]
    folder = str(tmp_path / cd.split("/")[-1])
    if known:
        assert (cmd.cwd, cmd.lost) == ((folder,), "")
    else:
        assert cmd.cwd == ()
        assert cmd.lost == (f"`{cd}` at run.sh:{loop.count(chr(10)) + 2}: a folder the walk does not know is there "
                            f"(not in the tree; a `mkdir` of a name not known statically, at run.sh:"
                            f"{loop.count(chr(10)) + 1}, may make it)")


@pytest.mark.parametrize("loop, body, ranks", [
    # bash 5.2 ran rounds 0 and 2 of `for ((i=0;i<3;i++)); do ...; i=$((i+1)); done` (it said 3)
    ("for ((i=0;i<3;i++))", "i=$((i+1))", 0),
    ("for ((i=0;i<N;i++))", "((i+=1))", 0),
    ("for ((i=0;i<3;i++))", "", 3),
    # a `for ... in` list runs once per word whatever its body sets (bash 5.2: three rounds)
    ("for i in 0 1 2", "i=$((i+1))", 3),
])
def test_a_counted_loop_whose_body_sets_its_counter_runs_an_unknown_number_of_times(tmp_path, loop, body, ranks):
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"N=3\n{loop}; do\n  python3 train.py &\n  {body}\ndone\n")
    (cmd,) = [c for c in Walk(str(tmp_path / "run.sh")).run().commands if c.words[0].text == "python3"]
    assert cmd.ranks == ranks
