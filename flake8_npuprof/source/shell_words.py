"""Shell words as the shell reads them: quoting, `VAR=value` assignments of PROFILING_MODE and
PROFILING_OPTIONS (exported or inline), expansions left as holes."""

from __future__ import annotations

import re
from typing import List, NamedTuple

from .text import HOLE, Piece, Run, SourceText, StrValue, mask_placeholders


MAX_LAUNCHER = 256 * 1024       # characters of a launcher (or a script it sources) read: far above any real one
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


_PLAIN = re.compile(r"[^ \t\n;&|<>()\r'\"\\$`]+")        # characters that stand for themselves, unquoted
_PLAIN_DOUBLE = re.compile(r'[^"\\$`]+')                  # ... inside double quotes


def add_run(parts: List[str], runs: List[Run], t: int, chunk: str, s: int, slen: int) -> int:
    """Append decoded `chunk` (source s..s+slen) and its run; a run that continues the last one in both
    texts extends it, so a long quoted word is a few runs, not one per character. Returns the new t."""
    parts.append(chunk)
    if runs and slen == len(chunk):
        last = runs[-1]
        if last.tlen == last.slen and last.t + last.tlen == t and last.s + last.slen == s:
            runs[-1] = Run(last.t, last.tlen + slen, last.s, last.slen + slen)
            return t + len(chunk)
    runs.append(Run(t, len(chunk), s, slen))
    return t + len(chunk)


def read_word(text: str, i: int):
    """Decode one shell word starting at i: (StrValue with a map to the source, end offset)."""
    parts: List[str] = []
    runs: List[Run] = []
    t = 0
    start = i
    n = len(text)

    def put(chunk: str, s: int, slen: int = -1):
        nonlocal t
        t = add_run(parts, runs, t, chunk, s, len(chunk) if slen < 0 else slen)

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
            if close > i + 1:
                put(text[i + 1:close], i + 1)
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
                m = _PLAIN_DOUBLE.match(text, i + 1) if ch == "\\" else _PLAIN_DOUBLE.match(text, i)
                end = m.end() if m else i + 1
                put(text[i:end], i)
                i = end
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
        m = _PLAIN.match(text, i)
        end = m.end() if m else i + 1
        put(text[i:end], i)
        i = end
    decoded = "".join(parts)
    piece = Piece(start, i, "", "'", start, i)
    return StrValue(decoded, runs, start, i, (piece,), origin="shell"), i


def _skip_expansion(text: str, i: int) -> int:
    n = len(text)
    if text[i] == "`":
        close = text.find("`", i + 1)
        return n if close < 0 else close + 1
    if text.startswith("${", i):
        depth, k = 0, i + 1
        while k < n:
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    return k + 1
            k += 1
        return n
    if text.startswith("$((", i):              # arithmetic: parentheses only (`$((1<<3))` is no heredoc)
        depth, k = 0, i + 1
        while k < n:
            if text[k] == "(":
                depth += 1
            elif text[k] == ")":
                depth -= 1
                if depth == 0:
                    return k + 1
            k += 1
        return n
    if text.startswith("$(", i):
        return _command_substitution_end(text, i + 2)
    m = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?").match(text, i)
    return m.end() if m and m.end() > i + 1 else i + 1


_HEREDOC = re.compile(r"[ \t]*(-?)[ \t]*['\"]?([^\s'\"<>;&|()]*)['\"]?")


def _command_start(text: str, k: int) -> bool:
    """Whether a command starts at k: after `$(`, `(`, `;`, `&`, `|`, a newline or blanks after them."""
    j = k - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    return j < 0 or text[j] in "(;&|\n"


def _command_substitution_end(text: str, k: int) -> int:
    """After the `)` that closes a `$(` whose body starts at k: quotes, nested `$( )`, `( )` and the `)` of case
    patterns (`$(case $x in a) echo 1;; esac)`) do not close it."""
    n, depth, cases = len(text), 1, 0
    while k < n:
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == "'":
            close = text.find("'", k + 1)
            k = n if close < 0 else close + 1
            continue
        if c == '"':
            k += 1
            while k < n and text[k] != '"':
                if text[k] == "\\":
                    k += 1
                elif text.startswith("$(", k):
                    k = _command_substitution_end(text, k + 2) - 1
                k += 1
            k += 1
            continue
        if c == "`" or text.startswith("${", k):
            k = _skip_expansion(text, k)
            continue
        if text.startswith("<<", k) and not text.startswith("<<<", k):
            m = _HEREDOC.match(text, k + 2)
            if m and m.group(2):            # a here-document: its body, up to the delimiter line, is data
                tag, strip = m.group(2).replace("\\", ""), bool(m.group(1))
                k = text.find("\n", m.end())
                while 0 <= k < n:
                    nl = text.find("\n", k + 1)
                    line = text[k + 1:nl if nl >= 0 else n]
                    k = nl
                    if (line.lstrip("\t") if strip else line).rstrip("\r") == tag:
                        break
                k = n if k < 0 else k
                continue
        if c == "#" and text[k - 1] in " \t\n;(":
            nl = text.find("\n", k)         # a comment, to the end of its line
            k = n if nl < 0 else nl
            continue
        if (c == "c" or c == "e") and _command_start(text, k):
            word = re.match(r"(case|esac)(?![\w-])", text[k:k + 5])
            if word:                        # the keyword, where a command starts (`echo use case` is a word)
                cases += 1 if word.group(1) == "case" else -1
                k += 4
                continue
        if c == "(":
            depth += 1
        elif c == ")":
            if cases > 0 and depth == 1:
                k += 1                  # the end of a case pattern
                continue
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return n
