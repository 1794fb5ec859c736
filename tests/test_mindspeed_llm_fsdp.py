"""MindSpeed-LLM's FSDP2 trainer (emulate/mindspeed_llm_fsdp.py): a launch of train_fsdp2.py CONFIG.yaml --a.b v is
answered from the YAML and the command line as fsdp2_parse_args and ProfilerManager read them. Before, such a launch
was unknown ("a setup in a module it imports is not emulated here"), whatever the YAML said.

The project's parts are stood in for by the small modules below (ours), whose digests the tests take as the ones read
(the engine holds c77308a1's: SHAPES); what the project's own code did is the record of
tests/data/mindspeed_llm_fsdp_runs.py (test_the_answers_agree_with_the_project_code_run)."""

import ast
import json
import os

import pytest

from flake8_npuprof.cli import main
from flake8_npuprof.emulate import mindspeed_llm_fsdp as M
from flake8_npuprof.emulate.mindspeed_mm import parts_of

SCRIPT = '''\
from mindspeed_llm.fsdp2.train.trainer import Trainer
from mindspeed_llm.fsdp2.utils.arguments import fsdp2_parse_args


class Arguments:
    pass


class MindSpeedAutoTrainer:
    def __init__(self):
        self._parse_args()
        self.trainer = Trainer(self.training_args)

    def train(self):
        self.trainer.train()

    def _parse_args(self):
        self.training_args = fsdp2_parse_args(Arguments).training


class AutoTrainer:
    def __init__(self):
        self.trainer = MindSpeedAutoTrainer()

    def train(self):
        self.trainer.train()


def main():
    AutoTrainer().train()


if __name__ == "__main__":
    main()
'''

ARGS = "\n\n".join(f"def {name}():\n    pass\n" for _, name in M.SHAPES if _ == M.ARGS and name.startswith(
    ("_", "fsdp2"))) + "\n\n" + "\n\n".join(f"class {name}:\n    pass\n" for name in (
        "ModelArguments", "DataArguments", "ParallelArguments", "OptimizationArguments")) + '''

class TrainingArguments:
    def __post_init__(self):
        if self.profile:
            if self.profile_step_start < 0:
                raise ValueError("`profile_step_start` must be >= 0")
            if self.profile_step_end != -1 and self.profile_step_end <= self.profile_step_start:
                raise ValueError("`profile_step_end` must be > profile_step_start or -1")
'''

PROFILER = '''\
class ProfilerConfig:
    pass


class ProfilerManager:
    def __init__(self, config):
        self.profiler = None
        if not config.is_profiling_rank():
            return
        if config.profile_level not in LEVELS:
            raise ValueError(f"Invalid profile_level: {config.profile_level}")
        if config.profile_export_type not in EXPORTS:
            raise ValueError(f"Invalid profile_export_type: {config.profile_export_type}")
        self.profiler = make(config)
'''

TRAINER = '''\
from mindspeed_llm.fsdp2.utils.profiler import ProfilerConfig, ProfilerManager


class Trainer:
    def __init__(self, args):
        self.args = args
        self.profiler_manager = ProfilerManager(ProfilerConfig(args))

    def train(self):
        self.profiler_manager.start()
        for _ in range(self.args.max_steps):
            self.profiler_manager.step()
        self.profiler_manager.stop()
'''

FILES = {M.SCRIPT: SCRIPT, M.ARGS: ARGS, M.PROFILER: PROFILER, M.TRAINER: TRAINER,
         "mindspeed_llm/fsdp2/utils/coverage.py": "def auto_coverage(func):\n    return func\n",
         M.PACKAGE: "import os\nbackend = os.environ.get('TRAINING_BACKEND', 'mcore').lower()\n"}
BASE = "model:\n  model_name_or_path: /m\ntraining:\n  output_dir: ./out\n"
HEAD = "train_fsdp2.py (MindSpeed-LLM's FSDP2 trainer; mindspeed_llm as the project holds it): "
BACKEND = "export TRAINING_BACKEND=mindspeed_fsdp\n"


@pytest.fixture(autouse=True)
def _ours(monkeypatch):
    """The stand-ins' digests taken as the ones read."""
    trees = {rel: ast.parse(text) for rel, text in FILES.items()}
    monkeypatch.setattr(M, "SHAPES", {(rel, name): {M.part_digest(parts_of(trees[rel])[name])}
                                      for rel, name in M.SHAPES})
    monkeypatch.setattr(M, "MODULES", {rel: {M.module_digest(rel, trees[rel])} for rel in M.MODULES})


def _answer(capsys, tmp_path, config=BASE, words="cfg.yaml", files=None, env=BACKEND,
            start="torchrun --nproc_per_node 4 --nnodes 1"):
    for rel, text in dict(FILES, **(files or {})).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    if config is not None:
        (tmp_path / "cfg.yaml").write_text(config)
    (tmp_path / "run.sh").write_text(f"{env}{start} train_fsdp2.py {words}\n")
    main(["emulate", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    out = capsys.readouterr().out.splitlines()
    line = next((x for x in out if x.startswith(HEAD)), None)
    return line[len(HEAD):] if line else None, [x for x in out if x.startswith("usable")][0]


def test_the_default_is_no_and_says_how_to_profile(capsys, tmp_path):
    line, usable = _answer(capsys, tmp_path)
    assert line == ("`training.profile: false` (the default): Trainer.__init__ builds a ProfilerManager (trainer.py:7) "
                    "that builds no profiler (profiler.py:8); to profile, give `--training.profile true` on the "
                    "command line or set `profile: true` under `training` in cfg.yaml")
    assert usable.startswith("usable data: no")


def test_profile_true_collects_every_step_on_every_rank(capsys, tmp_path):
    line, usable = _answer(capsys, tmp_path, BASE + "  profile: true\n")
    assert line == (
        "`training.profile: true` (cfg.yaml:5) switches profiling on: torch_npu's profiler is built in "
        "Trainer.__init__ (trainer.py:7) on every rank (`training.profile_ranks: [-1]` (the default)), started "
        "before the training loop and stepped once an optimizer step; its schedule(warmup=0, active=1000000, "
        "skip_first=0) from "
        "`training.profile_step_start: 0` (the default) and `training.profile_step_end: -1` (the default) records "
        "every optimizer step from 0 to the end of training (0-based); the trace is saved to ./profile (in "
        f"{tmp_path}) (level0, export text, activities NPU) at stop() after the loop")
    assert usable == "usable data: yes"


def test_a_window_past_the_first_step_is_unknown_and_ranks_are_the_jobs(capsys, tmp_path):
    line, usable = _answer(capsys, tmp_path, BASE + "  profile: true\n  profile_step_start: 3\n  profile_step_end: 5\n"
                           "  profile_ranks: [1, 3, 9]\n  profile_with_cpu: true\n  profile_save_path: /tmp/p\n")
    assert line == (
        "`training.profile: true` (cfg.yaml:5) switches profiling on: torch_npu's profiler is built in "
        "Trainer.__init__ (trainer.py:7) on ranks 1, 3 of the 4 (`training.profile_ranks: [1, 3, 9]` (cfg.yaml:8); "
        "torchrun --nnodes 1 --nproc_per_node 4), started before the training loop and stepped once an optimizer "
        "step; its "
        "schedule(warmup=1, active=2, skip_first=2) from `training.profile_step_start: 3` (cfg.yaml:6) and "
        "`training.profile_step_end: 5` (cfg.yaml:7) records optimizer steps 3-4 (0-based), saved to /tmp/p (level0, "
        "export text, activities NPU and CPU); but whether the run makes more than 3 optimizer steps depends on the "
        "dataset's length (num_train_epochs times the updates an epoch), not known here")
    assert usable.startswith("usable data: unknown")


def test_max_steps_before_the_window_collects_nothing(capsys, tmp_path):
    line, usable = _answer(capsys, tmp_path, BASE + "  profile: true\n  profile_step_start: 3\n",
                           "cfg.yaml --training.max_steps 3")
    assert line.endswith(", but its schedule(warmup=1, active=1000000, skip_first=2) from "
                         "`training.profile_step_start: 3` (cfg.yaml:6) and `training.profile_step_end: -1` (the "
                         "default) records from optimizer step 3, and the run makes at most `training.max_steps: 3` "
                         "(the command line) optimizer steps: nothing is recorded")
    assert usable.startswith("usable data: no")


def test_ranks_outside_the_job_collect_nothing(capsys, tmp_path):
    line, _ = _answer(capsys, tmp_path, BASE + "  profile: true\n  profile_ranks: [7]\n")
    assert line.endswith(", but `training.profile_ranks: [7]` (cfg.yaml:6) names no rank of the 4 (torchrun --nnodes "
                         "1 --nproc_per_node 4): no process builds a profiler")


@pytest.mark.parametrize("config, words, said", [
    ("  profile: maybe\n", "cfg.yaml", "train_fsdp2.py: error: argument --training.profile: Truthy value expected: "
     "got maybe but expected one of yes/no, true/false, t/f, y/n, 1/0 (case insensitive)."),
    ("  profile_step: 3\n", "cfg.yaml", "train_fsdp2.py: error: ambiguous option: --training.profile_step could "
     "match --training.profile_step_start, --training.profile_step_end"),
    ("", "cfg.yaml --training.profile_ranks", "train_fsdp2.py: error: argument --training.profile_ranks: expected "
     "at least one argument"),
])
def test_what_argparse_refuses_fails(capsys, tmp_path, config, words, said):
    line, usable = _answer(capsys, tmp_path, BASE + config, words)
    assert line == f"argparse stops the run (exit status 2) before training: {said}"
    assert usable.startswith("usable data: no")


def test_a_window_post_init_refuses_fails_only_with_profile_true(capsys, tmp_path):
    window = "  profile_step_start: 5\n  profile_step_end: 5\n"
    line, _ = _answer(capsys, tmp_path, BASE + "  profile: true\n" + window)
    assert line == ("`training.profile_step_end: 5` (cfg.yaml:7) is not above `training.profile_step_start: 5` "
                    "(cfg.yaml:6) (nor -1) with `profile` true: TrainingArguments.__post_init__ raises ValueError "
                    "(arguments.py:83), before training")
    assert _answer(capsys, tmp_path, BASE + window)[0].startswith("`training.profile: false` (the default)")


def test_a_level_the_manager_refuses_fails_on_the_ranks_that_profile(capsys, tmp_path):
    line, _ = _answer(capsys, tmp_path, BASE + "  profile: true\n  profile_ranks: [2]\n  profile_export_type: csv\n")
    assert line == ("`training.profile_export_type: csv` (cfg.yaml:7): ProfilerManager takes only text or db, so "
                    "Trainer.__init__ (trainer.py:7) stops with ValueError (profiler.py:13) on rank 2 of the 4 "
                    "(`training.profile_ranks: [2]` (cfg.yaml:6); torchrun --nnodes 1 --nproc_per_node 4)")


def test_the_command_line_wins_only_with_a_value(capsys, tmp_path):
    # (`--training.profile` last: `--training.profile=` is not in the words joined with `=`, so the YAML's
    # `profile: false` is appended after it and wins; run: tests/data/mindspeed_llm_fsdp_runs.json)
    line, _ = _answer(capsys, tmp_path, BASE + "  profile: false\n", "cfg.yaml --training.profile")
    assert line.startswith("`training.profile: false` (cfg.yaml:5): ")
    assert line.endswith("to profile, give `--training.profile true` on the command line or set `profile: true` at "
                         "cfg.yaml:5")
    line, _ = _answer(capsys, tmp_path, BASE + "  profile: true\n", "cfg.yaml --training.profile false")
    assert line.startswith("`training.profile: false` (the command line): ")
    assert line.endswith("to profile, give `--training.profile true` on the command line instead")


def test_an_abbreviation_and_an_unknown_key(capsys, tmp_path):
    line, _ = _answer(capsys, tmp_path, BASE + "  profile_save: /tmp/q\n  no_such_key: 1\n  profile: true\n")
    assert "the trace is saved to /tmp/q (level0" in line


def test_no_training_backend_is_unknown(capsys, tmp_path):
    line, usable = _answer(capsys, tmp_path, BASE + "  profile: true\n", env="")
    assert line == ("TRAINING_BACKEND is not set here, so mindspeed_llm/__init__.py imports the Megatron adaptor "
                    "(mindspeed_llm.tasks.megatron_adaptor_v2), whose patches are not followed here "
                    "(examples/fsdp2/env_config.sh exports TRAINING_BACKEND=mindspeed_fsdp)")
    assert usable.startswith("usable data: unknown")


def test_a_yaml_that_is_not_a_mapping_fails(capsys, tmp_path):
    assert _answer(capsys, tmp_path, "[1]\n")[0] == (
        "cfg.yaml holds a list, not a mapping: _merge_yaml_into_cmd_args raises AttributeError (it calls .items()), "
        "before training")


def test_a_modified_part_is_not_answered_for(capsys, tmp_path):
    step = "            self.profiler_manager.step()\n"
    trainer = TRAINER.replace(step, step * 2)
    assert _answer(capsys, tmp_path, files={M.TRAINER: trainer})[0] is None


RUNS = json.load(open(os.path.join(os.path.dirname(__file__), "data", "mindspeed_llm_fsdp_runs.json")))["runs"]


@pytest.mark.parametrize("run", RUNS, ids=lambda r: repr((r["config"] or "")[len(BASE):] + " ".join(r["words"]))[:50])
def test_the_answers_agree_with_the_project_code_run(capsys, tmp_path, run):
    """Each recorded run of fsdp2_parse_args and ProfilerManager (tests/data/mindspeed_llm_fsdp_runs.py, four ranks):
    the answer's verdict is what the run did, or unknown."""
    words = " ".join(w if w.startswith("-") or w.startswith("config.") else f"'{w}'" for w in run["words"])
    words = words.replace("config.", "cfg.")
    config = run["config"]
    if config is not None and not run["words"][0].startswith("config.yaml"):
        (tmp_path / run["words"][0].replace("config.", "cfg.")).write_text(config)
        config = None
    line, usable = _answer(capsys, tmp_path, config, words)
    if "raises" in run:
        kind = run["raises"][0]
        assert usable.startswith(("usable data: no", "usable data: unknown"))
        if kind == "SystemExit":
            assert line == f"argparse stops the run (exit status 2) before training: {run['raises'][2]}"
        elif kind == "ValueError":
            assert "TrainingArguments.__post_init__ raises ValueError" in line
        else:
            assert usable.startswith("usable data: unknown")
        return
    ranks = run["ranks"]
    if run["training"]["profile"] == "False":
        assert usable.startswith("usable data: no") and line.startswith("`training.profile: false`")
    elif any("raises" in r for r in ranks.values()):
        assert usable.startswith("usable data: no") and "stops with ValueError" in line
    elif not any(r["profiler"] for r in ranks.values()):
        assert usable.startswith("usable data: no") and "no process builds a profiler" in line
    else:
        assert usable.startswith(("usable data: yes", "usable data: unknown"))
        sched = next(c[2] for r in ranks.values() if r["profiler"] for c in r["calls"] if c[0] == "schedule")
        assert f"schedule(warmup={sched['warmup']}, active={sched['active']}, skip_first={sched['skip_first']})" in line
        on = [int(k) for k, r in ranks.items() if r["profiler"]]
        said = "every rank" if on == [0, 1, 2, 3] else \
            f"rank {on[0]} of the 4" if len(on) == 1 else f"ranks {', '.join(map(str, on))} of the 4"
        assert f" on {said} (" in line
        handler = next(c for r in ranks.values() if r["profiler"] for c in r["calls"]
                       if c[0] == "tensorboard_trace_handler")
        assert f"saved to {handler[1][0][1:-1]}" in line


def test_a_path_from_the_environment_decides_no_profiling_only(capsys, tmp_path):
    # (pretrain_qwen3_1point7b_4k_fsdp2_A2.sh at c77308a1: `--model.model_name_or_path "${MODEL_PATH}"`, with
    # MODEL_PATH=${MODEL_PATH:-./model_from_hf/qwen3_hf}: the environment may set it)
    words = 'cfg.yaml --model.model_name_or_path "${MODEL_PATH}"'
    env = BACKEND + "MODEL_PATH=${MODEL_PATH:-./m}\n"
    line, usable = _answer(capsys, tmp_path, words=words, env=env)
    assert line.endswith("set `profile: true` under `training` in cfg.yaml (`--model.model_name_or_path` takes a "
                         "value not known here, which does not switch profiling on)")
    assert usable.startswith("usable data: no")
    line, usable = _answer(capsys, tmp_path, BASE + "  profile: true\n", words=words, env=env)
    assert line.startswith("`--model.model_name_or_path` takes a value not known here (one beginning with `-` stops "
                           "argparse); where it is a path: collects: `training.profile: true` (cfg.yaml:5) switches")
    assert usable.startswith("usable data: unknown")
    # (unquoted, or after an option a value of which may decide: not read)
    for words in ('cfg.yaml --model.model_name_or_path ${MODEL_PATH}', 'cfg.yaml --training.profile "${MODEL_PATH}"'):
        assert _answer(capsys, tmp_path, words=words, env=env)[0].startswith("the words after the script are not all")


def test_a_missing_yaml_is_said_whatever_the_later_words(capsys, tmp_path):
    # (pretrain_qwen3_1point7b_4k_fsdp2_A2.sh at c77308a1 names pretrain_qwen3_1p7b_4k_fsdp2_A2.yaml, which the
    # project does not hold, and passes its own arguments on: "$@")
    line, usable = _answer(capsys, tmp_path, None, 'nope.yaml "$@"')
    assert line == (f"nope.yaml is no file (from {tmp_path}) when the launcher is read: fsdp2_parse_args opens it, "
                    "which raises FileNotFoundError if it is still missing when the job starts")
    assert usable.startswith("usable data: unknown")


def test_a_redirection_is_not_a_word_of_the_script(capsys, tmp_path):
    # (launch.args holds `2>&` and `1` for `2>&1`: read as words, `--training.profile_ranks 0 2>&1` would be
    # refused, "invalid int value: '2>&'")
    line, usable = _answer(capsys, tmp_path, BASE + "  profile: true\n",
                           "cfg.yaml --training.profile_ranks 0 2>&1 | tee log")
    assert " on rank 0 of the 4 (`training.profile_ranks: [0]` (the command line); " in line
    assert usable == "usable data: yes"
