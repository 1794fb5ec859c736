"""Runs MindSpeed-MM's FSDP2 configuration reading and Profiler on a checkout and writes what each launch made them
do to mindspeed_fsdp_runs.json (the record tests/test_mindspeed_fsdp.py holds emulate/mindspeed_fsdp.py to):
`python3.11 tests/data/mindspeed_fsdp_runs.py TOP` where TOP holds MindSpeed-MM 57069cd's mindspeed_mm/ and examples/ (python 3.11
with pydantic 2.13.4 and PyYAML; torch, torch_npu, transformers and mindspeed are stubs). Each case runs in a
process of its own (ConfigManager registers the YAML's extra fields on the classes): it writes CONFIG (the YAML,
where the case has one, after every section but `tools` of examples/qwen3vl/qwen3vl_30B_config_v1.yaml) in a fresh
folder, runs `trainer.py WORDS...` as __main__ does up to
ConfigManager(config_class=Arguments).load_and_parse(), then builds Profiler(args.tools.profile) and asks each of
ranks 0-3 whether it profiles (torchrun's WORLD_SIZE=8, RANK=0 and LOCAL_RANK=0 in its environment)."""

import json
import os
import subprocess
import sys
import tempfile
import types

CASES = [
    # (the YAML's text or None for no file, the words after trainer.py)
    (None, ["config.yaml"]),
    ("training:\n  train_iters: 20\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n    ranks: [-1]\n    static_param:\n      start_step: 2\n"
     "      end_step: 5\n      level: level2\n      with_cpu: true\n      save_path: /tmp/p\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n    ranks: [1, 3]\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n    static_param:\n      level: level3\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: false\n    static_param:\n      level: level3\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n    static_param:\n      aic_metrics_type: Memory\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n    profile_type: dynamic\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: 'yes'\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n    ranks: '0'\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n    static_param:\n      start_step: '3'\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n    extra_key: 1\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: false\n", ["config.yaml", "tools.profile.enable=true"]),
    ("tools: [1]\n", ["config.yaml"]),
    ("tools:\n  profile:\n    enable: true\n", ["config.yml"]),
    ("tools:\n  profile:\n    enable: true\n", ["config.txt"]),
]

RUN = r'''
STUBBED = ("torch", "torch_npu", "transformers", "mindspeed", "torchdata")
import importlib.machinery, json, os, sys, types
top, words = sys.argv[1], json.loads(sys.argv[2])
sys.path.insert(0, top)


class Stub(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return type(name, (), {})


calls = []


def rec(name):
    def f(*a, **k):
        calls.append([name, [repr(x) for x in a], {x: repr(y) for x, y in sorted(k.items())}])
        return name
    return f


torch = Stub("torch")
torch.cuda = types.SimpleNamespace(is_available=lambda: False)
torch.npu = types.SimpleNamespace(config=types.SimpleNamespace())
torch.distributed = types.SimpleNamespace(get_rank=lambda: RANK[0])
npu = Stub("torch_npu")
prof = types.SimpleNamespace(
    ProfilerLevel=types.SimpleNamespace(Level0="Level0", Level1="Level1", Level2="Level2"),
    AiCMetrics=types.SimpleNamespace(PipeUtilization="PipeUtilization", ArithmeticUtilization="ArithmeticUtilization"),
    ProfilerActivity=types.SimpleNamespace(NPU="NPU", CPU="CPU"),
    _ExperimentalConfig=rec("_ExperimentalConfig"), profile=rec("profile"), schedule=rec("schedule"),
    tensorboard_trace_handler=rec("tensorboard_trace_handler"))
npu.profiler = prof
sub = types.ModuleType("torch_npu.profiler.profiler")
sub.analyse = None
RANK = [0]
log = types.ModuleType("mindspeed.fsdp.utils.log")
log.print_rank = lambda f, msg: None
mods = {"torch": torch, "torch_npu": npu, "torch_npu.profiler": prof, "torch_npu.profiler.profiler": sub,
        "transformers": Stub("transformers"), "mindspeed": types.ModuleType("mindspeed"),
        "mindspeed.fsdp": types.ModuleType("mindspeed.fsdp"), "mindspeed.fsdp.utils": types.ModuleType("m"),
        "mindspeed.fsdp.utils.log": log}
sys.modules.update(mods)


class Finder:
    """Any other module of torch, torch_npu, transformers or mindspeed: a stub."""
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in STUBBED:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        m = Stub(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


for m in STUBBED[:-1]:
    sys.modules[m].__path__ = []
sys.meta_path.insert(0, Finder())
for pkg in ("mindspeed_mm", "mindspeed_mm.fsdp", "mindspeed_mm.fsdp.data"):     # (their __init__s: not run)
    m = types.ModuleType(pkg)
    m.__path__ = [os.path.join(top, *pkg.split("."))]
    sys.modules[pkg] = m
sys.argv = ["mindspeed_mm/fsdp/train/trainer.py"] + words
out = {}
try:
    from mindspeed_mm.config.config_manager import ConfigManager
    from mindspeed_mm.fsdp.params.argument import Arguments
    args = ConfigManager(config_class=Arguments).load_and_parse()
except Exception as e:
    out["raises"] = [type(e).__name__, str(e).splitlines()[0], type(e.__cause__).__name__ if e.__cause__ else None,
                     str(e.__cause__).splitlines()[0] if e.__cause__ else None]
else:
    p = args.tools.profile
    out["profile"] = {"enable": repr(p.enable), "profile_type": repr(p.profile_type), "ranks": repr(p.ranks),
                      "static_param": {k: repr(getattr(p.static_param, k)) for k in sorted(p.static_param.to_dict())}}
    out["training"] = {k: repr(getattr(args.training, k)) for k in ("train_iters", "train_epochs", "load")}
    from mindspeed_mm.fsdp.tools.profiler import Profiler
    try:
        built = Profiler(p)
    except Exception as e:
        out["profiler_raises"] = [type(e).__name__, str(e)]
    else:
        out["calls"] = calls
        ranks = []
        for r in range(4):
            RANK[0] = r
            ranks.append(built._enable_profile())
        out["profiles_on_ranks_0_3"] = ranks
print(json.dumps(out))
'''


def main(top):
    import yaml
    runs = []
    # every section but `tools` of the example the launchers use (the data and model sections are required)
    with open(os.path.join(top, "examples", "qwen3vl", "qwen3vl_30B_config_v1.yaml")) as f:
        doc = yaml.safe_load(f)
    base = yaml.safe_dump({k: v for k, v in doc.items() if k != "tools"})
    for text, words in CASES:
        with tempfile.TemporaryDirectory() as d:
            if text is not None:
                with open(os.path.join(d, words[0]), "w") as f:
                    f.write(base + text)
            p = subprocess.run([sys.executable, "-c", RUN, os.path.abspath(top), json.dumps(words)], cwd=d,
                               capture_output=True, text=True,
                               env=dict(os.environ, WORLD_SIZE="8", RANK="0", LOCAL_RANK="0"))
            lines = p.stdout.strip().splitlines()
            got = json.loads(lines[-1]) if p.returncode == 0 and lines else {"crash": p.stderr[-800:]}
            runs.append({"config": text, "words": words, **got})
    import pydantic
    out = {"python": sys.version.split()[0], "pydantic": pydantic.VERSION, "runs": runs}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "mindspeed_fsdp_runs.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
