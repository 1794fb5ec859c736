"""MindSpeed-MM's FSDP2 trainer (emulate/mindspeed_fsdp.py): a launch of mindspeed_mm/fsdp/train/trainer.py is
answered from the YAML's `tools.profile`. Before, such a launch was "no profiling setup found" (its imports resolve
to the installed mindspeed_mm, which was not read), whatever the YAML said."""

import json
import os

import pytest

from flake8_npuprof.cli import main

# the parts' syntax as Ascend/MindSpeed-MM has it at 57069cd (strings, docstrings, comments and the code around them
# are ours; the digests of emulate/mindspeed_fsdp.SHAPES are of these)
PROFILER = '''\
import logging
import argparse
import torch
from mindspeed_mm.fsdp.params.tools_args import Profiler
from mindspeed_mm.fsdp.utils.device import IS_NPU_AVAILABLE

class Profiler:

    def __init__(self, config: Profiler):
        self.enable = config.enable
        self.profile_type = config.profile_type
        self.ranks = config.ranks
        self.sp_level = config.static_param.level
        self.sp_with_stack = config.static_param.with_stack
        self.sp_with_memory = config.static_param.with_memory
        self.sp_record_shapes = config.static_param.record_shapes
        self.sp_with_cpu = config.static_param.with_cpu
        self.sp_save_path = config.static_param.save_path
        self.sp_start_step = config.static_param.start_step
        self.sp_end_step = config.static_param.end_step
        self.sp_data_simplification = config.static_param.data_simplification
        self.sp_analyse_flag = config.static_param.analyse_flag
        self.aic_metrics_type = config.static_param.aic_metrics_type
        if IS_NPU_AVAILABLE:
            if self.profile_type == 'static':
                if self.sp_level == 'level0':
                    profiler_level = torch_npu.profiler.ProfilerLevel.Level0
                elif self.sp_level == 'level1':
                    profiler_level = torch_npu.profiler.ProfilerLevel.Level1
                elif self.sp_level == 'level2':
                    profiler_level = torch_npu.profiler.ProfilerLevel.Level2
                else:
                    raise ValueError(f's{self.sp_level}')
                if self.aic_metrics_type == 'PipeUtilization':
                    aic_metrics_type = torch_npu.profiler.AiCMetrics.PipeUtilization
                elif self.aic_metrics_type == 'ArithmeticUtilization':
                    aic_metrics_type = torch_npu.profiler.AiCMetrics.ArithmeticUtilization
                else:
                    raise ValueError(f's')
                experimental_config = torch_npu.profiler._ExperimentalConfig(
                    aic_metrics=aic_metrics_type, profiler_level=profiler_level,
                    data_simplification=self.sp_data_simplification)
                skip_first = self.sp_start_step
                active = self.sp_end_step - self.sp_start_step
                activities = [torch_npu.profiler.ProfilerActivity.NPU]
                if self.sp_with_cpu:
                    activities.append(torch_npu.profiler.ProfilerActivity.CPU)
                else:
                    pass
                self.prof = torch_npu.profiler.profile(
                    with_stack=self.sp_with_stack, record_shapes=self.sp_record_shapes,
                    profile_memory=self.sp_with_memory,
                    activities=activities,
                    schedule=torch_npu.profiler.schedule(wait=0, warmup=0, active=active, repeat=1,
                                                         skip_first=skip_first),
                    on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(self.sp_save_path,
                                                                               analyse_flag=self.sp_analyse_flag),
                    experimental_config=experimental_config)
            else:
                raise ValueError(f's{self.profile_type}')
        else:
            activities = [torch.profiler.ProfilerActivity.CUDA]
            if self.sp_with_cpu:
                activities.append(torch.profiler.ProfilerActivity.CPU)
            else:
                pass
            skip_first = self.sp_start_step
            active = self.sp_end_step - self.sp_start_step
            self.prof = torch.profiler.profile(
                with_stack=self.sp_with_stack, record_shapes=self.sp_record_shapes, profile_memory=self.sp_with_memory,
                activities=activities,
                schedule=torch.profiler.schedule(wait=0, warmup=0, active=active, repeat=1, skip_first=skip_first),
                on_trace_ready=torch.profiler.tensorboard_trace_handler(self.sp_save_path), experimental_config=None)

    def _enable_profile(self):
        if not self.enable:
            return False
        else:
            pass
        if self.ranks == [-1]:
            return True
        else:
            pass
        if torch.distributed.get_rank() in self.ranks:
            return True
        else:
            pass
        return False

    def start(self):
        if self._enable_profile():
            if self.profile_type == 'static':
                self.prof.start()
            else:
                self.prof.init(self.dp_config_path)
        else:
            pass

    def step(self):
        if self._enable_profile():
            self.prof.step()
        else:
            pass

    def stop(self):
        if self._enable_profile():
            if self.profile_type == 'static':
                self.prof.stop()
            else:
                pass
        else:
            pass
'''

TOOLS_ARGS = '''\
from dataclasses import dataclass, field
from typing import List, Literal, Optional
import logging
from mindspeed_mm.config.arguments.base_args import BaseArguments

class StaticParam(BaseArguments):
    level: str = field(default='level1', metadata={'s': 's'})
    with_stack: bool = field(default=False, metadata={'s': 's'})
    with_memory: bool = field(default=False, metadata={'s': 's'})
    record_shapes: bool = field(default=False, metadata={'s': 's'})
    with_cpu: bool = field(default=False, metadata={'s': 's'})
    save_path: str = field(default='./profiling', metadata={'s': 's'})
    start_step: int = field(default=10, metadata={'s': 's'})
    end_step: int = field(default=11, metadata={'s': 's'})
    data_simplification: bool = field(default=False, metadata={'s': 's'})
    aic_metrics_type: str = field(default='PipeUtilization', metadata={'s': 's'})
    analyse_flag: bool = field(default=True, metadata={'s': 's'})

class Profiler(BaseArguments):
    enable: bool = field(default=False, metadata={'s': 's'})
    profile_type: str = field(default='static', metadata={'s': 's'})
    ranks: List[int] = field(default_factory=lambda: [0], metadata={'s': 's'})
    static_param: StaticParam = field(default_factory=StaticParam)

class ToolsArguments(BaseArguments):
    profile: Profiler = field(default_factory=Profiler)
    memory_profile: MemoryProfiler = field(default_factory=MemoryProfiler)
'''

ARGUMENT = '''\
from typing import Any, Callable, Dict, List, Literal, Optional, TypeVar, Union, get_type_hints
from dataclasses import MISSING, asdict, dataclass, field, fields
import sys
import os
import yaml
from mindspeed_mm.fsdp.utils.dtype import get_dtype
from mindspeed_mm.fsdp.params.data_args import DataArguments
from mindspeed_mm.fsdp.params.model_args import ModelArguments
from mindspeed_mm.fsdp.params.feature_args import FeatureArguments
from mindspeed_mm.fsdp.params.training_args import TrainingArguments
from mindspeed_mm.fsdp.params.parallel_args import ParallelArguments
from mindspeed_mm.fsdp.params.tools_args import ToolsArguments
from mindspeed_mm.fsdp.params.utils import instantiate_dataclass
from mindspeed_mm.config.arguments.base_args import BaseArguments

class Arguments(BaseArguments):
    parallel: ParallelArguments = field(default_factory=ParallelArguments)
    model: ModelArguments = field(default_factory=ModelArguments)
    data: DataArguments = field(default_factory=DataArguments)
    training: TrainingArguments = field(default_factory=TrainingArguments)
    tools: ToolsArguments = field(default_factory=ToolsArguments)
    features: FeatureArguments = field(default_factory=FeatureArguments)

    def model_post_init(self, __context):
        self.training.compute_distributed_training(self.parallel)
'''

CONFIG_MANAGER = '''\
import os
import sys
import json
from typing import Dict, Any, Optional, List, Type
from pathlib import Path
import yaml
from mindspeed_mm.config.arguments.base_args import BaseArguments
from mindspeed_mm.fsdp.params.argument import Arguments
from mindspeed_mm.config.exception import ConfigValidationError

class ConfigManager:

    def __init__(self, config_class: Type[BaseArguments]=Arguments, config_file_path: Optional[str]=None,
                 additional_args: Optional[Dict[str, Any]]=None, allow_yaml_extensions: bool=True,
                 allow_cli_override: bool=True, strict_cli_validation: bool=True,
                 allow_register_yaml_fields: bool=True):
        if not config_class:
            config_class = Arguments
        else:
            pass
        if not issubclass(config_class, BaseArguments):
            raise TypeError(f's{config_class}')
        else:
            pass
        self.config_class = config_class
        self.allow_yaml_extensions = allow_yaml_extensions
        self.allow_cli_override = allow_cli_override
        self.strict_cli_validation = strict_cli_validation
        self.allow_register_yaml_fields = allow_register_yaml_fields
        self.additional_args = additional_args or {}
        self.config_file_path = self.get_config_file_path(config_file_path)
        self._config: Optional[BaseArguments] = None
        self._defined_fields_info: Dict[str, Dict[str, Any]] = {}
        self._collect_defined_fields()
        self._dynamic_fields = set()
        self._collect_dynamic_fields()

    def get_config_file_path(self, config_file_path: Optional[str]) -> Optional[str]:
        if config_file_path:
            if not Path(config_file_path).exists():
                raise FileNotFoundError(f's{config_file_path}')
            else:
                pass
            return config_file_path
        else:
            pass
        if len(sys.argv) >= 2 and sys.argv[1].endswith(('.yaml', '.yml')):
            file_path = sys.argv[1]
            if Path(file_path).exists():
                return file_path
            else:
                pass
        else:
            pass
        return None

    def load_and_parse(self) -> BaseArguments:
        _print('s')
        try:
            yaml_config = self._load_yaml_config()
            cli_config = self._parse_cli_args() if self.allow_cli_override else {}
            self._process_yaml_extensions(yaml_config)
            self._validate_cli_args(cli_config)
            merged_config = self._safe_merge_configs(yaml_config, cli_config, self.additional_args)
            self._check_required_fields(merged_config)
            config_obj = self.config_class(**merged_config)
            self._validate_config_object(config_obj, merged_config)
            self._config = config_obj
            self.print_summary()
            return config_obj
        except Exception as e:
            _print(f's{e}')
            if isinstance(e, ConfigValidationError):
                raise
            else:
                raise ConfigValidationError(f's') from e
        else:
            pass
        finally:
            pass

    def _validate_cli_args(self, cli_args: Dict[str, Any]):
        if not cli_args or not self.strict_cli_validation:
            return
        else:
            pass
        for key in cli_args:
            if key in self._defined_fields_info or key in self._dynamic_fields:
                continue
            else:
                pass
            is_nested_field = '.' in key
            if is_nested_field:
                parts = key.split('.')
                parent_path = '.'.join(parts[:-1])
                field_name = parts[-1]
                parent_cls = self._get_parent_info(parent_path)
                if parent_cls:
                    if isinstance(parent_cls, type) and issubclass(parent_cls, BaseArguments):
                        continue
                    else:
                        raise ConfigValidationError(f's{key}s{parent_cls}')
                else:
                    raise ConfigValidationError(
                        f's{key}s{sorted(list(self._defined_fields_info.keys()) + list(self._dynamic_fields))}')
            else:
                raise ConfigValidationError(
                    f's{key}s{sorted(list(self._defined_fields_info.keys()) + list(self._dynamic_fields))}s')
        else:
            pass

    def _parse_cli_args(self) -> Dict[str, Any]:
        cli_args = {}
        for arg in sys.argv[1:]:
            if arg.endswith(('.yaml', '.yml')):
                continue
            else:
                pass
            if '=' in arg and (not arg.startswith('-')):
                parts = arg.split('=', 1)
                if len(parts) == 2 and parts[0].strip():
                    if not parts[0].startswith('-'):
                        key = parts[0].strip()
                        value_str = parts[1].strip()
                        value = self._parse_string_value(value_str)
                        if '.' in key:
                            self._set_nested_value(cli_args, key, value)
                        else:
                            cli_args[key] = value
                    else:
                        pass
                else:
                    pass
            else:
                pass
        else:
            pass
        return cli_args

    def _load_yaml_config(self) -> Dict[str, Any]:
        if not self.config_file_path:
            return {}
        else:
            pass
        try:
            with open(self.config_file_path, 'r', encoding='utf-8') as f:
                config = yaml.safe_load(f)
            _print(f's{self.config_file_path}')
            return config or {}
        except yaml.YAMLError as e:
            raise ConfigValidationError(f's{self.config_file_path}s{e}') from e
        except Exception as e:
            raise ConfigValidationError(f's{self.config_file_path}s{e}') from e
        else:
            pass
        finally:
            pass
'''

TRAINER = '''\
from mindspeed_mm.fsdp.params.argument import Arguments
from mindspeed_mm.fsdp.train.train_engine import TrainEngine
from mindspeed_mm.config.config_manager import ConfigManager


class Trainer:

    def train(self):
        self.trainer.train()
if __name__ == '__main__':
    arguments = ConfigManager(config_class=Arguments).load_and_parse()
    trainer = Trainer(args=arguments)
    trainer.train()
else:
    pass
'''

ENGINE = '''\
from mindspeed_mm.fsdp.tools.profiler import Profiler


class TrainEngine:
    def __init__(self, args, model):
        self.args = args
        self.model = model
        self.iteration, self.consumed_train_samples = 0, 0
        if args.training.load:
            self.iteration, self.consumed_train_samples = self.load()
        self.profiler = Profiler(args.tools.profile)
        self.profiler.start()

    def train(self):
        args = self.args
        while self.iteration < args.training.train_iters:
            self.model.step()
            self.iteration += 1
            self.profiler.step()
            if self.iteration % args.training.log_interval == 0:
                print(self.iteration)
        self.profiler.stop()
'''

BASE = "model:\n  model_id: x\ntraining:\n  train_iters: 20\n"
ON = "tools:\n  profile:\n    enable: true\n"
HEAD = ("mindspeed_mm/fsdp/train/trainer.py (MindSpeed-MM's FSDP2 trainer; mindspeed_mm as the project holds it, "
        "installed with `pip install -e .`): ")


def _answer(capsys, tmp_path, config=BASE + ON, words="cfg.yaml", engine=ENGINE, profiler=PROFILER,
            start="torchrun --nproc_per_node 4 --nnodes 1"):
    files = {"mindspeed_mm/fsdp/tools/profiler.py": profiler, "mindspeed_mm/fsdp/params/tools_args.py": TOOLS_ARGS,
             "mindspeed_mm/fsdp/params/argument.py": ARGUMENT, "mindspeed_mm/config/config_manager.py": CONFIG_MANAGER,
             "mindspeed_mm/fsdp/train/trainer.py": TRAINER, "mindspeed_mm/fsdp/train/train_engine.py": engine}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / "cfg.yaml").write_text(config)
    (tmp_path / "run.sh").write_text(f"{start} mindspeed_mm/fsdp/train/trainer.py {words}\n")
    main(["emulate", "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    out = capsys.readouterr().out.splitlines()
    return next((x for x in out if x.startswith(HEAD)), None), [x for x in out if x.startswith("usable")][0]


def test_enable_false_is_no_and_says_the_settings(capsys, tmp_path):
    line = ("`enable: false` (cfg.yaml:7): MindSpeed-MM's Profiler is built in TrainEngine.__init__ (train_engine.py:11) "
            "but starts no profiler (profiler.py:76); to profile, set `enable: true` in `tools.profile` (its settings "
            f"there: ranks [0] (the default), start_step 10 and end_step 11 (the default), level1, save_path "
            f"./profiling (in {tmp_path}))")
    assert _answer(capsys, tmp_path, BASE + "tools:\n  profile:\n    enable: false\n") == (
        HEAD + line, f"usable data: no ({HEAD}{line})")


def test_no_tools_section_is_no(capsys, tmp_path):
    assert _answer(capsys, tmp_path, BASE)[0].startswith(HEAD + "`enable: false` (the default): ")


def test_enable_true_collects_on_rank_0_by_default(capsys, tmp_path):
    # (the record: the defaults, rank 0 alone, schedule(skip_first=10, active=1), ./profiling)
    assert _answer(capsys, tmp_path) == (HEAD + (
        "`enable: true` (cfg.yaml:7) switches profiling on: torch_npu's profiler starts in TrainEngine.__init__ "
        "(train_engine.py:11) on rank 0 of the 4 (`\"ranks\": [0]` at the default; torchrun --nnodes 1 "
        "--nproc_per_node 4); its schedule(skip_first=10, active=1) from start_step 10 and end_step 11 (the default) "
        "records iteration 10 of 20 (0-based, one profiler.step() each; training.train_iters 20; the loop starts at "
        f"0, no training.load), 1 trace saved to ./profiling (in {tmp_path}) (level L1, aic_metrics "
        "PipeUtilization, activities NPU, analyse_flag True)"), "usable data: yes")


def test_every_rank_a_window_and_a_folder(capsys, tmp_path):
    config = BASE + ON + ("    ranks: [-1]\n    static_param:\n      start_step: 2\n      end_step: 5\n"
                          "      level: level2\n      with_cpu: true\n      with_stack: true\n      save_path: /tmp/p\n")
    assert _answer(capsys, tmp_path, config)[0] == HEAD + (
        "`enable: true` (cfg.yaml:7) switches profiling on: torch_npu's profiler starts in TrainEngine.__init__ "
        "(train_engine.py:11) on every rank (`\"ranks\": [-1]` at cfg.yaml:8); its schedule(skip_first=2, active=3) "
        "from start_step 2 and end_step 5 (cfg.yaml:10) records iterations 2-4 of 20 (0-based, one profiler.step() "
        "each; training.train_iters 20; the loop starts at 0, no training.load), 1 trace saved to /tmp/p (level L2, "
        "aic_metrics PipeUtilization, activities NPU and CPU, with_stack, analyse_flag True)")


def test_ranks_past_the_job_collect_nothing(capsys, tmp_path):
    assert _answer(capsys, tmp_path, BASE + ON + "    ranks: [7]\n") == (HEAD + (
        "`enable: true` (cfg.yaml:7) switches profiling on, but `\"ranks\": [7]` at cfg.yaml:8 names no rank of the "
        "4 (torchrun --nnodes 1 --nproc_per_node 4): no process starts the profiler"),
        f"usable data: no (run.sh:1: collects nothing: {HEAD}`enable: true` (cfg.yaml:7) switches profiling on, but `\"ranks\": [7]` at "
        "cfg.yaml:8 names no rank of the 4 (torchrun --nnodes 1 --nproc_per_node 4): no process starts the profiler)")


def test_a_window_past_the_run_collects_nothing(capsys, tmp_path):
    got = _answer(capsys, tmp_path, "training:\n  train_iters: 5\n" + ON)[0]
    assert got.endswith("records from iteration 10, and the run trains 5 (training.train_iters 5 in cfg.yaml): "
                        "nothing is recorded")


def test_a_key_a_merge_brings_is_named_by_its_file(capsys, tmp_path):
    config = BASE + "base: &b\n  enable: true\n  ranks: [1]\ntools:\n  profile:\n    <<: *b\n"
    assert _answer(capsys, tmp_path, config)[0].startswith(
        HEAD + "`enable: true` (cfg.yaml) switches profiling on: torch_npu's profiler starts in TrainEngine.__init__ "
        "(train_engine.py:11) on rank 1 of the 4 (`\"ranks\": [1]` at cfg.yaml; ")


def test_the_default_length_is_10000(capsys, tmp_path):
    assert "records iteration 10 of 10000 (0-based, one profiler.step() each; training.train_iters 10000, the " \
           "default;" in _answer(capsys, tmp_path, ON)[0]


@pytest.mark.parametrize("training, why", [
    ("load: ./ckpt", "training.load (\"./ckpt\") starts the loop at the checkpoint's iteration"),
    ("train_epochs: 2", "training.train_epochs (2) sets the run's length from the dataset's")])
def test_a_checkpoint_or_epochs_leave_the_window_unknown(capsys, tmp_path, training, why):
    got = _answer(capsys, tmp_path, f"training:\n  {training}\n" + ON)
    assert got[0].endswith(f"; but {why}, not known here") and got[1].startswith("usable data: unknown")


@pytest.mark.parametrize("key, line, raised", [
    ("profile_type: dynamic", "`profile_type: dynamic` (cfg.yaml:8): the Profiler takes only static", 60),
    ("static_param:\n      level: level3", "`level: level3` (cfg.yaml:9): the Profiler takes only level0, level1 or "
     "level2", 33),
    ("static_param:\n      aic_metrics_type: Memory", "`aic_metrics_type: Memory` (cfg.yaml:9): the Profiler takes "
     "only PipeUtilization or ArithmeticUtilization", 39)])
def test_values_the_profiler_refuses_fail_even_with_enable_false(capsys, tmp_path, key, line, raised):
    # (the record: each raises ValueError in Profiler.__init__, with enable true or false)
    for enable in ("true", "false"):
        got = _answer(capsys, tmp_path, BASE + f"tools:\n  profile:\n    enable: {enable}\n    {key}\n")
        even = "" if enable == "true" else ", even with `enable: false` (cfg.yaml:7)"
        assert got[0] == HEAD + f"{line}, so TrainEngine.__init__ stops (train_engine.py:11) with ValueError " \
                                f"(profiler.py:{raised}){even}"


def test_a_value_pydantic_converts_is_unknown(capsys, tmp_path):
    # (the record: pydantic makes the string 'yes' True, and refuses a string of ranks)
    assert _answer(capsys, tmp_path, BASE + "tools:\n  profile:\n    enable: 'yes'\n")[0] == HEAD + (
        "cfg.yaml:7 `enable: \"yes\"` is not of the type tools_args.py declares (bool): pydantic converts or refuses "
        "it, which is not followed here")


def test_an_override_on_the_command_line_fails(capsys, tmp_path):
    # (the record: ConfigManager nests `tools.profile.enable=true` under `tools` and refuses it)
    assert _answer(capsys, tmp_path, words="cfg.yaml tools.profile.enable=true")[0] == HEAD + (
        "the override `tools.profile.enable=true`: ConfigManager nests it under `tools`, which is not a field it lets "
        "the command line set (\"Command-line argument 'tools' is not defined in the configuration class\"), and "
        "raises ConfigValidationError before training")


def test_words_configmanager_does_not_read_are_ignored(capsys, tmp_path):
    assert _answer(capsys, tmp_path, words="cfg.yaml --local-rank=0 extra")[1] == "usable data: yes"


def test_a_duplicate_anchor_fails_to_load(capsys, tmp_path):
    # (PyYAML, 6.0.3 and 6.0.4 run, refuses an anchor given twice: examples/moss_tts's YAML at 57069cd has one)
    config = BASE + "a: &x 1\nb: &x 2\n" + ON
    assert _answer(capsys, tmp_path, config)[0] == HEAD + (
        "cfg.yaml is not valid YAML (found duplicate anchor 'x'; first occurrence), so ConfigManager raises "
        "ConfigValidationError (\"YAML parsing failed\"), before training")


@pytest.mark.parametrize("start, how", [("python3", "started without torchrun"),
                                        ("python3 -m torch.distributed.launch --nproc_per_node 4",
                                         "started by torch.distributed.launch")])
def test_a_start_other_than_torchrun_is_unknown(capsys, tmp_path, start, how):
    # (Arguments reads WORLD_SIZE, RANK and LOCAL_RANK as it is built: the record's runs set them as torchrun does)
    assert _answer(capsys, tmp_path, start=start)[0] == HEAD + (
        f"{how}: the words and the variables (WORLD_SIZE, RANK, LOCAL_RANK) ConfigManager and Arguments read are "
        "followed here only under torchrun")


def test_no_yaml_is_unknown(capsys, tmp_path):
    # (the record: a .txt name is not read; Arguments' defaults then fail in its data section)
    assert _answer(capsys, tmp_path, words="cfg.txt")[0] == HEAD + (
        f"`cfg.txt` is not a .yaml or .yml file name (from {tmp_path}), so ConfigManager reads no YAML and builds "
        "Arguments from its defaults and the command line, which is not followed here (57069cd's data section "
        "refuses its defaults: ConfigValidationError)")


def test_a_modified_profiler_is_not_answered_for(capsys, tmp_path):
    got = _answer(capsys, tmp_path, profiler=PROFILER.replace("active = self.sp_end_step - self.sp_start_step",
                                                             "active = 1"))
    assert got[0] is None


def test_an_engine_that_steps_twice_is_not_answered_for(capsys, tmp_path):
    engine = ENGINE.replace("            self.profiler.step()\n", "            self.profiler.step()\n" * 2)
    assert _answer(capsys, tmp_path, engine=engine)[0] is None


RUNS = json.load(open(os.path.join(os.path.dirname(__file__), "data", "mindspeed_fsdp_runs.json")))["runs"]


@pytest.mark.parametrize("run", [r for r in RUNS if r["config"] is not None], ids=lambda r: repr(r["config"])[:40])
def test_the_answers_agree_with_the_project_code_run(capsys, tmp_path, run):
    """Each recorded run of ConfigManager and the Profiler (tests/data/mindspeed_fsdp_runs.py): the answer's
    verdict is what the run did, or unknown."""
    words = " ".join(run["words"]).replace("config.", "cfg.")
    line, usable = _answer(capsys, tmp_path, run["config"], words)
    if "raises" in run or "profiler_raises" in run:
        assert usable.startswith(("usable data: no", "usable data: unknown"))
        assert usable.startswith("usable data: unknown") or "ValueError" in line or "ConfigValidationError" in line
    elif run["profile"]["enable"] == "False":
        assert usable.startswith("usable data: no") and "`enable: false`" in line
    else:
        assert usable.startswith(("usable data: yes", "usable data: unknown"))
        if usable == "usable data: yes":
            sched = {k: int(v) for k, v in next(c[2] for c in run["calls"] if c[0] == "schedule").items()}
            assert f"schedule(skip_first={sched['skip_first']}, active={sched['active']})" in line
            on = [r for r, yes in enumerate(run["profiles_on_ranks_0_3"]) if yes]
            said = "every rank" if on == [0, 1, 2, 3] and "[-1]" in run["profile"]["ranks"] else \
                f"rank {on[0]} of the 4" if len(on) == 1 else f"ranks {', '.join(map(str, on))} of the 4"
            assert f" on {said} " in line
            handler = next(c for c in run["calls"] if c[0] == "tensorboard_trace_handler")
            assert f"saved to {json.loads(handler[1][0].replace(chr(39), chr(34)))}" in line


def test_a_validation_interval_leaves_the_record_unknown(capsys, tmp_path):
    # review23: MindSpeed-MM 57069cd's TrainEngine.train begins `if args.training.val_interval > 0 and
    # self.val_dataloader is None: raise ValueError(...)`, before its loop (read, train_engine.py:235); trainer.py
    # builds a val_dataloader only from data.val_dataset_param or a dataset that gives a second part. It said "collects"
    got = _answer(capsys, tmp_path, "training:\n  train_iters: 20\n  val_interval: 5\n" + ON)
    assert got[0].endswith("; but training.val_interval (5) makes TrainEngine.train raise ValueError before its loop "
                           "where no validation dataloader was built, which is not followed here")
    assert got[1].startswith("usable data: unknown")
    # 0 (the default) validates nothing: the answer stays
    assert _answer(capsys, tmp_path, "training:\n  train_iters: 20\n  val_interval: 0\n" + ON)[1] == \
        "usable data: yes"
