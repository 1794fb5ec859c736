"""Cost of the NPP plugin, as ratios against flake8 without it (same files, same -j, same run).

    python benchmarks/bench.py prefilter          # per-file cost on files without profiling markers
    python benchmarks/bench.py stdlib [-j N]      # flake8 over the standard library, with / without NPP
    python benchmarks/bench.py corpus [-j N]      # flake8 over a generated profiling-heavy corpus

Timings are wall-clock seconds of whole flake8 runs; with and without the plugin alternate
(`--repeat` pairs) and the medians are compared, so load on the machine hits both sides.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Runs flake8 in a fresh process, optionally hiding the NPP plugin from flake8's plugin finder.
DRIVER = r"""
import os, sys
from flake8.plugins import finder
if os.environ.get("BENCH_WITHOUT_NPP"):
    original = finder._find_importlib_plugins
    def _without_npp():
        for plugin in original():
            if plugin.package.replace("_", "-") != "flake8-npuprof":
                yield plugin
    finder._find_importlib_plugins = _without_npp
from flake8.main.cli import main
main(sys.argv[1:])
"""


def flake8_seconds(paths, jobs: int, without: bool, extra=()) -> float:
    env = dict(os.environ)
    if without:
        env["BENCH_WITHOUT_NPP"] = "1"
    else:
        env.pop("BENCH_WITHOUT_NPP", None)
    cmd = [sys.executable, "-c", DRIVER, "--isolated", f"-j{jobs}", "--exit-zero", "--output-file", os.devnull,
           *extra, *map(str, paths)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def compare(paths, jobs: int, repeat: int, label: str, extra=()) -> float:
    """Median CPU seconds (user+sys of flake8 and its workers) with / without the plugin."""
    with_npp, without_npp = [], []
    flake8_seconds(paths, jobs, True, extra)          # warm the file cache once
    for _ in range(repeat):
        without_npp.append(flake8_seconds(paths, jobs, True, extra))
        with_npp.append(flake8_seconds(paths, jobs, False, extra))
    a = statistics.median(c for _, c in with_npp)
    b = statistics.median(c for _, c in without_npp)
    wa = statistics.median(w for w, _ in with_npp)
    wb = statistics.median(w for w, _ in without_npp)
    ratio = a / b
    print(f"{label}: flake8 -j{jobs} CPU with NPP {a:.2f}s, without {b:.2f}s -> ratio {ratio:.3f} "
          f"({(ratio - 1) * 100:+.1f} %); wall {wa:.2f}s / {wb:.2f}s (medians of {repeat} pairs)")
    return ratio


def stdlib_files():
    root = Path(sysconfig.get_paths()["stdlib"])
    return [p for p in sorted(root.rglob("*.py")) if "site-packages" not in p.parts]


def bench_prefilter(_args) -> None:
    from flake8_npuprof.analysis import analyse
    from flake8_npuprof.prefilter import might_configure_profiling
    texts = []
    for path in stdlib_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if not might_configure_profiling(text):
            texts.append(text)
    start = time.perf_counter()
    for text in texts:
        analyse(text, None)
    per_file = (time.perf_counter() - start) / len(texts) * 1000
    heavy = [m for m in ("astroid", "jsonschema") if m in sys.modules]
    print(f"prefilter: {len(texts)} stdlib files without markers, {per_file:.4f} ms per file "
          f"(budget 0.05 ms); heavy modules imported: {heavy or 'none'}")


def bench_stdlib(args) -> None:
    root = Path(sysconfig.get_paths()["stdlib"])
    compare([root], args.jobs, args.repeat, f"stdlib ({len(stdlib_files())} files)",
            extra=["--exclude", "site-packages"])


def bench_corpus(args) -> None:
    sys.path.insert(0, str(HERE))
    from make_corpus import write_corpus
    with tempfile.TemporaryDirectory() as tmp:
        files = write_corpus(Path(tmp), args.files)
        compare([tmp], args.jobs, args.repeat, f"profiling corpus ({len(files)} files)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("prefilter", "stdlib", "corpus", "all"))
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--files", type=int, default=300, help="corpus size")
    args = parser.parse_args()
    todo = ("prefilter", "stdlib", "corpus") if args.what == "all" else (args.what,)
    for what in todo:
        globals()[f"bench_{what}"](args)


if __name__ == "__main__":
    main()
