"""How many profiling settings the checker can check: fully, with holes, or not at all.

    python benchmarks/coverage.py PATH...   (default: a generated corpus)

A setting is one `parameter_map["profiling_options"]` / `["profiling_mode"]` assignment. "Fully"
means every candidate value is known; "with holes" means unknown pieces sit inside JSON string
values (the keys and the rest are checked); "unknown" means nothing could be checked.
"""

from __future__ import annotations

import argparse
import ast
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(paths):
    sys.path.insert(0, str(HERE.parent))
    from flake8_npuprof.checks.analysis import Context, Settings
    from flake8_npuprof.checks.options import check_options
    from flake8_npuprof.source.files import discover, read_source
    from flake8_npuprof.source.text import HOLE, SourceText
    from flake8_npuprof.knowledge.targets import Target

    counts = {"options: fully": 0, "options: with holes": 0, "options: unknown": 0,
              "switch: known": 0, "switch: set at launch (flag)": 0, "switch: unknown": 0}
    unknown_examples = []
    for path in discover(paths, shell=False):
        text = read_source(path).text
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        ctx = Context(SourceText(text), tree, path, Settings(Target()))
        for entry in ctx.sites.entries:
            for p in entry.params:
                pos = ctx.pos(p.stmt)
                if p.key == "profiling_options" and p.field == "s":
                    strings = ctx.values.strings(p.value, p.scope, pos)
                    if not strings.candidates or any(check_options(c.text, Target()).unknown
                                                     for c in strings.candidates):
                        counts["options: unknown"] += 1
                        line = ctx.src.position(ctx.src.node_start(p.value))[0]
                        unknown_examples.append(f"{path}:{line} ({strings.reason or 'structure unknown'})")
                    elif any(HOLE in c.text for c in strings.candidates):
                        counts["options: with holes"] += 1
                    else:
                        counts["options: fully"] += 1
                elif p.key == "profiling_mode" and p.field == "b":
                    values = ctx.values.scalars(p.value, p.scope, pos)
                    if not values.candidates:
                        counts["switch: unknown"] += 1
                    elif values.notes or any(type(v).__name__ == "Opaque" for v in values.candidates):
                        counts["switch: set at launch (flag)"] += 1
                    else:
                        counts["switch: known"] += 1
    return counts, unknown_examples


def report(counts, examples) -> float:
    total = sum(v for k, v in counts.items())
    checked = total - counts["options: unknown"] - counts["switch: unknown"]
    for k, v in counts.items():
        print(f"  {k:32} {v}")
    share = checked / total if total else 1.0
    print(f"  checked (fully or with holes): {checked}/{total} = {share:.1%}")
    for e in examples[:10]:
        print("  unknown:", e)
    return share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--files", type=int, default=300)
    args = parser.parse_args()
    if args.paths:
        report(*measure(args.paths))
        return
    sys.path.insert(0, str(HERE))
    from make_corpus import write_corpus
    with tempfile.TemporaryDirectory() as tmp:
        write_corpus(Path(tmp), args.files)
        print(f"generated corpus ({args.files} files):")
        report(*measure([tmp]))


if __name__ == "__main__":
    main()
