"""The parts of the victory book that grow with the log, as the fold keeps them: rows
changed in place, each change one (object, attribute, old value) triple of the event's
undo entry, like any tracked set (``core.model.tracked_unit``). Replaced whole, a
tuple of them cost each change the rows held, and every undo entry held its own copy:
N entries cost N^2 (8,000 ``control`` entries made a tally use 2.5 GB).

The projection's ``unapply`` puts a pre-image back with ``setattr(rows, attribute,
old)``; ``restore`` is the same for a view's copy (``state_at``). A frozen
``VictoryBook`` holds these rows; msgspec writes them as the arrays they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

_T = TypeVar("_T")

_ABSENT = None  # the pre-image of a Location set for the first time


class ControlRows(list[tuple[str, str]]):
    """Location control as the fold keeps it: (Location, side) rows, one per Location
    (matched in capitals) in the order first set, changed in place, each change one
    (object, attribute, old value) triple of the event's undo entry like any tracked
    set: the attribute is the Location in capitals, the value its row (``_ABSENT``:
    not set before). A "nobody" row stays (side ""), so a row never moves and an undo,
    newest first, puts back exactly what was there. O(1) a change, where a tuple
    replaced whole cost the Locations held, and every undo entry held its own copy.

    ``__dict__`` holds the current row of each Location (what the effects of an entry
    read as the attribute's new value); ``_at`` its position."""

    __slots__ = ("_at", "__dict__")
    _at: dict[str, int]

    def __init__(self, rows: Iterable[tuple[str, str]] = ()) -> None:
        super().__init__()
        object.__setattr__(self, "_at", {})
        for location, side in rows:
            self.put(location, side, None)

    def put(self, location: str, side: str, rec: list[Any] | None) -> None:
        """Set ``location``'s side, appending the pre-image to ``rec`` (an undo entry)."""
        key, row = location.upper(), (location, side)
        d = self.__dict__
        at = self._at.get(key)
        if rec is not None:
            rec.extend((self, key, d.get(key, _ABSENT)))
        if at is None:
            self._at[key] = len(self)
            self.append(row)
        else:
            self[at] = row
        d[key] = row

    def __setattr__(self, key: str, old: Any) -> None:
        """Put back ``key``'s row from an undo entry (the projection's ``unapply``)."""
        self.restore(key, old)

    def restore(self, key: str, old: tuple[str, str] | None) -> None:
        if old is None:  # set first by the event taken back: the newest row
            del self._at[key], self.__dict__[key]
            self.pop()
        else:
            self[self._at[key]] = self.__dict__[key] = old

    def side_of(self, location: str) -> str:
        row = self.__dict__.get(location.upper())
        return row[1] if row is not None else ""

    def copy(self) -> ControlRows:
        return ControlRows(self)


class AppendRows(list[_T]):
    """Lines appended in place (the units exited off a board edge); an undo entry holds
    the number of lines before (attribute ``count``, its new value in ``__dict__``)."""

    def __init__(self, lines: Iterable[_T] = ()) -> None:
        super().__init__(lines)
        self.__dict__["count"] = len(self)

    def add(self, lines: Iterable[_T], rec: list[Any] | None) -> None:
        """Append ``lines``, appending the count before to ``rec`` (an undo entry)."""
        if rec is not None:
            rec.extend((self, "count", len(self)))
        self.extend(lines)
        self.__dict__["count"] = len(self)

    def __setattr__(self, name: str, old: Any) -> None:
        """Put back the count from an undo entry (the projection's ``unapply``)."""
        self.restore(name, old)

    def restore(self, name: str, old: int) -> None:
        del self[old:]
        self.__dict__["count"] = old

    def copy(self) -> AppendRows[_T]:
        return AppendRows(self)
