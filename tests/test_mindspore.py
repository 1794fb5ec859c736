"""MindSpore's profiler setup (checks/mindspore.py): codes, positions, exact messages, values followed through
the resolver, where it stays quiet, the prefilter's words, and the front-ends. What MindSpore does is held to
the oracle's record in tests/test_mindspore_oracle.py."""

import json

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.checks.mindspore import options_findings
from flake8_npuprof.cli import main
from flake8_npuprof.source import prefilter
from flake8_npuprof.source.prefilter import might_configure_profiling

HEAD = ("import mindspore\nfrom mindspore.profiler import AicoreMetrics, ExportType, ProfilerActivity, "
        "ProfilerLevel, _ExperimentalConfig, schedule\n")


def found(text):
    return [(f.line, f.col, f.code, f.message) for f in analyse(text, None, "t.py", Settings())]


def codes(text):
    return [(line, col, code) for line, col, code, _ in found(text)]


def test_a_string_level_is_reset_unlike_torch_npu():
    (line, col, code, message), = found(HEAD + 'p = mindspore.Profiler(profiler_level="Level1")\n')
    assert (line, col, code) == (3, 38, "NPP350")
    assert message == ("profiler_level='Level1' is a string, not a ProfilerLevel member (unlike torch_npu, where the "
                       "string works): MindSpore resets it to Level0 with a warning in its log; write "
                       "ProfilerLevel.Level1")


def test_the_level_fix_spells_the_member_through_the_files_imports(tmp_path):
    text = ("import mindspore\nimport mindspore.profiler as mp\n"
            "a = mindspore.Profiler(profiler_level='level1', aic_metrics='PipeUtilization')\n")
    path = tmp_path / "t.py"
    path.write_text(text, encoding="utf-8")
    assert main(["fix", "--no-cache", str(path)]) == 1                     # unsafe: not applied by default
    assert path.read_text(encoding="utf-8") == text
    main(["fix", "--no-cache", "--unsafe-fixes", str(path)])
    assert path.read_text(encoding="utf-8") == text.replace("'level1'", "mp.ProfilerLevel.Level1")
    # without an import of mindspore.profiler or mindspore, there is nothing to spell it with: no fix
    (finding,) = analyse("from mindspore import Profiler\np = Profiler(profiler_level='Level2')\n", None, "t.py")
    assert finding.fix is None


def test_values_are_followed_through_names_and_argparse_defaults():
    text = HEAD + ("import argparse\np = argparse.ArgumentParser()\np.add_argument('--metric', default='Memory')\n"
                   "args = p.parse_args()\nLEVEL = ProfilerLevel.Level1\n"
                   "prof = mindspore.profiler.Profiler(profiler_level=LEVEL, aic_metrics=args.metric)\n")
    (line, col, code, message), = found(text)
    assert (line, col, code) == (8, 69, "NPP350")
    assert message.startswith("aic_metrics='Memory' is a string, not an AicoreMetrics member: MindSpore resets it "
                              "to AiCoreNone with a warning in its log; write AicoreMetrics.Memory (")
    assert "--metric" in message


def test_enum_members_through_module_aliases_are_accepted():
    text = ("import mindspore.profiler as mp\nfrom mindspore import Profiler\n"
            "p = Profiler(profiler_level=mp.ProfilerLevel.Level2, aic_metrics=mp.AicoreMetrics.MemoryUB,\n"
            "             activities=[mp.ProfilerActivity.CPU], export_type=mp.ExportType.Db, with_stack=True,\n"
            "             record_shapes=True, output_path='./p', schedule=mp.schedule(wait=0, active=2))\n")
    assert found(text) == []


def test_the_combinations_mindspore_overrides():
    text = HEAD + ("a = mindspore.Profiler(profiler_level=ProfilerLevel.Level0, aic_metrics=AicoreMetrics.L2Cache)\n"
                   "b = _ExperimentalConfig(profiler_level=ProfilerLevel.Level1,\n"
                   "                        aic_metrics=AicoreMetrics.AiCoreNone)\n"
                   "c = mindspore.Profiler(profiler_level=ProfilerLevel.LevelNone, mstx=True)\n"
                   "d = mindspore.Profiler(schedule=schedule(wait=1, active=1), data_process=True)\n")
    got = found(text)
    assert [(line, col, code) for line, col, code, _ in got] == [(3, 72, "NPP351"), (5, 36, "NPP351"),
                                                                 (7, 73, "NPP351")]
    assert got[0][3].startswith("aic_metrics L2Cache with profiler_level Level0: MindSpore resets it to AiCoreNone "
                                "with a UserWarning;")
    assert got[1][3].startswith("aic_metrics AiCoreNone with profiler_level Level1: MindSpore collects "
                                "PipeUtilization instead, with a UserWarning")
    assert got[2][3].startswith("data_process=True with a schedule: MindSpore sets it to False")


def test_a_level1_without_a_metric_is_not_a_finding():
    # MindSpore warns (PipeUtilization is forced), but that is the documented default of Level1
    assert found(HEAD + "p = mindspore.Profiler(profiler_level=ProfilerLevel.Level1)\n") == []


def test_unknown_keywords_profiler_ignores_and_config_rejects():
    text = HEAD + ("p = mindspore.Profiler(aicore_metrics=AicoreMetrics.Memory, op_time=True, foo=1,\n"
                   "                       experimental_config=_ExperimentalConfig(mstx=True))\n"
                   "c = _ExperimentalConfig(aicore_metrics=AicoreMetrics.Memory)\n")
    got = found(text)
    assert [(line, col, code) for line, col, code, _ in got] == [(3, 23, "NPP352"), (3, 60, "NPP354"),
                                                                 (3, 74, "NPP352"), (5, 24, "NPP353")]
    assert got[0][3] == ("Profiler has no keyword aicore_metrics: MindSpore 2.7-2.10 ignores it silently (nothing "
                         "is collected differently and nothing says so); did you mean aic_metrics=?")
    assert got[1][3] == ("Profiler's keyword op_time is deprecated: MindSpore 2.7-2.10 ignores it, with a UserWarning; "
                         "use activities=[ProfilerActivity.NPU]")
    assert got[3][3].startswith("_ExperimentalConfig has no keyword aicore_metrics: MindSpore raises TypeError")


def test_a_profiler_module_mindspore_no_longer_has():
    # mindspore-ai/models' YOLOv4, YOLOX, VIT, CycleGAN ... (MindSpore 1.x-2.2): no file under mindspore/profiler/
    # of the 2.7-2.10 wheels is profiling.py, so the import stops the job; their Profiler(is_detail=True) is never
    # reached, and is not judged
    text = ("import os\nfrom mindspore.profiler.profiling import Profiler\n"
            "profiler = Profiler(output_path='./prof', is_detail=True, is_show_op_path=True)\n")
    assert found(text) == [(2, 5, "NPP364", "mindspore.profiler.profiling is not a module of MindSpore 2.7-2.10: "
                                            "the import raises ModuleNotFoundError and the job stops; import "
                                            "Profiler from mindspore.profiler, which exports it")]
    assert codes("import mindspore.profiler.profiling as prof\nif x:\n    import mindspore.profiler.parser.integrator\n"
                 ) == [(1, 7, "NPP364"), (3, 11, "NPP364")]
    # a module the four wheels have, a guarded import, another package's `profiling` module: quiet
    assert found("from mindspore.profiler import Profiler\nfrom mindspore.profiler.common.constant import "
                 "ProfilerLevel\nimport mindspore.profiler.schedule\nimport mindspore.profiling\n") == []
    assert found("try:\n    from mindspore.profiler.profiling import Profiler\nexcept ImportError:\n"
                 "    from mindspore.profiler import Profiler\n") == []
    # an import a release test picks (MindFormers' ProfileMonitor chooses its profiler by `ms.__version__`)
    assert found("import mindspore as ms\nif is_version_ge(ms.__version__, '2.3.0'):\n    from mindspore.profiler "
                 "import Profiler\nelse:\n    from mindspore.profiler.profiling import Profiler\n") == []
    assert found("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import mindspore.profiler.profiling\n") == []


def test_deprecated_keywords_the_record_lacks_are_known_and_quiet():
    # ProfilerParameters warns that they are deprecated: not "silently", and the record has no case of them
    assert found(HEAD + "p = mindspore.Profiler(profile_framework='all', host_stack=True)\n") == []


def test_profile_keywords_are_not_judged_as_profiler_kwargs():
    # profile() has an explicit signature: the record holds no case of an unknown keyword there
    assert found(HEAD + "p = mindspore.profiler.profile(aicore_metrics=1, with_stack=True)\n") == []
    # profiler_level is _ExperimentalConfig's, not profile()'s: a TypeError, not a reset
    assert found(HEAD + "p = mindspore.profiler.profile(profiler_level='Level1', with_stack=1)\n") == []
    assert codes(HEAD + "p = mindspore.profiler.profile(with_stack='yes')\n") == [(3, 42, "NPP350")]


def test_schedule():
    text = HEAD + ("a = schedule(1, 2)\nb = schedule(active=1)\nc = schedule(wait=None, active=True)\n"
                   "d = schedule(wait=1, active=1, warmup=0, repeat=0, skip_first=2)\n")
    got = found(text)
    assert [(line, col, code) for line, col, code, _ in got] == [(3, 13, "NPP353"), (4, 4, "NPP353"),
                                                                 (5, 18, "NPP350"), (5, 31, "NPP350")]
    assert got[0][3].startswith("schedule() given a positional argument: MindSpore raises TypeError (its arguments "
                                "are keyword-only)")
    assert got[1][3].startswith("schedule() without wait: MindSpore raises TypeError")
    assert got[2][3].startswith("wait=None is not an int: MindSpore resets it to 0 with a warning in its log")
    assert got[3][3].startswith("active=True is not an int: MindSpore resets it to 1")


def test_torch_npu_and_other_profilers_are_not_judged_here():
    text = ("import torch_npu\nfrom torch_npu.profiler import schedule\ns = schedule(1, 1, 3)\n"
            "import mindspore\nx = mindspore.ops.Profiler(level=1)\n")
    assert [c for c in codes(text) if c[2].startswith("NPP35")] == []


def test_quiet_where_an_experimental_config_or_kwargs_decide():
    text = HEAD + ("cfg = _ExperimentalConfig(profiler_level=ProfilerLevel.Level1)\n"
                   "a = mindspore.Profiler(profiler_level='Level1', aic_metrics=AicoreMetrics.Memory, "
                   "experimental_config=cfg)\n"
                   "def make(**kw):\n    return mindspore.Profiler(aic_metrics=AicoreMetrics.Memory, **kw)\n")
    assert found(text) == []


def test_unknown_values_stay_quiet():
    text = HEAD + ("def build(level, **kw):\n    return mindspore.Profiler(profiler_level=level, **kw)\n"
                   "p = mindspore.Profiler(profiler_level=None, activities=[])\n")
    assert found(text) == []


def test_ms_profiler_options():
    assert list(options_findings('{"start": true, "profiler_level": "Level1", "aic_metrics": "None"}')) == []
    assert list(options_findings('["start"]')) == []            # MindSpore raises AttributeError: not modelled
    (words,) = options_findings('{"start": true, "aic_metrics": "ACL_AICORE_PIPE_UTILIZATION"}')
    assert words.message.startswith("MS_PROFILER_OPTIONS's aic_metrics 'ACL_AICORE_PIPE_UTILIZATION' is not an "
                              "AicoreMetrics value: MindSpore resets aic_metrics to AiCoreNone with a warning in its "
                              "log")
    (words,) = options_findings('{"start": false}')
    assert words.message.startswith('MS_PROFILER_OPTIONS has "start": false: MindSpore does not profile')
    text = ("import os, json\nos.environ['MS_PROFILER_OPTIONS'] = json.dumps({'profiler_level': 'Level1'})\n"
            "OPTS = '{\"start\": true, \"export_type\": [\"Db\"]}'\nos.putenv('MS_PROFILER_OPTIONS', OPTS)\n")
    got = found(text)
    assert [(line, col, code) for line, col, code, _ in got] == [(2, 36, "NPP355"), (4, 33, "NPP355")]
    assert got[1][3].startswith("MS_PROFILER_OPTIONS's export_type 'Db' is not an ExportType value: MindSpore "
                                "resets export_type to [text] with a warning in its log; did you mean 'db'?")
    # where the default it is reset to is what the member's name meant, nothing changes: no finding
    assert list(options_findings('{"start": true, "export_type": ["Text"], "aic_metrics": "AiCoreNone"}')) == []


PREFILTER_PASS = ["import mindspore\nprof = mindspore.Profiler()\n",
                  "from mindspore.profiler import _ExperimentalConfig\n",
                  "import os\nos.environ['MS_PROFILER_OPTIONS'] = '{}'\n"]
PREFILTER_QUIET = ["import mindspore\nnet = mindspore.nn.Dense(2, 2)\n",            # no profiler
                   "import mindspore\n# mindspore.Profiler(...) off for now\n",
                   "import cProfile\ncProfile.run('main()')\n",                     # a profiler, not MindSpore's
                   "# MS_PROFILER_OPTIONS is documented elsewhere\nx = 1\n"]


def test_prefilter_words():
    for text in PREFILTER_PASS:
        assert might_configure_profiling(text), text
    for text in PREFILTER_QUIET:
        assert not might_configure_profiling(text), text


def test_a_file_without_markers_costs_the_same_scans(monkeypatch):
    """Stage one is still four substring scans: "PROF" replaced "PROFILING" (it covers MS_PROFILER_OPTIONS and
    torch_npu's PROF_CONFIG_PATH)."""
    seen = []

    class Text(str):
        def __contains__(self, part):
            seen.append(part)
            return str.__contains__(self, part)
    assert not prefilter.might_configure_profiling(Text("import numpy\nx = numpy.zeros(3)\n"))
    assert seen == ["rofil", "PROF", "custom_optimizers", "msprof"]


def test_front_ends(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.py").write_text(HEAD + "s = schedule(1, 2)\n", encoding="utf-8")
    assert main(["check", "--no-cache", "--format", "sarif", "t.py"]) == 1
    result, = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert result["ruleId"] == "NPP353" and result["level"] == "error"
    assert main(["explain", "NPP350"]) == 0
    page = capsys.readouterr().out
    assert "# NPP350 mindspore-value-reset" in page and "2.7 to 2.10" in page


def test_ms_profiler_options_in_a_launcher(tmp_path, capsys):
    from flake8_npuprof.checks.shell_env import analyse_shell
    text = ("#!/bin/bash\nexport MS_PROFILER_OPTIONS='{\"profiler_level\": \"Level1\"}'\n"
            "MS_PROFILER_OPTIONS='{\"start\": true, \"activities\": [\"npu\"]}' python train.py\n"
            "export MS_PROFILER_OPTIONS=\"{\\\"start\\\": true, \\\"output_path\\\": \\\"${OUT}\\\"}\"\n"
            "export MS_PROFILER_OPTIONS='{\"start\": true, \"profiler_level\": \"Level1\"}'\n")
    got = [(f.line, f.col, f.code, f.message) for f in analyse_shell(text, "run.sh")]
    assert [g[:3] for g in got] == [(2, 27, "NPP355"), (3, 20, "NPP355")]
    assert got[0][3].startswith('MS_PROFILER_OPTIONS has no "start": true: MindSpore does not profile')
    assert got[1][3].startswith("MS_PROFILER_OPTIONS's activities 'npu' is not a ProfilerActivity value: MindSpore "
                                "resets activities to [CPU, NPU] with a warning in its log; did you mean 'NPU'?")


def test_quiet_where_the_reset_gives_what_was_meant():
    # MindSpore warns and resets, but to the value the script evidently meant: nothing changes
    text = HEAD + ("a = mindspore.Profiler(data_simplification=1, start_profile='True', l2_cache=0,\n"
                   "                       profiler_level='Level0', aic_metrics='AiCoreNone')\n")
    assert found(text) == []
    assert codes(HEAD + "a = mindspore.Profiler(data_simplification=0, l2_cache='True')\n") == [
        (3, 43, "NPP350"), (3, 55, "NPP350")]


def test_emulate_replays_a_mindspore_script(tmp_path, capsys):
    path = tmp_path / "train.py"
    path.write_text(HEAD + "prof = mindspore.Profiler(profiler_level=ProfilerLevel.Level1)\n", encoding="utf-8")
    main(["emulate", "--cwd", str(tmp_path), str(path)])
    out = capsys.readouterr().out
    assert "no profiling setup found" not in out
    assert "usable data: yes" in out.splitlines()     # tests/test_framework_emulate.py has the whole report
