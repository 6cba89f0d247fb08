"""The game as it stands: the fold of the effective history.

Plain mutable objects, cloned for snapshots. Nothing here checks a rule; see
``core.rules``. Every casualty that is worth CVP is kept as a ``Casualty`` line so the
tally can explain each point.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any, TypeVar

from stockade.core.model.events import PHASES
from stockade.core.model.units import INFANTRY_KINDS, SMC_KINDS, us_number

# A unit's standing on the board.
ACTIVE = "active"  # on the board, armed (or an unarmed SMC? never: SMC rearm at once)
PRISONER = "prisoner"  # unarmed, above its Guard
UNARMED = "unarmed"  # unarmed, free: abandoned, escaped or freed
ELIMINATED = "eliminated"
ESCORTED = "escorted"  # left by a Friendly Board Edge (with its Guard, or as a prisoner)
GONE = "gone"  # exchanged into another counter (merged, split, deployed)


# Units whose ``status`` or ``guard`` was set are listed in their tracker, in order: the
# state's prisoner index reads the entries after the last one it saw and refiles just
# those units (instead of rescanning every unit of a long campaign); likewise units
# whose ``status`` or ``location`` was set, for the Location index (two lists: units move
# all the time, and the prisoner index has no use for a move). Past this many entries
# the lists are trimmed, which bumps the epoch: the indexes rebuild once.
DIRTY_LIMIT = 200_000


class ChangeTracker:
    """What the objects of one live state tell about their changes, in one place.

    Every Unit and Side of a state, and the state itself, point at the same tracker
    (their ``_tracker`` slot), so their ``__setattr__`` hooks can:

    * record pre-images for undo: while the projection (``core.book.projection``) folds an
      event it points ``rec`` at that event's undo entry (and back to None after), and
      every attribute set on a tracked object is appended to it as (object, name, old
      value);
    * list units whose ``status`` or ``guard`` changed (``dirty``, ``epoch``), read
      lazily by the state's prisoner index, and those whose ``status`` or ``location``
      changed (``moved``), read by its Location index;
    * keep read-only views made by ``state_at`` still: they share unchanged Unit
      objects with the live state, and a unit about to change is first copied into
      every registered view that still holds it.

    Clones get a tracker of their own, so nothing passes between states.
    """

    __slots__ = ("rec", "dirty", "moved", "epoch", "views", "lock")

    def __init__(self) -> None:
        self.rec: list[Any] | None = None
        self.dirty: list[Unit] = []
        self.moved: list[Unit] = []
        self.epoch = 0
        self.views: list[weakref.ref[GameState]] = []
        self.lock = threading.Lock()  # views are made in a worker thread (TUI replay)

    def __deepcopy__(self, memo: dict[int, Any]) -> ChangeTracker:
        return ChangeTracker()  # a deep copy is a new state: it starts untracked-clean

    def register_view(self, view: GameState) -> None:
        with self.lock:
            self.views[:] = [ref for ref in self.views if ref() is not None]
            self.views.append(weakref.ref(view))

    def preserve(self, unit: Unit) -> None:
        """Give every view that still shares ``unit`` its own copy (before it changes)."""
        dead = False
        for ref in tuple(self.views):
            view = ref()
            if view is None:
                dead = True
                continue
            units = view.units
            if units.get(unit.handle) is unit:
                units[unit.handle] = _clone_unit(unit)
                # its prisoner index holds Unit objects: this one is no longer the view's
                view.__dict__.pop("_prisoner_index", None)
        if dead:
            with self.lock:
                self.views[:] = [ref for ref in self.views if ref() is not None]

    def trim(self) -> None:
        self.dirty.clear()
        self.moved.clear()
        self.epoch += 1


class _Tracked:
    """The slot that ties an object to its state's ChangeTracker (unset: untracked,
    e.g. a temporary unit a rule builds to ask a question, or a view's own copy)."""

    __slots__ = ("_tracker",)
    _tracker: ChangeTracker | None

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        # The slot starts as None (untracked), not unset: a dataclass ``__init__`` sets
        # every field through ``__setattr__``, and reading an unset slot raises an
        # AttributeError each time (a new Unit would cost several times as much).
        self = super().__new__(cls)
        object.__setattr__(self, "_tracker", None)
        return self

    def _track(self, tracker: ChangeTracker | None) -> None:
        object.__setattr__(self, "_tracker", tracker)


@dataclass
class Origin:
    """What a prisoner counter stands for, for VP: a crew stays a crew (A20.5)."""

    handle: str
    unit_kind: str
    counter: str
    cvp: int


@dataclass
class Unit(_Tracked):
    handle: str
    side: str  # the side that owns it (for a prisoner: its original side)
    unit_kind: str
    counter: str
    created: int  # seq of the event that brought this counter into play
    cvp: int  # normal CVP of this counter as it stands
    origins: list[Origin]
    traits: frozenset[str] = frozenset()
    status: str = ACTIVE
    armed: bool = True
    broken: bool = False
    pinned: bool = False
    berserk: bool = False
    melee: bool = False
    disrupted: bool = False
    location: str = ""
    guard: str | None = None  # prisoner: the handle of its Guard
    unarmed_how: str = ""  # abandoned / escaped / freed
    abandoned_by: str = ""  # the side that abandoned it (A20.53 protection)
    captured_seq: int = 0
    captured_how: str = ""
    captured_at: str = ""  # the Location it stood in when it surrendered/was captured
    # A20.221: when (turn/attacker/phase) a CC capture took it, and what it was, so a
    # capture voided by simultaneous CC can give the unit back as it was
    captured_clock: str = ""
    captured_traits: frozenset[str] = frozenset()
    captured_broken: bool = False
    surrendered_to: str = ""  # side it surrendered to (A20.551 rearm by surrender)
    rearm_spent: bool = False  # this enemy already rearmed one unarmed unit (A20.551)
    ended_seq: int = 0  # seq that eliminated/escorted/merged it
    note: str = ""

    @property
    def us(self) -> int:
        return us_number(self.unit_kind)

    @property
    def is_smc(self) -> bool:
        return self.unit_kind in SMC_KINDS

    @property
    def is_infantry(self) -> bool:
        return self.unit_kind in INFANTRY_KINDS

    @property
    def on_board(self) -> bool:
        return self.status in (ACTIVE, PRISONER, UNARMED)

    @property
    def origin_cvp(self) -> int:
        return sum(o.cvp for o in self.origins)

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        try:
            t = self._tracker
        except AttributeError:  # untracked: being built, or a temporary
            d[name] = value
            return
        if t is None:
            d[name] = value
            return
        if name in d:
            old = d[name]
            if t.views:
                t.preserve(self)  # a state_at view still shares this unit: give it a copy
            rec = t.rec
            if rec is not None and old is not value:
                rec.extend((self, name, old))  # pre-image, for undo (core.book.projection)
        # the state's prisoner and Location indexes refile it lazily
        if name == "location":
            t.moved.append(self)
        elif name == "status":
            t.dirty.append(self)
            t.moved.append(self)
        elif name == "guard":
            t.dirty.append(self)
        d[name] = value


# A new Unit is untracked, so its dataclass ``__init__`` setting each of its 29 fields
# through ``__setattr__`` still paid 29 Python calls a unit (and a campaign's fold
# makes one per counter). This one copies a template's ``__dict__`` (every field, in
# the dataclass's order, with its default) and sets the given fields over it: the same
# fields, defaults and errors (tests/test_core_fast_open.py holds it to the
# dataclass), and a key-sharing ``__dict__`` as small as the dataclass's (a
# ``dict.update`` from a plain dict made a combined one: ~830 bytes, not ~300).
_UNIT_FIELDS = tuple(f.name for f in dataclasses.fields(Unit))
_UNIT_FIELD_SET = frozenset(_UNIT_FIELDS)
_NO_VALUE = object()
_TEMPLATE = Unit.__new__(Unit)
for _f in dataclasses.fields(Unit):
    assert _f.default_factory is dataclasses.MISSING, "a factory default: not made here"
    _default = _NO_VALUE if _f.default is dataclasses.MISSING else _f.default
    object.__setattr__(_TEMPLATE, _f.name, _default)  # in order: the shared keys
_N_REQUIRED = sum(value is _NO_VALUE for value in _TEMPLATE.__dict__.values())  # the first
# the required fields from the n-th on, which keyword arguments must give
_REQUIRED_FROM = [frozenset(_UNIT_FIELDS[n:_N_REQUIRED]) for n in range(_N_REQUIRED + 1)]


def _unit_init(self: Unit, *args: Any, **kwargs: Any) -> None:
    d = self.__dict__
    d.update(_TEMPLATE.__dict__)
    if args:
        named = _UNIT_FIELDS[: len(args)]
        if len(args) > len(_UNIT_FIELDS) or not kwargs.keys().isdisjoint(named):
            raise TypeError(f"Unit() got {len(args)} positional arguments or one twice")
        d.update(zip(named, args, strict=True))
    if not kwargs.keys() <= _UNIT_FIELD_SET:
        raise TypeError(f"Unit() got unexpected fields {sorted(kwargs.keys() - _UNIT_FIELD_SET)}")
    d.update(kwargs)
    if not _REQUIRED_FROM[min(len(args), _N_REQUIRED)] <= kwargs.keys():
        missing = [name for name in _UNIT_FIELDS if d[name] is _NO_VALUE]
        raise TypeError(f"Unit() missing required arguments {missing}")


Unit.__init__ = _unit_init  # type: ignore[method-assign]  # callers see the dataclass's


def _record_set(obj: Side | GameState, name: str, value: Any) -> None:
    """Set ``name`` on a Side or the state, recording the pre-image while an event
    folds. The slot is read directly (a ``getattr`` with a default cost a fifth of
    every set, and the fold sets the state's ``last_seq`` once an event)."""
    d = obj.__dict__
    if name in d:
        old = d[name]
        if old is not value:
            try:
                t = obj._tracker
            except AttributeError:  # made without __new__ (read from the snapshot cache)
                t = None
            if t is not None:
                rec = t.rec
                if rec is not None:
                    rec.extend((obj, name, old))
    d[name] = value


class _PrisonerIndex:
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


class _LocationIndex:
    """Which active units (on the board, armed, not prisoners) stand in each Location,
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
        new = u.location if u is not None and u.status == ACTIVE else None
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


@dataclass
class Side(_Tracked):
    name: str
    nationality: str
    elr: int
    no_quarter: bool = False  # this side has invoked No Quarter (A20.3)
    no_quarter_seq: int = 0
    massacred: bool = False  # this side has committed a Massacre (A20.4)
    massacre_seq: int = 0
    elr_raised: bool = False  # this side's ELR was raised by an enemy Massacre (once only)

    __setattr__ = _record_set  # the pre-image of every set while an event folds


@dataclass
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


@dataclass
class GameState(_Tracked):
    scenario: str = ""
    sides: dict[str, Side] = field(default_factory=dict)
    cvp_overrides: dict[str, int] = field(default_factory=dict)
    turn: int = 1
    attacker: str = ""
    phase: str = PHASES[0]
    ended: bool = False
    units: dict[str, Unit] = field(default_factory=dict)
    casualties: list[Casualty] = field(default_factory=list)
    scrounged: set[tuple[int, str, str]] = field(default_factory=set)  # (turn, attacker, hex)
    last_seq: int = 0

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

    __setattr__ = _record_set  # the pre-image of every set while an event folds

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

    def _index(self) -> _PrisonerIndex:
        """The prisoner index, brought up to date with the units changed since."""
        units = self.units
        try:
            t = self._tracker
        except AttributeError:
            t = None
        if t is None:
            t = self.tracker
        dirty = t.dirty
        idx: _PrisonerIndex | None = self.__dict__.get("_prisoner_index")
        if idx is None or idx.units_id != id(units) or idx.epoch != t.epoch or len(units) < idx.n:
            if len(dirty) > DIRTY_LIMIT:
                t.trim()
            idx = _PrisonerIndex(units, t)
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

    def _locations(self) -> _LocationIndex:
        """The Location index, brought up to date with the units changed since."""
        units = self.units
        t = self.tracker
        moved = t.moved
        at: _LocationIndex | None = self.__dict__.get("_location_index")
        if at is None or at.units_id != id(units) or at.epoch != t.epoch or len(units) < at.n:
            at = _LocationIndex(units, t)
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
        out = [units[h] for h in handles]
        if len(out) > 1:
            order = self._index().order
            out.sort(key=lambda u: order[u.handle])
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
        container a field holds is copied here; tests/test_durability_clone.py fails if
        a new one is added and not copied.
        Casualty lines are shared: they are never changed once booked."""
        new = _copy_obj(self)
        d = new.__dict__  # set directly: a clone is never part of an undo record
        d.pop("_prisoner_index", None)
        d.pop("_location_index", None)
        d["sides"] = {name: _copy_obj(side) for name, side in self.sides.items()}
        d["cvp_overrides"] = dict(self.cvp_overrides)
        d["units"] = {handle: _clone_unit(u) for handle, u in self.units.items()}
        d["casualties"] = list(self.casualties)
        d["scrounged"] = set(self.scrounged)
        new.tracker  # noqa: B018  a tracker of its own, tying its units and sides to it
        return new


_T = TypeVar("_T")


def _copy_obj(obj: _T) -> _T:
    """A shallow copy of a dataclass's fields, without ``__init__``; the copy is
    untracked (its ``_tracker`` slot is not copied)."""
    clone: _T = object.__new__(type(obj))
    clone.__dict__.update(obj.__dict__)
    return clone


def _clone_unit(u: Unit) -> Unit:
    clone = object.__new__(Unit)
    clone.__dict__.update(u.__dict__)
    clone.origins = [_copy_obj(o) for o in u.origins]
    return clone
