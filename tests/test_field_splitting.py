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
