"""`npuprof validate`: check one options string (argument, file, or the environment), or a dynamic-profiling
file (`--file profiler_config.json`, known by its name or its keys; `--framework` says whose it is, else its keys
decide: checks/dynamic_files.py)."""

from __future__ import annotations

import json
import os
import sys
from typing import List, Tuple

from ..checks.hygiene import check_option_hygiene
from ..checks.options import check_options
from ..source.model import Edit, Finding, Fix, finding, printable
from ..source.said import aside, clause, said
from ..source.text import SourceText


def _findings(text: str, target, mode_on=True) -> List[Finding]:
    src = SourceText(text)
    report = check_options(text, target, mode_on)
    issues = list(report.issues) + check_option_hygiene(text, report.doc)
    out = []
    for issue in issues:
        (l1, c1), (l2, c2) = src.position(issue.i), src.position(max(issue.j, issue.i))
        fix = None
        if issue.fix is not None:           # edits of the options text itself, as the JSON report gives them
            fix = Fix(tuple(Edit(i, j, t) for i, j, t in issue.fix.edits), issue.fix.safe, printable(issue.fix.title))
        out.append(finding(issue.code, issue.words, issue.i, issue.j, l1, c1, l2, c2, fix))
    if report.empty:
        out.append(finding("NPP002", said("the options are empty",
                                          clause("the runtime treats them as not set and substitutes its default "
                                                 "options", aside("or, on some routes, collects nothing")),
                                          "give the options explicitly"), 0, 0, 1, 0, 1, 0))
    return sorted(out, key=Finding.sort_key)


def env_findings(env, target) -> List[Tuple[str, Finding]]:
    """Findings for PROFILING_MODE / PROFILING_OPTIONS as GE reads them (label, finding)."""
    from ..setups.env import mode_problem
    out: List[Tuple[str, Finding]] = []
    mode = env.get("PROFILING_MODE")
    options = env.get("PROFILING_OPTIONS")
    problem = mode_problem(mode, options)
    if problem:
        code, message = problem
        out.append(("PROFILING_MODE", finding(code, message, 0, 0, 1, 0, 1, 0)))
    if options is not None and (mode == "true" or options.strip()):
        # the options are checked even when the mode is wrong: they are what the user will run next
        from ..setups.state import OFF, State, condition
        # GE reads the options only with PROFILING_MODE=true: otherwise their problems are latent
        state = None if mode == "true" else State(OFF, "not_switched" if mode is None else "switch")
        for f in _findings(options, target, mode_on=(mode == "true")):
            if f.code == "NPP002" and mode != "true":
                continue
            out.append(("PROFILING_OPTIONS", f.given(*filter(None, [condition(state)]))))
    ms = env.get("MS_PROFILER_OPTIONS")
    if ms is not None and ms.strip():
        # MindSpore's own variable (EnvProfiler), as an `export MS_PROFILER_OPTIONS=...` line is judged: NPP355
        from ..checks.mindspore import options_spots
        src = SourceText(ms)
        out.extend(("MS_PROFILER_OPTIONS", finding("NPP355", message, start, end, *src.position(start),
                                                   *src.position(end)))
                   for message, start, end in options_spots(ms))
    return out


def _not_options(label: str, text: str) -> str:
    """What validate assumed, for a JSON object none of whose keys is a profiling_options key (MindSpeed-MM's
    tools.json, its own profiler settings, got three "GE initialisation fails" as if it were GE's options)."""
    from ..knowledge.datafiles import all_keys
    try:
        doc = json.loads(text)
    except ValueError:
        return ""
    if not isinstance(doc, dict) or not doc or set(doc) & all_keys():
        return ""
    keys = ", ".join(json.dumps(k, ensure_ascii=False) for k in list(doc)[:5]) + (", ..." if len(doc) > 5 else "")
    named = {"-": "standard input", "<options>": "the options"}.get(label, label)
    return (f"note: none of the keys of {named} ({keys}) is a profiling_options key; it was checked as GE's "
            "profiling options, as validate checks every file but a dynamic-profiling one (profiler_config.json: "
            "--framework torch_npu or mindspore)")


def _stdin_text() -> str:
    """Standard input, bounded like every input (`yes | npuprof validate -` ends)."""
    from ..source.files import read_stream
    data = read_stream(sys.stdin.buffer)
    return data.decode("utf-8-sig", "surrogateescape")      # a file's text, as --file reads it


def run_validate(args, target) -> int:
    if args.env:
        pairs, text = env_findings(os.environ, target), ""
        if not {"PROFILING_OPTIONS", "PROFILING_MODE", "MS_PROFILER_OPTIONS"} & set(os.environ):
            print("npuprof: error: none of PROFILING_MODE, PROFILING_OPTIONS and MS_PROFILER_OPTIONS is set",
                  file=sys.stderr)
            return 2
    else:
        from ..source.files import ReadError, read_bytes
        if args.file == "-" or (args.options == "-" and not args.file):
            try:
                text, label = _stdin_text(), "-"
            except ReadError as exc:
                print(f"npuprof: error: standard input: {exc}", file=sys.stderr)
                return 2
        elif args.file:
            try:                        # bounded, and a FIFO or device is refused before it blocks
                text = read_bytes(args.file).decode("utf-8-sig")
            except ReadError as exc:
                print(f"npuprof: error: {args.file}: {exc}", file=sys.stderr)
                return 2
            except UnicodeDecodeError as exc:
                print(f"npuprof: error: cannot read {args.file}: {exc}", file=sys.stderr)
                return 2
            label = args.file
        elif args.options is not None:
            text, label = args.options, "<options>"
        else:
            print("npuprof: error: give an options string, - (standard input), --file F or --env", file=sys.stderr)
            return 2
        from ..knowledge.mindspore_dynamic import is_dynamic_config
        framework = getattr(args, "framework", None)
        if framework or is_dynamic_config(label, text):     # a profiler_config.json, by its name or its keys
            from ..checks.dynamic_files import check_file
            from ..knowledge.run_settings import Settings
            pairs = [(label, f) for f in check_file(text, label, Settings(target=target), framework)]
        else:
            pairs = [(label, f) for f in _findings(text, target)]
            note = _not_options(label, text)
            if note:
                print(f"npuprof: {note}", file=sys.stderr)
    if args.format == "json":
        # the rows of `npuprof check --format json`: fix (edits of the options text) and doc included
        from ..report.formats import finding_dict
        texts = {"PROFILING_MODE": os.environ.get("PROFILING_MODE", ""),
                 "PROFILING_OPTIONS": os.environ.get("PROFILING_OPTIONS", ""),
                 "MS_PROFILER_OPTIONS": os.environ.get("MS_PROFILER_OPTIONS", "")} if args.env else {}
        rows = [finding_dict(label, SourceText(texts.get(label, text)), f) for label, f in pairs]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        from ..report.formats import detail_lines
        for label, f in pairs:
            print(f"{label}:{f.line}:{f.col + 1}: {f.code} {f.short}")
            if getattr(args, "verbose", False):
                for line in detail_lines(f):
                    print(line)
    return 1 if pairs else 0
