"""What `npuprof server` computes for one open document, without any LSP library.

The findings, their fixes, `# noqa` edits, the fix-all result and hover texts are worked out
here on plain text with character offsets; server.py turns them into protocol objects. The
analysis is the one `npuprof check` runs (same selection, noqa and per-file-ignores), with the
settings of the configuration file found from the document's folder.
"""

from __future__ import annotations

import ast
import json
import os
import re
import threading
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from .checks.analysis import Settings
from .source.config import Config, ConfigError, from_flake8, from_pyproject
from .source.files import DYNAMIC_CONFIG, SHELL_SHEBANG, YAML_SUFFIXES, Selection
from .source.model import Edit, Finding
from .source.text import SourceText
from .knowledge.targets import Target

CONFIG_NAMES = ("pyproject.toml", "setup.cfg", "tox.ini", ".flake8")
# One analysis at a time in a process: analyses share per-process caches (sibling modules and their resolvers,
# data files) written for one thread. The language server's threads take it (server.py, server_start.py).
ANALYSING = threading.Lock()
# Diagnostic tags (LSP DiagnosticTag) of a rule's findings, named on its page (Rule.tags).
UNNECESSARY, DEPRECATED = 1, 2
DIAGNOSTIC_TAGS = {"unnecessary": UNNECESSARY, "deprecated": DEPRECATED}


def tags(code: str) -> Tuple[int, ...]:
    """The diagnostic tags of a code's findings (none for a code without a page)."""
    from .checks.catalog import BY_CODE
    rule = BY_CODE.get(code)
    return tuple(DIAGNOSTIC_TAGS[t] for t in rule.tags) if rule is not None else ()


# ---------------------------------------------------------------- positions in the client's units

def units(text: str, encoding: str) -> int:
    """Length of text in the position encoding's code units ("utf-8", "utf-16" or "utf-32")."""
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == "utf-32":
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def to_client(src: SourceText, offset: int, encoding: str) -> Tuple[int, int]:
    """(0-based line, column in code units) of an absolute character offset."""
    offset = max(0, min(offset, len(src.text)))
    line, col = src.position(offset)
    return line - 1, units(src.line_text(line)[:col], encoding)


def from_client(src: SourceText, line: int, character: int, encoding: str) -> int:
    """Absolute character offset of a client position (clamped to the line, as the protocol says)."""
    if line < 0:
        return 0
    if line >= len(src.line_starts):
        return len(src.text)
    text = src.line_text(line + 1).rstrip("\r\n")
    used = 0
    for i, ch in enumerate(text):
        if used >= character:
            return src.line_starts[line] + i
        used += units(ch, encoding)
    return src.line_starts[line] + len(text)


# ---------------------------------------------------------------- configuration per folder

class Overrides(NamedTuple):
    """Settings the editor passes (initializationOptions); like command-line flags they win."""

    cann: Optional[str] = None
    soc: Optional[str] = None
    config: Optional[str] = None          # an explicit configuration file
    rule_url: Optional[str] = None        # e.g. "https://…/docs/rules/{code}.md"

    @classmethod
    def from_options(cls, options) -> "Overrides":
        if not isinstance(options, dict):
            return cls()
        get = lambda k: options.get(k) if isinstance(options.get(k), str) and options.get(k) else None  # noqa: E731
        return cls(get("cann"), get("soc"), get("config"), get("ruleUrl"))


class DocSettings(NamedTuple):
    settings: Settings
    selection: Selection
    per_file_ignores: Tuple[str, ...]
    config_path: Optional[str]
    error: str = ""                       # why the configuration could not be used


class ConfigCache:
    """Configuration per folder, re-read whenever a candidate file appears, changes or goes away.

    The key is what the search sees (each candidate's path, mtime and size), so an edited
    pyproject.toml takes effect on the next analysis even when the editor sends no file event.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self._parsed: Dict[Tuple, Optional[Config]] = {}

    def clear(self) -> None:
        with self._lock:
            self._parsed.clear()

    def find(self, start: Path, explicit: Optional[str] = None) -> Optional[Config]:
        """The nearest [tool.npuprof] or [flake8] configuration above start (as config.load_config
        searches from the working directory); ConfigError when the file in effect is broken."""
        if explicit and not Path(explicit).is_file():
            raise ConfigError(f"config file not found: {explicit}")
        candidates = [Path(explicit)] if explicit else list(_candidates(start))
        key = tuple((str(p), *_stamp(p)) for p in candidates)
        with self._lock:
            if key in self._parsed:
                return self._parsed[key]
        from .engine.selection import rule_codes
        found = None
        for path in candidates:
            if not path.is_file():
                continue
            read = from_pyproject if path.suffix == ".toml" else from_flake8
            found = read(path, rule_codes=rule_codes)
            if found or explicit:
                found = found or Config(str(path))
                break
        with self._lock:
            if len(self._parsed) > 256:
                self._parsed.clear()
            self._parsed[key] = found
        return found


def _candidates(start: Path):
    for directory in [start, *start.parents]:
        for name in CONFIG_NAMES:
            yield directory / name
        if (directory / ".git").exists():
            return


def _stamp(path: Path) -> Tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


def is_config_file(path: str) -> bool:
    return os.path.basename(path) in CONFIG_NAMES


def doc_settings(path: Optional[str], overrides: Overrides, cache: ConfigCache) -> DocSettings:
    from .engine.run import run_settings
    from .engine.selection import selection_from
    from .engine.target import DEFAULTS, settle_target
    from .source.config import UsageError
    flags = {"cann": overrides.cann, "soc": overrides.soc}
    config, error = None, ""
    try:
        start = Path(path).parent if path else Path.cwd()
        config = cache.find(start, overrides.config)
    except (ConfigError, OSError, ValueError) as exc:
        error = str(exc)
    try:
        target = settle_target(flags, config, DEFAULTS["server"])[0]
    except UsageError as exc:
        error = error or str(exc)           # names the configuration file when the value came from it
        try:
            target = settle_target(flags, None, DEFAULTS["server"])[0]
        except UsageError:
            target = Target()
    selection = selection_from(config)
    try:
        settings = run_settings(target, config)     # as `npuprof check`: a graph dump implies the preflight
    except UsageError as exc:                       # a graph dump that is not there
        error = error or str(exc)
        settings = run_settings(target)
    ignores = config.ignores_for(path) if (config and path) else ()
    return DocSettings(settings, selection, ignores, config.path if config else None, error)


# ---------------------------------------------------------------- one analysis of one text

def kind_of(path: Optional[str], language_id: str, text: str) -> Optional[str]:
    """"python", "shell", "json" (torch_npu's profiler_config.json), "yaml" (read as a MindFormers run configuration
    where it names a profiling key: checks/mindformers.py), or None for a document this server does not check."""
    if os.path.basename(path or "") == DYNAMIC_CONFIG:
        return "json"
    if language_id == "yaml" or (path or "").endswith(YAML_SUFFIXES):
        return "yaml"
    if language_id in ("shellscript", "sh", "bash", "zsh") or (path or "").endswith((".sh", ".bash")):
        return "shell"
    if SHELL_SHEBANG.match(text[:200].split("\n", 1)[0].encode("utf-8", "replace")):
        return "shell"
    if language_id == "python" or (path or "").endswith((".py", ".pyi", ".pyw")):
        return "python"
    return None


class Analysis(NamedTuple):
    text: str
    src: SourceText
    kind: str
    path: str
    findings: List[Finding]
    doc: DocSettings


class _PerFileSelection:
    """A selection that also drops the per-file-ignores codes, so `fix_text` (which knows only
    selections) never fixes what the configuration ignores for this file."""

    def __init__(self, selection: Selection, ignores: Sequence[str]):
        self.selection, self.ignores = selection, tuple(ignores)

    def wants(self, code: str) -> bool:
        return self.selection.wants(code) and not any(code.startswith(c) for c in self.ignores)


def too_large(text: str) -> int:
    """The document's size in bytes when it is over the bound every input has (0: within it)."""
    from .source.files import MAX_BYTES
    if len(text) * 4 <= MAX_BYTES:          # at most 4 bytes a character: no need to count them
        return 0
    size = len(text.encode("utf-8", "surrogatepass"))
    return size if size > MAX_BYTES else 0


def analyse_document(text: str, path: str, kind: str, doc: DocSettings) -> Analysis:
    """The document's findings; one NPP191 for a document over the input bound, which is not analysed
    (a 30 MB document held 12.5 GB and blocked every answer for minutes)."""
    from .engine.run import check_text
    size = too_large(text)
    if size:
        from .source.files import MAX_BYTES
        from .source.model import finding
        from .source.said import aside, clause, said, so
        findings = [finding("NPP191", said("analysis budget exhausted", clause(
            f"this document has {size:,} bytes, over the {MAX_BYTES:,} a source file may have",
            so("it was not checked"), aside("npuprof check does not read it either"))), 0, 0, 1, 0, 1, 0)]
    else:
        refused = _refused_on_disk(path, text) if kind == "python" else None
        tree, walks = _tree(path, text) if kind == "python" and refused is None else (None, None)
        findings = [refused] if refused is not None else \
            check_text(path, text, kind, doc.settings, doc.selection, doc.per_file_ignores, tree, walks)
    return Analysis(text, SourceText(text), kind, path, findings, doc)


def _refused_on_disk(path: str, text: str) -> Optional[Finding]:
    """NPP192 when the document's file is one Python cannot decode (the editor shows it decoded its own way),
    placed in the document; None for a document that is ASCII and declares no encoding, or has no file."""
    if text.isascii() and "coding" not in "".join(text.splitlines(True)[:2]):
        return None
    from .source.files import DecodeError, ReadError, decode_python, read_bytes
    try:
        decode_python(read_bytes(path))
    except DecodeError as exc:
        from .checks.analysis import undecodable
        exc.text = text
        return undecodable(exc)
    except (ReadError, ValueError):
        return None
    return None


def _tree(path: str, text: str):
    """The document's tree, parsing again only the statements the last edit touched (lsp_reparse), and the
    sites walks of its statements kept from the last analysis (the walk of a statement the edit did not touch
    is reused); (None, None) for a document the analysis does not parse (no profiling, over the work budget)
    or that does not parse."""
    from .source.files import file_noqa
    from .source.prefilter import might_configure_profiling, words_over_budget
    if not might_configure_profiling(text) or words_over_budget(text) or file_noqa(text):
        return None, None
    from . import lsp_reparse
    tree = lsp_reparse.parse(path, text)
    return (tree, lsp_reparse.walks(path)) if tree is not None else (None, None)


SEVERITY = {"error": 1, "warning": 2, "note": 3}        # LSP DiagnosticSeverity: Error, Warning, Information


def diagnostic(analysis: Analysis, f: Finding, uri: Optional[str], encoding: str, overrides: Overrides,
               related_information: bool) -> dict:
    """The finding as an LSP `Diagnostic`, in the protocol's JSON: what server.py publishes (as protocol
    types) and what server_start.py publishes before those types are loaded."""
    from .report.ci import level        # (the rule catalog, imported with the first diagnostic)

    def position(offset: int) -> dict:
        line, character = to_client(analysis.src, offset, encoding)
        return {"line": line, "character": character}

    where = {"start": position(f.start), "end": position(max(f.start, f.end))}
    out: dict = {"range": where, "message": f.short, "severity": SEVERITY[level(f.code)], "code": f.code,
                 "source": "npuprof"}
    # the problem pane shows the short sentence; the detail comes as related information at the same
    # place (one entry a part: the editor lists them under the diagnostic) and in the hover
    if uri and related_information:           # (a code action's diagnostic carries none)
        related = [{"location": {"uri": uri, "range": where}, "message": line} for line in f.detail_lines]
        lines = len(analysis.src.line_starts)
        related += [{"location": {"uri": uri, "range": {"start": {"line": n - 1, "character": 0},
                                                         "end": {"line": n - 1, "character": 0}}},
                     "message": f"line {n}, named in the message"}      # the editor jumps there
                    for n in f.lines_named if n - 1 != where["start"]["line"] and n <= lines]
        if related:
            out["relatedInformation"] = related
    url = rule_url(f.code, overrides)
    if url:
        out["codeDescription"] = {"href": url}
    if tags(f.code):
        out["tags"] = list(tags(f.code))
    return out


def at(analysis: Analysis, offset: int) -> List[Finding]:
    """Findings whose range holds offset (a zero-width one: its position), innermost first."""
    hits = [f for f in analysis.findings if f.start <= offset <= max(f.end, f.start)]
    return sorted(hits, key=lambda f: (f.end - f.start, f.start))


def overlapping(analysis: Analysis, start: int, end: int) -> List[Finding]:
    return [f for f in analysis.findings if f.start <= end and max(f.end, f.start) >= start]


def newline_of(text: str) -> str:
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


def fix_edits(analysis: Analysis, finding: Finding) -> List[Edit]:
    nl = newline_of(analysis.text)
    assert finding.fix is not None          # (asked only for a finding with a fix)
    return [Edit(e.start, e.end, e.text.replace("\n", nl) if nl != "\n" else e.text) for e in finding.fix.edits]


def fix_all(analysis: Analysis) -> Optional[Edit]:
    """One edit that applies every safe fix `npuprof fix` would apply (each re-checked), or None."""
    if analysis.kind != "python" or too_large(analysis.text):
        return None
    from .engine.fix import fix_text
    doc = analysis.doc
    selection = _PerFileSelection(doc.selection, doc.per_file_ignores)
    result = fix_text(analysis.text, analysis.path, doc.settings, selection, False,
                      newline=newline_of(analysis.text))
    if result.skipped or result.text == analysis.text:
        return None
    return minimal_edit(analysis.text, result.text)


def minimal_edit(old: str, new: str) -> Edit:
    """The single replacement that turns old into new (common head and tail kept)."""
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    return Edit(head, len(old) - tail, new[head:len(new) - tail])


# ---------------------------------------------------------------- "# noqa: NPPxxx"

_NOQA = re.compile(r"#\s*noqa(?::[\s]?(?P<codes>[A-Z][0-9]+(?:[,\s]+[A-Z][0-9]+)*))?", re.IGNORECASE)


def noqa_edit(analysis: Analysis, finding: Finding) -> Optional[Edit]:
    """Add the code to the `# noqa` comment flake8 reads for the finding's line, or append one
    at the end of the last physical line of that range."""
    if analysis.kind not in ("python", "yaml") or finding.code in ("NPP000", "NPP192"):
        return None                         # an internal error or a syntax error is not silenced
    src = analysis.src
    # a YAML comment is its own line's (engine/run.py reads it there)
    last = _noqa_range_end(analysis.text, finding.line) if analysis.kind == "python" else finding.line
    line_start = src.line_starts[last - 1]
    line = src.line_text(last).rstrip("\r\n")
    m = None
    for m in _NOQA.finditer(line):
        pass
    if m is not None and m.group("codes"):
        end = line_start + m.end("codes")
        return Edit(end, end, f",{finding.code}")
    if m is not None:
        return None                         # a bare `# noqa` already silences everything
    spaced = "" if not line.strip() else "  "
    return Edit(line_start + len(line), line_start + len(line), f"{spaced}# noqa: {finding.code}")


def _noqa_range_end(text: str, line: int) -> int:
    """The last line of the range flake8 searches for `# noqa` for this line: the physical lines
    from one NL/NEWLINE token to the next (a multi-line string or a backslash joins lines,
    brackets do not)."""
    import tokenize
    from .source.files import logical_reader
    lo, hi = None, -1
    try:
        for tok in tokenize.generate_tokens(logical_reader(text)):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            lo = tok.start[0] if lo is None else min(lo, tok.start[0])
            hi = max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                if lo <= line <= hi:
                    return hi
                lo, hi = None, -1
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return line


# ---------------------------------------------------------------- hover texts

def rule_url(code: str, overrides: Overrides) -> Optional[str]:
    """Where the rule's page is: the editor's template, else the project's own address ([project.urls]
    Rules, links.py), else the page in the source tree the server runs from; else no link."""
    if overrides.rule_url:
        return overrides.rule_url.replace("{code}", code)
    return _default_rule_url(code)


@lru_cache(maxsize=None)
def _default_rule_url(code: str) -> Optional[str]:
    from .links import local_rule_page, rule_page
    return rule_page(code) or local_rule_page(code)


def finding_hover(finding: Finding, overrides: Overrides) -> str:
    from .checks.catalog import BY_CODE
    rule = BY_CODE.get(finding.code)
    from .source.brief import markdown
    said = markdown(finding.short, finding.detail_lines)    # the diagnostic's sentence, then its detail
    if rule is None:
        return f"**{finding.code}** {said}"
    parts = [f"**{rule.code}** `{rule.name}`: {rule.summary}", "", said, "",
             "**What the runtime does.** " + rule.why, ""]
    if finding.fix is not None:
        safety = "safe" if finding.fix.safe else "unsafe: it changes what is collected"
        parts.append(f"**Fix** ({safety}): {finding.fix.title}. {rule.fix_note}")
    else:
        parts.append(f"**Fix.** {rule.fix_note}")
    parts += ["", "**Use instead:**", "", f"```{rule.language}", rule.fixed.rstrip(), "```"]
    url = rule_url(rule.code, overrides)
    if url:
        parts += ["", f"[{rule.code} rule page]({url})"]
    return "\n".join(parts)


def hover(analysis: Analysis, offset: int, overrides: Overrides) -> Optional[Tuple[str, int, int]]:
    """Markdown for the findings and the options key at offset, with the span it covers."""
    parts, span = [], None
    for f in at(analysis, offset)[:3]:
        parts.append(finding_hover(f, overrides))
        span = span or (f.start, f.end)
    key = option_key_at(analysis, offset)
    if key is not None:
        parts.append(key_hover(key.key, analysis.doc.settings.target))
        span = span or (key.start, key.end)
    if not parts or span is None:       # (a part comes with its span)
        return None
    return "\n\n---\n\n".join(parts), span[0], span[1]


class OptionKey(NamedTuple):
    key: str
    start: int              # source offsets of the key, quotes included
    end: int


def option_key_at(analysis: Analysis, offset: int) -> Optional[OptionKey]:
    """The profiling_options key under the cursor, when it sits in a string literal holding an
    options object (or a PROFILING_OPTIONS value in a shell launcher)."""
    from .source.jsonscan import parse
    from .source.prefilter import words_over_budget
    from .knowledge.datafiles import all_keys
    if analysis.kind in ("json", "yaml") or too_large(analysis.text) or words_over_budget(analysis.text):
        return None                         # not an options text, or not analysed: not parsed for a hover either
    if analysis.kind == "python":
        found = _dict_key_at(analysis, offset)
        if found is not None:
            return found
    for value in _strings_at(analysis, offset):
        doc = parse(value.text)
        if doc.root_type != "object" or not any(m.key in all_keys() for m in doc.members):
            continue
        for m in doc.members:
            a, b = value.src(m.key_start), value.src_end(m.key_end - 1)
            if a is not None and b is not None and a <= offset < b:
                return OptionKey(m.key, a, b)
    return None


def _dict_key_at(analysis: Analysis, offset: int) -> Optional[OptionKey]:
    """A key of a dict literal that spells options: the argument of `json.dumps(...)`, or a dict
    with at least two profiling_options keys."""
    from .knowledge.datafiles import all_keys
    try:
        tree = ast.parse(analysis.text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    src = analysis.src
    dumped = {id(a) for n in ast.walk(tree) if isinstance(n, ast.Call) and _name(n.func) == "dumps"
              for a in n.args[:1]}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        keys = [k for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
        if id(node) not in dumped and sum(k.value in all_keys() for k in keys) < 2:
            continue
        for k in keys:
            if src.node_start(k) <= offset < src.node_end(k):
                return OptionKey(str(k.value), src.node_start(k), src.node_end(k))     # (a str: keys)
    return None


def _name(func) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _strings_at(analysis: Analysis, offset: int):
    from .source.text import literal_value
    if analysis.kind == "shell":
        from .shell.words import assignments
        for s in assignments(analysis.text):
            if s.name == "PROFILING_OPTIONS" and s.value.anchor <= offset <= s.value.anchor_end:
                yield s.value
        return
    try:
        tree = ast.parse(analysis.text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    src = analysis.src
    nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.Constant, ast.JoinedStr))
             and hasattr(n, "end_lineno") and src.node_start(n) <= offset < src.node_end(n)]
    for node in sorted(nodes, key=lambda n: src.node_end(n) - src.node_start(n)):
        value = literal_value(src, node)
        if value is not None and value.runs:
            yield value


@lru_cache(maxsize=None)
def _meanings() -> Dict[str, str]:
    path = Path(__file__).resolve().parent / "data" / "option_keys.json"
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)["meaning"]


def meaning(key: str) -> str:
    from .knowledge.collection import switches
    info = switches().get(key)
    if info and info.get("collects"):
        return f"collects {info['collects']}"
    return _meanings().get(key, "")


def key_hover(key: str, target: Target) -> str:
    from .knowledge import datafiles as K
    from .checks.options import snake
    canonical = snake(key) if key not in K.all_keys() or key != snake(key) else key
    lines = [f"**`{key}`** (profiling_options)"]
    if canonical != key and canonical in K.all_keys():
        lines[0] += f": the protobuf-era spelling of `{canonical}`"
    what = meaning(canonical)
    if what:
        lines += ["", what[0].upper() + what[1:] + "."]
    from .knowledge import ge_options as G
    # up to 8.0 the key list decides; from 8.5 the key must also be one some chip's collector takes
    accepted = tuple(v for v in K.versions_accepting(key)
                     if v in K.LEGACY_VERSIONS or G.accepted_key(v, key))
    lines.append("")
    if not accepted:
        lines.append("No supported CANN version accepts this key: options that carry it make "
                     "profiling initialisation fail.")
        return "\n".join(lines)
    versions = target.versions
    if all(v in accepted for v in versions):
        lines.append(f"Accepted by CANN {', '.join(accepted)}.")
    else:
        refused = [v for v in versions if v not in accepted]
        lines.append(f"Accepted by CANN {', '.join(accepted)}; not by {', '.join(refused)} "
                     "(there, options that carry it make profiling initialisation fail).")
    by_text: Dict[str, List[str]] = {}
    for v in versions:
        if v in accepted:
            by_text.setdefault(describe(K.property_schema(v, key)), []).append(v)
    for described, vs in by_text.items():
        if described:
            lines.append(f"- CANN {', '.join(vs)}: {described}")
    if canonical == "aic_metrics" and target.soc != "any":
        names = K.aic_metrics_for(target.soc)
        lines.append(f"- on Ascend {target.soc}: {', '.join(f'`{n}`' for n in names)} or `Custom:` events")
    if target.soc != "any":
        for product in target.products:
            lack = K.product(product).get("unsupported", {}).get(canonical)
            if not lack:
                continue
            per = [f"{HOW_UNSUPPORTED[lack['on'][v]]} on CANN {v}" for v in versions if v in lack.get("on", {})]
            if per:
                lines.append(f"- not collected on Ascend {product} ({lack['why']}): {'; '.join(per)}")
    lines += ["", f"Target: {target.describe()}."]
    return "\n".join(lines)


# How a collector treats a switch the chip lacks (products.json "unsupported" -> "on").
HOW_UNSUPPORTED = {"warn": "dropped with a plog warning", "silent": "dropped silently",
                   "error": "rejected, GE initialisation fails", "unknown": "not known (collector not open source)"}


def describe(schema: dict) -> str:
    """A schema fragment in words: its enum, list, type and range."""
    if not schema:
        return ""
    if "anyOf" in schema:
        return " or ".join(d for d in (describe(dict(s, type=s.get("type", schema.get("type"))))
                                       for s in schema["anyOf"]) if d)
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return "one of " + ", ".join(f"`{json.dumps(v)}`" if v == "" else f"`{v}`" for v in schema["enum"])
    pattern = schema.get("pattern", "")
    items = re.fullmatch(r"\^\(\?:([\w|]+)\)\(\?:,\(\?:\1\)\)\*\$", pattern)
    if items:
        return "a comma-separated list of " + ", ".join(f"`{x}`" for x in items.group(1).split("|"))
    if pattern.startswith("^Custom:"):
        return "`Custom:` followed by up to 8 comma-separated event ids"
    if pattern.endswith("MB$"):
        return "a string `<N>MB`"
    kind = schema.get("type", "")
    kinds = kind if isinstance(kind, list) else [kind]
    if "minimum" in schema or "maximum" in schema:
        spelled = " or ".join("a JSON number" if k == "integer" else "a string of digits" for k in kinds if k)
        return f"an integer from {schema.get('minimum', '…')} to {schema.get('maximum', '…')} ({spelled})"
    out = "a JSON " + " or ".join(k for k in kinds if k) if kind else "any value"
    if "maxLength" in schema:
        out += f" of at most {schema['maxLength']} characters"
    return out

