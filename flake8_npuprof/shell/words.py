"""Shell words as bash reads them, the one reader of shell text the others build on: a word's end and its
decoded text (quoting, escapes, `$( )`/backquote/`${ }`/`$(( ))` nesting skipped whole, an expansion a hole, a map
back to the source), `\\`-newline continuations, here-document bodies, an unclosed quote, and the simple commands
of a text split at the operators (what msprof_words.py and checks/shell_syntax.py read). The walk's statement
splitter (parse.py) asks it for every word and here-document; the walk's expansion with values (expand.py) for
every `$`. Also: the `VAR=value` assignments of PROFILING_MODE and PROFILING_OPTIONS (exported or inline; or of
other names asked for, MindSpore's MS_PROFILER_OPTIONS), read line by line."""

from __future__ import annotations

import re
from typing import Callable, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ..source.text import HOLE, Piece, Run, SourceText, StrValue, mask_placeholders


MAX_LAUNCHER = 256 * 1024       # characters of a launcher (or a script it sources) read: far above any real one
_PREFIX = r"(?:(?:export|declare\s+-x|typeset\s+-x|local|readonly)\s+)?"
_ASSIGN = re.compile(_PREFIX + r"(PROFILING_MODE|PROFILING_OPTIONS)=")
_WORD_END = set(" \t\n;&|<>()")       # what ends a word outside quotes (and a CR, as SourceText counts lines)
_BREAK = re.compile(r"[\r\n]")


_PLAIN = re.compile(r"[^ \t\n;&|<>()\r'\"\\$`]+")        # characters that stand for themselves, unquoted
_PLAIN_WORD = re.compile(r"[^'\"\\$`]+")                # ... in a word whose end is given (blanks too)
_PLAIN_DOUBLE = re.compile(r'[^"\\$`]+')                  # ... inside double quotes
# a Run made without the namedtuple's own __new__, a Python frame per run: _new_tuple(Run, (t, tlen, s, slen))
_new_tuple = tuple.__new__


def glob_match(name: str, pattern: str) -> bool:
    """fnmatch.fnmatchcase(name, pattern), as the walk reads `[[ $x == --data_path* ]]`, `case` arms and `${x#*=}`:
    a pattern whose only wildcard is `*` is matched by its literal pieces in turn (fnmatch compiled a regex for each
    pattern: about 0.5 M instructions the first time each option of a launcher's argument loop was tested)."""
    if "?" in pattern or "[" in pattern:
        import fnmatch
        return fnmatch.fnmatchcase(name, pattern)
    pieces = pattern.split("*")
    if len(pieces) == 1:
        return name == pattern
    first, last = pieces[0], pieces[-1]
    if len(name) < len(first) + len(last) or not name.startswith(first) or not name.endswith(last):
        return False
    at, end = len(first), len(name) - len(last)
    for piece in pieces[1:-1]:          # each leftmost: a later piece then has the most room
        found = name.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True

def add_run(parts: List[str], runs: List[Run], t: int, chunk: str, s: int, slen: int) -> int:
    """Append decoded `chunk` (source s..s+slen) and its run; a run that continues the last one in both
    texts extends it, so a long quoted word is a few runs, not one per character. Returns the new t."""
    parts.append(chunk)
    if runs and slen == len(chunk):
        last = runs[-1]
        if last.tlen == last.slen and last.t + last.tlen == t and last.s + last.slen == s:
            runs[-1] = _new_tuple(Run, (last.t, last.tlen + slen, last.s, last.slen + slen))
            return t + len(chunk)
    runs.append(_new_tuple(Run, (t, len(chunk), s, slen)))
    return t + len(chunk)


# what an expansion is worth where it is met: (its end, its value or None for a hole, the value's runs if it is
# written in the same text); without one, every expansion is a hole
Expansion = Callable[[str, int, int], Tuple[int, Optional[str], Sequence[Run]]]


def read_word(text: str, i: int) -> Tuple[StrValue, int]:
    """Decode one shell word starting at i: (StrValue with a map to the source, end offset; one past the text's end
    after a quote never closed or a `\\` that ends the text)."""
    decoded, runs, end = decode(text, i)
    piece = Piece(i, end, "", "'", i, end)
    return StrValue(decoded, runs, i, end, (piece,), origin="shell"), end


def decode(text: str, i: int, stop: Optional[int] = None, expansion: Optional[Expansion] = None,
           unquoted: Optional[List[Tuple[int, int]]] = None) -> Tuple[str, List[Run], int]:
    """The decoded text of the word at i, its runs (decoded -> source) and where it ends: quotes removed, escapes
    applied, `\\`-newlines dropped, each expansion `expansion`'s value (a hole without one, or where it has none).
    Without stop, the word ends where bash ends it (a blank or an operator outside quotes); with stop, text[i:stop]
    is one word (the walk's: `ids=(0 1 2)`, `[[ ... ]]`), and a `\\` that ends it stands for itself. unquoted:
    collects the decoded ranges of the known values of expansions outside double quotes, which bash splits into
    fields (fields())."""
    parts: List[str] = []
    runs: List[Run] = []
    t = 0
    whole = stop is None
    n = len(text) if stop is None else stop
    plain = _PLAIN if whole else _PLAIN_WORD
    quoted = False
    while i < n:
        c = text[i]
        if quoted:
            if c == '"':
                quoted = False
                i += 1
                continue
            if c == "\\" and i + 1 < n and text[i + 1] in '$`"\\\n':
                if text[i + 1] != "\n":
                    t = add_run(parts, runs, t, text[i + 1], i, 2)
                i += 2
                continue
            if c not in "$`":
                m = _PLAIN_DOUBLE.match(text, i + 1 if c == "\\" else i, n)
                j = m.end() if m else i + 1
                t = add_run(parts, runs, t, text[i:j], i, j - i)
                i = j
                continue
        elif c in _WORD_END or c == "\r":
            if whole:
                break
        elif c == "'":
            close = text.find("'", i + 1, n)
            close = n if close < 0 else close
            if close > i + 1:
                t = add_run(parts, runs, t, text[i + 1:close], i + 1, close - i - 1)
            i = close + 1
            continue
        elif c == '"':
            quoted = True
            i += 1
            continue
        elif c == "\\":
            if i + 1 < n or whole or i + 1 == len(text):      # (at the file's end bash drops it)
                if i + 1 < n and text[i + 1] != "\n":
                    t = add_run(parts, runs, t, text[i + 1], i, 2)
                i += 2
                continue
        if c in "$`":
            value_runs: Sequence[Run] = ()
            if expansion is None:
                j, value = min(skip_expansion(text, i), n), None
            else:
                j, value, value_runs = expansion(text, i, n)
            if value is not None and HOLE in value and quoted and value.strip(HOLE):
                # "$CMD" of CMD="msrun --log_dir=$UNSET": in double quotes nothing is split, so what is known of the
                # value stays (the word keeps its known parts, the unknown one stays a hole)
                parts.append(value)
                t += len(value)
            elif value is None or HOLE in value:
                if not (parts and parts[-1] == HOLE):
                    parts.append(HOLE)
                    t += 1
            elif value:
                runs.extend([_new_tuple(Run, (r.t + t, r.tlen, r.s, r.slen)) for r in value_runs])
                parts.append(value)
                if unquoted is not None and not quoted:
                    unquoted.append((t, t + len(value)))
                t += len(value)
            i = j
            continue
        m = plain.match(text, i, n)
        j = m.end() if m else i + 1
        t = add_run(parts, runs, t, text[i:j], i, j - i)
        i = j
    if quoted and whole:
        i = n + 1                   # as after a `'` never closed: one past the end
    return "".join(parts), runs, i


_PARAMETER = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])?")


def skip_expansion(text: str, i: int) -> int:
    """After the expansion at i (a `$` or a backquote): `$x`, `${...}`, `$((...))`, `$(...)` with what nests in it,
    `` `...` ``; a `$` that starts none is one character."""
    n = len(text)
    if text[i] == "`":
        close = text.find("`", i + 1)
        return n if close < 0 else close + 1
    if text.startswith("${", i):
        return balanced(text, i + 1, "{", "}")
    if text.startswith("$((", i):              # arithmetic: parentheses only (`$((1<<3))` is no heredoc)
        return balanced(text, i + 1, "(", ")")
    if text.startswith("$[", i):               # bash's old arithmetic, `$[RANK_START]` (mindrlhf's launchers)
        return balanced(text, i + 1, "[", "]")
    if text.startswith("$(", i):
        return _command_substitution_end(text, i + 2)
    m = _PARAMETER.match(text, i)
    return m.end() if m and m.end() > i + 1 else i + 1


def balanced(text: str, i: int, opener: str, closer: str) -> int:
    """After the closer that balances the opener at i (the end of the text if none does). Found from closer to
    closer, the openers before each counted (searched, not read a character at a time)."""
    depth = 0
    o = text.find(opener, i)
    while True:
        c = text.find(closer, i)
        if c < 0:
            return len(text)
        while 0 <= o < c:
            depth += 1
            o = text.find(opener, o + 1)
        depth -= 1
        if depth == 0:
            return c + 1
        i = c + 1


# `<<EOF`, `<<- 'EOF'`, `<<"EOF">out` after the `<<`: whether `-` strips leading tabs, and the delimiter
HEREDOC_TAG = re.compile(r"[ \t]*(-?)[ \t]*['\"]?([^\s'\"<>;&|()]*)['\"]?")


def heredoc_tag(text: str, i: int) -> Optional[Tuple[Tuple[str, bool], int]]:
    """The here-document a `<<` opens when its delimiter starts at i: ((delimiter, quotes and `\\` removed; whether
    `-` strips leading tabs), after the delimiter), or None (no delimiter: no here-document)."""
    m = HEREDOC_TAG.match(text, i)
    if not m or not m.group(2):
        return None
    return (m.group(2).replace("\\", ""), bool(m.group(1))), m.end()


def comment_end(text: str, i: int, n: int) -> int:
    """The end of the comment whose `#` is at i: its line break, or n (the end of the text read)."""
    nl = text.find("\n", i, n)
    return n if nl < 0 else nl


def integer_value(body: str) -> Optional[int]:
    """The value of an arithmetic body of decimal numbers and + - * / % ( ), as bash works it out (`/` and `%` cut
    toward zero, as C does: -7/2 is -3, -7%2 is -1); None where it is not that, where bash would read a number
    otherwise (`010` is octal there), where it has `**` (9**9**9 would run for minutes here) or `--`/`++` (bash's
    increments), where it divides by 0 (bash stops the command) and where a step leaves bash's 64-bit integers (bash
    wraps). (Read here, not by Python's eval: its `//` floors, and its parser refuses deep nesting that bash reads.)"""
    if "**" in body or "--" in body or "++" in body or not _ARITHMETIC.fullmatch(body):
        return None
    tokens = _ARITHMETIC_TOKEN.findall(body)
    try:
        value, k = _sum(tokens, 0, 0)
    except (_NotKnown, IndexError):
        return None
    return value if k == len(tokens) else None


_ARITHMETIC = re.compile(r"[\d\s+*/%()-]+")
_ARITHMETIC_TOKEN = re.compile(r"\d+|[-+*/%()]")
MAX_NESTING = 256               # brackets and signs inside each other (bash's own limit is 1,024 levels)


class _NotKnown(Exception):
    pass


def _in_range(value: int) -> int:
    if not -2 ** 63 <= value < 2 ** 63:
        raise _NotKnown                 # bash wraps
    return value


def _sum(tokens: List[str], k: int, depth: int) -> Tuple[int, int]:
    value, k = _product(tokens, k, depth)
    while k < len(tokens) and tokens[k] in "+-":
        right, j = _product(tokens, k + 1, depth)
        value, k = _in_range(value + right if tokens[k] == "+" else value - right), j
    return value, k


def _product(tokens: List[str], k: int, depth: int) -> Tuple[int, int]:
    value, k = _unary(tokens, k, depth)
    while k < len(tokens) and tokens[k] in "*/%":
        op = tokens[k]
        right, k = _unary(tokens, k + 1, depth)
        if op == "*":
            value = _in_range(value * right)
        elif right == 0:
            raise _NotKnown             # `division by 0`: bash stops the command
        else:
            q = abs(value) // abs(right)
            q = q if (value < 0) == (right < 0) else -q
            value = _in_range(q if op == "/" else value - right * q)
    return value, k


def _unary(tokens: List[str], k: int, depth: int) -> Tuple[int, int]:
    if depth > MAX_NESTING:
        raise _NotKnown
    t = tokens[k]
    if t in "+-":
        value, k = _unary(tokens, k + 1, depth + 1)
        return _in_range(-value if t == "-" else value), k
    if t == "(":
        value, k = _sum(tokens, k + 1, depth + 1)
        if tokens[k] != ")":
            raise _NotKnown
        return value, k + 1
    if not t.isdigit() or t[0] == "0" and len(t) > 1:
        raise _NotKnown                 # an operator where a number goes; `010` is octal to bash
    return _in_range(int(t)), k + 1


def arithmetic_end(text: str, i: int, n: int) -> int:
    """After the `))` that closes the arithmetic `((` at i (`(( i++ ))`, `for ((i = 0; i < n; i++))`), its inner
    parentheses balanced; n (the end of the text read) when none closes it."""
    return min(balanced(text, i, "(", ")"), n)


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


# what _command_substitution_end does nothing with but step over (outside double quotes: no quote, `\\`, `$`, backquote,
# `<`, `#`, parenthesis, nor the `c`/`e` of case/esac; inside them: no `\\`, `$` or `"`)
_INERT = re.compile(r"[^\\$\"'`<#ce()]*")
_INERT_QUOTED = re.compile(r'[^\\$"]*')


def _command_substitution_end(text: str, k: int) -> int:
    """After the `)` that closes a `$(` whose body starts at k: quotes, nested `$( )`, `( )`, here-documents and
    the `)` of case patterns (`$(case $x in a) echo 1;; esac)`) do not close it. One pass with a stack of what is
    open (a substitution: [depth, open cases]; a double-quoted string: None), so nesting costs no recursion."""
    n = len(text)
    stack: List[Optional[List[int]]] = [[1, 0]]
    while k < n:
        top = stack[-1]
        # a run of characters that open, close or start nothing is passed over at once
        m = (_INERT_QUOTED if top is None else _INERT).match(text, k, n)
        k = m.end() if m else k
        if k >= n:
            break
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if text.startswith("$((", k):
            k = balanced(text, k + 1, "(", ")")
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
            k = skip_expansion(text, k)
            continue
        if text.startswith("<<", k) and not text.startswith("<<<", k):
            tag = heredoc_tag(text, k + 2)
            if tag:                         # a here-document: its body, after this line, is data
                nl = text.find("\n", tag[1])
                k = n if nl < 0 else heredoc_end(text, nl + 1, [tag[0]])
                continue
        if c == "#" and text[k - 1] in " \t\n;(":
            k = comment_end(text, k, n)     # a comment, to the end of its line
            continue
        if (c == "c" or c == "e") and _command_start(text, k):
            word = re.match(r"(case|esac)(?![\w-])", text[k:k + 5]) if text.startswith(("case", "esac"), k) else None
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


def continuation(text: str, i: int, crlf: bool = True) -> int:
    """The length of the `\\`-newline at i that joins two lines into one (2, or 3 before a CRLF), 0 if none. bash
    joins only `\\` LF: before a CR the `\\` escapes the CR, and the LF ends the command; the walk (parse.py) reads
    it so (crlf=False), the line readers (simple_commands) join a CRLF file's lines as its author meant."""
    if text.startswith("\\\n", i):
        return 2
    if i == len(text) - 1 and text[i] == "\\":
        return 1                    # a `\` that ends the file: bash drops it (MindSpeed-RL's eplb.sh ends so)
    return 3 if crlf and text.startswith("\\\r\n", i) else 0


# pieces of a word that word_end's loop below steps over one at a time, each ending where the loop ends it: characters
# that stand for themselves, `$name`, `$1`, `${name}`, a closed '...', a `\` and the character it escapes (a
# parameter's name is ASCII, as _PARAMETER reads it), and a closed "..." of those (but '...'). Inside "..." each
# piece is one way to read its text (a character at a time, a name to its end): a search of an unclosed one that
# fails gives the pieces back one at a time, not in every split (a repetition of runs would be exponential); the
# loop reads what none of them is ("$(...)", "`...`", "${x:-y}")
_WORD_RUN = re.compile(r"""(?:[^ \t\n;&|<>()\r'"\\$`]+|\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])|"""
                       r"""\$\{[A-Za-z_][A-Za-z0-9_]*\}|'[^']*'|\\[\s\S]|"""
                       r""""(?:[^"\\$`]|\\[\s\S]|\$(?:[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_])|[0-9@*#?$!-])|"""
                       r"""\$\{[A-Za-z_][A-Za-z0-9_]*\})*")*""")


def word_end(text: str, i: int, stop: Optional[int] = None) -> int:
    """The end of the word at i, read_word's end without decoding it (stop: the end of the text read, e.g. a
    command substitution's body), except at a redirection operator, which ends the word with the operator in it
    (`>`, `<<`, `2>&` then `1`): the walk's words keep their redirections. Only digits before it make a file
    descriptor of the word (`2>`); after anything else the operator starts the next word (`-mode=x> log`)."""
    n = len(text) if stop is None else stop
    start = i
    m = _WORD_RUN.match(text, i, n)             # the common pieces at once; the loop goes on from where they end
    i = m.end() if m else i
    while i < n:
        c = text[i]
        if c in " \t\r\n;&|<>()":
            if c in "<>" and (i == start or (text[start:i].isascii() and text[start:i].isdigit())):
                i += 1              # a redirection: its own word
                while i < n and text[i] in "<>&":
                    i += 1
                if i < n and text[i] == "|" and text[i - 1] == ">" and (i - 1 == start or text[start:i - 1].isdigit()):
                    i += 1          # `>|`, `2>|`: one operator (not a pipe)
                return i
            return i
        if c == "'":
            close = text.find("'", i + 1)
            i = n if close < 0 else close + 1
        elif c == '"':
            k = i + 1
            while k < n and text[k] != '"':
                if text[k] == "\\":
                    k += 1
                elif text[k] in "$`":
                    k = skip_expansion(text, k) - 1
                else:                               # (a run of what stands for itself)
                    m = _PLAIN_DOUBLE.match(text, k, n)
                    k = m.end() - 1 if m else k
                k += 1
            i = k + 1
        elif c == "\\":
            i += 2
        elif c in "$`":
            i = skip_expansion(text, i)
        else:
            m = _PLAIN.match(text, i, n)
            i = m.end() if m else i + 1
    return min(i, n)


def unclosed_quote(text: str, start: int, end: int) -> Optional[int]:
    """The offset of a quote opened in text[start:end] (one word, as read_word reads it) and never closed."""
    i, end = start, min(end, len(text))
    while i < end:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "$" and text.startswith("'", i + 1):       # $'...': backslash escapes hold inside
            j = i + 2
            while j < len(text) and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            if j >= len(text):
                return i + 1
            i = j + 1
            continue
        if c == "'":
            close = text.find("'", i + 1)
            if close < 0:
                return i
            i = close + 1
            continue
        if c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if j >= len(text):
                return i
            i = j + 1
            continue
        i += 1
    return None


# ---------------------------------------------------------------- simple commands

class Token(NamedTuple):
    """One word of a simple command: decoded (HOLE for an expansion), where it is, and whether a `\\`-newline stands
    between it and what came before it."""

    text: str               # value.text
    start: int              # source span
    end: int
    continued: bool
    value: StrValue         # the decoded word with its map to the source


class SimpleCommand(NamedTuple):
    words: List[Token]
    end: int                # offset of what ended it (a separator or the end of the text)
    ender: str              # that character ("" at the end of the text)


_SEPARATORS = "\n;&|()"


def simple_commands(text: str, bodies: bool = False) -> Iterator[SimpleCommand]:
    """The simple commands of a text as bash splits it into words, without its structure: split at every operator
    character (`&&` is two), one (maybe empty) per line break, with comments, `\\`-newlines, redirection
    operators and `(( ))` left out. The last one ends at the end of the text. A here-document's body is data
    to bash, left out too, unless bodies: then its lines are read as commands (`cat > run.sh <<EOF` writes a
    script whose msprof line is the user's as much as any other)."""
    words: List[Token] = []
    heredocs: List[Tuple[str, bool]] = []
    continued = False
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            k = continuation(text, i)
            if k:
                i += k
                continued = True
                continue
        if c in " \t\r":
            i += 1
            continue
        if c == "#":
            i = comment_end(text, i, n)
            continue
        if c == "(" and text.startswith("((", i):     # arithmetic (`(( i++ ))`, `for ((i = 0; ...))`): no words
            i = arithmetic_end(text, i, n)
            continue
        if c in _SEPARATORS:
            if words or c == "\n":
                yield SimpleCommand(words, i, c)
                words = []
            i += 1
            continued = False
            if c == "\n" and heredocs:
                i = heredoc_end(text, i, heredocs)
                heredocs = []
            continue
        if c in "<>":
            if text.startswith("<<<", i):
                i += 3
                continue
            if text.startswith(("<&", ">&", ">|"), i):
                i += 2                          # `2>&1`, `>|`: a redirection, not a `&` or `|` that ends the command
                continue
            if text.startswith("<<", i):
                tag = heredoc_tag(text, i + 2)
                if tag:
                    if not bodies:
                        heredocs.append(tag[0])
                    i = tag[1]
                    continue
            i += 1
            continue
        value, end = read_word(text, i)
        if end == i:
            i += 1
            continue
        words.append(Token(value.text, i, end, continued, value))
        continued = False
        i = end
    yield SimpleCommand(words, n, "")


# ---------------------------------------------------------------- PROFILING_* assignments

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
