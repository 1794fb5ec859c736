"""The reports of `npuprof emulate`: the text (target line, one headline per setup, what makes the data less
useful, preflight, the usable-data line, the details) and the JSON document, for one script or for the
sequence of launches a shell launcher runs."""

from __future__ import annotations

import json
import os
import re
from typing import Dict, List, Tuple

from ..knowledge.targets import Target
from ..setups.reach import all_of
from ..setups.state import switch_flag
from ..source.text import HOLE
from .replay import EXIT_OK, Result, cells_phrase, depends, handed_away, may_collect, shown
from .runtime import Outcome, dumps


def _display(path: str) -> str:
    """A path as short as it can be said: relative to the current directory when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") or len(rel) >= len(path) else rel


def torch_npu_part(release: str, origin) -> str:
    """The torch_npu release of a target and where it came from."""
    shown = "every torch_npu release" if release in ("any", "portable") else f"torch_npu {release}"
    if origin is None:
        how = ""
    elif origin.source == "machine":
        how = f" (this machine: {origin.detail})"
    elif origin.source == "default":
        how = f" ({'; '.join(origin.notes)})" if origin.notes else ""
    else:
        how = f" ({origin.detail})"
    return shown + how


def target_line(report: dict) -> str:
    """The first line: the target and where each half of it came from, after the torch_npu release a torch_npu
    script is replayed for, or a launcher's launches when one is given or found."""
    release = report["target"].get("torch_npu", "any")
    shown = report["framework"] == "torch_npu" if "framework" in report else release != "any"
    torch = f"{torch_npu_part(release, report.get('torch_npu_origin'))}; " if shown else ""
    return "target: " + torch + _collector_part(report)


def _collector_part(report: dict) -> str:
    """The CANN version and the chip, each with where it came from."""
    target = Target(report["target"]["cann"], report["target"]["soc"])
    origin = report.get("target_origin") or {}
    cann = "every CANN version" if target.cann in ("any", "portable") else f"CANN {target.cann}"
    soc = "every product" if target.soc == "any" else f"Ascend {target.soc}"
    a, b = origin.get("cann"), origin.get("soc")
    if a is not None and a == b and a.source == "config":      # both from the same file: say it once
        return f"{cann} / {soc} ({a.detail})"
    parts = []
    for kind, text in (("cann", cann), ("soc", soc)):
        o = origin.get(kind)
        if o is None:
            parts.append(text)
        elif o.source == "machine":
            parts.append(f"{text} (this machine: {o.detail})")
        elif o.source == "default":
            parts.append(f"{text} ({o.detail + ' found nothing' if o.detail else 'none given or detected'})")
        else:
            parts.append(f"{text} ({o.detail})")
    return " / ".join(parts)


def origin_json(origin: dict) -> dict:
    return {kind: {"source": o.source, "detail": o.detail or None, "notes": list(o.notes)}
            for kind, o in origin.items()}


# ---------------------------------------------------------------- summarising the targets


# ---------------------------------------------------------------- preflight, comparison, exit code


def unknown_reasons(results: List[Result]) -> List[str]:
    """Why the usability of the data is unknown, one phrase per setup GE may read that leaves it open."""
    out = []
    for r in results:
        if r.read_by_ge is False or (may_collect(r) is not None and r.setup.reached is not None and
                                     not handed_away(r)):
            continue
        if r.setup.reached is None:
            head = f"{r.setup.unknown_reach}, so whether this code runs is not known here" \
                if r.setup.entry and r.setup.unknown_reach else \
                "the file shows no entry point, so whether this code runs depends on the code that imports it"
            why = f"{head} (if it runs: {r.verdict.replace('_', ' ')})"
        elif handed_away(r) and may_collect(r) is not None:
            why = (r.setup.unseen or "the file does not show whether GE reads this config") + \
                f" (if GE reads it: {r.verdict.replace('_', ' ')})"
        elif r.spread:
            why = "; ".join(f"{cond or v.replace('_', ' ')} on {where}" for v, where, cond in r.spread)
        else:
            why = next((o.condition for o in r.outcomes.values() if o.condition), "") or \
                (str(r.messages[0]) if r.messages else "a value cannot be determined statically")
        out.append(f"line {r.setup.line} {r.setup.route}: {why}")
    return out


# ---------------------------------------------------------------- rendering


def result_json(r: Result) -> dict:
    s = r.setup
    where = {"file": r.path} if r.path else {}      # a setup outside the report's file (a launcher's msprof line)
    return {**where, "line": s.line, "column": s.column + 1, "route": s.route, "verdict": r.verdict,
            "messages": [str(m) for m in r.messages],
            "effective_options": r.effective_options, "collected": r.collected,
            "dropped": [{"option": k, "reason": why} for k, why in r.dropped], "output_dir": r.output_dir,
            "prof_layout": r.layout, "export_command": r.export_command, "read_by_ge": r.read_by_ge,
            "reached": s.reached, "caveats": [str(c) for c in r.caveats],
            "conditions": _conditions(s, r.raised), "options_source": r.source or None,
            "targets": [dict(g, messages=[str(m) for m in g["messages"]]) for g in r.groups]}


def render_json(report: dict) -> str:
    return json.dumps(report_json(report), indent=2, ensure_ascii=False) + "\n"


def report_json(report: dict) -> dict:
    target = dict(report["target"])
    if report.get("target_origin"):
        target["origin"] = origin_json(report["target_origin"])
    out = {"file": report["file"], "target": target, "cwd": report["cwd"], "env": report["env"],
           "usable": report["usable"], "setups": [result_json(r) for r in report["results"]],
           "preflight": [{"code": p["code"], "message": p["message"], "line": p["line"]} for p in report["preflight"]]}
    if report["against"] is not None:
        out["against"] = report["against"]
    if report.get("launch"):
        out["launch"] = {k: v for k, v in report["launch"].items() if k != "lines"}
        if report["launch"].get("exits_at") or report["launch"].get("unseen") or report["launch"].get("crlf"):
            out["answer"] = report["answer"]
    if report.get("launches"):
        out["launches"] = launches_json(report)
        out["answer"] = report["answer"]
    if report.get("sh"):
        out["sh"] = report["sh"]            # `sh X.sh` of a launcher dash reads otherwise (emulate/script.py)
    return shown(out)


def launches_json(report: dict) -> List[dict]:
    """Every launch a launcher runs, in order, each with its own verdict and setups."""
    out = []
    for r in report["launches"]:
        info = {k: v for k, v in r.info.items() if k != "lines"}
        out.append({"index": r.index, **info, "verdict": r.verdict, "why": r.why, "profiles": r.profiles,
                    "usable": r.report["usable"], "setups": [result_json(x) for x in r.report["results"]]})
    return out


def output_text(r: Result, cwd: str) -> str:
    """The output directory for the text report: known, partly known (with HOLEs, shown as <unknown>), or ""."""
    if r.output_dir:
        return r.output_dir
    outs = {o.output for o in r.outcomes.values() if o.verdict in ("collects", "collects_nothing")}
    value = outs.pop() if len(outs) == 1 else None
    from .replay import located
    if value and HOLE not in value and located(value, cwd) is None:
        return os.path.normpath(os.path.join(HOLE, value))     # relative to a directory not known statically
    if not value or HOLE not in value or not value.replace(HOLE, "").strip("/"):
        return ""                       # known (then output_dir has it) or nothing of it known
    if value.startswith(HOLE):
        return value
    return located(value, cwd) or os.path.normpath(os.path.join(HOLE, value))


# ---------------------------------------------------------------- text: headline, table, details

HEADLINE_WIDTH = 100        # one terminal line


def wrapped(text: str, width: int) -> str:
    """The report for a terminal of `width` columns: a longer line is broken at spaces, never inside a word (a
    word longer than the width stays whole), its continuation indented under it. Output that is not a terminal
    keeps every line whole."""
    import textwrap
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent + "    ", break_long_words=False,
                                 break_on_hyphens=False, drop_whitespace=True) or [line])
    return "\n".join(out)


def _short_path(path: str, width: int) -> str:
    """A directory said in at most `width` characters: relative to the current directory when inside it, else
    its last components after "…/"."""
    path = _display(path)
    if len(path) <= width:
        return path
    parts = path.split("/")
    for i in range(1, len(parts)):
        tail = "…/" + "/".join(parts[i:])
        if len(tail) <= width:
            return tail
    return "…/" + parts[-1] if len(parts) > 1 else path    # whole: a name is never cut (the headline gives up more)


def _code_of(o: Outcome) -> str:
    return next((m.code for m in o.messages if m.code), None) or ""


def target_rows(r: Result, target: Target) -> List[Tuple[str, str, str, str]]:
    """(targets, verdict, collected, dropped) per group of targets with the same answer, the most common first."""
    groups: Dict[tuple, List[Tuple[str, str]]] = {}
    for cell, o in r.outcomes.items():
        verdict = o.verdict.replace("_", " ")
        if o.verdict == "fails" and _code_of(o):
            verdict += f" ({_code_of(o)})"
        key = (verdict, tuple(o.collected) if o.verdict == "collects" else (), tuple(k for k, _ in o.dropped))
        groups.setdefault(key, []).append(cell)
    order = sorted(groups.items(), key=lambda kv: -len(kv[1]))
    return [(cells_phrase(cells, target), verdict, ", ".join(collected) or "-", ", ".join(dropped) or "-")
            for (verdict, collected, dropped), cells in order]


def target_grid(r: Result, target: Target, indent: str = "    ") -> List[str]:
    """What differs per target, as a grid: a row per CANN version and a column per product of the target (one
    row for `--cann 8.0`), a letter per answer in each cell, and the answers under it, the most common first.
    It replaces rows that named their targets in words ("CANN 7.0, 8.0 and 8.5 / every product but Ascend 310
    and CANN 9.0 and 9.1 / every product")."""
    answers: Dict[tuple, List[Tuple[str, str]]] = {}
    for cell, o in r.outcomes.items():
        verdict = o.verdict.replace("_", " ")
        if o.verdict == "fails" and _code_of(o):
            verdict += f" ({_code_of(o)})"
        key = (verdict, tuple(o.collected) if o.verdict == "collects" else (), tuple(k for k, _ in o.dropped))
        answers.setdefault(key, []).append(cell)
    if len(answers) <= 1:
        return []
    ordered = sorted(answers.items(), key=lambda kv: -len(kv[1]))
    letter = {cell: chr(ord("A") + k) for k, (_, cells) in enumerate(ordered) for cell in cells}
    versions = [v for v in target.versions if any(c[0] == v for c in letter)]
    products = [p for p in target.products if any(c[1] == p for c in letter)]
    rows = [("CANN", *products)] + [(v, *(letter.get((v, p), " ") for p in products)) for v in versions]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = [(indent + "  ".join(c.ljust(w) for c, w in zip(row, widths))).rstrip() for row in rows]
    for k, ((verdict, collected, dropped), _) in enumerate(ordered):
        what = verdict + (" " + ", ".join(collected) if collected else "")
        if dropped:
            what += f" (dropped: {', '.join(dropped)})"
        out.append(f"{indent}{chr(ord('A') + k)}  {what}")
    return out


def _table(rows: List[Tuple[str, ...]], header: Tuple[str, ...], indent: str = "  ") -> List[str]:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    out = []
    for row in [header, *rows]:
        cells = [c.ljust(w) for c, w in zip(row, widths)] + [row[-1]]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def headline(report: dict, r: Result) -> str:
    """One line (at most HEADLINE_WIDTH characters) per setup: where, the verdict, what is collected and where to.
    Detail is given up in steps until it fits: the output directory's leading part, the list of switches; a
    message is cut. The full path, the conditions and the messages follow in the details."""
    s = r.setup
    target = Target(report["target"]["cann"], report["target"]["soc"])
    rows = target_rows(r, target) if r.outcomes else []
    locs = (f"{os.path.basename(r.path or report['file'])}:{s.line} {s.route}", f"line {s.line} {s.route}")
    options = {loc: shown(_verdict_texts(report, r, rows, HEADLINE_WIDTH - len(loc) - 2)) for loc in locs}
    conds = _conditions(s, r.raised)
    if conds and r.verdict in ("collects", "fails"):
        # a verdict that holds only under a condition says so: in full where it fits, else in one word
        when = f" (when {all_of(conds)})"
        options = {loc: [t + when for t in texts[:2]] + [t + " (conditional)" for t in texts]
                   for loc, texts in options.items()}
    if len(options[locs[0]]) == 1:     # a message: keep the file's name if that leaves room, and cut it
        loc = locs[0] if HEADLINE_WIDTH - len(locs[0]) >= 60 else locs[1]
        return f"{loc}: {options[loc][0]}"             # whole: a terminal wraps it at a space (wrapped)
    for i in range(len(options[locs[0]])):      # the most detail first, then the file's name
        for loc in locs:
            if len(loc) + 2 + len(options[loc][i]) <= HEADLINE_WIDTH:
                return f"{loc}: {options[loc][i]}"
    return f"{locs[1]}: {options[locs[1]][-1]}"


def _verdict_texts(report: dict, r: Result, rows, room: int) -> List[str]:
    """The verdict part of the headline, from the most to the least detailed."""
    first = r.messages[0] if r.messages else ""
    if r.setup.reached is False:
        return [f"NOT REACHED from this file's entry point (line {r.setup.entry})"]
    if r.verdict == "collects" or any(v == "collects" for v, _, _ in r.spread):
        out_dir = shown(output_text(r, report["cwd"]))       # measured as printed
        more = " (+ more)" if any(row[1] == "collects" and row[2] != ", ".join(r.collected) for row in rows) else ""
        keys = (", ".join(r.collected) + more) if r.collected else "data"
        count = f"{len(r.collected)} switches{more}" if r.collected else "data"
        if r.verdict == "collects":
            # GE may never read this config (the file does not show it): never a plain "COLLECTS"
            verb = "MAY COLLECT" if handed_away(r) else "COLLECTS"
            source = f" ({r.source} options)" if r.source and r.source != "script" else ""
            if not out_dir:
                return [f"{verb} {keys} into a directory known only at run time{source}",
                        f"{verb} {keys} into a directory known only at run time", f"{verb} {keys}",
                        f"{verb} {count}"]
            whole = _display(out_dir)
            out = [f"{verb} {keys} into {whole}{source}", f"{verb} {keys} into {whole}"]
            for what in (keys, count):
                head = f"{verb} {what} into "
                out.append(head + _short_path(out_dir, max(room - len(head), 12)))
            return out + [f"{verb} {keys}", f"{verb} {count}"]
        others = " or ".join(dict.fromkeys(v.replace("_", " ") for v, _, _ in r.spread if v != "collects"))
        return [f"DEPENDS ON TARGET: collects {what} or {others} (see table)" for what in (keys, count, "data")]
    if r.spread:
        verdicts = " / ".join(dict.fromkeys(v.replace("_", " ") for v, _, _ in r.spread))
        return [f"DEPENDS ON TARGET: {verdicts} (see table)"]
    if r.verdict == "fails":
        failure = next((str(m) for m in r.messages if m.code and m.where is None), None)
        per_target = [m for m in r.messages if m.code and m.where is not None]
        if failure is None and len(per_target) > 1:
            # every target fails (no spread), each with its own runtime message: one of them alone
            # would read as if only its targets failed
            codes = " / ".join(dict.fromkeys(m.code or "" for m in per_target))
            return [f"FAILS: {codes} on every target (per-version messages below)",
                    f"FAILS: {codes} on every target"]
        return [f"FAILS: {failure or str(per_target[0] if per_target else first)}"]
    if r.verdict == "collects_nothing":
        return [f"COLLECTS NOTHING: {r.messages[-1] if r.messages else ''}"]
    return [f"{r.verdict.upper()}: {first}"]


def not_replayed(name: str, framework: str = "a torch_npu or torch profiler") -> str:
    """What a script that profiles with a framework's profiler (torch_npu's, MindSpore's) is told, run directly
    or by a launcher."""
    # emulate replays torch_npu's and MindSpore's profilers; what is left is a call it does not model (a legacy or
    # foreign API) or one whose arguments are not known statically (`profile(**kwargs)`)
    return f"{name}: names {framework}, but no call emulate replays (npuprof check judges it)"


def render_text(report: dict) -> str:
    runs = report.get("launches") or []
    if len(runs) > 1:
        return _render_sequence(report)
    results: List[Result] = report["results"]
    lines = [target_line(report)] + [ln for ln in (report.get("launch") or {}).get("lines", [])]
    followed = not (runs and runs[0].launch.missing)
    setup_lines = _setup_lines(report, results)
    if report["usable"] is None:
        # "COLLECTS" beside an unknown answer says what it hangs on
        own = ""
        if not followed or (report.get("launch") or {}).get("unseen"):
            own = "if the process that reads these variables sets no profiling options of its own: "
            hangs = (report.get("answer") or {}).get("why", "it is not followed")
        else:
            hangs = (report.get("answer") or {}).get("why") or "; ".join(unknown_reasons(results))
        # (msprof's configuration is used instead of the process's own options: only whether it starts is open)
        setup_lines = [f"{line} — unknown: {'' if ' msprof: ' in line else own}{hangs}"
                       if re.search(r": (COLLECTS|MAY COLLECT) ", line) and not line.startswith(" ") else line
                       for line in setup_lines]
    lines.extend(setup_lines)
    if (report.get("launch") or {}).get("exits_at") and not report["launch"].get("crlf"):
        lines.append(f"usable data: no ({report['answer']['why']}: nothing is collected)")
        lines.extend([f"! {report['sh']}"] if report.get("sh") else [])
        return shown("\n".join(lines) + "\n")
    if not results and report.get("unmodelled"):
        lines.append(report["unmodelled"])      # a script profiling in a way emulate does not replay: not "none"
        lines.extend([report["note"]] if report.get("note") else [])     # which releases a replay is for
    elif not results and followed and not (report.get("launch") or {}).get("unseen"):
        hint = report.get("env_hint") or "set PROFILING_MODE/PROFILING_OPTIONS and use --env to emulate the environment"
        lines.append(f"{report['file']}: no profiling setup found: a run collects no profiling data ({hint})")
    lines.extend(_preflight_lines(report))
    launch = report.get("launch") or {}
    stopped = launch.get("stopped") and report["usable"] is None          # the walk stopped at a bound
    said = runs and report["usable"] is None and not unknown_reasons(results)     # the launch's own why, then
    if not followed or said or launch.get("unseen") or launch.get("crlf") or stopped:
        # (no: a script whose profiler's import stops the job, emulate/script.py)
        lines.append(f"usable data: {'no' if report['usable'] is False else 'unknown'} ({report['answer']['why']})")
    elif runs and report["usable"] is False and (report.get("answer") or {}).get("why") and \
            _usable_line(report, results) == "usable data: no":
        lines.append(f"usable data: no ({report['answer']['why']})")    # the launcher's answer says why
    else:
        lines.append(_usable_line(report, results))
    lines.extend([f"! {report['sh']}"] if report.get("sh") else [])
    lines.extend(_target_notes(report))
    for r in results:
        lines.append("")
        lines.extend(_details(report, r))
    if report["against"] is not None:
        lines.append("")
        lines.extend(_against_text(report["against"]))
    return shown("\n".join(lines) + "\n")


def _render_sequence(report: dict) -> str:
    """A launcher that runs several launches: each in order with its own verdict, which of them produce profiling
    data, and the run's answer (the launch that decides it named)."""
    runs = report["launches"]
    n = len(runs)
    lines = [target_line(report), f"launcher: {report['file']} runs {n} launches, in this order"]
    for run in runs:
        info = run.info["lines"]
        lines.append(f"launch {run.index} of {n}: {info[0][len('launch: '):]}")
        lines.extend(info[1:])
        lines.extend(_setup_lines(run.report, run.report["results"]))
        lines.append(f"  this launch: {run.verdict}: {run.why}")
    lines.extend(_preflight_lines(report))
    # the launches that leave data: not one that fails, collects nothing or never runs
    profiling = [r for r in runs if r.profiles and r.verdict == "collects"]
    # a launch that cannot be followed, or whose switch is not known, may profile too: never "none" then
    open_ = [r for r in runs if r.verdict == "unknown" and r.profiles is not False or
             r.verdict == "fails" and r.profiles and not r.certain]
    maybe = f"not known for launch{'es' if len(open_) > 1 else ''} {', '.join(str(r.index) for r in open_)} " \
        "(see above)" if open_ else ""
    none = "no launch (none that switches profiling on collects)" if any(r.profiles for r in runs) else \
        "no launch (none switches profiling on)"
    lines.append("profiling data from: " + (", ".join(f"launch {r.index} ({r.where})" for r in profiling) +
                                            (f"; {maybe}" if maybe else "") if profiling else maybe or none))
    answer = report["answer"]
    if answer["usable"] is True:
        results = [x for r in profiling for x in r.report["results"]]
        line = _usable_line(report, results)
        lines.append(line + (f" ({answer['why']})" if answer.get("why") and "(" not in line else
                             f"; {answer['why']}" if answer.get("why") else ""))
    else:
        lines.append(f"usable data: {'no' if answer['usable'] is False else 'unknown'} ({answer['why']})")
    lines.extend(dict.fromkeys(run.report["note"] for run in runs if run.report.get("note")))
    lines.extend([f"! {report['sh']}"] if report.get("sh") else [])
    lines.extend(_target_notes(report))
    for run in runs:
        if run.report["results"]:
            lines.extend(["", f"launch {run.index} of {n} ({run.where}):"])
        for r in run.report["results"]:
            lines.extend(_details(run.report, r))
    return shown("\n".join(lines) + "\n")


def _setup_lines(report: dict, results: List[Result]) -> List[str]:
    out = []
    for r in results:
        out.append(headline(report, r))
        out.extend(caveat_lines(r))
    return out


def _preflight_lines(report: dict) -> List[str]:
    out = [f"{report['file']}:{p['line']} preflight {p['code']} {p['message']}" for p in report["preflight"]]
    if not report["preflight"] and report["checked"]:
        out.append(f"preflight: ok ({'; '.join(report['checked'])})")
    return out


def _target_notes(report: dict) -> List[str]:
    notes = [n for o in (report.get("target_origin") or {}).values() if o.source == "default" for n in o.notes]
    return [f"target detection: {'; '.join(dict.fromkeys(notes))}"] if notes else []


def _usable_line(report: dict, results: List[Result]) -> str:
    ok = report["exit"] == EXIT_OK
    reader = next((r for r in results if r.read_by_ge is not False and r.export_command), None)
    then = f"; afterwards run: {reader.export_command}" if reader else ""
    if report["usable"]:
        conditional = any(_conditions(r.setup) for r in results if r.read_by_ge is not False) or \
            report.get("conditional")           # a framework's profiler under its conditions (sequence.py)
        less = list(dict.fromkeys(c.code or "" for r in results if r.read_by_ge is not False
                                  for c in r.caveats))
        return (f"usable data: yes{' (where its conditions hold)' if conditional else ''}"
                f"{'' if ok else ' (but see the problems above)'}"
                f"{'; less useful: ' + ', '.join(less) + ' (see above)' if less else ''}{then}")
    if any(p["code"] == "NPP901" for p in report["preflight"]):
        return "usable data: no (the output directory cannot be used on this machine)"
    if report["usable"] is None:
        open_ = [r for r in results
                 if r.read_by_ge is not False and (may_collect(r) is None or r.setup.reached is None)]
        if open_ and all({v for v, _, _ in r.spread} & {"collects"} and "unknown" not in {v for v, _, _ in r.spread}
                         and r.setup.reached is not None for r in open_):
            return (f"usable data: only on some targets (see the table; give --cann and --soc, or set cann "
                    f"and soc in [tool.npuprof]){then}")
        # hangs on a value not known statically: say which, never "no" (the answer's own why where the results
        # give none: a module a script imports, followed for `emulate SCRIPT.py`)
        reasons = unknown_reasons(results) or [w for w in [(report.get("answer") or {}).get("why")] if w]
        return f"usable data: unknown ({'; '.join(reasons)}){then}"
    return "usable data: no"


MAX_CAVEAT_LINES = 3


def caveat_lines(r: Result) -> List[str]:
    """Beside a collecting setup's headline: what makes its data less useful, one line each."""
    out = [f"  ! {c}" for c in r.caveats[:MAX_CAVEAT_LINES]]
    if len(r.caveats) > MAX_CAVEAT_LINES:
        out.append(f"  ! (+{len(r.caveats) - MAX_CAVEAT_LINES} more in the details below)")
    return out


def _conditions(s, raised: bool = False) -> List[str]:
    """What a setup needs to be read: its guards, and a flag that is its switch (state.py's "flag"). A Python
    error where the setup is written (raised) happens whenever the line runs, whatever the flag says, and
    whatever the config is later handed over under (`cfg if flag else None`): its guards only."""
    if raised:
        conds = list(s.conditions)
        if s.condition and conds and conds[-1] == s.condition:
            conds.pop()                 # inventory._add puts the handing-over condition last
        return conds
    flag = switch_flag(s.mode)
    return list(s.conditions) + ([flag] if flag else [])


def _details(report: dict, r: Result) -> List[str]:
    s = r.setup
    target = Target(report["target"]["cann"], report["target"]["soc"])
    conds = _conditions(s, r.raised)
    out = [f"{r.path or report['file']}:{s.line} {s.route}: {r.verdict}" +
           ("" if r.read_by_ge is not None else
            " (if this code runs)" if (s.reached is None and s.delivered != "unknown") or r.raised else
            " (if GE reads it)") +
           (f" (when {all_of(conds)})" if conds else "")]
    if r.effective_options is not None:
        out.append(f"  effective options ({r.source}): {dumps(r.effective_options)}")
    rows = target_rows(r, target) if r.outcomes else []
    messages = r.messages
    if len(rows) > 1:
        out.append("  per target (a letter per CANN version and product, said below):")
        out.extend(target_grid(r, target))
        messages = [m for m in messages if m != depends(r.spread)]   # the table says it
    out.extend(f"  - {m}" for m in messages)
    for key, why in r.dropped:
        out.append(f"  dropped {key}: {why}")
    out_dir = output_text(r, report["cwd"])
    if r.output_dir:
        out.append(f"  output directory: {r.output_dir}")
    elif out_dir:
        out.append(f"  output directory: {out_dir} (partly known only at run time)")
    if r.layout:
        some = [k for row in rows if row[1] == "collects" for k in row[2].split(", ") if k not in r.collected]
        partial = (f"; the files of {', '.join(dict.fromkeys(some))}, collected on some targets only, are not listed"
                   if some else "")
        out.append("  predicted tree (files appear only for data actually collected; "
                   f"mindstudio_profiler_output after export{partial}):")
        out.extend(f"    {p}" for p in r.layout)
    if r.export_command:
        out.append(f"  then run: {r.export_command}")
    return out


def _against_text(a: dict) -> List[str]:
    out = [f"against {a['prof_dir']}:"]
    for note in a["notes"]:
        out.append(f"  ! {note}")
    for g in a["missing"]:
        out.append(f"  MISSING {g['family']}: {g['cause']}")
    for g in a["extra"]:
        out.append(f"  UNEXPECTED {g['family']}: {g['cause']}")
    if not (a["missing"] or a["extra"]):
        out.append("  every predicted file family is there")
    for g in a["explained"]:
        out.append(f"  no {g['family']}: {g['cause']}")
    return out
