"""The effective history's records, in order, without holding a long log's records.

The fold (``core.book.projection``) walks the effective history: which records count
after undo, redo, strikes and amendments (``core.log.timeline``). A long log is read
piece by piece (``core.log.records.LogRecords``) and none of its records is kept: each
place of the history then holds the seq of the line its record is read from when asked
for (one block read and one decode; a block changed on disk since it was read is
refused by name, never decoded as if it were the same). A record put in a place later
is held by its seq too when its line holds it (a record folded again), else held as a
list holds it (an entry written in this process, an amendment's event).

Memory: a pointer a place (an int shared with the projection's ``seqs``), against
~350 bytes a place for a decoded record and its strings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Generic, Protocol, TypeVar, overload

from stockade.core.log.journal_errors import JournalError


class _Sequenced(Protocol):
    @property
    def seq(self) -> int: ...


R = TypeVar("R", bound=_Sequenced)
_SEQS_ONLY = frozenset((int,))


class EffectiveRecords(Sequence[R], Generic[R]):
    """Records by place in the effective history: each held, or read from ``lines``
    (the log's records by line: seq n at index n - 1) by the seq held in its place."""

    __slots__ = ("_items", "_lines")

    def __init__(self, items: Iterable[R | int] = (), lines: Sequence[R] | None = None) -> None:
        self._items: list[R | int] = list(items)
        self._lines = lines
        if lines is None and any(type(item) is int for item in self._items):
            raise ValueError("a place held by seq needs the log's records to read it from")

    # ------------------------------------------------------------- reading
    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> R: ...

    @overload
    def __getitem__(self, index: slice) -> list[R]: ...

    def __getitem__(self, index: int | slice) -> R | list[R]:
        if isinstance(index, slice):
            return list(map(self._record, self._items[index]))
        return self._record(self._items[index])

    def __iter__(self) -> Iterator[R]:
        return map(self._record, self._items)

    def records(self, start: int = 0, stop: int | None = None) -> Iterator[R]:
        """The records of places ``start`` to ``stop``, one at a time (a fold of many
        never holds them all)."""
        return map(self._record, islice(self._items, start, stop))

    def seqs(self) -> list[int]:
        """Each place's seq, none of the records read."""
        items = self._items
        if set(map(type, items)) <= _SEQS_ONLY:  # every place held by its seq (in C)
            return items.copy()  # type: ignore[return-value]
        return [item if type(item) is int else item.seq for item in self._items]  # type: ignore[union-attr]

    def held(self) -> int:
        """How many places hold their record (the rest are read when asked for)."""
        return sum(1 for item in self._items if type(item) is not int)

    def _record(self, item: R | int) -> R:
        if type(item) is int:
            assert self._lines is not None
            return self._lines[item - 1]
        return item  # type: ignore[return-value]

    # ------------------------------------------------------------- changing
    def read_from(self, old: Sequence[R], lines: Sequence[R]) -> None:
        """Read the places holding a seq from ``lines`` now, where they were read from
        ``old``: the same records, read again from the file rather than held
        (``core.log.read_back``)."""
        if self._lines is old:
            self._lines = lines

    def append(self, record: R) -> None:
        """Put ``record`` in the next place: by its seq when it is the record its line
        holds (one folded again after a strike or a redo), so that folding a long
        history again never leaves it held decoded; else held (a new entry, an
        amendment's event, or a line that can no longer be read as it was)."""
        lines, seq = self._lines, record.seq
        if lines is not None and 0 < seq <= len(lines):
            try:
                same = lines[seq - 1] == record
            except JournalError:
                same = False
            if same:
                self._items.append(seq)
                return
        self._items.append(record)

    def pop(self) -> None:
        """Take the last place away (its record is not read: the caller has its seq)."""
        self._items.pop()

    def __delitem__(self, index: slice) -> None:
        del self._items[index]


__all__ = ["EffectiveRecords"]
