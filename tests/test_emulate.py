"""npuprof emulate: verdicts, routes, targets, defaults, precedence, output tree, post-run comparison."""

import io
import json
import os
import sys
from pathlib import Path

import pytest

from flake8_npuprof.cli import main

DATA = Path(__file__).resolve().parent / "data" / "emulate"
PROF = "PROF_000001_20260323031749197_00815596RKPKAHRB"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ("PROFILING_MODE", "PROFILING_OPTIONS", "ASCEND_WORK_PATH"):
        monkeypatch.delenv(name, raising=False)
    # the default target must not depend on the machine the tests run on (test_target.py covers detection)
    from flake8_npuprof.knowledge import detect
    monkeypatch.setattr(detect, "detect_cann", lambda environ=None: detect.Found(None, "", ("no toolkit (test)",)))
    monkeypatch.setattr(detect, "detect_soc", lambda environ=None: detect.Found(None, "", ("no npu-smi (test)",)))


def emulate(capsys, *argv):
    code = main(["emulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def report(capsys, name, *argv, cwd=None):
    path = name if os.path.isabs(str(name)) else str(DATA / name)
    extra = ["--cwd", str(cwd)] if cwd else []
    code, out, err = emulate(capsys, "--format", "json", *extra, *argv, path)
    assert err == ""
    return code, json.loads(out)


def only(data):
    assert len(data["setups"]) == 1
    return data["setups"][0]


# ---------------------------------------------------------------- verdicts

def test_collects_with_layout_and_export_command(capsys, tmp_path):
    code, data = report(capsys, "sess_run.py", "--cann", "8.0", "--soc", "910B", cwd=tmp_path)
    setup = only(data)
    assert code == 0 and data["usable"] is True and data["preflight"] == []
    assert (setup["line"], setup["route"], setup["verdict"]) == (15, "NpuOptimizer", "collects")
    assert setup["collected"] == ["training_trace", "task_trace", "aic_metrics"]
    assert setup["dropped"] == []
    assert setup["output_dir"] == str(tmp_path / "prof_out")
    assert setup["effective_options"]["storage_limit"] == "500MB"
    assert setup["conditions"] == ["args.profiling"]
    assert setup["read_by_ge"] is True
    assert 'aic_metrics "PipeUtilization" is collected as "PipeUtilizationExct" on Ascend 910B' in \
        " ".join(setup["messages"])
    assert any("AI Vector Core metrics follow aic_metrics" in m for m in setup["messages"])
    layout = setup["prof_layout"]
    assert layout[0] == "PROF_<seq>_<timestamp>_<id>/"
    assert "PROF_<seq>_<timestamp>_<id>/device_<id>/data/ts_track.data.<dev>.slice_<n>" in layout
    assert "PROF_<seq>_<timestamp>_<id>/device_<id>/data/stars_soc.data.<dev>.slice_<n>" in layout  # STARS chip
    assert not any("hwts.data" in p for p in layout)
    assert "PROF_<seq>_<timestamp>_<id>/mindstudio_profiler_output/step_trace_<ts>.csv" in layout
    assert setup["export_command"] == f"msprof --export=on --output={tmp_path}/prof_out/PROF_*"


def test_text_leads_with_one_verdict_line_per_setup(capsys, tmp_path):
    code, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), str(DATA / "sess_run.py"))
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "target: CANN 8.0 (--cann) / Ascend 910B (--soc)"
    # the setup sits under `if args.profiling:`: the headline says its verdict is conditional
    assert "15 NpuOptimizer: COLLECTS training_trace, task_trace, aic_metrics into " in lines[1]
    assert lines[1].endswith(("/prof_out (when args.profiling)", "/prof_out (conditional)"))
    assert len(lines[1]) <= 100     # the directory's leading part may be cut
    assert lines[2].startswith(f"preflight: ok ({tmp_path}/prof_out can be created; storage_limit 500MB fits in ")
    assert lines[3] == (f"usable data: yes (where its conditions hold); afterwards run: "
                        f"msprof --export=on --output={tmp_path}/prof_out/PROF_*")
    assert f"{DATA / 'sess_run.py'}:15 NpuOptimizer: collects (when args.profiling)" in lines


def test_fails_with_the_runtime_messages(capsys):
    code, data = report(capsys, "bad_options.py", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert code == 1 and data["usable"] is False
    assert setup["verdict"] == "fails" and setup["collected"] == []
    messages = setup["messages"]
    # GE checks training_trace before it calls the collector: that is what the runtime reports
    assert messages[0] == 'NPP103 GE: "[Check][Param]Training trace param:off is invalid."'
    assert messages[1].startswith('GE error E10001: Value {"output":"/tmp/npuprof_bad","L2":"on"')
    # no GE source of 8.0 is open: its reason is 9.x's, and says so (held-out review)
    assert messages[1].endswith("Reason: The current value is not within the valid range. (inferred: CANN 9.x's "
                                "wording; the GE code of this version is not open)")
    assert messages[2] == ('TF adapter: "[GePlugin] Initialize ge failed, ret : …": GE initialisation fails and the '
                           "job aborts at the first session / initialize_system")
    assert messages[3] == "once GE accepts the options, the msprof collector still rejects them: NPP101 (L2)"


def test_collector_message_per_version(capsys, tmp_path):
    text = ('import tensorflow as tf\nconfig = tf.ConfigProto()\n'
            'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
            'op.parameter_map["profiling_mode"].b = True\n'
            'op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p","L2":"on","aicpu":"ON"}\'\n'
            'sess = tf.Session(config=config)\n')
    path = tmp_path / "versions.py"
    path.write_text(text)
    _, v70 = report(capsys, str(path), "--cann", "7.0", "--soc", "910")
    _, v80 = report(capsys, str(path), "--cann", "8.0", "--soc", "910")
    _, v85 = report(capsys, str(path), "--cann", "8.5", "--soc", "910")
    assert only(v70)["messages"][:2] == ['NPP101 msprof collector: "The format of input ge options is invalid"',
                                         'NPP102 msprof collector: "The switch aicpu should be set to on or off."']
    assert only(v80)["messages"][0] == 'NPP101 msprof collector: "Error: parsing invalid key:L2."'
    assert only(v85)["messages"][:2] == ['NPP101 msprof collector: "Invalid geoption config: L2"',
                                         "NPP102 msprof collector: \"Argument aicpu: invalid value: ON. Please input "
                                         "'on' or 'off'.\""]
    assert only(v85)["messages"][2] == 'GE: "[Call][MsprofInit]Failed, type 2, return …"'


def test_off_without_environment(capsys):
    code, data = report(capsys, "mode_off.py", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert code == 1 and setup["verdict"] == "off" and setup["effective_options"] is None
    assert setup["messages"][0].startswith("profiling_mode is False: the adapter forwards profiling off, so GE falls "
                                           "back to PROFILING_MODE/PROFILING_OPTIONS")
    assert setup["messages"][1] == ("PROFILING_MODE is not set in the environment (taken as empty without --env): "
                                    "no profiling data is collected")
    assert setup["prof_layout"] == [] and setup["export_command"] == ""


def test_collects_nothing(capsys):
    code, data = report(capsys, "nothing_on.py", "--cann", "8.0", "--soc", "910B")
    setup = only(data)
    assert code == 1 and setup["verdict"] == "collects_nothing" and setup["collected"] == []
    assert setup["messages"][-1].startswith("profiling starts but no switch collects anything on this target")
    assert setup["output_dir"] == "/tmp/npuprof_none"
    # from 8.5 the collector reads task_trace, then task_time with the default "on" (hicann/runtime
    # prof_acl_mgr.cpp, MsprofInitGeOptionsParamAdaper): "task_trace":"off" leaves the task trace on
    code, data = report(capsys, "nothing_on.py", "--cann", "8.5", "--soc", "910B")
    assert only(data)["verdict"] == "collects" and only(data)["collected"] == ["task_trace"]


def test_unknown_when_a_switch_value_is_computed(capsys):
    code, data = report(capsys, "computed.py", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert code == 1 and setup["verdict"] == "unknown"
    assert setup["messages"] == ['the value of "task_trace" cannot be determined statically']


def test_unknown_switch_from_a_flag_is_emulated_on(capsys, tmp_path):
    script = tmp_path / "flagged.py"
    script.write_text('import tensorflow as tf\nfrom absl import flags\nflags.DEFINE_bool("profiling", False, "x")\n'
                      "FLAGS = flags.FLAGS\nconfig = tf.ConfigProto()\n"
                      "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
                      'op.parameter_map["profiling_mode"].b = FLAGS.profiling\n'
                      'op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p","task_trace":"on"}\'\n'
                      "sess = tf.Session(config=config)\n")
    _, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    assert only(data)["verdict"] == "collects" and only(data)["collected"] == ["task_trace"]


# ---------------------------------------------------------------- precedence: script vs environment

def test_env_enables_profiling_that_profiling_mode_false_does_not_stop(capsys, monkeypatch):
    monkeypatch.setenv("PROFILING_MODE", "true")
    monkeypatch.setenv("PROFILING_OPTIONS", '{"output":"/tmp/npuprof_from_env","aicpu":"on"}')
    _, without = report(capsys, "mode_off.py", "--cann", "8.0", "--soc", "910")
    assert only(without)["verdict"] == "off"                 # without --env the environment is not read
    code, data = report(capsys, "mode_off.py", "--env", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert code == 0 and setup["verdict"] == "collects"
    assert setup["options_source"] == "environment"
    assert setup["collected"] == ["aicpu"] and setup["output_dir"] == "/tmp/npuprof_from_env"
    assert "GE reads PROFILING_OPTIONS from the environment (--env)" in setup["messages"]


def test_script_options_beat_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("PROFILING_MODE", "true")
    monkeypatch.setenv("PROFILING_OPTIONS", '{"output":"/tmp/npuprof_from_env","aicpu":"on"}')
    _, data = report(capsys, "sess_run.py", "--env", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert setup["options_source"] == "script" and "aicpu" not in setup["collected"]


def test_env_mode_must_be_exactly_true(capsys, monkeypatch):
    monkeypatch.setenv("PROFILING_MODE", "True")
    monkeypatch.setenv("PROFILING_OPTIONS", '{"output":"/tmp/x","aicpu":"on"}')
    _, data = report(capsys, "mode_off.py", "--env", "--cann", "8.0", "--soc", "910")
    assert only(data)["verdict"] == "off"
    assert only(data)["messages"][1].startswith("PROFILING_MODE is 'True' in the environment (--env), and GE switches "
                                                'profiling on only for exactly "true"')


def test_env_with_empty_options_uses_the_ge_default(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("PROFILING_MODE", "true")
    monkeypatch.setenv("PROFILING_OPTIONS", "")
    _, data = report(capsys, "mode_off.py", "--env", "--cann", "9.1", "--soc", "910", cwd=tmp_path)
    setup = only(data)
    assert setup["options_source"] == "GE default"
    assert setup["effective_options"]["task_trace"] == "on" and "task_time" not in setup["effective_options"]
    assert setup["output_dir"] == str(tmp_path)


def test_only_the_environment(capsys, monkeypatch, tmp_path):
    script = tmp_path / "plain.py"
    script.write_text("import tensorflow as tf\n")
    code, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    assert code == 1 and data["setups"] == []
    monkeypatch.setenv("PROFILING_MODE", "true")
    monkeypatch.setenv("PROFILING_OPTIONS", '{"output":"/tmp/x","task_trace":"on"}')
    code, data = report(capsys, str(script), "--env", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert code == 0 and (setup["line"], setup["route"], setup["verdict"]) == (0, "env", "collects")


def test_no_setup_text(capsys, tmp_path):
    script = tmp_path / "plain.py"
    script.write_text("import os\n")
    code, out, _ = emulate(capsys, str(script))
    assert code == 1 and out.splitlines()[1].endswith("no profiling setup found: a run collects no profiling data "
                                                      "(set PROFILING_MODE/PROFILING_OPTIONS and use --env to emulate "
                                                      "the environment)")


# ---------------------------------------------------------------- routes

def test_estimator_route_through_app_run(capsys, tmp_path):
    code, data = report(capsys, "estimator.py", "--cann", "8.0", "--soc", "910", cwd=tmp_path)
    setup = only(data)
    assert code == 0
    assert (setup["route"], setup["verdict"], setup["read_by_ge"]) == ("ProfilingConfig", "collects", True)
    assert setup["collected"] == ["task_trace", "aicpu"] and setup["output_dir"] == str(tmp_path / "est_prof")
    assert any(p.endswith("hwts.data.<dev>.slice_<n>") for p in setup["prof_layout"])          # HWTS chip


def test_resource_init_route(capsys):
    code, data = report(capsys, "resource_init.py", "--cann", "8.0", "--soc", "910")
    assert code == 0 and only(data)["route"] == "npu_resource_init"
    assert only(data)["collected"] == ["task_trace", "hccl"]


@pytest.mark.parametrize("args,verdict,first", [
    ("enable_profiling=True", "fails",
     "NPP002 ValueError: profiling_options must be set when use profiling: the script stops before GE starts"),
    ("enable_profiling=True, profiling_options=''", "off",
     "npu_resource_init has no default for empty profiling_options: GE falls back to PROFILING_MODE/PROFILING_OPTIONS"),
    ('enable_profiling="True", profiling_options=\'{"output":"/tmp/p","task_trace":"on"}\'', "fails",
     "NPP010 TypeError: enable_profiling must be True or False, got 'True': the script stops before GE starts"),
])
def test_resource_init_without_options(capsys, tmp_path, args, verdict, first):
    script = tmp_path / "ri.py"
    script.write_text(f"from npu_bridge.estimator.npu.npu_plugin import npu_resource_init\nnpu_resource_init({args})\n")
    _, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    assert only(data)["verdict"] == verdict and only(data)["messages"][0] == first


def test_env_route_set_from_python(capsys):
    code, data = report(capsys, "env_python.py", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert code == 0 and (setup["route"], setup["verdict"], setup["read_by_ge"]) == ("env", "collects", True)
    assert setup["collected"] == ["task_trace", "l2"] and setup["options_source"] == "environment"


def test_env_route_l2_dropped_on_310(capsys):
    _, data = report(capsys, "env_python.py", "--cann", "8.0", "--soc", "310")
    setup = only(data)
    assert setup["collected"] == ["task_trace"]
    assert setup["dropped"] == [{"option": "l2", "reason": "Ascend 310 collects no L2 cache data"}]
    assert ('NPP114 l2 is dropped: Ascend 310 collects no L2 cache data (plog warning "Unrecognized option:l2 for '
            'PlatformType:0")') in setup["messages"]


def test_tf2_route(capsys):
    code, data = report(capsys, "tf2.py", "--cann", "8.0", "--soc", "910")
    assert code == 0 and only(data)["route"] == "npu_device"
    assert only(data)["collected"] == ["task_trace", "aic_metrics"]


def test_tf2_after_open_is_ignored(capsys):
    code, data = report(capsys, "tf2_late.py", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert code == 1 and setup["verdict"] == "off" and setup["read_by_ge"] is False
    assert setup["messages"] == ["NPP012 set after npu.open() (line 4): npu_device reads the global options when the "
                                 "device opens, so these settings are ignored"]


def test_tf2_default_options(capsys, tmp_path):
    script = tmp_path / "tf2d.py"
    script.write_text("import npu_device as npu\nnpu.global_options().profiling_config.enable_profiling = True\n"
                      "npu.open().as_default()\n")
    _, data = report(capsys, str(script), "--cann", "9.0", "--soc", "910", cwd=tmp_path)
    setup = only(data)
    assert setup["options_source"] == "adapter default"
    assert setup["effective_options"]["task_time"] == "on" and "task_trace" not in setup["effective_options"]


def test_shell_launcher(capsys):
    code, data = report(capsys, "launcher.sh", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    # the launcher's own variables are emulated: what GE reads from them if train.py sets no options itself
    assert (setup["line"], setup["column"], setup["route"]) == (3, 8, "env")
    assert setup["collected"] == ["training_trace", "task_trace"]
    # but train.py is not there to read (issue 25, item 3): whether it uses them is not known, so neither yes nor no
    assert code == 1 and data["usable"] is None
    assert data["launches"][0]["unknown"] == f"cannot find train.py (looked in {DATA})"


# ---------------------------------------------------------------- which setup GE reads

def test_first_ge_initialisation_wins(capsys):
    code, data = report(capsys, "two_sessions.py", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert code == 1 and setup["verdict"] == "off" and setup["read_by_ge"] is False
    assert setup["messages"][0] == ('not read: GE is initialised first at line 9 by an NpuOptimizer config without '
                                    'profiling; GE takes its init options only once ("Ge has already initialized"), '
                                    "so this setup is ignored")


def test_execution_order_follows_main(capsys):
    code, data = report(capsys, "call_order.py", "--cann", "8.0", "--soc", "910")
    evaluate, train = data["setups"]
    assert code == 0
    assert (train["line"], train["verdict"], train["read_by_ge"]) == (19, "collects", True)
    assert (evaluate["line"], evaluate["verdict"], evaluate["read_by_ge"]) == (10, "off", False)
    assert evaluate["messages"][0].startswith("not read: GE is initialised first at line 21 by the NpuOptimizer setup "
                                              "on line 19")


def test_env_not_read_when_the_config_has_options(capsys, tmp_path):
    script = tmp_path / "both.py"
    script.write_text((DATA / "env_python.py").read_text().replace(
        "npu_sess, npu_shutdown = init_resource()",
        'config = tf.ConfigProto()\nop = config.graph_options.rewrite_options.custom_optimizers.add()\n'
        'op.name = "NpuOptimizer"\nop.parameter_map["profiling_mode"].b = True\n'
        'op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/cfg","aicpu":"on"}\'\n'
        "npu_sess, npu_shutdown = init_resource(config=config)"))
    code, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    env, config = data["setups"]
    assert code == 0 and config["verdict"] == "collects" and config["collected"] == ["aicpu"]
    assert env["verdict"] == "off" and env["messages"][0].startswith(
        "not read: the NpuOptimizer setup on line 12 switches profiling on with options")


def test_never_handed_over(capsys, tmp_path):
    script = tmp_path / "lost.py"
    script.write_text('import tensorflow as tf\nconfig = tf.ConfigProto()\n'
                      'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
                      'op.parameter_map["profiling_mode"].b = True\n'
                      'op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p","task_trace":"on"}\'\n'
                      "sess = tf.Session()\n")
    _, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    assert only(data)["verdict"] == "off" and only(data)["messages"][0].startswith("NPP006 this profiling config is "
                                                                                   "never handed to a Session")


# ---------------------------------------------------------------- versions, products, defaults

def test_adapter_default_options_per_version(capsys, tmp_path):
    _, v80 = report(capsys, "default_options.py", "--cann", "8.0", "--soc", "910", cwd=tmp_path)
    _, v91 = report(capsys, "default_options.py", "--cann", "9.1", "--soc", "910", cwd=tmp_path)
    s80, s91 = only(v80), only(v91)
    assert s80["options_source"] == s91["options_source"] == "adapter default"
    assert s80["effective_options"] == {"output": "./", "training_trace": "on", "task_trace": "on", "hccl": "on",
                                        "aicpu": "on", "aic_metrics": "PipeUtilization", "msproftx": "off"}
    assert "task_time" in s91["effective_options"] and "task_trace" not in s91["effective_options"]
    assert s80["collected"] == ["training_trace", "task_trace", "hccl", "aicpu", "aic_metrics"]
    assert s80["output_dir"] == str(tmp_path)
    assert s80["messages"][0].startswith("NPP002 profiling is on without profiling_options: the adapter substitutes "
                                         'its default options {"output":"./"')


def test_310_training_trace_by_version(capsys):
    # audit C3: dropped with a warning up to 8.0, collected by the 9.x collectors (mini_platform.cpp
    # has PLATFORM_TASK_TRAINING_TRACE), unknown on 8.5 (no open-source 310 platform class)
    _, old = report(capsys, "sess_run.py", "--cann", "8.0", "--soc", "310")
    _, mid = report(capsys, "sess_run.py", "--cann", "8.5", "--soc", "310")
    _, new = report(capsys, "sess_run.py", "--cann", "9.1", "--soc", "310")
    assert only(old)["verdict"] == "collects" and "training_trace" not in only(old)["collected"]
    assert only(old)["dropped"] == [{"option": "training_trace",
                                     "reason": "Ascend 310 has no training (step) trace before the 9.0 collector"}]
    assert not any("ts_track" in p or "step_trace" in p for p in only(old)["prof_layout"])
    assert only(mid)["verdict"] == "unknown" and only(mid)["messages"] == [
        "whether the CANN 8.5 collector for Ascend 310 takes training_trace, task_trace is not known (its platform "
        "class is not open source): it either collects them or rejects the options"]
    assert only(new)["verdict"] == "collects" and "training_trace" in only(new)["collected"]


def test_metric_not_on_product(capsys, tmp_path):
    script = tmp_path / "metric.py"
    script.write_text((DATA / "sess_run.py").read_text().replace("PipeUtilization", "MemoryAccess"))
    _, a2 = report(capsys, str(script), "--cann", "9.1", "--soc", "910B")
    _, v910 = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    assert only(a2)["verdict"] == "collects"
    assert only(v910)["verdict"] == "fails"
    assert only(v910)["messages"][0] == ('NPP106 msprof collector: "aic-metrics[MemoryAccess] is invalid, please set '
                                         'metrics in range [ArithmeticUtilization|PipeUtilization|Memory|MemoryL0|'
                                         'MemoryUB|ResourceConflictRatio|Custom:xx,xx]."')


def test_missing_output_per_version(capsys, monkeypatch, tmp_path):
    script = tmp_path / "noout.py"
    script.write_text((DATA / "resource_init.py").read_text().replace('"output":"/tmp/npuprof_ri",', ""))
    _, v80 = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    _, v85 = report(capsys, str(script), "--cann", "8.5", "--soc", "910")
    assert only(v80)["verdict"] == "fails"
    assert any('"Result path is empty"' in m for m in only(v80)["messages"])
    # without --env, ASCEND_WORK_PATH is unknown: see test_no_output_without_env_hangs_on_ascend_work_path
    _, env85 = report(capsys, str(script), "--env", "--cann", "8.5", "--soc", "910")
    assert only(env85)["verdict"] == "fails"
    assert only(env85)["messages"][0].startswith('NPP108 msprof collector: "Result path and ASCEND_WORK_PATH env is '
                                                 'empty" — no "output" and ASCEND_WORK_PATH is not set in the '
                                                 "environment (--env)")
    monkeypatch.setenv("ASCEND_WORK_PATH", str(tmp_path / "work"))
    _, env85 = report(capsys, str(script), "--env", "--cann", "8.5", "--soc", "910")
    assert only(env85)["verdict"] == "collects" and only(env85)["output_dir"] == str(tmp_path / "work")


def test_default_targets_make_no_claim_beyond_the_facts(capsys, tmp_path):
    # l2 on the 310: dropped up to 8.0, not known on 8.5, rejected by 9.x (audit 3.5)
    script = tmp_path / "l2.py"
    script.write_text((DATA / "sess_run.py").read_text().replace('"task_trace":"on",', '"task_trace":"on","l2":"on",'))
    code, data = report(capsys, str(script), cwd=tmp_path)
    setup = only(data)
    assert code == 1 and data["usable"] is None and setup["verdict"] == "unknown"
    assert setup["messages"][0] == ("depends on the target: collects on CANN 7.0 and 8.0 / every product and "
                                    "CANN 8.5 / every product but Ascend 310, 950 and CANN 9.0 and 9.1 / every product "
                                    "but Ascend 310; fails on CANN 9.0 and 9.1 / Ascend 310; give --cann and --soc for "
                                    "one answer")
    # CANN 8.5 on the 310 and the 950: no open platform class, said apart and not counted
    assert setup["messages"][1].startswith("not known on CANN 8.5 / Ascend 310, 950")
    verdicts = {g["verdict"] for g in setup["targets"]}
    assert verdicts == {"collects", "fails", "unknown"}
    assert '[CANN 9.0 and 9.1 / Ascend 310] NPP114 msprof collector: "Argument [l2] is not supported."' \
        in setup["messages"]


def test_default_targets_agreeing(capsys, tmp_path):
    code, out, _ = emulate(capsys, "--cwd", str(tmp_path), str(DATA / "tf2.py"))
    lines = out.splitlines()
    assert code == 0
    # every collector reads task_trace; the 9.x ones read task_time last, which decides the same trace
    assert lines[1] == "tf2.py:4 npu_device: COLLECTS task_trace, aic_metrics into /tmp/npuprof_tf2"
    assert "usable data: yes" in lines[3]
    assert any(line.startswith("  - not known on CANN 8.5 / Ascend 310, 950") for line in lines)

def test_depends_line_in_text(capsys, tmp_path):
    _, out, _ = emulate(capsys, "--cwd", str(tmp_path), str(DATA / "sess_run.py"))
    lines = out.splitlines()
    # collected on every target; only what is collected differs (no step trace on the 310 before 9.0)
    assert lines[1] == "sess_run.py:15 NpuOptimizer: COLLECTS task_trace, aic_metrics (+ more) into …/prof_out (conditional)"
    assert lines[3].startswith("usable data: yes")
    start = lines.index("  per target (a letter per CANN version and product, said below):") + 1
    # 8.5 on the 310 and 950: that collector is not open source, so not known
    assert lines[start:start + 9] == [
        "    CANN  310  910  310P  910B  910C  310B  950",
        "    7.0   B    A    A     A     A     A     A",
        "    8.0   B    A    A     A     A     A     A",
        "    8.5   C    A    A     A     A     A     C",
        "    9.0   A    A    A     A     A     A     A",
        "    9.1   A    A    A     A     A     A     A",
        "    A  collects training_trace, task_trace, aic_metrics",
        "    B  collects task_trace, aic_metrics (dropped: training_trace)",
        "    C  unknown"]
    assert not any(m.startswith("  - depends on the target") for m in lines)     # the table says it

def make_prof(root: Path, host=(), device=(), export=()) -> Path:
    prof = root / PROF
    (prof / "host" / "data").mkdir(parents=True)
    (prof / "device_0" / "data").mkdir(parents=True)
    for name in host:
        (prof / "host" / "data" / name).write_text("x")
    for name in device:
        (prof / "device_0" / "data" / name).write_text("x")
    if export:
        (prof / "mindstudio_profiler_output").mkdir()
        for name in export:
            (prof / "mindstudio_profiler_output" / name).write_text("x")
    return prof


def test_against_explains_gaps_on_310(capsys, tmp_path):
    make_prof(tmp_path / "out", host=["info.json", "unaging.api_event.data.slice_0",
                                      "aging.compact.node_basic_info.slice_0", "aging.compact.task_track.slice_0",
                                      "Framework.task_desc_info.0.slice_0"],
              device=["info.json.0", "hwts.data.0.slice_0", "aicore.data.0.slice_0", "l2_cache.data.0.slice_0"])
    code, data = report(capsys, "sess_run.py", "--cann", "8.0", "--soc", "310", "--against", str(tmp_path / "out"))
    against = data["against"]
    assert code == 1
    assert against["prof_dir"] == str(tmp_path / "out" / PROF) and against["exported"] is False
    assert against["missing"] == []
    explained = {g["family"]: g["cause"] for g in against["explained"]}
    assert explained["mindstudio_profiler_output/"] == \
        f"nothing exported: run msprof --export=on --output={tmp_path}/out/{PROF}"
    assert explained["ts_track.data.*.slice_*"] == ("training_trace dropped: Ascend 310 has no training (step) trace "
                                                    "before the 9.0 collector")
    assert explained["aicpu.data.*.slice_*"] == "aicpu is not set"
    assert [g["family"] for g in against["extra"]] == ["l2_cache.data.*.slice_*"]
    assert only(data)["export_command"] == f"msprof --export=on --output={tmp_path}/out/{PROF}"


def test_against_complete_collection(capsys, tmp_path):
    prof = make_prof(tmp_path, host=["aging.api_event.data.slice_0", "aging.compact.node_basic_info.slice_0",
                                     "aging.compact.task_track.slice_0", "Framework.task_desc_info.0.slice_0"],
                     device=["ts_track.data.0.slice_0", "stars_soc.data.0.slice_0", "ffts_profile.data.0.slice_0"],
                     export=["step_trace_20260323.json", "step_trace_20260323.csv", "msprof_20260323.json",
                             "task_time_20260323.csv", "op_summary_20260323.csv", "op_statistic_20260323.csv",
                             "api_statistic_20260323.csv", "README.txt"])
    code, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), "--against", str(prof),
                           str(DATA / "sess_run.py"))
    assert code == 0
    assert f"against {prof}:\n  every predicted file family is there" in out


def test_against_missing_step_trace(capsys, tmp_path):
    prof = make_prof(tmp_path, host=["aging.api_event.data.slice_0", "aging.compact.node_basic_info.slice_0",
                                     "aging.compact.task_track.slice_0", "Framework.task_desc_info.0.slice_0"],
                     device=["stars_soc.data.0.slice_0", "ffts_profile.data.0.slice_0"])
    code, data = report(capsys, "sess_run.py", "--cann", "8.0", "--soc", "910B", "--against", str(prof), cwd=tmp_path)
    assert code == 1
    missing = data["against"]["missing"]
    assert [(g["family"], g["switches"]) for g in missing] == [("ts_track.data.*.slice_*", ["training_trace"])]
    assert missing[0]["cause"].startswith("training_trace is on but nothing was written")


def test_against_training_trace_off(capsys, tmp_path):
    prof = make_prof(tmp_path, device=["info.json.0"])
    _, data = report(capsys, "nothing_on.py", "--cann", "8.0", "--soc", "910", "--against", str(prof))
    explained = {g["family"]: g["cause"] for g in data["against"]["explained"]}
    assert explained["ts_track.data.*.slice_*"] == "training_trace is not set"
    assert explained["hwts.data.*.slice_*"] == 'task_trace is "off"'
    assert data["against"]["extra"] == [] and data["against"]["missing"] == []


def test_against_data_the_configuration_does_not_ask_for(capsys, tmp_path):
    prof = make_prof(tmp_path, device=["hwts.data.0.slice_0"])
    code, data = report(capsys, "nothing_on.py", "--cann", "8.0", "--soc", "910", "--against", str(prof))
    extra = data["against"]["extra"]
    assert code == 1 and [(g["family"], g["switches"]) for g in extra] == [("hwts.data.*.slice_*",
                                                                            ["task_trace", "task_time"])]
    assert extra[0]["cause"].startswith("written by task_trace, task_time, which the configuration does not collect")


# ---------------------------------------------------------------- usage and internal errors

@pytest.mark.parametrize("argv,message", [
    (["/no/such/file.py"], "npuprof emulate: error: /no/such/file.py: cannot read"),
    (["--cann", "6.9", "SCRIPT"], "npuprof emulate: error: --cann: unknown CANN target '6.9'"),
    (["--graph", "/no/such.pbtxt", "SCRIPT"], "npuprof emulate: error: --graph /no/such.pbtxt: no such file"),
    (["--against", "/no/such/dir", "SCRIPT"], "npuprof emulate: error: --against /no/such/dir: no such directory"),
    ([str(DATA)], f"npuprof emulate: error: {DATA} is a directory"),
])
def test_usage_errors(capsys, argv, message):
    argv = [str(DATA / "sess_run.py") if a == "SCRIPT" else a for a in argv]
    code, out, err = emulate(capsys, *argv)
    assert code == 2 and out == "" and err.startswith(message) and len(err.splitlines()) == 1


def test_syntax_error_is_a_usage_error(capsys, tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("def f(:\n")
    code, _, err = emulate(capsys, str(script))
    assert code == 2 and err.startswith(f"npuprof emulate: error: {script}: cannot parse")


@pytest.mark.parametrize("head", ["", "import os\nos.chdir('/data')\n"])
def test_code_too_deep_for_the_parser_is_a_usage_error(capsys, tmp_path, head):
    # 200 parentheses and a stray indent: MemoryError from the parser on 3.10+ (IndentationError on 3.9), which
    # was an internal error; with os.chdir the script's directory was looked for first and failed the same way
    script = tmp_path / "deep.py"
    script.write_text(head + "x = " + "(" * 200 + "1" + ")" * 200 + "\n    y\n")
    code, out, err = emulate(capsys, str(script))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"npuprof emulate: error: {script}: cannot parse: ")


def test_internal_error_is_one_line(capsys, monkeypatch):
    import flake8_npuprof.emulate.script as emulate_module

    def boom(*args, **kwargs):
        raise RuntimeError("something broke\nsecond line")
    monkeypatch.setattr(emulate_module, "emulate_text", boom)
    code, out, err = emulate(capsys, str(DATA / "sess_run.py"))
    assert code == 2 and out == ""
    assert err == "npuprof emulate: internal error: RuntimeError: something broke\n"


def test_bundled_examples_never_crash(capsys, tmp_path):
    examples = sorted((Path(__file__).resolve().parents[1] / "examples").rglob("*.py"))
    assert examples
    for path in examples:
        code, out, err = emulate(capsys, "--cwd", str(tmp_path), str(path))
        assert code in (0, 1) and err == "", (path, err)
        lines = out.splitlines()
        assert lines[0].startswith("target: ")
        heads = [line for line in lines if line.startswith((f"{path.name}:", "line "))]
        # a headline gives up detail to fit 100 columns; a message is never cut (a terminal wraps it at a space)
        assert heads and not any(line.endswith("…") for line in heads), (path, heads)


def test_setup_the_file_never_runs_is_emulated_with_a_note(capsys, tmp_path):
    script = tmp_path / "library.py"
    script.write_text("from npu_bridge.estimator.npu.npu_plugin import npu_resource_init\n\n\ndef start():\n"
                      "    npu_resource_init(enable_profiling=True, profiling_options='{\"output\":\"/tmp/p\","
                      "\"aicpu\":\"on\"}')\n")
    code, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert (setup["verdict"], setup["read_by_ge"], setup["reached"]) == ("collects", None, None)
    # a module with no entry point (issue 25): whether its code runs depends on its importer, so neither yes nor no
    assert code == 1 and data["usable"] is None
    assert setup["messages"][-1].startswith("the file shows no entry point (no `if __name__ == \"__main__\":`")


def test_config_returned_to_other_code_is_not_called_lost(capsys, tmp_path):
    script = tmp_path / "factory.py"
    script.write_text("from npu_bridge.npu_init import *\n\n\ndef run_config():\n"
                      "    profiling = ProfilingConfig(enable_profiling=True, profiling_options="
                      "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}')\n"
                      "    return NPURunConfig(profiling_config=profiling)\n")
    _, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    assert (only(data)["verdict"], only(data)["read_by_ge"]) == ("collects", None)


def options_script(tmp_path, options_expr: str, name: str = "opts.py") -> str:
    script = tmp_path / name
    script.write_text("import sys\nimport tensorflow as tf\nconfig = tf.ConfigProto()\n"
                      "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
                      "op.parameter_map['profiling_mode'].b = True\n"
                      f"op.parameter_map['profiling_options'].s = tf.compat.as_bytes({options_expr})\n"
                      "sess = tf.Session(config=config)\n")
    return str(script)


def test_ge_rejects_what_is_not_a_json_object(capsys, tmp_path):
    path = options_script(tmp_path, "'training_trace:task_trace'")
    _, data = report(capsys, path, "--cann", "8.0", "--soc", "910")
    assert only(data)["verdict"] == "fails"
    assert only(data)["messages"][0] == ('NPP100 GE: "[Check][Param]Json prof_conf options is invalid, catch '
                                         'exception:…"')


def test_options_over_the_2047_byte_buffer(capsys, tmp_path):
    path = options_script(tmp_path, '\'{"output":"/tmp/p","task_trace":"on","fp_point":"' + "a" * 2100 + '"}\'')
    _, data = report(capsys, path, "--cann", "8.0", "--soc", "910")
    assert only(data)["verdict"] == "fails"
    assert only(data)["messages"][0].startswith("NPP112 profiling_options is 2151 bytes, over the runtime's 2047-byte "
                                                "buffer")


def test_several_candidate_values(capsys, tmp_path):
    same = options_script(tmp_path, "'{\"output\":\"/tmp/a\",\"task_trace\":\"on\"}' if len(sys.argv) > 1 else "
                                    "'{\"output\":\"/tmp/b\",\"task_trace\":\"on\"}'", "same.py")
    _, data = report(capsys, same, "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert (setup["verdict"], setup["collected"], setup["output_dir"]) == ("collects", ["task_trace"], None)
    assert setup["effective_options"] is None
    assert "output is one of /tmp/a, /tmp/b" in setup["messages"]
    differ = options_script(tmp_path, "'{\"output\":\"/tmp/a\",\"task_trace\":\"on\"}' if len(sys.argv) > 1 else "
                                      "'{\"output\":\"/tmp/a\",\"L2\":\"on\"}'", "differ.py")
    _, data = report(capsys, differ, "--cann", "8.0", "--soc", "910")
    assert only(data)["verdict"] == "unknown"
    assert only(data)["messages"][0].startswith("the options can take 2 values with different results: "
                                                "collects (task_trace); fails (")


def test_fresh_config_session_initialises_ge_first(capsys, tmp_path):
    script = tmp_path / "fresh.py"
    script.write_text((DATA / "two_sessions.py").read_text().replace("warm_sess = tf.Session(config=warmup)",
                                                                      "warm_sess = tf.Session(config=npu_config_proto())"))
    _, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    assert only(data)["verdict"] == "off"
    assert only(data)["messages"][0].startswith("not read: GE is initialised first at line 9 by npu_config_proto() "
                                                "with a fresh config")


# ---------------------------------------------------------------- unknown is never rendered as known

HOLE = "\ue000"


def test_unknown_result_says_usability_is_unknown_not_no(capsys):
    # output = os.path.abspath(FLAGS.profiling_dir) inside json.dumps: the options JSON itself is unknown
    code, data = report(capsys, "unknown_output_call.py", "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert code == 1 and setup["verdict"] == "unknown" and data["usable"] is None
    assert setup["messages"][0] == ('the options JSON depends on a value that cannot be determined statically: '
                                    '{"output": <unknown>, "training_trace": "on", "task_trace": "on", '
                                    '"fp_point": "", "bp_point": "", "aic_metrics": "PipeUtilization"}')
    code, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910", str(DATA / "unknown_output_call.py"))
    lines = out.splitlines()
    assert code == 1 and "usable data: no" not in out and HOLE not in out
    assert lines[2] == ("usable data: unknown (line 30 ProfilingConfig: the options JSON depends on a value that "
                        'cannot be determined statically: {"output": <unknown>, "training_trace": "on", '
                        '"task_trace": "on", "fp_point": "", "bp_point": "", "aic_metrics": "PipeUtilization"})')


def test_unknown_switch_leaves_usability_unknown(capsys):
    code, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910", str(DATA / "computed.py"))
    assert code == 1
    assert out.splitlines()[3] == ('usable data: unknown (line 12 NpuOptimizer: the value of "task_trace" cannot be '
                                   "determined statically)")


def test_usable_is_false_only_when_no_target_can_collect(capsys):
    from flake8_npuprof.emulate.replay import Result, may_collect
    from flake8_npuprof.setups.inventory import Mode, OptionsArg, ScriptSetup
    setup = ScriptSetup("NpuOptimizer", 1, 0, Mode("on"), OptionsArg("absent"), None, "yes", ())

    def result(verdict, spread=()):
        return Result(setup, True, verdict, [], None, "", [], [], None, [], "", [], {}, list(spread))
    assert may_collect(result("collects")) is True
    assert may_collect(result("fails")) is False and may_collect(result("off")) is False
    assert may_collect(result("unknown")) is None                 # a value unknown statically decides
    assert may_collect(result("unknown", [("fails", "a", ""), ("collects_nothing", "b", "")])) is False
    assert may_collect(result("unknown", [("fails", "a", ""), ("unknown", "b", "if set")])) is None
    assert may_collect(result("unknown", [("collects", "a", ""), ("fails", "b", "")])) is None
    code, data = report(capsys, "bad_options.py", "--cann", "8.0", "--soc", "910")
    assert code == 1 and data["usable"] is False


def test_shell_variable_is_unknown_not_empty(capsys, tmp_path):
    # ${cur_path} comes from the caller's $WORK_DIR: its value is not known, it is not ""
    script = tmp_path / "launcher_var.sh"       # l2 makes the 9.1 collector on the 310 fail (audit 3.5)
    script.write_text((DATA / "launcher_var.sh").read_text().replace("$(pwd)", "$WORK_DIR").replace(
        '\\"task_trace\\":\\"on\\",', '\\"task_trace\\":\\"on\\",\\"l2\\":\\"on\\",'))
    code, data = report(capsys, str(script), "--cann", "9.1", "--soc", "310")
    setup = only(data)
    assert setup["verdict"] == "fails"
    e10001 = next(m for m in setup["messages"] if "E10001" in m)
    assert e10001.startswith('GE error E10001: Value {"output":"<unknown>/output/profiling","training_trace":"on"')
    assert e10001.endswith("Reason: The current value is not within the valid range.")      # 9.1's own code
    assert setup["effective_options"]["output"] == "<unknown>/output/profiling"
    assert setup["output_dir"] is None
    assert "GE reads PROFILING_OPTIONS from the launcher" in setup["messages"]
    script.write_text((DATA / "launcher_var.sh").read_text().replace("$(pwd)", "$WORK_DIR"))
    _, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    setup = only(data)
    assert setup["verdict"] == "collects" and setup["output_dir"] is None
    assert setup["effective_options"]["output"] == "<unknown>/output/profiling"
    code, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910", str(script))
    assert HOLE not in out and "/output/profiling\"" not in out.replace("<unknown>/output/profiling\"", "")
    # COLLECTS beside an unknown answer says what it hangs on
    assert ("line 6 env: COLLECTS training_trace, task_trace, aic_metrics into <unknown>/output/profiling — unknown: "
            "if the process that reads these variables sets no profiling options of its own: launcher_var.sh:11: "
            f"cannot find train.py (looked in {tmp_path})" in out.splitlines())
    assert "  effective options (environment): " in out
    assert "  output directory: <unknown>/output/profiling (partly known only at run time)" in out
    assert "GE reads PROFILING_OPTIONS from the script" not in out


def test_python_env_value_with_a_hole(capsys, tmp_path):
    # "/tmp/profiling/rank_%d" % int(os.getenv("RANK_ID", "0")): the rank is not known statically
    script = tmp_path / "env_python_hole.py"    # l2 makes the 9.1 collector on the 310 fail (audit 3.5)
    script.write_text((DATA / "env_python_hole.py").read_text().replace('"hccl": "on",', '"hccl": "on", "l2": "on",'))
    _, data = report(capsys, str(script), "--cann", "9.1", "--soc", "310")
    setup = only(data)
    assert setup["verdict"] == "fails" and setup["output_dir"] is None
    assert setup["effective_options"] == {"output": "/tmp/profiling/rank_<unknown>", "task_trace": "on", "hccl": "on",
                                          "l2": "on", "storage_limit": "1000MB"}
    assert any('{"output": "/tmp/profiling/rank_<unknown>", "task_trace"' in m for m in setup["messages"])
    assert "GE reads PROFILING_OPTIONS from the script" in setup["messages"]
    _, out, _ = emulate(capsys, str(DATA / "env_python_hole.py"))
    assert HOLE not in out and '"/tmp/profiling/rank_"' not in out
    assert "  output directory: /tmp/profiling/rank_<unknown> (partly known only at run time)" in out


def test_no_hole_character_in_any_report(capsys, tmp_path):
    for name in ("launcher_var.sh", "env_python_hole.py", "unknown_output_call.py", "computed.py"):
        for fmt in ("text", "json"):
            _, out, err = emulate(capsys, "--format", fmt, "--cwd", str(tmp_path), str(DATA / name))
            assert err == "" and HOLE not in out, (name, fmt)


def test_launcher_without_profiling_mode(capsys, tmp_path):
    script = tmp_path / "opts_only.sh"
    script.write_text("export PROFILING_OPTIONS='{\"output\":\"/tmp/x\",\"task_trace\":\"on\"}'\npython3 train.py\n")
    _, data = report(capsys, str(script), "--cann", "8.0", "--soc", "910")
    assert only(data)["verdict"] == "off"
    assert only(data)["messages"] == ["PROFILING_MODE is not set in the launcher or the environment (taken as empty "
                                      "without --env): no profiling data is collected"]


# ---------------------------------------------------------------- the headline lists what each target collects

def test_headline_keeps_switches_not_collected_everywhere(capsys, tmp_path):
    path = str(DATA / "training_trace_not_310.py")
    code, out, _ = emulate(capsys, "--cwd", str(tmp_path), path)
    lines = out.splitlines()
    assert code == 0
    # under `if args.profiling:`: the condition takes the room of the switch names
    assert lines[1] == "line 21 NpuOptimizer: COLLECTS 3 switches (+ more) into /tmp/profiling (conditional)"
    start = lines.index("  per target (a letter per CANN version and product, said below):") + 1
    assert lines[start + 1:start + 9] == [
        "    7.0   B    A    A     A     A     A     A", "    8.0   B    A    A     A     A     A     A",
        "    8.5   C    A    A     A     A     A     C", "    9.0   A    A    A     A     A     A     A",
        "    9.1   A    A    A     A     A     A     A",
        "    A  collects training_trace, task_trace, aicpu, aic_metrics",
        "    B  collects task_trace, aicpu, aic_metrics (dropped: training_trace)", "    C  unknown"]

def test_headline_for_one_version_every_product(capsys, tmp_path):
    path = str(DATA / "training_trace_not_310.py")
    code, out, _ = emulate(capsys, "--cann", "8.0", "--cwd", str(tmp_path), path)
    lines = out.splitlines()
    assert lines[0] == "target: CANN 8.0 (--cann) / every product (none given or detected)"
    # under `if args.profiling:`: the condition takes the room of the switch names
    assert lines[1] == "line 21 NpuOptimizer: COLLECTS 3 switches (+ more) into /tmp/profiling (conditional)"
    start = lines.index("  per target (a letter per CANN version and product, said below):") + 1
    assert lines[start:start + 4] == [
        "    CANN  310  910  310P  910B  910C  310B  950",
        "    8.0   B    A    A     A     A     A     A",
        "    A  collects training_trace, task_trace, aicpu, aic_metrics",
        "    B  collects task_trace, aicpu, aic_metrics (dropped: training_trace)"]


def test_every_switch_a_target_collects_is_in_the_headline_or_the_table(capsys, tmp_path):
    for name in ("training_trace_not_310.py", "sess_run.py", "env_python.py", "tf2.py", "default_options.py"):
        _, out, _ = emulate(capsys, "--cwd", str(tmp_path), str(DATA / name))
        _, data = report(capsys, name, cwd=tmp_path)
        lines = out.splitlines()
        assert len(lines[1]) <= 100
        for setup in data["setups"]:
            for group in setup["targets"]:
                if group["verdict"] == "collects":
                    rows = [line for line in lines if line.startswith("    ") and "collects" in line] or lines[1:2]
                    assert any(", ".join(group["collected"]) + " " in row + " " for row in rows), (name, group)


# ---------------------------------------------------------------- no "output": ASCEND_WORK_PATH is unknown without --env

def test_no_output_without_env_hangs_on_ascend_work_path(capsys, monkeypatch):
    monkeypatch.setenv("ASCEND_WORK_PATH", "/tmp/not_read_without_env")
    code, data = report(capsys, "no_output.py", "--cann", "8.5", "--soc", "910")
    setup = only(data)
    assert code == 1 and setup["verdict"] == "unknown" and data["usable"] is None
    assert setup["messages"] == [
        'no "output": the CANN 8.5+ collector then writes into $ASCEND_WORK_PATH if it is set when the job starts '
        '(collects task_trace, aicpu there), and fails otherwise (NPP108 msprof collector: "Result path and '
        'ASCEND_WORK_PATH env is empty"); without --env the job\'s environment is not known (give --env to emulate '
        "with the current one)"]
    assert setup["output_dir"] is None and setup["targets"][0]["verdict"] == "unknown"
    code, out, _ = emulate(capsys, "--cann", "8.5", "--soc", "910", str(DATA / "no_output.py"))
    lines = out.splitlines()
    assert code == 1 and "FAILS" not in lines[1] and "usable data: no" not in out
    assert lines[1] == "no_output.py:7 NpuOptimizer: UNKNOWN: " + setup["messages"][0]
    assert lines[2] == ("usable data: unknown (line 7 NpuOptimizer: collects task_trace, aicpu into "
                        "$ASCEND_WORK_PATH/PROF_* if ASCEND_WORK_PATH is set (else fails))")


def test_no_output_default_targets_is_not_a_certain_failure(capsys):
    path = str(DATA / "no_output.py")
    code, out, _ = emulate(capsys, path)
    first = out.splitlines()[1]
    assert code == 1 and "FAILS" not in first
    assert first == "no_output.py:7 NpuOptimizer: DEPENDS ON TARGET: fails / unknown (see table)"
    lines = out.splitlines()
    start = lines.index("  per target (a letter per CANN version and product, said below):") + 1
    assert lines[start + 1:start + 8] == ["    7.0   B    B    B     B     B     B     B",
                                          "    8.0   B    B    B     B     B     B     B",
                                          "    8.5   A    A    A     A     A     A     A",
                                          "    9.0   A    A    A     A     A     A     A",
                                          "    9.1   A    A    A     A     A     A     A",
                                          "    A  unknown", "    B  fails (NPP108)"]
    assert out.splitlines()[2].startswith("usable data: unknown (line 7 NpuOptimizer: fails on CANN 7.0 and 8.0 / "
                                          "every product; collects task_trace, aicpu into $ASCEND_WORK_PATH/PROF_*")
    _, data = report(capsys, "no_output.py")
    assert only(data)["verdict"] == "unknown" and data["usable"] is None
    assert {g["verdict"] for g in only(data)["targets"]} == {"fails", "unknown"}


def test_no_output_with_env_uses_the_actual_variable(capsys, monkeypatch, tmp_path):
    code, data = report(capsys, "no_output.py", "--env", "--cann", "8.5", "--soc", "910")
    assert code == 1 and only(data)["verdict"] == "fails" and data["usable"] is False
    monkeypatch.setenv("ASCEND_WORK_PATH", str(tmp_path / "work"))
    code, data = report(capsys, "no_output.py", "--env", "--cann", "8.5", "--soc", "910")
    assert code == 0 and only(data)["verdict"] == "collects" and data["usable"] is True
    assert only(data)["output_dir"] == str(tmp_path / "work")
    code, out, _ = emulate(capsys, "--env", "--cann", "8.5", "--soc", "910", str(DATA / "no_output.py"))
    assert out.splitlines()[2] == f"preflight: ok ({tmp_path / 'work'} can be created)"
    # the 8.0 collector has no fallback: a certain failure, environment or not
    code, data = report(capsys, "no_output.py", "--cann", "8.0", "--soc", "910")
    assert code == 1 and only(data)["verdict"] == "fails" and data["usable"] is False


def test_candidate_failure_shows_its_cause(capsys, tmp_path):
    differ = options_script(tmp_path, "'{\"output\":\"/tmp/a\",\"task_trace\":\"on\"}' if len(sys.argv) > 1 else "
                                      "'{\"output\":\"/tmp/a\",\"L2\":\"on\"}'", "differ.py")
    _, data = report(capsys, differ, "--cann", "8.0", "--soc", "910")
    assert only(data)["messages"][0] == ('the options can take 2 values with different results: collects (task_trace); '
                                         'fails (NPP101 msprof collector: "Error: parsing invalid key:L2.")')


# ---------------------------------------------------------------- several files, progress on a terminal

class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_several_files_one_report_each(capsys, tmp_path):
    names = ["sess_run.py", "tf2.py", "mode_off.py"]
    code, out, err = emulate(capsys, "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path),
                             *[str(DATA / n) for n in names])
    assert err == "" and code == 1                      # mode_off.py collects nothing
    # each report's details start with the file's path (headlines may shorten it to "line N")
    heads = [line for line in out.splitlines() if line.startswith(tuple(f"{DATA / n}:" for n in names))]
    assert [h.split(":")[0] for h in heads] == [str(DATA / n) for n in names]
    assert out.count("target: CANN 8.0 (--cann) / Ascend 910B (--soc)\n") == 3
    code, out, _ = emulate(capsys, "--format", "json", "--cann", "8.0", "--cwd", str(tmp_path),
                           *[str(DATA / n) for n in names])
    assert [d["file"] for d in json.loads(out)] == [str(DATA / n) for n in names]


def test_several_files_with_an_error_go_on(capsys, tmp_path):
    code, out, err = emulate(capsys, "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path),
                             str(tmp_path / "missing.py"), str(DATA / "tf2.py"))
    assert code == 2 and err.startswith("npuprof emulate: error: ") and len(err.splitlines()) == 1
    assert out.splitlines()[1].startswith("tf2.py:4 npu_device: COLLECTS")


def test_progress_line_on_a_terminal_only(capsys, tmp_path, monkeypatch):
    paths = [str(DATA / n) for n in ("sess_run.py", "tf2.py")]
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    main(["emulate", "--cann", "8.0", "--cwd", str(tmp_path), *paths])
    shown = terminal.getvalue()
    steps = [s for s in shown.split("\r\x1b[K") if s]
    assert [s.split(" ")[0] for s in steps] == ["[1/2]", "[2/2]"]
    assert all(s.startswith(f"[{i + 1}/2] emulating ") and s.endswith(os.path.basename(paths[i]))
               for i, s in enumerate(steps))
    assert shown.endswith("\r\x1b[K")                   # the line is cleared before the reports are printed
    assert "[1/2]" not in capsys.readouterr().out
    # one file on a terminal, or many files into a pipe or a log: nothing on stderr
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    main(["emulate", "--cann", "8.0", "--cwd", str(tmp_path), paths[0]])
    assert terminal.getvalue() == ""
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    main(["emulate", "--cann", "8.0", "--cwd", str(tmp_path), *paths])
    assert pipe.getvalue() == ""


def test_a_failure_on_every_target_is_not_headlined_with_one_targets_message(capsys, tmp_path):
    # a model-zoo TF2 script with "L2": every collector rejects it, each in its own words; the
    # headline showed "[CANN 7.0 / every product] NPP101 ..." as if only 7.0 failed
    script = tmp_path / "main.py"
    script.write_text("import npu_device\n"
                      "npu_device.global_options().profiling_config.enable_profiling = True\n"
                      "npu_device.global_options().profiling_config.profiling_options = "
                      "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\",\"L2\":\"on\"}'\n"
                      "npu_device.open().as_default()\n")
    code, out, _ = emulate(capsys, "--cwd", str(tmp_path), str(script))
    lines = out.splitlines()
    assert code == 1
    assert lines[1] == "main.py:2 npu_device: FAILS: NPP101 on every target (per-version messages below)"
    assert "  - [CANN 7.0 / every product] NPP101 msprof collector: \"The format of input ge options is invalid\"" \
        in lines
    code, out, _ = emulate(capsys, "--cann", "8.0", "--cwd", str(tmp_path), str(script))
    assert out.splitlines()[1].startswith("main.py:2 npu_device: FAILS: NPP101 msprof collector: ")


# ---------------------------------------------------------------- certain failures, and what makes data less useful
# (issue 25, item 4)

NPU_ENTRY = ("import tensorflow as tf\nfrom npu_bridge.npu_init import *\nimport helpers\n\n"
             "flags = tf.compat.v1.flags\nflags.DEFINE_bool('profiling', False, '')\nFLAGS = flags.FLAGS\n\n\n"
             "def main(_):\n    config = tf.compat.v1.ConfigProto()\n"
             "    op = config.graph_options.rewrite_options.custom_optimizers.add()\n    op.name = 'NpuOptimizer'\n")
RUN = "\n\nif __name__ == '__main__':\n    tf.compat.v1.app.run()\n"


@pytest.mark.parametrize("body, code", [
    # a str for the bytes field: TypeError at the assignment, whatever --profiling says
    ("    op.parameter_map['profiling_mode'].b = FLAGS.profiling\n"
     "    op.parameter_map['profiling_options'].s = '{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"
     "    helpers.train(config)\n", "NPP005"),
    # the pre-2021 ProfilingConfig: TypeError in its constructor, handed over or not
    ("    prof = ProfilingConfig(enable_profiling=True, enable_options=['task_trace'])\n"
     "    helpers.train(NPURunConfig(model_dir='/tmp/m', profiling_config=prof))\n", "NPP014"),
    ("    prof = ProfilingConfig(enable_profiling=True, enable_options=['task_trace'])\n", "NPP014"),
    # handed over only under --profiling: the constructor still raises whatever the flag says (GARL's
    # resnet_run_loop.py said "fails (when flags_obj.profiling_config)")
    ("    prof = ProfilingConfig(enable_profiling=True, enable_options=['task_trace'])\n"
     "    helpers.train(NPURunConfig(model_dir='/tmp/m', profiling_config=prof if FLAGS.profiling else None))\n",
     "NPP014"),
])
def test_a_python_error_on_the_way_to_ge_is_the_verdict(capsys, tmp_path, body, code):
    path = tmp_path / "train.py"
    path.write_text(NPU_ENTRY + body + RUN)
    exit_code, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B")
    setup = only(data)
    assert (setup["verdict"], setup["read_by_ge"], setup["conditions"]) == ("fails", True, [])
    assert setup["messages"][0].startswith(f"{code} TypeError")
    assert exit_code == 1 and data["usable"] is False
    _, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910B", str(path))
    assert f"{path}:{setup['line']} {setup['route']}: fails\n" in out      # not "(if GE reads it) (when ...)"


@pytest.mark.parametrize("handler", ["except TypeError:\n        prof = None", "except Exception:\n        raise"])
def test_a_python_error_a_try_may_catch_is_unknown_not_a_stop(capsys, tmp_path, handler):
    # the handler decides: it may go on without the config (no profiling) or stop the script; neither is claimed
    path = tmp_path / "train.py"
    path.write_text(NPU_ENTRY + "    try:\n        prof = ProfilingConfig(enable_profiling=True, enable_options=['task_trace'])"
                    f"\n    {handler}\n"
                    "    helpers.train(NPURunConfig(model_dir='/tmp/m', profiling_config=prof if FLAGS.profiling else None))\n"
                    + RUN)
    _, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B")
    setup = only(data)
    assert (setup["verdict"], setup["read_by_ge"], setup["conditions"]) == ("unknown", True, [])
    (message,) = setup["messages"]
    assert message.startswith("NPP014 TypeError") and f"the `try` at line {setup['line'] - 1} may catch it" in message
    assert "stops" not in message and data["usable"] is None
    _, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910B", str(path))
    assert f"{path}:{setup['line']} {setup['route']}: unknown\n" in out


HELPER = ("def profiling_config():\n"
          "    return ProfilingConfig(enable_profiling=True, enable_options=['task_trace'])\n\n\n")


@pytest.mark.parametrize("calls, caught", [
    # the helper raises; its caller's `try` may catch it: no stop is claimed, the try's line is named
    ("    try:\n        prof = profiling_config()\n    except TypeError:\n        prof = None\n", 18),
    # one call caught, one not: the caught one may go on, so no stop is claimed either
    ("    prof = profiling_config() if FLAGS.profiling else None\n"
     "    try:\n        prof = profiling_config()\n    except TypeError:\n        prof = None\n", 19),
    # a try around a call that is not the helper's is no help: it stops the script
    ("    try:\n        helpers.warm_up()\n    except TypeError:\n        pass\n"
     "    prof = profiling_config()\n", 0),
])
def test_a_python_error_a_callers_try_may_catch_is_unknown_not_a_stop(capsys, tmp_path, calls, caught):
    path = tmp_path / "train.py"
    path.write_text(NPU_ENTRY.replace("def main(_):\n", HELPER + "def main(_):\n") + calls +
                    "    helpers.train(NPURunConfig(model_dir='/tmp/m', profiling_config=prof))\n" + RUN)
    _, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B")
    setup = only(data)
    (message,) = setup["messages"]
    assert setup["line"] == 11 and message.startswith("NPP014 TypeError")
    if caught:
        assert setup["verdict"] == "unknown" and f"the `try` at line {caught} may catch it" in message
        assert "stops" not in message and data["usable"] is None
    else:
        assert setup["verdict"] == "fails" and message.endswith("the script stops before GE starts")


def test_a_non_bool_switch_of_a_profiling_config_fails_only_where_it_is_handed_over(capsys, tmp_path):
    path = tmp_path / "train.py"          # NPUEstimator raises when it copies the switch: never passed, never raised
    path.write_text(NPU_ENTRY + "    prof = ProfilingConfig(enable_profiling='True', profiling_options="
                    "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}')\n" + RUN)
    _, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B")
    assert only(data)["verdict"] == "off" and only(data)["messages"][0].startswith("NPP006")


def test_a_trace_point_no_node_has_goes_beside_the_verdict(capsys, tmp_path):
    fp = "resnet_model/conv2d/Conv2Dresnet_model/batch_normalization/FusedBatchNormV3_Reduce"
    path = tmp_path / "bert.py"
    path.write_text("import tensorflow as tf\nfrom npu_bridge.npu_init import *\n# a BERT model\n"
                    "config = tf.compat.v1.ConfigProto()\n"
                    "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
                    "op.parameter_map['profiling_mode'].b = True\n"
                    "op.parameter_map['profiling_options'].s = tf.compat.as_bytes('{\"output\":\"/tmp/p\","
                    f"\"training_trace\":\"on\",\"fp_point\":\"{fp}\",\"bp_point\":\"\"}}')\n"
                    "sess = tf.compat.v1.Session(config=config)\n")
    code, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B", cwd=tmp_path)
    setup = only(data)
    assert setup["verdict"] == "collects" and setup["collected"] == ["training_trace"]
    (caveat,) = setup["caveats"]
    assert caveat.startswith('NPP204 "fp_point" cannot be one op name of this model') and caveat in setup["messages"]
    _, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910B", "--cwd", str(tmp_path), str(path))
    lines = out.splitlines()
    assert lines[2] == "  ! " + caveat                   # whole, never cut mid-word
    assert "usable data: yes; less useful: NPP204 (see above); afterwards run: " in out


def test_a_switch_the_chip_drops_and_a_storage_limit_read_otherwise_go_beside_the_verdict(capsys, tmp_path):
    path = tmp_path / "opts.py"
    path.write_text("import tensorflow as tf\nconfig = tf.ConfigProto()\n"
                    "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
                    "op.parameter_map['profiling_mode'].b = True\n"
                    "op.parameter_map['profiling_options'].s = b'{\"output\":\"/tmp/p\",\"task_trace\":\"on\","
                    "\"l2\":\"on\",\"storage_limit\":\"100MB\"}'\nsess = tf.Session(config=config)\n")
    _, data = report(capsys, str(path), "--cann", "8.5", "--soc", "910B", cwd=tmp_path)
    setup = only(data)          # 8.5 raises 100MB to 200MB with a warning: its data ageing may evict data
    assert setup["verdict"] == "collects"
    assert [c.split(" ", 2)[:2] for c in setup["caveats"]] == [["NPP107", '"storage_limit":']]
    path.write_text(path.read_text().replace(',"storage_limit":"100MB"', ""))
    _, data = report(capsys, str(path), "--cann", "8.0", "--soc", "310", cwd=tmp_path)
    setup = only(data)          # the 8.0 collector drops l2 on the 310 with a plog warning
    assert setup["verdict"] == "collects" and setup["collected"] == ["task_trace"]
    assert [c.split(" ", 2)[:2] for c in setup["caveats"]] == [["NPP114", "l2"]]


def _one_setup(capsys, tmp_path, text: str, name: str = "train.py"):
    """Write the script, emulate it for CANN 8.0 on the 910B, and return its path, the report and its one setup."""
    path = tmp_path / name
    path.write_text(text)
    _, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B", cwd=tmp_path)
    return path, data, only(data)


def _npp006(setup) -> list:
    return [m for m in setup["messages"] if m.startswith("NPP006")]


def test_a_setup_in_an_except_handler_runs_only_when_an_exception_is_caught(capsys, tmp_path):
    _, _, setup = _one_setup(
        capsys, tmp_path,
        "import tensorflow as tf\nfrom npu_bridge.npu_init import *\n"
        "config = tf.ConfigProto()\n"
        "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
        "try:\n    import apex\nexcept ImportError:\n"
        "    op.parameter_map['profiling_mode'].b = True\n"
        "    op.parameter_map['profiling_options'].s = b'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}'\n"
        "sess = tf.Session(config=npu_config_proto(config_proto=config))\n")
    assert (setup["verdict"], setup["conditions"]) == ("collects", ["an exception is caught at line 8"])


def test_a_setup_in_a_try_else_body_runs_only_when_nothing_was_raised(capsys, tmp_path):
    """`try: import moxing / except ImportError: cfg = None / else: cfg = ProfilingConfig(...)`: the else body
    runs only when the import worked (it said "collects" unconditionally, and the handler's None was lost)."""
    _, data, setup = _one_setup(
        capsys, tmp_path,
        "from npu_bridge.npu_init import *\n"
        "try:\n    import moxing\nexcept ImportError:\n    cfg = None\nelse:\n"
        "    cfg = ProfilingConfig(enable_profiling=True, profiling_options="
        "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}')\n"
        "est = NPUEstimator(model_fn=None, config=NPURunConfig(model_dir='/tmp/m', profiling_config=cfg))\n"
        "est.train(input_fn=None, max_steps=1)\n")
    assert (setup["line"], setup["verdict"]) == (7, "collects")
    assert setup["conditions"] == ["no exception is raised in the try at line 2"]
    assert data["usable"] is True and not _npp006(setup)


def test_a_config_a_library_keeps_on_self_is_not_said_to_be_never_passed(capsys, tmp_path):
    """A module with no entry point (VGG16's create_session.py) keeps a ProfilingConfig in
    self.profiling_config and never reads it: the scripts that import it may. Neither off nor NPP006."""
    path, _, setup = _one_setup(
        capsys, tmp_path,
        "from npu_bridge.npu_init import *\n\n\nclass CreateSession:\n    def __init__(self):\n"
        "        self.profiling_config = ProfilingConfig(enable_profiling=True, profiling_options="
        "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}')\n", "create_session.py")
    assert (setup["verdict"], setup["read_by_ge"]) == ("collects", None) and not _npp006(setup)
    assert any("handed to code outside this file" in m for m in setup["messages"])
    _, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910B", str(path))
    assert f"{path}:6 ProfilingConfig: collects (if GE reads it)\n" in out


def test_a_config_rebound_in_an_except_handler_still_reaches_the_estimator(capsys, tmp_path):
    """`try: cfg = ProfilingConfig(...) / except: cfg = None`: the handler runs only when the try raised, so
    the config the try built is the one handed over (it was NPP006, never passed, before)."""
    _, _, setup = _one_setup(
        capsys, tmp_path,
        "from npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig\n"
        "from npu_bridge.estimator.npu.npu_estimator import NPUEstimator\n"
        "try:\n    prof = ProfilingConfig(enable_profiling=True, profiling_options="
        "'{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}')\n"
        "except Exception:\n    prof = None\n"
        "est = NPUEstimator(model_fn=None, config=NPURunConfig(profiling_config=prof))\n"
        "est.train(input_fn=None, max_steps=1)\n")
    assert setup["verdict"] == "collects" and not _npp006(setup)


# ---------------------------------------------------------------- claims a review found false (check and emulate)

_ENTRY = ("import argparse\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n"
          "parser = argparse.ArgumentParser()\n{flag}\nargs = parser.parse_args()\n"
          "config = tf.ConfigProto()\n{alias}"
          "op = {name}.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
          "op.parameter_map['profiling_options'].s = tf.compat.as_bytes('{{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}}')\n"
          "{mode}sess = tf.Session(config=config)\n")


def _entry_setup(capsys, tmp_path, **parts):
    path = tmp_path / "train.py"
    path.write_text(_ENTRY.format(**{"flag": "", "alias": "", "name": "config", **parts}))
    code, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B")
    (setup,) = data["setups"]
    return setup, data


def test_a_switch_turned_off_under_not_flag_collects_when_the_flag_holds(capsys, tmp_path):
    setup, _ = _entry_setup(capsys, tmp_path, flag="parser.add_argument('--profiling', action='store_true')",
                          mode="op.parameter_map['profiling_mode'].b = True\nif not args.profiling:\n"
                               "    op.parameter_map['profiling_mode'].b = False\n")
    # before: "collects (when not args.profiling)", the opposite of the code
    assert (setup["verdict"], setup["conditions"]) == ("collects", ["args.profiling"])


def test_a_flag_converted_by_the_scripts_own_function_is_unknown(capsys, tmp_path):
    path = tmp_path / "train.py"
    path.write_text("import argparse\nfrom npu_bridge.estimator.npu.npu_config import NPURunConfig, ProfilingConfig\n"
                    "from npu_bridge.estimator.npu.npu_estimator import NPUEstimator\n"
                    "def str2bool(v):\n    return v.lower() in ('yes', 'true', '1')\n"
                    "parser = argparse.ArgumentParser()\n"
                    "parser.add_argument('--profiling', type=str2bool, default=False)\nargs = parser.parse_args()\n"
                    "prof = ProfilingConfig(enable_profiling=args.profiling, "
                    "profiling_options='{\"output\":\"/tmp/p\",\"task_trace\":\"on\"}')\n"
                    "est = NPUEstimator(model_fn=None, config=NPURunConfig(profiling_config=prof))\n")
    # before: NPP010 "the value of --profiling (a object) ... raises TypeError", and emulate said FAILS
    assert main(["check", "--select", "NPP", str(path)]) == 0
    capsys.readouterr()
    _, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B")
    (setup,) = data["setups"]
    assert setup["verdict"] == "unknown" and data["usable"] is None
    assert setup["messages"][0].startswith("enable_profiling takes the value of --profiling, converted by a "
                                           "function of the script")


def test_an_entry_made_through_an_alias_reaches_the_session(capsys, tmp_path):
    setup, data = _entry_setup(capsys, tmp_path, alias="cfg = config\n", name="cfg",
                             mode="op.parameter_map['profiling_mode'].b = True\n")
    # before: "OFF: NPP006 this profiling config is never handed to a Session" (check said nothing)
    assert (setup["verdict"], setup["read_by_ge"], data["usable"]) == ("collects", True, True)


def test_a_relative_output_after_os_chdir_is_not_placed(capsys, tmp_path):
    path = tmp_path / "train.py"
    path.write_text("import os\nimport tensorflow as tf\nos.chdir('/srv/work')\nconfig = tf.ConfigProto()\n"
                    "op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = 'NpuOptimizer'\n"
                    "op.parameter_map['profiling_mode'].b = True\n"
                    "op.parameter_map['profiling_options'].s = b'{\"output\":\"prof\",\"task_trace\":\"on\"}'\n"
                    "sess = tf.Session(config=config)\n")
    _, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B", cwd=tmp_path)
    # before: "into <cwd>/prof" and "preflight: ok (<cwd>/prof can be created)"
    (setup,) = data["setups"]
    assert (setup["output_dir"], data["preflight"], data["cwd"]) == (None, [], None)
    assert setup["export_command"] == "msprof --export=on --output=<output>/PROF_*"


@pytest.mark.parametrize("stop", ["return", "raise NotImplementedError", "sys.exit(0)"])
def test_code_after_a_functions_return_never_runs(capsys, tmp_path, stop):
    path = tmp_path / "train.py"
    path.write_text("import sys\nimport tensorflow as tf\n\ndef main():\n"
                    f"    {stop}\n    config = tf.ConfigProto()\n"
                    "    op = config.graph_options.rewrite_options.custom_optimizers.add()\n"
                    "    op.name = 'NpuOptimizer'\n    op.parameter_map['profiling_mode'].b = True\n"
                    "    op.parameter_map['profiling_options'].s = b'{\"output\":\"/tmp/p\",\"L2\":\"on\"}'\n"
                    "    sess = tf.Session(config=config)\n\nmain()\n")
    # before: NPP101 "unknown key L2: GE initialisation fails and the job aborts", on lines that never run
    assert main(["check", "--select", "NPP", str(path)]) == 0
    capsys.readouterr()
    _, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B")
    assert data["setups"] == [] and data["usable"] is False


@pytest.mark.parametrize("removal", ['del os.environ["PROFILING_MODE"]', 'os.environ.pop("PROFILING_MODE")'])
def test_an_environment_variable_removed_before_the_session_is_not_read(capsys, tmp_path, removal):
    path = tmp_path / "train.py"
    path.write_text("import os\nimport tensorflow as tf\nfrom npu_bridge.npu_init import *\n"
                    'os.environ["PROFILING_MODE"] = "true"\n'
                    "os.environ[\"PROFILING_OPTIONS\"] = '{\"output\":\"/tmp/p\",\"task_trace\":\"on\",\"L2\":\"on\"}'\n"
                    f"{removal}\nsess = tf.Session(config=npu_config_proto())\n")
    # before: NPP101 "GE initialisation fails" and emulate FAILS, for options GE does not read now
    main(["check", "--select", "NPP", str(path)])
    out = capsys.readouterr().out
    assert "NPP101 latent (profiling is switched off here): " in out and "fails and the job aborts" not in out
    _, data = report(capsys, str(path), "--cann", "8.0", "--soc", "910B")
    (setup,) = data["setups"]
    assert (setup["verdict"], setup["line"], data["usable"]) == ("off", 6, False)


def test_a_python_launcher_of_another_script_is_unknown(capsys, tmp_path):
    path = tmp_path / "launch.py"
    path.write_text("import os, subprocess\nenv = dict(os.environ)\nenv['PROFILING_MODE'] = 'true'\n"
                    "subprocess.run(['python3', 'train.py'], env=env, check=True)\n")
    # before: "no profiling setup found: a run collects no profiling data", "usable data: no"
    code, out, _ = emulate(capsys, "--cann", "8.0", "--soc", "910B", str(path))
    assert code == 1 and out.splitlines()[1:] == [
        "no launch followed: it starts another Python process at line 4, which emulate does not follow: emulate "
        "that script",
        "usable data: unknown (it starts another Python process at line 4, which emulate does not follow: "
        "emulate that script)"]
