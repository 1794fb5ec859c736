"""Runs MindSpeed-RL's ProfilerConfig (config_cls/mindstudio_config.py over base_config.py's BaseConfig.update) and
utils.py's profiler_start / get_grpo_profiler on a checkout and writes what each `profiler_config: {integrated: ...}`
made them do to mindspeed_rl_runs.json (the record tests/test_mindspeed_rl.py holds checks/mindspeed_rl.py and
emulate/mindspeed_rl.py to): `python3.11 tests/data/mindspeed_rl_runs.py TOP` where TOP holds MindSpeed-RL
05a90d77cb6c's mindspeed_rl/ (python 3.11 with PyYAML; torch, torch_npu and the package's logger are stand-ins).

Each case's `integrated` mapping is read with yaml.safe_load and given to ProfilerConfig(..., role="integrated") as
train_grpo.py's parse_training_config does; then, for ranks 0-3 (torch.distributed.get_rank()), profiler_start is
called as the workers call it: once with the config's role (the workers' initialize()) and, for each stage role the
workers name, with profiler_iteration 1-4 (prof_iteration starts at 1 and counts the updates). What each call
returned (None, or the profiler built: its schedule and trace folder) or raised is recorded."""

import ast
import json
import os
import sys
import types

import yaml

ROLES = ("actor_generate", "actor_compute_log_prob", "actor_update", "reference_compute_log_prob",
         "actor_image_embeds", "critic_compute_values", "critic_update")
CASES = [
    "{}",
    "profile: true",
    "profile: true\nprofile_ranks: [0, 2]\nprofile_save_path: ./profiler_data\nprofile_level: level1",
    "profile: true\nprofile_level: Level1",
    "profile: false\nprofile_level: Level1",
    "profile: true\nprofile_level: level1\nprofile_export_type: json",
    "profile: true\nprofile_ranks: [3]\nprofile_export_type: Text",
    "profile: true\nprofile_step: 3",
    "profile: false\nprofile-step-start: 3",
    "profile: true\nmodel: x",
    "profile: true\nstage: actor_generate\nprofile_step_start: 2\nprofile_step_end: 4",
    "profile: true\nstage: [actor_update, reference_compute_log_prob]",
    "profile: true\nstage: actor_train",
    "profile: true\nstage: [actor_train]",
    "profile: true\nstage: 5",
    "profile: true\nstage: integrated",
    "profile: true\nprofile_step_start: 3\nprofile_step_end: 3",
    "profile: true\nprofile_step_start: 3\nprofile_step_end: 2",
    "profile: true\nstage: actor_update\nprofile_step_start: 3\nprofile_step_end: 3",
    "profile: true\nprofile_step_start: 0\nprofile_step_end: 2",
    "profile: true\nprofile_ranks: 1",
    "profile: true\nprofile_ranks: '1'",
    "profile: true\nprofile_ranks: []",
    "profile: true\nprofile_ranks: [0, 1]\nstage: all\nrole: actor",
    "profile: 'false'",
    "profile: true\nprofile_level: level_none\nprofile_export_type: db\nprofile_with_cpu: false\nmstx: true",
]


class Names:
    def __getattr__(self, name):
        return name


def made(name):
    return lambda *a, **k: {"made": name, "args": [repr(x) for x in a], **{x: repr(y) for x, y in sorted(k.items())}}


def stand_ins(rank):
    npu = types.SimpleNamespace(ProfilerLevel=Names(), ExportType=Names(), ProfilerActivity=Names(),
                                AiCMetrics=Names(), _ExperimentalConfig=made("_ExperimentalConfig"),
                                schedule=made("schedule"), tensorboard_trace_handler=made("tensorboard_trace_handler"),
                                profile=lambda **k: types.SimpleNamespace(start=lambda: None, kwargs=k))
    torch = types.SimpleNamespace(distributed=types.SimpleNamespace(get_rank=lambda: rank))
    log = types.SimpleNamespace(warning=lambda m: warned.append(m))
    return {"torch": torch, "torch_npu": types.SimpleNamespace(profiler=npu), "os": os, "logger": log}


warned = []


def functions(path, names, space):
    tree = ast.parse(open(path, encoding="utf-8").read())
    body = [s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.ClassDef)) and s.name in names]
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), space)
    return space


def outcome(call):
    del warned[:]
    try:
        prof = call()
    except Exception as e:
        return {"raises": [type(e).__name__, str(e)]}
    if prof is None:
        return {"returns": None, **({"warned": list(warned)} if warned else {})}
    k = prof.kwargs
    return {"schedule": k["schedule"], "trace": k["on_trace_ready"]["args"], "activities": k["activities"],
            "level": k["experimental_config"]["profiler_level"], "export": k["experimental_config"]["export_type"]}


def main(top):
    pkg = os.path.join(top, "mindspeed_rl")
    space = functions(os.path.join(pkg, "config_cls", "base_config.py"), ("BaseConfig",), {})
    functions(os.path.join(pkg, "config_cls", "mindstudio_config.py"), ("ProfilerConfig",), space)
    runs = []
    for text in CASES:
        given = yaml.safe_load(text)
        run = {"integrated": text}
        try:
            cfg = space["ProfilerConfig"](given, role="integrated")
        except Exception as e:
            run["config"] = {"raises": [type(e).__name__, str(e)]}
            runs.append(run)
            continue
        run["config"] = {k: repr(v) for k, v in vars(cfg).items() if k in given or k in ("role", "stage")}
        run["ranks"] = {}
        for rank in range(4):
            fns = functions(os.path.join(pkg, "utils", "utils.py"), ("get_grpo_profiler", "profiler_start"),
                            stand_ins(rank))
            start = fns["profiler_start"]
            calls = [[cfg.role, None, outcome(lambda: start(cfg, cfg.role))]]
            for role in ROLES:
                for it in range(1, 5):
                    calls.append([role, it, outcome(lambda: start(cfg, role=role, profiler_iteration=it))])
            run["ranks"][rank] = [c for c in calls if c[2] != {"returns": None}]
        runs.append(run)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "mindspeed_rl_runs.json"), "w") as f:
        json.dump({"python": sys.version.split()[0], "runs": runs}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
