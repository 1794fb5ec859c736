"""Reading the files the CLI is given: discovery, decoding, noqa comments, code selection."""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import re
import stat
import tokenize
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, NamedTuple, Optional, Protocol, Sequence, Tuple

from flake8.defaults import NOQA_FILE, NOQA_INLINE_REGEXP

from . import fence
from .observed import reading

# Folders never searched unless --exclude replaces this list: version control, caches, virtual
# environments, build output and installed packages (flake8's defaults plus Ruff's usual ones).
DEFAULT_EXCLUDE = (".git", ".hg", ".svn", ".bzr", "CVS", "__pycache__", ".tox", ".nox", ".venv", "venv",
                   ".mypy_cache", ".pytest_cache", ".ruff_cache", ".npuprof_cache", "node_modules", ".eggs", "*.egg",
                   "*.egg-info",
                   "build", "dist", "site-packages")
SHELL_SHEBANG = re.compile(rb"^#!.*\b(ba|z|k|da)?sh\b")
# the dynamic-profiling file of torch_npu and MindSpore (knowledge/torch_npu_dynamic.FILE_NAME): the one JSON file a
# folder's walk checks
DYNAMIC_CONFIG = "profiler_config.json"
YAML_SUFFIXES = (".yaml", ".yml")
# A MindFormers run configuration (`run_mindformer.py --config x.yaml`) sets its profiling with top-level keys of
# these names (data/mindformers.json "defaults", ProfileMonitor's profiler_level and profile_output): a YAML file
# without one at the start of a line is not read as one (checks/mindformers.py), nor found by a folder's walk
RUN_CONFIG_KEYS = re.compile(rb"^(?:profile|profile_(?:communication|memory|start_step|stop_step|rank_ids|pipeline|"
                             rb"level|output)|profiler_level|init_start_profile)[ \t]*:", re.M)
# a MindSpeed-RL trainer's configuration (`cli/train_grpo.py --config-name NAME`) sets its profiling under a top-level
# `profiler_config:` (checks/mindspeed_rl.py)
RL_CONFIG_KEYS = re.compile(rb"^profiler_config[ \t]*:", re.M)


class SourceFile(NamedTuple):
    path: str
    text: str
    encoding: str
    bom: bool
    newline: str              # dominant line ending, kept by fixes
    # "python", "shell", "json" (a dynamic-profiling profiler_config.json; "json:<framework>" when the scripts
    # say whose it is: commands/inputs.py) or "yaml" (a .yaml/.yml file: a MindFormers run configuration, where its
    # bytes pass RUN_CONFIG_KEYS)
    kind: str
    data: bytes = b""         # the bytes read: what a fix must find again before it writes, what a diff is of


class ReadError(Exception):
    pass


class DecodeError(ReadError):
    """A Python file Python itself would not decode (it raises SyntaxError before the first line runs):
    why, where (1-based line, 0-based column in characters: the first byte it cannot decode, or the
    coding line's encoding name), and the text with what does not decode replaced (for positions)."""

    def __init__(self, reason: str, line: int, col: int, text: str):
        super().__init__(f"cannot decode: {reason}")
        self.reason, self.line, self.col, self.text = reason, line, col, text


def discover(paths: Sequence[str], shell: bool = True, exclude: Sequence[str] = DEFAULT_EXCLUDE,
             gitignore: bool = True, force_exclude: bool = False,
             outside: Optional[List[Tuple[str, str]]] = None) -> Iterator[str]:
    """Python (and shell launcher) files under the given paths, each once, in a stable order. With `shell` (the
    CLI's walk) also the dynamic-profiling profiler_config.json files and the YAML files whose bytes name a
    MindFormers profiling key at the start of a line (RUN_CONFIG_KEYS): other YAML is never read as a run
    configuration, so a folder's walk leaves it out.

    Inside directories, names or paths matching `exclude` (flake8's rule: a glob on the base name,
    or on the absolute path when the pattern has a `/`) and git-ignored entries are skipped. A file
    named on the command line is always checked, as Ruff and editors expect, unless force_exclude
    (`--force-exclude`: pre-commit names every staged file) applies the same rules to it and to its
    folders below the working directory.

    The folder given is the walk's boundary: a symbolic link to a file outside it is left out (and
    added to `outside` as (link, target), for the caller to say so), as a link to a folder is never
    followed (os.walk's default). A link named on the command line is checked like any named file.
    """
    from .ignore import GitIgnore, excluded
    patterns = [p if "/" not in p else os.path.abspath(p) for p in exclude]
    seen = set()
    for raw in paths:
        path = Path(raw)
        if raw != "-" and path.is_dir():
            ignored = GitIgnore(str(path)) if gitignore else None
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not excluded(os.path.join(root, d), patterns)
                                 and not (ignored and ignored.ignored(os.path.join(root, d), True)))
                for name in sorted(files):
                    full = os.path.join(root, name)
                    if excluded(full, patterns) or (ignored and ignored.ignored(full, False)):
                        continue
                    if os.path.islink(full) and not fence.within(full, str(path)):
                        if outside is not None and (name.endswith(".py") or (shell and "." not in name)
                                                    or name.endswith((".sh", ".bash"))):
                            outside.append((full, os.path.realpath(full)))      # its head is not read
                        continue
                    if name.endswith(".py") or (shell and (name == DYNAMIC_CONFIG or _is_shell(full, name)
                                                            or _is_run_config(full, name))):
                        if full not in seen:
                            seen.add(full)
                            yield full
        else:
            if raw not in seen and not (force_exclude and raw != "-" and _forced_out(raw, patterns, gitignore)):
                seen.add(raw)
                yield raw


def rel_path(path: str, root: str) -> str:
    """A path as a report shows it: relative to root, else (outside it, or on another drive) its base name."""
    try:
        rel = os.path.relpath(path, root)
    except ValueError:
        return path
    return os.path.basename(path) if rel.startswith("..") else rel.replace(os.sep, "/")


def _forced_out(path: str, patterns: Sequence[str], gitignore: bool) -> bool:
    """Whether a named file is left out by the patterns or .gitignore, as it would be in a directory walk:
    the file itself or one of its folders up to the working directory matches."""
    from .ignore import GitIgnore, excluded
    full = os.path.abspath(path)
    cwd = os.getcwd()
    cur = full
    while True:
        if excluded(cur, patterns):
            return True
        parent = os.path.dirname(cur)
        if parent == cur or not parent.startswith(cwd.rstrip(os.sep) + os.sep):
            break
        cur = parent
    return gitignore and GitIgnore(os.path.dirname(full)).ignored(full, False)


def _is_shell(full: str, name: str) -> bool:
    if name.endswith((".sh", ".bash")):
        return True
    if "." in name:
        return False
    try:
        with _open_regular(full) as fh:             # a FIFO is refused, not opened
            return bool(SHELL_SHEBANG.match(fh.readline(200)))
    except (ReadError, OSError):
        return False


def _is_run_config(full: str, name: str) -> bool:
    """A .yaml/.yml file whose bytes name a MindFormers profiling key or MindSpeed-RL's profiler_config (read whole:
    the keys sit anywhere)."""
    if not name.endswith(YAML_SUFFIXES):
        return False
    try:
        data = read_bytes(full)
        return RUN_CONFIG_KEYS.search(data) is not None or RL_CONFIG_KEYS.search(data) is not None
    except ReadError:
        return False


def kind_of(path: str, head: bytes) -> str:
    if os.path.basename(path) == DYNAMIC_CONFIG:
        return "json"
    if path.endswith(YAML_SUFFIXES):
        return "yaml"
    if path.endswith((".sh", ".bash")) or SHELL_SHEBANG.match(_LINE_END.split(head, maxsplit=1)[0]):
        return "shell"
    return "python"


MAX_BYTES = 10 * 1024 * 1024      # far above any training script; a bigger "source" is data or a mistake
_NOT_REGULAR = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


def _not_regular(mode: int) -> Optional[str]:
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _NOT_REGULAR if test(mode)), "not a regular file")


_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def _open_fd(path: str) -> int:
    """A descriptor of a regular file, opened for reading. A FIFO, device or socket is refused before it is opened
    (reading one blocks or never ends); the caller checks the descriptor again in case the path changed."""
    if fence.outside(path):            # emulate --no-outside: whoever asks, nothing outside the project is read
        raise ReadError(f"not read: {fence.WHY}")
    reading(path)                      # a file the analysis reads (a sibling module, a launched script), or misses
    try:
        what = _not_regular(os.stat(path).st_mode)
        if what:
            raise ReadError(f"not read: {what}, not a regular file")
        return os.open(path, _FLAGS)
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None


@contextlib.contextmanager
def _open_regular(path: str):
    """A regular file as a binary file object (see _open_fd)."""
    fd = _open_fd(path)
    try:
        with os.fdopen(fd, "rb") as fh:
            what = _not_regular(os.fstat(fd).st_mode)
            if what:
                raise ReadError(f"not read: {what}, not a regular file")
            yield fh
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None


def read_bytes(path: str, limit: Optional[int] = None) -> bytes:
    """A regular file's bytes, at most `limit` (MAX_BYTES) of them, else a ReadError saying so.

    Read with os.read, asked for the size fstat gives and one byte more: a buffered file object asked for `limit`
    bytes allocates all of them first, and the object and the context manager cost more than the read (about 80,000
    instructions a file, against 25,000). A file that grows while it is read is read on, up to the limit."""
    limit = MAX_BYTES if limit is None else limit
    fd = _open_fd(path)
    try:
        st = os.fstat(fd)
        what = _not_regular(st.st_mode)
        if what:
            raise ReadError(f"not read: {what}, not a regular file")
        if st.st_size > limit:
            raise ReadError(f"not read: {st.st_size:,} bytes, over the {limit:,}-byte limit for a source file")
        chunks, got = [], 0
        while True:
            chunk = os.read(fd, min(limit + 1 - got, max(st.st_size + 1 - got, 1 << 16)))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
            if got > limit:
                raise ReadError(f"not read: more than the {limit:,}-byte limit for a source file")
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    except OSError as exc:
        raise ReadError(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_stream(stream, limit: Optional[int] = None) -> bytes:
    """At most `limit` (MAX_BYTES) bytes of a stream (a file, standard input), else a ReadError."""
    limit = MAX_BYTES if limit is None else limit
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise ReadError(f"not read: more than the {limit:,}-byte limit for a source file")
    return data


# PEP 263 (also matches Emacs `-*- coding: x -*-` and vim `fileencoding=x` modelines)
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def _shell_encoding(data: bytes) -> str:
    """A launcher's encoding: BOM, else a coding declared on its first two lines (as Python reads
    sources), else UTF-8 when it decodes, else GB18030 (the legacy Chinese superset of GBK)."""
    return _shell_decoded(data)[1]


def _shell_decoded(data: bytes) -> Tuple[Optional[str], str]:
    """(the text, when _shell_encoding decoded it to choose its encoding, else None; that encoding): the text a
    launcher's first decoding gave is not made again (a second decoding of every launcher)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return None, "utf-8-sig"
    head = data[:1024]
    # (no line without "coding" holds a declaration: most launchers' first lines are looked at by one search)
    for line in _LINE_END.split(head, maxsplit=2)[:2] if b"coding" in head else ():
        m = _COOKIE.match(line)
        if m:
            try:
                return None, codecs.lookup(m.group(1).decode("ascii")).name
            except LookupError:
                raise ReadError(f"cannot decode: unknown encoding {m.group(1).decode('ascii')!r} declared") from None
    for encoding in ("utf-8", "gb18030"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    bad = _first_bad_utf8(data)
    raise ReadError(f"cannot decode: not UTF-8 (byte 0x{data[bad]:02x} at offset {bad}) nor GB18030, and no "
                    "coding declared (add `# -*- coding: <name> -*-` on the first or second line)")


def _shell_text(data: bytes) -> Tuple[str, str]:
    """(text, encoding) of a shell script's bytes, as _shell_encoding decodes them (a leading BOM character kept)."""
    text, encoding = _shell_decoded(data)
    if text is None:
        try:
            text = data.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ReadError(f"cannot decode as {encoding}: {exc}") from None
    return text, encoding


def decode_shell(data: bytes) -> str:
    """A shell script's text, decoded as a launcher is (a script it sources has no other clue)."""
    text = _shell_text(data)[0]
    return text[1:] if text.startswith("\ufeff") else text


def _first_bad_utf8(data: bytes) -> int:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return 0


_LINE_END = re.compile(rb"\r\n?|\n")


def _coding_line(data: bytes) -> Optional[Tuple[int, int, str]]:
    """The coding declaration Python reads (line 1, or line 2 after a blank or comment line 1): its line,
    the byte offset of the encoding's name in that line, and the name."""
    # (the first two lines end at or before the second line feed: what is after it is not split off, and a head
    # without "coding" declares nothing)
    first = data.find(b"\n")
    second = data.find(b"\n", first + 1) if first >= 0 else -1
    head = data if second < 0 else data[:second]
    if b"coding" not in head:
        return None
    lines = _LINE_END.split(head[3:] if head.startswith(codecs.BOM_UTF8) else head, maxsplit=2)[:2]
    for k, line in enumerate(lines):
        m = _COOKIE.match(line)
        if m:
            return k + 1, m.start(1) + (3 if k == 0 and data.startswith(codecs.BOM_UTF8) else 0), \
                m.group(1).decode("ascii", "replace")
        if not _BLANK_OR_COMMENT.match(line):
            return None
    return None


_BLANK_OR_COMMENT = re.compile(rb"^[ \t\f]*(?:[#\r\n]|$)")


def _cookie_col(data: bytes, line: int, at: int) -> int:
    """The column (characters, after a BOM) of the coding line's encoding name, at byte `at` of its line."""
    bom = 3 if data.startswith(codecs.BOM_UTF8) else 0
    start = next(_LINE_END.finditer(data)).end() if line == 2 else bom
    return len(data[start:start + at - (bom if line == 1 else 0)].decode("utf-8", "replace"))


def _normal_name(name: str) -> str:
    """The coding name as Python's tokenizer normalises it (tokenizer.c and tokenize.py `get_normal_name`)."""
    enc = name[:12].lower().replace("_", "-")
    if enc == "utf-8" or enc.startswith("utf-8-"):
        return "utf-8"
    if enc in ("latin-1", "iso-8859-1", "iso-latin-1") or enc.startswith(("latin-1-", "iso-8859-1-", "iso-latin-1-")):
        return "iso-8859-1"
    return name


def decode_python(data: bytes) -> Tuple[str, str]:
    """A Python file's text and encoding, as Python decodes it before it runs a line (PEP 263: a BOM, else the
    coding line, else UTF-8), or a DecodeError saying why and where Python refuses it."""
    bom = data.startswith(codecs.BOM_UTF8)
    cookie = _coding_line(data)
    encoding = "utf-8"
    if cookie is not None:
        line, at, name = cookie
        try:
            encoding = codecs.lookup(name).name
        except LookupError:
            encoding = ""
        # after a BOM Python takes only a name its tokenizer normalises to "utf-8" (not "utf8": get_normal_name)
        problem = f"its coding line names {name!r}, an encoding Python does not know" if not encoding else \
            f"it starts with a UTF-8 byte-order mark but its coding line declares {name!r}" \
            if bom and _normal_name(name) != "utf-8" else ""
        if problem:
            text = data.decode("utf-8", "replace")
            raise DecodeError(problem, line, _cookie_col(data, line, at), text[1:] if bom else text)
    try:
        text = data.decode("utf-8-sig" if bom else encoding)
    except UnicodeDecodeError as exc:
        bad = exc.start + (3 if bom else 0)
        prefix = data[:bad]
        ends = list(_LINE_END.finditer(prefix))
        line_start = ends[-1].end() if ends else (3 if bom else 0)
        col = len(prefix[line_start:].decode(encoding, "replace"))
        if cookie is None:
            reason = f"byte 0x{data[bad]:02x} is not UTF-8, and no coding line declares another encoding"
        else:
            reason = f"byte 0x{data[bad]:02x} is not {cookie[2]}, the encoding its coding line declares"
        text = data.decode("utf-8-sig" if bom else encoding, "replace")
        raise DecodeError(reason, len(ends) + 1, col, text[1:] if text.startswith("\ufeff") else text) from None
    except LookupError:                 # a codec that cannot decode at all ("rot13" is text to text)
        assert cookie is not None           # (only a coding line names a codec other than UTF-8)
        text = data.decode("utf-8", "replace")
        raise DecodeError(f"its coding line names {cookie[2]!r}, which Python cannot decode source with", cookie[0],
                          _cookie_col(data, cookie[0], cookie[1]), text[1:] if bom else text) from None
    return (text[1:] if text.startswith("\ufeff") else text), encoding


def _beyond_latin_1(text: str) -> bool:
    """Whether the text holds a character Latin-1 cannot give (what `[^\x00-\xff]` finds), by encoding it: a
    text of such characters only is copied as it is, any other fails at the first one (the regular expression
    read every character of an ASCII file at about 30 instructions each)."""
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return True
    return False


def refused_as_flake8_read(path: str, text: str) -> Optional[DecodeError]:
    """Why Python would not decode the file flake8 handed a plugin as `text`, or None. flake8 (6 and 7) reads a
    file Python cannot decode as Latin-1 and reports nothing: such a file is read again from disk, and judged
    only when its Latin-1 text is what flake8 gave (not a standard input shown under a file's name)."""
    head = text[:text.find("\n", text.find("\n") + 1) + 1 or len(text)]
    if text.isascii() and "coding" not in head:
        return None                     # ASCII decodes under every encoding Python accepts
    if _beyond_latin_1(text):
        return None                     # not flake8's Latin-1 reading, which the check below compares with
    try:
        data = read_bytes(path)
        decode_python(data)
        return None
    except DecodeError as exc:
        def same(t: str) -> str:         # flake8 reads with universal newlines and strips the BOM
            return t.replace("\r\n", "\n").replace("\r", "\n")[3 if t.startswith("\xef\xbb\xbf") else 0:]
        return exc if same(data.decode("latin-1")) == same(text) else None
    except ReadError:
        return None


def read_source(path: str, data: Optional[bytes] = None) -> SourceFile:
    """Decode a file the way Python does (PEP 263 cookie, BOM), keeping what fixes must keep;
    shell launchers likewise, with a sniffed encoding when none is declared."""
    if data is None:
        data = read_bytes(path)
    text, encoding, bom, kind = _decoded(path, data)
    return SourceFile(path, text, encoding, bom, _newline(text), kind, data)


def read_text(path: str) -> str:
    """read_source(path).text, without what only fixes need (the line ending it counts): the text a prefilter reads
    (checks/shell_scan.may_have_setups asks it of every script a launcher may start)."""
    return _decoded(path, read_bytes(path))[0]


def _decoded(path: str, data: bytes) -> Tuple[str, str, bool, str]:
    """(text, encoding, whether a BOM leads, kind) of a file's bytes, as read_source decodes them."""
    kind = kind_of(path, data[:200])
    bom = data.startswith(b"\xef\xbb\xbf")
    if kind in ("json", "yaml"):        # json.load / MindFormers' yaml.safe_load of a file opened as UTF-8 (a BOM is
        # kept out of the text; YAML skips it)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ReadError(f"cannot decode as utf-8: {exc}") from None
        return text, "utf-8", bom, kind
    if kind != "shell":
        text, encoding = decode_python(data)
        return text, encoding, bom, kind
    text, encoding = _shell_text(data)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, "utf-8" if encoding == "utf-8-sig" else encoding, bom, kind


def _newline(text: str) -> str:
    """The dominant line ending (fixes write the same)."""
    if "\r" not in text:
        return "\n"                    # (one search for a character: the three counts cost 3.5M over 199 launchers)
    crlf = text.count("\r\n")
    counts = {"\r\n": crlf, "\n": text.count("\n") - crlf, "\r": text.count("\r") - crlf}
    return max(("\n", "\r\n", "\r"), key=lambda nl: counts[nl])       # ties: \n first


# ---------------------------------------------------------------- noqa, as flake8 reads it

def physical_lines(text: str):
    """The lines as Python and flake8 count them: split at LF, CRLF and CR only (str.splitlines also
    splits at form feeds, U+2028, \x1d..., which would shift every line after one)."""
    return io.StringIO(text, newline="").readlines()


def logical_reader(text: str):
    """readline for tokenize over the same physical lines, each ending in LF (tokenize on 3.9 and 3.13
    does not end a line at a lone CR; universal newlines do, on every version)."""
    return io.StringIO(text, newline=None).readline


def file_noqa(text: str) -> bool:
    return "flake8" in text.lower() and any(NOQA_FILE.match(line) for line in physical_lines(text))


_NOQA_WORD = re.compile("noqa", re.IGNORECASE)      # what NOQA_INLINE_REGEXP needs in a line to match


def noqa_lines(text: str, upto: Optional[int] = None) -> Dict[int, str]:
    """Map each line to the text searched for `# noqa` (a whole logical line, as flake8 does).
    upto: the last line asked about; the text is tokenized only as far as that line's logical line.
    A text without the word noqa suppresses nothing: no line is mapped and nothing is tokenized."""
    if _NOQA_WORD.search(text) is None:
        return {}
    lines = physical_lines(text)
    mapping: Dict[int, str] = {}
    try:
        lo, hi = len(lines) + 2, -1
        for tok in tokenize.generate_tokens(logical_reader(text)):
            if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            lo = min(lo, tok.start[0])
            hi = max(hi, tok.end[0])
            if tok.type in (tokenize.NL, tokenize.NEWLINE):
                joined = "".join(lines[lo - 1:hi])
                for n in range(lo, hi + 1):
                    mapping[n] = joined
                if upto is not None and hi >= upto:
                    break
                lo, hi = len(lines) + 2, -1
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return {i + 1: line for i, line in enumerate(lines)}
    for i, line in enumerate(lines, 1):
        mapping.setdefault(i, line)
    return mapping


def suppressed(code: str, line_text: Optional[str]) -> bool:
    if not line_text:
        return False
    m = NOQA_INLINE_REGEXP.search(line_text)
    if m is None:
        return False
    codes = m.groupdict().get("codes")
    if not codes:
        return True
    listed = [c.strip() for c in re.split(r"[,\s]+", codes) if c.strip()]
    return any(code.startswith(c) for c in listed)


# ---------------------------------------------------------------- selection, as flake8 decides

class Wants(Protocol):
    """What a run asks of a selection: a Selection, or the language server's per-file one."""

    def wants(self, code: str) -> bool: ...


class Selection(NamedTuple):
    """flake8's decision rules (explicit beats implicit, then the longest prefix wins), plus the
    plugin's own opt-in for default-off codes."""

    select: Tuple[str, ...] = ("NPP",)
    extend_select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    extend_ignore: Tuple[str, ...] = ()
    default_off: Tuple[str, ...] = ()           # the user's extend-default-ignore prefixes
    explicit_select: bool = True                # False: select is the default, any ignore beats it

    def wants(self, code: str) -> bool:

        def best(prefixes: Iterable[str]) -> int:
            return max((len(p) for p in prefixes if code.startswith(p)), default=-1)
        chosen = max(best(self.select), best(self.extend_select))
        ignored = max(best(self.ignore), best(self.extend_ignore))
        if chosen < 0 or (ignored >= 0 and (not self.explicit_select or ignored >= chosen)):
            return False
        return default_off_enabled(code, self.select + self.extend_select, self.default_off)


def split_codes(value: Optional[str]) -> Tuple[str, ...]:
    if not value:
        return ()
    return tuple(c.strip().upper() for c in re.split(r"[,\s]+", value) if c.strip())


# Codes that are off unless asked for by name or by a prefix at least this specific.
# flake8 lets an explicit `--select NPP` override its default-ignore list, so the plugin
# applies this itself (as bugbear does for B9): `--select NPP` keeps them off,
# `--extend-select NPP2` / `--select NPP203` / `--extend-select NPP19` turn them on.
# NPP191 (a budget ran out) shares the group but is on: DEFAULT_OFF names codes, not prefixes.
# Generated from the rules' pages (Rule.default, Rule.enabled_by) by `python tools/gen_docs.py`: flake8 reads
# it at start-up without importing the rules; tests/test_catalog.py checks the copy.
DEFAULT_OFF = {"NPP190": "NPP19", "NPP200": "NPP2", "NPP201": "NPP2", "NPP203": "NPP2", "NPP206": "NPP2",
               "NPP304": "NPP304"}


def default_off_enabled(code: str, selected, extra_off=()) -> bool:
    """Whether a code is on: not off by default (DEFAULT_OFF or a user's extend-default-ignore
    entries), or asked for by a selected prefix at least as specific as what switched it off."""
    needed = [p for p in extra_off if code.startswith(p)]
    if code in DEFAULT_OFF:
        needed.append(DEFAULT_OFF[code])
    if not needed:
        return True
    longest = max(len(p) for p in needed)
    return any(code.startswith(s) and len(s) >= longest for s in selected)
