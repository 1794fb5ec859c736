"""`npuprof check` on MindFormers YAML run configurations (checks/mindformers.py, NPP357-NPP363): which YAML is
read as one, what each key does as MindFormers' ProfileMonitor reads it, with lines, columns and messages, and the
yaml kind through check, fix, noqa, the cache and the language server."""

from __future__ import annotations

from pathlib import Path

import pytest

from flake8_npuprof.checks import mindformers as M
from flake8_npuprof.checks.mindformers import check_file, check_text
from flake8_npuprof.cli import main
from flake8_npuprof.knowledge import mindformers as K

EVAL = Path(__file__).resolve().parent / "eval_files" / "mindformers"
HEAD = "run_mode: 'finetune'\nprofile: True\n"
MF = "MindFormers 1.5.0-1.7.0"         # where the releases read agree
LATER = "MindFormers 1.6.0-1.7.0"      # ProfileMonitor with a schedule (1.5.0 has none)


def _found(text, path="finetune.yaml"):
    return [(f.line, f.col + 1, f.code, f.message) for f in check_text(text, path)]


# ---------------------------------------------------------------- each rule, as MindFormers' code reads the key

def test_profile_level_where_profile_monitor_reads_profiler_level():
    found = check_text(HEAD + "profile_level: 2\n", "finetune.yaml")
    assert [(f.line, f.col + 1, f.end_col + 1, f.code, f.message) for f in found] == [
        (3, 1, 14, "NPP357", f"profile_level is not what ProfileMonitor reads: {MF}'s finetune runs read "
         "profiler_level, which is not set, so they profile at Level0, not Level2 (profile_level is read only when "
         "generating text); rename it profiler_level")]
    assert found[0].fix.safe is False and found[0].fix.title == "rename profile_level to profiler_level"
    assert [(e.start, e.end, e.text) for e in found[0].fix.edits] == [(35, 48, "profiler_level")]


def test_profile_level_is_quiet_where_it_changes_nothing_or_is_read():
    assert _found(HEAD + "profile_level: 0\n") == []                    # Level0 either way
    assert _found(HEAD + "profile_level: 2\nprofiler_level: 1\n") == []  # the key ProfileMonitor reads is set
    assert _found("run_mode: predict\nprofile: True\nprofile_level: 2\n") == []     # text generation reads it
    assert _found("runner_config: {}\nprofile_level: 2\n") == []        # run mode given at launch: not known
    # a value that is no level: no rename offered (profiler_level 5 would be out of range)
    found = check_text(HEAD + "profile_level: 5\n", "x.yaml")
    assert [(f.code, f.fix) for f in found] == [("NPP357", None)]
    assert "so they profile at Level0 (profile_level" in found[0].message


@pytest.mark.parametrize("value", ["5", "-1"])
def test_profiler_level_out_of_range(value):
    assert _found(HEAD + f"profiler_level: {value}\n") == [
        (3, 17, "NPP357", f"profiler_level {value} is out of range: {MF}'s ProfileMonitor passes None instead "
         f"(\"Invalid profiler_level: {value}, return None.\"), so MindSpore 2.7-2.10 profiles at Level0; use 0, 1 "
         "or 2")]


STOPS = "when Trainer is built with profile on, so the run stops before training; use 0, 1 or 2"


@pytest.mark.parametrize("value,message", [
    ("3", f"profiler_level 3 is not a level: {MF}'s ProfileMonitor lets it through (MindSpore 2.7-2.10's "
          f"ProfilerLevel has 4 members) and raises AttributeError for ProfilerLevel.Level3 {STOPS}"),
    ("'Level1'", f"profiler_level 'Level1' is not an integer: {MF}'s ProfileMonitor compares it with 0 and raises "
                 f"TypeError {STOPS}"),
    ("[1]", f"profiler_level [1] is not an integer: {MF}'s ProfileMonitor compares it with 0 and raises TypeError "
            f"{STOPS}"),
    ("1.0", f"profiler_level 1.0 is not an integer: {MF}'s ProfileMonitor looks up ProfilerLevel.Level1.0 and "
            f"raises AttributeError {STOPS}"),
    ("true", f"profiler_level true is not an integer: {MF}'s ProfileMonitor looks up ProfilerLevel.LevelTrue and "
             f"raises AttributeError {STOPS}"),
    ("false", f"profiler_level false is not an integer: {MF}'s ProfileMonitor looks up ProfilerLevel.LevelFalse "
              f"and raises AttributeError {STOPS}"),
])
def test_profiler_level_it_raises_on(value, message):
    assert _found(HEAD + f"profiler_level: {value}\n") == [(3, 17, "NPP358", message)]


def test_profiler_level_raises_in_every_run_mode_but_not_where_communication_makes_it_one():
    # Trainer.__init__ builds ProfileMonitor whatever the mode: a predict run stops too
    assert [c for _, _, c, _ in _found("run_mode: predict\nprofiler_level: 3\n")] == ["NPP358"]
    # `profiler_level == 0` holds for False and 0.0: profile_communication raises them to the integer 1
    assert _found(HEAD + "profiler_level: false\nprofile_communication: True\n") == []
    assert _found(HEAD + "profiler_level: 0.0\nprofile_communication: True\n") == []
    assert [c for _, _, c, _ in _found(HEAD + "profiler_level: 0.0\n")] == ["NPP358"]
    for fine in ("0", "1", "2", "null"):
        assert _found(HEAD + f"profiler_level: {fine}\n") == []


def test_profile_rank_ids():
    assert _found(HEAD + "profile_rank_ids: 0\n") == [
        (3, 19, "NPP359", f"profile_rank_ids 0 is not a list: {MF}'s ProfileMonitor takes 0 as no selection and "
         "profiles every rank, not rank 0; write [0]")]
    assert _found(HEAD + "profile_rank_ids: '0,1'\n") == [
        (3, 19, "NPP359", f"profile_rank_ids '0,1' is not a list: {MF}'s ProfileMonitor looks rank ids up only in a "
         "list, so no rank is profiled; write a list of rank ids: [0, 1]")]
    assert _found(HEAD + "profile_rank_ids: ['0', '1']\n") == [
        (3, 19, "NPP359", f"profile_rank_ids ['0', '1'] names no rank id: {MF}'s ProfileMonitor compares each "
         "rank's integer id with its entries, so no rank is profiled; write the ids as numbers: [0, 1]")]
    assert _found(HEAD + "profile_rank_ids: [0, '1', -1]\n") == [
        (3, 23, "NPP359", f"profile_rank_ids entry '1' equals no rank id: {MF}'s ProfileMonitor profiles only the "
         "ranks its entries equal; write the id as a number"),
        (3, 28, "NPP359", f"profile_rank_ids entry -1 equals no rank id: {MF}'s ProfileMonitor profiles only the "
         "ranks its entries equal; write the id as a number")]
    one = check_text(HEAD + "profile_rank_ids: 1\n", "x.yaml")
    assert [(f.code, f.fix.title, f.fix.safe) for f in one] == [("NPP359", "write [1]", False)]
    # a list, True (== 1), 2.0 (== 2), nothing, or the pipeline's ranks added: quiet
    for fine in ("[0, 1]", "[true]", "[2.0]", "null", "[]", "1\nprofile_pipeline: True"):
        assert _found(HEAD + f"profile_rank_ids: {fine}\n") == [], fine


RAISES_150 = ("profile_communication is on without init_start_profile: MindFormers 1.5.0's ProfileMonitor raises "
              "ValueError (\"When profile_communication is True, start_profile must also be True\") when Trainer is "
              "built with profile on, so the run stops before training; set init_start_profile: True, or leave "
              "profile_communication out (1.6.0-1.7.0 do not raise here)")


def test_profile_communication_without_a_level():
    started = "init_start_profile: True\n"
    assert _found(HEAD + started + "profile_communication: True\n") == [
        (4, 24, "NPP360", f"profile_communication changes nothing here on {LATER}: its ProfileMonitor only raises "
         "a profiler_level of 0 to 1 for it and passes it nowhere; profiler_level is not set, so the run profiles at "
         "Level0; set profiler_level: 1 for the small communication operators too")]
    for level in ("0", "1", "2"):
        assert _found(HEAD + started + f"profile_communication: True\nprofiler_level: {level}\n") == []
    assert _found(HEAD + "profile_communication: False\n") == []
    # `profile: False` (telechat2's finetune_telechat_39b_a12b.yaml): no run of the file as written profiles at all
    # (before: "so the run profiles at Level0")
    assert [m for _, _, _, m in _found("run_mode: 'finetune'\nprofile: False\n" + started
                                       + "profile_communication: True\n")] == [
        f"profile_communication changes nothing here on {LATER}: its ProfileMonitor only raises a profiler_level of 0 "
        "to 1 for it and passes it nowhere; profiler_level is not set, so a run with profile on (--profile True; it is off "
        "here) profiles at Level0; set profiler_level: 1 for the small communication operators too"]


def test_profile_communication_without_init_start_profile_raises_on_1_5_0():
    assert _found(HEAD + "profile_communication: True\nprofiler_level: 1\n") == [(3, 24, "NPP362", RAISES_150)]
    # both: 1.6.0 and later change nothing, 1.5.0 raises
    assert [c for _, _, c, _ in _found(HEAD + "profile_communication: True\n")] == ["NPP360", "NPP362"]
    # in any run mode (Trainer builds ProfileMonitor whatever it runs); not where 1.5.0 raises on the level first
    assert [c for _, _, c, _ in _found("run_mode: predict\nprofile_communication: True\n")] == ["NPP362"]
    assert [c for _, _, c, _ in _found(HEAD + "profile_communication: True\nprofiler_level: 3\n")] == ["NPP358"]
    assert [c for _, _, c, _ in _found(HEAD + "profile_communication: True\nprofiler_level: 7\n")] == \
        ["NPP362", "NPP357"]            # out of range: None, no raise, then the ValueError


ADVICE = "give profile_start_step and profile_stop_step from 1 up, the start not after the stop"


def test_a_step_window_profile_monitor_resets():
    assert _found(HEAD + "profile_start_step: 10\nprofile_stop_step: 3\n") == [
        (3, 21, "NPP361", f"profile_start_step 10 is after profile_stop_step 3: {LATER} resets the steps to 1 and 10 "
         f"with a warning but builds its schedule from 10, so it records training step 11 only; {ADVICE}")]
    assert _found(HEAD + "profile_start_step: -2\n") == [
        (3, 21, "NPP361", f"profile_start_step -2 is negative: {LATER} resets it to 1 with a warning but builds its "
         f"schedule from -2, so it records training steps 1-13; {ADVICE}")]
    assert _found(HEAD + "profile_start_step: 4\nprofile_stop_step: -1\n") == [
        (4, 20, "NPP361", f"profile_stop_step -1 is negative: {LATER} resets it to 10 with a warning, so it records "
         f"training steps 5-11; {ADVICE}")]
    # the start from the template (1) after a stop of 0, written in this file: said at the stop
    assert [(line, c, code) for line, c, code, _ in _found(HEAD + "profile_stop_step: 0\n")] == [(3, 20, "NPP361")]
    for fine in ("profile_start_step: 3\nprofile_stop_step: 3\n", "profile_start_step: 0\n",
                 # sink mode with sink_size 2 moves the steps and a step-end is two steps: not said
                 "runner_config:\n  sink_size: 2\nprofile_start_step: 10\nprofile_stop_step: 3\n",
                 "profile_start_step: 1.5\nprofile_stop_step: 1\n"):
        assert _found(HEAD + fine) == [], fine
    assert _found("run_mode: predict\nprofile_start_step: 10\nprofile_stop_step: 3\n") == []


@pytest.mark.parametrize("value", ["'False'", '"false"', "'no'", "'0'", "' off '"])
def test_profile_as_a_string_that_reads_off(value):
    found = check_text(f"run_mode: 'predict'\nprofile: {value}\n", "x.yaml")
    assert [(f.line, f.col + 1, f.code, f.message) for f in found] == [
        (2, 10, "NPP363", f"profile {value} is a string, not false: {MF} tests it with `if config.profile:`, where "
         "a non-empty string is true, so profiling is on; write false, unquoted")]
    assert (found[0].fix.title, found[0].fix.safe, found[0].fix.edits[0].text) == \
        ("write False (a YAML boolean)", False, "False")


def test_profile_as_a_string_that_reads_on_or_is_empty_is_left_alone():
    for fine in ("'True'", "''", "False", "'yes'", "1"):
        assert _found(f"run_mode: 'train'\nprofile: {fine}\n") == [], fine


def test_the_last_of_a_repeated_key_is_judged_where_it_is():
    text = HEAD + "profiler_level: 3\nprofiler_level: 2\nprofile_rank_ids: [0]\nprofile_rank_ids: 1\n"
    assert [(line, c, code) for line, c, code, _ in _found(text)] == [(6, 19, "NPP359")]


# ---------------------------------------------------------------- which YAML is a run configuration

def test_other_yaml_is_never_read_as_a_run_configuration(monkeypatch):
    parsed = []
    from flake8_npuprof.source import run_config
    real = run_config.parse
    monkeypatch.setattr(run_config, "parse", lambda text: parsed.append(text) or real(text))
    assert check_text("name: ci\non: [push\n", "ci.yml") == []          # broken, but no profiling key: not parsed
    assert check_text("  profiler_level: 3\nrun_mode: train\n", "x.yaml") == []  # nested: not a top-level key
    assert parsed == []
    # MindSpeed's YAML arguments: profile keys, none of MindFormers' keys
    assert check_text("profile: True\nprofile_level: 'level0'\nprofile_ranks: [0]\nprofiler_level: 3\n",
                      "example.yaml") == []
    assert check_text("- profile: True\n", "x.yaml") == []           # not a mapping
    # Lightning's or NeMo's configurations have a top-level trainer too: not MindFormers' by that alone
    assert check_text("trainer:\n  max_epochs: 1\nprofile: 'False'\nprofiler_level: 3\n", "config.yaml") == []


def test_a_run_configuration_that_does_not_parse_is_npp192():
    found = check_text("run_mode: train\nprofile: [True\nx: 1\n", "x.yaml")
    assert [(f.line, f.col + 1, f.code, f.message) for f in found] == [
        (3, 2, "NPP192", "the file does not parse as YAML: expected ',' or ']', but got ':' (PyYAML's SafeLoader, "
         "which MindFormers reads run configurations with), so nothing in it was checked")]
    found = check_text("profile: True\nx: \x07\n", "x.yaml")
    assert [(f.line, f.col + 1, f.code) for f in found] == [(2, 4, "NPP192")]
    assert "unacceptable character #x0007" in found[0].message


def test_a_yaml_file_too_large_or_too_deep_is_accounted_for():
    big = HEAD + "profiler_level: 3\n" + "# padding\n" * 100_000
    assert [(f.code, f.message) for f in check_text(big, "x.yaml")] == [
        ("NPP191", "analysis budget exhausted: this YAML file has 1,000,053 characters, over the 1,000,000 a run "
         "configuration is read within, so it was not checked")]
    deep = HEAD + "x: " + "[" * 1500 + "]" * 1500 + "\n"
    [(code, line, col, message)] = [(f.code, f.line, f.col, f.message) for f in check_text(deep, "x.yaml")]
    assert (code, line, col) == ("NPP192", 1, 0) and "nested too deeply" in message


def test_an_internal_error_is_npp000(monkeypatch):
    def boom(*a):
        raise RuntimeError("kaput")
    monkeypatch.setattr(M, "_window", boom)
    assert [(f.code, f.message.split(";")[0]) for f in check_file(HEAD, "x.yaml")] == [
        ("NPP000", "internal error while analysing this file: RuntimeError: kaput")]


def test_base_config_files_are_merged_under_the_file(tmp_path):
    (tmp_path / "base.yaml").write_text("run_mode: train\nprofiler_level: 1\ninit_start_profile: True\n")
    child = "base_config: base.yaml\nprofile_communication: True\n"
    (tmp_path / "child.yaml").write_text(child)
    assert check_text(child, str(tmp_path / "child.yaml")) == []      # the base sets the level
    (tmp_path / "base.yaml").write_text("run_mode: train\n")
    assert [f.code for f in check_text(child, str(tmp_path / "child.yaml"))] == ["NPP360", "NPP362"]
    # a base that is not there: what needs another key is not said; a value wrong by itself still is
    gone = "base_config: gone.yaml\nprofile_communication: True\nprofiler_level: 3\n"
    assert [f.code for f in check_text(gone, str(tmp_path / "x.yaml"))] == ["NPP358"]


# ---------------------------------------------------------------- the project's own mindformers package

def _package(root: Path):
    """A mindformers package whose ProfileMonitor and Trainer._build_profile_cb are none of the copies read."""
    callback = root / "mindformers" / "core" / "callback" / "callback.py"
    trainer = root / "mindformers" / "trainer" / "trainer.py"
    callback.parent.mkdir(parents=True)
    trainer.parent.mkdir(parents=True)
    callback.write_text("class ProfileMonitor:\n    level = 0\n")
    trainer.write_text("class Trainer:\n    def _build_profile_cb(self):\n        return None\n")


def test_a_project_whose_mindformers_is_another_copy_is_not_judged(tmp_path, monkeypatch):
    _package(tmp_path)
    config = tmp_path / "configs" / "x.yaml"
    config.parent.mkdir()
    text = HEAD + "profiler_level: 3\n"
    config.write_text(text)
    assert check_text(text, str(config)) == []          # the stand-ins are none of the copies read
    code = []
    for entry in K.data()["code"]:
        path = tmp_path / entry["file"]
        if path.exists():
            import ast
            source = path.read_text()
            node = K.node(ast.parse(source), entry["name"])
            code.append(dict(entry, digests=[K.digest(source.splitlines()[node.lineno - 1:node.end_lineno])]))
        else:
            code.append(entry)
    patched = {**K.data(), "code": code}
    monkeypatch.setattr(K, "data", lambda: patched)
    assert [f.code for f in check_text(text, str(config))] == ["NPP358"]


def test_a_project_holding_1_5_0_gets_what_1_5_0_does(tmp_path, monkeypatch):
    import ast
    _package(tmp_path)
    digests = {}
    for entry in K.data()["code"]:
        path = tmp_path / entry["file"]
        if entry["name"] in K.data()["checked"]["code"]:
            source = path.read_text()
            node = K.node(ast.parse(source), entry["name"])
            digests[entry["name"]] = [K.digest(source.splitlines()[node.lineno - 1:node.end_lineno])]
    patched = {**K.data(), "checked": {**K.data()["checked"], "earlier": {"1.5.0": digests}}}
    monkeypatch.setattr(K, "data", lambda: patched)
    config = str(tmp_path / "finetune.yaml")
    found = _found(HEAD + "profile_communication: True\nprofiler_level: 3\nprofile_start_step: 20\n", config)
    assert [(line, code) for line, _, code, _ in found] == [(4, "NPP358")]      # 1.5.0 raises on the level first
    assert "MindFormers 1.5.0's ProfileMonitor lets it through" in found[0][3]
    # no NPP360 (1.5.0 passes profile_communication on) nor NPP361 (1.5.0 has no schedule): not said for it
    assert [code for _, _, code, _ in _found(HEAD + "profile_communication: True\nprofile_start_step: 20\n"
                                             "profile_stop_step: 3\n", config)] == ["NPP362"]


# ---------------------------------------------------------------- through npuprof check, fix and the server

def test_check_finds_run_configurations_in_a_folder_and_leaves_other_yaml(tmp_path, capsys, monkeypatch):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "finetune.yaml").write_text(HEAD + "profile_communication: True\n")
    (tmp_path / "configs" / "data.yml").write_text("profile_communication: True\n")     # read: no MindFormers key
    (tmp_path / ".github").mkdir()
    (tmp_path / ".github" / "ci.yml").write_text("on: [push\n")       # not a run configuration: not even read
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "--show-files", "."]) == 0
    assert capsys.readouterr().out.split() == ["configs/data.yml", "configs/finetune.yaml"]
    assert main(["check", "--no-cache", "--quiet", "."]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "configs/finetune.yaml:3:24: NPP360 profile_communication changes nothing here on MindFormers 1.6.0-1.7.0: "
        "the run profiles at Level0",
        "configs/finetune.yaml:3:24: NPP362 profile_communication is on without init_start_profile: the run stops "
        "before training"]
    # excluded as any file is; a YAML named on the command line is read (and judged by its keys)
    assert main(["check", "--no-cache", "--quiet", "--extend-exclude", "*.yaml", "."]) == 0
    capsys.readouterr()
    assert main(["check", "--no-cache", "--quiet", ".github/ci.yml"]) == 0
    assert capsys.readouterr().out == ""


def test_noqa_fix_and_add_noqa(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "finetune.yaml"
    path.write_text(HEAD + "profile_level: 2  # noqa: NPP357\nprofile_rank_ids: 1\n")
    assert main(["check", "--no-cache", "--quiet", "finetune.yaml"]) == 1
    assert [line.split(" ")[:2] for line in capsys.readouterr().out.splitlines()] == [["finetune.yaml:4:19:", "NPP359"]]
    path.write_text(HEAD + "profile_level: 2\nprofile_rank_ids: 1\n")
    assert main(["fix", "--no-cache", "--quiet", "finetune.yaml"]) == 1        # both fixes are unsafe
    assert path.read_text() == HEAD + "profile_level: 2\nprofile_rank_ids: 1\n"
    assert main(["fix", "--no-cache", "--quiet", "--unsafe-fixes", "finetune.yaml"]) == 0
    assert path.read_text() == HEAD + "profiler_level: 2\nprofile_rank_ids: [1]\n"
    capsys.readouterr()
    path.write_text(HEAD + "profile_rank_ids: [0,\n  '1']\nprofiler_level: 3 # level 3\n")
    assert main(["check", "--no-cache", "--add-noqa", "finetune.yaml"]) == 0
    assert path.read_text() == HEAD + ("profile_rank_ids: [0,\n  '1']  # noqa: NPP359\n"
                                       "profiler_level: 3 # level 3  # noqa: NPP358\n")
    assert main(["check", "--no-cache", "--quiet", "finetune.yaml"]) == 0


def test_the_language_server_checks_a_yaml_document():
    from flake8_npuprof.lsp_analysis import kind_of
    assert kind_of("/p/configs/finetune.yaml", "", "") == "yaml"
    assert kind_of("/p/untitled", "yaml", "") == "yaml"
    from flake8_npuprof.engine.run import check_text as engine_check
    from flake8_npuprof.knowledge.run_settings import Settings
    from flake8_npuprof.knowledge.targets import Target
    from flake8_npuprof.source.files import Selection
    found = engine_check("/p/finetune.yaml", HEAD + "profiler_level: 3\n", "yaml",
                         Settings(target=Target.parse("any", "any", "any")), Selection())
    assert [(f.line, f.col, f.code) for f in found] == [(3, 16, "NPP358")]


def test_the_flake8_plugin_sees_no_yaml(tmp_path):
    """flake8 runs plugins on Python files only (its --filename is *.py): the YAML findings are npuprof's."""
    import subprocess
    import sys
    (tmp_path / "finetune.yaml").write_text(HEAD + "profiler_level: 3\n")
    out = subprocess.run([sys.executable, "-m", "flake8", "--select", "NPP", str(tmp_path)], capture_output=True,
                         text=True)
    assert (out.returncode, out.stdout) == (0, "")


# ---------------------------------------------------------------- the eval tree

def test_eval_tree(capsys, monkeypatch):
    """tests/eval_files/mindformers: what `npuprof check .` reports there (EXPECT: file:line:col code)."""
    expected = [line for line in (EVAL / "EXPECT").read_text().splitlines() if line and not line.startswith("#")]
    monkeypatch.chdir(EVAL)
    assert main(["check", "--no-cache", "--quiet", "."]) == 1
    out = capsys.readouterr().out
    assert [" ".join(line.split()[:2]).replace(": ", " ") for line in out.splitlines()] == expected, out
