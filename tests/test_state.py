"""One model of each setup's effective state (state.py): findings true where they stand, and the
same picture in `check`, the flake8 plugin and `emulate` (issue 11)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from flake8_npuprof.checks.analysis import Context, Settings, analyse
from flake8_npuprof.emulate.script import base_env, emulate_text
from flake8_npuprof.source.files import DEFAULT_OFF
from flake8_npuprof.source.text import SourceText
from flake8_npuprof.setups.state import OFF, ON, CONDITIONAL, UNKNOWN
from flake8_npuprof.source.text import is_placeholder
from flake8_npuprof.knowledge.targets import Target


def check(text):
    """The findings reported by default (NPP190 and most NPP2xx are off by default)."""
    return [f for f in analyse(textwrap.dedent(text), None, "t.py")
            if not any(f.code.startswith(c) for c in DEFAULT_OFF)]


def codes(text):
    return sorted((f.line, f.code) for f in check(text))


def emulated(text, kind="python", tmp_path="/tmp"):
    return emulate_text(textwrap.dedent(text), kind, "t.py", Target(), str(tmp_path), base_env(False, {}))


def states(text):
    src = textwrap.dedent(text)
    ctx = Context(SourceText(src), ast.parse(src), "t.py", Settings())
    return [(s.line, s.route, st.status, st.why) for s, st in zip(ctx.model.setups, ctx.model.states)]


EST = """\
from absl import flags
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig, DumpConfig
FLAGS = flags.FLAGS
OPTIONS = '{"output":"/tmp/p","task_trace":"on"}'
"""


# ---------------------------------------------------------------- the model

def test_model_states_per_route():
    got = states(EST + """
def passed_when_flagged():
    cfg = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    return NPURunConfig(profiling_config=cfg if FLAGS.profiling else None)

def never_passed():
    cfg = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)

def parked():
    cfg = ProfilingConfig(enable_profiling=False, profiling_options=OPTIONS)
    return NPURunConfig(profiling_config=cfg)

def computed(x):
    cfg = ProfilingConfig(enable_profiling=x, profiling_options=OPTIONS)
    return NPURunConfig(profiling_config=cfg)
""")
    assert got == [(7, "ProfilingConfig", CONDITIONAL, ""), (11, "ProfilingConfig", OFF, "never_passed"),
                   (14, "ProfilingConfig", OFF, "switch"), (18, "ProfilingConfig", UNKNOWN, "")]


def test_placeholders():
    for text in ("{PROFILING_MODE}", "${MODE}", "$MODE", "@MODE@", "{{ mode }}", "%(mode)s", "<MODE>"):
        assert is_placeholder(text), text
    for text in ("true", "false", "{}", '{"a":"b"}', "/tmp/x"):
        assert not is_placeholder(text), text


# ---------------------------------------------------------------- conditional hand-over

def test_config_passed_under_a_condition_is_not_npp006_in_check_or_emulate(tmp_path):
    text = EST + """
def main():
    cfg = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    run_config = NPURunConfig(profiling_config=cfg if FLAGS.profiling else None)
    return run_config
"""
    assert codes(text) == []
    (r,) = emulated(text, tmp_path=tmp_path)
    assert r.verdict != "off" and r.setup.conditions == ("FLAGS.profiling",)


def test_config_never_passed_is_npp006_and_its_options_problems_are_latent(tmp_path):
    text = EST + """
def main():
    cfg = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"/tmp/p","task_trace":"ON"}')
    return NPURunConfig()
"""
    found = {f.code: f for f in check(text)}
    assert set(found) == {"NPP006", "NPP102"}
    assert found["NPP102"].message.startswith("latent (this config never reaches GE)")
    assert "the job aborts" not in found["NPP102"].message
    (r,) = emulated(text, tmp_path=tmp_path)
    assert r.verdict == "off"


NPU_CONFIG = """\
import tensorflow as tf
from npu_bridge.npu_init import *

config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/p","task_trace":"on"}')
"""


@pytest.mark.parametrize("text, message", [
    # handed to NPURunConfig, whose result is replaced before the Estimator sees it
    (EST + """
def main(model_fn):
    cfg = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    run_config = NPURunConfig(profiling_config=cfg, model_dir="/tmp/m")
    run_config = NPURunConfig(model_dir="/tmp/m")
    NPUEstimator(model_fn=model_fn, config=run_config).train(None, max_steps=1)
""", "this ProfilingConfig is passed to NPURunConfig(...) at line 8, but `run_config` is "
     "assigned again at line 9 before it is read"),
    (NPU_CONFIG + """
sess_config = npu_config_proto(config_proto=config)
sess_config = tf.ConfigProto()
sess = tf.Session(config=sess_config)
""", "this profiling config is passed to npu_config_proto(...) at line 10, but "
     "`sess_config` is assigned again at line 11 before it is read"),
    (NPU_CONFIG + """
npu_config_proto(config_proto=config)
sess = tf.Session()
""", "this profiling config is passed to npu_config_proto(...) at line 10, but its "
     "result is not kept"),
    (NPU_CONFIG + """
sess_config = npu_config_proto(config_proto=config)
""", "this profiling config is passed to npu_config_proto(...) at line 10, but "
     "`sess_config` is never read"),
])
def test_npp006_names_the_step_that_loses_a_config_handed_on(text, message, tmp_path):
    (found,) = [f for f in check(text) if f.code == "NPP006"]
    assert found.message.startswith(message + ":"), found.message
    (r,) = emulated(text, tmp_path=tmp_path)
    assert r.verdict == "off"
    # emulate names the same step
    step = message.split(" is passed to ", 1)[1]
    assert any(m.code == "NPP006" and f" is passed to {step}: GE never reads it" in m.text for m in r.messages), \
        r.messages


def test_npp006_for_a_config_nothing_takes_still_says_never_passed():
    text = EST + """
def main():
    cfg = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    return NPURunConfig()
"""
    (found,) = [f for f in check(text) if f.code == "NPP006"]
    assert found.message.startswith("this ProfilingConfig is never passed as NPURunConfig(profiling_config=...)")


# ---------------------------------------------------------------- deliberate off switches

def test_explicit_off_switch_is_not_npp001_but_inside_a_profiling_branch_it_is():
    parked = EST + """
def parked():
    cfg = ProfilingConfig(enable_profiling=False, profiling_options='{"output":"/tmp/p","training_trace":"off"}')
    return NPURunConfig(profiling_config=cfg)
"""
    (f,) = check(parked)
    assert f.code == "NPP103" and f.message.startswith("latent (profiling is switched off here)")
    assert "GE initialisation will fail and the job will abort" in f.message
    meant = EST + """
def meant(args):
    if args.profiling:
        cfg = ProfilingConfig(enable_profiling=False, profiling_options=OPTIONS)
        return NPURunConfig(profiling_config=cfg)
"""
    assert codes(meant) == [(8, "NPP001")]


def test_npu_optimizer_off_switch_beside_parked_options():
    head = """\
import tensorflow as tf
from npu_bridge.npu_init import *
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
"""
    parked = head + """\
custom_op.parameter_map["profiling_mode"].b = False  # True to profile
custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""
    assert codes(parked) == []
    never_set = head + """\
custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""
    assert codes(never_set) == [(6, "NPP001")]


# ---------------------------------------------------------------- environment from Python

def test_env_mode_true_without_options_is_npp002_in_python():
    text = 'import os\nos.environ["PROFILING_MODE"] = "true"\n'
    (f,) = check(text)
    assert (f.code, f.line) == ("NPP002", 2) and "never sets PROFILING_OPTIONS" in f.message


def test_env_reassigned_later_is_judged_by_its_last_value():
    text = """\
import os
os.environ["PROFILING_MODE"] = "True"
os.environ["PROFILING_OPTIONS"] = '{"output":"/tmp/p","task_trace":"on"}'
os.environ["PROFILING_MODE"] = "true"
"""
    assert codes(text) == []
    # but a later value only in a branch does not replace it
    branch = text.replace('os.environ["PROFILING_MODE"] = "true"', 'if x:\n    os.environ["PROFILING_MODE"] = "true"')
    assert (2, "NPP011") in codes(branch)


@pytest.mark.parametrize("mode", ["false", "FALSE", "0", "off", "{PROFILING_MODE}", "@MODE@", "${MODE}"])
def test_env_off_values_and_placeholders_are_not_npp011(mode):
    text = f'import os\nos.environ["PROFILING_MODE"] = "{mode}"\n' \
           'os.environ["PROFILING_OPTIONS"] = \'{"output":"/tmp/p","task_trace":"on"}\'\n'
    assert codes(text) == []


# ---------------------------------------------------------------- TF2: open at import

def test_open_at_import_then_options_in_a_function_is_npp012_in_check_as_in_emulate(tmp_path):
    text = """\
import npu_device as npu
npu.open().as_default()

def train():
    npu.global_options().profiling_config.enable_profiling = True
    npu.global_options().profiling_config.profiling_options = '{"output":"/tmp","task_trace":"on"}'

train()
"""
    assert codes(text) == [(5, "NPP012"), (6, "NPP012")]
    (r,) = emulated(text, tmp_path=tmp_path)
    assert r.verdict == "off" and str(r.messages[0]).startswith("NPP012")
    # opened after the function that sets the options has run: fine in both
    later = text.replace("npu.open().as_default()\n", "").replace("train()\n", "train()\nnpu.open().as_default()\n")
    assert codes(later) == []
    (r,) = emulated(later, tmp_path=tmp_path)
    assert r.verdict != "off"


# ---------------------------------------------------------------- NPP202 across configs

def test_dump_config_with_profiling_config_is_npp202():
    text = EST + """
def main():
    profiling = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    dump = DumpConfig(enable_dump=True, dump_path="/tmp/d")
    return NPURunConfig(profiling_config=profiling, dump_config=dump)
"""
    (f,) = check(text)
    assert (f.code, f.line, f.col) == ("NPP202", 8, 22) and "ProfilingConfig on line 7" in f.message
    assert codes(text.replace("enable_profiling=True", "enable_profiling=False")) == []


def test_session_config_dump_is_overwritten_by_npu_estimator_so_no_npp202():
    # NPUEstimator appends its own NpuOptimizer entry with enable_dump/enable_dump_debug from
    # dump_config (False by default), which overwrites the session_config's entry.
    text = EST + """
import tensorflow as tf
def main():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["enable_dump_debug"].b = True
    profiling = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    return NPURunConfig(session_config=config, profiling_config=profiling)
"""
    assert [c for _, c in codes(text)] == []


# ---------------------------------------------------------------- None, absl flags, copied points

def test_python_none_formatted_into_output_is_npp108():
    text = """\
import tensorflow as tf
from npu_bridge.npu_init import *
PROF_DIR = None
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"%s/prof","task_trace":"on"}' % PROF_DIR)
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""
    (f,) = check(text)
    assert (f.code, f.line) == ("NPP108", 8) and "'None/prof'" in f.message
    assert codes(text.replace("PROF_DIR = None", 'PROF_DIR = "/tmp"')) == []


def test_a_none_from_a_flag_default_says_it_holds_only_without_the_flag():
    # launchers usually pass --profiling_dir; the finding must say it is about the default
    text = """\
import tensorflow as tf
from npu_bridge.npu_init import *
tf.flags.DEFINE_string('profiling_dir', None, 'where')
FLAGS = tf.flags.FLAGS
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"%s","task_trace":"on"}' % FLAGS.profiling_dir)
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""
    (f,) = check(text)
    assert f.code == "NPP108" and f.message.endswith(
        "(checked with the default of --profiling_dir, used when the flag is not given)")


ABSL = """\
import tensorflow as tf
from absl import flags
from npu_bridge.npu_init import *
flags.DEFINE_string("profiling", {default}, "profile")
FLAGS = flags.FLAGS
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
if FLAGS.profiling:
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{{"output":"/tmp/p","task_trace":"on"}}'
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""


@pytest.mark.parametrize("default, expected", [('"False"', ["NPP205"]), ("False", ["NPP205"]), ('"true"', ["NPP205"]),
                                               # no value of its own and only truth-tested: a switch
                                               ("None", ["NPP205"]), ('""', ["NPP205"]),
                                               ('"/tmp/prof"', [])])
def test_absl_string_flag_tested_for_truth(default, expected):
    found = check(ABSL.format(default=default))
    assert [f.code for f in found] == expected
    if expected:
        assert "flags.DEFINE_bool" in found[0].message and found[0].line == 4


ABSL_DELIVERY = """\
from absl import app, flags
from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig
from npu_bridge.estimator.npu.npu_estimator import NPUEstimator

flags.DEFINE_string("{name}", None, "collect profiling data")
FLAGS = flags.FLAGS


def main(_):
    cfg = ProfilingConfig(enable_profiling=True, profiling_options={options})
    run_config = NPURunConfig(profiling_config=cfg if FLAGS.{name} else None)
    NPUEstimator(model_fn=None, config=run_config).train(None, max_steps=1)


if __name__ == "__main__":
    app.run(main)
"""


def test_absl_string_flag_deciding_the_handover_is_npp205():
    # `cfg if FLAGS.profiling else None`: --profiling=False hands the config over as well
    text = ABSL_DELIVERY.format(name="profiling", options="'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'")
    (f,) = check(text)
    assert (f.code, f.line, f.col) == ("NPP205", 5, 20) and "--profiling=False" in f.message
    assert "so `--profiling=False` turns profiling on;" in f.message
    assert f.short == "--profiling guards profiling but is a string flag: `--profiling=False` turns profiling on"


def test_npp205_on_a_config_whose_own_line_raises_says_the_script_stops_first():
    # the pre-2021 ProfilingConfig raises TypeError where it is built, before the flag is tested (held-out
    # review: GARL's resnet_run_loop.py said "profiling turns on", which no run of that script does)
    text = ABSL_DELIVERY.format(name="profiling", options="None").replace(
        "profiling_options=None", "enable_options=['task_trace']")
    found = {f.code: f for f in check(text)}
    assert sorted(found) == ["NPP014", "NPP205"] and found["NPP014"].line == 10
    assert "so `--profiling=False` would turn profiling on once line 10 no longer raises (NPP014; it stops the " \
        "script first);" in found["NPP205"].message
    assert found["NPP205"].short == ("--profiling guards profiling but is a string flag: `--profiling=False` would "
                                     "turn profiling on once line 10 no longer raises")
    # built only under a condition the hand-over is not under: the script may get past it, so no stop is claimed
    guarded = text.replace("    cfg = ProfilingConfig(", "    cfg = None\n    if FLAGS.legacy:\n        cfg = ProfilingConfig(")
    found = {f.code: f for f in check(guarded)}
    assert "NPP014" in found and "so `--profiling=False` turns profiling on;" in found["NPP205"].message
    # inside a `try` with handlers: the line still raises first, but no stop is claimed (the handler decides)
    tried = text.replace("    cfg = ProfilingConfig(", "    try:\n        cfg = ProfilingConfig(").replace(
        "    run_config =", "    except TypeError:\n        print('an older adapter')\n    run_config =")
    found = {f.code: f for f in check(tried)}
    assert "once line 11 no longer raises (NPP014; the `try` at line 10 may catch it);" in found["NPP205"].message


def test_absl_string_flag_with_a_value_used_is_not_npp205_and_its_none_default_is_not_judged():
    # the flag holds the output directory: its text is used, so it is no switch; and its default (None)
    # cannot be in effect where the config is handed over only when the flag tests true
    text = ABSL_DELIVERY.format(
        name="profiling", options="'{\"output\":\"%s\",\"task_trace\":\"on\"}' % FLAGS.profiling")
    assert codes(text) == []
    guarded = """\
import tensorflow as tf
from absl import flags
from npu_bridge.npu_init import *
flags.DEFINE_string("profiling_dir", None, "where")
FLAGS = flags.FLAGS
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
if FLAGS.profiling_dir:
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(
        '{"output":"%s","task_trace":"on"}' % FLAGS.profiling_dir)
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""
    assert codes(guarded) == []
    # without the guard the default is what a run without the flag uses: NPP108 stands
    unguarded = guarded.replace("if FLAGS.profiling_dir:\n    ", "").replace("\n    custom_op.parameter_map[\"profiling_options\"]", "\ncustom_op.parameter_map[\"profiling_options\"]")
    assert [c for _, c in codes(unguarded)] == ["NPP108"]


def test_npp205_advice_keeps_launchers_passing_false_working():
    text = """\
import argparse
import tensorflow as tf
from npu_bridge.npu_init import *
parser = argparse.ArgumentParser()
parser.add_argument("--profiling", default=False)
args = parser.parse_args()
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
if args.profiling:
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""
    (f,) = check(text)
    assert f.code == "NPP205" and "type=ast.literal_eval" in f.message and "store_true" not in f.message
    fixed = text.replace("import argparse", "import argparse\nimport ast").replace(
        'default=False)', 'type=ast.literal_eval, default=False)')
    assert codes(fixed) == []


POINT = """\
import tensorflow as tf
from npu_bridge.npu_init import *
{imports}
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = b'{{"output":"/tmp/p","training_trace":"on","task_trace":"on","fp_point":"resnet_model/conv2d/Conv2D","bp_point":""}}'
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""


@pytest.mark.parametrize("imports, expected", [
    ("from bert import modeling", ["NPP204"]),          # a BERT script with a ResNet point
    ("from official.resnet import resnet_model", []),  # the model is here
    ("from models import build", []),                  # the model comes from elsewhere: not judged
])
def test_trace_point_copied_from_another_model(imports, expected):
    found = check(POINT.format(imports=imports))
    assert [f.code for f in found] == expected
    if expected:
        assert "'resnet_model' is from a resnet model" in found[0].message


def test_a_trace_point_naming_no_model_family_does_not_read_the_file_for_one():
    # only a point whose top scope names a family is judged against the file: the file's text is not lowered
    # (a copy of the whole file) for the others
    from flake8_npuprof.checks.hygiene import point_problem

    class Spy(str):
        def lower(self):
            lowered.append(len(self))
            return str.lower(self)

    lowered: list = []
    context = Spy(POINT.format(imports="from bert import modeling"))
    options = context[context.index("{"):context.index("}") + 1]
    assert point_problem("gradients/AddN_7", options, context) == ""
    assert lowered == []
    assert point_problem("resnet_model/conv2d/Conv2D", options, context).startswith("its top scope 'resnet_model'")
    assert lowered == [len(context)]


# ---------------------------------------------------------------- advice that trips another rule

def test_colon_list_hint_and_fix_are_clean():
    from flake8_npuprof.checks.options import check_options
    import re
    (issue,) = check_options("training_trace:task_trace", Target()).issues
    assert issue.code == "NPP100"
    example = re.search(r"(\{.*\})", issue.message).group(1)
    assert check_options(example, Target()).issues == []
    (_, _, new), = issue.fix.edits
    assert check_options(new, Target()).issues == []


def test_config_returned_by_a_helper_and_dropped_is_npp006_in_check_as_in_emulate(tmp_path):
    text = EST + """
def make():
    return ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)

def main():
    cfg = make()
    return NPURunConfig(profiling_config=cfg)

def lost():
    cfg = make()
"""
    assert codes(text) == []            # one caller hands it over: GE may read it
    dropped = text[:text.index("def main")] + "def lost():\n    cfg = make()\n"
    assert codes(dropped) == [(7, "NPP006")]
    (r,) = emulated(dropped, tmp_path=tmp_path)
    assert r.verdict == "off" and str(r.messages[0]).startswith("NPP006")


def test_settings_in_a_branch_that_never_runs_are_seen_by_no_front_end(tmp_path):
    text = """\
import tensorflow as tf
from npu_bridge.npu_init import *
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
if False:
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"ON"}'
sess = tf.Session(config=npu_config_proto(config_proto=config))
"""
    # dead code is dropped by the sites walk that every front-end reads
    assert states(text) == [] and codes(text) == [] and emulated(text, tmp_path=tmp_path) == []
    assert states(text.replace("if False:", "if True:")) == [(7, "NpuOptimizer", ON, "")]


def test_npu_config_built_by_a_helper_and_dropped_is_npp006_in_check_as_in_emulate(tmp_path):
    text = """\
import tensorflow as tf
from npu_bridge.npu_init import *

def make_config():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
    custom_op.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"on"}'
    return config

def main():
    config = make_config()
"""
    assert codes(text) == [(8, "NPP006")]
    (r,) = emulated(text, tmp_path=tmp_path)
    assert r.verdict == "off"
    used = text + "    sess = tf.Session(config=npu_config_proto(config_proto=config))\n"
    assert codes(used) == []
    (r,) = emulated(used, tmp_path=tmp_path)
    assert r.verdict != "off"


def test_dump_only_under_its_own_flag_is_not_npp202():
    text = EST + """
def main(args):
    profiling = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    if args.dump:
        dump = DumpConfig(enable_dump=True, dump_path="/tmp/d")
        return NPURunConfig(profiling_config=profiling, dump_config=dump)
    return NPURunConfig(profiling_config=profiling)
"""
    assert codes(text) == [(9, "NPP202")]        # the run config that gets both is in the same branch
    text = EST + """
def main(args):
    if args.dump:
        dump = DumpConfig(enable_dump=True, dump_path="/tmp/d")
    profiling = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    return NPURunConfig(profiling_config=profiling, dump_config=dump)
"""
    assert codes(text) == []


def test_a_config_that_never_reaches_ge_gets_no_claim_about_what_ge_does():
    never = EST + """
def main():
    cfg = ProfilingConfig(enable_profiling=True)
    return NPURunConfig()
"""
    assert codes(never) == [(7, "NPP006")]          # not NPP002: NPUEstimator never sees it
    head = """\
import tensorflow as tf
from npu_bridge.npu_init import *
def main():
    config = tf.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = True
"""
    assert [c for _, c in codes(head)] == ["NPP006"]
    assert [c for _, c in codes(head + "    tf.Session(config=config)\n")] == ["NPP002"]


def test_options_of_a_config_ge_never_reads_because_it_started_earlier_are_latent(tmp_path):
    text = """\
import tensorflow as tf
from npu_bridge.npu_init import *
warmup = tf.ConfigProto()
op = warmup.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
warm_sess = tf.Session(config=warmup)
config = tf.ConfigProto()
op2 = config.graph_options.rewrite_options.custom_optimizers.add()
op2.name = "NpuOptimizer"
op2.parameter_map["profiling_mode"].b = True
op2.parameter_map["profiling_options"].s = b'{"output":"/tmp/p","task_trace":"ON"}'
sess = tf.Session(config=config)
"""
    assert states(text) == [(10, "NpuOptimizer", OFF, "overridden")]
    (f,) = check(text)
    assert f.code == "NPP102" and f.message.startswith("latent (GE is initialised earlier with another config")
    (r,) = emulated(text, tmp_path=tmp_path)
    assert r.verdict == "off" and str(r.messages[0]).startswith("not read: GE is initialised first at line 6")
    # alone, the same config is read and its problem is live
    alone = text.replace("warm_sess = tf.Session(config=warmup)\n", "")
    (f,) = check(alone)
    assert "latent" not in f.message and "the job aborts" in f.message


def test_env_mode_set_in_both_branches_is_unknown_not_off(tmp_path):
    text = """\
import os
def main(args):
    if args.profiling:
        os.environ["PROFILING_MODE"] = "true"
    else:
        os.environ["PROFILING_MODE"] = "false"
    os.environ["PROFILING_OPTIONS"] = '{"output":"/tmp/p","training_trace":"off"}'
"""
    assert [s[2] for s in states(text)] == [UNKNOWN]
    (f,) = check(text)
    assert f.code == "NPP103" and not f.message.startswith("latent")
    (r,) = emulated(text, tmp_path=tmp_path)
    assert r.verdict == "unknown"


def test_a_config_also_handed_over_unconditionally_has_no_condition():
    text = EST + """
def main():
    cfg = ProfilingConfig(enable_profiling=True, profiling_options=OPTIONS)
    first = NPURunConfig(profiling_config=cfg if FLAGS.profiling else None)
    second = NPURunConfig(profiling_config=cfg)
    return first, second
"""
    assert states(text) == [(7, "ProfilingConfig", ON, "")]


def test_a_compat_v1_session_does_not_override_tf2_device_options(tmp_path):
    # A TF2 script that also builds a compat.v1 Session with an NpuOptimizer entry: the two adapters
    # are different programs, so the session started first says nothing about npu.open()'s options.
    text = """\
import tensorflow.compat.v1 as tf
import npu_device
sess_config = tf.ConfigProto()
op = sess_config.graph_options.rewrite_options.custom_optimizers.add()
op.name = "NpuOptimizer"
sess = tf.Session(config=sess_config)
def npu_config():
    npu_device.global_options().profiling_config.enable_profiling = True
    npu_device.global_options().profiling_config.profiling_options = '{"output":"/tmp/p","L2":"on"}'
    npu_device.open().as_default()
npu_config()
"""
    assert [(line, route, status) for line, route, status, _ in states(text)] == [(8, "npu_device", ON)]
    (f,) = check(text)
    assert f.code == "NPP101" and "latent" not in f.message and "the job aborts" in f.message


def test_a_conditional_ge_initialisation_overrides_nothing(tmp_path):
    # `if FLAGS.horovod: init_resource()` runs only with that flag: without it the Estimator's
    # profiling config is read, so its problems are live, not latent.
    text = """\
from absl import flags
from npu_bridge.npu_init import *
FLAGS = flags.FLAGS
def main(_):
    pc = ProfilingConfig(enable_profiling=True, profiling_options='{"output":"/tmp/p","L2":"on"}')
    NPUEstimator(model_fn=None, config=NPURunConfig(profiling_config=pc))
if __name__ == "__main__":
    if FLAGS.horovod:
        sess, shutdown = init_resource()
    tf.app.run()
"""
    (f,) = check(text)
    assert f.code == "NPP101" and "latent" not in f.message
    # the same initialisation, unconditional (the __main__ guard is no condition), does override
    always = text.replace("    if FLAGS.horovod:\n        sess", "    sess")
    (f,) = check(always)
    assert f.code == "NPP101" and f.message.startswith("latent (GE is initialised earlier")


# ---------------------------------------------------------------- a flag as the switch

FLAG_SWITCH = """\
import tensorflow as tf
flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_bool("profiling_mode", False, "profile")
flags.DEFINE_string("profiling_options", "task_trace", "options")
config = tf.ConfigProto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = FLAGS.profiling_mode
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(FLAGS.profiling_options)
sess = tf.Session(config=config)
"""


def test_options_of_a_setup_switched_by_a_flag_say_when_they_fail(tmp_path):
    # found on a model-zoo GCN script: with the flag's default (False) GE never reads the options,
    # so "the job aborts" holds only for runs that give the flag
    (f,) = check(FLAG_SWITCH)
    assert (f.code, f.line) == ("NPP100", 5)
    assert f.message.startswith("when --profiling_mode is given: profiling_options is not valid JSON")
    assert states(FLAG_SWITCH) == [(9, "NpuOptimizer", CONDITIONAL, "flag")]
    (r,) = emulated(FLAG_SWITCH, tmp_path=tmp_path)
    from flake8_npuprof.emulate.script import _conditions
    assert r.verdict == "fails" and _conditions(r.setup) == ["--profiling_mode is given"]


NAMED_HELPER_CONFIG = """\
import tensorflow as tf
from npu_bridge.npu_init import *
config = npu_config_proto()
custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
custom_op.name = "NpuOptimizer"
custom_op.parameter_map["profiling_mode"].b = True
custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('{"output":"/tmp/p","task_trace":"on"}')
with tf.Session(config=config) as sess:
    sess.run(1)
"""


def test_a_config_built_by_npu_config_proto_and_kept_in_a_name_is_the_one_ge_reads(tmp_path):
    # a model-zoo RCNN script: `config = npu_config_proto()` then its own NpuOptimizer entry; emulate
    # called it "not read: GE is initialised first by npu_config_proto()", check reported it live
    assert states(NAMED_HELPER_CONFIG) == [(6, "NpuOptimizer", ON, "")]
    (r,) = emulated(NAMED_HELPER_CONFIG, tmp_path=tmp_path)
    assert r.verdict == "collects"
    # handed straight to a session, a fresh config does start GE without profiling first
    first = NAMED_HELPER_CONFIG.replace("config = npu_config_proto()\n",
                                        "warm = tf.Session(config=npu_config_proto())\nconfig = tf.ConfigProto()\n")
    assert states(first) == [(7, "NpuOptimizer", OFF, "overridden")]


DEVICE_FLAG = """\
from absl import flags
import tensorflow as tf
flags.DEFINE_string('device', 'gpu', 'cpu, gpu or npu')
flags.DEFINE_bool('profiling_mode', False, 'profile')
FLAGS = flags.FLAGS


def config_device():
    config = None
    if FLAGS.device == 'gpu':
        config = tf.ConfigProto()
    elif FLAGS.device == 'npu':
        config = tf.ConfigProto()
        custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
        custom_op.name = "NpuOptimizer"
        custom_op.parameter_map["profiling_mode"].b = FLAGS.profiling_mode
        custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes('task_trace')
    return config


sess = tf.Session(config=config_device())
"""


def test_a_flag_switch_under_an_if_names_both_conditions():
    # GCN_ID2127's shape: with only --profiling_mode, --device stays gpu and nothing reaches GE
    (f,) = [f for f in check(DEVICE_FLAG) if f.code == "NPP100"]
    assert (f.line, f.col) == (17, 77)
    assert f.message.startswith("when FLAGS.device == 'npu' and --profiling_mode is given: profiling_options is not "
                                "valid JSON")


def test_without_implied_drops_only_what_an_equality_implies():
    from flake8_npuprof.setups.state import without_implied
    chain = ("not (FLAGS.device == 'gpu')", "not (FLAGS.device == 'cpu')", "FLAGS.device == 'npu'")
    assert without_implied(chain) == ("FLAGS.device == 'npu'",)
    # another variable, the same constant, or no equality at all: kept
    kept = ("not (FLAGS.mode == 'gpu')", "not (FLAGS.device == 'npu')", "not (x)", "FLAGS.device == 'npu'")
    assert without_implied(kept) == kept
    assert without_implied(("a(:",)) == ("a(:",)


def test_an_argparse_namespace_named_flags_is_argparse(tmp_path, monkeypatch):
    # keras-bert_ID3157 and three more: `FLAGS, unparsed = parser.parse_known_args()`. FLAGS is argparse's
    # namespace here, not absl's registry: the output is the flag's default, and no imported module is
    # searched for an absl definition
    from flake8_npuprof.values import project
    (tmp_path / "helper.py").write_text("import os\n")
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""\
        import argparse
        import helper
        import npu_device
        parser = argparse.ArgumentParser()
        parser.add_argument('--profiling_dump_path', default="/home/data", type=str)
        FLAGS, unparsed = parser.parse_known_args()
        npu_device.global_options().profiling_config.enable_profiling = True
        npu_device.global_options().profiling_config.profiling_options = \\
            '{"output":"' + FLAGS.profiling_dump_path + '","task_trace":"on"}'
        npu_device.open().as_default()
        """))
    searched = []
    monkeypatch.setattr(project.Lookup, "flag_def", lambda self, *a: searched.append(a))
    (r,) = emulate_text(script.read_text(), "python", str(script), Target(), str(tmp_path), base_env(False, {}))
    assert r.effective_options["output"] == "/home/data" and r.output_dir == "/home/data"
    assert searched == []
