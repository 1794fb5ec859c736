"""The cheap scan `npuprof check` runs on a shell launcher before it walks it: whether any finding of the walk can
depend on this text. A launcher that names no profiling word and can start no Python script, source no file and
run no other shell script is not walked: its check costs about what reading it costs (its own lines are still
checked, by checks/shell_env.py and checks/shell_syntax.py).

What the walk's findings react to, and so what the scan looks for (shell_launches.check_file_each):
- "prof", in any case: PROFILING_MODE / PROFILING_OPTIONS (checks/shell_env.py, shell_launches.options_read), msprof
  (checks/msprof.py, NPP128 in shell_launches._misplaced, a launch under msprof), and NPP015's profiling option, which
  launcher_switch._profiling_option finds by "prof" in its name, a `mkdir ...prof` in its branch or a help line naming
  "profil" (checks/launcher_switch.py);
- a Python script it may start (NPP205 and the options problems of a value passed on the command line are judged
  in the script's profiling setups): a `.py` word, a `-m` module, an extension made from an expansion
  (`train.$ext`, `${name}py`), or a value cut from its end or changed in case (`${x%y}`, `${x,,}`);
- a file it sources or a shell script it runs, which may start one: `source`, a `.` command, `.sh`;
- a walk that may stop at its bound (NPP191): a function (its body is walked at every call), or more commands
  than shell/state.MAX_COMMANDS could fit (each command ends with an operator or a line break). With no arguments
  known (check) and no function, the walk visits every command of the text at most once.
Anything else the walk reads (`cd`, variables, loops, `case`) decides only what those would do.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Tuple

from ..shell.state import MAX_COMMANDS
from ..source import observed
from ..source.files import ReadError, read_text

# a Python launch (`x.py`, `python -m mod`, `train.$ext`), a sourced or run script, a function definition: each
# pattern starts with what it looks for, what must stand before it is checked there (_WORDS' second part: "", not a
# word character). Each is searched alone, led by its own characters: as one alternation they were tried at every
# character (`\.py|\.sh|...`: 17 M, `(?:source|function)\b|...`: 61 M over the 148 launchers of the tree the
# scan reads, against about 2 M a search led by a character costs); any match of the alternation is one of them
# the interpreter's options after it, then `-m` joined to others (`-um`) or to its module (`-mtools.t`) (`(?=(x))\1`:
# a word taken whole, not given back a character at a time: `python/site-packages:...` of a PYTHONPATH cost five times
# as much as any other search here)
_PY_OPTIONS = (r"""(?:(?:[ \t]|\\\r?\n)+-[WX](?:[ \t]|\\\r?\n)+[^\s;&|()<>]+"""
               r"""|(?:[ \t]|\\\r?\n)+-(?=(?P<o>[^\s;&|()<>]*))(?P=o))*?"""
               r"""(?:[ \t]|\\\r?\n)+["'\\]*-[bBdEIOPqRsStuvx]*(?:(?<=[bBdEIOPqRsStuvx])m|m(?=[^\s;&|()<>"'\\=]))""")
# (lookbehinds at the character after a `$`: the `$` starts a command's word, after what starts a command and up to 12
# blanks, or after a word that runs the next one; each of a fixed width. Asked only at a `$` after a blank or a quote:
# 1.8 ms over the 211 settled launchers of p130, and about 3 ms to compile, for `CMD=python3; $CMD -mtools.t`)
# (sorted by the character before the `$`, or before the quote before it, and after a blank by the one before that: the
# 44 lookbehinds tried one after another at every `$` after a blank, `[ $x`, `echo $x`, cost as much as the rest of
# the search; what each group holds is what the lookbehind before it asks of its characters, so they hold where the
# 44 did)
_HEAD_CHARS = r"[\n;&|(`{]"
_RUN_WORDS = ("then ", "else ", "time ", "exec ", "nohup ", "env ", "do ", "! ", "command ")


def _after_blank(quote: str) -> str:
    """The heads whose `$` (after the quote) follows a blank: a run of 1 to 12 after what starts a command, or a word."""
    runs = "|".join("(?<=" + _HEAD_CHARS + r"[ \t]" * n + quote + r"\$)" for n in range(1, 13))
    words = "|".join("(?<=" + w + quote + r"\$)" for w in _RUN_WORDS)
    ends = "".join(sorted({w[-2] for w in _RUN_WORDS}))
    return (r"(?<=[ \t]" + quote + r"\$)(?:(?<=[\n;&|(`{ \t][ \t]" + quote + r"\$)(?:" + runs + ")"
            "|(?<=[" + ends + "] " + quote + r"\$)(?:" + words + "))")


_COMMAND_HEAD = "|".join(("(?<=" + _HEAD_CHARS + r"\$)", "(?<=" + _HEAD_CHARS + r"[\"']\$)", _after_blank(""),
                          _after_blank(r"[\"']"), r"(?<![\s\S][\s\S])"))
# a script's or shell script's name, or `-m`, that the walk makes by joining what it reads (shell/expand.py expands
# each word with the values it knows; bash joins a word's quoted parts and `\`-newlines), with no `.py`, `.sh` or `-m`
# written out (engine/launch_scan.py reads each as a computed name: the launcher is walked)
JOINED = (
    # the rest of an extension right after an expansion: `${X}y`, `$(echo x.p)y`, `` `echo x.p`y ``, `$X"py"`, `$1y`,
    # `${0%sh}"py"` (each of these searched alone, led by its own character: an alternation led by a class of them
    # was tried at every character, 22 ms over the 221 launchers of the tree against 0.2 ms to 0.6 ms each)
    # (with a `}` led by it: a value cut by a pattern joined to another expansion, `${X%z}${Y#z}`)
    re.compile(r"""\}(?:(?:["'\\]*[ps])?["'\\]*[yh](?!\w)|["']?\$\{\w+[#%])"""),
    re.compile(r"""\)(?:["'\\]*[ps])?["'\\]*[yh](?!\w)"""),
    re.compile(r"""`(?:["'\\]*[ps])?["'\\]*[yh](?!\w)"""),
    # (with a `$` led by it: a positional parameter joined to text or to another expansion, `t$1`, `$1$2`, a call's
    # words `.py`, `t.p y`; not one that ends its word after text, `fold$1.txt`, `print$7}`)
    re.compile(r"""\$(?:(?:\d|(?=(\w+))\1(?=["'\\]))(?:["'\\]*[ps])?["'\\]*[yh](?!\w)"""
               r"""|(?:(?<=[\w.}]\$)|(?<=[\w.}]["']\$))(?:\d|\{\d+\})(?=["']*(?:[\s;&|)<>]|$))|\{?\d\}?["']?\$)"""),
    # a value that is the rest of one: `S+=y`, `B=py` (`$A$B`)
    re.compile(r"""=["']?[ps]?["']?[yh]["']?(?=[\s;&|)]|$)""", re.M),
    # a value cut by a pattern joined to another expansion: `${X%z}${Y#z}` (a pattern with no blank, `$` or `}`;
    # not `` `echo ${p#*=}` ``, the backtick that closes it; led by the `%` or `#` after the name, or the `}` above)
    re.compile(r"""%(?<=[\w\]]%)[^}$\s]*\}["']?\$"""), re.compile(r"""#(?<=[\w\]]#)[^}$\s]*\}["']?\$"""),
    # a word that goes on after a `\`-newline: `x.p\`, newline, `y` is `x.py`
    re.compile(r"\\(?<=[^\s\\]\\)\r?\n\S"),
    # an extension's rest that a substitution prints (`$(echo x.p)$(echo y)`, shell/expand.Expander._output's commands)
    re.compile(r"""echo[ \t]+(?:[^\s;&|()`]*/)?["']?[ps]?["']?[yh]["']?[ \t]*[)`]"""),
    re.compile(r"""basename[ \t]+(?:[^\s;&|()`]*/)?["']?[ps]?["']?[yh]["']?[ \t]*[)`]"""),
    # an option made from a value or quoted inside: `-$M`, `-"$M"` (M=m: `-m`), `-'m'` (led by the `-`: a
    # lookbehind first was tried at every character, 55 ms over those 221 launchers)
    re.compile(r"""-(?<![^\s"'=(;&|]-)(?:["'\\]*[$`]|["'\\]+m(?!\w))"""),
    # Python's `-m` joined to other options or to its module (`python3 -mtools.t`, `-um tools.t`, `$PY -Bmtools.t`:
    # CPython reads them as `-m tools.t`, shell/launches._python_option), after the interpreter and its options
    # (`-X dev`, `-u`): led by its `python`, or by a variable at a command's start (_COMMAND_HEAD; not an argument,
    # `-np $N -mca`, nor `mpirun -mca`, `find -maxdepth`: walked for them, 3 of the p130 tree's launchers cost 250M)
    *(re.compile(lead + _PY_OPTIONS) for lead in (
        # (a `python` that starts a word or a path's last part, its rest without `/`: shell/command_line.PYTHON; the
        # rest read from every `python` of a word made one of 20,000 take 11.8 s)
        r"python(?<![\w.-]python)(?=(?P<w>[^\s;&|()<>/]*))(?P=w)",
        r"\$(?<![^\s;&|(`{\"']\$)(?:" + _COMMAND_HEAD + r")\{?(?=(?P<w>\w*))(?P=w)\}?[\"']?")),
    # `source` or `.` written with quotes or a backslash, which bash removes (bash 5.2: `so''urce ./env`, `"." ./env`,
    # `\. ./env`, `'source' ./env` source env; the walk reads the command's word as bash does), where a word starts:
    # led by the quote or `\` (a `.` not before an option or a quoted word: `awk -F "." '{...}'`, `cut -d "." -f1`
    # are arguments; one such walked a launcher of the p130 tree), by `s` with one inside, by `.` with one after it
    # (one search for each of `"`, `'`, `\`: led by a class of them it cost two and a half times as much)
    # (a quote closed inside the word: `eval "source $1"` is eval's, whose text the walk reads as it reads `eval`)
    *(re.compile(lead + r"(?<![^\s;&|(`{]" + lead + ")" + closed + r"""["'\\]*(?:s["'\\]*o["'\\]*u["'\\]*r["'\\]*"""
                 r"""c["'\\]*e["'\\]*(?=[\s;&|)]|$)|\.["'\\]*(?=[\s;&|)]|$)(?![ \t]+['-]))""")
      for lead, closed in (('"', r'(?=[^\s;&|()<>"]*")'), ("'", r"(?=[^\s;&|()<>']*')"), (r"\\", ""))),
    re.compile(r"""s(?=[o"'\\])(?<![^\s;&|(`]s)(?=[source]*["'\\])["'\\]*o["'\\]*u["'\\]*r["'\\]*c["'\\]*e["'\\]*"""
               r"""(?=[\s;&|)]|$)"""),
    re.compile(r"""\.(?<![^\s;&|(`]\.)["'\\]+(?=[\s;&|)]|$)"""))


class Gated:
    """The search of a pattern that finds nothing in a text where another does not: searched only where that one
    finds something (JOINED's `-m` after python or a variable: a joined `-m`, `-[bBdEIOPqRsStuvx]*m` with a flag before
    its `m` or its module after it, after a blank, a quote or `\\` (_GLUED_M), is in any match of theirs, and in 25
    of the 156 texts p130's settled launchers scan; their options read after every `$` and `python` cost 27M of the
    74M of JOINED's searches over those texts)."""

    __slots__ = ("pattern", "gate")

    def __init__(self, pattern: "re.Pattern[str]", gate: "re.Pattern[str]"):
        self.pattern = pattern              # (JOINED's: what _lead reads and the tests compare)
        self.gate = gate

    def search(self, text: str) -> "Optional[re.Match[str]]":
        kept = _gated[0]                    # (JOINED's two share their gate: searched once a text)
        if kept[0] is not text or kept[1] is not self.gate:
            kept = _gated[0] = (text, self.gate, self.gate.search(text) is not None)
        return self.pattern.search(text) if kept[2] else None


# (the text last asked, the gate, whether it found something): one slot, swapped whole (the server's threads scan too)
_gated: List[Tuple[Optional[str], Optional["re.Pattern[str]"], bool]] = [(None, None, False)]


# (_PY_OPTIONS' last `-`: after a blank or a `\`-newline, then quotes or `\`)
_GLUED_M = re.compile(r"""-(?<=[ \t\n"'\\]-)[bBdEIOPqRsStuvx]*(?:(?<=[bBdEIOPqRsStuvx])m|m(?=[^\s;&|()<>"'\\=]))""")
# JOINED as searched (the scan asks whether each has a match, and its first)
JOINED_SEARCHES = tuple(Gated(p, _GLUED_M) if p.pattern.endswith(_PY_OPTIONS) else p for p in JOINED)
_MAY_START = (re.compile(r"\.(?:py|sh|[ps]?[$`])"), re.compile(r"\(\s*\)"), re.compile(r"\}(?:py|sh)\b"),
              # (`./x.s"h"`, `x."py"`, `x.s\h`: bash removes the quotes and backslashes inside a word)
              re.compile(r"""\.(?=["'\\]+(?:s["'\\]*h|p["'\\]*y)|s["'\\]+h|p["'\\]+y)"""),
              # (a value cut from its end or its case changed: `x=big.s; x+=hy; bash ${x%y}` runs big.sh, whose name
              # no word of the text ends with; engine/launch_scan's _COMPUTED walks such a text; an index, `${a[$i]%y}`,
              # searched from a line's start or a `]`, the last `${a[` before the next `]` taken whole: each `${a[` read
              # on to its line's end, a line of 60,000 took 55 s; the index's search, led by a line's start or a `]`, is
              # tried at every character: about 500 instructions a character, 19M over the 73 texts of p130's settled
              # launchers that start nothing, so it is searched only in a text with a `]` before one of `%^,~@`, which
              # every match of it ends with)
              re.compile(r"\$\{[#!]?\w+[%^,~@]"),
              Gated(re.compile(r"(?:^|(?<=\]))(?=(?P<s>[^\]\n]*\$\{[#!]?\w+\[))(?P=s)[^\]\n]*\][%^,~@]", re.M),
                    re.compile(r"\][%^,~@]"))) + JOINED_SEARCHES
# (`-m` written with quotes, `"-m"`, or as a value, `F=-m`, `PY="python3 -m"`: bash removes the quotes, `$F` splits)
_WORDS = ((re.compile(r"source\b"), ""), (re.compile(r"function\b"), ""),
          (re.compile(r"-m(?:$|[\s=\"'\\])", re.M), " \t\n\r;&|(){}\"'="),
          # (deepspeed's --module and the abbreviations its argparse takes: it runs the module, shell/deepspeed.py)
          (re.compile(r"--mo(?:d(?:u(?:le?)?)?)?(?:$|[\s=\"'\\])", re.M), " \t\n\r;&|(){}\"'="),
          # (a `.` a value holds too, `c=.`, `c='. env'`: a command headed by `$c` sources env, in bash 5.2 and the walk)
          (re.compile(r"\.(?:$|[\s;&|\"'])", re.M), " \t\n\r;&|(){}`=\"'"))
_COMMAND_ENDS = "\n;&|()`"


def needs_walk(text: str) -> bool:
    """Whether a finding of `check` on this launcher can depend on its walk (False: it cannot; see the module)."""
    return "prof" in text.lower() or may_start(text)


def may_start(text: str) -> bool:
    """needs_walk for a text without a profiling word (engine/launch_scan.why_walked looks for that word first:
    lowering a text costs about as much as these searches of it, so it is lowered once)."""
    # (the first search, then the words, then the other searches: any order gives the same answer, and this one
    # stops soonest where one holds: a `.py` or `.sh` word starts most launchers' scripts, a `-m`, `source` or `.` most
    # of the others'; over the 1,936 .sh of p130 and both zoos that name no profiling word, 118M to 98M instructions,
    # over issue 44's 221 launchers 22.0M to 15.8M)
    if _MAY_START[0].search(text):
        return True
    for pattern, before in _WORDS:
        for m in pattern.finditer(text):
            at = m.start()
            if not at or (text[at - 1] in before if before else not (text[at - 1].isalnum() or text[at - 1] == "_")):
                return True
    if any(p.search(text) for p in _MAY_START[1:]):
        return True
    # (each command ends with one of _COMMAND_ENDS: a shorter text than the bound cannot reach it, and is not counted)
    return len(text) >= MAX_COMMANDS and sum(text.count(c) for c in _COMMAND_ENDS) + 1 > MAX_COMMANDS


_passes: Dict[str, Tuple[tuple, bool]] = {}         # script -> (its signature, whether it passes the prefilter)
_prefilter: Optional[Callable[[str], bool]] = None      # source/prefilter.might_configure_profiling, once imported


def may_have_setups(script: str) -> bool:
    """Whether a script may hold a profiling setup, by the prefilter the flake8 plugin runs (source/prefilter.py); one
    that cannot be read may. Kept per file while its signature is the same: the scan before a launcher's walk
    (engine/launch_scan.py) and the walk's launches (shell_launches._prepared) ask of the same scripts."""
    sig = observed.note(script)         # a cached check depends on it as on a script the walk reads
    kept = _passes.get(script)
    if kept is not None and kept[0] == sig:
        return kept[1]
    global _prefilter
    if _prefilter is None:      # (not imported where nothing is looked for; kept: a `from` import in a function costs
        from ..source.prefilter import might_configure_profiling    # about 9,000 instructions at each call)
        _prefilter = might_configure_profiling
    try:
        passes = _prefilter(read_text(script))
    except (OSError, ReadError, ValueError):
        passes = True
    if len(_passes) >= 4096:
        _passes.clear()
    _passes[script] = (sig, passes)
    return passes
