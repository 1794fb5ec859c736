"""The interpreter's words: a word decoded with the values known where it is met. Parameters (`$x`, `${x}`, `$1`,
`$#`, `$@`, `$0`, `$PWD`, `${BASH_SOURCE[0]}`), `${x#pat}`/`${x%pat}` and `${x:-word}`, `$((...))` of known
integers, and the command substitutions launchers name their own directory with (`$(dirname $(readlink -f $0))`,
`$(cd X; pwd)`); anything else is a hole, never a guess."""

from __future__ import annotations

import os
import re
from bisect import bisect_left, bisect_right
from typing import List, Optional, Sequence, Tuple

from ..source.text import HOLE, Run, StrValue
from .parse import compiled, lexed_commands
from .redirects import Maker, folderless
from .state import MAX_SUBSTITUTIONS, WalkState
from .words import decode, glob_match, integer_value, skip_expansion


# the origin of a word (a StrValue) a part of which, not known here, is what the launcher computes (a command's output,
# `$?`, a variable set so), not what its caller gives (its arguments, `"$@"`, or its environment): what argparse reads
# there is not the caller's to choose (launch_setup._computed_word)
COMPUTED = "computed"
_IFS = " \t\n"        # bash's default IFS: the blanks an unquoted expansion's value is split at
_BLANK = re.compile(r"[ \t\n]")      # one of _IFS
_new_tuple = tuple.__new__          # a Run without the namedtuple's __new__ (a Python frame each)
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")     # how a variable's name starts
# a word with none of these is its own text, character for character (decode's one run): no call of decode for it
# the tilde prefixes of an assignment's value written without quotes or expansions (the login after `~`: _tilde)
# (this and the two below: patterns, compiled where a `~` is first met)
_ASSIGNED_TILDE = r"(^|:)~([^/:]*)"
_NOT_LOGIN = frozenset("'\"\\$`")     # in a tilde prefix, bash leaves it as written (`~"/x"`, `~$u`: no login)
_LITERAL = re.compile(r"[^'\"\\$`]*")
# a command's word bash expands as an assignment's value after it (`a=`, `a+=`, `a[1]=`; bash 5.2); one whose
# subscript is not read here (`a[$i]=`, `a[[1]]=`, `a[1]b=`) is _SUBSCRIPTED: not known
_ASSIGN_LIKE = r"[A-Za-z_]\w*(?:\[[^]'\"\\$`]*\])?\+?="
_SUBSCRIPTED = r"[A-Za-z_]\w*\["
# a command substitution that only echoes its words (`$(echo ${para#*=})`, backquotes): no operator, redirection,
# substitution or quote in it, so _output expands each word there
_ECHO = re.compile(r"(?:\$\(|`)[ \t]*echo[ \t]+[^|&;<>()`'\"\\\n]*[)`]")
# compiled once: the walk asks it of every expansion (re's per-call cache lookup cost more than the match)
_PARAMETER_BODY = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*|[0-9#*@?])|\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#*@]|"
                             r"BASH_SOURCE\[0\])\})")


def _cut(runs: Sequence[Run], a: int, b: int) -> List[Run]:
    """The runs of decoded characters [a, b), counted from a (a run that does not map character for character, an
    escape, is kept only whole)."""
    out = []
    for r in runs:
        lo, hi = max(r.t, a), min(r.t + r.tlen, b)
        if lo >= hi:
            continue
        if r.tlen == r.slen:
            out.append(Run(lo - a, hi - lo, r.s + lo - r.t, hi - lo))
        elif lo == r.t and hi == r.t + r.tlen:
            out.append(r._replace(t=r.t - a))
    return out


def tilde_end(text: str, i: int, end: int, stops: str) -> Optional[int]:
    """Where the tilde prefix at text[i] (a `~`) ends: at the first of stops (`/`; `/:` in an assignment's value) or
    the word's end; None where bash leaves it as written, a quote, escape or expansion in it (bash 5.2 reads
    `~$u` as a login named `$u`, which no user has)."""
    k = i + 1
    while k < end and text[k] not in stops:
        if text[k] in _NOT_LOGIN:
            return None
        k += 1
    return k


class Expander(WalkState):
    """Walk's word expansion (walk.py): the values it reads are the walk's variables, arguments and directory."""

    def expand(self, text: str, i: int, end: int) -> StrValue:
        """Decode one shell word of text[i:end] with the variables known at this point (words.decode: its quotes
        and escapes; the values of its expansions are this walk's)."""
        if _LITERAL.fullmatch(text, i, end):
            return StrValue(text[i:end], [_new_tuple(Run, (0, end - i, i, end - i))] if end > i else [], i, end,
                            origin="shell")
        outer, self._computed = self._computed, False
        decoded, runs, _ = decode(text, i, end, self._valued)
        computed, self._computed = self._computed, outer or self._computed
        return StrValue(decoded, runs, i, end, origin=COMPUTED if computed else "shell")

    def home(self) -> str:
        """What a tilde prefix (`~/x`) gives: $HOME, a hole where it is not known (as `$HOME` is)."""
        home = self._value("HOME")
        return HOLE if home is None or HOLE in home else home

    def _tilde(self, login: str) -> str:
        """What bash puts for the tilde prefix `~login`: $HOME for `~`; for `~+`, `~-`, `~2` or a user's `~name` a
        folder not known here (the walk's PWD and OLDPWD are not kept; a user's home, and whether there is such a
        user, are the machine's), a hole."""
        return self.home() if not login else HOLE

    def assigned(self, text: str, i: int, end: int) -> StrValue:
        """An assignment's value: expand() after bash's tilde expansion at its start and after each `:` (bash 5.2,
        HOME=/h, y=Q: `D=~/x E=a:~/y F=a~/z G=~/x$y H=~"/x" I=~root/x` gave /h/x, a:/h/y, a~/z, /h/xQ, ~/x,
        /root/x). A value with quotes or expansions and a `:~` past its start is not known (which `:` bash reads
        as one, outside quotes and expansions, is not looked for)."""
        raw = text[i:end]
        if "~" not in raw:
            return self.expand(text, i, end)
        if not any(c in raw for c in _NOT_LOGIN):
            tilde = compiled(_ASSIGNED_TILDE)
            if not tilde.search(raw):
                return self.expand(text, i, end)
            return StrValue(tilde.sub(lambda m: m.group(1) + self._tilde(m.group(2)), raw), [], i, end, origin="shell")
        if ":~" in raw:
            return StrValue(HOLE, [], i, end, origin="shell")
        k = tilde_end(text, i, end, "/:") if raw[0] == "~" else None
        if k is None:
            return self.expand(text, i, end)
        rest = self.expand(text, k, end)
        return StrValue(self._tilde(text[i + 1:k]) + rest.text, [], i, end, origin=rest.origin)

    def tilde_word(self, text: str, i: int, end: int) -> Optional[List[StrValue]]:
        """The fields of a command's word whose tilde prefixes bash expands: at its start (tilde_fields), or in a
        word like an assignment (`a=~/x`, `a=x:~/y`: assigned's, one field where no expansion can split it, else not
        known); None for any other word (`--a=~/x`, `"~/x"`: as written). Bash 5.2, HOME=/h, y=Q: `a=x:~/y
        a=~/x:~/z$y --a=x:~/y ~/a:~/b` gave a=x:/h/y, a=/h/x:/h/zQ, --a=x:~/y, /h/a:~/b."""
        if text[i] == "~":
            return self.tilde_fields(text, i, end)
        named = compiled(_ASSIGN_LIKE).match(text, i, end)
        if named is None and compiled(_SUBSCRIPTED).match(text, i, end) and "=" in text[i:end]:
            return [StrValue(HOLE, [], i, end, origin="shell")]
        if named is None or "~" not in text[named.end():end]:
            return None
        k = named.end()
        raw = text[k:end]
        if not any(c in raw for c in _NOT_LOGIN):
            return [StrValue(named.group() + self.assigned(text, k, end).text, [], i, end, origin="shell")] \
                if compiled(_ASSIGNED_TILDE).search(raw) else None
        if ":~" in raw:
            return [StrValue(HOLE, [], i, end, origin="shell")]
        fields = self.tilde_fields(text, k, end) if raw[0] == "~" else None
        if not fields:
            return None
        return [StrValue(named.group() + fields[0].text, [], i, end, origin=fields[0].origin)] + fields[1:]

    def tilde_fields(self, text: str, i: int, end: int) -> Optional[List[StrValue]]:
        """fields() of a word bash starts with a tilde prefix it expands (`~/x$y`; `~"/x"` and `~$u` are left as
        written: None), the prefix's value joined to the first field of the rest, and never split itself (bash 5.2,
        HOME=/h, z="a b": `~/x"$z"` gave one word, /h/xa b; `~/x$z` two, /h/xa and b)."""
        k = tilde_end(text, i, end, "/")
        if k is None:
            return None
        value = self._tilde(text[i + 1:k])
        rest = self.fields(text, k, end) if k < end else []
        if not rest:
            return [StrValue(value, [], i, end, origin="shell")]
        return [StrValue(value + rest[0].text, [], i, end, origin=rest[0].origin)] + \
            [StrValue(f.text, f.runs, i, end, origin=f.origin) for f in rest[1:]]

    def fields(self, text: str, i: int, end: int) -> List[StrValue]:
        """One command word as bash passes it on: the known value of an expansion outside double quotes is split at
        blanks into several words (`python3 train.py $ARGS`), its leading and trailing blanks starting none; a value
        not known stays one word, as does every word where the launcher sets IFS."""
        word = text[i:end]
        if "$" not in word and '"' not in word and "'" not in word and "\\" not in word and "`" not in word:
            # nothing expanded: one field, as decode would give it (_LITERAL's test, without a regex's call)
            return [StrValue(word, [_new_tuple(Run, (0, end - i, i, end - i))] if end > i else [], i, end,
                             origin="shell")]
        unquoted: List[Tuple[int, int]] = []
        outer, self._computed = self._computed, False
        decoded, runs, _ = decode(text, i, end, self._valued, unquoted)
        computed, self._computed = self._computed, outer or self._computed
        origin = COMPUTED if computed else "shell"
        if not decoded and not any(c in word for c in "\"'\\"):
            return []           # bash removes an unquoted expansion of nothing (`$EMPTY`, `${EMPTY}`): no word at all
        if "IFS" in self.vars or "IFS" in self.exported:
            return self._ifs_fields(word, decoded, runs, unquoted, i, end, origin)
        blanks = {t for a, b in unquoted for t in range(a, b) if decoded[t] in _IFS} \
            if any(_BLANK.search(decoded, a, b) for a, b in unquoted) else None     # (most values have none)
        if not blanks:
            return [StrValue(decoded, runs, i, end, origin=origin)]
        out, start = [], None
        # a field's runs are looked up by bisection where the runs are in order (as decode makes them): cutting
        # every run for every field was quadratic (a `$ARGS` of 5,000 `$1` took 4 s)
        starts, ends = [r.t for r in runs], [r.t + r.tlen for r in runs]
        ordered = all(e <= s for e, s in zip(ends, starts[1:]))
        for t in range(len(decoded) + 1):
            if t < len(decoded) and t not in blanks:
                start = t if start is None else start
            elif start is not None:
                near = runs[bisect_right(ends, start):bisect_left(starts, t)] if ordered else runs
                out.append(StrValue(decoded[start:t], _cut(near, start, t), i, end, origin=origin))
                start = None
        return out

    def _ifs_fields(self, word: str, decoded: str, runs, unquoted, i: int, end: int,
                    origin: str) -> List[StrValue]:
        """fields() where the launcher sets IFS: split at its characters as bash 5.2 does (ifs_split); one word not
        known where IFS's value is not known and an expansion outside double quotes has a value."""
        ifs = self._value("IFS")
        if ifs == "" or not any(b > a for a, b in unquoted):
            return [StrValue(decoded, runs, i, end, origin=origin)]
        if ifs is None or HOLE in ifs:
            return [StrValue(HOLE, [], i, end, origin=origin)]
        at = {t for a, b in unquoted for t in range(a, b) if decoded[t] in ifs}
        spans = ifs_split(decoded, at, ifs)
        if not spans and any(c in word for c in "\"'"):
            return [StrValue("", [], i, end, origin=origin)]    # (a quoted empty part stays a word)
        return [StrValue(decoded[a:b], _cut(runs, a, b), i, end, origin=origin) for a, b in spans]

    def _valued(self, text: str, k: int, end: int) -> Tuple[int, Optional[str], Sequence[Run]]:
        """The expansion at k: its end, its value (None: not known), and the runs of a value written in this file
        (`"$OPTS"`: mapped to OPTS=...)."""
        m = _PARAMETER_BODY.match(text, k, end)         # (where it is one, it ends where skip_expansion says)
        if m is not None:
            j = m.end()
        else:
            j = min(skip_expansion(text, k), end)
            m = _PARAMETER_BODY.fullmatch(text, k, j)
            if m is None:
                value = self._expansion(text, k, j)
                if value is None or HOLE in value:      # (`${1:-x}`: its parameter's; `$(...)`: the launcher's)
                    base = re.match(r"\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#*@])", text[k:j])
                    # (`echo ${para#*=}` outputs its words: the caller's where they are; _output expanded them)
                    self._computed = self._computed or base is None and not _ECHO.fullmatch(text, k, j) or \
                        base is not None and not self._callers(base.group(1))
                return j, value, ()
        name = m.group(1) or m.group(2)
        value = self._value(name)
        if value is None or HOLE in value:
            self._computed = self._computed or not self._callers(name)
        if value and name[0] in _NAME_START and name != "BASH_SOURCE[0]":       # `$name`, `${name}` (_setting)
            setting = self.vars.get(name) or self.exported.get(name)
            if setting is not None and setting.path == self.current and setting.value == value:
                return j, value, setting.runs
        return j, value, ()

    def _callers(self, name: str) -> bool:
        """Whether what a parameter holds that is not known here is its caller's: the shell's arguments (`$1`,
        `"$@"`, `$#`), a variable of the environment it starts with, or one set from those; not `$?`, nor a variable
        set to a command's output (COMPUTED)."""
        if name.isdigit() or name in ("#", "*", "@"):
            return True
        s = self.vars.get(name) or self.exported.get(name)
        return name[0] in _NAME_START and (s is None or not s.computed)

    def _value(self, name: str) -> Optional[str]:
        """A parameter's value as this shell has it (None: not known, e.g. a variable from the caller)."""
        if name == "PWD":
            return self.cwd
        if name in ("BASH_SOURCE", "BASH_SOURCE[0]"):
            return self.current             # the file being read: a sourced script's own path
        if name == "0":
            return self.script
        if name == "?":
            # known only right after a command put in the background, whose status bash gives as 0 (walk.py)
            return "0" if self._background else None
        if name.isdigit() or name in ("#", "*", "@"):
            if self.args is None:
                return None
            if name == "#":
                return str(len(self.args))
            if name in ("*", "@"):
                return " ".join(self.args)
            k = int(name)
            return self.args[k - 1] if 0 < k <= len(self.args) else ""
        s = self.vars.get(name) or self.exported.get(name)
        if s is not None and s.assumed:
            self._assumed = True
        return None if s is None else s.value

    def _expansion(self, text: str, i: int, j: int) -> Optional[str]:
        """The value of the expansion text[i:j] that is not a plain parameter (_valued reads those)."""
        body = text[i:j]
        if body.startswith("${") and body.endswith("}"):
            return self._parameter(text, i + 2, j - 1)
        if body.startswith("$((") and body.endswith("))"):
            return self._arithmetic(text, i + 3, j - 2)
        if body.startswith("$[") and body.endswith("]"):
            return self._arithmetic(text, i + 2, j - 1)
        if body.startswith("$(") and body.endswith(")"):
            return self._substitute(text, i + 2, j - 1)
        if body.startswith("`") and body.endswith("`") and len(body) > 1:
            return self._substitute(text, i + 1, j - 1)
        return None

    def _parameter(self, text: str, a: int, b: int) -> Optional[str]:
        """`${x#pat}`, `${x##pat}`, `${x%pat}`, `${x%%pat}` (pattern removal), `${x:-word}`, `${x-word}` (a default);
        None for any other form, or when what it depends on is not known."""
        m = re.match(r"([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#*@])(##?|%%?|:?-)", text[a:b])
        if not m:
            return None
        value = self._value(m.group(1))
        word = self.expand(text, a + m.end(), b).text
        op = m.group(2)
        # (a word starting with `~`: bash 5.2 expands its tilde prefix in a pattern, and in a default outside double
        # quotes only; the quotes around the expansion are not known here)
        tilde = text.startswith("~", a + m.end())
        if op in (":-", "-"):
            if value is None or HOLE in word and not value:
                return None
            taken = value == "" and (op == ":-" or self._unset(m.group(1)))
            return (None if tilde else word) if taken else value
        if value is None or HOLE in value or HOLE in word or tilde:
            return None
        # a pattern: as fnmatch reads it (`*`, `?`, `[...]`); the shortest or longest match removed
        cuts = range(len(value) + 1) if op in ("#", "%") else range(len(value), -1, -1)
        for k in cuts:
            piece = value[:k] if op.startswith("#") else value[len(value) - k:]
            if glob_match(piece, word):
                return value[k:] if op.startswith("#") else value[:len(value) - k]
        return value

    def _unset(self, name: str) -> bool:
        """Whether a parameter whose value is "" is unset (`${x-word}` takes the word only then)."""
        if name.isdigit():
            return self.args is not None and int(name) > len(self.args)
        return False

    def _arithmetic(self, text: str, a: int, b: int) -> Optional[str]:
        """`$((OPTIND - 1))`, `$(($# - 1))`: integers and + - * of parameters known here, else None."""
        # `$1`, `${#}`, `$x` and a bare name `x` are parameters; a bare digit is a number
        # an empty or unset one counts 0, as bash counts it (`$[RANK_START]` with none given is 0)
        body = re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*|[#0-9])\}?|\b([A-Za-z_][A-Za-z0-9_]*)\b",
                      lambda m: _number(self._value(m.group(1) or m.group(2))), text[a:b])
        if not body.strip():
            return "0"
        value = integer_value(body)
        return None if value is None else str(value)

    def _substitute(self, text: str, a: int, b: int) -> Optional[str]:
        """The output of a command substitution made of the commands launchers use to name their own directory:
        `dirname`, `readlink -f`, `realpath`, `basename`, `pwd`, `cd X; pwd`, `echo`; None for anything else
        (its output is not known statically)."""
        out = None
        if self._nested < MAX_SUBSTITUTIONS:
            self._nested += 1
            try:
                out = self._output(text, a, b)
            finally:
                self._nested -= 1
        if out is None:
            self._may_make_in(text, a, b)
        return out

    def _may_make_in(self, text: str, a: int, b: int) -> None:
        """A command substitution not evaluated here runs its commands: one that may make a folder is kept as such
        (shell/redirects.py: a later launch's redirection into a folder the tree lacks may then not fail)."""
        for spans, _, _ in lexed_commands(text, a, b):
            if text[spans[0][0]:spans[0][1]] not in folderless() if spans else False:
                shown = " ".join(text[a:b].split())
                self.makers.append(Maker(len(self.commands), self.current, text.count("\n", 0, a) + 1,
                                         f"$({shown[:60]}{'...' if len(shown) > 60 else ''})", early=True))
                return

    def _output(self, text: str, a: int, b: int) -> Optional[str]:
        # (in a folder a loop makes, one a round, `pwd` is another each round)
        here = self.dirs[0] if len(self.dirs) == 1 and self.rounds is None else None
        assumed = not self.settled
        out: Optional[str] = None
        skip = False                    # the commands after `cd DIR ||` that a cd into a folder there skips
        for spans, op, _ in lexed_commands(text, a, b):
            if skip:
                skip = op == "||"
                continue
            if op not in (";", "&&", "\n", "", "||"):
                return None
            words = [self.expand(text, s, e).text for s, e in spans]
            if any(HOLE in w for w in words):
                return None
            head, rest = words[0], [w for w in words[1:] if not w.startswith("-")]
            if head == "cd" and len(rest) <= 1:
                target = rest[0] if rest else None
                if target is None or (here is None and not os.path.isabs(target)):
                    return None
                here = os.path.normpath(os.path.join(here or "/", target))
                # a folder not in the tree: bash's cd fails there (or the run makes it first): where pwd is, not known
                # (`cd ./"$(dirname $0)"` of a launcher typed with its absolute path went to ./TOP/scripts)
                if not os.path.isdir(here):
                    return None
                assumed = assumed and not os.path.isabs(target)
                skip = op == "||"       # `cd DIR || exit`: DIR is there, so the cd succeeds
                continue
            if op == "||":
                return None
            if out is not None or head not in ("pwd", "dirname", "readlink", "realpath", "basename", "echo"):
                return None
            if head == "pwd":
                if here is None:
                    return None
                self._assumed = self._assumed or assumed
                out = here
            elif head == "echo":
                out = " ".join(words[1:])
            elif len(rest) != 1:
                return None
            elif head == "dirname":
                out = os.path.dirname(rest[0].rstrip("/")) or "."
            elif head == "basename":
                out = os.path.basename(rest[0].rstrip("/"))
            elif head == "readlink" and "-f" not in words and "-e" not in words and "-m" not in words:
                return None             # plain readlink prints a link's target, not the path
            elif os.path.isabs(rest[0]):
                out = os.path.normpath(rest[0])
            elif here is None:
                return None
            else:
                self._assumed = self._assumed or assumed
                out = os.path.normpath(os.path.join(here, rest[0]))
        return out


def _number(value: Optional[str]) -> str:
    """A parameter's value in an arithmetic: "?" where it is not known, "0" where it is empty."""
    return "?" if value is None else value or "0"


def ifs_split(value: str, at, ifs: str) -> List[Tuple[int, int]]:
    """Where bash splits a value into fields at the IFS characters at the offsets `at` (those outside quotes): a run
    of IFS blanks is one separator (none at either end), and so is one other IFS character with the blanks around it,
    so two of those end an empty field (bash 5.2, IFS=", ": `A=", ,a"; set -- $A` gives '', '', 'a'; `a,b,` gives
    a, b)."""
    blank = {t for t in at if value[t] in " \t\n"}
    n, t, out = len(value), 0, []
    while t < n and t in blank:
        t += 1
    while t < n:
        s = t
        while t < n and t not in at:
            t += 1
        out.append((s, t))
        while t < n and t in blank:
            t += 1
        if t < n and t in at:
            t += 1
            while t < n and t in blank:
                t += 1
    return out
