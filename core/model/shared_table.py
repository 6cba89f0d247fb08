"""What the read-only views of one game share: the unit table and the casualty lines.

A view of the game at an entry (``Projection.state_at``) is the live state with the
entries after it taken back. Those entries change a handful of units; the rest of a
long campaign's table (thousands of units, thousands of casualty lines) is the same in
every view made while the live state stands still. A ``SharedTable`` is one frozen copy
of the live table and lines, made for the first view after the live state changed
and shared by every view made until it changes again; each view reads it through a
``UnitsAt`` (its own copies of the units its later entries changed, over the shared
table, minus the units they added) and a ``LinesAt`` (the first lines). A step then
costs what the entries it takes back changed, not the size of the game.

The table shares its Unit objects with the live state, as the views did before: it is
registered with the live state's ``ChangeTracker``, which gives it a copy of a unit
before the unit changes (``unit_replaced`` then tells the views, whose indexes held the
old object, to rebuild them).
"""

from __future__ import annotations

import itertools
from collections.abc import ItemsView, Iterator, Mapping, Sequence, ValuesView
from typing import Any, overload

from stockade.core.model.scroungings import Scroungings
from stockade.core.model.state import Casualty
from stockade.core.model.tracked_unit import ChangeTracker, Unit
from stockade.core.model.victory import VictoryBook


class SharedTable:
    """A frozen copy of the live unit table and casualty lines (and the Scroungings),
    shared by the views made while the live state did not change."""

    __slots__ = ("units", "casualties", "scrounged", "tracker", "_book", "__weakref__")

    def __init__(
        self,
        units: dict[str, Unit],
        casualties: Sequence[Casualty],
        scrounged: Scroungings,
        copy: bool = True,
    ):
        # ``copy`` False: the live table itself, for a view read before the live
        # state changes again (a long game's table is tens of MB)
        self.units = dict(units) if copy else units
        self.casualties = tuple(casualties)  # lines never change once booked
        self.scrounged = scrounged
        # the views' tracker: it records nothing (a view is never folded); its epoch
        # moves when a unit here is replaced, so their indexes rebuild
        self.tracker = ChangeTracker()
        self._book: VictoryBook | None = None

    def book(self, live: VictoryBook) -> VictoryBook:
        """The live victory book with its own copy of the rows the fold changes in
        place (the live book: the table is dropped when the live state changes)."""
        if self._book is None:
            self._book = live.with_rows()
        return self._book

    def unit_replaced(self) -> None:
        """A unit here was replaced by its copy (the live one is about to change):
        the views' prisoner indexes hold the old object."""
        self.tracker.trim()


class UnitsAt(Mapping[str, Unit]):
    """A view's unit table, read-only: ``own`` (the units the view's later entries
    changed, as they were) over the shared table's units but the ``dropped`` ones
    (the last ones, added later), in the table's order."""

    __slots__ = ("_table", "_base", "_own", "_n", "_dropped")

    def __init__(self, table: SharedTable, own: dict[str, Unit], dropped: frozenset[str]):
        self._table = table  # held: while it lives, the live state's tracker keeps it still
        self._base = base = table.units
        self._own = own
        self._n = len(base) - len(dropped)
        self._dropped = dropped

    def __getitem__(self, handle: str) -> Unit:
        unit = self._own.get(handle)
        if unit is not None:
            return unit
        if handle in self._dropped:
            raise KeyError(handle)
        return self._base[handle]

    def get(self, handle: str, default: Any = None) -> Any:
        unit = self._own.get(handle)
        if unit is not None:
            return unit
        if handle in self._dropped:
            return default
        return self._base.get(handle, default)

    def __contains__(self, handle: object) -> bool:
        return handle in self._base and handle not in self._dropped

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[str]:
        if self._dropped:
            return itertools.islice(self._base, self._n)
        return iter(self._base)

    def __reversed__(self) -> Iterator[str]:
        dropped = self._dropped
        return (h for h in reversed(self._base) if h not in dropped)

    def _values(self) -> Iterator[Unit]:
        units = itertools.islice(self._base.values(), self._n)
        own = self._own
        if not own:
            return units
        return (own.get(u.handle) or u for u in units)

    def values(self) -> ValuesView[Unit]:
        return _Values(self)

    def items(self) -> ItemsView[str, Unit]:
        return _Items(self)

    def changed(self) -> dict[str, Unit]:
        """The units of this view that differ from the table's, by their key there."""
        return dict(self._own)

    def __repr__(self) -> str:
        return f"UnitsAt({len(self)} units, {len(self._own)} of its own)"


class _Values(ValuesView[Unit]):
    _mapping: UnitsAt

    def __iter__(self) -> Iterator[Unit]:
        return self._mapping._values()


class _Items(ItemsView[str, Unit]):
    _mapping: UnitsAt

    def __iter__(self) -> Iterator[tuple[str, Unit]]:
        m = self._mapping
        return ((u.handle, u) for u in m._values())


class LinesAt(Sequence[Casualty]):
    """A view's casualty lines, read-only: the first ``n`` of the shared lines."""

    __slots__ = ("_lines", "_n")

    def __init__(self, lines: tuple[Casualty, ...], n: int):
        self._lines = lines
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Casualty: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Casualty, ...]: ...
    def __getitem__(self, i: int | slice) -> Casualty | tuple[Casualty, ...]:
        if isinstance(i, slice):
            return self._lines[: self._n][i]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("casualty line out of range")
        return self._lines[i]

    def __iter__(self) -> Iterator[Casualty]:
        return itertools.islice(self._lines, self._n)

    def __reversed__(self) -> Iterator[Casualty]:
        return reversed(self._lines[: self._n])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LinesAt({self._n} lines)"
