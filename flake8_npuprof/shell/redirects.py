"""Redirections bash fails to open: a launch whose `> DIR/x.log` names a folder that is not there is never started.

bash opens a command's redirections, in order, before it runs the command (on a function call or a child script's
run, before any of its commands); where one cannot be opened ("No such file or directory": a folder on the way is
not there) it starts nothing (data/sources.json shell.redirection_open). The walk knows the tree as it is now: a
folder it lacks may still be made before the launch by a command it runs first (`mkdir`, or any program it does not
model: a Python preparation step, `tar`, `cp -r`). So a launch is said not to start only where nothing before could
have made the folder; where something could, whether it starts is unknown, with which folder and what may make it.
A target not known statically (`> $LOG_DIR/x.log` from the caller) or under /dev is not judged.
"""

from __future__ import annotations

import functools
import json
import os
import re
from typing import Iterator, List, NamedTuple, Optional, Tuple

from ..source.text import HOLE, StrValue
from ..values.launch_args import Word

FACTS = ("shell.redirection_open",)     # data/sources.json (tests/test_audit.py)
# operator words as the walk splits them (shell/words.py: an operator ends its word): output to a file, input
# (patterns, compiled where a redirection is first met; `<>` opens for writing too, making the file)
_OUT = r"\d*(?:>|>>|>\||<>)|&>|&>>"
_IN = r"\d*<"


class Maker(NamedTuple):
    """A command the walk met that may make a folder: a program it does not model (folders None), or a `mkdir`
    (its folders, each with whether -p makes the ones above it)."""
    seq: int                    # the number of commands walked before it (Command.seq of the next one)
    path: str
    line: int
    shown: str                  # the command as the answer names it
    folders: Optional[Tuple[Tuple[str, bool], ...]] = None
    # a `mkdir` of its own in a branch of an `if`: the launcher's way to make it where it is not there (`if [ ! -d D ];
    # then mkdir D; fi`, or made in both arms of an if/else), taken to make it as emulate did before (not judged)
    branch: bool = False
    early: bool = False         # it runs before the command of this seq (a command substitution in its words, a
    #                             script sourced and not read)


class Outer(NamedTuple):
    """The redirections of a function call, a child script's run or a compound command (`{ ...; } > log`, `done >
    log`, `( ... ) > log`): bash opens them before any command in it (a loop's words, an `if`'s condition)."""
    first: int                  # the seqs of the commands it ran: first <= seq < end
    end: int
    pairs: Tuple[Tuple[str, Word], ...]
    dirs: Tuple[str, ...]       # where the call was made
    path: str
    line: int
    made: frozenset             # Walk.made_here then
    # a failure to open one certainly stops the shell it is opened in (set -e, not after && or ||, in the background or
    # piped), that shell being the launch's after its first `depth` child runs (Command.frames)
    errexit: bool = False
    depth: int = 0
    # a compound's: whether it is in a loop or a pipeline (None: as its commands are, for a call or child run)
    looped: Optional[bool] = None
    piped: Optional[bool] = None


class Removal(NamedTuple):
    """An `rm -r` (or `rmdir`) the walk met: the folders it names, which it removes with all below them."""
    seq: int                    # Command.seq of the rm: it runs before the commands of higher seqs
    paths: Tuple[str, ...]      # absolute; HOLE for a part not known, and a glob as written where not sure
    sure: bool                  # it certainly runs, in the folder known, and removes each path that is there
    shown: str                  # the command as written
    path: str
    line: int


def removes(folder: str, paths: Tuple[str, ...]) -> bool:
    """Whether removing these paths (Removal.paths) may remove the folder: it or a folder above it matches one."""
    ups = [folder]
    while os.path.dirname(ups[-1]) != ups[-1]:
        ups.append(os.path.dirname(ups[-1]))
    for p in paths:
        if HOLE in p or any(c in p for c in "*?["):
            import fnmatch
            if any(fnmatch.fnmatchcase(up, p.replace(HOLE, "*")) for up in ups):
                return True
        elif p in ups:
            return True
    return False


class Unopened(NamedTuple):
    """A launch's redirection that names a folder (or, for `<`, a file) that is not there."""
    sure: bool                  # nothing before could make it: bash certainly does not start the launch
    why: str
    by: Optional[Outer] = None  # the call, child run or compound it is a redirection of (None: the launch's own)


@functools.lru_cache(maxsize=None)
def folderless() -> frozenset:
    """The commands that make no folder (data/folderless_commands.json)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                        "folderless_commands.json")
    with open(path, encoding="utf-8") as fh:
        return frozenset(json.load(fh)["commands"])


def pairs(text: str, words) -> Tuple[Tuple[str, Word], ...]:
    """(operator, target) of each redirection to or from a file among a command's words: an operator is a word
    written as one (not a quoted `">"` or an expansion's value), its target the next word. A target written that
    expands to no word (`> $L`, L empty) or to several is given as written, its origin AMBIGUOUS."""
    out = []
    for k, w in enumerate(words):
        if ">" not in w.text and "<" not in w.text or text[w.start:w.end] != w.text:
            continue
        if not (re.fullmatch(_OUT, w.text) or re.fullmatch(_IN, w.text)) and k + 1 < len(words):
            target = words[k + 1]
            if w.text == ">&" and target.text[:1] not in ("<", ">") and not re.fullmatch(r"\d+|-", target.text):
                out.append((w.text, target))        # (not a copy: `2>&1`, `>&-`)
            continue
        if not (re.fullmatch(_OUT, w.text) or re.fullmatch(_IN, w.text)):
            continue
        written = _written(text, w.end)
        if k + 1 < len(words) and (written is None or words[k + 1].start == written[0]):
            target = words[k + 1]
            if target.text[:1] in ("<", ">"):
                continue            # (`< <(cmd)`: a process substitution, split at its `<`)
            if written is not None and k + 2 < len(words) and words[k + 2].start == target.start:
                out.append((w.text, _ambiguous(text, *written)))     # (`L="a b"; cmd > $L`: split in two)
                continue
            out.append((w.text, target))
        elif written is not None:
            out.append((w.text, _ambiguous(text, *written)))     # (`L=; cmd > $L 2>&1`: expanded to no word)
    return tuple(out)


AMBIGUOUS = "ambiguous"     # StrValue.origin of a target that expands to no word or to several


def _ambiguous(text: str, start: int, end: int) -> Word:
    return Word(StrValue(text[start:end], [], start, end, origin=AMBIGUOUS), start, end)


def _written(text: str, at: int) -> Optional[Tuple[int, int]]:
    """Where the word written after an operator ending at `at` is: (start, end), its quotes read; None where none
    is (the line or list ends) or it is a process substitution."""
    start = at
    while start < len(text) and text[start] in " \t":
        start += 1
    if start >= len(text) or text[start] in "\n;&|()<>#" or text.startswith("\\\n", start):
        return None
    end, quote = start, ""
    while end < len(text):
        c = text[end]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\" and quote == '"':
                end += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            end += 1
        elif c in " \t\n;&|()<>":
            break
        end += 1
    return start, min(end, len(text))


def in_tree(folder: str) -> bool:
    from ..source.observed import note      # recorded: a cached check depends on what is found here
    return note(folder)[0] == "dir"


def made_folder(folder: str, made, gone: Tuple[str, ...] = ()) -> bool:
    """Whether a folder is there when the walk reaches a command: in the tree (and not removed by an `rm` before:
    gone, the paths of those certain to), or made by the walk (made: Walk's made_here when it was met) in a folder
    that is there."""
    while not in_tree(folder) or gone and removes(folder, gone):
        if folder not in made:
            return False
        if folder == os.path.dirname(folder):
            break               # (`/`, where an rm of any folder was met and a `mkdir -p` after it)
        folder = os.path.dirname(folder)
    return True


def _on_the_way(written: str, cwd: str) -> Iterator[Tuple[int, Optional[str], bool]]:
    """(index of the part, folder, whether the part enters it) for each folder a target's path, as written, reaches
    from where it starts (`..` reaches the parent, entering none); folder None where a `..` leaves a link (its
    target's parent, which is not judged here), and nothing after it."""
    parts = written.split("/")
    folder = "/" if written.startswith("/") else cwd
    for n, part in enumerate(parts[:-1]):
        if part in ("", "."):
            continue
        if part == "..":
            if os.path.islink(folder):
                yield n, None, False
                return
            folder = os.path.dirname(folder)
            yield n, folder, False
            continue
        folder = os.path.join(folder, part)
        yield n, folder, True


def _absent(written: str, cwd: str, made, reading: bool, gone: Tuple[str, ...]) -> Optional[str]:
    """The part of a redirection's target, as written, that is not there when the walk reaches it: the first folder
    on the way that is neither in the tree nor made (made: Walk.made_here then), or for `<` the file itself. None
    where each is there, or where it is not judged (a link's `..`, which is its target's parent)."""
    from ..source.observed import exists
    if not made_folder(cwd, made):
        return None             # (the walk's own directory is not known to be there: its `cd` may have failed)
    parts = written.split("/")
    folder: Optional[str] = "/" if written.startswith("/") else cwd
    for n, folder, enters in _on_the_way(written, cwd):
        if folder is None:
            return None
        if enters and not made_folder(folder, made, gone):
            return "/".join(parts[:n + 1])
    if reading and parts[-1] and folder is not None and not exists(os.path.join(folder, parts[-1])):
        return written
    return None


def _may_make(m: Maker, folder: str) -> bool:
    if m.folders is None:
        return True
    return any(f == folder or parents and f.startswith(folder.rstrip("/") + "/") for f, parents in m.folders)


def unopened(w, cmd, text: str) -> Optional[Unopened]:
    """Whether a launch's command (or the call or child run it is in) has a redirection bash cannot open, and whether
    that is certain (w: the Walk, cmd: its Command, text: its file's text as the walk read it): one that certainly
    fails is the answer, else the first that may."""
    found = list(_unopened(w, cmd, text))
    return next((u for u in found if u.sure), found[0] if found else None)


class _Probe(NamedTuple):
    """What _unopened reads of a Command, for a compound judged on its own (fails_to_open)."""
    seq: int
    words: tuple = ()


def fails_to_open(w, outer: Outer) -> bool:
    """Whether a compound's redirection certainly cannot be opened (w: the Walk as it closes the compound): bash runs
    nothing in it, and under set -e stops there."""
    return any(u.sure for u in _unopened(w, _Probe(outer.first), "", outer))


def _unopened(w, cmd, text: str, only: Optional[Outer] = None) -> Iterator[Unopened]:
    from ..source.files import rel_path
    found: List[Tuple[tuple, Tuple[str, ...], frozenset, int, str, int, Optional[Outer]]] = [
        (o.pairs, o.dirs, o.made, o.first, o.path, o.line, o) for o in ((only,) if only else w.outer)
        if o.first <= cmd.seq < o.end]
    own = pairs(text, cmd.words) if only is None and any(">" in x.text or "<" in x.text for x in cmd.words) \
        else ()
    if own:
        found.append((own, cmd.cwd, cmd.made, cmd.seq, cmd.path, cmd.line, None))
    for redirections, dirs, made, before, path, line, by in found:
        removals = [r for r in w.removed if r.seq < before] if w.removed else []
        gone_paths = tuple(p for r in removals if r.sure for p in r.paths)
        # (a compound's place decides: a loop it is the body of, a pipeline in it, run after it opened them)
        looped = by.looped if by is not None and by.looped is not None else cmd.seq in w.looped or before in w.looped
        piped = by.piped if by is not None and by.piped is not None else cmd.seq in w.piped
        if len(dirs) != 1:
            continue
        for op, target in redirections:
            where = f"{rel_path(path, w.root)}:{line}"
            head = cmd.words[0].text if cmd.words else ""
            name = (cmd.words[1].text if head == "exec" and len(cmd.words) > 1 else head) or "the command"
            if (target.value.origin == AMBIGUOUS or target.text == "" and target.end > target.start) and \
                    not looped and head != "exec":
                # `L=; cmd > $L` (no word: bash 5.2 "$L: ambiguous redirect"), `> "$L"` (an empty name: ": No such
                # file or directory"): status 1, cmd not started (in a loop a later round's value may differ)
                written = target.text or text[target.start:target.end] or chr(34) * 2
                yield Unopened(True, f"`{op} {written}` ({where}) " + (
                    f"expands to no word or to several: bash reports \"{written}: ambiguous redirect\""
                    if target.value.origin == AMBIGUOUS else "expands to an empty file name: bash reports \": No such "
                                                             "file or directory\"") + f" and does not start {name}", by)
                continue
            if HOLE in target.text or not target.text or target.text.startswith("/dev/") or \
                    any(c in target.text for c in "*?[{(") or target.value.origin == AMBIGUOUS:
                continue        # (a glob or brace bash may expand to a file there, a process substitution)
            gone = _absent(target.text, dirs[0], made, re.fullmatch(_IN, op) is not None, gone_paths)
            fails = f"bash reports \"No such file or directory\" and does not start {name}"
            if gone is None:
                # a folder of the tree on the way that an `rm` before may remove (its words not known, under a
                # condition, in a loop, in the background, a glob)
                maybe = _removed_by(target.text, dirs[0], made, [r for r in removals if not r.sure]) \
                    if removals else None
                if maybe is not None:
                    part, r = maybe
                    yield Unopened(False, f"`{op} {target.text}` ({where}) names the folder {part}" +
                                   ("" if os.path.isabs(part) else f" (the command runs in {dirs[0]})") +
                                   f", which is in the tree; `{r.shown}` ({rel_path(r.path, w.root)}:{r.line}) runs "
                                   f"before and may remove it: if it does, {fails}")
                continue
            folder = os.path.normpath(os.path.join(dirs[0], gone))
            what = "the file" if gone == target.text and re.fullmatch(_IN, op) else "the folder"
            said = f"`{op} {target.text}` ({where}) names {what} {gone}" + \
                ("" if os.path.isabs(gone) else f" (the command runs in {dirs[0]})")
            # (a folder of the tree is not there where an `rm` before certainly removed it)
            rm = next((r for r in reversed(removals) if r.sure and removes(folder, r.paths)), None) \
                if gone_paths and in_tree(folder) else None
            lacking = "which is not in the tree" if rm is None else \
                f"which `{rm.shown}` ({rel_path(rm.path, w.root)}:{rm.line}) removes before"
            makers = [m for m in w.makers if (m.seq < before or m.early and m.seq == before) and
                      _may_make(m, folder)]
            if any(m.branch for m in makers):
                continue        # (a branch of an `if` makes it: not judged, see Maker.branch)
            if what == "the file":
                yield Unopened(False, f"{said}, {lacking}; a command before may write it: if none "
                                      f"does, {fails}")
            elif makers:
                m = makers[-1]
                yield Unopened(False, f"{said}, {lacking}; `{m.shown}` "
                                      f"({rel_path(m.path, w.root)}:{m.line}) runs before and may make it: if it "
                                      f"does not, {fails}")
            elif looped:
                yield Unopened(False, f"{said}, {lacking}; it is in a loop, whose commands after it "
                                      f"may make it before a later round: if none does, {fails}")
            elif piped:
                yield Unopened(False, f"{said}, {lacking}; the other commands of its pipeline run at "
                                      f"the same time (what they make is not followed here): if none makes it, "
                                      f"{fails}")
            elif head == "exec":
                # (the walk took `exec` to end the shell; bash 5.2 went on after a failed one: what follows is unread)
                yield Unopened(False, f"{said}, which is not there: {fails}, and goes on with the commands after it, "
                                      f"which are not followed here (exec would have ended the launcher)")
            else:
                yield Unopened(True, (f"{said}, which is not there (not in the tree, and nothing the launcher runs "
                                      f"before makes it): {fails}") if rm is None else
                               f"{said}, {lacking}, and nothing the launcher runs after makes it again: {fails}", by)


def _removed_by(written: str, cwd: str, made, removals: List[Removal]) -> Optional[Tuple[str, Removal]]:
    """The first folder of the tree on a target's way that one of these removals may remove (the part as written,
    and the last such removal), where the walk did not make it since; None where there is none."""
    if not made_folder(cwd, made):
        return None
    for n, folder, enters in _on_the_way(written, cwd):
        if folder is None:
            return None
        if not enters or folder in made:
            continue
        r = next((r for r in reversed(removals) if removes(folder, r.paths)), None)
        if r is not None:
            return "/".join(written.split("/")[:n + 1]), r
    return None


def maker_of(words: List[Word], dirs: Tuple[str, ...], path: str, line: int, seq: int,
             branch: bool = False) -> Optional[Maker]:
    """The Maker a command is (None: one that makes no folder)."""
    head = words[0].text if words else ""
    if head in folderless():
        return None
    upto = next((k for k, x in enumerate(words[1:3], 1) if not x.text.startswith("-")), 1)    # `mkdir -p DIR`
    shown = " ".join(x.text for x in words[:upto + 1]).replace(HOLE, "<unknown>")
    if head != "mkdir" or len(dirs) != 1:
        return Maker(seq, path, line, shown[:80])
    from .parse import without_redirections
    parents, folders = False, []
    for x in without_redirections(words[1:]):
        if not x.known:
            return Maker(seq, path, line, shown[:80])
        if x.text.startswith("-"):
            parents = parents or x.text == "--parents" or bool(re.fullmatch(r"-[a-zA-Z]*p[a-zA-Z]*", x.text))
        else:
            folders.append(os.path.normpath(os.path.join(dirs[0], x.text)))
    return Maker(seq, path, line, shown[:80], tuple((f, parents) for f in folders), branch)     # (-p anywhere: for all)
