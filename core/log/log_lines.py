"""Reading a log's bytes as lines: its whole lines, and the torn tail after the last
newline (what a crash mid-write can leave).

Separate from the journal (``core.log.journal``), which appends under a lock: reading
needs no descriptor, no lock and no write, and the reading loop, ``verify`` and a
follower read a log this way without opening a ``Journal``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import msgspec

from stockade.core.log.journal_errors import JournalError
from stockade.core.log.log_file import LogFileRefused, open_log, read_log_bytes

# Refuse a line longer than this before parsing it: a log received from an opponent
# must not be able to make us allocate or parse without bound. A real record is a few
# hundred bytes; the largest (a game header with many sides' data) stays far below.
MAX_LINE_BYTES = 64 * 1024


class RawLine(msgspec.Struct):
    number: int  # 1-based line number in the file
    data: bytes  # without the trailing newline


class ReadResult(msgspec.Struct):
    lines: list[RawLine]
    torn_tail: bytes | None = None  # bytes after the last newline, if any
    warnings: list[str] = msgspec.field(default_factory=list)


def read_bytes(path: Path) -> bytes:
    """The whole file, or a JournalError naming the problem (never another exception):
    a regular file within the size bound, checked on the open file before it is read
    (``core.log.log_file``)."""
    try:
        return read_log_bytes(str(path))
    except LogFileRefused as exc:
        raise JournalError(str(exc), exc.errno) from None


def iter_lines(path: Path, chunk: int = 4 << 20) -> Iterator[bytes]:
    """The whole lines of the file at ``path`` (without their newlines), read a piece
    at a time: never the whole file at once. A torn tail is not a line. Raises
    JournalError if the file cannot be read."""
    try:
        fd = open_log(str(path))
    except LogFileRefused as exc:
        raise JournalError(str(exc), exc.errno) from None
    try:
        carry = b""
        while True:
            try:
                part = os.read(fd, chunk)
            except OSError as exc:
                raise JournalError(f"{path}: cannot read ({exc.strerror})", exc.errno) from None
            if not part:
                return
            data = carry + part if carry else part
            cut = data.rfind(b"\n")
            if cut < 0:
                carry = data
                continue
            carry = data[cut + 1 :]
            yield from data[:cut].split(b"\n")
    finally:
        os.close(fd)


def split_lines(blob: bytes) -> tuple[list[bytes], bytes]:
    """Complete lines (without newlines) and the bytes after the last newline."""
    last_nl = blob.rfind(b"\n")
    if last_nl < 0:
        return [], blob
    return blob[:last_nl].split(b"\n"), blob[last_nl + 1 :]


def read_lines(path: Path) -> ReadResult:
    """Read every complete line; report a torn tail (bytes after the last newline)."""
    chunks, tail = split_lines(read_bytes(path))
    result = ReadResult(lines=[RawLine(n, c) for n, c in enumerate(chunks, 1)])
    if tail:
        result.torn_tail = tail
    return result
