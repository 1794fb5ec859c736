"""Renderings for CI: SARIF 2.1.0 (code scanning) and GitHub workflow commands (annotations).

Both the CLI (`npuprof check --format sarif|github`) and the flake8 formatters
(`flake8 --format=npuprof-sarif|npuprof-github`) go through `Problem`, so the two
front-ends produce the same rules, levels, locations and fingerprints.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path, PurePath
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple
from urllib.parse import quote

from .. import __version__
from ..checks import catalog
from ..checks.catalog import BY_CODE, Rule, render
from ..engine.fix import fix_marker

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT = "npuprofLineHash/v1"


def tool_component(name: str) -> Dict:
    """The SARIF toolComponent of flake8-npuprof: its name, version and, when [project.urls] gives one, the
    project's own address (links.py; never a guessed one)."""
    from ..links import home
    component: Dict[str, str] = {"name": name, "version": __version__}
    address = home()
    if address:
        component["informationUri"] = address
    return component

# A rule's level is on its page (Rule.level, checks/rule.py: what the runtime does decides it).
# Codes of other flake8 plugins: flake8's own E9xx (syntax error, unreadable file) stop the
# check of a file; everything else is a warning.
FOREIGN_LEVELS = (("E9", "error"),)
GITHUB_LEVELS = {"error": "error", "warning": "warning", "note": "notice"}


def level(code: str) -> str:
    rule = BY_CODE.get(code)
    if rule is not None:
        return rule.level
    return next((lvl for prefix, lvl in FOREIGN_LEVELS if code.startswith(prefix)), "warning")


class Problem(NamedTuple):
    """One reported finding, whichever front-end found it."""

    path: str                   # as displayed: relative to the working directory, or absolute
    code: str
    message: str
    region: Dict[str, int]      # SARIF region: 1-based lines and columns, end column exclusive
    line_text: str              # the text of the start line, for the fingerprint
    fix: Optional[Dict] = None  # a SARIF fix object
    detail: Tuple[str, ...] = ()    # what the short message leaves out (source/said.py), a part a line
    related: Tuple[int, ...] = ()   # lines of the same file the message names ("the profiling config (line 13)")


def region(line: int, col: int, end_line: Optional[int] = None, end_col: Optional[int] = None) -> Dict[str, int]:
    """SARIF region of 0-based character columns (SARIF counts from 1; the end stays exclusive)."""
    out = {"startLine": max(line, 1), "startColumn": max(col, 0) + 1}
    if end_line is not None and end_col is not None:
        out.update(endLine=max(end_line, 1), endColumn=max(end_col, 0) + 1)
    return out


def relative_path(path: str) -> str:
    """A repository-relative POSIX path when the file is under the working directory."""
    if os.path.isabs(path):
        try:
            rel = os.path.relpath(path)
        except ValueError:              # another drive on Windows
            return path
        if rel.startswith(".."):
            return path
        path = rel
    return PurePath(os.path.normpath(path)).as_posix()


def artifact_location(path: str) -> Dict[str, str]:
    rel = relative_path(path)
    if os.path.isabs(rel) or rel.startswith("../"):
        return {"uri": Path(os.path.abspath(rel)).as_uri()}
    return {"uri": quote(os.fsencode(rel)), "uriBaseId": SRCROOT}     # bytes: any file name is a URI


def fingerprint(code: str, rel_path: str, line_text: str, occurrence: int) -> str:
    """Stable while unrelated lines move: no line number, only what the line says and which
    occurrence of that code on such a line in the file it is."""
    key = "\0".join((code, rel_path, line_text.strip(), str(occurrence)))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def rule_descriptor(rule: Rule) -> Dict:
    page = render(rule)                 # the same page as `npuprof explain` and docs/rules/
    config: Dict[str, Any] = {"level": rule.level}
    if not rule.default:
        config["enabled"] = False
    from ..links import rule_page
    descriptor: Dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": page, "markdown": page},
        "help": {"text": page, "markdown": page},
        "defaultConfiguration": config,
        "properties": {"tags": ["npuprof", rule.group, rule.category]},
    }
    if rule_page(rule.code):            # under the project's own `Rules` URL ([project.urls]), or no link
        descriptor["helpUri"] = rule_page(rule.code)
    return descriptor


def foreign_descriptor(code: str, reporter: str = "") -> Dict:
    """A code of another flake8 plugin: flake8 gives its message, not its rule, so the description says who
    reported it (`reporter`: "pyflakes 3.2.0", as flake8's plugin list names it) and where to read more."""
    who = reporter or "another flake8 plugin"
    text = (f"{code} is reported by {who} through flake8, which passes on its message but no description of "
            f"the rule: see the documentation of {reporter.split(' ')[0] if reporter else 'that plugin'}.")
    return {"id": code, "name": code, "shortDescription": {"text": f"{code}, reported by {who}"},
            "fullDescription": {"text": text}, "help": {"text": text, "markdown": text},
            "defaultConfiguration": {"level": level(code)}, "properties": {"tags": ["flake8"]}}


def sarif_log(problems: Iterable[Problem], driver: Dict, extensions: Sequence[Dict] = (),
              reporters: Optional[Dict[str, str]] = None) -> Dict:
    """The SARIF log of one run: every catalog rule, then the foreign codes that occur (reporters: who
    reported each, where the front-end knows)."""
    problems = list(problems)
    rules = [rule_descriptor(r) for r in catalog.RULES]
    index = {r.code: i for i, r in enumerate(catalog.RULES)}
    for p in problems:
        if p.code not in index:
            index[p.code] = len(rules)
            rules.append(foreign_descriptor(p.code, (reporters or {}).get(p.code, "")))
    seen: Counter = Counter()
    results = []
    for p in problems:
        key = (p.code, relative_path(p.path), p.line_text.strip())
        occurrence = seen[key]
        seen[key] += 1
        result: Dict[str, Any] = {
            "ruleId": p.code,
            "ruleIndex": index[p.code],
            "level": level(p.code),
            "message": message_object(p.message, p.detail),
            "locations": [{"physicalLocation": {"artifactLocation": artifact_location(p.path),
                                                "region": p.region}}],
            "partialFingerprints": {FINGERPRINT: fingerprint(*key, occurrence)},
        }
        if p.related:
            result["relatedLocations"] = [
                {"id": k, "message": {"text": f"line {n}, named in the message"},
                 "physicalLocation": {"artifactLocation": artifact_location(p.path), "region": {"startLine": n}}}
                for k, n in enumerate(p.related)]
        if p.fix is not None:
            result["fixes"] = [p.fix]
        results.append(result)
    tool: Dict[str, Any] = {"driver": dict(driver, rules=rules)}
    if extensions:
        tool["extensions"] = list(extensions)
    root = Path.cwd().as_uri()
    run = {
        "tool": tool,
        "originalUriBaseIds": {SRCROOT: {"uri": root if root.endswith("/") else root + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def message_object(short: str, detail: Sequence[str]) -> Dict[str, str]:
    """SARIF `message`: the short sentence as text; with a detail, `markdown` adds it as a list (viewers
    that render markdown show it; the others show the text)."""
    from ..source.brief import markdown
    return {"text": short, "markdown": markdown(short, detail)} if detail else {"text": short}


def dumps(log: Dict) -> str:
    # ASCII-only JSON is valid whatever encoding the output stream has (SARIF files are UTF-8).
    return json.dumps(log, indent=2, ensure_ascii=True)


def _fix(path: str, src, fix) -> Dict:
    replacements = []
    for e in fix.edits:
        (l1, c1), (l2, c2) = src.position(e.start), src.position(e.end)
        replacement = {"deletedRegion": region(l1, c1, l2, c2)}
        if e.text:
            replacement["insertedContent"] = {"text": e.text}
        replacements.append(replacement)
    return {"description": {"text": fix.title},
            "artifactChanges": [{"artifactLocation": artifact_location(path), "replacements": replacements}],
            "properties": {"applicability": "safe" if fix.safe else "unsafe"}}


def problems_of(results) -> List[Problem]:
    """`cli.render`'s (display path, SourceText, findings) triples as problems."""
    return [Problem(path, f.code, f.short, region(f.line, f.col, f.end_line, f.end_col),
                    src.line_text(f.line), _fix(path, src, f.fix) if f.fix is not None else None, f.detail_lines,
                    _related(src, f))
            for path, src, findings in results for f in findings]


def _related(src, f) -> Tuple[int, ...]:
    return tuple(n for n in f.lines_named if n != f.line and n <= len(src.line_starts))


def sarif(results) -> str:
    return dumps(sarif_log(problems_of(results), tool_component("npuprof"))) + "\n"


# ---------------------------------------------------------------- GitHub workflow commands

def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(code: str, path: str, message: str, line: int, col: int,
                     end_line: Optional[int] = None, end_col: Optional[int] = None) -> str:
    """`::error file=…,line=…::message` for one finding; columns 1-based, end column exclusive."""
    props = [("file", relative_path(path)), ("line", str(max(line, 1))), ("col", str(max(col, 1)))]
    if end_line is not None and end_col is not None:
        props += [("endLine", str(end_line)), ("endColumn", str(end_col))]
    rule = BY_CODE.get(code)
    props.append(("title", f"{code} {rule.name}" if rule else code))
    head = ",".join(f"{k}={escape_property(v)}" for k, v in props)
    return f"::{GITHUB_LEVELS[level(code)]} {head}::{escape_data(message)}"


def github(results) -> str:
    # the annotation's first line is the short message; the detail follows on lines of its own (GitHub shows
    # the body when the annotation is opened; escape_data keeps it one workflow command)
    lines = [workflow_command(f.code, path, f.short + fix_marker(f) + (f"\n\n{f.detail}" if f.detail else ""),
                              f.line, f.col + 1, f.end_line, f.end_col + 1)
             for path, _, findings in results for f in findings]
    return "".join(line + "\n" for line in lines)
