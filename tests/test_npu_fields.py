"""NPP004 on precision_mode.b next to profiling options: what the .b does depends on the writes after it
(s and b are one oneof in AttrValue, and the adapter checks precision_mode's string from TF Adapter r1.12).
Found on a real training script (PointNet): the .b emptied a precision mode set earlier."""

from flake8_npuprof.checks.analysis import analyse

HEAD = ('import tensorflow as tf\n'
        'config = tf.ConfigProto()\n'
        'op = config.graph_options.rewrite_options.custom_optimizers.add()\n'
        'op.name = "NpuOptimizer"\n')
OPTIONS = 'op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p","task_trace":"on"}\'\n'
BOOL = 'op.parameter_map["precision_mode"].b = True\n'
STRING = 'op.parameter_map["precision_mode"].s = b"allow_mix_precision"\n'
TAIL = 'sess = tf.Session(config=config)\n'


def npp004(text):
    found = [f for f in analyse(text, None, "t.py") if f.code == "NPP004"]
    assert len(found) == 1, found
    return found[0]


def test_a_bool_written_last_empties_the_string_and_the_adapter_refuses_it():
    for text in (HEAD + BOOL + OPTIONS + TAIL, HEAD + STRING + BOOL + OPTIONS + TAIL):
        f = npp004(text)
        assert f.line == text[:text.index(BOOL)].count("\n") + 1 and f.col == 0
        assert "leaves it empty" in f.message
        assert "option precision_mode value '' is invalid" in f.message
        assert "the session fails when its graph first runs" in f.message
        assert "does nothing" not in f.message


def test_a_string_written_after_the_bool_replaces_it():
    f = npp004(HEAD + BOOL + OPTIONS + STRING + TAIL)
    assert "the string set on line 7 replaces this .b (s and b are one oneof), so the .b does nothing" in f.message
    assert "is invalid" not in f.message
    assert "profiling_mode" in f.message and "never set" in f.message


def test_a_string_written_after_it_only_sometimes_leaves_both_outcomes():
    text = HEAD + BOOL + OPTIONS + "if x:\n    " + STRING + TAIL
    f = npp004(text)
    assert "replaces this .b only when that line runs" in f.message
    assert "otherwise the .b leaves the string empty" in f.message
    assert "session fails" in f.short


def test_a_string_written_after_the_branch_that_holds_the_bool_always_replaces_it():
    # a real Oct-ResNet script: the .b inside `if args.profiling:`, the .s after the branch
    text = HEAD + "if x:\n    " + BOOL + "    " + OPTIONS + STRING + TAIL
    f = npp004(text)
    assert "the string set on line 8 replaces this .b (s and b are one oneof), so the .b does nothing" in f.message


def test_a_string_in_the_other_branch_does_not_replace_it():
    text = HEAD + "if x:\n    " + BOOL + "    " + OPTIONS + "else:\n    " + STRING + TAIL
    f = npp004(text)
    assert "leaves it empty" in f.message and "replaces" not in f.message


def test_a_legacy_trace_point_is_moved_next_to_training_trace():
    # a real 3D-pose script set the points through parameter_map beside options without training_trace:
    # moved into the JSON alone they would still do nothing
    text = HEAD + 'op.parameter_map["profiling_mode"].b = True\n' + OPTIONS + \
        'op.parameter_map["fp_point"].s = b"conv1/Conv2D"\n' + TAIL
    found = [f for f in analyse(text, None, "t.py") if f.code == "NPP014"]
    assert [(f.line, f.col) for f in found] == [(7, 0)]
    assert found[0].message.endswith('put it in the profiling_options JSON instead next to "training_trace":"on" '
                                     "(GE reads the points only then)")


def _emulated(tmp_path, monkeypatch, capsys, text):
    import json
    from flake8_npuprof.cli import main
    from flake8_npuprof.knowledge import detect
    for name in ("PROFILING_MODE", "PROFILING_OPTIONS", "ASCEND_WORK_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(detect, "detect_cann", lambda environ=None: detect.Found(None, "", ("no toolkit (test)",)))
    monkeypatch.setattr(detect, "detect_soc", lambda environ=None: detect.Found(None, "", ("no npu-smi (test)",)))
    path = tmp_path / "train.py"
    path.write_text(text, encoding="utf-8")
    code = main(["emulate", "--format", "json", str(path)])
    data = json.loads(capsys.readouterr().out)
    assert len(data["setups"]) == 1
    return code, data["setups"][0]


def test_emulate_says_the_session_fails_under_the_bool_write_s_own_condition(tmp_path, monkeypatch, capsys):
    # PointNet's shape: the precision string set first, the .b and the options inside `if flag:`
    text = HEAD + STRING + "if flag:\n    " + BOOL + "    " + OPTIONS + TAIL
    code, setup = _emulated(tmp_path, monkeypatch, capsys, text)
    assert code == 1 and setup["verdict"] == "fails" and setup["conditions"] == ["flag"]
    assert "precision_mode.b on line 7 leaves the precision_mode string empty" in json_text(setup)


def test_emulate_keeps_off_where_a_later_string_may_replace_the_bool(tmp_path, monkeypatch, capsys):
    text = HEAD + BOOL + OPTIONS + "if flag:\n    " + STRING + TAIL
    _, setup = _emulated(tmp_path, monkeypatch, capsys, text)
    assert setup["verdict"] == "off"


def json_text(setup):
    import json
    return json.dumps(setup)


def test_a_config_no_session_gets_is_refused_only_once_it_reaches_one():
    f = npp004(HEAD + BOOL + OPTIONS + "sess = tf.Session()\n")    # a session without it: never handed over
    assert "would refuse the empty string" in f.message and "it reaches none here" in f.message
    assert "the session fails" not in f.message
    # a module that starts nothing and has no entry point: the scripts that import it may hand it over
    f = npp004(HEAD + BOOL + OPTIONS)
    assert "would refuse the empty string" in f.message and "this file does not show whether it gets one" in f.message
    assert "the session fails" not in f.message


def test_a_misnamed_entry_says_profiling_is_among_its_lost_settings_only_when_it_has_some():
    """NPP003 said "(profiling included)" for entries that carry no profiling setting (inception_score.py's
    "NpuOptimizer2" with only memory sizes)."""
    named = HEAD.replace('"NpuOptimizer"', '"NpuOptimizer2"')
    memory = 'op.parameter_map["graph_memory_max_size"].s = b"1000"\n'
    (plain,) = [f for f in analyse(named + memory + TAIL, None, "t.py") if f.code == "NPP003"]
    assert "none of its settings apply" in plain.message and "profiling" not in plain.message
    (profiled,) = [f for f in analyse(named + memory + OPTIONS + TAIL, None, "t.py") if f.code == "NPP003"]
    assert "none of its settings (profiling included) apply" in profiled.message
