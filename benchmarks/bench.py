"""Cost of the NPP plugin, as ratios against flake8 without it (same files, same -j, same run).

    python benchmarks/bench.py scripts [DIR] [-j N]   # real training scripts (default: the generated corpus)
    python benchmarks/bench.py stdlib [-j N]          # flake8 over the standard library, with / without NPP
    python benchmarks/bench.py startup                # flake8 on a one-line file: the start-up cost
    python benchmarks/bench.py memory [DIR]           # the plugin over 1,000 files in one process
    python benchmarks/bench.py setups                 # one file of 5,000 setups reusing the same names
    python benchmarks/bench.py prefilter              # per-file cost on files without profiling markers
    python benchmarks/bench.py instructions [DIR] [--sample N]  # the same ratio counted in instructions
    python benchmarks/bench.py ratios DIR [--profiling-only | --setups-only] [--scripts-only] [--lib LIB] [--lines N]
                                          [--save-sample FILE | --sample-file FILE]
    python benchmarks/bench.py all [DIR]

Timings are of whole flake8 runs; with and without the plugin run in adjacent pairs (`--repeat`),
and the ratio is the median of the pairs' ratios, so load on the machine hits both sides. Targets: <= 1.15x on real
training scripts, <= 1.01x on the standard library, <= +20 ms start-up, flat memory.

`instructions` needs valgrind: it counts the instructions flake8 -j1 executes with and without the
plugin (callgrind, PYTHONHASHSEED=0), one pair, the same figure on every run. It is the arbiter on
a machine whose speed drifts (a VM's neighbours): about 40x slower, so it samples N files evenly.

`ratios` gives each figure issue 27 sets a target for, in one run, as a ratio to work the same run
does without us: (1) the plugin on DIR's training scripts against what parsing and tokenizing them
costs (flake8 does both for every file; target <= 0.25), and flake8 -j1 on them with and without
the plugin (<= 1.05); (2) `npuprof check` on ordinary library code (LIB, default the standard
library) against reading and parsing the same files (<= 0.5); (3) the language server's CPU per
edit on a training script of N lines (default 1,500; <= 60 ms), against analysing the whole
document once. (1) and (2) are counted in instructions when valgrind is installed (--sample files
of DIR), in CPU seconds otherwise; (3) is CPU time: an editor waits for it. With --profiling-only, (1)
samples only the files that pass the prefilter, the ones the plugin analyses: its worst case (a model
zoo's other files cost it a substring scan each); with --setups-only, only those of them that hold a
profiling setup (the inventory finds one: the whole pipeline runs on them); --scripts-only stops after (1)'s
first figure. The library files of (2) are measured twice: as
installed (with the bytecode caches that prove most of them parse) and copied without those caches.
"""

from __future__ import annotations

import argparse
import atexit
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Optional

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
    # Installed packages carry their bytecode (pip compiles it; flake8's is there): let ours be
    # cached too, or every worker would recompile the plugin's modules and we would measure that.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
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
    """CPU seconds (user+sys of flake8 and its workers) with / without the plugin.

    The two runs of a pair are adjacent and their order alternates (with-without, without-with),
    and the ratio is the median of the pairs' ratios: this machine's speed drifts by +-20 % over
    minutes, and a drift then moves both runs of a pair alike.
    """
    with_npp, without_npp, ratios = [], [], []
    flake8_seconds(paths, jobs, True, extra)          # warm the file cache once
    flake8_seconds(paths, jobs, False, extra)         # and the plugin's bytecode cache
    for k in range(repeat):
        if k % 2:
            with_npp.append(flake8_seconds(paths, jobs, False, extra))
            without_npp.append(flake8_seconds(paths, jobs, True, extra))
        else:
            without_npp.append(flake8_seconds(paths, jobs, True, extra))
            with_npp.append(flake8_seconds(paths, jobs, False, extra))
        ratios.append(with_npp[-1][1] / without_npp[-1][1])
    a = statistics.median(c for _, c in with_npp)
    b = statistics.median(c for _, c in without_npp)
    wa = statistics.median(w for w, _ in with_npp)
    wb = statistics.median(w for w, _ in without_npp)
    ratio = statistics.median(ratios)
    print(f"{label}: flake8 -j{jobs} CPU with NPP {a:.2f}s, without {b:.2f}s; median of the pairs' ratios "
          f"{ratio:.3f} ({(ratio - 1) * 100:+.1f} %; pairs from {min(ratios):.3f} to {max(ratios):.3f}); "
          f"wall {wa:.2f}s / {wb:.2f}s ({repeat} pairs)")
    return ratio


def stdlib_files():
    root = Path(sysconfig.get_paths()["stdlib"])
    return [p for p in sorted(root.rglob("*.py")) if "site-packages" not in p.parts]


def bench_prefilter(_args) -> None:
    from flake8_npuprof.checks.analysis import analyse
    from flake8_npuprof.source.prefilter import might_configure_profiling
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


def _scripts(args, tmp: str):
    """The training scripts to measure: DIR's *.py files, else a generated corpus written to tmp."""
    if args.dir:
        files = sorted(Path(args.dir).rglob("*.py"))
        return files, f"{len(files)} scripts in {args.dir}"
    sys.path.insert(0, str(HERE))
    from make_corpus import write_corpus
    files = write_corpus(Path(tmp), args.files)
    return files, f"generated corpus ({len(files)} files)"


def bench_scripts(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        files, label = _scripts(args, tmp)
        compare(files, args.jobs, args.repeat, label)


bench_corpus = bench_scripts


def bench_startup(args) -> None:
    """Wall time of flake8 on a one-line file, with and without the plugin (median of paired runs)."""
    with tempfile.TemporaryDirectory() as tmp:
        one = Path(tmp) / "one.py"
        one.write_text("x = 1\n", encoding="utf-8")
        flake8_seconds([one], 1, False)
        with_npp, without_npp = [], []
        for _ in range(max(args.repeat, 11)):
            without_npp.append(flake8_seconds([one], 1, True))
            with_npp.append(flake8_seconds([one], 1, False))
    a, b = (statistics.median(w for w, _ in runs) for runs in (with_npp, without_npp))
    ca, cb = (statistics.median(c for _, c in runs) for runs in (with_npp, without_npp))
    print(f"start-up: flake8 on a one-line file {a * 1000:.0f} ms with NPP, {b * 1000:.0f} ms without -> "
          f"{(a - b) * 1000:+.1f} ms wall, {(ca - cb) * 1000:+.1f} ms CPU (target <= +20 ms; "
          f"medians of {len(with_npp)} pairs)")


MEMORY_DRIVER = r"""
import ast, gc, sys
from flake8_npuprof.plugin import NpuProfChecker
paths = sys.argv[2:]
count = int(sys.argv[1])
def rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2 ** 20
texts = []
for p in paths:
    try:
        texts.append((p, open(p, encoding="utf-8").read()))
    except (OSError, UnicodeDecodeError):
        pass
curve = []
for k in range(count):
    path, text = texts[k % len(texts)]
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        continue
    list(NpuProfChecker(tree, text.splitlines(True), path).run())
    if (k + 1) % 100 == 0:
        gc.collect()
        curve.append(f"{rss_mib():.1f}/{len(gc.get_objects())}")
print(" ".join(curve))
"""


def bench_memory(args) -> None:
    """Resident memory every 100 files over 1,000 files checked in one process (as flake8 -j1 does)."""
    with tempfile.TemporaryDirectory() as tmp:
        files, label = _scripts(args, tmp)
        out = subprocess.run([sys.executable, "-c", MEMORY_DRIVER, "1000", *map(str, files)],
                             capture_output=True, text=True, check=True).stdout.split()
    rss = [float(m.split("/")[0]) for m in out]
    objects = [int(m.split("/")[1]) for m in out]
    print(f"memory: RSS MiB / live objects after every 100 of 1,000 files from {label}: {' '.join(out)}; "
          f"from file 200 to 1,000: RSS {rss[-1] - rss[1]:+.1f} MiB, objects {objects[-1] - objects[1]:+d} "
          "(target: flat)")


def repeated_setups(n: int) -> str:
    """One NpuOptimizer setup per model or rank, each reusing the names config and custom_op."""
    block = (
        'config = tf.ConfigProto()\n'
        'custom_op = config.graph_options.rewrite_options.custom_optimizers.add()\n'
        'custom_op.name = "NpuOptimizer"\n'
        'custom_op.parameter_map["use_off_line"].b = True\n'
        'custom_op.parameter_map["profiling_mode"].b = True\n'
        'custom_op.parameter_map["profiling_options"].s = tf.compat.as_bytes(\n'
        '    \'{{"output":"/tmp/prof/{k}","task_trace":"on"}}\')\n'
        'sess = tf.Session(config=config)\n\n')
    return "import tensorflow as tf\n\n" + "".join(block.format(k=k) for k in range(n))


def bench_setups(_args) -> None:
    from flake8_npuprof.checks.analysis import analyse
    analyse(repeated_setups(10), None)
    times = {}
    for n in (1000, 2000, 5000):
        text = repeated_setups(n)
        start = time.process_time()
        analyse(text, None, "setups.py")
        times[n] = time.process_time() - start
    print(f"setups: one file of 5,000 repeated setups in {times[5000]:.2f} s CPU "
          f"(1,000: {times[1000]:.2f} s, 2,000: {times[2000]:.2f} s; ratio 2,000/1,000 "
          f"{times[2000] / times[1000]:.2f}, linear = 2)")


_QUIET: list = []


def quiet_dir() -> str:
    """An empty folder to run counted processes in. `python -c` puts its working folder first on sys.path, so
    every import lists that folder: from /tmp (1,300 entries, changed all the time by other jobs) the same
    run counted 4 M instructions more or less at start-up alone, and the plugin's figure moved by 30 M between
    two runs of the same code; from an empty folder each count is the same on every run."""
    if not _QUIET:
        _QUIET.append(tempfile.mkdtemp(prefix="bench_quiet_"))
    return _QUIET[0]


# What a counted process's figure depends on besides the code and the files: where its objects lie. The process
# copies its environment (os.environ) and PYTHONPATH (sys.path, every module's file name) before anything is
# counted, and a value a few bytes longer moves every object made after it: what the allocator does then, and the
# dicts and sets keyed by address, differ. The same code and files read 571.9 M for the plugin with PYTHONPATH a
# link /tmp/p13/L/a to the export and 574.2 M with a link 23 characters longer to the same folder (parse+tokenize
# 2,284.7 M and 2,284.8 M; an 8-byte longer environment variable moved parse+tokenize by up to 1.3 M). So a counted
# process gets only our locale and PYTHONHASHSEED, and each PYTHONPATH folder through a link whose path has one
# length: the same figure from any export, shell or day.
_LOCALE = ("LANG", "LC_ALL", "LC_CTYPE")
_LINKS: dict = {}


def counted_env(pythonpath: Optional[str] = None, **extra: str) -> dict:
    """The environment of a counted process (and of the run before it that writes the bytecode caches); pythonpath:
    instead of ours."""
    env = {key: os.environ[key] for key in _LOCALE if key in os.environ}
    folders = os.environ.get("PYTHONPATH") if pythonpath is None else pythonpath
    if folders:
        env["PYTHONPATH"] = os.pathsep.join(_linked(p) for p in folders.split(os.pathsep))
    env["PYTHONHASHSEED"] = "0"
    env.update(extra)
    return env


def _linked(folder: str) -> str:
    """A link to folder whose path has the same length for any folder (an empty entry, the working folder, stays)."""
    if not folder:
        return folder
    folder = os.path.abspath(folder)
    if folder not in _LINKS:
        if not _LINKS:
            _LINKS[""] = tempfile.mkdtemp(prefix="bench_links_")
            atexit.register(shutil.rmtree, _LINKS[""], True)
        _LINKS[folder] = os.path.join(_LINKS[""], f"{len(_LINKS):03d}")
        os.symlink(folder, _LINKS[folder])
    return _LINKS[folder]


def valgrind() -> str:
    """valgrind's path, found on our PATH (a counted process gets none)."""
    found = shutil.which("valgrind")
    if found is None:
        raise SystemExit("valgrind is not installed")
    return found


def instructions(paths) -> tuple:
    """Instructions executed by flake8 -j1 on paths with and without the plugin (valgrind's
    callgrind, the two runs side by side): the same on every run."""
    runs = []
    paths = [os.path.abspath(p) for p in paths]         # (run from quiet_dir())
    for without in (False, True):
        env = counted_env(BENCH_WITHOUT_NPP="1") if without else counted_env()
        args = ["--isolated", "-j1", "--exit-zero", "--output-file", os.devnull, *map(str, paths)]
        subprocess.run([sys.executable, "-c", DRIVER, *args], env=env, check=True, cwd=quiet_dir())  # bytecode cached
        runs.append(subprocess.Popen([valgrind(), "--tool=callgrind", "--callgrind-out-file=/dev/null",
                                      sys.executable, "-c", DRIVER, *args], env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, cwd=quiet_dir()))
    counts = []
    for proc in runs:
        err = proc.communicate()[1]
        found = re.search(r"Collected : (\d+)", err)
        if proc.returncode or not found:
            raise SystemExit(f"callgrind gave no count: {err[-500:]}")
        counts.append(int(found.group(1)))
    return tuple(counts)


def bench_instructions(args) -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("instructions: valgrind is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        files, label = _scripts(args, tmp)
        step = max(1, len(files) // args.sample)
        sample = files[::step][:args.sample]
        a, b = instructions(sample)
    print(f"{label}, {len(sample)} sampled: flake8 -j1 {a / 1e9:.3f} G instructions with NPP, "
          f"{b / 1e9:.3f} G without -> ratio {a / b:.3f} ({(a / b - 1) * 100:+.1f} %)")


# ---------------------------------------------------------------- issue 27: every ratio in one run

PARSE_DRIVER = r"""
import ast, io, sys, tokenize
mode, paths = sys.argv[1], sys.argv[2:]
if mode == "plugin":
    # what the plugin loads once per process (modules, data), loaded here: counted in the start-up run
    from flake8_npuprof.plugin import NpuProfChecker
    warm = ('import tensorflow as tf\nconfig = tf.ConfigProto()\n'
            'op = config.graph_options.rewrite_options.custom_optimizers.add()\nop.name = "NpuOptimizer"\n'
            'op.parameter_map["profiling_mode"].b = True\n'
            'op.parameter_map["profiling_options"].s = b\'{"output":"/tmp/p","task_trace":"on","L2":"on"}\'\n'
            'sess = tf.Session(config=config)\n')
    assert list(NpuProfChecker(ast.parse(warm), warm.splitlines(True), "warm.py").run())
for path in paths:
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        text = data.decode("utf-8")
        tree = ast.parse(text, path)
        lines = text.splitlines(True)
        list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (SyntaxError, ValueError, UnicodeDecodeError, tokenize.TokenError):
        continue
    if mode == "plugin":
        list(NpuProfChecker(tree, lines, path).run())
"""


def _cost(argv, counted: bool) -> float:
    """Instructions (callgrind) or CPU seconds of one `python ...argv` process."""
    if counted:
        env = counted_env()
    else:
        env = dict(os.environ, PYTHONHASHSEED="0")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, *argv], env=env, check=True, stdout=subprocess.DEVNULL,     # bytecode cached
                   cwd=quiet_dir() if counted else None)
    if counted:
        proc = subprocess.run([valgrind(), "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                               *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              cwd=quiet_dir())
        found = re.search(r"Collected : (\d+)", proc.stderr)
        if not found:
            raise SystemExit(f"callgrind gave no count: {proc.stderr[-500:]}")
        return float(found.group(1))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *argv], env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _unit(counted: bool) -> str:
    return "instructions" if counted else "CPU seconds"


def _show(value: float, counted: bool) -> str:
    return f"{value / 1e9:.3f} G" if counted else f"{value:.2f} s"


def _readable(path: str) -> bool:
    import tokenize
    try:
        with tokenize.open(path) as fh:
            fh.read()
        return True
    except (SyntaxError, UnicodeDecodeError, LookupError, OSError):
        return False


def holds_setup(path: str) -> bool:
    """Whether the file's inventory (setups/inventory.py) finds a profiling setup in it."""
    import ast
    from flake8_npuprof.checks.analysis import Context, Settings
    from flake8_npuprof.source.text import SourceText
    text = Path(path).read_text("utf-8", "replace")
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return bool(Context(SourceText(text), tree, path, Settings()).model.setups)


def bench_ratios(args) -> None:
    if not args.dir:
        raise SystemExit("ratios: give the directory of training scripts (e.g. the model zoo's)")
    if args.lib and not any(Path(args.lib).rglob("*.py")):
        raise SystemExit(f"ratios: no Python file under {args.lib} (--lib), checked before anything is measured")
    counted = shutil.which("valgrind") is not None
    # (absolute: the counted processes run in quiet_dir())
    files = sorted(Path(os.path.abspath(args.dir)).rglob("*.py"))
    if args.sample_file:                # a pinned sample: the same files before and after a change
        files = [Path(os.path.abspath(p)) for p in Path(args.sample_file).read_text(encoding="utf-8").split()]
    elif args.profiling_only or args.setups_only:     # the files the plugin analyses: not diluted by the rest
        from flake8_npuprof.source.prefilter import might_configure_profiling
        files = [p for p in files if _readable(str(p)) and might_configure_profiling(p.read_text("utf-8", "replace"))]
    if args.setups_only and not args.sample_file:   # of those, the files that hold a setup: the whole pipeline runs
        files = [p for p in files if holds_setup(str(p))]
    step = max(1, len(files) // args.sample) if counted else 1
    sample = [str(p) for p in files[::step][:args.sample if counted else None]]
    if args.save_sample:                # (what stage_cost.py measures the parts of)
        Path(args.save_sample).write_text("\n".join(sample), encoding="utf-8")
    # (1) the plugin against parse + tokenize, in one process each; the difference is the plugin's
    parse = _cost(["-c", PARSE_DRIVER, "parse", *sample], counted) - _cost(["-c", PARSE_DRIVER, "parse"], counted)
    both = _cost(["-c", PARSE_DRIVER, "plugin", *sample], counted) - _cost(["-c", PARSE_DRIVER, "plugin"], counted)
    plugin = both - parse
    print(f"scripts: {len(sample)} of {len(files)} files in {args.dir}, {_unit(counted)} after start-up: "
          f"parse+tokenize {_show(parse, counted)}, the plugin {_show(plugin, counted)} -> ratio "
          f"{plugin / parse:.3f} (target <= 0.25)")
    if args.scripts_only:
        return
    if counted:
        a, b = instructions([Path(p) for p in sample])
        print(f"scripts: flake8 -j1 on the same files {a / 1e9:.3f} G with NPP, {b / 1e9:.3f} G without -> "
              f"ratio {a / b:.3f} (target <= 1.05)")
    else:
        compare([Path(p) for p in sample], 1, args.repeat, "scripts: flake8 -j1 (target <= 1.05)")
    # (2) npuprof check on ordinary library code against reading and parsing it
    lib = Path(args.lib) if args.lib else Path(sysconfig.get_paths()["stdlib"])
    lib_files = [str(p) for p in sorted(lib.rglob("*.py")) if "site-packages" not in p.parts]
    lib_step = max(1, len(lib_files) // (args.sample * 10)) if counted else 1
    # files that cannot be read as Python source (the standard library's own bad-coding test data) make
    # `check` exit 2 whatever --exit-zero says; they measure nothing here
    lib_sample = [p for p in lib_files[::lib_step] if _readable(p)]
    with tempfile.TemporaryDirectory() as tmp:
        listed = Path(tmp) / "files"
        listed.write_text("\n".join(lib_sample), encoding="utf-8")
        reader = ("import ast, sys\nfor p in open(sys.argv[1]).read().split('\\n'):\n"
                  "    try: ast.parse(open(p, 'rb').read())\n    except (SyntaxError, ValueError): pass\n")
        parse = _cost(["-c", reader, str(listed)], counted) - _cost(["-c", "pass"], counted)
        empty = Path(tmp) / "empty.py"
        empty.write_text("", encoding="utf-8")
        # -j1: callgrind counts one process; --no-cache: _cost runs each command twice, and the second
        # run would read the first one's cache
        check = ["-m", "flake8_npuprof", "check", "-q", "-j1", "--no-cache", "--exit-zero", "--output-file", os.devnull]
        start = _cost([*check, str(empty)], counted)
        installed = _cost([*check, *lib_sample], counted) - start
        # the same files without their bytecode caches (a tree nothing has imported yet): each file without
        # markers is syntax-checked through its symbol table instead of proven by its cache
        bare = Path(tmp) / "bare"
        bare.mkdir()
        copies = []
        for k, path in enumerate(lib_sample):
            copies.append(str(bare / f"{k}_{Path(path).name}"))
            shutil.copyfile(path, copies[-1])
        uncached = _cost([*check, *copies], counted) - start
    print(f"library: npuprof check -q on {len(lib_sample)} files of {lib}, {_unit(counted)} after start-up: "
          f"{_show(installed, counted)}; reading and parsing them {_show(parse, counted)} -> ratio "
          f"{installed / parse:.3f} (target <= 0.5); the same files copied without their bytecode caches: "
          f"{_show(uncached, counted)} -> ratio {uncached / parse:.3f}")
    # (3) the language server, per edit
    sys.path.insert(0, str(HERE))
    from server_latency import analysis_cpu, server_cpu_per_edit, training_script
    text = training_script(args.lines)
    per_edit, wall = server_cpu_per_edit(text, args.changes)
    whole = analysis_cpu(text)
    print(f"server: {text.count(chr(10))}-line script, {args.changes} edits: {per_edit * 1000:.1f} ms CPU per edit "
          f"(median wall {wall * 1000:.1f} ms, debounce 0); analysing the whole document {whole * 1000:.1f} ms -> "
          f"ratio {per_edit / whole:.2f} (target <= 60 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("scripts", "stdlib", "startup", "memory", "setups", "prefilter", "corpus",
                                         "instructions", "ratios", "all"))
    parser.add_argument("dir", nargs="?", help="training scripts to measure (default: the generated corpus)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--files", type=int, default=300, help="size of the generated corpus")
    parser.add_argument("--sample", type=int, default=40, help="files counted by `instructions` and `ratios`")
    parser.add_argument("--profiling-only", action="store_true",
                        help="`ratios`: only the files that pass the prefilter (those the plugin analyses)")
    parser.add_argument("--setups-only", action="store_true",
                        help="`ratios`: only the files that hold a profiling setup (the inventory finds one)")
    parser.add_argument("--save-sample", metavar="FILE", help="ratios: write the sampled paths to FILE, one a line")
    parser.add_argument("--sample-file", metavar="FILE",
                        help="ratios: measure the paths FILE lists (one a line, as --save-sample writes) instead of a "
                             "sample drawn now: the inventory that --setups-only samples by changes with the code")
    parser.add_argument("--scripts-only", action="store_true",
                        help="`ratios`: measure (1) only, the plugin against parse+tokenize, and stop")
    parser.add_argument("--lib", default=None, help="`ratios`: ordinary library code (default: the standard library)")
    parser.add_argument("--lines", type=int, default=1500, help="`ratios`: lines of the script the server edits")
    parser.add_argument("--changes", type=int, default=30, help="`ratios`: edits sent to the server")
    args = parser.parse_args()
    todo = ("scripts", "stdlib", "startup", "memory", "setups", "prefilter") if args.what == "all" else (args.what,)
    for what in todo:
        globals()[f"bench_{what}"](args)


if __name__ == "__main__":
    main()
