"""What `npuprof check` costs on shell launchers, and proof that the cheap scan (checks/shell_scan.py) loses no finding.

    python benchmarks/launchers.py same DIR... [--settled]    # every .sh under DIR: findings with the scans == with
                                                              # every walk (--settled: those launch_scan settles)
    python benchmarks/launchers.py cost DIR [--repeat 5] [--before CHECKOUT] [--instructions]
    python benchmarks/launchers.py lines [--repeat 5]           # CPU per msprof line, judged and parsed
    python benchmarks/launchers.py stages DIR                   # instructions of the scan's stages (below)

`same` checks each launcher twice in one process, as `check` does (shell_launches.check_file_each, the run's target and
the wider one) and with the scan, the prefilter skip and NPP016's gate turned off (every launcher walked, every script
it starts analysed, every launcher's lines read), and prints any launcher whose findings differ; exit status 1 then.
tests/test_launch_scan.py runs it on tests/ and examples/.

`cost`: CPU seconds of whole `npuprof check --no-cache -j1` processes, in adjacent pairs, the ratio the median of
the pairs' ratios: the launchers under DIR that name no profiling word ("prof" in any case: checks/shell_scan.py) and
cannot start a profiled script (by their walk: unstartable), then all that name no profiling word, in their projects
and copied alone, against as many empty `.sh` files (with why the scans still walk the others); with --before (a
checkout of the package, such as `git archive COMMIT | tar -x -C DIR`), the same for that checkout, and all of DIR's
launchers with this checkout against that one. --instructions: instead of CPU, the instructions (callgrind,
PYTHONHASHSEED=0, the bytecode caches written first) of one process of the launchers that cannot start a profiled
script and one of as many empty files, for each checkout: the same on every run, whatever the machine's load.

`stages`: where the instructions of the launchers `cost` measures go once the scan settles them (callgrind, as
--instructions): whole `check` processes of them, of as many empty files, and of them with the scan answering at once
(what reading and their own lines cost); then, in one process each, reading them, and added one at a time: the
profiling word and shell_scan.may_start, launch_scan._Text of each text that gets that far, and the rest of
why_walked (the region's listing, the files it follows, the prefilter of the scripts it names, the folder links).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

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
    """The check as before the scans: every launcher walked, every script it starts analysed, every launcher's lines
    read for NPP016 (checks/shell_syntax.py: without its gate)."""
    from flake8_npuprof.checks import shell_launches, shell_scan, shell_syntax
    from flake8_npuprof.engine import launch_scan
    saved = shell_scan.needs_walk, shell_launches._may_have_setups, launch_scan.starts_no_profiled_script, \
        shell_syntax._may_report
    shell_scan.needs_walk, shell_launches._may_have_setups = (lambda text: True), (lambda script: True)
    launch_scan.starts_no_profiled_script = lambda text, path: False
    shell_syntax._may_report = lambda text: True
    try:
        yield
    finally:
        shell_scan.needs_walk, shell_launches._may_have_setups, launch_scan.starts_no_profiled_script, \
            shell_syntax._may_report = saved


def _check(path: str, text: str) -> list:
    """What `check` finds in a launcher, for the run's target and the wider one (engine.run, before selection)."""
    from flake8_npuprof.checks.analysis import Settings
    from flake8_npuprof.engine.run import check_each
    from flake8_npuprof.knowledge.targets import Target
    from flake8_npuprof.source.files import DEFAULT_OFF, Selection
    return check_each(path, text, "shell", (Settings(), Settings(target=Target.parse("8.5", "any", "any"))),
                      Selection(("NPP", *DEFAULT_OFF)))        # every code, also those off by default


def _read(path: str) -> str:
    from flake8_npuprof.source.files import ReadError, read_source
    try:
        return read_source(path).text
    except (OSError, ReadError):
        return ""


def differences(paths, counts=None) -> List[str]:
    """The launchers whose findings differ between the scan and every walk. counts: filled with how many launchers
    have a finding ("found") and how many the scans do not walk ("skipped": checks/shell_scan.py, then
    engine/launch_scan.py)."""
    from flake8_npuprof.checks.shell_scan import needs_walk
    from flake8_npuprof.engine.launch_scan import why_walked
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
        counts["skipped"] = counts.get("skipped", 0) + (not needs_walk(text) or not why_walked(text, path))
    return out


BYTECODE = True         # the processes read the package's bytecode caches, as an installed package has them


def _cli(files: List[str], cwd: str, source: Optional[str] = None) -> float:
    """CPU seconds (user + system) of one `npuprof check --no-cache -j1 FILE...` process; source: run the package
    from that checkout instead of this one. With BYTECODE the caches are written by the first run and read by the
    others (an environment with PYTHONDONTWRITEBYTECODE=1 would make every process compile the whole package: about
    0.1 s of CPU that empty files and launchers both pay); without it, every process compiles."""
    env = dict(os.environ, PYTHONPATH=source or str(Path(__file__).resolve().parent.parent))
    if BYTECODE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        # (nor is a cache written before read: they are looked for in a folder where none is ever written)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "launchers-no-bytecode")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "flake8_npuprof", "check", "--no-cache", "-j1", "-q", *files], cwd=cwd,
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _instructions(files: List[str], cwd: str, source: Optional[str] = None) -> int:
    """Instructions (callgrind) of one `npuprof check --no-cache -j1 FILE...` process, after one run that writes
    the bytecode caches."""
    return _callgrind([sys.executable, "-m", "flake8_npuprof", "check", "--no-cache", "-j1", "-q", *files], cwd, source)


def _pairs(a, b, repeat: int) -> Tuple[float, float, float]:
    """Medians of a and b and of their ratio over repeat adjacent pairs (load on the machine hits both sides), after
    one run of each (which writes the bytecode caches)."""
    a(), b()
    rounds = [(a(), b()) for _ in range(repeat)]
    return (statistics.median(x for x, _ in rounds), statistics.median(y for _, y in rounds),
            statistics.median(x / y for x, y in rounds))


def walked(root: str, paths) -> dict:
    """Why each launcher is walked (engine/launch_scan.why_walked; "" when it is not), by relative path."""
    from flake8_npuprof.checks.shell_scan import needs_walk
    from flake8_npuprof.engine.launch_scan import why_walked
    out = {}
    for p in paths:
        text = _read(os.path.join(root, p))
        out[p] = why_walked(text, os.path.join(root, p)) if needs_walk(text) else ""
    return out


def unstartable(root: str, paths) -> List[str]:
    """The launchers that cannot start a profiled script, by their walk: none of its own launches starts a script
    that passes the prefilter (nor msprof), and the walk stops nowhere (the issue's population)."""
    from flake8_npuprof.checks.shell_launches import _may_have_setups
    from flake8_npuprof.shell.launches import steps
    from flake8_npuprof.shell.walk import Walk
    out = []
    for p in paths:
        full = os.path.join(root, p)
        w = Walk(full).run(_read(full))
        own = [la for la in steps(w) if la.command.path == os.path.abspath(full)]
        if not w.stopped and not any(la.msprof is not None or la.script and _may_have_setups(la.script)
                                     for la in own):
            out.append(p)
    return out


def cost(roots, repeat: int, before: Optional[str], instructions: bool = False) -> None:
    root = os.path.abspath(roots[0])
    every = [os.path.relpath(p, root) for p in launchers([root])]
    bare = [p for p in every if "prof" not in _read(os.path.join(root, p)).lower()]
    cannot = unstartable(root, bare)
    why = walked(root, bare)
    print(f"{len(cannot)} of them cannot start a profiled script, {sum(not why[p] for p in cannot)} of those not "
          "walked")
    print(f"{len(every)} launchers, {len(bare)} name no profiling word, {sum(not w for w in why.values())} of them "
          "not walked; why the others are:")
    for reason, n in collections.Counter(re.sub(r" \(.*| in \S+$|^\S+ may hold", lambda m: " may hold"
                                                if m.group().endswith("may hold") else "", w)
                                         for w in why.values() if w).most_common():
        print(f"  {n:4d}  {reason}")
    with tempfile.TemporaryDirectory() as tmp:
        alone = os.path.join(tmp, "alone")
        for i, p in enumerate(bare):
            os.makedirs(os.path.join(alone, str(i)))
            shutil.copy(os.path.join(root, p), os.path.join(alone, str(i), "run.sh"))
        empty = os.path.join(tmp, "empty")
        for i in range(len(bare)):
            os.makedirs(os.path.join(empty, str(i)))
            Path(empty, str(i), "run.sh").write_text("")
        shells = [os.path.join(str(i), "run.sh") for i in range(len(bare))]
        sides = [("this checkout", None)] + ([("before", before)] if before else [])
        if instructions:
            for name, source in sides:
                a, b = _instructions(cannot, root, source), _instructions(shells[:len(cannot)], empty, source)
                print(f"{name}: the {len(cannot)} launchers that cannot start a profiled script, in their projects: "
                      f"{a / 1e6:,.0f}M instructions; as many empty .sh files: {b / 1e6:,.0f}M; ratio {a / b:.2f}; "
                      f"{(a - b) / len(cannot) / 1e6:.2f}M a launcher above an empty file")
            return
        for name, source in sides:
            a, b, r = _pairs(lambda: _cli(cannot, root, source), lambda: _cli(shells[:len(cannot)], empty, source),
                             repeat)
            print(f"{name}: the {len(cannot)} launchers that cannot start a profiled script, in their projects: "
                  f"{a:.2f} s CPU; as many empty .sh files: {b:.2f} s; ratio {r:.2f}")
            a, b, r = _pairs(lambda: _cli(bare, root, source), lambda: _cli(shells, empty, source), repeat)
            print(f"{name}: the {len(bare)} launchers without a profiling word, in their projects: {a:.2f} s CPU; "
                  f"as many empty .sh files: {b:.2f} s; ratio {r:.2f}")
            a, b, r = _pairs(lambda: _cli(shells, alone, source), lambda: _cli(shells, empty, source), repeat)
            print(f"{name}: the same launchers copied alone (no scripts beside them): {a:.2f} s; empty: {b:.2f} s; "
                  f"ratio {r:.2f}")
    if before:
        a, b, r = _pairs(lambda: _cli(every, root, None), lambda: _cli(every, root, before), repeat)
        print(f"all {len(every)} launchers: {a:.2f} s CPU with this checkout, {b:.2f} s before; ratio {r:.2f}")
    print(f"(CPU seconds of whole `npuprof check --no-cache -j1 -q` processes, median of {repeat} adjacent pairs, "
          f"{'with the bytecode caches' if BYTECODE else 'each process compiling the package (--compile)'})")


# one process of `stages`: the settled launchers listed in argv[1], read, then as far as argv[2] says (cumulative)
_STAGE = """
import os, sys
from flake8_npuprof.engine import launch_scan
from flake8_npuprof.checks.shell_scan import may_start
from flake8_npuprof.source.files import read_source
from flake8_npuprof.source import observed
texts = [(os.path.abspath(p), read_source(p).text) for p in open(sys.argv[1]).read().split()]
stage = int(sys.argv[2])
with observed.one_run():                # (as in a check run)
    for path, text in texts:
        if stage == 1:
            "prof" in text.lower() or may_start(text)
        elif stage == 2 and "prof" not in text.lower() and may_start(text):
            launch_scan._text(path, text)
        elif stage == 3:
            launch_scan.why_walked(text, path)
"""

# `check` with the scan answering at once: what the settled launchers cost without it
_UNSCANNED = """
import sys
from flake8_npuprof.engine import launch_scan
from flake8_npuprof.cli import main
launch_scan.starts_no_profiled_script = lambda text, path: True
sys.exit(main(sys.argv[1:]))
"""


def _callgrind(argv: List[str], cwd: str, source: Optional[str] = None) -> int:
    """Instructions of one process (after one run that writes the bytecode caches), PYTHONHASHSEED=0, with the
    flake8_npuprof of `source` (a checkout's folder; this one's by default), in bench.counted_env's environment: the
    count moves by up to a few M with the size of the environment and of PYTHONPATH (where objects land in memory)."""
    from bench import counted_env, valgrind
    env = counted_env(source or str(Path(__file__).resolve().parent.parent))
    subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    proc = subprocess.run([valgrind(), "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], cwd=cwd, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if not found:
        raise SystemExit(f"callgrind gave no count: {proc.stderr[-500:]}")
    return int(found.group(1))


def stages(root: str) -> None:
    root = os.path.abspath(root)
    bare = [os.path.relpath(p, root) for p in launchers([root]) if "prof" not in _read(p).lower()]
    cannot = unstartable(root, bare)
    why = walked(root, cannot)
    settled = [p for p in cannot if not why[p]]
    check = [sys.executable, "-m", "flake8_npuprof", "check", "--no-cache", "-j1", "-q"]
    with tempfile.TemporaryDirectory() as tmp:
        listed = os.path.join(tmp, "settled.txt")
        Path(listed).write_text("\n".join(settled) + "\n")
        empty = os.path.join(tmp, "empty")
        for i in range(len(settled)):
            os.makedirs(os.path.join(empty, str(i)))
            Path(empty, str(i), "run.sh").write_text("")
        shells = [os.path.join(str(i), "run.sh") for i in range(len(settled))]
        whole = _callgrind(check + settled, root)
        blank = _callgrind(check + shells, empty)
        unscanned = _callgrind([sys.executable, "-c", _UNSCANNED, "check", "--no-cache", "-j1", "-q", *settled], root)
        steps = [_callgrind([sys.executable, "-c", _STAGE, listed, str(k)], root) for k in range(4)]
    print(f"{len(settled)} of the {len(cannot)} launchers that cannot start a profiled script are settled by the scan; "
          f"instructions:")
    print(f"  check of them {whole / 1e6:,.0f}M, of as many empty .sh files {blank / 1e6:,.0f}M, of them with the "
          f"scan answering at once {unscanned / 1e6:,.0f}M: the scan {(whole - unscanned) / 1e6:,.0f}M, reading them "
          f"and their own lines {(unscanned - blank) / 1e6:,.0f}M")
    names = ("reading them (one process)", "+ the profiling word and shell_scan.may_start", "+ launch_scan._Text",
             "+ the rest of why_walked (listing, followed files, prefilter, links)")
    for k, name in enumerate(names):
        print(f"  {name}: {(steps[k] - (steps[k - 1] if k else 0)) / 1e6:+,.0f}M" if k else
              f"  {name}: {steps[0] / 1e6:,.0f}M")


def lines(count: int, repeat: int) -> None:
    """CPU per msprof line: the first `count` msprof command lines of the oracle's record, one launcher of them, split
    into words and read as msprof's (shell/msprof_words.calls_in_shell: the parse), then judged on every target
    (checks/msprof.check_shell with the parsed calls); each round with the judgement's memos empty. Also how often
    getopt_long runs for a line (once per CANN version that has its own option tables) and how many chip runs judge
    it (once per version and chip)."""
    import json
    import shlex
    import time
    from flake8_npuprof.checks import msprof as M
    from flake8_npuprof.knowledge import msprof_getopt, msprof_run
    from flake8_npuprof.knowledge.targets import Target
    from flake8_npuprof.shell.msprof_words import calls_in_shell
    record = Path(__file__).resolve().parent.parent / "tests" / "oracle" / "v9.1.0.jsonl"
    argvs: List[list] = []
    for row in record.read_text().splitlines():
        case = json.loads(row)
        if case.get("kind") == "msprof" and case["argv"] not in argvs:
            argvs.append(case["argv"])
    text = "".join("msprof " + " ".join(shlex.quote(w) for w in argv) + "\n" for argv in argvs[:count])
    n = min(count, len(argvs))
    target = Target.parse()

    def empty() -> None:
        for memo in (M._judged, M._port_steps, msprof_getopt.parsed):
            memo.cache_clear()

    def parse() -> float:
        t = time.process_time()
        calls_in_shell(text)
        return time.process_time() - t

    def judge() -> float:
        calls = calls_in_shell(text)
        empty()
        t = time.process_time()
        M.check_shell(text, target, calls=calls)
        return time.process_time() - t

    judge()                             # (imports)
    a, b, r = _pairs(judge, parse, repeat)
    runs = {"getopt": 0, "chip": 0}
    getopt, steps = msprof_getopt.getopt, msprof_run._Run.steps

    def counted_getopt(*args, **kw):
        runs["getopt"] += 1
        return getopt(*args, **kw)

    def counted_steps(self):
        runs["chip"] += 1
        return steps(self)

    msprof_getopt.getopt, msprof_run._Run.steps = counted_getopt, counted_steps
    try:
        judge()
    finally:
        msprof_getopt.getopt, msprof_run._Run.steps = getopt, steps
    print(f"{n} msprof lines on every target ({len(target.versions)} CANN versions x {len(target.products)} chips): "
          f"{1000 * a / n:.3f} ms a line judged, {1000 * b / n:.3f} ms a line parsed; ratio {r:.1f} (median of "
          f"{repeat} adjacent pairs, CPU); per line: getopt_long {runs['getopt'] / n:.1f} times, "
          f"{runs['chip'] / n:.1f} chip runs")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("same", "cost", "lines", "stages"))
    parser.add_argument("dirs", nargs="*")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--settled", action="store_true",
                        help="same: only the launchers engine/launch_scan.py leaves unwalked (the others are walked "
                             "as with every walk: a large tree in less time)")
    parser.add_argument("--compile", action="store_true",
                        help="cost: no bytecode cache, every process compiles the package (as under "
                             "PYTHONDONTWRITEBYTECODE=1, which the figures before 2026-12-05 evening had)")
    parser.add_argument("--before", help="another checkout of the package (a git archive of the commit before), "
                                         "measured against this one")
    parser.add_argument("--instructions", action="store_true",
                        help="cost: instructions (callgrind) of the launchers that cannot start a profiled script and "
                             "of as many empty files, one process each, instead of CPU")
    args = parser.parse_intermixed_args(argv)
    if args.what == "same":
        paths = launchers(args.dirs)
        if args.settled:
            from flake8_npuprof.checks.shell_scan import needs_walk
            from flake8_npuprof.engine.launch_scan import why_walked
            paths = [p for p in paths if needs_walk(_read(p)) and not why_walked(_read(p), p)]
        counts: dict = {}
        bad = differences(paths, counts)
        for path in bad:
            print(f"differs: {path}")
        print(f"{len(paths)} launchers ({counts.get('found', 0)} with a finding, {counts.get('skipped', 0)} not "
              f"walked): {len(bad)} with different findings")
        return 1 if bad else 0
    if args.what == "lines":
        lines(300, args.repeat)
        return 0
    if args.what == "stages":
        stages(args.dirs[0])
        return 0
    global BYTECODE
    BYTECODE = not args.compile
    cost(args.dirs, args.repeat, args.before, args.instructions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
