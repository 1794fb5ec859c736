"""Where the CLI's report goes: standard output or --output-file, and a reader that went away.

`npuprof check . | head -1` closes the pipe after one line: the rest of the report is dropped
quietly (no traceback, no "internal error"), while the work itself goes on, so `npuprof fix`
still writes every file it was asked to fix.
"""

from __future__ import annotations

import os
import sys
from typing import Optional, TextIO


def silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class Report:
    """A text sink that survives a closed pipe."""

    def __init__(self, path: Optional[str] = None):
        self.path = path
        self._file: Optional[TextIO] = None
        self.closed = False

    @property
    def stream(self) -> TextIO:
        if self.path is None:
            return sys.stdout
        if self._file is None:
            try:
                self._file = open(self.path, "w", encoding="utf-8", errors="backslashreplace", newline="")
            except OSError as exc:
                from ..source.config import UsageError
                raise UsageError(f"--output-file {self.path}: cannot write: {exc.strerror or exc}") from None
        return self._file

    def write(self, text: str) -> None:
        if self.closed or not text:
            return
        try:
            self.stream.write(text)
        except BrokenPipeError:
            self.closed = True
            silence_stdout()

    def write_bytes(self, data: bytes) -> None:
        """Bytes as they are (a file's own encoding and line endings: a diff, a fixed file on stdout)."""
        if self.closed or not data:
            return
        stream = self.stream
        try:
            stream.flush()
            if hasattr(stream, "buffer"):
                stream.buffer.write(data)
                stream.buffer.flush()
            else:                           # a stream without bytes underneath: the closest text
                stream.write(data.decode("utf-8", "backslashreplace"))
        except BrokenPipeError:
            self.closed = True
            silence_stdout()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        else:
            flush_stdout()


def warn(text: str) -> None:
    """A line on standard error that cannot stop the run (`2>&1 | head -1` closes that pipe too)."""
    try:
        print(text, file=sys.stderr)
    except (BrokenPipeError, ValueError):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stderr.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass


def flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
    except (OSError, ValueError):
        pass


def render(args, results, target) -> str:
    """The report of check (and of what fix leaves) in the format asked for."""
    from ..report import formats
    if getattr(args, "statistics", False):
        return formats.statistics(results, args.format)
    if args.format == "json":
        return formats.json_report(results)
    if args.format in ("sarif", "github"):
        from ..report import ci as ci_formats
        return ci_formats.sarif(results) if args.format == "sarif" else ci_formats.github(results)
    return formats.text(results, show_source=getattr(args, "show_source", False),
                        color=formats.use_color(args.output_file), verbose=getattr(args, "verbose", False))
