"""How long `npuprof server` takes to answer `initialize`, and to publish the first diagnostics.

    python benchmarks/server_start.py [--runs 9] [--lines 1500] [--against OTHER_CHECKOUT]

Each run starts a fresh `npuprof server` process (the console script, as an editor starts it) and sends
`initialize` at once; the clock runs from starting the process to reading the answer. Then `initialized`
and a `didOpen` of a training script with one finding follow, and the second clock runs to the first
`publishDiagnostics` (pygls, the protocol types and the analysis are imported on the way). For scale, the
last line is what importing the server module alone costs in a fresh process: what the answer to
`initialize` waited for before server_start.py (issue 28, item 5). Medians, with the range.

The figures: the answer to `initialize` and the first diagnostics, each from starting the process (what the
editor waits for in all, issue 44's target is 150 ms for the diagnostics) and from sending didOpen; and the
CPU the server process had used when the diagnostics arrived (Linux /proc, 10 ms ticks), which a loaded
machine inflates less than wall time. Bytecode is compiled first (`compileall` on the package run), as
`pip install` leaves it: this machine sets PYTHONDONTWRITEBYTECODE, and without bytecode every import compiles
its module again (about 100 ms more before the first diagnostics).

`--lines N` opens a training script of about N lines (benchmarks/server_latency.py's) instead of the small
example. `--against DIR` runs another checkout of the package (e.g. a `git worktree` of an older commit)
in the same run, a pair at a time alternating, so that both see the same load: on this shared machine only
such pairs compare.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRIPT = (HERE.parent / "examples" / "mistakes" / "typos_in_options.py").read_text(encoding="utf-8")


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read(stream) -> dict:
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    return json.loads(stream.read(length))


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (Linux); NaN elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def compile_bytecode(package: Path) -> None:
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True, capture_output=True)


def one_run(command, folder: Path, text: str = SCRIPT, env=None):
    """(initialize answered, first diagnostics after didOpen, first diagnostics from start, CPU by then)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=folder, env=env)
    try:
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {}}}))
        proc.stdin.flush()
        while read(proc.stdout).get("id") != 1:
            pass
        answered = time.perf_counter() - start
        uri = (folder / "train.py").as_uri()
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}) +
                         frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                             "uri": uri, "languageId": "python", "version": 1, "text": text}}}))
        proc.stdin.flush()
        opened = time.perf_counter()
        while True:
            message = read(proc.stdout)
            if message.get("method") == "textDocument/publishDiagnostics":
                break
        now = time.perf_counter()
        cpu = cpu_of(proc.pid)
        return answered, now - opened, now - start, cpu
    finally:
        proc.kill()
        proc.wait()


def server_import() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import flake8_npuprof.server"], check=True)
    return time.perf_counter() - start


def spread(values) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms (from {min(values) * 1000:.0f} to {max(values) * 1000:.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--lines", type=int, default=0, help="open a training script of about this many lines")
    parser.add_argument("--against", type=Path, help="another checkout of the package, run in the same pairs")
    args = parser.parse_args()
    text = SCRIPT
    if args.lines:
        sys.path.insert(0, str(HERE))
        sys.path.insert(0, str(HERE.parent / "tests"))
        from server_latency import training_script
        text = training_script(args.lines)
    compile_bytecode(HERE.parent / "flake8_npuprof")
    if args.against:
        compile_bytecode(args.against.resolve() / "flake8_npuprof")
    folder = Path(tempfile.mkdtemp())
    (folder / "train.py").write_text(text, encoding="utf-8")
    if args.against:
        # both as `python -m flake8_npuprof server`, each with its own checkout first on the path
        command = [sys.executable, "-m", "flake8_npuprof", "server"]
        pairs = {"this checkout": str(HERE.parent), str(args.against): str(args.against.resolve())}
        runs: dict = {name: [] for name in pairs}
        for _ in range(args.runs):
            for name, where in pairs.items():
                runs[name].append(one_run(command, folder, text, dict(os.environ, PYTHONPATH=where)))
        print(f"python -m flake8_npuprof server, {args.runs} pairs, {text.count(chr(10))} lines, "
              f"{os.cpu_count()} CPUs")
        for name, got in runs.items():
            print(f"{name}: initialize answered after {spread([r[0] for r in got])}; first diagnostics "
                  f"{spread([r[2] for r in got])} from start, {spread([r[1] for r in got])} after didOpen; "
                  f"server CPU by then {spread([r[3] for r in got])}")
        return
    script = shutil.which("npuprof", path=os.path.dirname(sys.executable)) or shutil.which("npuprof")
    command = [script, "server"] if script else [sys.executable, "-m", "flake8_npuprof", "server"]
    runs = [one_run(command, folder, text) for _ in range(args.runs)]
    imports = [server_import() for _ in range(max(3, args.runs // 3))]
    print(f"{' '.join(Path(c).name for c in command)}, {args.runs} runs, {text.count(chr(10))} lines, "
          f"{os.cpu_count()} CPUs")
    print(f"initialize answered after        {spread([r[0] for r in runs])}   (target: within 300 ms)")
    print(f"first diagnostics from start     {spread([r[2] for r in runs])}   (target: within 150 ms)")
    print(f"first diagnostics after didOpen  {spread([r[1] for r in runs])}")
    print(f"server CPU when they arrived     {spread([r[3] for r in runs])}")
    print(f"for scale: python -c 'import flake8_npuprof.server' {spread(imports)}")


if __name__ == "__main__":
    main()
