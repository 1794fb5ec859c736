"""LSP framing: a stream split into messages by their headers, within bounds. Both readers of the
language server use it, server_start's (up to `initialize`, nothing heavy imported) and server.py's
(afterwards, off the event loop); a stream that can no longer be split ends the server."""

from __future__ import annotations

from typing import BinaryIO, Optional

MAX_HEADER = 4096                   # bytes in one header line
MAX_MESSAGE = 64 * 1024 * 1024      # bytes in one body: a document at the input bound, JSON-escaped, fits


class FramingError(Exception):
    """The stream can no longer be split into messages: the server exits, and the editor starts a new one."""


def header_line(line: bytes, length: Optional[int]) -> Optional[int]:
    """The Content-Length known after one header line (length: the one known before it); both readers split
    the stream by these rules."""
    if len(line) > MAX_HEADER or not line.endswith(b"\n"):
        raise FramingError("a header line longer than 4,096 bytes")
    name, sep, value = line.decode("ascii", "replace").partition(":")
    if not sep:
        raise FramingError(f"a header line without a colon: {line[:60]!r}")
    if name.strip().lower() != "content-length":
        return length
    value = value.strip()
    if not value.isdigit():
        raise FramingError(f"Content-Length is not a number: {value[:40]!r}")
    return int(value)


def body_length(length: Optional[int]) -> int:
    """The length of the body the headers announced, within the bound."""
    if length is None:
        raise FramingError("a message without Content-Length")
    if length > MAX_MESSAGE:
        raise FramingError(f"a message of {length:,} bytes, over the {MAX_MESSAGE:,}-byte limit")
    return length


def read_message(stream: BinaryIO) -> Optional[bytes]:
    """One message's body (None: the stream ended between messages)."""
    length, first = None, True
    while True:
        line = stream.readline(MAX_HEADER + 1)
        if not line:
            if first:
                return None
            raise FramingError("the stream ended inside a message's headers")
        first = False
        if line in (b"\r\n", b"\n"):
            break
        length = header_line(line, length)
    length = body_length(length)
    body = _read_exactly(stream, length)
    if len(body) < length:
        raise FramingError(f"the stream ended {length - len(body):,} bytes into a message's body")
    return body


def _read_exactly(stream: BinaryIO, n: int) -> bytes:
    """n bytes, or fewer only at the end of the stream (a pipe may hand over a body in pieces)."""
    chunks, left = [], n
    while left:
        chunk = stream.read(left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
