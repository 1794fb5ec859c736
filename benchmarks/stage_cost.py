"""Where a profiling file's instructions go: the inclusive instructions of named functions of the package while
the flake8 plugin analyses the listed files one after the other in one process, as `bench.py ratios` runs it.

    python benchmarks/stage_cost.py LIST MODULE:NAME[.NAME]...

LIST holds the files' paths, one a line; each MODULE:NAME is a function or method, e.g.
`flake8_npuprof.source.sites:collect` or `flake8_npuprof.setups.inventory:OrderWhenAsked._place`. Each is
measured in a process of its own under callgrind with collection on only inside it: the function is called through
`operator.call` (Python 3.11+), whose C entry `--toggle-collect` switches on and off. So a function that calls
itself, or one named where its callers look it up by another name, is not measured (0 M, or too little). The
plugin is warmed up first with one small setup, as `bench.py ratios` does (the start-up is not counted).
The figures docs/architecture.md gives in "Where a profiling file's time goes" come from here.

Keep a cut only when `bench.py ratios` agrees: this script counts the named function alone, that one the whole
flake8 process. Four cuts that took `_analyse` from 590.8 M to 579.8 M here made the plugin 14 M dearer inside
flake8 on the same 40 files, and were reverted (be5cd98); why the two disagree was not found.
"""

from __future__ import annotations

import importlib
import operator
import re
import shutil
import subprocess
import sys

WARM = ('import tensorflow as tf\nconfig = tf.ConfigProto()\n'
        'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
        'op.parameter_map["profiling_mode"].b = True\n'
        'op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p","task_trace":"on","L2":"on"}\'\n'
        'sess = tf.Session(config=config)\n')      # (bench.py's warm-up)


def run(listfile: str, spec: str) -> None:
    """The plugin over the listed files, the named function called through operator.call."""
    import ast
    from flake8_npuprof.plugin import NpuProfChecker
    list(NpuProfChecker(ast.parse(WARM), WARM.splitlines(True), "warm.py").run())
    module, _, names = spec.partition(":")
    owner = importlib.import_module(module)
    *path, last = names.split(".")
    for name in path:
        owner = getattr(owner, name)
    original = getattr(owner, last)

    def through_call(*args, **kwargs):
        return operator.call(original, *args, **kwargs)
    setattr(owner, last, staticmethod(through_call) if isinstance(vars(owner).get(last), staticmethod)
            else through_call)
    with open(listfile, encoding="utf-8") as fh:
        paths = [p for p in fh.read().split("\n") if p]
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        list(NpuProfChecker(ast.parse(text), text.splitlines(True), path).run())


def measure(listfile: str, spec: str) -> int:
    from bench import counted_env, valgrind         # (the count moves with the environment's size: bench.py)
    env = counted_env()
    argv = [sys.executable, __file__, "--run", listfile, spec]
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)        # bytecode cached
    proc = subprocess.run([valgrind(), "--tool=callgrind", "--callgrind-out-file=/dev/null", "--collect-atstart=no",
                           "--toggle-collect=_operator_call", *argv], env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if not found:
        raise SystemExit(f"callgrind gave no count: {proc.stderr[-500:]}")
    return int(found.group(1))


def main() -> None:
    if sys.argv[1:2] == ["--run"]:
        run(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    if not hasattr(operator, "call"):
        raise SystemExit("stage_cost.py needs Python 3.11 or later (operator.call)")
    if shutil.which("valgrind") is None:
        raise SystemExit("stage_cost.py counts instructions with valgrind, which is not installed")
    for spec in sys.argv[2:]:
        print(f"{spec}: {measure(sys.argv[1], spec) / 1e6:.1f} M instructions")


if __name__ == "__main__":
    main()
