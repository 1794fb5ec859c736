"""Runs MindSpeed's profile feature on a checkout (its parts taken from the files with ast, against argparse and stub
torch/torch_npu modules) and writes what each launch's words made it do to mindspeed_profile_runs.json (the record
tests/test_mindspeed_profile.py holds emulate/mindspeed_profile.py to):
`python3.11 tests/data/mindspeed_profile_runs.py TOP` where TOP holds MindSpeed 028de58c's mindspeed/ (the parser's
profile options are Megatron-LM core_v0.12.1's arguments.py#L1583-1606, written out below)."""

import argparse
import ast
import functools
import json
import os
import sys
import types

CASES = [
    ["--train-iters", "20"],
    ["--profile", "--train-iters", "20"],
    ["--profile", "--profile-step-start", "2", "--profile-step-end", "5", "--profile-level", "level1",
     "--profile-with-cpu", "--profile-with-stack", "--train-iters", "20"],
    ["--profile", "--profile-ranks", "-1", "--train-iters", "20"],
    ["--profile", "--profile-ranks", "1", "7", "--train-iters", "20"],
    ["--profile", "--optimization-level", "1", "--train-iters", "20"],
]


def take(top, path, names):
    tree = ast.parse(open(os.path.join(top, path)).read())
    return ast.Module(body=[n for n in tree.body if getattr(n, "name", None) in names], type_ignores=[])


def main(top):
    ns = {"argparse": argparse, "ArgumentParser": argparse.ArgumentParser, "Namespace": argparse.Namespace,
          "MindSpeedPatchesManager": object}
    exec(compile(take(top, "mindspeed/args_utils.py", {"add_args", "parser_unknown_args"}), "args_utils", "exec"), ns)
    exec(compile(take(top, "mindspeed/features_manager/feature.py", {"MindSpeedFeature"}), "feature", "exec"), ns)
    exec(compile(take(top, "mindspeed/features_manager/functional/profile.py", {"ProfileFeature"}), "profile", "exec"),
         ns)
    calls = []

    class Stub:
        def __init__(self, name):
            self.name = name

        def __getattr__(self, a):
            return Stub(self.name + "." + a)

        def __call__(self, *a, **k):
            calls.append([self.name.rsplit(".", 1)[-1], [repr(x) for x in a],
                          {x: y if isinstance(y, (int, str, bool)) else repr(y) for x, y in k.items()}])
            return self

        def __repr__(self):
            return self.name.rsplit(".", 1)[-1] if "Activity" not in self.name else self.name.rsplit(".", 1)[-1]

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False

        def step(self):
            calls.append(["step"])

    rank = [0]
    adaptor = {"torch": types.SimpleNamespace(distributed=types.SimpleNamespace(get_rank=lambda: rank[0])),
               "torch_npu": Stub("torch_npu"), "wraps": functools.wraps, "PROFILE_RECORD": None}
    exec(compile(take(top, "mindspeed/functional/profile/adaptor.py", {"train_wrapper", "train_step_wrapper"}),
                 "adaptor", "exec"), adaptor)

    def parser(megatron):
        p = argparse.ArgumentParser(allow_abbrev=False)
        ns["ProfileFeature"]().register_args(p)
        p.add_argument('--optimization-level', type=int, choices=[0, 1, 2], default=2)
        if megatron:
            p.add_argument('--profile', action='store_true')
            p.add_argument('--profile-step-start', type=int, default=10)
            p.add_argument('--profile-step-end', type=int, default=12)
            p.add_argument('--use-pytorch-profiler', action='store_true', dest='use_pytorch_profiler')
            p.add_argument('--profile-ranks', nargs='+', type=int, default=[0])
            p.add_argument('--train-iters', type=int)
        return p

    out = []
    for argv in CASES:
        known, unknown = parser(False).parse_known_args(argv)
        applied = bool(ns["ProfileFeature"]().is_need_apply(argparse.Namespace(
            **ns["parser_unknown_args"](vars(known), unknown))))
        for r in (0, 1):
            args = parser(True).parse_args(argv)
            rank[0] = r
            adaptor["get_full_args"] = lambda: args
            del calls[:]
            seen = {}

            def train():
                seen["args.profile in train()"] = args.profile
                step = adaptor["train_step_wrapper"](lambda: None) if applied else (lambda: None)
                for _ in range(args.train_iters):
                    step()
            (adaptor["train_wrapper"](train) if applied else train)()
            out.append({"words": argv, "rank": r, "applied": applied, **seen,
                        "calls": [c for c in calls if c[0] != "step"], "steps": sum(c == ["step"] for c in calls)})
    json.dump({"python": sys.version.split()[0], "runs": out}, open(os.path.join(os.path.dirname(__file__),
              "mindspeed_profile_runs.json"), "w"), indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
