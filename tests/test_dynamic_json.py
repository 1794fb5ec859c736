"""NPP311 on torch_npu's dynamic-profiling profiler_config.json: positions, messages per release, the front-ends
(`npuprof check` by file name and through a script's dynamic_profile.init, `npuprof validate --file`) and the
schemas/profiler_config.torch_npu-*.schema.json that state the same keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from flake8_npuprof.checks.dynamic_json import RULES, check_text, init_folders
from flake8_npuprof.cli import main
from flake8_npuprof.knowledge.targets import Target
from flake8_npuprof.knowledge.mindspore_dynamic import is_dynamic_config      # either framework's file

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = RULES[0].example
LOG = "says so only in its log under <dir>/log/"


def target(release="any"):
    return Target.parse("any", "any", release)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_page_example_under_any():
    found = [(f.line, f.col + 1, f.end_col + 1, f.message) for f in check_text(EXAMPLE, target())]
    assert found == [
        (8, 17, 21, f'start_step "10" is a string: torch_npu resets it to 0 and {LOG}, so no collection ever '
                    "starts; write a JSON integer: the step to start at"),
        (10, 16, 18, "is_rank is true and rank_list is empty: torch_npu 7.0+ collects on no rank and "
                     f'{LOG} ("Rank N not in valid rank_list"); torch_npu 6.0 does not read is_rank, so every '
                     "rank collects; list the ranks to collect, e.g. [0]"),
        (11, 104, 108, 'export_type "Db" is not "text" or "db": torch_npu resets it to text with a warning printed '
                       'on rank 0 only; write "text" or "db" (lower case)'),
    ]


@pytest.mark.parametrize("text,release,message", [
    ('{"start_step": 0}', "any", 'start_step 0 never starts a collection: torch_npu logs only "Start step will be '
                                 'set to 0." under <dir>/log/; give the step to start at'),
    ('{"active": 1}', "7.3", f"start_step is missing: torch_npu 7.3 takes 0 and {LOG}, so no collection ever starts; "
                             "give the step to start at (-1: the step after the file is saved, on 7.2+)"),
    ('{"start_step": 5, "activities": "CPU,NPU"}', "any",
     'activities "CPU,NPU" is a string: torch_npu reads only a list and ignores it without a word, so its activity '
     'list stays empty; write a list: ["CPU", "NPU"]'),
    ('{"start_step": 5, "activities": ["NPU", "GPU"]}', "portable",
     f'activities entry "GPU" is not "CPU" or "NPU": torch_npu 7.0+ drops it and {LOG} ("Set activity failed, '
     'activity must be CPU OR NPU!"); torch_npu 6.0 drops it without a word'),
    ('{"start_step": 5, "prof_dri": "./p"}', "any",
     'unknown key "prof_dri": torch_npu ignores it without a word; did you mean "prof_dir"?'),
    ('{"start_step": 5, "is_rank": true}', "7.0",
     f'is_rank is true and rank_list is missing: torch_npu 7.0 collects on no rank and {LOG} ("Rank N not in valid '
     'rank_list"); list the ranks to collect, e.g. [0]'),
    ('{"start_step": 5, "active": 0}', "26.1",
     f"active 0 is not an integer of at least 1: torch_npu 26.1 resets it to 1 and {LOG}"),
    ('{"start_step": 5, "experimental_config": {"profiler_level": "level1"}}', "7.2",
     'profiler_level "level1" is not one of Level0/Level1/Level2/Level_none: torch_npu 7.2 resets it to Level0 '
     'with a warning printed on rank 0 only; did you mean "Level1"?'),
    ('{"start_step": 5, "experimental_config": {"profiler_level": "Level1", "aic_metrics": "PipeUtilisation"}}', "any",
     'aic_metrics "PipeUtilisation" is not an AiCMetrics name or ACL_AICORE_* value: torch_npu resets it to '
     'PipeUtilization with a warning printed on rank 0 only; did you mean "PipeUtilization"?'),
    ('{"start_step": 5, "experimental_config": {"profiler_level": "Level2", "aic_metrics": "pipeutilization"}}', "6.0",
     'aic_metrics "pipeutilization" is not an AiCMetrics name or ACL_AICORE_* value: torch_npu 6.0 resets it to '
     'PipeUtilization with a warning printed on rank 0 only; did you mean "PipeUtilization"?'),
    ('{"start_step": 5, "experimental_config": {"host_sys": ["cpu", "gpu"]}}', "any",
     'host_sys ["cpu", "gpu"] holds "gpu", not one of cpu/mem/disk/network/osrt/numa: torch_npu 7.1+ resets it to '
     'empty with a warning printed on rank 0 only; torch_npu 6.0-7.0 does not read host_sys'),
])
def test_messages(text, release, message):
    assert [f.message for f in check_text(text, target(release))] == [message]


@pytest.mark.parametrize("text", [
    '{"start_step": -1, "active": 2, "warmup": 1, "is_rank": true, "rank_list": [0, 8]}',
    '{"start_step": 12, "activities": ["cpu", "npu"], "experimental_config": {"aic_metrics": "ACL_AICORE_MEMORY_UB"}}',
    '{"start_step": 12, "experimental_config": {"export_type": ["text", "db"], "l2_cache": true}}',
    '{"start_step": 1, "is_rank": false}',
    '{"start_step": true, "active": true}',            # true is 1 to Python: what torch_npu does is not recorded
    '{"start_step": 3, "experimental_config": {"profiler_level": 1, "export_type": {}}}',      # not recorded
    # every metric is dropped at Level0, a right one too; an ACL_AICORE_* value is kept as it is
    '{"start_step": 3, "experimental_config": {"aic_metrics": "PipeUtilisation"}}',
    '{"start_step": 3, "experimental_config": {"profiler_level": "Level1", '
    '"aic_metrics": "ACL_AICORE_PIPE_UTILIZATION"}}',
    # a member only some releases have (MemoryAccess from 7.0, numa from 26.1): not recorded on the others
    '{"start_step": 3, "experimental_config": {"profiler_level": "Level2", "aic_metrics": "MemoryAccess"}}',
    '{"start_step": 3, "experimental_config": {"host_sys": ["cpu", "numa"]}}',
    '[1, 2]', '{"start_step": ', "",
])
def test_what_every_release_accepts_or_cannot_read_as_an_object_gets_nothing_under_any(text):
    assert check_text(text, target()) == []


def test_an_unknown_metric_is_found_at_its_value():
    text = '{"start_step": 5, "experimental_config": {"profiler_level": "Level1", "aic_metrics": "PipeUtilisation"}}'
    assert [(f.code, f.line, f.col + 1, f.end_line, f.end_col + 1) for f in check_text(text, target("26.1"))] == [
        ("NPP311", 1, 86, 1, 103)]
    text = '{"start_step": 5, "experimental_config": {"host_sys": ["cpu", "gpu"]}}'
    assert [(f.code, f.line, f.col + 1, f.end_col + 1) for f in check_text(text, target("7.1"))] == [
        ("NPP311", 1, 55, 69)]


def test_a_release_that_does_not_read_a_key_says_so_only_for_that_release():
    text = '{"start_step": 3, "warmup": 1}'
    assert check_text(text, target()) == []
    assert [f.message for f in check_text(text, target("6.0"))] == [
        "warmup needs torch_npu 7.0+: torch_npu 6.0 ignores it without a word"]
    assert check_text(text, target("5.0")) == []      # 5.0 has no dynamic profiling: the file is never read


def test_check_finds_the_file_by_name_in_a_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "profiler_config.json").write_text(EXAMPLE, encoding="utf-8")
    (tmp_path / "cfg" / "other.json").write_text(EXAMPLE, encoding="utf-8")       # another JSON file: not read
    code, out, _ = run(capsys, "check", "--torch-npu", "7.1", ".")
    assert code == 1
    assert out.splitlines() == [
        f'cfg/profiler_config.json:8:17: NPP311 start_step "10" is a string: torch_npu 7.1 resets it to 0 and {LOG}, '
        "so no collection ever starts",
        f"cfg/profiler_config.json:10:16: NPP311 is_rank is true and rank_list is empty: torch_npu 7.1 collects on "
        f"no rank and {LOG}",
        'cfg/profiler_config.json:11:104: NPP311 export_type "Db" is not "text" or "db": torch_npu 7.1 resets it to '
        "text with a warning printed on rank 0 only"]
    code, out, _ = run(capsys, "check", "--format", "json", "--select", "NPP311", "cfg/profiler_config.json")
    rows = json.loads(out)
    assert [(r["location"], r["end_location"]) for r in rows][0] == ({"line": 8, "column": 17}, {"line": 8, "column": 21})


def test_check_follows_a_literal_dynamic_profile_init(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "job" / "dp_conf").mkdir(parents=True)
    (tmp_path / "job" / "dp_conf" / "profiler_config.json").write_text('{\n  "start_step": 0\n}\n', encoding="utf-8")
    (tmp_path / "job" / "train.py").write_text(
        "import torch_npu\nfrom torch_npu.profiler import dynamic_profile as dp\n\ndp.init(\"dp_conf\")\n"
        "for step in range(10):\n    dp.step()\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", "job/train.py")
    assert code == 1
    assert out.splitlines() == ["job/dp_conf/profiler_config.json:2:17: NPP311 start_step 0 never starts a "
                                'collection: torch_npu logs only "Start step will be set to 0." under <dir>/log/']


def test_check_follows_prof_config_path_set_by_the_script(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "job" / "dp_conf").mkdir(parents=True)
    (tmp_path / "job" / "dp_conf" / "profiler_config.json").write_text('{\n  "start_step": 0\n}\n', encoding="utf-8")
    (tmp_path / "job" / "train.py").write_text(
        "import os\nos.environ[\"PROF_CONFIG_PATH\"] = \"dp_conf\"\nimport torch\nimport torch_npu\n",
        encoding="utf-8")
    code, out, _ = run(capsys, "check", "job/train.py")
    assert code == 1
    assert out.splitlines() == ["job/dp_conf/profiler_config.json:2:17: NPP311 start_step 0 never starts a "
                                'collection: torch_npu logs only "Start step will be set to 0." under <dir>/log/']


def test_an_internal_error_is_npp000_not_a_crash(monkeypatch):
    from flake8_npuprof.checks import dynamic_json
    from flake8_npuprof.knowledge.run_settings import Settings

    def boom(text):
        raise RuntimeError("boom")
    monkeypatch.setattr(dynamic_json, "problems", boom)
    [f] = dynamic_json.check_file('{"start_step": 0}', "profiler_config.json", Settings(target=target()))
    assert f.code == "NPP000"


@pytest.mark.parametrize("script,folders", [
    ("import torch_npu\ntorch_npu.profiler.dynamic_profile.init('/data/dp')\n", ["/data/dp"]),
    ("from torch_npu.profiler import dynamic_profile\ndynamic_profile.init('cfg')\n", ["cfg"]),
    ("from torch_npu.profiler.dynamic_profile import init as dp_init\ndp_init('x')\n", ["x"]),
    ("from torch_npu.profiler import dynamic_profile as dp\ndp.init(path)\n", []),          # not a literal
    ("import dynamic_profile\nfoo.init('cfg')\n", []),                                       # not torch_npu's
    ("import os\nos.environ['PROF_CONFIG_PATH'] = '/data/dp'\nimport torch_npu\n", ["/data/dp"]),
    ("import os\nif rank == 0:\n    os.environ['PROF_CONFIG_PATH'] = 'dp'\nimport torch_npu\n", ["dp"]),
    ("import os\nos.environ['PROF_CONFIG_PATH'] = path\nimport torch_npu\n", []),              # not a literal
    ("import os\nos.environ['PROF_CONFIG_PATH'] = 'dp'\n", []),                        # a script without torch_npu
    ("import os, torch_npu\ndef f():\n    os.environ['PROF_CONFIG_PATH'] = 'dp'\n", []),    # not the module's run
])
def test_init_folders(script, folders):
    assert init_folders(script) == folders


def test_validate_detects_the_file_by_name_and_by_its_keys(tmp_path, capsys):
    named = tmp_path / "profiler_config.json"
    named.write_text('{"start_step": "3", "prof_dir": "./p"}', encoding="utf-8")
    other = tmp_path / "dp.json"
    other.write_text('{"start_step": "3", "prof_dir": "./p"}', encoding="utf-8")
    for path in (named, other):
        code, out, _ = run(capsys, "validate", "--file", str(path))
        assert code == 1 and out == (f'{path}:1:16: NPP311 start_step "3" is a string: torch_npu resets it to 0 and '
                                     f"{LOG}, so no collection ever starts\n")
    options = tmp_path / "options.json"
    options.write_text('{"output": "/tmp/p", "task_trace": "on"}', encoding="utf-8")
    assert run(capsys, "validate", "--file", str(options))[0] == 0
    assert not is_dynamic_config(str(options), options.read_text())
    assert is_dynamic_config(str(other), other.read_text())


def test_validate_reads_a_dynamic_profiling_text_from_standard_input(capsys, monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"start_step": 0}')))
    code, out, _ = run(capsys, "validate", "--file", "-", "--framework", "torch_npu")
    assert code == 1 and out == ('-:1:16: NPP311 start_step 0 never starts a collection: torch_npu logs only '
                                 '"Start step will be set to 0." under <dir>/log/\n')
    # without --framework, start_step alone does not say whose file it is, and MindSpore keeps 0: nothing is said
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b'{"start_step": 0}')))
    assert run(capsys, "validate", "--file", "-") == (0, "", "")


# ---------------------------------------------------------------- the schemas

RECORD = ROOT / "tests" / "oracle" / "torch_npu" / "records.jsonl"


def _schema(release):
    path = ROOT / "schemas" / f"profiler_config.torch_npu-{release}.schema.json"
    return Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def _dynamic_records():
    from test_dynamic_json_oracle import RECS, release_of
    return [(release_of(r["release"]), r) for r in RECS]


def test_every_finding_on_a_recorded_text_breaks_that_releases_schema():
    checked = 0
    for release, rec in _dynamic_records():
        if check_text(rec["call"], target(release)):
            assert list(_schema(release).iter_errors(json.loads(rec["call"]))), (release, rec["case"])
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("release", ["7.0", "7.1", "7.2", "7.3", "26.0", "26.1"])
def test_the_clean_recorded_texts_and_the_fixed_example_pass_the_schema(release):
    # exp.full names every sub-key of 26.1: an older release ignores those it lacks, which its schema says
    names = ("dynamic.base", "dynamic.exp.level1_name_pipe") + (("dynamic.exp.full",) if release not in ("7.0", "7.1") else ())
    clean = {r["case"]: json.loads(r["call"]) for rel, r in _dynamic_records() if rel == release and r["case"] in names}
    assert len(clean) == len(names)
    for case, doc in clean.items():
        assert list(_schema(release).iter_errors(doc)) == [], case
    assert list(_schema(release).iter_errors(json.loads(RULES[0].fixed))) == []
    assert list(_schema(release).iter_errors(json.loads(EXAMPLE)))
