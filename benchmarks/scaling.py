"""Does one file's analysis cost grow with its size, shape by shape? Each shape is doubled from 100 to 3,200.

    python benchmarks/scaling.py                         # every shape, 100 .. 3,200
    python benchmarks/scaling.py --max 400 --shapes elif_chain one_line
    python benchmarks/scaling.py --memory                # also the peak of traced allocations (slower)

The shapes are the inputs whose cost once outgrew them (issue 43): a `'…' + 'a' + 'a' + …` chain inside
`as_bytes(…)` (a RecursionError after 15 s on 6.4 KB), an `if/elif` chain of environment assignments
(x3.9 then x6.1 per doubling), many statements on one line (8,000 on a 110 KB line: 10.5 s, 1.76 GB), a
chain of names each adding to the one before (the resolver's depth bound stops it early: NPP191), an
options dict of n unknown keys (each looked up against every other, then a did-you-mean per version), and as
controls a file of many setups and many plain lines. The shell launchers' shapes are those the fuzz tests guard
with a deadline (tests/test_launcher_args.py, tests/test_launcher_bounds.py): a launch line of n `--a=b` words after
a loop over the arguments that reads `--profiling` (8,000 words took 12 s), a variable of n `$1` fields given to
a script, emulated with one argument (5,000 took 4 s), and a variable of 100 words written n times (its words
grow with n up to the walk's bound of 200,000, NPP191 from n = 2,000). Each size is analysed in this
process (`checks.analysis.analyse`, the plugin's and the CLI's engine; a launcher by `check`'s engine,
`engine.run.check_shell`, or emulate's, beside a script with a setup) --repeat times; the table gives the
median CPU seconds, the ratio to the size before, and the exponent log2(ratio): about 1 is linear, 2 is
quadratic. A doubling's ratio is at most 2.5 on a linear shape here, allowing for noise below 10 ms.
Where Python cannot parse a size (3.11 nests about 1,000 `+` or `elif`), the row says NPP192, and where a
bound stopped the analysis, NPP191: the cost of those rows is the bound's, not the shape's.
CPU time, not the wall clock: the machine's other load does not count.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flake8_npuprof.checks.analysis import analyse  # noqa: E402

HEAD = ('import os\nimport tensorflow as tf\nconfig = tf.ConfigProto()\n'
        'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
        'op.parameter_map["profiling_mode"].b = True\n')


def concat(n: int) -> str:
    return (HEAD + "x = os.environ['A']\nop.parameter_map['profiling_options'].s = tf.compat.as_bytes("
            "'{\"output\":\"' + x + '\"'" + " + 'a'" * n + " + '}')\n")


def elif_chain(n: int) -> str:
    return "import os\nimport sys\nmode = sys.argv[1]\n" + "".join(
        f'{"if" if k == 0 else "elif"} mode == "m{k}":\n    os.environ["PROFILING_MODE"] = "true"\n'
        f'    os.environ["PROFILING_OPTIONS"] = \'{{"output":"/tmp/p{k}","task_trace":"on"}}\'\n' for k in range(n))


def one_line(n: int) -> str:
    return HEAD + "; ".join(f"x{k} = f{k}(a{k})" for k in range(n)) + "\n"


def name_chain(n: int) -> str:
    steps = "".join(f"v{k} = v{k - 1} + ',\"k{k}\":\"on\"'\n" for k in range(1, n))
    return (HEAD + "v0 = '{\"output\":\"/tmp/p\"'\n" + steps +
            f"op.parameter_map['profiling_options'].s = tf.compat.as_bytes(v{n - 1} + '}}')\n")


def many_keys(n: int) -> str:
    return (HEAD + "import json\nop.parameter_map['profiling_options'].s = tf.compat.as_bytes(json.dumps("
            "{'output': '/tmp/p', " + ", ".join(f"'k{k}': 'on'" for k in range(n)) + "}))\n")


def setups(n: int) -> str:
    block = ('config = tf.ConfigProto()\ncustom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n'
             'custom_op.name = "NpuOptimizer"\ncustom_op.parameter_map["profiling_mode"].b = True\n'
             'custom_op.parameter_map["profiling_options"].s = b\'{{"output":"/tmp/p{k}","L2":"on"}}\'\n'
             'sess = tf.Session(config=config)\n')
    return "import tensorflow as tf\n" + "".join(block.format(k=k) for k in range(n))


def plain_lines(n: int) -> str:
    return HEAD + "".join(f"x{k} = f{k}(a{k})\n" for k in range(n))


LOOP = ("#!/bin/bash\nprofiling=False\nfor para in $*\ndo\n    if [[ $para == --profiling* ]];then\n"
        "        profiling=`echo ${para#*=}`\n    fi\ndone\n")


def launch_line(n: int) -> str:
    return LOOP + "python3 train.py --profiling=${profiling} --epochs=1" + " --a=b" * n + "\n"


def dollar_fields(n: int) -> str:
    return '#!/bin/bash\nARGS="' + " $1" * n + '"\npython3 train.py $ARGS\n'


def var_words(n: int) -> str:
    return ('#!/bin/bash\nexport PROFILING_MODE=true\nX="' + " ".join(f"w{k}" for k in range(100)) + '"\necho' +
            " $X" * n + "\npython3 train.py\n")


SHAPES = {f.__name__: f for f in (concat, elif_chain, one_line, name_chain, many_keys, setups, plain_lines,
                                  launch_line, dollar_fields, var_words)}
EMULATED = {"dollar_fields"}            # the shapes emulate's replay is measured on (with one argument: `--x=1`)
SHELL = {"launch_line", "var_words"} | EMULATED
_folder: list = []                      # the launchers' folder, with train.py (a setup that reads --profiling)


def _run(name: str, text: str) -> set:
    """The codes of one analysis of the shape's text: a Python file by the plugin's engine, a launcher by check's
    (or emulate's, which gives no codes)."""
    if name not in SHELL:
        return {f.code for f in analyse(text, None, "scaling.py")}
    from flake8_npuprof.checks.launcher_switch import EXAMPLE_SCRIPT
    from flake8_npuprof.engine.run import check_shell
    from flake8_npuprof.knowledge.run_settings import Settings
    from flake8_npuprof.knowledge.targets import Target
    if not _folder:
        _folder.append(tempfile.mkdtemp(prefix="scaling-"))
        Path(_folder[0], "train.py").write_text(EXAMPLE_SCRIPT)
    path = os.path.join(_folder[0], "run.sh")
    Path(path).write_text(text)
    if name in EMULATED:
        from flake8_npuprof.emulate.script import emulate_path
        emulate_path(path, Target.parse("8.0", "910B"), use_env=False, environ={}, launcher_args=["--x=1"])
        return set()
    return {f.code for f in check_shell(text, path, Settings())}


def measure(name: str, text: str, repeat: int, memory: bool):
    """(median CPU seconds, peak traced MB or None, the codes that say a run stopped short)."""
    times, peak, codes = [], None, set()
    for _ in range(repeat):
        start = time.process_time()
        found = _run(name, text)
        times.append(time.process_time() - start)
        codes = found & {"NPP000", "NPP191", "NPP192"}
    if memory:
        tracemalloc.start()
        _run(name, text)
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
    return statistics.median(times), peak, codes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", nargs="+", choices=sorted(SHAPES), default=list(SHAPES))
    parser.add_argument("--min", type=int, default=100)
    parser.add_argument("--max", type=int, default=3200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory", action="store_true", help="also the peak of traced allocations")
    args = parser.parse_args(argv)
    sizes = []
    n = args.min
    while n <= args.max:
        sizes.append(n)
        n *= 2
    analyse(setups(2), None, "warm.py")               # imports and first-use caches
    for name in set(args.shapes) & SHELL:
        _run(name, SHAPES[name](2))
    print(f"{'shape':<12} {'n':>6} {'KB':>8} {'cpu s':>8} {'ratio':>6} {'exp':>5} {'MB':>7}  stopped")
    worst = {}
    for name in args.shapes:
        before = None
        for n in sizes:
            text = SHAPES[name](n)
            seconds, peak, codes = measure(name, text, args.repeat, args.memory)
            ratio = seconds / before if before and before > 0 else None
            exponent = math.log2(ratio) if ratio else None
            if ratio and before >= 0.01 and not codes:
                worst[name] = max(worst.get(name, 0.0), ratio)
            nan = float("nan")
            print(f"{name:<12} {n:>6} {len(text) / 1024:>8.1f} {seconds:>8.3f} {ratio or nan:>6.2f} "
                  f"{nan if exponent is None else exponent:>5.2f} {nan if peak is None else peak:>7.1f}  "
                  f"{' '.join(sorted(codes))}", flush=True)
            before = seconds
    print()
    for name, ratio in worst.items():
        print(f"{name}: worst doubling x{ratio:.2f} (exponent {math.log2(ratio):.2f})"
              f"{'' if ratio <= 2.5 else '  <- over 2.5'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
