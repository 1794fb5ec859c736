"""Which files a directory walk leaves out: --exclude patterns and what git ignores.

git itself answers for .gitignore (also .git/info/exclude and the global excludes file); only
where git is not installed (or refuses the repository, or does not answer in time) does a small
reader of the .gitignore files stand in. Outside a git work tree nothing is git-ignored, as with git.

The scanned tree is not trusted: its `.git/config` may name programs (`core.fsmonitor`, hooks,
`core.pager`, aliases, includes). git cannot be told to skip a repository's own config, so every
setting that can start a program is overridden on the command line, which wins over every config
file, and git runs with a minimal environment (no GIT_* variables of the caller, no pager, no
terminal prompt), stdin closed and a time limit. The user's global and the system config are
still read: they are not the tree's, and they name the excludes file git answers with.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import subprocess
from typing import List, Optional, Sequence, Set, Tuple


def excluded(full: str, patterns: Sequence[str]) -> bool:
    """flake8's rule: a pattern matches the base name, or the absolute path when it holds a `/`."""
    names, paths = _compiled(tuple(patterns))
    if names is not None and names.match(os.path.normcase(os.path.basename(full))):
        return True
    if paths is not None:
        return bool(paths.match(os.path.normcase(os.path.abspath(full))))
    return False


@functools.lru_cache(maxsize=32)
def _compiled(patterns: Tuple[str, ...]):
    """One regular expression for the base-name patterns and one for the path patterns (fnmatch's own
    translation, compiled once per run instead of once per file and pattern)."""
    names = [fnmatch.translate(os.path.normcase(p)) for p in patterns if "/" not in p]
    paths = [fnmatch.translate(os.path.normcase(q)) for p in patterns if "/" in p for q in (p, p.rstrip("/"))]
    return (re.compile("|".join(names)) if names else None), (re.compile("|".join(paths)) if paths else None)


# Every config setting that makes git start a program, off (`-c` wins over the tree's .git/config and
# the files it includes). ls-files runs no hook, alias or pager today; they are off so that stays true.
GIT_SAFE = ("git", "--no-pager",
            "-c", "core.fsmonitor=false", "-c", "core.useBuiltinFSMonitor=false",
            "-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat", "-c", "core.untrackedCache=false",
            "-c", "diff.external=", "-c", "core.sshCommand=", "-c", "credential.helper=",
            "-c", "protocol.allow=never")
GIT_TIMEOUT = 30                        # seconds; a config that includes a FIFO or /dev/zero must not hang a run
_KEPT = ("PATH", "HOME", "XDG_CONFIG_HOME", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP")


def _git() -> Optional[str]:
    """git's absolute path, found on the absolute entries of PATH only: an empty or relative entry would be
    looked up from git's working directory, the scanned tree, where a planted `git` would run."""
    import shutil
    path = os.pathsep.join(p for p in os.environ.get("PATH", os.defpath).split(os.pathsep) if os.path.isabs(p))
    return shutil.which("git", path=path) if path else None


def git_environment() -> dict:
    """The caller's PATH and HOME (to find git and the user's own config), nothing else: no GIT_DIR,
    GIT_CONFIG_PARAMETERS, GIT_EXTERNAL_DIFF or pager of the caller's (a pre-commit hook sets several)."""
    env = {k: v for k, v in os.environ.items() if k in _KEPT}
    env.update(LC_ALL="C", GIT_PAGER="cat", PAGER="cat", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0")
    return env


def _work_tree(start: str) -> Optional[str]:
    directory = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(directory, ".git")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


class GitIgnore:
    """The git-ignored entries under one directory given on the command line."""

    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self.paths: Set[str] = set()
        self.reader: Optional[_Reader] = None
        top = _work_tree(self.root)
        if top is None:
            return
        listed = self._ask_git()
        if listed is None:
            self.reader = _Reader(top)
        else:
            self.paths = listed

    def _ask_git(self) -> Optional[Set[str]]:
        # untracked entries that are ignored; a wholly ignored folder comes back once, as `name/`
        git = _git()
        if git is None:
            return None
        try:
            proc = subprocess.run([git, *GIT_SAFE[1:], "ls-files", "-z", "--others", "--ignored", "--exclude-standard",
                                   "--directory"], cwd=self.root, env=git_environment(),
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=GIT_TIMEOUT)
        except (OSError, subprocess.SubprocessError):
            return None
        if proc.returncode != 0:
            return None
        out = set()
        for entry in proc.stdout.decode("utf-8", "surrogateescape").split("\0"):
            if entry:
                out.add(os.path.normpath(os.path.join(self.root, entry.rstrip("/"))))
        return out

    def ignored(self, full: str, is_dir: bool) -> bool:
        if self.reader is not None:
            return self.reader.ignored(os.path.abspath(full), is_dir)
        return os.path.normpath(os.path.abspath(full)) in self.paths


class _Reader:
    """The common part of gitignore(5): comments, `!` negation, a trailing `/` for folders only,
    patterns with a `/` anchored at their .gitignore's folder, `**` for any depth."""

    def __init__(self, top: str):
        self.top = top
        self.rules: dict = {}           # folder -> [(pattern, negated, dir_only, anchored)]

    def _rules(self, directory: str) -> List[Tuple[str, bool, bool, bool]]:
        if directory not in self.rules:
            rules = []
            try:
                with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as fh:
                    lines = fh.read().splitlines()
            except OSError:
                lines = []
            for line in lines:
                line = line.rstrip()
                if not line or line.startswith("#"):
                    continue
                negated = line.startswith("!")
                line = line[1:] if negated else line
                dir_only = line.endswith("/")
                line = line.rstrip("/")
                anchored = "/" in line
                rules.append((line.lstrip("/"), negated, dir_only, anchored))
            self.rules[directory] = rules
        return self.rules[directory]

    def ignored(self, full: str, is_dir: bool) -> bool:
        if not full.startswith(self.top + os.sep):
            return False
        # the folder's own .gitignore is read last, so its rules win; within a file the last match wins
        folders = []
        directory = os.path.dirname(full)
        while directory.startswith(self.top):
            folders.append(directory)
            if directory == self.top:
                break
            directory = os.path.dirname(directory)
        verdict = False
        for folder in reversed(folders):
            rel = os.path.relpath(full, folder).replace(os.sep, "/")
            for pattern, negated, dir_only, anchored in self._rules(folder):
                if dir_only and not is_dir:
                    continue
                if _match(rel, pattern, anchored):
                    verdict = not negated
        return verdict


def _match(rel: str, pattern: str, anchored: bool) -> bool:
    if not anchored:
        return fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], pattern)
    return _glob(pattern.split("/"), rel.split("/"))


def _glob(pattern, parts) -> bool:
    """Segment by segment, so `*` stays inside one folder name and `**` spans any number of them."""
    if not pattern:
        return not parts
    if pattern[0] == "**":
        return any(_glob(pattern[1:], parts[i:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], pattern[0]) and _glob(pattern[1:], parts[1:])
