"""NPP356 on MindSpore's dynamic-profiling profiler_config.json: positions and messages, the schema it is judged by
(schemas/profiler_config.mindspore.schema.json, through the schema engine, held to jsonschema here), and whose file a
profiler_config.json is (checks/dynamic_files.py): by the scripts beside it or pointing at it in `npuprof check`,
by `--framework` in `npuprof validate`, else by the keys only one framework reads, else only what both lose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from jsonschema import Draft202012Validator

from flake8_npuprof.checks.dynamic_files import check_text as check_either, framework_of, script_frameworks
from flake8_npuprof.checks.mindspore_dynamic_json import RULES, check_text, monitor_folders, problems
from flake8_npuprof.cli import main
from flake8_npuprof.knowledge import mindspore_dynamic as K
from flake8_npuprof.knowledge.targets import Target

ROOT = Path(__file__).resolve().parent.parent
EVAL = Path(__file__).resolve().parent / "eval_files" / "mindspore_dynamic"
MS = "MindSpore 2.7-2.10"
NEVER = ", which its documentation says never starts a collection"
LOG = "with a warning in its log"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_page_example():
    found = [(f.line, f.col + 1, f.end_col + 1, f.message) for f in check_text(RULES[0].example)]
    assert found == [
        (2, 17, 20, f'start_step "5" is not an integer: {MS} resets it to -1 {LOG} ("\'start_step\' should be int, '
                    f"but got str. will be reset to default value: '-1'.\"){NEVER}; write an integer"),
        (4, 21, 29, f'profiler_level "level1" is not one of LevelNone/Level0/Level1/Level2: {MS} resets it to Level0 '
                    f'{LOG} ("\'level1\' is not a valid profiler_level, will be reset to will be reset to default: '
                    "'Level0'.\"); did you mean \"Level1\"?"),
        (7, 18, 22, f'export_type "db" is not a list: {MS} resets it to [text] {LOG} ("\'export_type\' should be a '
                    "list or a non-bool integer, but got str. Will be reset to default value: '[ExportType.Text]'.\"); "
                    'write a list: ["text"]'),
        (8, 17, 23, f'with_stack "true" is not true or false: {MS} resets it to false {LOG} ("\'with_stack\' should '
                    "be bool, but got str. will be reset to default value: 'False'.\"); write true or false"),
    ]
    assert check_text(RULES[0].fixed) == []


@pytest.mark.parametrize("text,message", [
    ('{"stop_step": 8}', f"start_step is missing: {MS} takes -1 without a word{NEVER}; give the step to start at (the "
                         "first step is 1)"),
    ('{"start_step": 2, "stop_step": 8, "activities": ["cpu"]}',
     f'activities entry "cpu" is not one of CPU/NPU/GPU: {MS} resets the whole list to [CPU, NPU] {LOG} ("\'cpu\' is '
     "not a valid ProfilerActivity member. will be reset to default: '[<ProfilerActivity.CPU: 'CPU'>, "
     "<ProfilerActivity.NPU: 'NPU'>]'.\"); did you mean \"CPU\"?"),
    ('{"start_step": 2, "stop_step": 8, "aic_metrics": "ACL_AICORE_PIPE_UTILIZATION"}',
     f'aic_metrics "ACL_AICORE_PIPE_UTILIZATION" is not one of AiCoreNone/None/ArithmeticUtilization/PipeUtilization/'
     f"Memory/MemoryL0/ResourceConflictRatio/MemoryUB/L2Cache/MemoryAccess: {MS} resets it to AiCoreNone {LOG} "
     "(\"'ACL_AICORE_PIPE_UTILIZATION' is not a valid aic_metrics, will be reset to will be reset to default: "
     "'AiCoreNone'.\")"),
    ('{"start_step": 2, "stop_step": "9"}',
     f'stop_step "9" is not an integer: {MS} resets it to -1 {LOG} ("\'stop_step\' should be '
     f"int, but got str. will be reset to default value: '-1'.\"){NEVER}; write an integer"),
    ('{"stop_step": 9, "start_step": 5.0}',
     f"start_step 5.0 is not an integer: {MS} resets it to -1 {LOG} (\"'start_step' should be int, but got float. "
     f"will be reset to default value: '-1'.\"){NEVER}; write an integer"),
    ('{"start_step": 2, "stop_step": 9, "warmup": 1}', f'unknown key "warmup": {MS} ignores it without a word'),
    ('{"start_step": 2, "stop_step": 9, "prof_pth": "./p"}',
     f'unknown key "prof_pth": {MS} ignores it without a word; did you mean "prof_path"?'),
])
def test_messages(text, message):
    assert [f.message for f in check_text(text)] == [message]


@pytest.mark.parametrize("text", [
    '{"start_step": 0, "stop_step": 0}',                    # kept as written (what 0 does at run time: not recorded)
    # the int forms
    '{"start_step": 2, "stop_step": 5, "profiler_level": 1, "aic_metrics": 3, "activities": 2, "export_type": 1}',
    '{"start_step": 2, "stop_step": 5, "aic_metrics": "None", "host_sys": ["cpu", "mem"], '
    '"export_type": ["text", "db"]}',
    # not checked by MindSpore: no claim
    '{"start_step": 2, "stop_step": 5, "l2_cache": "yes", "analyse": 1, "prof_path": 3}',
    '{"start_step": 2, "stop_step": 5, "is_valid": true}',                   # what the monitor writes back
    '[1, 2]', '{"stop_step": ', "",
])
def test_accepted_or_not_judged(text):
    assert check_text(text) == []


# ---------------------------------------------------------------- the schema

SCHEMA = K.schema()
VALUES = st.one_of(st.sampled_from(["CPU", "cpu", "Level1", "level1", "text", "Text", "db", "None", "AiCoreNone",
                                    "PipeUtilization", "mem", "5", "true", ""]),
                   st.integers(-2, 8), st.booleans(), st.none(),
                   st.floats(allow_nan=False, allow_infinity=False, width=32),
                   st.lists(st.sampled_from(["CPU", "NPU", "cpu", "text", "db", "mem", 1, True]), max_size=3),
                   st.dictionaries(st.sampled_from(["a"]), st.integers(), max_size=1))
KEYS = st.sampled_from(sorted(SCHEMA["properties"]) + ["foo", "prof_dir"])


def test_the_schema_is_valid_and_the_engine_reads_every_keyword_of_it():
    Draft202012Validator.check_schema(SCHEMA)
    assert K.validator().is_valid({"start_step": 5, "stop_step": 8, "activities": ["CPU", "NPU"]})
    assert not K.validator().is_valid({"stop_step": 8})


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=4))
def test_the_schema_engine_gives_jsonschemas_errors(obj):
    ours = [tuple(e) for e in K.validator().iter_errors(obj)]
    ref = [(e.validator, e.validator_value, tuple(e.absolute_path), tuple(e.schema_path))
           for e in Draft202012Validator(SCHEMA).iter_errors(obj)]
    assert ours == ref


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(KEYS, VALUES, max_size=4))
def test_npp356_reports_exactly_the_keys_the_schema_rejects(obj):
    """The schema and the rule say the same, but for a whole number with a fraction (5.0): an integer to JSON
    Schema, a float that MindSpore resets."""
    text = json.dumps(obj)
    reported = {p.key for p in problems(text)}
    errors = list(Draft202012Validator(SCHEMA).iter_errors(obj))
    rejected = {e.absolute_path[0] for e in errors if e.absolute_path}
    if any(e.validator == "required" for e in errors):
        rejected |= {k for k in SCHEMA["required"] if k not in obj}
    if any(e.validator == "additionalProperties" for e in errors):
        rejected |= {k for k in obj if k not in SCHEMA["properties"]}

    def whole_float(v):
        vs = v if isinstance(v, list) else [v]
        return any(isinstance(x, float) and x.is_integer() for x in vs)
    assert reported - rejected == {k for k in reported - rejected if whole_float(obj[k])}
    assert rejected <= reported


# ---------------------------------------------------------------- whose file it is

@pytest.mark.parametrize("text,framework", [
    ('{"start_step": 5, "stop_step": 8}', "mindspore"),
    ('{"start_step": 5, "prof_path": "./p", "activities": ["CPU"]}', "mindspore"),
    ('{"start_step": 5, "prof_dir": "./p"}', "torch_npu"),
    ('{"start_step": 5, "experimental_config": {"profiler_level": "Level1"}}', "torch_npu"),
    ('{"start_step": 5, "activities": ["CPU"], "with_stack": true}', None),      # keys both read
    ('{"start_step": 5, "stop_step": 8, "warmup": 1}', None),                     # keys of both
    ('{"foo": 1}', None), ("[]", None),
])
def test_framework_by_keys(text, framework):
    assert framework_of(text) == framework


def test_the_deciding_keys_are_what_each_framework_reads_and_the_other_does_not():
    from flake8_npuprof.knowledge import torch_npu_dynamic
    ms_own, torch_own = K.deciding_keys()["mindspore"], K.deciding_keys()["torch_npu"]
    assert ms_own == K.keys() - set(torch_npu_dynamic.data()["keys"]) - {"is_valid"}
    assert torch_own == set(torch_npu_dynamic.data()["keys"]) - K.keys()
    assert {"stop_step", "prof_path", "profiler_level", "aic_metrics", "export_type"} <= ms_own
    assert {"prof_dir", "warmup", "active", "experimental_config", "is_rank", "rank_list"} <= torch_own
    page = RULES[0].options
    assert all(f"`{k}`" in page for k in ms_own | torch_own)


def test_an_undecided_file_gets_only_what_both_frameworks_lose():
    text = '{"start_step": "10", "activities": ["cpu"], "with_stack": "true", "foo": 1}'
    got = [(f.code, f.col + 1) for f in check_either(text, Target.parse())]
    # start_step "10": both reset it; "cpu": torch_npu takes any case, MindSpore resets; with_stack "true": torch_npu
    # does not check it; foo: both ignore it; stop_step missing: torch_npu has no stop_step
    assert got == [("NPP311", 16), ("NPP356", 16), ("NPP311", 67), ("NPP356", 67)]
    assert [f.code for f in check_either(text, Target.parse(), "mindspore")] == ["NPP356"] * 5
    # a missing start_step: both never start (torch_npu takes 0, MindSpore -1), each said at the object
    got = [(f.code, f.message.split(":")[0]) for f in check_either('{"activities": ["CPU"]}', Target.parse())]
    assert got == [("NPP311", "start_step is missing"), ("NPP356", "start_step is missing")]
    assert {f.code for f in check_either(text, Target.parse(), "torch_npu")} == {"NPP311"}


def test_both_frameworks_agree_on_a_key_by_the_key_not_by_how_it_is_shown():
    # a tab in a key is shown escaped ("\\tfoo"): matching the two frameworks' findings by their text lost it
    text = '{"start_step": 1, "\\tfoo": 1}'
    got = [(f.code, f.col + 1, f.message) for f in check_either(text, Target.parse())]
    assert got == [("NPP311", 19, 'unknown key "\\tfoo": torch_npu ignores it without a word'),
                   ("NPP356", 19, 'unknown key "\\tfoo": MindSpore 2.7-2.10 ignores it without a word')]


@pytest.mark.parametrize("script,frameworks,folders", [
    ("from mindspore.profiler import DynamicProfilerMonitor\ncb = DynamicProfilerMonitor(cfg_path='./cfg')\n",
     {"mindspore"}, ["./cfg"]),
    ("import mindspore as ms\ncb = ms.profiler.DynamicProfilerMonitor('./cfg', output_path='./out')\n",
     {"mindspore"}, ["./cfg"]),
    ("from mindspore.profiler import DynamicProfilerMonitor as DPM\ncb = DPM(cfg_path=args.cfg)\n", {"mindspore"}, []),
    ("from torch_npu.profiler import dynamic_profile as dp\ndp.init('./cfg')\n", {"torch_npu"}, []),
    ("import mindspore\nx = DynamicProfilerMonitor(cfg_path='./cfg')\n", set(), []),   # not the monitor imported
])
def test_what_a_script_says(script, frameworks, folders):
    assert script_frameworks(script) == frameworks
    assert monitor_folders(script) == folders


BAD_FOR_BOTH = '{\n  "start_step": "5",\n  "activities": ["cpu"]\n}\n'


def _tree(tmp_path, script, where="."):
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "profiler_config.json").write_text(BAD_FOR_BOTH, encoding="utf-8")
    (tmp_path / where / "train.py").write_text(script, encoding="utf-8")


@pytest.mark.parametrize("script,where,codes", [
    ("from mindspore.profiler import DynamicProfilerMonitor\ncb = DynamicProfilerMonitor(cfg_path='./cfg')\n",
     ".", ["NPP356", "NPP356", "NPP356"]),
    ("from mindspore.profiler import DynamicProfilerMonitor\ncb = DynamicProfilerMonitor(cfg_path=CFG)\n",
     "cfg", ["NPP356", "NPP356", "NPP356"]),                        # beside it (stop_step missing: MindSpore's)
    ("from torch_npu.profiler import dynamic_profile\ndynamic_profile.init('./cfg')\n", ".", ["NPP311"]),
    ("print('no profiling')\n", ".", ["NPP311", "NPP356"]),         # nobody says: what both lose
])
def test_check_takes_the_scripts_word(tmp_path, capsys, monkeypatch, script, where, codes):
    _tree(tmp_path, script, where)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "check", "--no-cache", "-q", ".")
    got = [line.split(": ")[1].split()[0] for line in out.splitlines() if "profiler_config.json" in line]
    assert code == 1 and got == codes, out


def test_the_scripts_word_is_part_of_the_cache_key(tmp_path, capsys, monkeypatch):
    _tree(tmp_path, "print('no profiling')\n")
    monkeypatch.chdir(tmp_path)
    assert "NPP311" in run(capsys, "check", "-q", ".")[1]
    (tmp_path / "train.py").write_text("from mindspore.profiler import DynamicProfilerMonitor\n"
                                       "cb = DynamicProfilerMonitor(cfg_path='./cfg')\n", encoding="utf-8")
    assert "NPP311" not in run(capsys, "check", "-q", ".")[1]


@pytest.mark.parametrize("framework,codes", [("mindspore", ["NPP356"] * 3), ("torch_npu", ["NPP311"]),
                                             (None, ["NPP311", "NPP356"])])
def test_validate_framework(tmp_path, capsys, framework, codes):
    path = tmp_path / "dyn.json"
    path.write_text(BAD_FOR_BOTH, encoding="utf-8")
    argv = ["validate", "--file", str(path)] + (["--framework", framework] if framework else [])
    code, out, _ = run(capsys, *argv)
    assert code == 1 and [line.split(": ")[1].split()[0] for line in out.splitlines()] == codes
    assert any(line.startswith(f"{path}:2:17: ") for line in out.splitlines())


def test_validate_knows_a_mindspore_file_by_its_keys(tmp_path, capsys):
    path = tmp_path / "ms.json"
    path.write_text('{"start_step": 2, "stop_step": 5, "profiler_level": "level1"}', encoding="utf-8")
    code, out, _ = run(capsys, "validate", "--file", str(path))
    assert code == 1 and out.startswith(f"{path}:1:53: NPP356 profiler_level \"level1\" is not one of")
    options = tmp_path / "options.json"
    options.write_text('{"aic_metrics": "PipeUtilization"}', encoding="utf-8")      # profiling_options, not this file
    assert not K.is_dynamic_config(str(options), options.read_text())


# ---------------------------------------------------------------- the eval tree

def _expected():
    """`# expect: <file>:<line>:<col> <code>` lines of the eval tree's README."""
    out = []
    for line in (EVAL / "EXPECT").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            out.append(line.strip())
    return out


def test_eval_tree(capsys, monkeypatch):
    """tests/eval_files/mindspore_dynamic: a MindSpore script with its cfg folder, and a torch_npu one with its own:
    `npuprof check` on the tree reports what EXPECT lists, each file judged as its script's framework reads it."""
    monkeypatch.chdir(EVAL)
    code, out, _ = run(capsys, "check", "--no-cache", "-q", ".")
    got = [f"{line.split()[0].rstrip(':')} {line.split()[1]}" for line in out.splitlines()]
    assert code == 1 and got == _expected(), out


# ---------------------------------------------------------------- emulate

def test_emulate_checks_the_monitors_file_as_it_is(tmp_path, capsys):
    path = tmp_path / "train.py"
    path.write_text("from mindspore.profiler import DynamicProfilerMonitor\n\n"
                    "dp = DynamicProfilerMonitor(cfg_path=\"./cfg\", output_path=\"./out\")\n"
                    "for step in range(20):\n    dp.step()\n", encoding="utf-8")
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "profiler_config.json").write_text('{"start_step": 2, "stop_step": 5, "record_shape": true}')
    code = main(["emulate", "--cwd", str(tmp_path), str(path)])
    out = capsys.readouterr().out.splitlines()
    config = f"{tmp_path}/cfg/profiler_config.json"
    assert code == 1
    assert out[1:] == [
        f"train.py:3 DynamicProfilerMonitor: UNKNOWN: dynamic profiling: what is collected, and when, is read at run "
        f"time from {config}",
        f"usable data: unknown (line 3: dynamic profiling: what is collected, and when, is read at run time from "
        f"{config})",
        "train.py:3 DynamicProfilerMonitor: unknown",
        f"  {config} as it is now: 1 problem(s), below",
        f'  ! NPP356 profiler_config.json:1:35 unknown key "record_shape": {MS} ignores it without a word; did you '
        'mean "record_shapes"?']
