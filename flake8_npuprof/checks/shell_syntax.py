"""Launcher lines that bash reads otherwise than they evidently mean (NPP016), where a profiling setting is lost.

bash splits a line into words first and decides what is an assignment after: `NAME=value` is an assignment
only as a whole word at the start of a command, and a command that is nothing but assignments sets them for
the rest of the script; followed by any other word, they are set in that command's environment only, and
the word is run as the command. So
- `MSPROF_OPTS="--output=/tmp/prof " \\` then `"--aic-freq=100"` on the next line runs a command named
  `--aic-freq=100` with MSPROF_OPTS in its environment: "command not found" (status 127), and MSPROF_OPTS is
  not set for the lines after;
- `PROFILING_MODE = true` runs a command `PROFILING_MODE` (127), `PROFILING_MODE= true` runs `true` with
  PROFILING_MODE empty in its environment (status 0, silent), and neither sets the variable;
- `export PROFILING_MODE = true` exports three names, `=` is "not a valid identifier" (status 1), and
  PROFILING_MODE gets no value from the line (it is exported with the value it had, none if it had none);
- `export MSPROF_OPTS="--output=/tmp/prof " \\` then `"--aic-freq=100"`: export takes the second word for a
  name ("not a valid identifier", status 1), and the variable gets only the first part;
- a line starting with `--x` after an msprof line or an assignment that does not continue (no `\\`, or a `\\`
  followed by a blank) is a command of its own: the option never reaches the line above;
- a quote that is never closed swallows the rest of the file: bash runs the commands before it, then stops
  with "unexpected EOF while looking for matching `\"'" (status 2), and nothing from that line on runs.
Each claim is bash 5.2's behaviour, run on the exact shape (tests/test_shell_syntax.py runs /bin/bash).

Only settings that matter for profiling are reported: PROFILING_* variables, msprof's options, and a
variable an msprof line uses (another variable the launcher exports, such as PYTHONPATH, is not profiling's).
"""

from __future__ import annotations

import re
from typing import FrozenSet, List, Optional, Set

from ..knowledge.msprof_options import all_options
from ..shell.words import SimpleCommand, Token, decode, simple_commands, unclosed_quote
from ..source.model import Finding, finding
from ..source.said import Part, Text, aside, clause, logged, said, so
from ..source.text import HOLE, SourceText

CODE = "NPP016"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\+?)=")


# the words of a command (shell/words.simple_commands): decoded text (HOLE for an expansion), source span, whether
# a `\`-newline stands between it and the word before
ShWord = Token
ShCommand = SimpleCommand


# ---------------------------------------------------------------- what matters for profiling

_NAMES: Optional[FrozenSet[str]] = None


def _msprof_names() -> FrozenSet[str]:
    global _NAMES
    if _NAMES is None:                  # (built once: a launcher's assignment words each ask)
        _NAMES = frozenset(all_options())
    return _NAMES


def _msprof_word(text: str) -> bool:
    """A word that holds an msprof option (`--aic-metrics=Memory`, or several in one quoted string)."""
    names = _msprof_names()
    return any(w.startswith("--") and w[2:].partition("=")[0] in names for w in text.split())


class _Uses:
    """The variables that carry profiling: PROFILING_*, and those an msprof line uses."""

    def __init__(self, cmds: List[ShCommand], text: str):
        self.on_msprof: Set[str] = set()
        for cmd in cmds:
            ws = cmd.words
            if ws and any(w.text.rsplit("/", 1)[-1] == "msprof" for w in ws):
                body = text[ws[0].start:ws[-1].end]
                self.on_msprof.update(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", body))

    def matters(self, name: str) -> bool:
        return name.startswith("PROFILING_") or name in self.on_msprof

    def why(self, name: str) -> Text:
        """Why a name matters when it is not PROFILING_*: an aside (a text of its own in an f-string)."""
        return clause(aside("the msprof line reads it")) if name in self.on_msprof and \
            not name.startswith("PROFILING_") else ""


# ---------------------------------------------------------------- which texts can have a finding

# an option word in a value: after a blank (the value's words are split at blanks: `"-x --output=/p"`), `--` and the
# name; \x01 marks where a `\\`-newline was (taken out, or a blank in single quotes); one `-` taken at a time
# (`---output`: the second is not after a blank), at the text's start or after a blank or \x01 (looked at behind the
# `-`: a search that starts with `-` is quick; the options of a launcher's commands, `x=1 --y=2`, are most of its `-`s)
_DASHED = re.compile(r"-(?<![^\s\x01]-)(?=\x01*-([\w.\x01-]*))")
# where simple_commands can start an assignment word (after a blank, an operator, a redirection or a here-document's
# quoted tag): a name and `=` as decoded, with quotes, `\\`s and `\\`-newlines between their characters; zero-width, so
# that every start is tried (in `OP\\\\` then a line break, the line break ends the word)
_ASSIGNMENT_AT = re.compile(r"(?<![^\s;&|()<>'\"])(?=(?:['\"\\]|\\\r?\n)*[A-Za-z_](?:(?:['\"\\]|\\\r?\n)*[A-Za-z0-9_])*"
                            r"(?:['\"\\]|\\\r?\n)*(?:\+(?:['\"\\]|\\\r?\n)*)?=)")


def _may_report(text: str) -> bool:
    """False when no line of this text can be reported. Every report needs a word that names what matters for
    profiling (_Uses.matters: a `PROFILING_` name or a variable on an msprof line, found by a word that is
    `msprof`; _unclosed: `PROFILING_` or `msprof` in the text) or an assignment whose value holds an msprof option
    word (_prefixed: `_msprof_word`, a word of the value after a blank: `--name`, then `=`, a blank or its end). A
    word's decoded text is its source with quotes, `\\`s and `\\`-newlines taken out, so what it holds is in the text
    with those taken out."""
    if "=" not in text and '"' not in text and "'" not in text and "--" not in text:
        return False
    if "PROFILING_" in text or "msprof" in text:
        return True
    # what bash takes out of a word (simple_commands, words.decode): quotes, the `\\` of an escape, `\\`-newlines; an
    # expansion becomes a hole, so nothing looked for here spans one
    bare = text.replace("\\\n", "\x01").replace("\\\r\n", "\x01").replace('"', "").replace("'", "").replace("\\", "")
    joined = bare.replace("\x01", "")
    if "PROFILING_" in joined or "msprof" in joined:
        return True
    if "--" not in joined:
        return False
    names = _msprof_names()
    # `--output=`, `--output "` (not `--output_dir`): a name, then no name character
    last = -1
    for m in _DASHED.finditer(bare):
        if m.group(1).replace("\x01", "") in names:
            last = m.start()
    if last < 0:
        return False
    # one stands after a blank: is it in an assignment word, decoded as simple_commands decodes it (`$1 == --help`,
    # `echo "--output"` are not). A decoded word has a blank only from a quote or a `\\`, and runs past its line only
    # through those or an expansion (`$(`, `` ` ``): a word with none of them to its line's end holds no option word.
    # A word's decoded text is made of the text from where it starts, so only a word that starts at or before the last
    # such option (where it is in the text) can hold one (a usage line's `--help` near the top: few words decoded)
    limit = _in_text(text, last)
    for at in _assignments(text):
        if at > limit:
            break                       # (_assignments gives them in order)
        eol = text.find("\n", at)
        if _UNPLAIN.search(text, at, len(text) if eol < 0 else eol) and _msprof_word(decode(text, at)[0]):
            return True
    return False


# what `bare` takes out of the text (in its order: a `\\`-newline, which becomes one \x01, first where it starts)
_TAKEN = re.compile(r"\\\r?\n|[\"'\\]")


def _in_text(text: str, at: int) -> int:
    """Where the character at `at` of _may_report's `bare` (the text with _TAKEN's matches taken out, a `\\`-newline
    kept as one character) is in the text: `at` and the characters taken out before it."""
    taken = 0
    for m in _TAKEN.finditer(text):
        if m.start() - taken > at:
            break                       # (where this match stands in bare: after the character)
        taken += m.end() - m.start() - (m.end() - m.start() > 1)
    return at + taken


_UNPLAIN = re.compile(r"['\"\\\\$`]")
_QUOTE_OR_BREAK = re.compile(r"['\"\r\n]")
_RUN = frozenset("'\"\\\r\n+_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_AFTER = frozenset(";&|()<>'\"")              # (and a blank) what _ASSIGNMENT_AT's lookbehind lets a match follow


def _assignments(text: str):
    """Where _ASSIGNMENT_AT.finditer(text) matches, in order. Each match is in the run of what its lookahead reads
    (name characters, quotes, `\\`s, line breaks, `+`) just before an `=`, at the run's start or after a quote or
    line break in it (its lookbehind), so only such runs are searched: a search of the whole text tried its
    lookbehind and lookahead at every character. Inside the run, only where a quote or line break ends are tried
    (the lookbehind fails after any other character of it): a search of the run tried the lookahead at each."""
    done = 0
    eq = text.find("=")
    while eq >= 0:
        lo = eq
        while lo > done and text[lo - 1] in _RUN:
            lo -= 1
        if (not lo or text[lo - 1] in _AFTER or text[lo - 1].isspace()) and _ASSIGNMENT_AT.match(text, lo, eq + 1):
            yield lo
        inner = _QUOTE_OR_BREAK.search(text, lo, eq)
        while inner:
            if _ASSIGNMENT_AT.match(text, inner.end(), eq + 1):
                yield inner.end()
            inner = _QUOTE_OR_BREAK.search(text, inner.end(), eq)
        done = eq + 1
        eq = text.find("=", done)


# ---------------------------------------------------------------- the check

def check(text: str) -> List[Finding]:
    if not _may_report(text):
        return []
    src = SourceText(text)
    cmds = list(simple_commands(text))
    uses = _Uses(cmds, text)
    out: List[Finding] = []

    def report(start: int, end: int, message) -> None:
        (l1, c1), (l2, c2) = src.position(start), src.position(max(start, end))
        out.append(finding(CODE, message, start, end, l1, c1, l2, c2))

    previous: Optional[ShCommand] = None
    for k, cmd in enumerate(cmds):
        ws = cmd.words
        if ws:
            _one(text, src, cmd, previous, uses, report)
            if ws[-1].end >= len(text) and cmd.ender == "":
                quote = unclosed_quote(text, ws[-1].start, ws[-1].end)
                if quote is not None:
                    _unclosed(text, src, ws[0].start, quote, report)
        previous = cmd
    return sorted(out, key=Finding.sort_key)


def _show(text: str, limit: int = 60) -> str:
    text = text.replace(HOLE, "…")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _one(text: str, src: SourceText, cmd: ShCommand, previous: Optional[ShCommand], uses: _Uses, report) -> None:
    ws = cmd.words
    k = 0
    assigns = []
    while k < len(ws) and _ASSIGN.match(ws[k].text) and HOLE not in text[ws[k].start:ws[k].start + 1]:
        assigns.append(ws[k])
        k += 1
    if assigns and k < len(ws):
        _prefixed(text, assigns, ws[k], uses, report)
        return
    if assigns:
        return
    head = ws[0]
    # `NAME = value`, `NAME =value`: a command named NAME
    if len(ws) >= 2 and _NAME.match(head.text) and ws[1].text.startswith("=") and not ws[1].continued \
            and text[head.end:ws[1].start].strip(" \t") == "" and ws[1].start > head.end:
        if uses.matters(head.text):
            value = ws[1].text[1:] or (ws[2].text if len(ws) > 2 else "")
            report(head.start, ws[1].end,
                   said(f"bash runs {head.text} as a command here",
                        clause(f"the blank before `=` makes `{head.text}` a word of its own",
                               so(f"\"{head.text}: command not found\" (status 127) and this line does not set "
                                  f"{head.text}"), uses.why(head.text)),
                        f"write {head.text}={_show(value, 40)} with no blanks around `=`"))
        return
    if head.text in ("export", "declare", "typeset", "readonly", "local") and len(ws) >= 3:
        _export(text, ws, uses, report)
        return
    # a line of options that does not continue the command above
    if head.text.startswith("--") and _msprof_word(head.text) and not head.continued and previous is not None \
            and previous.words and previous.ender == "\n":
        above = previous.words
        above_line = src.position(above[0].start)[0]
        line_end = text.rfind("\n", 0, head.start)
        tail = text[above[-1].end:line_end] if line_end >= 0 else ""
        how = "ends with `\\` and a blank after it, which escapes the blank, not the line break" \
            if text[above[-1].start:above[-1].end].endswith("\\ ") or tail.startswith("\\") else \
            "does not end with `\\`"
        if any(w.text.rsplit("/", 1)[-1] == "msprof" for w in above):
            report(head.start, head.end,
                   said(clause(f"bash runs {_show(head.text)} as a command of its own", _status_127(head.text)),
                        clause(f"the msprof line above (line {above_line}) {how}",
                               so("msprof never gets this line's options")),
                        "end the line above with `\\` and nothing after it", lines=(above_line,)))
            return
        assigned = [_ASSIGN.match(w.text) for w in above]
        last = assigned[-1]
        if all(assigned) and last is not None and uses.matters(last.group(1)):
            name = last.group(1)
            report(head.start, head.end,
                   said(clause(f"bash runs {_show(head.text)} as a command of its own", _status_127(head.text)),
                        clause(f"the assignment above (line {above_line}) {how}",
                               so(f"{name} does not get these options"), uses.why(name)),
                        "keep the whole value inside one pair of quotes",
                        lines=(above_line,)))


def _assigned(word: ShWord) -> str:
    """The name an assignment word (`NAME=...`, one _ASSIGN matched) sets."""
    m = _ASSIGN.match(word.text)
    assert m is not None
    return m.group(1)


def _prefixed(text: str, assigns: List[ShWord], head: ShWord, uses: _Uses, report) -> None:
    """`A=x B=y word ...`: the assignments hold only for the command `word`, which bash runs."""
    lost = [a for a in assigns if uses.matters(_assigned(a)) or _msprof_word(a.text)]
    if not lost:
        return
    names = [_assigned(a) for a in lost]
    looks_like_value = head.text.startswith("-") or _msprof_word(head.text)
    # empty: nothing after the `=` (`OPTS=-x\\ --output=` ends with one, but holds "-x --output=")
    empty = [a for a in lost if a.text.partition("=")[2] == "" and text[a.end - 1] == "=" and not head.continued]
    what = " and ".join(names)
    if head.continued and looks_like_value:
        report(head.start, head.end,
               said(f"bash runs {_show(head.text)} as a command",
                    clause("the line above ends with `\\`",
                           so(f"`{_show(text[lost[0].start:lost[0].end], 50)}` is an assignment for this command only, "
                              "which is not found"), _status_127(head.text)),
                    f"this line does not set {what} for the lines after{uses.why(names[0])}",
                    "keep the whole value inside one pair of quotes"))
        return
    if empty and not head.continued and (looks_like_value or head.text in _VALUE_WORDS or head.text.startswith("{")):
        a = empty[0]
        name = _assigned(a)
        status = {"true": aside("status 0: nothing says so"), "false": aside("status 1")}.get(
            head.text, _status_127(head.text) if head.text.startswith(("-", "{")) or " " in head.text else "")
        report(a.start, head.end,
               said(clause(f"bash runs {_show(head.text, 40)} as a command with {name} empty in its environment",
                           status),
                    clause(f"the blank after `=` ends the assignment, and this line does not set {name} for the "
                           "lines after", uses.why(name)),
                    f"write {name}={_show(text[head.start:head.end], 40)} with no blank after `=`"))


_INVALID = logged(' ("not a valid identifier", status 1)')      # what bash says of a name it cannot set


def _status_127(word: str) -> Part:
    """What bash says of a command it does not find, and its status."""
    return logged(f" ({_not_found(word)}, status 127)")


def _not_found(word: str) -> str:
    """What bash prints for a command word that names nothing: with a `/` it is a path, looked up as such."""
    return "\"No such file or directory\"" if "/" in word else "\"command not found\""


_VALUE_WORDS = {"true", "false", "on", "off", "True", "False", "1", "0", "dynamic"}


def _export(text: str, ws: List[ShWord], uses: _Uses, report) -> None:
    """`export NAME = v`, `export NAME =v`, `export NAME= v`: the blanks make separate names."""
    head = ws[0]
    for k in range(1, len(ws) - 1):
        w, nxt = ws[k], ws[k + 1]
        m = _ASSIGN.match(w.text)
        if nxt.continued and m and uses.matters(m.group(1)) and (nxt.text.startswith("-") or _msprof_word(nxt.text)):
            name = m.group(1)
            report(nxt.start, nxt.end,
                   said(clause(f"{head.text} reads {_show(nxt.text)} as another name", _INVALID),
                        clause("the line above ends with `\\`",
                               so(f"{name} gets only `{_show(w.text[m.end():], 50)}`"), uses.why(name)),
                        "keep the whole value inside one pair of quotes"))
            return
        if nxt.continued:
            continue
        if _NAME.match(w.text) and nxt.text.startswith("=") and uses.matters(w.text):
            bad = _show(nxt.text, 30)
            value = _show(nxt.text[1:] or (ws[k + 2].text if k + 2 < len(ws) else ""), 40)
            report(w.start, nxt.end,
                   said(f"{head.text} reads `{w.text}` and `{bad}` as separate names here",
                        clause(f"`{bad}` is \"not a valid identifier\" (status 1), and {w.text} gets no value from "
                               "this line", aside("it is exported with the value it had before, none if it had none"),
                               uses.why(w.text)),
                        f"write {head.text} {w.text}={value} with no blanks around `=`"))
            return
        m = _ASSIGN.match(w.text)
        if m and w.text == m.group(0) and text[w.end - 1] == "=" and uses.matters(m.group(1)) and \
                not nxt.text.startswith("-"):
            name = m.group(1)
            invalid = "" if _NAME.match(nxt.text) else _INVALID
            report(w.start, nxt.end,
                   said("the blank after `=` ends the value",
                        clause(f"{head.text} gives {name} the empty string, and reads {_show(nxt.text, 40)} as "
                               "another name", invalid),
                        f"write {head.text} {name}={_show(text[nxt.start:nxt.end], 40)} with no "
                        "blank after `=`"))
            return


def _unclosed(text: str, src: SourceText, start: int, quote: int, report) -> None:
    rest = text[start:]          # the command the quote is in, and every line after it
    if "PROFILING_" not in rest and "msprof" not in rest:
        return
    line = src.position(quote)[0]
    mark = text[quote]
    report(quote, quote + 1,
           said(f"this {mark} is never closed",
                clause(f"bash reads the rest of the file into one word, then stops with \"unexpected EOF while looking "
                       f"for matching `{mark}'\" (status 2) without running anything from line {line} on",
                       so("the profiling settings and launches from there on never run")), "close the quote"))


# ---------------------------------------------------------------- the rule's page

from .rule import Rule  # noqa: E402

RULES = (
    Rule(
        code=CODE,
        name="shell-reads-otherwise",
        summary="a launcher line that bash reads otherwise than it evidently means, so a profiling setting never "
                "reaches the run (`A=\"...\" \\` then a quoted line, `PROFILING_MODE = true`, an unclosed quote)",
        default=True,
        level="warning",
        what="A shell launcher line where bash's word splitting defeats a profiling setting: an assignment whose "
             "value goes on after a `\\` line break outside its quotes (`MSPROF_OPTS=\"--output=/tmp/prof \" \\` "
             "then `\"--aic-freq=100\"`), so the next line's string becomes the command the assignment belongs to; "
             "blanks around `=` (`PROFILING_MODE = true`, `PROFILING_MODE= true`, `export PROFILING_MODE = true`); "
             "the same value split outside its quotes after `export` (the next string is taken for a name); a line "
             "of msprof options that the msprof line or the assignment above does not continue (no `\\`, or `\\` "
             "followed by a blank); a quote that is never closed. Only settings that matter for profiling are reported: `PROFILING_*`, "
             "msprof's options, and a variable an msprof line uses.",
        why="bash decides what is an assignment after splitting the line into words: a `NAME=value` word followed "
            "by another word is set for that command only, and the word is run as the command (`--aic-freq=100: "
            "command not found`, status 127); the variable stays unset, and msprof or the training run starts "
            "without the switches, with no error but a line in the log. A blank around `=` makes the name a "
            "command of its own or leaves the value empty. An unclosed quote makes the whole rest of the file one "
            "word: bash runs what comes before it, then exits with status 2 (\"unexpected EOF while looking for "
            "matching\") and runs nothing after it.",
        example="#!/bin/bash\nMSPROF_OPTS=\"--output=/tmp/prof \" \\\n\"--aic-metrics=PipeUtilization\"\n"
                "msprof $MSPROF_OPTS python3 train.py\n",
        fixed="#!/bin/bash\nMSPROF_OPTS=\"--output=/tmp/prof \\\n--aic-metrics=PipeUtilization\"\n"
              "msprof $MSPROF_OPTS python3 train.py\n",
        fix_safety="none",
        fix_note="Where the value was meant to end is a guess; the message says how to write it.",
        references=("GNU Bash manual, 3.7.1 Simple Command Expansion: "
                    "https://www.gnu.org/software/bash/manual/bash.html#Simple-Command-Expansion",),
        group="wiring",
        language="shell",
        facts=("bash.prefix_assignment",),
    ),
)
