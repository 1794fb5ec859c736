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
        "(\"Invalid parameter active, reset it to 1.\"), so it records at most one step (step 3, counted from 1); give "
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


# ---------------------------------------------------------------- emulate (emulate/mindspeed_rl.py)
# The project's parts are stood in for by the small modules below (ours), whose digests the tests take as the ones
# read (data/mindspeed_rl.json holds 05a90d77cb6c's).

TRAINER = '''\
import hydra


def train(config):
    pass


def parse_training_config(config):
    pass


@hydra.main(config_path='../configs', config_name='grpo_default', version_base=None)
def main(config):
    pass
'''
PARTS = {
    "mindspeed_rl/config_cls/base_config.py": "class BaseConfig:\n    def update(self, d):\n        pass\n",
    "mindspeed_rl/config_cls/mindstudio_config.py": "class ProfilerConfig:\n    def __init__(self, d, role=''):\n"
                                                    "        pass\n",
    "mindspeed_rl/config_cls/rl_config.py": "class RLConfig:\n    def __init__(self, d):\n        pass\n",
    "mindspeed_rl/utils/utils.py": "def get_grpo_profiler(c, role=None):\n    pass\n\n\n"
                                   "def profiler_start(c, role='x', profiler_iteration=None):\n    pass\n",
    "mindspeed_rl/workers/actor_hybrid_worker.py": "class ActorHybridWorkerBase:\n    def initialize(self):\n"
                                                   "        pass\n\n    def update(self):\n        pass\n\n"
                                                   "    def generate_sequences(self):\n        pass\n",
    "mindspeed_rl/workers/integrated_worker.py": "class IntegratedWorker:\n    def compute_ref_log_prob(self):\n"
                                                 "        pass\n",
    "mindspeed_rl/trainer/grpo_trainer_hybrid.py": "class RayGRPOTrainer:\n    def fit(self, d):\n        pass\n",
}
BASE_YAML = ("defaults:\n  - model:\n      - m\n\nmegatron_training:\n  model: m\n  train_iters: 5\nactor_config:\n"
             "  micro_batch_size: 1\nrl_config:\n  use_integrated_worker: true\n")
EHEAD = "cli/train_grpo.py (MindSpeed-RL's trainer; mindspeed_rl as the project holds it): "


@pytest.fixture
def ours(monkeypatch):
    """The stand-ins' digests taken as the ones read."""
    import ast as _ast
    from flake8_npuprof.knowledge.mindformers import digest, node

    def dig(text, name):
        found = node(_ast.parse(text), name)
        return digest(text.splitlines()[found.lineno - 1:found.end_lineno])
    real = R.data()
    data = dict(real, trainers={s: [[n, dig(TRAINER, n)] for n, _ in parts] for s, parts in real["trainers"].items()},
                code=[dict(e, digests=[dig(PARTS[e["file"]], e["name"])]) for e in real["code"]],
                run_code=[dict(e, digests=[dig(PARTS[e["file"]], e["name"])]) for e in real["run_code"]])
    monkeypatch.setattr(R, "data", lambda: data)


def _emulate(capsys, tmp_path, profiler="", words="--config-name grpo", yaml_text=None, script="train_grpo.py"):
    for rel, text in dict(PARTS, **{f"cli/{script}": TRAINER, "configs/model/m.yaml": "hidden_size: 8\n"}).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    text = yaml_text if yaml_text is not None else BASE_YAML + (
        "profiler_config:\n  integrated:\n" + "".join(f"    {x}\n" for x in profiler.split(";")) if profiler else "")
    (tmp_path / "configs" / "grpo.yaml").write_text(text)
    (tmp_path / "run.sh").write_text(f"python cli/{script} {words} 2>&1 | tee log.txt\n")
    main(["emulate", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    out = capsys.readouterr().out.splitlines()
    head = EHEAD.replace("train_grpo.py", script)
    line = next((x for x in out if x.startswith(head)), None)
    return line[len(head):] if line else None, [x for x in out if x.startswith("usable")][0]


def test_emulate_no_profiler_config_is_no_profiling(ours, capsys, tmp_path):
    line, usable = _emulate(capsys, tmp_path)
    assert line == ("`profile: false` (the default): ProfilerConfig is built with profile off, so get_grpo_profiler "
                    "builds no profiler; to profile, set `profile: true` under profiler_config.integrated in "
                    "configs/grpo.yaml or add `++profiler_config.integrated.profile=true` to the command line")
    assert usable.startswith("usable data: no")


def test_emulate_the_whole_step_profiler_collects(ours, capsys, tmp_path):
    line, usable = _emulate(capsys, tmp_path, "profile: true;profile_save_path: /data/prof;profile_step_end: 4")
    assert line == (
        "`profile: true` (configs/grpo.yaml:14) switches profiling on: get_grpo_profiler builds torch_npu's profiler "
        "on every rank (`profile_ranks: all` (the default)) in the worker's initialize() and steps it at the end of "
        "each actor update; its schedule(skip_first=0, active=3) records iterations 1-3 (counted from 1), saved to "
        "/data/prof/integrated (level0, export text, activities NPU+CPU); the run makes 5 iterations "
        "(`train_iters: 5`)")
    assert usable.startswith("usable data: yes")


def test_emulate_a_window_past_the_run_collects_nothing(ours, capsys, tmp_path):
    line, _ = _emulate(capsys, tmp_path, "profile: true;profile_step_start: 6;profile_step_end: 7;"
                                         "profile_ranks: [0, 3]")
    assert line == (
        "`profile: true` (configs/grpo.yaml:14) switches profiling on: get_grpo_profiler builds torch_npu's profiler "
        "on ranks 0, 3 where the job has them (`profile_ranks: [0, 3]` (configs/grpo.yaml:17)) in the worker's "
        "initialize() and steps it at the end of each actor update; its schedule(skip_first=5, active=1) records "
        "iteration 6 (counted from 1), saved to integrated (relative to the folder the Ray worker runs in, not known "
        "here) (level0, export text, activities NPU+CPU), but the run makes 5 iterations (`train_iters: 5`; "
        "RayGRPOTrainer.fit loops while the iteration is below it)")


def test_emulate_a_stage(ours, capsys, tmp_path):
    line, _ = _emulate(capsys, tmp_path, "profile: true;stage: [actor_update, actor_generate];profile_step_start: 2;"
                                         "profile_step_end: 4;profile_with_cpu: false;profile_level: level1")
    assert line == (
        "`profile: true` (configs/grpo.yaml:14) switches profiling on: get_grpo_profiler builds torch_npu's profiler "
        "on every rank (`profile_ranks: all` (the default)) for the actor_update and actor_generate stages of "
        "iterations 2-3 (counted from 1), one trace each, saved to actor_update and actor_generate (relative to the "
        "folder the Ray worker runs in, not known here) (level1, export text, activities NPU); the run makes 5 "
        "iterations (`train_iters: 5`)")


@pytest.mark.parametrize("profiler,words,verdict,said", [
    ("profile: true;profile_level: Level1", "--config-name grpo", "fails",
     "`profile_level: Level1` (configs/grpo.yaml:15): get_grpo_profiler takes only level_none, level0, level1 or "
     "level2 and raises ValueError on every rank (`profile_ranks: all` (the default)) in the worker's initialize(), "
     "after the models load"),
    ("profile: true;profile_export_type: json;profile_ranks: [2]", "--config-name grpo", "fails",
     "`profile_export_type: json` (configs/grpo.yaml:15): get_grpo_profiler raises AttributeError on rank 2 where "
     "the job has them (`profile_ranks: [2]` (configs/grpo.yaml:16)) in the worker's initialize(), after the models "
     "load (its ValueError's message reads args.export_type, which ProfilerConfig has not)"),
    ("profile: false;profile_step: 3", "--config-name grpo", "fails",
     "`profile_step` (configs/grpo.yaml:15) is not a key of ProfilerConfig: BaseConfig.update raises ValueError "
     "(\"The key: profile_step is missing, causing the setup to fail. ...\") when train() builds it, before training"),
    ("profile: true;stage: actor_train", "--config-name grpo", "collects nothing",
     "`profile: true` (configs/grpo.yaml:14), but `stage: actor_train` (configs/grpo.yaml:15) names no role the "
     "workers call profiler_start with (integrated, actor_generate, actor_compute_log_prob, actor_update, "
     "actor_image_embeds, reference_compute_log_prob and all): no profiler starts, without a word"),
    ("profile: true;profile_ranks: '1'", "--config-name grpo", "collects nothing",
     "`profile: true` (configs/grpo.yaml:14), but `profile_ranks: \"1\"` (configs/grpo.yaml:15) is a string other "
     "than all: get_grpo_profiler takes its characters as the ranks, none of which is a rank number, and builds no "
     "profiler"),
    ("profile: false", "--config-name grpo profiler_config.integrated.profile=true "
     "profiler_config.integrated.profile_level=L9", "fails",
     "`profiler_config.integrated.profile_level=L9` names a key the configuration has not: hydra stops the run "
     "(\"Could not override 'profiler_config.integrated.profile_level'. To append to your config use "
     "+profiler_config.integrated.profile_level=L9\"), before training"),
    ("profile: false", "--config-name=grpo.yaml profiler_config.integrated.profile=True "
     "+profiler_config.integrated.stage=actor_update", "collects",
     "`profile: true` (the command line) switches profiling on: get_grpo_profiler builds torch_npu's profiler on "
     "every rank (`profile_ranks: all` (the default)) for the actor_update stage of iteration 1 (counted from 1), "
     "one trace each, saved to actor_update (relative to the folder the Ray worker runs in, not known here) "
     "(level0, export text, activities NPU+CPU); the run makes 5 iterations (`train_iters: 5`)"),
    ("", "--config-name grpo +profiler_config.integrated.profile=true +megatron_training.load=./ckpt", "unknown",
     "`profile: true` (the command line) switches profiling on: get_grpo_profiler builds torch_npu's profiler on "
     "every rank (`profile_ranks: all` (the default)) in the worker's initialize() and steps it at the end of each "
     "actor update; its schedule(skip_first=0, active=1) records iteration 1 (counted from 1), saved to integrated "
     "(relative to the folder the Ray worker runs in, not known here) (level0, export text, activities NPU+CPU); but "
     "`load: ./ckpt` may resume from a checkpoint, after which the run makes fewer iterations than train_iters: "
     "whether it reaches iteration 1 is not known here"),
    ("profile: true;stage: actor_update;profile_step_start: 3;profile_step_end: 3", "--config-name grpo",
     "collects nothing",
     "`profile: true` (configs/grpo.yaml:14) switches profiling on: get_grpo_profiler builds torch_npu's profiler "
     "on every rank (`profile_ranks: all` (the default)) only in iterations from `profile_step_start: 3` "
     "(configs/grpo.yaml:16) to before `profile_step_end: 3` (configs/grpo.yaml:17): none, so no profiler starts"),
    ("profile: true", "--config-name grpo --multirun", "unknown", "`--multirun` is a hydra option not followed here"),
    ("profile: true", "--config-name other", "unknown",
     "configs/other.yaml is no file when the launcher is read: hydra stops the run (\"Cannot find primary config\") "
     "if it is still missing when the job starts"),
])
def test_emulate_answers(ours, capsys, tmp_path, profiler, words, verdict, said):
    line, usable = _emulate(capsys, tmp_path, profiler, words)
    assert line == said
    assert usable.startswith({"fails": "usable data: no", "collects nothing": "usable data: no",
                              "collects": "usable data: yes", "unknown": "usable data: unknown"}[verdict])


def test_emulate_separate_workers_get_no_profiler_config(ours, capsys, tmp_path):
    line, _ = _emulate(capsys, tmp_path, yaml_text=BASE_YAML.replace("use_integrated_worker: true",
                                                                     "use_integrated_worker: false") +
                       "profiler_config:\n  integrated:\n    profile: true\n")
    assert line == ("`profile: true` (configs/grpo.yaml:14), but `use_integrated_worker: false` in rl_config: "
                    "train_grpo.py's train() passes profiler_config to the integrated worker only, so no worker gets "
                    "it and none builds a profiler")


def test_emulate_a_hyphenated_key_is_named_where_it_is(ours, capsys, tmp_path):
    line, _ = _emulate(capsys, tmp_path, "profile: true;profile-level: Level1")
    assert line == ("`profile_level: Level1` (configs/grpo.yaml:15): get_grpo_profiler takes only level_none, level0, "
                    "level1 or level2 and raises ValueError on every rank (`profile_ranks: all` (the default)) in the "
                    "worker's initialize(), after the models load")


def test_emulate_dapo_with_profile_on_is_unknown(ours, capsys, tmp_path):
    line, _ = _emulate(capsys, tmp_path, "profile: true", script="train_dapo.py")
    assert line.endswith("; but train_dapo.py's training loop is not followed here: whether the run reaches it")


def test_emulate_a_modified_trainer_is_not_followed(ours, capsys, tmp_path):
    (tmp_path / "cli").mkdir()
    line, _ = _emulate(capsys, tmp_path, "profile: true")
    (tmp_path / "cli" / "train_grpo.py").write_text(TRAINER.replace("    pass\n", "    return 1\n", 1))
    main(["emulate", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    assert not any(x.startswith(EHEAD) for x in capsys.readouterr().out.splitlines())
