"""Shell launchers (`*.sh`, shell shebangs): `export PROFILING_MODE=...`, `PROFILING_OPTIONS=...`,
and inline `VAR=... python train.py`, with shell quoting understood.

Values are decoded the way the shell does (single quotes literal, double quotes with `\\`
escapes, backslashes outside quotes); expansions (`$VAR`, `${...}`, `$(...)`, backticks) are
holes. Only the CLI reads these files; findings use the same codes as Python files.
"""

from __future__ import annotations

import re
from typing import List, NamedTuple

from .analysis import Settings, internal_error
from .model import Finding, printable
from .source import HOLE, Piece, Run, SourceText, StrValue
from .state import mask_placeholders

_ASSIGN = re.compile(r"(?:(?:export|declare\s+-x|typeset\s+-x|local|readonly)\s+)?(PROFILING_MODE|PROFILING_OPTIONS)=")
_WORD_END = set(" \t\n;&|<>()")
_BREAK = re.compile(r"[\r\n]")


class ShellSet(NamedTuple):
    name: str
    value: StrValue
    start: int              # offset of the variable name
    line: int


def assignments(text: str) -> List[ShellSet]:
    out = []
    i, n = 0, len(text)
    at_word_start = True
    src = SourceText(text)
    while i < n:
        c = text[i]
        if c == "#" and at_word_start:
            i = _line_end(text, i)
            continue
        if at_word_start:
            m = _ASSIGN.match(text, i)
            if m:
                value, end = read_word(text, m.end())
                value = mask_placeholders(value)        # `{MODE}`, `@MODE@`, '${OUT}': left for a generator
                out.append(ShellSet(m.group(1), value, m.start(1), src.position(m.start(1))[0]))
                i = end
                at_word_start = False
                continue
        if c in "'\"":
            _, i = read_word(text, i)
            at_word_start = False
            continue
        if c == "\\":
            i += 2
            continue
        at_word_start = c in _WORD_END or c == "\r"
        i += 1
    return out


def _line_end(text: str, i: int) -> int:
    """Offset of the line break ending the line at i (a lone CR too, as SourceText counts lines)."""
    m = _BREAK.search(text, i)            # stops at the first break: two find()s would rescan
    return m.start() if m else len(text)


def read_word(text: str, i: int):
    """Decode one shell word starting at i: (StrValue with a map to the source, end offset)."""
    parts: List[str] = []
    runs: List[Run] = []
    t = 0
    start = i
    n = len(text)

    def put(ch: str, s: int, slen: int = 1):
        nonlocal t
        parts.append(ch)
        runs.append(Run(t, len(ch), s, slen))
        t += len(ch)

    def hole():
        nonlocal t
        if not (parts and parts[-1] == HOLE):
            parts.append(HOLE)
            t += 1

    while i < n:
        c = text[i]
        if c in _WORD_END or c == "\r":
            break
        if c == "'":
            close = text.find("'", i + 1)
            close = n if close < 0 else close
            for k in range(i + 1, close):
                put(text[k], k)
            i = close + 1
            continue
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                ch = text[i]
                if ch == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
                    if text[i + 1] != "\n":
                        put(text[i + 1], i, 2)
                    i += 2
                    continue
                if ch in "$`":
                    i = _skip_expansion(text, i)
                    hole()
                    continue
                put(ch, i)
                i += 1
            i += 1
            continue
        if c == "\\":
            if i + 1 < n and text[i + 1] != "\n":
                put(text[i + 1], i, 2)
            i += 2
            continue
        if c in "$`":
            i = _skip_expansion(text, i)
            hole()
            continue
        put(c, i)
        i += 1
    decoded = "".join(parts)
    piece = Piece(start, i, "", "'", start, i)
    return StrValue(decoded, runs, start, i, (piece,), origin="shell"), i


def _skip_expansion(text: str, i: int) -> int:
    n = len(text)
    if text[i] == "`":
        close = text.find("`", i + 1)
        return n if close < 0 else close + 1
    if text.startswith("$(", i) or text.startswith("${", i):
        opener, closer = text[i + 1], ")" if text[i + 1] == "(" else "}"
        depth, k = 0, i + 1
        while k < n:
            if text[k] == opener:
                depth += 1
            elif text[k] == closer:
                depth -= 1
                if depth == 0:
                    return k + 1
            k += 1
        return n
    m = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?").match(text, i)
    return m.end() if m and m.end() > i + 1 else i + 1


def analyse_shell(text: str, filename: str = "<shell>", settings: Settings = Settings()) -> List[Finding]:
    try:
        from .msprof import check_shell
        findings = _analyse(text, settings) + check_shell(text, settings.target)
        return sorted(findings, key=Finding.sort_key)
    except Exception as exc:                # same contract as Python files
        return [internal_error(exc)]


def _analyse(text: str, settings: Settings) -> List[Finding]:
    if "PROFILING_" not in text:
        return []
    from .checks.env import NO_OPTIONS_IN_ENV, mode_problem_text
    from .checks.hygiene import check_option_hygiene
    from .checks.options import check_options, for_state
    from .values import place
    src = SourceText(text)
    findings: List[Finding] = []

    def report(code, start, end, message):
        (l1, c1), (l2, c2) = src.position(start), src.position(max(start, end))
        findings.append(Finding(code, printable(message), start, end, l1, c1, l2, c2))

    sets = assignments(text)
    modes = [s for s in sets if s.name == "PROFILING_MODE"]
    # the launcher's setup in the model emulate uses (the last values win)
    from .inventory import shell_setups
    from .state import from_setup
    setups = shell_setups(text)
    state = from_setup(setups[0]) if setups else None
    for s in modes:
        problem = mode_problem_text(s.value.text)
        if problem:
            report("NPP011", s.value.anchor, s.value.anchor_end, problem)
    mode_on = True if state is not None and state.status == "on" else \
        False if state is not None and state.latent else None
    if mode_on and modes and not any(s.name == "PROFILING_OPTIONS" for s in sets) and \
            "PROFILING_OPTIONS" not in text:
        s = modes[-1]
        report("NPP002", s.start, s.start + len(s.name), NO_OPTIONS_IN_ENV.format(where="this launcher"))
    for s in sets:
        if s.name != "PROFILING_OPTIONS":
            continue
        value = s.value
        # PROFILING_MODE explicitly off (`export PROFILING_MODE=false  # true to profile`) parks the
        # options on purpose: not NPP001; their problems are reported as latent (state.py)
        if not value.text.strip():
            if mode_on:
                report("NPP002", s.start, s.start + len(s.name),
                       "PROFILING_MODE is true with empty PROFILING_OPTIONS: recent GE substitutes its defaults "
                       '(output "./"), older GE silently switches profiling off; give the options')
            continue
        result = check_options(value.text, settings.target, mode_on)
        for issue in list(result.issues) + check_option_hygiene(value.text, result.doc, text):
            start, end = place(value, issue.i, issue.j)
            report(issue.code, start, end, for_state(issue.message, state))
    return sorted(findings, key=Finding.sort_key)
