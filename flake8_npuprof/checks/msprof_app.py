"""msprof's application words (NPP128): an msprof option written where msprof does not read it.

msprof reads its own options up to the first word that is not one of them; that word starts the
application and every word after it is the application's (SplitApplicationArgv, knowledge/msprof_parser.py
`split` for CANN 8.5+, per version; msprof_words.parse for 7.0/8.0). With `--application="..."` the
application is the option's value, split at blanks. An msprof option among the application's words is
never read by msprof:
- between a Python interpreter and its script (`python3 --task_time=l1 train.py`) it is an option of the
  interpreter: CPython's getopt (Python/getopt.c) knows only a few long options, exactly spelt, and on any
  other it prints "unknown option --task_time=l1" and its usage and exits with status 2 (run with CPython
  3.9-3.13) before the script starts: nothing is profiled;
- after the script it is the script's: whether the script defines such a flag, and how it reads its arguments
  (parse_args exits, parse_known_args does not), is read by the launcher walk (checks/msprof_args.py), which
  follows the script; here it is left alone;
- in another application (a binary, `bash run.sh`) msprof hands it over and does not read it.
"""

from __future__ import annotations

import re
from typing import List, NamedTuple, Optional, Sequence, Tuple

from ..knowledge import msprof_parser as P
from ..knowledge.msprof_options import all_options
from ..knowledge.targets import Target
from ..source.said import Said, clause, logged, said, so
from ..source.text import HOLE
from ..shell.msprof_words import Call, Word

CODE = "NPP128"
# the interpreters whose option parsing we know (CPython's Python/getopt.c), by their name
PYTHON = re.compile(r"(?:.*/)?python(?:3(?:\.\d+)?)?$")
# CPython's own long options (3.9-3.13): whether each takes the next word; short ones that take a value
_PY_LONG = {"help": False, "version": False, "check-hash-based-pycs": True, "help-env": False,
            "help-xoptions": False, "help-all": False}
_PY_SHORT_VALUE = set("WX")
_PY_SHORT_END = set("cm")           # -c cmd, -m mod: the rest is theirs
# msprof option names an application may well define for itself: in an application we do not read, such a
# word is not taken for a misplaced msprof option
GENERIC = {"help", "output", "type", "pid", "delay", "duration", "environment", "application", "rule", "scale",
           "reports", "parse", "query", "export", "clear", "analyze", "summary-format", "python-path", "model-id",
           "iteration-id", "dynamic", "storage-limit", "l2", "optype", "aicpu", "hccl"}
SHELLS = {"bash", "sh", "zsh", "ksh", "dash"}
ENDS = "(msprof's options end at the first word that is not one of them; every word after it is the application's)"


class Misplaced(NamedTuple):
    word: Word
    i: int                      # the span in word.text
    j: int
    said: Said                  # what it says (source/said.py)
    effect: str                 # "app_exits" (the application exits before it runs anything) or "ignored"


# what msprof does with an option of its own it finds among the application's words
_PASSED_ON = clause("msprof passes it to the application without reading it",
                    so("msprof collects without this setting"))

def _fold(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def msprof_name(text: str) -> Optional[str]:
    """The msprof option a `--name[=value]` word spells (exactly, or up to case, `_` and `-`), or None."""
    if not text.startswith("--") or HOLE in text:
        return None
    name = text[2:].partition("=")[0]
    if not name:
        return None
    names = all_options()
    if name in names:
        return name
    folded = _fold(name)
    return next((o for o in sorted(names) if _fold(o) == folded), None)


def hint(text: str, name: str, before: str) -> str:
    written = text[2:].partition("=")[0]
    if written == name:
        return f"move it before {before}"
    return f"write msprof's --{name} before {before}"


def app_start(texts: Sequence[str], version: str) -> Optional[int]:
    """Where the application starts among msprof's words on a version (None: no positional application)."""
    if version in P.versions():
        _, start = P.split(texts, version)
        return start if start < len(texts) else None
    k = 0
    while k < len(texts):           # msprof_words.parse: `--name value` counts as two of msprof's words
        t = texts[k]
        if t.startswith("--") and len(t) > 2:
            k += 2 if "=" not in t and k + 1 < len(texts) and not texts[k + 1].startswith("--") else 1
            continue
        return k
    return None


def python_slot(app: Sequence[str]) -> Tuple[Optional[int], Optional[int]]:
    """CPython's getopt over app[1:]: (index of the word it exits on as an unknown long option, index of the
    script). Either is None when there is none or it cannot be known (an expansion, -m, -c)."""
    k = 1
    while k < len(app):
        w = app[k]
        if HOLE in w:
            return None, None
        if not w.startswith("-") or w == "-":
            return None, k
        if w == "--":
            return None, (k + 1 if k + 1 < len(app) else None)
        if w.startswith("--"):
            takes = _PY_LONG.get(w[2:])
            if takes is None:
                return k, None
            if not takes:
                return None, None       # --help, --version: it prints and exits
            k += 2
            continue
        rest = w[1:]
        for n, ch in enumerate(rest):
            if ch in _PY_SHORT_END:
                return None, None
            if ch in _PY_SHORT_VALUE:
                k += 1 if n + 1 < len(rest) else 2
                break
        else:
            k += 1
    return None, None


def check_app(call: Call, target: Target) -> List[Misplaced]:
    """The msprof options among the application's words that msprof never reads (not those after a Python
    script: msprof_launch.misplaced_in_script reads the script for them)."""
    if not call.complete or not call.words:
        return []
    texts = tuple(w.text for w in call.words)
    named = [o for o in call.options if o.name == "application" and o.value]
    out: List[Misplaced] = []
    if named:
        out.extend(_in_application(call, named[-1], target))
    given = {o.name for o in call.options}
    by_word: dict = {}
    for v in target.versions:
        start = app_start(texts, v)
        if start is None:
            continue
        for hit in _positional(call, start, given):
            by_word.setdefault((id(hit.word), hit.i), []).append((v, hit))
    for hits in by_word.values():
        if target.fails_on({v for v, _ in hits}):
            out.append(next((h for v, h in hits if v == target.cann), hits[-1][1]))
    return out


def _positional(call: Call, start: int, given) -> List[Misplaced]:
    words = call.words[start:]
    app = [w.text for w in words]
    head = app[0]
    if HOLE in head:
        return []
    if PYTHON.match(head):
        exits, _ = python_slot(app)
        if exits is None:
            return []
        w = words[exits]
        name = msprof_name(w.text)
        if name is None or name in given:
            return []
        ahead = next((t for t in app[exits + 1:] if not t.startswith("-")), None)
        runs = f"{ahead} never runs" if ahead and HOLE not in ahead else "its script never runs"
        return [Misplaced(w, 0, len(w.text), said(
            f"{w.text} comes after {head}, where the application's words begin",
            clause(f"{head} reads it as an option of its own before its script and exits with status 2",
                   logged(f' ("unknown option {w.text}", then its usage)'), so(f"{runs} and nothing is profiled")),
            f"{hint(w.text, name, head)} {ENDS}"),
            "app_exits")]
    base = head.rsplit("/", 1)[-1]
    if base.startswith(("python", "pypy")):
        return []                   # an interpreter whose option parsing we have not read (python2, pypy...)
    first = 1
    if base in SHELLS:              # the shell's own options come before its script: not read here
        first = next((k for k, t in enumerate(app) if k and not t.startswith("-")), len(app))
    out = []
    for w in words[first:]:
        name = msprof_name(w.text)
        if name is None or name in GENERIC or name in given:
            continue
        out.append(Misplaced(w, 0, len(w.text), said(
            f"{w.text} comes after {head}, where the application's words begin",
            _PASSED_ON,
            f"{hint(w.text, name, head)} {ENDS}"), "ignored"))
    return out


def _in_application(call: Call, opt, target: Target) -> List[Misplaced]:
    """Words inside `--application="..."`: msprof splits the value at blanks and hands it to the application."""
    value = opt.value
    if HOLE in value:
        return []
    pieces: List[Tuple[int, str]] = []
    at = 0
    for piece in value.split(" "):
        if piece:
            pieces.append((at, piece))
        at += len(piece) + 1
    if not pieces:
        return []
    app = [p for _, p in pieces]
    head = app[0]
    given = {o.name for o in call.options}
    out = []
    if PYTHON.match(head):
        exits, _ = python_slot(app)
        if exits is None:
            return []
        offset, text = pieces[exits]
        name = msprof_name(text)
        if name is None or name in given:
            return []
        ahead = next((t for t in app[exits + 1:] if not t.startswith("-")), None)
        first_note = ""
        if any(P.facts(v)["application"] == "split_first" for v in target.versions if v in P.versions()):
            first_note = (" (msprof 8.5 and 9.0 take the word after the interpreter for the script and refuse the line, "
                     "\"[ERROR] Script params are invalid\", when no file of that name exists)")
        i = opt.value_at + offset
        out.append(Misplaced(opt.word, i, i + len(text), said(
            f"{text} is inside --application's value, which is the application's",
            clause(f"{head} would read it as an option of its own before its script and exit with status 2",
                   logged(f' ("unknown option {text}", then its usage)'),
                   so(f"{ahead or 'its script'} would never run and nothing is profiled")),
            f"move it out of the quotes, before --application{first_note}"), "app_exits"))
        return out
    base = head.rsplit("/", 1)[-1]
    if base.startswith(("python", "pypy")):
        return []
    first = 1
    if base in SHELLS:
        first = next((k for k, t in enumerate(app) if k and not t.startswith("-")), len(app))
    for offset, text in pieces[first:]:
        name = msprof_name(text)
        if name is None or name in GENERIC or name in given:
            continue
        i = opt.value_at + offset
        out.append(Misplaced(opt.word, i, i + len(text), said(
            f"{text} is inside --application's value, which is the application's",
            _PASSED_ON,
            "move it out of the quotes, before --application"), "ignored"))
    return out


# ---------------------------------------------------------------- the rule's page

from .rule import REF_MSPROF_CLI, Rule  # noqa: E402


def _launcher(line: str) -> str:
    return ("#!/bin/bash\n# run_prof.sh: profile a short training run on one device\nexport ASCEND_DEVICE_ID=0\n"
            f"{line}\n")


RULES = (
    Rule(
        code=CODE,
        name="msprof-option-in-application",
        summary="msprof option written among the application's words, where msprof does not read it "
                "(`msprof --output=/tmp/prof python3 --task_time=l1 train.py`, inside `--application=\"...\"`)",
        default=True,
        level="error",
        what="An msprof option (exactly, or up to case, `_` and `-`) written after the word that starts the "
             "application: between `python`/`python3`/`python3.x` and its script; after the script, when the "
             "script is read and defines flags, none of which the word names or abbreviates; among the arguments "
             "of another application (except names an application may well have itself, such as `--output`); or "
             "inside `--application=\"...\"`; and, the other way round, a flag the script defines written after "
             "`--application`'s closing quote, which msprof reads as its own and refuses (beside NPP120). An option "
             "msprof itself is also given on the line is not reported. "
             "Where the application starts is decided as msprof decides it, per version (SplitApplicationArgv: "
             "a `--name` without `=` takes the next word along on 8.5 and 9.0).",
        why="msprof reads its options up to the first word that is not one of them; that word and every word "
            "after it are the application's, which msprof starts without reading them. Between the interpreter "
            "and its script the word is an option of CPython, whose getopt knows only a few long options, exactly "
            "spelt: it prints \"unknown option --task_time=l1\" and its usage and exits with status 2 before the "
            "script runs, so nothing is profiled. After the script the word is the script's: argparse's `parse_args()` "
            "exits with status 2 on it (\"error: unrecognized arguments\") and absl's `app.run` with status 1, before "
            "the code after them runs; `parse_known_args()` and `tf.app.run` leave it aside, and msprof collects "
            "without the setting; where the script's reading of its arguments is not seen, that is said. Elsewhere "
            "msprof collects without the setting, silently.",
        # (the examples' msprof lines are cases of the msprof oracle, tools/oracle/cases.py: the fixed line is one
        # the record holds)
        example=_launcher("msprof --output=/tmp/prof python3 --aic-metrics=PipeUtilization train.py --max_steps=20"),
        fixed=_launcher("msprof --output=/tmp/prof --aic-metrics=PipeUtilization python3 train.py --max_steps=20"),
        fix_safety="none",
        fix_note="Moving a word changes what msprof collects; the message says where it goes.",
        references=(REF_MSPROF_CLI,),
        group="msprof",
        language="shell",
        facts=("python.interpreter_options", "python.unknown_arguments") + tuple(
            f"msprof_parser.versions.{v}.split" for v in ("8.5", "9.0", "9.1")),
    ),
)
