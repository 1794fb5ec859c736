"""A launch whose script the launcher copies into the folder it runs it in: `mkdir ./train; cp ../*.py ./train;
cd ./train; python train.py` (about 120 standalone launchers of mindspore-ai/models' scripts/ do it, 390-odd with
their eval and per-rank ones). The folder is made by the run, so the script is not there to read before it; the
file the launcher copies is, and that is the script the launch runs (in the copy's folder).

Only an unconditional `cp` met before the launch is followed, whose operands are all known: its last operand is the
destination, each other one a file or a glob bash expands where the `cp` runs (a quoted one is not expanded).
The copy lands at DEST/NAME where DEST is a folder (in the tree, or made by an unconditional `mkdir` before the `cp`),
or at DEST itself where a single file is copied to a path that is none (bash 5.2, GNU cp: `cp ../*.py ./train` with
no ./train made a file named train, and `cd ./train` failed). The last `cp` wins; within one `cp`, the first file of a
name does (GNU cp 9.1 will not overwrite a file it has just created: `cp */x.py d/` keeps a/x.py, refuses b/x.py).

In a counted loop's body (`mkdir ./d$i; cp ../*.py ./d$i; cd ./d$i; python train.py`) the commands are read as the
loop's first round runs them (the walk's round_words): the copy lands in round 1's folder, where the launch runs in that
round; a `cp` whose files are other ones each round (`cp ../cfg$i.py ./d$i`) is not followed.

A glob is expanded in at most MAX_GLOB_FOLDERS folders (`cp /*/*/*/*.py d/` would list much of the file system); past
that its copy is not followed, and the launch that may have run it says so.
"""

from __future__ import annotations

import glob
import os
from typing import Dict, Optional, Tuple

from ..shell.launches import Launch
from ..shell.parse import without_redirections
from ..shell.state import Command
from ..shell.walk import Walk
from ..source import fence
from ..source.text import StrValue
from ..values.launch_args import Word

# cp's options that take the next word (GNU coreutils 9: --target-directory/-t changes which operand is the
# destination, -S a suffix): a command using them is not followed
_UNFOLLOWED = ("-t", "--target-directory", "-S", "--suffix", "-T", "--no-target-directory")
MAX_GLOB_FOLDERS = 256      # folders a glob's wildcards are matched in, for one operand


class _Unbounded(Exception):
    """A glob operand that would look in more than MAX_GLOB_FOLDERS folders (its text)."""


def copied(w: Walk, launch: Launch) -> Optional[Tuple[Launch, str]]:
    """(the launch running the file the launcher copies to where it looks for its script, what to say of it), or
    None where the script is not found for another reason or no copy lands there. Where a copy that may land there
    has a glob too wide to expand, the launch stays unfound, saying so, with nothing to say of a copy."""
    if not launch.unfound or not launch.named or not launch.command.cwd or os.path.isabs(launch.named):
        return None
    cmd = launch.command
    wanted = {os.path.normpath(os.path.join(d, launch.named)): d for d in cmd.cwd}
    hit: Optional[Tuple[str, str, Command]] = None
    wide: Optional[Tuple[str, Command]] = None
    # a copy that may land there, from a source not followed: another file each round, or one not known statically
    computed: Optional[Tuple[Command, str]] = None
    texts: Dict[str, str] = {}
    for c in w.commands:
        if c.seq >= cmd.seq:
            continue
        if not c.words or c.words[0].text != "cp" or c.conditional or len(c.cwd) > 1:
            continue
        c, varies = _first_round(w, c)
        c = _placed(w, c)
        if not c.cwd:
            continue
        operands = list(without_redirections(c.words))
        unknown = any(not x.known for x in operands[1:-1])
        if varies or unknown:
            dest = operands[-1]
            landing = os.path.normpath(os.path.join(c.cwd[0], dest.text))
            if dest.known and (landing in wanted or os.path.join(landing, os.path.basename(launch.named)) in wanted):
                r = c.rounds or cmd.rounds
                hit, wide, computed = None, None, (c, "it copies another file each round" + (
                    f" of the loop at {_rel(r.path, w.root)}:{r.line}" if r else "") if varies else
                    "what it copies is named by a value not known statically")
            continue
        landed: Dict[str, str] = {}
        try:
            for source, landing in _copies(c, texts, _made(w, c)):
                landed.setdefault(landing, source)          # the first of a name is kept
        except _Unbounded as e:
            if _may_land(c, _made(w, c), wanted, launch.named):
                hit, wide = None, (str(e), c)
            continue
        for landing, source in landed.items():
            if landing in wanted:
                hit, wide, computed = (source, wanted[landing], c), None, None
    if wide is not None:
        pattern, c = wide
        return launch._replace(missing=(
            f"{launch.missing}; the launcher's `{' '.join(x.text for x in c.words)}` ({_rel(c.path, w.root)}:{c.line}) "
            f"may copy it there, but its glob {pattern} is not expanded here: it looks in more than "
            f"{MAX_GLOB_FOLDERS} folders")), ""
    if computed is not None:
        c, why = computed
        return launch._replace(missing=(f"{launch.missing}; the launcher's `{_written(c, texts)}` "
                                        f"({_rel(c.path, w.root)}:{c.line}) may copy it there, but {why}: not "
                                        "followed")), ""
    if hit is None:
        return None
    source, here, c = hit
    words = cmd.words
    shown = ' '.join(x.text for x in c.words) if c.seq not in w.round_words else _written(c, texts)
    k = next((i for i, x in enumerate(words) if x.text == launch.named), None)
    if k is None:
        return None
    # both named from where the `cp` runs, as its own words name them (the launcher's folder is not where a launcher
    # started from the project's root copies: `cp ./*.py ./train0` there was "into ../train0 from train.py")
    said = (f"the launcher copies {launch.named} into {_rel(here, c.cwd[0])} from {_rel(source, c.cwd[0])} "
            f"(`{shown}`, {_rel(c.path, w.root)}:{c.line}): emulated from that file")
    return Launch(cmd._replace(cwd=(here,)), source, tuple(words[k + 1:]), launch.wrapper, launch.ranks,
                  launch.msprof, module=launch.module), said


def _rel(path: str, folder: str) -> str:
    return os.path.relpath(path, folder).replace(os.sep, "/")


def _first_round(w: Walk, c: Command) -> Tuple[Command, bool]:
    """c as its loop's first round runs it, where the walk read the words of its counted loop's body round by round
    (Walk.round_words), and whether a file it copies is another one each round (a computed source)."""
    per = w.round_words.get(c.seq)
    if per is None:
        return c, False
    operands = [k for k, x in enumerate(c.words) if k and not x.text.startswith("-")]
    for k in operands[:-1] if c.words[0].text == "cp" else ():
        if per[k] == ():
            continue                # not known (the caller says so)
        texts = per[k] or (c.words[k].text,) * len(c.rounds.dirs if c.rounds else (0,))
        varies = len({os.path.normpath(os.path.join(d, t)) for d, t in zip(c.rounds.dirs, texts)}) > 1 \
            if c.rounds is not None else len(set(texts)) > 1
        if varies:
            break
    else:
        varies = False
    return c._replace(words=tuple(Word(StrValue(t[0], [], x.start, x.end, origin="shell"), x.start, x.end)
                                  if t else x for x, t in zip(c.words, per))), varies


def _placed(w: Walk, c: Command) -> Command:
    """c where the folder it runs in is not known but each path it names is absolute (`cp $DIR/../train.py
    $DIR/../work/device$i` in a loop whose rounds begin in the folder the one before went to): placed in the launcher's
    folder, from where its paths are shown."""
    if c.cwd or not all(x.known and (x.text.startswith("-") or os.path.isabs(x.text))
                        for x in list(without_redirections(c.words))[1:]):
        return c
    return c._replace(cwd=(w.root,))


def _written(c: Command, texts: Dict[str, str]) -> str:
    """The command as the launcher writes it (`cp ../*.py ./train_parallel$i`)."""
    _quoted(c.path, c.words[0], texts)
    return texts[c.path][c.words[0].start:c.words[-1].end]


def _made(w: Walk, c: Command) -> Dict[str, bool]:
    """The folders a `mkdir` before the `cp` c makes: True where it runs whatever happens, False under a condition."""
    made: Dict[str, bool] = {}
    for m in w.commands:
        if m.seq >= c.seq or not m.words or m.words[0].text != "mkdir" or len(m.cwd) > 1:
            continue
        m = _placed(w, _first_round(w, m)[0])
        if not m.cwd:
            continue
        for x in list(without_redirections(m.words))[1:]:
            if x.known and not x.text.startswith("-"):
                folder = os.path.normpath(os.path.join(m.cwd[0], x.text))
                made[folder] = made.get(folder, False) or not m.conditional
    return made


def _may_land(c: Command, made: Dict[str, bool], wanted: Dict[str, str], named: str) -> bool:
    """Whether a file named as the script, copied by c into its destination folder, would be where it is looked for."""
    dest = list(without_redirections(c.words))[-1]
    if not dest.known:
        return False
    folder = os.path.normpath(os.path.join(c.cwd[0], dest.text))
    return (os.path.isdir(folder) or bool(made.get(folder))) and \
        os.path.join(folder, os.path.basename(named)) in wanted


def _expand(pattern: str) -> list:
    """The files and folders bash's glob of pattern names, sorted (glob's rules: a leading dot is matched only
    by a dot), or _Unbounded where its wildcards would be matched in more than MAX_GLOB_FOLDERS folders."""
    absolute = pattern.startswith("/")
    found = ["/" if absolute else ""]
    looked = 0
    for part in (pattern[1:] if absolute else pattern).split("/"):
        if not glob.has_magic(part):
            found = [os.path.join(d, part) for d in found]
            continue
        looked += len(found)
        if looked > MAX_GLOB_FOLDERS:
            raise _Unbounded
        found = [p for d in found for p in sorted(glob.glob(os.path.join(glob.escape(d), part)))]
    return sorted(p for p in found if os.path.lexists(p))


def _copies(c: Command, texts: Dict[str, str], made: Dict[str, bool]):
    """(source file, where its copy lands) for each regular file the `cp` command c copies: into the destination
    where it is a folder (in the tree, or made by a `mkdir` before), else as the destination where one file is copied
    (GNU cp: several files to a path that is no folder is an error, and nothing is copied)."""
    operands, options = [], True
    for x in list(without_redirections(c.words))[1:]:
        if not x.known:
            return
        if options and x.text == "--":
            options = False
        elif options and x.text.startswith("-") and x.text != "-":
            if x.text.startswith(_UNFOLLOWED):
                return
        else:
            operands.append(x)
    if len(operands) < 2:
        return
    base = c.cwd[0]
    dest = os.path.normpath(os.path.join(base, operands[-1].text))
    sources = []
    # a folder not in the tree is one the run made (`mkdir ./d$i; cd ./d$i; cp ../../*.py ./`: the cd succeeded), no
    # link: `..` through it is read as written
    made_by_run = not os.path.isdir(base)
    for x in operands[:-1]:
        pattern = os.path.join(base, x.text)
        if made_by_run:
            pattern = os.path.normpath(pattern)
        if any(ch in x.text for ch in "*?[") and not _quoted(c.path, x, texts):
            try:
                sources += _expand(pattern)
            except _Unbounded:
                raise _Unbounded(x.text) from None
        else:
            sources.append(pattern)
    files = [os.path.normpath(s) for s in sources if os.path.isfile(s)]
    folder = True if os.path.isdir(dest) else made.get(dest)
    if folder is None and len(sources) == 1 and len(files) == 1:
        yield files[0], dest                    # `cp a.py b.py`: the copy is named as the destination
    elif folder:
        for f in files:
            yield f, os.path.join(dest, os.path.basename(f))


def _quoted(path: str, word, texts: Dict[str, str]) -> bool:
    """Whether the word is written with a quote or a backslash, which keeps bash from expanding its glob."""
    if path not in texts:
        try:
            fence.check(path)
            with open(path, encoding="utf-8", errors="replace") as fh:
                texts[path] = fh.read()
        except OSError:
            texts[path] = ""
    written = texts[path][word.start:word.end]
    return not written or any(ch in written for ch in "'\"\\")
