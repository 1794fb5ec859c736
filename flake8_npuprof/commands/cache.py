"""The cache of `npuprof check` and `npuprof fix`: one file's findings, kept until anything they rest on changes.

An entry is found by what the findings are a function of: the tool (its version and the size and time of every
module and data file of the package, so an edited checker never answers from an older one), the Python version
(its parser decides NPP192), the working directory, the file's path and kind, and what the run checks with
(target, preflight, graph, selection, per-file-ignores). It holds the hash of the file's text, the findings,
and the signature of every other path the analysis looked at (source/observed.py: sibling modules, launched
scripts, sourced files, and places where a module was looked for and not found). A hit needs the same text and
every one of those paths unchanged; anything else is a miss, and the file is checked again.

Entries live in `.npuprof_cache/<version>/` next to the configuration file (else in the working directory),
one JSON file per folder of checked files (what one file per entry took on disk was about 9x the entries
themselves: a file system block for a few hundred bytes), holding the entries of that folder's files made by
this build of the tool. A run writes a folder's file once, when it is done with that folder, atomically
(concurrent runs and worker processes never see half of one; of two runs writing the same folder at once, the
last one's entries are kept, and the other's files are checked again next time); the folder carries its own
`.gitignore` and a CACHEDIR.TAG. What cannot be trusted is not cached:
standard input, a run with preflight checks (they look at this machine's disk, which changes on its own), and
an analysis whose dependencies could not all be listed. A cache that cannot be written is left alone and said
once; an entry that cannot be read is a miss.

The folder comes with the tree (an archive, a restored CI workspace), so nothing read from it is trusted: an
entry is read only when it is a regular file (not a link, FIFO or device) of at most MAX_ENTRY bytes nested at
most MAX_NESTING deep, and any doubt about it is a miss. A cache folder (or its version folder) that is a
symbolic link is neither read nor written, so `.gitignore` and CACHEDIR.TAG never land in its target. A
dependency is compared by the hash of its content, not its size and time.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from .. import __version__
from ..source import observed
from ..source.model import Edit, Finding, Fix
from ..source.said import Said, from_json as said_from, to_json as said_json

FOLDER = ".npuprof_cache"
GITIGNORE = "# Automatically created by npuprof.\n*\n"
MAX_ENTRY = 16 * 1024 * 1024           # bytes of a folder's file; a file's findings take a few KiB
MAX_NESTING = 10                        # a folder file's deepest list: entries > entry > findings > finding >
                                        # fix > edits > edit
# strings (to the text's end when one has no closing quote: each match succeeds at once, so the scan is linear
# whatever the text), what is not a bracket, and an innermost pair of brackets
_STRINGS = re.compile(r'"[^"\\]*(?:\\[\s\S]?[^"\\]*)*(?:"|\Z)')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_INNERMOST = re.compile(r"[\[{][\]}]")
CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by npuprof.\n"
                "# For information about cache directory tags, see https://bford.info/cachedir/\n")


@lru_cache(maxsize=None)
def tool_fingerprint() -> str:
    """The version, the Python version, the size and time of every file of the package (and its schemas), and
    of the libraries whose answers reach the findings (astroid's inference, flake8's noqa syntax)."""
    import importlib.util
    from ..knowledge.datafiles import HERE, schema_dir
    h = hashlib.sha256(f"{__version__}\0{sys.version_info[:3]}\0{sys.implementation.name}".encode())
    for library in ("astroid", "flake8"):
        spec = importlib.util.find_spec(library)     # found, not imported
        for name in ("__pkginfo__.py", "__init__.py", "defaults.py"):
            path = Path(spec.origin).parent / name if spec and spec.origin else None
            if path is not None and path.is_file():
                st = path.stat()
                h.update(f"{library}/{name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    for root in dict.fromkeys((HERE, schema_dir())):
        for path in sorted(Path(root).rglob("*")):
            if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                st = path.stat()
                line = f"{path.relative_to(root)}\0{st.st_size}\0{st.st_mtime_ns}\n"
                h.update(line.encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------- findings as JSON (lossless: surrogates too)

def _finding(f: Finding) -> list:
    fix = None if f.fix is None else [[[e.start, e.end, e.text] for e in f.fix.edits], f.fix.safe, f.fix.title]
    return [f.code, f.message, f.start, f.end, f.line, f.col, f.end_line, f.end_col, fix, _said(f.said)]


def _said(s: Optional[Said]):
    """The fields a message renders (source/said.py), kept so a cached finding shows the same sentence."""
    return None if s is None else said_json(s)


def _from(row) -> Finding:
    code, message, start, end, line, col, end_line, end_col, fix, said = row
    if fix is not None:
        edits, safe, title = fix
        fix = Fix(tuple(Edit(int(a), int(b), str(t)) for a, b, t in edits), bool(safe), str(title))
    if said is not None:
        said = said_from(said)
    return Finding(str(code), str(message), int(start), int(end), int(line), int(col), int(end_line), int(end_col), fix,
                   said)


class Cache:
    """The entries of one run (settings fixed per run; one entry per file and settings, kept in its folder's file)."""

    def __init__(self, folder: str, warn=None):
        self.folder = os.path.join(folder, __version__)
        self.root = folder
        self.warn = warn
        self.writable = True
        self.swept = False
        self.cwd = os.getcwd()
        self.hits = self.misses = 0
        self._read_files: Dict[str, tuple] = {}     # folder file -> (its stat, its entries), as read this run
        self._pending: Dict[str, dict] = {}         # folder file -> {entry name: entry} not written yet

    def _name(self, path: str, kind: str, settings, selection, ignores: Sequence[str], within=None) -> str:
        graph = getattr(settings, "graph", None)
        key = json.dumps([tool_fingerprint(), self.cwd, path, os.path.abspath(path), kind, repr(settings),
                          list(observed.content(graph) or ()) if graph else None, repr(selection), list(ignores),
                          within])
        return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()

    def _file(self, path: str) -> str:
        """The name of the file that holds the entries of path's folder."""
        key = json.dumps([self.cwd, os.path.dirname(os.path.abspath(path))])
        return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()

    def get(self, path: str, text: str, kind: str, each, selection, ignores=(),
            within=None) -> Optional[List[List[Finding]]]:
        """The findings for each settings, or None when any of them is not in the cache or not current."""
        digest = text_hash(text)
        entries = self._entries(self._file(path))
        out = []
        for settings in each:
            try:
                entry = entries.get(self._name(path, kind, settings, selection, ignores, within))
                if not isinstance(entry, dict) or entry["text"] != digest or not observed.unchanged(
                        {str(p): tuple(sig) for p, sig in entry["deps"].items()}):
                    self.misses += 1
                    return None
                out.append([_from(row) for row in entry["findings"]])
            except Exception:           # written by another version, damaged or forged: a miss, whatever it holds
                self.misses += 1
                return None
        self.hits += 1
        return out

    def put(self, path: str, text: str, kind: str, each, selection, ignores, found: Sequence[Sequence[Finding]],
            deps: Optional[Dict[str, tuple]], within=None) -> None:
        """Keep the findings, written with the rest of the folder's once the run is done with that folder."""
        if deps is None or not self.writable:
            return                      # what it depends on could not all be listed: not cached
        deps = observed.by_content(deps)
        if deps is None:
            return                      # a dependency changed after it was read, or is too large to hash
        own = os.path.abspath(self.root) + os.sep
        deps = {p: sig for p, sig in deps.items() if sig[0] != "listing" or not (p + os.sep).startswith(own)}
        # (the cache's own folders, listed with a launcher's region, hold only its entries: no script is ever there,
        # and each run's writing changes their time)
        digest = text_hash(text)
        file = self._file(path)
        for other in [f for f in self._pending if f != file]:
            self._flush(other)          # files come folder by folder: that folder is done
        pending = self._pending.setdefault(file, {})
        for settings, findings in zip(each, found):
            pending[self._name(path, kind, settings, selection, ignores, within)] = {
                "text": digest, "deps": {p: list(sig) for p, sig in sorted(deps.items())},
                "findings": [_finding(f) for f in findings]}

    def close(self) -> None:
        """Write what is still pending (the run's last folder)."""
        for file in list(self._pending):
            self._flush(file)

    def _entries(self, file: str) -> dict:
        """The entries of a folder file ({} when it is missing, damaged or not trusted), read once a run unless
        it changes."""
        got = self._read(file, self._read_files.get(file))
        if got is None:
            return {}
        stat_key, entries = got
        self._read_files[file] = (stat_key, entries)
        return entries

    def _flush(self, file: str) -> None:
        pending = self._pending.pop(file, None)
        if not pending or not self.writable:
            return
        entries = dict(self._entries(file))
        entries.update(pending)
        doc = {"tool": tool_fingerprint(), "entries": entries}
        data = json.dumps(doc, ensure_ascii=True, separators=(",", ":"))
        if len(data) > MAX_ENTRY:       # the folder's older entries give way; one run's alone too large: not kept
            data = json.dumps({"tool": tool_fingerprint(), "entries": pending}, ensure_ascii=True,
                              separators=(",", ":"))
            if len(data) > MAX_ENTRY:
                return
        self._write(file, data)
        self._read_files.pop(file, None)

    def _read(self, name: str, known: Optional[tuple] = None) -> Optional[tuple]:
        """((its stat), its entries) of a folder file, or None: not a regular file (a link, FIFO or device is not
        even opened for reading), too large, nested too deep, not JSON, made by another build of the tool, or in
        a folder that is a link. known: what this run read before, returned again while the file is unchanged."""
        if self._linked():
            return None
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(os.path.join(self.folder, name + ".json"), flags)
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY:
                return None
            stat_key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
            if known is not None and known[0] == stat_key:
                return known
            data = os.read(fd, MAX_ENTRY + 1)
        except OSError:
            return None
        finally:
            os.close(fd)
        if len(data) > MAX_ENTRY:
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if not _shallow(text):
            return None                 # json.load recurses: a deep entry must not reach it
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            return None
        if not isinstance(doc, dict) or doc.get("tool") != tool_fingerprint() or not isinstance(doc.get("entries"), dict):
            return None
        return stat_key, doc["entries"]

    def _sweep(self, stale: float = 60.0) -> None:
        """Remove the half-written entries of killed runs (`.tmp-*.json`, never renamed into place), once a run;
        a younger one may be another run's, still being written."""
        import time
        now = time.time()
        for entry in os.listdir(self.folder):
            if entry.startswith(".tmp-") and entry.endswith(".json"):
                path = os.path.join(self.folder, entry)
                try:
                    st = os.lstat(path)
                    if stat.S_ISREG(st.st_mode) and now - st.st_mtime >= stale:
                        os.unlink(path)
                except OSError:
                    pass

    def _linked(self) -> bool:
        """The cache folder or its version folder is a symbolic link: neither read nor written through."""
        return os.path.islink(self.root) or os.path.islink(self.folder)

    def _write(self, name: str, data: str) -> None:
        try:
            self._prepare()
            if not self.swept:
                self.swept = True
                self._sweep()
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=self.folder)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(data)
                os.replace(tmp, os.path.join(self.folder, name + ".json"))
            except BaseException:
                if os.path.exists(tmp):
                    os.unlink(tmp)
                raise
        except OSError as exc:
            self.writable = False
            if self.warn is not None:
                self.warn(f"npuprof: warning: cache not written ({self.root}: {exc.strerror or exc}); "
                          "use --no-cache or --cache-dir DIR")

    def _prepare(self) -> None:
        if self._linked():
            raise OSError("the folder is a symbolic link, not written through")
        if os.path.isdir(self.folder):
            return
        os.makedirs(self.folder, exist_ok=True)
        if self._linked():              # made a link meanwhile
            raise OSError("the cache folder became a symbolic link, not written through")
        for name, text in ((".gitignore", GITIGNORE), ("CACHEDIR.TAG", CACHEDIR_TAG)):
            # a new file only: a link planted under this name (even a dangling one) is not followed
            try:
                fd = os.open(os.path.join(self.root, name),
                             os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
            except FileExistsError:
                continue
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)


def _shallow(text: str) -> bool:
    """Whether the JSON text's lists and objects nest at most MAX_NESTING deep (brackets inside strings do not
    count; unbalanced ones are a doubt): each pass removes the innermost pairs, all in C."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    for _ in range(MAX_NESTING):
        if not brackets:
            return True
        brackets = _INNERMOST.sub("", brackets)
    return not brackets


def folder_for(args, config) -> str:
    """--cache-dir, else $NPUPROF_CACHE_DIR, else .npuprof_cache beside the configuration file (the project's
    root), else in the working directory."""
    given = getattr(args, "cache_dir", None) or os.environ.get("NPUPROF_CACHE_DIR")
    if given:
        return os.path.abspath(given)
    base = config.base() if config is not None else os.getcwd()
    return os.path.join(base, FOLDER)


def for_run(args, config, settings, warn=None) -> Optional[Cache]:
    """The cache of this run, or None: --no-cache, or preflight checks (they read this machine's state)."""
    if getattr(args, "no_cache", False) or getattr(settings, "preflight", False):
        return None
    return Cache(folder_for(args, config), warn)
