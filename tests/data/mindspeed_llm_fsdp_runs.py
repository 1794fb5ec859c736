"""Runs MindSpeed-LLM's FSDP2 argument parsing and ProfilerManager on a checkout and writes what each launch made them
do to mindspeed_llm_fsdp_runs.json (the record tests/test_mindspeed_llm_fsdp.py holds emulate/mindspeed_llm_fsdp.py
to): `python3.11 tests/data/mindspeed_llm_fsdp_runs.py TOP` where TOP holds MindSpeed-LLM c77308a1's train_fsdp2.py
and mindspeed_llm/ (python 3.11 with PyYAML and packaging; transformers, torch and torch_npu are stubs). Each case runs
in a process of its own, in a fresh folder holding its YAML (config.yaml, where the case has one): train_fsdp2.py's
Arguments with fsdp2_parse_args(Arguments) and sys.argv `train_fsdp2.py WORDS...`, as MindSpeedAutoTrainer._parse_args
does; then, for ranks 0-3, ProfilerManager(ProfilerConfig(...)) built from the training arguments as Trainer.__init__
builds it. It also writes the options _create_argument_parser(Arguments) registers (the table the engine's parser is
built from: flake8_npuprof/data/mindspeed_llm_fsdp_options.json)."""

import json
import os
import subprocess
import sys
import tempfile

BASE = "model:\n  model_name_or_path: /m\ntraining:\n  output_dir: ./out\n"
CASES = [
    # (the YAML's text or None for no file, the words after train_fsdp2.py)
    (BASE, ["config.yaml"]),
    (BASE + "  profile: true\n", ["config.yaml"]),
    (BASE + "  profile: true\n  profile_step_start: 3\n  profile_step_end: 5\n  profile_ranks: [1, 3]\n"
     "  profile_level: level2\n  profile_with_cpu: true\n  profile_save_path: /tmp/p\n", ["config.yaml"]),
    (BASE + "  profile: true\n  profile_step_start: 5\n  profile_step_end: 5\n", ["config.yaml"]),
    (BASE + "  profile: true\n  profile_step_start: -1\n", ["config.yaml"]),
    (BASE + "  profile: false\n  profile_step_start: 5\n  profile_step_end: 5\n", ["config.yaml"]),
    (BASE + "  profile: true\n  profile_level: level3\n", ["config.yaml"]),
    (BASE + "  profile: false\n  profile_level: level3\n", ["config.yaml"]),
    (BASE + "  profile: true\n  profile_ranks: [2]\n  profile_export_type: csv\n", ["config.yaml"]),
    (BASE + "  profile: true\n  profile_ranks: []\n", ["config.yaml"]),
    (BASE + "  profile: true\n  profile_ranks: 0\n", ["config.yaml"]),
    (BASE + "  profile: maybe\n", ["config.yaml"]),
    (BASE + "  profile: 'yes'\n", ["config.yaml"]),
    (BASE + "  profile: true\n  profile_step_start: 2.5\n", ["config.yaml"]),
    (BASE + "  profile_step: 3\n", ["config.yaml"]),
    (BASE + "  profile_save: /tmp/q\n  profile: true\n", ["config.yaml"]),
    (BASE + "  no_such_key: 1\n  profile: true\n", ["config.yaml"]),
    (BASE, ["config.yaml", "--training.profile", "true", "--training.profile_step_end", "4"]),
    (BASE, ["config.yaml", "--training.profile"]),
    (BASE, ["config.yaml", "--training.profile", "--training.profile_ranks", "-1"]),
    (BASE + "  profile: true\n", ["config.yaml", "--training.profile", "false"]),
    (BASE + "  profile: true\n", ["config.yaml", "--training.profile=false"]),
    (BASE + "  profile: false\n", ["config.yaml", "--training.profile"]),
    (BASE + "  profile: true\n", ["config.yaml", "--training.nope", "1"]),
    (BASE + "  profile: true\n  max_steps: 3\n", ["config.yaml"]),
    ("training:\n  profile: true\n", ["config.yaml"]),
    (None, ["config.yaml"]),
    ("training: [1]\n", ["config.yaml"]),
    ("", ["config.yaml", "--model.model_name_or_path", "/m", "--training.output_dir", "o", "--training.profile"]),
    (BASE + "  profile: true\n", ["config.yml"]),
    (BASE + "  profile: true\n", ["config.txt"]),
    (BASE + "data:\n  dataset: '{bad'\n", ["config.yaml"]),
    (BASE + "data:\n  dataset: {file_name: x.parquet}\n  packing: true\n", ["config.yaml"]),
    (BASE + "  profile: true\n", ["config.yaml", "--data.dataset", '{"file_name": "x"}']),
]

RUN = r'''
import ast, importlib.util, json, os, sys, types, io, contextlib
top, words = sys.argv[1], json.loads(sys.argv[2])
transformers = types.ModuleType("transformers")
transformers.__version__ = "4.57.1"
sys.modules["transformers"] = transformers
for name in ("mindspeed_llm", "mindspeed_llm.fsdp2", "mindspeed_llm.fsdp2.utils"):
    sys.modules[name] = types.ModuleType(name)
    sys.modules[name].__path__ = []


def load(name, rel):
    spec = importlib.util.spec_from_file_location(name, os.path.join(top, rel))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


calls = []


def rec(name):
    def f(*a, **k):
        calls.append([name, [repr(x) for x in a], {x: repr(y) for x, y in sorted(k.items())}])
        return Prof() if name == "profile" else name
    return f


class Prof:
    def __getattr__(self, name):
        return rec(name)


class Names:
    def __getattr__(self, name):
        return name


torch = types.ModuleType("torch")
torch.distributed = types.SimpleNamespace(is_initialized=lambda: False)
sys.modules["torch"] = torch
npu = types.ModuleType("torch_npu.profiler")
npu.ProfilerLevel = npu.ExportType = npu.ProfilerActivity = npu.AiCMetrics = Names()
for n in ("profile", "schedule", "tensorboard_trace_handler", "_ExperimentalConfig"):
    setattr(npu, n, rec(n))
sys.modules["torch_npu"] = types.ModuleType("torch_npu")
sys.modules["torch_npu"].profiler = npu
sys.modules["torch_npu.profiler"] = npu
load("mindspeed_llm.fsdp2.utils.logging", "mindspeed_llm/fsdp2/utils/logging.py")
A = load("mindspeed_llm.fsdp2.utils.arguments", "mindspeed_llm/fsdp2/utils/arguments.py")
P = load("mindspeed_llm.fsdp2.utils.profiler", "mindspeed_llm/fsdp2/utils/profiler.py")
# train_fsdp2.py's Arguments, as written there
tree = ast.parse(open(os.path.join(top, "train_fsdp2.py")).read())
klass = [s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == "Arguments"]
space = {n: getattr(A, n) for n in dir(A)}
exec(compile(ast.Module(body=klass, type_ignores=[]), "train_fsdp2.py", "exec"), space)
Arguments = space["Arguments"]
out = {}
if words == ["--options"]:
    parser = A._create_argument_parser(Arguments)
    plain = lambda v: v if v is None or isinstance(v, (bool, int, float, str)) or (
        isinstance(v, list) and all(isinstance(x, (int, str)) for x in v)) else repr(v)
    out["options"] = [[a.option_strings[0], a.nargs, getattr(a.type, "__name__", None),
                       list(a.choices) if a.choices else None, a.required, a.const,
                       a.option_strings[0][2:] in parser.dict_fields, plain(a.default)]
                      for a in parser._actions if a.option_strings and a.option_strings[0] != "-h"]
    print(json.dumps(out))
    sys.exit(0)
sys.argv = ["train_fsdp2.py"] + words
err = io.StringIO()
try:
    with contextlib.redirect_stderr(err):
        args = A.fsdp2_parse_args(Arguments)
except BaseException as e:
    lines = [x for x in err.getvalue().splitlines() if x.strip()]
    out["raises"] = [type(e).__name__, str(e)] + ([lines[-1]] if lines else [])
    print(json.dumps(out))
    sys.exit(0)
t = args.training
keys = [f.name for f in A.fields(t) if f.name.startswith("profile")] + ["max_steps", "num_train_epochs",
                                                                         "resume_from_checkpoint"]
out["training"] = {k: repr(getattr(t, k)) for k in keys}
out["ranks"] = {}
for rank in range(4):
    del calls[:]
    cfg = P.ProfilerConfig(enabled=t.profile, profile_step_start=t.profile_step_start,
                           profile_step_end=t.profile_step_end, profile_ranks=t.profile_ranks,
                           profile_level=t.profile_level, profile_export_type=t.profile_export_type,
                           profile_data_simplification=t.profile_data_simplification,
                           profile_with_cpu=t.profile_with_cpu, profile_with_stack=t.profile_with_stack,
                           profile_with_memory=t.profile_with_memory, profile_record_shapes=t.profile_record_shapes,
                           profile_save_path=t.profile_save_path, current_rank=rank)
    try:
        m = P.ProfilerManager(cfg)
        out["ranks"][rank] = {"profiler": m.profiler is not None,
                              "calls": [c for c in calls if c[0] != "add_metadata_json"]}
    except BaseException as e:
        out["ranks"][rank] = {"raises": [type(e).__name__, str(e)]}
print(json.dumps(out))
'''


def main(top: str) -> None:
    env = dict(os.environ, WORLD_SIZE="8", RANK="0", LOCAL_RANK="0")
    runs = []
    for text, words in CASES:
        with tempfile.TemporaryDirectory() as cwd:
            if text is not None:
                with open(os.path.join(cwd, words[0]), "w") as f:
                    f.write(text)
            got = subprocess.run([sys.executable, "-c", RUN, os.path.abspath(top), json.dumps(words)], cwd=cwd,
                                 env=env, capture_output=True, text=True, check=True)
            runs.append(dict(config=text, words=words, **json.loads(got.stdout.splitlines()[-1])))
    with tempfile.TemporaryDirectory() as cwd:
        got = subprocess.run([sys.executable, "-c", RUN, os.path.abspath(top), json.dumps(["--options"])], cwd=cwd,
                             env=env, capture_output=True, text=True, check=True)
    options = json.loads(got.stdout.splitlines()[-1])["options"]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "mindspeed_llm_fsdp_runs.json"), "w") as f:
        json.dump({"python": sys.version.split()[0], "runs": runs}, f, indent=1)
        f.write("\n")
    with open(os.path.join(here, "..", "..", "flake8_npuprof", "data", "mindspeed_llm_fsdp_options.json"), "w") as f:
        f.write('{"about": "the options MindSpeed-LLM c77308a1 registers (arguments.py _create_argument_parser over '
                'train_fsdp2.py\'s Arguments), as run by tests/data/mindspeed_llm_fsdp_runs.py: option, nargs, type, '
                'choices, required, const, a JSON dict field, default",\n "options": [\n')
        f.write(",\n".join("  " + json.dumps(o) for o in options) + "\n ]\n}\n")


if __name__ == "__main__":
    main(sys.argv[1])
