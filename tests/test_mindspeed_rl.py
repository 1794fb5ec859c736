"""MindSpeed-RL's profiler configuration (checks/mindspeed_rl.py: NPP318, NPP319): a trainer's YAML
`profiler_config: {integrated: {...}}` is judged as ProfilerConfig, profiler_start and get_grpo_profiler read it.
What that code did when run is the record tests/data/mindspeed_rl_runs.json (tests/data/mindspeed_rl_runs.py, on
MindSpeed-RL 05a90d77cb6c): test_the_findings_agree_with_the_code_run holds the judgements to it."""

import json
import os

import pytest
import yaml

from flake8_npuprof.checks import mindspeed_rl as R
from flake8_npuprof.checks.run_configs import check_file
from flake8_npuprof.cli import main

HEAD = ("megatron_training:\n  model: qwen25_7b\nactor_config:\n  micro_batch_size: 1\nrl_config:\n"
        "  use_integrated_worker: true\nprofiler_config:\n  integrated:\n")
V = "MindSpeed-RL 05a90d7"
RUNS = os.path.join(os.path.dirname(__file__), "data", "mindspeed_rl_runs.json")


def _found(body, head=HEAD, path=None, tmp=None):
    text = head + "".join(f"    {line}\n" for line in body)
    path = path or os.path.join(str(tmp), "configs", "grpo.yaml")
    return [(f.line, f.col + 1, f.code, f.message) for f in check_file(text, path)]


def test_a_key_profiler_config_has_not_stops_the_run_at_config_load(tmp_path):
    assert _found(["profile: false", "profile_step: 3"], tmp=tmp_path) == [(
        10, 5, "NPP318", f"`profile_step` is not a key of MindSpeed-RL's ProfilerConfig: {V}'s BaseConfig.update "
        "raises ValueError when train() reads the configuration (\"The key: profile_step is missing, causing the "
        "setup to fail. ...\"), so the run stops before training; use profile_step_end or profile_step_start")]


def test_a_key_model_raises_type_error(tmp_path):
    assert _found(["model: x"], tmp=tmp_path) == [(
        9, 5, "NPP318", f"`model` is not a key of MindSpeed-RL's ProfilerConfig: {V}'s BaseConfig.update looks "
        "`model` up in a table of models it is not given and raises TypeError when train() reads the configuration, "
        "so the run stops before training; remove it")]


def test_a_hyphen_is_read_as_an_underscore(tmp_path):
    assert _found(["profile: true", "profile-step-start: 1", "profile-step-end: 3"], tmp=tmp_path) == []


def test_a_level_it_refuses_raises_when_the_worker_starts_its_profiler(tmp_path):
    assert _found(["profile: true", "profile_level: Level1"], tmp=tmp_path) == [(
        10, 20, "NPP318", f"profile_level Level1 is not a level MindSpeed-RL takes: {V}'s get_grpo_profiler takes "
        "only level_none, level0, level1 or level2 and raises ValueError on the ranks that profile when the worker "
        "starts its profiler in initialize(), after the models load, so the run stops; use level1")]


def test_a_level_in_a_stage_raises_when_that_stage_runs(tmp_path):
    assert _found(["profile: true", "stage: actor_generate", "profile_level: L2"], tmp=tmp_path) == [(
        11, 20, "NPP318", f"profile_level L2 is not a level MindSpeed-RL takes: {V}'s get_grpo_profiler takes only "
        "level_none, level0, level1 or level2 and raises ValueError on the ranks that profile when the "
        "actor_generate stage first runs in the profiled steps, so the run stops; use level_none, level0, level1 or "
        "level2")]


def test_an_export_type_it_refuses_raises_attribute_error(tmp_path):
    assert _found(["profile: true", "profile_ranks: [3]", "profile_export_type: Text"], tmp=tmp_path) == [(
        11, 26, "NPP318", f"profile_export_type Text is neither text nor db: {V}'s get_grpo_profiler raises "
        "AttributeError for it on the ranks that profile when the worker starts its profiler in initialize(), after "
        "the models load (its ValueError's message reads args.export_type, which ProfilerConfig has not), so the "
        "run stops; use text")]


@pytest.mark.parametrize("body", [
    ["profile: false", "profile_level: Level1", "stage: actor_train", "profile_step_end: 1"],   # nothing is built
    ["profile: true", "profile_ranks: '1'", "profile_level: Level1"],      # list('1'): no rank
    ["profile: true", "profile_ranks: []", "profile_export_type: json"],
    ["profile: true", "stage: integrated", "profile_step_start: 3", "profile_step_end: 2"],     # no window there
    ["profile: true", "stage: [actor_update, reference_compute_log_prob]", "profile_level: level2"],
])
def test_what_the_code_takes_or_never_reads_is_quiet(tmp_path, body):
    assert _found(body, tmp=tmp_path) == []


def test_a_stage_no_role_has_profiles_nothing(tmp_path):
    assert _found(["profile: true", "stage: actor_train", "profile_level: Level1"], tmp=tmp_path) == [(
        10, 12, "NPP319", f"stage actor_train names no role MindSpeed-RL's workers profile: {V}'s profiler_start "
        "returns None for every role it is called with (integrated, actor_generate, actor_compute_log_prob, "
        "actor_update, actor_image_embeds, reference_compute_log_prob) and all, so nothing is profiled, without a "
        "word; use all or one of the roles")]


def test_the_critic_stages_are_roles_in_a_ppo_configuration_only(tmp_path):
    ppo = HEAD.replace("rl_config:", "critic_config:\n  micro_batch_size: 1\nrl_config:")
    assert _found(["profile: true", "stage: critic_update"], head=ppo, tmp=tmp_path) == []
    assert [f[2] for f in _found(["profile: true", "stage: critic_update"], tmp=tmp_path)] == ["NPP319"]


def test_a_member_of_a_stage_list_no_role_has(tmp_path):
    assert _found(["profile: true", "stage: [actor_update, actor_train]"], tmp=tmp_path) == [(
        10, 27, "NPP319", f"stage actor_train is no role MindSpeed-RL's workers profile: {V}'s profiler_start is "
        "called only for integrated, actor_generate, actor_compute_log_prob, actor_update, actor_image_embeds, "
        "reference_compute_log_prob, so it is never profiled; use one of them")]


def test_a_stage_that_is_not_iterable(tmp_path):
    assert _found(["profile: true", "stage: 5"], tmp=tmp_path) == [(
        10, 12, "NPP319", f"stage 5 is neither a role nor a list of roles: {V}'s profiler_start logs a warning "
        "(\"profiler stage is not iterable, set stages to empty list\") and returns None, so nothing is profiled; use "
        "all or one of the roles")]


def test_a_window_not_above_its_start_with_stage_all_records_one_step(tmp_path):
    assert _found(["profile: true", "profile_step_start: 3"], tmp=tmp_path) == [(
        10, 25, "NPP319", f"profile_step_end 2 (the default) is not above profile_step_start 3: with stage all, {V}'s "
        "get_grpo_profiler builds schedule(active=-1), which torch_npu 6.0 and later reset to 1 with a warning "
        "(\"Invalid parameter active, reset it to 1.\"), so one step is recorded (step 3, counted from 1); give "
        "profile_step_end above profile_step_start")]


def test_a_window_not_above_its_start_in_a_stage_profiles_nothing(tmp_path):
    body = ["profile: true", "stage: actor_update", "profile_step_start: 3", "profile_step_end: 3"]
    assert _found(body, tmp=tmp_path) == [(
        12, 23, "NPP319", f"profile_step_end 3 is not above profile_step_start 3: {V}'s profiler_start starts the "
        "actor_update profiler only in the steps from profile_step_start to before profile_step_end, so it never "
        "starts: nothing is profiled; give profile_step_end above profile_step_start")]


@pytest.mark.parametrize("head", [
    HEAD.replace("actor_config:", "other:"),            # train_dpo.py's configuration: no actor_config
    HEAD.replace("profiler_config:\n  integrated:\n", "profiler_config:\n  other:\n"),
    "profiler_config:\n  integrated:\n",
])
def test_another_programs_yaml_is_left_alone(tmp_path, head):
    assert _found(["profile: true", "profile_level: Level1"], head=head, tmp=tmp_path) == []


def test_a_project_holding_another_copy_of_the_code_is_not_judged(tmp_path):
    (tmp_path / "mindspeed_rl" / "utils").mkdir(parents=True)
    (tmp_path / "mindspeed_rl" / "utils" / "utils.py").write_text("def profiler_start():\n    pass\n")
    assert _found(["profile: true", "profile_level: Level1"], tmp=tmp_path) == []


def test_npuprof_check_finds_the_yaml_in_a_folder(tmp_path, capsys):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "grpo.yaml").write_text(HEAD + "    profile: true\n    stage: actor_train\n")
    main(["check", "--format", "json", str(tmp_path)])
    found = json.loads(capsys.readouterr().out)
    assert [(f["code"], f["location"]["line"]) for f in found] == [("NPP319", 10)]


def _codes(run):
    return sorted({f.code for f in check_file(HEAD + "".join(f"    {line}\n" for line in run["integrated"].split(
        "\n")) if run["integrated"] != "{}" else HEAD.replace("  integrated:\n", "  integrated: {}\n"), "/x/c.yaml")})


def test_the_findings_agree_with_the_code_run():
    """Each NPP318 is a run the code raised on (at config load, or on a rank when the profiler was built); each
    stage NPP319 a run where profile was on and no call built a profiler; a window NPP319 with stage all a run whose
    schedule had active <= 0."""
    with open(RUNS, encoding="utf-8") as f:
        runs = json.load(f)["runs"]
    assert len(runs) == 26
    for run in runs:
        codes = _codes(run)
        calls = [c for r in run.get("ranks", {}).values() for c in r]
        raised = "raises" in run["config"] or any("raises" in c[2] for c in calls)
        built = [c for c in calls if "schedule" in c[2]]
        assert ("NPP318" in codes) == raised, (run["integrated"], codes)
        given = yaml.safe_load(run["integrated"])
        if "NPP319" in codes:
            assert given.get("profile") is True and (not built or any(int(c[2]["schedule"]["active"]) <= 0
                                                                      for c in built)), run
        elif given.get("profile") is True and not raised and "ranks" in run and given.get("profile_ranks", 0) \
                not in ([], "1"):
            assert built, run               # (profile on, nothing said: a profiler is built)


def test_the_data_is_the_code_run():
    """data/mindspeed_rl.json's defaults are ProfilerConfig's as the run found them."""
    with open(RUNS, encoding="utf-8") as f:
        runs = json.load(f)["runs"]
    first = next(r for r in runs if r["integrated"] == "{}")
    assert first["config"] == {"role": "'integrated'", "stage": repr(R.data()["defaults"]["stage"])}
    assert R.data()["defaults"]["profile_save_path"] == "" and \
        next(r for r in runs if r["integrated"] == "profile: true")["ranks"]["0"][0][2]["trace"] == ["'integrated'"]
