"""What the cache and the worker processes of `npuprof check` save on a large tree (issue 28, item 1).

    python benchmarks/cache.py repo [--copies 20]   # the repository's tests/ and examples/, copied N times
    python benchmarks/cache.py stdlib               # the Python standard library this interpreter runs on
    python benchmarks/cache.py DIR                  # any tree (it is copied first; the copy holds the cache)

The tree is copied into a temporary folder, so the cache (`.npuprof_cache` in the working directory) starts
empty and the original is never touched. Then, each a fresh `npuprof check --format json .` process:

  cold, -j1     --no-cache, one process: what a run cost before the cache and the workers
  cold, -jN     an empty cache, N worker processes (N: the CPU count), writing the cache
  warm, -jN     the same command again, nothing changed (median of --warm runs)
  one edit      after one file's text changed: that file is checked again, the rest comes from the cache

Every run's standard output must be the same bytes as the first one's (the edit run is compared with a
--no-cache run of the edited tree): the script stops if not. Wall-clock seconds on a shared machine drift,
so the ratios are what to read. The README quotes these two trees and a 4,000-file model-zoo tree
(any folder of real training code will do: `python benchmarks/cache.py DIR`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def npuprof(*argv, cwd: Path):
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "flake8_npuprof", *argv], cwd=cwd, capture_output=True)
    return time.perf_counter() - start, proc


def copy_repo(dest: Path, copies: int) -> None:
    for k in range(copies):
        for part in ("tests", "examples"):
            shutil.copytree(ROOT / part, dest / f"copy_{k:03d}" / part,
                            ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))


def copy_tree(src: Path, dest: Path) -> None:
    shutil.copytree(src, dest / src.name, symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "site-packages", "*.pyc"))


def count_files(tree: Path) -> int:
    proc = subprocess.run([sys.executable, "-m", "flake8_npuprof", "check", "--show-files", "."], cwd=tree,
                          capture_output=True, text=True)
    return len(proc.stdout.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tree", help="repo, stdlib, or a directory")
    parser.add_argument("--copies", type=int, default=20, help="copies of tests/ and examples/ (repo)")
    parser.add_argument("--warm", type=int, default=3, help="warm runs (the median is shown)")
    args = parser.parse_args()
    jobs = os.cpu_count() or 1
    work = Path(tempfile.mkdtemp(prefix="npuprof-cache-bench-"))
    try:
        if args.tree == "repo":
            copy_repo(work, args.copies)
            name = f"tests/ and examples/ of this repository, {args.copies} copies"
        elif args.tree == "stdlib":
            copy_tree(Path(sysconfig.get_paths()["stdlib"]), work)
            name = f"the standard library of Python {sys.version.split()[0]}"
        else:
            copy_tree(Path(args.tree).resolve(), work)
            name = args.tree
        files = count_files(work)
        report = ["--format", "json", "."]
        cold1, first = npuprof("check", "--no-cache", "-j1", *report, cwd=work)
        coldn, proc = npuprof("check", f"-j{jobs}", *report, cwd=work)
        assert proc.stdout == first.stdout and proc.returncode == first.returncode, "cold -jN differs from -j1"
        warm = []
        for _ in range(args.warm):
            seconds, proc = npuprof("check", f"-j{jobs}", *report, cwd=work)
            assert proc.stdout == first.stdout, "a warm run's report differs"
            warm.append(seconds)
        edited = next(p for p in sorted(work.rglob("*.py")) if "profiling" in p.read_text("utf-8", "replace"))
        edited.write_text(edited.read_text("utf-8", "replace") + "\n# edited\n", encoding="utf-8")
        edit, proc = npuprof("check", f"-j{jobs}", *report, cwd=work)
        _, fresh = npuprof("check", "--no-cache", f"-j{jobs}", *report, cwd=work)
        assert proc.stdout == fresh.stdout, "after an edit the cached report differs from a fresh one"
        median = statistics.median(warm)
        print(f"{name}: {files:,} files, {jobs} CPUs, exit {first.returncode}, "
              f"{len(first.stdout):,} bytes of JSON report, identical in every run")
        print(f"  cold, -j1 (no cache)   {cold1:7.2f} s")
        print(f"  cold, -j{jobs} (writes)    {coldn:7.2f} s   {cold1 / coldn:5.1f}x")
        print(f"  warm, -j{jobs}             {median:7.2f} s   {cold1 / median:5.1f}x over cold -j1, "
              f"{coldn / median:.1f}x over cold -j{jobs} (runs: {', '.join(f'{w:.2f}' for w in warm)})")
        print(f"  one edit, -j{jobs}         {edit:7.2f} s   ({edited.relative_to(work)})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
