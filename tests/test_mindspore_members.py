"""NPP365 (checks/mindspore_members.py): a member MindSpore's profiler enums lack, an AttributeError that stops the
job; what emulate says of such a script. The members are data/mindspore.json's (2.7.0-2.10.0 wheels'
mindspore/profiler/common/constant.py, Enum classes: each name here raised AttributeError when that file ran)."""

from flake8_npuprof.checks.analysis import Settings, analyse
from flake8_npuprof.cli import main

HEAD = ("import mindspore\nfrom mindspore.profiler import AicoreMetrics, ExportType, ProfilerActivity, "
        "ProfilerLevel, _ExperimentalConfig, schedule\n")


def found(text):
    return [(f.line, f.col, f.code, f.message) for f in analyse(text, None, "t.py", Settings())]


def test_a_level_mindspore_lacks_stops_the_job():
    assert found(HEAD + "p = mindspore.Profiler(profiler_level=ProfilerLevel.Level3)\n") == [
        (3, 52, "NPP365", "mindspore.profiler's ProfilerLevel has no member Level3: MindSpore (2.7-2.10) raises "
                          "AttributeError where ProfilerLevel.Level3 is evaluated, and the job stops; did you mean "
                          "ProfilerLevel.Level2?")]


def test_torch_npus_spellings_are_not_mindspores():
    # torch_npu's ProfilerLevel.Level_none and AiCMetrics' British spelling: MindSpore's are LevelNone, PipeUtilization
    text = HEAD + ("p = mindspore.Profiler(profiler_level=ProfilerLevel.Level_none,\n"
                   "                       aic_metrics=AicoreMetrics.PipeUtilisation,\n"
                   "                       activities=[ProfilerActivity.Ascend], export_type=[ExportType.DB])\n")
    said = [(line, col, message.split(":")[0], message.rsplit("; ", 1)[1]) for line, col, _, message in found(text)]
    assert said == [
        (3, 52, "mindspore.profiler's ProfilerLevel has no member Level_none", "did you mean ProfilerLevel.LevelNone?"),
        (4, 49, "mindspore.profiler's AicoreMetrics has no member PipeUtilisation",
         "did you mean AicoreMetrics.PipeUtilization?"),
        (5, 52, "mindspore.profiler's ProfilerActivity has no member Ascend", "ProfilerActivity has CPU, NPU, GPU"),
        (5, 85, "mindspore.profiler's ExportType has no member DB", "did you mean ExportType.Db?")]


def test_every_way_to_reach_the_enum_is_read():
    text = ("import mindspore as ms\nimport mindspore.profiler as mp\n"
            "from mindspore.profiler.common.constant import HostSystem\n"
            "a = ms.profiler.ProfilerLevel.Level9\nb = mp.AicoreMetrics.L2\nc = HostSystem.cpu\n")
    assert [(line, col, code) for line, col, code, _ in found(text)] == [
        (4, 30, "NPP365"), (5, 21, "NPP365"), (6, 15, "NPP365")]


def test_members_enum_attributes_and_guarded_names_are_not_reported():
    text = HEAD + ("a = ProfilerLevel.Level1\nb = ProfilerLevel.Level1.value\nc = ProfilerLevel.__members__\n"
                   "d = ProfilerLevel.mro()\ne = AicoreMetrics.AiCoreNone.name\n"
                   "if hasattr(ProfilerLevel, 'Level3'):\n    f = ProfilerLevel.Level3\n"
                   "try:\n    g = AicoreMetrics.PipeUtilisation\nexcept AttributeError:\n    g = None\n"
                   "h = getattr(ExportType, 'Json', None)\n")
    assert found(text) == []
    # another module's class of the same name is not mindspore's
    assert found("import mindspore\nfrom torch_npu.profiler import ProfilerLevel\nx = ProfilerLevel.Level_none\n") \
        == []


def _emulate(capsys, *args):
    code = main(["emulate", *map(str, args)])
    return code, capsys.readouterr().out.splitlines()


def test_emulate_says_such_a_profiler_fails(tmp_path, capsys):
    # it said "COLLECTS from its construction until stop()/analyse()" and "usable data: yes"
    path = tmp_path / "train.py"
    path.write_text(HEAD + "p = mindspore.Profiler(output_path='./prof', profiler_level=ProfilerLevel.Level3)\n",
                    encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    why = ("mindspore.profiler's ProfilerLevel has no member Level3: MindSpore (2.7-2.10) raises AttributeError where "
           "ProfilerLevel.Level3 is evaluated, and the job stops; did you mean ProfilerLevel.Level2?")
    assert code == 1 and out[1:3] == [f"train.py:3 Profiler: FAILS: {why}", f"usable data: no (line 3: {why})"]


def test_emulate_leaves_a_member_named_elsewhere_unknown(tmp_path, capsys):
    path = tmp_path / "train.py"
    path.write_text(HEAD + "LEVEL = ProfilerLevel.Level_1\np = mindspore.Profiler(output_path='./prof')\n",
                    encoding="utf-8")
    code, out = _emulate(capsys, "--cwd", tmp_path, path)
    assert code == 1 and out[2] == (
        "usable data: unknown (line 4: mindspore.profiler's ProfilerLevel has no member Level_1: MindSpore (2.7-2.10) "
        "raises AttributeError where ProfilerLevel.Level_1 is evaluated, and the job stops; did you mean "
        "ProfilerLevel.Level1? (line 3; whether it is evaluated before this profiler collects is not followed here))")
