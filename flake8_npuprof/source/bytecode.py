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
"""

from __future__ import annotations

import os
from importlib.util import MAGIC_NUMBER, cache_from_source, source_hash

_HEADER = 16                    # magic (4), flags (4), then a source hash (8) or mtime (4) and size (4)


def compiled(path: str, data: bytes) -> bool:
    """True when this interpreter's bytecode cache of `path` was compiled from exactly `data`."""
    try:
        cached = cache_from_source(path)
        with open(cached, "rb") as fh:
            header = fh.read(_HEADER)
        if len(header) < _HEADER or header[:4] != MAGIC_NUMBER:
            return False
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
