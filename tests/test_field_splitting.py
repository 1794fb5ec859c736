"""An unquoted expansion in a command is split into words, as bash splits it (`torchrun $DISTRIBUTED_ARGS
pretrain.py $GPT_ARGS $PROFILE_ARGS`, the way MindSpeed-LLM's launchers pass every option). The walk took each
`$ARGS` for one word, so a launch that passed `--profiling=True` inside it was said not to pass it.

The expectations are bash's: `printf '[%s]' python3 t.py $ARGS "$ARGS" x${ARGS}y $MULTI` printed
`[python3][t.py][--epochs=2][--profiling=True][--epochs=2 --profiling=True][x--epochs=2][--profiling=Truey]
[--data_path][/d][--steps][3]` with the assignments below (bash 5.2)."""

from flake8_npuprof.emulate.script import emulate_path
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.shell.walk import Walk
from flake8_npuprof.source.text import HOLE

T = Target.parse("8.0", "910B")

ASSIGNED = ('ARGS="--epochs=2 --profiling=True"\n'
            'MULTI="\n    --data_path /d \\\n    --steps 3 \\\n"\n')


def _words(tmp_path, text):
    path = tmp_path / "run.sh"
    path.write_text(text)
    return [[w.text for w in c.words] for c in Walk(str(path)).run().commands]


def test_an_unquoted_expansion_is_a_word_per_field(tmp_path):
    text = ASSIGNED + 'python3 t.py $ARGS "$ARGS" x${ARGS}y $MULTI\n'
    assert _words(tmp_path, text)[-1] == [
        "python3", "t.py", "--epochs=2", "--profiling=True", "--epochs=2 --profiling=True", "x--epochs=2",
        "--profiling=Truey", "--data_path", "/d", "--steps", "3"]


def test_a_value_not_known_or_a_launcher_that_sets_ifs_keeps_one_word(tmp_path):
    # what the caller's $EXTRA holds is not known: one word, a hole, as before
    assert _words(tmp_path, "python3 t.py $EXTRA\n")[-1] == ["python3", "t.py", HOLE]
    # IFS set by the launcher: not split at blanks (bash would split at its IFS; not modelled)
    assert _words(tmp_path, 'IFS=,\nL="a b"\npython3 t.py $L\n')[-1] == ["python3", "t.py", "a b"]


def test_the_fields_keep_their_place_in_the_assignment(tmp_path):
    path = tmp_path / "run.sh"
    path.write_text(ASSIGNED + "python3 t.py $ARGS\n")
    word = Walk(str(path)).run().commands[-1].words[3]
    assert word.text == "--profiling=True"
    first = ASSIGNED.index("--profiling=True")
    assert [word.value.src(i) for i in (0, 15)] == [first, first + 15]


SCRIPT = '''import argparse
import tensorflow as tf
from npu_bridge.npu_init import *
p = argparse.ArgumentParser()
p.add_argument("--profiling", default=False, action="store_true")
p.add_argument("--epochs", type=int, default=1)
args = p.parse_args()


def main():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    if args.profiling:
        custom_op.parameter_map["profiling_mode"].b = True
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/p","task_trace":"on"}')
    with tf.Session(config=config) as sess:
        sess.run(tf.no_op())


if __name__ == "__main__":
    main()
'''


def test_a_flag_passed_inside_a_variable_reaches_the_script(tmp_path):
    (tmp_path / "train.py").write_text(SCRIPT)
    (tmp_path / "run.sh").write_text('#!/bin/bash\nARGS="--epochs=2 --profiling"\npython3 train.py $ARGS\n')
    report = emulate_path(str(tmp_path / "run.sh"), T, use_env=False, environ={})
    assert [w for w in report["launch"]["command"] if w] == ["python3", "train.py", "--epochs=2", "--profiling"]
    # it said "profiling is off unless --profiling is passed to train.py: the launcher does not pass it"
    assert report["usable"] is True
    assert "  `args.profiling` is true in this launch (--profiling from run.sh:3)" in report["launch"]["lines"]


def test_an_unquoted_expansion_of_nothing_is_no_word(tmp_path):
    # bash 5.2: `W=""; S=" "; printf '[%s]' python3 t.py $W "$W" '' $W"" x$W ${W} $S --weights $W --prof`
    # printed `[python3][t.py][][][][x][--weights][--prof]`: an unquoted expansion of nothing is removed, a
    # quoted empty part stays an empty word. The walk kept `$W` and `${W}` as empty words
    text = 'W=""\nS=" "\npython3 t.py $W "$W" \'\' $W"" x$W ${W} $S --weights $W --prof\n'
    assert _words(tmp_path, text)[-1] == ["python3", "t.py", "", "", "", "x", "--weights", "--prof"]


TORCH = '''import argparse
import torch_npu

parser = argparse.ArgumentParser()
parser.add_argument("--weights", type=str, default="w.pt")
parser.add_argument("--prof", action="store_true")
args = parser.parse_args()

if args.prof:
    prof = torch_npu.profiler.profile(on_trace_ready=torch_npu.profiler.tensorboard_trace_handler("./prof"))
    prof.start()
    for step in range(10):
        prof.step()
    prof.stop()
'''


def _lines(capsys, tmp_path, launcher):
    from flake8_npuprof.cli import main
    (tmp_path / "train.py").write_text(TORCH)
    (tmp_path / "run.sh").write_text(launcher)
    main(["emulate", "--cann", "8.0", "--soc", "910B", "--torch-npu", "26.1", "--cwd", str(tmp_path), "--", "bash",
          "run.sh"])
    return capsys.readouterr().out.splitlines()[1:]


def test_an_option_given_an_empty_expansion_is_given_no_value(capsys, tmp_path):
    # bash 5.2 passes `--weights --prof` (the empty $W is no word), so python 3.9.18-3.13.0's argparse exits with
    # status 2 ("argument --weights: expected one argument") before args.prof is read; the answer was "usable data:
    # yes" (--weights given an empty word)
    why = ("line 10: not run in this launch: argparse stops the script in parse_args: --weights from run.sh:2 takes a "
           "value and is given none, so argparse exits with status 2 (\"error: argument --weights: expected one "
           "argument\")")
    assert _lines(capsys, tmp_path, 'W=""\npython3 train.py --weights $W --prof\n') == [
        "launch: run.sh:2 python3 train.py --weights --prof",
        f"train.py: torch_npu's profiler is off: {why}",
        f"usable data: no ({why.replace('line 10:', 'line 10 of train.py:')})"]


def test_a_quoted_empty_word_is_shown_as_one(capsys, tmp_path):
    # `--weights "$W"` passes an empty word, --weights's value (python 3.11: weights='', prof=True): the answer was
    # right, but its launch line dropped the word, showing `--weights --prof`, on which argparse stops
    assert _lines(capsys, tmp_path, 'W=""\npython3 train.py --weights "$W" --prof\n') == [
        "launch: run.sh:2 python3 train.py --weights '' --prof",
        "train.py: torch_npu's profiler collects (emulate train.py for its steps and folders)",
        "usable data: yes"]


def test_unquoted_all_arguments_are_split_and_an_empty_one_is_no_word(tmp_path):
    # bash 5.2: `set -- "a b" "" c; printf '[%s]' $@ $* ${@} ${*} "$@" x` printed [a][b][c] four times, then
    # [a b][][c][x]; `set -- "  a  "; printf '[%s]' $@` printed [a]. The walk gave each argument as one word, an empty
    # one too
    text = 'set -- "a b" "" c\npython3 t.py $@ $* ${@} ${*} "$@" x\nset -- "  a  "\npython3 t.py $@ x\n'
    assert _words(tmp_path, text) == [["python3", "t.py"] + ["a", "b", "c"] * 4 + ["a b", "", "c", "x"],
                                      ["python3", "t.py", "a", "x"]]
