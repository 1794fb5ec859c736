"""Peak memory of `npuprof check` as the tree grows, and what its cache takes on disk against what it holds.

    python benchmarks/tree_memory.py DIR...            # each DIR: a tree (e.g. zoo_trees.py --projects 130 / 520)
    python benchmarks/tree_memory.py DIR... --before CHECKOUT
    python benchmarks/tree_memory.py DIR... --peak-only  # the peak alone (a 16k-file tree: minutes a run)

For each tree: the peak resident memory (ru_maxrss) of one `npuprof check --no-cache -j1 -q` process over it
(issue 44: within 1.3x from 4k to 13.5k files), then a cold run writing a fresh cache and a warm one reading it
(the same report bytes), and the cache's files: their content (bytes) against the disk they take (blocks), the
target below 2x. With --before (a checkout of the package, e.g. `git archive COMMIT | tar -x -C DIR`), the
same for that checkout.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent.parent


def _run(tree: str, source: Optional[str], *extra: str) -> tuple:
    """(peak RSS in MiB, CPU seconds, report bytes) of one check process."""
    env = dict(os.environ, PYTHONPATH=source or str(HERE))
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        code = ("import resource, runpy, sys\nsys.argv = ['npuprof'] + sys.argv[1:]\n"
                "try:\n    runpy.run_module('flake8_npuprof', run_name='__main__')\nexcept SystemExit:\n    pass\n"
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run([sys.executable, "-c", code, "check", "-j1", "-q", "--exit-zero", "--format", "json",
                               "--output-file", out.name, *extra, "."], cwd=tree, env=env, capture_output=True,
                              text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak = int(proc.stderr.strip().splitlines()[-1]) / 1024
        return peak, after.ru_utime - before.ru_utime, Path(out.name).read_bytes()


def _cache_size(folder: str) -> tuple:
    """(entry files, bytes they hold, bytes of disk they take); the folder's .gitignore and tag left out."""
    files = content = disk = 0
    for root, _, names in os.walk(folder):
        for name in names:
            if not name.endswith(".json"):
                continue
            st = os.lstat(os.path.join(root, name))
            files += 1
            content += st.st_size
            disk += st.st_blocks * 512
    return files, content, disk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--before", help="another checkout of the package, measured against this one")
    parser.add_argument("--peak-only", action="store_true", help="no cache runs: the peak and the CPU only")
    args = parser.parse_args()
    sides = [("this checkout", None)] + ([("before", args.before)] if args.before else [])
    for tree in args.trees:
        count = sum(1 for _ in Path(tree).rglob("*.py"))
        for name, source in sides:
            peak, cpu, _ = _run(tree, source, "--no-cache")
            if args.peak_only:
                print(f"{tree} ({count:,} .py), {name}: peak RSS {peak:.1f} MiB ({cpu:.1f} s CPU, no cache)")
                continue
            with tempfile.TemporaryDirectory() as tmp:
                cache = os.path.join(tmp, "cache")
                _, cold_cpu, cold = _run(tree, source, "--cache-dir", cache)
                _, warm_cpu, warm = _run(tree, source, "--cache-dir", cache)
                files, content, disk = _cache_size(cache)
            print(f"{tree} ({count:,} .py), {name}: peak RSS {peak:.1f} MiB ({cpu:.1f} s CPU, no cache); cache: "
                  f"{files:,} files, {content / 2**20:.1f} MiB content, {disk / 2**20:.1f} MiB on disk "
                  f"({disk / max(content, 1):.2f}x); cold {cold_cpu:.1f} s, warm {warm_cpu:.1f} s CPU, "
                  f"{'same report' if cold == warm else 'REPORTS DIFFER'}")


if __name__ == "__main__":
    main()
