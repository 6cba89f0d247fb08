"""The effective history's records, in order, without holding a long log's records.

The fold (``core.book.projection``) walks the effective history: which records count
after undo, redo, strikes and amendments (``core.log.timeline``). A long log is read
piece by piece (``core.log.records.LogRecords``) and none of its records is kept: each
place of the history then holds the seq of the line its record is read from when asked
for (one block read and one decode; a block changed on disk since it was read is
refused by name, never decoded as if it were the same). A record put in a place later
is held by its seq too when its line holds it (a record folded again), else held as a
list holds it (an entry written in this process, an amendment's event).

Memory: 16 bytes a place (its seq in an array, its slot: no int object per place),
against ~350 bytes a place for a decoded record and its strings.
"""

from __future__ import annotations

from array import array
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
    (the log's records by line: seq n at index n - 1) by the seq of its place."""

    __slots__ = ("_held", "_lines", "_seqs")

    def __init__(
        self, items: Iterable[R | int] | array[int] = (), lines: Sequence[R] | None = None
    ) -> None:
        """``items``: each place's record, or its seq (read from ``lines``); an array of
        seqs is taken as it is (the caller's own, never changed by it after)."""
        self._seqs = array("q")  # each place's seq
        self._held: list[R | None] = []  # each place's record, None: read from ``lines``
        self._lines = lines
        if lines is not None and isinstance(items, array):  # seqs alone: taken, not copied
            self._seqs = items
            self._held = [None] * len(items)
            return
        items = list(items)
        if lines is not None and set(map(type, items)) <= _SEQS_ONLY:  # (in C)
            self._seqs.extend(items)  # type: ignore[arg-type]
            self._held = [None] * len(items)
            return
        for item in items:
            if type(item) is int:
                if lines is None:
                    raise ValueError("a place held by seq needs the log's records to read it from")
                self._seqs.append(item)
                self._held.append(None)
            else:
                self._seqs.append(item.seq)  # type: ignore[union-attr]
                self._held.append(item)  # type: ignore[arg-type]

    # ------------------------------------------------------------- reading
    def __len__(self) -> int:
        return len(self._seqs)

    @overload
    def __getitem__(self, index: int) -> R: ...

    @overload
    def __getitem__(self, index: slice) -> list[R]: ...

    def __getitem__(self, index: int | slice) -> R | list[R]:
        if isinstance(index, slice):
            return list(map(self._record, self._held[index], self._seqs[index]))
        return self._record(self._held[index], self._seqs[index])

    def __iter__(self) -> Iterator[R]:
        return map(self._record, self._held, self._seqs)

    def records(self, start: int = 0, stop: int | None = None) -> Iterator[R]:
        """The records of places ``start`` to ``stop``, one at a time (a fold of many
        never holds them all)."""
        return map(self._record, islice(self._held, start, stop), islice(self._seqs, start, stop))

    def seqs(self) -> array[int]:
        """Each place's seq, none of the records read: the very array this sequence
        keeps (the fold's ``seqs``), changed only as its places are."""
        return self._seqs

    def held(self) -> int:
        """How many places hold their record (the rest are read when asked for)."""
        return len(self._held) - self._held.count(None)

    def _record(self, held: R | None, seq: int) -> R:
        if held is None:
            assert self._lines is not None
            return self._lines[seq - 1]
        return held

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
        self._seqs.append(seq)
        if lines is not None and 0 < seq <= len(lines):
            try:
                same = lines[seq - 1] == record
            except JournalError:
                same = False
            if same:
                self._held.append(None)
                return
        self._held.append(record)

    def pop(self) -> None:
        """Take the last place away (its record is not read: the caller has its seq)."""
        self._seqs.pop()
        self._held.pop()

    def __delitem__(self, index: slice) -> None:
        del self._seqs[index]
        del self._held[index]


__all__ = ["EffectiveRecords"]
