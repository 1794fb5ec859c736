"""Shell parsing: a launcher's text as bash splits it, without running it.

Words (where each ends, quotes and expansions as words.py reads them; a redirection its own word), simple commands
split at operators and newlines (comments and here-document bodies skipped, `(( ))` and `[[ ]]` kept whole,
`ids=(0 1 2)` one word), the `&` a pipeline's commands share, and the bodies of the compounds the interpreter
evaluates: a function's `{ }`, a loop's `do ... done`, a `case`'s arms and patterns. Everything here reads text
only; what a word is worth is the interpreter's (walk.py, expand.py).
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from typing import Dict, List, Optional, Tuple

from ..source.text import HOLE
from .words import arithmetic_end, comment_end, continuation, heredoc_end, heredoc_tag, integer_value, word_end


# `for ((i=0; i<8; i++))`: counted only with a step of one (`i++`, `++i`, `i+=1`, `i=i+1`) (this module's patterns
# that only the walk needs are compiled where it first asks, by `compiled`: the scan, engine/launch_scan.py, imports the
# module for brace_body and lexed_commands, and these loops' and _BY_VALUE's patterns cost 8.4M instructions to compile,
# which a process whose launchers the scan all settles never needs)
_FOR_C = (r"for\s*\(\(\s*(\w+)\s*=\s*(\d+)\s*;\s*\1\s*(<=|<)\s*(\d+)\s*;\s*"
                    r"(?:\1\s*\+\+|\+\+\s*\1|\1\s*\+=\s*1|\1\s*=\s*\1\s*\+\s*1)\s*\)\)")
# `for ((RANK_ID=$RANK_ID_START; RANK_ID<$((RANK_SIZE+RANK_ID_START)); RANK_ID++))`: bounds written with parameters
# (or a bare group: mindrlhf's `i<(${LOCAL_DEVICE_NUM}+${RANK_START})`)
_FOR_C_NAMED = (r"for\s*\(\(\s*(\w+)\s*=\s*([^;()]*(?:\$\(\([^;()]*\)\)|\([^;()]*\))?[^;()]*?)\s*;\s*\1\s*"
                          r"(<=|<)\s*([^;()]*(?:\$\(\([^;()]*\)\)|\([^;()]*\))?[^;()]*?)\s*;\s*"
                          r"(?:\1\s*\+\+|\+\+\s*\1|\1\s*\+=\s*1|\1\s*=\s*\1\s*\+\s*1)\s*\)\)")
_OPERATORS = ("&&", "||", ";;", ";", "|", "&", "\n", "(", ")")
_OPERATOR_STARTS = frozenset(o[0] for o in _OPERATORS)
# the operator at a character: the one two characters long when it is there (`&&` before `&`), else the one; looked up
# by the character, not tried in turn (the lexer meets one at every line break)
_OPERATOR_AT = {c: tuple(o for o in _OPERATORS if o[0] == c) for c in _OPERATOR_STARTS}
_AFTER_SUBSHELL = ("&&", "||", "|", "&")       # what a `( ... )` is followed by decides for its commands
_BLANKS = re.compile(r"[ \t\r]+")
_SPECIAL = frozenset("\\#([&\n;|)")          # what the lexer reads otherwise than as the start of a word
# characters that stand for themselves in a word, and the blanks after them: a word of only these, followed by a
# blank, an operator's character or the end (none of `<>'"\\$``), ends where they do (word_end's end, without its
# call), and the lexer goes on after the blanks (most words of a launcher). (The run cannot stop short to meet the
# lookahead: the character it stopped before would be one of its own.)
_PLAIN_RUN = re.compile(r"([^ \t\r\n;&|<>()'\"\\$`]+)(?=[ \t\r\n;&|()]|\Z)[ \t\r]*")


# `$(seq 0 7)` (a pattern, not compiled at import: re compiles it where a loop first needs it)
_SEQ = r"\$\(\s*seq\s+(?:(\d+)\s+)?(\d+)\s*\)|`seq\s+(?:(\d+)\s+)?(\d+)`"


_COMPILED: Dict[str, "re.Pattern[str]"] = {}


def compiled(pattern: str) -> "re.Pattern[str]":
    """One of the walk's patterns compiled, where first asked, then kept (the same object at each ask): a pattern
    that few launchers need is not compiled at import."""
    found = _COMPILED.get(pattern)
    if found is None:
        found = _COMPILED[pattern] = re.compile(pattern)
    return found


def _loop_count(text: str, words, m) -> int:
    """How many times a `for` loop runs its body (0: not known)."""
    if m is not None:
        lo, hi = integer_value(m.group(2)), integer_value(m.group(4))     # `010` is octal to bash: not known
        return 0 if lo is None or hi is None else max(0, hi - lo + (1 if m.group(3) == "<=" else 0))
    items = [text[a:b] for a, b in words[1:]]
    if len(items) < 2 or items[1] != "in":
        return 0
    rest = [w for w in items[2:] if w not in (";", "do")]
    if len(rest) == 1:
        seq = re.fullmatch(_SEQ, rest[0]) if "seq" in rest[0] else None
        if seq:
            lo = int(seq.group(1) or seq.group(3) or 1)
            hi = int(seq.group(2) or seq.group(4))
            return max(0, hi - lo + 1)
        brace = re.fullmatch(r"\{(\d+)\.\.(\d+)\}", rest[0]) if ".." in rest[0] else None
        if brace:
            return abs(int(brace.group(2)) - int(brace.group(1))) + 1     # (bash 5.2: {3..1} is 3 2 1)
    if rest and all(re.fullmatch(r"[\w.-]+", w) for w in rest):
        return len(rest)
    return 0


def no_rounds(text: str, words, m) -> bool:
    """Whether a `for` loop certainly runs its body no time: `for ((i=0; i<0; i++))`, `for i in $(seq 1 0)` (bash 5.2
    runs neither's body; _loop_count's 0 is also "not known")."""
    if m is not None:
        return integer_value(m.group(2)) is not None and integer_value(m.group(4)) is not None and \
            _loop_count(text, words, m) == 0
    if len(words) < 4 or text[words[2][0]:words[2][1]] != "in" or "seq" not in text[words[3][0]:words[-1][1]]:
        return False
    rest = [text[a:b] for a, b in words[3:] if text[a:b] not in (";", "do")]
    return len(rest) == 1 and _loop_count(text, words, m) == 0 and re.fullmatch(_SEQ, rest[0]) is not None


def named_loop_count(m, value) -> Tuple[Optional[int], Tuple[str, ...]]:
    """How many times a `for ((...))` loop whose bounds name parameters runs (None: not known; 0 or less: none), and
    the names. value(name) is a parameter's value (None: not known). An unknown one may stand in both bounds if it
    cancels out (`i=$D; i<$((N+D))` runs N times whatever D is): bounds without `*` are sums, so the count is known
    when it is the same with each unknown at 0 and at 1."""
    lo, op, hi = m.group(2), m.group(3), m.group(4)
    names = tuple(dict.fromkeys(re.findall(r"[A-Za-z_]\w*", lo + " " + hi)))
    values = {n: value(n) for n in names}
    # (one set from the caller's, `RANK_ID_START=$ASCEND_DEVICE_ID`, is as unknown as the caller's own)
    unknown = [n for n in names if values[n] is None or HOLE in (values[n] or "")]
    if unknown and "*" in lo + hi:
        return None, names

    def number(name: str, extra: Dict[str, str]) -> str:
        # an empty one counts 0, as in bash; one bash would not read as a number ('8\r' of a CRLF file) is not counted
        v = extra.get(name) or values[name] or "0"
        return v if re.fullmatch(r"-?\d+", v) else "?"

    def count(extra: Dict[str, str]) -> Optional[int]:
        ends = []
        for expr in (lo, hi):
            body = re.sub(r"\$\{?([A-Za-z_]\w*)\}?|\b([A-Za-z_]\w*)\b",
                          lambda k: number(str(k.group(1) or k.group(2)), extra), expr.replace("$((", "(("))
            value = integer_value(body)
            if value is None:
                return None
            ends.append(value)
        return ends[1] - ends[0] + (1 if op == "<=" else 0)

    first = count({n: "0" for n in unknown})
    if first is None or any(count({**{n: "0" for n in unknown}, u: "1"}) != first for u in unknown):
        return None, names
    return first, names


def set_unfollowed(text: str, name: str) -> bool:
    """Whether the text may set a parameter where the walk does not follow values: `let`/`((...))` arithmetic that
    assigns or steps it, `read`/`readarray`/`mapfile` into it, `printf -v` (what _UNFOLLOWED's search finds). The
    search is made only where one of its matches could end at a mention of the name (each match ends with the name or
    its operator after it): as a search of the whole text, tried at every character, it cost 2 M a name on a model
    zoo launcher, 46 M of 687 M on five of them."""
    n = len(name)
    k = text.find(name)
    while k >= 0:
        if _may_set_at(text, k, k + n):
            return re.search(_UNFOLLOWED.replace("NAME", name), text) is not None
        k = text.find(name, k + 1)
    return False


# (NAME: the parameter's name)
_UNFOLLOWED = (r"(?:\blet\b[^\n;]*|\(\([^)]*)(?:(?<![\w$])NAME\s*(?:[-+*/%]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*NAME\b)|"
               r"\b(?:read|readarray|mapfile)\b[^\n;|&]*(?<![\w${])NAME\b|\bprintf\s+-v\s*NAME\b")


# a command that sets a parameter whose name an expansion gives (`printf -v "$n" ...`, `let "$n+=1"`, `(( $n++ ))`,
# `declare "$n=7"`, `read "$n"`): bash 5.2 set the loop's counter i through n=i in each. One search a command word,
# each led by its word (sre then looks for that word in C; one pattern of them all, each led by `\b`, was tried at
# every character of every loop body: 7.6M instructions over the 13 walked launchers of the tree), with the
# `\b` before the word checked where one is found; the words each needs, in order: (words, pattern, led by a word)
_SET_ARITH = r"(?:\$\{?\w+\}?[\"']?\s*(?:[-+*/%]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*\$)"
_BY_VALUE = (
    (("printf",), r"printf\s+-v\s*[\"']?\$", True),
    (("let",), r"let\b[^\n;]*" + _SET_ARITH, True),
    (("((",), r"\(\([^)]*" + _SET_ARITH, False),
    (("declare", "typeset", "local", "export", "readonly"),
     r"(?:declare|typeset|local|export|readonly)\s+(?:-\w+\s+)*[\"']?\$", True),
    (("read", "mapfile"), r"(?:read|readarray|mapfile)\b[^\n;|&]*\s[\"']?\$", True))
_WORD_CHAR = r"\w"


def set_by_value(text: str) -> bool:
    """Whether the text may set a parameter named by a value (_BY_VALUE): which one is not known here."""
    for words, pattern, led in _BY_VALUE:
        if not any(w in text for w in words):
            continue
        m = compiled(pattern).search(text)
        while m is not None:
            k = m.start()
            if not led or k == 0 or not compiled(_WORD_CHAR).match(text, k - 1):
                return True
            m = compiled(pattern).search(text, k + 1)     # (a word that goes on before it: `xlet`, `thread`)
    return False


def _may_set_at(text: str, k: int, e: int) -> bool:
    """Whether a match of _UNFOLLOWED can hold the name at text[k:e] (a condition each of its matches meets there)."""
    stretch = max(text.rfind(c, 0, k) for c in "\n;|&") + 1
    if "read" in text[stretch:k] or "mapfile" in text[stretch:k]:
        return True                     # read/readarray/mapfile before it in its command
    j = k
    while j and text[j - 1].isspace():
        j -= 1
    if text.endswith(("-v", "++", "--"), 0, j):
        return True                     # `printf -v NAME`, `++NAME`
    a = e
    while a < len(text) and text[a].isspace():
        a += 1
    if not (text.startswith(("=", "++", "--"), a) or text[a:a + 1] in ("-", "+", "*", "/", "%") and
            text.startswith("=", a + 1)):
        return False                    # no assignment or step after it
    line = max(text.rfind("\n", 0, k), text.rfind(";", 0, k)) + 1
    opened = text.rfind("((", 0, k)
    return "let" in text[line:k] or opened >= 0 and ")" not in text[opened + 2:k]


# text -> {(start, stop): its commands, "clean": the whole text's offsets between commands (lexed_commands)}, for
# the last few texts read
_LEXED: Dict[str, dict] = {}
MAX_LEXED_TEXTS = 8
_SPACE = re.compile(r"[ \t\r\n]*")


def _lexed(text: str, start: int, stop: Optional[int]) -> list:
    """The commands of text[start:stop] (_pipelines of lexed_commands), kept for the last few texts read: an evaluated
    loop's body is walked once per argument, and NPP015 walks a launcher several times. A part of a text already read
    whole (a function's or a loop's body) is a slice of the whole text's commands where the lexer is between commands
    at both ends, as it is at the start of a text (see lexed_commands' `clean`); it is read again otherwise."""
    table = _LEXED.get(text)
    if table is None:
        if len(_LEXED) >= MAX_LEXED_TEXTS:
            del _LEXED[next(iter(_LEXED))]
        table = _LEXED[text] = {}
    found = table.get((start, stop))
    if found is None:
        whole, clean = table.get((0, None)), table.get("clean")
        if (start, stop) == (0, None) or whole is None or clean is None:
            clean = ([], []) if (start, stop) == (0, None) else None
            found = _pipelines(lexed_commands(text, start, stop, clean))
            if clean is not None:
                table["clean"] = clean
        else:
            n = len(text) if stop is None else stop
            first = _after_space(text, start, n)
            a = _clean_count(text, clean, first)
            b = len(whole) if stop is None else _clean_count(text, clean, stop)
            found = [] if first >= n else whole[a:b] if a is not None and b is not None and a <= b else \
                _pipelines(lexed_commands(text, start, stop))
        table[(start, stop)] = found
    return found


_OPENS = frozenset({"if", "for", "while", "until", "case", "select", "{", "function"})   # what opens a compound


def keyword_split(text: str, start: int, stop: Optional[int]) -> list:
    """_lexed's commands, with a compound opened on the line of a `then`, `else`, `do` or `{` (`then { a; } & fi`,
    `do for j in 1 2; do`, `else ( a ) &`: the lexer's one command `then {`, `then` before a `(`) split into the
    keyword and the compound, which the walk reads as it reads one opened on its own line; so is bash's `time [-p]`
    before a compound (`time for ...; done &`: the walk read `time for` as a command, and the loop's body as plain
    code). Kept as _lexed's are; the lexer's own commands stay whole (slices of a text's commands are counted in
    them)."""
    found = _lexed(text, start, stop)
    table = _LEXED[text]
    split = table.get(("split", start, stop))
    if split is None:
        split = found
        for k, (words, op, at) in enumerate(found):
            if words and text.startswith(_LEADS, words[0][0]) and _lead(text, words, op):
                split = found[:k] + _keyword_rest(text, found[k:])
                break
        table[("split", start, stop)] = split
    return split


_LEADS = ("then", "else", "do", "{", "time", "!")


def _opens(text: str, words) -> bool:
    """Whether the words open a compound, negated or not (`do ! for ...`, `then ! if ...`: the walk read the `for` as
    a command, and the `done` after it as the outer loop's)."""
    first = text[words[0][0]:words[0][1]]
    return first in _OPENS or first == "!" and len(words) > 1 and text[words[1][0]:words[1][1]] in _OPENS


def _lead(text: str, words, op: str) -> int:
    """How many words lead a compound opened on the same command (a keyword, `time`, `time -p`), or 2 for `! time`
    before one (its `time` goes first, the `!` stays with the compound); 0 where none does."""
    first = text[words[0][0]:words[0][1]]
    n = 1 if first in ("then", "else", "do", "{", "time", "!") else 0
    if first == "time" and len(words) > 1 and text[words[1][0]:words[1][1]] == "-p":
        n = 2
    elif first == "!":
        if len(words) < 2 or text[words[1][0]:words[1][1]] != "time":
            return 0
        n = 2 if len(words) < 3 or text[words[2][0]:words[2][1]] != "-p" else 3
    if not n:
        return 0
    if len(words) == n + 1 and op == "(" and first == "time":
        return n        # `time gg() { ...; }`: a definition (bash 5.2 defined gg)
    if len(words) > n:
        return n if _opens(text, words[n:]) or _lead(text, words[n:], op) else 0
    return n if len(words) == n and op == "(" else 0


def _keyword_rest(text: str, commands: list) -> list:
    out: list = []
    for words, op, at in commands:
        n = _lead(text, words, op) if words else 0
        while n:
            if text[words[0][0]:words[0][1]] == "!":
                out.append((words[1:n], "", words[1][0]))       # `! time for`: `time`, then `! for`
                words = words[:1] + words[n:]
            else:
                out.append((words[:n], "", words[min(n, len(words) - 1)][0]))
                words = words[n:]
            n = _lead(text, words, op) if words else 0
        out.append((words, op, at))
    return out


def _following(text: str, i: int):
    """The commands from i to the end of the text (lexed_commands(text, i), or with _pipelines' `&` given to a
    pipeline's commands, which the finders of a body's end do not read), from the whole text's commands where it has
    been read."""
    table = _LEXED.get(text)
    if table is not None and "clean" in table:
        first = _after_space(text, i, len(text))
        if first >= len(text):
            return []
        k = _clean_count(text, table["clean"], first)
        if k is not None:
            return itertools.islice(table[(0, None)], k, None)
    return lexed_commands(text, i)


def _clean_count(text: str, clean: Tuple[List[int], List[int]], offset: int) -> Optional[int]:
    """How many commands come before offset where the lexer is as at the start of the text there (lexed_commands'
    `clean`), None where it is not: the last offset kept at or before it, when only blanks and line breaks are
    between them and it is where they end (an offset kept later would be past it; one kept earlier has more than
    blanks before it, or the same count)."""
    offsets, counts = clean
    k = bisect_right(offsets, offset) - 1
    return counts[k] if k >= 0 and _after_space(text, offsets[k], len(text)) == offset else None


def _after_space(text: str, i: int, n: int) -> int:
    """After the blanks and line breaks at i (not past n)."""
    m = _SPACE.match(text, i, n)
    return m.end() if m else i


def _pipelines(commands) -> list:
    """The commands, with the `&` that ends a pipeline given to each of its commands: in `python3 x.py | tee log &`
    the whole pipeline, python3 included, runs in the background. Any other operator after a pipeline (`&&`,
    `;`) stays its last command's: the pipeline's status is that command's. (A list made in one loop, not a
    generator over the lexer's: a turn of a generator more for each command of every text read.)"""
    out: list = []
    pending: List[Tuple[list, str, int]] = []
    for command in commands:
        if command[1] == "|":
            pending.append(command)
            continue
        if pending:
            op = command[1]
            out.extend([(w, "&" if op == "&" else own, where) for w, own, where in pending])
            pending = []
        out.append(command)
    out.extend(pending)
    return out


def lexed_commands(text: str, start: int = 0, stop: Optional[int] = None,
                   clean: Optional[Tuple[List[int], List[int]]] = None):
    """Simple commands of text[start:stop] as (word spans, the operator after them, the operator's offset), split
    at operators and newlines; comments skipped.

    `for ((...))` is kept as one command; the words after `in` in a `for` stay with it.

    clean: filled with (offsets, counts), where the lexer is as at the start of a text and how many commands come
    before: after an operator that leaves nothing open (no `)`, `|`, here-document or case pattern to come), and the
    blanks and line breaks after it (which change nothing there), up to the first character after them
    (_clean_count looks one up). Read from there to an offset in it, a text gives the commands between them
    (_lexed)."""
    i, n = start, len(text) if stop is None else stop
    words: List[Tuple[int, int]] = []
    heredocs: List[Tuple[str, bool]] = []          # (delimiter, <<- strips tabs) whose bodies follow this line
    closed = False                                  # the last thing read was a `)`
    after_close = False                             # these words follow a `)`: redirections of the subshell
    pattern = False                                 # in a `case`, where a pattern ends at its `)`
    count = 0                                       # commands yielded
    piped = False                                   # the last one yielded is before a `|` (its pipeline goes on)
    while i < n:
        c = text[i]
        if c in " \t\r":
            m = _BLANKS.match(text, i, n)           # (a run of them at once: most characters of a launcher)
            i = m.end() if m else i + 1
            continue
        if c == "\n" and not words and not heredocs:
            # a line break with no command before it (a blank or comment line): what the operator branch below does
            # with it, without the checks on the way (a third of a launcher's lines)
            closed = after_close = False
            i += 1
            if clean is not None and not pattern and not piped:
                clean[0].append(i)                      # (as read: where its blanks end is asked of a slice only)
                clean[1].append(count)
            continue
        if c == "\n" and not heredocs:
            # the line break that ends a command (most of a launcher's operators): what the operator branch below does
            # with it, without the checks on the way
            if after_close and _redirections_only(text, words):
                words = []                              # `( ... ) > log 2>&1`: the subshell's redirections
            if words:
                yield words, c, i
                count += 1
                piped = False
                if text[words[0][0]:words[0][1]] == "case":
                    pattern = True                      # a pattern comes next
            closed = after_close = False
            words = []
            i += 1
            if clean is not None and not pattern and not piped:
                clean[0].append(i)
                clean[1].append(count)
            continue
        if pattern or c in _SPECIAL:             # (else a word starts here: the checks below are for none)
            if pattern and c != "\n":
                if not (text.startswith("esac", i) and _ends_word(text, i + 4)):
                    i = _pattern_end(text, i)          # `a|b)`, `*)`: not a command, not the end of a subshell
                pattern = False
                continue
            if c == "\\" and continuation(text, i, crlf=False):
                i += 2
                continue
            if c == "#":
                i = comment_end(text, i, n)
                continue
            if c == "(" and text.startswith("((", i) and (not words or text[words[0][0]:words[0][1]] == "for"):
                close = arithmetic_end(text, i, n)    # `(( i++ ))`, `for ((...))`: arithmetic, one word
                words.append((i, close))
                i = close
                continue
            if c == "(" and words and words[-1][1] == i and text[words[-1][1] - 1] == "=":
                words[-1] = (words[-1][0], _array_end(text, i))     # `ids=(0 1 2)`: one assignment word
                i = words[-1][1]
                continue
            if c == "[" and text.startswith("[[", i) and _ends_word(text, i + 2) and \
                    (not words or text[words[-1][0]:words[-1][1]] in ("if", "elif", "while", "until", "!")):
                close = text.find("]]", i + 2)         # `[[ $x =~ ^(a|b)$ ]]`: its parentheses are no subshell
                close = n if close < 0 else close + 2
                words.append((i, close))
                i = close
                continue
            if c == "&" and text.startswith("&>", i):
                j = i + 2 + (text.startswith(">", i + 2))
                words.append((i, j))                    # `&> log`, `&>> log`: a redirection, not `&`
                i = j
                continue
            if c == "\n" and heredocs:
                if words:
                    yield words, "\n", i
                    count += 1
                    piped = False
                words = []
                i = heredoc_end(text, i + 1, heredocs)       # the bodies are data, not commands
                heredocs = []
                continue
            op = None
            for o in _OPERATOR_AT.get(c, ()):
                if text.startswith(o, i):
                    op = o
                    break
            if op is not None:
                if words and after_close and _redirections_only(text, words):
                    words = []                          # `( ... ) > log 2>&1 &`: the subshell's redirections
                    closed = True
                if words or op in "()" or op == ";;" or (op in _AFTER_SUBSHELL and closed):
                    # ([], "("): a subshell opens; ([], ")"): one closes after `;`; ([], "&&"): what follows `( ... )`
                    yield words, op, i
                    count += 1
                    piped = op == "|"
                if op in (";;", ";&", ";;&") or (words and text[words[0][0]:words[0][1]] == "case"):
                    pattern = True                      # a pattern comes next
                closed = op == ")"
                after_close = False
                words = []
                # `cmd |& tee log` pipes both outputs: a pipe, not `&`
                i += 2 if text.startswith("|&", i) else len(op)
                if clean is not None and not pattern and not heredocs and op != ")" and not piped:
                    clean[0].append(i)
                    clean[1].append(count)
                continue
        if not words:
            after_close = closed
        closed = False
        m = _PLAIN_RUN.match(text, i, n)
        if m is not None:
            j, after = m.end(1), m.end()            # a plain word and the blanks after it (no `<<` in it)
        else:
            j = after = min(word_end(text, i, n), n)
            if j - i >= 2 and text[j - 2:j] == "<<" and text[j - 3:j - 2] != "<" and not text.startswith("<", j):
                # `<<EOF`, `<<- 'EOF'`, `<<"EOF">out`: the delimiter, quotes removed; `-` strips leading tabs; also
                # glued to the word before (`:<<COM`, `cat<<EOF`), which word_end ends with the operator
                tag = heredoc_tag(text, j)
                if tag:
                    heredocs.append(tag[0])
        words.append((i, j))
        i = after
        if len(words) > 2 and j - words[-1][0] == 2 and text[j - 2:j] == "in" and \
                text[words[0][0]:words[0][1]] == "case":
            yield words, "\n", j                    # `case $x in a) ...` on one line: the pattern follows
            count += 1
            piped = False
            words, pattern = [], True
    if words:
        yield words, "", n


def brace_body(text: str, brace: int) -> Optional[Tuple[int, int, int]]:
    """For the `{` at brace that opens a function's body: (body start, start of its `}`, just after the operator
    that follows the `}`), or None."""
    depth = 0
    for words, op, where in _following(text, brace + 1):
        heads = [text[a:b] for a, b in words]
        if not heads:
            continue
        depth += heads.count("{") if heads[0] in ("{", "function") or (len(heads) > 1 and heads[1] == "{") else 0
        if heads[0] == "}":
            if depth == 0:
                return brace + 1, words[0][0], where + 1
            depth -= 1
    return None


def _words_in(text: str, a: int, b: int):
    """The words of text[a:b] (inside `[[ ]]`), as (start, end, text)."""
    out, i = [], a
    while i < b:
        if text[i] in " \t\r\n\\":
            i += 1 if text[i] != "\\" else 2
            continue
        if text.startswith(("&&", "||"), i):
            out.append((i, i + 2, text[i:i + 2]))
            i += 2
            continue
        j = min(word_end(text, i, b), b)
        if j <= i:
            j = i + 1
        out.append((i, j, text[i:j]))
        i = j
    return out


def _loop_body(text: str, at: int) -> Optional[Tuple[int, int, int]]:
    """For a loop header whose operator is at `at`: (start of its body after `do`, start of its `done`, end of
    `done`), or None when they are not found."""
    depth, body = 0, None
    for words, op, where in _following(text, at + (1 if at < len(text) else 0)):
        if not words:
            continue
        head = text[words[0][0]:words[0][1]]
        if body is None:
            if head != "do":
                return None
            body = words[0][1]
            words = words[1:]
            if not words:
                continue
            head = text[words[0][0]:words[0][1]]
        while head in ("then", "else", "do", "{") and len(words) > 1:
            words = words[1:]           # (`then for j in 1 2; do`: a loop opened on the line of a keyword)
            head = text[words[0][0]:words[0][1]]
        if head in ("for", "while", "until", "select"):
            depth += 1
        elif head == "done":
            if depth == 0:
                return body, words[0][0], words[0][1]
            depth -= 1
    return None


def _case_arms(text: str, at: int):
    """The arms of a `case` whose `in` ends at `at`: ([(patterns, body start, body end, terminator)], end of
    `esac`), or None when its shape is not followed."""
    arms: List[Tuple[List[str], int, int, str]] = []
    i, n = at, len(text)
    while True:
        while i < n and (text[i] in " \t\r\n;" or text[i] == "#"):
            if text[i] == "#":
                i = comment_end(text, i, n)
            else:
                i += 1
        if i >= n:
            return None
        if text.startswith("esac", i) and _ends_word(text, i + 4):
            return arms, i + 4
        if text[i] == "(":
            i += 1
        close = _pattern_end(text, i)
        if close <= i or text[close - 1] != ")":
            return None
        patterns = [_unquoted(p.strip()) for p in _split_patterns(text[i:close - 1])]
        body, depth, stop, how = close, 0, None, ""
        for words, op, where in lexed_commands(text, close):
            head = text[words[0][0]:words[0][1]] if words else ""
            if head == "case":
                depth += 1
            elif head == "esac":
                if depth == 0:
                    stop, how, i = words[0][0], "", words[0][0]
                    break
                depth -= 1
            if op in (";;", ";&", ";;&") and depth == 0:
                stop, how = where, op
                i = where + len(op)
                if text.startswith(";;&", where):
                    how, i = ";;&", where + 3
                elif text.startswith(";&", where):
                    how, i = ";&", where + 2
                break
        if stop is None:
            return None
        arms.append((patterns, body, stop, how))


def _split_patterns(text: str) -> List[str]:
    """`a|"b c"|--x=*`: the alternatives of a case pattern (a `|` inside quotes is not one)."""
    out, cur, quote = [], "", ""
    for c in text:
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "|":
            out.append(cur)
            cur = ""
            continue
        cur += c
    return out + [cur]


def _unquoted(pattern: str) -> str:
    """A case pattern as fnmatch reads it: quoted parts are literal (their `*` escaped)."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c in "'\"":
            close = pattern.find(c, i + 1)
            close = len(pattern) if close < 0 else close
            out.append("".join(f"[{ch}]" if ch in "*?[" else ch for ch in pattern[i + 1:close]))
            i = close + 1
        elif c == "\\" and i + 1 < len(pattern):
            ch = pattern[i + 1]
            out.append(f"[{ch}]" if ch in "*?[" else ch)
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


_REDIRECTION = r"(?:\d*|&)[<>]+&?\S*"        # (compiled where first asked)


def _ends_word(text: str, i: int) -> bool:
    return i >= len(text) or text[i] in " \t\r\n;&|)"


def _pattern_end(text: str, i: int) -> int:
    """After the `)` that ends a case pattern starting at i (quotes skipped)."""
    n = len(text)
    while i < n and text[i] != ")":
        if text[i] in "'\"":
            close = text.find(text[i], i + 1)
            i = n if close < 0 else close + 1
        elif text[i] == "\n":
            return i                        # no `)` on this line: not a pattern after all
        else:
            i += 1
    return min(i + 1, n)


def _redirections_only(text: str, words) -> bool:
    """Whether these words are only redirections (`> log 2>&1`, `&>> log`)."""
    k = 0
    while k < len(words):
        w = text[words[k][0]:words[k][1]]
        if not compiled(_REDIRECTION).fullmatch(w):
            return False
        k += 2 if re.fullmatch(r"(?:\d*|&)[<>]+&?", w) else 1      # a bare operator: its target follows
    return True


def after_subshell(text: str, i: int) -> Tuple[List[Tuple[int, int]], str]:
    """The redirections after a subshell's `)` (i: just after it), which the lexer leaves out of its commands
    (`( ... ) > log 2>&1`), and the operator that ends them ("" at a line break or the end). Words that are not
    only redirections give none (not a form the walk judges)."""
    words: List[Tuple[int, int]] = []
    n = len(text)
    while i < n:
        m = _BLANKS.match(text, i)
        i = m.end() if m else i
        if i >= n or text[i] in "\n;&|)#" and not text.startswith("&>", i):
            break
        j = (i + 3 if text.startswith("&>>", i) else i + 2) if text.startswith("&>", i) else word_end(text, i)
        if j <= i:
            break
        words.append((i, j))
        i = j
    op = text[i:i + 2] if text.startswith(("&&", "||"), i) else text[i] if i < n and text[i] in ";&|" else ""
    return (words, op) if _redirections_only(text, words) else ([], op)


def _array_end(text: str, i: int) -> int:
    """The end of `(...)` at i, an array's values (quotes and expansions skipped)."""
    depth, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "(":
            depth += 1
            i += 1
        elif c == ")":
            depth -= 1
            i += 1
            if depth == 0:
                return i
        elif c == "#" and text[i - 1] in " \t\n(":
            i = comment_end(text, i, n)     # a comment inside the list (`ids=( 0 1 # the dev's ids`)
        elif c in "'\"$`\\":
            i = word_end(text, i) if c != "\\" else i + 2
        else:
            i += 1
    return n


def without_redirections(words):
    """The words of a command line without its redirections (`> log`, `2>&1`, `&> log`, `>log`)."""
    skip = False
    for w in words:
        if skip:
            skip = False
            continue
        if "<" not in w.text and ">" not in w.text:
            yield w                     # (most words: neither pattern can match)
            continue
        if re.fullmatch(r"(?:\d*|&)[<>]+&?", w.text):      # `> log`, `2>&1`, `&> log`
            skip = True
            continue
        if re.fullmatch(r"(?:\d*|&)[<>]+&?\S+", w.text):
            continue
        yield w
