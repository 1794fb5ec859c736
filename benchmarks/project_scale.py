"""flake8 time on generated multi-file training projects: does it grow linearly with the tree?

    python benchmarks/project_scale.py                  # 25, 50, 100, 200 projects, -j1
    python benchmarks/project_scale.py --sizes 50 400 --jobs 2 --repeat 3

Each generated project is what issue 12 is about: `hyperparameters.py` defines absl flags,
`config.py` module-level constants, `utils/__init__.py` re-exports a flag module, and three
training scripts import them (so the plugin reads siblings through the project index), next to
a launcher. Every project also holds plain modules without profiling markers. The table gives
wall-clock and CPU seconds (medians of --repeat runs), CPU seconds per thousand files and the
ratio of each size's CPU time to the smallest size's, against the ratio of their file counts:
linear growth keeps the two close (a quadratic index would make the time ratio the square of the
size ratio). CPU time is compared because the wall clock also counts the machine's other load.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HYPER = '''from absl import flags

FLAGS = flags.FLAGS
flags.DEFINE_boolean("profiling", False, "collect a profile")
flags.DEFINE_string("profiling_options", '{{"output": "/tmp/prof{n}", "task_trace": "on", "aicpu": "of"}}', "opts")
flags.DEFINE_integer("batch_size", {n}, "batch")
'''
CONFIG = '''PROF_DIR = "/tmp/prof{n}"
PROF_OPTS = '{{"output": "%s", "training_trace": "on", "task_trace": "on", "fp_point": "", "bp_point": ""}}' % PROF_DIR
LEARNING_RATE = 0.{n}
'''
FLAGS_DEF = '''import tensorflow as tf

tf.app.flags.DEFINE_string("prof_out", "/tmp/out{n}", "where")
FLAGS = tf.app.flags.FLAGS
'''
TRAIN = '''import tensorflow as tf
from npu_bridge.npu_init import *
from hyperparameters import FLAGS
import config as cfg
from utils import FLAGS as UFLAGS


def session_{k}():
    config = tf.compat.v1.ConfigProto()
    custom_op = config.graph_options.rewrite_options.custom_optimizers.add()
    custom_op.name = "NpuOptimizer"
    custom_op.parameter_map["profiling_mode"].b = FLAGS.profiling
    custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(FLAGS.profiling_options)
    return tf.compat.v1.Session(config=config)


def estimator_{k}():
    return NPURunConfig(profiling_config=ProfilingConfig(enable_profiling=True, profiling_options=cfg.PROF_OPTS),
                        model_dir=UFLAGS.prof_out)
'''
PLAIN = '''import os


def helper_{k}(path):
    return os.path.join(path, "data_{k}")
'''
LAUNCHER = '''#!/bin/bash
cd "$(dirname "$0")"
export PROFILING_MODE=true
python3 train_0.py --profiling=True
'''


def generate(root: Path, projects: int) -> int:
    """Write `projects` projects under root; the number of Python files written."""
    count = 0
    for n in range(projects):
        p = root / f"project_{n:04d}"
        (p / "utils").mkdir(parents=True)
        files = {"hyperparameters.py": HYPER.format(n=n), "config.py": CONFIG.format(n=n),
                 "utils/__init__.py": "from .flags_def import FLAGS\n", "utils/flags_def.py": FLAGS_DEF.format(n=n)}
        for k in range(3):
            files[f"train_{k}.py"] = TRAIN.format(k=k)
            files[f"utils/plain_{k}.py"] = PLAIN.format(k=k)
        for name, text in files.items():
            (p / name).write_text(text)
        (p / "run_1p.sh").write_text(LAUNCHER)
        count += len(files)
    return count


def flake8_seconds(root: Path, jobs: int):
    """(wall-clock, CPU) seconds of one flake8 run; CPU time (user + system of the run) is what the
    comparison uses, since the wall clock also measures whatever else the machine is doing."""
    cmd = [sys.executable, "-m", "flake8", "--isolated", "--select", "NPP", f"-j{jobs}", "--exit-zero",
           "--output-file", "/dev/null", str(root)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[25, 50, 100, 200], help="projects per tree")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="npuprof-scale-") as tmp:
        for size in sorted(args.sizes):
            root = Path(tmp) / f"tree_{size}"
            files = generate(root, size)
            runs = [flake8_seconds(root, args.jobs) for _ in range(args.repeat)]
            rows.append((size, files, statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)))
    base_files, base_cpu = rows[0][1], rows[0][3]
    print(f"{'projects':>8} {'files':>7} {'wall s':>7} {'cpu s':>7} {'cpu s/1000 files':>17} {'files ratio':>11} "
          f"{'cpu ratio':>9}")
    for size, files, wall, cpu in rows:
        print(f"{size:>8} {files:>7} {wall:>7.2f} {cpu:>7.2f} {1000 * cpu / files:>17.2f} "
              f"{files / base_files:>11.1f} {cpu / base_cpu:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
