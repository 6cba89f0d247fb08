"""The state's two indexes: where the prisoners are (by Guard) and which units stand in
each Location.

Separate from ``core.model.state`` because they are a cache, not the game: each is
rebuilt from ``GameState.units`` or brought up to date from its ``ChangeTracker``'s
lists (``GameState._index`` and ``GameState._locations`` do that), and nothing in them
is ever recorded, cloned or undone.
"""

from __future__ import annotations

from stockade.core.model.tracked_unit import ACTIVE, PRISONER, UNARMED, ChangeTracker, Unit


class PrisonerIndex:
    """Where the prisoners are: guard handle -> {prisoner handle: Unit}, plus each
    unit's position in ``GameState.units`` (results keep the units' order)."""

    __slots__ = ("units_id", "epoch", "pos", "n", "order", "next", "by_guard", "where")

    def __init__(self, units: dict[str, Unit], tracker: ChangeTracker) -> None:
        self.units_id = id(units)
        self.epoch = tracker.epoch
        self.pos = len(tracker.dirty)
        self.n = len(units)
        self.order = {h: i for i, h in enumerate(units)}
        self.next = len(units)
        self.by_guard: dict[str | None, dict[str, Unit]] = {}
        self.where: dict[str, str | None] = {}
        for h, u in units.items():
            if u.status == PRISONER:
                self._file(h, u)

    def _file(self, h: str, u: Unit) -> None:
        g = u.guard
        self.where[h] = g
        bucket = self.by_guard.get(g)
        if bucket is None:
            self.by_guard[g] = {h: u}
        else:
            bucket[h] = u

    def refile(self, h: str, u: Unit | None) -> None:
        where = self.where
        if h in where:
            old = where.pop(h)
            bucket = self.by_guard[old]
            del bucket[h]
            if not bucket:
                del self.by_guard[old]
        if u is not None and u.status == PRISONER:
            self._file(h, u)


_INDEXED = frozenset((ACTIVE, UNARMED))


class LocationIndex:
    """Which active and free unarmed units (on the board, not prisoners) stand in each
    Location,
    by handle, kept like the prisoner index: refiled from the tracker's ``moved`` list,
    where setting a unit's ``status`` or ``location`` lists it. Only active units: the
    eliminated, escorted and exchanged keep their Location, and a long campaign piles
    hundreds of them into a hex. Membership is by handle, so a view (whose units never
    move) reads the right units even after the live state has given it copies."""

    __slots__ = ("units_id", "epoch", "pos", "n", "at", "where")

    def __init__(self, units: dict[str, Unit], tracker: ChangeTracker) -> None:
        self.units_id = id(units)
        self.epoch = tracker.epoch
        self.pos = len(tracker.moved)
        self.n = len(units)
        self.at: dict[str, set[str]] = {}
        self.where: dict[str, str] = {}
        for h, u in units.items():
            self.refile(h, u)

    def refile(self, h: str, u: Unit | None) -> None:
        where = self.where
        old = where.get(h)
        new = u.location if u is not None and u.status in _INDEXED else None
        if old == new:
            return
        if old is not None:
            del where[h]
            bucket = self.at[old]
            bucket.discard(h)
            if not bucket:
                del self.at[old]
        if new is not None:
            where[h] = new
            there = self.at.get(new)
            if there is None:
                self.at[new] = {h}
            else:
                there.add(h)
