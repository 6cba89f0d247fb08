"""A long log's records without holding them all: the file on disk is the store.

Opening a long log decodes every line once (``core.log.streamed_read.stream``), keeps the
records the game holds anyway (its domain events: the timeline and the fold hold
them) and drops the rest (undo, redo, strike, unstrike). What a dropped record said
is read again from the file when something asks for it (the history, an undo-to's
anchor, a strike's reason): every ``BLOCK`` lines, the index keeps where the block
starts and a CRC-32 of its bytes, so a record is one short read and one decode away,
and a block changed on disk since it was read is refused by name, never decoded as
if it were the same (nothing in a log is rewritten in place; another program could).

The file is read through a descriptor opened once, before the first byte was read:
a file put in the log's place afterwards (a rename) is never read as this one.

A record appended after opening (the game's own writes) is held, as a list holds it;
but while a group is staged (``stockade run``: ``core.log.staging``) its lines are
indexed as they are staged, at the offsets they will have in the log, and only the last
``WINDOW`` of its records stay held: an older one is read again from the spill until
the group is written, then from the log (the very bytes, at the very offsets). So a
script of any length holds a slot a record, not the record.
Memory: one pointer a line (the slot of a record held or dropped) and 12 bytes a
block, against ~200 bytes a line for a decoded undo record and its time stamp.
"""

from __future__ import annotations

import contextlib
import os
import weakref
import zlib
from array import array
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate, repeat
from typing import Generic, TypeVar, overload

import msgspec

from stockade.core.log.derived import Content
from stockade.core.log.journal_errors import JournalError

TYPE_CHECKING = False  # typing costs ~2 ms to import; mypy reads this the same way

if TYPE_CHECKING:  # a staged group's
    from stockade.core.log.staging import StagedGroup

R = TypeVar("R")

BLOCK = 64  # lines a block of the index covers (one read of ~8-20 KB re-reads a line)
WINDOW = 2 * BLOCK  # a staged group's last records, held (what its next lines read)


class LineIndex(msgspec.Struct, array_like=True, frozen=True):
    """Where a file's first ``lines`` lines (its first ``end`` bytes) are: each block's
    start and CRC-32. Kept in a snapshot as an array of the four, as a named tuple was
    (a Struct is made at import for a sixth of what ``NamedTuple`` costs)."""

    lines: int
    end: int
    starts: list[int]
    sums: list[int]


class LogRecords(Sequence[R], Generic[R]):
    """Records by line (index 0 is line 1), held or read again from the file."""

    def __init__(self, fd: int, path: str, decode: Callable[[bytes], R]) -> None:
        self._file = _Descriptor(fd)  # shared by prefixes and copies: closed with the last
        self._fd = fd
        self._path = path
        self._decode = decode
        self._items: list[R | None] = []
        self._starts = array("q")  # file offset where each block of BLOCK lines starts
        self._sums = array("I")  # CRC-32 of each block's bytes
        self._end = 0  # offset after the last line read from the file
        self._on_file = 0  # lines read from the file (the rest were appended)
        self._cached: tuple[int, list[bytes]] = (-1, [])  # the last block read again
        # A group staged past the log's end, and the log's lines before it
        self._staged: tuple[StagedGroup, int] | None = None

    # ------------------------------------------------------------- building
    def extend_read(self, records: list[R], keep: Callable[[R], bool], data: bytes) -> None:
        """``records``, decoded from ``data`` (whole lines, one each, read from the file
        right after the lines before): each held if ``keep`` says so, else dropped."""
        self._index(data, data.split(b"\n")[:-1])
        self._items.extend([r if keep(r) else None for r in records])

    def _index(self, data: bytes, lines: list[bytes]) -> None:
        """Index ``data``, whose lines are ``lines``: where each block starts, its sum."""
        offset, n, count = self._end, self._on_file, len(lines)
        starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
        view = memoryview(data)
        first = -n % BLOCK  # the chunk's first line that starts a block
        if first and self._sums:  # the block begun in the chunk before goes on here
            self._sums[-1] = zlib.crc32(view[: starts[min(first, count)]], self._sums[-1])
        for k in range(first, count, BLOCK):
            self._starts.append(offset + starts[k])
            self._sums.append(zlib.crc32(view[starts[k] : starts[min(k + BLOCK, count)]]))
        self._on_file = n + count
        self._end = offset + len(data)

    def extend_unread(self, data: bytes) -> int:
        """Take in ``data`` (whole lines, read from the file right after the lines
        before) without decoding a line: each is decoded when asked for. Returns how
        many lines it holds."""
        lines = data.split(b"\n")[:-1]
        self._index(data, lines)
        self._items.extend(repeat(None, len(lines)))
        return len(lines)

    def line_index(self) -> LineIndex:
        """The index of the lines read from the file (how many, where they end, each
        block's start and sum): kept with a snapshot of those very bytes, so that an
        open proving them unchanged takes it in (``adopt``) instead of making it again."""
        return LineIndex(self._on_file, self._end, list(self._starts), list(self._sums))

    def adopt(self, index: LineIndex) -> None:
        """Take in the first lines of the file with their ``index`` (made from the very
        bytes they are, as their digest proved), without reading them: each is decoded
        when asked for, as after ``extend_unread``. ValueError when it does not fit (this
        sequence must be empty; blocks as ``_index`` makes them)."""
        lines, end, starts, sums = index.lines, index.end, index.starts, index.sums
        if self._items or self._on_file:
            raise ValueError("an index is taken in before any line")
        if min(lines, end) < 0 or not (len(starts) == len(sums) == -(-lines // BLOCK)):
            raise ValueError("the index does not fit its lines")
        if starts and (starts[0] != 0 or starts != sorted(starts) or starts[-1] >= end):
            raise ValueError("the index's blocks are out of order")
        self._starts, self._sums = array("q", starts), array("I", sums)
        self._on_file, self._end = lines, end
        self._items.extend(repeat(None, lines))

    def append(self, record: R) -> None:
        items = self._items
        items.append(record)
        staged = self._staged
        if staged is not None:  # a staged group's record: held while it is recent
            old = len(items) - 1 - WINDOW
            if staged[1] <= old < self._on_file:
                items[old] = None

    def index_held(self, size: int) -> None:
        """Place the records held after those read from the file (the game's own
        writes) in it: the file's bytes after the lines read, up to ``size``, are their
        lines, one each. They stay held. ValueError when those bytes are not so many
        whole lines; JournalError when they cannot be read."""
        data = self._raw(self._end, size) if size > self._end else b""
        lines = data.split(b"\n")[:-1]
        if len(lines) != len(self._items) - self._on_file or data[-1:] not in (b"", b"\n"):
            raise ValueError("the bytes are not the records held")
        self._index(data, lines)

    def stage_into(self, group: StagedGroup) -> None:
        """Index each line of ``group`` as it is staged (``stage``), where it will lie in
        the log, so that its records need not be held. ValueError when the lines held
        are not all placed in the file (``index_held``) or the group does not follow them."""
        if self._on_file != len(self._items) or self._end != group.start:
            raise ValueError("the group does not follow the lines indexed")
        self._staged = (group, self._on_file)

    def stage(self, data: bytes) -> None:
        """Index ``data``, lines just staged (whole, in the group's order): their records
        are appended next."""
        if self._staged is None or not self._staged[0].spilled:
            raise ValueError("no group is staged")
        n = self._on_file
        if self._cached[0] >= n // BLOCK:  # the block grows: read it again
            self._cached = (-1, [])
        count, within = data.count(b"\n"), n % BLOCK
        if within > 0 and within + count <= BLOCK:  # (most often) the last block grows
            self._sums[-1] = zlib.crc32(data, self._sums[-1])
        elif not within and count <= BLOCK:  # it starts a block
            self._starts.append(self._end)
            self._sums.append(zlib.crc32(data))
        else:
            self._index(data, data.split(b"\n")[:-1])
            return
        self._on_file, self._end = n + count, self._end + len(data)

    def unstage(self) -> None:
        """The group is written (its lines are read from the log now, at the offsets
        they were indexed at) or dropped (they are never read again: ``truncate``)."""
        if self._staged is not None:
            self._staged[0].spilled = False

    def truncate(self, keep: int) -> None:
        """Keep only the first ``keep`` records (a group never accepted goes)."""
        if keep >= max(len(self._items), self._on_file):
            return
        staged = self._staged
        if staged is not None and keep <= staged[1]:
            self._staged = None  # the group's lines go; reading them never again
        if keep < self._on_file:
            if staged is not None and keep == staged[1]:
                end = staged[0].start  # the group's block may lie in a spill that is gone
            else:
                end = self._line_end(keep) if keep else 0
            blocks = -(-keep // BLOCK)
            del self._starts[blocks:]
            del self._sums[blocks:]
            self._on_file, self._end = keep, end
            if keep % BLOCK:  # the last block is partial now: its sum covers fewer lines
                self._sums[-1] = zlib.crc32(self._raw(self._starts[-1], end))
            self._cached = (-1, [])
        del self._items[keep:]

    def close(self) -> None:
        """Close the descriptor now (the game is closed): a record not held can no
        longer be read, by this sequence or any copy of it."""
        self._file.close()

    # ------------------------------------------------------------- reading
    @property
    def size(self) -> int:
        """Bytes read from the file: up to the end of its last line read."""
        return self._end

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> R: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[R]: ...

    def __getitem__(self, index: int | slice) -> R | Sequence[R]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self._items))
            if step != 1:
                raise ValueError("a log's records are sliced in order only")
            if start == 0:
                return self.prefix(stop)
            return _OffsetView(self, start, stop)
        item = self._items[index]
        if item is not None:
            return item
        n = index if index >= 0 else len(self._items) + index
        return self._read(n)

    def __iter__(self) -> Iterator[R]:
        """Every record in order; a dropped one decoded from its block, read once."""
        items = self._items
        n = 0
        while n < len(items):
            item = items[n]
            if item is not None:
                yield item
                n += 1
                continue
            block = n // BLOCK
            lines = self._block_lines(block)
            first = block * BLOCK
            stop = min(first + len(lines), len(items))
            while n < stop:
                got = items[n]
                yield got if got is not None else self._decoded(n, lines[n - first])
                n += 1

    def held(self) -> Iterator[R]:
        """The records held (every one but those read again when asked for), in order."""
        return (item for item in self._items if item is not None)

    def copy(self) -> LogRecords[R]:
        return self.prefix(len(self._items))

    def prefix(self, stop: int) -> LogRecords[R]:
        """The first ``stop`` records as a sequence of their own: the index is copied
        (12 bytes a block), the slots too (a pointer each); the descriptor is shared."""
        out: LogRecords[R] = LogRecords.__new__(LogRecords)
        out._file, out._fd, out._path, out._decode = self._file, self._fd, self._path, self._decode
        out._cached, out._staged = (-1, []), self._staged
        out._items = self._items[:stop]
        out._starts, out._sums = array("q", self._starts), array("I", self._sums)
        out._on_file, out._end = self._on_file, self._end
        if stop < self._on_file:
            out.truncate(stop)
        return out

    def _read(self, n: int) -> R:
        if n >= self._on_file:
            raise IndexError(n)
        block = n // BLOCK
        return self._decoded(n, self._block_lines(block)[n - block * BLOCK])

    def _decoded(self, n: int, line: bytes) -> R:
        try:
            return self._decode(line)
        except ValueError as exc:
            raise JournalError(f"{self._path}: line {n + 1}: {exc}") from None

    def _raw(self, start: int, end: int) -> bytes:
        group = self._staged[0] if self._staged is not None else None
        try:
            if group is None or not group.spilled or end <= group.start:
                return os.pread(self._fd, end - start, start)
            cut = max(start, group.start)  # past it, the lines are in the spill
            head = os.pread(self._fd, cut - start, start) if start < cut else b""
            return head + group.read(cut - group.start, end - cut)
        except OSError as exc:
            raise JournalError(f"{self._path}: cannot read it again ({exc.strerror})") from None

    def _block_lines(self, block: int) -> list[bytes]:
        """The lines of ``block`` as read again now, checked against its sum."""
        cached_block, lines = self._cached
        if cached_block == block:
            return lines
        start = self._starts[block]
        end = self._starts[block + 1] if block + 1 < len(self._starts) else self._end
        data = self._raw(start, end)
        if len(data) != end - start or zlib.crc32(data) != self._sums[block]:
            first = block * BLOCK + 1
            raise JournalError(
                f"{self._path}: lines {first}-{min(first + BLOCK, self._on_file + 1) - 1} "
                "are no longer what was read when the game was opened (another program "
                "changed the log); open it again"
            )
        lines = data.split(b"\n")[:-1]
        self._cached = (block, lines)
        return lines

    def _line_end(self, keep: int) -> int:
        """The offset after line ``keep`` (1-based) of the file."""
        block = (keep - 1) // BLOCK
        lines = self._block_lines(block)[: keep - block * BLOCK]
        return self._starts[block] + sum(len(line) + 1 for line in lines)

    def prefix_digest(self, n: int) -> str | None:
        """The digest (``derived.Content``) of the file's first ``n`` bytes, read again
        a block at a time, each block checked against the sum it had when it was read (the
        very bytes read, never what another program put there since: JournalError); None
        when ``n`` does not end a block's line or lies past the lines read."""
        if not 0 < n <= self._end:
            return None
        digest = Content()  # the digest the log's content is keyed by
        for block in range(len(self._starts)):
            start = self._starts[block]
            if start >= n:
                break
            lines = self._block_lines(block)
            stop = self._starts[block + 1] if block + 1 < len(self._starts) else self._end
            if n < stop:  # the prefix ends inside this block: at one of its lines' ends
                ends = list(accumulate((len(line) + 1 for line in lines), initial=start))
                if n not in ends:
                    return None
                digest.extend(b"\n".join(lines[: ends.index(n)]) + b"\n")
                break
            digest.extend(b"\n".join(lines) + b"\n")
        return digest.digest()


class _OffsetView(Sequence[R]):
    """``records[start:stop]`` of a ``LogRecords``, read through it."""

    def __init__(self, parent: LogRecords[R], start: int, stop: int) -> None:
        self._parent, self._start, self._stop = parent, start, max(start, stop)

    def __len__(self) -> int:
        return self._stop - self._start

    @overload
    def __getitem__(self, index: int) -> R: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[R]: ...

    def __getitem__(self, index: int | slice) -> R | Sequence[R]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise ValueError("a log's records are sliced in order only")
            return _OffsetView(self._parent, self._start + start, self._start + stop)
        n = index if index >= 0 else len(self) + index
        if not 0 <= n < len(self):
            raise IndexError(index)
        return self._parent[self._start + n]

    def __iter__(self) -> Iterator[R]:
        parent = self._parent  # by index: a block read again serves its every line
        for n in range(self._start, min(self._stop, len(parent))):
            yield parent[n]


class _Descriptor:
    """The file's descriptor, closed when the last sequence reading it is gone."""

    __slots__ = ("__weakref__", "close")

    def __init__(self, fd: int) -> None:
        self.close = weakref.finalize(self, _close, fd)


def _close(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.close(fd)


__all__ = ["BLOCK", "WINDOW", "LogRecords"]
