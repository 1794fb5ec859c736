"""Where GE starts for a config. set_keras_session_npu_config only makes the backend session; GE starts
when a graph first runs in it (fit, evaluate, predict, get_session, ...). A file that never runs it does not
show whether GE reads the config: emulate says "may", check does not claim a run that profiles. A session
creator (ChiefSessionCreator) hands its config to the session a MonitoredSession makes."""
from __future__ import annotations

import json

from flake8_npuprof.checks.analysis import analyse
from flake8_npuprof.cli import main

HEAD = """\
import argparse
import tensorflow as tf
from npu_bridge.npu_init import *

parser = argparse.ArgumentParser()
parser.add_argument('--profiling', default=False)
args = parser.parse_args()
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
if args.profiling:
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
keras_sess = set_keras_session_npu_config(config=config)
"""

ESTIMATOR_ONLY = HEAD + """\
model = DeepFMEstimator(columns, config=tf.estimator.RunConfig(tf_random_seed=1))
model.train(train_input)
result = model.evaluate(test_input)
close_session(keras_sess)
"""


def _findings(text):
    return [f for f in analyse(text, None, "train.py") if f.code == "NPP205"]


def _emulate(capsys, tmp_path, text, fmt="json"):
    path = tmp_path / "train.py"
    path.write_text(text)
    code = main(["emulate", "--format", fmt, "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), str(path)])
    out, err = capsys.readouterr()
    assert err == ""
    return code, (json.loads(out) if fmt == "json" else out)


def test_a_keras_session_never_run_leaves_the_reading_unknown(capsys, tmp_path):
    code, data = _emulate(capsys, tmp_path, ESTIMATOR_ONLY)
    (setup,) = data["setups"]
    assert (setup["line"], setup["verdict"], setup["read_by_ge"]) == (12, "collects", None)
    assert data["usable"] is None and code == 1
    assert any("(line 14) makes is never run in this file" in m for m in setup["messages"])
    _, out = _emulate(capsys, tmp_path, ESTIMATOR_ONLY, fmt="text")
    lines = out.splitlines()
    # beside an unknown answer the headline says what the collection hangs on
    assert lines[1] == ("train.py:12 NpuOptimizer: MAY COLLECT task_trace into /tmp/p (when args.profiling) — unknown: "
                        "line 12 NpuOptimizer: the Keras session that set_keras_session_npu_config (line 14) makes is "
                        "never run in this file (no fit, evaluate, predict or get_session), and GE starts only when a "
                        "graph first runs (if GE reads it: collects)")
    assert lines[3].startswith("usable data: unknown (line 12 NpuOptimizer: the Keras session that "
                               "set_keras_session_npu_config (line 14) makes is never run in this file")


def test_npp205_does_not_claim_a_run_that_profiles_when_the_session_is_never_run():
    (f,) = _findings(ESTIMATOR_ONLY)
    assert (f.code, f.line, f.col) == ("NPP205", 6, 20)
    assert "`--profiling False` switches profiling on in a config this file does not show GE reading (the " \
           "Keras session that set_keras_session_npu_config (line 14) makes is never run" in f.message
    assert "turns profiling on" not in f.message


def test_a_keras_run_starts_ge(capsys, tmp_path):
    for run in ("model.fit(x, y, epochs=1)\n", "tf.keras.backend.get_session().run(init)\n",
                "keras_model.predict(x)\n"):
        _, data = _emulate(capsys, tmp_path, HEAD + run)
        (setup,) = data["setups"]
        assert (setup["verdict"], setup["read_by_ge"]) == ("collects", True), run
        assert data["usable"] is True
        (f,) = _findings(HEAD + run)
        assert f.code == "NPP205" and "`--profiling False` turns profiling on" in f.message


def test_an_unrun_keras_session_is_not_the_first_ge_start(capsys, tmp_path):
    # the Keras session carries no profiling and never runs: the tf.Session below starts GE, with profiling
    text = """\
import tensorflow as tf
from npu_bridge.npu_init import *

keras_sess = set_keras_session_npu_config(config=tf.ConfigProto())
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
with tf.Session(config=config) as sess:
    sess.run(train_op)
"""
    _, data = _emulate(capsys, tmp_path, text)
    (setup,) = data["setups"]
    assert (setup["verdict"], setup["read_by_ge"]) == ("collects", True)
    assert data["usable"] is True
    # once the Keras session runs first, it is the one GE starts with
    _, data = _emulate(capsys, tmp_path, text.replace("config = tf.ConfigProto()\n",
                                                      "model.fit(x, y)\nconfig = tf.ConfigProto()\n", 1))
    (setup,) = data["setups"]
    assert (setup["verdict"], setup["read_by_ge"]) == ("off", False)


def test_a_session_creator_hands_the_config_to_the_session_it_makes(capsys, tmp_path):
    # ChiefSessionCreator(config=...) is how a MonitoredSession gets its config: GE reads it there
    text = """\
import tensorflow as tf
from tensorflow.train import ChiefSessionCreator
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
with tf.train.MonitoredSession(session_creator=ChiefSessionCreator(config=config)) as sess:
    sess.run(train_op)
"""
    code, data = _emulate(capsys, tmp_path, text)
    (setup,) = data["setups"]
    assert (setup["verdict"], setup["read_by_ge"]) == ("collects", True)
    assert data["usable"] is True and code == 0


def test_what_is_not_keras_does_not_count_as_running_the_keras_session(capsys, tmp_path):
    # np.save, a tf.train.Saver's save, a plain get_value: none of them runs the Keras session
    for other in ("np.save('x.npy', arr)\n", "saver = tf.train.Saver()\nsaver.save(sess, 'ckpt')\n",
                  "cache.get_value('k')\n"):
        _, data = _emulate(capsys, tmp_path, ESTIMATOR_ONLY + other)
        (setup,) = data["setups"]
        assert setup["read_by_ge"] is None and data["usable"] is None, other
    _, data = _emulate(capsys, tmp_path, ESTIMATOR_ONLY + "tf.keras.backend.get_value(v)\n")
    assert data["setups"][0]["read_by_ge"] is True
