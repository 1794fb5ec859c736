"""Shell words as the shell reads them: quoting, `VAR=value` assignments of PROFILING_MODE and
PROFILING_OPTIONS (exported or inline; or of other names asked for, MindSpore's MS_PROFILER_OPTIONS),
expansions left as holes."""

from __future__ import annotations

import re
from typing import List, NamedTuple, Optional, Tuple

from .text import HOLE, Piece, Run, SourceText, StrValue, mask_placeholders


MAX_LAUNCHER = 256 * 1024       # characters of a launcher (or a script it sources) read: far above any real one
_PREFIX = r"(?:(?:export|declare\s+-x|typeset\s+-x|local|readonly)\s+)?"
_ASSIGN = re.compile(_PREFIX + r"(PROFILING_MODE|PROFILING_OPTIONS)=")
_WORD_END = set(" \t\n;&|<>()")
_BREAK = re.compile(r"[\r\n]")


class ShellSet(NamedTuple):
    name: str
    value: StrValue
    start: int              # offset of the variable name
    line: int


def assignments(text: str, names: Optional[Tuple[str, ...]] = None) -> List[ShellSet]:
    """The assignments of PROFILING_MODE and PROFILING_OPTIONS, or of the variables `names`."""
    assign = _ASSIGN if names is None else re.compile(_PREFIX + "(" + "|".join(map(re.escape, names)) + ")=")
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
            m = assign.match(text, i)
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
        return _balanced(text, i + 1, "{", "}")
    if text.startswith("$((", i):              # arithmetic: parentheses only (`$((1<<3))` is no heredoc)
        return _balanced(text, i + 1, "(", ")")
    if text.startswith("$(", i):
        return _command_substitution_end(text, i + 2)
    m = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?").match(text, i)
    return m.end() if m and m.end() > i + 1 else i + 1


def _balanced(text: str, i: int, opener: str, closer: str) -> int:
    """After the closer that balances the opener at i (the end of the text if none does)."""
    depth, n = 0, len(text)
    while i < n:
        if text[i] == opener:
            depth += 1
        elif text[i] == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


# `<<EOF`, `<<- 'EOF'`, `<<"EOF">out` after the `<<`: whether `-` strips leading tabs, and the delimiter
HEREDOC_TAG = re.compile(r"[ \t]*(-?)[ \t]*['\"]?([^\s'\"<>;&|()]*)['\"]?")


def heredoc_end(text: str, i: int, heredocs: List[Tuple[str, bool]]) -> int:
    """Where the shell reads commands again after the here-document bodies that start at i: each (delimiter,
    tabs stripped) in turn, up to the line that is its delimiter."""
    for tag, strip in heredocs:
        while i < len(text):
            nl = text.find("\n", i)
            line = text[i:] if nl < 0 else text[i:nl]
            i = len(text) if nl < 0 else nl + 1
            if (line.lstrip("\t") if strip else line).rstrip("\r") == tag:
                break
    return i


def _command_start(text: str, k: int) -> bool:
    """Whether a command starts at k: after `$(`, `(`, `;`, `&`, `|`, a newline or blanks after them."""
    j = k - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    return j < 0 or text[j] in "(;&|\n"


def _command_substitution_end(text: str, k: int) -> int:
    """After the `)` that closes a `$(` whose body starts at k: quotes, nested `$( )`, `( )`, here-documents and
    the `)` of case patterns (`$(case $x in a) echo 1;; esac)`) do not close it. One pass with a stack of what is
    open (a substitution: [depth, open cases]; a double-quoted string: None), so nesting costs no recursion."""
    n = len(text)
    stack: List[Optional[List[int]]] = [[1, 0]]
    while k < n:
        c = text[k]
        top = stack[-1]
        if c == "\\":
            k += 2
            continue
        if text.startswith("$((", k):
            k = _balanced(text, k + 1, "(", ")")
            continue
        if text.startswith("$(", k):
            stack.append([1, 0])
            k += 2
            continue
        if top is None:                         # inside "...": only `\`, `$(` and the closing quote matter
            if c == '"':
                stack.pop()
            k += 1
            continue
        if c == '"':
            stack.append(None)
            k += 1
            continue
        if c == "'":
            close = text.find("'", k + 1)
            k = n if close < 0 else close + 1
            continue
        if c == "`" or text.startswith("${", k):
            k = _skip_expansion(text, k)
            continue
        if text.startswith("<<", k) and not text.startswith("<<<", k):
            m = HEREDOC_TAG.match(text, k + 2)
            if m and m.group(2):            # a here-document: its body, after this line, is data
                nl = text.find("\n", m.end())
                k = n if nl < 0 else heredoc_end(text, nl + 1, [(m.group(2).replace("\\", ""), bool(m.group(1)))])
                continue
        if c == "#" and text[k - 1] in " \t\n;(":
            nl = text.find("\n", k)         # a comment, to the end of its line
            k = n if nl < 0 else nl
            continue
        if (c == "c" or c == "e") and _command_start(text, k):
            word = re.match(r"(case|esac)(?![\w-])", text[k:k + 5])
            if word:                        # the keyword, where a command starts (`echo use case` is a word)
                top[1] += 1 if word.group(1) == "case" else -1
                k += 4
                continue
        if c == "(":
            top[0] += 1
        elif c == ")":
            if top[1] > 0 and top[0] == 1:
                k += 1                      # the end of a case pattern
                continue
            top[0] -= 1
            if top[0] == 0:
                stack.pop()
                if not stack:
                    return k + 1
        k += 1
    return n
