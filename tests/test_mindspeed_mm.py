"""MindSpeed-MM's Profiler (emulate/mindspeed_mm.py): a launch of a script that calls mindspeed_mm.training.pretrain is
answered from the --mm-tool JSON the launch names. Before, every such launch was "unknown (... a setup in a module it
imports is not emulated here)"."""

import json

import pytest

from flake8_npuprof.cli import main

# the parts' syntax as Ascend/MindSpeed-MM has it at 57069cd (strings, docstrings and the code around them are ours)
PROFILER = '''\
import torch
import torch_npu


class Profiler:
    """Ours."""
    def __init__(self, config):
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

        self.dp_config_path = config.dynamic_param.config_path

        self.aic_metrics_type = config.static_param.aic_metrics_type

        if self.profile_type == "static":
            if self.sp_level == 'level0':
                profiler_level = torch_npu.profiler.ProfilerLevel.Level0
            elif self.sp_level == 'level1':
                profiler_level = torch_npu.profiler.ProfilerLevel.Level1
            elif self.sp_level == 'level2':
                profiler_level = torch_npu.profiler.ProfilerLevel.Level2
            else:
                raise ValueError(f"no such level: {self.sp_level}")
            if self.aic_metrics_type == 'PipeUtilization':
                aic_metrics_type = torch_npu.profiler.AiCMetrics.PipeUtilization
            elif self.aic_metrics_type == 'ArithmeticUtilization':
                aic_metrics_type = torch_npu.profiler.AiCMetrics.ArithmeticUtilization
            else:
                raise ValueError(f"no such metrics")
            experimental_config = torch_npu.profiler._ExperimentalConfig(
                aic_metrics=aic_metrics_type,
                profiler_level=profiler_level,
                data_simplification=self.sp_data_simplification,
            )
            skip_first = self.sp_start_step
            active = self.sp_end_step - self.sp_start_step

            activities = [torch_npu.profiler.ProfilerActivity.NPU]
            if self.sp_with_cpu:
                activities.append(torch_npu.profiler.ProfilerActivity.CPU)

            self.prof = torch_npu.profiler.profile(
                with_stack=self.sp_with_stack,
                record_shapes=self.sp_record_shapes,
                profile_memory=self.sp_with_memory,
                activities=activities,
                schedule=torch_npu.profiler.schedule(
                    wait=0, warmup=0, active=active, repeat=1, skip_first=skip_first),
                on_trace_ready=torch_npu.profiler.tensorboard_trace_handler(self.sp_save_path,
                                                                            analyse_flag=self.sp_analyse_flag),
                experimental_config=experimental_config)

        elif self.profile_type == "dynamic":
            from torch_npu.profiler import dynamic_profile as dp
            self.prof = dp

        else:
            raise ValueError(f"no such type: {self.profile_type}")

    def _enable_profile(self):
        if not self.enable:
            return False
        if self.ranks == [-1]:
            return True
        if torch.distributed.get_rank() in self.ranks:
            return True
        return False

    def start(self):
        if self._enable_profile():
            if self.profile_type == "static":
                self.prof.start()
            else:
                self.prof.init(self.dp_config_path)

    def step(self):
        if self._enable_profile():
            self.prof.step()

    def stop(self):
        if self._enable_profile():
            if self.profile_type == "static":
                self.prof.stop()
            else:
                pass
'''

CONFIG = '''\
import os
from functools import wraps
import json
import yaml


class ConfigReader:
    def __init__(self, config_dict: dict) -> None:
        for k, v in config_dict.items():
            if k == "dtype":
                v = get_dtype(v)
            if isinstance(v, dict):
                self.__dict__[k] = ConfigReader(v)
            else:
                self.__dict__[k] = v


class MMConfig:
    def __init__(self, files: dict) -> None:
        errors = []
        for name, path in files.items():
            try:
                if path == "":
                    continue
                real_path = os.path.realpath(path)
                config_dict = None
                if real_path.endswith('.json'):
                    with open(real_path, 'r') as f:
                        config_dict = self.read_json(real_path)
                elif real_path.endswith('.yaml'):
                    with open(real_path, 'r') as f:
                        config_dict = yaml.safe_load(f)[name]
                setattr(self, name, ConfigReader(config_dict))
            except FileNotFoundError as e:
                errors.append(f"a {path} {e}")
            except PermissionError as e:
                errors.append(f"b {path} {e}")
            except json.JSONDecodeError as e:
                errors.append(f"c {path} {e}")
            except yaml.YAMLError as e:
                errors.append(f"d {path} {e}")
            except Exception as e:
                errors.append(f"e {path} {e}")

        if errors:
            for error in errors:
                print(error)
            raise RuntimeError("ours")

    @staticmethod
    def read_json(json_path):
        with open(json_path, mode="r") as f:
            json_file = f.read()
        config_dict = json.loads(json_file)
        return config_dict


def _add_mm_args(parser):
    group = parser.add_argument_group(title="ours")
    group.add_argument("--mm-data", type=str, default="")
    group.add_argument("--mm-model", type=str, default="")
    group.add_argument("--mm-tool", type=str, default="")
    return parser


def mm_extra_args_provider(parser):
    parser = _add_mm_args(parser)
    return parser


def merge_mm_args_decorator(func):
    @wraps(func)
    def wrapper(args):
        func(args)

    return wrapper


@merge_mm_args_decorator
def merge_mm_args(args):
    if not hasattr(args, "mm"):
        setattr(args, "mm", object)
        json_files = {"model": args.mm_model, "data": args.mm_data, "tool": args.mm_tool}
        args.mm = MMConfig(json_files)
'''

TRAINING = '''\
import os
import torch
import torch_npu

from megatron.training import get_args
from mindspeed_mm.configs.config import merge_mm_args
from mindspeed_mm.tools.profiler import Profiler
from mindspeed_mm.tools.mem_profiler import memory_profiler
from mindspeed_mm.utils.auto_setting import train_decorator


def pretrain(step_func, extra_args_provider=None):
    args = get_args()
    merge_mm_args(args)
    if args.save_interval == 0 or args.log_interval == 0 or args.eval_interval == 0:
        raise ValueError("ours")
    memory_profiler.reset(args.mm.tool.memory_profile)
    if not args.skip_train:
        iteration = 0
        if args.do_train and args.train_iters > 0:
            iteration = train(step_func)


@train_decorator
def train(step_func):
    args = get_args()
    iteration = args.iteration
    if os.getenv('OOTB_OPTIMIZER_PROFILING', 'FALSE') != 'TRUE':
        prof = Profiler(args.mm.tool.profile)
        prof.start()

    while iteration < args.train_iters:
        step_func()
        iteration += 1
        if os.getenv('OOTB_OPTIMIZER_PROFILING', 'FALSE') != 'TRUE':
            prof.step()
    if os.getenv('OOTB_OPTIMIZER_PROFILING', 'FALSE') != 'TRUE':
        prof.stop()
'''

SCRIPT = '''\
from mindspeed_mm.configs.config import mm_extra_args_provider
from mindspeed_mm.training import pretrain


def step():
    pass


if __name__ == "__main__":
    pretrain(step, extra_args_provider=mm_extra_args_provider)
'''

TOOL = {"profile": {"enable": False, "profile_type": "static", "ranks": [0, 1],
                    "static_param": {"level": "level1", "with_stack": False, "with_memory": False,
                                     "record_shapes": False, "with_cpu": True, "save_path": "./prof",
                                     "start_step": 3, "end_step": 5, "data_simplification": False,
                                     "aic_metrics_type": "PipeUtilization", "analyse_flag": True},
                    "dynamic_param": {"config_path": "./dyn"}},
        "memory_profile": {"enable": False}}

HEAD = "mindspeed_mm/training.py, which train_mm.py imports: "


def _answer(capsys, tmp_path, tool=None, flags="--mm-tool ./tools/tool.json", env="", text=None, profiler=PROFILER,
            name="tool.json", nodes=1, options=()):
    pkg = tmp_path / "mindspeed_mm"
    for d in ("", "tools", "configs"):
        (pkg / d).mkdir(exist_ok=True)
        (pkg / d / "__init__.py").write_text("")
    (pkg / "tools" / "profiler.py").write_text(profiler)
    (pkg / "configs" / "config.py").write_text(CONFIG)
    (pkg / "training.py").write_text(TRAINING)
    (tmp_path / "train_mm.py").write_text(SCRIPT)
    (tmp_path / "tools").mkdir(exist_ok=True)
    if text is None:
        text = json.dumps(TOOL if tool is None else tool, indent=4)
    (tmp_path / "tools" / name).write_text(text)
    (tmp_path / "run.sh").write_text(f"{env}torchrun --nproc_per_node 4 --nnodes {nodes} train_mm.py --train-iters 20 "
                                     f"{flags}\n")
    main(["emulate", *options, "--cwd", str(tmp_path), "--", "bash", "run.sh"])
    out = capsys.readouterr().out.splitlines()
    # (the answer's line, and the launch's verdict)
    return next((line for line in out if line.startswith(HEAD)), None), [x for x in out if x.startswith("usable")][0]


def _edit(**changes):
    tool = json.loads(json.dumps(TOOL))
    for key, value in changes.items():
        where = tool["profile"]["static_param"] if key in tool["profile"]["static_param"] else tool["profile"]
        where[key] = value
    return tool


def _said(line: str):
    """(the answer's line, the verdict's line) as emulate prints them for an answer of this module."""
    return HEAD + line, f"usable data: no ({HEAD}{line})"


def test_a_tool_file_outside_the_project_is_not_read_with_no_outside(capsys, tmp_path):
    # `--no-outside` (a launcher from an untrusted pull request): the launcher names what would be read
    outside = tmp_path.parent / f"{tmp_path.name}_tool.json"
    outside.write_text(json.dumps(TOOL))
    why = f"--mm-tool {outside} (run.sh:1) is outside the project, which --no-outside does not read"
    assert _answer(capsys, tmp_path, flags=f"--mm-tool {outside}", options=("--no-outside",)) == (
        HEAD + why, f"usable data: unknown (run.sh:1: {HEAD}{why})")
    assert _answer(capsys, tmp_path, flags=f"--mm-tool {outside}")[0].startswith(
        HEAD + f"../{outside.name}:1 `\"enable\": false`")


def test_enable_false_is_no(capsys, tmp_path):
    assert _answer(capsys, tmp_path) == _said(
        "tools/tool.json:3 `\"enable\": false`: MindSpeed-MM's Profiler is built at train()'s start (training.py:29) "
        "but starts no profiler (profiler.py:73); to profile, set `\"enable\": true` there")


ON = ("tools/tool.json:3 switches profiling on{}: torch_npu's profiler starts at train()'s start (training.py:30) on "
      "ranks 0-1 of the 4 (`\"ranks\": [0, 1]` at tools/tool.json:5; torchrun --nnodes 1 --nproc_per_node 4); its "
      "schedule(skip_first=3, active=2) from start_step 3 and end_step 5 (tools/tool.json:16) records iterations 3-4 "
      "of 20 (0-based, one prof.step() each; --train-iters 20, run.sh:1; train()'s loop starts at args.iteration, "
      "which Megatron-LM sets to 0 when none of --load, --pretrained-checkpoint, --moe-use-upcycling is passed), 1 "
      "trace saved to ./prof (in {}) (level Level1, aic_metrics PipeUtilization, activities NPU and CPU)")


def test_enable_true_collects_on_the_ranks_listed(capsys, tmp_path):
    assert _answer(capsys, tmp_path, _edit(enable=True)) == (HEAD + ON.format("", tmp_path), "usable data: yes")


def test_a_checkpoint_loaded_leaves_the_window_unknown(capsys, tmp_path):
    # train()'s loop runs from args.iteration (57069cd training.py:387), which Megatron's setup_model_and_optimizer
    # takes from the checkpoint --load names (0 for --finetune): a run resumed late trains fewer steps than the window
    # needs; it said "yes", assuming iteration 0
    line = ("tools/tool.json:3 switches profiling on: torch_npu's profiler starts at train()'s start (training.py:30) "
            "on ranks 0-1 of the 4 (`\"ranks\": [0, 1]` at tools/tool.json:5; torchrun --nnodes 1 --nproc_per_node 4); "
            "its schedule(skip_first=3, active=2) from start_step 3 and end_step 5 (tools/tool.json:16) records "
            "iterations 3-4 of 20 where train()'s loop starts at iteration 0 (0-based, one prof.step() each; "
            "--train-iters 20, run.sh:1), but args.iteration is set when the job loads a checkpoint: Megatron-LM reads "
            f"{tmp_path}/ckpt/latest_checkpointed_iteration.txt (--load from run.sh:1; not on disk here) to find it, "
            "then takes the iteration saved in the checkpoint; neither is read here")
    assert _answer(capsys, tmp_path, _edit(enable=True), flags="--mm-tool ./tools/tool.json --load ./ckpt") == (
        HEAD + line, f"usable data: unknown (run.sh:1: {HEAD}{line})")
    # a --finetune run starts at 0 whatever the checkpoint holds
    assert _answer(capsys, tmp_path, _edit(enable=True), flags="--mm-tool ./tools/tool.json --load ./ckpt --finetune") \
        == (HEAD + ON.format("", tmp_path).replace(
            "Megatron-LM sets to 0 when none of --load, --pretrained-checkpoint, --moe-use-upcycling is passed",
            "Megatron-LM sets to 0 for a --finetune run (--finetune from run.sh:1)"), "usable data: yes")


def test_enable_as_a_string_is_on(capsys, tmp_path):
    # Profiler._enable_profile tests `not self.enable`: a non-empty string is true (python 3.11 ran it)
    assert _answer(capsys, tmp_path, _edit(enable="false")) == (HEAD + ON.format(
        " (`\"enable\": \"false\"` is not false to Python's `not`: profiling is on)", tmp_path), "usable data: yes")


def _fails(line: str):
    return HEAD + line, f"usable data: no (run.sh:1: fails: {HEAD}{line})"


def test_level_typo_fails_even_with_enable_false(capsys, tmp_path):
    assert _answer(capsys, tmp_path, _edit(level="Level1")) == _fails(
        "tools/tool.json:10 `\"level\": \"Level1\"`: MindSpeed-MM's Profiler takes only level0, level1 or level2, so "
        "train() stops at its start (training.py:29) with ValueError (profiler.py:35), even with `\"enable\": false` "
        "(tools/tool.json:3)")


def test_unknown_aic_metrics_fails(capsys, tmp_path):
    assert _answer(capsys, tmp_path, _edit(aic_metrics_type="MemoryBound")) == _fails(
        "tools/tool.json:19 `\"aic_metrics_type\": \"MemoryBound\"`: MindSpeed-MM's Profiler takes only "
        "PipeUtilization or ArithmeticUtilization, so train() stops at its start (training.py:29) with ValueError "
        "(profiler.py:41), even with `\"enable\": false` (tools/tool.json:3)")


def test_unknown_profile_type_fails(capsys, tmp_path):
    assert _answer(capsys, tmp_path, _edit(profile_type="Static")) == _fails(
        "tools/tool.json:4 `\"profile_type\": \"Static\"`: MindSpeed-MM's Profiler takes only static or dynamic, so "
        "train() stops at its start (training.py:29) with ValueError (profiler.py:70), even with `\"enable\": false` "
        "(tools/tool.json:3)")


def test_a_missing_key_fails(capsys, tmp_path):
    tool = _edit()
    del tool["profile"]["static_param"]["analyse_flag"]
    assert _answer(capsys, tmp_path, tool) == _fails(
        "train() stops at its start (training.py:29): MindSpeed-MM's Profiler reads `static_param.analyse_flag` of "
        "tools/tool.json:2 `profile`, which fails with AttributeError: 'ConfigReader' object has no attribute "
        "'analyse_flag', even with profiling off")


def test_no_mm_tool_fails_where_pretrain_reads_it(capsys, tmp_path):
    assert _answer(capsys, tmp_path, flags="") == _fails(
        "the launch passes no --mm-tool, so MMConfig (merge_mm_args, training.py:14) loads no tool configuration and "
        "pretrain() stops at training.py:17 (`args.mm.tool.memory_profile`) with AttributeError: 'MMConfig' object "
        "has no attribute 'tool', before any profiler is built")


def test_json_that_does_not_parse_fails_at_merging(capsys, tmp_path):
    assert _answer(capsys, tmp_path, text='{"profile": {"enable": false,}}') == _fails(
        "--mm-tool ./tools/tool.json (run.sh:1): tools/tool.json is not valid JSON near line 1, so MMConfig raises "
        "RuntimeError (\"One or more config files failed to load\") in merge_mm_args (training.py:14), before "
        "training")


def test_a_missing_file_fails_at_merging(capsys, tmp_path):
    assert _answer(capsys, tmp_path, flags="--mm-tool ./tools/none.json") == _fails(
        f"--mm-tool ./tools/none.json (run.sh:1): there is no file ./tools/none.json in {tmp_path}, so MMConfig raises "
        "RuntimeError (\"One or more config files failed to load\") in merge_mm_args (training.py:14), before training")


def test_the_last_mm_tool_wins(capsys, tmp_path):
    # argparse keeps the last (python 3.11 ran it): the first names a file that does not exist
    line = ("tools/tool.json:3 switches profiling on, but `\"ranks\": [7]` at tools/tool.json:5 names no rank of the 4 "
            "(torchrun --nnodes 1 --nproc_per_node 4): no process starts the profiler")
    assert _answer(capsys, tmp_path, _edit(enable=True, ranks=[7]),
                   flags="--mm-tool ./none.json --mm-tool=./tools/tool.json") == (
        HEAD + line, f"usable data: no (run.sh:1: collects nothing: {HEAD}{line})")


def test_ranks_of_this_node_are_profiled_on_more_nodes(capsys, tmp_path):
    assert _answer(capsys, tmp_path, _edit(enable=True), nodes=2)[0] == HEAD + ON.format("", tmp_path).replace(
        "ranks 0-1 of the 4 (`\"ranks\": [0, 1]` at tools/tool.json:5; torchrun --nnodes 1 --nproc_per_node 4)",
        "ranks 0-1 (`\"ranks\": [0, 1]` at tools/tool.json:5; the job has at least the 4 processes of this node, and "
        "the job's size is not known here (torchrun --nnodes 2: other nodes' ranks))")


def test_ranks_past_this_node_are_unknown_on_more_nodes(capsys, tmp_path):
    line = ("tools/tool.json:3 switches profiling on, but the ranks `\"ranks\": [0, 9]` at tools/tool.json:5 are "
            "profiled where the job has them, and the job's size is not known here (torchrun --nnodes 2: other nodes' "
            "ranks)")
    assert _answer(capsys, tmp_path, _edit(enable=True, ranks=[0, 9]), nodes=2) == (
        HEAD + line, f"usable data: unknown (run.sh:1: {HEAD}{line})")


@pytest.mark.parametrize("ranks", [[], [-2, "0"]])
def test_ranks_that_name_no_rank_collect_nothing_on_any_number_of_nodes(capsys, tmp_path, ranks):
    # Profiler._enable_profile: `self.ranks == [-1]` or `torch.distributed.get_rank() in self.ranks` (57069cd
    # profiler.py; python 3.11 ran it on ranks 0-31): [] and ranks below 0 other than [-1] start it on none
    line = (f"tools/tool.json:3 switches profiling on, but `\"ranks\": {json.dumps(ranks)}` at tools/tool.json:5 names "
            "no rank of any node (a rank is 0 or more; only [-1] means every rank): no process starts the profiler")
    assert _answer(capsys, tmp_path, _edit(enable=True, ranks=ranks), nodes=2) == (
        HEAD + line, f"usable data: no (run.sh:1: collects nothing: {HEAD}{line})")


@pytest.mark.parametrize("flags, word", [("--log-interval 0", "--log-interval 0"),
                                         ("--save-interval=0", "--save-interval=0"),
                                         ("--save ./out --persistent-save-interval 0", "--persistent-save-interval 0"),
                                         ("--eval-interval 00 --log-interval 1", "--eval-interval 00")])
def test_an_interval_of_0_fails_before_training(capsys, tmp_path, flags, word):
    # pretrain() raises ValueError where save_interval, log_interval or eval_interval is 0 (57069cd training.py:211,
    # the same in v2.3.0, v26.0.0 and v26.1.0; python 3.11 ran it), after merge_mm_args and before any tool key is read
    line = (f"{word} (run.sh:1): pretrain() refuses a log, save or eval interval of 0 and stops at training.py:16 "
            "with ValueError, before any profiler is built")
    assert _answer(capsys, tmp_path, _edit(enable=True), flags="--mm-tool ./tools/tool.json " + flags) == _fails(line)
    # whether the tool file names a profiler or not, and where none is given
    assert _answer(capsys, tmp_path, flags=flags) == _fails(line)
    assert _answer(capsys, tmp_path, _edit(enable=True), flags="--mm-tool ./tools/tool.json " + flags,
                   env="export OOTB_OPTIMIZER_PROFILING=TRUE\n")[0] == HEAD + line.replace("run.sh:1", "run.sh:2")


def test_a_tool_file_that_fails_to_load_fails_before_the_interval_test(capsys, tmp_path):
    assert _answer(capsys, tmp_path, flags="--log-interval 0 --mm-tool ./tools/none.json") == _fails(
        f"--mm-tool ./tools/none.json (run.sh:1): there is no file ./tools/none.json in {tmp_path}, so MMConfig raises "
        "RuntimeError (\"One or more config files failed to load\") in merge_mm_args (training.py:14), before training")


def test_an_interval_not_known_keeps_the_answer_it_had(capsys, tmp_path):
    assert _answer(capsys, tmp_path, _edit(enable=True), flags="--mm-tool ./tools/tool.json --log-interval $(cat n)") \
        == (None, BEFORE)


TRAINS_NOT = ("--train-iters 0 (run.sh:1): pretrain() calls train() only when args.train_iters > 0 (training.py:20), "
              "so MindSpeed-MM's Profiler is never built: nothing is recorded (with Megatron core_v0.12.1, the release "
              "MindSpeed-MM names, the job stops before that: validate_args with --train-samples, else "
              "get_optimizer_param_scheduler, raises on a train_iters of 0)")


@pytest.mark.parametrize("tool", [_edit(enable=True), _edit(level="Level1")])
def test_train_iters_0_builds_no_profiler(capsys, tmp_path, tool):
    # `if args.do_train and args.train_iters > 0:` around train() (57069cd training.py:285): the Profiler's checks
    # are not reached either; it said the profiler started at train()'s start and recorded nothing
    assert _answer(capsys, tmp_path, tool, flags="--mm-tool ./tools/tool.json --train-iters 0") == (
        HEAD + TRAINS_NOT, f"usable data: no (run.sh:1: collects nothing: {HEAD}{TRAINS_NOT})")


def test_ootb_optimizer_profiling_builds_no_profiler(capsys, tmp_path):
    assert _answer(capsys, tmp_path, _edit(level="Level1"), env="export OOTB_OPTIMIZER_PROFILING=TRUE\n") == _said(
        "OOTB_OPTIMIZER_PROFILING=TRUE (run.sh:1), and train() builds MindSpeed-MM's Profiler only when it is not TRUE "
        "(training.py:28): no profiler runs")


def test_dynamic_is_unknown(capsys, tmp_path):
    line = ("tools/tool.json:3 switches profiling on, with `\"profile_type\": \"dynamic\"`: train() hands torch_npu's "
            "dynamic_profile the folder \"./dyn\" (training.py:30) on ranks 0-1 of the 4 (`\"ranks\": [0, 1]` at "
            "tools/tool.json:5; torchrun --nnodes 1 --nproc_per_node 4); what it collects is set by the configuration "
            "there while the job runs, not emulated here")
    assert _answer(capsys, tmp_path, _edit(enable=True, profile_type="dynamic", level="Level1")) == (
        HEAD + line, f"usable data: unknown (run.sh:1: {HEAD}{line})")


def test_a_yaml_tool_file(capsys, tmp_path):
    text = "tool:\n  memory_profile: {}\n  profile:\n" + "".join(
        f"    {line}\n" for line in json.dumps(TOOL["profile"], indent=2).splitlines())
    assert _answer(capsys, tmp_path, text=text, name="tool.yaml", flags="--mm-tool tools/tool.yaml") == _said(
        "tools/tool.yaml:5 `\"enable\": false`: MindSpeed-MM's Profiler is built at train()'s start (training.py:29) "
        "but starts no profiler (profiler.py:73); to profile, set `\"enable\": true` there")


# v2.3.0's shapes: its Profiler reads no analyse_flag, and its MMConfig json.loads every file
PROFILER_23 = PROFILER.replace("        self.sp_analyse_flag = config.static_param.analyse_flag\n", "").replace(
    """tensorboard_trace_handler(self.sp_save_path,
                                                                            analyse_flag=self.sp_analyse_flag),""",
    "tensorboard_trace_handler(self.sp_save_path),")
MMCONFIG_23 = '''\
class MMConfig:
    def __init__(self, json_files: dict) -> None:
        errors = []
        for json_name, json_path in json_files.items():
            try:
                if json_path == "":
                    continue
                real_path = os.path.realpath(json_path)
                config_dict = self.read_json(real_path)
                setattr(self, json_name, ConfigReader(config_dict))
            except FileNotFoundError as e:
                errors.append(f"a {json_path} {e}")
            except PermissionError as e:
                errors.append(f"b {json_path} {e}")
            except json.JSONDecodeError as e:
                errors.append(f"c {json_path} {e}")
            except Exception as e:
                errors.append(f"e {json_path} {e}")

        if errors:
            for error in errors:
                print(error)
            raise RuntimeError("ours")
'''


def _v23(monkeypatch):
    start, end = CONFIG.index("class MMConfig:"), CONFIG.index("    @staticmethod")
    monkeypatch.setitem(globals(), "CONFIG", CONFIG[:start] + MMCONFIG_23 + "\n" + CONFIG[end:])


def test_v2_3_reads_a_yaml_file_as_json(capsys, tmp_path, monkeypatch):
    _v23(monkeypatch)
    assert _answer(capsys, tmp_path, text="tool:\n  profile: {}\n", name="tool.yaml", profiler=PROFILER_23,
                   flags="--mm-tool tools/tool.yaml") == _fails(
        "--mm-tool tools/tool.yaml (run.sh:1): tools/tool.yaml is not valid JSON near line 1, so MMConfig raises "
        "RuntimeError (\"One or more config files failed to load\") in merge_mm_args (training.py:14), before "
        "training")


def test_v2_3_needs_no_analyse_flag(capsys, tmp_path, monkeypatch):
    _v23(monkeypatch)
    tool = _edit(enable=True)
    del tool["profile"]["static_param"]["analyse_flag"]
    out = _answer(capsys, tmp_path, tool, profiler=PROFILER_23, name="tool.txt", flags="--mm-tool tools/tool.txt")
    assert out[0].startswith(f"{HEAD}tools/tool.txt:3 switches profiling on: ") and out[1] == "usable data: yes"


BEFORE = ("usable data: unknown (run.sh:1: train_mm.py has no profiling setup of its own, but "
          "mindspeed_mm/training.py, which it imports, names one (line 29: `prof = Profiler(args.mm.tool.profile)`): "
          "a setup in a module it "
          "imports is not emulated here)")


def test_a_modified_profiler_keeps_the_answer_it_had(capsys, tmp_path):
    changed = PROFILER.replace("elif self.sp_level == 'level2':", "elif self.sp_level in ('level2', 'l2'):")
    assert _answer(capsys, tmp_path, profiler=changed) == (None, BEFORE)


@pytest.mark.parametrize("old, new", [
    ("    if args.save_interval == 0 or args.log_interval == 0 or args.eval_interval == 0:\n        raise ValueError",
     "    if args.save_interval == 0 or args.log_interval == 0:\n        raise ValueError"),
    ("        if args.do_train and args.train_iters > 0:\n", "        if args.do_train and args.train_iters >= 0:\n"),
    ("            iteration = train(step_func)\n", "            iteration = train(step_func)\n    train(step_func)\n"),
])
def test_a_pretrain_of_another_shape_keeps_the_answer_it_had(capsys, tmp_path, monkeypatch, old, new):
    # the intervals' test and the `if` around train() are what the answers for intervals and --train-iters 0 read
    assert TRAINING.count(old) == 1
    monkeypatch.setitem(globals(), "TRAINING", TRAINING.replace(old, new))
    moved = new.count("\n") - old.count("\n")
    assert _answer(capsys, tmp_path) == (None, BEFORE.replace("line 29", f"line {29 + moved}"))


def test_a_loop_of_another_shape_keeps_the_answer_it_had(capsys, tmp_path, monkeypatch):
    # prof.step() once an iteration of `while iteration < args.train_iters:` is what the steps are counted on
    monkeypatch.setitem(globals(), "TRAINING", TRAINING.replace("while iteration < args.train_iters:",
                                                               "while iteration < args.train_samples:"))
    assert _answer(capsys, tmp_path) == (None, BEFORE)


@pytest.mark.parametrize("flags", ["--profile --mm-tool ./tools/tool.json",
                                   "--mm-tool ./tools/tool.json $(cat more.txt)"])
def test_megatron_profile_or_unknown_words_keep_the_answer_it_had(capsys, tmp_path, flags):
    # Megatron's --profile is read by train_decorator, another profiler; words not known may hold it
    assert _answer(capsys, tmp_path, flags=flags) == (None, BEFORE)


@pytest.mark.parametrize("flags", ["--mm-tool ./tools/tool.json --skip-train",
                                   "--mm-tool ./tools/tool.json --exit-interval=2",
                                   "--exit-duration-in-mins 1 --mm-tool ./tools/tool.json",
                                   "-- --mm-tool ./tools/tool.json",
                                   "--mm-tool ./tools/tool.json --retro-project-dir ./retro"])
def test_words_that_skip_or_end_training_keep_the_answer_it_had(capsys, tmp_path, flags):
    # pretrain() calls train() only `if not args.skip_train` (Megatron's --skip-train), and train()'s loop breaks at
    # --exit-interval / --exit-duration-in-mins (MindSpeed-MM 57069cd training.py), and --retro-project-dir sets
    # train_iters from the retro configuration: the window is not followed
    assert _answer(capsys, tmp_path, _edit(enable=True), flags=flags) == (None, BEFORE)


@pytest.mark.parametrize("flags", ["--mm-tool ./tools/tool.json --save path to save your weight",
                                   "weights --mm-tool ./tools/tool.json",
                                   "--mm-tool ./tools/tool.json --bf16 x"])
def test_words_that_may_be_positionals_keep_the_answer_it_had(capsys, tmp_path, flags):
    # (`--bf16 x`: --bf16 is store_true in core_v0.12.1, so x is a positional: python 3.9.18 and 3.13.0 exit with
    # status 2, "unrecognized arguments: x" (argp23); it said "yes")
    # MindSpeed-MM's examples/vace/1.3B/pretrain_fsdp.sh passes `--save $SAVE_PATH`, unquoted, with SAVE_PATH="path to
    # save your vace weight": Megatron-LM core_v0.12.1's parse_args (arguments.py#L69-84: parser.parse_args() unless
    # ignore_unknown_args, which MindSpeed-MM's pretrain() does not pass) exits with status 2 on words no option
    # takes; emulate said "usable data: yes". Which words an option takes (nargs) is not read here
    assert _answer(capsys, tmp_path, _edit(enable=True), flags=flags) == (None, BEFORE)
    # with "enable": false no profiler starts, whether Megatron stops at the words or not
    assert _answer(capsys, tmp_path, flags=flags)[1].startswith("usable data: no (")
    # a redirection's words are no positionals
    assert _answer(capsys, tmp_path, _edit(enable=True), flags="--mm-tool ./tools/tool.json --save ./w 2>&1 | tee x")\
        == (HEAD + ON.format("", tmp_path), "usable data: yes")


@pytest.mark.parametrize("env", ["export OOTB_OPTIMIZER_PARSE_ARGS=TRUE\n", "OOTB_OPTIMIZER_PARSE_MODEL=TRUE "])
def test_an_auto_settings_switch_keeps_the_answer_it_had(capsys, tmp_path, env):
    # pretrain() returns before training where either is TRUE (57069cd training.py)
    assert _answer(capsys, tmp_path, _edit(enable=True), env=env) == (
        None, BEFORE.replace("run.sh:1", f"run.sh:{1 + env.count(chr(10))}"))


@pytest.mark.parametrize("name, text", [
    ("tool.yaml", "tool:\n  memory_profile: &a {b: *a}\n  profile: {}\n"),
    # aliases of aliases, each level naming the one below twice: 2 ** 40 mappings walked (review17; it ran on)
    ("tool.yaml", "tool:\n  a0: &a0 {x: 1}\n" + "".join(f"  a{i}: &a{i} {{p: *a{i - 1}, q: *a{i - 1}}}\n"
                                                        for i in range(1, 41)) + "  profile: {}\n"),
])
def test_mappings_nested_deeper_than_read_are_unknown(capsys, tmp_path, name, text):
    # it was "npuprof emulate: internal error: RecursionError": PyYAML makes a mapping that holds itself (and python
    # 3.11's json.loads reads 900 levels, where the lines' reading stopped: where json.loads stops depends on the
    # release's recursion limits, so that case is not pinned here)
    line = (f"tools/{name} nests its mappings deeper than is read here (or holds itself): what MMConfig makes of it "
            "is not followed")
    assert _answer(capsys, tmp_path, text=text, name=name, flags=f"--mm-tool tools/{name}") == (
        HEAD + line, f"usable data: unknown (run.sh:1: {HEAD}{line})")


def test_a_script_that_sets_the_switch_itself_keeps_the_answer_it_had(capsys, tmp_path, monkeypatch):
    # `os.environ["OOTB_OPTIMIZER_PROFILING"] = "TRUE"` in the script (MindSpeed-MM's own pretrain_vlm.py sets USE_TF
    # so): train()'s os.getenv reads it, and no profiler is built; the answer read the launch's environment alone
    monkeypatch.setitem(globals(), "SCRIPT", "import os\nos.environ['OOTB_OPTIMIZER_PROFILING'] = 'TRUE'\n" + SCRIPT)
    assert _answer(capsys, tmp_path, _edit(enable=True)) == (None, BEFORE)
