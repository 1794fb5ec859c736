"""Whether this interpreter has already compiled a file's bytes: then they parse, and `check` needs no
syntax check of its own for a file without profiling markers (NPP192 can only be absent).

The proof is the bytecode cache CPython writes when it imports a module (`__pycache__/name.cpython-311.pyc`).
It is written only after the whole file compiled, and its header says from what: this interpreter's magic
number (the bytecode version, one per Python minor version, so the same grammar as our parser) and either
a hash of the source bytes (exact) or their modification time and size (what import itself trusts; we also
ask that the cache be written after the file's last change). Anything else (no cache, another Python,
another pycache prefix, a header that does not match, an unreadable file) is no proof, and the caller
checks the syntax itself. Never used for text that did not come from the file just now (stdin, an editor's
buffer): the header describes the file on disk.

The cache sits in the scanned tree, so it is read as untrusted: a regular file (a FIFO or a link is no
proof, and is not read), of at most MAX_PYC bytes, whose header is followed by what CPython writes there,
a module's code object (marshal's code type and a module's zero argument counts). A header alone (16
forged bytes) proves nothing. The code object is not loaded (marshal is not safe on hostile bytes), so a
body copied from another module's cache under a forged header still passes: only compiling the file
would tell, which is what this shortcut saves.
"""

from __future__ import annotations

import os
import stat
from importlib.util import MAGIC_NUMBER, cache_from_source, source_hash

_HEADER = 16                    # magic (4), flags (4), then a source hash (8) or mtime (4) and size (4)
_CODE = 0x63                    # marshal's TYPE_CODE ('c'); bit 0x80 (FLAG_REF) may be set on it
_MODULE_ARGS = bytes(12)        # argcount, posonlyargcount, kwonlyargcount: 0 for a module (3.8 to 3.13)
MAX_PYC = 64 * 1024 * 1024      # larger than any module's cache: a bigger "cache" is no proof


def _head(cached: str) -> bytes:
    """The header and the start of the code object, from a regular file only (never a FIFO or a link)."""
    fd = os.open(cached, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_PYC:
            return b""
        return os.read(fd, _HEADER + 1 + len(_MODULE_ARGS))
    finally:
        os.close(fd)


def compiled(path: str, data: bytes) -> bool:
    """True when this interpreter's bytecode cache of `path` was compiled from exactly `data`."""
    try:
        cached = cache_from_source(path)
        head = _head(cached)
        header, body = head[:_HEADER], head[_HEADER:]
        if len(header) < _HEADER or header[:4] != MAGIC_NUMBER:
            return False
        if len(body) < 1 + len(_MODULE_ARGS) or body[0] & 0x7F != _CODE or body[1:] != _MODULE_ARGS:
            return False            # a header with no module's code object after it
        flags = int.from_bytes(header[4:8], "little")
        if flags & 0b1:             # hash-based (PEP 552), checked or not: the hash of these very bytes
            return header[8:16] == source_hash(data)
        if flags:
            return False            # a flag this Python does not define
        source = os.stat(path)
        return (len(data) == source.st_size
                and int.from_bytes(header[8:12], "little") == int(source.st_mtime) & 0xFFFFFFFF
                and int.from_bytes(header[12:16], "little") == source.st_size & 0xFFFFFFFF
                and os.stat(cached).st_mtime_ns >= source.st_mtime_ns)
    except (OSError, ValueError, NotImplementedError):   # no cache; no cache tag (sys.implementation)
        return False
