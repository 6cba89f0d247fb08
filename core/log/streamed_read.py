"""A sound long log read piece by piece, never whole (``stream``).

The checks are the fast path's (``core.log.reader``: every line current, whole, in
order, within its bounds, the header on line 1 only), made on each piece of whole lines
as it is read; anything else -- a torn tail, a bad or old line -- is given back as None
before a byte is trusted, and the caller reads the log whole with ``reader.load``,
which names the line. Only a log over ``core.log.store.STREAM_FROM`` bytes is read this
way: a short game's open never loads this module.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Generic

import msgspec

from stockade.core.log.journal_errors import JournalError
from stockade.core.log.log_file import MAX_LOG_BYTES, LogFileRefused, open_log
from stockade.core.log.log_lines import MAX_LINE_BYTES
from stockade.core.log.reader import (
    LogFormat,
    R,
    bad_line_break,
    in_order,
    lines_fit,
    parse_line,
)
from stockade.core.log.records import LineIndex, LogRecords

# A long log is read in pieces of about this many bytes (whole lines each).
STREAM_CHUNK = 1 << 18


class Proven:
    """A prefix of a log proven to be the bytes once read whole and sound (a snapshot
    of it is keyed by their digest): ``size`` bytes, ``lines`` lines, read without
    decoding a line, then ``holds()`` (have the bytes read the digest that proves it?).
    A plain class: a dataclass is made at import, which every command pays."""

    __slots__ = ("holds", "index", "lines", "size")

    def __init__(
        self,
        size: int,
        lines: int,
        holds: Callable[[], bool],
        index: LineIndex | None = None,
    ) -> None:
        self.size, self.lines, self.holds = size, lines, holds
        # the index of its first lines, made from the very bytes it proves: taken in,
        # their bytes only hashed (not split into lines and summed again)
        self.index = index


class StreamedLog(msgspec.Struct, Generic[R]):
    """A sound log read piece by piece (``stream``): its records held or dropped."""

    records: LogRecords[R]
    size: int  # the bytes read: every line whole and sound


def stream(
    path: Path,
    fmt: LogFormat[R],
    keep: Callable[[R], bool],
    on_bytes: Callable[[bytes], None] | None = None,
    on_records: Callable[[list[R]], None] | None = None,
    proven: Proven | None = None,
) -> StreamedLog[R] | None:
    """A sound log -- every line current, whole, in order, within its bounds, the
    header on line 1 only -- read a piece at a time, never whole: the checks of the
    fast path (``core.log.reader``) made on each piece, each record kept only if ``keep``
    says so (the rest are read again from the file when asked for: ``LogRecords``).
    ``on_bytes`` sees every byte read, in order (a digest of what was read), and
    ``on_records`` every record, a piece at a time (a timeline built as it is read),
    each only once its piece is checked whole. None for
    anything else -- a torn tail, a bad or old line --, before a byte is trusted: the
    caller then reads it whole with ``load``, which names the line. Raises JournalError
    if the file cannot be read at all. ``proven``: a prefix read without decoding
    it (its lines are decoded when asked for); None when it does not hold (the
    caller reads the log as it would without it)."""
    try:
        fd = open_log(str(path))
    except LogFileRefused as exc:
        raise JournalError(str(exc), exc.errno) from None
    # A line read again is the very bytes checked here (its block's CRC says so), and
    # every line passed is current: the decoder alone gives the record it gave then.
    decode = fmt.decoder.decode if proven is None else partial(_decode_read, fmt)
    records: LogRecords[R] = LogRecords(fd, str(path), decode)
    check = _PieceCheck(fmt)
    carry = b""
    try:
        if proven is not None:
            if not _read_proven(fd, records, proven, on_bytes):
                records.close()
                return None
            check.expected, check.headers = proven.lines + 1, 1
        while True:
            part = os.read(fd, STREAM_CHUNK)
            if not part:
                break
            if records.size + len(carry) + len(part) > MAX_LOG_BYTES:
                break  # the careful path says it is too large
            data = carry + part if carry else part
            cut = data.rfind(b"\n") + 1
            if not cut:
                if len(data) > MAX_LINE_BYTES:
                    break
                carry = data
                continue
            piece, carry = data[:cut], data[cut:]
            decoded = check.piece(piece)
            if decoded is None:
                break
            records.extend_read(decoded, keep, piece)
            if on_bytes is not None:
                on_bytes(piece)
            if on_records is not None:
                on_records(decoded)
        if part or carry or not check.whole():
            records.close()
            return None
    except OSError as exc:
        records.close()
        raise JournalError(f"{path}: cannot read ({exc.strerror or exc})", exc.errno) from None
    except BaseException:
        records.close()
        raise
    return StreamedLog(records, records.size)


def _decode_read(fmt: LogFormat[R], line: bytes) -> R:
    """A line of a proven prefix, read again: current, or of an older schema (a prefix
    once read whole may hold one), upgraded as ``load`` upgrades it."""
    try:
        return fmt.decoder.decode(line)
    except msgspec.ValidationError:
        return parse_line(fmt, line)


def _read_proven(
    fd: int, records: LogRecords[R], proven: Proven, on_bytes: Callable[[bytes], None] | None
) -> bool:
    """Read ``proven``'s bytes into ``records`` (indexed, not decoded) and ``on_bytes``;
    whether they are its lines, whole, and ``proven.holds()`` then."""
    left, lines, carry = proven.size, 0, b""
    index = proven.index
    if index is not None and 0 < index.end <= left:
        try:
            records.adopt(index)
        except ValueError:
            return False
        lines, skip = index.lines, index.end
        left -= skip
        while skip > 0:  # hashed on the way, as every byte of the prefix
            part = os.read(fd, min(STREAM_CHUNK, skip))
            if not part:
                return False
            skip -= len(part)
            if on_bytes is not None:
                on_bytes(part)
        if not part.endswith(b"\n"):
            return False
    while left > 0:
        part = os.read(fd, min(STREAM_CHUNK, left))
        if not part:
            return False
        left -= len(part)
        data = carry + part if carry else part
        cut = data.rfind(b"\n") + 1
        piece, carry = data[:cut], data[cut:]
        if piece:
            lines += records.extend_unread(piece)
            if on_bytes is not None:
                on_bytes(piece)
    return not carry and lines == proven.lines and proven.holds()


class _PieceCheck(Generic[R]):
    """The fast path's checks (``core.log.reader``), one piece of whole lines at a time."""

    def __init__(self, fmt: LogFormat[R]) -> None:
        self.fmt = fmt
        self.expected = 1
        self.headers = 0

    def piece(self, blob: bytes) -> list[R] | None:
        """The records of ``blob`` if every line passes; else None."""
        fmt = self.fmt
        if not blob.endswith(b"}\n") or not blob.startswith(b"{"):
            return None
        if bad_line_break(blob) or not lines_fit(blob):
            return None
        try:
            records = fmt.decoder.decode_lines(blob)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
            return None
        if len(records) != blob.count(b"\n"):
            return None
        if self.expected == 1 and not isinstance(records[0], fmt.header):
            return None
        handles: set[str] = set()
        counted = in_order(fmt, records, self.expected, handles)
        if counted is None:
            return None
        expected, headers = counted
        self.headers += headers
        if self.headers != 1:
            return None
        strict = fmt.strict
        if strict is not None and not strict.vouch_collected(blob, handles):
            return None
        self.expected = expected
        return records

    def whole(self) -> bool:
        return self.headers == 1


__all__ = ["Proven", "STREAM_CHUNK", "StreamedLog", "stream"]
