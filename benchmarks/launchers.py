"""What `npuprof check` costs on shell launchers, and proof that the cheap scan (emulate/scan.py) loses no finding.

    python benchmarks/launchers.py same DIR...      # every .sh under DIR: findings with the scan == with every walk
    python benchmarks/launchers.py cost DIR [--repeat 5]

`same` checks each launcher twice in one process, as `check` does (sequence.check_file_each, the run's target and
the wider one) and with the scan and the prefilter skip turned off (every launcher walked, every script it starts
analysed), and prints any launcher whose findings differ; exit status 1 then. tests/test_launch_scan.py runs it on
tests/ and examples/.

`cost`: the launchers under DIR that name no profiling word ("prof" in any case: emulate/scan.py) against as many
empty `.sh` files, and all of DIR's launchers, as CPU seconds of the checks themselves in one process (each file
read and checked, the package imported before), alternating the two sides `--repeat` times; the ratio is the
median of the rounds' ratios. Per file: the same `check_each` the CLI runs, without the CLI's start-up and output.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def launchers(roots) -> List[str]:
    out = []
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            out.extend(os.path.join(folder, f) for f in sorted(files) if f.endswith(".sh"))
    return out


@contextmanager
def every_walk() -> Iterator[None]:
    """The check as before the scan: every launcher walked, every script it starts analysed."""
    from flake8_npuprof.emulate import launcher, scan
    saved = scan.needs_walk, launcher._may_have_setups
    scan.needs_walk, launcher._may_have_setups = (lambda text: True), (lambda script: True)
    try:
        yield
    finally:
        scan.needs_walk, launcher._may_have_setups = saved


def _check(path: str, text: str) -> list:
    from flake8_npuprof.checks.analysis import Settings
    from flake8_npuprof.emulate.sequence import check_file_each
    from flake8_npuprof.knowledge.targets import Target
    return check_file_each(text, path, (Settings(), Settings(target=Target.parse("8.5", "any", "any"))))


def _read(path: str) -> str:
    from flake8_npuprof.source.files import ReadError, read_source
    try:
        return read_source(path).text
    except (OSError, ReadError):
        return ""


def differences(paths, counts=None) -> List[str]:
    """The launchers whose findings differ between the scan and every walk. counts: filled with how many launchers
    have a finding ("found") and how many the scan does not walk ("skipped")."""
    from flake8_npuprof.emulate.scan import needs_walk
    out = []
    counts = {} if counts is None else counts
    for path in paths:
        text = _read(path)
        fast = _check(path, text)
        with every_walk():
            slow = _check(path, text)
        if fast != slow:
            out.append(path)
        counts["found"] = counts.get("found", 0) + any(slow)
        counts["skipped"] = counts.get("skipped", 0) + (not needs_walk(text))
    return out


def _cpu(paths, texts) -> float:
    from flake8_npuprof.emulate import launcher
    launcher._NAMES_PROFILING.clear()
    t = time.process_time()
    for path in paths:
        _check(path, texts.get(path) if texts is not None else _read(path))
    return time.process_time() - t


def cost(roots, repeat: int) -> None:
    from flake8_npuprof.emulate.scan import needs_walk
    every = launchers(roots)
    bare = [p for p in every if "prof" not in _read(p).lower()]
    skipped = [p for p in every if not needs_walk(_read(p))]
    print(f"{len(every)} launchers, {len(bare)} name no profiling word, {len(skipped)} not walked")
    with tempfile.TemporaryDirectory() as tmp:
        empty = []
        for i in range(len(bare)):
            p = os.path.join(tmp, f"{i}.sh")
            Path(p).write_text("")
            empty.append(p)
        _cpu(bare[:20], None)           # imports, first analyses
        rounds = []
        for _ in range(repeat):
            a, b = _cpu(bare, None), _cpu(empty, None)
            rounds.append((a, b))
        ratio = statistics.median(a / b for a, b in rounds)
        a, b = statistics.median(a for a, _ in rounds), statistics.median(b for _, b in rounds)
        print(f"no profiling word: {a:.3f} s for {len(bare)} launchers, {b:.3f} s for as many empty .sh files: "
              f"ratio {ratio:.2f} (median of {repeat} rounds)")
    times = []
    for _ in range(repeat):
        times.append(_cpu(every, None))
        with every_walk():
            times.append(-_cpu(every, None))
    now = statistics.median(t for t in times if t > 0)
    before = statistics.median(-t for t in times if t < 0)
    print(f"all {len(every)} launchers: {now:.3f} s with the scan, {before:.3f} s walking every one "
          f"(ratio {now / before:.2f}, median of {repeat})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("same", "cost"))
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    if args.what == "same":
        paths = launchers(args.dirs)
        counts: dict = {}
        bad = differences(paths, counts)
        for path in bad:
            print(f"differs: {path}")
        print(f"{len(paths)} launchers ({counts.get('found', 0)} with a finding, {counts.get('skipped', 0)} not "
              f"walked): {len(bad)} with different findings")
        return 1 if bad else 0
    cost(args.dirs, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
