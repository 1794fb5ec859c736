"""Which files a run of check, fix or add-noqa reads, and the notes it prints about them."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Dict, Iterator, List, NamedTuple, Optional, Set, Tuple

from ..source.model import Finding

from ..source.files import DEFAULT_EXCLUDE, DecodeError, ReadError, SourceFile, discover, read_source, read_stream
from .output import warn


EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class Input(NamedTuple):
    path: str                           # what per-file-ignores and kind detection see
    display: str                        # what the report shows
    source: Optional[SourceFile]
    error: str = ""                     # why it could not be read
    stdin: bool = False
    undecodable: Optional[Finding] = None   # a Python file Python cannot decode: its NPP192, a finding
    text: str = ""                      # ... and its text with what does not decode replaced (for positions)
    data: bytes = b""                   # ... and, from standard input, its bytes (fix passes them through)


def note(args, text: str) -> None:
    """A summary line, hint or warning: standard error, silenced by --quiet."""
    if not getattr(args, "quiet", False):
        warn(text)


def display(path: str) -> str:
    from .runner import _display
    return _display(path)


def _named(args) -> List[str]:
    return list(args.paths) or (["-"] if getattr(args, "stdin_filename", None) else ["."])


def given_paths(args) -> List[str]:
    from ..source.config import UsageError
    paths = _named(args)
    if paths.count("-") > 1:
        raise UsageError("standard input (-) can be read once")
    for path in paths:
        if path != "-" and not os.path.lexists(path):
            raise UsageError(f"{path}: no such file or directory")
    if getattr(args, "stdin_filename", None) and "-" not in paths:
        raise UsageError("--stdin-filename names standard input: give - among the paths (or no path)")
    return paths


def _patterns(text: Optional[str]) -> Tuple[str, ...]:
    return tuple(p.strip() for p in (text or "").split(",") if p.strip())


def exclude_patterns(args, config) -> Tuple[str, ...]:
    """--exclude replaces the defaults and --extend-exclude adds to them, as in flake8; a pattern with
    a `/` is a path, relative to the configuration file's folder (from the file) or the working
    directory (from the command line)."""
    def rooted(patterns, base):
        return tuple(os.path.join(base, p) if "/" in p else p for p in patterns)
    cwd = os.getcwd()
    if getattr(args, "exclude", None) is not None:
        base = rooted(_patterns(args.exclude), cwd)
    elif config is not None and config.exclude is not None:
        base = rooted(config.exclude, config.base())
    else:
        base = DEFAULT_EXCLUDE
    extend = rooted(config.extend_exclude, config.base()) if config is not None else ()
    return base + extend + rooted(_patterns(getattr(args, "extend_exclude", None)), cwd)


def inputs(args, config) -> Iterator[Input]:
    for path in input_paths(args, config):
        yield read_input(args, path)


def input_paths(args, config) -> List[str]:
    """The files a run reads, found but not yet read (a long run reads each when its turn comes)."""
    paths = given_paths(args)
    outside: list = []
    found = list(discover(paths, exclude=exclude_patterns(args, config),
                          gitignore=getattr(args, "respect_gitignore", True),
                          force_exclude=getattr(args, "force_exclude", False), outside=outside))
    note_outside(args, outside)
    found += _dynamic_configs(args, found)
    _leftovers(args, found)
    if not found and not getattr(args, "force_exclude", False):     # pre-commit may name only excluded files
        note(args, f"npuprof: warning: no Python files or shell launchers found in {', '.join(paths)}; "
                   "nothing was checked")
    return _once(found)


def _dynamic_configs(args, found: List[str]) -> List[str]:
    """The profiler_config.json files that scripts among `found` point dynamic profiling at with a literal folder
    (torch_npu's `dynamic_profile.init(dir)`, MindSpore's `DynamicProfilerMonitor(cfg_path=dir)`): the folder as
    written, from the script's folder, else from here. Whose file each one is, where the scripts pointing at it
    or beside it say so with one voice, goes to `args.dynamic_frameworks` (read_input makes it the file's kind)."""
    from ..checks.dynamic_files import pointed_folders
    from ..knowledge.torch_npu_dynamic import FILE_NAME
    out = []
    whose: Dict[str, Set[str]] = {}
    for path in found:
        if not path.endswith(".py"):
            continue
        for framework, folder in pointed_folders(_script_text(path)):
            for base in (os.path.dirname(path), "."):
                candidate = os.path.normpath(os.path.join(base, os.path.expanduser(folder), FILE_NAME))
                if os.path.isfile(candidate):
                    out.append(candidate)
                    whose.setdefault(os.path.realpath(candidate), set()).add(framework)
                    break
    beside: Dict[str, Set[str]] = {}
    for path in found + out:
        if os.path.basename(path) == FILE_NAME:
            folder = os.path.dirname(os.path.realpath(path))
            if folder not in beside:
                beside[folder] = _frameworks_beside(folder)
            whose.setdefault(os.path.realpath(path), set()).update(beside[folder])
    args.dynamic_frameworks = {path: sides.pop() for path, sides in whose.items() if len(sides) == 1}
    return out


def _script_text(path: str) -> str:
    """A script's text when it may start dynamic profiling (else "": not parsed)."""
    from ..source.files import read_bytes
    try:
        data = read_bytes(path)
        return read_source(path, data).text if b"dynamic_profile" in data or b"DynamicProfilerMonitor" in data or \
            b"PROF_CONFIG_PATH" in data else ""
    except ReadError:
        return ""


def _frameworks_beside(folder: str) -> Set[str]:
    """The frameworks whose dynamic profiling the scripts in a folder start."""
    from ..checks.dynamic_files import script_frameworks
    out: Set[str] = set()
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return out
    for name in names:
        if name.endswith(".py") and os.path.isfile(os.path.join(folder, name)):
            out |= script_frameworks(_script_text(os.path.join(folder, name)))
    return out


def _leftovers(args, found: List[str]) -> None:
    """What killed fixes left beside these files (source/writes.py): stale copies go, a file that may be partly
    written is said, with where its old text is."""
    from ..source.writes import leftovers
    reports, removed = leftovers(found)
    for path, kept in reports:
        warn(f"{display(path)}: a fix writing it in place was interrupted; its text from before that fix is kept "
             f"in {display(kept)}: compare the two, keep the right text and delete the other")
    if removed:
        note(args, f"npuprof: removed {plural(removed, 'temporary file')} left by an interrupted run")


def note_outside(args, outside) -> None:
    """Once a run: the links a folder walk left out because their files are outside the folder given."""
    if outside:
        link, target = outside[0]
        more = f" and {plural(len(outside) - 1, 'other')}" if len(outside) > 1 else ""
        note(args, f"npuprof: note: not following {display(link)} -> {target}{more}: a folder's walk checks only "
                   "files inside it (name a link on the command line to check what it points to)")


def walk_root(args, path: str) -> Optional[str]:
    """The folder given on the command line whose walk found `path`; None when `path` itself was named. (The paths
    are checked once, by input_paths: checking them again for each file cost n^2 lookups when pre-commit names n.)"""
    given = _named(args)
    if path in given:
        return None
    for raw in given:
        if raw != "-" and os.path.isdir(raw) and path.startswith(os.path.join(str(Path(raw)), "")):
            return raw
    return None


def _once(paths: List[str]) -> List[str]:
    """Each file once, however it is named (`x.py ./x.py`, a directory and a file in it, a link and its target):
    fixing one file twice would report the second as changed while fixing, and a diff would repeat."""
    seen, out = set(), []
    for path in paths:
        if path != "-":
            try:
                st = os.stat(path)
                key: object = (st.st_dev, st.st_ino)
            except OSError:
                key = os.path.realpath(path)
            if key in seen:
                continue
            seen.add(key)
        out.append(path)
    return out


def read_input(args, path: str) -> Input:
    if path == "-":
        name = args.stdin_filename or "-"
        shown = display(name) if name != "-" else "-"
        data = b""
        try:                                            # bounded like files (a pipe of /dev/zero ends)
            data = read_stream(sys.stdin.buffer)
            return Input(name, shown, read_source(name, data), stdin=True)
        except DecodeError as exc:
            return _undecodable(name, shown, exc, True)._replace(data=data)
        except ReadError as exc:
            return Input(name, shown, None, str(exc), stdin=True)
    try:
        source = read_source(path)
        if source.kind == "json":       # the scripts' word on whose dynamic-profiling file it is (_dynamic_configs)
            framework = getattr(args, "dynamic_frameworks", {}).get(os.path.realpath(path))
            source = source._replace(kind=f"json:{framework}") if framework else source
        return Input(path, display(path), source)
    except DecodeError as exc:
        return _undecodable(path, display(path), exc, False)
    except ReadError as exc:
        return Input(path, display(path), None, str(exc))


def _undecodable(path: str, shown: str, exc: DecodeError, stdin: bool) -> Input:
    """A file Python cannot decode is a finding (NPP192), not an error of the run: the others are still checked."""
    from ..checks.analysis import undecodable
    return Input(path, shown, None, str(exc), stdin, undecodable(exc), exc.text)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
