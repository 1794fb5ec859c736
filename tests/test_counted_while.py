"""Counted loops written otherwise than `for`: `i=0; while [ $i -lt $N ]; do ...; i=$((i+1)); done` (mindspore-ai/
models' CGAN run_distributed_train_ascend.sh), `until`; a round's `mkdir -p ./d$i && cd ./d$i`; a `mkdir` without -p
under `set -e`; loops that run no round.

What bash does was checked by running small launchers of these shapes with bash 5.2 (twice where a run before matters)
and a train.py that prints its folder and DEVICE_ID: the while and until forms ran d0 ... d3 as the `for` form does
and left the counter at the bound; `set -e` stopped at `((i++))` of 0 (its status is 1) and at `mkdir ./d0` that a run
before left; `mkdir d$i && cd d$i` of a second run skipped the cd and started train.py in the launcher's folder."""

import pytest

from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.shell.launches import steps
from flake8_npuprof.shell.walk import Walk

T = Target.parse("8.0", "910B")
BODY = "    export DEVICE_ID=$i\n    rm -rf ./d$i\n    mkdir ./d$i\n    cd ./d$i || exit\n    python3 ../train.py &\n" \
    "    cd ..\n"


def _python(tmp_path, launcher, cwd=None):
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(launcher)
    w = Walk(str(tmp_path / "run.sh"), cwd).run()
    (cmd,) = [c for c in w.commands if c.words[0].text == "python3"]
    return cmd, w


@pytest.mark.parametrize("start, loop, step, first", [
    ("i=0", "while [ $i -lt 4 ]; do", "i=$((i+1))", 0),
    ("i=0", "while [[ ${i} -lt $N ]]\ndo", "let i++", 0),
    ("i=1", "until [ \"$i\" -gt 4 ]; do", "((i+=1))", 1),
    ("export i=2", "until [[ $i -ge 6 ]]; do", "i=`expr $i + 1`", 2),
    ("i=0", "while [ $i -ne $N ]; do", "i=$[$i+1]", 0),
])
def test_a_while_or_until_loop_that_counts_is_read_as_a_counted_for(tmp_path, start, loop, step, first):
    cmd, w = _python(tmp_path, f"N=4\n{start}\n{loop}\n{BODY}    {step}\ndone\n")
    assert (cmd.cwd, cmd.ranks, cmd.conditional) == ((str(tmp_path / f"d{first}"),), 4, False)
    assert (cmd.rounds.line, cmd.rounds.name, cmd.rounds.values) == (3, "i", tuple(str(first + r) for r in range(4)))
    assert cmd.rounds.dirs == tuple(str(tmp_path / f"d{first + r}") for r in range(4))
    assert dict(cmd.env)["DEVICE_ID"].value != str(first)      # (one a round: said by the rounds, not one value)
    assert w.dirs == (str(tmp_path),)


def test_the_emulated_launch_says_each_rounds_folder_and_how_often(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "train.py").write_text('import mindspore as ms\n\nprofiler = ms.Profiler(output_path="./prof")\n'
                                       'profiler.analyse()\n')
    launcher = tmp_path / "scripts" / "run.sh"
    launcher.write_text("i=0\nwhile [ $i -lt ${DEVICE_NUM} ]; do\n    export DEVICE_ID=${i}\n    mkdir ./d$i\n"
                        "    cp ../*.py ./d$i\n    cd ./d$i || exit\n    python -u train.py > log 2>&1 &\n    cd ..\n"
                        "    i=$((i + 1))\ndone\n".replace("i=0\n", "DEVICE_NUM=8\ni=0\n"))
    launch = emulate_path(str(launcher), T, use_env=False, environ={}, launcher_args=[])["launch"]
    assert launch["lines"] == [
        "launch: run.sh:8 python -u train.py",
        "  the launcher copies train.py into d0 from ../train.py (`cp ../*.py ./d$i`, run.sh:6): emulated from that "
        "file",
        "  runs in d0, d1, ... d7: the folder each round of the loop at run.sh:3 makes ($i = 0, 1, ... 7), where the "
        "round's relative paths are (an output folder among them); emulated in the first one",
        "  (those folders are relative to the launcher's own directory, where it is meant to be started: give --cwd "
        "for another)",
        "  DEVICE_ID=0, 1, ... 7, one a round (export at run.sh:4)",
        "  started 8 times (one per rank)",
        "  in the background (&): the launcher goes on without waiting for it"]


LOST = "`cd ./d$i` at run.sh:6 is in a branch, loop or function that may not run"
CLEAN = "i=0\nwhile [ $i -lt 4 ]; do\n" + BODY + "    i=$((i+1))\ndone\n"


@pytest.mark.parametrize("hazard, clean", [
    # `((i++))` gives 0 in round 1: its status is 1, and set -e stops there (bash 5.2: d0 alone)
    ("set -e\ni=0\nwhile [ $i -lt 4 ]; do\n" + BODY + "    ((i++))\ndone\n", ("set -e\n", "")),
    # set where the walk does not follow values
    ("i=0\n((i=2))\nwhile [ $i -lt 4 ]; do\n" + BODY + "    i=$((i+1))\ndone\n", ("((i=2))", ":")),
    # the body sets the bound, or calls what may set the counter
    ("N=4\ni=0\nwhile [ $i -lt $N ]; do\n" + BODY + "    N=2\n    i=$((i+1))\ndone\n", ("    N=2\n", "")),
    ("f() { i=3; }\ni=0\nwhile [ $i -lt 4 ]; do\n" + BODY + "    f\n    i=$((i+1))\ndone\n", ("    f\n", "")),
    # the step not the body's last command, or not run every round
    (CLEAN.replace("    i=$((i+1))\n", "    i=$((i+1))\n    echo $i\n"), ("    echo $i\n", "")),
    (CLEAN.replace("    i=$((i+1))", "    true && i=$((i+1))"), ("true && ", "")),
    (CLEAN.replace("    i=$((i+1))", "    [ $i -eq 1 ] && continue\n    i=$((i+1))"),
     ("    [ $i -eq 1 ] && continue\n", "")),
    # `i+=1` appends to a string (bash 5.2: 0, 01, 011, ...)
    (CLEAN.replace("i=$((i+1))", "i+=1"), ("i+=1", "let i+=1")),
    # arithmetic that steps the counter or the bound outside `((...))` and `let`: `$[...]`, an index, a substring's
    # offset, a `[[ ]]` comparison's operand, a nameref (bash 5.2 ran each in d0 and d2 alone; with `$[N--]`, d0 and d1)
    (CLEAN.replace("    i=$((i+1))", "    : $[i++]\n    i=$((i+1))"), (" $[i++]", "")),
    (CLEAN.replace("    i=$((i+1))", "    : ${a[i++]}\n    i=$((i+1))"), ("i++", "i")),
    (CLEAN.replace("    i=$((i+1))", "    b[i++]=1\n    i=$((i+1))"), ("i++]", "i]")),
    (CLEAN.replace("    i=$((i+1))", "    x=abcdefgh; : ${x:i++:1}\n    i=$((i+1))"), ("i++:", "i:")),
    (CLEAN.replace("    i=$((i+1))", "    [[ i++ -lt 9 ]]\n    i=$((i+1))"), ("i++", "i")),
    (CLEAN.replace("    i=$((i+1))", "    declare -n r=i; r=$((r+1))\n    i=$((i+1))"), ("-n ", "")),
    ("N=4\n" + CLEAN.replace("-lt 4", "-lt $N").replace("    i=$((i+1))", "    : $[N--]\n    i=$((i+1))"),
     (" $[N--]", "")),
])
def test_where_bash_may_count_otherwise_the_while_loop_stays_unknown(tmp_path, hazard, clean):
    lines = hazard.count("\n", 0, hazard.index("while")) + 5      # (the cd: the body's fourth line)
    cmd, _ = _python(tmp_path, hazard)
    assert (cmd.cwd, cmd.rounds, cmd.ranks, cmd.conditional) == ((), None, 0, True)
    assert cmd.lost == LOST.replace("run.sh:6", f"run.sh:{lines}")
    # the same loop without it is counted
    cmd, _ = _python(tmp_path, hazard.replace(*clean))
    assert (cmd.cwd, cmd.ranks) == ((str(tmp_path / "d0"),), 4)


@pytest.mark.parametrize("loop", ["for((i=0;i<0;i++))", "for i in $(seq 1 0)", "N=0\nfor ((i=0; i<N; i++))",
                                  "i=3\nwhile [ $i -lt 3 ]", "i=0\nuntil [ $i -ge 0 ]",
                                  # the counter set in the background, or piped: bash 5.2 keeps i=5 in this shell
                                  "i=5\ni=0 &\nwhile [ $i -lt 4 ]", "i=5\ni=0 | cat\nwhile [ $i -lt 4 ]"])
def test_a_loop_that_runs_no_round_starts_nothing(tmp_path, loop):
    # bash 5.2 runs none of these bodies; the walk said "started an unknown number of times"
    step = "\n    i=$((i+1))" if "i=" in loop.split("\n")[0] else ""
    (tmp_path / "train.py").write_text("print(1)\n")
    (tmp_path / "run.sh").write_text(f"{loop}; do\n    python3 train.py &{step}\ndone\npython3 train.py --after\n")
    (launch,) = steps(Walk(str(tmp_path / "run.sh")).run())
    assert [w.text for w in launch.command.words] == ["python3", "train.py", "--after"]


def test_a_cd_after_the_rounds_mkdir_and_and(tmp_path):
    for make, known in (("mkdir -p d$i && cd d$i", True), ("rm -rf d$i; mkdir d$i && cd d$i", True),
                        # without -p a folder a run before left makes mkdir fail, and the cd is skipped (bash 5.2:
                        # train.py started in the launcher's folder)
                        ("mkdir d$i && cd d$i", False), ("mkdir d$i; rm -rf d$i; mkdir -p d$i && cd d$i", True),
                        # the exit does not run (bash 5.2: every round)
                        ("mkdir -p d$i || exit 1\n    cd d$i", True)):
        cmd, _ = _python(tmp_path, f"for((i=0;i<3;i++)); do\n    {make}\n    python3 ../train.py &\n    cd ..\ndone\n")
        assert (cmd.cwd, cmd.rounds is not None, cmd.ranks) == (
            (str(tmp_path / "d0"),) if known else (), known, 3), make


def test_under_set_e_a_mkdir_without_p_of_a_folder_that_may_be_there_may_stop_the_loop(tmp_path):
    (tmp_path / "src").mkdir()
    for make, known in (("mkdir ./d$i", False), ("rm -rf ./d$i\n    mkdir ./d$i", True),
                        ("rm -rf ./d$i\n    mkdir ./d$i\n    mkdir ./d$i/src", True),
                        # the copy puts src there: `mkdir ./d0/src` fails (bash 5.2, first run too)
                        ("rm -rf ./d$i\n    mkdir ./d$i\n    cp -r ../src ./d$i\n    mkdir ./d$i/src", False),
                        ("rm -rf ./d$i\n    mkdir ./d$i\n    cp -r ../src ./d$i/ckpt\n    mkdir ./d$i/ckpt", False),
                        # pafnucy's: what the copies put there has other names (bash 5.2: every round, run twice)
                        ("rm -rf ./d$i\n    mkdir ./d$i\n    cp ../*.py ./d$i\n    cp -r ../src ./d$i\n"
                         "    mkdir ./d$i/ckpt", True),
                        ("mkdir -p ./d$i", True)):
        cmd, _ = _python(tmp_path, f"set -e\nfor((i=0;i<3;i++)); do\n    {make}\n    cd ./d$i\n"
                                   "    python3 ../train.py &\n    cd ..\ndone\n")
        assert (cmd.cwd, cmd.ranks) == (((str(tmp_path / "d0"),), 3) if known else ((), 0)), make
        if not known:
            mkdir = make.split("\n")[-1].strip()
            assert cmd.lost.endswith(
                "each round's value, the last one after it), and the loop at run.sh:2 may end early (`" + mkdir +
                "` stops the shell under set -e where the folder is there already: left by a run before, or made or "
                "copied by the launcher): not each folder its rounds make is entered")


def test_groups_nested_deep_in_a_loop_body_are_read_to_their_end_a_bounded_number_of_times(tmp_path, monkeypatch):
    # whether a `{ group; }` in a loop runs apart (`{ ...; } &`) is read from its `}`: each `{` read on to its own,
    # so groups nested n deep read the text about n times (2,000 deep in 16 KB took 12 s of CPU); past the text's
    # length of such reading a group is taken as one whose `exit` may end the loop (as before groups were read apart)
    import flake8_npuprof.shell.walk as walk
    from flake8_npuprof.shell.parse import brace_body
    read = []

    def counting(text, brace):
        found = brace_body(text, brace)
        read.append(len(text) - brace if found is None else found[2] - brace)
        return found
    monkeypatch.setattr(walk, "brace_body", counting)
    launcher = "for ((i=0; i<2; i++)); do\n" + "{\n" * 300 + "    python3 train.py\n" + "}\n" * 300 + "done\n"
    cmd, _ = _python(tmp_path, launcher)
    assert (cmd.cwd, cmd.ranks) == ((str(tmp_path),), 2)
    assert sum(read) <= 2 * len(launcher)


def test_while_loops_nested_deep_are_read_to_their_done_a_bounded_number_of_times(tmp_path, monkeypatch):
    # each `while [ $i -lt N ]` is read on to its `done` for its step: loops nested n deep read the text about n times
    # (5,000 deep in 140 KB took 7.5 s of CPU, 0.7 s before counted while loops were read); past the text's length of
    # such reading a while loop is walked as one not counted
    import flake8_npuprof.shell.counted_while as counted
    from flake8_npuprof.shell.parse import _loop_body
    read = []

    def counting(text, at):
        found = _loop_body(text, at)
        read.append(len(text) - at if found is None else found[2] - at)
        return found
    monkeypatch.setattr(counted, "_loop_body", counting)
    launcher = "i=0\n" + "while [ $i -lt 2 ]; do\n" * 300 + "    python3 train.py\n    i=$((i+1))\n" + "done\n" * 300
    cmd, _ = _python(tmp_path, launcher)
    assert (cmd.cwd, cmd.conditional) == ((str(tmp_path),), True)
    assert sum(read) <= 2 * len(launcher)


def test_a_counted_for_whose_body_steps_its_variable_in_old_arithmetic_stays_unknown(tmp_path):
    # (bash 5.2: `for ((i=0; i<4; i++))` with `: $[i++]` in its body ran in d0 and d2)
    launcher = "for ((i=0; i<4; i++)); do\n" + BODY + "    : $[i++]\ndone\n"
    cmd, _ = _python(tmp_path, launcher)
    assert (cmd.cwd, cmd.rounds, cmd.ranks) == ((), None, 0)
    cmd, _ = _python(tmp_path, launcher.replace("$[i++]", "$[i+1]"))
    assert (cmd.cwd, cmd.ranks) == ((str(tmp_path / "d0"),), 4)


@pytest.mark.parametrize("head, step", [("i=0\nwhile [ $i -lt 4 ]; do", "    i=$((i+1))\n"),
                                        ("for ((i=0; i<4; i++)); do", "")])
def test_a_nameref_to_the_counter_declared_before_the_loop_leaves_its_rounds_unknown(tmp_path, head, step):
    # bash 5.2: `declare -n r=i` before the loop, `r=$((r+1))` in its body: d0 and d2 alone (the walk said d0 ... d3)
    launcher = f"declare -n r=i\n{head}\n" + BODY + "    r=$((r+1))\n" + step + "done\n"
    cmd, _ = _python(tmp_path, launcher)
    assert (cmd.cwd, cmd.rounds, cmd.ranks) == ((), None, 0)
    cmd, _ = _python(tmp_path, launcher.replace("declare -n r=i", "declare r=i"))
    assert (cmd.cwd, cmd.ranks) == ((str(tmp_path / "d0"),), 4)


@pytest.mark.parametrize("make, ranks", [("mkdir -p d$i && cd d$i", 3), ("set -e\n    mkdir -p d$i\n    cd d$i", 0)])
def test_a_file_where_the_round_makes_its_folder_leaves_the_folder_unknown(tmp_path, make, ranks):
    # bash 5.2 with a plain file d1: `mkdir -p d1` failed ("File exists") and `&& cd d1` was skipped, so round 1 ran in
    # the launcher's folder and its `cd ..` left it; under set -e the launcher stopped in round 1 (d0 alone)
    (tmp_path / "d1").write_text("")
    cmd, _ = _python(tmp_path, f"for((i=0;i<3;i++)); do\n    {make}\n    python3 ../train.py &\n    cd ..\ndone\n")
    assert (cmd.cwd, cmd.rounds, cmd.ranks) == ((), None, ranks)
    (tmp_path / "d1").unlink()
    cmd, _ = _python(tmp_path, f"for((i=0;i<3;i++)); do\n    {make}\n    python3 ../train.py &\n    cd ..\ndone\n")
    assert (cmd.cwd, cmd.ranks) == ((str(tmp_path / "d0"),), 3)


def test_a_while_loop_whose_step_comes_before_the_bodys_other_commands(tmp_path):
    # mindspore-lab/mindrlhf's run_glm4_rlhf.sh: `echo "Epoch number is $epoch"; epoch=$((epoch+1)); msrun ...`. bash
    # 5.2 ran this body's train.py in d1, d2, d3 with DEVICE_ID 1, 2, 3 (the counter one more from the step on), where
    # the walk said the loop's launch may not run, once
    cmd, w = _python(tmp_path, "i=0\nwhile [ $i -lt 3 ]; do\n    echo \"round $i\"\n    i=$((i+1))\n"
                               "    export DEVICE_ID=$i\n    mkdir -p ./d$i\n    cd ./d$i || exit\n"
                               "    python3 ../train.py &\n    cd ..\ndone\n")
    assert (cmd.cwd, cmd.ranks, cmd.conditional) == ((str(tmp_path / "d1"),), 3, False)
    assert (cmd.rounds.values, cmd.rounds.dirs) == (("1", "2", "3"), tuple(str(tmp_path / f"d{r}") for r in (1, 2, 3)))
    assert list(w.round_values.values())[-1][1] == ("1", "2", "3")        # DEVICE_ID, one a round
    # after a compound, or run in the background, the step is not known to run every round
    for moved in ("    if [ -n \"$X\" ]; then echo; fi\n    i=$((i+1))\n", "    i=$((i+1)) &\n"):
        cmd, _ = _python(tmp_path, "i=0\nwhile [ $i -lt 3 ]; do\n" + moved + "    python3 train.py\ndone\n")
        assert (cmd.ranks, cmd.conditional) == (1, True), moved
