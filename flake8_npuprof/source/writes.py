"""Writing a fixed file: all or nothing, and never over a change made while the fix was computed.

A file with one name gets the new bytes in a temporary file beside it, written, flushed to disk
and read back, then renamed over it: a failure before the rename leaves the file as it was. A
file with other hard links (every name must see the fix) or in a folder that cannot be written
is rewritten in place: its old bytes are first kept in a copy (beside it, else in the temporary
folder), the new bytes are written, flushed and read back, and on any failure the old bytes are
written back and read back in turn. Only when that too fails is the file left damaged, and the
message says where its old text is.

Before the file is touched, it is read again and compared with the bytes the fix was computed
from: a file that changed meanwhile (an editor saved it) is not written.

Every system call that changes something goes through DISK, so that a test can make any one of
them fail (ENOSPC, EIO) and check the file's bytes after each.

A run killed midway leaves its temporary files behind: a copy that was never renamed over its file
(`.X.npuprof-<hex>`: the file itself is whole, the rename being atomic), or the old bytes of a file
written in place (`.X.npuprof-old-<new hash>-<hex>`, its name carrying the hash of the bytes being
written). The next check or fix of X finds them (`leftovers`): a stale copy is removed; an old-bytes
copy is removed when X holds either its old bytes or the whole new ones, and otherwise reported, both
kept: X may be partly written, or edited since, and only its user can tell which text to keep.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from typing import List, Optional, Sequence, Tuple, Union

CHANGED = "changed while fixing, run again"


class WriteError(Exception):
    """Why a file was not written, in one line (its caller names the file)."""


class Disk:
    """The calls a write makes. Tests replace DISK with one that fails on cue."""

    def open(self, path: str, flags: int, mode: int = 0o600) -> int:
        return os.open(path, flags | getattr(os, "O_BINARY", 0), mode)

    def write(self, fd: int, data: bytes) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def truncate(self, fd: int, size: int) -> None:
        os.ftruncate(fd, size)

    def close(self, fd: int) -> None:
        os.close(fd)

    def chmod(self, path: str, mode: int) -> None:
        os.chmod(path, mode)

    def replace(self, src: str, dst: str) -> None:
        os.replace(src, dst)

    def unlink(self, path: str) -> None:
        os.unlink(path)


DISK = Disk()


def write_bytes(path: str, data: bytes, expected: Optional[bytes] = None, within: Optional[str] = None) -> str:
    """Put `data` in the file `path` resolves to (a symlink stays a link, its target is written);
    `expected`: the bytes the new text was made from (None: no check); `within`: the folder whose walk
    found `path` (None: it was named), which the file written must be in, even if a link changed since.
    Raises WriteError; returns what the report must add ("" or a temporary file that could not be removed)."""
    real = os.path.realpath(path)
    if within is not None and not real.startswith(os.path.join(os.path.realpath(within), "")):
        raise WriteError(f"it links to {real}, outside {within} (name the link to fix what it points to); "
                         "the file is unchanged")
    try:
        st = os.stat(real)
    except OSError as exc:
        raise WriteError(f"cannot write: {_why(exc)}") from None
    if st.st_nlink == 1:
        folder = os.path.dirname(real)
        try:
            fd, tmp = _temporary(folder, "." + os.path.basename(real) + ".npuprof-")
        except PermissionError:
            fd = None                   # a folder we cannot write: the file itself may be writable
        except OSError as exc:
            raise WriteError(f"cannot write: {_why(exc)}; the file is unchanged") from None
        if fd is not None:
            return _by_rename(real, data, expected, st, fd, tmp)
    return _in_place(real, data, expected)


# ---------------------------------------------------------------- a copy beside it, renamed over it

def _by_rename(real: str, data: bytes, expected: Optional[bytes], st: os.stat_result, fd: int, tmp: str) -> str:
    try:
        try:
            _write_all(fd, data)
            DISK.fsync(fd)
        finally:
            DISK.close(fd)
        if _read(tmp) != data:
            raise WriteError("the copy written beside it did not read back the same")
        owned = True
        if hasattr(os, "chown") and (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(tmp, st.st_uid, st.st_gid)
            except OSError:
                owned = False           # not ours to give away: the fixed file is the user's from here
        # the mode after the owner: a chown clears the setuid and setgid bits, which only mean the same
        # thing on a file of the same owner and group
        mode = st.st_mode & 0o7777
        lost = mode & (stat.S_ISUID | stat.S_ISGID) if not owned else 0
        DISK.chmod(tmp, mode & ~lost)
        _copy_xattrs(real, tmp)
        if expected is not None and _read(real) != expected:
            raise WriteError(CHANGED)
        DISK.replace(tmp, real)
    except (OSError, WriteError) as exc:
        left = _remove(tmp)
        raise WriteError(f"{_problem(exc)}; the file is unchanged{left}") from None
    _sync_folder(os.path.dirname(real))
    return _bits_note(lost, "it now belongs to the user running the fix, not its owner")


def _bits_note(lost: int, why: str) -> str:
    """What the report adds when a fix could not keep the setuid or setgid bit ("" when it kept them)."""
    names = [name for bit, name in ((stat.S_ISUID, "setuid"), (stat.S_ISGID, "setgid")) if lost & bit]
    return f" (its {' and '.join(names)} bit{'s' if len(names) > 1 else ''} could not be kept: {why})" if names else ""


def _copy_xattrs(src: str, dst: str) -> None:
    """The file's extended attributes (user notes, ACLs, SELinux labels) onto the copy that replaces it: a rename
    would drop them. One that cannot be read or set raises: the file is then left as it is."""
    if not hasattr(os, "listxattr"):
        return                          # not Linux: none to keep here
    try:
        names = os.listxattr(src)
    except OSError:
        return                          # the file system has none
    for name in names:
        value = os.getxattr(src, name)
        try:
            os.setxattr(dst, name, value)
        except OSError:
            try:
                same = os.getxattr(dst, name) == value      # a label the new file got anyway (SELinux)
            except OSError:
                same = False
            if not same:
                raise


# ---------------------------------------------------------------- in place, the old bytes kept until the new ones hold

def _in_place(real: str, data: bytes, expected: Optional[bytes]) -> str:
    try:
        fd = DISK.open(real, os.O_RDWR)
    except OSError as exc:
        raise WriteError(f"cannot write: {_why(exc)}; the file is unchanged") from None
    try:
        try:
            before = os.fstat(fd).st_mode
            original = _read_fd(fd)
        except OSError as exc:
            raise WriteError(f"cannot read it back: {_why(exc)}; the file is unchanged") from None
        if expected is not None and original != expected:
            raise WriteError(f"{CHANGED}; the file is unchanged")
        kept = _keep(original, real, _digest(data))
        try:
            _overwrite(fd, data)
            return _remove(kept) + _restore_bits(fd, before)
        except (OSError, WriteError) as exc:
            problem = _problem(exc)
        try:
            _overwrite(fd, original)
        except (OSError, WriteError):
            raise WriteError(f"{problem}; the file may be damaged: its old text is kept in {kept}") from None
        left = _remove(kept) + _restore_bits(fd, before)
        raise WriteError(f"{problem}; the file is unchanged{left}")
    finally:
        try:
            DISK.close(fd)
        except OSError:
            pass                        # its bytes were read back already (or the error says why not)


def _restore_bits(fd: int, before: int) -> str:
    """A write by anyone but root clears the file's setuid and setgid bits: set them again where this user
    may (the owner), else say so."""
    lost = before & (stat.S_ISUID | stat.S_ISGID) & ~os.fstat(fd).st_mode
    if not lost:
        return ""
    try:
        os.fchmod(fd, before & 0o7777)
        return ""
    except OSError:
        return _bits_note(lost, "writing the file cleared them and only its owner may set them again")


def _overwrite(fd: int, data: bytes) -> None:
    """The file's bytes become `data`, flushed to disk and read back (else OSError / WriteError)."""
    os.lseek(fd, 0, os.SEEK_SET)
    _write_all(fd, data)
    DISK.truncate(fd, len(data))
    DISK.fsync(fd)
    if _read_fd(fd) != data:
        raise WriteError("the file did not read back what was written")


def _keep(original: bytes, real: str, new: str = "") -> str:
    """A copy of the old bytes, flushed and read back: beside the file, else in the temporary folder. Its name
    carries `new`, the hash of the bytes about to be written, so the next run can tell a finished write."""
    problems, left = [], ""
    for folder in (os.path.dirname(real), tempfile.gettempdir()):
        try:
            fd, kept = _temporary(folder, "." + os.path.basename(real) + ".npuprof-old-" + (new + "-" if new else ""))
        except OSError as exc:
            problems.append(_why(exc))
            continue
        try:
            try:
                _write_all(fd, original)
                DISK.fsync(fd)
            finally:
                DISK.close(fd)
            if _read(kept) == original:
                return kept
            problems.append("the copy did not read back the same")
        except OSError as exc:
            problems.append(_why(exc))
        left += _remove(kept)
    raise WriteError(f"cannot keep a copy of the old text before writing in place ({'; '.join(problems)}); "
                     f"the file is unchanged{left}")


# ---------------------------------------------------------------- small pieces

def _temporary(folder: str, prefix: str):
    """A new file in `folder` (O_EXCL, mode 0600), opened for writing: (fd, path)."""
    import secrets
    for _ in range(100):
        path = os.path.join(folder, prefix + secrets.token_hex(4))
        try:
            return DISK.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = DISK.write(fd, view)
        if n <= 0:
            raise OSError(28, os.strerror(28))
        view = view[n:]


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _read_fd(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks: List[bytes] = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _remove(path: str) -> str:
    """Remove a temporary file; what the message must add when that fails ("" when it went)."""
    try:
        DISK.unlink(path)
    except FileNotFoundError:
        pass
    except OSError:
        return f" (a temporary file is left: {path})"
    return ""


def _sync_folder(folder: str) -> None:
    """Make the rename durable; the rename is done whatever this says."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _problem(exc: Union[OSError, WriteError]) -> str:
    if isinstance(exc, WriteError):
        return str(exc)
    return f"cannot write: {_why(exc)}"


# ---------------------------------------------------------------- what a killed run left behind

STALE_SECONDS = 60              # younger leftovers may belong to a run still going on
_LEFTOVER = re.compile(r"\.(?P<name>.+)\.npuprof-(?:old-(?:(?P<new>[0-9a-f]{16})-)?)?[0-9a-f]{8}")


def _digest(data: bytes) -> str:
    import hashlib
    return hashlib.sha256(data).hexdigest()[:16]


def leftovers(paths: Sequence[str], now: Optional[float] = None) -> Tuple[List[Tuple[str, str]], int]:
    """What interrupted fixes left beside these files, each folder listed once: ([(file, the old-bytes copy
    that may hold its text)], how many stale temporary files were removed). Read only as regular files."""
    import time
    now = time.time() if now is None else now
    folders: dict = {}
    for path in paths:
        if path != "-":
            folders.setdefault(os.path.dirname(path), {})[os.path.basename(path)] = path
    reports, removed = [], 0
    for folder, names in folders.items():
        try:
            entries = os.listdir(folder or ".")
        except OSError:
            continue
        for entry in entries:
            m = _LEFTOVER.fullmatch(entry) if ".npuprof-" in entry else None
            if m is None or m.group("name") not in names:
                continue
            left, path = os.path.join(folder, entry), names[m.group("name")]
            try:
                st = os.lstat(left)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < STALE_SECONDS:
                continue
            if ".npuprof-old-" not in entry or _settled(path, left, m.group("new")):
                try:
                    os.unlink(left)
                    removed += 1
                except OSError:
                    pass
            else:
                reports.append((path, left))
        # (a copy kept in the temporary folder, where the file's own folder could not be written, is
        # named in the message of the run that made it; it is not looked for here)
    return reports, removed


def _settled(path: str, kept: str, new: Optional[str]) -> bool:
    """Whether the file holds the kept old bytes or the whole new ones (by their hash): nothing is lost by
    removing the copy. Anything unreadable or too large is not settled."""
    from .files import MAX_BYTES
    try:
        if os.path.getsize(path) > MAX_BYTES or os.path.getsize(kept) > MAX_BYTES:
            return False
        current = _read(path)
        return current == _read(kept) or (new is not None and _digest(current) == new)
    except OSError:
        return False
