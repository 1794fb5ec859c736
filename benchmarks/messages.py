"""How long the messages are that a tree's findings show (issue 28, item 4).

    python benchmarks/messages.py DIR [--cann any,7.0,8.5] [--json]

Runs `npuprof check --format json --no-cache` on DIR once per CANN target and measures each finding's
`message` (the short sentence every front-end shows first) and `message` + `detail` (everything the finding
says, which is what the message was before the split). Prints, per target and over all of them: the number
of findings, the median and the maximum length of each. A finding the same on several targets counts once
per target, as a user checking with that target would read it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def measure(tree: str, cann: str):
    with tempfile.TemporaryDirectory() as tmp:          # the working directory: no cache, no config
        out = os.path.join(tmp, "report.json")
        subprocess.run([sys.executable, "-m", "flake8_npuprof", "check", "--no-cache", "-q", "--exit-zero",
                        "--format", "json", "-o", out, "--cann", cann, os.path.abspath(tree)],
                       cwd=tmp, check=True)
        with open(out, encoding="utf-8") as fh:
            return json.load(fh)


def row(label: str, rows) -> dict:
    short = [len(r["message"]) for r in rows]
    full = [len(r["message"]) + (len(r["detail"]) + 2 if r.get("detail") else 0) for r in rows]
    return {"target": label, "findings": len(rows),
            "short_median": statistics.median(short) if short else 0, "short_max": max(short, default=0),
            "full_median": statistics.median(full) if full else 0, "full_max": max(full, default=0)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tree")
    p.add_argument("--cann", default="any,portable,7.0,8.0,8.5,9.0,9.1")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    every, table = [], []
    for cann in args.cann.split(","):
        rows = measure(args.tree, cann)
        every += rows
        table.append(row(cann, rows))
    table.append(row("all", every))
    if args.json:
        print(json.dumps(table, indent=2))
        return 0
    print(f"{'target':<10}{'findings':>9}{'median':>8}{'max':>6}   (message + detail: median, max)")
    for t in table:
        print(f"{t['target']:<10}{t['findings']:>9}{t['short_median']:>8}{t['short_max']:>6}   "
              f"({t['full_median']}, {t['full_max']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
