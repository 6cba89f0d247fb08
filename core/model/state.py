"""The game as it stands: the fold of the effective history.

Plain mutable objects, cloned for snapshots. Nothing here checks a rule; see
``core.rules``. Every casualty that is worth CVP is kept as a ``Casualty`` line so the
tally can explain each point. The units and the tracker of their changes are in
``core.model.tracked_unit``; the prisoner and Location indexes in
``core.model.unit_indexes``.
"""

from __future__ import annotations

import itertools
from dataclasses import field

import msgspec

from stockade.core.model.events import PHASES
from stockade.core.model.plain_dataclass import plain_dataclass
from stockade.core.model.scroungings import Scroungings
from stockade.core.model.tracked_unit import (
    ACTIVE,
    DIRTY_LIMIT,
    ChangeTracker,
    Tracked,
    Unit,
    clone_unit,
    copy_obj,
    record_set,
)
from stockade.core.model.unit_indexes import LocationIndex, PrisonerIndex
from stockade.core.model.victory import VictoryBook


@plain_dataclass
class Side(Tracked):
    """One side of the game: its nationality and ELR, and what No Quarter and a
    Massacre did to it."""

    name: str
    nationality: str
    elr: int
    no_quarter: bool = False  # this side has invoked No Quarter (A20.3)
    no_quarter_seq: int = 0
    massacred: bool = False  # this side has committed a Massacre (A20.4)
    massacre_seq: int = 0
    elr_raised: bool = False  # this side's ELR was raised by an enemy Massacre (once only)

    __setattr__ = record_set  # the pre-image of every set while an event folds


@plain_dataclass
class Casualty:
    """One line of the CVP tally: who, what, which event, which rule, how many times."""

    seq: int
    turn: int
    credited: str  # the side that scores
    unit: str  # handle
    counter: str
    unit_kind: str
    base: int
    multiplier: int
    rule: str
    why: str

    @property
    def points(self) -> int:
        return self.base * self.multiplier


@plain_dataclass
class GameState(Tracked):
    """The game as it stands after the entries folded so far: its sides, clock, units,
    casualty lines, Scroungings and Victory Conditions."""

    scenario: str = ""
    sides: dict[str, Side] = field(default_factory=dict)
    cvp_overrides: dict[str, int] = field(default_factory=dict)
    turn: int = 1
    attacker: str = ""
    phase: str = PHASES[0]
    ended: bool = False
    strict: bool = False  # the game's header: no entry implies a board fact
    units: dict[str, Unit] = field(default_factory=dict)
    casualties: list[Casualty] = field(default_factory=list)
    scrounged: Scroungings = field(default_factory=Scroungings)  # (turn, attacker, hex)
    last_seq: int = 0
    # the Victory Conditions, Exit VP and Location control: frozen, replaced whole
    vc: VictoryBook = field(default_factory=VictoryBook)

    # -- lookups ----------------------------------------------------------------
    def side_names(self) -> list[str]:
        return list(self.sides)

    def enemy_of(self, side: str) -> str:
        for name in self.sides:
            if name != side:
                return name
        return ""

    @property
    def defender(self) -> str:
        return self.enemy_of(self.attacker)

    __setattr__ = record_set  # the pre-image of every set while an event folds

    @property
    def tracker(self) -> ChangeTracker:
        """This state's ChangeTracker; a state without one (fresh, or read from the
        snapshot cache) gets one, and its units and sides are tied to it."""
        try:
            t = self._tracker
        except AttributeError:
            t = None
        if t is None:
            t = ChangeTracker()
            self._track(t)
            for u in self.units.values():
                u._track(t)
            for side in self.sides.values():
                side._track(t)
        return t

    def add_unit(self, unit: Unit) -> None:
        """Bring a counter into play (or replace the one with its handle), tracked."""
        t = self.tracker
        unit._track(t)
        t.dirty.append(unit)  # a replaced counter must be refiled by the indexes
        t.moved.append(unit)
        self.units[unit.handle] = unit

    def add_side(self, side: Side) -> None:
        side._track(self.tracker)
        self.sides[side.name] = side

    def _index(self) -> PrisonerIndex:
        """The prisoner index, brought up to date with the units changed since."""
        units = self.units
        try:
            t = self._tracker
        except AttributeError:
            t = None
        if t is None:
            t = self.tracker
        dirty = t.dirty
        idx: PrisonerIndex | None = self.__dict__.get("_prisoner_index")
        if idx is None or idx.units_id != id(units) or idx.epoch != t.epoch or len(units) < idx.n:
            if len(dirty) > DIRTY_LIMIT:
                t.trim()
            idx = PrisonerIndex(units, t)
            self.__dict__["_prisoner_index"] = idx
            return idx
        if len(units) > idx.n:  # units added since: the last ones in the dict
            order = idx.order
            fresh = list(itertools.islice(reversed(units), len(units) - idx.n))
            for h in reversed(fresh):
                if h not in order:
                    order[h] = idx.next
                    idx.next += 1
                idx.refile(h, units[h])
            idx.n = len(units)
        end = len(dirty)
        if idx.pos != end:
            get = units.get
            for u in dirty[idx.pos : end]:
                h = u.handle
                if get(h) is u:
                    idx.refile(h, u)
            idx.pos = end
            if end > DIRTY_LIMIT:  # trim: every other index of this tracker rebuilds once
                t.trim()
                idx.epoch, idx.pos = t.epoch, 0
        return idx

    def drop_last_units(self, count: int) -> None:
        """Take the last ``count`` units added out of the state (undo)."""
        idx = self._index()
        units = self.units
        at = self.__dict__.get("_location_index")
        if at is not None and (at.units_id != id(units) or at.n != len(units)):
            at = None  # out of step: rebuilt on its next use
            self.__dict__.pop("_location_index", None)
        for _ in range(count):
            h, _u = units.popitem()
            idx.order.pop(h, None)
            idx.refile(h, None)
            if at is not None:
                at.refile(h, None)
        idx.n = len(units)
        if at is not None:
            at.n = len(units)

    def _locations(self) -> LocationIndex:
        """The Location index, brought up to date with the units changed since."""
        units = self.units
        t = self.tracker
        moved = t.moved
        at: LocationIndex | None = self.__dict__.get("_location_index")
        if at is None or at.units_id != id(units) or at.epoch != t.epoch or len(units) < at.n:
            at = LocationIndex(units, t)
            self.__dict__["_location_index"] = at
            return at
        if len(units) > at.n:  # units added since: the last ones in the dict
            for h in itertools.islice(reversed(units), len(units) - at.n):
                at.refile(h, units[h])
            at.n = len(units)
        end = len(moved)
        if at.pos != end:
            get = units.get
            for u in moved[at.pos : end]:
                h = u.handle
                if get(h) is u:
                    at.refile(h, u)
            at.pos = end
            if end > DIRTY_LIMIT:  # trim: every index of this tracker rebuilds once
                t.trim()
                at.epoch, at.pos = t.epoch, 0
        return at

    def active_at(self, location: str) -> list[Unit]:
        """Every active unit (``status`` ACTIVE) whose Location is ``location``, in unit
        order: what a scan of ``units`` gives, without the scan (O(units) per surrender
        or elimination made a long campaign's fold quadratic)."""
        handles = self._locations().at.get(location)
        if not handles:
            return []
        units = self.units
        out = [u for u in (units[h] for h in handles) if u.status == ACTIVE]
        if len(out) > 1:
            order = self._index().order
            out.sort(key=lambda u: order[u.handle])
        return out

    def free_index(self) -> dict[str, set[str]]:
        """Location -> the handles of the active and free unarmed units there (the
        Location index, up to date; read it, never change it)."""
        return self._locations().at

    def on_board_at(self, location: str) -> list[Unit]:
        """Every unit on the board in ``location``: the active and free unarmed ones
        (from the Location index) and the prisoners of the Guards there, in no set
        order."""
        handles = self._locations().at.get(location)
        if not handles:
            return []
        units = self.units
        out = [units[h] for h in handles]
        for u in list(out):
            if u.status == ACTIVE:
                out += self.prisoners_of(u.handle)
        return out

    def _prisoners(self) -> list[Unit]:
        """Every prisoner, in unit order."""
        idx = self._index()
        out = [u for bucket in idx.by_guard.values() for u in bucket.values()]
        if len(out) > 1:
            order = idx.order
            out.sort(key=lambda u: order[u.handle])
        return out

    def prisoners_of(self, guard: str) -> list[Unit]:
        idx = self._index()
        bucket = idx.by_guard.get(guard)
        if not bucket:
            return []
        out = list(bucket.values())
        if len(out) > 1:
            order = idx.order
            out.sort(key=lambda u: order[u.handle])
        return out

    def guards(self) -> list[Unit]:
        idx = self._index()
        units, order = self.units, idx.order
        held = [g for g in idx.by_guard if g in units]
        held.sort(key=order.__getitem__)
        return [units[h] for h in held]

    def prisoner_load(self, guard: str) -> int:
        return sum(p.us for p in self.prisoners_of(guard))

    def clone(self) -> GameState:
        """An independent copy (snapshots, previews), written out by hand: it knows which
        fields hold containers, where ``copy.deepcopy`` walks everything. Every mutable
        container a field holds is copied here; tests/log/test_durability_clone.py fails if
        a new one is added and not copied.
        Casualty lines are shared: they are never changed once booked."""
        new = copy_obj(self)
        d = new.__dict__  # set directly: a clone is never part of an undo record
        d.pop("_prisoner_index", None)
        d.pop("_location_index", None)
        d["sides"] = {name: copy_obj(side) for name, side in self.sides.items()}
        d["cvp_overrides"] = dict(self.cvp_overrides)
        d["units"] = {handle: clone_unit(u) for handle, u in self.units.items()}
        d["casualties"] = list(self.casualties)
        d["scrounged"] = self.scrounged.copy()
        vc = self.vc  # frozen (a new holder is enough) but for its control rows
        d["vc"] = vc.with_rows() if vc.has_rows() else msgspec.structs.replace(vc)
        new.tracker  # noqa: B018  a tracker of its own, tying its units and sides to it
        return new
